"""A pass over the trees: the lines through a point walked by their numbers in a table, each
line's points read from another, where the line itself is only walked.

``define mill(c) = any(all(board[x] == board[c] for x in l) for l in lines(board, c))`` asks
for the lines through a point as a list of lists (``ops.lines_through``): natively a tuple of
tuples, each line a Python object walked and each point a Python int to convert, for a test of
a few bytes that a mill game makes at every move. Where an aggregate walks ``lines(G, c)`` and
its element and condition use the line only as what an aggregate inside walks (``for x in
l``), the line needs no value of its own: the aggregate walks the lines' numbers
(``G_LINE_IDS``, per point the lines through it) and each inner one the line's points
(``G_LINE_CELLS``, per line its points), tables made when generating
(geometry.point_line_tables) and read as a cell's neighbours are, in C natively
(:class:`~compiler.ir.nodes.NeighbourList`: no list, no Python int).

It runs for the native engine alone (compiler/write/written.py): the Python engine's tuples
are already its fastest form, and the test for none before the walk would keep a define's
aggregate from being written as a loop that returns early (compiler/passes/loops.py).

Why it is exact: the tables hold the same lines and points in the same order as
``lines_through`` (the order the lines were declared, each line's points in order), their
padding (-1) skipped as a missing neighbour is; the line, never read but as a walk, walks the
same points. None for the point asks ``lines_through`` as before, which says why it cannot be
(``c >= 0`` tests first, so the point is a name or a constant, read twice for nothing).
Anything else done with a line (counted, indexed, compared, kept) leaves the aggregate alone.
"""
from __future__ import annotations

from typing import Callable

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import walk
from . import bottom_up

LINES_THROUGH = "ops.lines_through"


def _tables(grids) -> dict[str, tuple[int, int]]:
    """Per table of lines through a point (``G_board__LINES_AT``), its grid's constant prefix
    and the two tables' row lengths: (prefix, lines per point, points per line)."""
    out = {}
    for g in grids:
        if g.line_ids and g.cells and g.lines:
            out[f"{g.const}_LINES_AT"] = (g.const, len(g.line_ids) // g.cells, len(g.line_cells) // len(g.lines))
    return out


def _only_walked(agg: N.Aggregate) -> bool:
    """Whether the aggregate's element and condition read its variable only as the source of an
    aggregate inside (``for x in l``), which binds a name of its own."""
    var, sources, reads = agg.var, 0, 0
    for part in (agg.elem, agg.cond):
        if part is None or agg.func == "count" and part is agg.elem and isinstance(part, N.Local) \
                and part.name == var:  # (a count's element is the element itself: never read as a value)
            continue
        for node in walk(part):
            if isinstance(node, N.Aggregate):
                if node.var == var:
                    return False  # a name bound again inside: left alone rather than told apart
                if isinstance(node.source, N.Local) and node.source.name == var:
                    sources += 1
            elif isinstance(node, N.Local) and node.name == var:
                reads += 1
    return reads == sources > 0


def _walked_by_number(tree, var: str, table: str, per_line: int):
    """``tree`` with each aggregate walking line ``var`` walking that line's points instead (and
    ``var``, among the names an aggregate reads, a number)."""
    def change(node):
        if not isinstance(node, N.Aggregate):
            return node
        if isinstance(node.source, N.Local) and node.source.name == var:
            points = N.NeighbourList(node.source.type, node.source.line, table, per_line, N.Local(T.INT, 0, var))
            node = attrs.evolve(node, source=points)
        params = tuple((name, T.INT if name == var else ty) for name, ty in node.params)
        return attrs.evolve(node, params=params) if params != node.params else node
    return bottom_up(tree, change)


def walk_point_lines(grids) -> Callable:
    """The pass for a game's grids (their boards of points and lines)."""
    tables = _tables(grids)

    def change(node):
        if not (isinstance(node, N.Aggregate) and isinstance(node.source, N.Helper)
                and node.source.name == LINES_THROUGH and len(node.source.args) == 2):
            return node
        at, point = node.source.args
        if not (isinstance(at, N.Global) and at.name in tables and isinstance(point, (N.Local, N.Const, N.Field))):
            return node
        if isinstance(point, N.Const) and point.value < 0 or not _only_walked(node):
            return node
        prefix, per_point, per_line = tables[at.name]
        numbers = N.NeighbourList(T.list_of(T.INT), node.source.line, f"{prefix}_LINE_IDS", per_point, point)
        walked = attrs.evolve(node, source=numbers,
                              elem=_walked_by_number(node.elem, node.var, f"{prefix}_LINE_CELLS", per_line),
                              cond=None if node.cond is None else
                              _walked_by_number(node.cond, node.var, f"{prefix}_LINE_CELLS", per_line))
        if isinstance(point, N.Const):
            return walked
        # none for the point: lines_through says why it cannot be (its element never evaluated)
        nothing = N.Const(node.elem.type, 0, False if node.elem.type == T.BOOL else 0)
        nowhere = attrs.evolve(node, elem=nothing, cond=None)
        known = N.Binary(T.BOOL, node.line, ">=", point, N.Const(T.INT, 0, 0))
        return N.Cond(node.type, node.line, known, walked, nowhere)
    return change
