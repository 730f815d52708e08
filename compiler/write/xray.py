"""Natively, what a remembered ensure's walk notes past the cell that stops it, and in front of it.

compiler/passes/ensure_memo.py gives an ``any`` over a ``reach`` whose test reads the grid only
at the walk's cell its test (``Slide.xray``); the native writer walks it in C
(``CythonWriter.aggregate_walk``) and, when the memo's first reading makes it, adds the lines
written here after the walk:

- the cells it passed, empty (its test is not asked of them): when the walk is false, each is
  marked as one a trial may fill (``_xf``, with the names its test reads besides the cell:
  ``_xv``), and ``_missed`` asks the test of the code the trial put there (``_xfill``): a piece
  whose test fails stops the walk there, and it stays false. A walk that found what it looks
  for, or a cell another part read, is read whole (-1) as before;
- past the filled cell that stopped it (x-ray): the next filled cell, each cell met marked
  (``_xc`` 1); when the test fails there too, the stopping cell keeps the mark it had and is
  marked (``_xc`` 2): emptied by a trial that writes no cell past it, the walk stays false.

Exact: read again after a trial, the walk meets the same cells up to the first one written; a
filled one its test fails on stops it, false; an emptied stopping cell lets it go on over the
cells the x-ray read, unchanged, to a cell its test failed on.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from ..ir.traverse import over, walk as nodes_of

#: how many names besides the cell a walk's test may read for its cells to be kept for a fill
#: (chess's: the seat and the direction); a test reading more leaves its empty cells read whole
FILL_NAMES = 4
#: the name of the code a trial put in the cell, in the fill's test
CODE = "code_"


def fill_test(raw: N.Expr, var: str) -> tuple[list[str], N.Expr] | None:
    """The walk's test of a cell holding ``code_`` (its reads of the cell, the only cell it
    reads, made that name) and the names it reads besides (C numbers each), or None when it
    reads more names than are kept or a name of another kind."""
    def change(value):
        if isinstance(value, N.CellRead) and isinstance(value.cell, N.Local) and value.cell.name == var:
            return N.Local(T.INT, 0, CODE)
        return over(value, change)
    test = change(raw)
    names: dict[str, None] = {}
    for n in nodes_of(test):
        if isinstance(n, N.CellRead):
            return None
        if isinstance(n, N.Local) and n.name not in (CODE, "s"):
            if n.type.kind not in ("int", "player", "enum", "item", "cell", "lane", "direction", "bool"):
                return None
            names[n.name] = None
    return (list(names), test) if len(names) <= FILL_NAMES else None


def tail(writer, walk: N.Slide, var: str, ok: str, start: str, steps: str, unchecked: str | None,
         raw: N.Expr | None) -> list[str]:
    """The lines after a remembered walk (the module's docstring says what they note); ``raw``:
    its test as the rules wrote it (None: no fill kept)."""
    m, d, deg, table = walk.noted, writer.code(walk.direction, N.P_MUL), walk.degree, walk.table.name
    filled = (f"_p_{unchecked}[{var}] != 0" if unchecked is not None
              else f"{writer.code(N.CellRead(T.INT, 0, walk.grid, N.Local(T.INT, 0, var)))} != 0")
    fill = None if raw is None else fill_test(raw, var)
    kinds = writer.xfills.setdefault(m, [])
    y = steps + "_y"
    lines = [f"{y} = _table_at(_p_{table}, {start}, {deg}, {d})  # the empty cells it passed, from the first",
             f"for {steps}_i in range({steps} - 1 if {steps}_full else {steps}):"]
    if fill is not None:
        kinds.append((fill[0], writer.code(fill[1])))
        stores = [f"        s._xv{m}[{y} * {FILL_NAMES} + {i}] = {name}" for i, name in enumerate(fill[0])]
        lines += [f"    if not {ok} and not {steps}_all and s._seen{m}[{y}] == 0 and s._xf{m}[{y}] == 0:",
                  f"        s._xf{m}[{y}] = {len(kinds)}", *stores,
                  "    else:",
                  f"        s._seen{m}[{y}] = -1"]
    else:
        lines.append(f"    s._seen{m}[{y}] = -1")
    lines.append(f"    {y} = _table_at(_p_{table}, {y}, {deg}, {d})")
    return lines + [
        f"if not {ok} and {steps}_full and not {steps}_all and {steps}_prev >= 0:",
        f"    {steps}_xb = {var}",
        f"    {steps}_xok = True",
        f"    {var} = _table_at(_p_{table}, {var}, {deg}, {d})",
        f"    while {var} >= 0 and {var} != {start} and {steps} < {walk.cells}:",
        f"        s._xc{m}[{var}] |= 1",
        f"        {steps} += 1",
        f"        if {filled}:",
        f"            if {writer.code(walk.xray)}:",
        f"                {steps}_xok = False",
        "            break",
        f"        {var} = _table_at(_p_{table}, {var}, {deg}, {d})",
        f"    if {steps}_xok:",
        f"        s._seen{m}[{steps}_xb] = {steps}_prev",
        f"        s._xc{m}[{steps}_xb] |= 2"]
