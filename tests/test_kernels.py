"""Each compiled kernel agrees with its pure-Python twin (yarl-style: both implementations)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from regle.runtime import KERNELS
from regle.runtime import kernels as pure

try:
    from regle.runtime import _kernels as compiled
except ImportError:  # pragma: no cover - CI requires the build (see .ci/run)
    compiled = None

IMPLS = [pytest.param(pure, id="pure"),
         pytest.param(compiled, id="compiled", marks=pytest.mark.skipif(compiled is None, reason="not built"))]
small = st.lists(st.integers(0, 9), max_size=12)


@pytest.mark.parametrize("k", IMPLS)
def test_distinct_pairs_hand_made(k):
    assert k.distinct_pairs([]) == []
    assert k.distinct_pairs([3]) == []
    assert k.distinct_pairs([1, 2, 1]) == [(1, 2), (1, 1)]
    assert k.distinct_pairs([4, 4]) == [(4, 4)]


@pytest.mark.parametrize("k", IMPLS)
def test_contains_hand_made(k):
    assert k.contains_pair([2, 5], 2, 5) and k.contains_pair([5, 2], 2, 5)
    assert not k.contains_pair([7], 2, 5) and not k.contains_pair([3, 4], 2, 5)
    assert not k.contains_pair([4], 4, 4) and k.contains_pair([4, 1, 4], 4, 4)
    assert k.contains_all([1, 2, 2], [2, 2]) and not k.contains_all([1, 2], [2, 2])
    assert k.contains_all([], [])


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(small)
def test_distinct_pairs_twins_agree(values):
    assert compiled.distinct_pairs(values) == pure.distinct_pairs(values)
    expected = sorted({tuple(sorted((values[i], values[j]))) for i in range(len(values))
                       for j in range(i + 1, len(values))})
    assert sorted(pure.distinct_pairs(values)) == expected


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(small, small)
def test_contains_twins_agree(values, wanted):
    assert compiled.contains_all(values, wanted) == pure.contains_all(values, wanted)
    if len(wanted) >= 2:
        a, b = wanted[:2]
        assert compiled.contains_pair(values, a, b) == pure.contains_pair(values, a, b) == \
            pure.contains_all(values, [a, b])


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(st.lists(st.integers(), max_size=60), st.integers(0, 2**64 - 1))
def test_shuffle_twins_agree(items, state):
    a, b = list(items), list(items)
    assert compiled.shuffle(a, state) == pure.shuffle(b, state)
    assert a == b and sorted(a) == sorted(items)


def _state_drawing(z: int) -> int:
    """The generator state whose next SplitMix64 draw is z (the finaliser inverted)."""
    mask = 2**64 - 1

    def unshift(y: int, k: int) -> int:
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x & mask
    b = unshift(z, 31)
    a = unshift(b * pow(0x94D049BB133111EB, -1, 2**64) & mask, 27)
    z1 = unshift(a * pow(0xBF58476D1CE4E5B9, -1, 2**64) & mask, 30)
    return (z1 - 0x9E3779B97F4A7C15) & mask


@pytest.mark.parametrize("top", [2**64 - 1, 2**64 - 2, 2**64 - 3, 2**64 - 4, 2**63])
def test_shuffle_draws_near_the_top_alike(top):
    """A draw above the largest multiple of n is drawn again, in the kernels as in Rng.below:
    the draws just under 2**64 (for 3 items: 2**64 - 1 is refused, 2**64 - 2 is kept)."""
    from regle.runtime.rng import Rng
    state = _state_drawing(top)
    assert Rng(state=state).next64() == top
    for k in both():
        items = [1, 2, 3]
        assert k.shuffle(items, state) == pure.shuffle([1, 2, 3], state)


def test_kernels_mode_is_reported():
    assert KERNELS.startswith(("compiled", "pure"))


# ---- boards ----------------------------------------------------------------------------------
from regle.compiler.check.geometry import hexagon, lanes, square  # noqa: E402

GEOMETRIES = [square(3, 3), square(1, 6), square(6, 1), lanes(5, 5), lanes(1, 1), square(7, 5),
              hexagon(4), hexagon(5), hexagon(1)]


@st.composite
def boards(draw, values=st.integers(0, 5)):
    geo = draw(st.sampled_from(GEOMETRIES))
    kind = draw(st.sampled_from(["random", "empty", "full", "wild"]))
    if kind == "empty":
        cells = bytes(geo.cells)
    elif kind == "full":
        cells = bytes(draw(st.lists(st.integers(1, 4), min_size=geo.cells, max_size=geo.cells)))
    elif kind == "wild":
        cells = bytes([5] * geo.cells)
    else:
        cells = bytes(draw(st.lists(values, min_size=geo.cells, max_size=geo.cells)))
    return geo, cells


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=40), st.integers(0, 9))
def test_tagged_twins_agree(values, tag):
    for source in (values, dict.fromkeys(values), tuple(values)):
        assert all(k.tagged(tag, source) == [(tag, v) for v in source] for k in both())
        assert all(k.tagged(tag, source, True) == [(tag, v) for v in dict.fromkeys(source)] for k in both())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(-4, 6), st.integers(-2**70, 2**70)), max_size=20))
def test_distinct_pairs_fast_path_agrees_with_the_twin(values):
    results = [k.distinct_pairs(values) for k in both()]
    assert all(r == results[0] for r in results)
    assert len(set(results[0])) == len(results[0]) and all(a <= b for a, b in results[0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=12), st.lists(st.integers(0, 9), max_size=4),
       st.one_of(st.none(), st.integers(-2, 15)), st.one_of(st.none(), st.integers(0, 9)))
def test_deal_twins_agree(src, dst, count, wanted):
    where = None if wanted is None else (lambda v: v >= wanted)
    results = []
    for k in both():
        a, b = list(src), list(dst)
        k.deal(a, b, count, where)
        results.append((a, b))
        assert sorted(a + b) == sorted(src + dst) and b[:len(dst)] == dst  # nothing lost, dealt to the end
        moved = b[len(dst):]
        if where is None:
            assert moved == src[:len(src) if count is None else max(0, count)]
        else:
            assert all(where(v) for v in moved) and len(moved) <= (len(src) if count is None else max(0, count))
    assert all(r == results[0] for r in results)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=12), st.data())
def test_clear_cells_twins_agree(values, data):
    cells = data.draw(st.lists(st.integers(0, len(values) - 1), max_size=6))
    results = []
    for k in both():
        for grid in (bytearray(values), list(values)):
            zone = [9]
            k.clear_cells(grid, cells, zone)
            results.append((list(grid), zone))
            assert all(grid[c] == 0 for c in cells)
            assert sorted(zone[1:]) == sorted(values[c] - 1 for c in set(cells) if values[c])
            k.clear_cells(grid, range(len(values)), None)
            assert not any(grid)
    assert all(r == results[0] for r in results)


def test_tagged_product_twins_agree():
    for xs, ys in (([], [1]), ([1, 2], [3, 4, 5]), ({7: None, 8: None}, (1,))):
        assert all(k.tagged_product(4, xs, ys) == [(4, x, y) for x in xs for y in ys] for k in both())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-2, 9) | st.sampled_from([2**70, -2**70]), max_size=10),
       st.lists(st.integers(0, 11), max_size=8), st.data())
def test_holding_pairs_twins_agree(values, items, data):
    """Every item whose two values the zone holds, as two different elements; small numbers take
    the compiled fast path, big ones and lists as tables the general one."""
    firsts = tuple(data.draw(st.lists(st.integers(0, 9), min_size=12, max_size=12)))
    seconds = tuple(data.draw(st.lists(st.integers(0, 9) | st.just(2**70), min_size=12, max_size=12)))
    for tables in ((firsts, seconds), (list(firsts), list(seconds))):
        for tag in (None, 3):
            found = [k.holding_pairs(values, items, *tables, tag) for k in both()]
            assert all(f == found[0] for f in found)
            assert [m if tag is None else m[1] for m in found[0]] == [
                i for i in items if pure.contains_pair(values, firsts[i], seconds[i])]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 5) | st.sampled_from([True, False, 1.0, 2**40, "a"]), max_size=8),
       st.integers(-3, 5) | st.sampled_from([True, 2**40, 1.0, "a"]))
def test_remove_value_twins_agree(values, value):
    """remove_value is list.remove: the first equal element goes, else the same ValueError."""
    results = []
    for k in both():
        mine = list(values)
        try:
            k.remove_value(mine, value)
            results.append(mine)
        except ValueError as err:
            results.append(str(err))
    expected = list(values)
    try:
        expected.remove(value)
    except ValueError as err:
        expected = str(err)
    assert all(r == expected and type(r) is type(expected) for r in results)
    if isinstance(expected, list):
        assert all([type(x) for x in r] == [type(x) for x in expected] for r in results)


EDGES = [0, 1, -1, 2**30 - 1, 2**30, -(2**30) + 1, -(2**30), 2**31, 2**62 - 1, 2**62, -(2**62), 2**63, 2**64 + 1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(EDGES) | st.integers(-3, 3), max_size=12))
def test_numbers_read_in_c_at_the_digit_edges(values):
    """The kernels read an int of one digit in place and a bigger one through the C API: the
    same results on both sides of each edge (2**30, 2**62, 2**63)."""
    for k in both():
        assert k.distinct(values) == list(dict.fromkeys(values))
        assert k.distinct_pairs(values) == pure.distinct_pairs(values)
    if compiled is not None:
        pairs = compiled._probe_into("distinct_pairs_into", values, 100)
        small = all(-(2**62) < v < 2**62 for v in values)
        assert pairs == (pure.distinct_pairs(values) if small else None)


@pytest.mark.skipif(compiled is None, reason="not built")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 6) | st.just(2**70), max_size=70), st.integers(0, 40), st.data())
def test_kernels_into_c_arrays_agree_with_their_list_twins(values, room, data):
    """distinct_pairs_into and holding_into (native engines' packed keys) write what the list
    kernels return, or decline (big numbers, no room) so that the engine takes the list."""
    pairs = compiled._probe_into("distinct_pairs_into", values, room)
    expected = pure.distinct_pairs(values)
    small = all(abs(v) < 2**62 for v in values) and len(values) <= 64
    assert pairs == (expected if small and len(expected) <= room else None)
    items = data.draw(st.lists(st.integers(0, 11), max_size=8))
    firsts = tuple(data.draw(st.lists(st.integers(0, 9), min_size=12, max_size=12)))
    seconds = tuple(data.draw(st.lists(st.integers(0, 9), min_size=12, max_size=12)))
    held = compiled._probe_into("holding_into", values, items, firsts, seconds, room)
    expected = pure.holding_pairs(values, items, firsts, seconds)
    if small and len(values) <= 32:
        assert held == (expected if len(expected) <= room else None)
    else:
        assert held is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 6) | st.just(2**70), max_size=70) | st.lists(st.text(max_size=1), max_size=5))
def test_distinct_twins_agree(values):
    for k in both():
        assert k.distinct(values) == list(dict.fromkeys(values))
        assert k.distinct(tuple(values)) == list(dict.fromkeys(values))

@settings(max_examples=200, deadline=None)
@given(st.integers(-1, 70), st.integers(-5, 2000) | st.just(2**65), st.integers(-5, 2000))
def test_shared_moves_are_plain_tuples(tag, a, b):
    for k in both():
        assert k.pair(tag, a) == (tag, a) and type(k.pair(tag, a)) is tuple
        assert k.triple(tag, a, b) == (tag, a, b) and type(k.triple(tag, a, b)) is tuple
    if compiled is not None and 0 <= tag < 64 and 0 <= a < 1024 and 0 <= b < 1024:
        assert compiled.triple(tag, a, b) is compiled.triple(tag, a, b)  # one tuple per move


def test_ops_reexports_the_kernels_that_native_engines_call_in_c():
    """A native engine turns ops.NAME( into a C call of the kernel NAME when the .pxd declares
    one: then ops.NAME must be that kernel, not a helper of the same name."""
    from regle.compiler.write.emit import c_kernels
    from regle.runtime import K, ops
    assert {"line_move_keys", "deal", "place", "triple"} <= c_kernels()
    assert "position_key" in c_kernels()  # a return type of two words (cpdef long long ...)
    assert not {"long", "bint", "small_int"} & c_kernels()  # neither a type nor an inline helper
    from importlib.resources import files
    import re
    pxd = files("regle.runtime").joinpath("_kernels.pxd").read_text()
    c_only = set(re.findall(r"^cdef \w+\*? (\w+)\(", pxd, re.M))  # buffers for native engines
    assert c_only == {"line_keys_into", "keys_into", "cells_keys_into", "distinct_pairs_into", "holding_into",
                      "lines_written"}  # (the last reads a state's journal of written cells)
    assert c_only <= c_kernels()
    for name in c_kernels() - c_only:
        assert hasattr(pure, name), name  # every kernel Python can call has its pure twin
        if hasattr(ops, name):
            assert getattr(ops, name) is getattr(K, name), name
    if compiled is not None:
        assert c_kernels() <= set(compiled.__pyx_capi__)  # exported at C level

@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=8), st.lists(st.integers(0, 9), max_size=8), st.integers(0, 10))
def test_refill_twins_agree(dst, src, size):
    results = []
    for k in both():
        a, b = list(dst), list(src)
        k.refill(a, b, size)
        results.append((a, b))
        assert a[:len(dst)] == dst and len(a) == max(len(dst), min(size, len(dst) + len(src)))
        assert a + b == dst + src
    assert all(r == results[0] for r in results)


def test_a_group_can_need_several_cells_of_its_own_colour():
    """W W B: a blue group of 3 with one blue cell; with two blue needed it is no group."""
    cells = grid_of(["WWB"])
    for k in both():
        assert [c for c, _ in k.connected_groups(cells, lanes(3, 1).table(), 4, 5, 3, 1)] == [1]
        assert k.connected_groups(cells, lanes(3, 1).table(), 4, 5, 3, 2) == []


def both():
    return [k for k in (pure, compiled) if k is not None]


@settings(max_examples=400, deadline=None)
@given(boards(), st.integers(1, 4), st.integers(0, 3), st.sampled_from([0, 5]))
def test_connected_groups_twins_agree(board, min_size, min_real, wild):
    geo, cells = board
    results = [k.connected_groups(cells, geo.table(), geo.deg, wild, min_size, min_real) for k in both()]
    assert all(r == results[0] for r in results)
    for colour, group in results[0]:
        assert len(group) >= min_size and list(group) == sorted(set(group))
        assert all(cells[c] in (colour, wild) for c in group)
        if min_real:
            assert sum(cells[c] == colour for c in group) >= min_real and colour != wild
    zones = [k.largest_zone(cells, geo.table(), geo.deg, wild, min_size, min_real) for k in both()]
    assert all(z == zones[0] for z in zones)
    if results[0]:
        assert zones[0][0] == max(len(g) for _, g in results[0])


@settings(max_examples=300, deadline=None)
@given(boards(), st.data())
def test_group_at_twins_agree(board, data):
    geo, cells = board
    cell = data.draw(st.integers(0, geo.cells - 1))
    colour = data.draw(st.integers(1, 4))
    assert len({k.group_at(cells, geo.table(), geo.deg, cell, colour, 5) for k in both()}) == 1


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_gravity_twins_agree(nlanes, height, data):
    cells = bytes(data.draw(st.lists(st.integers(0, 4), min_size=nlanes * height, max_size=nlanes * height)))
    out = []
    for k in both():
        grid = bytearray(cells)
        moved = k.settle(grid, nlanes, height)
        lane = data.draw(st.integers(0, nlanes - 1)) if not out else out[0][2]
        row = k.drop(grid, nlanes, height, lane, 3)
        out.append((bytes(grid), moved, lane, row, k.lane_count(grid, nlanes, height, lane)))
    assert all(o == out[0] for o in out)
    grid = out[0][0]
    for lane in range(nlanes):
        column = grid[lane * height:(lane + 1) * height]
        filled = [v for v in column if v]
        assert list(column[:len(filled)]) == filled  # settled: no holes under a marble
        assert sorted(filled) == sorted([v for v in cells[lane * height:(lane + 1) * height] if v]
                                        + ([3] if lane == out[0][2] and out[0][3] >= 0 else []))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_placements_twins_agree(nlanes, height, data):
    cells = bytearray(data.draw(st.lists(st.integers(0, 3), min_size=nlanes * height, max_size=nlanes * height)))
    pure.settle(cells, nlanes, height)
    rows, cols = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    pattern = bytes(data.draw(st.lists(st.sampled_from([0, 1, 2, 255]), min_size=rows * cols, max_size=rows * cols)))
    results = [k.placements(bytes(cells), nlanes, height, rows, cols, pattern) for k in both()]
    assert all(r == results[0] for r in results)
    grids = [r[2] for r in results[0]]
    assert len(grids) == len(set(grids))  # one choice per distinct result
    dropped = sorted(v for v in pattern if v not in (0, 255))
    for turns, offset, grid, overflow in results[0]:
        assert sorted([v for v in grid if v] + list(overflow)) == sorted([v for v in cells if v] + dropped)



@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_placing_from_a_supply_twins_agree(nlanes, height, data):
    """placement_keys/place: missing elements become ghosts, the played key drops the same
    result as placements says, takes the pattern's elements and overflows alike."""
    cells = bytearray(data.draw(st.lists(st.integers(0, 3), min_size=nlanes * height, max_size=nlanes * height)))
    pure.settle(cells, nlanes, height)
    rows, cols = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    pattern = (rows, cols, bytes(data.draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=rows * cols,
                                                      max_size=rows * cols))))
    supply = data.draw(st.none() | st.lists(st.integers(0, 2), max_size=6))
    keys = [k.placement_keys(bytes(cells), nlanes, height, pattern, supply) for k in both()]
    assert all(x == keys[0] for x in keys)
    if not keys[0]:
        return  # the pattern fits in no turn: nothing to place
    key = data.draw(st.sampled_from(keys[0]))
    after = []
    for k in both():
        grid, taking, over = bytearray(cells), None if supply is None else supply[:], []
        k.place(grid, nlanes, height, key, pattern, taking, over)
        after.append((bytes(grid), taking, over))
        with pytest.raises(ValueError, match="not possible here"):
            k.place(bytearray(cells), nlanes, height, 63, pattern, None, [])
    assert all(a == after[0] for a in after)
    grid, taking, over = after[0]
    placed = sum(1 for v in grid if v) - sum(1 for v in cells if v) + len(over)
    assert placed == (sum(1 for v in pattern[2] if v) if supply is None else len(supply) - len(taking))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5), st.integers(1, 10), st.data())
def test_drop_into_and_group_keys_twins_agree(nlanes, height, data):
    """Lanes of up to ten cells, with holes under pieces: the same landing, grid, supply and
    overflow from both twins."""
    cells = bytes(data.draw(st.lists(st.integers(0, 3), min_size=nlanes * height, max_size=nlanes * height)))
    lane, value = data.draw(st.integers(0, nlanes - 1)), data.draw(st.integers(0, 2))
    taking = data.draw(st.none() | st.lists(st.integers(0, 2), max_size=4))
    out = []
    for k in both():
        grid, supply, over = bytearray(cells), None if taking is None else taking[:], []
        landed = k.drop_into(grid, nlanes, height, lane, value, supply, over)
        changed = [c for c in range(len(cells)) if grid[c] != cells[c]]
        assert changed == ([] if landed < 0 else [landed])  # the cell it says it landed in, alone
        assert landed < 0 or (grid[landed] == value + 1 and landed // height == lane)
        out.append((landed, bytes(grid), supply, over))
        with pytest.raises(ValueError, match="no lane"):
            k.drop_into(grid, nlanes, height, nlanes, value, None, over)
    assert all(o == out[0] for o in out)
    adj = square(nlanes, height).table() if nlanes * height > 1 else None
    if adj is not None:
        keys = [k.group_keys(k.connected_groups(cells, adj, 4, 0, 1, 1), 0) for k in both()]
        assert all(x == keys[0] for x in keys)
        for key in keys[0]:
            found = [k.group_cells(cells, adj, 4, key) for k in both()]
            assert all(f == found[0] for f in found) and len(found[0]) == key % 4096
            decoded = {(k.group_colour(key), k.group_anchor(key), k.group_size(key)) for k in both()}
            assert decoded == {(cells[found[0][0]] - 1, found[0][0], len(found[0]))}


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([hexagon(4), hexagon(5), hexagon(2), square(5, 5), square(1, 4)]), st.data())
def test_line_moves_and_apply_twins_agree(geo, data):
    cells = bytes(data.draw(st.lists(st.integers(0, 2), min_size=geo.cells, max_size=geo.cells)))
    me = data.draw(st.integers(1, 2))
    limit = data.draw(st.sampled_from([0, 0, 3]))
    step = geo.table()
    moves = [k.line_moves(cells, step, geo.deg, me, limit) for k in both()]
    assert all(m == moves[0] for m in moves)
    keys = [k.line_move_keys(cells, step, geo.deg, me, limit) for k in both()]
    assert all(x == keys[0] for x in keys)
    assert keys[0] == [((h * 8 + d) * 64 + k_) * 64 + m for h, d, k_, m in moves[0]]
    tagged = [k.line_move_keys(cells, step, geo.deg, me, limit, 3) for k in both()]
    assert all(t == [(3, key) for key in keys[0]] for t in tagged)
    for head, d, k_, m in moves[0][:12]:
        assert m < k_ and (limit == 0 or k_ <= limit)
        for k in both():  # the packed key moves the same line
            a, b = bytearray(cells), bytearray(cells)
            key = ((head * 8 + d) * 64 + k_) * 64 + m
            assert k.apply_line_key(a, step, geo.deg, key) == k.apply_line(b, step, geo.deg, head, d, k_) and a == b
        after = []
        for k in both():
            grid = bytearray(cells)
            ejected = k.apply_line(grid, step, geo.deg, head, d, k_)
            after.append((bytes(grid), ejected))
        assert all(a == after[0] for a in after)
        grid, (value, last, _) = after[0]
        assert grid.count(me) == cells.count(me)  # never one's own piece off the board
        other = 3 - me
        assert grid.count(other) == cells.count(other) - (1 if value else 0)


# ---- hand-made cases for rules the kernels decide ---------------------------------------------
def grid_of(rows: list[str], wild="W") -> bytes:
    """Lanes from text rows (top row first, one character per lane)."""
    height, width = len(rows), len(rows[0])
    cells = bytearray(width * height)
    code = {".": 0, "B": 1, "Y": 2, "R": 3, "P": 4, wild: 5}
    for i, row in enumerate(rows):
        for lane, ch in enumerate(row):
            cells[lane * height + (height - 1 - i)] = code[ch]
    return bytes(cells)


@pytest.mark.parametrize("k", IMPLS)
def test_diagonals_never_connect(k):
    geo = lanes(3, 3)
    cells = grid_of(["B..", ".B.", "..B"])
    assert k.connected_groups(cells, geo.table(), 4, 5, 2, 1) == []


@pytest.mark.parametrize("k", IMPLS)
def test_a_white_joker_joins_two_colours(k):
    geo = lanes(5, 1)
    cells = grid_of(["BBWYY"])
    groups = k.connected_groups(cells, geo.table(), 4, 5, 3, 1)
    assert [(c, len(g)) for c, g in groups] == [(1, 3), (2, 3)]
    assert all(2 in g for _, g in groups)  # the white (lane 2) is in both
    assert k.connected_groups(grid_of(["WWW"]), lanes(3, 1).table(), 4, 5, 3, 1) == []


@pytest.mark.parametrize("k", IMPLS)
def test_overflow_of_a_full_lane(k):
    cells = bytearray(grid_of(["B", "Y", "R"]))
    assert k.drop(cells, 1, 3, 0, 4) == -1 and bytes(cells) == grid_of(["B", "Y", "R"])
    results = k.placements(grid_of(["..", "B.", "Y."]), 2, 3, 1, 2, bytes([3, 4]))
    (turns, offset, grid, overflow) = results[0]
    assert grid == grid_of(["R.", "B.", "YP"]) and overflow == ()
    full = k.placements(grid_of(["B.", "Y.", "R."]), 2, 3, 1, 2, bytes([3, 4]))
    assert full[0][3] == (3,)


@pytest.mark.parametrize("k", IMPLS)
def test_pattern_keeps_shape_and_spacing(k):
    # B.B on 5 empty lanes: 3 offsets flat, plus vertical turns (both Bs in one lane: 5 lanes)
    results = k.placements(bytes(25), 5, 5, 1, 3, bytes([1, 0, 1]))
    flat = [r for r in results if r[0] in (0, 2)]
    assert [(r[1]) for r in flat] == [0, 1, 2]
    for _, offset, grid, _ in flat:
        assert grid[offset * 5] == 1 and grid[(offset + 1) * 5] == 0 and grid[(offset + 2) * 5] == 1
    assert len(results) == 3 + 5


def hex_cells(geo, pieces: dict) -> bytearray:
    cells = bytearray(geo.cells)
    index = {c: i for i, c in enumerate(geo.coords)}
    for (q, r), v in pieces.items():
        cells[index[(q, r)]] = v
    return cells


@pytest.mark.parametrize("k", IMPLS)
def test_push_blocked_by_a_sandwiched_own_piece(k):
    geo = hexagon(4)
    index = {c: i for i, c in enumerate(geo.coords)}
    # own 1 1 1 then opponent 2 then own 1, along E
    cells = hex_cells(geo, {(-3, 0): 1, (-2, 0): 1, (-1, 0): 1, (0, 0): 2, (1, 0): 1})
    moves = k.line_moves(bytes(cells), geo.table(), 6, 1, 0)
    assert not [m for m in moves if m[0] == index[(-1, 0)] and m[1] == 0]


@pytest.mark.parametrize("k", IMPLS)
def test_equal_strength_cannot_push(k):
    geo = hexagon(4)
    index = {c: i for i, c in enumerate(geo.coords)}
    cells = hex_cells(geo, {(-2, 0): 1, (-1, 0): 1, (0, 0): 2, (1, 0): 2})
    east = [m for m in k.line_moves(bytes(cells), geo.table(), 6, 1, 0) if m[0] == index[(-1, 0)] and m[1] == 0]
    assert east == []
    cells[index[(-3, 0)]] = 1
    east = [m for m in k.line_moves(bytes(cells), geo.table(), 6, 1, 0) if m[0] == index[(-1, 0)] and m[1] == 0]
    assert east == [(index[(-1, 0)], 0, 3, 2)]


@pytest.mark.parametrize("k", IMPLS)
def test_push_off_the_board_through_a_corner_along_a_long_diagonal(k):
    geo = hexagon(4)
    index = {c: i for i, c in enumerate(geo.coords)}
    ne = 2  # direction NE: (+1, -1)
    cells = hex_cells(geo, {(0, 0): 1, (1, -1): 1, (2, -2): 2, (3, -3): 2} | {(-1, 1): 1})
    moves = [m for m in k.line_moves(bytes(cells), geo.table(), 6, 1, 0) if m[1] == ne]
    assert (index[(1, -1)], ne, 3, 2) in moves
    ejected = k.apply_line(cells, geo.table(), 6, index[(1, -1)], ne, 3)
    assert ejected == (2, index[(3, -3)], ne)
    assert geo.exits[index[(3, -3)] * 6 + ne] == (3, 4)  # crosses the north and north-east sides
    assert cells[index[(3, -3)]] == 2 and cells[index[(2, -2)]] == 1 and cells[index[(-1, 1)]] == 0


@pytest.mark.parametrize("k", IMPLS)
def test_no_own_piece_leaves_the_board(k):
    geo = hexagon(4)
    index = {c: i for i, c in enumerate(geo.coords)}
    cells = hex_cells(geo, {(3, -3): 1, (2, -2): 1})
    moves = k.line_moves(bytes(cells), geo.table(), 6, 1, 0)
    assert not [m for m in moves if m[0] == index[(3, -3)] and m[1] == 2]


@pytest.mark.parametrize("game", ["explobilles", "cibles", "pixies"])
def test_engines_play_the_same_games_on_both_kernel_paths(game, tmp_path):
    """Whole seeded games, once on the compiled kernels and once on the twins: same states."""
    import os
    import subprocess
    import sys

    from conftest import GAMES
    script = ("import hashlib, json, regle\n"
              "from regle.runtime.agents import RandomAgent\n"
              f"g = regle.load({str(GAMES / (game + '.rules'))!r})\n"
              "h = hashlib.sha256()\n"
              "for seed in range(6):\n"
              "    s = g.new_game(seed=seed); a = RandomAgent(seed)\n"
              "    while not s.is_over:\n"
              "        s.play(a.choose(s)); h.update(json.dumps(s.to_json(), sort_keys=True).encode())\n"
              "print(regle.KERNELS.split()[0], h.hexdigest())\n")
    outputs = []
    for pure_mode in ("0", "1"):
        env = dict(os.environ, REGLE_PURE=pure_mode)
        r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        outputs.append(r.stdout.split())
    assert outputs[1][0] == "pure"
    assert outputs[0][1] == outputs[1][1]


# ---- board queries: lines, outflanking, connection ------------------------------------------------
def _geometries():
    from regle.compiler.check import geometry
    return st.sampled_from([geometry.square(3, 3, True), geometry.square(5, 4), geometry.square(6, 6, True),
                            geometry.lanes(4, 3, True), geometry.rhombus(5, 5), geometry.hexagon(3),
                            geometry.mancala(3), geometry.square(13, 11, True), geometry.rhombus(11, 11)])


@st.composite
def boards_of(draw):
    geo = draw(_geometries())
    cells = bytearray(draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=geo.cells, max_size=geo.cells)))
    return geo, cells


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(boards_of(), st.integers(1, 2), st.integers(1, 5), st.data())
def test_board_query_twins_agree(board, value, n, data):
    geo, cells = board
    adj = geo.table()
    assert compiled.in_a_row(cells, adj, geo.deg, value, n) == pure.in_a_row(cells, adj, geo.deg, value, n)
    cell = data.draw(st.integers(0, geo.cells - 1))
    d = data.draw(st.integers(-1, geo.deg - 1))
    assert compiled.flanked(cells, adj, geo.deg, cell, value, d) == pure.flanked(cells, adj, geo.deg, cell, value, d)
    assert (compiled.flanked_count(cells, adj, geo.deg, cell, value, d)
            == pure.flanked_count(cells, adj, geo.deg, cell, value, d) == len(pure.flanked(cells, adj, geo.deg, cell, value, d)))
    starts = data.draw(st.lists(st.integers(0, geo.cells - 1), max_size=6))
    goals = data.draw(st.lists(st.integers(0, geo.cells - 1), max_size=6))
    assert compiled.connected(cells, adj, geo.deg, value, starts, goals) == \
        pure.connected(cells, adj, geo.deg, value, starts, goals)
    assert compiled.empty_cells(cells) == pure.empty_cells(cells)
    assert compiled.filled_cells(cells) == pure.filled_cells(cells)
    for v in (0, value, 300):
        assert compiled.count_byte(cells, v) == pure.count_byte(cells, v) == sum(c == v for c in cells)


@pytest.mark.parametrize("k", IMPLS)
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_lines_looked_for_since_the_last_check_are_the_lines_there_are(k, data):
    """in_a_row_since, asked again and again as cells change (a memo carried along, as an end
    condition does between turns), answers as in_a_row does on the whole board."""
    geo = data.draw(_geometries())
    adj = geo.table()
    cells = bytearray(geo.cells)
    memo = bytearray((geo.cells + 1) * data.draw(st.integers(1, 3)))  # a memo is for one length
    n = data.draw(st.integers(1, 4))
    for _ in range(data.draw(st.integers(1, 12))):
        # some cells change (filled, emptied, taken over): a few, as a move changes them, or
        # many, spread over more words of eight than the kernel notes one by one
        for _ in range(data.draw(st.sampled_from([0, 1, 2, 4, 40]))):
            cells[data.draw(st.integers(0, geo.cells - 1))] = data.draw(st.sampled_from([0, 1, 2, 3]))
        value = data.draw(st.integers(0, 3))
        found = k.in_a_row_since(cells, memo, adj, geo.deg, value, n)
        assert found == pure.in_a_row(cells, adj, geo.deg, value, n)
        at = (value - 1) * (geo.cells + 1)
        if not found and 0 < value and at + geo.cells < len(memo):  # the board remembered is the board now
            assert memo[at] == 1 and memo[at + 1:at + 1 + geo.cells] == cells


@pytest.mark.parametrize("k", IMPLS)
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_lines_through_the_cells_written_are_the_new_lines(k, data):
    """The journal's search (a native engine's end condition after a move: lines_written):
    where the board had no line of a value and only the cells noted changed, it answers as
    in_a_row does on the whole board, as the pure twin does; a cell off the board noted before
    a line is found says it cannot tell."""
    geo = data.draw(_geometries())
    adj = geo.table()
    n, value = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 3))
    before = bytearray(data.draw(st.lists(st.sampled_from([0, 0, 1, 2, 3]), min_size=geo.cells, max_size=geo.cells)))
    written = data.draw(st.lists(st.integers(-1, geo.cells), max_size=16))
    after = bytearray(before)
    for c in written:
        if 0 <= c < geo.cells:
            after[c] = data.draw(st.sampled_from([0, 1, 2, 3]))
    found = k.lines_written_of(after, adj, geo.deg, value, n, written)
    assert found == pure.lines_written_of(after, adj, geo.deg, value, n, written)
    on_board = all(0 <= c < geo.cells for c in written)
    assert found in ((0, 1) if on_board else (1, 2))
    if on_board and not pure.in_a_row(before, adj, geo.deg, value, n):
        assert found == pure.in_a_row(after, adj, geo.deg, value, n)


@pytest.mark.parametrize("k", IMPLS)
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_chains_followed_since_the_last_check_are_the_chains_there_are(k, data):
    """connected_since, asked again and again as cells change (filled, emptied, taken over, as
    a swap or a capture would), with one memo and the same starts and goals, answers as
    connected does on the whole board; a second memo asked only now and then agrees too."""
    geo = data.draw(_geometries())
    adj = geo.table()
    cells = bytearray(geo.cells)
    width = 2 * geo.cells + 1
    memo, seldom = bytearray(width * 3), bytearray(width * 3)
    starts = data.draw(st.lists(st.integers(0, geo.cells - 1), max_size=6))
    goals = data.draw(st.lists(st.integers(0, geo.cells - 1), max_size=6))
    for _ in range(data.draw(st.integers(1, 16))):
        for _ in range(data.draw(st.sampled_from([0, 1, 2, 4, 40]))):
            cells[data.draw(st.integers(0, geo.cells - 1))] = data.draw(st.sampled_from([0, 1, 1, 2, 3]))
        value = data.draw(st.integers(0, 4))  # 4: past the memo's values, so answered by a scan
        expected = pure.connected(cells, adj, geo.deg, value, starts, goals)
        assert k.connected_since(cells, memo, adj, geo.deg, value, starts, goals) == expected
        if 1 <= value <= 3:  # the board remembered is the board now (the cells that changed, or all)
            at = (value - 1) * width
            assert memo[at + 1:at + 1 + geo.cells] == cells
        if data.draw(st.booleans()):
            assert k.connected_since(cells, seldom, adj, geo.deg, value, starts, goals) == expected


@pytest.mark.parametrize("k", IMPLS)
def test_chains_followed_since_flood_only_from_what_changed(k):
    """After the first call, connected_since floods only from the cells that gained the value:
    with the memo's reached marks wiped (its board kept), a stone that completes the chain is
    not seen to, which shows the whole board is not searched again."""
    from regle.compiler.check import geometry
    geo = geometry.square(3, 3, False)
    adj = geo.table()
    starts, goals = [0, 1, 2], [6, 7, 8]
    cells = bytearray([1, 0, 0,
                       1, 0, 0,
                       0, 0, 0])
    memo = bytearray(2 * 9 + 1)
    assert not k.connected_since(cells, memo, adj, geo.deg, 1, starts, goals)
    cells[6] = 1
    assert k.connected_since(cells, memo, adj, geo.deg, 1, starts, goals)
    cells[6] = 0  # a reached cell lost: the whole board again
    assert not k.connected_since(cells, memo, adj, geo.deg, 1, starts, goals)
    memo[1 + 9:] = bytes(9)  # the reached marks forgotten
    cells[6] = 1
    assert not k.connected_since(cells, memo, adj, geo.deg, 1, starts, goals)
    assert k.connected(cells, adj, geo.deg, 1, starts, goals)


@pytest.mark.parametrize("k", IMPLS)
def test_a_lane_count_of_no_such_lane_is_an_error(k):
    cells = bytearray([1, 1, 0, 1, 0, 0])  # two lanes of three
    assert [k.lane_count(cells, 2, 3, lane) for lane in (0, 1)] == [2, 1]
    for lane in (-1, 2, 40):
        with pytest.raises(ValueError, match=f"no lane {lane}"):
            k.lane_count(cells, 2, 3, lane)


@pytest.mark.parametrize("k", IMPLS)
def test_board_queries_hand_made(k):
    from regle.compiler.check import geometry
    geo = geometry.square(3, 3, True)
    adj = geo.table()
    diagonal = bytearray([1, 0, 0, 0, 1, 0, 0, 0, 1])  # a1 b2 c3
    assert k.in_a_row(diagonal, adj, 8, 1, 3) and not k.in_a_row(diagonal, adj, 8, 1, 4)
    assert not k.in_a_row(bytearray([1, 1, 0, 0, 0, 0, 0, 0, 1]), adj, 8, 1, 3)  # no wrapping at the edge
    row = bytearray([0, 2, 1, 0, 0, 0, 0, 0, 0])  # a1 empty, b1 theirs, c1 mine
    assert k.flanked(row, adj, 8, 0, 1, -1) == [1]
    assert k.flanked(row, adj, 8, 0, 1, 2) == []  # north: nothing to outflank
    assert k.flanked(bytearray([0, 2, 2, 0, 0, 0, 0, 0, 0]), adj, 8, 0, 1, -1) == []  # not ended by mine
    column = bytearray([1, 0, 0, 1, 0, 0, 1, 0, 0])
    assert k.connected(column, adj, 8, 1, [0, 1, 2], [6, 7, 8])
    assert not k.connected(column, adj, 8, 2, [0, 1, 2], [6, 7, 8])
    assert k.empty_cells(column) == [1, 2, 4, 5, 7, 8] and k.filled_cells(column) == [0, 3, 6]


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(st.lists(st.integers(-3, 12), max_size=30), st.integers(-2, 3), st.integers(0, 9),
       st.lists(st.integers(0, 6), max_size=40), st.integers(0, 6), st.booleans())
def test_observation_kernel_twins_agree(values, lo, size, cells, kinds, shown):
    a, b = [7], [7]
    compiled.observe_counts(a, values, lo, size)
    pure.observe_counts(b, values, lo, size)
    assert a == b and len(a) == 1 + size + 1
    a, b = [], []
    compiled.observe_planes(a, bytearray(min(c, kinds) for c in cells), kinds, shown)
    pure.observe_planes(b, bytearray(min(c, kinds) for c in cells), kinds, shown)
    assert a == b and len(a) == (kinds + 1) * len(cells)


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([20, 40]))
def test_connected_twins_agree_on_big_boards(seed, width):
    """Boards of 1,024 cells and more take the allocated scratch of connected(), smaller ones
    its stack arrays: the same answers."""
    import random
    rng = random.Random(seed)
    geo = square(width, width)
    cells = bytearray(rng.choice((0, 1, 1, 2)) for _ in range(geo.cells))
    starts, goals = list(range(width)), list(range(geo.cells - width, geo.cells))
    for value in (1, 2):
        assert compiled.connected(cells, geo.table(), geo.deg, value, starts, goals) == \
            pure.connected(cells, geo.table(), geo.deg, value, starts, goals)


def test_holding_pairs_of_many_items_agree():
    """More than 64 items take holding_pairs' allocated scratch: the same items."""
    firsts = tuple(i % 7 for i in range(100))
    seconds = tuple((i * 3) % 5 for i in range(100))
    items = list(range(100)) * 2
    for tag in (None, 4):
        results = [k.holding_pairs([0, 1, 2, 3, 3, 4], items, firsts, seconds, tag) for k in both()]
        assert all(r == results[0] for r in results) and len(results[0]) > 64


class _Inner:
    __slots__ = ("state",)


class _Slotted:
    """A state's shape for keep_slots: numbers, a zone, a grid, a place per seat, a generator."""
    __slots__ = ("n", "legal", "zone", "grid", "per_seat", "rng")


class _Unslotted:
    """A state whose fields are in a dict: no slot to read in place."""


def _slotted(data, cls=_Slotted) -> object:
    objects = [object() for _ in range(3)]
    item = st.one_of(st.integers(-3, 300), st.sampled_from(objects))
    s = cls()
    s.n = data.draw(st.one_of(st.integers(), st.none()))
    s.legal = data.draw(st.lists(st.tuples(st.integers(0, 3)), max_size=3))
    s.zone = data.draw(st.lists(item, max_size=6))
    s.grid = bytearray(data.draw(st.binary(max_size=20)))
    s.per_seat = [data.draw(st.one_of(st.lists(item, max_size=4), st.binary(max_size=12).map(bytearray)))
                  for _ in range(data.draw(st.integers(0, 3)))]
    s.rng = _Inner()
    s.rng.state = data.draw(st.integers(0, 2 ** 64 - 1))
    return s


_NAMES = dict(same=("n", "legal"), lists=("zone", "grid"), parts=("per_seat",), inner=(("rng", "state"),))


@pytest.mark.parametrize("k", IMPLS)
@pytest.mark.parametrize("cls", [_Slotted, _Unslotted])
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_state_kept_slot_by_slot_is_the_state_in_its_own_lists(k, cls, data):
    """keep_slots (a Python engine's play() rollback copy) makes one state what another is:
    equal in every field, each list and bytearray overwritten in place (the same containers),
    its items the very objects of the source, the source left as it was; in C for slotted
    classes, the Python way for a class without slots or a plan of the other twin."""
    into, source = _slotted(data, cls), _slotted(data, cls)
    if len(into.per_seat) != len(source.per_seat) or any(type(a) is not type(b) for a, b in
                                                         zip(into.per_seat, source.per_seat)):
        into.per_seat = [p[:] for p in source.per_seat]  # (a state's parts are alike in number and kind)
    plan = data.draw(st.sampled_from([m.slot_plan(cls, **_NAMES) for m in (k, pure)]))
    places = [into.zone, into.grid, into.rng] + list(into.per_seat)
    was = (source.n, list(source.zone), bytes(source.grid), [p[:] for p in source.per_seat], source.rng.state)
    k.keep_slots(into, source, plan)
    assert (source.n, source.zone, source.grid, source.per_seat, source.rng.state) == was
    assert [into.zone, into.grid, into.rng] + list(into.per_seat) == places
    assert all(a is b for a, b in zip([into.zone, into.grid, into.rng] + list(into.per_seat), places))
    assert into.n is source.n and into.legal is source.legal and into.rng.state == source.rng.state
    assert into.zone == source.zone and all(a is b for a, b in zip(into.zone, source.zone))
    assert into.grid == source.grid and into.per_seat == source.per_seat


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_native_engine_s_inline_flank_count_is_the_kernel_s(data):
    """A native move generator counts ``count(flanked(G, c, v))`` inline on the grid's bytes and
    its table (``flanked_count`` of _support.pxd): the kernel's count on every geometry, cell,
    value and direction; a cell or direction off the board goes to the kernel, which refuses it."""
    try:
        from regle.runtime import _support
    except ImportError:
        pytest.skip("the compiled runtime is not built")
    geo = data.draw(_geometries())
    adj = geo.table()
    cells = bytearray(data.draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=geo.cells, max_size=geo.cells)))
    cell = data.draw(st.integers(-1, geo.cells))
    value = data.draw(st.integers(1, 3))
    d = data.draw(st.integers(-1, geo.deg))
    if not (0 <= cell < geo.cells and d < geo.deg):
        with pytest.raises(IndexError):  # (the compiled kernel's refusal)
            _support.flanked_count_of(cells, adj, geo.deg, cell, value, d)
        return
    assert _support.flanked_count_of(cells, adj, geo.deg, cell, value, d) == \
        pure.flanked_count(cells, adj, geo.deg, cell, value, d) == len(pure.flanked(cells, adj, geo.deg, cell, value, d))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 9), st.data())
def test_a_native_engine_s_inline_lane_count_is_the_kernel_s(lanes, height, data):
    """A native engine counts ``lane_count(G, l)`` inline (``lane_count`` of _support.pxd, the C
    library's search for the first empty cell from the foot): the kernel's count, holes above
    included."""
    try:
        from regle.runtime import _support
    except ImportError:
        pytest.skip("the compiled runtime is not built")
    cells = bytearray(data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=lanes * height,
                                         max_size=lanes * height)))
    for lane in range(lanes):
        assert _support.lane_count_of(cells, lanes, height, lane) == pure.lane_count(cells, lanes, height, lane)
        # lane_count(G, l) < height, as a generator's test of room in a lane reads it (top cell first)
        assert _support.lane_open_of(cells, lanes, height, lane) == (pure.lane_count(cells, lanes, height, lane) < height)
    with pytest.raises(ValueError):  # a lane that is not one: the kernel says so
        _support.lane_open_of(cells, lanes, height, lanes)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0, 0, 1, 2, 3, 127, 128, 129, 255]), max_size=300), st.booleans(),
       st.integers(0, 5), st.integers(0, 70))
def test_a_native_engine_lists_empty_or_filled_cells_as_the_kernel_does(grid, filled, tag, before):
    """``push_cells`` (empty_cells / filled_cells as keys, eight cells tested at once by their
    bytes' top bits): the cells of the kernel's list, in order, after the keys already there,
    on boards of every length (a word of eight and the cells left over), any byte a cell holds."""
    try:
        from regle.runtime import _support
    except ImportError:
        pytest.skip("the compiled runtime is not built")
    cells = bytearray(grid)
    want = pure.filled_cells(cells) if filled else pure.empty_cells(cells)
    assert _support.cells_pushed(cells, filled, tag, before) == want
    for seconds in ([0], [3, -1, 7], list(range(8))):  # a cell with each second (a twist, a kind)
        assert _support.cells_pushed(cells, filled, tag, before, seconds) == [(c, y) for c in want for y in seconds]


# ---- rings on boards of hexagons (kernels.ring and its compiled twin) -------------------------------------
from regle.compiler.check.geometry import rhombus, triangle  # noqa: E402

HEX_BOARDS = [hexagon(3), hexagon(4), rhombus(5, 4), triangle(6)]


def _turns(geo) -> tuple:
    return tuple(geo.dirs.index(d) for d in ("e", "ne", "nw", "w", "sw", "se"))


@pytest.mark.skipif(compiled is None, reason="not built")
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(HEX_BOARDS), st.data())
def test_ring_twins_agree(geo, data):
    cells = bytes(data.draw(st.lists(st.sampled_from([0, 1, 1, 1, 2]), min_size=geo.cells, max_size=geo.cells)))
    cell = data.draw(st.integers(0, geo.cells - 1))
    table = geo.table()
    assert compiled.ring(cells, table, geo.deg, _turns(geo), cell) == pure.ring(cells, table, geo.deg, _turns(geo), cell)


def _board(geo, stones: set) -> bytes:
    names = geo.cell_names()
    return bytes(1 if names[c] in stones else 0 for c in range(geo.cells))


@pytest.mark.parametrize("k", IMPLS)
def test_a_ring_surrounds_a_cell_and_a_sharp_loop_is_none(k):
    ring = k.ring
    geo = hexagon(3)  # rows a (south) to e, the middle row c has five cells
    names = geo.cell_names()
    at = {n: i for i, n in enumerate(names)}
    centre = at["c3"]
    around = [names[j] for j in geo.adj[centre * 6:(centre + 1) * 6]]
    table, turns = geo.table(), _turns(geo)
    six = _board(geo, set(around))
    assert all(ring(six, table, 6, turns, at[n]) for n in around)  # closed by any of its stones
    assert not ring(six, table, 6, turns, centre)  # an empty cell closes nothing
    five = _board(geo, set(around[:-1]))
    assert not any(ring(five, table, 6, turns, at[n]) for n in around[:-1])
    blob = _board(geo, set(around) | {"c3"})  # the six around a stone of the same player: still a ring
    assert ring(blob, table, 6, turns, at[around[0]])
    corner = at["a1"]  # three stones that touch each other turn sharply: no ring
    triangle_ = {names[corner]} | {names[j] for j in geo.adj[corner * 6:(corner + 1) * 6] if j >= 0}
    assert not any(ring(_board(geo, triangle_), table, 6, turns, at[n]) for n in triangle_)


# ---- sides_touched: the sides some cells lie along, read from the table of sides ---------------
@pytest.mark.parametrize("k", IMPLS)
def test_sides_touched_hand_made(k):
    from regle.runtime import ops
    from regle.compiler.check.geometry import triangle as tri
    geo = tri(5)
    table = ops.on_sides(geo.side_cells(), geo.cells)
    corner = next(c for c in range(geo.cells) if sum(c in side for side in geo.side_cells()) == 2)
    assert k.sides_touched([], table, len(geo.sides), geo.cells) == []
    assert len(k.sides_touched([corner], table, len(geo.sides), geo.cells)) == 2
    assert k.sides_touched([-1, geo.cells], table, len(geo.sides), geo.cells) == []  # off the board: none
    assert k.sides_touched(range(geo.cells), table, len(geo.sides), geo.cells) == [0, 1, 2]


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300, deadline=None)
@given(st.integers(2, 9), st.data())
def test_sides_touched_twins_agree_with_the_lists_of_sides(size, data):
    from regle.runtime import ops
    from regle.compiler.check.geometry import hexagon as hexa
    geo = hexa(size)
    table = ops.on_sides(geo.side_cells(), geo.cells)
    cells = data.draw(st.lists(st.integers(-2, geo.cells + 1), max_size=30))
    want = [i for i, side in enumerate(geo.side_cells()) if set(cells) & set(side)]
    assert pure.sides_touched(cells, table, len(geo.sides), geo.cells) == want
    assert compiled.sides_touched(cells, table, len(geo.sides), geo.cells) == want


# ---- lines as bits: in_a_row on a board of at most 64 cells ----------------------------------------
def _line_boards():
    from regle.compiler.check import geometry
    return st.sampled_from([geometry.square(3, 3, True), geometry.square(5, 4), geometry.square(6, 6, True),
                            geometry.square(8, 8, True), geometry.square(8, 8, "only"), geometry.lanes(7, 6, True),
                            geometry.lanes(4, 3), geometry.rhombus(5, 5), geometry.square(1, 7, True)])


def test_line_bits_only_for_boards_whose_steps_are_the_same_everywhere():
    """A square, lanes, a rhombus: each line's step and the cells that have a neighbour that
    way (found when generating: compiler/check/geometry.py); a hexagon (rows of different lengths), a ring of houses, a star of points or a board
    of more than 64 cells: none (in_a_row walks their cells)."""
    from regle.compiler.check import geometry
    from regle.runtime import ops
    three = geometry.square(3, 3, True)
    bits = ops.line_bits(three.line_steps())
    lines = [(int.from_bytes(bits[i:i + 8], "little", signed=True), int.from_bytes(bits[i + 8:i + 16], "little"))
             for i in range(0, len(bits), 16)]
    assert len(lines) == 4 and all(step != 0 for step, _ in lines)
    east = [(step, mask) for step, mask in lines if step == 1]
    assert east == [(1, 0b011011011)]  # every cell but the east column has a neighbour east
    for geo in (geometry.hexagon(3), geometry.mancala(3), geometry.star(6), geometry.square(9, 8, True)):
        assert geo.line_steps() == []


@pytest.mark.parametrize("k", IMPLS)
@settings(max_examples=300, deadline=None)
@given(_line_boards(), st.data())
def test_lines_as_bits_are_the_lines_there_are(k, geo, data):
    from regle.runtime import ops
    adj = geo.table()
    bits = ops.line_bits(geo.line_steps())
    assert bits  # each of these boards has them
    cells = bytearray(data.draw(st.lists(st.sampled_from([0, 1, 1, 2, 3]), min_size=geo.cells, max_size=geo.cells)))
    value = data.draw(st.sampled_from([0, 1, 2, 3, 300]))
    n = data.draw(st.integers(0, 9))
    assert k.in_a_row_bits(cells, bits, value, n) == pure.in_a_row(cells, adj, geo.deg, value, n)
