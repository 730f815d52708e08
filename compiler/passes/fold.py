"""What is known when compiling, worked out again after a pass put a number in place of a name.

The lowering folds as it builds (``nodes.binary``, ``choose``, ``invert``, ``negate``, ``call``,
``truth_number``): ``2 * 3`` is 6, ``if true then a else b`` is ``a``. A pass that copies a tree
with a constant in place of a name makes new such shapes after that folding ran:
seats_written_out writes ``all(E(p) for p in players)`` out as ``E(0) and E(1)``, and a
``goal(p) = if p == 0 then north else south`` inside becomes ``if 0 == 0 then 2 else 0``, asked
at every evaluation. This pass folds them with the same builders, so that the seats written out
read as an author writes them seat by seat (the phrasing pair ways-all-or-each; its two engines
still differ in their memos of kept ways, one per call as written).

One node at a time, children first (the caller's walk); a node nothing folds is returned as it
is, so that a tree with nothing to fold is not rebuilt. Exact: each builder folds only numbers
and truths that are constants, by the operators' own meaning (no division by zero, no number
past ``FOLD_LIMIT``), as the reference evaluator computes them.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N


def _number(e) -> bool:
    return isinstance(e, N.Const) and type(e.value) is int


def _truth(e) -> bool:
    return isinstance(e, N.Const) and type(e.value) is bool


def fold_known(node):
    """``node`` with what its constant children decide worked out (one node), typed as it was."""
    known = _folded(node)
    if known is not node and isinstance(known, N.Const) and known.type != node.type:
        return attrs.evolve(known, type=node.type)  # (``board[c] == 0 + 1``: the number is a code, as before)
    return known


def _folded(node):
    if isinstance(node, N.Binary):
        if node.op in ("and", "or") and _truth(node.left):
            return N.binary(node.op, node.left, node.right, node.type, node.line)
        if _number(node.left) and _number(node.right) and (node.op in N.ARITHMETIC or node.op in N.COMPARISONS):
            known = N.binary(node.op, node.left, node.right, node.type, node.line)
            return known if isinstance(known, N.Const) else node  # (a division by 0 is the engine's to report)
        return node
    if isinstance(node, N.Cond):
        return N.choose(node.test, node.then, node.orelse, node.type, node.line) if _truth(node.test) else node
    if isinstance(node, N.Not):
        return N.invert(node.operand, node.line) if _truth(node.operand) else node
    if isinstance(node, N.Neg):
        return N.negate(node.operand, node.line) if _number(node.operand) else node
    if isinstance(node, N.Number):
        return N.truth_number(node.operand, node.line) if _truth(node.operand) else node
    if isinstance(node, N.Call) and node.func in N.FUNCTIONS and node.args and all(_number(a) for a in node.args):
        return N.call(node.func, node.args, node.line)
    return node
