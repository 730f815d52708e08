"""A plain hand-written Python engine for Cibles (GAMES.md section 2): the benchmark yardstick.

Written the way a competent programmer would write one engine for one game, without regle:
axial coordinates in a dict, moves as tuples. Same rules and stand-ins as games/cibles.rules.
"""
from __future__ import annotations

import random

SIDE = 4
K = SIDE - 1
DIRS = ((1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1), (0, 1))  # E W NE SW NW SE (r grows south)
VALUES = {"s": 1, "sw": 2, "nw": 3, "n": 1, "ne": 2, "se": 3}
CELLS = [(q, r) for r in range(K, -K - 1, -1) for q in range(-K, K + 1) if abs(q + r) <= K]
ON = set(CELLS)


def sides_crossed(q: int, r: int) -> list[str]:
    out = []
    if r > K:
        out.append("s")
    if q < -K:
        out.append("sw")
    if q + r < -K:
        out.append("nw")
    if r < -K:
        out.append("n")
    if q > K:
        out.append("ne")
    if q + r > K:
        out.append("se")
    return out


INDEX = {c: i for i, c in enumerate(CELLS)}
#: NEXT[cell][d]: the neighbour in direction d, or -1 off the board; EXIT[cell][d]: sides crossed
NEXT = [[INDEX.get((q + dq, r + dr), -1) for dq, dr in DIRS] for q, r in CELLS]
EXIT = [[sides_crossed(q + dq, r + dr) for dq, dr in DIRS] for q, r in CELLS]
OPPOSITE = (1, 0, 3, 2, 5, 4)
EMPTY = -1


class Cibles:
    """Board: a flat list of owners (-1 empty) over precomputed neighbour tables."""

    def __init__(self):
        self.board = [EMPTY] * len(CELLS)
        for i, (q, r) in enumerate(CELLS):
            row = K - r
            if row < 2:
                self.board[i] = 0
            elif row >= 2 * SIDE - 3:
                self.board[i] = 1
        self.targets = {s: None for s in VALUES}
        self.points = [0, 0]
        self.bounced = [0, 0]
        self.removed = [0, 0]
        self.player = 0
        self.turns = 0
        self.over = False
        self.pending_discarded = False

    def moves(self):
        me = self.player
        board = self.board
        if self.bounced[me] and not self.pending_discarded:
            return [("place", c) for c in range(len(board)) if board[c] == EMPTY] + [("discard",)]
        out = []
        for cell in range(len(board)):
            if board[cell] != me:
                continue
            nxt = NEXT[cell]
            for d in range(6):
                front = nxt[d]
                if front < 0:
                    continue
                v = board[front]
                if v == me:
                    continue
                run = 1
                back = NEXT[cell][OPPOSITE[d]]
                while back >= 0 and board[back] == me:
                    run += 1
                    back = NEXT[back][OPPOSITE[d]]
                if v == EMPTY:
                    for k in range(1, run + 1):
                        out.append(("line", cell, d, k))
                    continue
                m = 0
                cur = front
                while cur >= 0 and board[cur] != EMPTY and board[cur] != me:
                    m += 1
                    cur = NEXT[cur][d]
                if cur >= 0 and board[cur] == me:
                    continue
                for k in range(m + 1, run + 1):
                    out.append(("line", cell, d, k))
        return out or [("pass",)]

    def play(self, move):
        me = self.player
        kind = move[0]
        if kind == "discard":
            self.bounced[me] = 0
            self.removed[me] += 1
            self.pending_discarded = True
            return
        if kind == "place":
            self.board[move[1]] = me
            self.bounced[me] = 0
        elif kind == "line":
            self.push(move[1], move[2], move[3])
        self.pending_discarded = False
        self.turns += 1
        if max(self.points) >= 6 or self.turns >= 300:
            self.over = True
        else:
            self.player = 1 - me

    def push(self, head, d, k):
        board = self.board
        last, cur, count = -1, NEXT[head][d], 0
        while cur >= 0 and board[cur] != EMPTY:
            last, cur, count = cur, NEXT[cur][d], count + 1
        ejected = None
        if count and cur < 0:
            ejected = (board[last], EXIT[last][d])
        src = last
        for _ in range(count):  # the pushed marbles, from the far end
            dst = NEXT[src][d]
            if dst >= 0:
                board[dst] = board[src]
            board[src] = EMPTY
            src = NEXT[src][OPPOSITE[d]]
        src = head
        for _ in range(k):  # then the line itself
            dst = NEXT[src][d]
            board[dst] = board[src]
            board[src] = EMPTY
            src = NEXT[src][OPPOSITE[d]]
        if ejected:
            owner, sides = ejected
            free = [s for s in sides if self.targets[s] is None]
            if free:
                best = min(free, key=lambda s: VALUES[s])
                self.targets[best] = owner
                self.points[self.player] += VALUES[best]
            else:
                self.bounced[owner] += 1


def playout(seed: int, rng: random.Random) -> int:
    game = Cibles()
    decisions = 0
    while not game.over:
        game.play(rng.choice(game.moves()))
        decisions += 1
    return decisions
