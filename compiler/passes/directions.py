"""A pass over a move generator's tree: the guards of a loop over a cell's neighbours that ask
only which way the neighbour lies choose the directions once, before the loops.

``action advance(c in filled_cells(board, me), t in neighbours(board, c))`` with ``require
row(board, t) == row(board, c) + forward(me)`` tests every neighbour of every piece, though on
a board whose every step in a direction changes the row (and the column) by the same amount,
the test only asks which directions go forward: ``row(board, t)`` is ``row(board, c)`` plus the
direction's change of row, and ``row(board, c)`` is on both sides. This pass finds such guards
in the chain that opens a loop over one table of neighbours (or of leaps): each is rewritten
with the neighbour's row and column as the cell's plus the direction's change (``_dy``,
``_dx``), the terms both sides of a comparison share are taken away, and a guard left reading
only numbers, ``me`` and the direction's changes is taken out of the loop. A ``Directions``
statement before the outermost loop keeps the directions it allows (each tested once per call
of the generator), and the loop walks those alone (``NeighbourScan.dirs``).

Why it is exact: a table's changes are read from the tables themselves when generating (a
direction qualifies only when every cell's neighbour that way, where there is one, is the same
change of row and column away), so for every neighbour the loop reaches, the rewritten guard
has the truth of the written one. The guards taken out are those ``guard_order`` already tests
first (they read nothing of the state and cannot fail), so testing them before the loops
changes no move and no error; the directions are walked in their order, so the moves come in
the same order.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..ir import types as T
from ..ir.traverse import lineless, over, parts
from .guard_order import cannot_fail

#: the names the rewritten guards give a direction's change of row and of column
DY, DX = "_dy", "_dx"
#: locals a guard taken out of the loops may read: the seat whose moves are listed
OUTSIDE = frozenset(("me",))
#: comparisons, whose two sides may share a term
_COMPARE = frozenset(("==", "!=", "<", "<=", ">", ">="))
#: the most directions a table may have for its tests to be written one by one
MOST = 16


def steps_of(grids) -> dict:
    """Per neighbour (or leap) table of the grids, by its name: (its rows' table, its columns'
    table, and per direction (change of row or None, change of column or None, whether any
    cell has a neighbour that way, its name)). A change is None where cells differ on it."""
    out = {}
    for g in grids:
        if not g.rows or not g.columns or getattr(g, "base", None):
            continue
        tables = [(f"{g.const}_ADJ", len(g.dirs), g.adj, list(g.dirs))]
        tables += [(f"{g.const}_{name}", degree, table, [f"leap {d}" for d in range(degree)])
                   for name, degree, table in g.leaps]
        for name, degree, table, labels in tables:
            if not degree or degree > MOST or len(table) != g.cells * degree:
                continue
            per_dir = []
            for d in range(degree):
                dys, dxs = set(), set()
                for c in range(g.cells):
                    t = table[c * degree + d]
                    if t >= 0:
                        dys.add(g.rows[t] - g.rows[c])
                        dxs.add(g.columns[t] - g.columns[c])
                some = bool(dys)
                per_dir.append((min(dys) if len(dys) == 1 else None, min(dxs) if len(dxs) == 1 else None, some,
                                str(labels[d]) if d < len(labels) else str(d)))
            out[name] = (f"{g.const}_ROWS", f"{g.const}_COLUMNS", tuple(per_dir))
    return out


# ---- the statement the pass adds (written by compiler/write/moves.py) -------------------------
@attrs.frozen
class Directions(S.Stmt):
    """``var``: the directions (of ``degree``) whose ``test`` holds, ``test`` read with ``_dy``
    and ``_dx`` each direction's change of row and column (``steps``: (direction, change of
    row, change of column, its name) of those where a neighbour may be)."""
    var: str
    test: N.Expr
    steps: tuple
    degree: int


def at_step(test: N.Expr, dy: int, dx: int) -> N.Expr:
    """``test`` for one direction: its changes of row and column as numbers."""
    if isinstance(test, N.Local) and test.name in (DY, DX):
        return N.Const(T.INT, test.line, dy if test.name == DY else dx)
    return over(test, lambda part: at_step(part, dy, dx))


# ---- rewriting a guard --------------------------------------------------------------------------
def _as_step(e, rows: str, cols: str, t: str, c: N.Expr):
    """``e`` with the neighbour ``t``'s row (column) read as the cell's plus ``_dy`` (``_dx``)."""
    if isinstance(e, N.Geometry) and e.table in (rows, cols) and isinstance(e.index, N.Local) and e.index.name == t:
        own = N.Geometry(e.type, e.line, e.table, c)
        return N.Binary(T.INT, e.line, "+", own, N.Local(T.INT, e.line, DY if e.table == rows else DX))
    return over(e, lambda part: _as_step(part, rows, cols, t, c))


def _terms(e, sign: int, out: list) -> list:
    """The terms of a sum (``+`` and ``-`` of whole numbers), each with its sign."""
    if isinstance(e, N.Binary) and e.op in ("+", "-") and e.type == T.INT:
        _terms(e.left, sign, out)
        _terms(e.right, sign if e.op == "+" else -sign, out)
    else:
        out.append((sign, e))
    return out


def _sum(terms: list, line: int) -> N.Expr:
    if not terms:
        return N.Const(T.INT, line, 0)
    sign, first = terms[0]
    out = first if sign > 0 else N.Neg(T.INT, line, first)
    for sign, term in terms[1:]:
        out = N.Binary(T.INT, line, "+" if sign > 0 else "-", out, term)
    return out


def cancel(e):
    """``e`` with each comparison of two sums rid of the terms that cancel: one on each side
    with the same sign, or two on one side with opposite signs (``a + x == b + x`` is ``a ==
    b``, ``x + d - x == k`` is ``d == k``: whole numbers, no rounding)."""
    e = over(e, cancel)
    if not (isinstance(e, N.Binary) and e.op in _COMPARE and e.left.type == T.INT and e.right.type == T.INT):
        return e
    # every term as if moved to the left: (its sign there, the term as compared, its side, its own sign, the term)
    terms = [(sign * side, lineless(term), side, sign, term)
             for side, half in ((1, e.left), (-1, e.right)) for sign, term in _terms(half, 1, [])]
    alive = [True] * len(terms)
    for i, (signed, key, *_) in enumerate(terms):
        if not alive[i]:
            continue
        for j in range(i + 1, len(terms)):
            if alive[j] and terms[j][0] == -signed and terms[j][1] == key:
                alive[i] = alive[j] = False
                break
    if all(alive):
        return e
    left = [(sign, term) for (_, _, side, sign, term), keep in zip(terms, alive) if keep and side == 1]
    right = [(sign, term) for (_, _, side, sign, term), keep in zip(terms, alive) if keep and side == -1]
    return attrs.evolve(e, left=_sum(left, e.line), right=_sum(right, e.line))


def _locals(e, out: set) -> set:
    """The names of the locals ``e`` reads."""
    if isinstance(e, N.Local):
        out.add(e.name)
    for part in parts(e):
        _locals(part, out)
    return out


def outside(test: N.Expr, rows: str, cols: str, t: str, c: N.Expr, uses: set) -> N.Expr | None:
    """The guard ``test`` of the loop of ``t`` around ``c`` as a test of the direction alone,
    or None when it still reads the cell, the neighbour or anything but numbers, ``me`` and
    the direction's changes (``uses`` gets the changes it reads)."""
    if not cannot_fail(test, frozenset((t,) + ((c.name,) if isinstance(c, N.Local) else ()))):
        return None
    new = cancel(_as_step(test, rows, cols, t, c))
    names = _locals(new, set())
    if not names <= OUTSIDE | {DY, DX} or not cannot_fail(new, frozenset()):
        return None
    uses |= names & {DY, DX}
    return new


# ---- the walk over a generator ------------------------------------------------------------------
def _is_guard(item) -> bool:
    return type(item).__name__ == "Guard" and getattr(item, "body", None) is not None


def _split(body: tuple) -> tuple[tuple, tuple]:
    """A block's leading comments, and what follows them."""
    i = 0
    while i < len(body) and isinstance(body[i], S.Comment):
        i += 1
    return body[:i], body[i:]


class _Walk:
    """One generator's walk: the Directions it adds, each to go before the top-level statement
    whose loops hold the loop it serves."""

    def __init__(self, steps: dict) -> None:
        self.steps = steps
        self.made: list = []  # Directions (with their comments) for the statement being walked
        self.count = 0

    def block(self, items: tuple, cells: frozenset) -> tuple:
        return tuple(self.item(item, cells) for item in items)

    def item(self, item, cells: frozenset):
        body = getattr(item, "body", None)
        if not isinstance(body, tuple) or not attrs.has(type(item)):
            return item
        kind = type(item).__name__
        inner = cells | {item.var} if kind in ("NeighbourScan", "CellScan") else cells
        if kind == "NeighbourScan" and not item.dirs:
            item = self.choose(item, cells)
            body = item.body
        new = self.block(body, inner)
        return item if new == body else attrs.evolve(item, body=new)

    def choose(self, scan, cells: frozenset):
        """The scan walking only the directions its leading guards allow, or as it was."""
        around = scan.cells
        if not isinstance(around, N.NeighbourList) or around.table not in self.steps \
                or not isinstance(around.cell, N.Local) or around.cell.name not in cells:
            return scan
        rows, cols, per_dir = self.steps[around.table]
        t, c = scan.var, around.cell
        known = cells | {t}
        taken, kept, uses, body = [], [], set(), scan.body
        while True:
            comments, rest = _split(body)
            if len(rest) != 1 or not _is_guard(rest[0]) or not cannot_fail(rest[0].test, known):
                break
            guard = rest[0]
            test = outside(guard.test, rows, cols, t, c, uses)
            (taken if test is not None else kept).append((comments, guard if test is None else test))
            body = guard.body
        if not taken:
            return scan
        wanted = [(d, dy, dx, label) for d, (dy, dx, some, label) in enumerate(per_dir) if some]
        if (DY in uses and any(step[1] is None for step in wanted)) or (DX in uses and any(step[2] is None for step in wanted)):
            return scan
        for comments, guard in reversed(kept):
            body = (*comments, attrs.evolve(guard, body=body))
        test = taken[0][1]
        for _, more in taken[1:]:
            test = N.Binary(T.BOOL, more.line, "and", test, more)
        var = f"_dirs{self.count}"
        self.count += 1
        comments = tuple(x for found, _ in taken for x in found)
        self.made += [*comments, Directions(scan.line, var, test, tuple(wanted), around.degree)]
        return attrs.evolve(scan, body=body, dirs=var)


def choose_directions(items: tuple, steps: dict) -> tuple:
    """A move generator's block (nested: compiler/write/moves.py ``nest``) with each loop over
    neighbours whose leading guards ask only which way the neighbour lies walking the
    directions they allow, chosen before the loops (``steps``: :func:`steps_of`)."""
    if not steps:
        return items
    walk = _Walk(steps)
    out = []
    for item in items:
        walk.made = []
        new = walk.item(item, frozenset())
        out += [*walk.made, new]
    return tuple(out)
