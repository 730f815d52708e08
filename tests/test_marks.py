"""Marks that last a turn: a grid or a zone declared ``per turn`` is emptied as each turn
begins (as a ``per turn`` counter is set back), kept through the turn's steps, on both
engines; the places where it cannot be are refused at the declaration."""
from __future__ import annotations

import random

import pytest

import regle
from regle import native
from regle.compiler.generate import engine_source

MARKS = '''game "Marks" {
  players 2
  max decisions 40
}

grid board: player square 4 by 4

/// The cells played on this turn.
grid played: int per turn square 4 by 4

zone chosen: cell of board per turn

counter hops per turn

turn {
  repeat step place while hops < 2 {
    action put(c in empty_cells(board)) "{c}" {
      require played[c] == 0
      put 1 at c on played
      add c to chosen
      put me at c on board
      hops += 1
    }
  }
}

end when count(empty_cells(board)) == 0
'''


def _backends():
    return ["python", "native"] if native.available() else ["python"]


@pytest.mark.parametrize("backend", _backends())
def test_marks_are_kept_through_a_turn_and_emptied_as_the_next_begins(backend):
    game = regle.loads(MARKS, name="marks", backend=backend)
    for seed in range(5):
        rng = random.Random(seed)
        s = game.new_game(2, seed=seed)
        played_this_turn: list[int] = []
        while not s.over:
            mover = s.cur
            move = rng.choice(s.legal_moves())
            s.play(move)
            if s.cur == mover and not s.over:  # still this turn: both marks kept, one more each
                played_this_turn.append(len(played_this_turn))
                assert sum(s.g_played) == len(played_this_turn) == len(s.z_chosen)
                assert all(s.g_played[c] == 1 for c in s.z_chosen)
            elif not s.over:  # a new turn began: every mark gone (the last turn's stay at the end)
                played_this_turn = []
                assert sum(s.g_played) == 0 and list(s.z_chosen) == []


def test_the_turn_machine_empties_each_one_in_place():
    code = engine_source(MARKS, "t.rules")
    assert "s.g_played[:] = [0] * (16)  # grid played: emptied as a turn begins" in code
    assert "s.z_chosen.clear()  # zone chosen: emptied as a turn begins" in code


@pytest.mark.parametrize("change, message", [
    (("zone chosen: cell of board per turn", "zone chosen: cell of board per turn = [0]"),
     "a zone 'per turn' starts each turn empty"),
    (("grid played: int per turn square 4 by 4", "grid played: int per turn square 4 by 4 under board"),
     "a grid 'per turn' is emptied as each turn begins: not under another"),
    (("grid played: int per turn square 4 by 4",
      "grid played: int per turn square 4 by 4\ngrid below: int square 4 by 4 under played"),
     "grid 'played' is emptied as each turn begins: nothing can lie under it"),
])
def test_a_per_turn_place_where_it_cannot_be_is_refused(change, message):
    with pytest.raises(regle.RulesError) as info:
        engine_source(MARKS.replace(*change), "t.rules")
    assert any(message in d.message for d in info.value.diagnostics), info.value.diagnostics


STEP_MARKS = '''game "Step marks" {
  players 2
  max decisions 60
}

grid board: player square 4 by 4

/// The cells marked in the step under way.
grid seen: int per step square 4 by 4

zone picked: cell of board per step

counter hops per step

turn {
  repeat step place while hops < 2 {
    action put(c in empty_cells(board)) "{c}" {
      put 1 at c on seen
      add c to picked
      put me at c on board
      hops += 1
    }
  }
  step mark {
    action mark(c in empty_cells(board)) "mark {c}" {
      require hops == 0 and count(picked) == 0 and count(x for x in cells(board) where seen[x] == 1) == 0
      put 1 at c on seen
      put me at c on board
    }
  }
}

end when count(empty_cells(board)) == 0
'''


@pytest.mark.parametrize("backend", _backends())
def test_marks_per_step_last_through_a_repeat_step_and_are_emptied_as_the_next_step_begins(backend):
    """A repeat step going round again keeps its marks (so ``hops`` reaches 2 and the chain
    ends); the next step begins with none (else its guard would refuse every mark and the step
    would be skipped); and a new turn begins with none."""
    game = regle.loads(STEP_MARKS, name="step_marks", backend=backend)
    steps_seen = set()
    for seed in range(5):
        rng = random.Random(seed)
        s = game.new_game(2, seed=seed)
        while not s.over:
            step = s.step
            steps_seen.add(step)
            if step == 0:
                assert s.c_hops == sum(s.g_seen) == len(s.z_picked) < 2
            else:
                assert s.c_hops == sum(s.g_seen) == len(s.z_picked) == 0
            s.play(rng.choice(s.legal_moves()))
            if not s.over and s.step == 0 and step == 0:  # the chain went round again
                assert s.c_hops == sum(s.g_seen) == 1
    assert steps_seen == {0, 1}


def test_the_turn_machine_empties_marks_per_step_as_a_step_begins():
    code = engine_source(STEP_MARKS, "t.rules")
    assert "s.z_picked.clear()  # zone picked: emptied as a step begins" in code
    assert "if not again:  # a step begins" in code


def test_a_per_step_place_where_it_cannot_be_is_refused():
    with pytest.raises(regle.RulesError) as info:
        engine_source(STEP_MARKS.replace("zone picked: cell of board per step",
                                         "zone picked: cell of board per step = [0]"), "t.rules")
    assert any("a zone 'per step' starts each step empty" in d.message for d in info.value.diagnostics)
