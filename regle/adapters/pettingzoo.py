"""A regle game as a PettingZoo AEC environment (``pip install regle[pettingzoo]``).

    import regle.adapters.pettingzoo as rpz
    env = rpz.env("games/mygame.rules", players=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0``, ``player_1``...; the agent to act is the seat to play (turns need not
alternate). Observations are dicts as PettingZoo's own board games give them: ``observation``
(``state.observation(seat)``: only what that seat may see) and ``action_mask`` (the legal action
ids of the acting agent, zeros for the others). Rewards come at the end: +1 for a winner, -1 for
a loser, 0 for everyone in a draw. ``reset(seed=s)`` plays the game of seed s; the same seed and
actions give the same game.
"""
from __future__ import annotations

import os
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("regle.adapters.pettingzoo needs PettingZoo: pip install 'regle[pettingzoo]'") from exc

import regle
from regle.adapters import render_table
from regle.runtime.engine import Game


def env(rules: str | os.PathLike | Game, players: int | None = None, render_mode: str | None = None) -> "RegleEnv":
    """An AEC environment for a rules file (or a loaded game) and a player count."""
    game = rules if isinstance(rules, Game) else regle.load(rules)
    return RegleEnv(game, players, render_mode)


class RegleEnv(AECEnv):
    """PettingZoo's agent-environment cycle over a regle engine."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False, "name": "regle"}

    def __init__(self, game: Game, players: int | None = None, render_mode: str | None = None):
        super().__init__()
        self.game = game
        self.n = game.players.start if players is None else players
        if self.n not in game.players:
            raise ValueError(f"{game.title} is for {game.players.start} to {game.players.stop - 1} players")
        self.metadata = {**self.metadata, "name": f"regle_{game.name}"}
        self.render_mode = render_mode
        self.space = game.action_space(self.n)
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        size = len(self.space)
        length = sum(part[2] for part in game.observation_spec(self.n))
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(length,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.state = None
        self.reset()

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.state = self.game.new_game(self.n, seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.seats[agent]
        state = self.state
        if not state.is_over and seat == state.current_player:
            mask = state.action_mask()  # made in C by a native engine
        else:
            mask = np.zeros(len(self.space), dtype=np.int8)
        return {"observation": state.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.state.advance_id(int(action))
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.state.is_over:
            winners = self.state.winners
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = 0 if not winners else (1 if i in winners else -1)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[(self.seats[agent] + 1) % self.n]
            self._accumulate_rewards()
        else:  # no reward before the end: nothing to add to the sums
            self.agent_selection = self.possible_agents[self.state.current_player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render_table(self.state, self.render_mode)

    def close(self) -> None:
        pass
