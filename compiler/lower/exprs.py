"""Expressions: names, attributes, indexing, operators and conditionals, each typed as it is
lowered (errors reported at their positions) into Python code over the state ``s``."""
from __future__ import annotations

from collections import Counter
from typing import Iterable

import attrs
from regle.dsl import ast

from ..ir import nodes as N
from ..ir import types as T
from ..check.symbols import LIMITS, suggest
from .common import P_OR, P_ATOM, Ctx, _const, column_const, cells_const, is_c_column, _zone_name


#: expressions lowering may build per node of the text (the least is LIMITS["check_work"])
WORK_PER_NODE = 30


class TooMuchWork(Exception):
    """Lowering built more expressions than the text's size allows (``Lowerer.work_left``):
    ``node`` is where it stood, the outermost define call being expanded when there is one."""

    def __init__(self, node: ast.Node):
        super().__init__("too much work")
        self.node = node


class ExpressionLowering:
    """Mixed into :class:`lower.Lowerer`."""

    # ---- expressions ------------------------------------------------------------------
    def want_tree(self, node: ast.Node, ctx: Ctx, kinds: Iterable[str], what: str) -> N.Expr:
        tree = self.tree(node, ctx)
        if tree.type.kind != "any" and tree.type.kind not in kinds:
            self.error(f"expected {what} here, but this is {tree.type}", node.pos)
        return tree

    def number_tree(self, node: ast.Node, ctx: Ctx) -> N.Expr:
        return self.want_tree(node, ctx, ("int", "player", "lane"), "a number")

    def boolean_tree(self, node: ast.Node, ctx: Ctx) -> N.Expr:
        return self.want_tree(node, ctx, ("bool",), "a condition (true/false)")

    def zone_tree(self, node: ast.Node, ctx: Ctx) -> tuple[N.Expr, T.Type, str]:
        """A zone that effects can change: returns (its tree, element type, display name)."""
        tree = self.tree(node, ctx)
        ty = tree.type
        name = _zone_name(node)
        if ty.kind == "zone":
            return tree, ty.elem, name
        if ty.kind == "zones":
            self.error(f"'{name}' is a zone per player: say whose, e.g. {name}[me] or {name}[p]", node.pos)
        elif ty.kind != "any":
            self.error(f"expected a zone here, but this is {ty}", node.pos)
        return tree, T.ANY, name

    def tree(self, node: ast.Node, ctx: Ctx) -> N.Expr:
        """The typed IR of an expression (compiler/ir/nodes.py): operators, comparisons,
        conditionals, constants, reads of the state and calls of the runtime are nodes; the
        rest is still written as code, a leaf."""
        self.work_left -= 1
        if self.work_left < 0:
            raise TooMuchWork(self.calls[0] if self.calls else node)
        kind = type(node).__name__
        build = getattr(self, "t_" + kind, None)
        if build is not None:
            return build(node, ctx)
        return self.as_tree(getattr(self, "x_" + kind)(node, ctx), node.pos[0])

    def as_tree(self, made, line: int) -> N.Expr:
        """What an ``x_`` method made (a tree, or code with its type and precedence) as a tree
        of its rules line."""
        if isinstance(made, N.Expr):
            return attrs.evolve(made, line=line) if made.line == 0 else made
        code, ty, prec = made
        return N.leaf(code, ty, prec, line)

    def t_Int(self, node: ast.Int, ctx: Ctx) -> N.Expr:
        return N.Const(T.INT, node.pos[0], node.value)

    def t_Bool(self, node: ast.Bool, ctx: Ctx) -> N.Expr:
        return N.Const(T.BOOL, node.pos[0], bool(node.value))

    @staticmethod
    def mark(ctx: Ctx) -> Counter:
        """What has been counted so far (the names used), to rewind to when the code lowered
        after it is dropped."""
        return Counter(ctx.uses)

    @staticmethod
    def rewind(mark: Counter, ctx: Ctx) -> None:
        ctx.uses.clear()
        ctx.uses.update(mark)

    def x_Players(self, node: ast.Players, ctx: Ctx):
        return N.Upto(T.list_of(T.PLAYER), 0, N.Field(T.INT, 0, "n"))

    def x_Name(self, node: ast.Name, ctx: Ctx):
        name = node.id
        if name in ctx.scope:
            ctx.uses[name] += 1
            return ctx.scope[name]
        sym = self.sym
        if name in sym.params:
            p = sym.params[name]
            return self.constant(p.value, p.type)
        if name in sym.members:
            enum, index = sym.members[name]
            return N.Const(T.enum(enum), 0, index)
        if name in sym.seats:  # a seat by the name the game gives it
            return N.Const(T.PLAYER, 0, sym.seats[name])
        if name in sym.zones:
            z = sym.zones[name]
            ty = T.Type("zones", elem=z.elem, per=z.per) if z.per else T.zone_of(z.elem)
            return N.Field(ty, 0, f"z_{name}")
        if name in sym.grids:
            g = sym.grids[name]
            kind = "grids" if g.per else "grid"
            return N.Field(T.Type(kind, elem=g.elem, per=g.per, space=name), 0, f"g_{name}")
        if name in sym.counters:
            c = sym.counters[name]
            return N.Field(T.Type("counters", elem=c.type, per=c.per) if c.per else c.type, 0, f"c_{name}")
        if name in sym.tables:
            return N.Global(T.list_of(T.item(name)), 0, f"{_const(name)}_ALL")
        if name in sym.enums:
            return N.Upto(T.list_of(T.enum(name)), 0, N.Const(T.INT, 0, len(sym.enums[name].members)))
        if name == "me":
            if ctx.has_me:
                ctx.uses["me"] += 1
                return N.Local(T.PLAYER, 0, "me")
            self.error("'me' (the acting player) has no meaning here", node.pos,
                       "'me' exists in the turn; in setup, scores or the winner use a player variable")
            return N.Const(T.ANY, 0, 0)
        if name == "turns":
            return N.Field(T.INT, 0, "turns")
        if name == "stuck":  # the turn just ended had no decision: its player could not move
            if ctx.where in ("end", "notice"):
                self.reads_stuck = True
                return N.Field(T.BOOL, 0, "stuck")
            self.error("'stuck' (the player whose turn just ended had no move) is known in end conditions only",
                       node.pos, "end when stuck then winner 1 - me")
            return N.Const(T.BOOL, 0, False)
        if name == "ended":  # the game is over (a notice may speak of the final position)
            if ctx.where == "notice":
                return N.Field(T.BOOL, 0, "over")
            self.error("'ended' (the game is over) is known in notices only", node.pos,
                       'notice "territory" when ended at ...')
            return N.Const(T.BOOL, 0, False)
        if name == "none":
            return N.Const(T.ANY, 0, -1)
        if name == "player_count":
            return N.Field(T.INT, 0, "n")
        if name == "it":
            self.error("'it' only exists in the 'where' of a deal", node.pos)
            return N.Const(T.ANY, 0, 0)
        names = [*ctx.scope, *sym.all_names()]
        self.error(f"unknown name '{name}'", node.pos,
                   suggest(name, names) or "declare it (param, zone, counter, ...) or bind it (let, for, action parameter)")
        return N.Const(T.ANY, 0, 0)

    @staticmethod
    def constant(value, ty: T.Type) -> N.Expr:
        """A param's value as a tree: a number or truth, a text, or a list of them (a tuple)."""
        if isinstance(value, (bool, int)):
            return N.Const(ty, 0, value)
        if isinstance(value, str):
            return N.Text(ty, 0, value)
        return N.Literal(ty, 0, tuple(value))

    def x_Attr(self, node: ast.Attr, ctx: Ctx):
        if isinstance(node.obj, ast.Name) and node.obj.id in self.sym.tables and node.obj.id not in ctx.scope:
            table = self.sym.tables[node.obj.id]
            col = table.columns.get(node.name)
            if col is None:
                self.error(f"table '{table.name}' has no column '{node.name}'", node.pos,
                           suggest(node.name, table.columns) or "columns: " + ", ".join(table.columns))
                return "()", T.list_of(T.ANY), P_ATOM
            return N.Global(T.list_of(col.type), 0, column_const(table.name, node.name))
        whole = self.tree(node.obj, ctx)
        ty = whole.type
        if ty.kind == "grid" and ty.elem is not None and ty.elem.kind == "item":
            # a grid of items seen through one of their columns, e.g. up[p].colour
            col = self.sym.tables[ty.elem.name].columns.get(node.name)
            if col is None or col.type.kind not in ("enum", "int"):
                self.error(f"a grid of {ty.elem.name} can be seen through an enum or number column, "
                           f"not '{node.name}'", node.pos)
                return "bytearray()", T.ANY, P_ATOM
            return N.Projection(T.Type("grid", elem=col.type, space=ty.space), 0, whole,
                                cells_const(ty.elem.name, node.name))
        special = self.special_attr(node, whole)
        if special is not None:
            return special
        if ty.kind == "piece":  # a piece's kind and owner (none for none)
            kinds = len(self.sym.enums[ty.name].members)
            if node.name == "kind":
                return self.helper("ops.piece_kind", T.enum(ty.name), whole, kinds)
            if node.name == "owner":
                return self.helper("ops.piece_owner", T.PLAYER, whole, kinds)
            self.error(f"a piece has a '.kind' and an '.owner', not '.{node.name}'", node.pos)
            return "0", T.ANY, P_ATOM
        if ty.kind == "item":
            table = self.sym.tables[ty.name]
            col = table.columns.get(node.name)
            if col is None:
                self.error(f"a {ty.name} has no '{node.name}'", node.pos,
                           suggest(node.name, table.columns) or "columns: " + ", ".join(table.columns))
                return "0", T.ANY, P_ATOM
            return self.column(table.name, node.name, col, whole)
        if ty.kind != "any":
            self.error(f"'.{node.name}' needs an item of a table, but this is {ty}", node.pos)
        return "0", T.ANY, P_ATOM

    def counter_slot(self, name: str, index, ty: T.Type = T.ANY, second=None) -> N.Slot:
        """One seat's (member's) value of a counter per player (per member); of a counter of
        two keys, the value of the pair (``held[p][k]``: its list holds the rows of the first
        key one after another, ``p * members + k``)."""
        c = self.sym.counters[name]
        per = c.per
        bound = N.Field(T.INT, 0, "n") if per == "player" else N.Const(T.INT, 0, len(self.sym.enums[per].members))
        index = self.node(index)
        if second is not None:
            width = N.Const(T.INT, 0, len(self.sym.enums[c.per2].members))
            index = N.Binary(T.INT, 0, "+", N.Binary(T.INT, 0, "*", index, width), self.node(second))
            bound = N.Binary(T.INT, 0, "*", bound, width)
        return N.Slot(ty, 0, name, index, bound)

    def counter_key(self, c, node: ast.Expr, ctx: Ctx, second: bool = False):
        """The tree of one key of counter c (a seat's number, or a member of its enum)."""
        per = c.per2 if second else c.per
        if per == "player":
            return self.number_tree(node, ctx)
        tree = self.want_tree(node, ctx, ('enum',), f'a member of {per}')
        if tree.type.kind == "enum" and tree.type.name != per:
            self.error(f"this is indexed by a member of '{per}', not by {tree.type}", node.pos)
        return tree

    def column(self, table: str, column: str, col, item) -> N.Column:
        """One item's value in a table column (natively from its C array: is_c_column)."""
        return N.Column(col.type, 0, column_const(table, column), self.node(item), is_c_column(col.values))

    def x_Index(self, node: ast.Index, ctx: Ctx):
        obj = node.obj
        if isinstance(obj, ast.Index) and isinstance(obj.obj, ast.Name) and obj.obj.id not in ctx.scope:
            c = self.sym.counters.get(obj.obj.id)
            if c is not None and c.per2 is not None:  # held[p][k]: one value of a counter of two keys
                return self.counter_slot(c.name, self.counter_key(c, obj.index, ctx), c.type,
                                         second=self.counter_key(c, node.index, ctx, True))
        if isinstance(obj, ast.Name) and obj.id not in ctx.scope:
            c = self.sym.counters.get(obj.id)
            if c is not None and c.per2 is not None:
                first = "me" if c.per == "player" else self.sym.enums[c.per].members[0]
                self.error(f"'{obj.id}' is a counter per {c.per} per {c.per2}: say both keys, e.g. "
                           f"{obj.id}[{first}][{self.sym.enums[c.per2].members[0]}]", node.pos)
        whole = self.tree(obj, ctx)
        ty = whole.type
        if ty.kind == "grid":  # G[c]: what cell c holds
            sym = self.sym.grids[ty.space]
            cell = self.cell_tree(node.index, ctx, sym)
            if sym.elem.kind == "int":  # a grid of numbers: the number itself
                read = N.NumberCell(T.INT, 0, whole, cell)
                if ty.elem is not None and ty.elem.kind == "int":
                    return read
            else:
                read = self.cell_read(whole, cell)
            return N.Element(ty.elem or sym.elem, 0, read)
        if ty.kind in ("zones", "counters", "grids"):
            index = self.tree(node.index, ctx)
            ity = index.type
            result = {"zones": T.zone_of(ty.elem), "counters": ty.elem or T.INT,
                      "grids": T.Type("grid", elem=ty.elem, space=ty.space)}[ty.kind]
            read = N.Index(result, 0, whole, index)
            if ty.kind == "counters" and isinstance(node.obj, ast.Name) and node.obj.id in self.sym.counters:
                read = self.counter_slot(node.obj.id, index, result)
            if ty.per == "player":
                if not ity.is_number:
                    self.error(f"this is indexed by a player, not by {ity}", node.index.pos)
            elif ity.kind != "any" and not (ity.kind == "enum" and ity.name == ty.per):
                self.error(f"this is indexed by a member of '{ty.per}', not by {ity}", node.index.pos)
            return read
        position = self.tree(node.index, ctx)
        ity = position.type
        if ity.kind not in ("int", "player", "enum", "any"):
            self.error(f"expected a position (a number or an enum member) here, but this is {ity}", node.index.pos)
        if ity.kind == "enum" and isinstance(node.obj, ast.Name) and node.obj.id in self.sym.params:
            # a list param read by an enum member: displays show it beside that member (e.g. by a side)
            self.enum_params.setdefault(ity.name, {})[node.obj.id] = self.sym.params[node.obj.id].value
        if ty.kind in ("zone", "list"):
            length = self.known_length(node.obj)
            index = position.value if isinstance(position, N.Const) and not isinstance(position.value, bool) else None
            if length is not None and index is not None and not -length <= index < length:
                self.error(f"position {index} of a list of {length} (positions count from 0)", node.index.pos,
                           f"the last is [{length - 1}]" if length else "this list is empty")
            return N.Index(ty.elem or T.ANY, 0, whole, position)
        if ty.kind != "any":
            self.error(f"only zones, lists and per-player or per-member things take [...], but this is {ty}",
                       node.pos)
        return "0", T.ANY, P_ATOM

    def known_length(self, node: ast.Node) -> int | None:
        """How many elements a list has when the rules fix it: a list written out, a list param,
        the cells, directions or listed cells of a grid, a ray from a named cell in a named
        direction. None when only play can tell."""
        if isinstance(node, ast.ListExpr):
            return len(node.items)
        if isinstance(node, ast.Name) and node.id in self.sym.params and isinstance(self.sym.params[node.id].value, (list, tuple)):
            return len(self.sym.params[node.id].value)
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)
                and node.args[0].id in self.sym.grids and node.func not in self.sym.defines):
            return None
        geo = self.sym.grids[node.args[0].id].geo
        if node.func == "cells":
            return geo.cells if len(node.args) == 1 else len(node.args) - 1
        if node.func == "directions" and len(node.args) == 1:
            return geo.deg
        if node.func == "ray" and len(node.args) == 3 and all(isinstance(a, ast.Str) for a in node.args[1:]):
            names = geo.cell_names()
            if node.args[1].value not in names or node.args[2].value not in geo.dirs:
                return None  # reported where the names are read
            at, d, steps = names.index(node.args[1].value), geo.dirs.index(node.args[2].value), 0
            while geo.adj[at * geo.deg + d] >= 0 and steps < geo.cells:
                at, steps = geo.adj[at * geo.deg + d], steps + 1
            return steps
        return None

    def x_Str(self, node: ast.Str, ctx: Ctx):
        self.error(f"\"{node.value}\" names a cell or a direction; it is only understood where a grid "
                   "function or statement expects one", node.pos,
                   'e.g. cell(board, "d4"), neighbour(board, c, "ne"), put me at "d4" on board')
        return "0", T.ANY, P_ATOM

    def x_Range(self, node: ast.Range, ctx: Ctx):
        lo, hi = self.number_tree(node.lo, ctx), self.number_tree(node.hi, ctx)
        if isinstance(lo, N.Const) and isinstance(hi, N.Const) and hi.value - lo.value < LIMITS["range_values"]:
            return N.Span(T.list_of(T.INT), 0, lo.value, hi.value)
        ctx.uses["span"] += 1
        return self.helper("ops.span", T.list_of(T.INT), lo, hi)  # bounded when played

    def t_Cond(self, node: ast.Cond, ctx: Ctx) -> N.Expr:
        test = self.tree(node.test, ctx)
        if test.type.kind not in ("bool", "any"):
            self.error(f"expected a condition (true/false) here, but this is {test.type}", node.test.pos)
        then, orelse = self.tree(node.then, ctx), self.tree(node.orelse, ctx)
        ta, tb = then.type, orelse.type
        if not T.compatible(ta, tb):
            self.error(f"both values of an 'if ... then ... else' must be of one kind: {ta} and {tb}", node.pos)
        return N.choose(test, then, orelse, tb if ta.kind == "any" else ta, node.pos[0])

    def x_ListExpr(self, node: ast.ListExpr, ctx: Ctx):
        if node.items and all(isinstance(i, ast.Str) for i in node.items):  # ["d1", "e1"]: names of cells
            grid = next(iter(self.sym.grids), "board")
            names = ", ".join(f'"{i.value}"' for i in node.items)
            self.error("a list of names: cells are named where a grid says which", node.pos,
                       f"write cells({grid}, {names})")
            return "[]", T.list_of(T.ANY), P_ATOM
        items, elem = [], None
        for item in node.items:
            tree = self.tree(item, ctx)
            ty = tree.type
            if elem is None or elem.kind == "any":
                elem = ty
            elif not T.compatible(elem, ty):
                self.error(f"a list holds values of one kind: {elem} and {ty} are mixed", item.pos)
            items.append(tree)
        return N.ListOf(T.list_of(elem or T.ANY), 0, tuple(items))

    def t_Not(self, node: ast.Not, ctx: Ctx) -> N.Expr:
        inner = self.tree(node.operand, ctx)
        if inner.type.kind not in ("bool", "any"):
            self.error(f"'not' needs a condition, but this is {inner.type}", node.operand.pos)
        if (isinstance(node.operand, ast.Call) and node.operand.func == "is_empty" and isinstance(inner, N.Binary)
                and inner.op == "=="):  # not is_empty(G, c)  ->  G[c] != 0
            return attrs.evolve(inner, op="!=", line=node.pos[0])
        return N.invert(inner, node.pos[0])

    def t_Neg(self, node: ast.Neg, ctx: Ctx) -> N.Expr:
        inner = self.tree(node.operand, ctx)
        if not inner.type.is_number:
            self.error(f"'-' needs a number, but this is {inner.type}", node.operand.pos)
        return N.negate(inner, node.pos[0])

    def unordered(self, node: ast.Node) -> bool:
        """Whether an operand is a zone declared ``unordered`` (``hand``, or one seat's ``hand[p]``)."""
        if isinstance(node, ast.Index):
            node = node.obj
        zone = self.sym.zones.get(node.id) if isinstance(node, ast.Name) else None
        return zone is not None and zone.node.unordered

    def t_BinOp(self, node: ast.BinOp, ctx: Ctx) -> N.Expr:
        op, line = node.op, node.pos[0]
        limit, self.count_limit = self.count_limit, None
        if op in N.COMPARISONS and isinstance(node.right, ast.Int) and isinstance(node.left, ast.Call) \
                and node.left.func == "count":  # count(X) > 1: counting as far as 2 decides it
            self.count_limit = node.right.value + 1
        try:
            left = self.tree(node.left, ctx)
        finally:
            self.count_limit = limit
        right = self.tree(node.right, ctx)
        ta, tb = left.type, right.type
        if op in ("and", "or"):
            for ty, side in ((ta, node.left), (tb, node.right)):
                if ty.kind not in ("bool", "any"):
                    self.error(f"'{op}' joins conditions, but this is {ty}", side.pos)
            return N.binary(op, left, right, T.BOOL, line)
        if op in ("in", "not in"):
            if not tb.is_collection and tb.kind != "any":
                self.error(f"'{op}' needs a zone or list on its right, but this is {tb}", node.right.pos)
            elif tb.kind != "any" and not T.compatible(ta, tb.elem or T.ANY):
                self.error(f"{ta} cannot be in {tb}", node.pos)
            return N.binary(op, left, right, T.BOOL, line)
        if op in N.COMPARISONS:
            if not T.compatible(ta, tb):
                self.error(f"cannot compare {ta} with {tb}", node.pos)
            elif op not in ("==", "!=") and not (ta.is_number and tb.is_number) \
                    and not (ta.kind == tb.kind == "cell"):  # cells compare in their numbering order
                self.error(f"'{op}' compares numbers, not {ta if not ta.is_number else tb}", node.pos)
            elif self.unordered(node.left) or self.unordered(node.right):  # multisets: contents, any order
                left, right = (N.Apply(t.type, line, "sorted", (t,)) for t in (left, right))
            return N.binary(op, left, right, T.BOOL, line)
        if op == "+" and ta.is_collection and tb.is_collection:  # two lists joined, in order
            if not T.compatible(ta, tb):
                self.error(f"cannot join {ta} and {tb}", node.pos)
            elem = ta.elem if ta.elem is not None and ta.elem.kind != "any" else tb.elem
            return N.Concat(T.list_of(elem or T.ANY), line, left, right)
        for ty, side in ((ta, node.left), (tb, node.right)):
            if not ty.is_number:
                self.error(f"'{op}' works on numbers, but this is {ty}" + (
                    " (two lists are joined by +, a list and a value are not: write [value])"
                    if ty.is_collection else ""), side.pos)
        return N.binary(op, left, right, T.INT, line)
