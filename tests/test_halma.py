"""Sternhalma (Chinese checkers) on the star board, by hand-made positions (issue 53): steps,
hops over either player's pieces, hop chains that may stop and never land twice on one hole,
the start, the win, and the bound on long games; on both engines."""
from __future__ import annotations

import pytest

import regle
from regle import native

BACKENDS = ["python"] + (["native"] if native.available() else [])


@pytest.fixture(params=BACKENDS)
def game(request):
    return regle.load("halma", backend=request.param)


def _position(game, pieces: dict[str, int], cur: int = 0):
    """A state of ``game`` with the pieces given (cell name -> seat) and ``cur`` to play."""
    cells = game.spec.grids["board"].cells
    data = game.new_game(2, seed=0).to_json()
    data["zones"]["board"] = [pieces.get(name, -1) for name in cells]
    data["current"] = cur
    return game.state_from_json(data)


def test_the_start_fills_each_player_s_point(game):
    spec = game.spec.grids["board"]
    state = game.new_game(2, seed=0)
    board = state.to_json()["zones"]["board"]
    south = {spec.cells[i] for i, v in enumerate(board) if v == 0}
    north = {spec.cells[i] for i, v in enumerate(board) if v == 1}
    assert len(spec.cells) == 121 and len(south) == len(north) == 10
    assert {spec.rows[c] for c in south} == {0, 1, 2, 3} and {spec.rows[c] for c in north} == {13, 14, 15, 16}
    # from the start: each of the four front pieces steps to two holes, and the three behind hop
    # over them (the back corners' pieces hop once, the middle ones twice): 8 steps and 6 hops
    assert sorted(state.notations()) == sorted(
        ["d1-e5", "d1-e6", "d2-e6", "d2-e7", "d3-e7", "d3-e8", "d4-e8", "d4-e9",
         "c1xe5", "c1xe7", "c2xe6", "c2xe8", "c3xe7", "c3xe9"])


def test_a_piece_steps_to_an_empty_neighbour_only(game):
    state = _position(game, {"i5": 0, "i6": 1, "j5": 0})
    steps = {m for m in state.notations() if m.startswith("i5-")}
    assert steps == {"i5-i4", "i5-j6", "i5-h5", "i5-h6"}  # e (i6) and nw (j5) are taken
    state.play("i5-i4")
    assert state.current_player == 1  # a step ends the turn: no hop after it


def test_hops_chain_may_stop_and_never_land_twice(game):
    # South's piece at i5 hops east over North's i6 to i7 (nothing is taken), then may hop on
    # over its own i8 to i9; back over i6 it would land where it started: not offered
    state = _position(game, {"i5": 0, "i6": 1, "i8": 0, "a1": 1})
    assert "i5xi7" in state.notations()
    state.play("i5xi7")
    board = dict(zip(game.spec.grids["board"].cells, state.to_json()["zones"]["board"]))
    assert board["i7"] == 0 and board["i5"] == -1 and board["i6"] == 1  # nothing taken
    assert state.current_player == 0  # the same piece may hop on, or stop
    assert set(state.notations()) == {"xi9", "stop more"}
    state.play("xi9")
    # back over i8 would land on i7 again: no hop is left, so the turn ends with no stop to choose
    assert state.current_player == 1 and "xi7" not in state.notations()
    again = _position(game, {"i5": 0, "i6": 1, "i8": 0, "a1": 1})
    again.play("i5xi7")
    again.play("stop more")  # stopping after the first hop is allowed
    assert again.current_player == 1
    assert dict(zip(game.spec.grids["board"].cells, again.to_json()["zones"]["board"]))["i7"] == 0


def test_filling_the_opposite_point_wins(game):
    spec = game.spec.grids["board"]
    goal = [c for c in spec.cells if spec.rows[c] > 12]  # North's point, South's goal
    missing = min(goal, key=lambda c: spec.rows[c])  # a front hole of the point, left empty
    pieces = {c: 0 for c in goal if c != missing}
    below = next(c for c in spec.neighbours(missing).values() if spec.rows[c] == 12)
    pieces[below] = 0
    pieces.update({c: 1 for c in spec.cells if spec.rows[c] < 4})
    state = _position(game, pieces)
    assert not state.is_over
    state.play(f"{below}-{missing}")
    assert state.is_over and state.winners == [0]


def test_a_long_game_is_a_draw_at_its_bound(game):
    state = game.new_game(2, seed=3)
    state.play_random_playout(3)
    assert state.is_over and state.winners == [] and state.turns == 600
