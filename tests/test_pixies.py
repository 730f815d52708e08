"""Pixies (GAMES.md section 3): scoring, placement, offers and rounds, through the public API."""
from __future__ import annotations

import pytest

import regle
from conftest import GAMES

SLOT_CELL = [6, 7, 8, 3, 4, 5, 0, 1, 2]
COLOURS = ["blue", "green", "yellow", "red", "multi"]


@pytest.fixture(scope="module")
def game():
    return regle.load(GAMES / "pixies.rules")


class Cards:
    """Card ids by description, each handed out once."""

    def __init__(self, game):
        ns = game.namespace
        self.rows = [(ns["C_card__number"][i], COLOURS[ns["C_card__colour"][i]], ns["C_card__spirals"][i],
                      ns["C_card__crosses"][i], COLOURS[ns["C_card__effect"][i]] if ns["C_card__effect"][i] >= 0 else None)
                     for i in range(70)]
        self.used: set[int] = set()

    def get(self, number, colour=None, spirals=None, crosses=None, effect=None) -> int:
        """A card of that description; ``effect`` None means a card without a colour effect."""
        for i, (n, c, s, x, e) in enumerate(self.rows):
            if i in self.used or n != number:
                continue
            if colour is not None and c != colour and not (colour == "non-blue" and c not in ("blue", "multi")):
                continue
            if (spirals is not None and s != spirals) or (crosses is not None and x != crosses):
                continue
            if e != effect:
                continue
            self.used.add(i)
            return i
        raise KeyError((number, colour, spirals, crosses, effect))


def position(game, players=2, up=None, down=None, rnd=1, current=0, offer=None, placed=None, **counters):
    """Grids as {player: {slot: card}}; every other card goes to the deck."""
    s = game.new_game(players=players, seed=0)
    data = s.to_json()
    z = data["zones"]
    z["face_up"] = [[-1] * 9 for _ in range(players)]
    z["face_down"] = [[-1] * 9 for _ in range(players)]
    for grid, given in (("face_up", up or {}), ("face_down", down or {})):
        for p, slots in given.items():
            for slot, card in slots.items():
                z[grid][p][SLOT_CELL[slot - 1]] = card
    z["taken"] = []
    used = {c for g in ("face_up", "face_down") for grid in z[g] for c in grid if c >= 0}
    z["offer"] = offer if offer is not None else [min(set(range(70)) - used)]
    used |= set(z["offer"])
    z["deck"] = [c for c in range(70) if c not in used]
    data["counters"]["round"] = rnd
    data["counters"]["banked"] = [0] * players
    data["counters"]["placed"] = placed or [0] * players
    data["counters"]["used"] = [sum(1 for i in range(9) if z["face_up"][p][i] >= 0 or z["face_down"][p][i] >= 0)
                                for p in range(players)]
    data["counters"]["ending"] = 0
    data["counters"]["finished"] = 0
    for k, v in counters.items():
        data["counters"][k] = v
    data["current"] = current
    return game.state_from_json(data)


def worked_example(game, cards: Cards) -> dict:
    return {
        1: cards.get(1, "blue", 6), 2: cards.get(2, "multi"), 3: cards.get(3, "blue", 3),
        4: cards.get(4, "blue", effect="blue"), 5: cards.get(5, "non-blue", crosses=1),
        7: cards.get(7, "non-blue", spirals=1), 8: cards.get(8, "blue", crosses=3),
    }


@pytest.mark.parametrize("rnd, total", [(1, 32), (2, 36), (3, 40)])
def test_the_worked_example(game, rnd, total):
    cards = Cards(game)
    up = worked_example(game, cards)
    down = {5: cards.get(9), 8: cards.get(9), 6: cards.get(6), 9: cards.get(1)}
    s = position(game, up={0: up}, down={0: down}, rnd=rnd, offer=[cards.get(3)])
    assert s.scores[0] == total
    parts = dict(s._score_parts(0))
    assert parts["this_round"] == total


def score(game, up, down=None, rnd=1):
    return position(game, up={0: up}, down={0: down or {}}, rnd=rnd).scores[0]


def test_a_lone_face_up_card_scores_no_number(game):
    c = Cards(game)
    assert score(game, {9: c.get(9, "green", 0, 0)}) == 0  # 9 green 0 0: nothing at all
    c = Cards(game)
    assert score(game, {9: c.get(9, "green", 0, 0)}, {9: c.get(5)}) == 9  # validated: its number


def test_face_down_cards_give_no_colour_or_symbols(game):
    c = Cards(game)
    plain = score(game, {1: c.get(1, "blue", 5)})
    c = Cards(game)
    assert score(game, {1: c.get(1, "blue", 5)}, {2: c.get(1, "blue", 6), 4: c.get(4, "blue", effect="blue")}) == plain
    assert plain == 5


def test_a_diagonal_does_not_join_a_zone(game):
    c = Cards(game)
    # blue on slots 1 and 5 touch by a corner only: no zone of 2
    assert score(game, {1: c.get(1, "blue", 5), 5: c.get(5, "blue", 0, 2)}) == 5 - 2
    c = Cards(game)
    # blue on 1 and 2 (side by side): a zone of 2 -> 2 x 2
    assert score(game, {1: c.get(1, "blue", 5), 2: c.get(2, "blue", 4)}) == 5 + 4 + 4


def test_two_tied_zones_count_once(game):
    c = Cards(game)
    up = {1: c.get(1, "blue", 5), 2: c.get(2, "blue", 4),        # a blue zone of 2 on top
          7: c.get(7, "green", 0, 0), 8: c.get(8, "green", 0, 2)}  # a green zone of 2 at the bottom
    assert score(game, up) == 5 + 4 + 0 - 2 + 2 * 2


def test_two_touching_multicolour_cards_are_a_zone(game):
    c = Cards(game)
    assert score(game, {2: c.get(2, "multi"), 3: c.get(3, "multi")}) == 4


def test_a_colour_effect_counts_itself(game):
    c = Cards(game)
    assert score(game, {4: c.get(4, "blue", effect="blue")}) == 1
    c = Cards(game)
    # with a multicolour card elsewhere (not touching): 1 + 1
    assert score(game, {4: c.get(4, "blue", effect="blue"), 9: c.get(9, "red", 0, 0)}) == 1
    c = Cards(game)
    assert score(game, {4: c.get(4, "blue", effect="blue"), 3: c.get(3, "multi")}) == 2


# ---- placing -------------------------------------------------------------------------------------
def moves(s):
    return [str(m) for m in s.legal_moves()]


def test_placing_face_up_on_its_slot(game):
    c = Cards(game)
    five = c.get(5, "red", 0, 0)
    s = position(game, offer=[five, c.get(1)])
    s.play("take 5R")
    assert moves(s) == ["5R face up on slot 5"]
    s.play("5R face up on slot 5")
    assert s.to_json()["zones"]["face_up"][0][SLOT_CELL[4]] == five


def test_covering_a_lone_face_down_card_validates_at_once(game):
    c = Cards(game)
    back = c.get(9)
    five = c.get(5, "red", 0, 0)
    s = position(game, down={0: {5: back}}, offer=[five, c.get(1)])
    s.play("take 5R")
    s.play("5R face up on slot 5")
    assert s.scores[0] == 5  # validated: scores its number


def test_a_second_copy_chooses_which_stays_face_up(game):
    c = Cards(game)
    first, second = c.get(5, "red", 0, 0), c.get(5, "yellow", 0, 2)
    s = position(game, up={0: {5: first}}, offer=[second, c.get(1)])
    s.play("take 5Y")
    assert sorted(moves(s)) == ["5Y face down under the other", "5Y face up, the other face down"]
    t = s.copy()
    s.play("5Y face up, the other face down")
    z = s.to_json()["zones"]
    assert z["face_up"][0][SLOT_CELL[4]] == second and z["face_down"][0][SLOT_CELL[4]] == first
    t.play("5Y face down under the other")
    z = t.to_json()["zones"]
    assert z["face_up"][0][SLOT_CELL[4]] == first and z["face_down"][0][SLOT_CELL[4]] == second


def test_a_third_copy_goes_face_down_on_an_empty_slot_only(game):
    c = Cards(game)
    s = position(game, up={0: {5: c.get(5, "red", 0, 0), 2: c.get(2, "multi")}},
                 down={0: {5: c.get(5, "red", 0, 1), 7: c.get(7)}}, offer=[c.get(5, "blue", 0, 2), c.get(1)])
    s.play("take 5B")
    legal = moves(s)
    slots = sorted(int(m.rsplit(" ", 1)[1]) for m in legal)
    assert slots == [1, 3, 4, 6, 8, 9]  # not 2 (lone face-up), not 5 (full), not 7 (has a back)
    assert all(m.startswith("5B face down on slot") for m in legal)


# ---- offers, order and rounds -------------------------------------------------------------------
def play_offer(s):
    """Take the first card of the offer and place it anywhere legal; returns who played."""
    who = s.current_player
    s.play(s.legal_moves()[0])
    s.play(s.legal_moves()[0])
    return who


@pytest.mark.parametrize("players, size", [(2, 4), (3, 3), (5, 5)])
def test_offers_and_their_order(game, players, size):
    s = game.new_game(players=players, seed=3)
    assert len(s.to_json()["zones"]["offer"]) == size
    first = s.current_player
    order = [play_offer(s) for _ in range(size)]
    if players == 2:
        assert order == [first, 1 - first, first, 1 - first]
        assert s.current_player == 1 - first  # B is first in the next offer
    else:
        assert order == [(first + i) % players for i in range(players)]
        assert s.current_player == order[-1]  # the last one starts the next offer
    assert len(s.to_json()["zones"]["offer"]) == size


def test_round_end_in_the_middle_of_a_two_player_offer(game):
    c = Cards(game)
    # P1 has eight slots filled; the offer holds a card that fills the ninth
    up = {n: c.get(n) for n in (1, 2, 3, 4, 5, 6, 7, 8)}
    nine = c.get(9)
    offer = [nine, c.get(1), c.get(2), c.get(3)]
    s = position(game, up={0: up}, offer=offer, placed=[8, 8])
    s.play("take " + game.show("item:card", nine))
    s.play(s.legal_moves()[0])
    assert s.to_json()["counters"]["ending"] == 1 and s.current_player == 1
    s.play(s.legal_moves()[0])  # P2 takes and places: both placed 9
    s.play(s.legal_moves()[0])
    data = s.to_json()
    assert data["counters"]["round"] == 2 and data["counters"]["placed"] == [0, 0]
    assert all(v == -1 for g in data["zones"]["face_up"] for v in g)  # grids emptied
    assert s.current_player == 1  # the last player to have placed starts the next round
    assert len(data["zones"]["offer"]) == 4 and len(data["zones"]["deck"]) == 66


def test_three_rounds_then_the_winner(game):
    from regle.runtime.agents import RandomAgent
    for players in (2, 3, 4, 5):
        for seed in range(4):
            s = game.new_game(players=players, seed=seed)
            agent = RandomAgent(seed)
            rounds_seen = set()
            while not s.is_over:
                rounds_seen.add(s.to_json()["counters"]["round"])
                assert s.check_invariants() == []
                s.play(agent.choose(s))
            assert rounds_seen == {1, 2, 3}
            assert s.check_invariants() == []
            best = max(s.scores)
            assert s.winners == [p for p in range(players) if s.scores[p] == best]


def test_face_down_cards_are_hidden_from_the_others(game):
    c = Cards(game)
    back = c.get(9)
    s = position(game, down={0: {5: back}}, offer=[c.get(1), c.get(2)])
    mine = s.view(0)["zones"]["face_down"][0]
    theirs = s.view(1)["zones"]["face_down"][0]
    assert mine[SLOT_CELL[4]] == back
    assert theirs[SLOT_CELL[4]] == -2 and back not in theirs
    assert s.view(1)["zones"]["deck"] == {"hidden": 70 - 3}


def test_the_grid_is_drawn_as_one_block_with_validated_and_face_down_marks(game):
    from regle.display import render
    c = Cards(game)
    up = {5: c.get(5, "red", 0, 0)}
    down = {5: c.get(9, "blue", 0, 1), 1: c.get(7, "red", 0, 4)}
    s = position(game, up={0: up}, down={0: down})
    mine, theirs = render(s, 0), render(s, 1)
    assert "5R+" in mine and "(7R)" in mine  # validated slot; my own card face down on slot 1
    assert "5R+" in theirs and "(#)" in theirs and "(7R)" not in theirs
