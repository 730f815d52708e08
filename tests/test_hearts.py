"""Hearts (games/classics/hearts.rules) against OpenSpiel's hearts, on both engines: at every node
of random games the same player, chance outcomes and probabilities, legal action ids (a card's
id is the card, passed or played: ``ids as``), returns, and each seat's information states
partitioned alike. The passes are secret: no seat learns what another passed, and
determinisation keeps a passer's cards with the receiver."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regle
from regle import native

HEARTS = Path(__file__).resolve().parent.parent / "games" / "classics" / "hearts.rules"
BACKENDS = ["python", "native"]
PASSES = 12  # four players, three cards each


def _engine(backend: str):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    return regle.load(str(HEARTS), backend=backend)


def _adapter(backend: str):
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    return ros.load(_engine(backend), chance="explicit", returns="scores")


def _one_to_one(pairs: set, seat: int) -> None:
    forward, backward = {}, {}
    for theirs, ours in pairs:
        assert forward.setdefault(theirs, ours) == ours, (seat, theirs)
        assert backward.setdefault(ours, theirs) == theirs, (seat, ours)


def test_hearts_is_openspiels_at_every_node_of_two_hundred_games():
    """Through the adapter with explicit chance (on the Python engine, which stops at every
    draw; the next test plays the native one beside OpenSpiel). The last card dealt is no chance node for
    regle (one outcome) but one for OpenSpiel. Each seat's information-state strings match
    OpenSpiel's one to one at every node, but for a seat that is not passing while others pass:
    regle's string says that another passed a card ("P2 passes a card"), OpenSpiel's does not
    change until the play begins."""
    import pyspiel
    theirs_game, ours_game = pyspiel.load_game("hearts"), _adapter("python")
    assert ours_game.num_distinct_actions() == theirs_game.num_distinct_actions() == 52
    rng = random.Random(11)
    pairs: dict[int, set] = {seat: set() for seat in range(4)}
    directions, moons, broken_leads = set(), 0, 0
    for _game in range(200):
        theirs, ours = theirs_game.new_initial_state(), ours_game.new_initial_state()
        while not theirs.is_terminal():
            if theirs.is_chance_node() and len(theirs.chance_outcomes()) == 1 and not ours.is_chance_node():
                theirs.apply_action(theirs.chance_outcomes()[0][0])
                continue
            assert not ours.is_terminal() and theirs.current_player() == ours.current_player()
            if theirs.is_chance_node():
                mine, other = theirs.chance_outcomes(), ours.chance_outcomes()
                assert [p for _a, p in mine] == pytest.approx([p for _a, p in other])
                k = rng.randrange(len(mine))  # the k-th card left of each deck: the same card
                if len(theirs.history()) == 0:
                    directions.add(k)
                theirs.apply_action(mine[k][0])
                ours.apply_action(other[k][0])
                continue
            assert theirs.legal_actions() == ours.legal_actions()
            passing = ours.inner.to_json()["counters"]["passing"]
            for seat in range(4):
                if not passing or seat == theirs.current_player():
                    pairs[seat].add((theirs.information_state_string(seat), ours.information_state_string(seat)))
            action = rng.choice(theirs.legal_actions())
            if action // 4 < 13 and action % 4 == 2 and not passing and ours.inner.to_json()["zones"]["trick"] == []:
                broken_leads += 1  # a heart led
            theirs.apply_action(action)
            ours.apply_action(action)
        assert ours.is_terminal() and theirs.returns() == ours.returns()
        moons += theirs.returns().count(0.0) == 3
    for seat, seen in pairs.items():
        _one_to_one(seen, seat)
    assert directions == {0, 1, 2, 3} and broken_leads > 0 and moons > 0  # the moon shot too


def _openspiel_deal(state) -> list[int]:
    """OpenSpiel's chance outcomes for regle's deal: the direction, then the 52 cards as regle
    dealt them, one to each seat in turn (the k-th card of each hand at round k)."""
    data = state.to_json()
    hands = data["zones"]["hand"]
    return [data["counters"]["direction"]] + [hands[p][k] for k in range(13) for p in range(4)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_hearts_engine_plays_openspiels_games(backend):
    """200 seeded games of the engine itself beside OpenSpiel's (dealt the cards regle dealt):
    the same player and legal ids at every decision, the same returns as the scores."""
    pyspiel = pytest.importorskip("pyspiel")
    game, theirs_game = _engine(backend), pyspiel.load_game("hearts")
    rng = random.Random(5)
    for seed in range(200):
        state, theirs = game.new_game(4, seed=seed), theirs_game.new_initial_state()
        for outcome in _openspiel_deal(state):
            theirs.apply_action(outcome)
        while not theirs.is_terminal():
            assert not state.is_over and state.current_player == theirs.current_player(), seed
            assert sorted(state.legal_action_ids()) == theirs.legal_actions(), (seed, state.decisions)
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            state.advance_id(action)
        assert state.is_over and [float(v) for v in state.scores] == theirs.returns(), seed


def _passed(backend: str, seed: int, swap: bool):
    """A game dealt with passes to the left, played up to the end of the passes: each seat passes
    its three lowest cards, but P3 (seat 2) its three highest when ``swap``."""
    game = _engine(backend)
    for s in range(seed, seed + 50):
        state = game.new_game(4, seed=s)
        if state.to_json()["counters"]["direction"] == 1:
            break
    for _ in range(PASSES):
        ids = sorted(state.legal_action_ids())
        state.advance_id(ids[-1] if swap and state.current_player == 2 else ids[0])
    return state


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_seat_learns_what_another_passed(backend):
    """Two games alike but for the cards P3 passed (to P4, on its left), played through the
    adapter: once all have passed, P1's and P2's information-state strings and tensors are the
    same in both; P3's and P4's are not (P4 picked up different cards)."""
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    ours_game = ros.load(_engine(backend), returns="scores")
    seed = next(s for s in range(50) if _engine(backend).new_game(4, seed=s).to_json()["counters"]["direction"] == 1)
    states = []
    for swap in (False, True):
        state = ours_game.new_initial_state()
        state.apply_action(seed)
        for _ in range(PASSES):
            ids = state.legal_actions()
            state.apply_action(ids[-1] if swap and state.current_player() == 2 else ids[0])
        states.append(state)
    a, b = states
    assert a.history()[:-3] != b.history()[:-3]
    for seat in (0, 1):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
    for seat in (2, 3):
        assert a.information_state_string(seat) != b.information_state_string(seat)
    assert a.information_state_string(0).count("passes a card") == 9


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_passers_cards_stay_with_the_receiver_in_every_resample(backend):
    state = _passed(backend, 2, False)
    data = state.to_json()
    passed = [card for seat, name, part, card in data["seen"] if seat == 0]
    assert len(passed) == 3 and all(card in data["zones"]["hand"][1] for card in passed)
    others = set()
    for k in range(1000):
        hands = state.resample(0, k).to_json()["zones"]["hand"]
        assert all(card in hands[1] for card in passed)
        others.add(tuple(sorted(hands[1])))
    assert len(others) > 900  # the rest of the receiver's hand is dealt again


def _play_out(backend: str, seed: int, choose) -> object:
    """A game played to its end by ``choose(state, ids)``."""
    state = _engine(backend).new_game(4, seed=seed)
    while not state.is_over:
        state.advance_id(choose(state, sorted(state.legal_action_ids())))
    return state


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_rules_of_play_hold_in_random_games(backend):
    """Conservation and the rules of play, checked after every card over 100 random games: 52
    cards between the hands, the passed cards, the trick and the cards taken; the first card is
    the two of clubs; a player who could follow suit did; no heart is led before hearts are
    broken unless the hand held only hearts; the points taken are the hearts and 13 for the
    queen of spades, 26 in all."""
    rng = random.Random(3)
    for seed in range(100):
        state = _engine(backend).new_game(4, seed=seed)
        first = True
        while not state.is_over:
            before = state.to_json()
            me, ids = state.current_player, sorted(state.legal_action_ids())
            card = rng.choice(ids)
            state.advance_id(card)
            zones, counters = before["zones"], before["counters"]
            if counters["passing"]:
                continue
            hand = zones["hand"][me]
            if first:
                assert ids == [0] and card == 0  # the two of clubs leads
                first = False
            trick = zones["trick"]
            if trick and any(c % 4 == trick[0] % 4 for c in hand):
                assert all(c % 4 == trick[0] % 4 for c in ids)
            if not trick and not counters["broken"] and any(c % 4 != 2 for c in hand):
                assert all(c % 4 != 2 for c in ids)
            after = state.to_json()["zones"]
            assert sum(len(z) for part in ("hand", "passed", "taken") for z in after[part]) + len(after["trick"]) == 52
        taken = state.to_json()["zones"]["taken"]
        # a heart is suit 2; the queen of spades is rank 10 (queen) of suit 3: card 43
        points = [sum(1 for c in cards if c % 4 == 2) + 13 * (43 in cards) for cards in taken]
        assert points == state.to_json()["counters"]["points"] and sum(points) == 26


@pytest.mark.parametrize("backend", BACKENDS)
def test_shooting_the_moon(backend):
    """A player who takes all 26 points scores 26 and the others 0 (26 minus their 26 points);
    otherwise each scores 26 minus the points taken."""
    game = _engine(backend)
    state = _play_out(backend, 4, lambda s, ids: ids[0])
    data = state.to_json()
    for points, scores in (([26, 0, 0, 0], [26, 0, 0, 0]), ([0, 0, 13, 13], [26, 26, 13, 13]), ([0, 26, 0, 0], [0, 26, 0, 0]),
                           ([20, 6, 0, 0], [6, 20, 26, 26])):
        data["counters"]["points"] = points
        assert list(game.state_from_json(data).scores) == scores


def test_the_order_cards_were_passed_in_is_no_ones_information():
    """The same deal, and P1's three cards passed in two orders (an ``unordered repeat step``):
    OpenSpiel's information-state strings are the same for every seat, at the end of the passes
    and through the tricks; so are regle's, and its tensors."""
    import pyspiel
    theirs_game, ours_game = pyspiel.load_game("hearts"), _adapter("python")
    deal = None
    ends = []
    for order in ((0, 1, 2), (2, 0, 1)):
        theirs, ours = theirs_game.new_initial_state(), ours_game.new_initial_state()
        chosen = random.Random(8)
        while theirs.is_chance_node():
            if len(theirs.chance_outcomes()) == 1 and not ours.is_chance_node():
                theirs.apply_action(theirs.chance_outcomes()[0][0])
                continue
            k = 1 if not theirs.history() else chosen.randrange(len(theirs.chance_outcomes()))  # passes to the left
            theirs.apply_action(theirs.chance_outcomes()[k][0])
            ours.apply_action(ours.chance_outcomes()[k][0])
        deal = deal or theirs.history()
        assert theirs.history() == deal
        first = theirs.legal_actions()[:3]
        for action in [first[i] for i in order] + [None] * (PASSES - 3):
            action = theirs.legal_actions()[0] if action is None else action
            theirs.apply_action(action)
            ours.apply_action(action)
        seen = [[(theirs.information_state_string(s), ours.information_state_string(s),
                  tuple(ours.information_state_tensor(s))) for s in range(4)]]
        for _card in range(9):  # two tricks and a card, the same cards each time
            action = theirs.legal_actions()[0]
            theirs.apply_action(action)
            ours.apply_action(action)
            seen.append([(theirs.information_state_string(s), ours.information_state_string(s),
                          tuple(ours.information_state_tensor(s))) for s in range(4)])
        ends.append(seen)
    for a, b in zip(*ends):
        for s in range(4):
            assert a[s][0] == b[s][0], s  # OpenSpiel's
            assert a[s][1] == b[s][1], (s, a[s][1], b[s][1])
            assert a[s][2] == b[s][2], s
