"""A plain hand-written Python engine for Pixies (GAMES.md section 3): the benchmark yardstick.

Written the way a competent programmer would write one engine for one game, without regle.
Same rules and stand-in deck as games/pixies.rules; played with 3 players by the benchmark.
"""
from __future__ import annotations

import random

from . import turn_playout

DECK_TEXT = """1 blue 6 0 -|1 blue 5 0 -|1 green 5 0 -|1 green 4 0 -|1 yellow 4 0 -|1 yellow 3 0 -|1 red 3 0 -|1 red 0 0 red|2 multi 0 0 -|2 blue 4 0 -|2 green 3 0 -|2 green 2 0 -|2 yellow 0 0 yellow|2 yellow 2 0 -|2 red 5 0 -|2 red 4 0 -|3 multi 0 0 -|3 blue 3 0 -|3 blue 1 0 -|3 green 0 0 green|3 green 2 0 -|3 yellow 5 0 -|3 yellow 0 0 -|3 red 4 0 -|4 multi 0 0 -|4 blue 0 0 blue|4 blue 0 0 -|4 green 4 1 -|4 green 3 0 -|4 yellow 3 1 -|4 yellow 0 0 -|4 red 2 0 -|5 blue 0 0 blue|5 blue 0 2 -|5 green 0 0 green|5 green 0 1 -|5 yellow 0 0 yellow|5 yellow 0 2 -|5 red 0 0 red|5 red 0 1 -|5 red 0 0 -|6 multi 0 1 -|6 blue 1 1 -|6 blue 0 0 -|6 green 1 4 -|6 green 0 1 -|6 yellow 0 3 -|6 red 0 2 -|6 red 0 0 -|7 multi 0 1 -|7 blue 0 3 -|7 green 0 2 -|7 green 0 0 -|7 yellow 1 0 -|7 yellow 0 5 -|7 red 0 4 -|8 multi 0 1 -|8 blue 0 3 -|8 green 0 2 -|8 yellow 0 1 -|8 yellow 0 0 -|8 red 0 5 -|8 red 0 0 -|9 blue 0 6 -|9 blue 0 1 -|9 green 0 4 -|9 green 0 0 -|9 yellow 0 2 -|9 red 0 2 -|9 red 0 0 -"""
CARDS = []
for text in DECK_TEXT.split("|"):
    n, colour, spirals, crosses, effect = text.split()
    CARDS.append((int(n), colour, int(spirals), int(crosses), None if effect == "-" else effect))
NEIGHBOURS = [[j for j in (i - 3, i + 3, i - 1 if i % 3 else -1, i + 1 if i % 3 != 2 else -1) if 0 <= j < 9]
              for i in range(9)]  # slots 0..8 = 1..9, row by row from the top
OFFER = {2: 4, 3: 3, 4: 4, 5: 5}


class Pixies:
    def __init__(self, seed: int, players: int = 3):
        self.rng = random.Random(seed)
        self.n = players
        self.deck = list(range(70))
        self.rng.shuffle(self.deck)
        self.up = [[None] * 9 for _ in range(players)]
        self.down = [[None] * 9 for _ in range(players)]
        self.totals = [0] * players
        self.round = 1
        self.player = self.rng.randrange(players)
        self.over = False
        self.new_round_state()

    def new_round_state(self):
        self.placed = [0] * self.n
        self.ending = False
        self.offer = [self.deck.pop() for _ in range(OFFER[self.n])]

    def filled(self, p):
        return sum(1 for s in range(9) if self.up[p][s] is not None or self.down[p][s] is not None)

    def placements(self, p, card):
        slot = CARDS[card][0] - 1
        up, down = self.up[p], self.down[p]
        if up[slot] is None:
            return [("up", slot)]
        if down[slot] is None:
            return [("keep_new", slot), ("keep_old", slot)]
        return [("hide", s) for s in range(9) if up[s] is None and down[s] is None]

    def place(self, p, card, how, slot):
        up, down = self.up[p], self.down[p]
        if how == "up":
            up[slot] = card
        elif how == "keep_new":
            down[slot], up[slot] = up[slot], card
        else:  # keep_old, hide
            down[slot] = card

    def score(self, p):
        up, down = self.up[p], self.down[p]
        total = 0
        for s in range(9):
            card = up[s]
            if card is None:
                continue
            n, colour, spirals, crosses, effect = CARDS[card]
            if down[s] is not None:
                total += n
            total += spirals - crosses
            if effect:
                total += sum(1 for c in up if c is not None and CARDS[c][1] in (effect, "multi"))
        best = 0
        for colour in ("blue", "green", "yellow", "red", "multi"):
            seen = set()
            for s in range(9):
                if up[s] is None or s in seen or CARDS[up[s]][1] != colour:
                    continue
                zone, stack = {s}, [s]
                while stack:
                    for t in NEIGHBOURS[stack.pop()]:
                        if t not in zone and up[t] is not None and CARDS[up[t]][1] in (colour, "multi"):
                            zone.add(t)
                            stack.append(t)
                seen |= {t for t in zone if CARDS[up[t]][1] == colour}
                if len(zone) >= 2:
                    best = max(best, len(zone))
        return total + best * (self.round + 1)

    def may_play(self, p):
        return self.filled(p) < 9 and (not self.ending or self.placed[p] < max(self.placed))

    def turn(self, choose):
        me = self.player
        card = self.offer.pop(choose(len(self.offer)))
        options = self.placements(me, card)
        self.place(me, card, *options[choose(len(options))])
        self.placed[me] += 1
        if self.filled(me) == 9:
            self.ending = True
        starter = me if not self.offer else me + 1
        if ((self.ending and len(set(self.placed)) == 1) or (not self.offer and len(self.deck) < OFFER[self.n])
                or not any(self.may_play(p) for p in range(self.n))):
            for p in range(self.n):
                self.totals[p] += self.score(p)
            if self.round == 3:
                self.over = True
                return
            for p in range(self.n):
                self.deck += [c for c in self.up[p] + self.down[p] if c is not None]
                self.up[p], self.down[p] = [None] * 9, [None] * 9
            self.deck += self.offer
            self.rng.shuffle(self.deck)
            self.round += 1
            self.new_round_state()
            self.player = me
            return
        if not self.offer:
            self.offer = [self.deck.pop() for _ in range(OFFER[self.n])]
        for k in range(self.n):
            p = (starter + k) % self.n
            if self.may_play(p):
                self.player = p
                return


def playout(seed: int, rng: random.Random) -> int:
    return turn_playout(Pixies(seed), rng)
