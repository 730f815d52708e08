"""A pass over a move generator's tree: a define's first test of a cell's neighbours, asked of
every cell a loop gives, answered for the whole board at once before the loop.

``define lives(c) = any(is_empty(board, n) for n in neighbours(board, c)) or ...`` with
``action place(c in empty_cells(board))`` and ``require lives(c)`` calls the define for every
empty cell, and the call looks at the cell's neighbours before anything else; most cells have
an empty neighbour, so most calls end there. This pass computes, once before the loop, one byte
per cell saying whether some neighbour holds that code (the kernel ``neighbours_holding``, in
C), and the guard reads the byte first: ``_nm0[c] or lives__rest(c)``. Only where the byte is 0
is the define called, as its twin without that first test (known false there).

The shape, checked on the trees (anything else is left as it is):

- the guard's test is the call, or the call is an operand of ``and``/``or`` there (only its
  truth counts); or the test itself stands there, written in the guard, and is then replaced by
  the read (the same mask, however it is phrased);
- the define has no ``let`` (a let could fail before the test), and its value is an ``or``
  whose first operand is ``any(G[n] == v for n in neighbours(G, x))`` (or ``G[n].element ==
  v``, ``is_empty``), the table that of G's own neighbours or leaps, x a parameter given the
  loop's cell (a cell of G a loop over cells gives: never none), v reading no cell and nothing
  the loop binds;
- the state's grid, read in the define, is the grid the loop's cell belongs to.

The Python engine only: natively the define's first loop costs a few reads of bytes in C, and
the mask a kernel's call and a bytes object per generator, which measured slower (Go's ids
loop 0.84-0.90x; the Python engine's 1.15-1.19x).

Why it is exact: ``a or b`` is true exactly when a is, or b is (and is b when a is false, so
the twin without a stands for the define where the byte is 0); the byte is a's truth for that
cell, computed on the board as it stands before the loop, and a generator changes the board
only in an ``ensure`` trial, which puts it back before the next guard is read (the premise of
compiler/passes/hoist.py). The kernel reads every cell's neighbours, which cannot fail for a
board's own table; a value out of the codes' range is held by no cell, as the test says.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import lineless, locals_in, walk
from .hoist import CELL_LOOPS, LOOPS, before_loops

#: what the masks are called (``_nm0``, ``_nm1``...), and the suffix of a define's twin without
#: its first test (a define's name has no double underscore: no rules name can meet it)
PREFIX = "_nm"
REST = "__rest"


def mask_neighbour_tests(items: tuple, functions: dict, source, rests: dict) -> tuple:
    """``items`` (a move generator's block) with each guard's call of such a define read from
    a mask made before the loop, the define called only where the mask says its first test
    fails, as its twin without that test. ``functions``: the game's define functions by name,
    (head, tree, lets) each; ``source(line, local, value)``: the statement that computes a mask
    once before a loop (the generator's Source); ``rests``: filled with the twins called, the
    define's name -> its value without its first test (the caller writes them as functions
    named ``<define>__rest``)."""
    made: list[str] = []

    def inside(loop, body: tuple, outside: frozenset, cells: frozenset) -> tuple:
        cells = cells | {loop.var} if type(loop).__name__ in CELL_LOOPS else cells  # the mask is read at the loop's cell
        masks: dict = {}  # (grid, table, degree, code) as text -> (its local, the kernel's call)
        body = _masked_block(body, outside, cells, functions, masks, made, rests)
        return body, [source(loop.line, local, value) for local, value in masks.values()], frozenset()

    return before_loops(items, frozenset(("s", "me")), frozenset(), inside)


def _masked_block(items: tuple, outside: frozenset, cells: frozenset, functions: dict, masks: dict, made: list,
                  rests: dict) -> tuple:
    """A loop's body with its guards' calls masked (at any depth, up to the next loop: that
    one gets masks of its own, made before it)."""
    out = []
    for item in items:
        if type(item).__name__ == "Guard":
            item = attrs.evolve(item, test=_truth(item.test, outside, cells, functions, masks, made, rests))
        body = getattr(item, "body", None)
        if isinstance(body, tuple) and attrs.has(type(item)) and type(item).__name__ not in LOOPS:
            item = attrs.evolve(item, body=_masked_block(body, outside, cells, functions, masks, made, rests))
        out.append(item)
    return tuple(out)


def _truth(e: N.Expr, outside: frozenset, cells: frozenset, functions: dict, masks: dict, made: list,
           rests: dict) -> N.Expr:
    """``e``, a test whose truth alone counts, with each such test of the neighbours in it
    (through ``and``/``or``) read from a mask: written in the guard, in place of it; first in
    a define called there, before the call."""
    if isinstance(e, N.Binary) and e.op in ("and", "or"):
        left = _truth(e.left, outside, cells, functions, masks, made, rests)
        right = _truth(e.right, outside, cells, functions, masks, made, rests)
        return e if left is e.left and right is e.right else attrs.evolve(e, left=left, right=right)
    if isinstance(e, N.Aggregate):  # written in the guard itself: its names are the generator's
        found = _neighbour_test(e, None, outside, cells)
        return e if found is None else _read(found, e.line, masks, made)
    if not isinstance(e, N.Apply):
        return e
    f = functions.get(e.function)
    if f is None:
        return e
    head, tree, lets = f
    if lets or len(head) != len(e.args):  # (a let could fail before the test)
        return e
    first = tree
    while isinstance(first, N.Binary) and first.op == "or":
        first = first.left
    found = None if first is tree else _neighbour_test(first, dict(zip(head, e.args)), outside, cells)
    if found is None:
        return e
    rests[e.function] = _without_first(tree)  # where the byte is 0 the first test is false
    rest = attrs.evolve(e, function=f"{e.function}{REST}")
    return N.Binary(T.BOOL, e.line, "or", _read(found, e.line, masks, made), rest)


def _without_first(tree: N.Expr) -> N.Expr:
    """An ``or`` chain (``a or b or c``, grouped from the left) without its first operand."""
    if isinstance(tree.left, N.Binary) and tree.left.op == "or":
        return attrs.evolve(tree, left=_without_first(tree.left))
    return tree.right


def _read(found: tuple, line: int, masks: dict, made: list) -> N.Expr:
    """The read of a mask's byte at the loop's cell, the mask made once per loop and test."""
    cell, grid, table, degree, code = found
    key = repr(lineless((grid, table, degree, code)))
    if key not in masks:
        local = f"{PREFIX}{len(made)}"
        made.append(local)
        masks[key] = (local, N.Helper(T.ANY, line, "K.neighbours_holding",
                                      (grid, N.Table(T.ANY, 0, table), N.Const(T.INT, 0, degree), code)))
    return N.Index(T.INT, line, N.Local(T.ANY, 0, masks[key][0]), cell)


def _neighbour_test(first, given: dict | None, outside: frozenset, cells: frozenset) -> tuple | None:
    """(the loop's cell, the grid, the table, its degree, the code) of ``any(G[n] == v for n in
    neighbours(G, x))``, in the caller's names (``given``: what each of a define's parameters
    stands for there; None for a test written in the guard itself), when it has the shape above."""
    if not isinstance(first, N.Aggregate) or first.func != "any" or first.cond is not None:
        return None
    source, test = first.source, first.elem
    if not (isinstance(source, N.NeighbourList) and isinstance(source.cell, N.Local)):
        return None
    cell = source.cell if given is None else given.get(source.cell.name)
    if not (isinstance(cell, N.Local) and cell.name in cells):
        return None
    if not (isinstance(test, N.Binary) and test.op == "=="):
        return None
    read, value, shift = test.left, test.right, 0
    if isinstance(read, N.Element):
        read, shift = read.code, 1
    if not (isinstance(read, N.CellRead) and isinstance(read.cell, N.Local) and read.cell.name == first.var):
        return None
    grid = read.grid
    if not (isinstance(grid, N.Field) and grid.attr.startswith("g_")):
        return None
    space = getattr(cell.type, "space", None)
    if space is None or getattr(grid.type, "space", None) != space or not _own_table(source.table, grid.attr):
        return None
    if any(isinstance(n, (N.CellRead, N.NumberCell, N.Aggregate, N.Apply, N.Method, N.Helper)) for n in walk(value)):
        return None
    names = locals_in(value)
    if first.var in names or given is not None and not names <= set(given):
        return None
    code = _given(value, given)
    if code is None or not locals_in(code) <= outside:
        return None
    if shift:
        code = N.Binary(T.INT, code.line, "+", code, N.Const(T.INT, 0, 1))
    return cell, grid, source.table, source.degree, code


def _own_table(table: str, attr: str) -> bool:
    """Whether a table of neighbours (or leaps) is one of the grid's own (``G_board__ADJ``,
    ``G_board__LEAP_1_2`` for ``g_board``): its cells are the grid's cells."""
    prefix = f"G_{attr[2:]}__"
    rest = table[len(prefix):] if table.startswith(prefix) else ""
    return rest == "ADJ" or rest.startswith("LEAP_") and all(part.isdigit() for part in rest[5:].split("_"))


def _given(value: N.Expr, given: dict | None) -> N.Expr | None:
    """``value`` with the define's parameters replaced by what the call gives them (names and
    numbers only: anything else would be computed again); None when it is more than names,
    numbers, ``+ - *`` and negation."""
    if isinstance(value, N.Local):
        arg = value if given is None else given.get(value.name)
        return arg if isinstance(arg, (N.Local, N.Const)) else None
    if isinstance(value, N.Const):
        return value
    if isinstance(value, N.Binary) and value.op in ("+", "-", "*"):
        left, right = _given(value.left, given), _given(value.right, given)
        return None if left is None or right is None else attrs.evolve(value, left=left, right=right)
    if isinstance(value, N.Neg):
        operand = _given(value.operand, given)
        return None if operand is None else attrs.evolve(value, operand=operand)
    return None
