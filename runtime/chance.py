"""Explicit chance: every random draw of a game as a chance node, with its true probabilities.

regle engines draw every shuffle and random number from one generator (``Rng.below``). A
:class:`ScriptedRng` plays a given list of outcomes instead and, when the list runs out, stops
the engine with :class:`NeedChance` saying how many outcomes the next draw has (each equally
likely: ``below(n)`` is uniform, and a shuffle is Fisher-Yates, one ``below`` per place). A
caller (the OpenSpiel adapter) then offers those outcomes as a chance node and, once one is
chosen, plays the same step again from the position before it with the longer script. So a
52-card deal is 51 chance nodes of 52, 51, ... outcomes: the real shuffle tree, which exact
algorithms need, rather than one node choosing among seeds.

This works on the Python engines (a native engine draws in C).
"""
from __future__ import annotations

from .rng import Rng


class NeedChance(BaseException):
    """The engine needs the outcome of a draw of ``n`` equally likely outcomes (0..n-1).

    A BaseException, so that no ``except Exception`` of an engine takes it for a rules error."""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


class ScriptedRng(Rng):
    """A generator that plays ``script`` (the outcomes of the draws, in order), then asks."""

    __slots__ = ("script", "at")

    def __init__(self, script: list[int] | None = None):
        super().__init__(0)
        self.script = list(script or [])
        self.at = 0

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.at < len(self.script):
            value = self.script[self.at]
            self.at += 1
            if not 0 <= value < n:
                raise ValueError(f"a scripted outcome {value} for a draw of {n}")
            return value
        raise NeedChance(n)

    def next64(self) -> int:  # pragma: no cover - engines draw through below and shuffle
        raise NotImplementedError("explicit chance draws through below() only")

    def shuffle(self, items: list) -> None:
        """Fisher-Yates with ``below``: one draw per place, from the last."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "ScriptedRng":
        other = ScriptedRng(self.script)
        other.at = self.at
        return other


def setup(game, players: int):
    """The game after setup, or the draw setup needs: (state, None) or (None, n)."""
    return attempt(lambda rng: game.new_game(players, 0, rng=rng), [])


def attempt(play, script: list[int]):
    """Run ``play(rng)`` with the scripted outcomes: (result, None) when it needed no other draw
    (the result's generator is then a fresh scripted one, for the draws to come), or (None, n)
    when its next draw has n outcomes."""
    rng = ScriptedRng(script)
    try:
        result = play(rng)
    except NeedChance as need:
        return None, need.n
    result.rng = ScriptedRng()
    return result, None


def advance(state, move: tuple, script: list[int]):
    """``state`` (left as it is) after ``move``, drawing the scripted outcomes: (after, None) or
    (None, n) as :func:`attempt`."""
    def play(rng):
        after = state.copy()
        after.rng = rng
        return after.advance(move)
    return attempt(play, script)
