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
from regle.compiler.write.keyed import _branch_free

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
    assert "_push_if(s, _element(_byte_at(g_board, t_)) != me, 1, c_, t_)" in breakthrough  # a capture
    connect4 = native_source((ROOT / "games/classics/connect4.rules").read_text(encoding="utf-8"), "c.rules")
    assert "_push_if(s," not in connect4 and "if _lane_open(" in connect4  # a call: a branch
