"""Play one game between agents, from a seed to a result record."""
from __future__ import annotations

from typing import Sequence

import attrs

from .agents import RandomAgent, agent_seed, make_agent
from .engine import Game


@attrs.define
class GameRecord:
    """One finished game: what simulate aggregates and writes to --out files."""

    seed: int
    players: int
    agents: list  # agent spec per seat
    decisions: int
    turns: int
    scores: list
    winners: list

    def to_json(self) -> dict:
        return attrs.asdict(self)


def play_game(game: Game, players: int, seed: int, agent_specs: Sequence[str], check: bool = False) -> GameRecord:
    """Play a seeded game; seat i is played by ``agent_specs[i]`` (seeded from the game seed).
    With ``check``, the rules' invariants are checked after setup and every decision, and
    the first one broken raises RulesRuntimeError with its rules line and the move."""
    agents = [make_agent(spec, agent_seed(seed, seat)) for seat, spec in enumerate(agent_specs)]
    state = game.new_game(players=players, seed=seed)
    if check:
        state.require_invariants(f"setup (seed {seed})")
    if not check and all(type(a) is RandomAgent for a in agents):
        state.play_random_seats([a.rng for a in agents])  # the same picks, in one (compiled) loop
    while not state.over:
        move = agents[state.cur].choose(state)
        text = state.notation(move) if check else ""
        state.advance(move)
        if check:
            state.require_invariants(f"decision {state.decisions} ({text!r}) of seed {seed}")
    return GameRecord(seed, players, list(agent_specs), state.decisions, state.turns,
                      state.scores, state.winners)
