"""The pure twin of runtime/_kernels_walls.pxi: the ways between a board's cells that no standing
wall crosses (open neighbours, distances, reachability and the ways it keeps, the marks of the
ways a position keeps). Its functions are the kernels' own: ``regle.runtime.kernels`` imports
them, and the compiled kernels are held to them by tests/test_walls.py and test_kept_ways.py."""
from __future__ import annotations

from array import array

# ---- walls: ways between the cells of a board that no standing wall crosses -------------------
# ``slots[c * deg + d]`` is the place (a cell of the grid of walls) between cell c and its
# neighbour in direction d, -1 where none is; a wall stands where ``walls[place]`` is not 0.
# Without walls (``slots`` None) every neighbour is open.

def _open(slots, walls, k: int) -> bool:
    return slots is None or slots[k] < 0 or not walls[slots[k]]


def open_neighbours(adj, deg: int, slots, walls, cell: int) -> list[int]:
    """The cells next to ``cell`` that no standing wall separates from it."""
    if cell < 0:
        raise ValueError("there is no cell here (none) to look around")
    return [adj[k] for k in range(cell * deg, cell * deg + deg) if adj[k] >= 0 and _open(slots, walls, k)]


def _targets(to) -> set:
    """The target cells: a cell, a list of cells, or a mask of the board's cells (bytes, not 0
    where a cell is one, as a grid's SIDE_MASKS give a side)."""
    if isinstance(to, bytes):
        return {c for c, v in enumerate(to) if v}
    targets = {to} if isinstance(to, int) else set(to)
    if -1 in targets:
        raise ValueError("there is no cell here (none) to go to")
    return targets


def _search(adj, deg: int, slots, walls, a: int, targets: set) -> tuple[dict, int]:
    """Breadth first from a, crossing no standing wall, in direction order: each cell reached
    with the step it was reached by (an index into adj, -1 for a), and the first target reached
    (-1 none)."""
    via = {a: -1}
    frontier = [a]
    while frontier:
        nxt = []
        for c in frontier:
            for k in range(c * deg, c * deg + deg):
                nb = adj[k]
                if nb < 0 or nb in via or not _open(slots, walls, k):
                    continue
                via[nb] = k
                if nb in targets:
                    return via, nb
                nxt.append(nb)
        frontier = nxt
    return via, -1


def _way(via: dict, deg: int, end: int) -> list[int]:
    """The steps the search took to ``end`` (indices into adj), from the start's."""
    steps = []
    while via[end] >= 0:
        steps.append(via[end])
        end = via[end] // deg
    return steps[::-1]


def walled_distance(adj, deg: int, slots, walls, a: int, to) -> int:
    """The fewest steps from cell a to cell ``to`` (or the nearest of a list of cells), never
    crossing a standing wall; -1 when every way is walled."""
    if a < 0:
        raise ValueError("there is no cell here (none) to measure from")
    targets = _targets(to)
    if a in targets:
        return 0
    via, end = _search(adj, deg, slots, walls, a, targets)
    return len(_way(via, deg, end)) if end >= 0 else -1


def _walk_kept(adj, deg: int, slots, walls, memo, base: int, a: int,
               whole: bool = True) -> tuple[int, int, list | None]:
    """Where the way kept at ``memo[base]`` (its length in cells, its start, then the step taken
    out of each cell: an index into adj) ends, when it is a way of this board from a (-1 when it
    is not, or unless ``whole`` when a wall cuts it), its first walled step (-1: it is open) and,
    with ``whole`` (the mending, which needs them), its cells (None otherwise: no list made for
    each kept way a search tries first)."""
    length, size, at, cut = memo[base], len(adj) // deg if deg else 0, a, -1
    cells = [a] if whole else None
    if length < 2 or length > size or memo[base + 1] != a:
        return -1, -1, cells
    for i in range(length - 1):
        k = memo[base + 2 + i]
        if not at * deg <= k < at * deg + deg:
            return -1, cut, cells
        if cut < 0 and not _open(slots, walls, k):
            cut = i
            if not whole:
                return -1, cut, cells
        at = adj[k]
        if not 0 <= at < size:
            return -1, cut, cells
        if cells is not None:
            cells.append(at)
    return at, cut, cells


def reachable(adj, deg: int, slots, walls, a: int, to, memo) -> bool:
    """Whether some way leads from cell a to ``to`` (a cell or a list of cells) crossing no
    standing wall. ``memo`` (``array('h')``, a whole number of rows of a cell more than the
    board) keeps the last ways found, each as its length in cells, its start, then the step out
    of each cell (an index into adj, so that a way is checked without looking for its steps),
    the newest first:
    when a way kept from a is still open to a target, it is the answer and nothing is searched
    (the answer never depends on the memo, only the time). A way found goes first, and so does
    a way used from the third row on; the last row's way goes: each start asked in turn (each
    seat's pawn) keeps its ways, and a start keeps the ways around the walls tried one after
    another."""
    return _reach(adj, deg, slots, walls, a, to, memo)[0]


def _reach(adj, deg: int, slots, walls, a: int, to, memo, fresh: bool = False) -> tuple[bool, list]:
    """reachable()'s answer and the steps of the way it used (none when a is a target);
    ``fresh``: searched, not read from the ways kept nor mended (a shortest way)."""
    if a < 0:
        raise ValueError("there is no cell here (none) to start from")
    if memo is not None and not (isinstance(memo, array) and memo.typecode == "h"):
        raise TypeError("the ways kept must be an array('h')")
    targets = _targets(to)
    if a in targets:
        return True, []
    row = len(adj) // deg + 1 if deg else 1
    rows = len(memo) // row if memo is not None else 0
    for r in range(0 if fresh else rows):
        base = r * row
        if _walk_kept(adj, deg, slots, walls, memo, base, a, whole=False)[0] in targets:
            steps = list(memo[base + 2:base + memo[base] + 1])
            if r > 1:  # (from the second row it stays: two starts asked in turn move nothing)
                kept = memo[base:base + row]
                memo[row:(r + 1) * row] = memo[:r * row]
                memo[:row] = kept
            return True, steps
    mended = _repair(adj, deg, slots, walls, memo, rows, row, a, targets) if rows and not fresh else None
    if mended is not None:
        via, end, steps = None, 0, mended
    else:
        via, end = _search(adj, deg, slots, walls, a, targets)
        steps = _way(via, deg, end) if end >= 0 else []
    if rows:  # the way found goes first, the oldest kept goes
        memo[row:rows * row] = memo[:(rows - 1) * row]
        memo[0] = 0
        if end >= 0:
            memo[0], memo[1] = len(steps) + 1, a
            for i, k in enumerate(steps):
                memo[2 + i] = k
    return end >= 0, steps


def _repair(adj, deg: int, slots, walls, memo, rows: int, row: int, a: int, targets: set) -> list | None:
    """The first way kept from a to a target that a wall now cuts, mended round the wall: from
    the cell before its first walled step, breadth first (in direction order) through cells off
    the way's start, to the first cell of the rest of the way or a target. The steps of the way
    mended, or None when no kept way is cut so, or no mending is found (the full search
    decides)."""
    for base in range(0, rows * row, row):
        end, cut, cells = _walk_kept(adj, deg, slots, walls, memo, base, a)
        if end in targets and cut >= 0:
            break
    else:
        return None
    size, length = len(adj) // deg, memo[base]
    if any(c in targets for c in cells[:cut + 1]):  # a target before the cut: the full search decides
        return None
    rest = {c: i for i, c in enumerate(cells) if i > cut}  # where each cell stands on the way
    start = set(cells[:cut + 1])
    u = cells[cut]
    via, queue, meet = {}, [u], -1
    for c in queue:
        for k in range(c * deg, c * deg + deg):
            nb = adj[k]
            if nb < 0 or nb in start or nb in via or not _open(slots, walls, k):
                continue
            via[nb] = k
            if nb in rest or nb in targets:
                meet = nb
                break
            queue.append(nb)
        if meet >= 0:
            break
    if meet < 0:
        return None
    detour, at = [], meet
    while at != u:
        detour.append(via[at])
        at = via[at] // deg
    steps = list(memo[base + 2:base + 2 + cut]) + detour[::-1]
    if meet in rest:
        tail = list(memo[base + 2 + rest[meet]:base + length + 1])
        if not all(_open(slots, walls, k) for k in tail):
            return None
        steps += tail
    return steps if len(steps) + 1 <= size else None


def mark_way(adj, deg: int, slots, walls, a: int, to, marks: bytearray, memo) -> bool:
    """Whether some way leads from cell a to ``to`` crossing no standing wall, as reachable();
    the wall places a shortest way crosses marked 1 in ``marks`` (one byte per place and one
    more): a wall put up anywhere else leaves that way open. The way is searched (the shortest
    ways cross the fewest walls, so fewer candidates need a trial), and kept first in ``memo``,
    where the trials of the candidates find it."""
    if not isinstance(marks, bytearray):
        raise TypeError("the marks must be a bytearray")
    found, steps = _reach(adj, deg, slots, walls, a, to, memo, fresh=True)
    for k in steps if slots is not None else ():
        if 0 <= slots[k] < len(marks) - 1:
            marks[slots[k]] = 1
    return found


def take_marks(marks: bytearray, found: bool) -> bytes:
    """The marks mark_way() left (every place marked when a way was not ``found``, and the
    last byte, where a place that is none is read, always), the scratch emptied for the next
    position."""
    if not isinstance(marks, bytearray):
        raise TypeError("the marks must be a bytearray")
    n = len(marks)
    out = (bytes(marks[:-1]) + b"\x01") if found and n else b"\x02" * n
    marks[:] = bytes(n)
    return out


def walls_hang(walls, corners, around, ways: bytes, w1: int, w2: int = -2) -> bool:
    """Whether the walls w1 and w2 (-2: w1 alone), put up, leave every way open: the ways were
    all found in the position (``ways``, take_marks' bytes, ends in 1), and the new walls touch
    the walls standing or the board's edge at one corner at most (``corners``: per wall its
    two corners; ``around``: per corner, 1 on the edge, then the walls that end there). Two
    squares are parted only by a loop of walls (the edge one of them); walls that hang from
    one corner, or from none, close no loop. False says nothing: the trial decides."""
    if not ways or ways[-1] != 1:
        return False
    if len(corners) < 2 * len(walls):
        raise ValueError("the corners table is smaller than the walls")
    new = [w for w in (w1, w2) if w != -2]
    if not all(0 <= w < len(walls) for w in new):
        return False
    touching = 0
    for v in dict.fromkeys(c for w in new for c in corners[2 * w:2 * w + 2]):
        if not 0 <= v < len(around) // 5:
            raise ValueError("a wall's corner is off the corners table")
        if around[5 * v] or any(0 <= x < len(walls) and x not in new and walls[x]
                                for x in around[5 * v + 1:5 * v + 5]):
            touching += 1
    return touching <= 1
