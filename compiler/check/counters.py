"""Counters: whole numbers (or one value of a declared kind) that effects change, checked into
symbols. A counter is one shared value, one per player or per member of an enum, or one per
pair of keys (``counter held per player per kind``: a player's pieces in hand of each kind)."""
from __future__ import annotations

from regle.dsl import ast

from ..ir import types as T
from .symbols import CounterSym, suggest
from .texts import _at


def decl_counter(checker, node: ast.Counter) -> None:
    """What it holds, its key or keys, and the options a counter of two keys cannot take."""
    if not checker.declare(node.name, _at(node), "counter"):
        return
    kind = T.INT if node.type is None else checker.resolve_type(node.type) or T.ANY
    if kind.kind == "pattern":
        checker.error("a counter holds one value: a number, true/false, a player, a cell, an enum member or "
                      "an item, not a pattern", node.type.pos)
        kind = T.ANY
    per = checker.resolve_per(node.per, node.pos)
    per2 = None
    if node.per2 is not None:
        if node.per not in ("player", *checker.sym.enums):
            checker.error(f"a counter of two keys is per player or per an enum, then per an enum; "
                          f"'per {node.per}' cannot come first", node.pos)
        elif node.per2 not in checker.sym.enums:
            checker.error(f"'per {node.per2}': the second key of a counter is an enum, and '{node.per2}' is not one",
                          node.pos, f"put the seats first: counter {node.name} per player per {node.per}"
                          if node.per2 == "player" else suggest(node.per2, checker.sym.enums)
                          or "declare the enum above the counter")
        elif node.private:
            checker.error("a counter of two keys cannot be private: a private counter is one value per player",
                          node.pos, "keep it per player only, or leave out 'private'")
        else:
            per2 = node.per2
    checker.sym.counters[node.name] = CounterSym(node.name, per, node, kind, per2)
