"""A pass over a native move generator's tree: a loop over the neighbours no wall separates
from a cell (``t in neighbours(board, c, fence)``) walked on the grid's C tables.

The lowering writes such a loop's source as the kernel ``K.open_neighbours``, a Python list of
the open neighbours made at every call, each read back from a Python number. Where the walls
are a grid of pieces (a bytearray), this pass makes the loop a ``WalledScan``
(compiler/write/moves.py): natively a C loop over the cell's row of the neighbours' table, each
neighbour taken when the wall across that step (the walls' table of places, ``G_fence__SLOTS``)
is missing or empty, with no list made. The Python engine keeps the kernel's list (the pass is
native only). ``x in neighbours(board, c, fence)`` is natively a C test as well
(compiler/write/emit_native.py).

Why it is exact: the kernel takes the same neighbours in the same order (the table's row, in
direction order) by the same test (``_open_step``: no wall place, a place past the grid, or an
empty one), and says the same errors first (no cell, a cell off the table); the walls are read
where the kernel would have read them, since a generator does not write them (a trial puts back
what it writes before the next neighbour is asked for).
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N

#: the C locals a walk takes: where the cell's row begins, and the step walked
PREFIX = "_wall"


def walled(value) -> bool:
    """Whether ``value`` is the open neighbours of a cell through walls that are a grid of
    pieces (bytes): the kernel's list, which the native engine can walk on its tables."""
    if not (isinstance(value, N.Helper) and value.name == "K.open_neighbours" and len(value.args) == 5):
        return False
    adj, deg, slots, walls, _cell = value.args
    ty = getattr(walls, "type", None)
    return isinstance(adj, N.Table) and isinstance(slots, N.Table) and isinstance(deg, int | N.Const) \
        and isinstance(walls, N.Field | N.Local) and ty is not None and ty.kind == "grid" \
        and (ty.elem is None or ty.elem.kind != "int")


def walk_walled(items: tuple) -> tuple[tuple, list[str]]:
    """``items`` (a native move generator's block, nested) with each loop of one name over
    open neighbours through walls of bytes a ``WalledScan``; and the C locals that takes."""
    made: list[str] = []
    return _block(items, made), made


def _block(items: tuple, made: list) -> tuple:
    from ..write.moves import WalledScan  # (that module imports the lowering, which imports this package)
    out = []
    for item in items:
        if type(item).__name__ == "Scan" and "," not in item.names and walled(item.source):
            at, step = f"{PREFIX}{len(made)}", f"{PREFIX}{len(made) + 1}"
            made.extend((at, step))
            item = WalledScan(item.line, item.names, item.source, at, step, body=item.body)
        body = getattr(item, "body", None)
        if isinstance(body, tuple) and attrs.has(type(item)):
            item = attrs.evolve(item, body=_block(body, made))
        out.append(item)
    return tuple(out)
