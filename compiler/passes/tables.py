"""Geometry asked of one cell, read from a table made when generating.

``define corner(x) = count(neighbours(board, x)) == 3`` makes the list of x's neighbours to
count it, and ``x in edge_cells(board, s)`` walks the side's list of cells, for every cell a
fork or a corner test looks at. Both follow from the board alone, so the engine carries their
answers for every cell: ``G_ADJ_DEGREE[x]`` (how many neighbours, ``_DEGREE`` of a leap's table
alike) and ``G_ON_SIDE[s * cells + x]`` (1 where x lies along side s). And ``cells(G)[i]`` is
i itself for i a cell (no list made to index). Only where the cell is a name, a constant or a
field (it is then read twice for nothing): none (-1) keeps the list (which says why it cannot
be, or reads from the end as a list does) and is on no side, as before.
"""
from __future__ import annotations

from typing import Callable

from ..ir import nodes as N
from ..ir import types as T


def _plain(e) -> bool:
    return isinstance(e, (N.Local, N.Const))


def read_tables(grids) -> Callable:
    """The pass for a game's grids (their cell counts, by the prefix of their tables)."""
    cells_of = {g.const: g.cells for g in grids if not getattr(g, "base", None)}

    def change(node):
        if isinstance(node, N.Len) and isinstance(node.coll, N.NeighbourList) and _plain(node.coll.cell) \
                and (node.coll.table.endswith("_ADJ") or "_LEAP_" in node.coll.table):
            around = node.coll
            degree = N.Geometry(T.INT, node.line, f"{around.table}_DEGREE", around.cell)
            known = N.Binary(T.BOOL, node.line, ">=", around.cell, N.Const(T.INT, 0, 0))
            return N.Cond(T.INT, node.line, known, degree, node)
        if isinstance(node, N.Binary) and node.op in ("in", "not in") and isinstance(node.right, N.Index) \
                and isinstance(node.right.obj, N.Global) and node.right.obj.name.endswith("_SIDES") \
                and _plain(node.left) and _plain(node.right.index):
            cells = cells_of.get(node.right.obj.name[:-len("_SIDES")])
            if cells is None:
                return node
            x, side, line = node.left, node.right.index, node.line
            at = N.Binary(T.INT, line, "+", N.Binary(T.INT, line, "*", side, N.Const(T.INT, 0, cells)), x)
            along = N.Binary(T.BOOL, line, "!=", N.Geometry(T.INT, line, f"{node.right.obj.name[:-len('_SIDES')]}_ON_SIDE", at),
                             N.Const(T.INT, 0, 0))
            on_board = N.Binary(T.BOOL, line, "and", N.Binary(T.BOOL, line, ">=", x, N.Const(T.INT, 0, 0)),
                                N.Binary(T.BOOL, line, "<", x, N.Const(T.INT, 0, cells)))
            test = N.Binary(T.BOOL, line, "and", on_board, along)
            return test if node.op == "in" else N.Not(T.BOOL, line, test)
        if isinstance(node, N.Index) and isinstance(node.obj, N.Upto) and isinstance(node.obj.count, N.Const) \
                and isinstance(node.index, (N.Local, N.Const, N.Field)):
            # cells(G)[i] is i itself where i is a cell; elsewhere the list says what it does
            n, i = node.obj.count.value, node.index
            inside = N.Binary(T.BOOL, node.line, "and", N.Binary(T.BOOL, node.line, ">=", i, N.Const(T.INT, 0, 0)),
                              N.Binary(T.BOOL, node.line, "<", i, N.Const(T.INT, 0, n)))
            return N.Cond(node.type, node.line, inside, i, node)
        return node
    return change
