"""The reference evaluator of an expression tree (compiler/ir/nodes.py): what a tree computes,
by Python's arithmetic, as the language's. Tests check what both emitters write against it."""
from __future__ import annotations

from typing import Any

from .nodes import (ARITHMETIC, COMPARISONS, FUNCTIONS, Aggregate, Binary, Bound, Call, CellRead, Concat, Cond, Const,
                    Element, Expr, Geometry, Index, Len, LineCells, ListCount, ListOf, Literal, NeighbourList, Neg, Not,
                    Noted, NotedEq, NotedScan, Number, Reduce, Span, Text, Upto)
from .traverse import name_of


def evaluate(e: Expr, leaves: dict[str, Any] | None = None) -> Any:
    """The value of a tree of constants, operators and conditionals; a :class:`Code` leaf is
    looked up by its text in ``leaves``. Python's arithmetic, as the language's (``//`` and
    ``%`` round toward minus infinity)."""
    if isinstance(e, (Const, Text, Literal)):
        return e.value
    name = name_of(e)
    if name is not None:
        if leaves is None or name not in leaves:
            raise KeyError(f"no value for {name!r}")
        return leaves[name]
    if isinstance(e, ListOf):
        return [evaluate(item, leaves) for item in e.items]
    if isinstance(e, Concat):
        return [*evaluate(e.left, leaves), *evaluate(e.right, leaves)]
    if isinstance(e, Span):
        return list(range(e.first, e.last + 1))
    if isinstance(e, LineCells):
        at = evaluate(e.index, leaves)
        if not 0 <= at < e.lines:
            return []
        return [e.first + at * e.line_step + k * e.cell_step for k in range(e.count)]
    if isinstance(e, Upto):
        return list(range(evaluate(e.count, leaves)))
    if isinstance(e, Len):
        return len(evaluate(e.coll, leaves))
    if isinstance(e, ListCount):
        return list(evaluate(e.coll, leaves)).count(evaluate(e.value, leaves))
    if isinstance(e, Reduce):
        values = evaluate(e.coll, leaves)
        return sum(values) if e.func == "sum" else (max if e.func == "max" else min)(values, default=0)
    if isinstance(e, Index):
        return evaluate(e.obj, leaves)[evaluate(e.index, leaves)]
    if isinstance(e, (CellRead, Geometry, NeighbourList)):
        return _grid_read(e, leaves)
    if isinstance(e, Aggregate):
        return _aggregate(e, leaves or {})
    if isinstance(e, Not):
        return not evaluate(e.operand, leaves)
    if isinstance(e, Neg):
        return -evaluate(e.operand, leaves)
    if isinstance(e, Cond):
        return evaluate(e.then if evaluate(e.test, leaves) else e.orelse, leaves)
    if isinstance(e, Bound):  # kept for the reads of the name after it (leaves: the locals)
        if leaves is None:
            raise KeyError(f"no place for {e.name!r}")
        leaves[e.name] = evaluate(e.value, leaves)
        return leaves[e.name]
    if isinstance(e, Call):
        return FUNCTIONS[e.func][1](*(evaluate(a, leaves) for a in e.args))
    if isinstance(e, Noted):
        return evaluate(e.read, leaves)
    if isinstance(e, NotedEq):
        return (evaluate(e.left, leaves) == evaluate(e.right, leaves)) == (e.op == "==")
    if isinstance(e, NotedScan):
        return evaluate(e.helper, leaves)
    if isinstance(e, Number):
        return 1 if evaluate(e.operand, leaves) else 0
    if isinstance(e, Element):
        return evaluate(e.code, leaves) - 1
    if isinstance(e, Binary):
        if e.op == "and":
            return evaluate(e.left, leaves) and evaluate(e.right, leaves)
        if e.op == "or":
            return evaluate(e.left, leaves) or evaluate(e.right, leaves)
        a, b = evaluate(e.left, leaves), evaluate(e.right, leaves)
        if e.op == "in":
            return a in b
        if e.op == "not in":
            return a not in b
        return {**ARITHMETIC, **COMPARISONS}[e.op](a, b)
    raise TypeError(f"not an expression node: {e!r}")


def _grid_read(e: Expr, leaves: dict[str, Any] | None) -> Any:
    """A cell's code, an entry of a grid's table, or a cell's row of a table of neighbours (-1 at
    the edge left out), the grid and the tables given by name in ``leaves`` (``G_board__ADJ``);
    a cell off the grid fails, as indexing does."""
    if isinstance(e, CellRead):
        grid, cell = evaluate(e.grid, leaves), evaluate(e.cell, leaves)
        if not 0 <= cell < len(grid):
            raise IndexError("a position past the end of a list or zone")
        return grid[cell]
    if leaves is None or e.table not in leaves:
        raise KeyError(f"no value for {e.table!r}")
    table, at = leaves[e.table], evaluate(e.index if isinstance(e, Geometry) else e.cell, leaves)
    if isinstance(e, Geometry):
        if not 0 <= at < len(table):
            raise IndexError("a position past the end of a list or zone")
        return table[at]
    if not 0 <= at < len(table) // e.degree:
        raise ValueError("there is no cell here (none) to look around")
    return [c for c in table[at * e.degree:(at + 1) * e.degree] if c >= 0]


def _aggregate(e: Aggregate, leaves: dict[str, Any]) -> Any:
    kept = []  # (element, its value) of each element that qualifies, in order
    for x in evaluate(e.source, leaves):
        inner = {**leaves, e.var: x}
        if e.cond is None or evaluate(e.cond, inner):
            kept.append((x, evaluate(e.elem, inner)))
    values = [v for _x, v in kept]
    if e.func == "count":
        return len(kept)
    if e.func in ("sum", "any", "all"):
        return {"sum": sum, "any": any, "all": all}[e.func](values)
    if e.func in ("max", "min"):
        return (max if e.func == "max" else min)(values, default=0)
    if not kept:  # argmin, argmax
        return -1
    best = (min if e.func == "argmin" else max)(values)
    return next(x for x, v in kept if v == best)
