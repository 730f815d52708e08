"""Play one game between agents, from a seed to a result record."""
from __future__ import annotations

from typing import Sequence

import attrs

from .agents import RandomAgent, agent_seed, make_agent
from .engine import Game
from .errors import RulesRuntimeError


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
    the first one broken raises RulesRuntimeError with its rules line and the move. A rules
    error names the game (seed, players, seats), the moves that led to it and the command
    that plays them again (``RulesRuntimeError.context``)."""
    try:
        return _play_game(game, players, seed, agent_specs, check)
    except RulesRuntimeError as err:
        told = err.in_game(failing_game(game, players, seed, agent_specs, check))
        if told is err:
            raise
        raise told from err.__cause__


def failing_game(game: Game, players: int, seed: int, agent_specs: Sequence[str], check: bool = False) -> str:
    """Where a seeded game fails, said for its author: the game played again one decision at a
    time (the same picks: everything follows from the seed) up to the move that fails."""
    ids: list[int] = []
    said: list[str] = []
    try:
        agents = [make_agent(spec, agent_seed(seed, seat)) for seat, spec in enumerate(agent_specs)]
        state = game.new_game(players=players, seed=seed)
        while not state.over:
            move = agents[state.cur].choose(state)
            ids.append(game.action_space(players).encode(move))
            said.append(f"P{state.cur + 1} {state.notation(move)}")
            state.advance(move)
            if check:
                state.require_invariants()
                state.scores
    except Exception:  # noqa: BLE001 - the failure itself (it stops the replay there), or a
        pass           # step that cannot be said again: left out, never raised
    seats = ",".join(agent_specs)
    shown = "; ".join(said[-8:]) if said else ""
    moves = (f"after {len(ids)} move{'s' if len(ids) != 1 else ''}"
             + (f" (the last: {'...; ' if len(said) > 8 else ''}{shown})" if said else "")) if ids else "in its setup"
    command = (f"regle play {_quoted(game.rules_file)} --players {players} --seed {seed} --seats {seats}"
               + (f" --replay {','.join(map(str, ids))}" if ids else "") + (" --check" if check else ""))
    return f"  in the game of seed {seed}, {players} players ({seats}), {moves}\n  play it again: {command}"


def _quoted(path: str) -> str:
    import shlex
    return shlex.quote(path)


def _play_game(game: Game, players: int, seed: int, agent_specs: Sequence[str], check: bool = False) -> GameRecord:
    agents = [make_agent(spec, agent_seed(seed, seat)) for seat, spec in enumerate(agent_specs)]
    state = game.new_game(players=players, seed=seed)
    if check:
        state.require_invariants(f"setup (seed {seed})")
        state.scores  # a score that cannot be computed here fails now, at its rules line
    if not check and all(type(a) is RandomAgent for a in agents):
        state.play_random_seats([a.rng for a in agents])  # the same picks, in one (compiled) loop
    while not state.over:
        move = agents[state.cur].choose(state)
        text = state.notation(move) if check else ""
        state.advance(move)
        if check:
            state.require_invariants(f"decision {state.decisions} ({text!r}) of seed {seed}")
            state.scores
    return GameRecord(seed, players, list(agent_specs), state.decisions, state.turns,
                      state.scores, state.winners)
