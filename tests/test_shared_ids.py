"""``ids as NAME``: an action whose moves take another action's ids (a card passed in one step
and played in the next has one id), on both engines; and the mistakes it is refused for, each
at its action with what to do."""
from __future__ import annotations

import random

import pytest

import regle
from regle import native
from regle.dsl.errors import RulesError

TEXT = '''game "Give then play" {
  players 2
}
table card(value: int) {
  1..6
}
zone deck: card hidden = card
zone hand: card per player private
zone given: card per player
zone table: card
counter giving: bool = true
setup {
  shuffle deck
  for p in players {
    deal 3 from deck to hand[p]
  }
}
turn {
  step give when giving {
    action give(c in hand[me]) "give {c}" {
      move c from hand[me] to given[me]
      if number(me) == 1 {
        giving = false
      }
    }
  }
  step play when not giving {
    action play(c in hand[me]) "play {c}" ids as give {
      move c from hand[me] to table
    }
  }
}
end when count(table) == 4
score p { cards: count(given[p]) }
'''


def _game(backend: str, text: str = TEXT):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    return regle.loads(text, name="shared_ids", backend=backend)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_card_has_one_id_given_or_played(backend):
    game = _game(backend)
    space = game.action_space(2)
    assert len(space) == 6  # six cards: give's ids, which play's moves take too
    assert game.describe_action(2) == "give 3 or play 3"
    rng = random.Random(1)
    for seed in range(20):
        state = game.new_game(seed=seed)
        while not state.is_over:
            ids = state.legal_action_ids()
            assert ids == [m.args[0] for m in state.legal_moves()]  # the id is the card, in both steps
            chosen = rng.choice(ids)
            step = state.to_json()["step"]
            state.advance_id(chosen)
            assert step in ("give", "play")
        assert len(state.to_json()["zones"]["table"]) == 4


@pytest.mark.parametrize("change, message", [
    ('ids as give {', None),
    ('ids as take {', "there is no action named take (actions: give)"),
    ('ids as play {', "an action takes its own ids already"),
])
def test_ids_as_names_an_action(change, message):
    text = TEXT.replace("ids as give {", change)
    if message is None:
        regle.loads(text, name="shared_ok", backend="python")
        return
    with pytest.raises(RulesError) as caught:
        regle.loads(text, name="shared_bad", backend="python")
    said = str(caught.value)
    assert message in said and ":28:5:" in said.split("error")[0] and "hint:" in said


def test_two_actions_of_one_step_cannot_share_ids():
    text = TEXT.replace('''  }
  step play when not giving {
    action play''', '''    action play''')
    with pytest.raises(RulesError, match="offered in the same step"):
        regle.loads(text, name="shared_step", backend="python")


def test_actions_sharing_ids_range_over_the_same_values():
    text = TEXT.replace("action play(c in hand[me])", "action play(c in 1..6)").replace(
        "move c from hand[me] to table", "add c to table")
    text = text.replace("zone table: card", "zone table: int")
    with pytest.raises(RulesError, match="do not range over the same values"):
        regle.loads(text, name="shared_values", backend="python")


def test_an_action_sharing_ids_cannot_lend_them():
    text = TEXT.replace('''    action play(c in hand[me]) "play {c}" ids as give {
      move c from hand[me] to table
    }''', '''    action play(c in hand[me]) "play {c}" ids as give {
      move c from hand[me] to table
    }
  }
  step show when false {
    action show(c in hand[me]) "show {c}" ids as play {
      move c from hand[me] to table
    }''')
    with pytest.raises(RulesError, match="play takes the ids of another action itself"):
        regle.loads(text, name="shared_chain", backend="python")


def test_ids_as_is_formatted_back():
    from regle.dsl.parser import parse
    from regle.dsl.printer import format_text
    out = format_text(TEXT)
    assert 'action play(c in hand[me]) "play {c}" ids as give {' in out
    assert format_text(out) == out and parse(out)


def test_an_action_may_take_the_ids_of_one_declared_after_it():
    """Kuhn poker answers a bet (call, fold) in a step before the one that opens (check, bet):
    its ids are OpenSpiel's, a check or a fold 0, a bet or a call 1."""
    space = regle.load("kuhn", backend="python").action_space(2)
    assert len(space) == 2 and [space.describe(i) for i in (0, 1)] == ["check or fold", "bet or call"]
