"""Calls shared within a move generator: a scan of the position asked twice or more by the
guards and loop sources of one step's generator is made once.

``define pawn(p) = first(filled_cells(board, p))`` reads well, and a game of pawns asks for
``pawn(me)`` in several actions' guards (where may the pawn step, is the other pawn next to
it, is this the square behind it). Each is a scan of the board; a generator that asked three
times scanned three times. This pass makes the first of them, where it is computed whatever
the guards decide (the test of a guard at the top of the generator, or the list of a loop
there, outside ``and``/``or``'s right side, a branch, an aggregate), into a local (``_call0``)
computed just before that statement, and every later occurrence in the generator, however
deep, reads the local. Then each body in the generator (a guard's, a loop's) is looked at as a
block of its own: a call its statements ask twice is computed once there (two actions behind
the same guard, made one by compiler/passes/same_guards.py, ask ``men(me)`` once), and there a
call may read the names the block does not bind (a loop's cell, in the loop's body): a wall's
place beside the cell, ``wall(fence, c, "n")``, tested open and then looked up in a search's
marks, is found in the table once per cell.

Why it is exact: the call is a pure read of the state, ``me`` and names the block never binds
(a seat's first piece, a count of one value, a cell's neighbour or wall place in a table:
``SHARED``), of a number (natively a C number); a name the block does not bind or assign holds
one value while the block runs. A generator writes the state only
in an ``ensure`` trial, a method of its own that puts back what it wrote before returning, so
each later occurrence would compute the same value; the local is computed where the first
occurrence was, so it raises or not as the generator did. Occurrences before that statement,
and those inside an aggregate (natively a method of its own, given the names it reads), are
left as they are.
"""
from __future__ import annotations

from collections import Counter

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..ir.traverse import children, lineless, over, parts, walk

#: the runtime's reads of a position, each a number, that a generator may share: a seat's (or
#: a kind's) first cell on a grid, how many cells hold a value (as a helper, or ``CountValue``:
#: ``count(G, v)``); and ``Neighbour`` nodes, a cell's neighbour (or wall place) read in a table
SHARED = frozenset(("K.first_holding", "K.count_byte"))
#: the kinds of value a shared local may hold (natively a C number)
_NUMBERS = frozenset(("int", "enum", "player", "cell", "bool", "direction"))
#: what the locals made here are called (``_call0``, ``_call1``...)
PREFIX = "_call"
#: the statements whose expression is computed whatever the guards decide, by field
_HEADS = {"Guard": "test", "Scan": "source", "PairScan": "source", "CellScan": "cells", "NeighbourScan": "cells",
          "ItemScan": "cells", "SlideScan": "cells"}


def share_calls(items: tuple) -> tuple[tuple, list[str]]:
    """``items`` (a step's move generator, nested) with each call of ``SHARED`` that it makes
    twice or more computed once into a local; and the names of the locals made."""
    made: list[str] = []
    return _share(tuple(items), made), made


def _share(items: tuple, made: list) -> tuple:
    """A block with its calls shared, then each body in it as a block of its own (a guard's
    body is computed whenever its test holds: what it asks twice is shared there)."""
    bound = _bound(items)
    while True:
        fixed = _Fixed(made, bound)
        repeated = {key for key, n in Counter(_key(e) for e in _candidates(items, fixed)).items() if n > 1}
        found = _first_unconditional(items, repeated, fixed)
        if found is None:
            return tuple(attrs.evolve(item, body=_share(item.body, made))
                         if isinstance(getattr(item, "body", None), tuple) and attrs.has(type(item)) else item
                         for item in items)
        at, e = found
        local = N.Local(e.type, 0, f"{PREFIX}{len(made)}")
        made.append(local.name)
        key = _key(e)
        rest = tuple(_replace(item, key, local) for item in items[at:])
        items = (*items[:at], S.Assign(items[at].line, local, "=", e), *rest)


def _key(e: N.Expr) -> str:
    return repr(lineless(e))


class _Fixed:
    """The names a shared call may read in a block: ``me``, the locals made here, and any name
    the block does not bind (a loop's variable, a let, a source's local) at any depth."""

    def __init__(self, made: list, bound: frozenset):
        self.made, self.bound = frozenset(made), bound

    def __contains__(self, name: str) -> bool:
        return name == "me" or name in self.made or name not in self.bound


def _bound(items) -> frozenset:
    """Every name a statement in ``items`` may bind or assign, at any depth: the locals assigned
    and every text field of a statement (a loop's variables, ``"c_, t_"`` split), so that a name
    read is left alone whenever it might change while the block runs."""
    found: set = set()

    def visit(value):
        if isinstance(value, (tuple, list)):
            for v in value:
                visit(v)
        elif isinstance(value, S.Assign) and isinstance(value.target, N.Local):
            found.add(value.target.name)
            visit(value.value)
        elif isinstance(value, S.Stmt) and attrs.has(type(value)):
            for f in attrs.fields(type(value)):
                v = getattr(value, f.name)
                if isinstance(v, str):
                    found.update(name.strip() for name in v.split(","))
                else:
                    visit(v)
    visit(items)
    return frozenset(found)


def _shareable(e, fixed: _Fixed) -> bool:
    """A call of ``SHARED`` (or a neighbour read in a table) of a number, reading no name but
    those ``fixed`` holds."""
    if not (isinstance(e, N.Helper) and e.name in SHARED or isinstance(e, (N.CountValue, N.Neighbour))) \
            or e.type.kind not in _NUMBERS:
        return False
    for n in walk(e):
        if isinstance(n, N.Local) and n.name not in fixed:
            return False
        if isinstance(n, (N.Aggregate, N.Code)):
            return False
    return True


def _exprs(item):
    """The expressions a statement holds (its own fields and those of its body's statements)."""
    for part in parts(item):
        if isinstance(part, N.Expr):
            yield part
        elif isinstance(part, S.Stmt):
            yield from _exprs(part)
        elif isinstance(part, tuple):
            for inner in part:
                if isinstance(inner, N.Expr):
                    yield inner
                elif isinstance(inner, S.Stmt):
                    yield from _exprs(inner)


def _calls_in(e: N.Expr, fixed: _Fixed):
    """The shareable calls in ``e``, outside aggregates."""
    if isinstance(e, N.Aggregate):
        return
    if _shareable(e, fixed):
        yield e
    for part in children(e):
        yield from _calls_in(part, fixed)


def _candidates(items: tuple, fixed: _Fixed):
    for item in items:
        for e in _exprs(item):
            yield from _calls_in(e, fixed)


def _unconditional(e: N.Expr, fixed: _Fixed):
    """The shareable calls computed whenever ``e`` is: not in the right side of ``and``/``or``,
    a branch of ``if``, or an aggregate; innermost first (arguments before the call)."""
    if isinstance(e, N.Aggregate):
        return
    if isinstance(e, N.Binary) and e.op in ("and", "or"):
        yield from _unconditional(e.left, fixed)
        return
    if isinstance(e, N.Cond):
        yield from _unconditional(e.test, fixed)
        return
    for part in children(e):
        yield from _unconditional(part, fixed)
    if _shareable(e, fixed):
        yield e


def _first_unconditional(items: tuple, repeated: set, fixed: _Fixed):
    """(index, call): the first top-level statement that computes a repeated call whatever
    the guards decide, and that call; None when there is none."""
    for at, item in enumerate(items):
        field = _HEADS.get(type(item).__name__)
        head = getattr(item, field, None) if field else None
        if not isinstance(head, N.Expr):
            continue
        for e in _unconditional(head, fixed):
            if _key(e) in repeated:
                return at, e
    return None


def _replace(value, key: str, local: N.Local):
    """``value`` (a statement, a tree, a tuple) with each occurrence of the call ``key``
    outside aggregates read from ``local``."""
    if isinstance(value, N.Aggregate):
        return value
    if isinstance(value, N.Expr) and _key(value) == key:
        return local
    return over(value, lambda part: _replace(part, key, local))
