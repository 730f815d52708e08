"""The phrasing suite (benchmarks/phrasing.py): the two texts of each pair mean the same, so they
play identical games: the same legal moves at every step, the same states and the same end."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import regle
from regle import native

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from phrasing import PAIRS  # noqa: E402


def _same_games(first, second, games: int) -> None:
    for seed in range(games):
        a, b = first.new_game(seed=seed), second.new_game(seed=seed)
        rng = random.Random(seed)
        while not a.over:
            ids = a.legal_action_ids()
            assert ids == b.legal_action_ids(), (seed, a.decisions)
            assert [str(m) for m in a.legal_moves()] == [str(m) for m in b.legal_moves()]
            i = rng.choice(ids)
            a.advance_id(i)
            b.advance_id(i)
            assert a.to_json()["zones"] == b.to_json()["zones"]
        assert b.over and a.scores == b.scores and a.winners == b.winners


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
def test_the_two_texts_of_a_pair_play_identical_games(pair):
    first, second = (regle.loads(t, name=f"{pair.name}{i}", backend="python") for i, t in enumerate(pair.texts()))
    assert pair.texts()[0] != pair.texts()[1]
    _same_games(first, second, 12)


@pytest.mark.parametrize("name", ["any-or-count", "let-or-repeat", "ways-all-or-each"])
def test_the_two_texts_play_identical_games_natively(name):
    if not native.available():
        pytest.skip(native.unavailable_reason())
    pair = next(p for p in PAIRS if p.name == name)
    first, second = (regle.loads(t, name=f"{pair.name}{i}", backend="native") for i, t in enumerate(pair.texts()))
    _same_games(first, second, 6)
