"""Natively, a move generator's innermost guard whose body only adds a move, and whose test
reads cells at indexes known good and numbers, counts the move with no branch
(compiler/write/keyed.py, ``_push_if``; runtime/_support.pxd, ``push_if``). Which tests
qualify, and what the engines of the shipped games get; that they play the same games as the
Python engine is held by tests/test_native.py and tests/test_classics.py."""
from __future__ import annotations

from pathlib import Path

from regle.compiler.generate import native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.write.keyed import _branch_free, _cell_test

ROOT = Path(__file__).resolve().parents[1]


def _code(text: str) -> N.Code:
    return N.Code(T.INT, 0, text, N.P_ATOM)


def test_which_tests_may_be_computed_whether_needed_or_not():
    cell, me, zero = _code("_byte_at(g_board, t_)"), N.Local(T.INT, 0, "me"), N.Const(T.INT, 0, 0)
    assert _branch_free(N.Binary(T.BOOL, 0, "==", cell, zero))
    assert _branch_free(N.Binary(T.BOOL, 0, "!=", N.Element(T.INT, 0, cell), me))
    assert _branch_free(N.Binary(T.BOOL, 0, "<=", N.Binary(T.INT, 0, "+", me, me), zero))
    assert not _branch_free(N.Binary(T.BOOL, 0, "==", _code("_cell(g_board, t_)"), zero))  # may fail: checked read
    assert not _branch_free(N.Binary(T.BOOL, 0, "==", _code("_byte_at(g_board, f(t_))"), zero))  # a call inside
    assert not _branch_free(N.Binary(T.BOOL, 0, "//", me, zero))  # may divide by zero
    assert not _branch_free(N.Helper(T.BOOL, 0, "K.lane_count", (me,)))  # a call
    assert not _branch_free(N.Binary(T.BOOL, 0, "and", me, me))  # (stops early: not a comparison)


def test_the_shipped_engines_count_their_simplest_moves_without_a_branch():
    breakthrough = native_source((ROOT / "games/classics/breakthrough.rules").read_text(encoding="utf-8"), "b.rules")
    assert "_push_if(s, _byte_at(g_board, t_) == 0, 0, c_, t_)" in breakthrough  # an advance to an empty square
    # a capture: the square holds a piece (a guard of its own) and it is the other seat's, one test
    assert "_push_if(s, (_byte_at(g_board, t_) != 0) & (_element(_byte_at(g_board, t_)) != me), 1, c_, t_)" \
        in breakthrough
    assert "if t_ >= 0:" in breakthrough  # where the square is: a branch (it makes the reads good)
    connect4 = native_source((ROOT / "games/classics/connect4.rules").read_text(encoding="utf-8"), "c.rules")
    assert "_push_if(s," not in connect4 and "if _lane_open(" in connect4  # a call: a branch


def test_which_guards_join_the_test_inside_them():
    """A guard whose test compares what a cell holds joins the branch-free test inside it; a
    test of where a cell is (an index against a bound: it may be what makes the reads inside
    good) does not, nor does anything that is not a comparison computed without a branch."""
    cell, t, me, zero = _code("_byte_at(g_board, t_)"), N.Local(T.INT, 0, "t_"), N.Local(T.INT, 0, "me"), \
        N.Const(T.INT, 0, 0)
    assert _cell_test(N.Binary(T.BOOL, 0, "!=", cell, zero))
    assert _cell_test(N.Binary(T.BOOL, 0, "==", me, N.Element(T.INT, 0, cell)))
    assert _cell_test(N.Binary(T.BOOL, 0, "==", N.Binary(T.INT, 0, "+", cell, me), zero))
    assert not _cell_test(N.Binary(T.BOOL, 0, ">=", t, zero))  # where: a bound
    assert not _cell_test(N.Binary(T.BOOL, 0, "!=", t, me))
    assert not _cell_test(N.Binary(T.BOOL, 0, "==", _code("_cell(g_board, t_)"), zero))  # a checked read
    assert not _cell_test(cell)  # not a comparison


NESTED = """game "Nested" { players 2 max decisions 30 }
grid board: player square 5 by 5 with diagonals
setup {
  put 0 at 0 on board
  put 1 at 24 on board
}
turn {
  action step(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
    require board[t] == none
    require row(board, t) >= row(board, c)
    move c to t on board
  }
  action take(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}x" {
    require board[t] != none
    require board[t] != me
    move c to t on board
  }
}
end when count(board, 1 - me) == 0 then winner me
"""


def test_nested_guards_joined_play_as_the_python_engine():
    """The joined guards keep the same moves, in the same order, as the Python engine lists."""
    import random

    import regle
    source = native_source(NESTED, "n.rules")
    assert ") & (" in source
    python, native = (regle.loads(NESTED, "nested", backend=b) for b in ("python", "native"))
    for seed in range(30):
        rng = random.Random(seed)
        a, b = python.new_game(2, seed=seed), native.new_game(2, seed=seed)
        while not a.over:
            assert a.legal_moves() == b.legal_moves() and a.legal_action_ids() == b.legal_action_ids()
            move = rng.choice(a.legal_action_ids())
            a.advance_id(move)
            b.advance_id(move)
        assert b.over and a.winners == b.winners


def test_a_guard_of_where_a_cell_is_stays_a_branch_around_the_reads_it_makes_good():
    """Guards nested by hand: a bound on the index (``t_ >= 0``) around a read of that cell
    stays a branch; a test of what a cell holds around one joins it."""
    from regle.compiler.write.emit_native import CythonWriter
    from regle.compiler.write.keyed import keyed_moves
    from regle.compiler.write.moves import AddMove, Guard, nest
    t, zero = N.Local(T.INT, 0, "t_"), N.Const(T.INT, 0, 0)
    cell = _code("_byte_at(g_board, t_)")
    bound = N.Binary(T.BOOL, 0, ">=", t, zero)
    empty, mine = N.Binary(T.BOOL, 0, "==", cell, zero), N.Binary(T.BOOL, 0, "!=", cell, N.Const(T.INT, 0, 2))
    move = AddMove(2, 0, (t,))

    def lines(*guards):
        block = nest([*(Guard(2, g) for g in guards), move])
        out = keyed_moves(block, [], "decision", False, CythonWriter())["lines"]
        return [line.split("  #")[0].strip() for line in out[2:-1]]  # (between the count's start and end)
    assert lines(bound, empty) == ["if t_ >= 0:", "_push_if(s, _byte_at(g_board, t_) == 0, 0, t_, 0)"]
    assert lines(mine, empty) == ["_push_if(s, (_byte_at(g_board, t_) != 2) & (_byte_at(g_board, t_) == 0), 0, t_, 0)"]
    assert lines(mine, bound, empty) == [  # joined down to the bound, which stays a branch
        "if _byte_at(g_board, t_) != 2:", "if t_ >= 0:", "_push_if(s, _byte_at(g_board, t_) == 0, 0, t_, 0)"]
