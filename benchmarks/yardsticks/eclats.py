"""A plain hand-written Python engine for Éclats (GAMES.md section 4): the benchmark yardstick.

Written the way a competent programmer would write one engine for one game, without regle.
Same rules and stand-in contracts as games/eclats.rules; its own RNG (random.Random).
"""
from __future__ import annotations

import random

CONTRACTS = [  # (size, first, second, points)
    (0, 1, 2, 1), (0, 1, 3, 1), (0, 2, 2, 1), (0, 1, 4, 2), (0, 2, 3, 2), (0, 2, 4, 3),
    (1, 2, 5, 3), (1, 1, 6, 3), (1, 3, 5, 4), (1, 4, 4, 4), (1, 3, 6, 4), (1, 4, 5, 4),
    (2, 5, 6, 5), (2, 4, 7, 5), (2, 6, 6, 6), (2, 5, 7, 6), (2, 6, 8, 7), (2, 7, 9, 8),
]
PLACES, CAP, TURNS_EACH, MARKET = 4, 9, 20, 4


class Eclats:
    __slots__ = ("market", "reserve", "workshops", "contracts", "scores", "player", "turns", "over")

    def __init__(self, seed: int):
        rng = random.Random(seed)
        fragments = [v for v in (1, 2, 3, 4) for _ in range(9)]
        self.workshops = [[1, 2], [1, 2]]
        for v in (1, 2, 1, 2):
            fragments.remove(v)
        rng.shuffle(fragments)
        self.market = fragments[:MARKET]
        self.reserve = fragments[MARKET:]
        contracts = list(range(len(CONTRACTS)))
        rng.shuffle(contracts)
        self.contracts = []
        for size in (0, 1, 2):
            self.contracts += [c for c in contracts if CONTRACTS[c][0] == size][:2]
        self.scores = [0, 0]
        self.player = 0
        self.turns = 0
        self.over = False

    def moves(self):
        ws = self.workshops[self.player]
        out = []
        for v in set(self.market):
            if len(ws) < PLACES:
                out.append(("take", v, None))
            else:
                for old in set(ws):
                    out.append(("take", v, old))
        for i in range(len(ws)):
            for j in range(i + 1, len(ws)):
                if ws[i] + ws[j] <= CAP:
                    pair = (min(ws[i], ws[j]), max(ws[i], ws[j]))
                    m = ("merge",) + pair
                    if m not in out:
                        out.append(m)
        for c in self.contracts:
            _, a, b, _ = CONTRACTS[c]
            if (a == b and ws.count(a) >= 2) or (a != b and a in ws and b in ws):
                out.append(("deliver", c, None))
        return out or [("pass", None, None)]

    def play(self, move):
        kind, x, y = move
        ws = self.workshops[self.player]
        if kind == "take":
            if y is not None:
                ws.remove(y)
            self.market.remove(x)
            ws.append(x)
            if self.reserve:
                self.market.append(self.reserve.pop(0))
        elif kind == "merge":
            ws.remove(x)
            ws.remove(y)
            ws.append(x + y)
        elif kind == "deliver":
            _, a, b, points = CONTRACTS[x]
            ws.remove(a)
            ws.remove(b)
            self.contracts.remove(x)
            self.scores[self.player] += points
        self.turns += 1
        if not self.contracts or self.turns >= 2 * TURNS_EACH:
            self.over = True
        else:
            self.player = 1 - self.player


def playout(seed: int, rng: random.Random) -> int:
    game = Eclats(seed)
    decisions = 0
    while not game.over:
        game.play(rng.choice(game.moves()))
        decisions += 1
    return decisions
