"""The native move generator that fills the state's buffer of packed keys (C numbers) instead
of a list of move tuples, so that a random playout makes only the move it picks: the same
statement nodes as the list's (compiler/write/moves.py), written by ``_Keys`` with C arrays of
the method where a list would be made."""
from __future__ import annotations

from ..check.symbols import LIMITS
from ..ir import nodes as N
from ..ir import statements as S
from ..passes.directions import Directions
from .moves import (KEY_TAGS, AddMove, CellScan, ForcedFirst, Guard, KernelMoves, ListedMoves, MovesBound,
                    NeighbourScan, PairScan, Source, _Moves, _only_kernel, _walk, span_bit_decls)

PAIRS_ROOM, HELD_ROOM = 128, 64  # C arrays of the pairs of a zone and the items held, in _keys_N
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def _branch_free(e) -> bool:
    """A test that may be computed whether or not it is needed: comparisons of cells read at
    indexes known good (``_byte_at``), their elements, locals and numbers; no call, nothing that
    fails or draws."""
    if isinstance(e, (N.Local, N.Const)):
        return True
    if isinstance(e, N.Code):
        return e.text.startswith("_byte_at(") and e.text.count("(") == 1
    if isinstance(e, N.Element):
        return _branch_free(e.code)
    if isinstance(e, N.Binary):
        return e.op in _COMPARISONS + ("+", "-") and _branch_free(e.left) and _branch_free(e.right)
    return False


def _cell_test(e) -> bool:
    """A comparison of what a cell holds (``_byte_at``, its element) with a number or a local,
    computed with no branch: it says nothing of where a cell is, so no read beside it needs it
    first (a guard with it may join the guard inside it)."""
    def reads(x) -> bool:
        return _branch_free(x) and not isinstance(x, (N.Local, N.Const)) and (
            isinstance(x, (N.Code, N.Element)) or isinstance(x, N.Binary) and (reads(x.left) or reads(x.right)))
    return isinstance(e, N.Binary) and e.op in _COMPARISONS and _branch_free(e) and (reads(e.left) or reads(e.right))


class _Keys(_Moves):
    """Writes a generator's nodes natively as packed keys pushed into the state's buffer
    (``_push(s, tag, a, b)``; the kernels that list moves go through ``_push_tagged``,
    ``_push_product``, ``_push_cells`` or ``_push_moves``)."""

    def __init__(self, writer, unread: set[str]) -> None:
        super().__init__(writer)
        self.decls: list[str] = []  # C arrays of the method, declared at its top
        self.c_typed = True
        self.unread = unread  # hoisted sources no key reads
        self.scanned: dict = {}  # a scan's cells (its grid and span) -> the C array that keeps them
        self.bits_off = False  # while a scan that walks a kept array is written

    def m_Source(self, st: Source) -> list[str]:
        return [] if st.var in self.unread else super().m_Source(st)

    def m_CellScan(self, st: CellScan) -> list[str]:
        """A scan of cells met again (another action over the same cells: a seat's pieces,
        which the position does not change while its moves are listed) walks the cells the
        first one found, kept in a C array of the method, in the same order. The first must
        stand at the top of the method (run whatever the guards say, its cells named by
        nothing a loop binds), and it must walk every cell (no ``break``)."""
        top = self.depth == 0
        if isinstance(st.cells, N.Cells):
            key = (self.w.code(st.cells.grid), st.cells.filled)
        else:
            key = tuple(self.w.code(a) for a in st.cells.args)
        found = self.scanned.get(key)
        self.bits_off = found is not None  # (its walk is the array's: no bits of its own)
        try:
            lines = super().m_CellScan(st)
        finally:
            self.bits_off = False
        if any(line.lstrip().startswith("break") for line in lines):
            return lines
        var = st.var
        walk = lines.index(f"while {var} >= 0:")
        body = lines[walk + 1:-1]  # the body, between the walk's head and its step to the next cell
        if found is not None:
            array, count, i = found
            return [f"for {i} in range({count}):", f"    {var} = {array}[{i}]", *body]
        if not top:
            return lines
        k = len(self.scanned)
        array, count, i = f"_scan{k}", f"_nscan{k}", f"_iscan{k}"
        self.decls += [f"cdef short {array}[{LIMITS['grid_cells']}]  # the cells a scan found (a grid has no more), "
                       "for the scans of the same cells after it",
                       f"cdef long {count}, {i}"]
        self.scanned[key] = (array, count, i)
        return [*lines[:walk], f"{count} = 0", lines[walk], f"    {array}[{count}] = {var}", f"    {count} += 1",
                *lines[walk + 1:]]

    def in_c_array(self, name: str, room: int, call: str, loop: list[str], body: list[str]) -> list[str]:
        """A kernel filling a C array of the method (``_{name}K``), then a loop over what it
        wrote; when it declines (-1) the step is marked wide (its list is made instead)."""
        k = len(self.decls)
        self.decls.append(f"cdef long _{name}{k}[{room}]")
        array = f"_{name}{k}"
        return [f"_n{name}{k} = {call.format(array=array)}",
                f"if _n{name}{k} < 0:  # not small numbers: the list, in _moves",
                "    s._keys_wide = True",
                f"for _k{k} in range(_n{name}{k}):",
                *(f"    {step.format(array=array, k=f'_k{k}')}" for step in loop), *body]

    def bit_array(self) -> str:
        if self.bits_off:
            return ""
        name = f"_bits{sum(1 for d in self.decls if d.startswith('cdef unsigned long long _bits'))}"
        self.decls += span_bit_decls(name)
        return name

    def dirs_start(self, st: Directions) -> list[str]:
        """The directions a loop over neighbours walks: a C array."""
        self.decls += [f"cdef int {st.var}[{st.degree}]  # the directions a loop walks (compiler/passes/directions.py)",
                       f"cdef int _n{st.var}, _k{st.var}"]
        return [f"_n{st.var} = 0"]

    def dir_kept(self, st: Directions, d: int) -> list[str]:
        return [f"{st.var}[_n{st.var}] = {d}", f"_n{st.var} += 1"]

    def dirs_walk(self, st: NeighbourScan) -> list[str]:
        return [f"for _k{st.dirs} in range(_n{st.dirs}):", f"    {st.d} = {st.dirs}[_k{st.dirs}]"]

    def m_PairScan(self, st: PairScan) -> list[str]:
        if st.values is None:
            return super().m_PairScan(st)
        call = f"_CK.distinct_pairs_into({self.w.code(st.values)}, {{array}}, {PAIRS_ROOM})"
        return self.in_c_array("pairs", 2 * PAIRS_ROOM, call,
                               [f"{st.a}, {st.b} = {{array}}[2 * {{k}}], {{array}}[2 * {{k}} + 1]"],
                               self.inside(st.body))

    def m_Guard(self, st: Guard) -> list[str]:
        """A guard whose body only adds a move of one or two arguments, each a name or a number,
        and whose test reads cells at indexes known good and numbers (no call, nothing that
        fails), is written with no branch: ``_push_if(s, test, ...)``
        (_support.push_if). Guards around it whose tests compare what a cell holds join its
        test (``(outer) & (inner)``, both computed): a test of where a cell is (``t >= 0``) may
        be what makes a read inside good, so it stays a branch."""
        tests, body, said = [st.test], st.body, []
        while True:
            said += [line for x in body if isinstance(x, S.Comment) for line in self.lines([x])]
            inner = [x for x in body if not isinstance(x, S.Comment)]
            if not (len(inner) == 1 and isinstance(inner[0], Guard) and _cell_test(tests[-1])):
                break
            tests.append(inner[0].test)
            body = inner[0].body
        move = inner[0] if len(inner) == 1 else None
        if isinstance(move, AddMove) and len(move.args) <= 2 and all(map(_branch_free, tests)) \
                and all(isinstance(a, (N.Local, N.Const)) for a in move.args):  # (read whether kept or not)
            args = [self.w.code(a) for a in move.args] + ["0"] * (2 - len(move.args))
            test = " & ".join(f"({self.w.code(t)})" for t in tests) if len(tests) > 1 else self.w.code(tests[0])
            kept = list({line.strip(): line for line in said}.values())  # (a require split in two says its line once)
            return kept + [f"_push_if(s, {test}, {move.tag}, {args[0]}, {args[1]})"
                           "  # counted when the test holds, with no branch"]
        return super().m_Guard(st)

    def m_AddMove(self, st: AddMove) -> list[str]:
        args = [self.w.code(a) for a in st.args]
        if len(args) == 3:  # three arguments: a key laid out apart (_support.packed3)
            return [f"_push3(s, {st.tag}, {', '.join(args)})"]
        rest = args + ["0"] * (2 - len(args))
        return [f"_push(s, {st.tag}, {rest[0]}, {rest[1]})"]

    def m_KernelMoves(self, st: KernelMoves) -> list[str]:
        args = [self.w.code(a) for a in st.args]
        if st.kernel == "K.tagged" and st.cells is not None:  # a grid's empty (filled) cells, from its bytes
            grid, filled = st.cells
            return [f"_push_cells(s, {args[0]}, {self.w.code(grid)}, {int(filled)})"]
        if st.kernel == "K.holding_pairs":  # the items in a C array
            call = f"_CK.holding_into({', '.join(args[:4])}, {{array}}, {HELD_ROOM})"
            return self.in_c_array("held", HELD_ROOM, call, [f"_push(s, {args[4]}, {{array}}[{{k}}], 0)"], [])
        if st.kernel == "K.tagged":
            distinct = "True" if len(st.args) == 3 and isinstance(st.args[2], N.Const) and st.args[2].value is True else "False"
            return [f"_push_tagged(s, {args[0]}, {args[1]}, {distinct})"]
        if st.kernel == "K.tagged_product":
            if st.cells is not None:  # a grid's empty (filled) cells and values: from the grid's bytes
                grid, filled = st.cells
                return [f"_push_cells_product(s, {args[0]}, {self.w.code(grid)}, {int(filled)}, {args[2]})"]
            if st.zones is not None:  # two zones' distinct values: deduplicated in C
                return [f"_push_product(s, {args[0]}, {self.w.code(st.zones[0])}, {self.w.code(st.zones[1])}, True)"]
            return [f"_push_product(s, {', '.join(args)}, False)"]
        return [f"_push_moves(s, {self.made(st)})"]

    def m_ListedMoves(self, st: ListedMoves) -> list[str]:
        return [f"_push_moves(s, {self.made(st)})"]

    def m_ForcedFirst(self, st: ForcedFirst) -> list[str]:
        return ["if s._keys_wide:", "    return -2",
                "if s._nkeys:  # a forced action's moves: the only ones", "    return s._nkeys"]


def keyed_moves(block: tuple, actions: list, kind: str, shared: bool, writer) -> dict | None:
    """For the native engine: how a step fills a buffer of keys instead of a list of move
    tuples. A step whose moves are one action's keys from one kernel (``K.line_move_keys(...,
    tag)``, ``K.tagged(tag, numbers)``) keeps that kernel's keys (``tag``: the action); any other
    whose actions take at most three arguments packs each move into a key (``tag`` None). None for
    the steps that keep their list (automatic and optional steps, a value shared with the
    condition, a list read as it is made)."""
    if kind in ("auto", "optional", "optional_repeat") or shared:
        return None
    moves = _Moves(writer)
    only = _only_kernel(block)
    fill = None
    if only is not None:
        args = [writer.code(a) for a in only.args]
        if only.kernel == "K.line_move_keys" and len(args) == 6:
            fill, tag = f"return _CK.line_keys_into({', '.join(args[:5])}, &s._keys, &s._keys_cap)", args[5]
        elif only.kernel == "K.tagged" and only.cells is not None:  # from the grid's bytes
            grid, filled = only.cells
            fill, tag = f"return _CK.cells_keys_into({writer.code(grid)}, {filled}, &s._keys, &s._keys_cap)", args[0]
        elif only.kernel == "K.tagged" and len(args) == 2:
            fill, tag = f"return _CK.keys_into({args[1]}, &s._keys, &s._keys_cap)", args[0]
    if fill is not None:
        return {"tag": tag, "lines": [line for st in block for line in ([fill] if st is only else moves.lines([st]))]}
    if any(len(a.arg_names) > 3 or a.index >= KEY_TAGS or "bool" in a.arg_kinds
           or any(k.startswith("list:") for k in a.arg_kinds) for a in actions):
        return None  # a truth as an argument would come back from its key as a number; a subset is a tuple
    if any(isinstance(st, MovesBound) for st in _walk(block)):
        return None  # the list is read as it is made
    unread = {var for st in _walk(block) if isinstance(st, KernelMoves) and st.zones is not None for var in st.sources}
    keys = _Keys(writer, unread)
    lines = ["s._nkeys = 0", "s._keys_wide = False", *keys.once_head(block), *keys.lines(block),
             "return -2 if s._keys_wide else s._nkeys"]
    return {"tag": None, "lines": keys.decls + lines}
