"""A pass over a move generator's tree: a let of a kernel's list that the guards only count is
the count itself, made by the kernel that counts without a list.

``let turned = flanked(board, c, me)`` then ``require count(turned) > 0``: in the move
generator ``turned`` is read only by ``count``, so it is assigned ``K.flanked_count(...)`` and
each ``count(turned)`` reads it as it is. The action's effects, lowered on their own, still make
the list they walk.
"""
from __future__ import annotations

from collections import Counter

import attrs

from ..ir import nodes as N
from ..ir.traverse import over, parts
from ..ir import statements as S
from ..ir import types as T

#: a kernel that makes a list -> the kernel that counts the same cells without making it
COUNTED_FORMS = {"K.flanked": "K.flanked_count"}


def _uses(value, counted: Counter, other: Counter, assigned: Counter, lists: dict) -> None:
    """Counts, in a block or a tree, the reads of each local inside ``len(...)`` and elsewhere,
    and the assignments of each local (``lists``: those assigned a kernel's list, first seen)."""
    if isinstance(value, S.Assign) and isinstance(value.target, N.Local):
        name = value.target.name
        assigned[name] += 1
        if isinstance(value.value, N.Helper) and value.value.name in COUNTED_FORMS and value.op == "=":
            lists.setdefault(name, value)
        _uses(value.value, counted, other, assigned, lists)
    elif isinstance(value, N.Len) and isinstance(value.coll, N.Local):
        counted[value.coll.name] += 1
    elif isinstance(value, N.Local):
        other[value.name] += 1
    else:
        for item in parts(value):
            _uses(item, counted, other, assigned, lists)


def _counting(value, names: set[str]):
    if isinstance(value, S.Assign) and isinstance(value.target, N.Local) and value.target.name in names:
        made = value.value
        count = N.Helper(T.INT, made.line, COUNTED_FORMS[made.name], made.args, made.c_form)
        return attrs.evolve(value, target=N.Local(T.INT, value.target.line, value.target.name), value=count)
    if isinstance(value, N.Len) and isinstance(value.coll, N.Local) and value.coll.name in names:
        return N.Local(T.INT, value.line, value.coll.name)
    return over(value, lambda v: _counting(v, names))


def count_only(block: tuple) -> tuple[tuple, set[str]]:
    """``block`` with each local assigned once a kernel's list, and read only by ``len``,
    assigned the count instead (and read as it is); and the names of those locals, which now
    hold whole numbers."""
    counted: Counter = Counter()
    other: Counter = Counter()
    assigned: Counter = Counter()
    lists: dict = {}
    _uses(block, counted, other, assigned, lists)
    names = {name for name in lists if assigned[name] == 1 and other[name] == 0 and counted[name] > 0}
    return (_counting(block, names) if names else block), names
