"""Move generators as statement nodes, and the ways of writing them.

A step's legal-move method is a block of the statement IR (compiler/ir/statements.py) with the
node kinds below: guards and loops over an action's parameters, a hoisted loop source, one
move added, moves made all at once (by a kernel, or a comprehension), the check of the list's
size. The lowering builds them (lower/actions.py); ``move_lines`` writes the method that
returns a list of moves (each engine by its own writer), ``keyed_moves`` the native method
that fills the state's buffer of keys (C numbers) instead, so that a random playout makes only
the move it picks. Both walk the same nodes; neither reads the text of a line.
"""
from __future__ import annotations

from math import prod

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..lower.grids import owns_table
from ..ir.traverse import over
from ..ir import types as T
from ..passes.directions import Directions, at_step

#: packed keys: the action in the low 8 bits, then each argument in 27 bits (from -2**26), or,
#: for an action of three arguments, in 18 bits (from -2**17)
KEY_TAGS = 256

#: the most moves an action's table of shared tuples holds in a Python engine (two arguments of
#: a board of 64 cells; past it the tuples are made as the moves are listed)
MOVE_TABLE_LIMIT = 4096


def holding_scan(src: N.Expr) -> bool:
    """Whether a loop over ``src`` may walk a grid's bytes for a span of them: the cells of a
    state's grid of elements holding one value (a grid of values: 256 kinds or more, of any
    owner), or an owner's pieces, or one kind of an owner's (``K.cells_holding``; a kind of any
    owner on a grid of pieces is not one span, and keeps the kernel's list)."""
    if not (isinstance(src, N.Helper) and src.name == "K.cells_holding"):
        return False
    grid, kinds, kind, owner = src.args
    any_owner = isinstance(owner, N.Const) and owner.value == -2
    any_kind = isinstance(kind, N.Const) and kind.value == -2
    one_value = isinstance(kinds, N.Const) and kinds.value >= 256  # holding_low: one byte, kind + 1
    return isinstance(grid, N.Field) and grid.attr.startswith("g_") and (any_kind or not any_owner or one_value)


def span_walk(var: str, grid: str, low: str, high: str, body: list[str], bits: str = "") -> list[str]:
    """A native walk of the cells of ``grid`` whose byte is in the span ``low``..``high``, from
    cell to cell found in C (``_next_in_span``), no list: ``var`` each in turn, ``body``
    indented under it (a ``break`` in it ends the walk). With ``bits`` (the name of a C array
    of 64 words declared by the caller, and of its count ``_n`` + bits), the cells are taken as
    bits first, the grid read once eight cells at a time, then walked from bit to bit
    (``span_bit_decls``): for a walk whose body changes nothing it walks (a move generator, an
    aggregate), the same cells in the same order."""
    if bits:
        return [f"_n{bits} = _span_bits({grid}, {low}, {high}, {bits})  # the cells it walks, as bits",
                f"{var} = _bits_after({bits}, _n{bits}, -1)", f"while {var} >= 0:",
                *("    " + line for line in body), f"    {var} = _bits_after({bits}, _n{bits}, {var})"]
    return [f"{var} = _next_in_span({grid}, 0, {low}, {high})", f"while {var} >= 0:",
            *("    " + line for line in body), f"    {var} = _next_in_span({grid}, {var} + 1, {low}, {high})"]


def span_bit_decls(bits: str) -> list[str]:
    """The C declarations a walk by ``bits`` needs (span_walk)."""
    return [f"cdef unsigned long long {bits}[64]  # the cells a walk takes, as bits (a grid has 4,096 at most)",
            f"cdef Py_ssize_t _n{bits}"]


# ---- node kinds -------------------------------------------------------------------------------
# A guard or a loop built with ``body=None`` opens: everything after it in the generator's
# order goes inside it (``nest`` makes the tree).
@attrs.frozen
class Guard(S.Stmt):
    """``if test:``: a require of the action's guards (or its ensure's trial)."""
    test: N.Expr
    body: tuple | None = None


@attrs.frozen
class Scan(S.Stmt):
    """``for names in source:``: a parameter's values (``names``: one variable, or ``a_, b_``)."""
    names: str
    source: N.Expr
    body: tuple | None = None
    #: the body runs for each value: a read there is made many times (compiler/passes/reads.py)
    repeated = ("body",)


@attrs.frozen
class WalledScan(S.Stmt):
    """A parameter over the neighbours no wall of bytes separates from a cell
    (``K.open_neighbours``, compiler/passes/walled_neighbours.py): natively the cell's row of the
    neighbours' table walked in C (``at``: where it begins, ``step``: the entry), each taken
    when no wall stands across it; in Python the kernel's list."""
    var: str
    cells: N.Expr  # the K.open_neighbours helper: (table, degree, wall places, walls, cell)
    at: str
    step: str
    body: tuple | None = None
    #: the body runs for each neighbour: a read there is made many times (compiler/passes/reads.py)
    repeated = ("body",)


@attrs.frozen
class PairScan(S.Stmt):
    """A pair parameter's loop over ``source``, the distinct pairs of ``values``; natively, with
    ``values`` known (not hoisted), the pairs go through a C array when keys are packed."""
    a: str
    b: str
    source: N.Expr
    values: N.Expr | None
    body: tuple | None = None
    #: the body runs for each value: a read there is made many times (compiler/passes/reads.py)
    repeated = ("body",)


@attrs.frozen
class CellScan(S.Stmt):
    """A parameter over a grid's empty (filled) cells, or over those holding a piece, a kind of
    an owner or an owner's pieces (``K.cells_holding``): natively walked on the grid's bytes
    (its size, then each cell's byte tested, between ``low`` and ``high`` for the holding ones,
    the method's locals), no list made; in Python the kernel's list."""
    var: str
    cells: N.Expr  # N.Cells, or the K.cells_holding helper of a grid of elements
    body: tuple | None = None
    low: str = ""
    high: str = ""
    #: natively the grid is read at every step of the walk, and the body runs at each (compiler/passes/reads.py)
    repeated = ("cells", "body")


@attrs.frozen
class NeighbourScan(S.Stmt):
    """A parameter over a cell's neighbours (leaps), or several such lists joined: natively
    walked on their C tables in turn (``d``: the walk's own local), no list made; in Python the
    list."""
    var: str
    cells: N.Expr  # N.NeighbourList, or N.Concat of them
    d: str
    body: tuple | None = None
    #: the directions walked, a local filled before the loops (compiler/passes/directions.py), or all
    dirs: str = ""
    #: the body runs for each value: a read there is made many times (compiler/passes/reads.py)
    repeated = ("body",)


@attrs.frozen
class ItemScan(S.Stmt):
    """A parameter over a list written out of whole numbers (``t in [off(c, -1, 1), off(c, 0,
    1)]``): natively each item computed once into a local of its own (``items``), then a C loop
    (``k``) that takes them in turn, no list made; in Python the list."""
    var: str
    cells: N.ListOf
    k: str
    items: tuple
    body: tuple | None = None
    #: the body runs for each value: a read there is made many times (compiler/passes/reads.py)
    repeated = ("body",)


@attrs.frozen
class SlideScan(S.Stmt):
    """A parameter over a slide or a reach (``t in reach(G, c, d)``): natively the line is
    followed in C from cell to cell (``start``, ``steps``: the walk's own locals), no list
    made; in Python the kernel's list."""
    var: str
    cells: N.Slide
    start: str
    steps: str
    body: tuple | None = None
    #: natively the grid is read at every step of the walk, and the body runs at each (compiler/passes/reads.py)
    repeated = ("cells", "body")


@attrs.frozen
class Source(S.Stmt):
    """``var = value``: a loop source no parameter changes, computed once before the loops.
    ``once``: computed at most once per call of the generator, and shared by every action of
    the step whose source is the same (the ways a position keeps: lower/kept_ways.py)."""
    var: str
    value: N.Expr
    once: bool = False
    c_type: str = ""  # natively, a once-computed source's C type ("bytes": indexed in C)


@attrs.frozen
class AddMove(S.Stmt):
    """One move, ``(tag, args...)``, added to the list."""
    tag: int
    args: tuple


@attrs.frozen
class KernelMoves(S.Stmt):
    """The moves ``kernel(args...)`` makes all at once (``K.tagged``, ``K.tagged_product``,
    ``K.holding_pairs``, ``K.line_move_keys``); ``cells``: ``K.tagged`` over a grid's empty
    (filled) cells, as (the grid, filled); ``zones``: ``K.tagged_product`` of two zones'
    distinct values, the two zones; ``sources``: the hoisted sources it reads (not read when
    the keys are made from the zones)."""
    kernel: str
    args: tuple
    cells: tuple | None = None
    zones: tuple | None = None
    sources: tuple = ()
    #: fields holding trees the arguments hold too (another writing of the same moves): a pass
    #: that counts reads does not count them again (compiler/passes/reads.py)
    again = ("cells", "zones")


@attrs.frozen
class ListedMoves(S.Stmt):
    """The moves of loops without guards, made by one comprehension:
    ``[(tag, args...) for names in source ...]`` (``clauses``: (names, source) each)."""
    tag: int
    args: tuple
    clauses: tuple


@attrs.frozen
class MovesBound(S.Stmt):
    """The list's size checked against the bound on moves before an inner loop (this reads the
    list itself, so such a generator keeps its list natively)."""
    limit: int
    action: str


@attrs.frozen
class ForcedFirst(S.Stmt):
    """After the moves of a step's forced actions: when there are any, they are all the
    step's moves (the other actions' part of the generator is not run)."""


OPENERS = (Guard, Scan, PairScan, CellScan, NeighbourScan, ItemScan, SlideScan)
MADE = (AddMove, KernelMoves, ListedMoves)


def nest(items: list) -> tuple:
    """The generator's items in order as a tree: each opener holds everything after it."""
    body: list = []
    for item in reversed(items):
        if isinstance(item, OPENERS) and item.body is None:
            body = [attrs.evolve(item, body=tuple(body))]
        else:
            body.insert(0, item)
    return tuple(body)


def _cells_read_at(value, known, var: str):
    """``value`` (a scan's body) with each read of a grid whose local (``g_board``) ``known``
    accepts at the scan's cell ``var`` read from its bytes with no check (``_byte_at(g_board,
    c_)``): the cell is one of the grid's, and a generator only writes the grid in a trial that
    puts it back."""
    if isinstance(value, N.CellRead) and isinstance(value.grid, N.Local) and known(value.grid.name) \
            and isinstance(value.cell, N.Local) and value.cell.name == var:
        return N.Code(value.type, 0, f"_byte_at({value.grid.name}, {var})", N.P_ATOM)
    return over(value, lambda inner: _cells_read_at(inner, known, var))


def neighbour_tables(source: N.Expr) -> list | None:
    """The neighbours' (or leaps') tables a loop's source joins (``leaps(G, c, 1, 2) +
    neighbours(G, c)``), in order, when it is only such lists; else None."""
    if isinstance(source, N.NeighbourList):
        return [source]
    if isinstance(source, N.Concat):
        left, right = neighbour_tables(source.left), neighbour_tables(source.right)
        return left + right if left is not None and right is not None else None
    return None


def _cell_checked(cell: str, t: N.NeighbourList) -> str:
    """Natively, the line that stops a cell outside the table (a C read has no bounds check)."""
    return (f"if {cell} < 0 or ({cell} + 1) * {t.degree} > len(_v_{t.table}): "
            "raise ValueError('there is no cell here (none) to look around')")


def _way(label: str, dy: int | None, dx: int | None) -> str:
    """A direction named for a reader: ``ne: row +1, column +1``."""
    changes = [f"{what} {n:+d}" for what, n in (("row", dy), ("column", dx)) if n is not None]
    return f"{label}: {', '.join(changes)}" if changes else label


def _code_only(block) -> list:
    return [st for st in block if not isinstance(st, S.Comment)]


def _only_kernel(block) -> KernelMoves | None:
    """The one statement of a generator that is moves made by one kernel, unguarded."""
    code = _code_only(block)
    return code[0] if len(code) == 1 and isinstance(code[0], KernelMoves) else None


# ---- writing ----------------------------------------------------------------------------------
class _Moves:
    """Writes a generator's nodes as lines with an engine's writer (the list of moves)."""

    def __init__(self, writer) -> None:
        self.w = writer
        self.native = writer.native
        self.depth = 0  # how deep in guards and loops the lines being written stand
        self.once: dict[str, str] = {}  # a shared source's code -> the local that holds it
        self.c_typed = False  # whether its locals may be declared with C types (natively only)

    def once_head(self, block) -> list[str]:
        """The locals of the sources computed at most once per call (``Source.once``), None
        until one is needed: one per value, whichever actions ask for it."""
        typed = {}
        for st in _walk(block):
            if isinstance(st, Source) and st.once:
                self.once.setdefault(self.w.code(st.value), st.var)
                typed[st.var] = f"cdef {st.c_type} " if self.c_typed and st.c_type else ""
        return [f"{typed[var]}{var} = None  # computed once, when an action first needs it" for var in typed]

    def lines(self, block) -> list[str]:
        out: list[str] = []
        for st in block:
            method = getattr(self, "m_" + type(st).__name__, None)
            out += method(st) if method is not None else self.w.lines([st])
        return out

    def inside(self, block) -> list[str]:
        self.depth += 1
        try:
            return ["    " + line for line in self.lines(block)]
        finally:
            self.depth -= 1

    def m_Guard(self, st: Guard) -> list[str]:
        return [f"if {self.w.code(st.test)}:", *self.inside(st.body)]

    def m_Scan(self, st: Scan) -> list[str]:
        return [f"for {st.names} in {self.w.code(st.source)}:", *self.inside(st.body)]

    def m_WalledScan(self, st: WalledScan) -> list[str]:
        if not self.native:
            return [f"for {st.var} in {self.w.code(st.cells)}:", *self.inside(st.body)]
        adj, deg, places, walls, cell = st.cells.args
        table, places, deg, walls, cell = adj.name, places.name, self.w.code(deg), self.w.code(walls), self.w.code(cell)
        return [f"{st.at} = _walled_at(len(_v_{table}), {deg}, {cell}, {walls})  # the cell's row, checked",
                f"for {st.step} in range({st.at}, {st.at} + {deg}):",
                f"    {st.var} = _p_{table}[{st.step}]",
                f"    if {st.var} >= 0 and _open_wall(_p_{places}, {walls}, {st.step}):",
                *("    " + line for line in self.inside(st.body))]

    def m_PairScan(self, st: PairScan) -> list[str]:
        return [f"for {st.a}, {st.b} in {self.w.code(st.source)}:", *self.inside(st.body)]

    def m_CellScan(self, st: CellScan) -> list[str]:
        if not self.native:
            return [f"for {st.var} in {self.w.code(st.cells)}:", *self.inside(st.body)]
        if isinstance(st.cells, N.Cells):  # the filled bytes (1 to 255), or the empty ones (0)
            grid = st.cells.grid
            low, high = ("1", "255") if st.cells.filled else ("0", "0")
            head = []
        else:  # K.cells_holding(grid, kinds, kind, owner): the span of bytes it looks for
            grid, kinds, kind, owner = st.cells.args
            args = ", ".join(self.w.code(a) for a in (kinds, kind, owner))
            low, high = st.low, st.high
            head = [f"{low} = _holding_low({args})", f"{high} = _holding_high({args})"]
        # from cell to cell found in C, no list; each is one of the grid's: the body reads it
        # with no check either
        g, var = self.w.code(grid), st.var
        return head + span_walk(var, g, low, high, self.lines(_cells_read_at(st.body, lambda name: name == g, var)),
                                self.bit_array())

    def bit_array(self) -> str:
        """A C array of the method for a walk's cells as bits, or "" (only where the method's
        declarations are kept: the keyed generator)."""
        return ""

    def m_Directions(self, st: Directions) -> list[str]:
        """The directions a loop over neighbours walks, each tested once (the list, or the C
        array of the keyed generator, begun by ``dirs_start`` and added to by ``dir_kept``)."""
        out = self.dirs_start(st)
        for d, dy, dx, label in st.steps:
            out += [f"if {self.w.code(at_step(st.test, dy, dx))}:  # {_way(label, dy, dx)}",
                    *("    " + line for line in self.dir_kept(st, d))]
        return out

    def dirs_start(self, st: Directions) -> list[str]:
        return [f"{st.var} = []  # the directions the guards above allow (compiler/passes/directions.py)"]

    def dir_kept(self, st: Directions, d: int) -> list[str]:
        return [f"{st.var}.append({d})"]

    def dirs_walk(self, st: NeighbourScan) -> list[str]:
        """The head of a loop over the directions kept in ``st.dirs``."""
        return [f"for {st.d} in {st.dirs}:"]

    def m_NeighbourScan(self, st: NeighbourScan) -> list[str]:
        if st.dirs:  # only the directions chosen before the loops: each neighbour read in the table
            t = st.cells
            cell = self.w.code(t.cell, N.P_MUL + 1)
            table = f"_table_at(_p_{t.table}, {cell}, {t.degree}, {st.d})" if self.native \
                else f"{self.w.code(N.Global(T.ANY, 0, t.table))}[{cell} * {t.degree} + {st.d}]"
            head = [] if not self.native else [_cell_checked(cell, t)]
            body = st.body if not self.native else \
                _cells_read_at(st.body, lambda name: owns_table(name, t.table), st.var)
            return [*head, *self.dirs_walk(st), f"    {st.var} = {table}", f"    if {st.var} >= 0:",
                    *("    " + line for line in self.inside(body))]
        if not self.native:
            return [f"for {st.var} in {self.w.code(st.cells)}:", *self.inside(st.body)]
        # each table's cell checked once; then one C loop over their entries in turn, no list
        tables = neighbour_tables(st.cells)
        out, picks, start = [], [], 0
        for t in tables:
            cell = self.w.code(t.cell, N.P_MUL + 1)
            out.append(_cell_checked(cell, t))
            picks.append((start, f"_table_at(_p_{t.table}, {cell}, {t.degree}, {st.d} - {start})"))
            start += t.degree
        out.append(f"for {st.d} in range({start}):")
        if len(picks) == 1:
            out.append(f"    {st.var} = {picks[0][1]}")
        for i, (first, pick) in enumerate(picks if len(picks) > 1 else []):
            test = "else" if i == len(picks) - 1 else f"{'if' if i == 0 else 'elif'} {st.d} < {picks[i + 1][0]}"
            out += [f"    {test}:", f"        {st.var} = {pick}"]
        body = _cells_read_at(st.body, lambda name: any(owns_table(name, t.table) for t in tables), st.var)
        return out + [f"    if {st.var} >= 0:", *("    " + line for line in self.inside(body))]

    def m_ItemScan(self, st: ItemScan) -> list[str]:
        if not self.native:
            return [f"for {st.var} in {self.w.code(st.cells)}:", *self.inside(st.body)]
        out = [f"{name} = {self.w.code(item)}" for name, item in zip(st.items, st.cells.items)]
        pick = st.items[-1]
        for i in range(len(st.items) - 2, -1, -1):
            pick = f"{st.items[i]} if {st.k} == {i} else {'(' + pick + ')' if i < len(st.items) - 2 else pick}"
        return out + [f"for {st.k} in range({len(st.items)}):", f"    {st.var} = {pick}", *self.inside(st.body)]

    def m_SlideScan(self, st: SlideScan) -> list[str]:
        if not self.native:
            return [f"for {st.var} in {self.w.code(st.cells)}:", *self.inside(st.body)]
        # the aggregates' walk along the line, with this level's locals (declared by the lowering)
        head = self.w.walk_head(st.cells, st.var, lambda *_: None, st.start, st.steps)
        return head + self.w.walk_body(st.cells, st.var, self.inside(st.body), st.start, st.steps)

    def m_Source(self, st: Source) -> list[str]:
        code = self.w.code(st.value)
        if not st.once:
            return [f"{st.var} = {code}"]
        shared = self.once[code]
        out = [f"if {shared} is None:", f"    {shared} = {code}"]
        return out + ([f"{st.var} = {shared}"] if st.var != shared else [])

    def table(self, st: AddMove) -> str | None:
        """The Python engine's table of this action's moves, where each of its one or two
        arguments is a cell of a grid (a tuple per cell made once, ``ops.move_table``: the
        list of moves then holds shared tuples, none built per move, and the ids' lookup finds
        each by the tuple itself); None where not (numbers, or more than 4,096 moves)."""
        cells = getattr(self.w, "grid_cells", None)
        tables = getattr(self.w, "move_tables", None)
        if cells is None or tables is None or not 1 <= len(st.args) <= 2:
            return None
        sizes = tuple(cells.get(a.type.space) if a.type.kind == "cell" else None for a in st.args)
        if None in sizes or prod(sizes) > MOVE_TABLE_LIMIT:
            return None
        if tables.setdefault(st.tag, sizes) != sizes:  # (one action, one table: its arguments' grids)
            return None
        return f"_MOVES_{st.tag}"

    def move(self, tag: int, args: tuple) -> str:
        return f"({tag}, {', '.join(args)})" if args else f"({tag},)"

    def m_AddMove(self, st: AddMove) -> list[str]:
        args = tuple(self.w.code(a) for a in st.args)
        if not self.native:
            table = self.table(st)
            if table is not None:
                return [f"_add({table}{''.join(f'[{a}]' for a in args)})"]
            return [f"_add({self.move(st.tag, args)})"]
        if len(args) in (1, 2):
            return [f"out.append({self.w.name('K.pair' if len(args) == 1 else 'K.triple')}({st.tag}, {', '.join(args)}))"]
        return [f"out.append({self.move(st.tag, args)})"]

    def made(self, st) -> str:
        """The list of moves a kernel or a comprehension makes."""
        if isinstance(st, ListedMoves):
            clauses = " ".join(f"for {names} in {self.w.code(source)}" for names, source in st.clauses)
            return f"[{self.move(st.tag, st.args)} {clauses}]"
        return f"{self.w.name(st.kernel)}({self.w.args(st.args)})"

    def m_KernelMoves(self, st: KernelMoves) -> list[str]:
        return [f"out.extend({self.made(st)})" if self.native else f"_extend({self.made(st)})"]

    m_ListedMoves = m_KernelMoves

    def m_ForcedFirst(self, st: ForcedFirst) -> list[str]:
        return ["if out:  # a forced action's moves: the only ones", "    return out"]

    def m_MovesBound(self, st: MovesBound) -> list[str]:
        call = self.w.name("ops.too_many_moves")
        return [f"if len(out) > {st.limit}: {call}(RULES_FILE, {st.line}, {st.action!r}, {st.limit})"]


def move_lines(block: tuple, writer) -> list[str]:
    """The body of a step's move generator (after ``me = s.cur``): the list it fills and
    returns, or, when one unguarded kernel call is the whole answer, that list returned."""
    moves = _Moves(writer)
    only = _only_kernel(block)
    if only is not None:
        return [line for st in block for line in
                (["return " + moves.made(st)] if st is only else moves.lines([st]))]
    kinds = {type(st) for st in _walk(block)}
    head = ["out = []", *moves.once_head(block)]
    if not moves.native and AddMove in kinds:
        head.append("_add = out.append")
    if not moves.native and kinds & {KernelMoves, ListedMoves}:
        head.append("_extend = out.extend")
    return head + moves.lines(block) + ["return out"]


def _walk(block):
    for st in block:
        yield st
        if getattr(st, "body", None):
            yield from _walk(st.body)
