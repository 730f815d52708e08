"""The emitters: the typed IR of expressions and statements (compiler/ir/nodes.py,
compiler/ir/statements.py) written as the Python engine's code; the native engine's emitter
(compiler/write/emit_native.py) builds on this one.

Both walk the same tree. What the two engines write alike (constants, operators, comparisons,
conditionals, the built-ins of numbers) is :class:`PythonWriter`'s; the native engine's
``CythonWriter`` (compiler/write/emit_native.py) overrides the node kinds whose native form differs
(``nodes.BACKEND_KINDS``). Each node is written with the precedence of the code it becomes, and
a child is parenthesised only where its precedence is below what its place needs.
"""
from __future__ import annotations

from functools import lru_cache

from ..ir import nodes as N
from ..ir.traverse import locals_in, names_known
from ..ir import statements as S
from ..ir import types as T
from ..ir.nodes import P_OR, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM
from .safety import literal
from .show import joined, shown

#: runtime helpers that have a C form in the native engine (defined by its template), so that
#: a native engine calls them in C: the language's bound on numbers (for sums, which fit in 64
#: bits: a product is checked on Python numbers, before it could wrap) and the mancala board
C_FORMS = {"number": "_number", "mancala_store": "_mancala_store", "mancala_opposite": "_mancala_opposite",
           "piece_kind": "_piece_kind", "piece_owner": "_piece_owner", "at_xy": "_at_xy",
           "lines_through": "_lines_through"}

#: kernels with an inline C form (runtime/_support.pxd), written into the native engine's own
#: code where the call of a kernel would cost more than its work: on a grid's bytes they read
#: them in place, anything else they hand to the kernel
K_FORMS = {"lane_count": "_lane_count", "first_holding": "_first_in", "flanked_count": "_flanked_count"}


@lru_cache(maxsize=1)
def c_kernels() -> frozenset[str]:
    """The kernels a native engine calls at C level: the functions that
    ``regle/runtime/_kernels.pxd`` declares (cpdef ones are Python functions too)."""
    from importlib.resources import files
    text = files("regle.runtime").joinpath("_kernels.pxd").read_text(encoding="utf-8")
    names = set()
    for line in text.splitlines():  # "cpdef list tagged(...)": a return type (of one word or
        head, paren, _rest = line.partition("(")  # more: "long long"), then the name
        words = head.split()
        if paren and not line[:1].isspace() and len(words) >= 3 and words[0] in ("def", "cdef", "cpdef") \
                and words[1] != "inline":
            names.add(words[-1])
    return frozenset(names)


def runtime_call(qualified: str, native: bool, bound: dict | None = None) -> str:
    """How generated code names the runtime helper ``K.name`` or ``ops.name``: as it is in a
    Python engine. Natively, a compiled kernel is called at C level through the cimported
    kernels (``_CK.name``: no Python call, no boxing of its numbers); any other helper through
    a C global bound to it once (``_ops_name``: no lookup of the name at each call), which is
    recorded in ``bound`` (C global -> helper) for the module's head to declare."""
    if not native:
        return qualified
    module, name = qualified.split(".")
    if name in c_kernels():
        return f"_CK.{name}"
    local = f"_{module}_{name}"
    if bound is not None:
        bound[local] = qualified
    return local


def _holds_any(e: N.Binary) -> N.CountValue | None:
    """The count of a grid's cells holding one byte that ``e`` compares with none of them
    (``count(empty_cells(G)) == 0``, ``count(board, 1 - me) != 0``, ``> 0``): a search for one
    such cell tells. The byte is a number from 0 to 255, or an expression (evaluated once
    either way; out of that range, the search refuses it as counting does)."""
    if e.op in ("==", "!=", ">") and isinstance(e.left, N.CountValue) and isinstance(e.right, N.Const) \
            and e.right.value == 0 and e.right.value is not False:
        count = e.left
    elif e.op in ("==", "!=") and isinstance(e.right, N.CountValue) and isinstance(e.left, N.Const) \
            and e.left.value == 0 and e.left.value is not False:
        count = e.right
    else:
        return None
    value = count.value
    if isinstance(value, N.Const):
        return count if type(value.value) is int and 0 <= value.value <= 255 else None
    return count


def _wrap(code: str, prec: int, need: int) -> str:
    return f"({code})" if prec < need else code


class PythonWriter:
    """The Python engine's code of a tree (and what both engines write alike)."""

    native = False

    def write(self, e: N.Expr) -> tuple[str, int]:
        """(the code of ``e``, its precedence)."""
        method = getattr(self, "w_" + type(e).__name__, None)
        if method is None:
            raise TypeError(f"not an expression node: {e!r}")
        return method(e)

    def code(self, e: N.Expr, need: int = P_OR) -> str:
        """The code of ``e`` for a place that needs precedence ``need`` (an argument: P_OR)."""
        code, prec = self.write(e)
        return _wrap(code, prec, need)

    def args(self, args: tuple) -> str:
        return ", ".join(self.code(a) for a in args)

    def name(self, qualified: str) -> str:
        """How this engine names the runtime helper ``ops.name`` / ``K.name``."""
        return qualified

    def declare(self, e: N.Expr) -> None:
        """Make now what writing ``e`` adds to the module besides its code (nothing here)."""

    # ---- what both engines write alike -----------------------------------------------------
    def w_Const(self, e: N.Const) -> tuple[str, int]:
        if e.value is None:
            return "None", P_ATOM
        if isinstance(e.value, bool):
            return ("True" if e.value else "False"), P_ATOM
        return str(e.value), (P_ATOM if e.value >= 0 else P_UNARY)

    def w_Text(self, e: N.Text) -> tuple[str, int]:
        return repr(e.value), P_ATOM

    def w_Code(self, e: N.Code) -> tuple[str, int]:
        return e.text, e.prec

    def w_Local(self, e: N.Local) -> tuple[str, int]:
        return e.name, P_ATOM

    def w_Bound(self, e: N.Bound) -> tuple[str, int]:
        return f"({e.name} := {self.code(e.value, P_OR)})", P_ATOM

    def w_Field(self, e: N.Field) -> tuple[str, int]:
        return f"s.{e.attr}", P_ATOM

    def w_Global(self, e: N.Global) -> tuple[str, int]:
        return e.name, P_ATOM

    def w_Index(self, e: N.Index) -> tuple[str, int]:
        return f"{self.code(e.obj, P_ATOM)}[{self.code(e.index)}]", P_ATOM

    def w_ListOf(self, e: N.ListOf) -> tuple[str, int]:
        return "[" + self.args(e.items) + "]", P_ATOM

    def w_Shown(self, e: N.Shown) -> tuple[str, int]:
        return shown(e.value.type, self.code(e.value, P_ATOM), e.how, self.name), P_ADD

    def w_TextOf(self, e: N.TextOf) -> tuple[str, int]:
        if not e.parts:
            return "''", P_ATOM
        if len(e.parts) == 1:
            return self.write(e.parts[0])
        return joined([self.code(p, P_ADD) for p in e.parts], e.sep), P_ADD

    def w_Literal(self, e: N.Literal) -> tuple[str, int]:
        return literal(e.value), P_ATOM

    def w_Tuple(self, e: N.Tuple) -> tuple[str, int]:
        return ", ".join(self.code(item) for item in e.items), 0

    def w_Concat(self, e: N.Concat) -> tuple[str, int]:
        return f"[*{self.code(e.left)}, *{self.code(e.right)}]", P_ATOM

    def w_Projection(self, e: N.Projection) -> tuple[str, int]:
        return f"{self.code(e.grid, P_ATOM)}.translate({e.table})", P_ATOM

    def w_Span(self, e: N.Span) -> tuple[str, int]:
        return f"range({e.first}, {e.last + 1})", P_ATOM

    def w_LineCells(self, e: N.LineCells) -> tuple[str, int]:
        return (f"{self.name('ops.line_cells')}({self.code(e.index)}, {e.first}, {e.line_step}, {e.cell_step}, "
                f"{e.count}, {e.lines})"), P_ATOM

    def w_Upto(self, e: N.Upto) -> tuple[str, int]:
        return f"range({self.code(e.count)})", P_ATOM

    def w_Len(self, e: N.Len) -> tuple[str, int]:
        return f"len({self.code(e.coll)})", P_ATOM

    def w_ListCount(self, e: N.ListCount) -> tuple[str, int]:
        return f"{self.code(e.coll, P_ATOM)}.count({self.code(e.value)})", P_ATOM

    def w_Reduce(self, e: N.Reduce) -> tuple[str, int]:
        default = "" if e.func == "sum" else ", default=0"
        return f"{e.func}({self.code(e.coll)}{default})", P_ATOM

    def w_Not(self, e: N.Not) -> tuple[str, int]:
        return "not " + self.code(e.operand, P_NOT), P_NOT

    def w_Neg(self, e: N.Neg) -> tuple[str, int]:
        return "-" + self.code(e.operand, P_UNARY), P_UNARY

    def w_Binary(self, e: N.Binary) -> tuple[str, int]:
        held = _holds_any(e)
        if held is not None:  # count(empty_cells(G)) == 0: whether a cell holds it, not how many
            return self.holds(held.grid, held.value, e.op in ("!=", ">"))
        if e.op in ("and", "or"):
            prec = N.P_AND if e.op == "and" else P_OR
        elif e.op in N.COMPARISONS or e.op in ("in", "not in"):
            return f"{self.code(e.left, P_CMP + 1)} {e.op} {self.code(e.right, P_CMP + 1)}", P_CMP
        else:
            prec = P_ADD if e.op in ("+", "-") else P_MUL
        return f"{self.code(e.left, prec)} {e.op} {self.code(e.right, prec + 1)}", prec

    def w_Cond(self, e: N.Cond) -> tuple[str, int]:
        return f"{self.code(e.then, P_OR)} if {self.code(e.test, P_OR)} else {self.code(e.orelse, 0)}", 0

    def w_Call(self, e: N.Call) -> tuple[str, int]:
        return f"{N.FUNCTIONS[e.func][0]}({self.args(e.args)})", P_ATOM

    def w_Apply(self, e: N.Apply) -> tuple[str, int]:
        return f"{e.function}({', '.join(self.code(a, 0) for a in e.args)})", P_ATOM

    def w_Method(self, e: N.Method) -> tuple[str, int]:
        return f"s.{e.name}({self.args(e.args)})", P_ATOM

    def w_Distinct(self, e: N.Distinct) -> tuple[str, int]:
        return f"dict.fromkeys({self.code(e.coll)})", P_ATOM

    def w_Aggregate(self, e: N.Aggregate) -> tuple[str, int]:
        over_seats = self.over_seats(e)
        if over_seats is not None:
            return over_seats
        # list comprehensions: over the small collections of games they beat generators
        cond = f" if {self.code(e.cond)}" if e.cond is not None else ""
        gen = f"for {e.var} in {self.walked(e.source)}{cond}"
        elem = self.code(e.elem)
        if e.func == "count":
            return f"len([1 {gen}])", P_ATOM
        if e.func == "sum":
            return f"sum([{elem} {gen}])", P_ATOM
        if e.func in ("max", "min"):
            return f"{e.func}([{elem} {gen}], default=0)", P_ATOM
        if e.func in ("any", "all"):
            return (f"{e.func}({elem} {gen})" if e.lazy else f"{e.func}([{elem} {gen}])"), P_ATOM
        # argmin/argmax: the first element with the smallest (largest) key; -1 when none qualifies
        sign = "" if e.func == "argmin" else "-"
        return (f"min([({sign}({elem}), _i, {e.var}) for _i, {e.var} in enumerate({self.code(e.source)}){cond}], "
                f"default=(0, 0, -1))[2]"), P_ATOM

    @staticmethod
    def seat_slot(elem: N.Expr, var: str) -> str | None:
        """The counter per seat that ``elem`` is, read at the seat ``var`` (``c[p]``)."""
        if (isinstance(elem, N.Slot) and isinstance(elem.index, N.Local) and elem.index.name == var
                and isinstance(elem.bound, N.Field) and elem.bound.attr == "n"):
            return elem.counter
        return None

    def over_seats(self, e: N.Aggregate) -> tuple[str, int] | None:
        """An aggregate over the seats of a counter per seat, as one call on the counter's list:
        ``sum(c[p] for p in players)`` is ``sum(s.c_c)`` (never empty: no default), and
        ``any(c[p] > k for p in players)`` is ``max(s.c_c) > k`` (and the like for all, min, <
        and <=): the same value, no loop. None for any other aggregate."""
        seats = e.source
        if not (isinstance(seats, N.Upto) and isinstance(seats.count, N.Field) and seats.count.attr == "n"
                and e.cond is None):
            return None
        counter = self.seat_slot(e.elem, e.var)
        if counter is not None and e.func in ("sum", "max", "min"):
            return f"{e.func}(s.c_{counter})", P_ATOM
        test = e.elem
        if not (e.func in ("any", "all") and isinstance(test, N.Binary) and test.op in (">", ">=", "<", "<=")):
            return None
        counter = self.seat_slot(test.left, e.var)
        if counter is None or not names_known(test.right) or e.var in locals_in(test.right):
            return None
        pick = "max" if (test.op in (">", ">=")) == (e.func == "any") else "min"
        return f"{pick}(s.c_{counter}) {test.op} {self.code(test.right, P_CMP + 1)}", P_CMP

    def w_Number(self, e: N.Number) -> tuple[str, int]:
        return f"(1 if {self.code(e.operand, P_OR)} else 0)", P_ATOM

    def w_Element(self, e: N.Element) -> tuple[str, int]:
        return f"({self.code(e.code, P_ADD)} - 1)", P_ATOM

    # ---- the node kinds each engine writes its own way -------------------------------------
    def w_Helper(self, e: N.Helper) -> tuple[str, int]:
        if e.name == "ops.piece_owner":  # in place: a piece is never below none (-1), whose owner is -1
            return f"{self.code(e.args[0], P_MUL)} // {self.code(e.args[1], P_MUL + 1)}", P_MUL
        return f"{self.name(e.name)}({self.args(e.args)})", P_ATOM

    def w_Noted(self, e: N.Noted) -> tuple[str, int]:
        """A remembered ensure's read (compiler/passes/ensure_memo.py): the cell marked, then read."""
        return f"_noted(s._seen{e.memo}, {self.code(e.cell)}, {e.cells}, {self.code(e.read)})", P_ATOM

    def w_NotedEq(self, e: N.NotedEq) -> tuple[str, int]:  # the cell marked as compared with one code
        args = f"s._seen{e.memo}, {self.code(e.cell)}, {e.cells}, {self.code(e.left)}, {self.code(e.right)}, {e.shift}"
        return f"{'' if e.op == '==' else 'not '}_noted_eq({args})", P_ATOM if e.op == "==" else P_NOT

    def w_NotedScan(self, e: N.NotedScan) -> tuple[str, int]:  # the cell found, and what was looked for, kept
        return f"s._scanned{e.memo}({self.args((e.helper, *e.helper.args[1:]))})", P_ATOM

    def w_CellRead(self, e: N.CellRead) -> tuple[str, int]:
        return f"{self.code(e.grid, P_ATOM)}[{self.code(e.cell)}]", P_ATOM

    def w_NumberCell(self, e: N.NumberCell) -> tuple[str, int]:
        return f"{self.code(e.grid, P_ATOM)}[{self.code(e.cell)}]", P_ATOM

    def w_Slot(self, e: N.Slot) -> tuple[str, int]:
        return f"s.c_{e.counter}[{self.code(e.index)}]", P_ATOM

    def w_Column(self, e: N.Column) -> tuple[str, int]:
        return f"{e.column}[{self.code(e.item)}]", P_ATOM

    def w_Geometry(self, e: N.Geometry) -> tuple[str, int]:
        return f"{e.table}[{self.code(e.index)}]", P_ATOM

    def w_Table(self, e: N.Table) -> tuple[str, int]:
        return e.name, P_ATOM

    def w_Dimension(self, e: N.Dimension) -> tuple[str, int]:
        return e.name, P_ATOM

    def w_NeighbourList(self, e: N.NeighbourList) -> tuple[str, int]:
        return f"{self.name('ops.neighbours')}({e.table}, {e.degree}, {self.code(e.cell)})", P_ATOM

    def walked(self, source: N.Expr) -> str:
        """A source a loop or an aggregate walks (only reads): a cell's neighbours or leaps
        read from their table's tuples made once (``G_board__ADJ_AROUND``), with no list made;
        none (-1) still goes to ``ops.neighbours``, which says why it cannot be."""
        if isinstance(source, N.NeighbourList) and isinstance(source.cell, (N.Local, N.Const)):
            cell = self.code(source.cell)
            return (f"({source.table}_AROUND[{cell}] if {cell} >= 0 else "
                    f"{self.name('ops.neighbours')}({source.table}, {source.degree}, {cell}))")
        return self.code(source)

    def w_Neighbour(self, e: N.Neighbour) -> tuple[str, int]:
        steps = f", {self.code(e.steps)}" if e.steps is not None else ""
        return (f"{self.name('ops.neighbour')}({e.table}, {e.degree}, {self.code(e.cell)}, {self.code(e.direction)}"
                f"{steps})"), P_ATOM

    def w_Numbered(self, e: N.Numbered) -> tuple[str, int]:
        return f"{e.table}[{self.code(e.number)}]", P_ATOM

    def w_Houses(self, e: N.Houses) -> tuple[str, int]:
        return f"{self.name('ops.mancala_houses')}({self.code(e.seat)}, {e.width})", P_ATOM

    def w_Cells(self, e: N.Cells) -> tuple[str, int]:
        return f"{self.name('K.filled_cells' if e.filled else 'K.empty_cells')}({self.code(e.grid)})", P_ATOM

    def w_Slide(self, e: N.Slide) -> tuple[str, int]:
        if e.noted >= 0:  # a remembered ensure's walk: a reach's list is every cell it read
            if e.kind != "reach":
                raise ValueError("internal: a noted slide written as a kernel call")
            args = self.args((e.grid, e.table, N.Const(T.INT, 0, e.degree), e.cell, e.direction))
            return f"_noted_all(s._seen{e.noted}, {self.name('K.' + e.kind)}({args}))", P_ATOM
        args = self.args((e.grid, e.table, N.Const(T.INT, 0, e.degree), e.cell, e.direction))
        whole = f"{self.name('K.' + e.kind)}({args})"
        if e.empties is None:
            return whole, P_ATOM
        # the empty cells are elements only where the test on one may hold (blocker_walk.py)
        alone = f"{self.name('K.met')}({args})" if e.kind == "reach" else "()"
        return f"({whole} if {self.code(e.empties)} else {alone})", P_ATOM

    def w_Runs(self, e: N.Runs) -> tuple[str, int]:
        if e.bits is not None:  # the lines as bits: a few shifts of the cells as one number
            return f"{self.name('K.in_a_row_bits')}({self.args((e.grid, e.bits, e.code, e.length))})", P_ATOM
        args = self.args((e.grid, e.table, N.Const(T.INT, 0, e.degree), e.code, e.length))
        return f"{self.name('K.in_a_row')}({args})", P_ATOM

    def w_Joined(self, e: N.Joined) -> tuple[str, int]:
        args = self.args((e.grid, e.table, N.Const(T.INT, 0, e.degree), e.code, e.starts, e.goals))
        return f"{self.name('K.connected')}({args})", P_ATOM

    def w_Draw(self, e: N.Draw) -> tuple[str, int]:
        return self.logged(e, f"s.rng.below({self.code(e.bound)})")

    @staticmethod
    def logged(e: N.Draw, draw: str) -> tuple[str, int]:
        """A draw, from its lowest value (a die's face from 1), kept in the log as it is used."""
        value, prec = (f"{draw} + {e.low}", P_ADD) if e.low else (draw, P_ATOM)
        return (f"_rolled(s.rolls, {value})", P_ATOM) if e.logged else (value, prec)

    def w_CountValue(self, e: N.CountValue) -> tuple[str, int]:
        return f"{self.code(e.grid, P_ATOM)}.count({self.code(e.value)})", P_ATOM

    def holds(self, grid: N.Expr, value: N.Expr, present: bool) -> tuple[str, int]:
        """Whether some cell of a grid of elements holds the byte ``value`` (``present``), or
        none does: a search that stops at the first, where counting them all reads every cell."""
        return f"{self.code(value, P_CMP + 1)} {'in' if present else 'not in'} {self.code(grid, P_CMP + 1)}", P_CMP

    def w_Removal(self, e: N.Removal) -> tuple[str, int]:
        return f"{self.code(e.zone, P_ATOM)}.remove({self.code(e.item)})", P_ATOM

    def w_Append(self, e: N.Append) -> tuple[str, int]:
        return f"{self.code(e.zone, P_ATOM)}.append({self.code(e.item)})", P_ATOM

    # ---- statements ---------------------------------------------------------------------------
    def lines(self, block) -> list[str]:
        """The lines of a block of statements (compiler/ir/statements.py), each nested block
        indented once more."""
        out: list[str] = []
        for st in block:
            out.extend(getattr(self, "s_" + type(st).__name__)(st))
        return out

    def body(self, block, empty: str | None = "pass") -> list[str]:
        """A nested block, indented (``pass`` when it holds nothing)."""
        lines = self.lines(block) or ([empty] if empty else [])
        return ["    " + line for line in lines]

    def s_Comment(self, st: S.Comment) -> list[str]:
        return [st.text]

    def s_Line(self, st: S.Line) -> list[str]:
        return [st.text]

    def s_Assign(self, st: S.Assign) -> list[str]:
        note = f"  # {st.note}" if st.note else ""
        need = 0 if isinstance(st.target, N.Tuple) else P_OR  # several values unpacked at once
        return [f"{self.code(st.target, need)} {st.op} {self.code(st.value, need)}{note}"]

    def s_Eval(self, st: S.Eval) -> list[str]:
        return [self.code(st.value)]

    def s_Require(self, st: S.Require) -> list[str]:
        return [f"if not ({self.code(st.test)}):", f"    raise ValueError({st.message!r})"]

    def s_If(self, st: S.If) -> list[str]:
        out = []
        for i, (test, block) in enumerate(st.branches):
            out.append(f"{'if' if i == 0 else 'elif'} {self.code(test)}:")
            out += self.body(block)
        if st.orelse is not None:
            out += ["else:", *self.body(st.orelse)]
        return out

    def s_For(self, st: S.For) -> list[str]:
        # written once (natively an aggregate in the source becomes a helper method as it is written);
        # a cell's neighbours read from their tuple, no list made
        walked = f"list({self.code(st.source)})" if st.copy else self.walked(st.source)
        if not st.counted:
            return [f"for {st.var} in {walked}:", *self.body(st.body)]
        return [f"for {st.var} in s._loop({walked}):", *self.body(st.body)]

    def s_While(self, st: S.While) -> list[str]:
        return [f"while {self.code(st.test)}:", *self.body(st.body, None)]

    def s_Return(self, st: S.Return) -> list[str]:
        return ["return" if st.value is None else f"return {self.code(st.value, 0)}"]  # a conditional as it is

    def s_Shuffle(self, st: S.Shuffle) -> list[str]:
        return [f"s.rng.shuffle({self.code(st.zone)})"]

    def s_Wrote(self, st: S.Wrote) -> list[str]:  # only the native engine keeps a journal
        return [self.code(st.cell)] if st.landed else []

    def s_Try(self, st: S.Try) -> list[str]:
        return ["try:", *self.body(st.body), "finally:", *self.body(st.cleanup)]

    def s_Keep(self, st: S.Keep) -> list[str]:
        place = self.code(st.place, P_ATOM)
        if st.shape == "lists":
            return [f"{st.local} = [_p[:] for _p in {place}]"]
        return [f"{st.local} = {place}" + ("" if st.shape == "number" else "[:]")]

    def s_PutBack(self, st: S.PutBack) -> list[str]:
        place = self.code(st.place, P_ATOM)
        if st.shape == "lists":
            return [f"for _p, _k in zip({place}, {st.local}): _p[:] = _k"]
        return [f"{place}{'' if st.shape == 'number' else '[:]'} = {st.local}"]

    def w_StateCopy(self, e: N.StateCopy) -> tuple[str, int]:
        return "s.copy()", P_ATOM


#: the Python engine's writer (it keeps no state)
PYTHON = PythonWriter()


def python(e: N.Expr) -> tuple[str, int]:
    """(the Python of ``e``, its precedence)."""
    return PYTHON.write(e)
