"""A pass over an ensure's trial: the cells it writes put back one by one, not the whole grid.

An ``ensure`` trial (compiler/lower/ensure.py) runs the effects before the ``ensure`` on the state
itself and puts back what they changed. For a grid it used to keep a copy of all its cells and
copy them back, for every candidate move: a chess move writes two squares of 64, a Go stone
one point of 81. When every write of a grid in the trial is one cell at a time (``put``,
``clear`` of a cell), outside any loop, each such write is journaled instead: the cell and its
old value are kept in two locals (C numbers natively) just before it is written, and put back
in the reverse order afterwards. A grid written any other way (a kernel given the grid, a loop
of writes, text) keeps the whole copy.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import statements as S
from ..ir import types as T
from ..ir.traverse import parts, rebuild


def is_grid(e, attr: str) -> bool:
    """Whether ``e`` is the grid: the state's field, or the local it is read once into."""
    return isinstance(e, N.Field) and e.attr == attr or isinstance(e, N.Local) and e.name == attr


def cell_of(target, attr: str):
    """The cell of the grid ``attr`` that an assignment's target is (a byte of a grid of
    elements, a number of a grid of numbers), else None."""
    if isinstance(target, N.Index) and is_grid(target.obj, attr):
        return target.index
    if isinstance(target, N.NumberCell) and is_grid(target.grid, attr):
        return target.cell
    return None


def _mentions(value, attr: str) -> bool:
    if is_grid(value, attr):
        return True
    return any(_mentions(p, attr) for p in parts(value))


def cell_writes(block, attr: str) -> list | None:
    """The statements of ``block`` that write one cell of the grid ``attr``, in order; None when
    the grid may be written otherwise or a cell write may run more than once (in a loop)."""
    sites: list = []
    return sites if _scan(block, attr, False, sites) else None


def _scan(value, attr: str, in_loop: bool, sites: list) -> bool:
    if isinstance(value, N.Expr):  # expressions read; they never write
        return True
    if isinstance(value, S.Assign):
        target = value.target
        if cell_of(target, attr) is not None:
            if in_loop or value.op != "=":
                return False
            sites.append(value)
            return True
        if is_grid(target, attr):  # only the local the grid is read once into
            return isinstance(target, N.Local) and isinstance(value.value, N.Field) and value.value.attr == attr
        return True
    if isinstance(value, S.Eval):  # a helper given the grid, or a method of the state, may write it
        return not (_mentions(value.value, attr) or isinstance(value.value, (N.Method, N.Apply)))
    if isinstance(value, S.Line):  # text: what it writes is not known
        return False
    inner = in_loop or isinstance(value, (S.For, S.While))
    return all(_scan(p, attr, inner, sites) for p in parts(value))


class _Many(list):
    """Statements that take the place of one in its block."""


def journal(block: list, grids: list[str], line: int) -> tuple[list, list, list, list[str], set[str]] | None:
    """For the grids (their fields' names, ``g_board``) whose every write in ``block`` is one
    cell outside loops: (the block with each such write journaled, the statements that start
    the journal, those that put the cells back, the locals it uses, those grids). None when no
    grid qualifies."""
    sites: dict[int, tuple[int, str]] = {}  # id of a write -> (its number, the grid's field)
    journaled: set[str] = set()
    numbers: set[str] = set()  # the grids of numbers among them
    for attr in grids:
        found = cell_writes(block, attr)
        if found is None:
            continue
        journaled.add(attr)
        for st in found:
            sites[id(st)] = (len(sites), attr)
            if isinstance(st.target, N.NumberCell):
                numbers.add(attr)
    if not journaled:
        return None

    def at(k: int) -> N.Local:
        return N.Local(T.INT, 0, f"_at{k}")

    def cell(attr: str, grid: N.Expr, k: int, written: bool) -> N.Expr:
        """Cell k of the grid, to read its old value or to write one (a byte: as indexing)."""
        if attr in numbers:
            return N.NumberCell(T.INT, 0, grid, at(k))
        return N.Index(T.INT, 0, grid, at(k)) if written else N.CellRead(T.INT, 0, grid, at(k))

    def rewrite(value):
        if isinstance(value, (tuple, list)):
            out: list = []
            for item in value:
                new = rewrite(item)
                out.extend(new) if isinstance(new, _Many) else out.append(new)
            return type(value)(out) if isinstance(value, tuple) else out
        if isinstance(value, S.Assign) and id(value) in sites:
            k, attr = sites[id(value)]
            target = value.target
            grid = target.grid if isinstance(target, N.NumberCell) else target.obj
            return _Many([S.Assign(value.line, at(k), "=", cell_of(target, attr)),
                          S.Assign(value.line, N.Local(T.INT, 0, f"_was{k}"), "=", cell(attr, grid, k, False)),
                          S.Assign(value.line, cell(attr, grid, k, True), "=", value.value)])
        if isinstance(value, S.Stmt):
            return rebuild(value, rewrite)
        return value

    order = sorted(sites.values())
    start = [S.Assign(line, at(k), "=", N.Const(T.INT, 0, -1)) for k, _attr in order]
    back = [S.If(line, ((N.Binary(T.BOOL, 0, ">=", at(k), N.Const(T.INT, 0, 0)),
                         (S.Assign(line, cell(attr, N.Field(T.ANY, 0, attr), k, True), "=",
                                   N.Local(T.INT, 0, f"_was{k}")),)),))
            for k, attr in reversed(order)]
    names = [name for k, _attr in order for name in (f"_at{k}", f"_was{k}")]
    return rewrite(list(block)), start, back, names, journaled
