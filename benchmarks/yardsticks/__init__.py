"""Hand-written engines used only as speed yardsticks by the benchmarks; never by regle itself."""
from __future__ import annotations

import random


def turn_playout(game, rng: random.Random) -> int:
    """Play a yardstick whose ``turn(choose)`` asks ``choose(n)`` for each decision, uniformly
    at random, to the end; returns the number of decisions."""
    decisions = 0

    def choose(n: int) -> int:
        nonlocal decisions
        decisions += 1
        return rng.randrange(n)

    while not game.over:
        game.turn(choose)
    return decisions
