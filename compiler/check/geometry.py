"""Board geometry, precomputed when an engine is generated: cell numbering, neighbour tables
(``adj``), direction tables (``step``) and, for hex boards, which sides an exit crosses.

Layouts (shared with the runtime kernels):
- square grid w x h: cell = y * w + x, y = 0 the bottom row; directions E, W, N, S (d ^ 1 is
  the opposite of d);
- lanes: ``lanes`` columns of ``height`` cells, lane-major: cell = lane * height + row, row 0
  the floor; neighbours are orthogonal;
- hex board of side s: 3s(s-1)+1 cells in rows of s, s+1, ..., 2s-1, ..., s cells, numbered
  row by row from the south, west to east; directions E, W, NE, SW, NW, SE.
- walls of a board: the places between two cells of a board that share a side (a square's
  four sides, a hexagon's six, a segment of a line), numbered by the first cell then direction;
  what stands there (a wall, a fence) is a grid's cell like any other.
- points and lines: the points named in the lines (a1: column letter, row number), numbered row
  by row from the south, west to east; two points next to each other on a line are neighbours,
  in the direction of the step between them (E, W, N, S, and the diagonals if a line has one).
"""
from __future__ import annotations

from array import array

import attrs

SQUARE_DIRS = ("e", "w", "n", "s")
#: a square board "with diagonals": the orthogonal directions, then the diagonal ones
EIGHT_DIRS = ("e", "w", "n", "s", "ne", "sw", "nw", "se")
_EIGHT_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (-1, 1), (1, -1))
#: a mancala board: the way seeds are sown (counterclockwise) and back
MANCALA_DIRS = ("ccw", "cw")
#: the sides of a square board, clockwise from the south
SQUARE_SIDES = ("s", "w", "n", "e")
HEX_DIRS = ("e", "w", "ne", "sw", "nw", "se")
#: the sides of a hexagonal board, clockwise from the south (on a map with north up)
HEX_SIDES = ("s", "sw", "nw", "n", "ne", "se")
#: the sides of a triangle of hexagons, clockwise from the south: its long side faces north-east
TRIANGLE_SIDES = ("s", "w", "ne")


@attrs.frozen
class Geometry:
    kind: str  # square | lanes | hex | rhombus | triangle | star | mancala | points
    cells: int
    width: int  # columns (square), lanes, or the hex side
    height: int
    dirs: tuple
    adj: tuple  # n * len(dirs) neighbours, -1 for none
    coords: tuple  # per cell: (x, y) for grids, (q, r) axial for hex
    rows: tuple  # per cell: its row counted from the south / floor (0-based)
    exits: tuple = ()  # per (cell * deg + d) the sides crossed leaving the board, () if it stays
    numbered: bool = False  # cells named 1, 2, 3... in reading order (north row first, west to east)
    lines: tuple = ()  # a board of points and lines: per line, its points in order
    ends: tuple = ()  # walls of a board: per wall, the two cells of the board it stands between
    slots: tuple = ()  # walls of a board: per (board cell * its directions + d), the wall crossed, -1 none
    base: Geometry | None = None  # walls of a board: that board


    @property
    def deg(self) -> int:
        return len(self.dirs)

    @property
    def sides(self) -> tuple:
        if self.kind in ("mancala", "points", "walls", "star"):
            return ()
        return {"hex": HEX_SIDES, "triangle": TRIANGLE_SIDES}.get(self.kind, SQUARE_SIDES)

    def side_cells(self) -> tuple:
        """Per side (in ``sides`` order): the cells along it, those a step can leave the board
        from across that side."""
        out = []
        for i in range(len(self.sides)):
            out.append(tuple(c for c in range(self.cells)
                             if any(i in self.exits[c * self.deg + d] for d in range(self.deg))))
        return tuple(out)

    def reading_order(self) -> tuple:
        """The cells as a page is read: the north row first, each row from the west."""
        _shape, centres = self.layout()
        return tuple(sorted(range(self.cells), key=lambda c: (centres[c][1], centres[c][0])))

    def cell_names(self) -> tuple:
        """Readable cell names: a1 (column letter, row number from the south/floor) for
        squares and lanes; for hex boards, row letter from the south and place from the west;
        1, 2, 3... in reading order for a numbered grid."""
        if self.numbered:
            names = [""] * self.cells
            for number, c in enumerate(self.reading_order(), 1):
                names[c] = str(number)
            return tuple(names)
        if self.kind == "walls":
            names = self.base.cell_names()
            return tuple(f"{names[a]}|{names[b]}" for a, b in self.ends)
        if self.kind == "mancala":
            n = self.width
            return tuple([f"{_letters(i)}1" for i in range(n)] + ["store1"]
                         + [f"{_letters(n - 1 - i)}2" for i in range(n)] + ["store2"])
        if self.kind in ("hex", "star"):
            names, count = [], {}
            for row in self.rows:
                count[row] = count.get(row, 0) + 1
                names.append(f"{_letters(row)}{count[row]}")
            return tuple(names)
        return tuple(f"{_letters(x)}{y + 1}" for x, y in self.coords)

    def layout(self) -> tuple[str, tuple]:
        """How to draw the board: the cell shape ("square", "hex" or "pit") and each cell's
        centre in cell widths, x to the east, y to the south (the north row at the top)."""
        if self.kind == "walls":  # each wall halfway between its two cells
            _shape, centres = self.base.layout()
            return "wall", tuple((round((centres[a][0] + centres[b][0]) / 2, 3),
                                  round((centres[a][1] + centres[b][1]) / 2, 3)) for a, b in self.ends)
        if self.kind == "hex":
            k = self.width - 1
            return "hex", tuple((round(q + r / 2 + k / 2, 3), round((r + k) * 0.866, 3)) for q, r in self.coords)
        if self.kind == "star":
            k = 2 * self.width
            return "hex", tuple((round(q + r / 2 + k / 2, 3), round((r + k) * 0.866, 3)) for q, r in self.coords)
        if self.kind in ("rhombus", "triangle"):
            return "hex", tuple((round(x + y / 2, 3), round((self.height - 1 - y) * 0.866, 3)) for x, y in self.coords)
        if self.kind == "mancala":
            stores = (self.width, 2 * self.width + 1)  # the stores sit between the rows, at the ends
            return "pit", tuple((float(x), 0.5 if c in stores else float(1 - y))
                                for c, (x, y) in enumerate(self.coords))
        if self.kind == "points":
            return "point", tuple((float(x), float(self.height - 1 - y)) for x, y in self.coords)
        return "square", tuple((float(x), float(self.height - 1 - y)) for x, y in self.coords)

    def table(self) -> array:
        return array("h", self.adj)

    def line_steps(self) -> list[int]:
        """For ``in_a_row`` on a board of at most 64 cells where a step in a direction is the
        same change of cell number from every cell and d + 1 is d's way back (squares, lanes,
        rhombi; not a ring, a hexagon's rows of different lengths, a star): per line (the
        directions 0, 2, 4... that lead anywhere), that change and the mask of the cells that
        have a neighbour that way; [] for any other board (in_a_row then walks the cells)."""
        deg, cells, adj = self.deg, self.cells, self.adj
        if not 0 < cells <= 64 or deg < 2:
            return []
        out = []
        for d in range(0, deg - 1, 2):
            steps, mask = set(), 0
            for c in range(cells):
                ahead, back = adj[c * deg + d], adj[c * deg + d + 1]
                if (ahead >= 0 and adj[ahead * deg + d + 1] != c) or (back >= 0 and adj[back * deg + d] != c):
                    return []
                if ahead >= 0:
                    steps.add(ahead - c)
                    mask |= 1 << c
            if len(steps) > 1 or 0 in steps:
                return []
            if steps:
                out += [steps.pop(), mask]
        return out


def _letters(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(97 + r) + out
    return out


def column_number(letters: str) -> int:
    """The column a name's letters give, from 0: a 0, z 25, aa 26 (the inverse of _letters)."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 96
    return n - 1


#: the lattice a board of points and lines is laid on: at most this many columns and rows
LATTICE = 64


def _point(name: str) -> tuple[int, int] | None:
    """A point's (column, row) from its name (``d7``: column 3, row 6), or None if it is not
    a column letter and a row number."""
    letters = name.rstrip("0123456789")
    digits = name[len(letters):]
    if not (letters.isascii() and letters.isalpha() and letters.islower() and digits.isdigit()
            and digits[0] != "0"):
        return None
    return column_number(letters), int(digits) - 1


class BadLines(ValueError):
    """Why a board's lines cannot be laid: the message, and which line (from 0) says it."""

    def __init__(self, message: str, line: int, hint: str | None = None):
        super().__init__(message)
        self.message, self.line, self.hint = message, line, hint


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def points(lines: list[str]) -> Geometry:
    """``lines "a7 d7 g7", ...``: a board of points and the lines through them (a mill board, an
    alquerque board). Each text is one line, its points in order; the points are those the
    lines name. Consecutive points of a line are neighbours; the direction between them is that
    of the step on the lattice (d1 to d2 north, a1 to b2 north-east)."""
    walks = []
    for i, text in enumerate(lines):
        names = text.split()
        if not names:
            raise BadLines("this line names no point", i, 'write its points in order: "a1 d1 g1"')
        for name in names:
            if _point(name) is None:
                raise BadLines(f"'{name}' is not a point's name", i,
                               "name a point by its column letter and row number, as a1 or d7")
        if len(set(names)) < len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise BadLines(f"'{twice}' is twice on this line", i)
        walks.append([_point(name) for name in names])
        far = next((n for n, (x, y) in zip(names, walks[-1]) if x >= LATTICE or y >= LATTICE), None)
        if far is not None:
            raise BadLines(f"'{far}' lies beyond the board's lattice (columns a to {_letters(LATTICE - 1)}, "
                           f"rows 1 to {LATTICE})", i)
    places = sorted({p for walk in walks for p in walk}, key=lambda p: (p[1], p[0]))
    index = {p: i for i, p in enumerate(places)}
    diagonal = any(dx and dy for walk in walks for (ax, ay), (bx, by) in zip(walk, walk[1:])
                   for dx, dy in [(bx - ax, by - ay)])
    steps, dirs = (_EIGHT_STEPS, EIGHT_DIRS) if diagonal else (_EIGHT_STEPS[:4], SQUARE_DIRS)
    deg = len(dirs)
    adj = [-1] * (len(places) * deg)
    for i, walk in enumerate(walks):
        for a, b in zip(walk, walk[1:]):
            d = steps.index((_sign(b[0] - a[0]), _sign(b[1] - a[1])))
            for here, there, way in ((a, b, d), (b, a, d ^ 1)):
                slot = index[here] * deg + way
                if adj[slot] not in (-1, index[there]):
                    name = f"{_letters(here[0])}{here[1] + 1}"
                    raise BadLines(f"two lines leave {name} towards the {dirs[way].upper()}", i,
                                   "a point has one neighbour in each direction; join them by one line")
                adj[slot] = index[there]
    width = max(x for x, _y in places) + 1
    height = max(y for _x, y in places) + 1
    return Geometry("points", len(places), width, height, dirs, tuple(adj), tuple(places),
                    tuple(y for _x, y in places), tuple(() for _ in adj),
                    lines=tuple(tuple(index[p] for p in walk) for walk in walks))


def walls(base: Geometry) -> Geometry:
    """``walls of G``: a place between every two cells of G that share a side (on square boards
    and lanes the orthogonal neighbours, not the diagonal ones; on hex boards all six; on a board
    of points the segments of its lines). Numbered by the lower cell, then by direction."""
    side_dirs = [d for d, name in enumerate(base.dirs)
                 if base.kind not in ("square", "lanes") or name in SQUARE_DIRS]
    ends, slots = [], [-1] * len(base.adj)
    for a in range(base.cells):
        for d in side_dirs:
            b = base.adj[a * base.deg + d]
            if b > a:
                slots[a * base.deg + d] = len(ends)
                ends.append((a, b))
    number = {pair: k for k, pair in enumerate(ends)}
    for a in range(base.cells):  # the same wall seen from the other cell
        for d in side_dirs:
            b = base.adj[a * base.deg + d]
            if 0 <= b < a:
                slots[a * base.deg + d] = number[(b, a)]
    return Geometry("walls", len(ends), base.width, base.height, (), (), tuple(base.coords[a] for a, _b in ends),
                    tuple(base.rows[a] for a, _b in ends), (), ends=tuple(ends), slots=tuple(slots), base=base)


def wall_corners(geo: Geometry) -> tuple[list[int], list[int]] | None:
    """For walls of a square board, where the walls meet: per wall, its two corners (the ends
    of the side it stands on, a corner numbered y * (width + 1) + x); per corner, whether it
    lies on the board's edge (some square around it is not on the board), then the walls that
    end there (four places, -1 where none). What ``K.walls_hang`` reads to tell that a wall
    put up closes no loop of walls. None for other boards."""
    base = geo.base
    if geo.kind != "walls" or base is None or base.kind != "square":
        return None
    width = base.width + 1
    on_board = {tuple(xy) for xy in base.coords}
    ends = []
    for a, b in geo.ends:
        (xa, ya), (xb, yb) = base.coords[a], base.coords[b]
        if ya == yb:  # side by side: the side between them runs north and south
            x = max(xa, xb)
            ends += [ya * width + x, (ya + 1) * width + x]
        else:  # one above the other: the side between them runs east and west
            y = max(ya, yb)
            ends += [y * width + xa, y * width + xa + 1]
    corners = width * (base.height + 1)
    around = [-1] * (5 * corners)
    for corner in range(corners):
        x, y = corner % width, corner // width
        around[5 * corner] = int(any((x - dx, y - dy) not in on_board for dx in (0, 1) for dy in (0, 1)))
    for wall in range(len(geo.ends)):
        for corner in ends[2 * wall:2 * wall + 2]:
            row = around[5 * corner + 1:5 * corner + 5]
            around[5 * corner + 1 + row.index(-1)] = wall
    return ends, around


def point_line_tables(lines, cells: int) -> tuple[list[int], list[int]]:
    """A board of points and lines as two tables of the shape a cell's neighbours have, for loops
    that walk them in C (compiler/passes/point_lines.py): per point, the numbers of the lines
    through it in the order they were declared, and per line, its points in order; each row as
    long as the longest, -1 after its end. Empty for a board with no lines."""
    if not lines:
        return [], []
    through: list[list[int]] = [[] for _ in range(cells)]
    for number, line in enumerate(lines):
        for c in line:
            through[c].append(number)
    most, longest = max(map(len, through)), max(map(len, lines))
    return ([v for row in through for v in row + [-1] * (most - len(row))],
            [c for line in lines for c in list(line) + [-1] * (longest - len(line))])


def leap_table(geo: Geometry, m: int, n: int) -> tuple[int, tuple]:
    """The cells an (m, n) leaper reaches from each cell (a knight is a (1, 2) leaper): the
    offsets (m, n) and (n, m) with either sign, fewer when m == n or one is 0; per cell, a row of
    that many cells, -1 off the board. Returns (offsets per cell, the table)."""
    offsets = sorted({(sx * a, sy * b) for a, b in ((m, n), (n, m)) for sx in (1, -1) for sy in (1, -1)})
    where = {xy: c for c, xy in enumerate(geo.coords)}
    table = [where.get((x + dx, y + dy), -1) for x, y in geo.coords for dx, dy in offsets]
    return len(offsets), tuple(table)


def _exits(nx: int, ny: int, width: int, height: int) -> tuple:
    """The sides (0 south, 1 west, 2 north, 3 east) a step to (nx, ny) leaves a w x h board by:
    two for a diagonal step out of a corner."""
    out = []
    if ny < 0:
        out.append(0)
    if nx < 0:
        out.append(1)
    if ny >= height:
        out.append(2)
    if nx >= width:
        out.append(3)
    return tuple(out)


def _planar(kind: str, width: int, height: int, steps: tuple, dirs: tuple, index) -> Geometry:
    """A board whose cells are the (x, y) of a width x height rectangle; ``index(x, y)`` numbers them."""
    coords = sorted(((x, y) for y in range(height) for x in range(width)), key=lambda c: index(*c))
    adj, exits = [], []
    for x, y in coords:
        for dx, dy in steps:
            nx, ny = x + dx, y + dy
            inside = 0 <= nx < width and 0 <= ny < height
            adj.append(index(nx, ny) if inside else -1)
            exits.append(() if inside else _exits(nx, ny, width, height))
    return Geometry(kind, width * height, width, height, dirs, tuple(adj), tuple(coords),
                    tuple(c[1] for c in coords), tuple(exits))


def _steps(diagonals: bool | str) -> tuple[tuple, tuple]:
    """The steps and direction names: orthogonal, all eight, or the diagonal ones only
    (draughts moves on the diagonals of the dark squares)."""
    if diagonals == "only":
        return _EIGHT_STEPS[4:], EIGHT_DIRS[4:]
    return (_EIGHT_STEPS, EIGHT_DIRS) if diagonals else (_EIGHT_STEPS[:4], SQUARE_DIRS)


def square(width: int, height: int, diagonals: bool | str = False) -> Geometry:
    steps, dirs = _steps(diagonals)
    return _planar("square", width, height, steps, dirs, lambda x, y: y * width + x)


def lanes(count: int, height: int, diagonals: bool | str = False) -> Geometry:
    steps, dirs = _steps(diagonals)
    return _planar("lanes", count, height, steps, dirs, lambda x, y: x * height + y)


#: a rhombus of hexagons, each row shifted half a cell east of the one below: E W NE SW NW SE
_RHOMBUS_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1))


def rhombus(width: int, height: int) -> Geometry:
    """``hex W by H``: hexagonal cells in a parallelogram (the board of Hex and its kin),
    cell = y * W + x, y = 0 the south row; sides south, west, north, east as a square's."""
    return _planar("rhombus", width, height, _RHOMBUS_STEPS, HEX_DIRS, lambda x, y: y * width + x)


def triangle(side: int) -> Geometry:
    """``hex triangle S``: hexagonal cells in a triangle of side S (the board of Y), the cells of
    a rhombus S by S with x + y < S, numbered row by row from the south, each from the west, and
    neighbours as a rhombus's; its three sides are the south row, the west column and the long
    side facing north-east."""
    coords = [(x, y) for y in range(side) for x in range(side - y)]
    adj, exits = _linked(coords, _RHOMBUS_STEPS,
                         lambda x, y: tuple(i for i, out in enumerate((y < 0, x < 0, x + y >= side)) if out))
    return Geometry("triangle", len(coords), side, side, HEX_DIRS, adj, tuple(coords),
                    tuple(y for _x, y in coords), exits)


def _linked(coords: list, steps: tuple, leaving) -> tuple[tuple, tuple]:
    """The neighbours of cells given by their coordinates (-1 off the board) and, for each step
    off it, the sides it crosses (``leaving(x, y)`` of the place it would reach)."""
    index = {c: i for i, c in enumerate(coords)}
    adj, exits = [], []
    for x, y in coords:
        for dx, dy in steps:
            j = index.get((x + dx, y + dy), -1)
            adj.append(j)
            exits.append(() if j >= 0 else leaving(x + dx, y + dy))
    return tuple(adj), tuple(exits)


def mancala(houses: int) -> Geometry:
    """``mancala N``: two rows of N houses and a store at each end, numbered along the way seeds
    are sown (counterclockwise): the first seat's houses west to east (0..N-1), its store (N),
    the second seat's houses east to west (N+1..2N), its store (2N+1)."""
    total = 2 * houses + 2
    adj = []
    for c in range(total):
        adj += [(c + 1) % total, (c - 1) % total]
    coords = ([(x + 1, 0) for x in range(houses)] + [(houses + 1, 0)]
              + [(houses - x, 1) for x in range(houses)] + [(0, 1)])
    return Geometry("mancala", total, houses, 2, MANCALA_DIRS, tuple(adj), tuple(coords),
                    tuple(y for _x, y in coords), tuple(() for _ in range(total * 2)))


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


def star(points: int) -> Geometry:
    """``star N``: the six-pointed star of hexagons of Chinese checkers (``star 4``: 121 cells),
    a hexagon of side N + 1 with a triangle of N rows on each of its sides. Its cells are those
    of two large triangles, in axial coordinates (q, r, s = -q - r) those with the largest
    coordinate at most N or the smallest at least -N; rows from the south (the south point's tip
    is row a), each from the west, and neighbours as a hexagon's. It has no sides to leave by:
    its regions are found by rows and places."""
    n, k = points, 2 * points
    cells = [(q, r) for r in range(k, -k - 1, -1) for q in range(-k, k + 1)
             if max(q, r, -q - r) <= n or min(q, r, -q - r) >= -n]
    adj, exits = _linked(cells, _HEX_STEPS, lambda q, r: ())
    return Geometry("star", len(cells), points, 2 * k + 1, HEX_DIRS, adj, tuple(cells),
                    tuple(k - r for _q, r in cells), exits)

