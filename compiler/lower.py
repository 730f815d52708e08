"""Typed lowering: checked declarations + the turn -> :class:`GameIR` with Python code.

Every expression is typed as it is lowered (unknown names, wrong types and wrong arity are
reported here, at their positions) and becomes a Python expression over the state ``s``.
Statements become lines preceded by a ``# line N: ...`` comment naming the rules line, which
is also how run-time errors are traced back to the rules text.
"""
from __future__ import annotations

import re
from typing import Iterable

from regle.dsl import ast
from regle.dsl.errors import Diagnostic, Source

from . import types as T
from .checker import FUNCTIONS, LIMITS, OPEN_FUNCTIONS, NotConstant, fold_constant, Symbols, split_template, suggest
from .ir import ActionIR, CounterIR, EnumIR, GameIR, GridIR, StepIR, TableIR, ZoneIR
from .lower_grids import GRID_FUNCTIONS, GridLowering, gconst
from .safety import comment_text
from .analysis import announces, ends_by_statement, flows, has_chance, has_next_player, secrecy

# operator precedences of the generated Python
P_OR, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM = range(1, 9)


_AGGREGATES = ("count", "sum", "max", "min", "any", "all", "argmin", "argmax")


def c_type(ty: T.Type) -> str:
    """The C type a native engine keeps a value of this type in: a C long for the small whole
    numbers (numbers, players, enum members, table items, cells, lanes), a C int for a truth,
    else a Python object."""
    if ty.kind == "bool":
        return "bint"
    if ty.kind in ("int", "player", "enum", "item", "cell", "lane"):
        return "long"
    return "object"


def pyname(name: str) -> str:
    """A rules name as a Python local: always with a trailing ``_``, which no name of the
    engine's own has and no declared name may end with, so it is never a keyword, a builtin
    or a helper of the template (``score p`` reads as ``p_``)."""
    return name + "_"


class Ctx:
    """What an expression may refer to where it stands."""

    def __init__(self, where: str, scope: dict | None = None, has_me: bool = False,
                 random_ok: bool = False):
        self.where = where
        self.scope: dict[str, tuple[str, T.Type]] = dict(scope or {})
        self.has_me = has_me
        self.random_ok = random_ok
        self.lets: set[str] = set()  # names bound by let here: assignments may change them

    def child(self, **extra: tuple[str, T.Type]) -> "Ctx":
        c = Ctx(self.where, self.scope, self.has_me, self.random_ok)
        c.lets = set(self.lets) - set(extra)
        c.scope.update(extra)
        return c


class Lowerer(GridLowering):
    def __init__(self, rules: ast.Rules, sym: Symbols, source: Source, diags: list[Diagnostic],
                 sources: dict[str, Source] | None = None, native: bool = False):
        self.rules = rules
        #: lowering for the native engine: aggregates become methods with a loop (a C loop
        #: once compiled) instead of the list comprehensions that are fastest in Python
        self.native = native
        self.helpers: list[tuple] = []  # (name, parameters, comment, body lines) of those methods
        self._helper_names: dict[tuple, str] = {}
        self.sym = sym
        self.source = source
        self.sources = sources or {}
        self.enum_params: dict[str, dict] = {}  # enum -> {list param read by its members: values}
        self.diags = diags
        self.action_count = 0
        self._functions: dict[tuple, tuple | None] = {}  # (define, argument types, ...) -> its function
        self._bodies: dict[tuple, tuple] = {}  # the same key -> the define's code, type, precedence
        self.functions: list[tuple] = []  # the engine's functions compiled from defines
        self._defining: list[str] = []  # the defines being compiled (a define may not use itself)
        self._cost: dict[str, int] = {}  # function -> characters of code one call runs, calls included
        self.notes: list[str] = []  # rendered notes: what the rules leave out that tools would need
        self.nsteps = len(sym.turns[0].steps) if sym.turns else 0

    @staticmethod
    def local(name: str) -> str:
        return pyname(name)

    def error(self, message: str, pos: tuple, hint: str | None = None) -> None:
        self.diags.append(Diagnostic.at(message, pos, hint))

    def comment(self, node: ast.Node) -> str:
        """``# line N: <rules text>`` (``# FILE line N: ...`` for a line of an extended file)."""
        line = node.pos[0]
        file = node.pos[2] if len(node.pos) > 2 else None
        source = self.sources.get(file, self.source) if file else self.source
        text = source.line_text(line).strip()
        if len(text) > 90:
            text = text[:87] + "..."
        where = f"{_path_word(file)} line" if file else "line"
        return comment_text(f"# {where} {line}: {text}")

    # ---- expressions ------------------------------------------------------------------
    def expr(self, node: ast.Node, ctx: Ctx) -> tuple[str, T.Type]:
        """The code of an expression that any place may hold: a conditional comes grouped,
        since its callers do not know its precedence (the lowest of all)."""
        code, ty, prec = self._expr(node, ctx)
        return (f"({code})" if prec < P_OR else code), ty

    def want(self, node: ast.Node, ctx: Ctx, kinds: Iterable[str], what: str) -> str:
        code, ty = self.expr(node, ctx)
        if ty.kind != "any" and ty.kind not in kinds:
            self.error(f"expected {what} here, but this is {ty}", node.pos)
        return code

    def number(self, node: ast.Node, ctx: Ctx) -> str:
        return self.want(node, ctx, ("int", "player", "lane"), "a number")

    def boolean(self, node: ast.Node, ctx: Ctx) -> str:
        return self.want(node, ctx, ("bool",), "a condition (true/false)")

    def zone_ref(self, node: ast.Node, ctx: Ctx) -> tuple[str, T.Type, str]:
        """A zone that effects can change: returns (code, element type, display name)."""
        code, ty = self.expr(node, ctx)
        name = _zone_name(node)
        if ty.kind == "zone":
            return code, ty.elem, name
        if ty.kind == "zones":
            self.error(f"'{name}' is a zone per player: say whose, e.g. {name}[me] or {name}[p]", node.pos)
        elif ty.kind != "any":
            self.error(f"expected a zone here, but this is {ty}", node.pos)
        return code, T.ANY, name

    @staticmethod
    def wrap(code: str, prec: int, need: int) -> str:
        return f"({code})" if prec < need else code

    def _expr(self, node: ast.Node, ctx: Ctx) -> tuple[str, T.Type, int]:
        method = getattr(self, "x_" + type(node).__name__)
        return method(node, ctx)

    def x_Int(self, node: ast.Int, ctx: Ctx):
        return str(node.value), T.INT, P_ATOM if node.value >= 0 else P_UNARY

    def x_Bool(self, node: ast.Bool, ctx: Ctx):
        return ("True" if node.value else "False"), T.BOOL, P_ATOM

    def x_Players(self, node: ast.Players, ctx: Ctx):
        return "range(s.n)", T.list_of(T.PLAYER), P_ATOM

    def x_Name(self, node: ast.Name, ctx: Ctx):
        name = node.id
        if name in ctx.scope:
            code, ty = ctx.scope[name]
            return code, ty, P_ATOM
        sym = self.sym
        if name in sym.params:
            p = sym.params[name]
            return repr(p.value), p.type, P_ATOM if not (isinstance(p.value, int) and p.value < 0) else P_UNARY
        if name in sym.members:
            enum, index = sym.members[name]
            return str(index), T.enum(enum), P_ATOM
        if name in sym.zones:
            z = sym.zones[name]
            if z.per:
                return f"s.z_{name}", T.Type("zones", elem=z.elem, per=z.per), P_ATOM
            return f"s.z_{name}", T.zone_of(z.elem), P_ATOM
        if name in sym.grids:
            g = sym.grids[name]
            kind = "grids" if g.per else "grid"
            return f"s.g_{name}", T.Type(kind, elem=g.elem, per=g.per, space=name), P_ATOM
        if name in sym.counters:
            c = sym.counters[name]
            return f"s.c_{name}", (T.Type("counters", per=c.per) if c.per else T.INT), P_ATOM
        if name in sym.tables:
            return f"{_const(name)}_ALL", T.list_of(T.item(name)), P_ATOM
        if name in sym.enums:
            return f"range({len(sym.enums[name].members)})", T.list_of(T.enum(name)), P_ATOM
        if name == "me":
            if ctx.has_me:
                return "me", T.PLAYER, P_ATOM
            self.error("'me' (the acting player) has no meaning here", node.pos,
                       "'me' exists in the turn; in setup, scores or the winner use a player variable")
            return "0", T.ANY, P_ATOM
        if name == "turns":
            return "s.turns", T.INT, P_ATOM
        if name == "none":
            return "-1", T.ANY, P_UNARY
        if name == "player_count":
            return "s.n", T.INT, P_ATOM
        if name == "it":
            self.error("'it' only exists in the 'where' of a deal", node.pos)
            return "0", T.ANY, P_ATOM
        names = [*ctx.scope, *sym.all_names()]
        self.error(f"unknown name '{name}'", node.pos,
                   suggest(name, names) or "declare it (param, zone, counter, ...) or bind it (let, for, action parameter)")
        return "0", T.ANY, P_ATOM

    def x_Attr(self, node: ast.Attr, ctx: Ctx):
        if isinstance(node.obj, ast.Name) and node.obj.id in self.sym.tables and node.obj.id not in ctx.scope:
            table = self.sym.tables[node.obj.id]
            col = table.columns.get(node.name)
            if col is None:
                self.error(f"table '{table.name}' has no column '{node.name}'", node.pos,
                           suggest(node.name, table.columns) or "columns: " + ", ".join(table.columns))
                return "()", T.list_of(T.ANY), P_ATOM
            return column_const(table.name, node.name), T.list_of(col.type), P_ATOM
        code, ty, prec = self._expr(node.obj, ctx)
        if ty.kind == "grid" and ty.elem is not None and ty.elem.kind == "item":
            # a grid of items seen through one of their columns, e.g. up[p].colour
            col = self.sym.tables[ty.elem.name].columns.get(node.name)
            if col is None or col.type.kind not in ("enum", "int"):
                self.error(f"a grid of {ty.elem.name} can be seen through an enum or number column, "
                           f"not '{node.name}'", node.pos)
                return "bytearray()", T.ANY, P_ATOM
            return (f"{code}.translate({cells_const(ty.elem.name, node.name)})",
                    T.Type("grid", elem=col.type, space=ty.space), P_ATOM)
        special = self.special_attr(node, code, ty)
        if special is not None:
            return special
        if ty.kind == "item":
            table = self.sym.tables[ty.name]
            col = table.columns.get(node.name)
            if col is None:
                self.error(f"a {ty.name} has no '{node.name}'", node.pos,
                           suggest(node.name, table.columns) or "columns: " + ", ".join(table.columns))
                return "0", T.ANY, P_ATOM
            return f"{column_const(table.name, node.name)}[{code}]", col.type, P_ATOM
        if ty.kind != "any":
            self.error(f"'.{node.name}' needs an item of a table, but this is {ty}", node.pos)
        return "0", T.ANY, P_ATOM

    def x_Index(self, node: ast.Index, ctx: Ctx):
        code, ty, prec = self._expr(node.obj, ctx)
        if ty.kind == "grid":  # G[c]: what cell c holds
            sym = self.sym.grids[ty.space]
            cell = self.cell(node.index, ctx, sym)
            if ty.elem is not None and ty.elem.kind == "int" and sym.elem.kind == "int":
                return f"{code}[{cell}]", T.INT, P_ATOM
            return f"({code}[{cell}] - 1)", ty.elem or sym.elem, P_ATOM
        if ty.kind in ("zones", "counters", "grids"):
            index, ity = self.expr(node.index, ctx)
            if ty.per == "player":
                if not ity.is_number:
                    self.error(f"this is indexed by a player, not by {ity}", node.index.pos)
            elif ity.kind != "any" and not (ity.kind == "enum" and ity.name == ty.per):
                self.error(f"this is indexed by a member of '{ty.per}', not by {ity}", node.index.pos)
            result = {"zones": T.zone_of(ty.elem), "counters": T.INT,
                      "grids": T.Type("grid", elem=ty.elem, space=ty.space)}[ty.kind]
            return f"{code}[{index}]", result, P_ATOM
        index, ity = self.expr(node.index, ctx)
        if ity.kind not in ("int", "player", "enum", "any"):
            self.error(f"expected a position (a number or an enum member) here, but this is {ity}", node.index.pos)
        if ity.kind == "enum" and isinstance(node.obj, ast.Name) and node.obj.id in self.sym.params:
            # a list param read by an enum member: displays show it beside that member (e.g. by a side)
            self.enum_params.setdefault(ity.name, {})[node.obj.id] = self.sym.params[node.obj.id].value
        if ty.kind in ("zone", "list"):
            return f"{code}[{index}]", ty.elem or T.ANY, P_ATOM
        if ty.kind != "any":
            self.error(f"only zones, lists and per-player or per-member things take [...], but this is {ty}",
                       node.pos)
        return "0", T.ANY, P_ATOM

    def x_Str(self, node: ast.Str, ctx: Ctx):
        self.error(f"\"{node.value}\" names a cell or a direction; it is only understood where a grid "
                   "function or statement expects one", node.pos,
                   'e.g. cell(board, "d4"), neighbour(board, c, "ne"), put me at "d4" on board')
        return "0", T.ANY, P_ATOM

    def x_Range(self, node: ast.Range, ctx: Ctx):
        lo, hi = self.number(node.lo, ctx), self.number(node.hi, ctx)
        if _is_int(lo) and _is_int(hi) and int(hi) - int(lo) < LIMITS["range_values"]:
            return f"range({lo}, {int(hi) + 1})", T.list_of(T.INT), P_ATOM
        return f"ops.span({lo}, {hi})", T.list_of(T.INT), P_ATOM  # bounded when played

    def x_Cond(self, node: ast.Cond, ctx: Ctx):
        test, tt, pt = self._expr(node.test, ctx)
        if tt.kind not in ("bool", "any"):
            self.error(f"expected a condition (true/false) here, but this is {tt}", node.test.pos)
        a, ta, pa = self._expr(node.then, ctx)
        b, tb, pb = self._expr(node.orelse, ctx)
        if not T.compatible(ta, tb):
            self.error(f"both values of an 'if ... then ... else' must be of one kind: {ta} and {tb}", node.pos)
        ty = tb if ta.kind == "any" else ta
        if test in ("True", "False"):  # known when compiling: the branch taken
            return (a, ty, pa) if test == "True" else (b, ty, pb)
        return f"{self.wrap(a, pa, P_OR)} if {self.wrap(test, pt, P_OR)} else {self.wrap(b, pb, 0)}", ty, 0

    def x_ListExpr(self, node: ast.ListExpr, ctx: Ctx):
        codes, elem = [], None
        for item in node.items:
            code, ty = self.expr(item, ctx)
            if elem is None or elem.kind == "any":
                elem = ty
            elif not T.compatible(elem, ty):
                self.error(f"a list holds values of one kind: {elem} and {ty} are mixed", item.pos)
            codes.append(code)
        return "[" + ", ".join(codes) + "]", T.list_of(elem or T.ANY), P_ATOM

    def x_Not(self, node: ast.Not, ctx: Ctx):
        operand = node.operand
        if isinstance(operand, ast.Call) and operand.func == "is_empty" and len(operand.args) == 2:
            code, ty, prec = self._expr(operand, ctx)
            if code.endswith(" == 0"):  # not is_empty(G, c)  ->  G[c] != 0
                return code[:-5] + " != 0", T.BOOL, P_CMP
        code, ty, prec = self._expr(operand, ctx)
        if ty.kind not in ("bool", "any"):
            self.error(f"'not' needs a condition, but this is {ty}", node.operand.pos)
        if code in ("True", "False"):
            return ("False" if code == "True" else "True"), T.BOOL, P_ATOM
        return "not " + self.wrap(code, prec, P_NOT), T.BOOL, P_NOT

    def x_Neg(self, node: ast.Neg, ctx: Ctx):
        code, ty, prec = self._expr(node.operand, ctx)
        if not ty.is_number:
            self.error(f"'-' needs a number, but this is {ty}", node.operand.pos)
        if _is_int(code.strip("()")):  # known when compiling
            value = -int(code.strip("()"))
            return str(value), T.INT, P_ATOM if value >= 0 else P_UNARY
        return "-" + self.wrap(code, prec, P_UNARY), T.INT, P_UNARY

    def x_BinOp(self, node: ast.BinOp, ctx: Ctx):
        op = node.op
        a, ta, pa = self._expr(node.left, ctx)
        b, tb, pb = self._expr(node.right, ctx)
        if op in ("and", "or"):
            for ty, side in ((ta, node.left), (tb, node.right)):
                if ty.kind not in ("bool", "any"):
                    self.error(f"'{op}' joins conditions, but this is {ty}", side.pos)
            prec = P_AND if op == "and" else P_OR
            if a in ("True", "False"):  # known when compiling: `true and x` is x, `false and x` false
                return (b, T.BOOL, pb) if (a == "True") == (op == "and") else (a, T.BOOL, P_ATOM)
            return f"{self.wrap(a, pa, prec)} {op} {self.wrap(b, pb, prec + 1)}", T.BOOL, prec
        if op in ("in", "not in"):
            if not tb.is_collection and tb.kind != "any":
                self.error(f"'{op}' needs a zone or list on its right, but this is {tb}", node.right.pos)
            elif tb.kind != "any" and not T.compatible(ta, tb.elem or T.ANY):
                self.error(f"{ta} cannot be in {tb}", node.pos)
            return f"{self.wrap(a, pa, P_CMP + 1)} {op} {self.wrap(b, pb, P_CMP + 1)}", T.BOOL, P_CMP
        if op in ("==", "!=", "<", "<=", ">", ">="):
            if not T.compatible(ta, tb):
                self.error(f"cannot compare {ta} with {tb}", node.pos)
            elif op not in ("==", "!=") and not (ta.is_number and tb.is_number) \
                    and not (ta.kind == tb.kind == "cell"):  # cells compare in their numbering order
                self.error(f"'{op}' compares numbers, not {ta if not ta.is_number else tb}", node.pos)
            if _is_int(a.strip("()")) and _is_int(b.strip("()")):  # known when compiling
                x, y = int(a.strip("()")), int(b.strip("()"))
                truth = {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
                return str(truth), T.BOOL, P_ATOM
            return f"{self.wrap(a, pa, P_CMP + 1)} {op} {self.wrap(b, pb, P_CMP + 1)}", T.BOOL, P_CMP
        for ty, side in ((ta, node.left), (tb, node.right)):
            if not ty.is_number:
                self.error(f"'{op}' works on numbers, but this is {ty}", side.pos)
        folded = _fold(op, a, b)
        if folded is not None:  # numbers known when compiling: the result, as a compiler folds them
            return str(folded), T.INT, P_ATOM if folded >= 0 else P_UNARY
        prec = P_ADD if op in ("+", "-") else P_MUL
        return f"{self.wrap(a, pa, prec)} {op} {self.wrap(b, pb, prec + 1)}", T.INT, prec

    def x_Call(self, node: ast.Call, ctx: Ctx):
        f, args = node.func, node.args
        if f in self.sym.defines:
            return self.call_define(node, ctx)
        if f in GRID_FUNCTIONS:
            return self.grid_call(node, ctx)
        if f in self.sym.enums and f not in ctx.scope:  # colour(2): the member numbered 2
            enum = self.sym.enums[f]
            if len(args) != 1:
                self.error(f"{f}(n) takes one number: the member's number, from 0", node.pos)
                return "0", T.enum(f), P_ATOM
            n = self.number(args[0], ctx)
            if _is_int(n):
                if not 0 <= int(n) < len(enum.members):
                    self.error(f"enum '{f}' has no member number {n} (it has {len(enum.members)}, from 0)", node.pos)
                return n, T.enum(f), P_ATOM if int(n) >= 0 else P_UNARY
            return f"ops.member({n}, {len(enum.members)}, {f!r})", T.enum(f), P_ATOM
        if f not in FUNCTIONS and f not in OPEN_FUNCTIONS:
            # `at` is reserved for `put X at C on G`, not a function one can call
            known = sorted((FUNCTIONS - {"at"}) | OPEN_FUNCTIONS | set(GRID_FUNCTIONS) | set(self.sym.defines))
            self.error(f"unknown function '{f}'", node.pos,  # a near miss only: column is not count
                       suggest(f, known, cutoff=0.8) or "functions: " + ", ".join(known)
                       + " (or declare one with define)")
            return "0", T.ANY, P_ATOM

        def arity(*counts: int) -> bool:
            if len(args) not in counts:
                want = " or ".join(str(c) for c in counts)
                self.error(f"{f}() takes {want} argument{'s' if counts != (1,) else ''}, not {len(args)}", node.pos)
                return False
            return True

        if f == "count":
            if not arity(1, 2):
                return "0", T.INT, P_ATOM
            gcode, gty = self.expr(args[0], ctx)
            if gty.kind == "grid":  # filled cells, or cells holding a value
                sym = self.sym.grids[gty.space]
                if len(args) == 2:
                    if sym.elem.kind == "int":
                        return f"{gcode}.count({self.element(args[1], ctx, sym)})", T.INT, P_ATOM
                    return f"{gcode}.count({self.element(args[1], ctx, sym)} + 1)", T.INT, P_ATOM
                return f"({sym.geo.cells} - {gcode}.count(0))", T.INT, P_ATOM
            coll, ty = self.collection(args[0], ctx)
            if len(args) == 2:
                v, tv = self.expr(args[1], ctx)
                if ty.elem and not T.compatible(ty.elem, tv):
                    self.error(f"{tv} cannot be in {ty}", args[1].pos)
                return f"{coll}.count({v})", T.INT, P_ATOM
            if coll.startswith("K.flanked(") and _balanced(coll[len("K.flanked("):-1]):
                return f"K.flanked_count({coll[len('K.flanked('):]}", T.INT, P_ATOM  # no list made
            return f"len({coll})", T.INT, P_ATOM
        if f in ("sum", "max", "min"):
            if len(args) == 1:
                coll, ty = self.collection(args[0], ctx)
                if ty.elem is not None and not ty.elem.is_number:
                    self.error(f"{f}() adds up numbers, but this holds {ty.elem}", args[0].pos)
                if f == "sum":
                    return f"sum({coll})", T.INT, P_ATOM
                return f"{f}({coll}, default=0)", T.INT, P_ATOM
            if f == "sum" or not args:
                arity(1)
                return "0", T.INT, P_ATOM
            codes = [self.number(a, ctx) for a in args]
            if all(_is_int(c.strip("()")) for c in codes):  # known when compiling
                value = (max if f == "max" else min)(int(c.strip("()")) for c in codes)
                return str(value), T.INT, P_ATOM if value >= 0 else P_UNARY
            return f"{f}({', '.join(codes)})", T.INT, P_ATOM
        if f == "has":
            if not arity(2):
                return "False", T.BOOL, P_ATOM
            coll, ty = self.collection(args[0], ctx)
            v, tv = self.expr(args[1], ctx)
            if tv.kind == "list":
                if ty.elem and tv.elem and not T.compatible(ty.elem, tv.elem):
                    self.error(f"{tv} cannot be in {ty}", args[1].pos)
                if isinstance(args[1], ast.ListExpr) and len(args[1].items) == 2:
                    a, b = (self.expr(i, ctx)[0] for i in args[1].items)
                    return f"K.contains_pair({coll}, {a}, {b})", T.BOOL, P_ATOM
                return f"K.contains_all({coll}, {v})", T.BOOL, P_ATOM
            if ty.elem and not T.compatible(ty.elem, tv):
                self.error(f"{tv} cannot be in {ty}", args[1].pos)
            return f"{self.wrap(v, P_ATOM, P_CMP + 1)} in {coll}", T.BOOL, P_CMP
        if f == "number":  # a truth as 1 or 0; a member as its number; a player as its seat
            if not arity(1):
                return "0", T.INT, P_ATOM
            code, ty, prec = self._expr(args[0], ctx)
            if code in ("True", "False"):
                return ("1" if code == "True" else "0"), T.INT, P_ATOM
            if ty.kind == "bool":
                return f"(1 if {self.wrap(code, prec, P_OR)} else 0)", T.INT, P_ATOM
            if ty.kind not in ("int", "player", "lane", "enum", "cell", "direction", "any"):
                self.error(f"number() turns a condition, an enum member, a player or a cell into a number, "
                           f"not {ty}", args[0].pos)
            return code, T.INT, prec
        if f in ("first", "last"):
            if not arity(1):
                return "0", T.ANY, P_ATOM
            coll, ty = self.collection(args[0], ctx)
            return f"ops.{f}({coll})", ty.elem or T.ANY, P_ATOM
        if f == "abs":
            if not arity(1):
                return "0", T.INT, P_ATOM
            code = self.number(args[0], ctx)
            if _is_int(code):
                return str(abs(int(code))), T.INT, P_ATOM
            return f"_abs({code})", T.INT, P_ATOM
        if f == "random":
            if not arity(1):
                return "0", T.INT, P_ATOM
            if not ctx.random_ok:
                self.error("random() may only be used in setup and in effects", node.pos,
                           "conditions, scores and the winner must not depend on chance")
            return f"s.rng.below({self.number(args[0], ctx)})", T.INT, P_ATOM
        self.error(f"{f}() needs the form {f}(value for x in zone where condition)", node.pos)
        return "0", T.ANY, P_ATOM

    def call_define(self, node: ast.Call, ctx: Ctx):
        """A define is compiled once (per kind of arguments) into a function of the engine,
        ``fn__name(s, [me,] args...)``, and called; where its code is a short expression
        (``slot_cell[n - 1]``) it is written in place, as a compiler inlines a small function."""
        d = self.sym.defines[node.func]
        if len(node.args) != len(d.params):
            self.error(f"{d.name}() takes {len(d.params)} argument{'s' if len(d.params) != 1 else ''}, "
                       f"not {len(node.args)}", node.pos)
            return "0", T.ANY, P_ATOM
        stack = self._defining
        if d.name in stack:
            self.error(f"define '{d.name}' uses itself", node.pos, "a define cannot be recursive")
            return "0", T.ANY, P_ATOM
        args = [self._expr(arg, ctx) for arg in node.args]
        key = (d.name, tuple(ty for _c, ty, _p in args), ctx.has_me, ctx.random_ok, "score" in ctx.scope)
        body = self._bodies.get(key)
        if body is None:  # typed and lowered once per kind of arguments
            scope = {p: (pyname(p), ty) for p, (_c, ty, _p) in zip(d.params, args)}
            if "score" in ctx.scope:  # the winner's ranks may name the score
                scope["score"] = ctx.scope["score"]
            inner = Ctx(ctx.where, scope, ctx.has_me, ctx.random_ok)
            self._defining = stack + [d.name]
            try:
                body = self._expr(d.body, inner)
            finally:
                self._defining = stack
            self._bodies[key] = body
        code, ty, prec = body
        params = [pyname(p) for p in d.params]
        # a short expression that calls no other define is written in place when no argument
        # would be computed twice (a name or a number may be repeated freely)
        if (len(code) <= 100 and "fn__" not in code and "ops.span" not in code and "_sc[" not in code
                and all(len(re.findall(rf"\b{p}\b", code)) <= 1 or re.fullmatch(r"-?\w+", c)
                        for p, (c, _t, _p) in zip(params, args))):
            self._functions.setdefault(key, None)
            values = {p: (c if p_ == P_ATOM else f"({c})") for p, (c, _t, p_) in zip(params, args)}
            text = re.sub(r"\b\w+_\b", lambda m: values.get(m.group(), m.group()), code) if values else code
            return text, ty, prec
        fn = self._functions.get(key)
        if fn is None:
            uses_me = bool(re.search(r"\bme\b", code))
            head = ["s"] + (["me"] if uses_me else []) + params + (["_sc"] if "_sc[" in code else [])
            lines = share_cell_lists(f"return {code}")
            mine = [f for f in self.functions if f[0] == f"fn__{d.name}" or f[0].startswith(f"fn__{d.name}__")]
            # for Cython: the C type of each parameter and of the result
            types = {"s": "_Core", "me": "long", "_sc": "object"}
            types.update((pyname(p), c_type(t)) for p, (_c, t, _p) in zip(d.params, args))
            sig = ([types[h] for h in head], c_type(ty))
            same = next((f for f in mine if f[1] == head and f[3] == lines and f[4] == sig), None)
            if same is not None:  # compiled alike from another place: one function
                fname = same[0]
            else:
                fname = f"fn__{d.name}" + (f"__{len(mine) + 1}" if mine else "")
                self.functions.append((fname, head, self.comment(d), lines, sig))
                # the work of one call: its own code and that of every call it makes, so
                # that a chain of defines each using the previous twice cannot hide 2**40 steps
                cost = len(code) + sum(self._cost.get(c, 0) for c in re.findall(r"\bfn__\w+(?=\()", code))
                self._cost[fname] = cost
                if cost > LIMITS["define_work"]:
                    self.error(f"define '{d.name}' does the work of {cost:,} characters of code per use "
                               f"(the limit is {LIMITS['define_work']:,})", node.pos,
                               "a define that uses another several times multiplies its work: "
                               "compute the value once with let")
            fn = (fname, uses_me, "_sc" in head)
            self._functions[key] = fn
        fname, uses_me, needs_scores = fn
        call_args = ["s"] + (["me"] if uses_me else []) + [c for c, _t, _p in args] + (["_sc"] if needs_scores else [])
        return f"{fname}({', '.join(call_args)})", ty, P_ATOM

    def counter_bound(self, node: ast.Comp, ctx: Ctx) -> str | None:
        """``any(c[p] > k for p in players)`` as ``max(s.c_c) > k`` (and the like for all, min,
        < and <=): one call on the counter's list instead of a loop, the same truth."""
        e = node.elem
        if not (node.func in ("any", "all") and node.cond is None and isinstance(node.source, ast.Players)
                and isinstance(e, ast.BinOp) and e.op in (">", ">=", "<", "<=")
                and isinstance(e.left, ast.Index) and isinstance(e.left.obj, ast.Name)
                and isinstance(e.left.index, ast.Name) and e.left.index.id == node.var
                and node.var not in _names_in(e.right) and node.var not in ctx.scope
                and e.left.obj.id not in ctx.scope):
            return None
        c = self.sym.counters.get(e.left.obj.id)
        if c is None or c.per != "player":
            return None
        upward = e.op in (">", ">=")
        pick = "max" if upward == (node.func == "any") else "min"
        code, ty, prec = self._expr(e.right, ctx)
        if ty.kind not in ("int", "player", "any"):
            self.error(f"expected a number here, but this is {ty}", e.right.pos)
        return f"{pick}(s.c_{c.name}) {e.op} {self.wrap(code, prec, P_CMP + 1)}"

    def check_unused_defines(self) -> None:
        """A define is checked where it is used; one used nowhere is checked once here, its
        parameters taking any value, so that its mistakes are reported all the same."""
        used = {key[0] for key in self._functions}
        kept = len(self.functions)  # checked, not compiled: nothing of this reaches the engine
        kept_helpers = len(self.helpers)
        for d in self.sym.defines.values():
            if d.name not in used:
                scope = {p: (pyname(p), T.ANY) for p in d.params}
                self._defining = [d.name]
                try:
                    self._expr(d.body, Ctx("define", scope, has_me=True))
                finally:
                    self._defining = []
        del self.functions[kept:]
        del self.helpers[kept_helpers:]
        self._helper_names = {key: name for key, name in self._helper_names.items()
                              if any(h[0] == name for h in self.helpers)}

    def collection(self, node: ast.Node, ctx: Ctx) -> tuple[str, T.Type]:
        code, ty = self.expr(node, ctx)
        if ty.kind == "zones":
            self.error(f"this is {ty}", node.pos)
            return "[]", T.list_of(T.ANY)
        if not ty.is_collection:
            if ty.kind != "any":
                self.error(f"expected a zone or a list here, but this is {ty}", node.pos)
            return "[]", T.list_of(T.ANY)
        return code, ty

    def x_Comp(self, node: ast.Comp, ctx: Ctx):
        f = node.func
        # sum/max/min(x[p] for p in players) over a per-player counter: the counter's own list
        if (not self.native and f in ("sum", "max", "min") and node.cond is None and isinstance(node.source, ast.Players)
                and isinstance(node.elem, ast.Index) and isinstance(node.elem.obj, ast.Name)
                and isinstance(node.elem.index, ast.Name) and node.elem.index.id == node.var
                and node.var not in ctx.scope and node.elem.obj.id not in ctx.scope):
            c = self.sym.counters.get(node.elem.obj.id)
            if c is not None and c.per == "player":
                return f"{f}(s.c_{c.name})", T.INT, P_ATOM  # one per seat: never empty, no default
        # any/all(x[p] >= k for p in players) over a per-player counter: its max or min against k
        bound = None if self.native else self.counter_bound(node, ctx)  # natively, a loop on C numbers
        if bound is not None:
            return bound, T.BOOL, P_CMP
        src, ty = self.collection(node.source, ctx)
        var = pyname(node.var)
        inner = ctx.child(**{node.var: (var, ty.elem or T.ANY)})
        elem, te = self.expr(node.elem, inner)
        cond = ""
        if node.cond is not None:
            cond = " if " + self.boolean(node.cond, inner)
        gen = f"for {var} in {src}{cond}"
        if self.native and ctx.where != "show" and f in _AGGREGATES:
            return self.aggregate_method(node, f, var, src, elem, cond[len(" if "):], ctx, ty.elem or T.ANY, te)
        # list comprehensions: over the small collections of games they beat generators
        if f == "count":
            return f"len([1 {gen}])", T.INT, P_ATOM
        if f in ("sum", "max", "min"):
            if not te.is_number:
                self.error(f"{f}() needs numbers, but this is {te}", node.elem.pos)
            if f == "sum":
                return f"sum([{elem} {gen}])", T.INT, P_ATOM
            return f"{f}([{elem} {gen}], default=0)", T.INT, P_ATOM
        if f in ("any", "all"):
            if te.kind not in ("bool", "any"):
                self.error(f"{f}() needs a condition, but this is {te}", node.elem.pos)
            if not ctx.random_ok:  # nothing drawn: it stops at the first element that decides
                return f"{f}({elem} {gen})", T.BOOL, P_ATOM
            return f"{f}([{elem} {gen}])", T.BOOL, P_ATOM
        if f in ("argmin", "argmax"):
            if not te.is_number:
                self.error(f"{f}() ranks by a number, but this is {te}", node.elem.pos)
            sign = "" if f == "argmin" else "-"
            # the first element with the smallest (largest) key; -1 when none qualifies
            return (f"min([({sign}({elem}), _i, {var}) for _i, {var} in enumerate({src}){cond}], "
                    f"default=(0, 0, -1))[2]", ty.elem or T.ANY, P_ATOM)
        self.error(f"'{f}(... for ...)' is not an aggregate; use count, sum, max, min, any, all, argmin or argmax",
                   node.pos)
        return "0", T.ANY, P_ATOM

    def aggregate_method(self, node: ast.Comp, f: str, var: str, src: str, elem: str, cond: str, ctx: Ctx,
                         elem_type: T.Type, value_type: T.Type):
        """For the native engine: the aggregate as a method of the state that walks the
        collection once (no list, no tuple, no call of a builtin per aggregate), called with
        the names of the place it stands in, its numbers typed for Cython (``sig``). Where
        random numbers may be drawn every element is evaluated, as the list comprehension of
        the Python engine does (the same draws); elsewhere any/all stop at the first element
        that decides, as the Python engine's generator does."""
        rtype = {"count": T.INT, "sum": T.INT, "max": T.INT, "min": T.INT, "any": T.BOOL, "all": T.BOOL}
        result_type = rtype.get(f, elem_type)
        value = c_type(value_type)  # the C type of one element's value (max, min, argmin, argmax)
        decls: dict[str, list[str]] = {"long": [], "bint": []}

        def declare(ctype: str, *names: str) -> None:
            if ctype != "object":
                decls[ctype].extend(names)
        if f == "count":
            start, step, result = ["_n = 0"], ["_n += 1"], "_n"
            declare("long", "_n")
        elif f == "sum":
            start, step, result = ["_n = 0"], [f"_n += {elem}"], "_n"
            declare("long", "_n")
        elif f in ("max", "min"):  # 0 when there is no element
            start, result = ["_none = True", "_best = 0"], "_best"
            step = [f"_v = {elem}", f"if _none or _v {'>' if f == 'max' else '<'} _best:", "    _none = False",
                    "    _best = _v"]
            declare("bint", "_none")
            declare(value, "_best", "_v")
        elif f in ("any", "all"):
            start, result = [f"_ok = {f == 'all'}"], "_ok"
            step = [f"if {'not ' if f == 'all' else ''}({elem}):", f"    _ok = {f != 'all'}"]
            if not ctx.random_ok:  # nothing drawn: stop at the first element that decides, as
                step.append("    break")  # the Python engine's any()/all() over a generator
            declare("bint", "_ok")
        else:  # argmin/argmax: the first element with the smallest (largest) key; -1 when none
            sign = "" if f == "argmin" else "-"
            start, result = ["_none = True", "_best = 0", "_found = -1"], "_found"
            step = [f"_v = {sign}({elem})", "if _none or _v < _best:", "    _none = False", "    _best = _v",
                    f"    _found = {var}"]
            declare("bint", "_none")
            declare(value, "_best", "_v")
            declare(c_type(elem_type), "_found")
        cells = re.fullmatch(r"K\.(filled|empty)_cells\((s\.g_\w+(?:\[\w+\])?)\)", src)
        if cells:  # the grid's cells walked in place: no list of cells is made
            test = f"{cells[2]}[{var}] {'!=' if cells[1] == 'filled' else '=='} 0"
            src, cond = f"range(len({cells[2]}))", f"{test} and ({cond})" if cond else test
        body = [f"for {var} in {src}:"]
        if cond:
            body += [f"    if {cond}:"] + ["        " + line for line in step]
        else:
            body += ["    " + line for line in step]
        declare(c_type(elem_type), var)
        lines = start + body + [f"return {result}"]
        text = "\n".join(lines)
        types = {code: ty for code, ty in ctx.scope.values()}
        types["me"] = T.PLAYER
        names = set(types) | {"_shared", "_sc"}
        params = sorted(n for n in names - {var} if re.search(rf"(?<![\w.]){re.escape(n)}\b", text))
        # for Cython: typed parameters, result and locals (whole numbers as C longs, truths as
        # C ints), so that the loop runs on C numbers; the Python rendering ignores them
        sig = ([c_type(types[n]) if n in types else "object" for n in params], c_type(result_type),
               [f"cdef {t} {', '.join(dict.fromkeys(ns))}" for t, ns in decls.items() if ns])
        key = (tuple(lines), tuple(params), repr(sig))
        name = self._helper_names.get(key)
        if name is None:
            name = f"_agg_{len(self.helpers)}_{f}"
            self._helper_names[key] = name
            self.helpers.append((name, params, self.comment(node), lines, sig))
        return f"s.{name}({', '.join(params)})", result_type, P_ATOM

    # ---- display ------------------------------------------------------------------------
    def show_code(self, code: str, ty: T.Type) -> str:
        """Python expression displaying a value of type ``ty`` (``code`` of any precedence)."""
        if not _atomic(code):
            code = f"({code})"  # a conditional or an operation: grouped before it is used inside
        special = self.special_show(code, ty)
        if special is not None:
            return special
        if ty.kind == "enum":  # -1 is none (a '-' in a table)
            return f"({_const(ty.name)}_NAMES[{code}] if {code} >= 0 else 'none')"
        if ty.kind == "item":
            return f"show__{ty.name}({code})"
        if ty.kind == "pattern":
            return f"PATTERN_TEXT[{code}]"
        if ty.kind == "player":
            return f"'P' + str({code} + 1)"
        if ty.kind == "bool":
            return f"('yes' if {code} else 'no')"
        return f"str({code})"

    def template_code(self, text: str, names: dict[str, tuple[str, T.Type]], pos) -> str:
        parts = []
        for kind, value in split_template(text):
            if kind == "text":
                parts.append(repr(value))
                continue
            value, _, spec = value.partition(":")
            value, spec = value.strip(), spec.strip()
            base, _, column = value.partition(".")
            if column and base in names and names[base][1].kind == "item":
                code, ty = names[base]
                col = self.sym.tables[ty.name].columns.get(column)
                if col is None:
                    self.error(f"'{{{value}}}': a {ty.name} has no '{column}'", pos)
                    continue
                names = dict(names)
                names[value] = (f"{column_const(ty.name, column)}[{code}]", col.type)
            if value in names:
                code, ty = names[value]
                if spec == "symbol" and ty.kind == "enum":
                    const = _const(ty.name)
                    code = code if _atomic(code) else f"({code})"
                    parts.append(f"({const}_SYMBOLS[{code}] or {const}_NAMES[{code}] if {code} >= 0 else '-')")
                elif spec:
                    self.error(f"'{{{value}:{spec}}}': the only format is ':symbol', for enum members", pos)
                else:
                    parts.append(self.show_code(code, ty))
            else:
                self.error(f"'{{{value}}}' in this text names nothing", pos,
                           suggest(value, names) or ("known: " + ", ".join(names) if names else None))
        return joined(parts) if parts else "''"

    # ---- statements ---------------------------------------------------------------------
    def stmts(self, body: list, ctx: Ctx) -> list[str]:
        out: list[str] = []
        for node in body:
            out.extend(self.stmt(node, ctx))
        return out

    def stmt(self, node: ast.Node, ctx: Ctx) -> list[str]:
        lines = [self.comment(node)]
        method = getattr(self, "s_" + type(node).__name__)
        for line in method(node, ctx):
            lines.extend(share_cell_lists(line))
        return lines

    def s_Let(self, node: ast.Let, ctx: Ctx) -> list[str]:
        code, ty = self.expr(node.value, ctx)
        if ty.kind in ("zone", "zones", "counters"):
            self.error("'let' names a value; a zone can be used by its own name", node.value.pos)
        var = pyname(node.name)
        if node.name in self.sym.all_names():
            self.error(f"'{node.name}' is already declared; choose another name for this value", node.pos)
        ctx.scope[node.name] = (var, ty)
        ctx.lets.add(node.name)
        return [f"{var} = {code}"]

    def s_Require(self, node: ast.Require, ctx: Ctx) -> list[str]:
        cond = self.boolean(node.cond, ctx)
        message = node.message or "a requirement of the rules does not hold"
        return [f"if not ({cond}):", f"    raise ValueError({message!r})"]

    def s_Assign(self, node: ast.Assign, ctx: Ctx) -> list[str]:
        if node.name in ctx.scope and node.index is None:  # a let: its value changes
            var, ty = ctx.scope[node.name]
            if node.name not in ctx.lets:
                self.error(f"'{node.name}' cannot be changed here: only a value named with let can", node.pos)
                return []
            value, vty = self.expr(node.value, ctx)
            if node.op != "=" and not (ty.is_number and vty.is_number):
                self.error(f"'{node.op}' adds up numbers; '{node.name}' is {ty}", node.pos)
            elif not T.compatible(ty, vty):
                self.error(f"'{node.name}' holds {ty}, not {vty}", node.value.pos)
            if vty.kind in ("int", "any") and "*" in value.replace("//", ""):  # a product: kept in range
                value = f"ops.number({value})"
            return [f"{var} {node.op} {value}"]
        value = self.number(node.value, ctx)
        if "*" in value.replace("//", ""):  # products can grow without bound: keep them in range
            value = f"ops.number({value})"
        grid = self.sym.grids.get(node.name)
        if grid is not None and node.name not in ctx.scope:  # G[c] = n: a cell of a grid of numbers
            if grid.elem.kind != "int":
                self.error(f"'{node.name}' holds pieces: use 'put X at C on {node.name}' or 'clear C on "
                           f"{node.name}'", node.pos)
                return []
            if grid.per or node.index is None:
                self.error(f"say which cell of '{node.name}', e.g. {node.name}[c] += 1" if node.index is None else
                           f"'{node.name}' is a grid per {grid.per}: use put ... on {node.name}[p]", node.pos)
                return []
            cell = self.cell(node.index, ctx, grid)
            if node.op == "=":
                return [f"s.g_{node.name}[{cell}] = {value}"]
            return [f"s.g_{node.name}[{cell}] = ops.number(s.g_{node.name}[{cell}] {node.op[0]} {value})"]
        c = self.sym.counters.get(node.name)
        if c is None:
            self.error(f"only counters, grids of numbers and let values can be set, and '{node.name}' is "
                       "none of them", node.pos,
                       suggest(node.name, [*self.sym.counters, *ctx.lets]) or "declare it: counter NAME per player")
            return []
        if c.per and node.index is None:
            example = f"{node.name}[me]" if c.per_player else f"{node.name}[{self.sym.enums[c.per].members[0]}]"
            self.error(f"'{node.name}' is a counter per {c.per}: say which, e.g. {example}", node.pos)
            return []
        if not c.per and node.index is not None:
            self.error(f"'{node.name}' is one shared counter; it takes no [index]", node.index.pos)
            return []
        target = f"s.c_{node.name}"
        if node.index is not None:
            if c.per_player:
                target += f"[{self.number(node.index, ctx)}]"
            else:  # a counter per member of an enum: indexed by a member
                target += f"[{self.want(node.index, ctx, ('enum',), f'a member of {c.per}')}]"
        return [f"{target} {node.op} {value}"]

    def s_While(self, node: ast.While, ctx: Ctx) -> list[str]:
        cond = self.boolean(node.cond, ctx)
        # each round counts against the work budget of one decision, so it cannot run forever
        return [f"while {cond}:", "    s._spin()"] + _indent(self.stmts(node.body, ctx.child()))

    def s_Shuffle(self, node: ast.Shuffle, ctx: Ctx) -> list[str]:
        self.need_random(node, ctx)
        code, _, _ = self.zone_ref(node.zone, ctx)
        return [f"s.rng.shuffle({code})"]

    def need_random(self, node: ast.Node, ctx: Ctx) -> None:
        if not ctx.random_ok:
            self.error("chance (shuffle, random) is not allowed here", node.pos)

    def s_Deal(self, node: ast.Deal, ctx: Ctx) -> list[str]:
        src, es, _ = self.zone_ref(node.src, ctx)
        dst, ed, dname = self.zone_ref(node.dst, ctx)
        self.same_elem(es, ed, node)
        count = "None" if node.count is None else self.number(node.count, ctx)
        if node.where is None:
            lines = [f"ops.deal({src}, {dst}, {count})"]
        else:  # the first matches, in order, as ops.deal with a condition would; written out so
            # that no function is called per element (and the native engine needs no closure)
            cond = self.boolean(node.where, ctx.child(it=("it", es)))
            limit = "len(_src)" if node.count is None else count
            lines = [f"_src = {src}", f"_dst = {dst}", f"_i, _taken, _limit = 0, 0, {limit}",
                     "while _taken < _limit and _i < len(_src):",
                     "    it = _src[_i]",
                     f"    if {cond}:",
                     "        _dst.append(_src.pop(_i))",
                     "        _taken += 1",
                     "    else:",
                     "        _i += 1"]
        cap = self.capacity_of(node.dst)
        if cap is not None:
            lines += [f"if len({dst}) > {cap}:", f"    ops.overflow({dname!r}, {cap})"]
        return lines

    def same_elem(self, a: T.Type, b: T.Type, node: ast.Node) -> None:
        if not T.compatible(a, b):
            self.error(f"cannot put {a} into a zone of {b}", node.pos)

    def capacity_of(self, zone_node: ast.Node) -> int | None:
        name = _zone_name(zone_node)
        z = self.sym.zones.get(name)
        return z.capacity if z is not None else None

    def s_Move(self, node: ast.Move, ctx: Ctx) -> list[str]:
        item, ti = self.expr(node.item, ctx)
        src, es, sname = self.zone_ref(node.src, ctx)
        dst, ed, dname = self.zone_ref(node.dst, ctx)
        self.same_elem(ti, es, node.item)
        self.same_elem(es, ed, node)
        lines = []
        if not item.isidentifier() and not item.lstrip("-").isdigit():
            lines.append(f"_x = {item}")
            item = "_x"
        lines += self.capacity_check(node.dst, dst, dname)
        lines += [f"{src}.remove({item})", f"{dst}.append({item})"]
        return lines

    def capacity_check(self, zone_node: ast.Node, code: str, name: str, created: bool = False) -> list[str]:
        """A check before putting one element into a zone: its capacity, or, for an element
        that did not exist before (``add``), the largest zone the engine allows."""
        cap = self.capacity_of(zone_node)
        if cap is None:
            if not created:
                return []
            cap = LIMITS["zone_capacity"]
        return [f"if len({code}) >= {cap}:", f"    ops.overflow({name!r}, {cap})"]

    def s_Add(self, node: ast.Add, ctx: Ctx) -> list[str]:
        item, ti = self.expr(node.item, ctx)
        dst, ed, dname = self.zone_ref(node.dst, ctx)
        self.same_elem(ti, ed, node.item)
        if "*" in item.replace("//", ""):
            item = f"ops.number({item})"
        return self.capacity_check(node.dst, dst, dname, created=True) + [f"{dst}.append({item})"]

    def s_Remove(self, node: ast.Remove, ctx: Ctx) -> list[str]:
        item, ti = self.expr(node.item, ctx)
        src, es, _ = self.zone_ref(node.src, ctx)
        self.same_elem(ti, es, node.item)
        return [f"{src}.remove({item})"]

    def s_Refill(self, node: ast.Refill, ctx: Ctx) -> list[str]:
        dst, ed, _ = self.zone_ref(node.dst, ctx)
        src, es, _ = self.zone_ref(node.src, ctx)
        self.same_elem(es, ed, node)
        return [f"K.refill({dst}, {src}, {self.number(node.size, ctx)})"]

    def s_If(self, node: ast.If, ctx: Ctx) -> list[str]:
        lines = []
        for i, (cond, body) in enumerate(node.branches):
            code = self.boolean(cond, ctx)
            lines.append(f"{'if' if i == 0 else 'elif'} {code}:")
            lines.extend(_indent(self.stmts(body, ctx.child()) or ["pass"]))
        if node.orelse is not None:
            lines.append("else:")
            lines.extend(_indent(self.stmts(node.orelse, ctx.child()) or ["pass"]))
        return lines

    def s_For(self, node: ast.For, ctx: Ctx) -> list[str]:
        src, ty = self.collection(node.source, ctx)
        var = pyname(node.var)
        if ty.kind == "zone":
            src = f"list({src})"  # the body may change the zone it walks
        inner = ctx.child(**{node.var: (var, ty.elem or T.ANY)})
        return [f"for {var} in s._loop({src}):"] + _indent(self.stmts(node.body, inner) or ["pass"])

    def s_NextPlayer(self, node: ast.NextPlayer, ctx: Ctx) -> list[str]:
        if ctx.where not in ("effect", "auto"):
            self.error("'next player' belongs in the turn (an action or an automatic step)", node.pos)
        return [f"s.nxt = {self.number(node.value, ctx)} % s.n"]

    def s_Announce(self, node: ast.Announce, ctx: Ctx) -> list[str]:
        """Everyone sees an announcement, so its placeholders name only what everyone sees:
        seats, shared counters, params, the turn number and the player count."""
        names: dict[str, tuple[str, T.Type]] = {}
        for name, (code, ty) in ctx.scope.items():
            if ty.kind == "player":
                names[name] = (code, ty)
        if ctx.has_me:
            names["me"] = ("me", T.PLAYER)
        for name, c in self.sym.counters.items():
            if not c.per:
                names[name] = (f"s.c_{name}", T.INT)
        for name, p in self.sym.params.items():
            if p.type.kind in ("int", "bool", "player", "enum"):
                names[name] = (repr(p.value), p.type)
        names["turns"] = ("(s.turns + 1)", T.INT)
        names["player_count"] = ("s.n", T.INT)
        for kind, value in split_template(node.text):
            word = value.partition(":")[0].partition(".")[0].strip()
            if kind != "text" and word not in names and word in ctx.scope:
                self.error(f"'{{{word}}}': an announcement is seen by everyone, so it names only seats, "
                           "shared counters, params, turns and player_count", node.pos,
                           "keep the value in a counter if everyone may see it")
                return []
        return [f"s._announce({self.template_code(node.text, names, node.pos)})"]

    def s_EndGame(self, node: ast.EndGame, ctx: Ctx) -> list[str]:
        if ctx.where in ("effect", "auto"):
            return ["s.turns += 1  # the turn in progress counts as played", "s._finish()", "return"]
        return ["s._finish()", "return"]

    # ---- the game -----------------------------------------------------------------------
    def build(self, name: str, rules_hash: str) -> GameIR:
        sym = self.sym
        game = sym.game
        enums = [EnumIR(e.name, _const(e.name), e.members, e.wild,
                        [next((k for k, v in e.symbols.items() if v == i), "") for i in range(len(e.members))])
                 for e in sym.enums.values()]
        tables = [self.table_ir(t) for t in sym.tables.values()]
        setup_ctx = Ctx("setup", random_ok=True)
        zones = []
        for z in sym.zones.values():
            init = None
            if z.node.init is not None:
                code, ty = self.expr(z.node.init, setup_ctx)
                if not ty.is_collection and ty.kind != "any":
                    self.error(f"a zone starts with a list of items, but this is {ty}", z.node.init.pos)
                elif ty.elem is not None and not T.compatible(ty.elem, z.elem):
                    self.error(f"zone '{z.name}' holds {z.elem}, but this holds {ty.elem}", z.node.init.pos)
                init = f"list({code})"
            zones.append(ZoneIR(z.name, f"z_{z.name}", self.per_count(z.per), z.hidden, z.private,
                                z.elem.display_kind, z.capacity, init, z.node.pos[0],
                                values=self.value_count(z.elem, z.values)))
        counters = []
        for c in sym.counters.values():
            init = "0" if c.node.init is None else self.number(c.node.init, setup_ctx)
            counters.append(CounterIR(c.name, f"c_{c.name}", self.per_count(c.per), init, c.node.pos[0]))
        grids = []
        for g in sym.grids.values():
            geo = g.geo
            grids.append(GridIR(g.name, f"g_{g.name}", gconst(g.name), self.per_count(g.per), g.hidden,
                                g.private, g.elem.display_kind, geo.kind, geo.width, geo.height, geo.cells,
                                list(geo.adj), list(geo.rows), list(geo.cell_names()), list(geo.dirs),
                                [list(e) for e in geo.exits], g.node.pos[0],
                                columns=[c[0] for c in geo.coords] if geo.kind != "hex" else
                                _hex_places(geo), sides=[list(c) for c in geo.side_cells()],
                                numbers=g.elem.kind == "int", values=self.value_count(g.elem, None)[1],
                                layout=geo.layout(),
                                numbered={n: c for n, c in enumerate(geo.reading_order(), 1)} if geo.numbered else {}))
        first = "0"
        if game is not None and game.first is not None:
            first = self.number(game.first, setup_ctx)
        setup_lines = []
        for node in sym.setup:
            setup_lines += self.stmts(node.body, Ctx("setup", random_ok=True))
        steps, actions = [], []
        if sym.turns:
            for i, step in enumerate(sym.turns[0].steps):
                steps.append(self.step_ir(i, step, len(sym.turns[0].steps), actions))
        end_ctx = Ctx("end", has_me=True)
        skeletons: dict[str, int] = {}
        for a in actions:
            skeletons[a.skeleton] = skeletons.get(a.skeleton, 0) + 1
        for a in actions:
            if skeletons[a.skeleton] > 1:
                a.clash = "True"
        ends = [(self.comment(e), self.boolean(e.cond, end_ctx)) for e in sym.ends]
        end_winners = []
        if any(e.winner is not None for e in sym.ends):
            for e, (comment, code) in zip(sym.ends, ends):
                win = None
                if e.winner is not None:
                    win = self.want(e.winner, end_ctx, ("player", "int"), "a player (the winner)")
                end_winners.append((comment, code, win))
        clauses, score_secrecy = [], []
        score_var = pyname(sym.scores[0].var) if sym.scores else "p"
        for score in sym.scores:
            if pyname(score.var) != score_var:
                self.error("every score block must name its player the same way", score.pos)
            ctx = Ctx("score", {score.var: (pyname(score.var), T.PLAYER)})
            for clause in score.clauses:
                clauses.append((clause.name, clause.pos[0], self.number(clause.expr, ctx)))
                score_secrecy.append(secrecy(clause.expr, score.var, sym))
        keys, ties = [], "draw"
        if sym.winners:
            w = sym.winners[0]
            ctx = Ctx("winner", {w.var: (pyname(w.var), T.PLAYER), "score": (f"_sc[{pyname(w.var)}]", T.INT)})
            for rank in w.ranks:
                code = self.number(rank.expr, ctx)
                keys.append((rank.pos[0], code if rank.most else f"-({code})", pyname(w.var)))
            ties = w.ties
        else:
            keys = [(0, "_sc[p]", "p")]
        invariants = []
        for inv in sym.invariants:
            invariants.append((inv.name, inv.pos[0], self.boolean(inv.expr, Ctx("invariant"))))
        for z in sym.zones.values():  # a zone declared with its values holds no others
            if z.values is not None:
                lo, hi = z.values
                test = f"all({lo} <= v <= {hi} for v in {{}})"
                code = (f"all({test.format('z')} for z in s.z_{z.name})" if z.per else test.format(f"s.z_{z.name}"))
                invariants.append((f"{z.name} values", z.node.pos[0], code))
        kinds = {f"enum:{e.name}": len(e.members) for e in sym.enums.values()}
        kinds.update({f"item:{t.name}": t.count for t in sym.tables.values()})
        self.check_unused_defines()
        return GameIR(
            name=name, title=game.title if game else name, rules_file=self.source.filename,
            rules_hash=rules_hash,
            min_players=game.min_players if game else 2, max_players=game.max_players if game else 2,
            first_code=first, params=[(p.name, p.value) for p in sym.params.values()],
            enums=enums, tables=tables, zones=zones, grids=grids, patterns=list(sym.patterns),
            pattern_texts=list(sym.pattern_texts),
            counters=counters, setup_lines=setup_lines,
            steps=steps, actions=actions, end_conds=ends, end_shapes=self.end_shapes(sym.ends),
            end_winners=end_winners, functions=self.functions, helpers=self.helpers,
            marks=list(game.marks) if game else [], colours=list(game.colours) if game else [],
            zone_values={z.name: z.values for z in sym.zones.values() if z.values is not None},
            notes=list(dict.fromkeys(self.notes)),
            max_decisions=self.sym_const(game.max_decisions) or LIMITS["decisions"]
            if game is not None and game.max_decisions is not None else LIMITS["decisions"],
            has_chance=has_chance(self.rules),
            score_clauses=clauses, score_var=score_var,
            score_secrecy=score_secrecy, flows=flows(self.rules), ends_by_statement=ends_by_statement(self.rules),
            has_next_player=has_next_player(self.rules), announces=announces(self.rules),
            winner_keys=keys, ties=ties, invariants=invariants, kinds=kinds,
            zone_per_enum={z.name: z.per for z in sym.zones.values() if z.per not in (None, "player")},
            quiet=sorted(n for n, d in [*((z.name, z.node) for z in sym.zones.values()),
                                         *((g.name, g.node) for g in sym.grids.values()),
                                         *((c.name, c.node) for c in sym.counters.values())] if d.quiet),
            edges={g.name: g.edges for g in sym.grids.values() if g.edges},
            under={g.name: g.node.under for g in sym.grids.values() if g.node.under},
            enum_params={e: dict(sorted(v.items())) for e, v in sorted(self.enum_params.items())},
            item_patterns={f"item:{t.name}": column_const(t.name, c.name) for t in sym.tables.values()
                           for c in t.columns.values() if c.type.kind == "pattern"})

    def value_count(self, elem: T.Type, values: tuple | None) -> tuple:
        """(lowest, how many) values an element may take, for observations: a number, "n" for
        the seats, None for numbers whose values are not declared."""
        if elem.kind == "item":
            return (0, self.sym.tables[elem.name].count)
        if elem.kind == "enum":
            return (0, len(self.sym.enums[elem.name].members))
        if elem.kind == "player":
            return (0, "n")
        if elem.kind == "bool":
            return (0, 2)
        if values is not None:
            return (values[0], values[1] - values[0] + 1)
        return (0, None)

    def per_count(self, per: str | None) -> str | int | None:
        """How a per-something declaration is laid out: None, "player", or a member count."""
        if per is None or per == "player":
            return per
        return len(self.sym.enums[per].members)

    def table_ir(self, t) -> TableIR:
        columns = [(c.name, c.type.display_kind, c.values) for c in t.columns.values()]
        # byte tables mapping a grid cell (item + 1) to (column value + 1): grid projections
        cells = []
        for c in t.columns.values():
            if c.type.kind in ("enum", "int") and t.count < 255 and all(-1 <= v < 254 for v in c.values):
                table = bytearray(256)
                for i, v in enumerate(c.values):
                    table[i + 1] = v + 1
                cells.append((c.name, bytes(table)))
        names = {c.name: (f"{column_const(t.name, c.name)}[i]", c.type) for c in t.columns.values()}
        if t.show is not None:
            body = self.template_code(t.show, names, t.node.pos)
            if t.node.show_if is not None:  # show A if COND else B: the text chosen by the item
                cond = self.boolean(t.node.show_if, Ctx("show", names))
                other = self.template_code(t.node.show_else, names, t.node.pos)
                body = f"({body}) if {cond} else ({other})"
        else:
            body = joined([self.show_code(code, ty) for code, ty in names.values()], " ") or "str(i)"
        detail = self.template_code(t.detail, names, t.node.pos) if t.detail is not None else None
        return TableIR(t.name, _const(t.name), columns, t.count, [f"return {body}"], t.node.pos[0], cells,
                       [f"return {detail}"] if detail else [])

    def step_ir(self, index: int, step: ast.Step, nsteps: int, actions: list) -> StepIR:
        ctx = Ctx("turn", has_me=True)
        cond = self.boolean(step.cond, ctx) if step.cond is not None else None
        after = f"s._again({index})" if step.kind == "repeat" else f"s._enter({index + 1})"
        ir = StepIR(index, step.name, step.kind, step.pos[0], cond, [], None, [], self.comment(step))
        if step.kind == "auto":
            ir.body_lines = self.stmts(step.body, Ctx("auto", has_me=True, random_ok=True))
            return ir
        if step.kind == "decision" and step.cond is not None:
            ir.kind = "when"
        for choice in step.choices:
            if isinstance(choice, ast.Action):
                a = self.action_ir(choice, index, after)
                ir.actions.append(a)
                actions.append(a)
            else:
                text = choice.notation or "pass"
                a = ActionIR(self.action_count, "pass", index, [f"return {text!r}"], [], [], [], after,
                             choice.pos[0], is_pass=True, skeleton=text)
                self.action_count += 1
                ir.pass_action = a
                actions.append(a)
        if step.kind == "optional":
            a = ActionIR(self.action_count, "skip", index, [f"return {'skip ' + step.name!r}"], [], [], [],
                         after, step.pos[0], is_pass=True, skeleton="skip " + step.name)
            self.action_count += 1
            ir.pass_action = a
            actions.append(a)
        share_with_condition(ir)
        return ir

    def visible_choice(self, source: ast.Node) -> None:
        """Refuse a parameter over a zone the acting player cannot see: its legal moves would
        list the hidden elements, in order, for anyone to read."""
        index = source.index if isinstance(source, ast.Index) else None
        name = _zone_name(source)
        place = self.sym.zones.get(name) or self.sym.grids.get(name)
        if place is None:
            return
        if place.hidden:
            self.error(f"the player cannot see '{name}' (it is hidden), so cannot choose among its elements",
                       source.pos, "choose from a zone the player sees, or deal from this one")
        elif place.private and place.per == "player" and not (isinstance(index, ast.Name) and index.id == "me"):
            self.error(f"'{name}' is private to its owner: only {name}[me] can offer choices here",
                       source.pos, "choose from the acting player's own zone")

    def action_ir(self, node: ast.Action, step: int, after: str) -> ActionIR:
        index = self.action_count
        self.action_count += 1
        ctx = Ctx("guard", has_me=True)
        levels: dict[str, int] = {}
        loops: list[tuple[int, str]] = []
        hoisted: list[str] = []  # loop sources that no parameter changes, computed once
        arg_names: list[str] = []
        arg_types: dict[str, tuple[str, T.Type]] = {}
        domains: list[tuple] = []
        for level, b in enumerate(node.params):
            for n in b.names:
                if n in ctx.scope or n in self.sym.all_names():
                    self.error(f"'{n}' is already a name here; choose another parameter name", b.pos)
            free = not (_names_in(b.source) | _names_in(b.upper)) & set(levels)

            def source_code(code: str) -> str:
                if level == 0 or not free:
                    return code
                var = f"_src{len(hoisted)}_{index}"
                hoisted.append(f"{var} = {code}")
                return var

            if b.kind == "range":
                lo = self.number(b.source, ctx)
                hi = self.number(b.upper, ctx)
                var = pyname(b.names[0])
                if _is_int(lo) and _is_int(hi):
                    if int(hi) - int(lo) + 1 > LIMITS["range_values"]:
                        self.error(f"this range has {int(hi) - int(lo) + 1:,} values (the limit is "
                                   f"{LIMITS['range_values']:,})", b.pos, "a parameter offers at most that many choices")
                    values = f"range({lo}, {int(hi) + 1})"
                else:  # bounded when played: a runaway counter cannot make a runaway move list
                    values = f"ops.span({lo}, {hi})"
                # natively a constant range stays in the loop, where Cython makes it a C loop
                constant = self.native and values.startswith("range(")
                loops.append((level, f"for {var} in {values if constant else source_code(values)}:"))
                ctx.scope[b.names[0]] = (var, T.INT)
            elif b.kind == "pair":
                self.visible_choice(b.source)
                src, ty = self.collection(b.source, ctx)
                if ty.elem is not None and ty.elem.kind not in ("int", "player", "enum", "item", "any"):
                    self.error("pairs are drawn from a zone of numbers, enum values or items", b.source.pos)
                va, vb = pyname(b.names[0]), pyname(b.names[1])
                loops.append((level, f"for {va}, {vb} in {source_code(f'K.distinct_pairs({src})')}:"))
                ctx.scope[b.names[0]] = (va, ty.elem or T.ANY)
                ctx.scope[b.names[1]] = (vb, ty.elem or T.ANY)
            else:
                self.visible_choice(b.source)
                src, ty = self.collection(b.source, ctx)
                var = pyname(b.names[0])
                elem = ty.elem or T.ANY
                if ty.kind == "zone" and elem.kind in ("int", "enum", "bool", "any"):
                    src = f"dict.fromkeys({src})"  # equal values are one choice
                loops.append((level, f"for {var} in {source_code(src)}:"))
                ctx.scope[b.names[0]] = (var, elem)
            for n in b.names:
                levels[n] = level
                arg_names.append(n)
                arg_types[n] = ctx.scope[n]
                domains.append(self.domain(node, n, b, ctx.scope[n][1]))
        # guard prefix (let/require) and effects
        prefix, effects = [], []
        for stmt in node.body:
            if isinstance(stmt, (ast.Let, ast.Require)) and not effects:
                prefix.append(stmt)
            elif isinstance(stmt, ast.Require):
                self.error("'require' must come before the action's effects", stmt.pos,
                           "conditions decide whether the action is legal; put them first")
            else:
                effects.append(stmt)
        # place each guard at the innermost loop it depends on
        placed: dict[int, list[str]] = {i: [] for i in range(-1, len(node.params))}
        guard_ctx = ctx.child()
        needed: set[str] = set()  # the lets some require reads: the others serve the effects only
        for stmt in reversed(prefix):
            if isinstance(stmt, ast.Require) or stmt.name in needed:
                needed |= _names_in(stmt)
        for stmt in prefix:
            deps = _names_in(stmt) & set(levels)
            level = max((levels[d] for d in deps), default=-1)
            lines = [self.comment(stmt)]
            if isinstance(stmt, ast.Let):
                let_lines = self.s_Let(stmt, guard_ctx)
                levels[stmt.name] = level
                if stmt.name not in needed:  # computed with the effects, not for every move
                    continue
                lines += let_lines
            else:
                lines.append(f"if {self.boolean(stmt.cond, guard_ctx)}:")
            placed[level].extend(lines)
        gen: list[str] = []
        depth = 0

        def emit(lines: list[str]) -> None:
            nonlocal depth
            for line in lines:
                gen.append("    " * depth + line)
                if line.startswith("if ") and line.endswith(":"):
                    depth += 1

        emit(placed[-1])
        emit(hoisted)
        move = f"({index}, {', '.join(pyname(n) for n in arg_names)})" if arg_names else f"({index},)"
        # the loops from `fold` inward have no guards: one comprehension over all of them
        fold = len(loops)
        while fold > 0 and not placed[loops[fold - 1][0]]:
            fold -= 1
        # an action that could offer more moves than one decision may hold: its loops stay
        # statements, and the list's size is checked before each innermost loop
        risky = len(loops) >= 2 and not _moves_fit(domains)
        product = None
        if len(loops) == 2 and fold == 0 and len(arg_names) == 2:
            outer = re.fullmatch(r"for (\w+) in (.*):", loops[0][1])
            inner = re.fullmatch(r"for (\w+) in (.*):", loops[1][1])
            if outer and inner and not re.search(rf"\b{outer.group(1)}\b", inner.group(2)):
                # two free parameters: every pair of values, made by one kernel call (which
                # checks the bound on moves itself)
                product = f"_extend(K.tagged_product({index}, {outer.group(2)}, {inner.group(2)}))"
                risky = False
        if risky:
            fold = len(loops)
        if product is not None:
            gen.append("    " * depth + product)
            loops = []
        elif len(loops) - fold >= 2:
            nested = " ".join(loop[:-1] for _level, loop in loops[fold:])
            loops = loops[:fold] + [(loops[fold][0], nested + ":")]
        held = None if risky else self.holding_pairs_loop(loops, placed, arg_names, index)
        if held is not None:  # the whole list in one call: nothing left to loop over
            emit([line for line in placed[loops[0][0]] if line.startswith("#")])
            gen.append("    " * depth + held)
            loops = []
        for i, (level, loop) in enumerate(loops):
            if i == len(loops) - 1 and not placed[level]:
                # the innermost loop has no guard of its own: one list, built in one go (a loop
                # with guards stays a loop: on Python 3.11 a comprehension is a call of its own,
                # dearer than the few tests of a game's small zones)
                single = re.fullmatch(r"for (\w+) in (.*):", loop)
                if len(loops) == 1 and single and len(arg_names) == 1:
                    src = single.group(2)
                    distinct = re.fullmatch(r"dict\.fromkeys\(([^()]*)\)", src)
                    if src.startswith("K.line_move_keys(") and src.endswith(")"):  # tagged where made
                        gen.append("    " * depth + f"_extend({src[:-1]}, {index}))")
                    elif distinct:  # equal values are one choice: dropped as the list is made
                        gen.append("    " * depth + f"_extend(K.tagged({index}, {distinct.group(1)}, True))")
                    else:
                        gen.append("    " * depth + f"_extend(K.tagged({index}, {src}))")
                else:
                    gen.append("    " * depth + f"_extend([{move} {loop[:-1]}])")
                break
            gen.append("    " * depth + loop)
            depth += 1
            emit(placed[level])
            if risky and i == len(loops) - 2:
                gen.append("    " * depth + f"if len(out) > {LIMITS['moves']}: "
                           f"ops.too_many_moves(RULES_FILE, {node.pos[0]}, {node.name!r}, {LIMITS['moves']})")
        else:
            if held is None and product is None:
                gen.append("    " * depth + f"_add({move})")
        # effects
        do_ctx = Ctx("effect", dict(guard_ctx.scope), has_me=True, random_ok=True)
        do_ctx.lets = set(guard_ctx.lets)
        do_lines = []
        for stmt in prefix:
            if isinstance(stmt, ast.Let):
                do_lines += [self.comment(stmt)] + self.s_Let(stmt, do_ctx)
        do_lines += self.stmts(effects, do_ctx)
        say_body = (self.template_code(node.notation, arg_types, node.pos) if node.notation is not None
                    else joined([repr(node.name)] + [self.show_code(c, t) for c, t in arg_types.values()], " "))
        say_call = f"_say_{index}_{node.name}({', '.join(pyname(n) for n in arg_names)})"
        long_parts = [self.long_code(c, t) for c, t in arg_types.values()]
        long_body = joined([say_call] + long_parts, " ")
        clash, skeleton = self.clash_of(node, arg_types)
        return ActionIR(index, node.name, step, [f"return {say_body}"], [pyname(n) for n in arg_names],
                        [self.comment(node)] + gen, do_lines, after, node.pos[0],
                        long_lines=[f"return {long_body}"], clash=clash, skeleton=skeleton, domains=domains,
                        arg_kinds=[t.display_kind for _c, t in arg_types.values()])

    def end_shapes(self, ends: list) -> list[dict]:
        """What a page outlines when the game ends: for each end condition that is (or holds,
        joined by and/or) a line of pieces (``in_a_row(G, who, k)``) or a chain between two sides
        (``connected(G, who, a, b)``), the grid and its numbers. Data for drawing only."""
        shapes: list[dict] = []

        def visit(node) -> None:
            if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
                visit(node.left)
                visit(node.right)
            elif isinstance(node, ast.Call) and node.func in ("in_a_row", "connected") and node.args \
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in self.sym.grids:
                grid = self.sym.grids[node.args[0].id]
                if node.func == "in_a_row" and len(node.args) == 3:
                    k = self.sym_const(node.args[2])
                    if k is not None:
                        shapes.append({"kind": "in_a_row", "grid": grid.name, "length": k})
                elif node.func == "connected" and len(node.args) == 4 and grid.edges:
                    members = self.sym.enums[grid.edges].members
                    names = [a.id if isinstance(a, ast.Name) else None for a in node.args[2:]]
                    if all(n in members for n in names):
                        shapes.append({"kind": "connected", "grid": grid.name, "seat": self.sym_const(node.args[1]),
                                       "sides": [members.index(n) for n in names]})
        for e in ends:
            visit(e.cond)
        return shapes

    def domain(self, action: ast.Action, name: str, b: ast.Binding, ty: T.Type) -> tuple:
        """The values a parameter can take in any state, for action ids (game.action_space):
        each move of the game gets a number from its action and its arguments' places in these."""
        if b.kind == "range":
            lo, hi = self.sym_const(b.source), self.sym_const(b.upper)
            if lo is None or hi is None:
                return self.unbounded(b.pos, f"action '{action.name}': the range of '{name}' has bounds known "
                                      "only when played, so its moves have no action ids",
                                      "give it constant bounds (numbers or params) and narrow it with a require "
                                      "(action ids number every move a game can offer, for game-AI tools)")
            return ("value", max(hi - lo + 1, 1), lo)
        kind = ty.kind
        if kind == "item":
            return ("value", self.sym.tables[ty.name].count, 0)
        if kind == "enum":
            return ("value", len(self.sym.enums[ty.name].members), 0)
        if kind == "player":
            return ("players",)
        if kind == "bool":
            return ("value", 2, 0)
        if kind in ("cell", "lane", "direction", "group", "linemove") and ty.space in self.sym.grids:
            g = self.sym.grids[ty.space]
            geo = g.geo
            if kind == "cell":
                return ("value", geo.cells, 0)
            if kind == "lane":
                return ("value", geo.width, 0)
            if kind == "direction":
                return ("value", geo.deg, 0)
            if kind == "group":
                colours = len(self.sym.enums[g.elem.name].members) if g.elem.kind == "enum" else LIMITS["players"]
                return ("group", colours, geo.cells, g.name, g.elem.display_kind)
            return ("line", geo.cells, geo.deg, min(2 * max(geo.width, geo.height) + 1, 64), g.name)
        if kind == "placement":
            return ("value", 256, 0)
        if kind == "pattern":
            return ("value", max(len(self.sym.patterns), 1), 0)
        if kind == "int":
            zone = self.sym.zones.get(_zone_name(b.source))
            if zone is not None and zone.values is not None:
                lo, hi = zone.values
                return ("value", hi - lo + 1, lo)
            where = f"'{zone.name}'" if zone is not None else "this list"
            return self.unbounded(b.source.pos, f"action '{action.name}': '{name}' takes numbers from {where}, "
                                  "whose values are not declared, so its moves have no action ids",
                                  (f"declare them: zone {zone.name}: int ... values 1..9" if zone is not None else
                                   "take them from a zone declared with 'values lo..hi', or from a range")
                                  + " (action ids number every move a game can offer, for game-AI tools)")
        return self.unbounded(b.pos, f"action '{action.name}': '{name}' is {ty}, which action ids cannot "
                              "number", "action ids cover items, cells, enum members, seats, ranges and "
                              "zones of numbers with declared values")

    def unbounded(self, pos: tuple, message: str, hint: str) -> tuple:
        """A parameter whose values are not known in advance: the game compiles and plays, but
        has no action ids; ``regle check`` says so as a note, and game.action_space() refuses
        with the same words."""
        note = Diagnostic.at(message, pos, hint)
        note = Diagnostic(note.message, note.line, note.column, note.hint, "note", note.file)
        source = self.sources.get(note.file, self.source) if note.file else self.source
        text = note.render(source)
        self.notes.append(text)
        return ("unbounded", text)

    def sym_const(self, node: ast.Node) -> int | None:
        """A constant number (a literal or + - * // % of params), else None (the checker's
        folding: nothing of the rules text is ever run)."""
        try:
            value = fold_constant(node, self.sym.params)
        except NotConstant:
            return None
        return value if type(value) is int else None

    @staticmethod
    def holding_pairs_loop(loops, placed, arg_names, index) -> str | None:
        """``action a(c in Z) { require has(W, [c.x, c.y]) }``: every item of Z tested by one
        kernel call (``K.holding_pairs``) instead of a call per item; None for other shapes."""
        if len(loops) != 1 or len(arg_names) != 1:
            return None
        level, loop = loops[0]
        single = re.fullmatch(r"for (\w+) in (.*):", loop)
        tests = [g for g in placed[level] if not g.startswith("#")]
        if single is None or len(tests) != 1:
            return None
        var, src = single.groups()
        m = re.fullmatch(rf"if K\.contains_pair\((.+), (C_\w+)\[{var}\], (C_\w+)\[{var}\]\):", tests[0])
        if m is None or re.search(rf"\b{var}\b", m.group(1)):
            return None
        return f"_extend(K.holding_pairs({m.group(1)}, {src}, {m.group(2)}, {m.group(3)}, {index}))"

    def long_code(self, code: str, ty: T.Type) -> str:
        """A longer display of a move's argument that tells apart what the notation may not:
        an item's detail text (or its number), a group's first cell."""
        if ty.kind == "item":
            t = self.sym.tables[ty.name]
            if t.node.detail is not None:
                return f"detail__{ty.name}({code})"
            return f"'#' + str({code} + 1)"
        if ty.kind == "group" and ty.space in self.sym.grids:
            return f"'at ' + {gconst(ty.space)}_NAMES[ops.group_anchor({code})]"
        return self.show_code(code, ty)

    def clash_of(self, node: ast.Action, arg_types: dict) -> tuple[str, str]:
        """Whether two moves of this action may share a notation (a Python condition, decided
        when the engine loads for item shows), and the notation's skeleton, which another
        action sharing it may also clash with."""
        if node.notation is None:
            shown = set(arg_types)
            skeleton = node.name + " {}" * len(arg_types)
        else:
            parts = split_template(node.notation)
            shown = {v for kind, v in parts if kind != "text" and v.strip() in arg_types}
            skeleton = "".join(v if kind == "text" else "{}" for kind, v in parts)
        conditions = []
        for name, (_code, ty) in arg_types.items():
            if name not in shown or ty.kind in ("group", "any"):
                return "True", skeleton
            if ty.kind == "item":
                conditions.append(f"not SHOWS_DIFFER[{ty.name!r}]")
        return (" or ".join(dict.fromkeys(conditions)) or "False"), skeleton


_CELL_LIST = re.compile(r"\[_c for _c in range\(\d+\) if (?:not )?[\w.]+(?:\[\w+\])?\[_c\]\]"
                        r"|K\.(?:empty|filled)_cells\([\w.]+(?:\[\w+\])?\)")


def share_cell_lists(line: str) -> list[str]:
    """A line that builds the same list of a grid's filled (or empty) cells twice or more (a
    define used several times, say) builds it once, just before: ``_cells0 = [...]``. These
    lists read the grid and cannot fail, so building one a little earlier changes nothing;
    not done when the grid is named by a variable the line itself binds, or on an ``elif``."""
    stripped = line.lstrip()
    if stripped.startswith(("#", "elif ", "else", "for ", "while ")):
        return [line]
    indent = line[:len(line) - len(stripped)]
    counts: dict[str, int] = {}
    for m in _CELL_LIST.finditer(stripped):
        counts[m.group()] = counts.get(m.group(), 0) + 1
    head = []
    for i, (text, n) in enumerate(c for c in counts.items() if c[1] > 1):
        index = re.search(r"\[(\w+)\](?:\[_c\]|\)$)", text)
        if index and not (index.group(1) == "me" or index.group(1).isdigit() or index.group(1).endswith("_")):
            continue  # named by something a loop binds (a deal's `it`)
        if index and re.search(rf"for (?:\w+, )?{index.group(1)} in", stripped):
            continue  # bound by a comprehension of this very line
        head.append(f"{indent}_cells{i} = {text}  # built once for this line")
        stripped = stripped.replace(text, f"_cells{i}")
    return head + [indent + stripped]


def share_with_condition(step: StepIR) -> None:
    """A value the step's condition computes and its move generator computes again (the groups
    a repeat step looks for, then offers) is computed once per decision: the turn machine passes
    it to the generator as ``_shared``. Only whole calls that read nothing but the state are
    shared (no rules local: those end with ``_``)."""
    if not step.cond_code or re.search(r" (and|or|if) ", step.cond_code):
        return  # a condition that may skip a part: computing it first could change what runs
    body = "\n".join(line for a in step.actions for line in a.gen_lines if not line.lstrip().startswith("#"))
    for call in sorted(_calls(step.cond_code), key=len, reverse=True):
        if call in body and not re.search(r"\b\w+_\b", call):
            step.shared_code = call
            step.cond_code = step.cond_code.replace(call, "_shared")
            for a in step.actions:
                a.gen_lines = [line if line.lstrip().startswith("#") else line.replace(call, "_shared")
                               for line in a.gen_lines]
            return


def _calls(code: str) -> list[str]:
    """Every call expression (``name.name(...)``, parentheses balanced) written in ``code``."""
    found = []
    for m in re.finditer(r"[A-Za-z_][\w.]*\(", code):
        depth, i = 0, m.end() - 1
        for i in range(m.end() - 1, len(code)):
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            if depth == 0:
                break
        if depth == 0:
            found.append(code[m.start():i + 1])
    return found


def _hex_places(geo) -> list[int]:
    """The column of each cell of a hexagon: its place in its row, from the west."""
    out, count = [], {}
    for row in geo.rows:
        out.append(count.get(row, 0))
        count[row] = out[-1] + 1
    return out


def _balanced(code: str) -> bool:
    """Whether the brackets of ``code`` close in order (so that it is one argument list)."""
    depth = 0
    for c in code:
        depth += c in "([{"
        depth -= c in ")]}"
        if depth < 0:
            return False
    return depth == 0


def _is_int(code: str) -> bool:
    """Whether ``code`` is a whole number written out (``7``, ``-3``)."""
    return code[1:].isdigit() if code.startswith("-") else code.isdigit()


def _fold(op: str, a: str, b: str) -> int | None:
    """``a op b`` computed now when both are whole numbers written out (not a division by
    zero, which stays to be reported when played; not a number past the engine's bounds)."""
    a, b = a.strip("()"), b.strip("()")
    if not (_is_int(a) and _is_int(b)) or (op in ("//", "%") and int(b) == 0):
        return None
    x, y = int(a), int(b)
    value = {"+": x + y, "-": x - y, "*": x * y, "//": x // y if y else 0, "%": x % y if y else 0}[op]
    return value if abs(value) < 2 ** 53 else None


def _path_word(path: str) -> str:
    """A file path as one word of a comment (run-time errors read it back from there)."""
    return "".join("_" if c.isspace() else c for c in path)


def _const(name: str) -> str:
    """Prefix of a table's or enum's constants (``T_colour__NAMES``): case kept, and the
    ``__`` no declared name can hold keeps every rules name apart from the engine's own."""
    return f"T_{name}_"


def column_const(table: str, column: str) -> str:
    """The tuple of one table column's values, one per item."""
    return f"C_{table}__{column}"


def cells_const(table: str, column: str) -> str:
    """The translate table of a grid of items seen through one column."""
    return f"CELLS_{table}__{column}"


def _zone_name(node: ast.Node) -> str:
    if isinstance(node, ast.Index):
        node = node.obj
    return node.id if isinstance(node, ast.Name) else "?"


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _names_in(node) -> set[str]:
    """Every bare name used inside an AST node."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            out.add(n.id)
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.Node):
            for field in n.__attrs_attrs__:
                v = getattr(n, field.name)
                if isinstance(v, (ast.Node, list, tuple)):
                    stack.append(v)
    return out


def _moves_fit(domains: list[tuple]) -> bool:
    """Whether an action's parameters, by what action ids know of their values, can never offer
    more moves than one decision may hold (unknown values: they might)."""
    total = 1
    for d in domains:
        if d[0] == "value":
            total *= max(d[1], 1)
        elif d[0] == "players":
            total *= LIMITS["players"]
        elif d[0] == "group":
            total *= d[1] * d[2]
        elif d[0] == "line":
            total *= d[1] * d[2] * d[3]
        else:
            return False
    return total <= LIMITS["moves"]


def joined(parts: list[str], sep: str = "") -> str:
    """Code for the strings ``parts`` joined by ``sep``: ``a + ' ' + b`` when short, else one
    ``join`` call, so that a text of thousands of parts is no expression thousands deep."""
    if len(parts) <= 4:
        return f" + {sep!r} + ".join(parts) if sep else " + ".join(parts)
    return f"{sep!r}.join(({', '.join(parts)},))"


def _atomic(code: str) -> bool:
    """Whether Python code is one operand (a name, a number, a call, an index: no blank
    outside brackets or strings), so that it can stand inside another expression as it is."""
    depth, quote = 0, ""
    for ch in code:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == " " and depth == 0:
            return False
    return not code.startswith("-")
