"""A define's truth written as loops that stop early (the Python engine's functions).

``any(ok(y) for y in neighbours(board, x)) or any(...)`` as a function's value makes a generator
per aggregate and resumes it for each element; in CPython a ``for`` loop that returns at the
first element that decides costs a fraction of that. When a define's value is a truth made of
``any`` and ``all`` (those that stop early: nothing random is drawn) joined by ``and``, ``or``
and ``not``, its function is written as statements instead: each ``any`` a loop that returns
as soon as an element holds, each ``all`` one that returns as soon as an element fails, and
what is left a plain test. The value is the same; only the work differs. The native engine's
aggregates are C loops of their own (compiler/write/emit_native.py) and keep them.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import statements as S
from ..ir import types as T
from ..ir.traverse import parts, walk
from .early_exit import draws


def as_loops(tree: N.Expr, line: int, taken: set[str]) -> tuple | None:
    """Statements returning ``tree``'s truth with its aggregates as loops, or None when that
    gains nothing or cannot be plainly the same: not a truth, no aggregate that stops early,
    a random draw, or an aggregate's name also used outside it (``taken``: the function's
    parameters and lets, which a loop's name must not overwrite)."""
    if tree.type != T.BOOL or draws(tree) or not _names_apart(tree, aggregate_names(tree), set(taken), frozenset()):
        return None
    best = None
    for value in (True, False):  # return `value` when the tree is `value`, else `not value`
        body = _when(tree, value, value, line)
        loops = sum(1 for st in _walk(body) if isinstance(st, S.For))
        if loops and (best is None or loops > best[0]):
            best = (loops, (*body, S.Return(line, N.Const(T.BOOL, 0, not value))))
    return None if best is None else best[1]


def _when(e: N.Expr, value: bool, polarity: bool, line: int) -> list:
    """Statements that return ``value`` when ``e`` is ``polarity``, and otherwise do nothing."""
    if isinstance(e, N.Not):
        return _when(e.operand, value, not polarity, line)
    if isinstance(e, N.Binary) and e.op in ("or", "and"):
        if (e.op == "or") == polarity:  # either side decides: one after the other
            return _when(e.left, value, polarity, line) + _when(e.right, value, polarity, line)
        # both sides must: the right one looked at only where the left one is `polarity`
        test = e.left if polarity else N.Not(T.BOOL, 0, e.left)
        return [S.If(line, ((test, tuple(_when(e.right, value, polarity, line))),))]
    if isinstance(e, N.Aggregate) and e.lazy and e.func == ("any" if polarity else "all"):
        body = _when(e.elem, value, polarity, line)
        if e.cond is not None:  # only the elements that qualify
            body = [S.If(line, ((e.cond, tuple(body)),))]
        return [S.For(line, e.var, e.source, tuple(body), counted=False)]
    test = e if polarity else N.Not(T.BOOL, 0, e)
    return [S.If(line, ((test, (S.Return(line, N.Const(T.BOOL, 0, value)),)),))]


def _names_apart(e, watched: set, taken: set, around: frozenset) -> bool:
    """Whether each aggregate's name (``watched``: all of them) is none of the function's
    (``taken``) nor an aggregate's around it, and is read nowhere but inside an aggregate of
    that name: a loop's name outlives the loop, a generator's does not."""
    if isinstance(e, N.Local):
        return e.name not in watched or e.name in around
    if isinstance(e, N.Aggregate):
        if e.var in taken or e.var in around:
            return False
        inner = around | {e.var}
        return _names_apart(e.source, watched, taken, around) and all(
            _names_apart(x, watched, taken, inner) for x in (e.elem, e.cond) if x is not None)
    if isinstance(e, (tuple, list)):
        return all(_names_apart(x, watched, taken, around) for x in e)
    return all(_names_apart(p, watched, taken, around) for p in parts(e))


def aggregate_names(e) -> set[str]:
    """The names the aggregates of a tree bind."""
    return {n.var for n in walk(e) if isinstance(n, N.Aggregate)}


def _walk(block):
    for st in block:
        yield st
        if isinstance(st, S.For):
            yield from _walk(st.body)
        elif isinstance(st, S.If):
            for _test, body in st.branches:
                yield from _walk(body)
