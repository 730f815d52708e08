"""state.perft(depth): the sequences of decisions a game allows, counted to a depth, the same on
both engines (natively in C, regle.runtime._search), equal to the public API's own count, the
published chess counts, and `regle perft` on the command line."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import regle
from regle import native
from regle.cli import main

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import perft as chess_perft  # noqa: E402  (benchmarks/perft.py: from_fen, the published counts)

BACKENDS = ["python", pytest.param("native", marks=pytest.mark.skipif(not native.available(),
                                                                        reason="no native engines here"))]


def _by_api(state, depth: int) -> int:
    """The count through the public API (ids, copy, advance_id), as a user would write it."""
    if depth == 0:
        return 1
    ids = state.legal_action_ids()
    if depth == 1:
        return len(ids)
    return sum(_by_api(state.copy().advance_id(i), depth - 1) for i in ids)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_published_counts(backend):
    chess = regle.load(ROOT / "games/classics/chess.rules", backend=backend)
    start = chess.new_game()
    assert [start.perft(d) for d in range(4)] == [1, 20, 400, 8902]
    kiwipete = chess_perft.from_fen(chess, chess_perft.KIWIPETE)  # castles, en passant, promotions
    assert kiwipete.perft(2) == 2039
    ttt = regle.load("tictactoe", backend=backend).new_game()
    assert [ttt.perft(d) for d in range(1, 5)] == [9, 72, 504, 3024]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["connect4", "othello", "breakthrough", "go", "kalah", "draughts", "morris", "pentago"])
def test_perft_counts_what_the_public_api_plays(name, backend):
    """From positions well into seeded random games (and one near its end): perft equals the
    count through ids, copies and advance_id; the state counted from is left as it was."""
    game = regle.load(name, backend=backend)
    rng = random.Random(name)
    for seed in range(3):
        state = game.new_game(seed=seed)
        for _ in range(rng.randrange(4, 30)):
            if state.over:
                break
            state.advance_id(rng.choice(state.legal_action_ids()))
        before = (state.to_json(), state.legal_action_ids())
        depth = 2 if name in ("go", "pentago") else 3
        assert state.perft(depth) == _by_api(state, depth)
        assert (state.to_json(), state.legal_action_ids()) == before


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_ended_game_and_depth_zero(backend):
    game = regle.load("tictactoe", backend=backend)
    state = game.new_game()
    for i in (0, 3, 1, 4, 2):  # the first seat's row
        state.advance_id(i)
    assert state.over and state.perft(0) == 1 and state.perft(1) == 0 and state.perft(3) == 0
    for bad in (-1, True, 2.0, "3"):
        with pytest.raises(ValueError, match="0 decisions or more"):
            game.new_game().perft(bad)


@pytest.mark.skipif(not native.available(), reason="no native engines here")
def test_both_engines_count_alike_where_they_disagree_nowhere():
    """Random positions of chess: the native count in C equals the Python engine's count."""
    python = regle.load(ROOT / "games/classics/chess.rules", backend="python")
    compiled = regle.load(ROOT / "games/classics/chess.rules", backend="native")
    rng = random.Random(5)
    for seed in range(4):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        for _ in range(rng.randrange(5, 40)):
            if a.over:
                break
            i = rng.choice(a.legal_action_ids())
            a.advance_id(i)
            b.advance_id(i)
        assert a.perft(2) == b.perft(2)


def test_the_command_prints_each_depth_and_divides(capsys):
    assert main(["perft", "tictactoe", "--depth", "3", "--divide", "--backend", "python"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [(r[0], r[1]) for r in rows[:3]] == [("1", "9"), ("2", "72"), ("3", "504")]
    divided = out.split("below each first move")[1].splitlines()[1:]
    below = [line.split() for line in divided if line.strip() and not line.strip().startswith("total")]
    assert len(below) == 9 and sum(int(n.replace(",", "")) for _, n in below) == 504
    assert "total  504 (9 moves)" in out
