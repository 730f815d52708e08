"""An optional continuation: ``optional repeat step X while C`` offers its actions again and
again while C holds, with "stop X" beside them only when one of them is legal; with none legal
the turn goes on, no decision asked. Both engines, the same games."""
from __future__ import annotations

import random

import pytest

import regle
from regle import native
from regle.compiler.generate import engine_source
from regle.dsl import ast, parse
from regle.dsl.printer import format_text

HOPS = '''game "Hops" {
  players 2
  max decisions 200
}

grid board: player square 6 by 1

counter hops per turn

turn {
  step place {
    action put(c in empty_cells(board)) "{c}" {
      put me at c on board
    }
  }
  /// After placing, the player may go on placing next to their own pieces, at most twice.
  optional repeat step extend while hops < 2 {
    action grow(c in empty_cells(board)) "+{c}" {
      require any(board[n] == me for n in neighbours(board, c))
      put me at c on board
      hops += 1
    }
  }
}

end when count(empty_cells(board)) == 0
'''


def _backends():
    return ["python", "native"] if native.available() else ["python"]


def test_it_parses_prints_and_describes_itself():
    step = parse(HOPS).decls[-2].steps[1]
    assert step.kind == "repeat" and step.optional and step.name == "extend"
    assert format_text(HOPS) == HOPS
    assert "optional repeat step extend while hops < 2 {" in HOPS
    with pytest.raises(regle.RulesError) as info:
        engine_source(HOPS.replace('      hops += 1\n    }\n', '      hops += 1\n    }\n    pass\n'), "t.rules")
    assert any("it needs no pass" in d.message for d in info.value.diagnostics)
    from regle.rulebook import rulebook
    assert "or stop (stopping is offered only while an action is possible)" in rulebook("h.rules", text=HOPS)


@pytest.mark.parametrize("backend", _backends())
def test_stop_is_a_choice_only_where_going_on_is_possible(backend):
    s = regle.loads(HOPS, name="hops", backend=backend).new_game(2, seed=1)
    s.play("a1")
    assert (s.cur, [str(m) for m in s.legal_moves()]) == (0, ["+b1", "stop extend"])
    s.play("+b1")
    s.play("stop extend")  # the turn goes on to the other seat
    assert s.cur == 1 and [str(m) for m in s.legal_moves()] == ["c1", "d1", "e1", "f1"]
    s.play("f1")
    s.play("+e1")
    s.play("+d1")  # twice: the condition ends the step
    assert s.cur == 0 and [str(m) for m in s.legal_moves()] == ["c1"]
    s.play("c1")  # no empty cell next to it: no lone "stop", the turn (and here the game) ends
    assert s.over


@pytest.mark.skipif(not native.available(), reason="no native engines here")
def test_both_engines_play_the_same_random_games():
    games = [regle.loads(HOPS, name="hops", backend=b) for b in ("python", "native")]
    for seed in range(20):
        rng = random.Random(seed)
        a, b = (g.new_game(2, seed=seed) for g in games)
        while not a.over:
            moves = [str(m) for m in a.legal_moves()]
            assert moves == [str(m) for m in b.legal_moves()]
            assert "stop extend" not in moves or len(moves) > 1  # never a lone stop
            pick = rng.choice(moves)
            a.play(pick)
            b.play(pick)
        assert b.over and a.winners == b.winners and a.turns == b.turns
    for seed in range(30):  # and the compiled playouts, which run the turn machine in C
        x, y = (g.new_game(2, seed=seed) for g in games)
        x.play_random_playout(seed)
        y.play_random_playout(seed)
        assert x.to_json() == y.to_json()
