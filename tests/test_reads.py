"""The pass that takes a method's reads of the state once (compiler/passes/reads.py), on trees made by
hand: what it counts, what it rewrites, and where it must not reach."""
from __future__ import annotations

from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.write.emit import PythonWriter
from regle.compiler.write.emit_native import CythonWriter
from regle.compiler.write.moves import AddMove, Guard, KernelMoves, Scan, move_lines, nest
from regle.compiler.passes.reads import take_reads_once

ZONE = T.zone_of(T.INT)
ME = N.Local(T.PLAYER, 0, "me")
HAND = N.Index(ZONE, 0, N.Field(T.Type("zones", elem=T.INT, per="player"), 0, "z_hand"), ME)
POOL = N.Field(ZONE, 0, "z_pool")
ONE = N.Const(T.INT, 0, 1)


def _lines(block, writer=None) -> list[str]:
    return (writer or PythonWriter()).lines(block)


def _size_at_least(zone, n):
    return N.Binary(T.BOOL, 0, ">=", N.Len(T.INT, 0, zone), N.Const(T.INT, 0, n))


def test_a_read_made_twice_is_taken_once_and_a_read_made_once_is_left():
    block = [S.Eval(1, N.Append(T.ANY, 0, HAND, ONE)), S.Eval(2, N.Append(T.ANY, 0, HAND, ONE)),
             S.Eval(3, N.Removal(T.ANY, 0, POOL, ONE))]
    assert _lines(take_reads_once(block, native=False)) == [
        "z_hand__me = s.z_hand[me]  # read once",
        "z_hand__me.append(1)", "z_hand__me.append(1)", "s.z_pool.remove(1)"]
    # nothing read twice: the block as it was
    assert take_reads_once(block[2:], native=False) == block[2:]


def test_sizes_are_taken_once_only_where_the_method_changes_nothing():
    block = [S.If(1, ((_size_at_least(HAND, 2), (S.Return(1, ONE),)),)),
             S.If(2, ((_size_at_least(HAND, 3), (S.Return(2, ONE),)),))]
    guard = _lines(take_reads_once(block, native=False, sizes=True))
    assert guard[:2] == ["z_hand__me = s.z_hand[me]  # read once", "n_z_hand__me = len(z_hand__me)  # taken once"]
    assert "if n_z_hand__me >= 2:" in guard and "len(" not in "".join(guard[2:])
    effect = _lines(take_reads_once(block, native=False))
    assert "if len(z_hand__me) >= 2:" in effect and not any("taken once" in line for line in effect)


def test_natively_an_aggregate_is_a_method_of_its_own_so_its_reads_stay_inside_it():
    counted = N.Aggregate(T.INT, 0, "count", "x_", POOL, N.Local(T.INT, 0, "x_"), None)
    block = [S.Eval(1, counted), S.Eval(2, N.Removal(T.ANY, 0, POOL, ONE))]
    python = _lines(take_reads_once(block, native=False))
    assert python[0] == "z_pool = s.z_pool  # read once" and "s.z_pool" not in "".join(python[1:])
    native = take_reads_once(block, native=True)
    assert native == block  # one read outside the aggregate: nothing taken once
    twice = block + [S.Eval(3, N.Removal(T.ANY, 0, POOL, ONE))]
    rewritten = take_reads_once(twice, native=True)
    assert rewritten[1].value is counted  # the aggregate as it was
    assert _lines(rewritten[2:], CythonWriter()) == ["_CK.remove_value(z_pool, 1)"] * 2


def test_a_zone_itself_assigned_stays_the_state_s_and_fields_that_repeat_a_tree_are_not_counted():
    block = [S.Assign(1, POOL, "=", N.ListOf(ZONE, 0, ())), S.Eval(2, N.Removal(T.ANY, 0, POOL, ONE)),
             S.Eval(3, N.Removal(T.ANY, 0, POOL, ONE))]
    lines = _lines(take_reads_once(block, native=False))
    assert "s.z_pool = []" in lines and lines.count("z_pool.remove(1)") == 2
    cells = N.Cells(T.list_of(T.ANY), 0, N.Field(T.ANY, 0, "g_board"), False, True)
    moves = (KernelMoves(4, "K.tagged", (N.Const(T.INT, 0, 0), cells), cells=(cells.grid, False)),)
    assert take_reads_once(moves, native=True) == list(moves)  # the grid is read once, by the kernel


def test_the_reads_inside_a_move_generator_s_guards_are_rewritten_too():
    gen = nest([Guard(1, _size_at_least(HAND, 1)), Guard(2, _size_at_least(HAND, 2)), AddMove(2, 0, ())])
    lines = move_lines(tuple(take_reads_once(gen, native=False, sizes=True)), PythonWriter())
    assert "    if n_z_hand__me >= 2:" in lines and "        _add((0,))" in lines
    assert lines.index("z_hand__me = s.z_hand[me]  # read once") < lines.index("if n_z_hand__me >= 1:")


def test_a_read_made_once_inside_a_loop_is_made_at_every_round_so_it_is_taken_once():
    """A loop's body (a for, a while, a parameter's scan) runs again and again: a read there is
    taken once before the loop. A read made once outside any loop is left."""
    each = N.Local(T.INT, 0, "x_")
    looped = [S.For(1, "x_", N.Local(ZONE, 0, "items"), (S.Eval(2, N.Append(T.ANY, 0, POOL, each)),))]
    lines = _lines(take_reads_once(looped, native=False))
    assert lines[0] == "z_pool = s.z_pool  # read once" and "s.z_pool" not in "".join(lines[1:])
    while_ = [S.While(1, _size_at_least(POOL, 1), (S.Eval(2, N.Removal(T.ANY, 0, POOL, ONE)),))]
    assert _lines(take_reads_once(while_, native=False))[0] == "z_pool = s.z_pool  # read once"
    scan = nest([Scan(1, "x_", N.Local(ZONE, 0, "items")), Guard(2, _size_at_least(HAND, 1)), AddMove(2, 0, ())])
    lines = move_lines(tuple(take_reads_once(scan, native=False, sizes=True)), PythonWriter())
    taken = lines.index("z_hand__me = s.z_hand[me]  # read once")
    assert taken < lines.index("for x_ in items:") and "s.z_hand" not in "".join(lines[taken + 1:])
    once = [S.Eval(1, N.Append(T.ANY, 0, POOL, ONE))]
    assert take_reads_once(once, native=False) == once
