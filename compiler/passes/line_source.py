"""A pass over the trees: an aggregate over a grid's cells whose first test fixes the row (or
the column) walks that row's cells alone.

``any(row(board, c) == goal(me) for c in filled_cells(board, me))`` walks every piece of mine
to ask for its row, where the pieces on the goal row are the cells of one row that hold mine:
eight cells tested, not every piece found and looked up. The language has no "cells of a row"
to write, so authors write the test; this pass makes it the walk. Where an aggregate's source
is every cell of a grid (``cells(board)``) or the cells holding a seat (``filled_cells(board,
v)``, or what compiler/passes/held_source.py made of ``board[c] == v``), and its ``where``
clause's first conjunct (or its element's, for an ``any``) is ``row(board, c) == E`` or
``column(board, c) == E`` with ``E`` not reading ``c``, the source becomes the cells of line
``E`` (:class:`~compiler.ir.nodes.LineCells`) and the conjunct goes; from the cells holding a
seat, ``board[c] == v`` takes its place.

Why it is exact: only on a grid whose lines are regular, checked on its tables when generating
(every row the same number of cells, each row's cells ``first + r * line_step + k *
cell_step`` in increasing order: squares and lanes, not a hexagon or a star), so the cells of
line ``E`` are the cells whose row is ``E``, in cell order as before; the elements kept and
their order are those the test let through. ``E`` is read once before the walk instead of at
each cell, so it is held to names, whole numbers, ``+``, ``-`` and ``*``: nothing that draws,
fails or reads the cell (a line the grid lacks walks no cell, as no cell's row equalled it).
``all`` of ``a and b`` is not ``all`` of ``b`` over fewer cells: an ``all``'s element is left
alone, as held_source leaves it.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import aggregate_test, locals_in, walk


def regular_lines(values: list[int]) -> tuple | None:
    """(first, line_step, cell_step, count, lines) when the cells whose line (row or column,
    ``values[c]``) is r are ``first + r * line_step + k * cell_step`` for k below ``count``,
    increasing, for every r below ``lines``; None for any other board."""
    if not values or min(values) < 0:
        return None
    lines = max(values) + 1
    members: list[list[int]] = [[] for _ in range(lines)]
    for c, r in enumerate(values):
        members[r].append(c)
    count = len(members[0])
    cell_step = members[0][1] - members[0][0] if count > 1 else 1
    line_step = members[1][0] - members[0][0] if lines > 1 else 0
    first = members[0][0]
    for r, cells in enumerate(members):
        if cells != [first + r * line_step + k * cell_step for k in range(count)]:
            return None
    return (first, line_step, cell_step, count, lines) if cell_step > 0 else None


def _plain(e: N.Expr, var: str) -> bool:
    """Whether ``e`` is of names (not ``var``), whole numbers, + - * and negation alone."""
    return var not in locals_in(e) and all(
        isinstance(n, N.Local) or (isinstance(n, N.Const) and type(n.value) is int)
        or (isinstance(n, N.Binary) and n.op in ("+", "-", "*")) or isinstance(n, N.Neg) for n in walk(e))


def _line_test(e, var: str, tables: dict) -> tuple | None:
    """(the line's shape, E) when ``e`` is ``row(G, var) == E`` or ``column(G, var) == E``
    (either way round) on a grid of ``tables``; else None."""
    if not (isinstance(e, N.Binary) and e.op == "=="):
        return None
    for line, other in ((e.left, e.right), (e.right, e.left)):
        if isinstance(line, N.Geometry) and line.table in tables and isinstance(line.index, N.Local) \
                and line.index.name == var and _plain(other, var):
            return tables[line.table], other
    return None


def _member_test(source, var: str, grid) -> N.Expr | None | bool:
    """What stands for the source once the line's cells are walked: None for every cell of the
    grid (nothing to test), ``G[var] == v`` for the cells holding seat v; False when the source
    is neither."""
    if isinstance(source, N.Upto):
        return None if isinstance(source.count, N.Const) and source.count.value == grid.cells else False
    if isinstance(source, N.Helper) and source.name == "K.cells_holding" and len(source.args) == 4:
        g, kinds, seat, owner = source.args
        plain_seat = (isinstance(seat, N.Local) and seat.name != var) \
            or (isinstance(seat, N.Const) and type(seat.value) is int)
        if isinstance(g, N.Field) and g.attr == grid.attr and isinstance(kinds, N.Const) and kinds.value == 256 \
                and isinstance(owner, N.Const) and owner.value == -2 and plain_seat:
            cell = N.CellRead(T.INT, source.line, g, N.Local(source.type.elem or T.INT, source.line, var))
            return N.Binary(T.BOOL, source.line, "==", N.Element(seat.type, source.line, cell), seat)
    return False


def walk_lines(grids) -> callable:
    """The pass for a game's grids: those of regular rows or columns, by their tables' names."""
    tables = {}
    for g in grids:
        if getattr(g, "base", None) or g.numbers:
            continue
        for suffix, values in (("_ROWS", g.rows), ("_COLUMNS", g.columns)):
            shape = regular_lines(list(values))
            if shape is not None:
                tables[g.const + suffix] = (g, shape)

    def change(node):
        if not isinstance(node, N.Aggregate):
            return node
        found = aggregate_test(node, lambda e: _line_test(e, node.var, tables))
        if found is None:
            return node
        where, ((grid, shape), at), rest = found
        elem = node.source.type.elem
        if elem is None or elem.kind != "cell" or elem.space != grid.name:
            return node  # not this grid's cells
        member = _member_test(node.source, node.var, grid)
        if member is False:
            return node
        if member is not None:  # the cells holding the seat: the test of the cell first
            bare = rest is None or (isinstance(rest, N.Const) and rest.value is True)
            rest = member if bare else N.Binary(T.BOOL, node.line, "and", member, rest)
        source = N.LineCells(node.source.type, node.line, at, *shape)
        return attrs.evolve(node, source=source, **{where: rest})
    return change
