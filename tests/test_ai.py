"""What game-AI tools rely on, for every game file in games/ and each player count: action ids
(dense, stable, agreeing with the legal moves), observations that hold no secret, pickling in a
fresh process, and each ecosystem's own checkers (PettingZoo's api_test and seed_test,
OpenSpiel's random simulation test with serialization, clone consistency, its MCTS bot)."""
from __future__ import annotations

import pickle
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import regle

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").rglob("*.rules"))


def _cases():
    for f in FILES:
        game = regle.load(ROOT / f)
        for n in sorted({game.players.start, game.players.stop - 1}):
            yield pytest.param(f, n, id=f"{Path(f).stem}-{n}p")


CASES = list(_cases())


@pytest.mark.parametrize("path, players", CASES)
def test_action_ids_agree_with_the_legal_moves(path, players):
    """200 random games (30 of chess, whose every move is tried for check on the Python engine),
    or as many as reach 40,000 positions (a game of Halma has 640): every state's ids are
    distinct, in range, in legal_moves() order, named as the moves are; play_id reproduces play."""
    game = regle.load(ROOT / path)
    space = game.action_space(players)
    assert game.action_space(players) is space and len(space) > 0
    positions = 0
    for seed in range(30 if Path(path).stem == "chess" else 200):
        if positions >= 40_000:
            break
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            positions += 1
            ids = state.legal_action_ids()
            assert len(set(ids)) == len(ids) == len(state.legal) and all(0 <= i < len(space) for i in ids)
            pick = rng.randrange(len(ids))
            if seed < 3:  # by id and by move, the same game
                by_move = state.copy().play(state.legal_moves()[pick])  # play changes the state it is given
                assert state.copy().play_id(ids[pick]).to_json() == by_move.to_json()
                mask = state.action_mask()
                assert sum(int(m) for m in mask) == len(ids) and all(mask[i] for i in ids)
            state.advance_id(ids[pick])


@pytest.mark.parametrize("path, players", CASES)
def test_ids_are_the_same_in_another_process(path, players):
    game = regle.load(ROOT / path)
    state = game.new_game(players, seed=5)
    for _ in range(6):
        if state.is_over:
            break
        state.play(state.legal_moves()[-1])
    here = [state.legal_action_ids(), [game.describe_action(i, players) for i in state.legal_action_ids()]]
    code = ("import pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); "
            "print(repr([s.legal_action_ids(), [s.GAME.describe_action(i, s.n) for i in s.legal_action_ids()]]))")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr.decode()[-800:]
    assert out.stdout.decode().strip() == repr(here)


def test_a_described_action_is_its_notation_where_the_id_says_everything():
    game = regle.load(ROOT / "games/classics/lostcities.rules")
    state = game.new_game(seed=2)
    texts = {game.describe_action(i) for i in state.legal_action_ids()}
    assert {t.split(" #")[0] for t in state.notations()} <= texts | {t.split(" #")[0] for t in texts}
    game = regle.load(ROOT / "games/cibles.rules")
    state = game.new_game()
    assert [game.describe_action(i) for i in state.legal_action_ids()][:2] == ["shove " + t for t in state.notations()[:2]]


def test_undeclared_values_of_a_number_parameter_are_named_by_the_checker(tmp_path):
    """The game compiles and plays; regle check notes the declaration that action ids need, and
    action_space refuses with the same words, until the zone says its values."""
    text = ('game "t" {\n  players 2\n}\nzone pile: int = [1, 2]\n'
            'turn {\n  step s {\n    action take(v in pile) "take {v}" {\n      remove v from pile\n    }\n  }\n}\n'
            "end when count(pile) == 0\n")
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "regle.cli", "check", str(path)], capture_output=True, text=True)
    assert out.returncode == 0 and f"{path}:7:22: note: action 'take'" in out.stderr
    assert "whose values are not declared" in out.stderr and "values 1..9" in out.stderr
    game = regle.loads(text)
    assert game.new_game().play("take 1")
    with pytest.raises(ValueError, match="no action ids"):
        game.action_space(2)
    game = regle.loads(text.replace("zone pile: int =", "zone pile: int values 1..2 ="))
    assert len(game.action_space(2)) == 2 and game.namespace["NOTES"] == []


@pytest.mark.parametrize("path, players", [c for c in CASES if regle.load(ROOT / c.values[0]).has_hidden_information])
def test_observations_and_masks_hold_no_secret(path, players):
    """Changing only what p may not see (a re-deal of the hidden places) changes nothing of p's
    observation or action mask; for a spectator the state's whole truth is not in it either."""
    game = regle.load(ROOT / path)
    for seed in range(8):
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 30)):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
        for p in range(players):
            other = state.resample(p, seed + 100)
            assert list(other.observation(p)) == list(state.observation(p))
            if state.current_player == p:
                assert list(other.action_mask()) == list(state.action_mask())
            assert other.view(p) == state.view(p)


@pytest.mark.parametrize("path, players", CASES)
def test_observation_fits_its_spec(path, players):
    game = regle.load(ROOT / path)
    spec = game.observation_spec(players)
    state = game.new_game(players, seed=1)
    assert len(state.observation(0)) == spec[-1][1] + spec[-1][2]
    assert [name for name, _s, _l in spec][:3] == ["current", "step", "turns"]


ONE_HOT = """game "Marks" {
  players 2
  max decisions 4
}

enum colour { red, blue, green }

grid board: player square 3 by 1
counter spot: cell of board
counter shade: colour
counter leader: player
counter chosen: colour per player private
counter total

turn {
  action mark(c in empty_cells(board)) "{c}" {
    put me at c on board
    spot = c
    shade = colour(number(c) % 3)
    leader = me
    chosen[me] = colour(2 - number(c) % 3)
    total += 5
  }
}

end when count(empty_cells(board)) == 0
"""


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_counter_of_cells_members_or_seats_is_observed_one_hot(backend):
    """A counter holding a cell, an enum member or a seat is given one-hot (all 0 for none, and
    for a private one the seat may not see); a number as it is; the compiled observation is its
    reference's (regle.runtime.observe)."""
    from regle import native
    from regle.runtime.observe import observation as reference
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(ONE_HOT, "marks", backend=backend)
    spec = {name: (start, length) for name, start, length in game.observation_spec(2)}
    assert [spec[k][1] for k in ("counter spot", "counter shade", "counter leader", "counter chosen[0]",
                                 "counter chosen[1]", "counter total")] == [3, 3, 2, 3, 3, 1]
    state = game.new_game(2, seed=0)

    def part(seat, name):
        start, length = spec[name]
        return list(state.observation(seat))[start:start + length]
    assert part(0, "counter spot") == [0, 0, 0] and part(0, "counter leader") == [0, 0]  # none yet
    state.play("b1")
    assert part(0, "counter spot") == [0, 1, 0] and part(0, "counter shade") == [0, 1, 0]
    assert part(1, "counter leader") == [1, 0] and part(0, "counter total") == [5]
    assert part(0, "counter chosen[0]") == [0, 1, 0]  # its own
    assert part(1, "counter chosen[0]") == [0, 0, 0] and part(None, "counter chosen[0]") == [0, 0, 0]
    for seat in (None, 0, 1):
        assert list(state.observation(seat)) == list(reference(state, seat))


def test_game_facts():
    tic = regle.load(ROOT / "games/classics/tictactoe.rules")
    assert not tic.has_chance and not tic.has_hidden_information and tic.utility(2) == "zero_sum"
    cities = regle.load(ROOT / "games/classics/lostcities.rules")
    assert cities.has_chance and cities.has_hidden_information and cities.max_decisions(2) >= 1000
    pixies = regle.load(ROOT / "games/pixies.rules")
    assert pixies.ties == "shared" and pixies.utility(3) == "general_sum"


def test_resample_is_seeded_and_keeps_what_the_player_sees():
    game = regle.load(ROOT / "games/classics/lostcities.rules")
    state = game.new_game(seed=4)
    a, b = state.resample(0, 7), state.resample(0, 7)
    assert a.to_json() == b.to_json() and a.z_hand[0] == state.z_hand[0]
    assert any(state.resample(0, s).z_hand[1] != state.z_hand[1] for s in range(5))


# ---- the ecosystems' own checkers ---------------------------------------------------------------
@pytest.mark.parametrize("path, players", CASES)
def test_pettingzoo_api_and_seed_tests(path, players):
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'regle[pettingzoo]'")
    from pettingzoo.test import api_test, seed_test

    import regle.adapters.pettingzoo as rpz
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rpz.env(ROOT / path, players), num_cycles=30)
        seed_test(lambda: rpz.env(ROOT / path, players), num_cycles=30)


@pytest.mark.parametrize("path, players", CASES)
def test_openspiel_random_simulation_with_serialization(path, players):
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'regle[openspiel]'")
    import regle.adapters.openspiel as ros
    game = ros.load(ROOT / path, players)
    # OpenSpiel reads every seat's information-state tensor at every state: where that tensor is
    # large (Pixies for five: 916,639 numbers, 35 ms a read), one game is checked, not two
    large = game.get_type().provides_information_state_tensor and game.information_state_tensor_size() > 100_000
    pyspiel.random_sim_test(game, num_sims=1 if large else 2, serialize=True, verbose=False)
    # clones are independent and replay alike, whichever of the two plays first; the adapter's
    # own legal_actions and is_chance_node answer as OpenSpiel's inherited ones (through C++)
    rng = random.Random(1)
    state = game.new_initial_state()
    for _ in range(20):
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for seat in range(players):
            assert state.legal_actions(seat) == pyspiel.State.legal_actions(state, seat)
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(ros.SEEDS))
            continue
        seen = str(state)
        early = state.clone()
        early.apply_action(state.legal_actions()[-1])  # the clone plays first: the state stays
        assert str(state) == seen and early.inner is not state.inner
        clone = state.clone()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        # the clone did not move with the state: it is a copy, not the same engine state
        assert clone.inner is not state.inner and clone.inner.to_json() != state.inner.to_json()
        clone.apply_action(action)
        assert str(clone) == str(state) and clone.legal_actions() == state.legal_actions()
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state)


@pytest.mark.parametrize("name", ["classics/tictactoe", "classics/kalah", "eclats"])
def test_openspiel_mcts_bot_plays(name):
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'regle[openspiel]'")
    import numpy as np
    from open_spiel.python.algorithms import mcts

    import regle.adapters.openspiel as ros
    game = ros.load(ROOT / f"games/{name}.rules", 2)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=20, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    for seed in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(seed)
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0], [1.0, 1.0])


def test_the_ai_page_examples_run():
    """Every Python block of docs/ai.md runs as written (from the repository root)."""
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import re
    text = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) >= 4
    import importlib.util
    for block in blocks:
        if "sb3_contrib" in block and importlib.util.find_spec("sb3_contrib") is None:
            continue  # PyTorch is not in the test extra: the wheel test runs it (tests/test_library.py)
        out = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert out.returncode == 0, (block[:80], out.stderr[-1500:])
    trained = out.stdout.strip().splitlines()[-1]
    before, after = (int(x) for x in re.findall(r"(\d+)%", trained))
    assert after > before, trained


def test_a_clone_copies_the_engine_state_and_shares_the_game(monkeypatch):
    """OpenSpiel clones a Python state by deep-copying its fields: a regle state deep-copies
    as its fast copy() and a game as itself (no pickle round trip, no rebuild of the game)."""
    import copy

    game = regle.load(ROOT / "games/classics/tictactoe.rules")
    state = game.new_game(seed=0)
    state.play("b2")
    saved = state.to_json()

    def refuse(*_args):
        raise AssertionError("a deep copy went through the saved form or a rebuild of the game")
    monkeypatch.setattr(type(game), "__reduce__", refuse)
    monkeypatch.setattr(type(state), "__reduce__", refuse)
    twin = copy.deepcopy({"game": game, "state": state})
    monkeypatch.undo()
    assert state.to_json() == saved
    assert twin["game"] is game
    assert twin["state"] is not state and twin["state"].to_json() == state.to_json()
    twin["state"].play("a1")
    assert state.to_json() != twin["state"].to_json()  # played on separately


def test_the_information_state_of_a_perfect_information_game_is_its_history():
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'regle[openspiel]'")
    import regle.adapters.openspiel as ros
    game = ros.load(ROOT / "games/classics/tictactoe.rules", 2)
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(0)
    a.apply_action(4)
    b.apply_action(4)
    b.apply_action(0)  # another order: another history, so another information state
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(0) == a.clone().information_state_string(0)
    assert a.information_state_string(0) != a.information_state_string(1)
    # with hidden cards the string is what the seat sees, never the moves alone
    kuhn = ros.load(ROOT / "games/classics/kuhn.rules", 2)
    state = kuhn.new_initial_state()
    state.apply_action(0)  # the deal
    assert "history" not in state.information_state_string(0)
    assert pyspiel.GameType.Information.PERFECT_INFORMATION == game.get_type().information
    # dice by a seed: the seed is the dice to come, which the history would give away
    dice = regle.loads(DICE_RACE, name="dice_race")
    state = ros.load(dice, 2).new_initial_state()
    state.apply_action(3)  # the seed
    assert "history" not in state.information_state_string(0)
    state = ros.load(dice, 2, chance="explicit").new_initial_state()  # each roll when it is made
    assert state.information_state_string(0).startswith("p0 history")


DICE_RACE = '''
game "Dice race" { players 2 }
counter pos per player
turn { step go { action roll { pos[me] += random(6) + 1 } } }
end when any(pos[p] >= 10 for p in players)
'''
