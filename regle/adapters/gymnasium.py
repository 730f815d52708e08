"""A regle game as Gymnasium environments (``pip install regle[gymnasium]``): one seat learns,
the other seats play uniformly random legal moves.

    import regle.adapters.gymnasium as rgym
    env = rgym.env("games/classics/connect4.rules", seat=0)            # a gymnasium.Env
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))

    envs = rgym.vector_env("games/classics/connect4.rules", 1024, seat=0)   # a gymnasium VectorEnv
    obs, infos = envs.reset(seed=0)
    obs, rewards, terminations, truncations, infos = envs.step(actions)

Observations are ``state.observation(seat)`` (only what that seat may see, float32); actions are
action ids (``game.action_space``); ``info["action_mask"]`` holds the legal ones. The reward comes
at the end of a game: +1 a win, -1 a loss, 0 a draw. An action that is not legal ends the game
with -1 (Gymnasium's checkers and most learners sample actions without a mask).

Seeds: ``reset(seed=s)`` plays the game of seed s, and each later ``reset()`` the next one, ``s +
seed_stride``; the random seats pick with ``Rng(-1 - s)``. The vector env steps its games together
in C on a native engine (``game.batch``), resets a game in the same step it ends (Gymnasium's
``AutoresetMode.SAME_STEP``: ``infos["final_obs"]`` holds the last observation), and env i of
``reset(seed=s)`` plays games s + i, s + i + n, ...: the same as a ``SyncVectorEnv`` of ``env``\\ s
with ``seed_stride=n`` (the tests compare them).
"""
from __future__ import annotations

import os
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("regle.adapters.gymnasium needs Gymnasium: pip install 'regle[gymnasium]'") from exc

import regle
from regle.adapters import render_table
from regle.runtime.engine import Game
from regle.runtime.rng import Rng


def _game(rules: str | os.PathLike | Game) -> Game:
    return rules if isinstance(rules, Game) else regle.load(rules)


#: the bound given to numbers the rules leave unbounded (counters, scores, sums, turns): float32
#: holds every whole number up to it exactly
NUMBER_BOUND = float(2 ** 24)


def _bounds(game: Game, players: int) -> tuple[Any, Any]:
    """Each slice of the observation's lowest and highest value: 0 and 1 for one-hot parts and
    the planes of a grid's cells, 0 up for sizes and counts, and +-NUMBER_BOUND for the numbers
    the rules do not bound (regle.runtime.observe says what each slice holds)."""
    spec = game.observation_spec(players)
    length = sum(part[2] for part in spec)
    low, high = np.zeros(length, np.float32), np.full(length, NUMBER_BOUND, np.float32)
    grids = {f"grid {row[0]}": row[5] for row in game.grids}
    for name, start, size in spec:
        base = name.split("[")[0]
        if base in ("current", "step") or (base in grids and grids[base] != "int"):
            high[start:start + size] = 1.0
        elif base.startswith(("counter ", "scores")) or base in grids:  # numbers of the rules' own
            low[start:start + size] = -NUMBER_BOUND
        elif base.startswith("zone "):  # its size, counts, then the sum (numbers) or the top's place
            low[start + 1:start + size - 1] = -NUMBER_BOUND if size == 3 else 0.0
    return low, high


def _spaces(game: Game, players: int) -> tuple[Any, Any]:
    low, high = _bounds(game, players)
    observation = spaces.Box(low=low, high=high, dtype=np.float32)
    return observation, spaces.Discrete(len(game.action_space(players)))


def env(rules: str | os.PathLike | Game, players: int | None = None, seat: int = 0, seed_stride: int = 1,
        render_mode: str | None = None, opponent: Any = "random") -> "RegleEnv":
    """A single-agent environment for a rules file (or a loaded game): ``seat`` learns, and the
    other seats play as ``opponent`` says (see RegleEnv)."""
    return RegleEnv(_game(rules), players, seat, seed_stride, render_mode, opponent)


def _make(rules: str, **kwargs: Any) -> "RegleEnv":
    """What ``gymnasium.make("regle/<game>-v0", **kwargs)`` calls."""
    return env(rules, **kwargs)


def register_games() -> list[str]:
    """Register every game that ships with regle as ``regle/<name>-v0`` (done when this module
    is imported; Gymnasium 1.x loads no plugins by itself). Returns the ids."""
    from regle import games
    ids = []
    for name in games.names():
        env_id = f"regle/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="regle.adapters.gymnasium:_make", kwargs={"rules": name})
        ids.append(env_id)
    return ids


def vector_env(rules: str | os.PathLike | Game, num_envs: int, players: int | None = None,
               seat: int = 0) -> "RegleVectorEnv":
    """``num_envs`` games stepped together (see the module)."""
    return RegleVectorEnv(_game(rules), num_envs, players, seat)


class RegleEnv(gymnasium.Env):
    """One game at a time, seen and played by one seat. ``opponent``: how the other seats play:
    ``"random"`` (uniform legal moves from ``Rng(-1 - seed)``, the default), an agent's name as
    ``regle simulate --agents`` takes it (``"greedy"``, ``"mcts:iterations=200"``; each seat's
    agent seeded from the game's seed), or an object with ``choose(state) -> Move``."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, game: Game, players: int | None = None, seat: int = 0, seed_stride: int = 1,
                 render_mode: str | None = None, opponent: Any = "random"):
        self.game = game
        self.players = game.players.start if players is None else players
        if self.players not in game.players:
            raise ValueError(f"{game.title} is for {game._counts()} players, not {self.players!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat {seat!r}: this game's seats are 0 to {self.players - 1}")
        self.seat, self.seed_stride, self.render_mode = seat, seed_stride, render_mode
        if isinstance(opponent, str) and opponent != "random":
            from regle.runtime.agents import make_agent
            make_agent(opponent, 0)  # an unknown agent or option is said now, not at the first reset
        elif not isinstance(opponent, str) and not callable(getattr(opponent, "choose", None)):
            raise ValueError(f"opponent {opponent!r}: 'random', an agent's name ('greedy', 'mcts'), or an object "
                             "with choose(state)")
        self.opponent = opponent
        self._agents: dict[int, Any] = {}
        self.observation_space, self.action_space = _spaces(game, self.players)
        self.state: Any = None
        self.game_seed: int | None = None
        self._ended = True  # the game ended (or was lost by an action that is not legal)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        if not self.state.over:
            mask[self.state.legal_action_ids()] = 1
        return {"action_mask": mask}

    def _observe(self) -> Any:
        return np.asarray(self.state.observation(self.seat), dtype=np.float32)

    def action_masks(self) -> Any:
        """The legal action ids as a boolean mask (what MaskablePPO of sb3-contrib asks for)."""
        return self._info()["action_mask"].astype(bool)

    def _answer(self) -> None:
        """The other seats' moves, until this seat is to play or the game is over."""
        s = self.state
        while not s.over and s.cur != self.seat:
            if self.opponent == "random":
                legal = s.legal
                s.advance(legal[self._rng.below(len(legal))])
            else:
                s.play(self._agents[s.cur].choose(s))

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self.game_seed = seed
        elif self.game_seed is None:
            self.game_seed = int(self.np_random.integers(2 ** 31))
        else:
            self.game_seed += self.seed_stride
        self.state = self.game.new_game(self.players, seed=self.game_seed)
        self._rng = Rng(-1 - self.game_seed)
        if isinstance(self.opponent, str) and self.opponent != "random":
            from regle.runtime.agents import agent_seed, make_agent
            self._agents = {p: make_agent(self.opponent, agent_seed(self.game_seed, p))
                            for p in range(self.players) if p != self.seat}
        elif not isinstance(self.opponent, str):
            self._agents = {p: self.opponent for p in range(self.players) if p != self.seat}
        self._answer()
        if self.state.over:
            raise ValueError(f"{self.game.title}: the game of seed {self.game_seed} ended before seat "
                             f"{self.seat} had a decision")
        self._ended = False
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        if self._ended:
            raise RuntimeError("step() after the end of a game: call reset() first")
        action = int(action)
        if action not in self.state.legal_action_ids():  # lost here; the state is not played on
            self._ended = True
            return self._observe(), -1.0, True, False, {"action_mask": np.zeros(self.action_space.n, dtype=np.int8)}
        self.state.advance_id(action)
        self._answer()
        reward = 0.0
        if self.state.over:
            winners = self.state.winners
            reward = 0.0 if not winners else (1.0 if self.seat in winners else -1.0)
        self._ended = bool(self.state.over)
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._ended, False, self._info()

    def render(self) -> str | None:
        return render_table(self.state, self.render_mode)


class RegleVectorEnv(VectorEnv):
    """``num_envs`` games of one seat, stepped together (``game.batch``)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game: Game, num_envs: int, players: int | None = None, seat: int = 0):
        self.game = game
        self.batch = game.batch(num_envs, players, seed=0, seat=seat, illegal="loses")
        self.num_envs, self.seat = num_envs, seat
        self.single_observation_space, self.single_action_space = _spaces(game, self.batch.players)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._seeds: np.random.Generator | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        if seed is None:
            if self._seeds is None:
                self._seeds = np.random.default_rng()
            seed = int(self._seeds.integers(2 ** 31))
        self.batch.reset(seed)
        return self.batch.observations(self.seat), {"action_mask": self.batch.mask.copy()}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict]:
        rewards, done = self.batch.step(np.asarray(actions))
        infos: dict[str, Any] = {"action_mask": self.batch.mask.copy()}
        if done.any():
            ended = np.flatnonzero(done)
            final = np.zeros((self.num_envs, *self.single_observation_space.shape), dtype=np.float32)
            for i in ended.tolist():
                final[i] = self.batch.finished[i].observation(self.seat)
            infos["final_obs"], infos["_final_obs"] = final, done.copy()
        return (self.batch.observations(self.seat), rewards[:, self.seat].copy(), done.copy(),
                np.zeros(self.num_envs, dtype=bool), infos)


register_games()
