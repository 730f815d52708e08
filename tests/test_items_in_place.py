"""compiler/passes/items_in_place.py: natively, a short list of whole numbers the lowering made
once before the loops is walked in its loop as C locals; trees before and after, what stays,
and a game played alike with the pass and without (its perft too)."""
from __future__ import annotations

import pytest

import regle
import regle.compiler.write.written as written
from conftest import play_alike
from regle import native
from regle.compiler.generate import native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.passes.items_in_place import items_in_place
from regle.compiler.write.moves import AddMove, CellScan, Guard, ItemScan, Scan, Source

CELL = T.Type("cell", space="board")
GRID = T.Type("grid", space="board")
INT, BOOL = T.INT, T.BOOL
ITEMS = N.ListOf(T.list_of(CELL), 0, (N.Binary(CELL, 0, "+", N.Local(INT, 0, "me"), N.Const(INT, 0, 2)),
                                      N.Binary(CELL, 0, "*", N.Local(INT, 0, "me"), N.Const(INT, 0, 6))))
SRC = N.Local(T.list_of(CELL), 0, "_src0_1")


def _generator(source=ITEMS, names="t_", extra=()) -> tuple:
    """The list made before the loops, a loop over cells, and inside it a loop over the list."""
    cells = N.Cells(T.list_of(CELL), 0, N.Field(GRID, 0, "g_board"), False)
    inner = Scan(0, names, SRC, body=(*extra, AddMove(0, 0, (N.Local(CELL, 0, "c_"), N.Local(CELL, 0, "t_")))))
    return (Source(0, "_src0_1", source), CellScan(0, "c_", cells, body=(inner,)))


def test_the_list_is_walked_in_its_loop_and_no_longer_made_before():
    out, made = items_in_place(_generator())
    assert made == ["_kin0", "_kin0_0", "_kin0_1"]
    assert len(out) == 1 and isinstance(out[0], CellScan)
    (scan,) = out[0].body
    assert isinstance(scan, ItemScan) and scan.var == "t_" and scan.cells == ITEMS
    assert scan.k == "_kin0" and scan.items == ("_kin0_0", "_kin0_1") and isinstance(scan.body[-1], AddMove)


def test_what_is_left_as_it_was():
    """A list read elsewhere too keeps its local (the loop still walks its items in place); a
    longer list, a list of pairs' names, a source computed once per call, and a source that is
    not a list written out are not touched."""
    reads = Guard(0, N.Binary(BOOL, 0, "in", N.Local(CELL, 0, "c_"), SRC), None)
    out, made = items_in_place(_generator(extra=(reads,)))
    assert isinstance(out[0], Source) and isinstance(out[1].body[0], ItemScan) and made
    long = N.ListOf(T.list_of(CELL), 0, tuple(N.Const(INT, 0, i) for i in range(9)))
    for block in (_generator(long), _generator(names="a_, b_"),
                  (Source(0, "_src0_1", ITEMS, once=True), *_generator()[1:]),
                  _generator(N.Upto(T.list_of(INT), 0, N.Local(INT, 0, "n_")))):
        assert items_in_place(block) == (block, [])


CORNERS = """
game "Corners" {
  seats white, black
  max decisions 100
}

grid board: player square 5 by 5

define home(x) = cell(board, x, 4 * me)

setup {
  put white at cell(board, 2, 2) on board
}

turn {
  /// A stone goes next to a stone of its own, or on one of the two corners of its home row.
  action corner(c in filled_cells(board, me) + [home(2)], t in [home(0), home(4)]) "{c}{t}" {
    require is_empty(board, t)
    put me at t on board
  }
  action step(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
    require is_empty(board, t)
    put me at t on board
  }
}

end when count(empty_cells(board)) <= 3 then draw
"""


def test_the_written_engine_walks_the_list_in_c():
    source = native_source(CORNERS, "corners.rules")
    assert "for _kin0 in range(2):" in source
    assert "_src" not in source.split("cdef Py_ssize_t _keys_0")[1].split("\n    cdef ")[0]


@pytest.mark.skipif(not native.available(), reason="no native engines here")
def test_a_game_plays_alike_with_the_list_in_its_loop(monkeypatch):
    placed = regle.loads(CORNERS, name="corners_placed", backend="native")
    monkeypatch.setattr(written, "items_in_place", lambda moves: (moves, []))
    made = regle.loads(CORNERS, name="corners_made_before", backend="native")
    nodes, _ = play_alike(made, placed, 40, ids=True)
    assert nodes > 10 * 40
    assert placed.new_game().perft(3) == made.new_game().perft(3) == regle.loads(
        CORNERS, name="corners_python", backend="python").new_game().perft(3)
