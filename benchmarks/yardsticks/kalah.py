"""A plain hand-written Python engine for Kalah: the benchmark yardstick for
games/classics/kalah.rules (six houses a side, four seeds each). Written the way a competent
programmer would write one engine for one game, without regle: a list of 14 pits, houses 0-5
and store 6 for the first player, houses 7-12 and store 13 for the second.
"""
from __future__ import annotations

import random

HOUSES = 6
STORE = (HOUSES, 2 * HOUSES + 1)


class Kalah:
    __slots__ = ("pits", "player", "over")

    def __init__(self):
        self.pits = [4] * HOUSES + [0] + [4] * HOUSES + [0]
        self.player = 0
        self.over = False

    def moves(self) -> list[int]:
        first = self.player * (HOUSES + 1)
        return [h for h in range(first, first + HOUSES) if self.pits[h]]

    def play(self, house: int) -> None:
        pits, me = self.pits, self.player
        seeds, pits[house] = pits[house], 0
        at = house
        skip = STORE[1 - me]
        while seeds:
            at = (at + 1) % 14
            if at != skip:
                pits[at] += 1
                seeds -= 1
        first = me * (HOUSES + 1)
        if at == STORE[me]:
            pass  # the same player again
        else:
            if first <= at < first + HOUSES and pits[at] == 1 and pits[2 * HOUSES - at] > 0:
                pits[STORE[me]] += 1 + pits[2 * HOUSES - at]
                pits[at] = pits[2 * HOUSES - at] = 0
            self.player = 1 - me
        if not any(pits[0:HOUSES]) or not any(pits[HOUSES + 1:2 * HOUSES + 1]):
            self.over = True


def playout(seed: int, rng: random.Random) -> int:
    game = Kalah()
    decisions = 0
    while not game.over:
        game.play(rng.choice(game.moves()))
        decisions += 1
    return decisions
