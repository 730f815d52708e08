"""The classic games of games/classics/, each checked against an independent oracle written
here by hand from the published rules: over seeded random games, the legal moves of every
position, the position after every move and the result must agree. A few positions then test
single rules directly (a rule an oracle shares a mistake with would otherwise go unseen)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import regle

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from perft import from_fen, regle_perft  # noqa: E402

CLASSICS = Path(__file__).resolve().parent.parent / "games" / "classics"


def _load(name: str):
    return regle.load(CLASSICS / f"{name}.rules")


def _letters(x: int) -> str:
    return chr(97 + x)


def _name(x: int, y: int) -> str:
    return f"{_letters(x)}{y + 1}"


def _board(state, name: str = "board") -> list[int]:
    return state.to_json()["zones"][name]


# ---- oracles: plain Python, written from the rules, sharing nothing with regle ----------------
class Square:
    """A w x h board of cells (x, y), -1 empty, with 8 or 4 (orthogonal) directions."""

    def __init__(self, w: int, h: int, steps):
        self.w, self.h, self.steps = w, h, steps

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.w and 0 <= y < self.h

    def line(self, cells: dict, who: int, n: int) -> bool:
        for (x, y), v in cells.items():
            if v != who:
                continue
            for dx, dy in self.steps:
                if all(cells.get((x + k * dx, y + k * dy)) == who for k in range(n)):
                    return True
        return False


KING = [(1, 0), (0, 1), (1, 1), (1, -1), (-1, 0), (0, -1), (-1, -1), (-1, 1)]


def _cells(board: list[int], w: int, h: int, lane_major: bool = False) -> dict:
    out = {}
    for x in range(w):
        for y in range(h):
            out[(x, y)] = board[x * h + y] if lane_major else board[y * w + x]
    return out


class TicTacToe:
    def __init__(self):
        self.cells = {(x, y): -1 for x in range(3) for y in range(3)}
        self.turn, self.winner, self.over = 0, None, False

    def legal(self):
        return set() if self.over else {_name(x, y) for (x, y), v in self.cells.items() if v < 0}

    def play(self, move: str):
        x, y = ord(move[0]) - 97, int(move[1:]) - 1
        self.cells[(x, y)] = self.turn
        if Square(3, 3, KING).line(self.cells, self.turn, 3):
            self.over, self.winner = True, self.turn
        elif all(v >= 0 for v in self.cells.values()):
            self.over = True
        self.turn = 1 - self.turn


class ConnectFour:
    def __init__(self):
        self.cols = [[] for _ in range(7)]
        self.turn, self.winner, self.over = 0, None, False

    def legal(self):
        return set() if self.over else {str(i + 1) for i, c in enumerate(self.cols) if len(c) < 6}

    def cells(self):
        return {(x, y): (col[y] if y < len(col) else -1) for x, col in enumerate(self.cols) for y in range(6)}

    def play(self, move: str):
        self.cols[int(move) - 1].append(self.turn)
        if Square(7, 6, KING).line(self.cells(), self.turn, 4):
            self.over, self.winner = True, self.turn
        elif all(len(c) == 6 for c in self.cols):
            self.over = True
        self.turn = 1 - self.turn


class Othello:
    def __init__(self):
        self.cells = {(x, y): -1 for x in range(8) for y in range(8)}
        for name, who in (("d4", 1), ("e5", 1), ("d5", 0), ("e4", 0)):
            self.cells[(ord(name[0]) - 97, int(name[1]) - 1)] = who
        self.turn, self.over = 0, False

    def flips(self, x, y, who):
        out = []
        for dx, dy in KING:
            run, cx, cy = [], x + dx, y + dy
            while self.cells.get((cx, cy), -1) == 1 - who:
                run.append((cx, cy))
                cx, cy = cx + dx, cy + dy
            if run and self.cells.get((cx, cy), -1) == who:
                out += run
        return out

    def moves(self, who):
        return {_name(x, y) for (x, y), v in self.cells.items() if v < 0 and self.flips(x, y, who)}

    def legal(self):
        if self.over:
            return set()
        return self.moves(self.turn) or {"pass"}

    def play(self, move: str):
        if move != "pass":
            x, y = ord(move[0]) - 97, int(move[1:]) - 1
            for c in self.flips(x, y, self.turn) + [(x, y)]:
                self.cells[c] = self.turn
        if not self.moves(0) and not self.moves(1):
            self.over = True
        self.turn = 1 - self.turn

    @property
    def winner(self):
        a, b = (sum(1 for v in self.cells.values() if v == p) for p in (0, 1))
        return None if a == b else (0 if a > b else 1)


class Hex:
    N = 11
    STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)]  # rows shifted east going north

    def __init__(self):
        self.cells = {(x, y): -1 for x in range(self.N) for y in range(self.N)}
        self.turn, self.turns, self.winner, self.over = 0, 0, None, False

    def legal(self):
        if self.over:
            return set()
        out = {_name(x, y) for (x, y), v in self.cells.items() if v < 0}
        return out | ({"swap"} if self.turns == 1 else set())

    def joined(self, who):
        if who == 0:
            start = [(x, 0) for x in range(self.N)]
            goal = lambda c: c[1] == self.N - 1  # noqa: E731
        else:
            start = [(0, y) for y in range(self.N)]
            goal = lambda c: c[0] == self.N - 1  # noqa: E731
        stack = [c for c in start if self.cells[c] == who]
        seen = set(stack)
        while stack:
            c = stack.pop()
            if goal(c):
                return True
            for dx, dy in self.STEPS:
                n = (c[0] + dx, c[1] + dy)
                if self.cells.get(n, -1) == who and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return False

    def play(self, move: str):
        if move == "swap":
            (x, y), = [c for c, v in self.cells.items() if v >= 0]
            self.cells[(x, y)] = -1
            self.cells[(y, x)] = self.turn
        else:
            self.cells[(ord(move[0]) - 97, int(move[1:]) - 1)] = self.turn
        for who in (0, 1):
            if self.joined(who):
                self.over, self.winner = True, who
        self.turn, self.turns = 1 - self.turn, self.turns + 1


class Kalah:
    """pits[p][0..5] are seat p's houses from its left, stores[p] its store."""

    def __init__(self):
        self.pits = [[4] * 6, [4] * 6]
        self.stores = [0, 0]
        self.turn, self.over = 0, False

    def legal(self):
        if self.over:
            return set()
        return {self.house_name(self.turn, i) for i in range(6) if self.pits[self.turn][i]}

    @staticmethod
    def house_name(p, i):
        return f"{_letters(i)}1" if p == 0 else f"{_letters(5 - i)}2"

    def play(self, move: str):
        p = self.turn
        i = next(i for i in range(6) if self.house_name(p, i) == move)
        seeds, self.pits[p][i] = self.pits[p][i], 0
        side, at = p, i
        while seeds:
            at += 1
            if at == 6:  # a store
                if side == p:
                    self.stores[p] += 1
                    seeds -= 1
                    if not seeds:
                        break
                side, at = 1 - side, -1
                continue
            self.pits[side][at] += 1
            seeds -= 1
        again = at == 6 and side == p
        if not again and side == p and 0 <= at < 6 and self.pits[p][at] == 1 and self.pits[1 - p][5 - at] > 0:
            self.stores[p] += 1 + self.pits[1 - p][5 - at]
            self.pits[p][at] = self.pits[1 - p][5 - at] = 0
        if sum(self.pits[0]) == 0 or sum(self.pits[1]) == 0:
            self.over = True
        if not again:
            self.turn = 1 - p

    def flat(self):
        """As the engine's mancala board numbers its cells."""
        return self.pits[0] + [self.stores[0]] + self.pits[1] + [self.stores[1]]

    def scores(self):
        return [self.stores[p] + sum(self.pits[p]) for p in (0, 1)]

    @property
    def winner(self):
        a, b = self.scores()
        return None if a == b else (0 if a > b else 1)


COLOURS = "YBWGR"
NAMES = ["yellow", "blue", "white", "green", "red"]
# the 60 cards in the table's order: three wagers per colour, then 2..10 per colour
CARDS = [(c, 0) for c in range(5) for _ in range(3)] + [(c, v) for c in range(5) for v in range(2, 11)]


def _card(i: int) -> str:
    c, v = CARDS[i]
    return COLOURS[c] + (str(v) if v else "$")


class LostCities:
    def __init__(self, zones: dict):
        self.deck = list(zones["deck"])
        self.hands = [list(h) for h in zones["hand"]]
        self.exp = [[], []]
        self.piles = [[] for _ in range(5)]
        self.turn, self.phase, self.over, self.banned = 0, "play", False, None

    def highest(self, p, colour):
        return max((CARDS[i][1] for i in self.exp[p] if CARDS[i][0] == colour), default=0)

    def legal(self):
        if self.over:
            return set()
        p = self.turn
        if self.phase == "play":
            hand = self.hands[p]
            return ({"play " + _card(i) for i in hand if CARDS[i][1] >= self.highest(p, CARDS[i][0])}
                    | {"discard " + _card(i) for i in hand})
        out = {"draw"} if self.deck else set()
        return out | {"take " + NAMES[c] for c in range(5) if self.piles[c] and c != self.banned}

    def play(self, move: str):
        p = self.turn
        verb, _, what = move.partition(" ")
        if verb in ("play", "discard"):
            i = next(i for i in self.hands[p] if _card(i) == what.split(" ")[0])
            self.hands[p].remove(i)
            if verb == "play":
                self.exp[p].append(i)
                self.banned = None
            else:
                self.piles[CARDS[i][0]].append(i)
                self.banned = CARDS[i][0]
            self.phase = "draw"
            return
        if verb == "draw":
            self.hands[p].append(self.deck.pop(0))
        else:
            c = NAMES.index(what)
            self.hands[p].append(self.piles[c].pop())
        self.phase, self.turn = "play", 1 - p
        if not self.deck:
            self.over = True

    def scores(self):
        out = []
        for p in (0, 1):
            total = 0
            for c in range(5):
                cards = [CARDS[i][1] for i in self.exp[p] if CARDS[i][0] == c]
                if cards:
                    total += (sum(cards) - 20) * (1 + cards.count(0)) + (20 if len(cards) >= 8 else 0)
            out.append(total)
        return out

    @property
    def winner(self):
        a, b = self.scores()
        return None if a == b else (0 if a > b else 1)


# ---- the engines against the oracles ---------------------------------------------------------------
def _texts(state) -> set[str]:
    """The legal moves as the oracle names them (a told-apart '#2' dropped: equal cards)."""
    return {t.split(" #")[0].split(" (")[0] for t in state.notations()}


def _agree(name: str, oracle_of, games: int, check=None):
    game = _load(name)
    for seed in range(games):
        state = game.new_game(seed=seed)
        oracle = oracle_of(state)
        rng = random.Random(seed)
        while not state.is_over:
            assert _texts(state) == oracle.legal(), (name, seed, state.turns)
            assert state.current_player == oracle.turn
            move = rng.choice(state.legal_moves())
            text = str(move).split(" #")[0].split(" (")[0]
            state = state.play(move)
            oracle.play(text)
            if check:
                check(state, oracle)
        assert oracle.over and oracle.legal() == set()
        expected = [] if oracle.winner is None else [oracle.winner]
        assert state.winners == expected, (name, seed)


def test_tictactoe_agrees_with_its_oracle():
    _agree("tictactoe", lambda s: TicTacToe(), 300,
           lambda s, o: _board(s) == [o.cells[(i % 3, i // 3)] for i in range(9)])


def test_connect4_agrees_with_its_oracle():
    def check(state, oracle):
        assert _board(state) == [oracle.cells()[(x, y)] for x in range(7) for y in range(6)]
    _agree("connect4", lambda s: ConnectFour(), 200, check)


def test_othello_agrees_with_its_oracle():
    def check(state, oracle):
        assert _board(state) == [oracle.cells[(i % 8, i // 8)] for i in range(64)]
    _agree("othello", lambda s: Othello(), 40, check)


def test_hex_agrees_with_its_oracle():
    def check(state, oracle):
        assert _board(state) == [oracle.cells[(i % 11, i // 11)] for i in range(121)]
    _agree("hex", lambda s: Hex(), 40, check)


def test_kalah_agrees_with_its_oracle():
    def check(state, oracle):
        assert _board(state, "pits") == oracle.flat()
        if state.is_over:
            assert state.scores == oracle.scores()
    _agree("kalah", lambda s: Kalah(), 300, check)


def test_lost_cities_agrees_with_its_oracle():
    def check(state, oracle):
        zones = state.to_json()["zones"]

        def cards(places):  # equal cards (two wagers of a colour) may be either item
            return [[CARDS[i] for i in place] for place in places]
        assert cards(zones["expedition"]) == cards(oracle.exp) and cards(zones["discard"]) == cards(oracle.piles)
        assert [sorted(h) for h in cards(zones["hand"])] == [sorted(h) for h in cards(oracle.hands)]
        assert state.scores == oracle.scores()
    _agree("lostcities", lambda s: LostCities(s.to_json()["zones"]), 60, check)


def test_breakthrough_agrees_with_openspiel():
    """OpenSpiel's C++ `breakthrough` is the oracle: the same legal moves (its notation, `*` for
    a capture), the same move played, the same end and winner, over seeded random games."""
    pyspiel = pytest.importorskip("pyspiel")
    game = _load("breakthrough")
    oracle_game = pyspiel.load_game("breakthrough")
    for seed in range(30):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            assert not state.is_over and state.current_player == oracle.current_player()
            theirs = {oracle.action_to_string(a): a for a in oracle.legal_actions()}
            assert set(state.notations()) == set(theirs), (seed, state.turns)
            move = rng.choice(sorted(theirs))
            state = state.play(move)
            oracle.apply_action(theirs[move])
        assert state.is_over
        assert state.winners == [0 if oracle.returns()[0] > 0 else 1], seed


def _with_openspiel(name: str, spiel_name: str, backend: str):
    """A classic on one engine, and OpenSpiel's game of the same rules (skipped without them)."""
    pyspiel = pytest.importorskip("pyspiel")
    from regle import native
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    return regle.load(CLASSICS / f"{name}.rules", backend=backend), pyspiel.load_game(spiel_name)


#: OpenSpiel's checkers board text: White (P1) men and kings, Black men and kings, empty
_CHECKERS_CELLS = {"o": 0, "8": 1, "+": 2, "*": 3, ".": -1}


def _checkers_board(oracle) -> list[int]:
    """OpenSpiel's checkers position as regle's board: a piece is owner * 2 + kind (man, king),
    cell = 8 * (row from the south) + column."""
    board = [-1] * 64
    for line in str(oracle).split("\n")[:8]:
        row = int(line[:-8]) - 1
        for column, mark in enumerate(line[-8:]):
            board[8 * row + column] = _CHECKERS_CELLS[mark]
    return board


@pytest.mark.parametrize("backend", ["python", "native"])
def test_draughts_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `checkers` is the oracle: at every position the same player, the same
    legal moves (its notation: from and to, each step of a multiple jump a move of its own), the
    same board after each move, and the same end and result, over seeded random games."""
    game, oracle_game = _with_openspiel("draughts", "checkers", backend)
    jumps_on = draws = 0
    for seed in range(30 if backend == "python" else 12):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            assert _board(state) == _checkers_board(oracle), (seed, state.decisions)
            assert not state.is_over and state.current_player == oracle.current_player()
            theirs = {oracle.action_to_string(a): a for a in oracle.legal_actions()}
            assert set(state.notations()) == set(theirs), (seed, state.decisions)
            before = oracle.current_player()
            move = rng.choice(sorted(theirs))
            state = state.play(move)
            oracle.apply_action(theirs[move])
            jumps_on += not oracle.is_terminal() and oracle.current_player() == before
        assert state.is_over and _board(state) == _checkers_board(oracle)
        returns = oracle.returns()
        assert state.winners == [p for p in range(2) if returns[p] > 0], seed
        draws += returns[0] == 0
    assert jumps_on > 0 and draws > 0  # multiple jumps and the forty-move draw were met


def _go_board(oracle) -> list[int]:
    """OpenSpiel's go position as regle's board: Black (X) is P1, White (O) P2."""
    board = [-1] * 81
    for line in str(oracle).split("\n"):
        if line[:2].strip().isdigit():
            row = int(line[:2]) - 1
            for column, mark in enumerate(line[3:12]):
                board[9 * row + column] = {"X": 0, "O": 1, "+": -1}[mark]
    return board


def _go_move(text: str) -> str:
    """OpenSpiel's `B d4` / `W PASS` as regle's notation (its columns skip the letter i)."""
    point = text.split(" ", 1)[1]
    return "pass" if point == "PASS" else ("i" if point[0] == "j" else point[0]) + point[1:]


def _tromp_taylor(board: list[int]) -> list[int]:
    """Area score of each colour, written from the rules: stones, and each empty region whose
    border holds one colour only (a flood fill over the whole region)."""
    score, seen = [board.count(0), board.count(1)], set()
    for start in range(81):
        if board[start] != -1 or start in seen:
            continue
        region, border, stack = 0, set(), [start]
        seen.add(start)
        while stack:
            p = stack.pop()
            region += 1
            x, y = p % 9, p // 9
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < 9 and 0 <= ny < 9:
                    q = 9 * ny + nx
                    if board[q] == -1 and q not in seen:
                        seen.add(q)
                        stack.append(q)
                    elif board[q] != -1:
                        border.add(board[q])
        if len(border) == 1:
            score[border.pop()] += region
    return score


@pytest.mark.parametrize("backend", ["python", "native"])
def test_go_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `go` (9x9, komi 7.5) is the oracle for the moves: at every position the
    same player, the same legal points and pass, the same board after each move (captures, no
    suicide, ko), a position repeated after a move (positional superko) ending the game in a
    draw; and the result, against OpenSpiel's returns and against Tromp-Taylor scoring written
    here."""
    game, oracle_game = _with_openspiel("go", "go(board_size=9)", backend)
    captures = kos = 0
    for seed in range(30 if backend == "python" else 60):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            board = _board(state)
            assert board == _go_board(oracle), (seed, state.decisions)
            assert not state.is_over and state.current_player == oracle.current_player()
            theirs = {_go_move(oracle.action_to_string(a)): a for a in oracle.legal_actions()}
            assert set(state.notations()) == set(theirs), (seed, state.decisions)
            kos += state.to_json()["counters"]["ko"] >= 0
            move = rng.choice(sorted(theirs))
            state = state.play(move)
            oracle.apply_action(theirs[move])
            captures += _board(state).count(-1) > board.count(-1) + (move != "pass")
        board = _board(state)
        assert state.is_over and board == _go_board(oracle)
        if oracle.returns()[0] == 0:  # a superko: a draw
            assert state.winners == [] and state.to_json()["counters"]["passes"] == 0
            continue
        black, white = _tromp_taylor(board)
        assert state.scores == [black, white + 7]
        expected = [0] if black > white + 7 else [1]  # komi 7.5: no ties
        assert state.winners == expected == [p for p in range(2) if oracle.returns()[p] > 0], seed
    assert captures > 0 and kos > 0


#: where OpenSpiel's nine_mens_morris prints its 24 points (row, column of its board text), in
#: its numbering: the north row first, each row from the west
_MORRIS_TEXT = ((0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7), (4, 10), (6, 0), (6, 2),
                (6, 4), (6, 10), (6, 12), (6, 14), (8, 4), (8, 7), (8, 10), (10, 2), (10, 7), (10, 12),
                (12, 0), (12, 7), (12, 14))


def _morris_points(game) -> list[str]:
    """Our point names in OpenSpiel's numbering (north row first, west to east)."""
    return sorted(game.cell_names("board"), key=lambda n: (-int(n[1:]), n[0]))


#: the points next to each along the lines, from the published board
_MORRIS_NEAR = {p: set() for p in "a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7".split()}
for _line in ("a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4", "e4 f4 g4", "c3 d3 e3", "b2 d2 f2", "a1 d1 g1",
              "a1 a4 a7", "b2 b4 b6", "c3 c4 c5", "d7 d6 d5", "d3 d2 d1", "e3 e4 e5", "f2 f4 f6", "g1 g4 g7"):
    for _a, _b in zip(_line.split(), _line.split()[1:]):
        _MORRIS_NEAR[_a].add(_b)
        _MORRIS_NEAR[_b].add(_a)


def _morris_board(oracle, game) -> list[int]:
    """OpenSpiel's position as regle's board: White (W) is P1, Black (B) P2."""
    names, rows = game.cell_names("board"), str(oracle).split("\n")
    board = [-1] * 24
    for point, (row, column) in zip(_morris_points(game), _MORRIS_TEXT):
        board[names.index(point)] = {"W": 0, "B": 1, ".": -1}[rows[row][column]]
    return board


@pytest.mark.parametrize("backend", ["python", "native"])
def test_morris_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `nine_mens_morris` is the oracle: at every position the same player, the
    same legal moves (placements, moves along the lines, flights with three men left, and after
    a mill the removal as a decision of its own), the same board after each move, and the same
    end and result (two men left or no move loses, 200 turns draw), over seeded random games."""
    game, oracle_game = _with_openspiel("morris", "nine_mens_morris", backend)
    points = _morris_points(game)
    removals = flights = draws = 0
    for seed in range(25 if backend == "python" else 60):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            assert _board(state) == _morris_board(oracle, game), (seed, state.decisions)
            assert not state.is_over and state.current_player == oracle.current_player()
            removing = state.step_name == "take"
            theirs = {}
            for a in oracle.legal_actions():  # a point (place or remove), or 24 + 24 * from + to
                c, t = divmod(a - 24, 24)
                theirs[("x" if removing else "") + points[a] if a < 24 else f"{points[c]}-{points[t]}"] = a
            assert set(state.notations()) == set(theirs), (seed, state.decisions)
            removals += removing
            flights += any(m.split("-")[1] not in _MORRIS_NEAR[m.split("-")[0]] for m in theirs if "-" in m)
            move = rng.choice(sorted(theirs))
            state = state.play(move)
            oracle.apply_action(theirs[move])
        assert state.is_over and _board(state) == _morris_board(oracle, game)
        returns = oracle.returns()
        assert state.winners == [p for p in range(2) if returns[p] > 0], seed
        draws += returns[0] == 0
    assert removals > 0 and flights > 0 and draws > 0


def _morris_at(game, white: list[str], black: list[str], hand=(0, 0), player: int = 0):
    names = game.cell_names("board")
    data = game.new_game(seed=0).to_json()
    data["zones"]["board"] = [-1] * 24
    for seat, points in enumerate((white, black)):
        for p in points:
            data["zones"]["board"][names.index(p)] = seat
    data["current"], data["counters"]["hand"] = player, list(hand)
    return game.state_from_json(data)


def test_morris_mills_removals_flying_and_the_ends():
    game = _load("morris")
    names = game.cell_names("board")
    # a mill (d7 d6 d5) removes a man of the other player, as a decision of the same player; the
    # men in a mill (a1 d1 g1) are safe while another is not
    state = _morris_at(game, ["d7", "d6", "b4"], ["a1", "d1", "g1", "f4"], hand=(1, 1))
    state = state.play("d5")
    assert state.current_player == 0 and state.step_name == "take" and state.notations() == ["xf4"]
    state = state.play("xf4")
    taken = {"d7", "d6", "d5", "b4", "a1", "d1", "g1"}
    assert state.current_player == 1 and sorted(state.notations()) == sorted(set(names) - taken)
    # when every man of the other player is in a mill, any of them may go
    state = _morris_at(game, ["b6", "f6", "d5", "a1"], ["a7", "d7", "g7"])
    state = state.play("d5-d6")
    assert sorted(state.notations()) == ["xa7", "xd7", "xg7"]
    state = _morris_at(game, ["b6", "f6", "d5", "a1"], ["a7", "d7", "g7", "c3"])
    assert sorted(state.play("d5-d6").notations()) == ["xc3"]
    # no mill, no removal: the turn passes
    state = _morris_at(game, ["b6", "f6", "d5", "a1"], ["a7", "d7", "g7", "c3"])
    assert state.play("d5-e5").current_player == 1
    # men move along the lines to a free neighbour; with three left they fly to any free point
    state = _morris_at(game, ["a1", "d7", "g4", "c3"], ["b2", "f6", "e5"])
    assert sorted(state.notations()) == ["a1-a4", "a1-d1", "c3-c4", "c3-d3", "d7-a7", "d7-d6", "d7-g7",
                                         "g4-f4", "g4-g1", "g4-g7"]
    state = _morris_at(game, ["a1", "d7", "c3"], ["b2", "f6", "e5", "g4"])
    assert len(state.notations()) == 3 * (24 - 7) and "a1-g7" in state.notations()
    # while men are still in hand they are placed, not moved
    state = _morris_at(game, ["a1", "d7", "c3"], ["b2", "f6", "e5", "g4"], hand=(1, 0))
    assert sorted(state.notations()) == sorted(set(names) - {"a1", "d7", "c3", "b2", "f6", "e5", "g4"})
    # a player reduced to two men loses at once
    state = _morris_at(game, ["d7", "d6", "c5"], ["b2", "f6", "e5"])
    state = state.play("c5-d5").play("xb2")
    assert state.is_over and state.winners == [0]
    # a player who cannot move loses: Black's men in the corners are all shut in
    state = _morris_at(game, ["d7", "a4", "d1", "g4", "c5"], ["a7", "a1", "g1", "g7"])
    state = state.play("c5-c4")
    assert state.is_over and state.winners == [0]
    # the 200th turn ends the game in a draw
    data = _morris_at(game, ["d7", "a4", "d1", "c5"], ["a7", "a1", "g1", "b2"]).to_json()
    data["turns"] = 199
    state = game.state_from_json(data).play("c5-c4")
    assert state.is_over and state.winners == []


#: OpenSpiel's pentago turns: quarter (top-left, top-right, bottom-right, bottom-left), then
#: anticlockwise or clockwise, as actions name them (s..z)
_TWISTS = ["nw_ccw", "nw_cw", "ne_ccw", "ne_cw", "se_ccw", "se_cw", "sw_ccw", "sw_cw"]


def _pentago_board(oracle) -> list[int]:
    """OpenSpiel's pentago position (row 1 on top; O the first player, @ the second) as regle's."""
    board = [-1] * 36
    for y, line in enumerate(str(oracle).split("\n")[2:8]):
        for x, mark in enumerate(line[4:15].split(" ")):
            board[6 * (5 - y) + x] = {"O": 0, "@": 1, ".": -1}[mark]
    return board


@pytest.mark.parametrize("backend", ["python", "native"])
def test_pentago_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `pentago` is the oracle: the same legal moves (a point and a quarter
    turn), the same board after each move (the marble placed, then the quarter turned), the
    same end (five in a row after the turn; both five, or a full board, draw)."""
    game, oracle_game = _with_openspiel("pentago", "pentago", backend)
    draws = 0
    for seed in range(40 if backend == "python" else 150):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            assert _board(state) == _pentago_board(oracle), (seed, state.decisions)
            assert not state.is_over and state.current_player == oracle.current_player()
            theirs = {f"{'abcdef'[a // 8 % 6]}{6 - a // 48} {_TWISTS[a % 8]}": a for a in oracle.legal_actions()}
            assert set(state.notations()) == set(theirs), (seed, state.decisions)
            move = rng.choice(sorted(theirs))
            state = state.play(move)
            oracle.apply_action(theirs[move])
        assert state.is_over and _board(state) == _pentago_board(oracle)
        returns = oracle.returns()
        assert state.winners == [p for p in range(2) if returns[p] > 0], seed
        draws += returns[0] == 0
    assert draws > 0


def test_pentago_turns_a_quarter_after_the_marble_and_five_of_each_draw():
    game = _load("pentago")
    names = game.cell_names("board")
    # a clockwise turn of the north-west quarter takes its north-west corner (a6) to c6
    state = game.new_game(seed=0).play("a6 nw_cw")
    assert _board(state)[names.index("c6")] == 0 and _board(state)[names.index("a6")] == -1
    state = game.new_game(seed=0).play("a6 nw_ccw")  # anticlockwise: to a4
    assert _board(state)[names.index("a4")] == 0
    state = game.new_game(seed=0).play("f1 ne_cw")  # another quarter turns: f1 stays
    assert _board(state)[names.index("f1")] == 0
    # five of each after a move: a draw (White's row 6 stands; Black completes row 5 and turns an
    # empty quarter), where five of Black's alone wins
    data = game.new_game(seed=0).to_json()
    board = [-1] * 36
    for x in "abcde":
        board[names.index(f"{x}6")] = 0
    for x in "abcd":
        board[names.index(f"{x}5")] = 1
    data["zones"]["board"], data["current"] = board, 1
    state = game.state_from_json(data).play("e5 sw_cw")
    assert state.is_over and state.winners == []
    board[names.index("e6")] = -1
    data["zones"]["board"] = board
    state = game.state_from_json(data).play("e5 sw_cw")
    assert state.is_over and state.winners == [1]


# ---- chess: perft, and python-chess as the oracle of random games -----------------------------
_KINDS = "pnbrqk"  # the order of games/classics/chess.rules' enum piece


#: a chess position from its FEN (benchmarks/perft.py, which times chess perft with it)
_from_fen = from_fen


_perft = regle_perft  # through the public API: legal_action_ids, copy, advance_id


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize("backend", ["python", "native"])
def test_chess_perft_from_the_start_and_from_kiwipete(backend):
    """The number of move sequences of each length (perft): 20 / 400 / 8,902 / 197,281 /
    4,865,609 from the start, 48 / 2,039 / 97,862 from the published "Kiwipete" position (castling
    both ways, en passant, promotions, pins, checks). The Python engine goes to depth 3."""
    if backend == "native":
        from regle import native
        if not native.available():
            pytest.skip(native.unavailable_reason())
    game = regle.load(CLASSICS / "chess.rules", backend=backend)
    start = [20, 400, 8902, 197281, 4865609][:5 if backend == "native" else 3]
    assert [_perft(game.new_game(seed=0), d) for d in range(1, len(start) + 1)] == start
    kiwipete = _from_fen(game, KIWIPETE)
    assert [_perft(kiwipete, d) for d in (1, 2, 3)] == [48, 2039, 97862]


def _chess_result(board) -> list[int] | None:
    """How a python-chess position ends under the rules of games/classics/chess.rules, or None:
    checkmate (the other side wins), stalemate, a hundred moves without a capture or pawn move,
    a position on the board for the third time, or no material left to mate with (kings alone,
    or one knight or bishop besides) are draws."""
    chess = pytest.importorskip("chess")
    if not any(True for _ in board.legal_moves):
        return [0 if board.turn == chess.BLACK else 1] if board.is_check() else []
    pieces = board.piece_map().values()
    if board.halfmove_clock >= 100 or board.is_repetition(3) or len(pieces) == 2 or (
            len(pieces) == 3 and any(p.piece_type in (chess.KNIGHT, chess.BISHOP) for p in pieces)):
        return []
    return None


@pytest.mark.parametrize("backend", ["python", "native"])
def test_chess_agrees_with_python_chess(backend):
    """python-chess is the oracle: at every position the same player, the same legal moves (in
    UCI, a promotion by its piece's letter: a7b8n), the same board after each move, and the same end and
    result, over seeded random games."""
    chess = pytest.importorskip("chess")
    if backend == "native":
        from regle import native
        if not native.available():
            pytest.skip(native.unavailable_reason())
    game = regle.load(CLASSICS / "chess.rules", backend=backend)
    seen = {"castle": 0, "en passant": 0, "promotion": 0, "mate": 0, "draw": 0}
    for seed in range(12 if backend == "python" else 80):
        state, board, rng = game.new_game(seed=seed), chess.Board(), random.Random(seed)
        while (result := _chess_result(board)) is None:
            expected = [-1] * 64
            for square, p in board.piece_map().items():
                expected[square] = (0 if p.color == chess.WHITE else 1) * 6 + _KINDS.index(p.symbol().lower())
            assert _board(state) == expected, (seed, state.decisions)
            assert not state.is_over and state.current_player == (0 if board.turn == chess.WHITE else 1)
            theirs = {m.uci(): m for m in board.legal_moves}
            assert set(state.notations()) == set(theirs), (seed, state.decisions)
            move = rng.choice(sorted(theirs))
            seen["castle"] += board.is_castling(theirs[move])
            seen["en passant"] += board.is_en_passant(theirs[move])
            seen["promotion"] += theirs[move].promotion is not None
            state = state.play(move)
            board.push(theirs[move])
        assert state.is_over and state.winners == result, seed
        seen["mate" if result else "draw"] += 1
    assert all(seen.values()) or backend == "python", seen


def test_chess_special_moves_and_the_ends():
    game = _load("chess")
    # castling: both ways with the rights, not out of, through or into check
    state = _from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert {"e1g1", "e1c1"} <= set(state.notations())
    state = state.play("e1g1")
    assert _board(state)[6] == 5 and _board(state)[5] == 3 and _board(state)[7] == -1  # king g1, rook f1
    assert "e8c8" in state.notations() and "e8g8" not in state.notations()  # the f1 rook sees f8
    assert "e1c1" not in _from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1").notations()
    assert "e1g1" not in _from_fen(game, "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1").notations()  # f1 attacked
    assert "e1g1" not in _from_fen(game, "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1").notations()  # in check
    assert "e1c1" in _from_fen(game, "r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1").notations()  # b1 may be attacked
    # en passant: only right after the double step, taking the pawn that passed
    state = _from_fen(game, "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1").play("a2a4")
    assert "b4a3" in state.notations()
    state = state.play("b4a3")
    assert _board(state)[24] == -1 and _board(state)[16] == 6  # the a4 pawn is gone; Black's pawn on a3
    assert "b4a3" not in _from_fen(game, "4k3/8/8/8/Pp6/8/8/4K3 b - - 0 1").notations()
    # promotion: a choice of four pieces, by a step or a capture
    state = _from_fen(game, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert sorted(n for n in state.notations() if n.startswith("a7")) == sorted(
        f"a7{t}{k}" for t in ("a8", "b8") for k in "qrbn")
    assert _board(state.play("a7b8n"))[57] == 1
    # a pinned piece may not move off the line; the king may not step into check
    state = _from_fen(game, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    assert not any(n.startswith("e2") for n in state.notations()) and "e1d1" in state.notations()
    # checkmate wins, stalemate draws
    state = _from_fen(game, "7k/8/6K1/8/8/8/8/Q7 w - - 0 1").play("a1a8")
    assert state.is_over and state.winners == [0]
    state = _from_fen(game, "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1").play("g1g6")
    assert state.is_over and state.winners == []
    # the hundredth move without a capture or pawn move draws; so does a bare king against king
    # and knight
    state = _from_fen(game, "4k3/8/8/8/8/8/8/R3K3 w - - 99 1").play("a1a2")
    assert state.is_over and state.winners == []
    state = _from_fen(game, "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1").play("e1d2")
    assert state.is_over and state.winners == []
    state = _from_fen(game, "4k3/8/8/8/8/8/3n4/R3K3 w - - 0 1").play("e1d2")
    assert not state.is_over
    # the third time a position stands on the board (same side to move, same rights) draws: the
    # start, after four knight moves, after eight
    state = game.new_game(seed=0)
    for move in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        assert not state.is_over
        state = state.play(move)
    assert state.is_over and state.winners == []
    # ... but not when the rights differ: a rook that went and came back has lost its castling
    state = game.new_game(seed=0)
    for move in ["g1f3", "g8f6", "h1g1", "f6g8", "g1h1", "g8f6", "f3g1", "f6g8"]:
        state = state.play(move)
    assert not state.is_over


def _go_at(game, black: list[str], white: list[str], player: int = 0):
    names = game.cell_names("board")
    data = game.new_game(seed=0).to_json()
    data["zones"]["board"] = [-1] * 81
    for stones, colour in ((black, 0), (white, 1)):
        for name in stones:
            data["zones"]["board"][names.index(name)] = colour
    data["current"] = player
    return game.state_from_json(data)


def test_go_captures_suicide_ko_passes_and_area_scoring():
    game = _load("go")
    names = game.cell_names("board")
    # a white stone on b1 with its last liberty at c1: Black's c1 takes it
    state = _go_at(game, ["a1", "b2"], ["b1"])
    state = state.play("c1")
    assert _board(state)[names.index("b1")] == -1
    # a point surrounded by White is no move for Black (it would have no liberty, taking nothing)
    state = _go_at(game, [], ["b1", "a2"])
    assert "a1" not in state.notations() and "b2" in state.notations()
    # ko: Black takes at b2 by playing c2... White may not take back at once, but may later
    state = _go_at(game, ["b1", "a2", "b3", "c2"], ["c1", "d2", "c3", "b2"])
    assert "b2" not in state.notations()  # occupied
    state = _go_at(game, ["b1", "a2", "b3"], ["c1", "d2", "c3", "b2"])
    state = state.play("c2")  # takes the white stone on b2 with one stone: a ko
    assert _board(state)[names.index("b2")] == -1 and "b2" not in state.notations()
    state = state.play("h8").play("h2")  # a move elsewhere each: the ko may be taken back now
    assert "b2" in state.notations()
    # two passes end the game; area scoring with komi 7 and ties to White (komi 7.5)
    state = _go_at(game, ["a1", "b2"], [])
    state = state.play("pass").play("pass")
    assert state.is_over and state.scores == [81, 7] and state.winners == [0]
    state = _go_at(game, ["e5"], ["e6"])  # the empty region touches both: nobody's
    state = state.play("pass").play("pass")
    assert state.scores == [1, 8] and state.winners == [1]


# ---- single rules ----------------------------------------------------------------------------------
def _play(game, moves: list[str], seed: int = 0):
    state = game.new_game(seed=seed)
    for m in moves:
        state = state.play(m)
    return state


def test_tictactoe_a_diagonal_wins_and_a_full_board_draws():
    game = _load("tictactoe")
    state = _play(game, ["a1", "a2", "b2", "a3", "c3"])
    assert state.is_over and state.winners == [0]
    state = _play(game, ["a1", "b2", "c1", "b1", "b3", "a2", "c2", "c3", "a3"])
    assert state.is_over and state.winners == []


def test_connect4_a_full_column_takes_no_disc_and_discs_fall():
    game = _load("connect4")
    state = _play(game, ["1", "1", "1", "1", "1", "1"])
    assert "1" not in state.notations() and _board(state)[:6] == [0, 1, 0, 1, 0, 1]
    state = _play(game, ["1", "2", "2", "3", "3", "4", "3", "4", "4", "7", "4"])  # a rising diagonal
    assert state.is_over and state.winners == [0]


def test_othello_a_player_without_a_move_passes_and_discs_turn():
    game = _load("othello")
    state = game.new_game()
    assert sorted(state.notations()) == ["c4", "d3", "e6", "f5"]  # Black's four openings
    state = state.play("d3")
    assert _board(state)[3 * 8 + 3] == 0  # d4 turned to Black
    # a position where White cannot move: Black fills the board's only run
    data = game.new_game().to_json()
    board = [-1] * 64  # empty cells are -1 in a saved state, pieces their player
    for name, who in (("a1", 0), ("b1", 1)):
        board[(int(name[1]) - 1) * 8 + ord(name[0]) - 97] = who
    data["zones"]["board"], data["current"] = board, 1
    s = game.state_from_json(data)  # a saved position: its moves are worked out as it loads
    assert s.notations() == ["pass"]


def test_hex_swap_only_on_the_second_turn_and_a_chain_wins():
    game = _load("hex")
    state = game.new_game()
    assert "swap" not in state.notations()
    state = state.play("b3")
    assert "swap" in state.notations()
    state = state.play("swap")
    board = _board(state)
    assert board[1 * 11 + 2] == 1 and board[2 * 11 + 1] == -1  # b3 (x 1, y 2) became c2 (x 2, y 1), Blue's
    assert "swap" not in state.play("a1").notations()
    moves = []
    for y in range(11):  # Red goes straight north up column a while Blue plays column k
        moves += [f"a{y + 1}", f"k{y + 1}"]
    state = _play(game, moves[:21])
    assert state.is_over and state.winners == [0]


def test_kalah_last_seed_in_store_plays_again_and_captures():
    game = _load("kalah")
    state = _play(game, ["c1"])  # 4 seeds from the third house: the last lands in the store
    assert state.current_player == 0
    data = game.new_game().to_json()
    data["zones"]["pits"] = [0, 0, 1, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0]  # c1 sows into the empty d1; across: d2
    assert game.cell_names("pits")[9] == "d2"
    state = game.state_from_json(data).play("c1")
    assert state.g_pits[6] == 6 and state.g_pits[3] == 0 and state.g_pits[9] == 0


def test_lost_cities_rising_order_and_no_drawing_back_a_discard():
    game = _load("lostcities")
    state = game.new_game(seed=3)
    hand = [CARDS[i] for i in state.z_hand[0]]
    assert len(hand) == 8 and len(state.z_deck) == 44
    colour, value = max((c for c in hand if c[1] > 0), key=lambda c: c[1])
    state = state.play(f"play {COLOURS[colour]}{value}")
    state = state.play("draw")
    state = state.play(next(n for n in state.notations() if n.startswith("discard")))
    assert not any(n.startswith("take") for n in state.notations())  # the card just discarded
    lower = [c for c in (CARDS[i] for i in state.z_hand[0]) if c[0] == colour and c[1] < value]
    state = state.play("draw")
    for c in lower:
        assert f"play {COLOURS[c[0]]}{c[1] or '$'}" not in _texts(state)

def test_breakthrough_moves_forward_captures_diagonally_and_wins_at_the_far_row():
    game = _load("breakthrough")
    state = _play(game, ["d7d6", "e2e3", "d6d5", "e3e4"])
    assert "d5e4*" in state.notations() and "d5d4" in state.notations()
    state = _play(game, ["d7d6", "d2d3", "d6d5", "a2a3", "d5d4", "h2h3"])  # a White piece right ahead
    assert {"d4c3", "d4e3"} <= set(state.notations())
    assert "d4d3" not in state.notations() and "d4d3*" not in state.notations()  # no straight capture
    # Black runs a piece through to the first row
    moves = ["h7h6", "a2a3", "h6h5", "a3a4", "h5h4", "a4a5", "h4h3", "a5a6", "h3g2*", "b2b3", "g2h1*"]
    state = _play(game, moves)
    assert state.is_over and state.winners == [0]


def _draughts_at(game, pieces: dict, player: int = 0, quiet: int = 0):
    """A draughts position: {cell name: piece (owner * 2 + kind)}, the player to move."""
    names = game.cell_names("board")
    data = game.new_game(seed=0).to_json()
    data["zones"]["board"] = [-1] * 64
    for name, piece in pieces.items():
        data["zones"]["board"][names.index(name)] = piece
    # the last capture `quiet` turns ago: since(jump) counts the turns after the one it was in
    data["current"], data["counters"]["since__jump"] = player, data["turns"] - quiet - 1
    return game.state_from_json(data)


def test_draughts_forced_jumps_chains_crowning_and_the_ends():
    game = _load("draughts")
    names = game.cell_names("board")
    man, king, black_man = 0, 1, 2
    # a capture is forced: the man on c3 must take d4, though g3 could step
    state = _draughts_at(game, {"c3": man, "g3": man, "d4": black_man, "h8": black_man})
    assert sorted(state.notations()) == ["c3e5"]
    # a chain: after c3e5 the same piece jumps on (f6), and only it, before Black plays
    state = _draughts_at(game, {"c3": man, "a1": man, "d4": black_man, "f6": black_man, "h8": black_man})
    state = state.play("c3e5")
    assert state.current_player == 0 and state.notations() == ["e5g7"]
    state = state.play("e5g7")
    assert state.current_player == 1 and _board(state)[names.index("g7")] == man
    # crowning ends the move: the man reaching the far row by a jump is a king and stops there
    state = _draughts_at(game, {"e6": man, "f7": black_man, "e7": black_man, "a1": black_man})
    state = state.play("e6g8")
    assert _board(state)[names.index("g8")] == king and state.current_player == 1
    # men go forward only; kings both ways
    state = _draughts_at(game, {"d4": man, "f4": king, "a7": black_man})
    assert sorted(state.notations()) == ["d4c5", "d4e5", "f4e3", "f4e5", "f4g3", "f4g5"]
    # a player who cannot move loses: Black's only man is blocked
    state = _draughts_at(game, {"a7": black_man, "b6": man, "c5": man, "h2": man})
    state = state.play("h2g3")
    assert state.is_over and state.winners == [0]
    # the fortieth move in a row without a capture ends the game in a draw
    state = _draughts_at(game, {"a1": king, "h8": 3}, quiet=39)
    state = state.play("a1b2")
    assert state.is_over and state.winners == []


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "othello", "hex", "kalah", "lostcities", "kuhn", "liarsdice", "leduc", "clobber", "dotsandboxes", "y", "havannah", "halma", "crazyeights",
                                  "breakthrough", "draughts", "go", "morris", "chess", "pentago", "quoridor"])
def test_classics_are_checked_clean_and_formatted(name):
    from regle.dsl.printer import format_text
    text = (CLASSICS / f"{name}.rules").read_text(encoding="utf-8")
    assert format_text(text) == text
    regle.load(CLASSICS / f"{name}.rules")


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "othello", "hex", "kalah", "lostcities", "kuhn", "liarsdice", "leduc", "clobber", "dotsandboxes", "y", "havannah", "halma", "crazyeights",
                                  "breakthrough", "draughts", "go", "morris", "chess", "pentago", "quoridor"])
def test_classic_rulebooks_are_up_to_date(name):
    from regle.rulebook import rulebook
    committed = (CLASSICS.parent.parent / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert committed == rulebook(CLASSICS / f"{name}.rules"), \
        f"run: regle rules games/classics/{name}.rules -o docs/rules/{name}.md"


def _quoridor_move(move: str, size: int) -> str:
    """regle's notation of a Quoridor move as OpenSpiel writes it: rows counted from the north
    there; a wall named by the square north-west of its middle."""
    letter, rest = move[0], move[1:]
    if rest[-1] in "hv":
        return f"{letter}{size - int(rest[:-1])}{rest[-1]}"
    return f"{letter}{size + 1 - int(rest)}"


def _quoridor_pawns(oracle, size: int) -> dict[int, str]:
    """Where OpenSpiel's pawns stand (0 the first player, @ the second), in regle's names."""
    found = {}
    for line in str(oracle).split("\n")[2:]:
        if line[:2].strip().isdigit():
            row = int(line[:2])
            for column in range(size):
                mark = line[3 + 4 * column]
                if mark in "0@":
                    found["0@".index(mark)] = f"{_letters(column)}{size + 1 - row}"
    return found


@pytest.mark.parametrize("backend", ["python", "native"])
def test_quoridor_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `quoridor` is the oracle, on its 9x9 board (ten walls each) and on a 5x5
    one (three): the same legal moves (steps, jumps straight and aside, walls that neither
    overlap nor cross nor shut a pawn from its goal), the same pawns after each move, the same
    end (the far row wins; four moves per square draw)."""
    pyspiel = pytest.importorskip("pyspiel")
    from regle import native
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = (CLASSICS / "quoridor.rules").read_text(encoding="utf-8")
    seen = {"jump": 0, "win": 0, "draw": 0}
    for size, games in ((9, 2), (5, 25 if backend == "python" else 40)):
        game = regle.loads(text.replace("param size = 9", f"param size = {size}"), name=f"quoridor{size}",
                           backend=backend)
        oracle_game = pyspiel.load_game("quoridor", {"board_size": size})
        for seed in range(games):
            state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
            rng = random.Random(seed)
            while not oracle.is_terminal():
                assert not state.is_over and state.current_player == oracle.current_player()
                names = state.cell_names("board") if hasattr(state, "cell_names") else game.cell_names("board")
                board = _board(state)
                assert {v: names[c] for c, v in enumerate(board) if v >= 0} == _quoridor_pawns(oracle, size)
                theirs = {oracle.action_to_string(a): a for a in oracle.legal_actions()}
                ours = {_quoridor_move(m, size): m for m in state.notations()}
                assert set(ours) == set(theirs), (size, seed, state.decisions)
                move = rng.choice(sorted(theirs))
                seen["jump"] += move[-1] not in "hv" and ours[move] not in [
                    names[c] for c in game.namespace["G_board__ADJ"][4 * board.index(state.current_player):][:4]]
                state = state.play(ours[move])
                oracle.apply_action(theirs[move])
            assert state.is_over
            returns = oracle.returns()
            assert state.winners == [p for p in range(2) if returns[p] > 0], (size, seed)
            seen["win" if returns[0] else "draw"] += 1
    assert all(seen.values()), seen  # jumps were made, and games were won and drawn


# ---- proof games (issue 53): OpenSpiel's games of the same name, move for move -------------------------
def _played_against(game, oracle_game, seeds: int, spelt=lambda notation: notation):
    """Seeded random games of ``game`` and OpenSpiel's ``oracle_game`` side by side: at every
    position the same player and the same legal moves by notation (``spelt`` turns regle's into
    OpenSpiel's), the same move played, and the same winner; the finished states."""
    finished = []
    for seed in range(seeds):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            assert not state.is_over and state.current_player == oracle.current_player(), (seed, state.decisions)
            theirs = {oracle.action_to_string(a): a for a in oracle.legal_actions()}
            ours = {spelt(n): n for n in state.notations()}
            assert set(ours) == set(theirs), (seed, state.decisions)
            move = rng.choice(sorted(theirs))
            state = state.play(ours[move])
            oracle.apply_action(theirs[move])
        returns = oracle.returns()
        assert state.is_over and state.winners == [p for p in range(2) if returns[p] > 0], seed
        finished.append(state)
    return finished


@pytest.mark.parametrize("backend", ["python", "native"])
def test_clobber_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `clobber` (5 rows, 6 columns) is the oracle: at every position the same
    player and the same legal moves (its notation, from and to), and the same winner: the last
    player to move."""
    finished = _played_against(*_with_openspiel("clobber", "clobber", backend), 60)
    assert {p for state in finished for p in state.winners} == {0, 1}


@pytest.mark.parametrize("backend", ["python", "native"])
def test_dots_and_boxes_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `dots_and_boxes` (two boxes by two) is the oracle: at every position the
    same player, the same legal action ids and notations (without its player prefix), the extra
    turn after a box is closed, and the same result, draws included."""
    game, oracle_game = _with_openspiel("dotsandboxes", "dots_and_boxes", backend)
    again = draws = 0
    for seed in range(200):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            assert not state.is_over and state.current_player == oracle.current_player(), (seed, state.decisions)
            assert state.legal_action_ids() == oracle.legal_actions(), (seed, state.decisions)
            theirs = {oracle.action_to_string(a)[2:] for a in oracle.legal_actions()}  # "P1(h,0,0)"
            assert set(state.notations()) == theirs, (seed, state.decisions)
            action, before = rng.choice(oracle.legal_actions()), oracle.current_player()
            state.advance_id(action)
            oracle.apply_action(action)
            again += not oracle.is_terminal() and oracle.current_player() == before
        returns = oracle.returns()
        assert state.is_over and state.winners == [p for p in range(2) if returns[p] > 0], seed
        draws += returns[0] == 0
    assert again > 100 and draws > 10  # extra turns and drawn games were met


@pytest.mark.parametrize("backend", ["python", "native"])
def test_y_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `y` (a triangle of side 19) is the oracle: at every position the same
    player and the same legal moves (cell names), and the same winner, the first to join the
    three sides with one chain."""
    finished = _played_against(*_with_openspiel("y", "y", backend), 40 if backend == "python" else 100)
    assert {p for state in finished for p in state.winners} == {0, 1}


@pytest.mark.parametrize("backend", ["python", "native"])
def test_havannah_agrees_with_openspiel(backend):
    """OpenSpiel's C++ `havannah` (side 8) is the oracle: at every position the same player and
    the same legal moves (its cell names: column x, row y, from regle's axial q, r as x = q + 7,
    y = 7 - r), and the same result: a ring, a bridge or a fork wins, a full board draws."""
    from regle.compiler.check.geometry import hexagon
    from regle.runtime import kernels
    geo = hexagon(8)
    names = geo.cell_names()
    spiel_name = {names[i]: chr(97 + q + 7) + str(8 - r) for i, (q, r) in enumerate(geo.coords)}
    finished = _played_against(*_with_openspiel("havannah", "havannah", backend), 60 if backend == "python" else 200,
                               spiel_name.get)
    rings = sum(kernels.ring(bytes(v + 1 for v in _board(state)), geo.table(), 6, (0, 2, 4, 1, 3, 5),
                             state.to_json()["counters"]["last"]) for state in finished)
    assert rings > 10  # many games were won by a ring (others by a bridge or a fork)


@pytest.mark.parametrize("name, spiel_name", [("clobber", "clobber"), ("dotsandboxes", "dots_and_boxes"), ("y", "y"),
                                              ("havannah", "havannah"), ("crazyeights", "crazy_eights")])
def test_proof_games_are_ten_times_shorter_than_openspiels(name, spiel_name):
    """A proof game's rules file, comments included, against OpenSpiel's C++ for the same game
    (its .cc and .h as the installed package ships them, comments included)."""
    pytest.importorskip("pyspiel")
    import open_spiel
    folder = Path(open_spiel.__file__).parent / "games" / spiel_name
    if not (folder / f"{spiel_name}.cc").exists():
        pytest.skip("this OpenSpiel package ships no C++ sources")
    theirs = sum(len((folder / f"{spiel_name}{ext}").read_text(encoding="utf-8")) for ext in (".cc", ".h"))
    ours = len((CLASSICS / f"{name}.rules").read_text(encoding="utf-8"))
    assert theirs >= 10 * ours, (ours, theirs)
