"""compiler/passes/walk_membership.py: natively, ``t in neighbours(G, c)`` asked of a cell the
loop walks in that table is read from the walk's counter, where the walk's tables share no cell;
trees before and after, the tables' disjointness read from the tables, and games played alike by
both engines (the Python engine keeps the membership test)."""
from __future__ import annotations

import pytest

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import lower, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.passes.walk_membership import disjoint_tables, tell_by_walk
from regle.compiler.write.moves import AddMove, Guard, NeighbourScan

CELL = T.Type("cell", space="board")
CELLS = T.list_of(CELL)
LEAPS = N.NeighbourList(CELLS, 0, "G_board__LEAP_1_2", 8, N.Local(CELL, 0, "c_"))
ADJ = N.NeighbourList(CELLS, 0, "G_board__ADJ", 8, N.Local(CELL, 0, "c_"))
APART = {("G_board__LEAP_1_2", "G_board__ADJ"): True, ("G_board__ADJ", "G_board__LEAP_1_2"): True}


def _walk(test: N.Expr, source=None) -> tuple:
    source = source or N.Concat(CELLS, 0, LEAPS, ADJ)
    return (NeighbourScan(0, "t_", source, "_d1", body=(Guard(0, test, (AddMove(0, 0, ()),)),)),)


def _in(table: N.Expr, op: str = "in", var: str = "t_") -> N.Expr:
    return N.Binary(T.BOOL, 0, op, N.Local(CELL, 0, var), table)


def _test(block: tuple) -> N.Expr:
    return block[0].body[0].test


def test_membership_of_a_walked_table_is_the_walks_stretch():
    d = N.Local(T.INT, 0, "_d1")
    assert _test(tell_by_walk(_walk(_in(ADJ)), APART)) == N.Binary(T.BOOL, 0, ">=", d, N.Const(T.INT, 0, 8))
    assert _test(tell_by_walk(_walk(_in(LEAPS)), APART)) == N.Binary(T.BOOL, 0, "<", d, N.Const(T.INT, 0, 8))
    assert _test(tell_by_walk(_walk(_in(ADJ, "not in")), APART)) == N.Not(
        T.BOOL, 0, N.Binary(T.BOOL, 0, ">=", d, N.Const(T.INT, 0, 8)))
    alone = tell_by_walk(_walk(_in(ADJ), source=ADJ), {})  # one table: always in it
    assert _test(alone) == N.Const(T.BOOL, 0, True)


def test_what_is_not_told_by_the_walk():
    """Tables that share a cell, another cell's row, another variable, and a walk whose
    directions were chosen before the loops keep the membership test."""
    shared = {key: False for key in APART}
    elsewhere = N.NeighbourList(CELLS, 0, "G_board__ADJ", 8, N.Local(CELL, 0, "x_"))
    for block, disjoint in ((_walk(_in(ADJ)), shared), (_walk(_in(elsewhere)), APART),
                            (_walk(_in(ADJ, var="u_")), APART)):
        assert tell_by_walk(block, disjoint) == block
    chosen = (NeighbourScan(0, "t_", ADJ, "_d1", body=_walk(_in(ADJ))[0].body, dirs="_dirs0"),)
    assert tell_by_walk(chosen, APART) == chosen


HOPPERS = """
game "Hoppers" {
  seats white, black
  max decisions 120
}

enum piece { runner = "r", king = "k" }

grid board: piece of player square 6 by 6 with diagonals

setup {
  put piece(king, 0) at cell(board, 2, 0) on board
  put piece(runner, 0) at cell(board, 1, 0) on board
  put piece(runner, 0) at cell(board, 4, 0) on board
  put piece(king, 1) at cell(board, 3, 5) on board
  put piece(runner, 1) at cell(board, 1, 5) on board
  put piece(runner, 1) at cell(board, 4, 5) on board
}

turn {
  /// Runners leap, kings step to a neighbour (a runner may not step, a king may not leap).
  action hop(c in filled_cells(board, me), t in LEAPS + neighbours(board, c)) "{c}{t}" {
    require board[t].owner != me
    require (t in neighbours(board, c)) == (board[c].kind == king)
    move c to t on board
  }
}

end when count(board, king) < 2 then winner me
end when turns >= 80 then draw
"""


def _hoppers(leaps: str) -> str:
    return HOPPERS.replace("LEAPS", leaps)


def test_the_tables_apart_are_read_from_the_tables():
    grids = lower(_hoppers("leaps(board, c, 1, 2)")).grids
    assert disjoint_tables(grids)[("G_board__LEAP_1_2", "G_board__ADJ")] is True
    diagonal = lower(_hoppers("leaps(board, c, 1, 1)")).grids  # the diagonal steps: neighbours too
    assert disjoint_tables(diagonal)[("G_board__LEAP_1_1", "G_board__ADJ")] is False
    assert "if (_d1 >= 8) == " in native_source(_hoppers("leaps(board, c, 1, 2)"), "hoppers.rules")
    assert "(_d1 >= 8)" not in native_source(_hoppers("leaps(board, c, 1, 1)"), "hoppers.rules")


@pytest.mark.skipif(not native.available(), reason="no native engines here")
@pytest.mark.parametrize("leaps", ["leaps(board, c, 1, 2)", "leaps(board, c, 1, 1)"])
def test_games_play_alike_on_both_engines(leaps):
    """Seeded random games: the native engine (membership told by the walk where the tables are
    apart) gives the moves and ids of the Python engine (which reads the list) at every node."""
    text = _hoppers(leaps)
    name = "hoppers_" + leaps.split(",", 2)[2].strip(" )").replace(", ", "_")
    python = regle.loads(text, name=name, backend="python")
    compiled = regle.loads(text, name=name, backend="native")
    nodes, _ = play_alike(python, compiled, 30, ids=True)
    assert nodes > 10 * 30
    assert python.new_game().perft(3) == compiled.new_game().perft(3)
