"""What a seat may not see never reaches it; every move names one thing; saved states that
play cannot reach are refused; a move either happens whole or not at all."""
from __future__ import annotations

import copy
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import regle
from conftest import GAMES
from regle.dsl.errors import RulesError
from regle.runtime import IllegalMove, RulesRuntimeError, StateError
from regle.runtime.agents import GreedyAgent, RandomAgent
from regle.runtime.hidden import determinize
from regle.runtime.mcts import MctsAgent, rewards
from regle.runtime.rng import Rng

GAME_NAMES = ["eclats", "pixies", "explobilles", "cibles"]


@pytest.fixture(scope="module", params=GAME_NAMES)
def game(request):
    return regle.load(GAMES / f"{request.param}.rules")


def sample_states(game, games_per_count: int, every: int):
    """States met in seeded random games, for each player count."""
    for n in game.players:
        for seed in range(games_per_count):
            s = game.new_game(players=n, seed=seed)
            r = random.Random(seed)
            while not s.is_over:
                if s.decisions % every == 0:
                    yield s
                s.advance(s.legal[r.randrange(len(s.legal))])


# ---- what p may not see -----------------------------------------------------------------------------
def test_views_carry_no_seed_or_generator(game):
    s = game.new_game(seed=7)
    for p in (*range(s.n), None):
        view = s.view(p)
        assert "seed" not in view and "rng" not in view


def test_changing_what_p_cannot_see_changes_nothing_p_is_shown(game):
    """Re-deal what p may not see (order, identity, pooled items): p's view, the scores shown
    to p and every agent's choice stay the same."""
    checked = 0
    for state in sample_states(game, 6, 7):
        for p in range(state.n):
            other = determinize(state, p, Rng(state.decisions * 31 + p + 1))
            assert other.view(p) == state.view(p)
            assert other.scores_seen_by(p) == state.scores_seen_by(p)
            if state.cur == p:
                for make in (lambda: GreedyAgent(seed=3), lambda: MctsAgent(seed=3, iterations="12"),
                             lambda: RandomAgent(seed=3)):
                    assert make().choose(state) == make().choose(other)
            checked += 1
    assert checked > 50


def test_determinisation_keeps_stacks_that_never_exchange_cards_apart():
    game = regle.load(GAMES / "explobilles.rules")
    column = game.namespace["C_point_card__stack"]
    for seed in range(30):
        state = game.new_game(players=3, seed=seed)
        for p in range(3):
            seen = determinize(state, p, Rng(seed)).to_json()["zones"]
            assert {column[c] for c in seen["turquoise_stack"]} <= {0}
            assert {column[c] for c in seen["orange_stack"]} <= {1}


def test_a_score_reading_face_down_cards_is_hidden_from_the_others():
    game = regle.load(GAMES / "explobilles.rules")
    for state in sample_states(game, 3, 5):
        if not state.is_over:
            for p in range(state.n):
                shown = state.scores_seen_by(p)
                assert shown[p] == state.scores[p]
                assert all(v is None for q, v in enumerate(shown) if q != p)


def test_a_choice_among_hidden_elements_is_refused():
    base = 'game "G" { players 2 }\nzone deck: int hidden = [1, 2, 3]\nzone hand: int per player private\n'
    for param in ("v in deck", "v in hand[1]", "a, b in pair deck"):
        text = base + f'turn {{ step s {{ action take({param}) "take" {{ }} }} }}\nend when turns > 3\n'
        with pytest.raises(RulesError) as err:
            regle.loads(text)
        assert "cannot see" in str(err.value) or "private to its owner" in str(err.value)
    regle.loads(base + 'turn { step s { action take(v in hand[me]) "take {v}" { } } }\nend when turns > 3\n')


def test_a_draw_is_shared_by_the_tied_leaders_only():
    game = regle.loads('game "G" { players 3 }\nzone pile: int = [1]\n'
                       'turn { step s { action take(v in pile) "take {v}" { remove v from pile } } }\n'
                       'end when count(pile) == 0\nscore p { s: 5 - p // 2 * 5 }\nwinner p {\n  most score\n  ties draw\n}\n')
    s = game.new_game(players=3)
    s.play("take 1")
    assert s.winners == [] and s.leaders == [0, 1]
    assert rewards(s) == [0.5, 0.5, 0.0]


# ---- every move names one thing ------------------------------------------------------------------------------
def test_notations_are_unique_in_every_state(game):
    states = 0
    for n in game.players:
        for seed in range(1000):
            s = game.new_game(players=n, seed=seed)
            r = random.Random(seed)
            while not s.is_over:
                texts = [str(m) for m in s.legal_moves()]
                assert len(set(texts)) == len(texts), texts
                states += 1
                s.advance(s.legal[r.randrange(len(s.legal))])
    assert states > 1000


def test_a_notation_several_moves_share_is_refused_with_the_candidates():
    game = regle.load(GAMES / "pixies.rules")
    for state in sample_states(game, 40, 1):
        plain = [state.MOVE.FORMATS[m[0]](*m[1:]) for m in state.legal]
        shared = next((t for t in plain if plain.count(t) > 1), None)
        if shared is None:
            continue
        with pytest.raises(IllegalMove) as err:
            state.copy().play(shared)
        assert "could be any of" in str(err.value)
        for m in state.legal_moves():  # each one's own text plays that very move
            after = state.copy().play(str(m))
            assert after.to_json() == state.copy().play(m).to_json()
        return
    pytest.fail("no state with two moves that read alike was met")


# ---- moves happen whole, with the engine's own values ------------------------------------------------------
def test_float_and_bool_lookalikes_play_the_engines_own_move():
    game = regle.load(GAMES / "eclats.rules")
    s = game.new_game(seed=1)
    move = s.legal[0]
    t = s.copy().play(tuple(float(v) for v in move))
    assert t.to_json() == s.copy().play(move).to_json()
    assert game.state_from_json(t.to_json()).to_json() == t.to_json()
    with pytest.raises(IllegalMove):
        s.play(("take", 1))


def test_a_rules_error_half_way_leaves_the_state_as_it_was():
    game = regle.loads('game "G" { players 2 }\nzone pile: int = [1, 2]\nzone hand: int per player\n'
                       'counter n\nturn { step s { action take(v in pile) "take {v}" {\n'
                       '  move v from pile to hand[me]\n  n = 10 // (v - v)\n} } }\nend when count(pile) == 0\n')
    s = game.new_game()
    before = s.to_json()
    with pytest.raises(RulesRuntimeError) as err:
        s.play("take 1")
    assert ":7:" in str(err.value) and s.to_json() == before
    assert [str(m) for m in s.legal_moves()] == ["take 1", "take 2"]


# ---- saved states: refused with the field, or a state play could reach -------------------------------------
SAVED = {}


def saved_states(name):
    if name not in SAVED:
        game = regle.load(GAMES / f"{name}.rules")
        SAVED[name] = (game, [s.to_json() for s in sample_states(game, 2, 9)][:25])
    return SAVED[name]


def _paths(data, prefix=()):
    """Every place in a saved state that tampering can change."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


def _deep(depth):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


VALUES = st.one_of(
    st.integers(-10**6, 10**6), st.sampled_from([10**9, 10**5000, -1000, -1, 0, 1, 2, 7, 255, 2**64]),
    st.booleans(), st.floats(allow_nan=True), st.none(), st.text(max_size=5),
    st.just("deep"), st.just("long"), st.lists(st.integers(-3, 60), max_size=6),
)


@settings(max_examples=int(os.environ.get("REGLE_FUZZ_EXAMPLES", "400")), deadline=None, derandomize=not os.environ.get("REGLE_FUZZ_EXAMPLES"),
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(GAME_NAMES), st.integers(0, 10**6), st.integers(0, 10**6), VALUES,
       st.sampled_from(["replace", "shift", "copy item", "drop key", "flip over"]))
def test_tampered_saved_states_are_refused_or_playable(name, pick, where, value, how):
    game, states = saved_states(name)
    data = copy.deepcopy(states[pick % len(states)])
    paths = list(_paths(data))
    path = paths[where % len(paths)]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if value == "deep":
        value = _deep(100_000)
    elif value == "long":
        value = [0] * 2_000_000
    if how == "replace":
        parent[key] = value
    elif how == "shift" and isinstance(parent, list) and len(parent) >= 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in parent):
        parent[0] -= 7
        parent[1] += 7
    elif how == "copy item":
        zones = [z for z in data["zones"].values() if isinstance(z, list) and z and isinstance(z[0], int)]
        if len(zones) >= 2:
            zones[1].append(zones[0][0])
    elif how == "drop key" and isinstance(parent, dict):
        del parent[key]
    elif how == "flip over":
        data["over"] = not data["over"]
    try:
        state = game.state_from_json(data)
    except StateError as err:
        assert str(err)
        return
    # accepted: it must be a state the game can go on from, invariants holding at every step
    r = random.Random(pick)
    for _ in range(60):
        if state.is_over:
            break
        state.require_invariants()
        state.play(state.legal_moves()[r.randrange(len(state.legal))])


def test_a_zone_holding_none_members_saves_and_loads():
    game = regle.loads('game "G" { players 2 }\nenum colour { red, blue }\n'
                       'table marble(colour: colour) {\n  - * 2\n  red\n}\nzone bag: colour = marble.colour\n'
                       'turn { step s { action take(c in bag) "take {c}" { remove c from bag } } }\n'
                       "end when count(bag) == 0\n")
    s = game.new_game()
    assert s.to_json()["zones"]["bag"] == [-1, -1, 0]
    assert game.state_from_json(s.to_json()).to_json() == s.to_json()
