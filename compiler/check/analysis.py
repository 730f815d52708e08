"""What the compiler learns by reading the rules as a whole, for the runtime's tables.

- :func:`secrecy`: who may see a scoring clause (public, its owner only, or nobody).
- :func:`flows`: between which places effects move elements (for determinisation).
- :func:`ends_by_statement`: whether an effect can end the game (for loading saved states).
- :func:`conjuncts`: an action's guards split at their ``and`` (to test each part early).

Secrecy: who may see the value of an expression: public, its owner only, or nobody (until the end).

A score that sums face-down cards must not be shown to the other players, or the score gives
the cards away. The compiler reads each scoring clause once: if it reads the contents of a
hidden place, nobody may see it while the game goes on; if it reads a place private to the
scored seat, only that seat may. Reading only how full a place is (``count(Z)``,
``is_empty(G, c)``, ``filled_cells(G)``...) is public, as the views show that much.
"""
from __future__ import annotations

import attrs

from regle.dsl import ast

from .symbols import CHANCE_FUNCTIONS

PUBLIC, OWNER, NOBODY = "public", "owner", "nobody"
_ORDER = {PUBLIC: 0, OWNER: 1, NOBODY: 2}
#: Functions that read only which places are filled (the views show it), given a place.
_SHAPE_ONLY = {"count", "is_empty", "filled_cells", "empty_cells", "cells", "lane_count"}


def _worst(a: str, b: str) -> str:
    return a if _ORDER[a] >= _ORDER[b] else b


def secrecy(expr: ast.Node, owner_var: str, sym) -> str:
    """PUBLIC, OWNER (only the seat named by ``owner_var`` may see it) or NOBODY."""
    return _Walk(sym).walk(expr, {owner_var}, frozenset())


class _Walk:
    def __init__(self, sym):
        self.sym = sym

    def place(self, name: str):
        counter = self.sym.counters.get(name)
        private = counter if counter is not None and counter.private else None
        return self.sym.zones.get(name) or self.sym.grids.get(name) or private

    def walk(self, node, owners: set[str], defining: frozenset) -> str:
        level = PUBLIC
        if isinstance(node, ast.Call) and node.func in _SHAPE_ONLY and node.func not in self.sym.defines and \
                node.args and \
                self._is_place(node.args[0]):
            # the place itself is read for its shape only; other arguments still count
            for arg in node.args[1:]:
                level = _worst(level, self.walk(arg, owners, defining))
            if node.func == "count" and len(node.args) > 1:
                level = _worst(level, self._place_level(node.args[0], owners))
            return level
        if isinstance(node, ast.Call) and node.func in self.sym.defines and node.func not in defining:
            d = self.sym.defines[node.func]
            inner = {p for p, arg in zip(d.params, node.args) if isinstance(arg, ast.Name) and arg.id in owners}
            for arg in node.args:
                level = _worst(level, self.walk(arg, owners, defining))
            return _worst(level, self.walk(d.body, inner, defining | {node.func}))
        if isinstance(node, (ast.Name, ast.Index)) and self._is_place(node):
            level = self._place_level(node, owners)
            if isinstance(node, ast.Index):
                level = _worst(level, self.walk(node.index, owners, defining))
            return level
        if isinstance(node, ast.Comp):
            owners = owners - {node.var}  # the loop variable shadows an owner's name
        for child in children(node):
            level = _worst(level, self.walk(child, owners, defining))
        return level

    def _is_place(self, node) -> bool:
        if isinstance(node, ast.Index):
            node = node.obj
        if isinstance(node, ast.Attr):  # a grid seen through a column: face_up[p].colour
            return self._is_place(node.obj)
        return isinstance(node, ast.Name) and self.place(node.id) is not None

    def _place_level(self, node, owners: set[str]) -> str:
        index = None
        if isinstance(node, ast.Attr):
            node = node.obj
        if isinstance(node, ast.Index):
            index, node = node.index, node.obj
        if isinstance(node, ast.Attr):
            node = node.obj
        place = self.place(node.id)
        if place.hidden:
            return NOBODY
        if place.private and place.per == "player":
            if isinstance(index, ast.Name) and index.id in owners:
                return OWNER
            return NOBODY
        return PUBLIC


def children(node):
    """The AST nodes a node (or a list of them) holds directly, whatever their fields."""
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from children(item)
        return
    if not attrs.has(type(node)):
        return
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        if isinstance(value, ast.Node):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in _flatten(value))


def _flatten(values):
    for v in values:
        if isinstance(v, ast.Node):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from _flatten(v)


def flows(rules: ast.Rules) -> list[tuple[str, str]]:
    """Pairs of places between which an effect moves elements (``deal``, ``move``, ``refill``,
    ``clear ... to``, ``drop``/``place ... taking``, and ``remove X`` with ``add X``/``put X``
    of the same X in one block). Determinisation pools two places a player cannot see only
    when elements can pass between them unseen; ``deal all ... where`` is left out, as its
    destination receives exactly what the condition (public rules) selects."""
    found: set[tuple[str, str]] = set()
    for body in _blocks(rules):
        removed: dict[str, set[str]] = {}
        created: dict[str, set[str]] = {}
        for node in _statements(body):
            pairs = []
            if isinstance(node, ast.Deal) and not (node.count is None and node.where is not None):
                pairs.append((node.src, node.dst))
            elif isinstance(node, (ast.Move, ast.Refill)):
                pairs.append((node.src, node.dst))
            elif isinstance(node, ast.Clear) and node.to is not None:
                pairs.append((node.grid, node.to))
            elif isinstance(node, (ast.Drop, ast.Place)) and node.taking is not None:
                pairs.append((node.taking, node.grid))
                if node.overflow is not None:
                    pairs.append((node.taking, node.overflow))
            elif isinstance(node, ast.Remove):
                removed.setdefault(_text(node.item), set()).add(_place_name(node.src))
            elif isinstance(node, (ast.Add, ast.Put)):
                item = node.item if isinstance(node, ast.Add) else node.value
                place = node.dst if isinstance(node, ast.Add) else node.grid
                created.setdefault(_text(item), set()).add(_place_name(place))
            found.update((_place_name(a), _place_name(b)) for a, b in pairs)
        for key, sources in removed.items():
            found.update((a, b) for a in sources for b in created.get(key, ()))
    return sorted((a, b) for a, b in found if a != b and "?" not in (a, b))


def ends_by_statement(rules: ast.Rules) -> bool:
    """Whether some effect ends the game with ``end game`` (not only ``end when``)."""
    return _has_statement(rules, ast.EndGame)


def announces(rules: ast.Rules) -> bool:
    """Whether some effect announces something to everyone (`announce "..."`)."""
    return _has_statement(rules, ast.Announce)


def has_chance(rules: ast.Rules) -> bool:
    """Whether anything in the rules draws on chance: a shuffle, a deal at random, or random()
    anywhere."""
    if _has_statement(rules, ast.Shuffle) or _has_statement(rules, ast.Deal, lambda deal: deal.random):
        return True
    stack = [rules]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and node.func in CHANCE_FUNCTIONS:
            return True
        stack.extend(children(node))
    return False


def has_next_player(rules: ast.Rules) -> bool:
    """Whether some effect chooses the next seat (``next player``)."""
    return _has_statement(rules, ast.NextPlayer)


def _has_statement(rules: ast.Rules, kind: type, which=lambda node: True) -> bool:
    """Whether some block holds a statement of ``kind`` (that ``which`` says yes to)."""
    return any(isinstance(node, kind) and which(node) for body in _blocks(rules) for node in _statements(body))


def _blocks(rules: ast.Rules, setup: bool = True):
    """The rules' blocks of statements: setup's (with ``setup``), each procedure's, each
    step's and each action's."""
    for decl in rules.decls:
        if setup and isinstance(decl, ast.Setup):
            yield decl.body
        elif isinstance(decl, ast.Define) and decl.block is not None:  # a procedure's statements
            yield decl.block
        elif isinstance(decl, ast.Turn):
            for step in decl.steps:
                yield step.body
                yield from (c.body for c in step.choices if isinstance(c, ast.Action))


def _statements(body: list):
    for node in body:
        yield node
        if isinstance(node, ast.If):
            for _cond, inner in node.branches:
                yield from _statements(inner)
            if node.orelse:
                yield from _statements(node.orelse)
        elif isinstance(node, (ast.For, ast.While)):
            yield from _statements(node.body)
        elif isinstance(node, ast.Push) and getattr(node, "body", None):
            yield from _statements(node.body)


#: per statement kind, the fields naming the places it changes
_WRITES = {ast.Put: ("grid",), ast.MovePiece: ("grid",), ast.Clear: ("grid", "to"), ast.Drop: ("grid", "taking", "overflow"),
           ast.Settle: ("grid",), ast.Rotate: ("grid",), ast.Place: ("grid", "taking", "overflow"), ast.Push: ("grid",),
           ast.Deal: ("src", "dst"), ast.Move: ("src", "dst"), ast.Add: ("dst",), ast.Remove: ("src",),
           ast.Refill: ("dst", "src"), ast.Shuffle: ("zone",)}
#: statements that change nothing of the state (tests, names, the flow of a block)
_NO_WRITES = (ast.Let, ast.Require, ast.Ensure, ast.If, ast.For, ast.While)


def written_places(body: list, procedures: dict) -> set[str] | None:
    """The places (zones, grids, counters, by name) the statements may change, procedures run
    included; None when some statement's writes are not known (then a caller keeps everything)."""
    found: set[str] = set()
    seen: set[str] = set()
    stack = list(body)
    while stack:
        node = stack.pop()
        for inner in _statements([node]):
            kind = type(inner)
            if kind in _WRITES:
                found.update(_place_name(getattr(inner, f)) for f in _WRITES[kind] if getattr(inner, f) is not None)
            elif isinstance(inner, ast.Assign):
                found.add(inner.name)  # a counter, a grid of numbers, or a let (not a place: harmless)
            elif isinstance(inner, ast.Run):
                proc = procedures.get(inner.name)
                if proc is None or proc.block is None:
                    return None
                if inner.name not in seen:
                    seen.add(inner.name)
                    stack.extend(proc.block)
            elif not isinstance(inner, _NO_WRITES):
                return None
    return None if "?" in found else found


#: per statement kind, the fields naming the places where it can make items appear or vanish
#: (an item put on a cell, one taken over by a capture or a push off the board, one added or
#: removed); dealing, moving, refilling, shuffling, settling and turning only move them
_MAKES_OR_TAKES = {ast.Add: ("dst",), ast.Remove: ("src",), ast.Put: ("grid",), ast.MovePiece: ("grid",),
                   ast.Drop: ("grid", "taking", "overflow"), ast.Place: ("grid", "taking", "overflow"),
                   ast.Push: ("grid",)}


def places_not_conserved(rules: ast.Rules) -> set[str] | None:
    """The places (zones, grids by name) where play can make an item appear or vanish: what a
    saved state's items are checked against (every item of a table whose places are all kept
    lies in exactly one place, as after setup). None when a statement's place is not known."""
    found: set[str] = set()
    for body in _blocks(rules, setup=False):  # (what setup makes is what a new game holds)
        for node in _statements(body):
            fields = _MAKES_OR_TAKES.get(type(node), ())
            if isinstance(node, ast.Clear) and node.to is None:  # emptied, not moved
                fields = ("grid",)
            found.update(_place_name(getattr(node, f)) for f in fields if getattr(node, f, None) is not None)
    return None if "?" in found else found


def _place_name(node) -> str:
    while isinstance(node, (ast.Index, ast.Attr)):
        node = node.obj
    return node.id if isinstance(node, ast.Name) else "?"


def _text(node) -> str:
    from regle.dsl.printer import expr
    return expr(node)


def conjuncts(prefix: list) -> list[tuple]:
    """The guards, each ``require a and b and c`` as one require per conjunct in order, so that
    a conjunct that needs fewer parameters is tested in an outer loop: (guard, later) pairs.
    ``later`` marks the second and later conjuncts: each is placed no further out than the one
    before it, so a conjunct is only evaluated where the original ``and`` would evaluate it."""
    out = []
    for stmt in prefix:
        if not (isinstance(stmt, ast.Require) and stmt.message is None):
            out.append((stmt, False))
            continue
        parts, stack = [], [stmt.cond]
        while stack:
            e = stack.pop()
            if isinstance(e, ast.BinOp) and e.op == "and":
                stack += [e.right, e.left]
            else:
                parts.append(e)
        if len(parts) == 1:
            out.append((stmt, False))
            continue
        out += [(ast.Require(cond=e, pos=stmt.pos), i > 0) for i, e in enumerate(parts)]
    return out
