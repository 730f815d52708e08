"""A pass over a native move generator's tree: ``t in neighbours(G, c)`` asked of a neighbour
the loop itself walks is told by where the walk is, not by reading the table again.

``action hop(c in filled_cells(board, me), t in leaps(board, c, 1, 2) + neighbours(board, c))``
with ``require (t in neighbours(board, c)) == (board[c].kind == king)`` looks for each target
among the eight neighbours of ``c``, though the loop knows which of its tables ``t`` came from.
Natively the loop walks its tables in turn with a counter of its own (``NeighbourScan.d``: the
leaps' 8, then the neighbours' 8), so that where no cell is in two of the tables at any cell
(read from the tables when generating), ``t in T(c)`` for one of the walk's own tables at the
same cell holds exactly while the counter is in that table's stretch: ``_d1 >= 8``.

Why it is exact: while the walk is in table T's stretch, ``t`` is one of T's cells of ``c``, so
``t in T(c)``; in another table's stretch, ``t`` is a cell of that table at ``c``, which T's
row of ``c`` does not hold (the tables are disjoint there). The walk skips no place where a
neighbour is (a missing neighbour, -1, is not walked), and nothing in the loop rebinds ``t``,
``c`` or the counter. Natively only: the Python engine walks a list, with no counter.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import over


def disjoint_tables(grids) -> dict[tuple[str, str], bool]:
    """Per pair of a grid's neighbour and leap tables (by their names), whether no cell is in
    both tables' rows of any one cell."""
    out: dict[tuple[str, str], bool] = {}
    for g in grids:
        tables = [(f"{g.const}_ADJ", len(g.dirs), g.adj)]
        tables += [(f"{g.const}_{name}", degree, table) for name, degree, table in g.leaps]
        for i, (a, da, ta) in enumerate(tables):
            for b, db, tb in tables[i + 1:]:
                if not da or not db or len(ta) != g.cells * da or len(tb) != g.cells * db:
                    continue
                apart = all(not ({x for x in ta[c * da:(c + 1) * da] if x >= 0}
                                 & {x for x in tb[c * db:(c + 1) * db] if x >= 0}) for c in range(g.cells))
                out[(a, b)] = out[(b, a)] = apart
    return out


def tell_by_walk(items: tuple, disjoint: dict) -> tuple:
    """``items`` (a native move generator's block, nested) with each membership of a walked
    neighbour in one of the walk's own tables read from the walk's counter."""
    out = []
    for item in items:
        if type(item).__name__ == "NeighbourScan" and not item.dirs and isinstance(item.body, tuple):
            stretches = _stretches(item.cells, disjoint)
            if stretches is not None:
                cell, spans = stretches
                item = attrs.evolve(item, body=_rewrite(item.body, item.var, item.d, cell, spans))
        body = getattr(item, "body", None)
        if isinstance(body, tuple) and attrs.has(type(item)):
            item = attrs.evolve(item, body=tell_by_walk(body, disjoint))
        out.append(item)
    return tuple(out)


def _stretches(source: N.Expr, disjoint: dict):
    """(the cell every table is read at, {table: (first, end) of its stretch of the counter})
    when the walk's tables are at one cell (a local) and pairwise disjoint; else None."""
    from ..write.moves import neighbour_tables  # (that module imports the lowering)
    lists = neighbour_tables(source)
    if not lists or not isinstance(lists[0].cell, N.Local):
        return None
    cell = lists[0].cell.name
    if any(not isinstance(nl.cell, N.Local) or nl.cell.name != cell for nl in lists):
        return None
    names = [nl.table for nl in lists]
    if len(set(names)) != len(names):
        return None
    if any(not disjoint.get((a, b), False) for i, a in enumerate(names) for b in names[i + 1:]):
        return None
    starts = [sum(nl.degree for nl in lists[:i]) for i in range(len(lists) + 1)]
    total = starts[-1]
    return cell, {nl.table: (starts[i], starts[i + 1], total) for i, nl in enumerate(lists)}


def _rewrite(value, var: str, d: str, cell: str, spans: dict):
    """``value`` with ``var in T(cell)`` (``not in``) for a table of ``spans`` read from ``d``."""
    if isinstance(value, N.Binary) and value.op in ("in", "not in") and isinstance(value.left, N.Local) \
            and value.left.name == var and isinstance(value.right, N.NeighbourList) \
            and isinstance(value.right.cell, N.Local) and value.right.cell.name == cell \
            and value.right.table in spans:
        lo, hi, total = spans[value.right.table]
        test = _within(N.Local(T.INT, 0, d), lo, hi, total)
        return test if value.op == "in" else N.Not(T.BOOL, 0, test)
    if isinstance(value, N.Node) and type(value).__name__ == "NeighbourScan" and value.var in (var, cell):
        return value  # (a loop inside that binds the name again: not this walk's)
    if isinstance(value, (N.Node, tuple, list)):
        return over(value, lambda part: _rewrite(part, var, d, cell, spans))
    return value


def _within(counter: N.Expr, lo: int, hi: int, total: int) -> N.Expr:
    """``lo <= counter < hi`` for a counter that runs from 0 to ``total``, its bounds that always
    hold left out."""
    tests = []
    if lo > 0:
        tests.append(N.Binary(T.BOOL, 0, ">=", counter, N.Const(T.INT, 0, lo)))
    if hi < total:
        tests.append(N.Binary(T.BOOL, 0, "<", counter, N.Const(T.INT, 0, hi)))
    if not tests:
        return N.Const(T.BOOL, 0, True)
    return tests[0] if len(tests) == 1 else N.Binary(T.BOOL, 0, "and", tests[0], tests[1])
