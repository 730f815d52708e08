"""Notices lowered: the rules' words a page shows in a position (``notice "check" when ...``).

A notice is for people only: play never reads it. Each becomes a condition and the cells to
outline, as trees the writers turn into the engine's ``notices()`` method. The cells are one of:

- ``one``: a cell (``at first(filled_cells(board, king, me))``; none outlines nothing);
- ``many``: a list of cells (``at chain(board, c)``);
- ``each``: the cells of a source that meet a condition (``at c for c in SRC where COND``);
  such a notice holds only where at least one cell does.

A notice is shown to every seat, so it may read only what every seat sees: a notice reading a
hidden or private place is refused at its line (the page of a browser must not give a hand away).
"""
from __future__ import annotations

import attrs

from regle.dsl import ast

from ..check.analysis import PUBLIC, secrecy
from ..ir import nodes as N
from ..ir import types as T
from .calls import fresh_local
from .common import Ctx


@attrs.define
class NoticeIR:
    text: str
    line: int
    cond: N.Expr | None  # None: it holds wherever its cells do
    form: str  # "none" | "one" | "many" | "each"
    grid: str | None  # the grid its cells are on
    at: N.Expr | None = None  # the cell, the cells, or (each) the element
    var: str | None = None  # each: the loop variable's local
    source: N.Expr | None = None  # each: what it loops over
    where: N.Expr | None = None  # each: the condition a cell meets


def lower_notices(low, sym) -> list[NoticeIR]:
    """Every notice of the rules, in the order written."""
    out, seen = [], {}
    for node in sym.notices:
        if node.text in seen:
            low.error(f'a second notice "{node.text}"', node.pos,
                      f"the first is at line {seen[node.text]}; a notice is named by its words: merge the two")
            continue
        seen[node.text] = node.pos[0]
        made = _notice(low, sym, node)
        if made is not None:
            out.append(made)
    return out


def _cell_space(ty: T.Type) -> str | None:
    return ty.space if ty.kind == "cell" else None


def _notice(low, sym, node: ast.Notice) -> NoticeIR | None:
    if node.cond is None and node.at is None:
        low.error("a notice says when it is shown", node.pos,
                  f'notice "{node.text}" when COND, or notice "{node.text}" at c for c in CELLS where COND')
        return None
    for part in (node.cond, node.at, node.source, node.where):
        if part is not None and secrecy(part, "me", sym) != PUBLIC:
            low.error("a notice is shown to every seat, and this reads a hidden or private place", part.pos,
                      "say only what every seat can see (how full a place is, the board)")
            return None
    ctx = Ctx("notice", has_me=True)
    cond = low.boolean_tree(node.cond, ctx) if node.cond is not None else None
    if node.at is None:
        return NoticeIR(node.text, node.pos[0], cond, "none", None)
    if node.var is None:
        at = low.tree(node.at, ctx)
        ty = at.type
        if _cell_space(ty):
            return NoticeIR(node.text, node.pos[0], cond, "one", ty.space, at)
        if ty.kind in ("list", "zone") and ty.elem is not None and _cell_space(ty.elem):
            return NoticeIR(node.text, node.pos[0], cond, "many", ty.elem.space, at)
        low.error(f"a notice outlines a cell or a list of cells, but this is {ty}", node.at.pos,
                  "at first(filled_cells(board, king, me)), or at c for c in CELLS where COND")
        return None
    source, ty = low.collection_tree(node.source, ctx)
    var = fresh_local(node.var, ctx)
    inner = ctx.child(**{node.var: N.Local(ty.elem or T.ANY, 0, var)})
    at = low.tree(node.at, inner)
    if not _cell_space(at.type):
        low.error(f"a notice outlines cells, but this is {at.type}", node.at.pos,
                  "at c for c in filled_cells(board) where ...")
        return None
    where = low.boolean_tree(node.where, inner) if node.where is not None else None
    return NoticeIR(node.text, node.pos[0], cond, "each", at.type.space, at, var, source, where)
