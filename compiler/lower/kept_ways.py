"""Legality after the move, by the ways kept: an ``ensure`` of ways through walls, tested once
per position instead of once per candidate.

A wall placed is legal when it leaves ways open (``ensure all(reachable(B, a(p), to(p), W) for
p in players)``). The move generator tests each candidate wall by a trial (compiler/lower/
ensure.py): the wall put up, the searches run, the wall taken down. Yet a way that was open
before the wall stays open after it unless the wall crosses it. So, when the shape allows, the
generator first finds one way for each search in the position itself, once, and marks the walls
those ways cross (``K.mark_way`` into the grid's ``W_MARKS``; ``K.take_marks`` hands them over).
A candidate whose walls cross no marked way is legal without a trial; the others are tried as
before. What the marks say is proved, never guessed: it changes the time, not the moves.

The shape, checked on the rules (anything else keeps the plain trial):

- the condition is ``reachable(B, a, to, W)``, ``and`` of such, or ``all(... for p in S)`` of
  them, every one through the same walls W, and draws nothing at random;
- the trial's effects (those before the ``ensure`` that change what it reads) are lets and
  writes of single cells of W: ``put v at P on W`` or ``W[P] = v``;
- what the searches start from and go to, and S, read neither W nor the action's parameters
  or lets (the same for every candidate of the position);
- each written cell P reads no let of the effects, and W only as ``wall(W, ...)`` or
  ``beside(W, ...)`` (where a wall stands, not what stands there).

compiler/lower/actions.py asks :func:`plan` before the action's guards are placed (the lets the
cells read are then computed for every candidate) and :func:`lower` for the test. The searches
themselves (``distance`` and ``reachable`` through walls) are lowered here too
(:class:`WaysLowering`, mixed into the Lowerer).
"""
from __future__ import annotations

import attrs

from regle.dsl import ast

from ..check.geometry import wall_corners
from ..ir import nodes as N
from ..ir import types as T
from ..write.moves import Source
from .calls import draws
from .common import Ctx, _names_in, ast_nodes, nodes_through_defines
from .ensure import _split, trial_statements
from .grids import P_ATOM, gconst


@attrs.frozen
class WaysPlan:
    """An ensure that the ways kept can decide: the walls, the cells the trial writes, the
    condition."""
    walls: str
    cells: tuple  # the AST of each cell of W the trial writes
    cond: ast.Node


def plan(low, effects: list, prefix: list, arg_names: list) -> WaysPlan | None:
    """The plan for an action's ensure, or None when its shape is not the one above."""
    defines = low.sym.defines
    split = _split(effects, defines)
    if split is None or split[2]:  # no ensure, or one inside a procedure
        return None
    before, head, _, ens = split
    kept, blocks = trial_statements(before, head, defines)
    if blocks:
        return None
    searches = _searches(ens.cond)
    if not searches or draws(ens.cond, defines):
        return None
    walls = {s.args[3].id if isinstance(s.args[3], ast.Name) else None for s in searches}
    if len(walls) != 1 or None in walls:
        return None
    (w,) = walls
    if w not in low.sym.grids or low.sym.grids[w].per:
        return None
    effect_lets = {s.name for s in kept if isinstance(s, ast.Let)}
    cells = []
    for stmt in kept:
        if isinstance(stmt, ast.Let):
            continue
        if isinstance(stmt, ast.Put) and isinstance(stmt.grid, ast.Name) and stmt.grid.id == w:
            cells.append(stmt.cell)
        elif isinstance(stmt, ast.Assign) and stmt.name == w and stmt.index is not None and stmt.op == "=":
            cells.append(stmt.index)
        else:
            return None
    if not cells or not all(_placed_only(cell, w, effect_lets) for cell in cells):
        return None
    varying = set(arg_names) | effect_lets | {s.name for s in prefix if isinstance(s, ast.Let)} | {w}
    for part in _position_parts(ens.cond):
        if {n.id for n in nodes_through_defines(part, defines) if isinstance(n, ast.Name)} & varying:
            return None
    return WaysPlan(w, tuple(cells), ens.cond)


def cells_read(ways: WaysPlan | None) -> set[str]:
    """The names the cells a trial writes read: lets the move generator then computes for every
    candidate (none without a plan)."""
    return _names_in(list(ways.cells)) if ways is not None else set()


def _searches(cond) -> list | None:
    """The reachable() calls the condition is made of, or None when it is made of more."""
    if isinstance(cond, ast.Call) and cond.func == "reachable" and len(cond.args) == 4:
        return [cond]
    if isinstance(cond, ast.BinOp) and cond.op == "and":
        left, right = _searches(cond.left), _searches(cond.right)
        return left + right if left and right else None
    if isinstance(cond, ast.Comp) and cond.func == "all" and cond.cond is None:
        return _searches(cond.elem)
    return None


def _position_parts(cond) -> list:
    """What the searches read besides their walls: the board, the starts, the targets, the
    collections walked."""
    if isinstance(cond, ast.Call):
        return list(cond.args[:3])
    if isinstance(cond, ast.BinOp):
        return _position_parts(cond.left) + _position_parts(cond.right)
    return [cond.source] + _position_parts(cond.elem)


def _placed_only(cell, walls: str, effect_lets: set) -> bool:
    """Whether a written cell reads no let of the effects, and the walls only as where a wall
    stands (``wall(W, ...)``, ``beside(W, ...)``)."""
    if _names_in(cell) & effect_lets:
        return False
    allowed = {id(n.args[0]) for n in ast_nodes(cell)
               if isinstance(n, ast.Call) and n.func in ("wall", "beside") and n.args}
    return all(id(n) in allowed for n in ast_nodes(cell) if isinstance(n, ast.Name) and n.id == walls)


def lower(low, ways: WaysPlan, ctx: Ctx, guard_ctx: Ctx, index: int, trial: N.Expr, line: int,
          hoisted: list) -> N.Expr:
    """The test of a candidate: its cells cross no marked way, or its trial holds; the marks
    (the walls the ways found cross, or every wall when a search finds none) added to
    ``hoisted``, computed once per position before the candidates' loops."""
    marks = f"{gconst(ways.walls)}_MARKS"
    low.way_marks_of.add(ways.walls)
    low.way_marks = marks
    try:
        found = low.boolean_tree(ways.cond, ctx)
    finally:
        low.way_marks = None
    var = f"_ways_{index}"
    hoisted.append(Source(line, var, low.helper("K.take_marks", T.ANY, N.Global(T.ANY, 0, marks), found), once=True,
                          c_type="bytes"))
    clear = None
    cells = [low.tree(cell, guard_ctx) for cell in ways.cells]
    for cell in cells:
        # a cell that is none reads the last mark, always set: the trial decides
        free = N.binary("==", N.Index(T.INT, 0, N.Local(T.MARKS, 0, var), cell), N.Const(T.INT, 0, 0), T.BOOL, line)
        clear = free if clear is None else N.binary("and", clear, free, T.BOOL, line)
    hang = _hanging(low, ways, var, cells)
    if hang is not None:  # walls that close no loop of walls leave every way open
        clear = N.binary("or", clear, hang, T.BOOL, line)
    return N.binary("or", clear, trial, T.BOOL, line)


def _hanging(low, ways: WaysPlan, var: str, cells: list) -> N.Expr | None:
    """``K.walls_hang(W, corners, around, marks, w1[, w2])``: whether the one or two walls a
    candidate puts up touch the walls standing, or the board's edge, at one corner at most
    (then, the ways being open in the position, they stay open: a wall parts two squares only
    as part of a loop of walls); ``cells``: the trees of the wall places the candidate writes.
    Only for walls of a square board; None elsewhere."""
    sym = low.sym.grids[ways.walls]
    if len(ways.cells) > 2 or wall_corners(sym.geo) is None:
        return None
    low.wall_corners_of.add(ways.walls)
    g = gconst(ways.walls)
    return low.helper("K.walls_hang", T.BOOL, N.Field(T.ANY, 0, f"g_{ways.walls}"), N.Global(T.ANY, 0, f"{g}_CORNERS"),
                      N.Global(T.ANY, 0, f"{g}_AROUND"), N.Local(T.ANY, 0, var), *cells)


class WaysLowering:
    """Mixed into :class:`lower.Lowerer`: ``distance`` and ``reachable`` over a board, through no
    wall of F when given, to a cell, cells or a side (a side as its mask of cells, a target
    tested in one read). Each reachable() call keeps its last ways (``G_WAYS_k``); while a
    position's ways are marked (:func:`lower`), it marks the walls its way crosses instead."""

    def walled_search(self, f: str, args: list, ctx: Ctx, sym):
        g, deg = gconst(sym.name), sym.geo.deg
        slots = fence = N.Const(T.ANY, 0, None)
        if len(args) == 4:
            fence, walls = self.walls_of(args[3], ctx, sym)
            if walls is None:
                return "0", T.ANY, P_ATOM
            slots = N.Table(T.ANY, 0, f"{gconst(walls.name)}_SLOTS")
        a = self.cell_tree(args[1], ctx, sym)
        to_type = None if isinstance(args[2], ast.Str) else self.tree(args[2], ctx).type
        if to_type is not None and to_type.kind == "enum" and to_type.name == sym.edges:
            self.side_masks_of.add(sym.name)
            b = N.Index(T.ANY, 0, N.Global(T.ANY, 0, f"{g}_SIDE_MASKS"), self.tree(args[2], ctx))
        elif to_type is not None and to_type.kind in ("list", "zone", "enum"):
            b = self.cell_list(args[2], ctx, sym)
        else:
            b = self.cell_tree(args[2], ctx, sym)
        if f == "distance":
            return self.helper("K.walled_distance", T.INT, self.adj_table(g), deg, slots, fence, a, b)
        if self.way_marks is not None:  # (no ways kept: every action of a step shares the marks)
            return self.helper("K.mark_way", T.BOOL, self.adj_table(g), deg, slots, fence, a, b,
                               N.Global(T.ANY, 0, self.way_marks), N.Const(T.ANY, 0, None))
        k = self.way_memos.get(sym.name, 0)
        self.way_memos[sym.name] = k + 1
        return self.helper("K.reachable", T.BOOL, self.adj_table(g), deg, slots, fence, a, b,
                           N.Global(T.ANY, 0, f"{g}_WAYS_{k}"))
