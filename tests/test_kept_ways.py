"""Legality after the move by the ways kept (compiler/lower/kept_ways.py): an ``ensure`` of ways
through walls found once per position, a candidate wall tried only when it crosses one of them.
The shapes it takes and those it leaves to the plain trial, the same moves with it and without
it on both engines, and the property its kernels (mark_way, take_marks; held to their pure twins
in tests/test_walls.py) rest on: a wall put up where no way found was marked leaves every way open."""
from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings

import regle
from regle.compiler.check import geometry
from regle.compiler.generate import engine_source, native_source
from regle.runtime import kernels as pure

from test_walls import RACE, walled

try:
    from regle.runtime import _kernels as compiled
except ImportError:  # pragma: no cover - the compiled kernels are optional
    compiled = None

QUORIDOR = (Path(__file__).resolve().parent.parent / "games" / "classics" / "quoridor.rules").read_text(encoding="utf-8")
ENSURE = "ensure all(reachable(board, pawn(p), goal(p), fence) for p in players)"


def _without_ways_kept(text: str) -> str:
    """The same rules, phrased so that the ways kept do not apply (``or false``: a condition
    that is not only searches): every candidate is tried."""
    assert ENSURE in text
    return text.replace(ENSURE, f"ensure ({ENSURE[len('ensure '):]}) or false")


def test_a_walls_ensure_is_decided_by_the_ways_kept_on_both_engines():
    for source in (engine_source(RACE, "race.rules"), native_source(RACE, "race.rules")):
        assert "take_marks(G_fence__MARKS" in source and "mark_way(" in source
        # the candidate's wall read in the marks before any trial (natively a byte read in C)
        assert ("_mark_at(_ways_1, " if "cdef class" in source else "_ways_1[") in source
        # a side searched to is a mask of cells, made only for the board searched on
        assert "G_board__SIDE_MASKS = " in source and "G_fence__SIDE_MASKS" not in source
    each = QUORIDOR.replace(ENSURE, "ensure reachable(board, pawn(0), north, fence) and reachable(board, pawn(1), south, fence)")
    assert "take_marks(G_fence__MARKS" in engine_source(each, "quoridor.rules")  # `and` of searches too
    plain = engine_source(_without_ways_kept(RACE), "race.rules")
    assert "take_marks" not in plain and "mark_way" not in plain and "G_fence__MARKS" not in plain


def test_two_actions_of_a_step_share_the_ways_found():
    """Quoridor's two walls (across, along) ask for the same ways: they are found once per
    position, by whichever action comes first, in the list of moves and in the keys alike."""
    for source in (engine_source(QUORIDOR, "quoridor.rules"), native_source(QUORIDOR, "quoridor.rules")):
        generators = source.count("_ways_2 = None")
        assert generators >= 1 and source.count("take_marks(G_fence__MARKS") == 2 * generators
        assert source.count("_ways_3 = _ways_2") == generators  # the second action reads the first one's
    assert "cdef bytes _ways_2 = None" in native_source(QUORIDOR, "quoridor.rules")  # read in C


def test_a_candidate_off_the_ways_found_is_not_tried():
    """On an open board, the walls that cross no way found need no trial: far fewer trials
    than candidates, and the same moves as when every candidate is tried."""
    game = regle.loads(RACE, name="race_kept", backend="python")
    plain = regle.loads(_without_ways_kept(RACE), name="race_plain", backend="python")
    trials = []
    state_type = type(game.new_game(seed=1))
    tried = state_type._ensure_1

    def counting(s, *args):
        trials.append(args)
        return tried(s, *args)

    state_type._ensure_1 = counting
    try:
        state = game.new_game(seed=1)
        moves = {str(m) for m in state.legal_moves()}
    finally:
        state_type._ensure_1 = tried
    walls = [m for m in moves if "|" in m]
    assert len(walls) == 24 and len(trials) < len(walls) // 2  # (on an open board every wall hangs: none, tests/test_walls_hang.py)
    assert moves == {str(m) for m in plain.new_game(seed=1).legal_moves()}


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("text, size", [(RACE, None), (QUORIDOR, 5), (QUORIDOR, 9)])
def test_the_same_moves_with_the_ways_kept_and_without(backend, text, size):
    """Seeded random games: at every decision the legal moves (in order) are the same whether
    the ways kept decide or every candidate is tried; the games end alike."""
    if size is not None:
        text = text.replace("param size = 9", f"param size = {size}")
    kept = regle.loads(text, name=f"kept{size}", backend=backend)
    plain = regle.loads(_without_ways_kept(text), name=f"plain{size}", backend=backend)
    walls_played = 0
    for seed in range(12 if size == 9 else 25):
        a, b = kept.new_game(seed=seed), plain.new_game(seed=seed)
        rng = random.Random(seed)
        while not a.over:
            moves = [str(m) for m in a.legal_moves()]
            assert moves == [str(m) for m in b.legal_moves()]
            assert a.legal_action_ids() == b.legal_action_ids()
            move = rng.choice(moves)
            walls_played += "|" in move or move.endswith(("h", "v"))
            a.play(move)
            b.play(move)
        assert b.over and a.winners == b.winners
    assert walls_played > 20  # walls were placed, and refused ones met the trial


SHAPES_LEFT_TO_THE_TRIAL = {
    "a search from a let of the action": ("  require left[me] > 0\n",
                                          "  require left[me] > 0\n      let home = pawn(me)\n"),
    "a condition besides searches": (ENSURE, f"ensure {ENSURE[len('ensure '):]} and left[me] > 0"),
    "a target that reads the walls": ("define goal(p) = if p == 0 then north else south",
                                      "define goal(p) = if p == 0 or count(filled_cells(fence, 0)) > 99 then north else south"),
    "a trial that moves a pawn": ("  put me at w on fence\n", "  put me at w on fence\n      move pawn(me) to pawn(me) on board\n"),
    "a wall written at a let of the effects": ("  put me at w on fence\n",
                                              "  left[me] -= 0\n      let v = w\n      put me at v on fence\n"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES_LEFT_TO_THE_TRIAL))
def test_shapes_the_ways_kept_leave_to_the_trial(shape):
    """Where the ways found in the position could not prove a candidate legal, every candidate
    is tried, and the game plays."""
    old, new = SHAPES_LEFT_TO_THE_TRIAL[shape]
    assert old in RACE
    text = RACE.replace(old, new)
    if "home" in new:
        text = text.replace(ENSURE, "ensure reachable(board, home, goal(me), fence)")
    assert "take_marks" not in engine_source(text, "race.rules")
    state = regle.loads(text, name="race_shape", backend="python").new_game(seed=1)
    assert state.legal_moves()


def test_the_last_mark_is_always_set_so_a_cell_that_is_none_is_tried():
    """A wall written at a place that is none (-1) reads the last mark, always set: the trial
    runs (and says what it says), as it would without the ways kept."""
    assert pure.take_marks(bytearray(4), True)[-1] == 1 and pure.take_marks(bytearray(4), False) == b"\x02" * 4


# ---- the kernels ------------------------------------------------------------------------------------
KERNELS = [pytest.param(pure, id="pure"),
           pytest.param(compiled, id="compiled", marks=pytest.mark.skipif(compiled is None, reason="not built"))]


@pytest.mark.parametrize("k", KERNELS)
@settings(max_examples=300, deadline=None)
@given(walled())
def test_a_wall_raised_off_the_marked_way_leaves_it_open(k, case):
    """mark_way answers as reachable(); when it finds a way, raising any wall it did not mark
    leaves the start a way to a target (the ways kept rest on this)."""
    board, places, standing, a, to = case
    adj, slots = array("h", board.adj), array("h", places.slots)
    marks = bytearray(places.cells + 1)
    memo = array("h", bytes(2 * 2 * (board.cells + 1)))
    found = k.mark_way(adj, board.deg, slots, standing, a, to, marks, memo)
    assert found == (pure.walled_distance(adj, board.deg, slots, standing, a, to) >= 0)
    taken = k.take_marks(marks, found)
    assert marks == bytearray(places.cells + 1)  # emptied for the next position
    if not found:
        assert taken == b"\x02" * (places.cells + 1)  # every place marked, and the last byte says no way was found
        return
    assert taken[-1] == 1
    for w in range(places.cells):
        if not taken[w] and not standing[w]:
            raised = bytearray(standing)
            raised[w] = 1
            assert pure.walled_distance(adj, board.deg, slots, raised, a, to) >= 0, w


@pytest.mark.parametrize("k", KERNELS)
def test_the_marks_must_be_a_bytearray(k):
    board = geometry.square(3, 3)
    adj, slots = array("h", board.adj), array("h", geometry.walls(board).slots)
    with pytest.raises(TypeError):
        k.mark_way(adj, 4, slots, bytearray(12), 0, 8, b"\x00" * 13, None)
    with pytest.raises(TypeError):
        k.take_marks(b"\x00" * 13, True)
