"""A pass over a move generator's tree: the part of a guard that no loop around it changes is
computed once, before the loop.

``action slide(c in filled_cells(board, me), d in directions(board), t in reach(board, c, d))``
with ``require sweeps(board[c].kind, d)`` reads the piece at ``c`` and takes its kind once for
every direction, though it depends on ``c`` alone. Authors cannot write it once themselves (an
action's parameters have no ``let`` between them), so the compiler does: in a loop's body, the
largest parts of guards that read only names bound before the loop are computed into a local
(``_inv0``) just before the loop, and the guards read the local. The Python engine saves a call
and a read per turn of the loop; natively the C compiler could not do it itself (a trial of an
``ensure`` inside the loop is a call that may write the grid, as far as it knows).

Why it is exact: a part is lifted only when it cannot fail and reads nothing a generator
changes: numbers, locals bound before the loop, ``+ - *``, comparisons, ``and``, ``or``,
``not``, tables made when generating read at a cell a loop gives (never none), a state grid's
cell read at such a cell (its element, its kind or owner), a counter holding one value (Go's
``ko``: in the Python engine an attribute looked up at every turn), and in the Python engine
the list of such a cell's neighbours (natively a test of membership reads the table in C, no list). A generator writes the state
only in an ``ensure`` trial, which puts back what it wrote before the guard after it is read, so
the value computed before the loop is the value each turn would compute; computing it once more
than needed (a loop that turns no times, a guard an earlier one skips) raises nothing and draws
nothing. Parts that divide, call a define or a method, read a list or hold an aggregate (which
binds names of its own) stay where they are.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..ir.traverse import lineless, over, walk
from .guard_order import TOTAL_OPS

#: the move generator's loops (compiler/write/moves.py; known by name: that module imports the
#: lowering, which a pass must not), and the fields holding the names each binds
LOOPS = {"Scan": ("names",), "CellScan": ("var",), "NeighbourScan": ("var", "d"), "ItemScan": ("var", "k"),
          "SlideScan": ("var", "start", "steps"), "PairScan": ("a", "b")}
#: loops whose variable is always one of the grid's cells (never none)
CELL_LOOPS = frozenset(("CellScan", "NeighbourScan", "SlideScan"))
#: helpers that are total functions of whole numbers (a piece's kind and owner)
_TOTAL_HELPERS = frozenset(("ops.piece_kind", "ops.piece_owner"))
#: the kinds of value a local may hold natively as a C number
_NUMBERS = frozenset(("int", "enum", "player", "cell", "bool", "direction"))
#: what the locals made here are called (``_inv0``, ``_inv1``...)
PREFIX = "_inv"


def hoist_invariants(items: tuple, native: bool = False) -> tuple[tuple, list[str]]:
    """``items`` (a move generator's block, nested) with the guards' parts that a loop does not
    change computed before it; and the names of the locals made (natively each a C number)."""
    made: list[str] = []

    def inside(loop, body: tuple, outside: frozenset, cells: frozenset) -> tuple:
        lifted: dict = {}  # a part (its lines left out) -> (its local, the part)
        body = _lift_block(body, outside, cells, lifted, made, native)
        before = [S.Assign(part.line, local, "=", part) for local, part in lifted.values()]
        return body, before, frozenset(local.name for local, _ in lifted.values())

    return before_loops(items, frozenset(("s", "me")), frozenset(), inside), made


def bound_names(loop) -> set[str]:
    """The names a loop binds."""
    names = set()
    for field in LOOPS[type(loop).__name__]:
        value = getattr(loop, field, "") or ""
        names.update(n.strip() for n in value.split(",") if n.strip())
    return names


def before_loops(items: tuple, outside: frozenset, cells: frozenset, inside) -> tuple:
    """A move generator's block walked loop by loop (this pass's and compiler/passes/
    neighbour_mask.py's walk): for each loop, ``inside(loop, body, outside, cells)`` gives its
    body, the statements to put just before it and the names they bind; the walk goes on into
    the body. ``outside``: the names bound before the block; ``cells``: those of them that are a
    grid's cells (a loop over cells binds one)."""
    out = []
    for item in items:
        kind = type(item).__name__
        body = getattr(item, "body", None)
        if kind in LOOPS and isinstance(body, tuple):
            body, before, names = inside(item, body, outside, cells)
            out.extend(before)
            inner_cells = cells | {item.var} if kind in CELL_LOOPS else cells
            item = attrs.evolve(item, body=before_loops(body, outside | bound_names(item) | names, inner_cells, inside))
        elif isinstance(body, tuple) and attrs.has(type(item)):
            item = attrs.evolve(item, body=before_loops(body, outside, cells, inside))
        if isinstance(item, S.Assign) and isinstance(item.target, N.Local):
            outside = outside | {item.target.name}
        elif kind == "Source":
            outside = outside | {item.var}
        out.append(item)
    return tuple(out)


def _lift_block(items: tuple, outside: frozenset, cells: frozenset, lifted: dict, made: list, native: bool) -> tuple:
    """A loop's body with each guard's liftable parts (anywhere inside it) read from locals,
    the parts noted in ``lifted``."""
    out = []
    for item in items:
        if type(item).__name__ == "Guard":
            item = attrs.evolve(item, test=_lift(item.test, outside, cells, lifted, made, native))
        body = getattr(item, "body", None)
        if isinstance(body, tuple) and attrs.has(type(item)):
            item = attrs.evolve(item, body=_lift_block(body, outside, cells, lifted, made, native))
        out.append(item)
    return tuple(out)


def _lift(e: N.Expr, outside: frozenset, cells: frozenset, lifted: dict, made: list, native: bool) -> N.Expr:
    """``e`` with its largest liftable parts replaced by their locals."""
    if isinstance(e, N.Aggregate):  # it binds names of its own: left as it is
        return e
    if _liftable(e, outside, cells) and _worth(e, native) and (not native or e.type.kind in _NUMBERS):
        key = repr(lineless(e))
        if key not in lifted:
            local = N.Local(e.type, 0, f"{PREFIX}{len(made)}")
            made.append(local.name)
            lifted[key] = (local, e)
        return lifted[key][0]

    def down(part):
        if isinstance(part, N.Expr):
            return _lift(part, outside, cells, lifted, made, native)
        return over(part, down) if isinstance(part, (tuple, list)) else part

    return over(e, down)


def _liftable(e, outside: frozenset, cells: frozenset) -> bool:
    """Whether ``e`` cannot fail and reads only names bound before the loop and cells of the
    state's grids at cells a loop gives."""
    if isinstance(e, N.Const):
        return True
    if isinstance(e, N.Local):
        return e.name in outside
    if isinstance(e, N.Binary):
        return e.op in TOTAL_OPS and _liftable(e.left, outside, cells) and _liftable(e.right, outside, cells)
    if isinstance(e, (N.Not, N.Neg)):
        return _liftable(e.operand, outside, cells)
    if isinstance(e, N.Geometry):
        return isinstance(e.index, N.Local) and e.index.name in cells
    if isinstance(e, N.Element):
        return _liftable(e.code, outside, cells)
    if isinstance(e, N.CellRead):
        grid, cell = e.grid, e.cell
        return (isinstance(grid, N.Field) and grid.attr.startswith("g_") and isinstance(cell, N.Local)
                and cell.name in cells and cell.type.space is not None and cell.type.space == grid.type.space)
    if isinstance(e, N.Helper):
        return e.name in _TOTAL_HELPERS and all(_liftable(a, outside, cells) for a in e.args)
    if isinstance(e, N.NeighbourList):  # a cell's neighbours (leaps) as a list, from a table
        return isinstance(e.cell, N.Local) and e.cell.name in cells
    if isinstance(e, N.Field):  # a counter holding one value (not one per seat)
        return e.attr.startswith("c_") and e.type.kind in _NUMBERS
    return False


def _worth(e: N.Expr, native: bool) -> bool:
    """Whether lifting saves work: the part reads a cell of the state or makes a list of
    neighbours, or in the Python engine reads a counter (an attribute looked up; natively a C
    field, as cheap as the local); a name or a number costs nothing to read again."""
    kinds = (N.CellRead, N.NeighbourList) if native else (N.CellRead, N.NeighbourList, N.Field)
    return any(isinstance(n, kinds) for n in walk(e))
