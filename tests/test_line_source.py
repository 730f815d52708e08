"""compiler/passes/line_source.py: an aggregate over a grid's cells (or a seat's pieces) whose
first test fixes the row or the column walks that line's cells alone. The lines found on the
tables, the trees before and after, what the pass leaves alone, the node's value held to the
reference evaluator and to the runtime's twins, and games played alike with and without the
pass on both engines."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regle
from conftest import play_alike
from regle import native
from regle.compiler.check import geometry
from regle.compiler.generate import lower
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.ir.traverse import walk
from regle.compiler.passes import optimize
from regle.compiler.passes.line_source import regular_lines
from regle.runtime import ops

ROOT = Path(__file__).resolve().parents[1]
BREAKTHROUGH = (ROOT / "games/classics/breakthrough.rules").read_text(encoding="utf-8")
END = "end when any(row(board, c) == goal(me) for c in filled_cells(board, me)) then winner me"


def _rows_and_columns(geo) -> tuple[list, list]:
    return [y for _x, y in geo.coords], [x for x, _y in geo.coords]


def test_the_lines_are_read_from_the_tables():
    rows, columns = _rows_and_columns(geometry.square(8, 6))
    assert regular_lines(rows) == (0, 8, 1, 8, 6)  # row r: 8r .. 8r + 7
    assert regular_lines(columns) == (0, 1, 8, 6, 8)  # column x: x, x + 8, ... (six cells)
    lane_rows, lane_columns = _rows_and_columns(geometry.lanes(7, 6))
    assert regular_lines(lane_rows) == (0, 1, 6, 7, 6)  # lanes: cell = lane * height + row
    assert regular_lines(lane_columns) == (0, 6, 1, 6, 7)
    assert regular_lines([0, 0, 0, 1, 1, 1, 1, 2, 2, 2]) is None  # rows of 3, 4 and 3 cells (a hexagon's kind)
    assert regular_lines([0, 1, 1, 0]) is None  # row 0: cells 0 and 3, row 1: 1 and 2 (steps differ)
    assert regular_lines([]) is None and regular_lines([0, -1]) is None
    assert regular_lines([1, 0]) == (1, -1, 1, 1, 2)  # row r is cell 1 - r: regular still
    assert regular_lines([0]) == (0, 0, 1, 1, 1)


def _end(text: str, until: str | None = None):
    ir = optimize(lower(text, "breakthrough.rules"), until=until)
    return ir.end_winners[0][1]


def _with(end: str) -> str:
    assert END in BREAKTHROUGH
    return BREAKTHROUGH.replace(END, end)


def _aggregate(tree):
    return next(n for n in walk(tree) if isinstance(n, N.Aggregate)) if not isinstance(tree, N.Aggregate) else tree


def test_a_seats_pieces_tested_for_a_row_walk_the_row():
    before, after = _end(BREAKTHROUGH, until="held_source"), _end(BREAKTHROUGH)
    assert isinstance(before.source, N.Helper) and before.source.name == "K.cells_holding"
    assert isinstance(after.source, N.LineCells)
    assert (after.source.first, after.source.line_step, after.source.cell_step, after.source.count,
            after.source.lines) == (0, 8, 1, 8, 8)
    assert repr(after.source.index) == repr(before.elem.right)  # goal(me), read once
    assert "G_board__ROWS" not in repr(after.elem) and "CellRead" in repr(after.elem)  # board[c] == me instead


def test_every_cell_with_a_column_in_a_where_clause():
    tree = _aggregate(_end(_with("end when count(c for c in cells(board) where column(board, c) == 2 "
                                 "and board[c] == me) > 7 then winner me")))
    assert isinstance(tree.source, N.LineCells) and tree.source.index.value == 2
    assert (tree.source.first, tree.source.line_step, tree.source.cell_step) == (0, 1, 8)  # x, x + 8, ...
    assert "COLUMNS" not in repr(tree.cond) and "CellRead" in repr(tree.cond)


@pytest.mark.parametrize("end", [
    # the line worked out from the cell itself
    "end when any(row(board, c) == column(board, c) for c in filled_cells(board, me)) then winner me",
    # a line that may fail or cost to work out (read before any cell: it could fail where no cell is)
    "end when any(row(board, c) == size // (me + 1) for c in filled_cells(board, me)) then winner me",
    # all(a and b) over fewer cells is not all(a and b)
    "end when all(row(board, c) == goal(me) and board[c] == me for c in cells(board)) then winner me",
    # the line's test not first
    "end when any(board[c] == 1 - me and row(board, c) == goal(me) for c in cells(board)) then winner me",
    # not a test of one line
    "end when any(row(board, c) >= goal(me) for c in filled_cells(board, me)) then winner me",
])
def test_what_the_pass_leaves_alone(end):
    assert not isinstance(_aggregate(_end(_with(end))).source, N.LineCells)


def test_a_board_of_irregular_rows_is_left_alone():
    """A hexagon's rows hold 3, 4, 5, 4 and 3 cells: no line of it is walked; a rhombus's are."""
    game = ('game "Rows" {\n  players 2\n}\n\ngrid board: player SHAPE\n\n'
            'turn {\n  action place(c in empty_cells(board)) "{c}" {\n    put me at c on board\n  }\n}\n\n'
            'end when any(row(board, c) == 2 for c in filled_cells(board, me)) then winner me\n')
    for shape, walked in (("hex side 3", False), ("hex 4 by 4", True)):
        ir = optimize(lower(game.replace("SHAPE", shape), "rows.rules"))
        assert any(isinstance(n, N.LineCells) for end in ir.end_winners for n in walk(end[1])) == walked, shape


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([geometry.square(8, 6), geometry.square(5, 5, True), geometry.lanes(7, 6), geometry.square(1, 4)]),
       st.booleans(), st.integers(-3, 12))
def test_a_lines_cells_are_the_cells_whose_line_it_is(geo, by_rows, at):
    """The node's value (the reference evaluator), the Python engine's (ops.line_cells) and the
    native bounds' Python twins: the cells whose row (column) is ``at``, in order, none for a
    line the board lacks."""
    rows, columns = _rows_and_columns(geo)
    values = rows if by_rows else columns
    shape = regular_lines(values)
    want = [c for c, v in enumerate(values) if v == at]
    node = N.LineCells(T.list_of(T.INT), 0, N.Const(T.INT, 0, at), *shape)
    assert evaluate(node) == want
    assert list(ops.line_cells(at, *shape)) == want
    first, line_step, cell_step, count, lines = shape
    ns: dict = {}
    source = (ROOT / "compiler/write/templates/engine.py.j2").read_text(encoding="utf-8")
    for name in ("_line_first", "_line_end"):  # the twins as the Python rendering of a native engine has them
        start = source.index(f"def {name}(")
        exec(compile(source[start:source.index("\n\n", start)], name, "exec"), ns)  # noqa: S102 - our own template
    lo, hi = ns["_line_first"](at, lines, first, line_step), ns["_line_end"](at, lines, first, line_step,
                                                                               count * cell_step)
    assert list(range(lo, hi, cell_step)) == want


@pytest.mark.parametrize("backend", ["python", "native"])
def test_the_game_plays_alike_with_and_without_the_pass(backend):
    """Breakthrough's end (the goal row among my pieces) and a capture allowed only with a piece
    of mine in column 3 (a count over every cell of that column), against the same rules written so that the pass does not apply
    (``>=`` and ``<=``): the legal moves and ids at every node, the winners, the same."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    extra = ("    require not is_empty(board, t) and board[t] != me\n",
             "    require not is_empty(board, t) and board[t] != me\n"
             "    require count(x for x in cells(board) where column(board, x) == 3 and board[x] != me) < 8\n")
    walked = BREAKTHROUGH.replace(*extra)
    plain = walked.replace(END, "end when any(row(board, c) >= goal(me) and row(board, c) <= goal(me) "
                                "for c in filled_cells(board, me)) then winner me")
    plain = plain.replace("where column(board, x) == 3", "where column(board, x) >= 3 and column(board, x) <= 3")
    assert plain != walked
    a, b = (regle.loads(text, name=f"lines_{k}", backend=backend) for k, text in (("plain", plain), ("walked", walked)))
    nodes, decided = play_alike(a, b, 40 if backend == "native" else 10, ids=True)
    assert nodes > 400 and decided > 0
    if backend == "native":  # random playouts: the same games
        for seed in range(40):
            assert a.new_game(None, seed=seed).play_random_playout(seed).decisions \
                == b.new_game(None, seed=seed).play_random_playout(seed).decisions
