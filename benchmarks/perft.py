"""Chess perft (the number of move sequences of each length) three ways, in one run: regle's
games/classics/chess.rules through the public API (``legal_action_ids``, ``copy``,
``advance_id``; the last ply counted, not played, as every perft does) and by the engine's
documented ``perft(depth)`` (one call: in C natively), python-chess (a
pure-Python library: ``push``/``pop``, the last ply counted), and Stockfish's ``go perft``
(Debian's ``stockfish`` package, when it is on the PATH). Used by ``bench.py --perft``.

The positions: the start (depths 4 and 5) and the published "Kiwipete" (depth 3), whose counts
are known (tests/test_classics.py checks regle's on both engines)."""
from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import regle

ROOT = Path(__file__).resolve().parents[1]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#: (label, FEN, depth, the known count)
CASES = [("start", START, 4, 197_281), ("start", START, 5, 4_865_609), ("Kiwipete", KIWIPETE, 3, 97_862)]
_KINDS = "pnbrqk"  # the order of chess.rules' enum piece


def from_fen(game, fen: str):
    """A regle chess state from a FEN (pieces as owner * 6 + kind, side, castling, en passant,
    the moves since a capture or pawn move)."""
    board_text, side, rights, passant, quiet = fen.split()[:5]
    data = game.new_game(seed=0).to_json()
    board = [-1] * 64
    for i, rank in enumerate(board_text.split("/")):
        x = 0
        for ch in rank:
            if ch.isdigit():
                x += int(ch)
                continue
            board[8 * (7 - i) + x] = (0 if ch.isupper() else 1) * 6 + _KINDS.index(ch.lower())
            x += 1
    data["zones"]["board"], data["current"] = board, 0 if side == "w" else 1
    data["counters"].update(short=[int("K" in rights), int("k" in rights)],
                            long=[int("Q" in rights), int("q" in rights)], quiet=int(quiet),
                            passant=-1 if passant == "-" else 8 * (int(passant[1]) - 1) + "abcdefgh".index(passant[0]))
    return game.state_from_json(data)


def regle_perft(state, depth: int) -> int:
    ids = state.legal_action_ids()
    if depth == 1:
        return len(ids)
    total = 0
    for a in ids:
        total += regle_perft(state.copy().advance_id(a), depth - 1)
    return total


def chess_perft(board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def stockfish_perft(fen: str, depth: int) -> tuple[int, float] | None:
    """(nodes, seconds) of Stockfish's ``go perft`` on the position, timed from the command to
    its count (the engine started before): None without ``stockfish``."""
    path = shutil.which("stockfish") or ("/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None)
    if path is None:
        return None
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        proc.stdin.write(f"uci\nisready\nposition fen {fen}\n")
        proc.stdin.flush()
        while proc.stdout.readline().strip() != "readyok":
            pass
        start = time.perf_counter()
        proc.stdin.write(f"go perft {depth}\n")
        proc.stdin.flush()
        while True:
            line = proc.stdout.readline()
            if line.startswith("Nodes searched"):
                return int(line.split(":")[1]), time.perf_counter() - start
            if not line:
                return None
    finally:
        proc.kill()
        proc.wait()


def _timed(run) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = run()
    return nodes, time.perf_counter() - start


def run(backend: str = "native") -> None:
    try:
        import chess
    except ImportError:
        print("perft: python-chess is not installed (the test extra has it)")
        return
    game = regle.load(ROOT / "games/classics/chess.rules", backend=backend)
    print(f"\nchess perft, seconds: regle {backend} through the public API (ids, copy, advance_id) and by the "
          "engine's documented perft() (state.perft(depth), the same count in one call), python-chess, Stockfish "
          "(go perft); how many times faster regle is than python-chess, and slower than Stockfish (perft())")
    print(f"{'position':<10}{'depth':>6}{'nodes':>11}{'API':>8}{'perft()':>9}{'python-chess':>14}{'faster':>13}"
          f"{'Stockfish':>11}{'slower':>8}")
    for label, fen, depth, known in CASES:
        ours, own, theirs = _three_ways(game, chess, fen, depth, known)
        fish = stockfish_perft(fen, depth)
        fish_text = f"{'not here':>11}" if fish is None else f"{fish[1]:>11.3f}{own / fish[1]:>8.0f}"
        faster = f"{theirs / ours:.1f} / {theirs / own:.1f}"
        print(f"{label:<10}{depth:>6}{known:>11,}{ours:>8.2f}{own:>9.2f}{theirs:>14.2f}{faster:>13}{fish_text}")
    if backend == "native":  # the Python engine's too, at the depth it is held to (faster than python-chess)
        run_python_engine(chess)


def _three_ways(game, chess, fen: str, depth: int, known: int) -> tuple[float, float, float]:
    """Seconds of one perft: regle through the public API, by its documented perft(), and
    python-chess's; each count checked against the published one."""
    nodes, ours = _timed(lambda: regle_perft(from_fen(game, fen), depth))
    assert nodes == known, (fen, depth, nodes)
    state = from_fen(game, fen)
    counted, own = _timed(lambda: state.perft(depth))
    assert counted == known, (fen, depth, counted)
    theirs_nodes, theirs = _timed(lambda: chess_perft(chess.Board(fen), depth))
    assert theirs_nodes == known, (fen, depth, theirs_nodes)
    return ours, own, theirs


def run_python_engine(chess) -> None:
    """Perft(4) from the start by the Python engine (its documented perft(), and through the
    public API) against python-chess, in the same run as the native table."""
    game = regle.load(ROOT / "games/classics/chess.rules", backend="python")
    label, fen, depth, known = CASES[0]
    ours, own, theirs = _three_ways(game, chess, fen, depth, known)
    print(f"the Python engine: {label} depth {depth}, {known:,} nodes: API {ours:.2f} s, perft() {own:.2f} s, "
          f"python-chess {theirs:.2f} s: {theirs / ours:.2f} / {theirs / own:.2f} times python-chess's speed")
