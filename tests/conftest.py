"""Shared fixtures. Engines are cached in a private directory per test session."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("REGLE_CACHE_DIR", tempfile.mkdtemp(prefix="regle-test-cache-"))
# the suite plays the Python engines (a native build takes seconds a rules text); the native
# backend is tested against them in test_native.py
os.environ.setdefault("REGLE_BACKEND", "python")
os.environ.setdefault("REGLE_NATIVE_CFLAGS", "-O0")  # the same engines, built five times faster

import pytest  # noqa: E402

import regle  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


@pytest.fixture(scope="session")
def eclats():
    return regle.load(GAMES / "eclats.rules")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``long`` (a minute or more alone) go first: run in parallel (``-n``, as the
    README runs the suite), they then run beside the rest instead of after it."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def position(game, base=None, **changes):
    """A state built through the public API: ``base``'s JSON with some fields replaced.

    Zones are given by name (``workshop=[[2, 5], [1]]``); other keys replace top-level fields.
    """
    state = base if base is not None else game.new_game(seed=0)
    data = state.to_json()
    for key, value in changes.items():
        if key in data["zones"]:
            data["zones"][key] = value
        elif key in data["counters"]:
            data["counters"][key] = value
        else:
            data[key] = value
    return data


def moves(state) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def play_alike(reference, other, seeds: int, ids: bool = False) -> tuple[int, int]:
    """Seeded random games of two engines that should be the same game (two phrasings of one
    rule, a pass on and off): the legal moves at every node the same (with ``ids``, the legal
    ids too, and half the moves played by id), and the same winners and scores at the end.
    Returns how many decisions were compared and how many games had a winner: a caller asserts
    the games were long enough to mean something."""
    import random
    nodes = decided = 0
    for seed in range(seeds):
        a, b = reference.new_game(None, seed=seed), other.new_game(None, seed=seed)
        rng = random.Random(seed)
        while not a.over:
            legal = moves(a)
            assert moves(b) == legal, (seed, a.decisions)
            if ids:
                assert b.legal_action_ids() == a.legal_action_ids(), (seed, a.decisions)
            if ids and rng.random() < 0.5:
                i = rng.choice(a.legal_action_ids())
                a.advance_id(i)
                b.advance_id(i)
            else:
                move = rng.choice(legal)
                a.play(move)
                b.play(move)
            nodes += 1
        assert b.over and a.winners == b.winners and a.scores == b.scores, seed
        decided += bool(a.winners)
    return nodes, decided
