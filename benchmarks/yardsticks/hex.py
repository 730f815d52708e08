"""A plain hand-written Python engine for Hex 11x11 with the swap rule: the benchmark yardstick
for games/classics/hex.rules. Written the way a competent programmer would write one engine for
one game, without regle: a flat list of cells, and after each stone a search of its own chain
only, to see whether it touches both of the mover's sides.
"""
from __future__ import annotations

import random

N = 11
NEIGHBOURS = []
for _i in range(N * N):
    _x, _y = _i % N, _i // N
    NEIGHBOURS.append([ny * N + nx for nx, ny in ((_x + 1, _y), (_x - 1, _y), (_x, _y + 1), (_x, _y - 1),
                                                   (_x - 1, _y + 1), (_x + 1, _y - 1))
                       if 0 <= nx < N and 0 <= ny < N])


class Hex:
    __slots__ = ("board", "player", "turns", "over", "winner")

    def __init__(self):
        self.board = [-1] * (N * N)
        self.player = 0
        self.turns = 0
        self.over = False
        self.winner = None

    def moves(self) -> list[int]:
        out = [c for c in range(N * N) if self.board[c] == -1]
        if self.turns == 1:
            out.append(-1)  # swap
        return out

    def joins(self, cell: int, who: int) -> bool:
        """Whether the chain through ``cell`` touches both of who's sides."""
        board = self.board
        low = high = False
        stack, seen = [cell], {cell}
        while stack:
            c = stack.pop()
            v = c // N if who == 0 else c % N
            low |= v == 0
            high |= v == N - 1
            if low and high:
                return True
            for nb in NEIGHBOURS[c]:
                if nb not in seen and board[nb] == who:
                    seen.add(nb)
                    stack.append(nb)
        return False

    def play(self, cell: int) -> None:
        if cell < 0:
            first = self.board.index(0)
            self.board[first] = -1
            cell = (first % N) * N + first // N  # mirrored across the long diagonal
        self.board[cell] = self.player
        if self.joins(cell, self.player):
            self.over, self.winner = True, self.player
        self.player = 1 - self.player
        self.turns += 1


def playout(seed: int, rng: random.Random) -> int:
    game = Hex()
    decisions = 0
    while not game.over:
        game.play(rng.choice(game.moves()))
        decisions += 1
    return decisions
