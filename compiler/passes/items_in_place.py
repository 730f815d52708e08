"""A pass over a native move generator's tree: a short list of whole numbers that the lowering
made once before the loops is written back in its loop, as C locals.

``action castle(c in [home(4)], t in [home(2), home(6)])``: the lowering computes a loop's
source that no parameter changes once, before the loops (``Source``: ``_src0_5 = [...]``), which
spares the Python engine a list per turn of the outer loops. Natively that list is a Python
object made at every call of the generator, and each of its items is read back from a Python
number; a list written out of at most eight whole numbers in its own loop is instead computed
into C locals and walked by a C loop (``ItemScan``), with nothing made. This pass puts such a
source back in the loop that walks it, natively only.

Why it is exact: the list is the loop's own source as the rules write it (``t in [home(2),
home(6)]``), computed where the rules compute it, at each turn of the loops around it; what it
reads (numbers, ``me``, the names of the loops around it, tables) no turn changes. The source's
local is dropped only when no other statement reads it.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir.traverse import locals_in
from ..lower.common import item_list

#: what the locals of a loop put back are called (``_kin0``; its items ``_kin0_0``...)
PREFIX = "_kin"


def items_in_place(items: tuple) -> tuple[tuple, list[str]]:
    """``items`` (a native move generator's block, nested) with each short list of whole numbers
    made before the loops walked in its loop instead; and the C locals that takes."""
    sources = {it.var: it for it in items if type(it).__name__ == "Source" and not it.once and item_list(it.value)}
    if not sources:
        return items, []
    made: list[str] = []
    placed: set[str] = set()
    out = _block(items, sources, placed, made, [0])
    readers = _locals_read(out)
    return tuple(it for it in out if not (type(it).__name__ == "Source" and it.var in placed
                                          and it.var not in readers)), made


def _block(items: tuple, sources: dict, placed: set, made: list, count: list) -> tuple:
    from ..write.moves import ItemScan  # (that module imports the lowering, which imports this package)
    out = []
    for item in items:
        if type(item).__name__ == "Scan" and isinstance(item.source, N.Local) and item.source.name in sources \
                and "," not in item.names:
            value = sources[item.source.name].value
            k = f"{PREFIX}{count[0]}"
            count[0] += 1
            names = tuple(f"{k}_{j}" for j in range(len(value.items)))
            made.extend((k, *names))
            placed.add(item.source.name)
            item = ItemScan(item.line, item.names, value, k, names, body=item.body)
        body = getattr(item, "body", None)
        if isinstance(body, tuple) and attrs.has(type(item)):
            item = attrs.evolve(item, body=_block(body, sources, placed, made, count))
        out.append(item)
    return tuple(out)


def _locals_read(items) -> set[str]:
    """The names of the locals any tree in ``items`` reads (Source statements' own values too),
    and the sources a kernel's moves name (``KernelMoves.sources``)."""
    names: set[str] = set()

    def visit(value) -> None:
        if isinstance(value, N.Expr):
            names.update(locals_in(value))
            return
        if isinstance(value, (tuple, list)):
            for v in value:
                visit(v)
            return
        if attrs.has(type(value)):
            names.update(v for v in getattr(value, "sources", None) or () if isinstance(v, str))
            for f in attrs.fields(type(value)):
                visit(getattr(value, f.name))

    visit(items)
    return names
