"""A trial that counts no work keeps no count of it.

An ``ensure`` trial (compiler/lower/ensure.py) keeps the work counted in this decision before it
runs the move's effects (``_keep_work = s._work_done()``) and puts it back after
(``s._work_back(_keep_work)``): a ``for`` or ``while`` of the effects counts the elements it
walks against the decision's budget, and a trial must leave that count as it found it. Where
the trial's statements hold no ``for`` or ``while``, and neither they nor its condition call a
method of the state that could count (a define's function is looked through; the methods of
a remembered ensure, ``_remember``, ``_missed`` and ``_scanned``, count nothing), the count
is the same before and after: keeping and putting it back are two calls for nothing, at every
candidate move (chess tries two dozen per position).
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..ir.traverse import parts

#: methods of the state that a trial's body may call and that count no work (the memo's; the work
#: count's own calls stand before and after the body, not in it)
_QUIET = ("_remember", "_missed", "_scanned")


def drop_idle_work(ir):
    """``ir`` with each trial that counts no work keeping no count."""
    functions = {f[0]: f for f in ir.functions}
    actions = []
    for a in ir.actions:
        if a.ensure_lines and a.ensure_lines[2] is not None and _counts_nothing(a.ensure_lines[1], functions, set()):
            before, body, put_back, line = a.ensure_lines
            before = tuple(st for st in before if not _is_work(st, "_work_done"))
            put_back = tuple(st for st in put_back if not _is_work(st, "_work_back"))
            a = attrs.evolve(a, ensure_lines=(before, body, put_back, line),
                             ensure_locals=[name for name in a.ensure_locals if name != "_keep_work"])
        actions.append(a)
    return attrs.evolve(ir, actions=actions)


def _is_work(st, method: str) -> bool:
    """Whether ``st`` is the trial's keeping (``_work_done``) or putting back (``_work_back``)."""
    value = st.value if isinstance(st, (S.Assign, S.Eval)) else None
    return isinstance(value, N.Method) and value.name == method


def _counts_nothing(tree, functions: dict, seen: set) -> bool:
    """Whether running ``tree`` (statements, expressions) can count no work: no loop of
    statements, no method of the state but the quiet ones, through the defines it calls."""
    if isinstance(tree, (S.For, S.While)):
        return False
    if isinstance(tree, N.Method) and not tree.name.startswith(_QUIET):
        return False
    if isinstance(tree, N.Apply) and tree.function not in seen:
        seen.add(tree.function)
        f = functions.get(tree.function)
        if f is None:
            return False
        expr, _names, _line, lets = f[3]
        if not _counts_nothing((expr, *lets), functions, seen):
            return False
    return all(_counts_nothing(p, functions, seen) for p in parts(tree))
