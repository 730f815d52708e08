"""Agents that choose moves. An agent is any object with ``choose(state) -> Move``.

Agents are seeded and deterministic: the same seed and the same states give the same choices.
Agents that look ahead do so on a determinised copy (``hidden.determinize``): they never use
what their player may not see.
"""
from __future__ import annotations

from typing import Callable, Protocol

from .engine import BaseState, Move
from .rng import Rng, mix


class Agent(Protocol):
    name: str

    def choose(self, state: BaseState) -> Move: ...


class RandomAgent:
    """Uniformly random among the legal moves."""

    name = "random"

    def __init__(self, seed: int = 0, **options: str):
        if options:
            raise ValueError(f"the random agent takes no options (got {', '.join(options)})")
        self.rng = Rng(seed)

    def choose(self, state: BaseState) -> Move:
        legal = state.legal
        return legal[self.rng.below(len(legal))]


class GreedyAgent:
    """One-ply lookahead on the game's own score: the move that most improves my lead."""

    name = "greedy"

    def __init__(self, seed: int = 0, **options: str):
        if options:
            raise ValueError(f"the greedy agent takes no options (got {', '.join(options)})")
        self.rng = Rng(seed)

    def choose(self, state: BaseState) -> Move:
        from .hidden import determinize  # what this player may not see is re-dealt first
        me = state.cur
        seen = determinize(state, me, self.rng)
        best, best_value = [], None
        for move in state.legal:  # the real choices: in the re-dealt copy some may differ
            if move in seen.legal:
                after = seen.copy().advance(move)
            else:  # legal only given what I cannot see: judge it as standing still
                after = seen
            scores = after.scores
            others = max((v for p, v in enumerate(scores) if p != me), default=0)
            value = scores[me] - others
            if after.over:
                winners = after.winners
                value += 1000 if winners == [me] else (-1000 if winners and me not in winners else 0)
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.rng.below(len(best))]


def _mcts(**kwargs):
    from .mcts import MctsAgent
    return MctsAgent(**kwargs)


AGENTS: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": _mcts}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=400,c=1.4"`` -> ("mcts", {"iterations": "400", "c": "1.4"})."""
    name, _, rest = spec.strip().partition(":")
    options = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"agent option {part!r} needs a value, e.g. {key}=10")
        options[key.strip()] = value.strip()
    return name.strip(), options


def split_specs(text: str) -> list[str]:
    """``"mcts:iterations=50,c=2,random"`` -> ["mcts:iterations=50,c=2", "random"]: a piece with
    '=' and no ':' is one more option of the agent before it."""
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and out:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def make_agent(spec: str, seed: int) -> Agent:
    name, options = parse_spec(spec)
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(sorted(AGENTS))}")
    return AGENTS[name](seed=seed, **options)


def agent_seed(game_seed: int, seat: int) -> int:
    """Independent, reproducible seed for the agent in ``seat`` of game ``game_seed``."""
    return mix(game_seed * 1_000_003 + seat + 1)
