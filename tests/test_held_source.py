"""compiler/passes/held_source.py: an aggregate over every cell of a grid of seats whose first
test is what the cell holds walks only the cells holding it. Trees before and after, what the
pass leaves alone, and games played alike by the two phrasings on both engines."""
from __future__ import annotations

from pathlib import Path

import pytest

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import lower
from regle.compiler.ir import nodes as N
from regle.compiler.passes import optimize

ROOT = Path(__file__).resolve().parents[1]
BREAKTHROUGH = (ROOT / "games/classics/breakthrough.rules").read_text(encoding="utf-8")
END = "end when any(row(board, c) == goal(me) for c in filled_cells(board, me)) then winner me"


def _end(text: str):
    """The first end condition's tree, after the passes both engines share up to this one."""
    ir = optimize(lower(text, "breakthrough.rules"), until="held_source")
    return ir.end_winners[0][1]


def _with(end: str) -> str:
    assert END in BREAKTHROUGH
    return BREAKTHROUGH.replace(END, end)


def test_every_cell_tested_for_my_piece_walks_my_pieces():
    every = _end(_with("end when any(board[c] == me and row(board, c) == goal(me) for c in cells(board)) then winner me"))
    mine = _end(BREAKTHROUGH)
    assert isinstance(every.source, N.Helper) and every.source.name == "K.cells_holding"
    assert repr(every.source.args[1:]) == repr(mine.source.args[1:])  # as filled_cells(board, me) is lowered
    assert "CellRead" not in repr(every.elem)  # the test of the cell is gone, the row's stays
    alone = _end(_with("end when any(board[c] == me for c in cells(board)) then winner me"))
    assert alone.source.name == "K.cells_holding" and isinstance(alone.elem, N.Const) and alone.elem.value is True


def test_a_where_clause_is_walked_so_in_every_aggregate():
    counted = _end(_with("end when count(c for c in cells(board) where board[c] == 1 and row(board, c) == 0) > 2 "
                         "then winner me"))
    agg = counted if isinstance(counted, N.Aggregate) else next(
        p for p in (getattr(counted, "left", None), getattr(counted, "operand", None)) if isinstance(p, N.Aggregate))
    assert agg.source.name == "K.cells_holding" and agg.source.args[2].value == 1
    assert "CellRead" not in repr(agg.cond) and "G_board__ROWS" in repr(agg.cond)


@pytest.mark.parametrize("end", [
    # all(a and b) over fewer cells is not all(a and b)
    "end when all(board[c] == me and row(board, c) >= 0 for c in cells(board)) then winner me",
    # a seat read from the state or worked out: not me, not a number
    "end when any(board[c] == 1 - me and row(board, c) == goal(me) for c in cells(board)) then winner me",
    # the test of the cell not first
    "end when any(row(board, c) == goal(me) and board[c] == me for c in cells(board)) then winner me",
])
def test_what_the_pass_leaves_alone(end):
    assert isinstance(_end(_with(end)).source, N.Upto)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_the_two_phrasings_play_alike(backend):
    """An end condition and a count in a require, each written over every cell with the test of
    what it holds first: the legal moves at every node and the results the same as the rules
    written over a seat's pieces, over seeded random games."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    every = _with("end when any(board[c] == me and row(board, c) == goal(me) for c in cells(board)) then winner me")
    every = every.replace("    require not is_empty(board, t) and board[t] != me\n",
                          "    require not is_empty(board, t) and board[t] != me\n"
                          "    require count(x for x in cells(board) where board[x] == me and row(board, x) >= 0) > 0\n")
    mine = BREAKTHROUGH.replace("    require not is_empty(board, t) and board[t] != me\n",
                                "    require not is_empty(board, t) and board[t] != me\n"
                                "    require count(x for x in filled_cells(board, me) where row(board, x) >= 0) > 0\n")
    a, b = (regle.loads(text, name=f"held_{k}", backend=backend) for k, text in (("every", every), ("mine", mine)))
    nodes, _ = play_alike(b, a, 40 if backend == "native" else 12)
    assert nodes > 100
