"""The phrasing suite: pairs of rules texts with the same meaning, written two ways.

An author should not need to know which phrasing is fast: the compiler shares, hoists and stops
early, so that both texts of a pair run at the same speed (within 1.15x, on both engines).
Each pair is a shipped game and the edits that rewrite one of its rules another way; the tests
(tests/test_phrasing.py) check that both texts play identical games, and

    python benchmarks/phrasing.py [--quick] [--no-native] [--only NAME]

(or ``bench.py --phrasing``) measures the loop by ids of both over the same games, game by game
alternately (each game is the same game on both: the same steps, which it checks), prints the
ratio of their times (the slower over the faster), and whether the two texts compile to the same
engine (``same``: the same code but for comments and the rules' hash; a ratio above 1 is then
the machine's, not the phrasing's), or how many lines of code they differ in.
"""
from __future__ import annotations

import argparse
import difflib
import io
import random
import sys
import time
import tokenize
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


class Pair(NamedTuple):
    name: str
    what: str  # the two phrasings, in words
    game: str  # the rules file the first text is
    edits: tuple  # (old, new) replacements giving the second text

    def texts(self) -> tuple[str, str]:
        first = (ROOT / self.game).read_text(encoding="utf-8")
        second = first
        for old, new in self.edits:
            if old not in second:
                raise ValueError(f"phrasing pair {self.name}: {old!r} is not in {self.game}")
            second = second.replace(old, new, 1)
        return first, second


OTHELLO = "games/classics/othello.rules"
BREAKTHROUGH = "games/classics/breakthrough.rules"
CONNECT4 = "games/classics/connect4.rules"
QUORIDOR = "games/classics/quoridor.rules"
WAYS = "    ensure all(reachable(board, pawn(p), goal(p), fence) for p in players)\n"
CHESS = "games/classics/chess.rules"
KING_NEXT = "    or any(board[y] == piece(king, p) for y in neighbours(board, x))\n"
EACH_WAY = "    ensure reachable(board, pawn(0), north, fence) and reachable(board, pawn(1), south, fence)\n"

PAIRS = (
    Pair("let-or-repeat", "a let of the outflanked discs, or flanked() written again where used", OTHELLO, (
        ("    let turned = flanked(board, c, me)\n    require count(turned) > 0\n    put me at c on board\n"
         "    for d in turned {",
         "    require count(flanked(board, c, me)) > 0\n    for d in flanked(board, c, me) {"),
        ("      put me at d on board\n    }\n  }", "      put me at d on board\n    }\n    put me at c on board\n  }"),
    )),
    Pair("define-or-inline", "a define for the test of a move, or its body written in place", OTHELLO, (
        ("define can_move(p) =", "define flips(c, p) = count(flanked(board, c, p))\n\ndefine can_move(p) ="),
        ("    require count(turned) > 0", "    require flips(c, me) > 0"),
    )),
    Pair("let-or-repeat-in-define", "the test in the action, or a define that counts the discs twice", OTHELLO, (
        ("define can_move(p) =", "define gain(c, p) =\n  if count(flanked(board, c, p)) > 0 then count(flanked(board, c, p)) + 1"
         " else 0\n\ndefine can_move(p) ="),
        ("    require count(turned) > 0", "    require gain(c, me) > 0"),
    )),
    Pair("any-or-count", "any(...) over the empty cells, or count(... where ...) > 0", OTHELLO, (
        ("define can_move(p) = any(count(flanked(board, c, p)) > 0 for c in empty_cells(board))",
         "define can_move(p) = count(c for c in empty_cells(board) where count(flanked(board, c, p)) > 0) > 0"),
    )),
    Pair("aggregate-or-each", "any(... for p in players), or each seat written out", OTHELLO, (
        ("end when not any(can_move(p) for p in players)", "end when not can_move(0) and not can_move(1)"),
    )),
    Pair("guard-order", "the cheap test of a capture first, or last", BREAKTHROUGH, (
        ("    require row(board, t) == row(board, c) + forward(me)\n    require column(board, t) != column(board, c)\n"
         "    require not is_empty(board, t) and board[t] != me\n",
         "    require not is_empty(board, t) and board[t] != me\n    require column(board, t) != column(board, c)\n"
         "    require row(board, t) == row(board, c) + forward(me)\n"),
    )),
    Pair("any-or-count-end", "an end test as any(...) or as count(... where ...) > 0", BREAKTHROUGH, (
        ("end when any(row(board, c) == goal(me) for c in filled_cells(board, me)) then winner me",
         "end when count(c for c in filled_cells(board, me) where row(board, c) == goal(me)) > 0 then winner me"),
    )),
    Pair("filled-or-filter", "the cells holding a seat's pieces, or every cell tested", BREAKTHROUGH, (
        ("end when any(row(board, c) == goal(me) for c in filled_cells(board, me)) then winner me",
         "end when any(board[c] == me and row(board, c) == goal(me) for c in cells(board)) then winner me"),
    )),
    Pair("define-or-expression", "forward(me) through a define, or the number written in place", BREAKTHROUGH, (
        ("    require row(board, t) == row(board, c) + forward(me)\n    require is_empty(board, t)",
         "    require row(board, t) == row(board, c) + 2 * me - 1\n    require is_empty(board, t)"),
    )),
    Pair("ways-all-or-each", "a wall's ensure of ways as all(... for p in players), or each seat's written out",
         QUORIDOR, ((WAYS, EACH_WAY), (WAYS, EACH_WAY))),
    Pair("two-walks-or-one", "a king or a pawn next to a square as two any(...) over its neighbours, or one",
         CHESS, ((KING_NEXT + "    or any(\n        board[y] == piece(pawn, p)",
                  "    or any(\n        board[y] == piece(king, p)\n        or board[y] == piece(pawn, p)"),)),
)


def code_lines(source: str) -> list[str]:
    """An engine's code as lines of tokens: its comments, blank lines and the rules' hash left out
    (what the two texts of a pair differ in whatever they compile to)."""
    lines: dict[int, list[str]] = {}
    indent: dict[int, int] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                        tokenize.ENDMARKER):
            continue
        indent.setdefault(tok.start[0], tok.start[1])
        lines.setdefault(tok.start[0], []).append(tok.string)
    return [" " * indent[n] + " ".join(parts) for n, parts in sorted(lines.items())
            if not parts[0] == "RULES_HASH"]


def engines_differ(pair: Pair, backend: str) -> int:
    """How many lines of code the two texts' engines differ in (0: the same engine, so that any
    difference of speed between them is the machine's)."""
    from regle.compiler.generate import engine_source, native_source
    write = native_source if backend == "native" else engine_source
    first, second = (code_lines(write(text, name=pair.name)) for text in pair.texts())
    return sum(1 for line in difflib.unified_diff(first, second, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---")))


def paired_steps(games: list, seconds: float, first_seed: int = 0) -> tuple[list[int], list[float], int]:
    """The loop by ids on both engines of a pair over the same games, game by game: game k
    (seed k, its ids picked by ``random.Random(k)``) on one, then on the other, the order
    swapped every game, until both have had ``seconds``. Both texts mean the same, so each
    game is the same game on both (the same steps); a slower stretch of the machine slows both
    alike, where rounds of a second each could fall on one text only. Returns the steps and
    seconds of each, and the next seed."""
    clock = time.perf_counter
    steps, spent = [0, 0], [0.0, 0.0]
    seed = first_seed
    while min(spent) < seconds:
        for i in ((0, 1) if seed % 2 == 0 else (1, 0)):
            rng = random.Random(seed)
            started = clock()
            s = games[i].new_game(seed=seed)
            n = 0
            while not s.over:
                s.advance_id(rng.choice(s.legal_action_ids()))
                n += 1
            spent[i] += clock() - started
            steps[i] += n
        seed += 1
    return steps, spent, seed


def measure(pair: Pair, backend: str, rounds: int, seconds: float) -> tuple[float, float, float]:
    """Steps/s of each text of the pair (the best round of each) and the ratio of their times
    over all rounds (the slower over the faster), played game by game alternately
    (:func:`paired_steps`)."""
    import regle
    first, second = pair.texts()
    games = [regle.loads(text, name=f"{pair.name}_{i}", backend=backend) for i, text in enumerate((first, second))]
    best, total, seed = [0.0, 0.0], [0.0, 0.0], 0
    for _ in range(rounds):
        steps, spent, seed = paired_steps(games, seconds, seed)
        if steps[0] != steps[1]:
            raise AssertionError(f"phrasing pair {pair.name}: the two texts played different games "
                                 f"({steps[0]} and {steps[1]} steps)")
        for i in (0, 1):
            best[i] = max(best[i], steps[i] / spent[i])
            total[i] += spent[i]
    return best[0], best[1], max(total) / min(total)


def run(quick: bool, native: bool, only: str | None = None) -> list[tuple]:
    """Print the suite's table; returns its rows (pair, backend, first, second, ratio, lines of
    code the two engines differ in)."""
    rounds, seconds = (2, 0.4) if quick else (4, 1.0)
    backends = ["python"] + (["native"] if native else [])
    print(f"\nphrasing: the loop by ids of two texts with the same meaning over the same games, game by game "
          f"alternately (steps/s, best of {rounds} rounds);\nratio: the slower's time over the faster's, aim <= 1.15; "
          "code: \"same\" where both texts compile to the same engine (but for comments and the rules' hash:\n"
          "a ratio above 1 is then the machine's), else how many lines of code they differ in")
    print(f"{'pair':<24}{'engine':>8}{'first':>12}{'second':>12}{'ratio':>8}{'code':>8}  what")
    rows = []
    for pair in PAIRS:
        if only and pair.name != only:
            continue
        for backend in backends:
            a, b, ratio = measure(pair, backend, rounds, seconds)
            differ = engines_differ(pair, backend)
            code = "same" if differ == 0 else f"{differ} ln"
            rows.append((pair.name, backend, a, b, ratio, differ))
            print(f"{pair.name:<24}{backend:>8}{a:>12,.0f}{b:>12,.0f}{ratio:>8.2f}{code:>8}  {pair.what}", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short rounds")
    parser.add_argument("--no-native", action="store_true", help="the Python engine only")
    parser.add_argument("--only", choices=[p.name for p in PAIRS], help="one pair only")
    args = parser.parse_args(argv)
    native = not args.no_native
    if native:
        from regle import native as nat
        if nat.unavailable_reason():
            print(f"(no native engines: {nat.unavailable_reason()})")
            native = False
    run(args.quick, native, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
