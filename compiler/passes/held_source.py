"""A pass over the trees: an aggregate over every cell of a grid whose first test is what the
cell holds walks only the cells that hold it.

``any(board[c] == me and row(board, c) == goal(me) for c in cells(board))`` tests every cell of
the board, where ``any(row(board, c) == goal(me) for c in filled_cells(board, me))`` walks my
pieces alone (natively from one found to the next in C; in Python the kernel's list). The two
mean the same, and authors write either. Where an aggregate's source is all the cells of a
grid of seats (``cells(board)``), and its element's first conjunct (``any``), or its ``where``
clause's, is ``board[c] == v`` with ``v`` the seat whose turn it is (``me``) or a seat
written as a number, the source becomes the cells holding ``v`` (as ``filled_cells(board, v)``
is lowered) and the conjunct goes.

Why it is exact: the cells are walked in the same order (the kernel lists them in cell order),
the rest of the element (or of the clause) is read for exactly the cells where the conjunct
held, as ``and`` read it; ``any`` of ``a and b`` over the cells is ``any`` of ``b`` over those
where ``a`` holds, and a ``where`` clause keeps the elements of every aggregate alike. ``all``
of ``a and b`` is not ``all`` of ``b`` over fewer cells, so an ``all`` whose element holds the
test is left alone; ``v`` is read once instead of at every cell, which for ``me`` and a number
changes nothing.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import aggregate_test

#: a grid of seats: the kinds argument its holding scans take (lower/calls.py's cells_holding)
SEATS = 256


def _held_test(e, var: str, grids: dict) -> tuple | None:
    """(the grid, the seat) when ``e`` is ``G[var] == v`` (either way round) on a grid of seats
    of ``grids`` with ``v`` the local ``me`` or a seat as a number; else None."""
    if not (isinstance(e, N.Binary) and e.op == "=="):
        return None
    for cell, seat in ((e.left, e.right), (e.right, e.left)):
        if isinstance(cell, N.Element) and isinstance(cell.code, N.CellRead) \
                and isinstance(cell.code.grid, N.Field) and cell.code.grid.attr in grids \
                and isinstance(cell.code.cell, N.Local) and cell.code.cell.name == var \
                and ((isinstance(seat, N.Local) and seat.name == "me")
                     or (isinstance(seat, N.Const) and type(seat.value) is int and 0 <= seat.value < 255)):
            return cell.code.grid, seat
    return None


def walk_held(grids) -> callable:
    """The pass for a game's grids (those of seats, by their state attribute, with their cell
    counts)."""
    seats = {g.attr: g.cells for g in grids
             if not getattr(g, "base", None) and g.kind == "player" and not g.numbers}

    def change(node):
        if not (isinstance(node, N.Aggregate) and isinstance(node.source, N.Upto)
                and isinstance(node.source.count, N.Const)):
            return node
        found = aggregate_test(node, lambda e: _held_test(e, node.var, seats))
        if found is None:
            return node
        where, (grid, seat), rest = found
        if seats[grid.attr] != node.source.count.value:
            return node  # not this grid's cells
        source = N.Helper(node.source.type, node.line, "K.cells_holding",
                          (grid, N.Const(T.INT, 0, SEATS), seat, N.Const(T.INT, 0, -2)), True)
        return attrs.evolve(node, source=source, **{where: rest})
    return change
