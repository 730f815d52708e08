"""A plain hand-written Python engine for 9x9 Go: the benchmark yardstick for
games/classics/go.rules (OpenSpiel's go rules: no suicide, simple ko, two passes or the 162nd
move end the game, Tromp-Taylor area scoring, komi 7.5). Written the way a competent
programmer would write one engine for one game, without regle: a list of 81 points (0 empty,
1 Black, 2 White), chains found by a flood fill when needed.
"""
from __future__ import annotations

import random

SIZE = 9
POINTS = SIZE * SIZE
NEIGHBOURS = tuple(tuple(q for q, ok in ((p - SIZE, p >= SIZE), (p + SIZE, p < POINTS - SIZE),
                                         (p - 1, p % SIZE > 0), (p + 1, p % SIZE < SIZE - 1)) if ok)
                   for p in range(POINTS))


class Go:
    __slots__ = ("board", "player", "ko", "passes", "moves_made", "over")

    def __init__(self):
        self.board = [0] * POINTS
        self.player = 1
        self.ko = -1
        self.passes = 0
        self.moves_made = 0
        self.over = False

    def chain(self, p: int) -> tuple[list[int], int]:
        """The chain through p and its number of liberties."""
        board, colour = self.board, self.board[p]
        stones, seen, libs, stack = [], {p}, set(), [p]
        while stack:
            q = stack.pop()
            stones.append(q)
            for n in NEIGHBOURS[q]:
                if board[n] == 0:
                    libs.add(n)
                elif board[n] == colour and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return stones, len(libs)

    def legal(self, p: int) -> bool:
        board, me = self.board, self.player
        if board[p] or p == self.ko:
            return False
        for n in NEIGHBOURS[p]:
            if board[n] == 0:
                return True
            libs = self.chain(n)[1]
            if (board[n] == me and libs > 1) or (board[n] == 3 - me and libs == 1):
                return True
        return False

    def moves(self) -> list[int]:
        return [p for p in range(POINTS) if self.legal(p)] + [-1]

    def play(self, p: int) -> None:
        board, me = self.board, self.player
        self.moves_made += 1
        if p < 0:
            self.ko, self.passes = -1, self.passes + 1
        else:
            eye = all(board[n] == 3 - me for n in NEIGHBOURS[p])
            board[p] = me
            taken, last = 0, -1
            for n in NEIGHBOURS[p]:
                if board[n] == 3 - me:
                    stones, libs = self.chain(n)
                    if libs == 0:
                        for q in stones:
                            board[q] = 0
                        taken += len(stones)
                        last = n
            self.ko = last if eye and taken == 1 else -1
            self.passes = 0
        self.player = 3 - me
        self.over = self.passes >= 2 or self.moves_made >= 2 * POINTS


def playout(seed: int, rng: random.Random) -> int:
    game = Go()
    while not game.over:
        game.play(rng.choice(game.moves()))
    return game.moves_made
