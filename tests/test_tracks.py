"""Tracks (issue 53): named paths through a grid's cells, circuits with ``loop``; ``along(T, c,
k)`` and ``position(T, c)``; refusals at their positions; the formatter, the rulebook and
game.spec; on both engines."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regle
from regle import native
from regle.dsl.errors import RulesError
from regle.dsl.printer import format_text
from regle.runtime import ops

RACE = """game "Race" {
  players 2
  max decisions 200
}

grid board: player square 3 by 3

/// The circuit round the board's edge.
track lap on board: "a1 b1 c1 c2 c3 b3 a3 a2" loop

/// A straight run home, which ends.
track home on board: "a2 b2 c2"

counter spot: cell of board per player
counter laps per player
counter ahead: cell of board
counter back: cell of board
counter stage = -9

setup {
  spot[0] = cell(board, "a1")
  spot[1] = cell(board, "c3")
}

turn {
  action roll(k in 1..3) "{k}" {
    let before = position(lap, spot[me])
    spot[me] = along(lap, spot[me], k)
    if position(lap, spot[me]) < before {
      laps[me] += 1
    }
    ahead = along(home, cell(board, "b2"), k)
    back = along(home, cell(board, "c2"), 0 - k)
    stage = position(home, spot[me])
  }
}

end when any(laps[p] >= 2 for p in players)

score p {
  laps: laps[p]
}
"""

BACKENDS = ["python"] + (["native"] if native.available() else [])
LAP = "a1 b1 c1 c2 c3 b3 a3 a2".split()


def _name(game, cell: int) -> str | None:
    return None if cell < 0 else game.spec.grids["board"].cells[cell]


@pytest.mark.parametrize("backend", BACKENDS)
def test_along_a_loop_goes_round_and_along_a_path_stops_at_its_ends(backend):
    game = regle.loads(RACE, "race", backend=backend)
    state = game.new_game(2, seed=0)
    state.play("3")  # P1: a1 -> c2 (three places on)
    counters = state.to_json()["counters"]
    assert _name(game, counters["spot"][0]) == "c2"
    assert counters["ahead"] == -1  # b2 + 3 is past the end of home: none
    assert counters["back"] == -1  # c2 - 3 is before its start: none
    assert counters["stage"] == 2  # c2 is the third of home
    state.play("1")  # P2: c3 -> b3
    counters = state.to_json()["counters"]
    assert _name(game, counters["ahead"]) == "c2" and _name(game, counters["back"]) == "b2"  # one either way
    assert counters["stage"] == -1  # b3 is not on home
    for roll in ("3", "3", "3"):  # P1 then P2 then P1: P1 from c2 by 3 to a3, P2 to ..., P1 round past a1
        state.play(roll)
    counters = state.to_json()["counters"]
    assert _name(game, counters["spot"][0]) == "b1" and counters["laps"][0] == 1  # a3 + 3 = b1, round once


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12), st.booleans(), st.data())
def test_along_counts_places_and_a_loop_is_modular(length, loop, data):
    size = 16
    cells = tuple(data.draw(st.permutations(range(size)))[:length])
    places = [-1] * size
    for i, c in enumerate(cells):
        places[c] = i
    cell = data.draw(st.integers(-1, size - 1))
    steps = data.draw(st.integers(-30, 30))
    got = ops.along(cells, tuple(places), loop, cell, steps)
    if cell < 0 or cell not in cells:
        assert got == -1 and ops.track_position(tuple(places), cell) == -1
        return
    at = cells.index(cell)
    assert ops.track_position(tuple(places), cell) == at
    if loop:
        assert got == cells[(at + steps) % length]
        assert ops.along(cells, tuple(places), loop, got, -steps) == cell  # and back again
    else:
        assert got == (cells[at + steps] if 0 <= at + steps < length else -1)


@pytest.mark.parametrize("change, message", [
    ('track home on board: "a2 b2 c2"', None),
    ('track home on board: "a2 b2 z9"', "grid 'board' has no cell 'z9'"),
    ('track home on board: "a2 b2 a2"', "passes through a2 twice"),
    ('track home on board: "a2"', "a track needs two or more"),
    ('track home on bord: "a2 b2 c2"', "which is not declared above it"),
    ('track spot on board: "a2 b2 c2"', "already declared"),
])
def test_a_track_that_cannot_be_is_refused_at_its_position(change, message):
    text = RACE.replace('track home on board: "a2 b2 c2"', change)
    if message is None:
        regle.loads(text, "race_ok", backend="python")
        return
    with pytest.raises(RulesError, match=message):
        regle.loads(text, "race_bad", backend="python")


def test_along_takes_a_track_first():
    with pytest.raises(RulesError, match=r"along\(\) takes a track first") as err:
        regle.loads(RACE.replace("along(lap, spot[me], k)", "along(board, spot[me], k)"), "race_bad2",
                    backend="python")
    assert "tracks: lap, home" in str(err.value)


def test_the_formatter_keeps_a_track_and_wraps_a_long_one():
    assert format_text(RACE) == RACE
    rows = ", ".join('"' + " ".join(f"{c}{r}" for c in "abcdefghi") + '"' for r in range(1, 8))
    long = RACE.replace("grid board: player square 3 by 3", "grid board: player square 9 by 9").replace(
        '"a1 b1 c1 c2 c3 b3 a3 a2" loop', rows + " loop")
    once = format_text(long)
    assert format_text(once) == once and all(len(line) <= 100 for line in once.splitlines())
    assert regle.loads(once, "race_long", backend="python").spec.tracks["lap"]["cells"][9] == "a2"
    assert "track lap on board:\n" in once


def test_the_rulebook_and_the_spec_show_the_track():
    from regle.rulebook import rulebook
    book = rulebook("race.rules", text=RACE)
    assert "track **lap** on board: a1 → b1 → c1 → c2 → c3 → b3 → a3 → a2 → back to the start (a loop)" in book
    spec = regle.loads(RACE, "race", backend="python").spec
    assert spec.tracks == {"lap": {"grid": "board", "cells": LAP, "loop": True},
                           "home": {"grid": "board", "cells": ["a2", "b2", "c2"], "loop": False}}
