"""The Python engine's tables of moves (compiler/write/moves.py, ``ops.move_table``): where an
action's one or two arguments are cells, each move's tuple is made once, at import, and the
move generator adds the shared tuple rather than building one per move. The tables, where they
are written and where not, and games played alike with them and without."""
from __future__ import annotations

from pathlib import Path

import pytest

import regle
from conftest import play_alike
from regle.compiler.generate import engine_source
from regle.runtime import ops

ROOT = Path(__file__).resolve().parents[1]

#: a cell, a pair of cells, a cell that may be none, and a number: one action each
MOVES = """
game "Tables" {
  players 2
  max decisions 60
}

grid board: player square 4 by 4

counter lastcell: cell of board quiet

turn {
  action put(c in empty_cells(board)) "{c}" {
    require c != lastcell
    put me at c on board
    lastcell = c
  }
  action shift(c in filled_cells(board, me), t in neighbours(board, c)) "{c}-{t}" {
    require is_empty(board, t)
    move c to t on board
    lastcell = t
  }
  action again(c in [lastcell]) "again {c}" {
    require c == none and count(board, me) > 5
    lastcell = c
  }
  action count_up(k in 1..2) "up {k}" {
    require k + count(board, me) == 8
    lastcell = none
  }
}

end when count(empty_cells(board)) == 0 then draw
"""


def test_a_table_holds_each_move_once_and_none_last():
    one = ops.move_table(3, (5,))
    assert one[:5] == tuple((3, c) for c in range(5)) and one[-1] == (3, -1) and len(one) == 6
    two = ops.move_table(1, (3, 4))
    assert len(two) == 4 and all(len(row) == 5 for row in two)
    assert all(two[a][b] == (1, a, b) for a in (*range(3), -1) for b in (*range(4), -1))


def test_moves_of_cells_are_taken_from_tables():
    code = engine_source(MOVES, "tables.rules", "tables")
    assert "_MOVES_0 = ops.move_table(0, (16,))" in code
    assert "_MOVES_1 = ops.move_table(1, (16, 16))" in code
    assert "_add(_MOVES_0[c_])" in code and "_add(_MOVES_1[c_][t_])" in code
    assert "_MOVES_2 = ops.move_table(2, (16,))" in code  # a cell that may be none: index -1
    assert "_MOVES_3" not in code and "_add((3, k_))" in code  # numbers: tuples made as they are listed
    go = engine_source((ROOT / "games/classics/go.rules").read_text(encoding="utf-8"), "go.rules", "go")
    assert "_add(_MOVES_0[c_])" in go


def test_no_table_past_the_limit(monkeypatch):
    from regle.compiler.write import moves
    monkeypatch.setattr(moves, "MOVE_TABLE_LIMIT", 100)
    code = engine_source(MOVES, "tables.rules", "tables")
    assert "_MOVES_0 = ops.move_table(0, (16,))" in code and "_MOVES_1" not in code  # 256 pairs: over 100
    assert "_add((1, c_, t_))" in code


def test_games_are_those_of_moves_made_one_by_one(monkeypatch):
    """The same rules with tables and without (the limit made 0; the text marked by a comment
    so that the engine without them is cached as its own): the same legal moves at every node
    of seeded games, with moves of a cell that is none among them (which have no action id)."""
    from regle.compiler.write import moves
    tested = regle.loads(MOVES, name="move_tables", backend="python")
    monkeypatch.setattr(moves, "MOVE_TABLE_LIMIT", 0)
    plain = MOVES + "\n# every move's tuple made as it is listed (no tables)\n"
    assert "_MOVES_" not in engine_source(plain, "tables.rules", "tables")
    reference = regle.loads(plain, name="move_tables_plain", backend="python")
    nodes, _decided = play_alike(reference, tested, 60)
    assert nodes > 1_000
    again = [m for s in range(40) for m in _moves_seen(tested, s) if m[0] == 2]
    assert (2, -1) in again  # the move of no cell was listed, from the table's last place


def _moves_seen(game, seed: int) -> list:
    import random
    rng, s, seen = random.Random(seed), game.new_game(None, seed=seed), []
    while not s.over:
        legal = list(s.legal)
        seen += legal
        s.advance(rng.choice(legal))
    return seen


@pytest.mark.parametrize("path", ["games/classics/go.rules", "games/classics/morris.rules"])
def test_shipped_games_alike_with_tables_and_without(path, monkeypatch):
    from regle.compiler.write import moves
    text = (ROOT / path).read_text(encoding="utf-8")
    tested = regle.loads(text, name="tables_" + Path(path).stem, backend="python")
    monkeypatch.setattr(moves, "MOVE_TABLE_LIMIT", 0)
    reference = regle.loads(text + "\n# no tables\n", name="plain_" + Path(path).stem, backend="python")
    nodes, _decided = play_alike(reference, tested, 6, ids=True)
    assert nodes > 300
