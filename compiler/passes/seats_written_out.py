"""``any`` and ``all`` over the seats, in a game of a fixed number of seats, written out seat by seat.

``any(can_move(p) for p in players)`` and ``can_move(0) or can_move(1)`` say the same in a game
of two seats; the first walks a loop (in the Python engine a generator, made and run at every
evaluation; natively a helper method), the second asks twice. Where the game always has the
same number of seats (at most four), this pass writes the aggregate out: the element with the
seat's number in place of the variable, joined by ``or`` (``any``) or ``and`` (``all``), a
``where`` clause joined to each (``C0 and E0`` for ``any``, ``not C0 or E0`` for ``all``). The
seats are asked in order and the first that decides stops the rest, as the loop stops early;
not where the elements draw on chance (the aggregate is then not lazy), and not where an
aggregate inside binds the same name again.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import names_known, over, parts, put_local

#: the most seats written out (past that the loop is as short to read as to run)
MOST = 4


def write_out_seats(seats: int | None, ways: dict | None = None):
    """The pass for a game of ``seats`` seats (None: a game whose number of seats varies,
    where it changes nothing): a change of one node, applied children first by the caller.
    ``ways``: per grid (its constants' prefix), how many reachable() calls keep their last
    ways; a seat's copy of such a call gets a memo of its own (one call site per seat, as if
    written out by hand), and the count grows here (the caller gives the grids the new count)."""
    ways = {} if ways is None else ways
    renamed: dict = {}  # (a memo, a seat) -> that seat's memo, the same in every tree it stands in

    def change(node):
        if seats is None or seats > MOST or not _over_seats(node):
            return node
        inside = (node.elem,) if node.cond is None else (node.elem, node.cond)
        if _binds(inside, node.var) or not all(names_known(p) for p in inside):
            return node  # (a code leaf could read the name where no node shows it)
        join = "or" if node.func == "any" else "and"
        out = None
        for seat in range(seats):
            value = N.Const(T.INT, node.line, seat)
            item = _own_memos(put_local(node.elem, node.var, value), ways, renamed, seat)
            if node.cond is not None:
                cond = _own_memos(put_local(node.cond, node.var, value), ways, renamed, seat)
                item = (N.Binary(T.BOOL, node.line, "and", cond, item) if join == "or"
                        else N.Binary(T.BOOL, node.line, "or", N.Not(T.BOOL, node.line, cond), item))
            out = item if out is None else N.Binary(T.BOOL, node.line, join, out, item)
        return out if out is not None else N.Const(T.BOOL, node.line, join == "and")

    return change


def _over_seats(node) -> bool:
    """Whether ``node`` is a lazy ``any`` or ``all`` over the seats (``for p in players``)."""
    return (isinstance(node, N.Aggregate) and node.func in ("any", "all") and node.lazy and not node.display
            and isinstance(node.source, N.Upto) and isinstance(node.source.count, N.Field)
            and node.source.count.attr == "n")


def _binds(tree, name: str) -> bool:
    """Whether an aggregate inside ``tree`` binds ``name`` again."""
    if isinstance(tree, N.Aggregate) and tree.var == name:
        return True
    return any(_binds(p, name) for p in parts(tree))


def _own_memos(tree, ways: dict, renamed: dict, seat: int):
    """``tree`` (seat ``seat``'s copy) with each memo of kept ways (``G_board__WAYS_1``) the
    seat's own, made once (the first seat keeps the call's)."""
    if seat == 0:
        return tree
    if isinstance(tree, N.Global):
        for const in ways:
            rest = tree.name[len(const) + len("_WAYS_"):]
            if tree.name.startswith(const + "_WAYS_") and rest.isdigit():
                if (tree.name, seat) not in renamed:
                    renamed[tree.name, seat] = f"{const}_WAYS_{ways[const]}"
                    ways[const] += 1
                return attrs.evolve(tree, name=renamed[tree.name, seat])
        return tree
    return over(tree, lambda part: _own_memos(part, ways, renamed, seat))


def seats_of(ir) -> int | None:
    """How many seats every game of ``ir`` has, or None when it varies."""
    low, high = getattr(ir, "min_players", None), getattr(ir, "max_players", None)
    return low if low is not None and low == high else None
