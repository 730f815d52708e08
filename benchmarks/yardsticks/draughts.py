"""A plain hand-written Python engine for English draughts: the benchmark yardstick for
games/classics/draughts.rules (OpenSpiel's checkers rules: forced jumps, the jumping piece jumps
on unless just crowned, a player who cannot move loses, forty moves without a capture draw).
Written the way a competent programmer would write one engine for one game, without regle: a
list of 64 squares, row-major from the south-west (0 empty, 1/2 White man/king, 3/4 Black man/
king); each multiple jump is a series of decisions of the same player, as in OpenSpiel.
"""
from __future__ import annotations

import random

STEPS = ((1, 1), (-1, 1), (1, -1), (-1, -1))  # (dx, dy): north-east, north-west, south-east, south-west


class Draughts:
    __slots__ = ("board", "player", "jumper", "quiet", "over", "winner")

    def __init__(self):
        self.board = [0] * 64
        for c in range(64):
            x, y = c % 8, c // 8
            if (x + y) % 2 == 0 and y != 3 and y != 4:
                self.board[c] = 1 if y < 3 else 3
        self.player = 0
        self.jumper = -1
        self.quiet = 0
        self.over = False
        self.winner = None

    def _piece_moves(self, c: int, jumps: bool) -> list[tuple[int, int, int]]:
        """(from, to, captured or -1) of the piece on c: its jumps, or its steps."""
        board = self.board
        piece = board[c]
        king = piece in (2, 4)
        forward = 1 if piece <= 2 else -1
        enemy = (3, 4) if piece <= 2 else (1, 2)
        x, y = c % 8, c // 8
        out = []
        for dx, dy in STEPS:
            if not king and dy != forward:
                continue
            nx, ny = x + dx, y + dy
            if not (0 <= nx < 8 and 0 <= ny < 8):
                continue
            over = ny * 8 + nx
            if not jumps:
                if board[over] == 0:
                    out.append((c, over, -1))
                continue
            lx, ly = nx + dx, ny + dy
            if board[over] in enemy and 0 <= lx < 8 and 0 <= ly < 8 and board[ly * 8 + lx] == 0:
                out.append((c, ly * 8 + lx, over))
        return out

    def moves(self) -> list[tuple[int, int, int]]:
        if self.jumper >= 0:
            return self._piece_moves(self.jumper, True)
        mine = (1, 2) if self.player == 0 else (3, 4)
        pieces = [c for c in range(64) if self.board[c] in mine]
        jumps = [m for c in pieces for m in self._piece_moves(c, True)]
        return jumps or [m for c in pieces for m in self._piece_moves(c, False)]

    def play(self, move: tuple[int, int, int]) -> None:
        c, t, captured = move
        board = self.board
        piece, board[c] = board[c], 0
        crowned = piece in (1, 3) and t // 8 == (7 if piece == 1 else 0)
        board[t] = piece + 1 if crowned else piece
        self.jumper = -1
        if captured >= 0:
            board[captured] = 0
            self.quiet = 0
            if not crowned and self._piece_moves(t, True):
                self.jumper = t
                return
        else:
            self.quiet += 1
        self.player = 1 - self.player
        if self.quiet >= 40:
            self.over = True
        elif not self.moves():
            self.over, self.winner = True, 1 - self.player


def playout(seed: int, rng: random.Random) -> int:
    game = Draughts()
    decisions = 0
    while not game.over:
        game.play(rng.choice(game.moves()))
        decisions += 1
    return decisions
