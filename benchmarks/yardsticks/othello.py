"""A plain hand-written Python engine for Othello: the benchmark yardstick for
games/classics/othello.rules. Written the way a competent programmer would write one engine for
one game, without regle: a flat list of 64 cells, direction offsets checked against the edges.
"""
from __future__ import annotations

import random

DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (-1, 1), (1, -1)]
# for each cell and direction, the cells of the ray to the edge (computed once)
RAYS = []
for _i in range(64):
    _x, _y = _i % 8, _i // 8
    rays = []
    for _dx, _dy in DIRS:
        ray, cx, cy = [], _x + _dx, _y + _dy
        while 0 <= cx < 8 and 0 <= cy < 8:
            ray.append(cy * 8 + cx)
            cx, cy = cx + _dx, cy + _dy
        if len(ray) >= 2:
            rays.append(ray)
    RAYS.append(rays)


class Othello:
    __slots__ = ("board", "player", "over")

    def __init__(self):
        self.board = [-1] * 64
        self.board[27] = self.board[36] = 1  # d4, e5 white
        self.board[35] = self.board[28] = 0  # d5, e4 black
        self.player = 0
        self.over = False

    def flips(self, cell: int, who: int) -> list[int]:
        board = self.board
        out = []
        for ray in RAYS[cell]:
            run = []
            for c in ray:
                v = board[c]
                if v == -1:
                    break
                if v == who:
                    if run:
                        out += run
                    break
                run.append(c)
        return out

    def moves_of(self, who: int) -> list[int]:
        return [c for c in range(64) if self.board[c] == -1 and self.flips(c, who)]

    def moves(self) -> list[int]:
        return self.moves_of(self.player) or [-1]  # -1: pass

    def play(self, cell: int) -> None:
        if cell >= 0:
            for c in self.flips(cell, self.player):
                self.board[c] = self.player
            self.board[cell] = self.player
        self.player = 1 - self.player
        if not self.moves_of(0) and not self.moves_of(1):
            self.over = True


def playout(seed: int, rng: random.Random) -> int:
    game = Othello()
    decisions = 0
    while not game.over:
        game.play(rng.choice(game.moves()))
        decisions += 1
    return decisions
