"""Batched stepping (game.batch) and the Gymnasium environments on it: the compiled step plays
the same games as stepping each game alone, on both engines, and Gymnasium's own checker and
vector env agree with them."""
from __future__ import annotations

import warnings

import pytest

import regle
from conftest import ROOT

np = pytest.importorskip("numpy")

#: a game of lines (one kernel's keys), packed keys of two arguments, sowing, chance and
#: hidden cards with lists of moves, and three seats
FILES = {"games/classics/connect4.rules": 2, "games/classics/breakthrough.rules": 2,
         "games/classics/kalah.rules": 2, "games/eclats.rules": 2, "games/pixies.rules": 3}


@pytest.fixture(scope="module", params=["python", "native"])
def backend(request):
    return request.param


def _random_legal(rng, mask):
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("seat", [None, 0, 1])
def test_a_batch_plays_the_games_each_game_alone_plays(path, seat, backend):
    game = regle.load(ROOT / path, backend=backend)
    players = FILES[path]
    batch, alone = game.batch(5, players, seed=7, seat=seat), game.batch(5, players, seed=7, seat=seat)
    assert batch.native == (backend == "native")
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        actions = _random_legal(rng, batch.mask)
        rewards, done = batch.step(actions)
        rewards_alone, done_alone = alone.step_alone(actions)
        assert (rewards == rewards_alone).all() and (done == done_alone).all()
        assert (batch.mask == alone.mask).all() and (batch.current == alone.current).all()
        assert [s.to_json() for s in batch.states] == [s.to_json() for s in alone.states]
        for i in np.flatnonzero(done):
            ended += 1
            finished = batch.finished[i]
            winners = finished.winners
            assert finished.is_over and (rewards[i] == 1).sum() == len(winners)
            assert rewards[i].sum() == (2 * len(winners) - players if winners else 0)
        if seat is not None:
            assert (batch.current == seat).all()  # the other seats answered at random
        assert all(batch.mask[i, s.legal_action_ids()].all() and batch.mask[i].sum() == len(s.legal_action_ids())
                   for i, s in enumerate(batch.states))
    assert ended > 0, "no game ended: the test did not reach a new game"


def test_slot_i_plays_the_games_of_seeds_seed_plus_i_plus_k_n(backend):
    game = regle.load(ROOT / "games/classics/tictactoe.rules", backend=backend)
    batch = game.batch(3, seed=10)
    assert [s.seed for s in batch.states] == [10, 11, 12]
    rng = np.random.default_rng(1)
    while batch.episodes[1] < 3:
        batch.step(_random_legal(rng, batch.mask))
    assert batch.states[1].seed == 10 + 1 + 2 * 3 and batch.finished[1].seed == 10 + 1 + 1 * 3


def test_an_illegal_id_raises_or_loses_as_asked(backend):
    game = regle.load(ROOT / "games/classics/tictactoe.rules", backend=backend)
    batch = game.batch(2, seed=0)
    batch.step(np.array([4, 4]))  # the centre, in both games
    with pytest.raises(regle.IllegalMove):
        batch.step(np.array([4, 0]))  # the centre again: taken
    losing = game.batch(2, seed=0, illegal="loses")
    losing.step(np.array([4, 4]))
    rewards, done = losing.step(np.array([4, 0]))
    assert done.tolist() == [True, False] and rewards[0].tolist() == [0, -1] and rewards[1].tolist() == [0, 0]
    assert losing.episodes.tolist() == [2, 1] and not losing.finished[0].is_over  # not played on


def test_an_illegal_id_loses_alike_stepped_one_by_one(backend):
    """step_alone (each game through its public API: the reference of the compiled step) gives an
    illegal id the same loss, and the masks stay the same, on either engine."""
    game = regle.load(ROOT / "games/classics/tictactoe.rules", backend=backend)
    a, b = game.batch(2, seed=0, illegal="loses"), game.batch(2, seed=0, illegal="loses")
    for ids in ([4, 4], [4, 0], [1, 2]):
        ra, da = (x.copy() for x in a.step(np.array(ids)))
        rb, db = (x.copy() for x in b.step_alone(np.array(ids)))
        assert ra.tolist() == rb.tolist() and da.tolist() == db.tolist()
        assert a.mask.tolist() == b.mask.tolist() and a.current.tolist() == b.current.tolist()


def test_a_batch_refuses_what_does_not_fit():
    game = regle.load(ROOT / "games/classics/tictactoe.rules", backend="python")
    for bad in ({"n": 0}, {"n": 2, "seat": 2}, {"n": 2, "players": 3}, {"n": 2, "illegal": "ignores"}):
        with pytest.raises(ValueError):
            game.batch(**bad)
    with pytest.raises(ValueError, match="one action id per game"):
        game.batch(2).step(np.array([0, 1, 2]))


# ---- Gymnasium -------------------------------------------------------------------------------------
gymnasium = pytest.importorskip("gymnasium")


@pytest.mark.parametrize("path", ["games/classics/connect4.rules", "games/eclats.rules"])
def test_gymnasiums_checker_passes_the_single_agent_env(path, backend):
    from gymnasium.utils.env_checker import check_env

    import regle.adapters.gymnasium as rgym
    for seat in (0, 1):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no warning: finite bounds (render modes: through make, below)
            check_env(rgym.env(regle.load(ROOT / path, backend=backend), seat=seat), skip_render_check=True)


@pytest.mark.parametrize("name", ["connect4", "lostcities", "pixies", "go"])
def test_gymnasium_make_gives_each_shipped_game_with_its_spec(name):
    from gymnasium.utils.env_checker import check_env

    import regle.adapters.gymnasium as rgym
    assert f"regle/{name}-v0" in rgym.register_games()
    env = gymnasium.make(f"regle/{name}-v0")
    assert env.spec.id == f"regle/{name}-v0" and env.spec.kwargs == {"rules": name}
    low, high = env.observation_space.low, env.observation_space.high
    assert np.isfinite(low).all() and np.isfinite(high).all() and (low <= high).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=4)
    for _ in range(30):  # every observation lies within the bounds
        assert env.observation_space.contains(obs)
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and (mask == info["action_mask"].astype(bool)).all()
        obs, _reward, done, _cut, info = env.step(int(np.flatnonzero(mask)[0]))
        if done:
            obs, info = env.reset()


def test_the_opponent_is_any_agent():
    import regle.adapters.gymnasium as rgym
    played = {}
    for opponent in ("random", "greedy", "mcts:iterations=30"):
        env = gymnasium.make("regle/connect4-v0", opponent=opponent)
        _obs, info = env.reset(seed=2)
        replies = []
        for _ in range(3):
            _obs, _r, done, _cut, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            replies.append(env.unwrapped.state.to_json()["zones"]["board"])
            if done:
                break
        again = gymnasium.make("regle/connect4-v0", opponent=opponent)
        _obs, info = again.reset(seed=2)
        for board in replies:  # seeded: the same game again
            _obs, _r, done, _cut, info = again.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert again.unwrapped.state.to_json()["zones"]["board"] == board
        played[opponent] = replies
    assert len({str(v) for v in played.values()}) > 1  # the opponents play differently

    class First:
        def choose(self, state):
            return state.legal_moves()[0]
    env = rgym.env("connect4", opponent=First())
    env.reset(seed=0)
    env.step(6)
    assert env.state.to_json()["zones"]["board"][0] == 1  # it answered in the first column
    with pytest.raises(ValueError, match="unknown agent"):
        rgym.env("connect4", opponent="clever")
    with pytest.raises(ValueError, match="choose"):
        rgym.env("connect4", opponent=42)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_vector_env_is_a_sync_vector_env_of_single_envs(seat, backend):
    """Gymnasium's own SyncVectorEnv over the single-agent env (same-step resets, the seed
    stride of the batch) gives the same observations, rewards, ends, masks and final
    observations, actions that are not legal included."""
    import regle.adapters.gymnasium as rgym
    game = regle.load(ROOT / "games/classics/connect4.rules", backend=backend)
    n = 6
    envs = rgym.vector_env(game, n, seat=seat)
    reference = gymnasium.vector.SyncVectorEnv([lambda: rgym.env(game, seat=seat, seed_stride=n) for _ in range(n)],
                                               autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)
    assert envs.single_observation_space == reference.single_observation_space
    assert envs.single_action_space == reference.single_action_space
    assert envs.observation_space.shape == (n, *envs.single_observation_space.shape)
    obs, info = envs.reset(seed=5)
    ref_obs, ref_info = reference.reset(seed=5)
    assert obs.dtype == np.float32 and obs in envs.observation_space
    assert (obs == ref_obs).all() and (info["action_mask"] == ref_info["action_mask"]).all()
    rng = np.random.default_rng(1)
    for t in range(300):
        actions = rng.integers(0, 7, n) if t % 7 == 0 else _random_legal(rng, info["action_mask"])
        got, want = envs.step(actions), reference.step(actions)
        for a, b in zip(got[:4], want[:4]):
            assert a.shape == b.shape and (a == b).all(), t
        info, ref_info = got[4], want[4]
        assert (info["action_mask"] == ref_info["action_mask"]).all()
        assert ("final_obs" in info) == ("final_obs" in ref_info)
        if "final_obs" in ref_info:
            ended = ref_info["_final_obs"]
            assert (info["_final_obs"] == ended).all()
            assert all((info["final_obs"][i] == ref_info["final_obs"][i]).all() for i in np.flatnonzero(ended))
    assert envs.batch.episodes.min() > 3


#: a count that one action divides by, down to zero on the third move; no end before 4 decisions
FAILING = """game "Divide" { players 2 max decisions 4 }
counter left = 3
turn {
  action go "go" {
    left -= 1
    left += 6 // left - 6 // left
  }
}
"""


def test_a_rules_error_in_a_step_says_its_line_and_a_game_too_long_says_so(backend):
    """step plays each move as advance does (on a Python engine its checks are written in the
    batch's loop): a rules error comes out at its rules line, a game past its most decisions
    stops with advance's message."""
    game = regle.loads(FAILING, "divide", backend=backend)
    batch = game.batch(2, seed=0)
    batch.step(np.zeros(2, dtype=np.int64))
    batch.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(regle.RulesRuntimeError, match=r":6:"):
        batch.step(np.zeros(2, dtype=np.int64))
    long = regle.loads(FAILING.replace("left -= 1", "left -= 0"), "divide_long", backend=backend)
    batch = long.batch(2, seed=0)
    for _ in range(4):
        batch.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(regle.RulesRuntimeError, match="has not ended after 4 decisions"):
        batch.step(np.zeros(2, dtype=np.int64))
