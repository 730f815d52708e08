"""Passes over trees: a value computed twice or more, computed once.

- ``build_once``: in a define's body, each list of a grid's cells built twice or more (nested
  aggregates over the same cells, say) is built once, into a local at the top of its function.
- ``shared_value``: the longest call a step's condition and its move generators both compute
  (the groups a repeat step looks for, then offers) is computed once per decision by the turn
  machine and given to the generators as ``_shared``.

Trees are compared by their ``shape``: the same kinds, fields and types, wherever their rules
lines are. Natively neither pass reaches into an aggregate, which the native engine writes as a
method of its own.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

import attrs

from ..ir import nodes as N
from ..ir.traverse import children, locals_in, names_known, over, parts, walk
from ..ir import statements as S


def shape(value):
    """A tree as a value that compares equal for equal trees (their rules lines left out)."""
    if isinstance(value, N.Expr):
        return (type(value).__name__, *(shape(getattr(value, f.name)) for f in attrs.fields(type(value))
                                        if f.name != "line"))
    if isinstance(value, (tuple, list)):
        return tuple(shape(item) for item in value)
    return value


def _subtrees(e: N.Expr, native: bool, stop: Callable[[N.Expr], bool]):
    """The nodes of ``e`` in order (parents first), not below one ``stop`` accepts nor,
    natively, inside an aggregate."""
    yield e
    if stop(e) or (native and isinstance(e, N.Aggregate)):
        return
    for child in children(e):
        yield from _subtrees(child, native, stop)


def _replace(value, names: dict, native: bool):
    """A tree or a block with each subtree whose shape ``names`` holds read from that local (a
    subtree's shape is computed only when its kind is one of theirs)."""
    kinds = {key[0] for key in names}

    def replace(v):
        if isinstance(v, N.Expr):
            if type(v).__name__ in kinds and shape(v) in names:
                return N.Local(v.type, v.line, names[shape(v)])
            if native and isinstance(v, N.Aggregate):
                return v
        return over(v, replace)
    return replace(value)


def build_once(body: N.Expr, scope: set[str], native: bool) -> tuple[list[S.Stmt], N.Expr]:
    """A define's body with the lists of a grid's cells it builds twice or more built once:
    the statements that build them, and the body reading them. Only a list whose grid is named
    by the body's own names (``scope``: its parameters, ``me``) is shared; a grid named by
    what an aggregate binds is a list per element."""
    def shareable(e: N.Expr) -> bool:
        return isinstance(e, N.Cells) and names_known(e) and locals_in(e) <= scope

    counts: Counter = Counter()
    first: dict = {}
    for e in _subtrees(body, native, shareable):
        if shareable(e):
            counts[shape(e)] += 1
            first.setdefault(shape(e), e)
    names = {key: f"_cells{i}" for i, key in enumerate(k for k, n in counts.items() if n > 1)}
    if not names:
        return [], body
    built = [S.Assign(0, N.Local(first[key].type, 0, name), "=", first[key], "built once for this line")
             for key, name in names.items()]
    return built, _replace(body, names, native)


#: the node kinds a shared value may be: calls of the runtime, of the engine's functions, and
#: aggregates (the values worth computing once)
CALLS = (N.Helper, N.Apply, N.Aggregate, N.Cells, N.NeighbourList, N.Slide, N.Runs, N.Joined, N.Houses)


def _free_locals(e: N.Expr) -> set[str]:
    """The locals a tree reads that it does not bind itself (an aggregate binds its variable)."""
    bound = {n.var for n in walk(e) if isinstance(n, N.Aggregate)}
    return locals_in(e) - bound


def _calls(e: N.Expr):
    """The calls of a tree that read no local but ``me``, not inside an aggregate (whose
    code may become a function of its own)."""
    for n in _subtrees(e, True, lambda _n: False):
        if isinstance(n, CALLS) and names_known(n) and _free_locals(n) <= {"me"}:
            yield n


def _trees(value):
    """The expression trees a statement block holds, at any depth of its statements."""
    if isinstance(value, N.Expr):
        yield value
        return
    for item in parts(value):
        yield from _trees(item)


def shared_value(cond: N.Expr, block) -> N.Expr | None:
    """The call a step's condition and its move generators (``block``) both compute, the
    largest if several; None when they share none."""
    made = {shape(n) for tree in _trees(block) for n in _calls(tree)}
    both = [n for n in _calls(cond) if shape(n) in made]
    return max(both, key=lambda n: sum(1 for _ in walk(n)), default=None)


def use_shared(value, shared: N.Expr, name: str = "_shared"):
    """A tree or a block of statements with ``shared`` read from the local ``name`` (not inside
    an aggregate)."""
    return _replace(value, {shape(shared): name}, True)
