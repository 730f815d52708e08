"""Small zone operations that generated engines call (kept out of the hot move generators)."""
from __future__ import annotations

from array import array
from typing import Callable

from .kernel_select import K


def deal(src: list, dst: list, count: int | None, where: Callable[[int], bool] | None = None) -> None:
    """Move the first ``count`` items of src (all when None) to the end of dst, in order;
    with ``where``, only items that satisfy it (the others keep their places)."""
    if where is None:
        if count is None or count >= len(src):
            dst.extend(src)
            src.clear()
        elif count > 0:
            dst.extend(src[:count])
            del src[:count]
        return
    taken = 0
    i = 0
    limit = len(src) if count is None else count
    while taken < limit and i < len(src):
        if where(src[i]):
            dst.append(src.pop(i))
            taken += 1
        else:
            i += 1


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


def span(lo: int, hi: int) -> range:
    """The values lo..hi of a range parameter whose bounds are known only when played."""
    if hi - lo + 1 > MAX_RANGE:
        raise ValueError(f"the range {lo}..{hi} offers more than {MAX_RANGE:,} values")
    return range(lo, hi + 1)


def overflow(zone_name: str, capacity: int) -> None:
    """Raised by generated code when an effect would put too many items in a zone."""
    raise ValueError(f"zone '{zone_name}' is full (capacity {capacity})")


# ---- grids: cells hold element code + 1, 0 = empty ---------------------------------------------
# Values of kernel results travel in moves as single ints ("keys"), decoded here.

def group_keys(groups: list, wild: int) -> list[int]:
    """Keys for ``connected_groups`` results: wild, colour, first cell and size packed in one int."""
    return [((wild * 256 + colour) * 4096 + cells[0]) * 4096 + len(cells) for colour, cells in groups]


def group_colour(key: int) -> int:
    """The group's colour as an element code (the stored value minus one)."""
    return (key // (4096 * 4096)) % 256 - 1


def group_anchor(key: int) -> int:
    """The group's first cell (in cell order), which names it among groups alike."""
    return (key // 4096) % 4096


def all_different(show: Callable[[int], str], items) -> bool:
    """Whether every item shows as a different text."""
    texts = [show(i) for i in items]
    return len(set(texts)) == len(texts)


def group_size(key: int) -> int:
    return key % 4096


def group_cells(cells, adj, deg: int, key: int) -> tuple:
    """The cells of the group a key stands for, in the grid as it is now."""
    wild = key // (4096 * 4096 * 256)
    colour = (key // (4096 * 4096)) % 256
    anchor = (key // 4096) % 4096
    return K.group_at(cells, adj, deg, anchor, colour, wild)


def clear_cells(grid: bytearray, cells, to: list | None) -> None:
    """Empty cells; their contents go to the end of ``to`` (a zone) when given."""
    for c in cells:
        v = grid[c]
        if v:
            if to is not None:
                to.append(v - 1)
            grid[c] = 0


def drop_into(grid: bytearray, lanes: int, height: int, lane: int, value: int,
              taking: list | None, overflow: list | None) -> bool:
    """Drop one element into a lane: taken from ``taking`` first (nothing happens when it has
    none); when the lane is full it goes to ``overflow`` (an error without one). Returns
    whether it landed."""
    if not 0 <= lane < lanes:
        raise ValueError(f"there is no lane {lane} (lanes are 0 to {lanes - 1})")
    if taking is not None:
        if value not in taking:
            return False
        taking.remove(value)
    if K.drop(grid, lanes, height, lane, value + 1) >= 0:
        return True
    if overflow is None:
        raise ValueError(f"lane {lane} is full and the rules say nowhere for the overflow to go")
    overflow.append(value)
    return False


def ghosted(pattern: tuple, taking: list | None) -> bytes:
    """The pattern with the elements ``taking`` lacks (in reading order) made into ghosts,
    which keep the shape but drop nothing."""
    rows, cols, cells = pattern
    if taking is None:
        return cells
    pool = list(taking)
    out = bytearray(cells)
    for i, v in enumerate(cells):
        if v:
            if v - 1 in pool:
                pool.remove(v - 1)
            else:
                out[i] = 255
    return bytes(out)


def placement_keys(grid, lanes: int, height: int, pattern: tuple, taking: list | None) -> list[int]:
    """One key (quarter turns * 64 + lane offset) per distinct result of dropping the pattern."""
    rows, cols, _ = pattern
    found = K.placements(grid, lanes, height, rows, cols, ghosted(pattern, taking))
    return [turns * 64 + offset for turns, offset, _result, _over in found]


def place(grid: bytearray, lanes: int, height: int, key: int, pattern: tuple,
          taking: list | None, overflow: list | None) -> None:
    """Drop a pattern as placement ``key`` says, taking its elements from ``taking``."""
    rows, cols, _ = pattern
    cells = ghosted(pattern, taking)
    turns, offset = divmod(key, 64)
    for t, o, result, over in K.placements(grid, lanes, height, rows, cols, cells):
        if t == turns and o == offset:
            break
    else:
        raise ValueError(f"placement {show_placement(key)} is not possible here")
    if taking is not None:
        for v in cells:
            if v and v != 255:
                taking.remove(v - 1)
    grid[:] = result
    for v in over:
        if overflow is None:
            raise ValueError("a lane is full and the rules say nowhere for the overflow to go")
        overflow.append(v - 1)


def show_placement(key: int) -> str:
    turns, offset = divmod(key, 64)
    return f"lane {offset + 1}" + (f" turned {turns * 90}" if turns else "")


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
    """A geometry table for the kernels (signed 16-bit cell numbers, -1 for none)."""
    return array("h", values)
