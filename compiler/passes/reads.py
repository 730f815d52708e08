"""A pass over a method's tree: the reads of the state it makes twice or more, taken once.

A zone or a grid of the state (``s.z_hand``, ``s.g_board``) and one seat's (``s.z_hand[me]``)
read twice or more in a method (a read in a loop's body, a node's ``repeated`` field, counts
as twice: it is made at every round) become a local read once at its top (``z_hand__me``): fewer
lookups on every move. This is safe because a zone's or a grid's list never changes identity
after the state is built (only its contents do; nothing assigns a zone itself), and ``me`` is
fixed for the whole method. In a move generator, which changes nothing, the size of such a
read taken twice or more is taken once too (``n_z_hand__me``).

The pass walks the statement nodes (compiler/ir/statements.py, compiler/write/moves.py) and their
expressions, generically over their fields. Natively it does not enter an aggregate, which
the native engine writes as a method of its own (the local is not in its scope there).
"""
from __future__ import annotations

from collections import Counter

import attrs

from ..ir import nodes as N
from ..ir.traverse import over, parts
from ..ir import statements as S
from ..ir import types as T


def read_key(e: N.Expr) -> str | None:
    """The local a read of the state would be taken into, or None if ``e`` is not one."""
    if isinstance(e, N.Field) and e.attr.startswith(("z_", "g_")):
        return e.attr
    if isinstance(e, N.Index) and read_key(e.obj) is not None and isinstance(e.index, N.Local) \
            and e.index.name == "me":
        return read_key(e.obj) + "__me"
    return None


class _Pass:
    def __init__(self, native: bool) -> None:
        self.native = native
        self.reads: Counter = Counter()  # local -> reads
        self.made: dict[str, N.Expr] = {}  # local -> the read, as first met
        self.sizes: Counter = Counter()  # local -> sizes taken
        self.names: dict[str, str] = {}  # while rewriting: the locals taken once
        self.size_names: dict[str, str] = {}

    # ---- counting ---------------------------------------------------------------------------
    def count(self, value) -> None:
        if isinstance(value, N.Expr):
            self.count_expr(value)
            return
        for item in parts(value):
            self.count(item)
        for name in getattr(value, "repeated", ()):  # read at every step of a walk: twice or more
            self.count(getattr(value, name))

    def count_expr(self, e: N.Expr) -> None:
        key = read_key(e)
        if key is not None:
            self.reads[key] += 1
            self.made.setdefault(key, e)
            return
        if isinstance(e, N.Aggregate) and self.native:
            return
        if isinstance(e, N.Len) and read_key(e.coll) is not None:
            self.sizes[read_key(e.coll)] += 1
        for item in parts(e):
            self.count(item)

    # ---- rewriting --------------------------------------------------------------------------
    def rewrite(self, value, target: bool = False):
        if isinstance(value, N.Expr):
            return self.rewrite_expr(value, target)
        if isinstance(value, S.Assign):  # a zone or a grid itself assigned stays the state's
            return attrs.evolve(value, target=self.rewrite(value.target, target=True),
                                value=self.rewrite(value.value))
        return over(value, self.rewrite)

    def rewrite_expr(self, e: N.Expr, target: bool = False) -> N.Expr:
        key = read_key(e)
        if key is not None:
            return e if target or key not in self.names else N.Local(e.type, e.line, self.names[key])
        if isinstance(e, N.Aggregate) and self.native:
            return e
        if isinstance(e, N.Len) and read_key(e.coll) in self.size_names:
            return N.Local(e.type, e.line, self.size_names[read_key(e.coll)])
        return over(e, self.rewrite)


def take_reads_once(block, native: bool, sizes: bool = False) -> list:
    """``block`` with the reads of the state it makes twice or more taken once: the statements
    that take them, then the block reading the locals. ``sizes``: the sizes of those reads
    taken twice or more are taken once too (a method that changes nothing)."""
    p = _Pass(native)
    p.count(tuple(block))
    p.names = {key: key for key, n in p.reads.items() if n > 1}
    if sizes:
        p.size_names = {key: "n_" + key for key, n in p.sizes.items() if n > 1 and key in p.names}
    if not p.names:
        return list(block)
    head: list[S.Stmt] = [S.Assign(0, N.Local(p.made[key].type, 0, key), "=", p.made[key], "read once")
                          for key in p.names]
    head += [S.Assign(0, N.Local(T.INT, 0, n), "=", N.Len(T.INT, 0, N.Local(p.made[key].type, 0, key)), "taken once")
             for key, n in p.size_names.items()]
    return head + list(p.rewrite(tuple(block)))
