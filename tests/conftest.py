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
