"""A plain hand-written Python engine for Nine Men's Morris: the benchmark yardstick for
games/classics/morris.rules (OpenSpiel's nine_mens_morris rules: nine men each placed in turn,
then moved along the lines, flying with three left; a mill removes a man of the other player not
in a mill unless all are, as a decision of its own; two men left or no move loses; 200 turns
draw). Written the way a competent programmer would write one engine for one game, without
regle: 24 points numbered from the north-west as OpenSpiel numbers them, a list of owners
(-1 empty), neighbour and mill tables written out.
"""
from __future__ import annotations

import random

#: the sixteen mills, as lines of three points (points 0..23 row by row from the north)
MILLS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14), (15, 16, 17), (18, 19, 20),
         (21, 22, 23), (0, 9, 21), (3, 10, 18), (6, 11, 15), (1, 4, 7), (16, 19, 22), (8, 12, 17),
         (5, 13, 20), (2, 14, 23))
MILLS_AT = tuple(tuple(m for m in MILLS if p in m) for p in range(24))
NEIGHBOURS = tuple(tuple(sorted({q for m in MILLS if p in m for i, q in enumerate(m)
                                 if abs(i - m.index(p)) == 1})) for p in range(24))


class Morris:
    __slots__ = ("board", "player", "hand", "capture", "turns", "over", "winner")

    def __init__(self):
        self.board = [-1] * 24
        self.player = 0
        self.hand = [9, 9]
        self.capture = False
        self.turns = 0
        self.over = False
        self.winner = None

    def men(self, p: int) -> int:
        return self.board.count(p) + self.hand[p]

    def in_mill(self, p: int) -> bool:
        board = self.board
        who = board[p]
        return who >= 0 and any(board[a] == who and board[b] == who and board[c] == who
                                for a, b, c in MILLS_AT[p])

    def moves(self) -> list[tuple[int, int]]:
        """(from or -1, to): a placement, a move or a flight; a removal is (-1, point)."""
        board, me = self.board, self.player
        if self.capture:
            theirs = [p for p in range(24) if board[p] == 1 - me]
            free = [p for p in theirs if not self.in_mill(p)]
            return [(-1, p) for p in (free or theirs)]
        if self.hand[me]:
            return [(-1, p) for p in range(24) if board[p] < 0]
        mine = [p for p in range(24) if board[p] == me]
        if self.men(me) == 3:
            empty = [p for p in range(24) if board[p] < 0]
            return [(c, t) for c in mine for t in empty]
        return [(c, t) for c in mine for t in NEIGHBOURS[c] if board[t] < 0]

    def play(self, move: tuple[int, int]) -> None:
        c, t = move
        board, me = self.board, self.player
        if self.capture:
            board[t] = -1
            self.capture = False
        else:
            if c < 0:
                self.hand[me] -= 1
            else:
                board[c] = -1
            board[t] = me
            if self.in_mill(t):
                self.capture = True
                return
        self.player = 1 - me
        self.turns += 1
        if self.men(1 - self.player) <= 2:
            self.over, self.winner = True, 1 - self.player
        elif not self.moves():
            self.over, self.winner = True, 1 - self.player
        elif self.turns >= 200:
            self.over = True


def playout(seed: int, rng: random.Random) -> int:
    game = Morris()
    decisions = 0
    while not game.over:
        game.play(rng.choice(game.moves()))
        decisions += 1
    return decisions
