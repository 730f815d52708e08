"""A pass over a move generator's tree: guards side by side that test the same thing become one.

Rules written one action at a time repeat an action's first ``require`` in each action of a
phase (``require hand[me] == 0`` in a move and in a fly, ``require phase == build`` in every
building action). Each action's guard then tests it again, and what the actions compute next
(``men(me)``, a count of the board) is computed once per action. Two guards next to each other
in a generator's block (only comments between them) whose tests are the same tree become one
guard holding both bodies in order, so that the test is made once and what both bodies ask is
shared by compiler/passes/shared_calls.py, which looks into a guard's body as into the
generator's.

Why it is exact: the test is a pure read (numbers, names, the state's counters and cells, a
count or a seat's first piece: nothing that draws, calls a method, keeps a memo or is code the
pass cannot read), and a generator writes the state only in an ``ensure`` trial that puts back
what it wrote, so the second test has the first one's value; the bodies run in the same order,
listing the same moves in the same order. A test that raises raises at the first guard either way.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..ir.traverse import lineless, walk
from .shared_calls import SHARED

#: the node kinds of a test that reads and computes only (``Helper`` only for the reads in SHARED)
_PURE = (N.Const, N.Local, N.Global, N.Field, N.Slot, N.Binary, N.Not, N.Neg, N.Cond, N.NumberCell, N.CellRead,
         N.Element, N.Table, N.Geometry, N.Dimension, N.Number, N.CountValue)


def merge_guards(items: tuple) -> tuple:
    """``items`` (a move generator's block, nested) with each run of guards side by side that
    test the same pure tree made one guard."""
    out: list = []
    for item in items:
        body = getattr(item, "body", None)
        if isinstance(body, tuple) and attrs.has(type(item)):
            item = attrs.evolve(item, body=merge_guards(body))
        last = _last_guard(out)
        if last is not None and _same_test(out[last], item):
            between = tuple(out[last + 1:])  # comments only: they go with the body they stood before
            out[last] = attrs.evolve(out[last], body=merge_guards((*out[last].body, *between, *item.body)))
            del out[last + 1:]
            continue
        out.append(item)
    return tuple(out)


def _last_guard(out: list) -> int | None:
    """Where the last statement of ``out`` that is not a comment stands, when it is a guard."""
    at = len(out) - 1
    while at >= 0 and isinstance(out[at], S.Comment):
        at -= 1
    return at if at >= 0 and type(out[at]).__name__ == "Guard" else None


def _same_test(guard, item) -> bool:
    return type(item).__name__ == "Guard" and isinstance(item.body, tuple) and isinstance(guard.body, tuple) \
        and _pure(item.test) and repr(lineless(item.test)) == repr(lineless(guard.test))


def _pure(test: N.Expr) -> bool:
    return all(isinstance(n, _PURE) or isinstance(n, N.Helper) and n.name in SHARED for n in walk(test))
