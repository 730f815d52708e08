"""Legality after the move at the cost of what the move changed: an ``ensure`` remembered.

A move generator tries every candidate move of an action with an ``ensure``: it makes the
move's effects, reads the condition, puts the cells back. Most candidates change cells the
condition never looks at (a king's safety reads the lines through the king, not the far side of
the board), so the condition is read once in the position, before any trial, its reads of the
grid noted; a trial whose every write misses the noted cells takes the value remembered.

Why that is exact: the condition is a function of the state and ``me`` alone (no argument of
the move, no let), and a trial changes only cells of grids, each kept by the journal
(compiler/passes/journal.py), and places the condition does not read, kept whole and put back
(a counter such as an en passant square, which a pawn's trial clears). Read again after the
trial, the condition makes the same reads in the same order as before up to the first read of
a cell the trial wrote, since every read before it returns what it returned before; if it
never reads one, it returns what it returned. A scan
for the first cell holding a piece (``first(filled_cells(G, kind, p))``, ``K.first_holding``)
reads every cell before the one it finds: it is kept as what it looked for and where it
stopped, so that a write before that cell matters only when the cell now holds what it looks
for. The memo is forgotten as each move generator starts (the position may have changed) and is
not trusted when the first reading stopped on an error.

The pass applies on both engines where the condition reads one grid, through reads of its
cells, walks along a direction in an aggregate (``reach``; natively ``slide`` too, whose walk
notes the filled cell that stops it, which the Python engine's list of cells leaves out) and
scans for a piece; numbers, geometry tables, counters and defines of those. Anything else
(another grid, a kernel given the grid, a random draw, a method of the state) leaves the trial
as it was.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..ir import types as T
from ..ir.game import FootprintIR
from ..ir.traverse import parts, rebuild, lineless

#: nodes whose value depends on their parts alone (with Local and the nodes handled below)
_PURE = (N.Const, N.Global, N.Binary, N.Not, N.Neg, N.Cond, N.Call, N.Number, N.Element, N.Geometry,
         N.Table, N.Dimension, N.NeighbourList, N.Neighbour, N.Upto, N.Span, N.ListOf, N.Tuple, N.Len,
         N.Column, N.Slot, N.Text)
#: helpers of numbers alone (they are given no grid)
_VALUE_HELPERS = ("ops.piece_owner", "ops.piece_kind")


class _Declined(Exception):
    """The condition reads something a memo cannot follow."""


def remember_ensures(ir):
    """``ir`` with each action's ``ensure`` trial taking a remembered condition where its
    writes miss what the condition read."""
    native = ir.native_lowered
    functions = {f[0]: f for f in ir.functions}
    memos: dict = {}  # condition (its lines left out) -> its FootprintIR
    twins: dict = {}  # (function, memo) -> its twin's name
    new_functions, actions = list(ir.functions), []
    elsewhere = _methods(_without_generators(ir))  # the trials called outside the move generators
    for a in ir.actions:
        plan = _plan(a)
        if plan is None or f"_ensure_{a.index}" in elsewhere:
            actions.append(a)
            continue
        slots, kept, cond, line = plan
        try:
            grids = _grids_read(cond, functions, {"s", "me"}, set(), native)
        except _Declined:
            actions.append(a)
            continue
        if kept & _fields_read(cond, functions, set()):
            actions.append(a)  # the trial changes (and puts back) a place the condition reads
            continue
        if len(grids) != 1:  # (one that reads no grid could be read once before the loops)
            actions.append(a)
            continue
        grid = next(iter(grids))
        key = repr(lineless(cond))  # the same condition, wherever it is written
        fp = memos.get(key)
        if fp is None:
            m = len(memos)
            cells = _cells_of(ir, grid)
            xrays: set = set()
            noted = _noted(cond, m, cells, functions, twins, new_functions, native, xrays)
            fp = memos[key] = FootprintIR(m, cells, grid, line, noted, xray=m in xrays)
        actions.append(attrs.evolve(a, ensure_lines=_remembered(a.ensure_lines, fp, [at for at, g in slots if g == grid])))
    if not memos:
        return ir
    remembered = {a.index for a, old in zip(actions, ir.actions) if a is not old}
    steps = [_forgetting(st, remembered, memos) for st in ir.steps]
    return attrs.evolve(ir, actions=actions, functions=new_functions, footprints=list(memos.values()),
                        steps=steps)


def _plan(a) -> tuple | None:
    """The trial's journaled writes as (slot local, grid attribute), the places it keeps whole
    (their attributes: a counter such as an en passant square, put back after the trial), its
    condition and rules line, when the trial changes nothing but cells put back one by one and
    places kept whole; else None. A place kept whole must be one the condition does not read
    (remember_ensures looks)."""
    if not a.ensure_lines:
        return None
    before, body, put_back, line = a.ensure_lines
    if put_back is None or not body or not isinstance(body[-1], S.Return):
        return None
    kept = set()
    for st in before:
        if isinstance(st, S.Keep) and isinstance(st.place, N.Field):
            kept.add(st.place.attr)
        elif not (isinstance(st, S.Assign) and isinstance(st.target, N.Local)):
            return None  # something else done before the trial: not followed
    slots = {st.target.name for st in before if isinstance(st, S.Assign) and st.target.name.startswith("_at")}
    assigns = list(_assignments(body))  # at any depth: a write the journal keeps may stand in an if
    wrote = {st.target.name for st in assigns if isinstance(st.target, N.Local)}
    if any("_was" + at[len("_at"):] not in wrote for at in slots):
        return None  # a cell kept some other way
    found = {}
    for st in assigns:
        target = st.target
        if isinstance(target, N.Index) and isinstance(target.index, N.Local) and target.index.name in slots:
            if not isinstance(target.obj, N.Field) or found.get(target.index.name, target.obj.attr) != target.obj.attr:
                return None
            found[target.index.name] = target.obj.attr
    if set(found) != slots:
        return None  # a slot whose write is not told: nothing is left unchecked
    return sorted(found.items()), kept, body[-1].value, line


def _assignments(tree):
    """Every assignment among the statements, at any depth."""
    if isinstance(tree, S.Assign):
        yield tree
    for part in parts(tree):
        if isinstance(part, (S.Stmt, tuple, list)):
            yield from _assignments(part)


def _without_generators(ir):
    """The game with its move generators left out (each step's, and each action's part of its
    step's): where a trial called is not forgotten as a generator starts."""
    actions = [attrs.evolve(a, moves=()) for a in ir.actions]
    steps = [attrs.evolve(st, move_lines=[], actions=[attrs.evolve(a, moves=()) for a in st.actions],
                          pass_action=None if st.pass_action is None else attrs.evolve(st.pass_action, moves=()))
             for st in ir.steps]
    return attrs.evolve(ir, steps=steps, actions=actions)


def _methods(tree, found: set | None = None) -> set:
    """The names of the state's methods called in ``tree`` (a node, a list, a record of the
    game such as a step or an action, or the game itself), in one walk."""
    found = set() if found is None else found
    if isinstance(tree, N.Method):
        found.add(tree.name)
    if isinstance(tree, dict):
        for v in tree.values():
            _methods(v, found)
    elif attrs.has(type(tree)) and not isinstance(tree, (N.Node, type)):
        for f in attrs.fields(type(tree)):
            _methods(getattr(tree, f.name), found)
    else:
        for p in parts(tree):
            _methods(p, found)
    return found


def _grids_read(e, functions: dict, names: set, seen: set, native: bool = True) -> set:
    """The grid attributes the condition reads (through the defines it calls); _Declined when
    it reads anything else a trial could change or a memo cannot follow. ``names``: the locals
    it may read (``s``, ``me``, a define's parameters and lets, an aggregate's variable)."""
    if isinstance(e, (tuple, list)):
        return set().union(*(_grids_read(p, functions, names, seen, native) for p in e)) if e else set()
    if e is None or isinstance(e, (int, str, float)):
        return set()
    if isinstance(e, N.Local):
        if e.name not in names:
            raise _Declined(e.name)
        return set()
    if isinstance(e, N.Field):
        if e.attr.startswith("g_"):
            raise _Declined(e.attr)  # a grid given whole to something
        return set()  # a counter: the trial does not write it
    if isinstance(e, N.CellRead):
        return _grid(e.grid) | _grids_read(e.cell, functions, names, seen, native)
    if isinstance(e, N.Aggregate):
        inner = names | {e.var}
        source = e.source
        if isinstance(source, N.Slide):
            if not native and source.kind != "reach":
                raise _Declined("slide")  # its list leaves out the filled cell that stopped it, which was read
            got = _grid(source.grid) | _grids_read((source.cell, source.direction, source.empties), functions, names,
                                                   seen, native)
        else:
            got = _grids_read(source, functions, names, seen, native)
        return got | _grids_read((e.elem, e.cond) if e.cond is not None else (e.elem,), functions, inner, seen, native)
    if isinstance(e, N.Helper):
        if e.name == "K.first_holding":
            return _grid(e.args[0]) | _grids_read(e.args[1:], functions, names, seen, native)
        if e.name not in _VALUE_HELPERS:
            raise _Declined(e.name)
        return _grids_read(e.args, functions, names, seen, native)
    if isinstance(e, N.Apply):
        f = functions.get(e.function)
        if f is None or not e.args or not (isinstance(e.args[0], N.Local) and e.args[0].name == "s"):
            raise _Declined(e.function)
        got = _grids_read(e.args[1:], functions, names, seen, native)
        if e.function not in seen:
            seen.add(e.function)
            tree, params, _line, lets = f[3]
            inner = {"s", *params, *(a.target.name for a in lets)}
            got |= _grids_read((tree, *(a.value for a in lets)), functions, inner, seen, native)
        return got
    if isinstance(e, _PURE):
        return _grids_read(parts(e), functions, names, seen, native)
    raise _Declined(type(e).__name__)


def _fields_read(e, functions: dict, seen: set) -> set:
    """The attributes of the state the condition reads (grids, counters, zones), through the
    defines it calls (each looked at once)."""
    if isinstance(e, (tuple, list)):
        return set().union(*(_fields_read(p, functions, seen) for p in e)) if e else set()
    if not isinstance(e, N.Node):
        return set()
    got = {e.attr} if isinstance(e, N.Field) else set()
    if isinstance(e, N.Apply) and e.function in functions and e.function not in seen:
        seen.add(e.function)
        tree, _params, _line, lets = functions[e.function][3]
        got |= _fields_read((tree, *(a.value for a in lets)), functions, seen)
    return got | _fields_read(parts(e), functions, seen)


def _grid(grid) -> set:
    if isinstance(grid, N.Field) and grid.attr.startswith("g_"):
        return {grid.attr}
    raise _Declined("grid")


def _cells_of(ir, grid: str) -> int:
    return next(g.cells for g in ir.grids if g.attr == grid)


def _noted(e, m: int, cells: int, functions: dict, twins: dict, out: list, native: bool = True,
           xrays: set | None = None):
    """The condition's twin that notes what it reads in memo ``m``: its cell reads, its walks
    and scans, and the defines it calls (each a twin function, made once). In the Python
    engine a reach's list marks every cell it holds, so the reads of its cells inside the
    aggregate walking it are left plain (natively the walk may stop on a cell before the test
    that notes it, so they are noted). Natively an ``any`` over a reach's filled cell looks
    past the cell that stops it (x-ray: :func:`_xray_fits`); ``m`` is then added to ``xrays``."""
    xrays = set() if xrays is None else xrays

    def change(node, walked: frozenset = frozenset()):
        if isinstance(node, (tuple, list)):
            return type(node)(change(p, walked) for p in node)
        if not isinstance(node, N.Node):
            return node
        if isinstance(node, N.Apply):
            return attrs.evolve(node, function=_twin(node.function, m, cells, functions, twins, out, native, xrays),
                                args=change(node.args, walked))
        if isinstance(node, N.Aggregate):
            inner = walked - {node.var}
            if not native and isinstance(node.source, N.Slide):
                inner = inner | {node.var}
            source = change(node.source, walked)
            if native and _xray_fits(node, functions):
                source = attrs.evolve(source, xray=node.elem)  # the test as it was, reading nothing noted
                xrays.add(m)
            return attrs.evolve(node, source=source, elem=change(node.elem, inner), cond=change(node.cond, inner))
        if isinstance(node, N.CellRead) and isinstance(node.cell, N.Local) and node.cell.name in walked:
            return node  # a cell of the list the walk marked
        compared = _compared(node)
        if compared is not None:
            read, shift = compared
            return N.NotedEq(T.BOOL, node.line, m, cells, read.cell, node.op, node.left, change(node.right, walked),
                             shift)
        node = rebuild(node, lambda part: change(part, walked))
        if isinstance(node, N.CellRead):
            return N.Noted(node.type, node.line, m, node, cells, node.cell)
        if isinstance(node, N.Slide):
            return attrs.evolve(node, noted=m)
        if isinstance(node, N.Helper) and node.name == "K.first_holding":
            return N.NotedScan(node.type, node.line, m, node)
        return node
    return change(e)


def _xray_fits(agg: N.Aggregate, functions: dict) -> bool:
    """Whether a remembered walk may look past the filled cell that stops it (natively): an
    ``any`` over a ``reach`` whose empty cells are not elements (compiler/passes/blocker_walk.py),
    with no ``where``, whose test reads the grid at the walk's cell alone (through defines that
    read no cell). Then, when the test fails on the cell that stopped the walk, the walk goes on
    to the next filled cell: if the test fails there too (or no cell is met), the cell that
    stopped it is noted as one whose emptying leaves the walk false, and the cells past it as
    the walk's further cells (``_missed`` then lets a trial empty it, unless it also writes one
    of those: x-ray, as a chess engine looks through a piece for a pin)."""
    source = agg.source
    return (agg.func == "any" and agg.lazy and agg.cond is None and isinstance(source, N.Slide)
            and source.kind == "reach" and source.empties is not None
            and _reads_at_only(agg.elem, agg.var, functions, set()))


def _reads_at_only(e, var: str | None, functions: dict, seen: set) -> bool:
    """Whether ``e`` reads cells only at the local ``var`` (None: no cell at all), and no grid
    whole, no walk, scan or aggregate, through the defines it calls (each looked at once)."""
    if isinstance(e, (tuple, list)):
        return all(_reads_at_only(p, var, functions, seen) for p in e)
    if not isinstance(e, N.Node):
        return True
    if isinstance(e, N.CellRead):
        return var is not None and isinstance(e.cell, N.Local) and e.cell.name == var
    if isinstance(e, (N.Aggregate, N.Slide)) or isinstance(e, N.Helper) and e.name not in _VALUE_HELPERS:
        return False
    if isinstance(e, N.Field) and e.attr.startswith("g_"):
        return False
    if isinstance(e, N.Apply):
        f = functions.get(e.function)
        if f is None or not _reads_at_only(e.args, var, functions, seen):
            return False
        if e.function not in seen:
            seen.add(e.function)
            tree, _params, _line, lets = f[3]
            return _reads_at_only((tree, *(a.value for a in lets)), None, functions, seen)
        return True
    return _reads_at_only(parts(e), var, functions, seen)


def _compared(node) -> tuple | None:
    """(the read, 1 or 0) when ``node`` compares a cell's element (or code) with a value that
    reads no cell (``board[y] == piece(knight, p)``): only that comparison's truth matters."""
    if not isinstance(node, N.Binary) or node.op not in ("==", "!="):
        return None
    left, shift = (node.left.code, 1) if isinstance(node.left, N.Element) else (node.left, 0)
    if not isinstance(left, N.CellRead) or _reads_cells(left.cell) or _reads_cells(node.right):
        return None
    return left, shift


def _reads_cells(e) -> bool:
    if isinstance(e, (N.CellRead, N.Slide, N.Helper, N.Apply, N.Aggregate)):
        return not (isinstance(e, N.Helper) and e.name in _VALUE_HELPERS and not any(_reads_cells(p) for p in e.args))
    return any(_reads_cells(p) for p in parts(e))


def _twin(name: str, m: int, cells: int, functions: dict, twins: dict, out: list, native: bool,
          xrays: set) -> str:
    key = (name, m)
    if key not in twins:
        twin = twins[key] = f"{name}__noted{m}"
        _name, params, comment, body, sig = functions[name]
        tree, names, line, lets = body
        out.append(None)  # its place, kept while its own calls are made
        at = len(out) - 1
        noted_lets = tuple(attrs.evolve(a, value=_noted(a.value, m, cells, functions, twins, out, native, xrays))
                           for a in lets)
        out[at] = (twin, params, comment.rstrip() + " (its reads noted: a remembered ensure)",
                   (_noted(tree, m, cells, functions, twins, out, native, xrays), names, line, noted_lets), sig)
    return twins[key]


def _remembered(ensure_lines: tuple, fp: FootprintIR, slots: list) -> tuple:
    """The trial reading the memo: remembered first (once in the position), its writes made,
    the value remembered returned when they all miss what the condition read."""
    before, body, put_back, line = ensure_lines
    memo = N.Field(T.INT, 0, f"_memo{fp.memo}")
    me = N.Local(T.INT, 0, "me")
    first = S.If(line, ((N.Binary(T.BOOL, 0, "==", memo, N.Const(T.INT, 0, 0)),
                         (S.Assign(line, memo, "=", N.Method(T.INT, 0, f"_remember{fp.memo}", (me,))),)),), None)
    test = N.Binary(T.BOOL, 0, "!=", memo, N.Const(T.INT, 0, 3))
    for at in slots:
        was = N.Local(T.INT, 0, "_was" + at[len("_at"):])
        missed = N.Method(T.BOOL, 0, f"_missed{fp.memo}", (N.Local(T.INT, 0, at), was))
        test = N.Binary(T.BOOL, 0, "and", test, missed)
    marks = N.Field(T.INT, 0, f"_xmark{fp.memo}")  # (x-ray) 1: a cell that stopped a walk emptied, 2: a cell past one written
    if fp.xray:  # both in one trial: the walk past the emptied cell may meet the write, so it is read again
        test = N.Binary(T.BOOL, 0, "and", test, N.Binary(T.BOOL, 0, "!=", marks, N.Const(T.INT, 0, 3)))
    take = S.If(line, ((test, (S.Return(line, N.Binary(T.BOOL, 0, "==", memo, N.Const(T.INT, 0, 2))),)),), None)
    if fp.xray:
        take = (S.Assign(line, marks, "=", N.Const(T.INT, 0, 0)), take)
    else:
        take = (take,)
    # a cell written in a branch: its slot stays -1 when the branch is not taken, and its code
    # before is then given but not read (a Python local must still hold something)
    top = {st.target.name for st in body if isinstance(st, S.Assign) and isinstance(st.target, N.Local)}
    unset = tuple(S.Assign(line, N.Local(T.INT, 0, "_was" + at[len("_at"):]), "=", N.Const(T.INT, 0, 0))
                  for at in slots if "_was" + at[len("_at"):] not in top)
    return (*before, *unset), (first, *body[:-1], *take, body[-1]), put_back, line


def _forgetting(st, remembered: set, memos: dict):
    """A step whose generator tries an action with a remembered ensure: the memos forgotten as
    it starts."""
    if not _methods(tuple(st.move_lines)) & {f"_ensure_{i}" for i in remembered}:
        return st
    forget = tuple(S.Assign(0, N.Field(T.INT, 0, f"_memo{fp.memo}"), "=", N.Const(T.INT, 0, 0))
                   for fp in memos.values())
    return attrs.evolve(st, move_lines=[*forget, *st.move_lines])
