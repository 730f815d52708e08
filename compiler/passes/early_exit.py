"""Aggregates that stop early: a count compared with 0 or 1 asks only whether one element
qualifies.

``count(c for c in empty_cells(board) where ok(c)) > 0`` reads every cell however soon one is
found; ``any(ok(c) for c in empty_cells(board))`` stops at the first. The two have the same value,
so authors may write either: this pass turns ``count(...) > 0`` (``>= 1``, ``!= 0``, and the
same with the number first) into ``any``, and ``count(...) == 0`` (``< 1``, ``<= 0``) into
``not any``. Not where the elements draw on chance: stopping early would draw fewer numbers and
change the game.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import parts

#: count OP k, for the k and OP that ask "is there one?" (True) or "is there none?" (False)
_SOME = {(">", 0): True, (">=", 1): True, ("!=", 0): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}
#: the comparison seen from the other side (k OP count is count FLIP[OP] k)
_FLIP = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}


def draws(tree) -> bool:
    """Whether evaluating the tree may draw a random number."""
    if isinstance(tree, N.Draw):
        return True
    return any(draws(p) for p in parts(tree))


def stop_early(node):
    """``node`` with a count compared with 0 or 1 asked as ``any`` (one node; children first is
    the caller's walk)."""
    if not (isinstance(node, N.Binary) and node.op in _FLIP):
        return node
    left, right, op = node.left, node.right, node.op
    if isinstance(left, N.Const) and isinstance(right, N.Aggregate):  # 0 < count(...)
        left, right, op = right, left, _FLIP[op]
    if not (isinstance(left, N.Aggregate) and left.func == "count" and isinstance(right, N.Const)
            and type(right.value) is int):
        return node
    some = _SOME.get((op, right.value))
    if some is None or draws(left):
        return node
    # any(C for x in S): the count's condition is the element (true when it has none)
    test = left.cond if left.cond is not None else N.Const(T.BOOL, 0, True)
    found = attrs.evolve(left, type=T.BOOL, func="any", elem=test, cond=None, lazy=True)
    return found if some else N.Not(T.BOOL, node.line, found)
