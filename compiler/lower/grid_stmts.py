"""Statements over grids: put, move, clear, drop, settle, rotate/reflect/copy, place, push, end turn
(see docs/language.md, "Grids"), each lowered to the statement IR (compiler/ir/statements.py)."""
from __future__ import annotations

from regle.dsl import ast

from ..ir import nodes as N
from ..ir import statements as S
from ..ir import types as T
from .grids import gconst


class GridStatementLowering:
    """Mixed into :class:`lower.Lowerer`."""

    def s_Put(self, node: ast.Put, ctx) -> list[S.Stmt]:
        """``put X at C on G``; C may be a list of cells, each given X (computed once)."""
        grid, sym = self.grid_tree(node.grid, ctx)
        value = self.element_tree(node.value, ctx, sym)
        cell = self.cell_tree(node.cell, ctx, sym, lists=True)
        if sym is not None and sym.elem.kind == "int":  # a grid of numbers holds them as they are
            value = self.helper("ops.number", T.INT, value, c_form=False)
        else:
            value = self.stored(value)
        line = node.pos[0]
        if cell.type.kind not in ("list", "zone"):
            return [S.Assign(line, self.cell_slot(grid, sym, cell), "=", value)]
        # a list of cells: the value once into a local, then each cell of the list given it
        self._runs += 1
        held, each = N.Local(T.INT, 0, f"_put{self._runs}"), N.Local(cell.type.elem or T.ANY, 0, f"_at{self._runs}")
        ctx.note_local(held.name, T.INT)
        ctx.note_local(each.name, each.type)
        return [S.Assign(line, held, "=", value),
                S.For(line, each.name, cell, (S.Assign(line, self.cell_slot(grid, sym, each), "=", held),),
                      copy=cell.type.kind == "zone")]

    def s_MovePiece(self, node: ast.MovePiece, ctx) -> list[S.Stmt]:
        """``move c to t on G``: what c holds taken into a local, c emptied, then t given it (so
        moving a piece to its own cell leaves it there)."""
        grid, sym = self.grid_tree(node.grid, ctx)
        cell, to = self.cell_tree(node.cell, ctx, sym), self.cell_tree(node.to, ctx, sym)
        held = N.Local(T.INT, 0, "_moved")  # (no rules name starts with _)
        ctx.note_local(held.name, T.INT)
        line = node.pos[0]
        numbers = sym is not None and sym.elem.kind == "int"
        read = self.cell_slot(grid, sym, cell) if numbers else self.cell_read(grid, cell)  # natively a C read
        return [S.Assign(line, held, "=", read),  # the stored code itself
                S.Assign(line, self.cell_slot(grid, sym, cell), "=", N.Const(T.INT, 0, 0)),
                S.Assign(line, self.cell_slot(grid, sym, to), "=", held)]

    def s_Clear(self, node: ast.Clear, ctx) -> list[S.Stmt]:
        gtree, sym = self.grid_tree(node.grid, ctx)
        to = self.optional_zone(node.to, ctx, sym)
        what = self.tree(node.what, ctx)
        ty = what.type
        if ty.kind == "group":
            if sym is not None and ty.space != sym.name:
                self.error(f"this group is from grid '{ty.space}', not '{sym.name}'", node.what.pos)
            g = gconst(sym.name) if sym else "G"
            cells = self.helper("ops.group_cells", T.ANY, gtree, self.adj_table(g), sym.geo.deg if sym else 4, what)
            return [self.effect(node, "ops.clear_cells", gtree, cells, to)]
        if ty.kind in ("list", "zone") and (ty.elem is None or ty.elem.kind in ("cell", "any")):
            # a list of cells (a chain, a region): each emptied, its element to Z when given
            return [self.effect(node, "ops.clear_cells", gtree, what, to)]
        if ty.kind not in ("cell", "int", "any"):
            self.error(f"clear takes a cell, a list of cells or a group, not {ty}", node.what.pos)
        if node.to is None:  # one cell emptied: what clear_cells does for it, without a call
            return [S.Assign(node.pos[0], self.cell_slot(gtree, sym, what), "=", N.Const(T.INT, 0, 0))]
        return [self.effect(node, "ops.clear_cells", gtree, N.ListOf(T.list_of(ty), 0, (what,)), to)]

    def effect(self, node: ast.Node, qualified: str, *args) -> S.Eval:
        """A statement that is a call of a runtime helper (or kernel) for what it does."""
        return S.Eval(node.pos[0], self.helper(qualified, T.ANY, *args))

    def s_Drop(self, node: ast.Drop, ctx) -> list[S.Stmt]:
        grid, sym = self.grid_tree(node.grid, ctx, "lanes", "drop")
        value = self.element_tree(node.value, ctx, sym)
        lane = self.number_tree(node.lane, ctx)
        taking = self.optional_zone(node.taking, ctx, sym)
        overflow = self.optional_zone(node.overflow, ctx, sym)
        g = gconst(sym.name) if sym else "G"
        return [self.effect(node, "ops.drop_into", grid, *self.board_size(g, sym), lane, value, taking, overflow)]

    def s_Settle(self, node: ast.Settle, ctx) -> list[S.Stmt]:
        grid, sym = self.grid_tree(node.grid, ctx, "lanes", "settle")
        g = gconst(sym.name) if sym else "G"
        return [self.effect(node, "K.settle", grid, *self.board_size(g, sym))]

    def s_Rotate(self, node: ast.Rotate, ctx) -> list[S.Stmt]:
        """``rotate``/``reflect``/``copy`` a square block of a board's cells (``ops.turn_block``)."""
        what = "copy" if node.to is not None else "reflect" if node.turns is None else "rotate"
        grid, sym = self.grid_tree(node.grid, ctx, None, what)
        if sym is None:
            return []
        if sym.geo.kind not in ("square", "lanes"):
            self.error(f"{what} works on a block of rows and columns: a square board or lanes, not a "
                       f"{sym.geo.kind} board", node.pos)
            return []
        g = gconst(sym.name)
        corner, size = self.cell_tree(node.corner, ctx, sym), self.number_tree(node.size, ctx)
        turns = self.number_tree(node.turns, ctx) if node.turns is not None else 0
        to = self.cell_tree(node.to, ctx, sym) if node.to is not None else -1
        mirror = int(node.turns is None and node.to is None)
        helper = "ops.turn_block" if sym.elem.kind == "int" else "K.turn_cells"  # bytes: the kernel
        return [self.effect(node, helper, grid, *self.board_size(g, sym), int(sym.geo.kind == 'lanes'),
                            corner, size, turns, mirror, to)]

    def s_Place(self, node: ast.Place, ctx) -> list[S.Stmt]:
        key = self.tree(node.placement, ctx)
        if key.type.kind not in ("placement", "any"):
            self.error(f"expected a placement (from placements()), but this is {key.type}", node.placement.pos)
        pat = self.pattern_of(node.pattern, ctx, "expected a pattern here")
        grid, sym = self.grid_tree(node.grid, ctx, "lanes", "place")
        taking = self.optional_zone(node.taking, ctx, sym)
        overflow = self.optional_zone(node.overflow, ctx, sym)
        g = gconst(sym.name) if sym else "G"
        return [self.effect(node, "ops.place", grid, *self.board_size(g, sym), key, pat, taking, overflow)]

    def s_Push(self, node: ast.Push, ctx) -> list[S.Stmt]:
        key = self.tree(node.move, ctx)
        kty = key.type
        if kty.kind not in ("linemove", "any"):
            self.error(f"expected a line move (from line_moves()), but this is {kty}", node.move.pos)
        grid, sym = self.grid_tree(node.grid, ctx, "board", "push")
        if sym is None:
            return []
        g = gconst(sym.name)
        if node.body is None:
            return [self.effect(node, "ops.push", grid, self.adj_table(g), sym.geo.deg, key,
                                N.Global(T.ANY, 0, f"{g}_EXITS"))]
        who, sides = self.local(node.who), self.local(node.sides)
        side_t = T.enum(sym.edges) if sym.edges else T.INT
        inner = ctx.child(**{node.who: N.Local(sym.elem, 0, who), node.sides: N.Local(T.list_of(side_t), 0, sides)})
        body = self.block(node.body, inner)
        deg = sym.geo.deg
        # the kernel moves the line; a piece that left the board is returned with its last cell
        # and direction, which name the sides it crossed
        pushed = self.helper("K.apply_line_key", T.ANY, grid, self.adj_table(g), deg, key)
        left_, last_, d_ = (N.Local(T.INT, 0, name) for name in ("_left", "_last", "_d"))
        exits = N.Index(T.list_of(side_t), 0, N.Global(T.ANY, 0, f"{g}_EXITS"),
                        N.binary("+", N.binary("*", last_, N.Const(T.INT, 0, deg), T.INT), d_, T.INT))
        piece = N.binary("-", left_, N.Const(T.INT, 0, 1), sym.elem)
        line = node.pos[0]
        named = N.Tuple(T.ANY, 0, (inner.scope[node.who], inner.scope[node.sides]))
        left = S.Assign(line, named, "=", N.Tuple(T.ANY, 0, (piece, exits)))
        return [S.Assign(line, N.Tuple(T.ANY, 0, (left_, last_, d_)), "=", pushed),
                S.If(line, ((left_, (left, *body)),))]

    def s_Again(self, node: ast.Again, ctx) -> list[S.Stmt]:  # the checker rewrote those of the actions
        self.error("'again' stands among an action's own effects (not in a define, the setup or an automatic "
                   "step): the action is played again by the same player", node.pos)
        return []

    def s_EndTurn(self, node: ast.EndTurn, ctx) -> list[S.Stmt]:
        if ctx.where == "effect":
            return [S.Eval(node.pos[0], N.Apply(T.ANY, 0, "s._enter", (N.Const(T.INT, 0, self.nsteps),))),
                    S.Return(node.pos[0])]
        if ctx.where == "auto":
            return [S.Return(node.pos[0], N.Const(T.BOOL, 0, True))]
        self.error("'end turn' belongs in the turn (in an action or an automatic step)", node.pos)
        return []
