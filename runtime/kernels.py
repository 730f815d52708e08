"""Pure-Python kernels: the reference twins of ``_kernels.pyx``.

Same names, same signatures, same results; the compiled module is used when it is built and
``REGLE_PURE`` is not set. Kernels know no game: they work on flat cell buffers (``bytes`` or
``bytearray``, one small int per cell, 0 = empty) and on tables the compiler precomputes for
the declared geometry:

- ``adj``: neighbours, a flat sequence of ``n * deg`` cell numbers, -1 where there is none
  (orthogonal squares: deg 4; hex boards: deg 6);
- ``step``: for boards with directions, ``step[cell * ndirs + d]`` is the next cell in
  direction d, -1 off the board; direction ``d ^ 1`` is the opposite of d;
- lane grids are lane-major: cell = lane * height + row, row 0 at the floor.
"""
from __future__ import annotations

from array import array

GHOST = 255  # a pattern cell that keeps the pattern's shape but drops nothing
#: the pairs one call may list: the legal moves one decision may hold (LIMITS["moves"])
MAX_PAIRS = 1_000_000
TOO_MANY_PAIRS = f"more than {MAX_PAIRS:,} moves (or pairs), the limit of legal moves in one decision"


# ---- multisets -----------------------------------------------------------------------------
def pair(tag: int, value: int) -> tuple[int, int]:
    """The move (tag, value) (the compiled twin shares one tuple per small move)."""
    return (tag, value)


def triple(tag: int, a: int, b: int) -> tuple[int, int, int]:
    """The move (tag, a, b) (the compiled twin shares one tuple per small move)."""
    return (tag, a, b)


def distinct(values) -> list:
    """The values in order, each once (as the keys of dict.fromkeys)."""
    return list(dict.fromkeys(values))


def tagged_product(action: int, firsts, seconds) -> list[tuple[int, int, int]]:
    """The moves ``(action, x, y)`` for every x of firsts and y of seconds, x before y."""
    xs, ys = list(firsts), list(seconds)
    if len(xs) * len(ys) > MAX_PAIRS:
        raise ValueError(TOO_MANY_PAIRS)
    return [(action, x, y) for x in xs for y in ys]


def remove_value(values: list, value) -> None:
    """Remove the first element equal to ``value`` (list.remove, with its ValueError)."""
    values.remove(value)


def refill(dst: list, src: list, size: int) -> None:
    """Top dst up to ``size`` elements from the front of src, as far as src allows."""
    missing = size - len(dst)
    if missing > 0 and src:
        dst.extend(src[:missing])
        del src[:missing]


def deal(src: list, dst: list, count: int | None, where=None) -> None:
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


def clear_cells(grid, cells, to: list | None) -> None:
    """Empty cells; their contents go to the end of ``to`` (a zone) when given."""
    for c in cells:
        v = grid[c]
        if v:
            if to is not None:
                to.append(v - 1)
            grid[c] = 0


def tagged(action: int, values, distinct: bool = False) -> list[tuple[int, int]]:
    """The moves ``(action, v)`` for each v: a step's move list, built in one loop; with
    ``distinct``, equal values give one move (in first-seen order)."""
    return [(action, v) for v in (dict.fromkeys(values) if distinct else values)]


def distinct_pairs(values: list[int]) -> list[tuple[int, int]]:
    """Unordered pairs of two different positions, one per pair of values (a <= b), in order found."""
    seen = set()
    out = []
    n = len(values)
    for i in range(n):
        if len(out) > MAX_PAIRS:
            raise ValueError(TOO_MANY_PAIRS)
        a = values[i]
        for j in range(i + 1, n):
            b = values[j]
            key = (a, b) if a <= b else (b, a)
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


def contains_all(values: list[int], wanted: list[int]) -> bool:
    """True when ``values`` holds every item of ``wanted``, counting repeats (multiset inclusion)."""
    pool = list(values)
    for w in wanted:
        if w in pool:
            pool.remove(w)
        else:
            return False
    return True


def contains_pair(values: list[int], a: int, b: int) -> bool:
    """True when ``values`` holds a and b as two different items (two copies when a == b)."""
    if a == b:
        return values.count(a) >= 2
    return a in values and b in values


def holding_pairs(values: list[int], items, firsts, seconds, tag: int | None = None) -> list:
    """The items whose pair (firsts[i], seconds[i]) ``values`` holds (``contains_pair``), in
    order; with ``tag``, as moves ``(tag, item)``: a guard over every item in one call."""
    out = [i for i in items if contains_pair(values, firsts[i], seconds[i])]
    return out if tag is None else [(tag, i) for i in out]


# ---- random ---------------------------------------------------------------------------------
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def shuffle(items: list, state: int) -> int:
    """Fisher-Yates shuffle of ``items`` in place driven by SplitMix64 from ``state``;
    returns the generator's new state (the same numbers as :class:`regle.runtime.rng.Rng`)."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _MASK - (_MASK + 1) % n
        while True:
            state = (state + _GOLDEN) & _MASK
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z <= limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state


# ---- connectivity ---------------------------------------------------------------------------
def _component(cells, adj, deg: int, start: int, colour: int, wild: int, seen: bytearray) -> list[int]:
    """Cells connected to ``start`` through cells of ``colour`` or ``wild`` (marks ``seen``
    for the colour cells only, so a wild cell can join several colours' groups)."""
    stack = [start]
    found = {start}
    if cells[start] == colour:
        seen[start] = 1
    while stack:
        c = stack.pop()
        base = c * deg
        for k in range(deg):
            nb = adj[base + k]
            if nb < 0 or nb in found:
                continue
            v = cells[nb]
            if v == colour or (v == wild and wild != 0):
                found.add(nb)
                if v == colour:
                    seen[nb] = 1
                stack.append(nb)
    return sorted(found)


def connected_groups(cells, adj, deg: int, wild: int, min_size: int, min_real: int) -> list:
    """Maximal groups of cells connected through one colour or the wild value.

    Returns ``[(colour, (cell, ...)), ...]`` for groups of at least ``min_size`` cells holding at
    least ``min_real`` cells of their own colour, ordered by colour then first cell. A wild cell
    may belong to groups of several colours. Groups made of wild cells only are reported (with
    colour ``wild``) when ``min_real`` is 0.
    """
    n = len(cells)
    out = []
    for colour in sorted({v for v in cells if v != 0}):
        if colour == wild and min_real > 0:
            continue
        joker = 0 if colour == wild else wild
        seen = bytearray(n)
        for i in range(n):
            if cells[i] == colour and not seen[i]:
                group = _component(cells, adj, deg, i, colour, joker, seen)
                if len(group) >= min_size and (colour == wild or sum(cells[c] == colour for c in group) >= min_real):
                    out.append((colour, tuple(group)))
    return out


def group_at(cells, adj, deg: int, cell: int, colour: int, wild: int) -> tuple:
    """The group of ``colour`` (or wild) cells connected to ``cell``, as sorted cell numbers."""
    v = cells[cell]
    if v != colour and not (v == wild and wild != 0):
        return ()
    return tuple(_component(cells, adj, deg, cell, colour, wild, bytearray(len(cells))))


def largest_zone(cells, adj, deg: int, wild: int, min_size: int, min_real: int) -> tuple:
    """The largest group over all colours: ``(size, colour, cells)``, or ``(0, 0, ())``.
    Ties go to the lower colour, then to the group with the lower first cell. With ``min_real``
    0, a group of wild cells alone counts too (with colour ``wild``)."""
    best = (0, 0, ())
    for colour, group in connected_groups(cells, adj, deg, wild, min_size, min_real):
        if len(group) > best[0]:
            best = (len(group), colour, group)
    return best


# ---- lanes with gravity ------------------------------------------------------------------------
def settle(cells: bytearray, lanes: int, height: int) -> int:
    """Let every lane fall toward its floor, keeping order; returns how many cells moved."""
    moved = 0
    for lane in range(lanes):
        base = lane * height
        write = base
        for row in range(height):
            v = cells[base + row]
            if v:
                if base + row != write:
                    cells[write] = v
                    cells[base + row] = 0
                    moved += 1
                write += 1
    return moved


def drop(cells: bytearray, lanes: int, height: int, lane: int, value: int) -> int:
    """Drop ``value`` into ``lane`` (of a settled grid): the row it lands on, or -1 when full."""
    base = lane * height
    for row in range(height):
        if cells[base + row] == 0:
            cells[base + row] = value
            return row
    return -1


def lane_count(cells, lanes: int, height: int, lane: int) -> int:
    """How many cells of a settled lane are filled."""
    if not 0 <= lane < lanes or len(cells) < lanes * height:
        raise ValueError(f"there is no lane {lane} (lanes are 0 to {lanes - 1})")
    base = lane * height
    row = 0
    while row < height and cells[base + row]:
        row += 1
    return row


def in_a_row_since(cells, memo: bytearray, adj, deg: int, value: int, n: int) -> bool:
    """in_a_row, remembering in ``memo`` (per value 1, 2, ...: a flag and the board) the board
    it last answered False on, and then looking only at the cells that changed since."""
    size = len(cells)
    if value < 1 or value * (size + 1) > len(memo):
        return in_a_row(cells, adj, deg, value, n)
    base = (value - 1) * (size + 1)
    if memo[base]:
        changed = [c for c in range(size) if cells[c] == value and memo[base + 1 + c] != value]
        if changed and in_a_row(cells, adj, deg, value, n):
            return True
    elif in_a_row(cells, adj, deg, value, n):
        return True
    memo[base + 1:base + 1 + size] = cells
    memo[base] = 1
    return False


def count_byte(cells, value: int) -> int:
    """How many cells of a grid hold ``value`` (0: the empty ones)."""
    return cells.count(value) if 0 <= value < 256 else 0


def rotate_pattern(rows: int, cols: int, pattern: bytes) -> tuple[int, int, bytes]:
    """A quarter turn clockwise of a rows x cols pattern (row-major, top row first)."""
    out = bytearray(rows * cols)
    for r in range(rows):
        for c in range(cols):
            # cell (r, c) goes to (c, rows - 1 - r) in the cols x rows result
            out[c * rows + (rows - 1 - r)] = pattern[r * cols + c]
    return cols, rows, bytes(out)


def placements(cells, lanes: int, height: int, rows: int, cols: int, pattern: bytes) -> list:
    """Every distinct result of dropping a pattern into a lane grid.

    The pattern (rows x cols, top row first, 0 = no marble, GHOST = a missing marble that keeps
    the shape) is tried in its four quarter turns at every lane offset where it fits; in each
    lane its lower marble enters first. Returns ``[(turns, offset, result, overflow)]`` where
    ``result`` is the new grid (bytes) and ``overflow`` the values that found their lane full,
    one entry per distinct result, in order of turns then offset.
    """
    out = []
    seen = set()
    r, c, p = rows, cols, bytes(pattern)
    for turns in range(4):
        if turns:
            r, c, p = rotate_pattern(r, c, p)
        for offset in range(lanes - c + 1):
            grid = bytearray(cells)
            overflow = []
            for col in range(c):
                lane = offset + col
                for row in range(r - 1, -1, -1):
                    v = p[row * c + col]
                    if v == 0 or v == GHOST:
                        continue
                    if drop(grid, lanes, height, lane, v) < 0:
                        overflow.append(v)
            result = bytes(grid)
            if result not in seen:
                seen.add(result)
                out.append((turns, offset, result, tuple(overflow)))
    return out


# ---- keys of groups and placements, carried in moves ------------------------------------------
def group_keys(groups: list, wild: int) -> list[int]:
    """Keys for ``connected_groups`` results: wild, colour, first cell and size packed in one int."""
    return [((wild * 256 + colour) * 4096 + cells[0]) * 4096 + len(cells) for colour, cells in groups]


def show_placement(key: int) -> str:
    turns, offset = divmod(key, 64)
    return f"lane {offset + 1}" + (f" turned {turns * 90}" if turns else "")


def group_colour(key: int) -> int:
    """The group's colour as an element code (the stored value minus one)."""
    return (key // (4096 * 4096)) % 256 - 1


def group_anchor(key: int) -> int:
    """The group's first cell (in cell order), which names it among groups alike."""
    return (key // 4096) % 4096


def group_size(key: int) -> int:
    return key % 4096


def group_cells(cells, adj, deg: int, key: int) -> tuple:
    """The cells of the group a key stands for, in the grid as it is now."""
    wild = key // (4096 * 4096 * 256)
    colour = (key // (4096 * 4096)) % 256
    anchor = (key // 4096) % 4096
    return group_at(cells, adj, deg, anchor, colour, wild)


def drop_into(grid: bytearray, lanes: int, height: int, lane: int, value: int,
              taking: list | None, overflow: list | None) -> int:
    """Drop one element into a lane: taken from ``taking`` first (nothing happens when it has
    none); when the lane is full it goes to ``overflow`` (an error without one). Returns the
    cell it landed in (the native engine notes it in its journal of written cells), -1 when
    it did not land."""
    if not 0 <= lane < lanes:
        raise ValueError(f"there is no lane {lane} (lanes are 0 to {lanes - 1})")
    if taking is not None:
        if value not in taking:
            return -1
        taking.remove(value)
    row = drop(grid, lanes, height, lane, value + 1)
    if row >= 0:
        return lane * height + row
    if overflow is None:
        raise ValueError(f"lane {lane} is full and the rules say nowhere for the overflow to go")
    overflow.append(value)
    return -1


def ghosted(pattern: tuple, taking: list | None) -> bytes:
    """The pattern with the elements ``taking`` lacks (in reading order) made into ghosts,
    which keep the shape but drop nothing."""
    rows, cols, cells = pattern
    if taking is None:
        return cells
    left: dict[int, int] = {}  # value -> how many more ``taking`` can give
    out = None
    for i, v in enumerate(cells):
        if v:
            have = left.get(v)
            if have is None:
                have = taking.count(v - 1)
            if have > 0:
                left[v] = have - 1
            else:
                left[v] = 0
                if out is None:
                    out = bytearray(cells)
                out[i] = GHOST
    return cells if out is None else bytes(out)


#: the placements last worked out, by what they depend on: the moves of a step find them, and
#: the move played drops the same pattern into the same grid just after (a pure function's memo);
#: a few entries suffice, and a big memo that fills and empties keeps the garbage collector busy
_placed: dict = {}


def _placements(grid, lanes: int, height: int, pattern: tuple, taking: list | None) -> tuple:
    """(ghosted cells, keys, [(turns, offset, result, overflow)]) of dropping ``pattern``."""
    rows, cols, _cells = pattern
    ghost = ghosted(pattern, taking)
    memo = (bytes(grid), lanes, height, rows, cols, ghost)
    found = _placed.get(memo)
    if found is None:
        results = placements(grid, lanes, height, rows, cols, ghost)
        found = (ghost, [turns * 64 + offset for turns, offset, _result, _over in results], results)
        if len(_placed) >= 8:
            _placed.clear()
        _placed[memo] = found
    return found


def placement_keys(grid, lanes: int, height: int, pattern: tuple, taking: list | None) -> list[int]:
    """One key (quarter turns * 64 + lane offset) per distinct result of dropping the pattern."""
    return _placements(grid, lanes, height, pattern, taking)[1][:]


def place(grid: bytearray, lanes: int, height: int, key: int, pattern: tuple,
          taking: list | None, overflow: list | None) -> None:
    """Drop a pattern as placement ``key`` says, taking its elements from ``taking``."""
    cells, keys, results = _placements(grid, lanes, height, pattern, taking)
    if key not in keys:
        raise ValueError(f"placement {show_placement(key)} is not possible here")
    _turns, _offset, result, over = results[keys.index(key)]
    if taking is not None:
        for v in cells:
            if v and v != GHOST:
                taking.remove(v - 1)
    grid[:] = result
    for v in over:
        if overflow is None:
            raise ValueError("a lane is full and the rules say nowhere for the overflow to go")
        overflow.append(v - 1)


# ---- lines and pushes --------------------------------------------------------------------------
def line_moves(cells, step, ndirs: int, me: int, max_line: int) -> list:
    """Every line move and push for the pieces of value ``me`` (0 = empty, others = owners).

    A move is ``(head, d, k, m)``: the ``k`` own pieces ending at ``head`` (a contiguous line
    along d, including head) move one cell in direction d, pushing the ``m`` opposing pieces
    in front of them (m < k). Legal when the cell past the line (past the pushed pieces, if
    any) is empty, or is off the board only when pieces are pushed (never one's own).
    ``max_line`` > 0 limits k. Ordered by head, direction, k.
    """
    out = []
    n = len(cells)
    for head in range(n):
        if cells[head] != me:
            continue
        for d in range(ndirs):
            # own run behind the head (opposite direction d ^ 1)
            run = 1
            back = step[head * ndirs + (d ^ 1)]
            while back >= 0 and cells[back] == me:
                run += 1
                back = step[back * ndirs + (d ^ 1)]
            if max_line > 0 and run > max_line:
                run = max_line
            front = step[head * ndirs + d]
            if front < 0:
                continue  # never push one's own piece off the board
            v = cells[front]
            if v == 0:
                for k in range(1, run + 1):
                    out.append((head, d, k, 0))
                continue
            if v == me:
                continue
            # opposing run
            m = 0
            cur = front
            while cur >= 0 and cells[cur] != 0 and cells[cur] != me:
                m += 1
                cur = step[cur * ndirs + d]
            if cur >= 0 and cells[cur] == me:
                continue  # sandwiched own piece blocks the push
            for k in range(m + 1, run + 1):
                out.append((head, d, k, m))
    return out


def apply_line_key(cells: bytearray, step, ndirs: int, key: int) -> tuple:
    """``apply_line`` for a packed line-move key (see ``line_move_keys``)."""
    return apply_line(cells, step, ndirs, key // 32768, (key // 4096) % 8, (key // 64) % 64)


def apply_line(cells: bytearray, step, ndirs: int, head: int, d: int, k: int) -> tuple:
    """Play a line move ``(head, d, k, ...)`` in place.

    Returns ``(ejected value, last cell, d)`` when a piece left the board from ``last cell``
    in direction d, else ``(0, -1, d)``.
    """
    # find the end of the pushed run
    cur = step[head * ndirs + d]
    run = []
    while cur >= 0 and cells[cur] != 0:
        run.append(cur)
        cur = step[cur * ndirs + d]
    ejected = (0, -1, d)
    if run and cur < 0:
        last = run[-1]
        ejected = (cells[last], last, d)
    # shift pushed pieces (from the far end), then own pieces
    line = [head]
    back = head
    for _ in range(k - 1):
        back = step[back * ndirs + (d ^ 1)]
        line.append(back)
    chain = list(reversed(line)) + run  # tail ... head, pushed ...
    for i in range(len(chain) - 1, -1, -1):
        src = chain[i]
        dst = step[src * ndirs + d]
        if dst >= 0:
            cells[dst] = cells[src]
        cells[src] = 0
    return ejected


def line_move_keys(cells, step, ndirs: int, me: int, max_line: int, tag: int | None = None) -> list:
    """``line_moves`` packed as ints, ``((head * 8 + d) * 64 + k) * 64 + m``: what engines use
    as move arguments (no tuple per move). With ``tag``, the moves ``(tag, key)`` themselves,
    a step's move list made in the same loop."""
    keys = [((head * 8 + d) * 64 + k) * 64 + m for head, d, k, m in line_moves(cells, step, ndirs, me, max_line)]
    return keys if tag is None else [(tag, key) for key in keys]


# ---- board queries: lines, outflanking, connection ---------------------------------------------
def _some_run(cells, adj, deg: int, value: int, n: int, exact: bool) -> bool:
    """Whether some line holds a run of ``value`` of n or more cells (of exactly n with
    ``exact``: a longer run, an overline, does not count). Directions d and d ^ 1 are
    opposite, so each line is walked once, from its first cell."""
    longest = n + 1 if exact else n  # how far a run is counted
    for c in range(len(cells)):
        if cells[c] != value:
            continue
        for d in range(0, deg - 1, 2):
            back = adj[c * deg + d + 1]
            if back >= 0 and cells[back] == value:
                continue  # not where this line starts
            run, at = 1, c
            while run < longest:
                at = adj[at * deg + d]
                if at < 0 or cells[at] != value or at == c:
                    break
                run += 1
            if run == n if exact else run >= n:
                return True
    return False


def _run_through(cells, adj, deg: int, c: int, value: int, n: int) -> bool:
    """Whether the run of ``value`` along some line through ``c`` (which holds it) is n long,
    counted from the run's start (a closed ring has none): behind c to the start, then ahead."""
    for d in range(0, deg - 1, 2):
        at, run = c, 1
        while True:
            nxt = adj[at * deg + d + 1]
            if nxt < 0 or cells[nxt] != value or nxt == c:
                break
            at, run = nxt, run + 1
        if nxt == c:
            continue  # around a ring: in_a_row finds no start there
        start, at = at, c
        while run < n:
            at = adj[at * deg + d]
            if at < 0 or cells[at] != value or at == start:
                break
            run += 1
        if run >= n:
            return True
    return False


def lines_written_of(cells, adj, deg: int, value: int, n: int, written: list) -> int:
    """Whether a line of ``n`` cells holding ``value`` runs through one of the cells ``written``
    (a journal of written cells, in order): 1 when one does, 0 when none does, 2 when a cell
    noted is off the board first."""
    if len(written) > 16:
        raise ValueError("a journal holds 16 cells")
    for c in written:
        if not 0 <= c < len(cells):
            return 2
        if cells[c] == value and _run_through(cells, adj, deg, c, value, n):
            return 1
    return 0


def in_a_row(cells, adj, deg: int, value: int, n: int) -> bool:
    """Whether ``n`` cells in a row along one direction hold ``value``."""
    return _some_run(cells, adj, deg, value, n, False)


def in_a_row_bits(cells, bits: bytes, value: int, n: int) -> bool:
    """``in_a_row`` on a board whose lines ``bits`` describes (``ops.line_bits``): the cells
    holding ``value`` as the bits of one number; along each line, the cells that start a run
    of k + 1 are those of a run of k whose next cell that way starts a run of k (a shift)."""
    if len(cells) > 64:
        raise ValueError("a board of more than 64 cells has no line bits")
    x = 0
    for c, v in enumerate(cells):
        if v == value:
            x |= 1 << c
    if not x or n <= 1:
        return bool(x)
    for i in range(0, len(bits) - 15, 16):
        step = int.from_bytes(bits[i:i + 8], "little", signed=True)
        mask = int.from_bytes(bits[i + 8:i + 16], "little")
        run = x
        for _ in range(n - 1):
            run = x & mask & (run >> step if step > 0 else run << -step)
            if not run:
                break
        if run:
            return True
    return False


def in_a_row_exactly(cells, adj, deg: int, value: int, n: int) -> bool:
    """Whether some line holds a run of exactly ``n`` cells of ``value`` (an overline does not
    count)."""
    return _some_run(cells, adj, deg, value, n, True)


# ---- walls: ways between the cells of a board that no standing wall crosses (runtime/kernels_walls.py)
from .kernels_walls import (  # noqa: E402,F401 - the kernels' own, in a room of their own
    open_neighbours, walled_distance, reachable, mark_way, take_marks, walls_hang)


def flanked(cells, adj, deg: int, cell: int, value: int, d: int) -> list[int]:
    """The cells a piece of ``value`` at ``cell`` would outflank: in each direction (only d
    when d >= 0), the unbroken run of other pieces next to it that one of ``value`` ends."""
    out: list[int] = []
    for k in (range(deg) if d < 0 else (d,)):
        run = []
        at = adj[cell * deg + k]
        while at >= 0 and at != cell and cells[at] != 0 and cells[at] != value:
            run.append(at)
            at = adj[at * deg + k]
        if run and at >= 0 and at != cell and cells[at] == value:
            out.extend(run)
    return out


def flanked_count(cells, adj, deg: int, cell: int, value: int, d: int) -> int:
    """How many cells flanked() would list (without listing them)."""
    return len(flanked(cells, adj, deg, cell, value, d))


def connected(cells, adj, deg: int, value: int, starts, goals) -> bool:
    """Whether a chain of neighbouring cells holding ``value`` joins a cell of ``starts`` to a
    cell of ``goals`` (both lists of cells)."""
    goal = set(goals)
    seen = set()
    stack = [c for c in starts if cells[c] == value]
    seen.update(stack)
    while stack:
        c = stack.pop()
        if c in goal:
            return True
        base = c * deg
        for k in range(deg):
            nb = adj[base + k]
            if nb >= 0 and nb not in seen and cells[nb] == value:
                seen.add(nb)
                stack.append(nb)
    return False


def connected_since(cells, memo: bytearray, adj, deg: int, value: int, starts, goals) -> bool:
    """connected, remembering in ``memo`` (per value 1, 2, ...: a flag, the board, and per cell
    whether it is reached from the starts, a start, a goal) what the starts reach, so that a
    later call floods only from the cells that gained ``value`` since (the whole board again
    when a reached cell lost it). The same starts and goals at every call with one memo."""
    size = len(cells)
    width = 2 * size + 1
    if value < 1 or value > 255 or value * width > len(memo):
        return connected(cells, adj, deg, value, starts, goals)
    base = (value - 1) * width
    board, marks = base + 1, base + 1 + size
    stack: list[int] = []
    whole = not memo[base]
    if not whole:
        for c in range(size):
            if cells[c] == value:
                if memo[board + c] != value and not memo[marks + c] & 1 and (
                        memo[marks + c] & 2 or any(adj[c * deg + k] >= 0 and memo[marks + adj[c * deg + k]] & 1
                                                   for k in range(deg))):
                    memo[marks + c] |= 1
                    stack.append(c)
            elif memo[marks + c] & 1:  # a reached cell lost the value: start again
                whole = True
                break
    if whole:
        stack = []
        memo[marks:marks + size] = bytes(size)
        for c in goals:
            if 0 <= c < size:
                memo[marks + c] |= 4
        for c in starts:
            if 0 <= c < size:
                memo[marks + c] |= 2
        for c in range(size):
            if memo[marks + c] & 2 and cells[c] == value:
                memo[marks + c] |= 1
                stack.append(c)
        memo[base] = 1
    while stack:
        c = stack.pop()
        if memo[marks + c] & 4:
            memo[base] = 2
        for k in range(deg):
            nb = adj[c * deg + k]
            if nb >= 0 and not memo[marks + nb] & 1 and cells[nb] == value:
                memo[marks + nb] |= 1
                stack.append(nb)
    memo[board:board + size] = cells
    return memo[base] == 2


def empty_cells(cells) -> list[int]:
    """The cells holding nothing (0), in cell order."""
    return [c for c in range(len(cells)) if not cells[c]]


def filled_cells(cells) -> list[int]:
    """The cells holding something, in cell order."""
    return [c for c in range(len(cells)) if cells[c]]


_FNV_START, _FNV_PRIME, _MASK64 = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1


def _fnv(h: int, value, depth: int = 0) -> int:
    """FNV-1a over a place's contents: the bytes of a grid, the numbers (8 bytes each) of a
    zone, counter or grid of numbers (a list, or natively an array of them), a list of those
    (per player) led by its length."""
    if isinstance(value, (bytes, bytearray)):
        for b in value:
            h = ((h ^ b) * _FNV_PRIME) & _MASK64
        return ((h ^ 0xFF) * _FNV_PRIME) & _MASK64  # where the bytes end
    if isinstance(value, (list, tuple, array)):
        if depth > 4:
            raise ValueError("a position nested too deeply")
        h = _fnv(h, len(value), depth + 1)
        for item in value:
            h = _fnv(h, item, depth + 1)
        return h
    v = int(value) & _MASK64
    for _ in range(8):
        h = ((h ^ (v & 0xFF)) * _FNV_PRIME) & _MASK64
        v >>= 8
    return h


def position_key(parts, mover: int) -> int:
    """A key of a position (63 bits): the contents of the places in ``parts``, and the player
    who just moved (-1 when the position leaves the mover out). Equal positions have equal keys,
    on any machine; the engine keeps them to tell repetitions (ko, superko, threefold)."""
    h = _FNV_START
    for part in parts:
        h = _fnv(h, part)
    return _fnv(h, mover) >> 1


def remember(keys: bytes, key: int) -> bytes:
    """``keys`` (8 bytes a position key, little-endian) with ``key`` added at the end: bytes, so
    that copies of a state share them and adding one is a copy of bytes, not of objects."""
    return keys + key.to_bytes(8, "little")


def repeats(keys: bytes) -> int:
    """How many times before the last key of ``keys`` was kept (0: never; 0 when none)."""
    if len(keys) < 8:
        return 0
    last = keys[-8:]
    return sum(1 for i in range(0, len(keys) - 8, 8) if keys[i:i + 8] == last)


def turn_cells(cells, width: int, height: int, lane_major: int, corner: int, size: int, quarters: int,
               mirror: int, to: int = -1) -> int:
    """Turn (or mirror) a square block of a grid's cells in place: see ``ops.turn_block``, which
    does the same for any grid (numbers too); blocks of at most 16 x 16 cells, as the compiled
    kernel keeps them."""
    if size > 16:
        raise ValueError(f"a block of {size} x {size} cells from that corner does not fit on the board")
    from .ops import turn_block as turn
    turn(cells, width, height, lane_major, corner, size, quarters, mirror, to)
    return 0


def _slide_into(cells, adj, deg: int, cell: int, d: int, out: list | None, what: str) -> int:
    """The empty cells from ``cell`` (not included) in direction d appended to ``out`` (when
    given); returns the first filled cell met, or -1 at the edge (or back at the start, around
    a ring)."""
    if not 0 <= cell < len(cells):
        raise ValueError(f"there is no cell here (none) to {what} from")
    if not 0 <= d < deg:
        raise IndexError("no such direction")
    at, steps = adj[cell * deg + d], 0
    while at >= 0 and at != cell and not cells[at] and steps < len(cells):
        if out is not None:
            out.append(at)
        at, steps = adj[at * deg + d], steps + 1
    return at if at >= 0 and at != cell and cells[at] else -1


def reach(cells, adj, deg: int, cell: int, d: int) -> list[int]:
    """``slide`` and then the first filled cell met, if any: where a sliding piece may stop or
    take (a rook's moves are those not holding its own side's pieces)."""
    out: list[int] = []
    met = _slide_into(cells, adj, deg, cell, d, out, "slide")
    return out + [met] if met >= 0 else out


def slide(cells, adj, deg: int, cell: int, d: int) -> list[int]:
    """The empty cells from ``cell`` (not included) in direction d, up to the first filled cell
    or the edge of the board: where a piece sliding that way may stop."""
    out: list[int] = []
    _slide_into(cells, adj, deg, cell, d, out, "slide")
    return out


def met(cells, adj, deg: int, cell: int, d: int) -> list[int]:
    """The last cell of ``reach``, alone: the first filled cell from ``cell`` in direction d, as
    a list of one (none at the edge). A walk whose test fails on every empty cell reads only
    this one (compiler/passes/walk_to_blocker.py)."""
    at = _slide_into(cells, adj, deg, cell, d, None, "slide")
    return [at] if at >= 0 else []


def blocker(cells, adj, deg: int, cell: int, d: int) -> int:
    """The first filled cell from ``cell`` (not included) in direction d: the piece a slide that
    way meets; -1 (none) when it reaches the edge of the board."""
    return _slide_into(cells, adj, deg, cell, d, None, "look")


def sides_touched(cells, on_side, count: int, n: int) -> list[int]:
    """The sides (by number, in order) along which at least one of ``cells`` lies, read from
    ``on_side`` (``side * n + cell`` -> 1 where the cell lies along the side): ``sides(G, cells)``.
    A cell off the board lies along none."""
    if count > 64:
        raise ValueError("a board of more than 64 sides")
    if len(on_side) < count * n:
        raise ValueError("the table of sides is too short")
    found = 0
    for c in cells:
        if 0 <= c < n:
            for s in range(count):
                if on_side[s * n + c]:
                    found |= 1 << s
    return [s for s in range(count) if found >> s & 1]


def chain(cells, adj, deg: int, cell: int) -> list[int]:
    """The cells joined to ``cell`` through neighbours holding what it holds (itself included),
    in cell order; for an empty cell, the empty cells joined to it (a region of the board)."""
    if not 0 <= cell < len(cells):
        raise ValueError("there is no cell here (none) to start a chain from")
    return list(group_at(cells, adj, deg, cell, cells[cell], 0))


def liberties(cells, adj, deg: int, cell: int) -> list[int]:
    """The empty cells next to the chain of ``cell`` (the cells joined to it through neighbours
    holding what it holds), in cell order; none for an empty cell."""
    if not 0 <= cell < len(cells):
        raise IndexError("no such cell")
    colour = cells[cell]
    if not colour:
        return []
    mark = bytearray(len(cells))  # 1: in the chain, 2: a liberty
    mark[cell] = 1
    stack = [cell]
    while stack:
        c = stack.pop()
        for d in range(deg):
            x = adj[c * deg + d]
            if x < 0 or mark[x]:
                continue
            if cells[x] == colour:
                mark[x] = 1
                stack.append(x)
            elif not cells[x]:
                mark[x] = 2
    return [c for c in range(len(cells)) if mark[c] == 2]


def ring(cells, adj, deg: int, turns, cell: int) -> bool:
    """Whether the piece at ``cell`` closes a ring: a loop of cells holding what it holds,
    through ``cell``, that never turns sharply. ``turns`` lists the board's directions in their
    order around a cell; from one step to the next the direction moves at most one place in it
    (on hexagons: straight on, or 60 degrees), at ``cell`` too. Such a loop always surrounds at
    least one cell (Havannah's ring). A depth-first search of the walks from ``cell``, each
    cell at most once on a walk; the same answer as the compiled kernel."""
    if not 0 <= cell < len(cells):
        raise ValueError("there is no cell here (none) to look for a ring from")
    colour = cells[cell]
    k = len(turns)
    if not colour or k < 3:
        return False
    on_walk = bytearray(len(cells))
    on_walk[cell] = 1
    for first in range(k):
        start = adj[cell * deg + turns[first]]
        if start < 0 or cells[start] != colour:
            continue
        on_walk[start] = 1
        walk = [[start, first, 0]]  # each step: its cell, the place in turns it was entered by, turns tried
        while walk:
            step = walk[-1]
            at, came, tried = step
            if tried == 3:  # left, straight on and right all tried: back one step
                on_walk[at] = 0
                walk.pop()
                continue
            step[2] += 1
            way = (came + tried - 1) % k
            nxt = adj[at * deg + turns[way]]
            if nxt < 0 or cells[nxt] != colour:
                continue
            if nxt == cell:  # back at the start: a ring if leaving it again turns no more than once
                if (first - way) % k in (0, 1, k - 1):
                    return True
                continue
            if on_walk[nxt]:
                continue
            on_walk[nxt] = 1
            walk.append([nxt, way, 0])
    return False


def liberty_count(cells, adj, deg: int, cell: int, limit: int = -1) -> int:
    """How many empty cells are next to the chain of ``cell`` (0 for an empty cell), counting
    no further than ``limit`` when it is positive (``> 1`` is decided at 2)."""
    found = len(liberties(cells, adj, deg, cell))
    return found if limit <= 0 else min(found, limit)


def neighbours_holding(cells, adj, deg: int, code: int) -> bytes:
    """One byte per cell: 1 where some neighbour (by the table) holds ``code``, else 0 (what
    ``any(G[n] == code for n in neighbours(G, c))`` says of every cell c at once)."""
    n = len(cells)
    if len(adj) < n * deg:
        raise ValueError("a table of neighbours shorter than the board")
    return bytes(int(any(0 <= x < n and cells[x] == code for x in adj[c * deg:c * deg + deg])) for c in range(n))


def around(members, adj, deg: int, n: int) -> list[int]:
    """The cells next to any of ``members`` (cells of a board of n cells) and not among them,
    in cell order."""
    mark = bytearray(n)
    for c in members:
        if not 0 <= c < n:
            raise IndexError("no such cell")
        mark[c] = 1
    for c in members:
        for d in range(deg):
            x = adj[c * deg + d]
            if x >= 0 and not mark[x]:
                mark[x] = 2
    return [c for c in range(n) if mark[c] == 2]


def first_holding(cells, kinds: int, kind: int, owner: int) -> int:
    """The first of ``cells_holding(cells, kinds, kind, owner)``, or -1 (none): where the king
    stands, without a list of every cell."""
    if kinds <= 0:
        raise ValueError("kinds must be positive")
    for c in range(len(cells)):
        e = cells[c] - 1
        if e >= 0 and (kind == -2 or e % kinds == kind) and (owner == -2 or e // kinds == owner):
            return c
    return -1


def cells_holding(cells, kinds: int, kind: int, owner: int) -> list[int]:
    """The cells whose element e (the byte - 1) has ``e % kinds == kind`` and ``e // kinds ==
    owner``, in cell order; -2 for either matches any (and none, -1, matches nothing). On a grid
    of pieces (e = owner * kinds + kind) that is the pieces of a kind, of an owner or both;
    ``kinds`` 256 and owner -2 finds one value on any grid."""
    if kinds <= 0:
        raise ValueError("kinds must be positive")
    out = []
    for c in range(len(cells)):
        e = cells[c] - 1
        if e >= 0 and (kind == -2 or e % kinds == kind) and (owner == -2 or e // kinds == owner):
            out.append(c)
    return out


# ---- observations ------------------------------------------------------------------------------
def observe_counts(out: list, values, lo: int, size: int) -> None:
    """Append to ``out`` how many of ``values`` equal lo, lo + 1, ... lo + size - 1 (others are
    not counted), then the last value's place + 1 (0 when there is none)."""
    counts = [0] * size
    for v in values:
        if 0 <= v - lo < size:
            counts[v - lo] += 1
    out.extend(counts)
    out.append(values[-1] - lo + 1 if values else 0)


def observe_planes(out: list, cells, size: int, shown: bool) -> None:
    """Append the planes of a grid of element codes (value + 1, 0 empty): ``size`` planes of
    its cells, 1 where a cell holds that value, then a plane of cells holding something unseen
    (all of them when not ``shown``)."""
    n = len(cells)
    planes = [0] * ((size + 1) * n)
    for c in range(n):
        v = cells[c]
        if v:
            planes[((v - 1) if shown else size) * n + c] = 1
    out.extend(planes)


# ---- play()'s rollback: one state's slots kept in another's ----------------------------------
def slot_plan(cls: type, same: tuple = (), lists: tuple = (), parts: tuple = (), inner: tuple = ()) -> tuple:
    """How keep_slots keeps a state of class ``cls`` in another (play()'s rollback copy): the
    slots taken as they are (``same``: numbers, tuples, lists never changed in place), those
    overwritten in place (``lists``: zones, grids, counters per seat), those overwritten part by
    part (``parts``: a place per seat), and (slot, its object's slot) pairs copied one level
    down (``inner``: a generator's state). The compiled twin reads each slot's place off its
    descriptor once, here."""
    return (cls, tuple(same), tuple(lists), tuple(parts), tuple(inner))


def keep_slots(into, source, plan: tuple) -> None:
    """``into`` made what ``source`` is, slot by slot as ``plan`` (slot_plan) says, with no list
    or state made: what a Python engine's _keep_into does."""
    _cls, same, lists, parts, inner = plan
    for name in same:
        setattr(into, name, getattr(source, name))
    for name, inner_name in inner:
        setattr(getattr(into, name), inner_name, getattr(getattr(source, name), inner_name))
    for name in lists:
        getattr(into, name)[:] = getattr(source, name)
    for name in parts:
        mine = getattr(into, name)
        for i, part in enumerate(getattr(source, name)):
            mine[i][:] = part

