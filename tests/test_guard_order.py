"""compiler/passes/guard_order.py: in a move generator's chain of guards, those that read nothing
of the state and cannot fail are tested first; trees before and after, the value of the chain
kept (the reference evaluator), and a real game's generator."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from regle.compiler.generate import lower
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.passes.guard_order import cannot_fail, order_guards
from regle.compiler.write.moves import AddMove, CellScan, Guard, NeighbourScan

ROOT = Path(__file__).resolve().parents[1]
CELL = T.Type("cell", space="board")
INT, BOOL = T.INT, T.BOOL


def _row(var: str) -> N.Expr:
    return N.Geometry(INT, 0, "G_board__ROWS", N.Local(CELL, 0, var))


def _board(var: str) -> N.Expr:
    return N.CellRead(INT, 0, N.Field(T.Type("grid", space="board"), 0, "g_board"), N.Local(CELL, 0, var))


ROW_TEST = N.Binary(BOOL, 0, "==", _row("t_"), N.Binary(INT, 0, "+", _row("c_"), N.Const(INT, 0, 1)))
BOARD_TEST = N.Binary(BOOL, 0, "!=", _board("t_"), N.Const(INT, 0, 0))
DIVIDES = N.Binary(BOOL, 0, ">", N.Binary(INT, 0, "//", N.Const(INT, 0, 10), N.Local(INT, 0, "k_")), N.Const(INT, 0, 1))
KNOWN = frozenset({"c_", "t_"})


def _chain(*tests: N.Expr) -> tuple:
    """Guards one inside the other, each after its comment, the last adding a move."""
    body: tuple = (AddMove(0, 0, ()),)
    for i, test in reversed(list(enumerate(tests))):
        body = (S.Comment(i, f"line {i}"), Guard(i, test, body))
    return body


def _tests_in_order(block: tuple) -> list:
    """The guards' tests from the outside in, each with the comment just before it."""
    out, comment = [], None
    while block:
        *before, last = block
        comment = before[-1].text if before and isinstance(before[-1], S.Comment) else None
        if not isinstance(last, Guard):
            return out
        out.append((comment, last.test))
        block = last.body
    return out


def _scans(body: tuple) -> tuple:
    """The block inside a loop over a seat's cells and one over each cell's neighbours."""
    grid = N.Field(T.Type("grid", space="board"), 0, "g_board")
    return (CellScan(0, "c_", N.Cells(T.list_of(CELL), 0, grid, True), body=(
        NeighbourScan(0, "t_", N.NeighbourList(T.list_of(CELL), 0, "G_board__ADJ", 8, N.Local(CELL, 0, "c_")),
                      "_d1", body=body),)),)


def test_a_test_of_tables_and_numbers_goes_before_a_read_of_the_board():
    ordered = order_guards(_scans(_chain(BOARD_TEST, ROW_TEST)))
    inner = ordered[0].body[0].body
    assert [(c, t) for c, t in _tests_in_order(inner)] == [("line 1", ROW_TEST), ("line 0", BOARD_TEST)]
    assert isinstance(inner[-1].body[-1].body[-1], AddMove)  # the move still added inside the last guard


def test_what_may_fail_or_reads_the_state_keeps_its_place_and_order():
    """A division (by a number that may be 0), a read of the board, and a table read at a cell
    no loop gives (it may be none) are not moved; the tests that cannot fail go first in their
    written order."""
    at_x = N.Binary(BOOL, 0, "==", _row("x_"), N.Const(INT, 0, 3))
    other = N.Binary(BOOL, 0, "!=", N.Local(INT, 0, "k_"), N.Const(INT, 0, 0))
    ordered = order_guards(_scans(_chain(BOARD_TEST, DIVIDES, ROW_TEST, at_x, other)))
    tests = [t for _, t in _tests_in_order(ordered[0].body[0].body)]
    assert tests == [ROW_TEST, other, BOARD_TEST, DIVIDES, at_x]


def test_a_chain_already_in_order_is_left_as_it_is_and_outside_a_loop_a_cell_may_be_none():
    block = _scans(_chain(ROW_TEST, BOARD_TEST))
    assert order_guards(block) == block
    alone = _chain(BOARD_TEST, ROW_TEST)  # no loop gives t_ or c_: the table read may be at none
    assert order_guards(alone) == alone


def test_what_cannot_fail():
    assert cannot_fail(ROW_TEST, KNOWN) and not cannot_fail(ROW_TEST, frozenset())
    assert not cannot_fail(BOARD_TEST, KNOWN) and not cannot_fail(DIVIDES, KNOWN)
    assert cannot_fail(N.Not(BOOL, 0, N.Binary(BOOL, 0, "and", N.Local(BOOL, 0, "a_"), N.Const(BOOL, 0, True))), KNOWN)
    assert not cannot_fail(N.Binary(BOOL, 0, "in", N.Local(INT, 0, "a_"), N.Local(T.list_of(INT), 0, "xs_")), KNOWN)


_LEAVES = st.fixed_dictionaries({"a": st.integers(-3, 3), "b": st.integers(-3, 3), "k": st.integers(-2, 2),
                                  "board": st.integers(0, 2)})
_POOL = [  # locals and numbers (they cannot fail), a division that can (by 0), a read standing for the state's
    N.Binary(BOOL, 0, "<", N.Local(INT, 0, "a"), N.Local(INT, 0, "b")),
    N.Binary(BOOL, 0, "!=", N.Local(INT, 0, "k"), N.Const(INT, 0, 0)),
    N.Binary(BOOL, 0, ">", N.Binary(INT, 0, "//", N.Const(INT, 0, 6), N.Local(INT, 0, "k")), N.Const(INT, 0, 1)),
    N.Binary(BOOL, 0, "==", N.Binary(INT, 0, "*", N.Local(INT, 0, "a"), N.Const(INT, 0, 2)), N.Local(INT, 0, "b")),
    N.Binary(BOOL, 0, "!=", N.Code(INT, 0, "board", 0), N.Const(INT, 0, 0)),
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(len(_POOL))), min_size=1, max_size=5), _LEAVES)
def test_the_chain_lets_through_the_same_moves_and_fails_nowhere_new(picks, leaves):
    """Chains of guards drawn from tests that cannot fail, a division that can (by 0) and a read
    standing for the state's, evaluated by the reference evaluator outside in, stopping at the
    first that fails: the guards that cannot fail come first, in their written order; the chain
    as ordered answers as the chain as written wherever that one answers, and never fails where
    it did not (a guard that cannot fail, tested earlier, may turn a move away before a division
    by 0 written ahead of it is reached: no error is ever made, one may be spared)."""
    def run(block):
        for _, test in _tests_in_order(block):
            if not evaluate(test, leaves):
                return False
        return True

    tests = [_POOL[i] for i in picks]
    written = _chain(*tests)
    ordered = order_guards(written)
    moved = [t for _, t in _tests_in_order(ordered)]
    assert sorted(map(id, moved)) == sorted(map(id, tests))  # the same guards, each once
    assert moved == [t for t in tests if cannot_fail(t, frozenset())] + [t for t in tests if not cannot_fail(t, frozenset())]
    try:
        expected = run(written)
    except ZeroDivisionError:
        expected = None
    try:
        got = run(ordered)
    except ZeroDivisionError:
        assert expected is None, "the order made an error the written order did not"
        return
    assert got == expected or expected is None and got is False


def test_breakthrough_s_capture_tests_its_geometry_first_however_written():
    """The phrasing suite's pair: the capture's requires in either order give one generator
    whose geometry tests come before the reads of the board."""
    text = (ROOT / "games/classics/breakthrough.rules").read_text(encoding="utf-8")
    board_first = text.replace(
        "    require row(board, t) == row(board, c) + forward(me)\n    require column(board, t) != column(board, c)\n"
        "    require not is_empty(board, t) and board[t] != me\n",
        "    require not is_empty(board, t) and board[t] != me\n    require column(board, t) != column(board, c)\n"
        "    require row(board, t) == row(board, c) + forward(me)\n")
    assert board_first != text
    for rules in (text, board_first):
        capture = order_guards(tuple(lower(rules, native=True).steps[0].move_lines))
        scan = [x for x in capture if isinstance(x, CellScan)][-1]
        kinds = [type(t).__name__ for _, t in _tests_in_order(scan.body[0].body)]
        assert kinds[:2] == ["Binary", "Binary"] and all(k in ("Binary",) for k in kinds)
        tests = [t for _, t in _tests_in_order(scan.body[0].body)]
        assert all(cannot_fail(t, KNOWN) for t in tests[:2]) and not any(cannot_fail(t, KNOWN) for t in tests[2:])
