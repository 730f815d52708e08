"""The pass that makes a let of a kernel's list, only counted, the count (compiler/passes/counts.py),
on trees made by hand."""
from __future__ import annotations

from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.passes.counts import count_only
from regle.compiler.write.emit import PythonWriter
from regle.compiler.write.moves import AddMove, Guard, move_lines, nest

CELLS = T.list_of(T.INT)
FLANKED = N.Helper(CELLS, 0, "K.flanked", (N.Field(T.ANY, 0, "g_board"), N.Local(T.INT, 0, "c_")))
TURNED = N.Local(CELLS, 0, "turned_")
ZERO = N.Const(T.INT, 0, 0)


def _generator(*reads) -> tuple:
    return nest([S.Assign(1, TURNED, "=", FLANKED), *(Guard(2, r) for r in reads), AddMove(3, 0, ())])


def test_a_let_only_counted_is_the_count_made_without_a_list():
    block, names = count_only(_generator(N.Binary(T.BOOL, 0, ">", N.Len(T.INT, 0, TURNED), ZERO)))
    assert names == {"turned_"}
    lines = move_lines(block, PythonWriter())
    assert "turned_ = K.flanked_count(s.g_board, c_)" in lines and "if turned_ > 0:" in lines


def test_a_let_read_otherwise_or_assigned_again_keeps_its_list():
    walked = N.Binary(T.BOOL, 0, "in", N.Local(T.INT, 0, "c_"), TURNED)
    counted = N.Binary(T.BOOL, 0, ">", N.Len(T.INT, 0, TURNED), ZERO)
    block = _generator(counted, walked)
    assert count_only(block) == (block, set())
    twice = (S.Assign(0, TURNED, "=", FLANKED),) + _generator(counted)
    assert count_only(twice) == (twice, set())
    other = N.Helper(CELLS, 0, "K.liberties", (N.Field(T.ANY, 0, "g_board"), N.Local(T.INT, 0, "c_")))
    kept = nest([S.Assign(1, TURNED, "=", other), Guard(2, counted), AddMove(3, 0, ())])
    assert count_only(kept) == (kept, set())  # no kernel that counts it without a list is known
