"""Optimizations as tree passes over the typed IR, shared by both engines.

Each pass is one module with one job: a function from a tree to a tree of the same value (the
reference evaluator, compiler/ir/evaluate.py, is the judge: tests/test_passes.py holds each pass to
it on trees made by hand and on random ones). :func:`optimize` runs them, in order, over every
tree a :class:`GameIR` holds, before either engine's writer sees it (compiler/write/written.py); the
passes that differ by engine (reads taken once, cells built once, packed keys) run there.

The pipeline:

1. ``early_exit``: counts compared with 0 or 1 become ``any`` (or ``not any``), which stops at
   the first element that qualifies.
2. ``tables``: ``count(neighbours(G, c))`` and ``c in edge_cells(G, s)`` read from tables made
   when generating (``read_tables``).
3. ``held_source``: an aggregate over all the cells of a grid of seats whose first test is
   ``board[c] == me`` (or a seat as a number) walks the cells holding it instead.
4. ``line_source``: an aggregate over a grid's cells (or a seat's pieces) whose first test
   fixes the row or column walks that line's cells alone, on a grid of regular lines.
5. ``seats_written_out``: ``any`` or ``all`` over the seats, in a game of a fixed number of
   seats (four at most), written out seat by seat (``E0 or E1``).
6. ``fold``: what the seats written out make known (``if 0 == 0 then 2 else 0``), and any shape
   of constants the lowering built past its builders (``0 + 1``), worked out as they fold.
7. ``blocker_walk``: a walk along a direction (``reach``, ``slide``) inside ``any`` or ``all``
   whose test fails (holds) on every empty cell tests only the filled cell it stops on, the
   test on an empty cell computed once per walk.
8. ``one_walk``: ``any(A for y in S) or any(B for y in S)`` over a cell's neighbours (leaps)
   walks them once, ``any(A or B for y in S)``, where neither test can fail (``all`` and
   ``and`` alike).
9. ``share_values``: in a define's function, a call computed twice or more (of the runtime, of
   another define, an aggregate) is computed once, into a local, where it is first computed
   unconditionally.
"""
from __future__ import annotations

import attrs

from ..ir.nodes import Node
from ..ir.traverse import over
from .blocker_walk import walk_to_blocker
from .early_exit import stop_early
from .fold import fold_known
from .held_source import walk_held
from .line_source import walk_lines
from .one_walk import walk_once
from .seats_written_out import seats_of, write_out_seats
from .share_values import share_values
from .tables import read_tables

#: the passes, in the order they run; each maps a node to a node of the same value
PIPELINE = (stop_early,)


def bottom_up(tree, change):
    """``tree`` with ``change`` applied to every node, children first."""
    if not isinstance(tree, (Node, tuple, list)):
        return tree
    inner = over(tree, lambda part: bottom_up(part, change))
    return change(inner) if isinstance(inner, Node) else inner


def each_tree(value, change):
    """``value`` (a GameIR, one of its records, a tuple or list of them) with every tree in it
    passed through ``change``; records and containers rebuilt only where something changed."""
    if isinstance(value, Node):
        return change(value)
    if isinstance(value, (tuple, list)):
        new = [each_tree(item, change) for item in value]
        return value if all(a is b for a, b in zip(new, value)) else type(value)(new)
    if attrs.has(type(value)) and not isinstance(value, type):
        changes = {}
        for f in attrs.fields(type(value)):
            old = getattr(value, f.name)
            new = each_tree(old, change)
            if new is not old:
                changes[f.name] = new
        return attrs.evolve(value, **changes) if changes else value
    return value


#: the passes that read the game's grids, in the order they run after PIPELINE's
GRID_PASSES = (("tables", read_tables), ("held_source", walk_held), ("line_source", walk_lines))


def optimize(ir, until: str | None = None):
    """The game with every tree through the pipeline; ``until``: the name of the last of the
    grids' passes to run (a test of one pass sees the trees as that pass leaves them)."""
    for step in PIPELINE:
        ir = each_tree(ir, lambda tree, step=step: bottom_up(tree, step))
    if hasattr(ir, "functions"):  # a GameIR (the tests give the pipeline bare trees too)
        for name, grid_pass in GRID_PASSES:
            change = grid_pass(ir.grids)
            ir = each_tree(ir, lambda tree: bottom_up(tree, change))
            if name == until:
                return ir
        ways = {g.const: g.ways for g in ir.grids}
        change = write_out_seats(seats_of(ir), ways)
        ir = each_tree(ir, lambda tree: bottom_up(tree, change))
        ir = attrs.evolve(ir, grids=[attrs.evolve(g, ways=ways[g.const]) if ways[g.const] != g.ways else g
                                     for g in ir.grids])
        if until == "seats_written_out":
            return ir
        ir = each_tree(ir, lambda tree: bottom_up(tree, fold_known))
        change = walk_to_blocker(ir.functions)  # (after the grids' passes: a walk they made is seen too)
        ir = each_tree(ir, lambda tree: bottom_up(tree, change))
        if until == "blocker_walk":
            return ir
        change = walk_once(ir.functions)
        ir = each_tree(ir, lambda tree: bottom_up(tree, change))
        if until == "one_walk":
            return ir
        ir = attrs.evolve(ir, functions=share_values(ir.functions))
    return ir
