"""Imperfect information, faithfully (issue 54): who starts can come from the deal, and a
first player that reads what setup has not made yet is refused."""
from __future__ import annotations

import pytest

import regle
from regle import native
from regle.dsl.errors import RulesError

LEAD = """game "Lead" {
  players 3
}

enum suit { clubs = "C", hearts = "H" }

table card(suit: suit, rank: int) show "{rank}{suit:symbol}" {
  suit 2..4
}

zone deck: card hidden = card
zone hand: card per player private
counter played = 0

setup {
  shuffle deck
  for p in players {
    deal 2 from deck to hand[p]
  }
  next player argmax(count(c for c in hand[p] where c.rank == 2 and c.suit == clubs) for p in players)
}

turn {
  action play(c in hand[me]) "{c}" {
    move c from hand[me] to deck
    played += 1
  }
}

end when played == 3
"""

BACKENDS = ["python"] + (["native"] if native.available() else [])


@pytest.mark.parametrize("backend", BACKENDS)
def test_setup_says_who_starts_from_the_deal(backend):
    game = regle.loads(LEAD, "lead", backend=backend)
    starters = set()
    for seed in range(12):
        state = game.new_game(3, seed=seed)
        hands = state.to_json()["zones"]["hand"]
        holder = next(p for p in range(3) if any(game.show("item:card", c) == "2C" for c in hands[p]))
        assert state.current_player == holder
        starters.add(holder)
        state.play(state.legal_moves()[0])
        assert state.current_player == (holder + 1) % 3  # then the seats go in order
    assert len(starters) > 1  # the deal decides, not a fixed seat


def test_a_first_player_that_reads_what_setup_makes_is_refused_where_it_reads():
    text = LEAD.replace("  players 3\n", "  players 3\n  first player count(hand[0]) % 3\n")
    with pytest.raises(RulesError) as err:
        regle.loads(text, "lead_first", backend="python")
    [d] = err.value.diagnostics
    assert (d.line, d.column) == (3, 22) and "chosen before setup, so 'hand' is not set up yet" in d.message
    assert "next player" in d.hint
    through = LEAD.replace("  players 3\n", "  players 3\n  first player so_far()\n") + \
        "define so_far() = played % 3\n"
    with pytest.raises(RulesError, match="'played' is not set up yet"):
        regle.loads(through, "lead_through", backend="python")
    fine = LEAD.replace("  players 3\n", "  players 3\n  first player random(player_count)\n")
    regle.loads(fine, "lead_random", backend="python")
