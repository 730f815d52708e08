"""A plain hand-written Python engine for Breakthrough: the benchmark yardstick for
games/classics/breakthrough.rules (8x8, Black on the two north rows moving south, White on the
two south rows moving north). Written the way a competent programmer would write one engine
for one game, without regle: a list of 64 squares (0 empty, 1 Black, 2 White), row-major from
the south-west, and each side's moves made by walking its pieces.
"""
from __future__ import annotations

import random

SIZE = 8


class Breakthrough:
    __slots__ = ("board", "player", "over", "winner")

    def __init__(self):
        self.board = [2] * (2 * SIZE) + [0] * (SIZE * (SIZE - 4)) + [1] * (2 * SIZE)
        self.player = 0  # Black
        self.over = False
        self.winner = None

    def moves(self) -> list[tuple[int, int]]:
        board, mine = self.board, self.player + 1
        step = -SIZE if mine == 1 else SIZE
        out = []
        for c in range(SIZE * SIZE):
            if board[c] != mine:
                continue
            x = c % SIZE
            t = c + step
            if not 0 <= t < SIZE * SIZE:
                continue
            if board[t] == 0:
                out.append((c, t))
            for dx in (-1, 1):
                if 0 <= x + dx < SIZE and board[t + dx] != mine:
                    out.append((c, t + dx))
        return out

    def play(self, move: tuple[int, int]) -> None:
        c, t = move
        board, mine = self.board, self.player + 1
        board[t], board[c] = mine, 0
        if t // SIZE == (0 if mine == 1 else SIZE - 1) or (3 - mine) not in board:
            self.over, self.winner = True, self.player
        self.player = 1 - self.player


def playout(seed: int, rng: random.Random) -> int:
    game = Breakthrough()
    decisions = 0
    while not game.over and decisions < 400:
        moves = game.moves()
        if moves:
            game.play(rng.choice(moves))
            decisions += 1
        else:  # every piece blocked head-on: the turn passes
            game.player = 1 - game.player
    return decisions
