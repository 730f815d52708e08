"""A walk along a direction whose test fails on every empty cell reads only the cell it stops on.

``any(board[y].owner == p and sweeps(board[y].kind, d) for y in reach(board, x, d))`` asks
about the first piece met from x (a sliding attacker): the empty cells before it cannot count,
since the test reads ``y`` only through ``board[y]`` and is false when that cell is empty. The
walk still has to cross them, but it need not test each. This pass works out the test on an
empty cell (every read ``board[y]`` made 0, the code of an empty cell) and gives the walk
(:class:`~regle.compiler.ir.nodes.Slide`) that value as ``empties``: whether the walk's empty
cells are visited. It is computed once per walk, so a test that depends on the direction or a
parameter is fine; where it says the empty cells cannot decide (false for ``any``, true for
``all``), the Python engine lists only the piece met (``K.met``) and the native walk runs the
test on filled cells alone. A ``slide`` (empty cells only) then has no element at all.

Why that is exact: ``any`` over a walk is true when some element's test is; an empty cell's
test is the value computed (the test reads the cell only as ``board[y]``, which is 0 there),
so leaving out elements whose test is false does not change ``any`` (nor leaving out true
ones ``all``). The value is computed before the walk, even where the walk would have had no
cell, so it is only used when it cannot fail or draw: comparisons, truth, arithmetic that
cannot divide, an element's owner or kind, defines made of those. Anything else, a test that
reads the cell another way (``y`` itself, another grid at y), or an aggregate that draws on
chance, leaves the walk as it was.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import parts

# (SAFE_OPS, SAFE_HELPERS and cannot_fail are shared: one_walk asks the same of its two tests)
#: operators that cannot fail on whole numbers and truths (no division, no bound to pass)
SAFE_OPS = frozenset(("==", "!=", "<", "<=", ">", ">=", "and", "or", "+", "-", "*"))
#: helpers of numbers alone that answer for any number (-1 included: an empty cell's element)
SAFE_HELPERS = frozenset(("ops.piece_owner", "ops.piece_kind"))


def walk_to_blocker(functions: list):
    """The pass, for a game whose defines are ``functions`` (a test may call them): a change
    of one node, applied children first by the caller."""
    bodies = {f[0]: f[3] for f in functions}

    def change(node):
        if not (isinstance(node, N.Aggregate) and node.func in ("any", "all") and node.lazy
                and isinstance(node.source, N.Slide) and node.source.empties is None):
            return node
        walk, var = node.source, node.var
        test = node.elem if node.cond is None else N.Binary(T.BOOL, node.line, "and", node.cond, node.elem)
        if node.func == "all" and node.cond is not None:
            test = N.Binary(T.BOOL, node.line, "or", N.Not(T.BOOL, node.line, node.cond), node.elem)
        empty = _on_empty(test, var, walk.grid)
        if empty is None or not cannot_fail(empty, bodies, set(), set()):
            return node
        visits = empty if node.func == "any" else N.Not(T.BOOL, node.line, empty)
        return attrs.evolve(node, source=attrs.evolve(walk, empties=visits))

    return change


def _on_empty(tree, var: str, grid):
    """``tree`` with each read of ``grid`` at the walk's cell made 0 (an empty cell's code);
    None when it reads the cell another way or binds the name again."""
    if isinstance(tree, N.CellRead) and isinstance(tree.cell, N.Local) and tree.cell.name == var:
        return N.Const(T.INT, tree.line, 0) if _same(tree.grid, grid) else None
    if isinstance(tree, N.Local) and tree.name == var:
        return None
    if isinstance(tree, N.Aggregate) and tree.var == var:
        return None
    if isinstance(tree, (tuple, list)):
        items = [_on_empty(p, var, grid) for p in tree]
        return None if any(i is None and p is not None for i, p in zip(items, tree)) else type(tree)(items)
    if not isinstance(tree, N.Node):
        return tree
    fields = {}
    for f in attrs.fields(type(tree)):
        if f.name in ("type", "line"):
            continue
        old = getattr(tree, f.name)
        new = _on_empty(old, var, grid)
        if new is None and old is not None:
            return None
        fields[f.name] = new
    return attrs.evolve(tree, **fields)


def _same(a, b) -> bool:
    """Whether two trees name the same grid (a field of the state, or a local holding it)."""
    if isinstance(a, N.Field) and isinstance(b, N.Field):
        return a.attr == b.attr
    return isinstance(a, N.Local) and isinstance(b, N.Local) and a.name == b.name


def cannot_fail(tree, bodies: dict, seen: set, active: set) -> bool:
    """Whether evaluating ``tree`` can neither fail nor draw, whatever its names hold.
    ``seen``: the defines found safe; ``active``: those being looked at (a call of one of
    those is refused: it could run for ever)."""
    if isinstance(tree, (N.Const, N.Local)):
        return True
    if isinstance(tree, N.Field):
        return not tree.attr.startswith(("g_", "z_"))  # a counter's number or truth
    if isinstance(tree, N.Binary):
        return tree.op in SAFE_OPS and all(cannot_fail(p, bodies, seen, active) for p in (tree.left, tree.right))
    if isinstance(tree, (N.Not, N.Neg, N.Number, N.Element, N.Cond)):
        return all(cannot_fail(p, bodies, seen, active) for p in parts(tree))
    if isinstance(tree, N.Helper):
        return tree.name in SAFE_HELPERS and all(cannot_fail(a, bodies, seen, active) for a in tree.args)
    if isinstance(tree, N.Apply):
        body = bodies.get(tree.function)
        if body is None or not tree.args or not isinstance(tree.args[0], N.Local) or tree.args[0].name != "s":
            return False
        if not all(cannot_fail(a, bodies, seen, active) for a in tree.args[1:]):
            return False
        if tree.function in seen or tree.function in active:
            return tree.function in seen
        active.add(tree.function)
        expr, _names, _line, lets = body
        if lets or not cannot_fail(expr, bodies, seen, active):
            return False
        active.discard(tree.function)
        seen.add(tree.function)
        return True
    return False
