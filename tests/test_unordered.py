"""Zones declared ``unordered`` are multisets: compared by their contents in any order, and
remembered so by ``repeated()``; on both engines. A grid cannot be one."""
from __future__ import annotations

import pytest

import regle
from regle import native
from regle.compiler.generate import engine_source
from regle.dsl.printer import format_text

COMPARE = '''game "t" {
  players 2
}

zone a: int unordered = [1, 2, 2]
zone b: int = [2, 1, 2]
zone c: int = [2, 1, 1]
zone d: int = [1, 2, 2]
counter same
counter differ
counter in_order

turn {
  action go {
    if a == b and b == a {
      same = 1
    }
    if a != c {
      differ = 1
    }
    if b == d {
      in_order = 1
    }
  }
}

end when turns > 0
'''

# a hand whose first card goes to the back each turn: [1, 2] -> [2, 1] -> [1, 2] ...
CYCLE = '''game "t" {
  players 1
  max decisions 20
}

zone hand: int unordered = [1, 2]

turn {
  action cycle {
    let x = first(hand)
    remove x from hand
    add x to hand
  }
}

end when repeated(hand) >= 2
'''


def _backends():
    return ["python", "native"] if native.available() else ["python"]


@pytest.mark.parametrize("backend", _backends())
def test_an_unordered_zone_compares_by_its_contents_and_an_ordered_one_in_order(backend):
    s = regle.loads(COMPARE, name="unordered_compare", backend=backend).new_game(2, seed=0)
    s.play("go")
    assert s.to_json()["counters"] == {"same": 1, "differ": 1, "in_order": 0}


@pytest.mark.parametrize("backend", _backends())
def test_repeated_remembers_an_unordered_zone_by_its_contents(backend):
    """repeated() counts the times the position was reached before. As a multiset [2, 1] is
    [1, 2]: reached before once after the first turn, twice after the second, when the game
    ends; as a list only every other turn repeats one, and the game ends after the fourth."""
    for text, turns in ((CYCLE, 2), (CYCLE.replace(" unordered", ""), 4)):
        s = regle.loads(text, name="unordered_cycle", backend=backend).new_game(1, seed=0)
        while not s.over:
            s.play("cycle")
        assert s.turns == turns


def test_unordered_is_kept_by_the_formatter_and_refused_on_a_grid():
    assert "zone hand: int unordered = [1, 2]" in format_text(CYCLE)
    with pytest.raises(regle.RulesError) as info:
        engine_source(CYCLE + "grid board: int square 2 by 2 unordered\n", "t.rules")
    assert any("'unordered' is for zones" in d.message for d in info.value.diagnostics)


SUBSETS = '''game "t" {
  players 1
  max decisions 4
}

zone hand: int unordered capacity 4 values 1..3 = [2, 1, 2]
zone kept: int

turn {
  action keep(s in subset hand) "keep {s}" {
    for v in s {
      move v from hand to kept
    }
  }
}

end when turns > 0
'''


@pytest.mark.parametrize("backend", _backends())
def test_the_subsets_of_an_unordered_zone_are_its_sub_multisets_each_read_once(backend):
    """A hand of 2, 1, 2 offers each sub-multiset once, whatever the order the cards came in:
    its notation lists the values in increasing order, and the same hand dealt in another
    order offers the very same moves and notations."""
    game = regle.loads(SUBSETS, name="subsets", backend=backend)
    notations = sorted(game.new_game(seed=0).notations())
    assert notations == sorted(["keep none", "keep 1", "keep 2", "keep 1 2", "keep 2 2", "keep 1 2 2"])
    other = regle.loads(SUBSETS.replace("= [2, 1, 2]", "= [2, 2, 1]"), name="subsets_other", backend=backend)
    assert sorted(other.new_game(seed=0).notations()) == notations
    s = game.new_game(seed=0)
    s.play("keep 1 2")
    assert sorted(s.to_json()["zones"]["kept"]) == [1, 2] and s.to_json()["zones"]["hand"] == [2]


PICKS = '''game "Picks" {
  players 2
}
table card(value: int) {
  1..8
}
zone deck: card hidden = card
zone hand: card per player private unordered
zone kept: card per player private unordered
setup {
  shuffle deck
  for p in players {
    deal 4 from deck to hand[p]
  }
}
turn {
  unordered repeat step keep while count(kept[me]) < 2 {
    action keep(c in hand[me]) "keep {c}" secret "keeps a card" {
      move c from hand[me] to kept[me]
    }
  }
}
end when turns >= 2
score p { kept: sum(c.value for c in kept[p]) }
'''


@pytest.mark.parametrize("unordered", [True, False])
def test_the_order_of_an_unordered_steps_moves_is_no_seats_information(unordered):
    """Two cards kept in either order: with ``unordered repeat step`` every seat's OpenSpiel
    information state (string and tensor) is the same both ways; with a plain ``repeat step``
    the keeper's differs (it remembers its order)."""
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    text = PICKS if unordered else PICKS.replace("unordered repeat step", "repeat step")
    assert ("unordered repeat step keep" in format_text(text)) is unordered
    game = ros.load(regle.loads(text, name=f"picks_{unordered}", backend="python"))
    seen = []
    for order in ((0, 1), (1, 0)):
        state = game.new_initial_state()
        state.apply_action(0)  # the seed of the shuffle
        first = state.legal_actions()
        for i in order:
            state.apply_action(first[i])
        seen.append([(state.information_state_string(s), tuple(state.information_state_tensor(s))) for s in (0, 1)])
    assert seen[1][1] == seen[0][1]  # the other seat saw "keeps a card" twice, either way
    assert (seen[0][0] == seen[1][0]) is unordered
