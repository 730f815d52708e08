"""Two ``any`` over the same cells, joined by ``or``, walk the cells once.

``any(board[y] == piece(king, p) for y in neighbours(board, x)) or any(board[y] == piece(pawn,
p) and ... for y in neighbours(board, x))`` walks the eight neighbours of x twice, though it
asks one question of each: is one of them a king, or a pawn that attacks x. This pass writes it
``any(A or B for y in neighbours(board, x))``: one walk, both tests at each cell, as an author
writing the question that way would get. The same holds for ``all ... and all ...``.

Why that is exact: there is some y of S with A(y), or some y with B(y), exactly when there is
some y with A(y) or B(y). Only the order of the tests changes (each cell's A then B, instead of
every A then every B), so the pass applies only where neither test can fail nor draw, whatever
cell of the walk y is: comparisons, truths, arithmetic without division, what a cell of the
walk holds (``board[y]``, its owner and kind), the grid's tables read at y or at the walk's own
centre (a cell the walk itself has checked), names, numbers and defines made of those. And the
walk must be one whose cells are those of a table read at a name (``neighbours``, ``leaps``):
computed once instead of twice, it does the same. Both tests are cheap where they qualify, so a
cell the first walk would have stopped before costs a comparison or two.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import lineless, parts, put_local, walk
from .blocker_walk import SAFE_HELPERS, SAFE_OPS, cannot_fail

#: the aggregate and the operator that joins two of them into one walk
_JOINS = {"any": "or", "all": "and"}


def walk_once(functions: list):
    """The pass, for a game whose defines are ``functions`` (a test may call them): a change of
    one node, applied children first by the caller."""
    bodies = {f[0]: f[3] for f in functions}

    def change(node):
        if not (isinstance(node, N.Binary) and node.op in _JOINS.values()):
            return node
        second = node.right
        first, rest = node.left, None
        if isinstance(first, N.Binary) and first.op == node.op:  # (X or c) or d: c and d meet
            rest, first = first.left, first.right
        joined = _joined(first, second, node.op, bodies)
        if joined is None:
            return node
        return joined if rest is None else attrs.evolve(node, left=rest, right=joined)

    return change


def _joined(first, second, op: str, bodies: dict):
    """``first op second`` as one aggregate over their common walk, or None where it is not
    plainly the same."""
    if not (isinstance(first, N.Aggregate) and isinstance(second, N.Aggregate) and first.func == second.func
            and _JOINS.get(first.func) == op and first.lazy and second.lazy and not first.display
            and not second.display):
        return None
    source = first.source
    if not (isinstance(source, N.NeighbourList) and isinstance(source.cell, N.Local)
            and lineless(source) == lineless(second.source) and source.cell.name not in (first.var, second.var)):
        return None
    tests = [_test(first), _renamed(_test(second), second.var, first.var, source.type.elem)]
    if tests[1] is None:
        return None
    if not all(_total(t, first.var, source.cell.name, bodies) for t in tests):
        return None
    return attrs.evolve(first, elem=N.Binary(T.BOOL, first.line, op, *tests), cond=None,
                        params=tuple(dict.fromkeys((*first.params, *second.params))))


def _test(agg: N.Aggregate) -> N.Expr:
    """The truth an ``any`` (``all``) asks of each element, its ``where`` clause folded in."""
    if agg.cond is None:
        return agg.elem
    if agg.func == "any":
        return N.Binary(T.BOOL, agg.line, "and", agg.cond, agg.elem)
    return N.Binary(T.BOOL, agg.line, "or", N.Not(T.BOOL, agg.line, agg.cond), agg.elem)


def _renamed(tree, old: str, new: str, cell: T.Type):
    """``tree`` with the name ``old`` read as ``new`` (the second walk's name for its cell made
    the first's); None where the tree already reads ``new`` (it would then mean another thing)."""
    if old == new:
        return tree
    names = {n.name for n in walk(tree) if isinstance(n, N.Local)}
    if new in names:
        return None
    return put_local(tree, old, N.Local(cell, 0, new))


def _total(tree, var: str, centre: str, bodies: dict) -> bool:
    """Whether ``tree`` can neither fail nor draw for any cell ``var`` of the walk around
    ``centre``: blocker_walk's safe trees, and reads of a grid at the walk's cell and of the
    grid's tables there or at the centre."""
    if isinstance(tree, N.CellRead):
        return isinstance(tree.cell, N.Local) and tree.cell.name == var and isinstance(tree.grid, (N.Field, N.Local))
    if isinstance(tree, N.Geometry):
        return isinstance(tree.index, N.Local) and tree.index.name in (var, centre)
    if isinstance(tree, N.Binary):
        return tree.op in SAFE_OPS and _total(tree.left, var, centre, bodies) and _total(tree.right, var, centre, bodies)
    if isinstance(tree, (N.Not, N.Neg, N.Number, N.Element, N.Cond)):
        return all(_total(p, var, centre, bodies) for p in parts(tree))
    if isinstance(tree, N.Helper):
        return tree.name in SAFE_HELPERS and all(_total(a, var, centre, bodies) for a in tree.args)
    return cannot_fail(tree, bodies, set(), set())
