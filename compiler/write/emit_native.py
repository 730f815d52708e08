"""The native engine's emitter: the typed IR written as Cython, in the C forms the native
template declares.

:class:`CythonWriter` walks the same trees as :class:`emit.PythonWriter` and overrides the node
kinds whose native form differs (``nodes.BACKEND_KINDS``): a runtime helper called at C level
(``_CK.chain``), through its C form (``_number``) or a C global bound once (``_ops_ray``); a
byte of a grid read in C; a counter per seat in the state's C array; a table's column or a
grid's geometry through its C array; the generator driven in C; a cell's neighbours walked in
their C table with no list; and an aggregate as a method of the state that walks its
collection once on C numbers (no list, no builtin called per aggregate).
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir.traverse import locals_in, walk
from ..ir import statements as S
from ..ir import types as T
from .emit import C_FORMS, K_FORMS, PythonWriter, runtime_call
from ..lower.grids import owns_table
from ..passes.walled_neighbours import walled
from .moves import holding_scan, span_walk
from . import xray
from ..ir.nodes import P_NOT, P_MUL, P_ATOM
from ..ir.traverse import over, rebuild


def c_type(ty: T.Type) -> str:
    """The C type a native engine keeps a value of this type in: a C long for the small whole
    numbers (numbers, players, enum members, table items, cells, lanes), a C int for a truth,
    else a Python object."""
    if ty.kind == "bool":
        return "bint"
    if ty.kind in ("int", "player", "enum", "item", "cell", "lane", "direction"):
        return "long"
    return "object"


class CythonWriter(PythonWriter):
    """The native engine's code of a tree: its C forms, declared by the native template."""

    native = True

    def __init__(self, bound: dict | None = None, helpers: list | None = None, helper_names: dict | None = None):
        #: the runtime helpers called through C globals (C global -> helper), for the module's head
        self.bound = bound if bound is not None else {}
        #: the aggregates' helper methods: (name, parameters, comment, body lines, C signature)
        self.helpers = helpers if helpers is not None else []
        #: per remembered ensure, the tests its walks ask of a piece put in a cell they passed (write/xray.py)
        self.xfills: dict[int, list] = {}
        self.helper_names = helper_names if helper_names is not None else {}  # (body, params, sig) -> name

    def name(self, qualified: str) -> str:
        return runtime_call(qualified, True, self.bound)

    def w_Helper(self, e: N.Helper) -> tuple[str, int]:
        module, name = e.name.split(".")
        if module == "ops" and e.c_form and name in C_FORMS:
            return f"{C_FORMS[name]}({self.args(e.args)})", P_ATOM
        if module == "K" and e.c_form and name in K_FORMS:
            return f"{K_FORMS[name]}({self.args(e.args)})", P_ATOM
        return super().w_Helper(e)

    def w_StateCopy(self, e: N.StateCopy) -> tuple[str, int]:
        return "s._copy()", P_ATOM  # the compiled state's own copy, a C call

    def s_Keep(self, st: S.Keep) -> list[str]:  # a counter per seat is a C array: its read is a copy
        return super().s_Keep(S.Keep(st.line, st.local, st.place, "number") if st.shape == "seats" else st)

    def s_PutBack(self, st: S.PutBack) -> list[str]:  # ... and its setter copies it back
        return super().s_PutBack(S.PutBack(st.line, st.local, st.place, "number") if st.shape == "seats" else st)

    def w_Distinct(self, e: N.Distinct) -> tuple[str, int]:
        return f"{self.name('K.distinct')}({self.code(e.coll)})", P_ATOM

    def w_Method(self, e: N.Method) -> tuple[str, int]:
        if e.name.startswith("_missed"):  # a remembered ensure's test of a write: a function of the module, inline
            return f"{e.name}({', '.join(['s', *(self.code(a, 0) for a in e.args)])})", P_ATOM
        return super().w_Method(e)

    def w_Apply(self, e: N.Apply) -> tuple[str, int]:
        if e.function == "s._spin" and not e.args:  # a while loop's round: counted in C, in place
            return "_spin(s)", P_ATOM
        return super().w_Apply(e)

    def w_CellRead(self, e: N.CellRead) -> tuple[str, int]:
        return f"_cell({self.code(e.grid)}, {self.code(e.cell)})", P_ATOM

    def w_Element(self, e: N.Element) -> tuple[str, int]:  # a code less one, with no overflow check
        return f"_element({self.code(e.code)})", P_ATOM

    def w_NumberCell(self, e: N.NumberCell) -> tuple[str, int]:
        # the cell's place in the array, read or written in C (``_number_at(g, c)[0] += 1``)
        return f"_number_at({self.code(e.grid)}, {self.code(e.cell)})[0]", P_ATOM

    def w_Slot(self, e: N.Slot) -> tuple[str, int]:
        return f"s.a_{e.counter}[_ix({self.code(e.index)}, {self.code(e.bound)})]", P_ATOM

    def w_Binary(self, e: N.Binary) -> tuple[str, int]:
        lane = e.left.args if isinstance(e.left, N.Helper) and e.left.name == "K.lane_count" else None
        if e.op in ("<", ">=") and lane and isinstance(lane[2], (N.Const, N.Dimension)) \
                and isinstance(e.right, (N.Const, N.Dimension)) and e.right.value == lane[2].value:
            # lane_count(G, l) < height: room in the lane, seen at its top cell (searched only when filled)
            test = f"_lane_open({self.args(lane)})"
            return ("not " + test, P_NOT) if e.op == ">=" else (test, P_ATOM)
        if e.op in ("in", "not in") and isinstance(e.right, N.Houses) and _seat_known(e.right.seat):
            # c in houses(G, p): two comparisons of C numbers, no range made
            first = f"_mancala_first({self.code(e.right.seat)}, {e.right.width})"
            test = f"{first} <= {self.code(e.left, N.P_ADD)} < {first} + {e.right.width}"
            return ("not (" + test + ")", P_NOT) if e.op == "not in" else (test, N.P_CMP)
        if e.op in ("in", "not in") and walled(e.right):
            # t in neighbours(G, c, walls): the cell's row of the C tables looked at, no list made
            adj, deg, places, walls, cell = e.right.args
            test = (f"_open_next_to(_p_{adj.name}, len(_v_{adj.name}), {self.code(deg)}, _p_{places.name}, "
                    f"{self.code(walls)}, {self.code(cell)}, {self.code(e.left)})")
            return ("not " + test, P_NOT) if e.op == "not in" else (test, P_ATOM)
        if e.op in ("in", "not in") and isinstance(e.right, N.NeighbourList):
            # t in neighbours(G, c): a look at c's row of the C table, no list made
            r = e.right
            test = f"_next_to(_p_{r.table}, len(_v_{r.table}), {r.degree}, {self.code(r.cell)}, {self.code(e.left)})"
            return ("not " + test, P_NOT) if e.op == "not in" else (test, P_ATOM)
        return super().w_Binary(e)

    def w_Index(self, e: N.Index) -> tuple[str, int]:
        items = e.obj.items if isinstance(e.obj, N.ListOf) else ()
        if 1 <= len(items) <= 8 and all(isinstance(i, N.Const) and type(i.value) is int for i in items) \
                and c_type(e.index.type) == "long":
            # a short list of whole numbers written out, indexed: picked in C, no list made
            values = [str(i.value) for i in items] + ["0"] * (8 - len(items))
            return f"_listed({self.code(e.index)}, {len(items)}, {', '.join(values)})", P_ATOM
        if e.obj.type.kind == "marks":  # a search's marks (bytes): a byte read in C
            return f"_mark_at({self.code(e.obj)}, {self.code(e.index)})", P_ATOM
        return super().w_Index(e)

    def w_Column(self, e: N.Column) -> tuple[str, int]:
        return (f"_v_{e.column}[{self.code(e.item)}]" if e.c_array else f"{e.column}[{self.code(e.item)}]"), P_ATOM

    def w_Geometry(self, e: N.Geometry) -> tuple[str, int]:
        return f"_v_{e.table}[{self.code(e.index)}]", P_ATOM

    def w_Table(self, e: N.Table) -> tuple[str, int]:
        return f"_t_{e.name}", P_ATOM

    def w_Dimension(self, e: N.Dimension) -> tuple[str, int]:
        return str(e.value), P_ATOM

    def walked(self, source: N.Expr) -> str:  # natively a loop reads the table in C (its helpers)
        return self.code(source)

    def w_NeighbourList(self, e: N.NeighbourList) -> tuple[str, int]:
        return f"_neighbour_list(_v_{e.table}, {e.degree}, {self.code(e.cell)})", P_ATOM

    def w_Neighbour(self, e: N.Neighbour) -> tuple[str, int]:
        if e.steps is not None:
            return (f"_neighbour_steps(_p_{e.table}, len(_v_{e.table}), {e.degree}, {self.code(e.cell)}, "
                    f"{self.code(e.direction)}, {self.code(e.steps)})"), P_ATOM
        return f"_neighbour(_p_{e.table}, len(_v_{e.table}), {e.degree}, {self.code(e.cell)}, {self.code(e.direction)})", P_ATOM

    def w_Numbered(self, e: N.Numbered) -> tuple[str, int]:
        # a C table of the cells by number (the dict says what is not one)
        return f"_cell_by_number(_n_{e.table}, {e.table}, {self.code(e.number)})", P_ATOM

    def w_LineCells(self, e: N.LineCells) -> tuple[str, int]:
        # a range of C numbers (a C loop); the index is read twice (the pass made it of names,
        # numbers, + - and *: nothing that draws, fails or costs)
        at, head = self.code(e.index), f"{e.lines}, {e.first}, {e.line_step}"
        return (f"range(_line_first({at}, {head}), _line_end({at}, {head}, {e.count * e.cell_step}), "
                f"{e.cell_step})"), P_ATOM

    def w_Houses(self, e: N.Houses) -> tuple[str, int]:
        if _seat_known(e.seat):
            # a range of C numbers, from the C form (the seat computed once: a name or a number)
            first = f"_mancala_first({self.code(e.seat)}, {e.width})"
            return f"range({first}, {first} + {e.width})", P_ATOM
        return super().w_Houses(e)

    def w_Runs(self, e: N.Runs) -> tuple[str, int]:
        # only the lines through the cells that changed since it last failed are looked at
        if e.bits is not None:
            return super().w_Runs(e)
        if e.journal:  # the cells written since it last failed, from the journal (passes/cells_written.py)
            return (f"s._lines_since({self.code(e.grid)}, {e.memo}, {e.memo_size}, {self.code(e.table)}, {e.degree}, "
                    f"{self.code(e.code)}, {self.code(e.length)})"), P_ATOM
        return self.remembered(e, "K.in_a_row_since", (e.length,)) or super().w_Runs(e)

    def w_Joined(self, e: N.Joined) -> tuple[str, int]:
        # only the cells that gained the value since the last call are flooded from
        return self.remembered(e, "K.connected_since", (e.starts, e.goals)) or super().w_Joined(e)

    def remembered(self, e: N.Runs | N.Joined, kernel: str, rest: tuple) -> tuple[str, int] | None:
        """The call of a query's kernel that keeps its memo in the state (``s._memo_k``, made by
        ``s._memo(k, size)`` when first needed), given after the grid; None when the query keeps
        none."""
        if e.memo is None:
            return None
        field = f"s._memo_{e.memo}"
        memo = N.Code(T.ANY, 0, f"({field} if {field} is not None else s._memo({e.memo}, {e.memo_size}))", P_ATOM)
        args = self.args((e.grid, memo, e.table, N.Const(T.INT, 0, e.degree), e.code, *rest))
        return f"{self.name(kernel)}({args})", P_ATOM

    def w_Draw(self, e: N.Draw) -> tuple[str, int]:  # the generator driven in C
        return self.logged(e, f"_rng_below(s.rng, {self.code(e.bound)})")

    def holds(self, grid: N.Expr, value: N.Expr, present: bool) -> tuple[str, int]:  # the C library's search
        found = f"_has_byte({self.code(grid)}, {self.code(value)})"
        return (found, P_ATOM) if present else (f"not {found}", P_NOT)

    def w_CountValue(self, e: N.CountValue) -> tuple[str, int]:
        return f"{self.name('K.count_byte')}({self.code(e.grid)}, {self.code(e.value)})", P_ATOM

    def w_Removal(self, e: N.Removal) -> tuple[str, int]:  # a C call, not a method lookup on a list
        return f"{self.name('K.remove_value')}({self.code(e.zone)}, {self.code(e.item)})", P_ATOM

    def s_For(self, st: S.For) -> list[str]:
        source = st.source
        count = _range_size(source)
        if count is not None:  # a range of known size (the seats, a span): counted, then a C loop
            return [f"s._walk({count})", f"for {st.var} in {self.code(source)}:", *self.body(st.body)]
        if not (isinstance(source, N.NeighbourList) and st.walk):
            return super().s_For(st)
        # the neighbours' table walked in C: no list
        around, d = st.walk
        table, deg, var = f"_v_{source.table}", source.degree, st.var
        return [f"{around} = {self.code(source.cell)}",
                f"if {around} < 0: raise ValueError('there is no cell here (none) to look around')",
                f"for {d} in range({deg}):",
                f"    {var} = {table}[{around} * {deg} + {d}]",
                f"    if {var} < 0:",
                "        continue",
                "    s._walk(1)", *self.body(st.body)]

    def s_Assign(self, st: S.Assign) -> list[str]:
        """A grid of elements read once into a local is typed a bytearray for Cython (it infers
        the local's type from ``_as_bytearray``), so that each cell read or written on it is a C
        access."""
        value = st.value
        one_seat = isinstance(value, N.Index) and _byte_grid(value.obj, value.type)  # grid[me]
        if st.note == "read once" and (_byte_grid(value) or one_seat):  # a shared grid, or one seat's
            return [f"{self.code(st.target)} = _as_bytearray({self.code(st.value)})  # read once, a bytearray"]
        if st.note == "read once" and _number_grid(value):  # its cells C numbers, no type test per cell
            return [f"{self.code(st.target)} = _as_numbers({self.code(st.value)})  # read once, an array of C numbers"]
        return super().s_Assign(st)

    def s_Wrote(self, st: S.Wrote) -> list[str]:
        """A note in the state's journal of written cells (compiler/passes/cells_written.py)."""
        if st.cell is None:
            return ["s._jseq += 17  # the grid may have changed anywhere: the journal no longer tells"]
        if st.landed:
            return [f"s._jot_landed({self.code(st.cell)})  # the cell it landed in, noted"]
        return [f"s._jot({self.code(st.cell)})  # the cell written, noted"]

    def s_Shuffle(self, st: S.Shuffle) -> list[str]:  # the shuffle kernel on the generator's state, in C
        return [f"s.rng.state = {self.name('K.shuffle')}({self.code(st.zone)}, s.rng.state)"]

    # ---- aggregates: a method of the state each ---------------------------------------------
    def w_Aggregate(self, e: N.Aggregate) -> tuple[str, int]:
        """The aggregate as a function of the module that walks the collection once, given the
        state and the names of the place it stands in (``e.params``), its numbers typed for
        Cython: a direct C call the C compiler may inline, not a method found through the
        class's table of methods. Where
        random numbers may be drawn every element is evaluated, as the list comprehension of the
        Python engine does (the same draws); elsewhere any/all stop at the first element that
        decides (``e.lazy``), as the Python engine's generator does. In a display function it
        is the Python engine's comprehension."""
        if e.display:
            return super().w_Aggregate(e)
        grids: dict[str, str] = {}  # the state's grids it reads, each once into a local: name -> C type
        decls: dict[str, list[str]] = {"long": [], "bint": [], "bytearray": [], "_numbers_t": [], "const unsigned char": [],
                                       "unsigned long long": [], "Py_ssize_t": []}

        arrays: dict[str, int] = {}  # the C arrays among them: name -> length

        def declare(ctype: str, *names: str, length: int = 0) -> None:
            if ctype != "object":
                decls[ctype].extend(f"{n}[{length}]" if length else n for n in names)
                arrays.update((n, length) for n in names if length)
        bytes_read: set[str] = set()  # the grids whose bytes a walk of their own tables reads unchecked
        walk, result = self.aggregate_walk(e, grids, declare, "", bytes_read)
        for attr, ctype in grids.items():
            declare(ctype, "_" + attr)
        lines = [f"_{attr} = s.{attr}" for attr in grids] + [f"_p_{attr} = _bytes_of(_{attr})" for attr in bytes_read]
        lines += walk + [f"return {result}"]
        decls["const unsigned char"] = [f"*_p_{attr}" for attr in bytes_read]
        params = [name for name, _ty in e.params]
        # typed parameters, result and locals (whole numbers as C longs, truths as C ints), so
        # that the loop runs on C numbers
        sig = ([c_type(ty) if ty is not None else "object" for _name, ty in e.params], c_type(e.type),
               [f"cdef {t} {', '.join(dict.fromkeys(ns))}" for t, ns in decls.items() if ns],
               # the C arrays as lists where the code is verified as Python
               [f"{n} = [0] * {length}" for n, length in arrays.items()])
        key = (tuple(lines), tuple(params), repr(sig))
        name = self.helper_names.get(key)
        if name is None:
            name = f"_agg_{len(self.helpers)}_{e.func}"
            self.helper_names[key] = name
            self.helpers.append((name, params, e.note, lines, sig))
        return f"{name}({', '.join(['s', *params])})", P_ATOM

    def aggregate_walk(self, e: N.Aggregate, grids: dict, declare, sfx: str,
                       bytes_read: set) -> tuple[list[str], str]:
        """The lines that walk an aggregate's collection once and the name of its result. An
        aggregate whose every element is itself an aggregate (``any(any(... for y in reach(G, x,
        d)) for d in directions(G))``: a slide scan per direction) walks the inner one in place,
        its locals suffixed (``sfx``), instead of calling a method per element."""
        spans = holding_scan(e.source)  # the cells holding pieces: found in the grid's bytes, no list
        raw_test = e.source.xray if isinstance(e.source, N.Slide) else None  # (as the rules read it: write/xray.py)
        e = rebuild(e, lambda value: _grid_locals(value, grids))  # each grid read once, before the walk
        var = e.var
        walked = _walked_grid(e.source, grids)
        if walked is not None:  # its cells met by the walk: read with no check
            bytes_read.add(walked)
            e = rebuild(e, lambda value: _cells_met(value, walked, var))
        inner = e.elem
        if isinstance(inner, N.Aggregate) and not inner.display and inner.var != var:
            inner_walk, elem = self.aggregate_walk(inner, grids, declare, sfx + "1", bytes_read)
        else:
            inner_walk, elem = [], self.code(e.elem)
        hoisted, test = _hoisted_source(e, sfx)
        cond = self.code(test) if test is not None else ""
        elem_type = e.source.type.elem or T.ANY
        value = c_type(e.elem.type)  # the C type of one element's value (max, min, argmin, argmax)
        start, step, result = self.fold(e, elem, declare, value, elem_type, sfx)
        if hoisted is not None:  # the condition's collection, the same for every element: made once
            start = [f"{hoisted[0]} = {self.code(hoisted[1])}"] + start
        step = inner_walk + step
        source = e.source
        src = "" if isinstance(source, N.Slide) else self.code(source)  # a slide is walked below, no list
        if isinstance(source, N.Cells) and source.walkable:  # the grid's cells walked in place: no list
            grid = self.code(source.grid)
            test = f"{self.code(N.CellRead(T.INT, 0, source.grid, N.Local(T.INT, 0, var)))} {'!=' if source.filled else '=='} 0"
            src, cond = f"range(len({grid}))", f"{test} and ({cond})" if cond else test
        body = [f"for {var} in {src}:"]
        if isinstance(source, N.NeighbourList):  # the neighbours' table read in C: no list either
            table, deg, cell = source.table, source.degree, self.code(source.cell, P_MUL + 1)
            declare("long", "_d" + sfx)
            start = start + [f"if {cell} < 0 or ({cell} + 1) * {deg} > len(_v_{table}): "
                             "raise ValueError('there is no cell here (none) to look around')"]
            body = [f"for _d{sfx} in range({deg}):", f"    {var} = _table_at(_p_{table}, {cell}, {deg}, _d{sfx})"]
            cond = f"{var} >= 0 and ({cond})" if cond else f"{var} >= 0"
        if isinstance(source, N.Slide):  # a slide (or reach) followed in C along its direction
            start, body = start + self.walk_head(source, var, declare, "_from" + sfx, "_steps" + sfx), []
        each = [f"if {cond}:"] + ["    " + line for line in step] if cond else step
        if spans:  # from cell to cell found in C (as a move generator's CellScan)
            low, high = "_lo" + sfx, "_hi" + sfx
            declare("long", low, high)
            args = ", ".join(self.code(a) for a in source.args[1:])
            start = start + [f"{low} = _holding_low({args})", f"{high} = _holding_high({args})"]
            bits = "_bits" + sfx
            declare("unsigned long long", bits, length=64)
            declare("Py_ssize_t", "_n" + bits)
            body = span_walk(var, self.code(source.args[0]), low, high, each, bits)
        else:
            body += ["    " + line for line in each]
        if isinstance(source, N.Slide):
            body = self.walk_body(source, var, body, "_from" + sfx, "_steps" + sfx,
                                  walked if walked in bytes_read else None)
            if source.xray is not None and source.noted >= 0:  # what the memo notes past it, and before (write/xray.py)
                body += xray.tail(self, source, var, result, "_from" + sfx, "_steps" + sfx,
                                  walked if walked in bytes_read else None, raw_test)
        declare(c_type(elem_type), var)
        return start + body, result

    @staticmethod
    def fold(e: N.Aggregate, elem: str, declare, value: str, elem_type: T.Type,
             sfx: str = "") -> tuple[list, list, str]:
        """The lines before the walk, the step for each element that qualifies, and the result
        (its locals suffixed by ``sfx``)."""
        f = e.func
        n, ok, none, best, v, found = (name + sfx for name in ("_n", "_ok", "_none", "_best", "_v", "_found"))
        if f == "count":
            declare("long", n)
            return [f"{n} = 0"], [f"{n} += 1"], n
        if f == "sum":
            declare("long", n)
            return [f"{n} = 0"], [f"{n} += {elem}"], n
        if f in ("max", "min"):  # 0 when there is no element
            declare("bint", none)
            declare(value, best, v)
            return ([f"{none} = True", f"{best} = 0"],
                    [f"{v} = {elem}", f"if {none} or {v} {'>' if f == 'max' else '<'} {best}:", f"    {none} = False",
                     f"    {best} = {v}"], best)
        if f in ("any", "all"):
            declare("bint", ok)
            step = [f"if {'not ' if f == 'all' else ''}({elem}):", f"    {ok} = {f != 'all'}"]
            if e.lazy:  # nothing drawn: stop at the first element that decides, as any() does
                step.append("    break")
            return [f"{ok} = {f == 'all'}"], step, ok
        # argmin/argmax: the first element with the smallest (largest) key; -1 when none
        sign = "" if f == "argmin" else "-"
        declare("bint", none)
        declare(value, best, v)
        declare(c_type(elem_type), found)
        return ([f"{none} = True", f"{best} = 0", f"{found} = -1"],
                [f"{v} = {sign}({elem})", f"if {none} or {v} < {best}:", f"    {none} = False", f"    {best} = {v}",
                 f"    {found} = {e.var}"], found)

    def walk_head(self, walk: N.Slide, var: str, declare, start: str = "_from", steps: str = "_steps") -> list[str]:
        """The start of a walk along a slide (``slide``: the empty cells from c in direction d;
        ``reach``: and the first filled cell met): the first cell, no list. ``start`` and
        ``steps``: the walk's own locals (a move generator's walks, one per level, each have theirs)."""
        d, deg, cells = self.code(walk.direction, P_MUL), walk.degree, walk.cells  # an operand of + and <
        declare("long", start, steps)
        head = [f"{start} = {self.code(walk.cell)}",
                f"if {start} < 0 or {start} >= {cells}: raise ValueError('there is no cell here (none) to slide from')",
                f"if {d} < 0 or {d} >= {deg}: raise IndexError('no such direction')", f"{steps} = 0",
                f"{var} = _table_at(_p_{walk.table.name}, {start}, {deg}, {d})"]  # both checked: no check
        if walk.empties is not None:  # whether its empty cells are elements, once per walk (blocker_walk.py)
            declare("bint", steps + "_all", steps + "_full")
            head.append(f"{steps}_all = {self.code(walk.empties)}")
        if walk.xray is not None and walk.noted >= 0:  # (write/xray.py: what stopped the walk, its mark before)
            declare("bint", steps + "_xok")
            declare("long", steps + "_prev", steps + "_xb", steps + "_y", steps + "_i")
            head += [f"{steps}_full = False", f"{steps}_prev = 0"]
        return head

    def walk_body(self, walk: N.Slide, var: str, body: list[str], start: str = "_from",
                  steps: str = "_steps", unchecked: str | None = None) -> list[str]:
        """The loop of a walk: ``body`` (the step, indented once) for each cell met, then the
        next cell; a slide stops before a filled cell, a reach after it, both at the edge.
        ``unchecked``: the grid whose bytes the method reads with no check (``_p_g_board``)."""
        d, deg = self.code(walk.direction, P_MUL), walk.degree
        filled = f"{self.code(N.CellRead(T.INT, 0, walk.grid, N.Local(T.INT, 0, var)))} != 0"
        if unchecked is not None:
            filled = f"_p_{unchecked}[{var}] != 0"
        if walk.noted >= 0 and walk.xray is not None:  # a filled cell noted as read; the empty ones after the walk
            filled = f"_noted_full(s._seen{walk.noted}, {var}, {walk.cells}, {filled})"
        elif walk.noted >= 0:  # in a remembered ensure's twin: the cell is noted as read
            filled = f"_noted(s._seen{walk.noted}, {var}, {walk.cells}, {filled})"
        out = [f"while {var} >= 0 and {var} != {start} and {steps} < {walk.cells}:"]
        if walk.empties is not None:  # an empty cell is an element only where walk_head's test says so
            full = f"{steps}_full"
            if walk.xray is not None and walk.noted >= 0:  # the cell's mark before this walk read it
                out.append(f"    {steps}_prev = s._seen{walk.noted}[{var}]")
            out += [f"    {full} = {filled}", f"    {steps} += 1"]
            if walk.kind == "slide":
                out += [f"    if {full}: break", f"    if {steps}_all:"] + ["    " + line for line in body]
            else:
                out += [f"    if {steps}_all or {full}:"] + ["    " + line for line in body] + [f"    if {full}: break"]
            return out + [f"    {var} = _table_at(_p_{walk.table.name}, {var}, {deg}, {d})"]
        if walk.kind == "slide":
            out.append(f"    if {filled}: break")
        out += [f"    {steps} += 1"] + body
        if walk.kind == "reach":
            out.append(f"    if {filled}: break")
        return out + [f"    {var} = _table_at(_p_{walk.table.name}, {var}, {deg}, {d})"]  # a cell from the table


def history_key(parts: str, grids: list, counters: list) -> list[str] | None:
    """The lines that compute, in C, the key ``K.position_key`` makes of a position's places
    (``repeated(board, passant, short, me)``: ``parts`` as the lowering wrote them), into
    ``_h``: a grid of pieces its bytes, a grid of numbers and a counter per seat their length
    then each number, a counter its number, as the kernel reads their Python values, with none
    made. None when a place is of another kind (a zone, one grid per seat): the kernel then."""
    lines = []
    for part in parts.split(", "):
        attr = part[2:] if part.startswith("s.") else ""
        grid = next((g for g in grids if g.attr == attr and not g.per), None)
        counter = next((c for c in counters if c.attr == attr), None)
        if grid is not None and not grid.numbers:
            lines.append(f"_h = _fnv_bytes(_h, {part})")
        elif grid is not None:
            lines += [f"_h = _fnv_int(_h, len({part}))", f"for _i in range(len({part})):",
                      f"    _h = _fnv_int(_h, _number_at({part}, _i)[0])"]
        elif counter is not None and not counter.per:
            lines.append(f"_h = _fnv_int(_h, {part})")
        elif counter is not None:
            size = ("s.n" if counter.per == "player" else str(counter.per)) + (f" * {counter.per2}" if counter.per2 else "")
            lines += [f"_h = _fnv_int(_h, {size})", f"for _i in range({size}):",
                      f"    _h = _fnv_int(_h, s.a_{counter.name}[_i])"]
        else:
            return None
    return lines


def _seat_known(seat: N.Expr) -> bool:
    """Whether a seat's houses are written as a C range: the seat a name or a number of a seat
    (computed once, so read twice freely)."""
    return isinstance(seat, N.Local) or isinstance(seat, N.Const) and seat.value >= 0


def _range_size(source) -> str | None:
    """How many numbers a loop's range walks, when that is known without computing it twice: a
    span's, or the seats' (``range(s.n)``); else None."""
    if isinstance(source, N.Span):
        return str(max(source.last - source.first + 1, 0))
    if isinstance(source, N.Upto) and isinstance(source.count, N.Field) and source.count.attr == "n":
        return "s.n"
    if isinstance(source, N.Upto) and isinstance(source.count, N.Const) and isinstance(source.count.value, int):
        return str(max(source.count.value, 0))
    if isinstance(source, N.Houses) and _seat_known(source.seat):
        return str(source.width)  # a seat's houses: the C range w_Houses writes
    return None


def _walked_grid(source, grids: dict) -> str | None:
    """The grid among ``grids`` (the aggregate's, ``g_board``) whose own table it walks (a slide
    or reach of it; its neighbours or leaps), so that every cell the walk meets is one of its
    cells; else None."""
    if isinstance(source, N.Slide) and isinstance(source.grid, N.Local):
        attr = source.grid.name[1:]  # the grid's local, _g_board
        return attr if grids.get(attr) == "bytearray" else None
    if isinstance(source, N.NeighbourList):  # its table is named after the grid: G_board__ADJ
        return next((attr for attr, ctype in grids.items() if ctype == "bytearray" and owns_table(attr, source.table)),
                    None)
    return None


def _cells_met(value, attr: str, var: str):
    """``value`` with each read of grid ``attr`` at the walk's cell ``var`` read from its bytes
    (``_p_g_board[y_]``): the cell comes from the grid's own table, so it is one of its cells.
    An aggregate inside walks cells of its own."""
    if isinstance(value, N.Aggregate):
        return value
    if isinstance(value, N.CellRead) and isinstance(value.grid, N.Local) and value.grid.name == "_" + attr \
            and isinstance(value.cell, N.Local) and value.cell.name == var:
        return N.Code(value.type, 0, f"_p_{attr}[{var}]", P_ATOM)
    return over(value, lambda inner: _cells_met(inner, attr, var))


def _byte_grid(value, ty: T.Type | None = None) -> bool:
    """Whether ``value`` is a grid of elements of the state (``s.g_board``): a bytearray. With
    ``ty``, the type of one seat's part of it (``s.g_hand[me]``) is the one looked at."""
    ty = ty or getattr(value, "type", None)
    return isinstance(value, N.Field) and ty.kind == "grid" and value.attr.startswith("g_") \
        and (ty.elem is None or ty.elem.kind != "int")


def _number_grid(value) -> bool:
    """Whether ``value`` is a grid of numbers of the state shared by the seats (``s.g_pits``): an
    array of C long longs (one grid per seat is a list of them)."""
    ty = getattr(value, "type", None)
    return isinstance(value, N.Field) and value.attr.startswith("g_") and ty.kind == "grid" \
        and ty.elem is not None and ty.elem.kind == "int" and not getattr(ty, "per", None)


def _grid_locals(value, grids: dict):
    """``value`` with the state's grids (``s.g_board``) read from locals of the aggregate's
    method (``_g_board``, a typed bytearray, or an array of C numbers for a grid of numbers read
    cell by cell, taken once: no attribute read and no reference count per cell); an aggregate
    inside is a method of its own and reads its own."""
    if isinstance(value, N.Aggregate):
        return value
    if _byte_grid(value):
        grids[value.attr] = "bytearray"
        return N.Local(value.type, 0, "_" + value.attr)
    if isinstance(value, N.NumberCell) and isinstance(value.grid, N.Field) and value.grid.attr.startswith("g_"):
        grids[value.grid.attr] = "_numbers_t"  # (one seat's grid is read through its list: left as it is)
        return attrs.evolve(value, grid=N.Local(value.grid.type, 0, "_" + value.grid.attr),
                            cell=_grid_locals(value.cell, grids))
    return over(value, lambda inner: _grid_locals(inner, grids))


def _hoisted_source(e: N.Aggregate, sfx: str) -> tuple[tuple | None, N.Expr | None]:
    """Loop-invariant hoisting of an aggregate's condition that is itself an aggregate over a
    collection that does not depend on the element (``count(s for s in side where any(... for x
    in chain(board, c)))``: the chain is the same for every side). The collection is made once
    before the walk, into ``_src`` (passed to the condition's method), where that is plainly the
    same: the walk has elements (so the condition was evaluated at least once), the collection
    draws nothing and reads nothing the walk binds, and it is a list to make (a neighbours' table
    or a slide is walked in C without one). Returns ((local, collection) or None, the condition)."""
    inner = e.cond
    if not (isinstance(inner, N.Aggregate) and not inner.display and _has_elements(e.source)):
        return None, inner
    source = inner.source
    if isinstance(source, (N.NeighbourList, N.Slide, N.Cells, N.Upto, N.Span, N.Local, N.Const)) \
            or e.var in locals_in(source) or any(isinstance(n, (N.Draw, N.Code)) for n in walk(source)):
        return None, inner
    name = "_src" + sfx
    return (name, source), attrs.evolve(inner, source=N.Local(source.type, 0, name),
                                        params=(*inner.params, (name, None)))


def _has_elements(source: N.Expr) -> bool:
    """Whether a collection has an element whatever the state (a range of members or numbers)."""
    if isinstance(source, N.Upto):
        return isinstance(source.count, N.Const) and source.count.value > 0
    if isinstance(source, N.Span):
        return source.first <= source.last
    return isinstance(source, N.ListOf) and len(source.items) > 0
