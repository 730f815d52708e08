"""Monte Carlo tree search (UCT) over the decision model, with determinisation.

Each iteration re-deals what the searching player may not see (``hidden.determinize``), walks
down the tree choosing moves by UCB1 among those legal in that determinisation (one tree shared
by all determinisations, "single-observer ISMCTS"), adds one node, plays random moves to the
end of the game or for ``rollout`` decisions, and backs up one reward per seat. Rewards: a sole
win 1, a shared win 1/k, a draw 1/k to the k tied leaders, a loss 0; a rollout stopped early scores by the game's
own scores (leader 1, tied leaders share).

Options (``mcts:iterations=400,c=1.4,rollout=60,time=0.5``): iterations per decision (default
200), exploration constant c, rollout depth (0: to the end), or a time budget in seconds
instead of a count. Seeded: the same seed and states give the same choices.

On a native engine, a game with no chance and nothing hidden from the searching seat is searched
in C (regle.runtime._search): the same iterations, draws and choices, without a Python object
per node or a Python call per move.
"""
from __future__ import annotations

import math
import time

from .engine import BaseState, Move
from .hidden import determinize, hidden_places
from .rng import Rng

try:  # compiled with the kernels; without it (pure mode) every search is the Python one
    from . import _search
except ImportError:  # pragma: no cover - exercised only where the kernels did not build
    _search = None


class Node:
    __slots__ = ("visits", "totals", "children", "avail")

    def __init__(self, players: int):
        self.visits = 0
        self.totals = [0.0] * players
        self.children: dict = {}  # move -> Node
        self.avail: dict = {}  # move -> times it was legal here (availability, for ISMCTS)


def rewards(state: BaseState) -> list[float]:
    """Each seat's reward at the end of a rollout. The search in C (_search.pyx) computes the
    rewards of a finished game itself, by the same rule (a test compares the two searches)."""
    n = state.n
    if state.over:
        winners = state.winners or state.leaders  # a draw is shared by the tied leaders only
        share = 1.0 / len(winners)
        return [share if p in winners else 0.0 for p in range(n)]
    scores = state.scores
    best = max(scores)
    leaders = [p for p in range(n) if scores[p] == best]
    share = 1.0 / len(leaders)
    return [share if p in leaders else 0.0 for p in range(n)]


class MctsAgent:
    name = "mcts"

    def __init__(self, seed: int = 0, iterations: str | int = 200, c: str | float = 1.4,
                 rollout: str | int = 80, time: str | float = 0.0, **options: str):
        if options:
            raise ValueError(f"unknown mcts option(s): {', '.join(options)} "
                             "(options: iterations, c, rollout, time)")
        try:
            self.iterations = int(iterations)
            self.c = float(c)
            self.rollout = int(rollout)
            self.budget = float(time)
        except ValueError as exc:
            raise ValueError(f"bad mcts option: {exc}") from None
        if not (math.isfinite(self.c) and self.c >= 0):
            raise ValueError(f"bad mcts option: c must be a number >= 0, not {c}")
        if not (math.isfinite(self.budget) and 0 <= self.budget <= 3600):
            raise ValueError(f"bad mcts option: time must be 0 to 3600 seconds, not {time}")
        if not 0 <= self.iterations <= 10_000_000 or self.rollout < 0:
            raise ValueError("bad mcts option: iterations and rollout must be whole numbers >= 0")
        if self.iterations < 1 and self.budget <= 0:
            raise ValueError("mcts needs iterations >= 1 or a time budget")
        self.rng = Rng(seed)
        #: a ceiling in seconds on one decision, whatever the options say (0: none); set by
        #: hosts that share a machine, such as ``regle serve``
        self.cap = 0.0
        #: search in C where the state allows it (tests turn it off to compare the two)
        self.in_c = True

    def choose(self, state: BaseState) -> Move:
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        me = state.cur
        if self.in_c and _searchable_in_c(state, me):
            return legal[_search.search(state, self.iterations, self.budget, self.cap, self.c, self.rollout,
                                        self.rng, rewards, time.perf_counter)]
        root = Node(state.n)
        rng = self.rng
        start = time.perf_counter()
        deadline = start + self.budget if self.budget > 0 else None
        ceiling = start + self.cap if self.cap > 0 else None
        done = 0
        while True:
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline and done > 0:
                break
            if ceiling is not None and done > 0 and time.perf_counter() >= ceiling:
                break
            self._iterate(root, determinize(state, me, rng), rng)
            done += 1
        best = max(legal, key=lambda m: (root.children[m].visits if m in root.children else -1,
                                         root.children[m].totals[me] if m in root.children else 0.0))
        return best

    def _iterate(self, root: Node, s: BaseState, rng: Rng) -> None:
        path = [root]
        node = root
        # selection and expansion
        while not s.over:
            legal = s.legal
            for m in legal:
                node.avail[m] = node.avail.get(m, 0) + 1
            unexplored = [m for m in legal if m not in node.children]
            if unexplored:
                m = unexplored[rng.below(len(unexplored))]
                actor = s.cur
                s.advance(m)
                child = Node(s.n)
                node.children[m] = child
                path.append((actor, child))
                break
            actor = s.cur
            best, best_value = None, -1.0
            for m in legal:
                child = node.children[m]
                value = child.totals[actor] / child.visits + self.c * math.sqrt(
                    math.log(node.avail[m]) / child.visits)
                if value > best_value:
                    best, best_value = m, value
            s.advance(best)
            node = node.children[best]
            path.append((actor, node))
        # rollout
        s.play_random_playout(rng.next64(), self.rollout)  # to the end when rollout is 0; compiled natively
        result = rewards(s)
        # backpropagation
        root.visits += 1
        for entry in path[1:]:
            _actor, n = entry
            n.visits += 1
            for p, r in enumerate(result):
                n.totals[p] += r


def _searchable_in_c(state: BaseState, me: int) -> bool:
    """Whether the C search makes the same choices as the one below: a compiled state, whose
    game has no chance (every iteration meets the same moves at a node) and hides nothing from
    ``me`` (no determinisation: each iteration starts from a plain copy)."""
    return (_search is not None and getattr(state, "NATIVE", False) and not state.GAME.has_chance
            and not hidden_places(state, me))
