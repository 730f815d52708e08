"""``deal N at random from A to B`` (issue 54): each element drawn at random among those left
in A, one draw of len(A) outcomes each, so that explicit chance deals a card as OpenSpiel does
(six, then five, ...) rather than shuffling the whole deck first (6! orders for 6 * 5 deals)."""
from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings, strategies as st

import regle
from regle import native
from regle.dsl.errors import RulesError
from regle.dsl.parser import parse
from regle.dsl.printer import format_text

DRAW = """game "Draw" {
  players 2
  max decisions 4
}

table card(rank: int) show "{rank}" {
  1..6
}

zone deck: card hidden = card
zone hand: card per player private
zone board: card

setup {
  for p in players {
    deal COUNT at random from deck to hand[p]
  }
}

turn {
  action pass "pass" {
    deal 1 at random from deck to board
  }
}

end when count(board) == 2
"""

BACKENDS = ["python"] + (["native"] if native.available() else [])


def _game(backend: str, count: str = "1", name: str = "draw"):
    return regle.loads(DRAW.replace("COUNT", count), f"{name}_{count}", backend=backend)


def _cards(state) -> dict:
    zones = state.to_json()["zones"]
    return {"deck": zones["deck"], "hand": zones["hand"], "board": zones["board"]}


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_card_is_drawn_among_those_left_and_the_rest_keep_their_order(backend):
    game = _game(backend, "2")
    for seed in range(40):
        state = game.new_game(2, seed=seed)
        cards = _cards(state)
        dealt = cards["hand"][0] + cards["hand"][1]
        assert len(dealt) == 4 and len(set(dealt)) == 4  # without replacement
        assert cards["deck"] == sorted(cards["deck"])  # what is left keeps its order
        assert sorted(cards["deck"] + dealt) == list(range(6))  # nothing made or lost


def test_the_draws_are_uniform_and_not_the_front_of_the_deck():
    game = _game("python")
    first = collections.Counter(game.new_game(2, seed=seed).to_json()["zones"]["hand"][0][0] for seed in range(3000))
    assert set(first) == set(range(6))
    assert all(400 < first[card] < 600 for card in range(6)), first  # 500 each expected; 6 sigma is 120


@pytest.mark.skipif(not native.available(), reason="no C compiler here")
def test_both_engines_draw_the_same_cards_from_a_seed():
    python, compiled = _game("python"), _game("native")
    for seed in range(60):
        a, b = python.new_game(2, seed=seed), compiled.new_game(2, seed=seed)
        while not a.is_over:
            a.play(a.legal_moves()[0])
            b.play(b.legal_moves()[0])
        assert a.to_json() == b.to_json()


def test_explicit_chance_offers_each_draw_as_a_node_of_the_cards_left():
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    spiel = ros.load(_game("python"), 2, chance="explicit")
    sizes, sequences = [], set()

    def walk(state, chance):
        if state.is_terminal():
            sequences.add(tuple(chance))
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            sizes.append(len(outcomes))
            assert sum(p for _a, p in outcomes) == pytest.approx(1.0)
            assert len({p for _a, p in outcomes}) == 1  # each equally likely
            for action, _p in outcomes:
                walk(state.child(action), chance + [action])
            return
        for action in state.legal_actions():
            walk(state.child(action), chance)

    walk(spiel.new_initial_state(), [])
    assert len(sequences) == 6 * 5 * 4 * 3  # one node per card dealt, not the deck's 6! orders
    assert set(sizes) == {6, 5, 4, 3}


def test_dealing_more_than_is_left_deals_what_is_left():
    game = _game("python", "4")
    state = game.new_game(2, seed=1)
    hands = _cards(state)["hand"]
    assert len(hands[0]) == 4 and len(hands[1]) == 2


def test_deal_all_at_random_moves_everything_in_a_random_order():
    game = _game("python", "all")
    orders = {tuple(game.new_game(2, seed=seed).to_json()["zones"]["hand"][0]) for seed in range(30)}
    assert all(sorted(order) == list(range(6)) for order in orders) and len(orders) > 20


@pytest.mark.parametrize("change, message", [
    ("deal COUNT at random from deck to hand[p]", None),
    ("deal 1 at random from deck to hand[p] where it.rank > 2", "takes no 'where'"),
])
def test_a_where_is_refused_with_a_way_out(change, message):
    text = DRAW.replace("deal COUNT at random from deck to hand[p]", change).replace("COUNT", "1")
    if message is None:
        regle.loads(text, "draw_ok", backend="python")
        return
    with pytest.raises(RulesError, match=message) as err:
        regle.loads(text, "draw_bad", backend="python")
    assert "zone of their own" in str(err.value)


def test_a_draw_before_an_ensure_is_refused():
    text = DRAW.replace("COUNT", "1").replace(
        '    deal 1 at random from deck to board\n  }',
        '    deal 1 at random from deck to board\n    ensure count(board) < 3\n  }')
    with pytest.raises(RulesError, match="draw on chance"):
        regle.loads(text, "draw_ensure", backend="python")


def test_the_game_says_it_draws_on_chance():
    text = DRAW.replace("COUNT", "1")
    assert _game("python").has_chance
    assert not regle.loads(text.replace("at random ", ""), "dealt_in_order", backend="python").has_chance


def test_the_rulebook_says_the_cards_are_drawn_at_random():
    from regle.rulebook import rulebook
    book = rulebook("draw.rules", text=DRAW.replace("COUNT", "1"))
    assert "each drawn at random among those left" in book


@settings(max_examples=40, deadline=None)
@given(count=st.sampled_from(["1", "2", "all", "count(deck) - 1"]),
       random=st.booleans(), where=st.booleans())
def test_the_formatter_keeps_a_deal_as_written(count, random, where):
    drawn = " at random" if random else ""
    cond = " where it.rank > 1" if where and not random else ""
    text = DRAW.replace("deal COUNT at random from deck to hand[p]", f"deal {count}{drawn} from deck to hand[p]{cond}")
    once = format_text(text)
    assert format_text(once) == once
    assert f"deal {count}{drawn} from deck to hand[p]{cond}" in once
    setup = next(decl for decl in parse(once).decls if type(decl).__name__ == "Setup")
    deal = next(node for node in setup.body if type(node).__name__ == "For").body[0]
    assert deal.random is random
