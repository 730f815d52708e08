"""Board geometry, precomputed when an engine is generated: cell numbering, neighbour tables
(``adj``), direction tables (``step``) and, for hex boards, which sides an exit crosses.

Layouts (shared with the runtime kernels):
- square grid w x h: cell = y * w + x, y = 0 the bottom row; directions E, W, N, S (d ^ 1 is
  the opposite of d);
- lanes: ``lanes`` columns of ``height`` cells, lane-major: cell = lane * height + row, row 0
  the floor; neighbours are orthogonal;
- hex board of side s: 3s(s-1)+1 cells in rows of s, s+1, ..., 2s-1, ..., s cells, numbered
  row by row from the south, west to east; directions E, W, NE, SW, NW, SE.
"""
from __future__ import annotations

from array import array

import attrs

SQUARE_DIRS = ("e", "w", "n", "s")
#: the sides of a square board, clockwise from the south
SQUARE_SIDES = ("s", "w", "n", "e")
HEX_DIRS = ("e", "w", "ne", "sw", "nw", "se")
#: the sides of a hexagonal board, clockwise from the south (on a map with north up)
HEX_SIDES = ("s", "sw", "nw", "n", "ne", "se")


@attrs.frozen
class Geometry:
    kind: str  # square | lanes | hex
    cells: int
    width: int  # columns (square), lanes, or the hex side
    height: int
    dirs: tuple
    adj: tuple  # n * len(dirs) neighbours, -1 for none
    coords: tuple  # per cell: (x, y) for grids, (q, r) axial for hex
    rows: tuple  # per cell: its row counted from the south / floor (0-based)
    exits: tuple = ()  # per (cell * deg + d) the sides crossed leaving the board, () if it stays

    @property
    def deg(self) -> int:
        return len(self.dirs)

    @property
    def sides(self) -> tuple:
        return HEX_SIDES if self.kind == "hex" else SQUARE_SIDES

    def cell_names(self) -> tuple:
        """Readable cell names: a1 (column letter, row number from the south/floor) for
        squares and lanes; for hex boards, row letter from the south and place from the west."""
        if self.kind == "hex":
            names, count = [], {}
            for row in self.rows:
                count[row] = count.get(row, 0) + 1
                names.append(f"{_letters(row)}{count[row]}")
            return tuple(names)
        return tuple(f"{_letters(x)}{y + 1}" for x, y in self.coords)

    def table(self) -> array:
        return array("h", self.adj)


def _letters(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(97 + r) + out
    return out


def square(width: int, height: int) -> Geometry:
    adj, exits = [], []
    coords = []
    for y in range(height):
        for x in range(width):
            coords.append((x, y))
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                inside = 0 <= nx < width and 0 <= ny < height
                adj.append(ny * width + nx if inside else -1)
                side = () if inside else ((3,) if nx >= width else (1,) if nx < 0 else (2,) if ny >= height else (0,))
                exits.append(side)
    return Geometry("square", width * height, width, height, SQUARE_DIRS, tuple(adj), tuple(coords),
                    tuple(c[1] for c in coords), tuple(exits))


def lanes(count: int, height: int) -> Geometry:
    adj = []
    coords = []
    for lane in range(count):
        for row in range(height):
            coords.append((lane, row))
            for dl, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nl, nr = lane + dl, row + dr
                adj.append(nl * height + nr if 0 <= nl < count and 0 <= nr < height else -1)
    return Geometry("lanes", count * height, count, height, SQUARE_DIRS, tuple(adj), tuple(coords),
                    tuple(c[1] for c in coords))


_HEX_STEPS = ((1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1), (0, 1))  # E W NE SW NW SE; r grows south


def hexagon(side: int) -> Geometry:
    k = side - 1
    cells = [(q, r) for r in range(k, -k - 1, -1) for q in range(-k, k + 1) if abs(q + r) <= k]
    index = {c: i for i, c in enumerate(cells)}
    adj, exits = [], []
    for q, r in cells:
        for dq, dr in _HEX_STEPS:
            nq, nr = q + dq, r + dr
            j = index.get((nq, nr), -1)
            adj.append(j)
            if j >= 0:
                exits.append(())
                continue
            crossed = []
            if nr > k:
                crossed.append("s")
            if nq < -k:
                crossed.append("sw")
            if nq + nr < -k:
                crossed.append("nw")
            if nr < -k:
                crossed.append("n")
            if nq > k:
                crossed.append("ne")
            if nq + nr > k:
                crossed.append("se")
            exits.append(tuple(HEX_SIDES.index(c) for c in crossed))
    rows = tuple(k - r for q, r in cells)
    return Geometry("hex", len(cells), side, 2 * side - 1, HEX_DIRS, tuple(adj), tuple(cells), rows,
                    tuple(exits))
