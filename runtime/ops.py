"""Small zone operations that generated engines call (kept out of the hot move generators)."""
from __future__ import annotations

from array import array
from typing import Callable

from .kernel_select import K


#: moving items between zones and out of grids: kernels (compiled, or their pure twins)
deal = K.deal
clear_cells = K.clear_cells
# lane grids and groups: compiled with the other kernels (these run at every decision)
group_keys = K.group_keys
group_colour = K.group_colour
group_anchor = K.group_anchor
group_size = K.group_size
group_cells = K.group_cells
drop_into = K.drop_into
placement_keys = K.placement_keys
place = K.place
show_placement = K.show_placement


#: The largest number a counter or zone may hold, and the most values one range may offer.
MAX_NUMBER = 10**18
MAX_RANGE = 100_000
#: The most elements one zone may hold (the checker's largest capacity).
MAX_ZONE = 100_000


def number(value: int) -> int:
    """A product computed by the rules, refused when it leaves the range numbers may take."""
    if -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    raise ValueError(f"a number grew past {MAX_NUMBER:.0e}: does a product keep multiplying?")


def too_many_moves(rules_file: str, line: int, action: str, bound: int) -> None:
    """One decision's legal moves would pass the bound: a runaway list, stopped before it fills
    memory."""
    from .errors import RulesRuntimeError
    raise RulesRuntimeError(f"{rules_file}:{line}: error while playing: action '{action}' offers more than "
                            f"{bound:,} moves in one decision (the limit of legal moves); narrow its "
                            "parameters with a require, or split it into steps")


def span(lo: int, hi: int) -> range:
    """The values lo..hi of a range parameter whose bounds are known only when played."""
    if hi - lo + 1 > MAX_RANGE:
        raise ValueError(f"the range {lo}..{hi} offers more than {MAX_RANGE:,} values")
    return range(lo, hi + 1)


#: the most subsets one subset parameter may offer in a position (a source of 16 different
#: values has 65,536)
MAX_SUBSETS = 65_536


def subsets(values) -> list[tuple]:
    """The different sub-collections of ``values`` (a subset parameter's choices): each once,
    whatever the order of ``values`` and however many equal values it holds (dice 3, 1, 3 give
    (), (1,), (3,), (1, 3), (3, 3), (1, 3, 3)). Each is a tuple in increasing order; they come
    by size, then in increasing order, so the same values give the same moves in any order."""
    counts: dict = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    total = 1
    for n in counts.values():
        total *= n + 1
        if total > MAX_SUBSETS:
            raise ValueError(f"{len(values)} values offer more than {MAX_SUBSETS:,} subsets to choose from")
    out: list[tuple] = [()]
    for v in sorted(counts):
        out = [chosen + (v,) * k for chosen in out for k in range(counts[v] + 1)]
    out.sort(key=lambda chosen: (len(chosen), chosen))
    return out


def along(cells: tuple, places: tuple, loop: bool, cell: int, steps: int) -> int:
    """``along(T, c, k)``: the cell ``steps`` places further along a track (back when negative)
    from ``cell``; -1 (none) when ``cell`` is not on it or, on a track that is not a loop, the
    count passes one of its ends. A loop goes round."""
    if not 0 <= cell < len(places) or places[cell] < 0:
        return -1
    at = places[cell] + steps
    if loop:
        return cells[at % len(cells)]
    return cells[at] if 0 <= at < len(cells) else -1


def track_position(places: tuple, cell: int) -> int:
    """``position(T, c)``: where ``cell`` lies on a track, from 0 at its start; -1 off it."""
    return places[cell] if 0 <= cell < len(places) else -1


def one_hot(out: list, value: int, size: int) -> None:
    """``size`` numbers onto ``out``, 1 at ``value`` and 0 elsewhere (all 0 for none, -1): how an
    observation gives a counter that holds a cell, a member, an item, a piece or a seat."""
    start = len(out)
    out += [0] * size
    if 0 <= value < size:
        out[start + value] = 1


def overflow(zone_name: str, capacity: int) -> None:
    """Raised by generated code when an effect would put too many items in a zone."""
    raise ValueError(f"zone '{zone_name}' is full (capacity {capacity})")


# ---- grids: cells hold element code + 1, 0 = empty ---------------------------------------------
# Values of kernel results travel in moves as single ints ("keys"), decoded here.


def all_different(show: Callable[[int], str], items) -> bool:
    """Whether every item shows as a different text."""
    texts = [show(i) for i in items]
    return len(set(texts)) == len(texts)


def line_head(key: int) -> int:
    return key // (8 * 64 * 64)


def line_dir(key: int) -> int:
    return (key // (64 * 64)) % 8


def line_length(key: int) -> int:
    return (key // 64) % 64


def line_pushed(key: int) -> int:
    return key % 64


def show_line(key: int, names: tuple, dirs: tuple) -> str:
    k, m = line_length(key), line_pushed(key)
    text = f"{names[line_head(key)]}-{dirs[line_dir(key)]}"
    if k > 1:
        text += f" x{k}"
    if m:
        text += f" push {m}"
    return text


def push(grid: bytearray, step, ndirs: int, key: int, exits: tuple):
    """Play a line move; returns (element that left the board, sides it crossed) or None."""
    # the key decoded in place (line_head, line_dir, line_length): this runs every move
    value, last, d = K.apply_line_key(grid, step, ndirs, key)
    if not value:
        return None
    return value - 1, exits[last * ndirs + d]


def table(values):
    """A geometry table for the kernels (signed 16-bit cell numbers, -1 for none), from its
    numbers or from the text of them (as engines write it)."""
    return array("h", ints(values) if isinstance(values, str) else values)


# ---- data written as text: one string constant in an engine, whatever the board's size ------
# (a list literal of thousands of numbers becomes thousands of statements of a compiled
# engine's start-up code, which C compilers take super-linear time over)
def ints(text: str) -> list[int]:
    """``"1 -1 11"`` -> [1, -1, 11]."""
    return [int(v) for v in text.split()]


def int_lists(text: str) -> list[list[int]]:
    """``"1 2;;3"`` -> [[1, 2], [], [3]] (lists of numbers, ``;`` between lists)."""
    return [ints(part) for part in text.split(";")] if text else []


def words(text: str, sep: str) -> list[str]:
    """``("a1 b1", " ")`` -> ["a1", "b1"] (names, with a separator none of them holds)."""
    return text.split(sep) if text else []


def points(text: str) -> tuple[tuple[float, float], ...]:
    """``"0.0 8.66 1.0 8.66"`` -> ((0.0, 8.66), (1.0, 8.66))."""
    v = [float(x) for x in text.split()]
    return tuple(zip(v[0::2], v[1::2]))


def lines(text: str) -> tuple[tuple[int, ...], ...]:
    """``"21 22 23/0 9 21"`` -> ((21, 22, 23), (0, 9, 21)): a board's lines, each its cells."""
    return tuple(tuple(int(v) for v in line.split()) for line in text.split("/"))


def lines_at(lines: tuple, cells: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per cell, the lines through it (in the order they were declared)."""
    through: list[list] = [[] for _ in range(cells)]
    for line in lines:
        for c in line:
            through[c].append(line)
    return tuple(tuple(t) for t in through)


def lines_through(table: tuple, cell: int) -> tuple:
    """The lines through ``cell`` (``lines(G, c)``); none is no point."""
    if cell < 0:
        raise ValueError("there is no point here (none) to find lines through")
    return table[cell]


# ---- geometry: the tables are the grid's, computed when the engine was generated ---------------
def neighbour(adj, deg: int, cell: int, d: int, steps: int = 1) -> int:
    """The next cell from ``cell`` in direction d (or the cell ``steps`` steps along it), or -1
    (none) off the board."""
    if cell < 0:
        raise ValueError("there is no cell here (none) to step from")
    if steps < 0:
        raise ValueError(f"a cell {steps} steps along a direction: count the steps from 0")
    for _ in range(steps):
        if cell < 0:
            break
        cell = adj[cell * deg + d]
    return cell


def degrees(table, cells: int) -> list[int]:
    """Per cell, how many cells a geometry table gives for it (its neighbours, its leaps that
    land): ``count(neighbours(G, c))`` read from a table."""
    deg = len(table) // cells if cells else 0
    return [sum(1 for c in table[i * deg:(i + 1) * deg] if c >= 0) for i in range(cells)]


def line_cells(index: int, first: int, line_step: int, cell_step: int, count: int, lines: int) -> range:
    """The cells of row (or column) ``index`` of a grid whose lines are regular (found when
    generating: compiler/passes/line_source.py), in order; none for a line the grid lacks."""
    if not 0 <= index < lines:
        return range(0)
    start = first + index * line_step
    return range(start, start + count * cell_step, cell_step)


def line_bits(values: list[int]) -> bytes:
    """A board's lines for ``K.in_a_row_bits``, from the numbers the compiler found when
    generating (per line: its step, then the mask of the cells that have a neighbour that way;
    compiler/check/geometry.py ``line_steps``) as two 64-bit numbers each, little-endian."""
    return b"".join(v.to_bytes(8, "little", signed=i % 2 == 0) for i, v in enumerate(values))


def on_sides(sides, cells: int) -> array:
    """``side * cells + cell`` -> 1 where the cell lies along that side of the board, else 0:
    ``c in edge_cells(G, s)`` and ``sides(G, cells)`` read from a table."""
    out = array("q", bytes(8 * len(sides) * cells))
    for s, along in enumerate(sides):
        for c in along:
            out[s * cells + c] = 1
    return out


def way_marks(cells: int) -> bytearray:
    """The scratch where mark_way() marks the walls a position's ways cross: a byte per wall
    place and one more (compiler/lower/kept_ways.py)."""
    return bytearray(cells + 1)


def side_masks(sides, cells: int) -> list[bytes]:
    """Per side, a mask of the board's cells (1 along the side): what reachable() and
    walled_distance() are given for a side, so that they test a target in one read."""
    masks = []
    for along in sides:
        mask = bytearray(cells)
        for c in along:
            mask[c] = 1
        masks.append(bytes(mask))
    return masks


def move_table(tag: int, sizes: tuple) -> tuple:
    """The moves ``(tag, a)`` (``(tag, a, b)``) of an action whose arguments are cells, one
    tuple per move made once, indexed by the cells (``table[a][b]``); index -1, the last, holds
    the move of no cell (none, -1), so that every cell a rules value can be indexes its own."""
    if len(sizes) == 1:
        return tuple((tag, a) for a in [*range(sizes[0]), -1])
    return tuple(tuple((tag, a, b) for b in [*range(sizes[1]), -1]) for a in [*range(sizes[0]), -1])


def neighbour_rows(table, cells: int) -> tuple:
    """Per cell, the cells a geometry table gives for it (its neighbours, where its leaps land)
    that exist, each a tuple: what :func:`neighbours` makes, made once for a Python engine's
    loops to read in place."""
    deg = len(table) // cells if cells else 0
    return tuple(tuple(c for c in table[i * deg:(i + 1) * deg] if c >= 0) for i in range(cells))


def neighbours(adj, deg: int, cell: int) -> list[int]:
    """The cells next to ``cell``, in the grid's direction order."""
    if cell < 0:
        raise ValueError("there is no cell here (none) to look around")
    base = cell * deg
    return [c for c in adj[base:base + deg] if c >= 0]


def ray(adj, deg: int, cell: int, d: int) -> list[int]:
    """The cells from ``cell`` (not included) in direction d up to the edge of the board."""
    if cell < 0:
        raise ValueError("there is no cell here (none) to look from")
    out = []
    at = adj[cell * deg + d]
    while at >= 0 and at != cell and len(out) < len(adj):
        out.append(at)
        at = adj[at * deg + d]
    return out


def line(adj, deg: int, cell: int, d: int, back: int) -> list[int]:
    """The cells of the line through ``cell`` along direction d, in order: from the far end
    behind it (direction ``back``, the opposite of d), the cell itself, then on to the far end
    ahead."""
    behind = ray(adj, deg, cell, back) if back >= 0 else []
    behind.reverse()
    behind.append(cell)
    behind += ray(adj, deg, cell, d)
    return behind


def wall_between(adj, deg: int, slots, a: int, b: int) -> int:
    """The wall place between cells a and b of a board (a grid of walls' cell), -1 (none) when
    they do not share a side."""
    if a < 0 or b < 0:
        raise ValueError("there is no cell here (none) to find a wall beside")
    for d in range(deg):
        if adj[a * deg + d] == b:
            return slots[a * deg + d]
    return -1


#: how many ways (one per start) a reachable() call keeps
WAYS_KEPT = 4


def way_memo(cells: int):
    """Where a reachable() call keeps the last ways it found, the one used last first (each its
    length, then its cells)."""
    return array("h", bytes(2 * WAYS_KEPT * (cells + 1)))


def member(value: int, count: int, enum_name: str) -> int:
    """An enum member from its number (0 for the first), refused outside the enum."""
    if 0 <= value < count:
        return value
    raise ValueError(f"{enum_name} has no member number {value} (it has {count}, from 0)")


def first(values) -> int:
    """The first element, or -1 (none) when there is none."""
    return values[0] if values else -1


def last(values) -> int:
    """The last element (the top of a pile), or -1 (none) when there is none."""
    return values[-1] if values else -1


def turn_block(grid, width: int, height: int, lane_major: int, corner: int, size: int, quarters: int,
               mirror: int, to: int = -1) -> None:
    """Turn the size x size block of cells whose south-west corner is ``corner`` by ``quarters``
    quarter turns clockwise (negative: anticlockwise), or mirror it west to east: what stood at
    column dx, row dy of the block goes to (dy, size - 1 - dx) for each quarter turn. With
    ``to`` (a cell), the block is written there instead (a copy; the block read stays)."""

    def origin(cell: int) -> tuple[int, int]:
        if cell < 0:
            raise ValueError("there is no cell here (none) for the block's corner")
        x, y = (cell // height, cell % height) if lane_major else (cell % width, cell // width)
        if size < 1 or x + size > width or y + size > height:
            raise ValueError(f"a block of {size} x {size} cells from that corner does not fit on the board")
        return x, y

    def at(xy: tuple[int, int], dx: int, dy: int) -> int:
        x, y = xy[0] + dx, xy[1] + dy
        return x * height + y if lane_major else y * width + x
    source = origin(corner)
    target = origin(to) if to >= 0 else source
    before = {(dx, dy): grid[at(source, dx, dy)] for dx in range(size) for dy in range(size)}
    for (dx, dy), value in before.items():
        if mirror:
            dx = size - 1 - dx
        else:
            for _ in range(quarters % 4):
                dx, dy = dy, size - 1 - dx
        grid[at(target, dx, dy)] = value


def at_xy(x: int, y: int, width: int, height: int, lane_major: int) -> int:
    """The cell at column x, row y (from 0, the south-west corner), or -1 (none) off the board."""
    if 0 <= x < width and 0 <= y < height:
        return x * height + y if lane_major else y * width + x
    return -1


# ---- mancala boards: the first seat's houses 0..n-1 and store n, the second's n+1..2n, 2n+1 ---
def values_within(zone, lo: int, hi: int, per: int) -> bool:
    """Whether every value of a zone (of each zone, ``per``: a zone per seat or member) lies
    from ``lo`` to ``hi``: the invariant of a zone declared with its values."""
    zones = zone if per else (zone,)
    return all(lo <= v <= hi for z in zones for v in z)


def number_cells(grid, filled: int) -> list[int]:
    """The cells of a grid of numbers that hold 0 (``filled`` 0) or any other number (1)."""
    if filled:
        return [c for c, v in enumerate(grid) if v]
    return [c for c, v in enumerate(grid) if not v]


def mancala_houses(seat: int, n: int) -> range:
    if seat not in (0, 1):
        raise ValueError(f"a mancala board has two sides, for seats 0 and 1, not {seat}")
    return range(seat * (n + 1), seat * (n + 1) + n)


def mancala_store(seat: int, n: int) -> int:
    if seat not in (0, 1):
        raise ValueError(f"a mancala board has two stores, for seats 0 and 1, not {seat}")
    return seat * (n + 1) + n


def piece_mark(symbol: str, seat: int) -> str:
    """How a grid draws a piece: its kind's symbol, upper case for the first seat and lower case
    for the second (as chess diagrams do); other seats, and symbols without case, add the seat."""
    if symbol.upper() != symbol.lower() and seat < 2:
        return symbol.upper() if seat == 0 else symbol.lower()
    return symbol + str(seat + 1)


def piece_kind(piece: int, kinds: int) -> int:
    """A piece's kind (a member's number) on a grid of pieces, none (-1) for none."""
    return piece % kinds if piece >= 0 else -1


def piece_owner(piece: int, kinds: int) -> int:
    """A piece's owner (a seat), none (-1) for none."""
    return piece // kinds if piece >= 0 else -1


def holding_span(kinds: int, kind: int, owner: int) -> tuple[int, int]:
    """The bytes of a grid of elements whose cells ``cells_holding(g, kinds, kind, owner)``
    finds (-2: any kind or owner), as a span (low, high) for a scan to test each cell against.
    A kind of any owner is no span: it is told by a negative low, ``-1 - kind``, with high the
    number of kinds (``in_span`` tests it by division). Nothing is found when low > high."""
    if kinds >= 256 and owner == -2 and 0 <= kind < 255:  # a grid of values: one byte
        return kind + 1, kind + 1
    if owner == -2 and kind == -2:
        return 1, 255
    if owner == -2 and 0 <= kind < kinds:
        return -1 - kind, kinds
    if owner >= 0 and kind == -2:
        return owner * kinds + 1, owner * kinds + kinds
    if owner >= 0 and 0 <= kind < kinds:
        return owner * kinds + kind + 1, owner * kinds + kind + 1
    return 1, 0  # a kind or owner that is none


def next_in_span(grid, at: int, low: int, high: int) -> int:
    """The first cell from ``at`` on whose byte is in the span :func:`holding_span` gives (an
    empty cell: 0 to 0; a filled one: 1 to 255), or -1."""
    for c in range(max(at, 0), len(grid)):
        byte = grid[c]
        if low <= byte <= high if low >= 0 else byte != 0 and (byte - 1) % high == -1 - low:
            return c
    return -1


def mancala_opposite(cell: int, n: int) -> int:
    """The house across the board (none for a store)."""
    if cell < 0 or cell == n or cell >= 2 * n + 1:
        return -1
    return 2 * n - cell


chain = K.chain


class Numbered(dict):
    """The cells of a numbered grid by their numbers (from 1, in reading order): a plain dict
    lookup where the number exists, a clear error where it does not."""

    def __missing__(self, number):
        raise ValueError(f"there is no cell numbered {number} (they go from 1 to {len(self)})")


def saw(seen: tuple, seat: int, name: str, part: int, item: int, private: int) -> tuple:
    """``seen`` and a note that ``seat`` saw ``item`` go into ``name`` (``part``: whose or which
    of them; -1 the one place), which it cannot see: a card it passed face down. Determinisation
    keeps such an item where the seat saw it go while it is still there. Nothing is noted of a
    place private to that seat itself (it sees it)."""
    if private and part == seat:
        return seen
    return seen + ((seat, name, part, item),)


def reveal(revealed: tuple, name: str, part: int) -> tuple:
    """``reveal Z`` / ``reveal Z[p]``: the places everyone sees from now on, (zone, part) pairs
    (part -1: the whole zone), kept sorted so that equal states are equal."""
    return tuple(sorted(set(revealed) | {(name, part)}))
