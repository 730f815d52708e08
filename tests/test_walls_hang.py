"""Walls that hang (``K.walls_hang``, compiler/lower/kept_ways.py): a candidate wall whose walls
touch the walls standing, or the board's edge, at one corner at most is legal without a trial
when the ways were open in the position, since two squares are parted only by a loop of walls.
The corners' tables, the kernel against its pure twin and against searches on random boards,
where the lowering calls it, and games played alike with it and without on both engines."""
from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regle
from regle.compiler.check import geometry
from regle.compiler.generate import engine_source, native_source
from regle.runtime import kernels as pure

try:
    from regle.runtime import _kernels as compiled
except ImportError:  # pragma: no cover - the compiled kernels are optional
    compiled = None

ROOT = Path(__file__).resolve().parents[1]
QUORIDOR = (ROOT / "games/classics/quoridor.rules").read_text(encoding="utf-8")
KERNELS = [pytest.param(pure, id="pure"),
           pytest.param(compiled, id="compiled", marks=pytest.mark.skipif(compiled is None, reason="not built"))]
FOUND = b"\x00" * 8 + b"\x01"  # take_marks' bytes when the ways were found (the last byte 1)


def test_corners_of_the_walls_of_a_square_board():
    board = geometry.square(3, 2)
    places = geometry.walls(board)
    corners, around = geometry.wall_corners(places)
    assert len(corners) == 2 * places.cells and len(around) == 5 * 4 * 3  # (3 + 1) x (2 + 1) corners
    for w, (a, b) in enumerate(places.ends):  # each wall's corners are the ends of the side the cells share
        ends = {(v % 4, v // 4) for v in corners[2 * w:2 * w + 2]}
        (xa, ya), (xb, yb) = board.coords[a], board.coords[b]
        squares_a = {(xa + dx, ya + dy) for dx in (0, 1) for dy in (0, 1)}
        squares_b = {(xb + dx, yb + dy) for dx in (0, 1) for dy in (0, 1)}
        assert ends == squares_a & squares_b
    inner = [v for v in range(12) if not around[5 * v]]
    assert inner == [5, 6]  # the two corners inside a board of 3 x 2
    assert sorted(x for x in around[5 * 5 + 1:5 * 5 + 5] if x >= 0) == sorted(
        w for w in range(places.cells) if 5 in corners[2 * w:2 * w + 2])  # the four walls meeting there
    assert geometry.wall_corners(geometry.walls(geometry.hexagon(3))) is None
    assert geometry.wall_corners(board) is None


@st.composite
def hanging(draw):
    """A square board, walls standing, and one or two new walls (often side by side)."""
    board = geometry.square(draw(st.integers(2, 5)), draw(st.integers(2, 5)))
    places = geometry.walls(board)
    standing = bytearray(draw(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=places.cells,
                                        max_size=places.cells)))
    w1 = draw(st.integers(0, places.cells - 1))
    corners, _around = geometry.wall_corners(places)
    touching = [w for w in range(places.cells) if w != w1 and set(corners[2 * w:2 * w + 2]) & set(corners[2 * w1:2 * w1 + 2])]
    w2 = draw(st.one_of(st.just(-2), st.sampled_from(touching), st.integers(0, places.cells - 1)))
    return board, places, standing, w1, w2


def _regions(board, places, standing) -> list[int]:
    """Per square, the smallest square it is joined to through no standing wall."""
    slots, out = places.slots, list(range(board.cells))
    for start in range(board.cells):
        seen, todo = {start}, [start]
        while todo:
            c = todo.pop()
            for k in range(c * board.deg, c * board.deg + board.deg):
                nb = board.adj[k]
                if nb >= 0 and nb not in seen and (slots[k] < 0 or not standing[slots[k]]):
                    seen.add(nb)
                    todo.append(nb)
        out[start] = min(seen)
    return out


@pytest.mark.parametrize("k", KERNELS)
@settings(max_examples=400, deadline=None)
@given(hanging())
def test_walls_that_hang_part_no_squares(k, case):
    """Where the kernel says the new walls hang, every two squares joined before are joined
    after they are put up (the ways open in the position stay open); it agrees with its twin."""
    board, places, standing, w1, w2 = case
    corners, around = (array("h", t) for t in geometry.wall_corners(places))
    ways = bytes(places.cells) + b"\x01"
    hangs = k.walls_hang(standing, corners, around, ways, w1, w2)
    assert hangs == pure.walls_hang(standing, corners, around, ways, w1, w2)
    if hangs:
        raised = bytearray(standing)
        for w in (w1, w2):
            if w >= 0:
                raised[w] = 1
        assert _regions(board, places, raised) == _regions(board, places, standing)
    assert not k.walls_hang(standing, corners, around, b"\x02" * (places.cells + 1), w1, w2)  # no way found


@pytest.mark.parametrize("k", KERNELS)
def test_a_wall_off_every_other_hangs_and_one_closing_a_loop_does_not(k):
    board = geometry.square(4, 4)
    places = geometry.walls(board)
    corners, around = (array("h", t) for t in geometry.wall_corners(places))
    ways = bytes(places.cells) + b"\x01"
    middle = [w for w in range(places.cells) if not any(around[5 * v] for v in corners[2 * w:2 * w + 2])]
    assert middle
    empty = bytearray(places.cells)
    w = middle[0]
    assert k.walls_hang(empty, corners, around, ways, w)  # in the open: touches nothing
    edge = next(x for x in range(places.cells) if any(around[5 * v] for v in corners[2 * x:2 * x + 2]))
    assert k.walls_hang(empty, corners, around, ways, edge)  # from the edge into the open: one end touches
    inner = next(v for v in corners[2 * edge:2 * edge + 2] if not around[5 * v])
    other = next(x for x in around[5 * inner + 1:5 * inner + 5] if x >= 0 and x != edge)
    standing = bytearray(places.cells)
    standing[other] = 1
    assert not k.walls_hang(standing, corners, around, ways, edge)  # the edge and a wall standing: both ends touch
    pair = next(x for x in middle if x != w and set(corners[2 * x:2 * x + 2]) & set(corners[2 * w:2 * w + 2]))
    assert k.walls_hang(empty, corners, around, ways, w, pair)  # two new walls end to end in the open
    # three sides of the square at (1, 1) standing: its fourth closes the loop
    sides = [places.slots[5 * 4 + d] for d in range(4)]
    standing = bytearray(places.cells)
    for x in sides[1:]:
        standing[x] = 1
    assert not k.walls_hang(standing, corners, around, ways, sides[0])
    assert not k.walls_hang(empty, corners, around, ways, -1)  # a wall that is none: the trial decides
    assert not k.walls_hang(empty, corners, around, b"", w)


def test_the_lowering_calls_it_where_the_ways_kept_decide():
    """Quoridor's two walls a candidate and the walled race's one (tests/test_walls.py) on both
    engines; not where the ways kept do not apply (the trial decides every candidate)."""
    from test_walls import RACE
    for text in (QUORIDOR, RACE):
        for source in (engine_source(text, "walls.rules"), native_source(text, "walls.rules")):
            assert "walls_hang(" in source and "G_fence__CORNERS =" in source and "G_fence__AROUND =" in source
    plain = RACE.replace("ensure all(reachable(board, pawn(p), goal(p), fence) for p in players)",
                         "ensure all(reachable(board, pawn(p), goal(p), fence) for p in players) or false")
    assert "walls_hang" not in engine_source(plain, "race.rules") and "_CORNERS" not in engine_source(plain, "race.rules")


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("size", [5, 9])
def test_games_alike_with_walls_that_hang_and_without(backend, size, monkeypatch):
    """Quoridor with the shortcut and without it (kept_ways._hanging made to decline; the text
    marked by a comment so that the engine is cached as its own): the same legal moves and
    ids at every node of seeded games, walls placed in them."""
    if backend == "native":
        from regle import native
        if not native.available():
            pytest.skip(native.unavailable_reason())
    from regle.compiler.lower import kept_ways
    text = QUORIDOR.replace("param size = 9", f"param size = {size}")
    hang = regle.loads(text, name=f"hang{size}", backend=backend)
    monkeypatch.setattr(kept_ways, "_hanging", lambda *args: None)
    plain = regle.loads(text + "\n# no walls hang (the trial decides)\n", name=f"nohang{size}", backend=backend)
    walls, space = 0, hang.action_space(2)
    for seed in range(30 if backend == "native" else 8):
        a, b = hang.new_game(seed=seed), plain.new_game(seed=seed)
        rng = random.Random(seed)
        while not a.over:
            ids = a.legal_action_ids()
            assert ids == b.legal_action_ids(), (seed, a.decisions)
            i = rng.choice(ids)
            walls += space.describe(i).endswith(("h", "v"))  # a wall's notation: a1h, c3v
            a.advance_id(i)
            b.advance_id(i)
        assert b.over and a.winners == b.winners
    assert walls > 20
