"""A plain hand-written Python engine for Explobilles (GAMES.md section 1), 2 players: the
benchmark yardstick. Written the way a competent programmer would write one engine for one
game, without regle: trays as lists of lanes, flood fills and gravity in Python.
Same rules and stand-ins as games/explobilles.rules.
"""
from __future__ import annotations

import random

from . import turn_playout

B, Y, R, P, W = "BYRPW"
COLOURS = "BYRP"
CARDS = ("BY BR BP YB YR YP RB RY RP PB PY PR B.B Y.Y R.R P.P W.B W.Y W.R W.P B/Y Y/R R/P P/B "
         "B/R Y/P R/B P/Y BB/Y. YY/R. RR/P. PP/B. BW/B. YW/Y. RW/R. PW/P. BBY YYR RRP PPB BYB YRY RPR PBP").split()
TURQUOISE = [1] * 4 + [2] * 6 + [3] * 5 + [4] * 3
ORANGE = [2] * 4 + [3] * 6 + [4] * 6 + [5] * 5 + [6] * 3
LANES, HEIGHT, CENTRE = 5, 5, 2
TOKENS_BY_ROW = (0, 1, 2)


def turned(grid: list[list[str]]) -> list[list[list[str]]]:
    """A grid (rows top first) in its four quarter turns, clockwise."""
    out = []
    for _ in range(4):
        out.append(grid)
        grid = [list(row) for row in zip(*grid[::-1])]
    return out


class Explobilles:
    def __init__(self, seed: int, players: int = 2):
        rng = random.Random(seed)
        self.rng = rng
        self.n = players
        self.supply = {B: 11, Y: 11, R: 11, P: 11, W: 8}
        deck = CARDS[:]
        rng.shuffle(deck)
        del deck[: {2: 22, 3: 12, 4: 2}[players]]
        self.display, self.deck = deck[:3], deck[3:]
        self.turquoise, self.orange = TURQUOISE[:], ORANGE[:]
        rng.shuffle(self.turquoise)
        rng.shuffle(self.orange)
        self.market = {c: [self.draw_point() for _ in range(3)] for c in COLOURS}
        self.tokens_supply = [c for c in COLOURS for _ in range(7)]
        rng.shuffle(self.tokens_supply)
        self.trays = [[[] for _ in range(LANES)] for _ in range(players)]
        self.tokens = [[] for _ in range(players)]
        self.winnings = [[] for _ in range(players)]
        for p in range(players):
            self.supply[W] -= 1
            self.trays[p][CENTRE].append(W)
            self.tokens[p] = [self.tokens_supply.pop(0) for _ in range(2)]
        self.player = 0
        self.over = False

    def draw_point(self):
        if self.turquoise:
            return self.turquoise.pop(0)
        if self.orange:
            return self.orange.pop(0)
        return None

    # -- one turn, each decision by the given chooser ------------------------------------
    def placements(self, card: str, tray):
        # the supply may lack some marbles: they keep their place ('?') but are not dropped;
        # marbles are taken in the card's reading order
        pool = dict(self.supply)
        grid = []
        for row in card.split("/"):
            new = []
            for ch in row:
                if ch != "." and pool[ch] > 0:
                    pool[ch] -= 1
                    new.append(ch)
                else:
                    new.append("." if ch == "." else "?")
            grid.append(new)
        seen, out = set(), []
        for shape in turned(grid):
            width = len(shape[0])
            columns = [[shape[row][col] for row in range(len(shape) - 1, -1, -1) if shape[row][col] not in ".?"]
                       for col in range(width)]  # each column's marbles, lowest first
            for offset in range(LANES - width + 1):
                result = [lane[:] for lane in tray]
                over = []
                for col, marbles in enumerate(columns):
                    lane = result[offset + col]
                    for ch in marbles:
                        if len(lane) < HEIGHT:
                            lane.append(ch)
                        else:
                            over.append(ch)
                key = tuple(map(tuple, result))
                if key not in seen:
                    seen.add(key)
                    out.append((result, over))
        return out

    def groups(self, tray):
        found = []
        for colour in COLOURS:
            seen = set()
            for lane in range(LANES):
                for row, v in enumerate(tray[lane]):
                    if v != colour or (lane, row) in seen:
                        continue
                    group, stack = {(lane, row)}, [(lane, row)]
                    while stack:
                        l, r = stack.pop()
                        for nl, nr in ((l + 1, r), (l - 1, r), (l, r + 1), (l, r - 1)):
                            if 0 <= nl < LANES and 0 <= nr < len(tray[nl]) and (nl, nr) not in group:
                                if tray[nl][nr] in (colour, W):
                                    group.add((nl, nr))
                                    stack.append((nl, nr))
                    seen |= {c for c in group if tray[c[0]][c[1]] == colour}
                    if len(group) >= 3:
                        found.append((colour, group))
        return found

    def turn(self, choose):
        me = self.player
        tray = self.trays[me]
        card = self.display.pop(choose(len(self.display)))
        options = self.placements(card, tray)
        result, over = options[choose(len(options))]
        for lane in range(LANES):
            for v in result[lane][len(tray[lane]):]:
                self.supply[v] -= 1
        self.trays[me] = tray = result
        spend = [(t, lane) for t in set(self.tokens[me]) for lane in range(LANES)
                 if self.supply[t] > 0 and len(tray[lane]) < HEIGHT]
        k = choose(len(spend) + 1)
        if k < len(spend):
            t, lane = spend[k]
            self.tokens[me].remove(t)
            self.supply[t] -= 1
            tray[lane].append(t)
        while True:
            groups = self.groups(tray)
            if not groups:
                break
            colour, group = groups[choose(len(groups))]
            for l, r in sorted(group, key=lambda c: -c[1]):
                self.supply[tray[l].pop(r)] += 1  # lists fall by themselves
            size = min(len(group), 5) - 3
            column = self.market[colour]
            if len(column) > size:
                self.winnings[me].append(column.pop(size))
                card_ = self.draw_point()
                if card_ is not None:
                    column.append(card_)
            for _ in range(TOKENS_BY_ROW[size]):
                if colour in self.tokens_supply:
                    self.tokens_supply.remove(colour)
                    self.tokens[me].append(colour)
        if not any(tray) and self.supply[W] > 0:
            self.supply[W] -= 1
            tray[CENTRE].append(W)
        if len(self.display) + len(self.deck) < 3:
            self.over = True
            return
        while len(self.display) < 3:
            self.display.append(self.deck.pop(0))
        self.player = (me + 1) % self.n


def playout(seed: int, rng: random.Random) -> int:
    return turn_playout(Explobilles(seed), rng)
