"""Lowering of grids (square, lanes, hex boards) and the kernel built-ins that work on them.

Mixed into :class:`lower.Lowerer`. A grid is a bytearray holding element code + 1 (0 = empty);
its geometry tables are module constants (``G_<NAME>_ADJ`` ...) computed at generation time.
Results of kernels that players choose among (groups, placements, line moves) are single ints
("keys", see ``regle.runtime.ops``), so they travel in moves like any other argument.
"""
from __future__ import annotations

import attrs

from regle.dsl import ast

from ..ir import nodes as N
from ..ir import types as T
from ..check import geometry
from ..check.symbols import NotConstant, fold_constant, suggest

P_ATOM = 8
#: the grid functions that read only the board's geometry, never what its cells hold
GEOMETRY_ONLY = frozenset({"column", "cell", "neighbour", "neighbours", "directions", "ray", "distance",
                           "edge_cells", "lanes", "sides", "houses", "store", "opposite", "cells", "row", "lane",
                           "around", "lines", "leaps", "wall", "beside", "shade", "line"})
#: each direction's name and the name of the direction opposite it, on every board
OPPOSITE_NAMES = {"e": "w", "w": "e", "n": "s", "s": "n", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw",
                  "ccw": "cw", "cw": "ccw"}
#: the values (seats, members) whose lines an end condition's memo remembers (others: a scan)
MEMO_VALUES = 8

GRID_FUNCTIONS = {"cells", "empty_cells", "filled_cells", "content", "is_empty", "row", "lane",
                  "lane_count", "groups", "largest_zone", "placements", "line_moves",
                  "column", "cell", "neighbour", "neighbours", "directions", "ray", "distance",
                  "edge_cells", "in_a_row", "connected", "flanked", "houses", "store", "opposite", "chain",
                  "sides", "lanes", "around", "liberties", "slide", "blocker", "lines", "leaps", "reach",
                  "in_a_row_exactly", "wall", "beside", "reachable", "shade", "line", "ring"}
#: how many arguments each grid function takes
ARITY = {"cells": range(1, 257), "empty_cells": (1,), "filled_cells": (1, 2, 3), "content": (2,), "is_empty": (2,),
         "row": (2,), "lane": (2,), "lane_count": (2,), "groups": (2, 3, 4), "largest_zone": (2, 3),
         "placements": (2, 3), "line_moves": (2, 3), "column": (2,), "cell": (2, 3),
         "neighbour": (3, 4), "neighbours": (2, 3), "directions": (1,), "ray": (3,), "distance": (3, 4),
         "edge_cells": (2,), "in_a_row": (3,), "connected": (4,), "flanked": (3, 4), "houses": (2,),
         "store": (2,), "opposite": (2,), "chain": (2,), "sides": (2,), "lanes": (1,),
         "around": (2,), "liberties": (2,), "slide": (3,), "blocker": (3,), "reach": (3,), "lines": (1, 2),
         "in_a_row_exactly": (3,), "leaps": (4,), "wall": (3,), "beside": (2,), "reachable": (3, 4),
         "shade": (2,), "line": (3,), "ring": (2,)}
#: functions that read pieces through the compiled kernels: not for grids of numbers
_PIECE_FUNCTIONS = {"groups", "largest_zone", "placements", "line_moves", "in_a_row", "in_a_row_exactly",
                    "connected", "flanked", "lane_count", "chain", "liberties", "ring"}


def gconst(name: str) -> str:
    return f"G_{name}_"


def owns_table(grid_attr: str, table: str) -> bool:
    """Whether ``table`` (``G_board__ADJ``, ``G_board__LEAP_1_2``) is one of the grid's own,
    the grid named by its state attribute or the local it is read into (``g_board``): every
    cell the table gives is one of that grid's (``_LINE_IDS`` gives lines' numbers: not cells)."""
    return grid_attr.startswith("g_") and table.startswith(gconst(grid_attr[2:]) + "_") and not table.endswith("_LINE_IDS")


class GridLowering:
    """Expression and statement forms for grids (see docs/language.md, "Grids")."""

    # ---- helpers ------------------------------------------------------------------------
    def cell_read(self, grid: N.Expr, cell) -> N.CellRead:
        """What a cell of a grid of pieces (a bytearray) holds (N.CellRead)."""
        return N.CellRead(T.INT, 0, grid, self.node(cell))

    @staticmethod
    def cell_slot(grid: N.Expr, sym, cell: N.Expr) -> N.Expr:
        """A cell of a grid as a place statements write: a number of a grid of numbers, else
        the byte of a grid of elements (the element + 1, 0 when empty)."""
        kind = N.NumberCell if sym is not None and sym.elem.kind == "int" else N.Index
        return kind(T.INT, 0, grid, cell)

    def grid_tree(self, node: ast.Node, ctx, shape: str | None = None, what: str = "this") -> tuple[N.Expr, object]:
        """Lower an expression that must be one grid: returns (its tree, GridSym or None)."""
        tree = self.tree(node, ctx)
        ty = tree.type
        if ty.kind == "grids":
            self.error(f"'{ty.space}' is a grid per {ty.per}: say whose, e.g. {ty.space}[me]", node.pos)
            return N.Apply(T.ANY, 0, "bytearray", ()), None
        if ty.kind != "grid":
            if ty.kind != "any":
                self.error(f"expected a grid here, but this is {ty}", node.pos)
            return N.Apply(T.ANY, 0, "bytearray", ()), None
        sym = self.sym.grids[ty.space]
        if ty.elem is not None and ty.elem != sym.elem:  # seen through a column: its cells hold that
            sym = attrs.evolve(sym, elem=ty.elem)
        if shape and sym.geo.kind != shape and not (shape == "board" and sym.geo.kind in ("hex", "square")):
            self.error(f"{what} needs a grid of {shape}, but '{sym.name}' is {sym.geo.kind}", node.pos)
        return tree, sym

    def element_tree(self, node: ast.Node, ctx, sym) -> N.Expr:
        tree = self.tree(node, ctx)
        if sym is not None and not T.compatible(tree.type, sym.elem):
            self.error(f"grid '{sym.name}' holds {sym.elem}, not {tree.type}", node.pos)
        return tree

    @staticmethod
    def stored(element: N.Expr) -> N.Expr:
        """The code a grid of elements stores for an element: the element + 1 (0 is empty)."""
        return N.Binary(T.INT, 0, "+", element, N.Const(T.INT, 0, 1))

    def same_cells(self, a: str, b: str) -> bool:
        """Whether a cell of grid a may stand for a cell of grid b (grids shaped alike)."""
        return a == b or self.sym.grids[a].geo.cells == self.sym.grids[b].geo.cells

    def cell_tree(self, node: ast.Node, ctx, sym, lists: bool = False) -> N.Expr:
        """A cell of the grid: quoted ("d4") or a value; with ``lists``, a list of cells too."""
        cell_t = T.Type("cell", space=sym.name) if sym is not None else T.ANY
        if isinstance(node, ast.Str):  # a cell by its name: "d4"
            if sym is None:
                return N.Const(cell_t, 0, 0)
            names = sym.geo.cell_names()
            if node.value in names:
                return N.Const(cell_t, 0, names.index(node.value))
            self.error(f"grid '{sym.name}' has no cell \"{node.value}\"", node.pos,
                       suggest(node.value, names) or f"its cells are named {names[0]} to {names[-1]}")
            return N.Const(cell_t, 0, 0)
        tree = self.tree(node, ctx)
        ty = tree.type
        if lists and ty.kind in ("list", "zone") and (ty.elem is None or ty.elem.kind in ("cell", "int", "any")):
            if sym is not None and ty.elem is not None and ty.elem.kind == "cell" and ty.elem.space \
                    and not self.same_cells(ty.elem.space, sym.name):
                self.error(f"these are cells of grid '{ty.elem.space}', which is not shaped like '{sym.name}'",
                           node.pos)
            return tree
        if ty.kind not in ("cell", "int", "any"):
            self.error(f"expected a cell here{', or a list of cells' if lists else ''}, but this is {ty}", node.pos)
        elif sym is not None and ty.kind == "cell" and ty.space and not self.same_cells(ty.space, sym.name):
            self.error(f"this is a cell of grid '{ty.space}', which is not shaped like '{sym.name}'", node.pos)
        return tree

    def names_direction(self, node: ast.Node, ctx, sym) -> bool:
        """Whether an argument is a direction of the grid (quoted, or of a direction's type)."""
        if isinstance(node, ast.Str):
            return node.value in sym.geo.dirs and node.value not in sym.geo.cell_names()
        return self.tree(node, ctx).type.kind == "direction"

    @staticmethod
    def opposite_direction(d: N.Expr, sym) -> N.Expr:
        """The direction opposite ``d`` on the grid (a named direction's pair: e and w, ne and sw,
        ccw and cw...); folded when ``d`` is known."""
        ty = T.Type("direction", space=sym.name)
        table = tuple(sym.geo.dirs.index(OPPOSITE_NAMES[name]) if OPPOSITE_NAMES.get(name) in sym.geo.dirs else -1
                      for name in sym.geo.dirs)
        if isinstance(d, N.Const) and isinstance(d.value, int) and 0 <= d.value < len(table):
            return N.Const(ty, 0, table[d.value])
        return N.Index(ty, 0, N.Literal(T.list_of(T.INT), 0, table), d)

    def direction_tree(self, node: ast.Node, ctx, sym) -> N.Expr:
        """A direction of the grid: quoted ("ne") or a value from directions(G)."""
        dirs = sym.geo.dirs if sym is not None else ()
        if isinstance(node, ast.Str):
            if node.value in dirs:
                return N.Const(T.INT, 0, dirs.index(node.value))
            if sym is not None:
                self.error(f"grid '{sym.name}' has no direction \"{node.value}\"", node.pos,
                           "its directions: " + ", ".join(f'"{d}"' for d in dirs))
            return N.Const(T.INT, 0, 0)
        tree = self.tree(node, ctx)
        if tree.type.kind not in ("direction", "any"):
            self.error(f"expected a direction here (\"{dirs[0] if dirs else 'n'}\", or one of directions(G)), "
                       f"but this is {tree.type}", node.pos)
        return tree

    def cell_list(self, node: ast.Node, ctx, sym) -> N.Expr:
        """Cells given as a side of the board (a member of its edges enum) or a list of cells."""
        tree = self.tree(node, ctx)
        ty = tree.type
        if ty.kind == "enum" and sym is not None and sym.edges == ty.name:
            sides = N.Global(T.ANY, 0, f"{gconst(sym.name)}_SIDES")
            return N.Index(T.list_of(T.Type("cell", space=sym.name)), 0, sides, tree)
        if ty.kind in ("list", "zone") and (ty.elem is None or ty.elem.kind in ("cell", "int", "any")):
            return tree
        if ty.kind != "any":
            hint = (f"a side is a member of '{sym.edges}'" if sym is not None and sym.edges
                    else "give the board sides with 'edges ENUM', or a list of cells")
            self.error(f"expected a side of the board or a list of cells here, but this is {ty}", node.pos, hint)
        return N.ListOf(T.list_of(T.ANY), 0, ())

    def memo_allowed(self, grid: ast.Node, ctx, sym) -> bool:
        """Whether a query of a grid may keep a memo between turns: in an end condition itself
        (checked after every turn), not in a function or an aggregate, of a grid named directly
        that is not one per seat."""
        return (ctx.where == "end" and not self._in_function and not self._comp_depth
                and isinstance(grid, ast.Name) and not sym.per)

    def constant_side(self, node: ast.Node, ctx, sym) -> bool:
        """Whether cells given to a query are a side of the board named by its member (the same
        cells at every call)."""
        return (isinstance(node, ast.Name) and node.id not in ctx.scope and node.id in self.sym.members
                and self.sym.members[node.id][0] == sym.edges)

    def wild_code(self, node: ast.Node | None, ctx, sym) -> N.Expr:
        """The stored code of the wild element (0: none)."""
        if node is None:
            return N.Const(T.INT, 0, 0)
        return self.stored(self.element_tree(node, ctx, sym))

    def optional_zone(self, node: ast.Node | None, ctx, sym) -> N.Expr:
        """A zone a grid statement may take pieces from or give them to (``None`` when not said)."""
        if node is None:
            return N.Const(T.ANY, 0, None)
        tree, elem, _ = self.zone_tree(node, ctx)
        if sym is not None and not T.compatible(elem, sym.elem):
            self.error(f"zone holds {elem}, but grid '{sym.name}' holds {sym.elem}", node.pos)
        return tree

    def pattern_of(self, node: ast.Node, ctx, what: str) -> N.Expr:
        """A pattern's cells (``PATTERNS[k]``)."""
        pat = self.tree(node, ctx)
        if pat.type.kind not in ("pattern", "any"):
            self.error(f"{what}, but this is {pat.type}", node.pos)
        return N.Index(T.ANY, 0, N.Global(T.ANY, 0, "PATTERNS"), pat)

    def walls_of(self, node: ast.Node, ctx, board) -> tuple[N.Expr, object]:
        """A grid of walls standing on ``board`` (an argument of neighbours() or distance())."""
        tree, walls = self.grid_tree(node, ctx, "walls", "this argument")
        if walls is not None and walls.geo.kind == "walls" and walls.geo.base != board.geo:
            self.error(f"'{walls.name}' are walls of a board shaped otherwise than '{board.name}'", node.pos)
            return tree, None
        return tree, walls if walls is not None and walls.geo.kind == "walls" else None

    def wall_call(self, f: str, args: list, ctx, walls) -> object:
        """``wall(F, a, b)``: the place of F between two cells of its board (a cell and a
        direction also name it), none when they do not share a side; ``beside(F, w)``: the two
        cells a place of F stands between."""
        if walls.geo.kind != "walls":
            return "0", T.ANY, P_ATOM
        g, base = gconst(walls.name), walls.geo.base
        board = attrs.evolve(walls, name=walls.node.size[0].id, geo=base)
        cell_t = T.Type("cell", space=walls.name)
        if f == "beside":
            w = self.cell_tree(args[1], ctx, walls)
            return N.Index(T.list_of(T.Type("cell", space=board.name)), 0, N.Global(T.ANY, 0, f"{g}_ENDS"), w)
        a = self.cell_tree(args[1], ctx, board)
        if isinstance(args[2], ast.Str) and args[2].value in base.dirs or \
                not isinstance(args[2], ast.Str) and self.tree(args[2], ctx).type.kind == "direction":
            d = self.direction_tree(args[2], ctx, board)
            return N.Neighbour(cell_t, 0, f"{g}_SLOTS", base.deg, a, d)
        b = self.cell_tree(args[2], ctx, board)
        return self.helper("ops.wall_between", cell_t, self.adj_table(gconst(board.name)), base.deg,
                           N.Table(T.ANY, 0, f"{g}_SLOTS"), a, b)

    # ---- functions ----------------------------------------------------------------------
    def geometry(self, g: str, table: str, index, ty: T.Type = T.INT) -> N.Geometry:
        """An entry of one of a grid's tables (``ROWS``, ``COLUMNS``, ``ADJ``) by index."""
        return N.Geometry(ty, 0, f"{g}_{table}", self.node(index))

    def neighbour_list(self, table: str, deg: int, cell, ty: T.Type = T.ANY) -> N.NeighbourList:
        """The list of the cells a table gives for ``cell`` (its neighbours, its leaps)."""
        return N.NeighbourList(ty, 0, table, deg, self.node(cell))

    def adj_table(self, g: str) -> N.Table:
        """A grid's table of neighbours as a kernel's argument."""
        return N.Table(T.ANY, 0, f"{g}_ADJ")

    @staticmethod
    def sizes(g: str) -> tuple[N.Global, N.Global]:
        """A grid's width and height by the module's constants (when the board is not known)."""
        return N.Global(T.INT, 0, f"{g}_WIDTH"), N.Global(T.INT, 0, f"{g}_HEIGHT")

    def board_size(self, g: str, sym) -> tuple[N.Expr, N.Expr]:
        """A grid's width and height as a helper's or kernel's arguments: natively the numbers
        themselves (a module constant would be a dictionary lookup and a conversion per call in C),
        in Python the module's names."""
        if sym is None:
            return self.sizes(g)
        return N.Dimension(T.INT, 0, f"{g}_WIDTH", sym.geo.width), N.Dimension(T.INT, 0, f"{g}_HEIGHT", sym.geo.height)

    def grid_call(self, node: ast.Call, ctx) -> tuple[str, T.Type, int]:
        f, args = node.func, node.args
        need = ARITY[f]
        if len(args) not in need:
            want = f"at least {need.start}" if isinstance(need, range) else " or ".join(map(str, need))
            self.error(f"{f}() takes {want} arguments, not {len(args)}", node.pos)
            return "0", T.ANY, P_ATOM
        if f == "placements":
            pat = self.pattern_of(args[0], ctx, "placements() needs a pattern first")
            grid, sym = self.grid_tree(args[1], ctx, "lanes", "placements()")
            taking = self.optional_zone(args[2] if len(args) == 3 else None, ctx, sym)
            if sym is None:
                return "[]", T.list_of(T.Type("placement")), P_ATOM
            g = gconst(sym.name)
            return self.helper("ops.placement_keys", T.list_of(T.Type("placement")), grid, *self.board_size(g, sym),
                               pat, taking)
        gtree, sym = self.grid_tree(args[0], ctx, "lanes" if f in ("lane", "lane_count", "lanes") else
                                    "board" if f == "line_moves" else
                                    "walls" if f in ("wall", "beside") else
                                    "mancala" if f in ("houses", "store") else None, f"{f}()")
        if sym is None:
            return "0", T.ANY, P_ATOM
        g = gconst(sym.name)
        cell_t = T.Type("cell", space=sym.name)
        numbers = sym.elem.kind == "int"
        if numbers and f in _PIECE_FUNCTIONS:
            self.error(f"{f}() looks at pieces, and '{sym.name}' is a grid of numbers", node.pos)
            return "0", T.ANY, P_ATOM
        deg = sym.geo.deg
        if f == "column":
            return self.geometry(g, "COLUMNS", self.cell_tree(args[1], ctx, sym))
        if f == "shade":  # a chequered board: a1's shade 0, the other 1
            if sym.geo.kind != "square":
                self.error(f"shade() is for boards of squares, not a {sym.geo.kind} board", node.pos)
            cell = self.cell_tree(args[1], ctx, sym)
            column, row = self.geometry(g, "COLUMNS", cell), self.geometry(g, "ROWS", cell)
            return N.binary("%", N.binary("+", column, row, T.INT), N.Const(T.INT, 0, 2), T.INT)
        if f == "cell":
            if len(args) == 2 and sym.geo.numbered and not isinstance(args[1], ast.Str):
                number = self.tree(args[1], ctx)
                if number.type.kind in ("int", "any"):  # the cell numbered n (1 for the first in reading order)
                    return N.Numbered(cell_t, 0, f"{g}_NUMBERED", number)
            if len(args) == 2:
                return attrs.evolve(self.cell_tree(args[1], ctx, sym), type=cell_t)
            if sym.geo.kind in ("hex", "triangle", "star", "mancala", "points"):
                self.error(f"cell(G, x, y) is for square boards, lanes and hex W by H boards, not {sym.geo.kind}",
                           node.pos, 'name the cell instead: cell(G, "b3")')
            x, y = self.number_tree(args[1], ctx), self.number_tree(args[2], ctx)
            return self.helper("ops.at_xy", cell_t, x, y, *self.board_size(g, sym), int(sym.geo.kind == 'lanes'))
        if f == "neighbour":
            c, d = self.cell_tree(args[1], ctx, sym), self.direction_tree(args[2], ctx, sym)
            if len(args) == 4:  # the cell n steps along d
                steps = self.number_tree(args[3], ctx)
                if isinstance(steps, N.Const) and isinstance(steps.value, int) and steps.value < 0:
                    self.error(f"a cell {steps.value} steps away: steps count from 0 along the direction",
                               args[3].pos, f"go the other way: neighbour({sym.name}, c, opposite({sym.name}, d), "
                               f"{-steps.value})")
                return N.Neighbour(cell_t, 0, f"{g}_ADJ", deg, c, d, steps)
            if isinstance(d, N.Const) and d.value >= 0 and (isinstance(c, N.Local) or isinstance(c, N.Const) and c.value >= 0):
                # a named direction from a named cell: the table's entry, read in place
                index = N.Binary(T.INT, 0, "+", N.Binary(T.INT, 0, "*", c, N.Const(T.INT, 0, deg)), d)
                return self.geometry(g, "ADJ", index, cell_t)
            return N.Neighbour(cell_t, 0, f"{g}_ADJ", deg, c, d)
        if f in ("wall", "beside"):
            return self.wall_call(f, args, ctx, sym)
        if f == "neighbours" and len(args) == 3:  # the neighbours no wall of F separates from c
            fence, walls = self.walls_of(args[2], ctx, sym)
            if walls is None:
                return "[]", T.ANY, P_ATOM
            cell = self.cell_tree(args[1], ctx, sym)
            return self.helper("K.open_neighbours", T.list_of(cell_t), self.adj_table(g), deg,
                               N.Table(T.ANY, 0, f"{gconst(walls.name)}_SLOTS"), fence, cell)
        if f == "neighbours":
            cell = self.cell_tree(args[1], ctx, sym)
            return self.neighbour_list(f"{g}_ADJ", deg, cell, T.list_of(cell_t))
        if f == "directions":
            return N.Upto(T.list_of(T.Type("direction", space=sym.name)), 0, N.Const(T.INT, 0, deg))
        if f == "ray":
            c, d = self.cell_tree(args[1], ctx, sym), self.direction_tree(args[2], ctx, sym)
            return self.helper("ops.ray", T.list_of(cell_t), self.adj_table(g), deg, c, d)
        if f in ("distance", "reachable"):  # through no wall of F (when given): lower/kept_ways.py
            return self.walled_search(f, args, ctx, sym)
        if f == "edge_cells":
            return attrs.evolve(self.cell_list(args[1], ctx, sym), type=T.list_of(cell_t))
        if f == "in_a_row":
            who, n = self.stored(self.element_tree(args[1], ctx, sym)), self.number_tree(args[2], ctx)
            memo, steps = None, self.line_bits_of.get(sym.name)
            if steps is None:  # (found once per grid: every in_a_row on it reads the same lines)
                steps = self.line_bits_of[sym.name] = sym.geo.line_steps()
            if steps:  # at most 64 cells, steady steps: the lines as bits, a few shifts (no memo)
                return N.Runs(T.BOOL, 0, gtree, self.adj_table(g), deg, who, n, bits=N.Table(T.ANY, 0, f"{g}_BITS"))
            if self.memo_allowed(args[0], ctx, sym) and isinstance(n, N.Const) and n.value > 0:
                # an end condition, checked after every turn: it may remember which lines it
                # looked at (a memo per grid and length; natively only the lines through the
                # cells that changed since it last failed are looked at again)
                memo = self.memos.setdefault((sym.name, n.value), len(self.memos))
            return N.Runs(T.BOOL, 0, gtree, self.adj_table(g), deg, who, n, memo, (sym.geo.cells + 1) * MEMO_VALUES)
        if f == "in_a_row_exactly":  # a run of n and no more (an overline does not count)
            who, n = self.stored(self.element_tree(args[1], ctx, sym)), self.number_tree(args[2], ctx)
            return self.helper("K.in_a_row_exactly", T.BOOL, gtree, self.adj_table(g), deg, who, n)
        if f == "connected":
            who = self.stored(self.element_tree(args[1], ctx, sym))
            a, b = self.cell_list(args[2], ctx, sym), self.cell_list(args[3], ctx, sym)
            memo = None
            if (self.memo_allowed(args[0], ctx, sym)
                    and all(self.constant_side(side, ctx, sym) for side in args[2:4])):
                # an end condition between sides that never change: it may remember what the
                # starts reach (natively only the cells that gained the value are flooded from)
                memo = self.memos.setdefault(("connected", sym.name, args[2].id, args[3].id), len(self.memos))
            return N.Joined(T.BOOL, 0, gtree, self.adj_table(g), deg, who, a, b, memo,
                            (2 * sym.geo.cells + 1) * MEMO_VALUES)
        if f == "flanked":
            c, who = self.cell_tree(args[1], ctx, sym), self.stored(self.element_tree(args[2], ctx, sym))
            d = self.direction_tree(args[3], ctx, sym) if len(args) == 4 else N.Const(T.INT, 0, -1)
            return self.helper("K.flanked", T.list_of(cell_t), gtree, self.adj_table(g), deg, c, who, d)
        if f == "leaps":  # the cells an (m, n) leaper reaches from c: a table made when generating
            if sym.geo.kind not in ("square", "lanes", "points"):
                self.error(f"leaps() is for boards of rows and columns, not a {sym.geo.kind} board", node.pos)
                return "[]", T.ANY, P_ATOM
            sizes = []
            for a in args[2:]:
                try:
                    sizes.append(fold_constant(a, self.sym.params))
                except NotConstant:
                    self.error("leaps(G, c, m, n) takes the leap's two lengths as constants (a knight: 1, 2)",
                               a.pos)
                    return "[]", T.ANY, P_ATOM
            m, n = sorted(abs(v) for v in sizes)
            if n == 0 or n > 16:
                self.error(f"a leap of ({m}, {n}) goes nowhere or off any board: the lengths are 0 to 16, "
                           "one at least 1", node.pos)
                return "[]", T.ANY, P_ATOM
            key = (sym.name, m, n)
            if key not in self.leap_tables:
                self.leap_tables[key] = geometry.leap_table(sym.geo, m, n)
            deg = self.leap_tables[key][0]
            cell = self.cell_tree(args[1], ctx, sym)
            table = f"{g}_LEAP_{m}_{n}"
            return self.neighbour_list(table, deg, cell, T.list_of(cell_t))
        if f == "lines":  # a board of points and lines: its lines (through c), each a list of cells
            if sym.geo.kind != "points":
                self.error(f"lines() is for a board declared by its lines; '{sym.name}' is a {sym.geo.kind} board",
                           node.pos, "declare it as: grid board: player lines \"a1 d1 g1\", ...")
                return "()", T.ANY, P_ATOM
            if len(args) == 1:
                return N.Global(T.list_of(T.list_of(cell_t)), 0, f"{g}_LINES")
            return self.helper("ops.lines_through", T.list_of(T.list_of(cell_t)), N.Global(T.ANY, 0, f"{g}_LINES_AT"),
                               self.cell_tree(args[1], ctx, sym))
        if f == "lanes":  # the lanes as values, numbered from 1 where people read them
            return N.Upto(T.list_of(T.Type("lane", space=sym.name)), 0, N.Const(T.INT, 0, sym.geo.width))
        if f == "chain":  # the cells joined to c through neighbours holding what c holds
            c = self.cell_tree(args[1], ctx, sym)
            return self.helper("K.chain", T.list_of(cell_t), gtree, self.adj_table(g), deg, c)
        if f in ("slide", "blocker", "reach"):  # the empty cells a slide crosses; the piece it meets
            c, d = self.cell_tree(args[1], ctx, sym), self.direction_tree(args[2], ctx, sym)
            if f == "blocker":
                return self.helper("K.blocker", cell_t, gtree, self.adj_table(g), deg, c, d)
            # (natively an aggregate over it walks the line in C: emit_native.CythonWriter.walk_head)
            return N.Slide(T.list_of(cell_t), 0, f, gtree, self.adj_table(g), deg, c, d, sym.geo.cells)
        if f == "ring":  # a loop of what c holds through c, with no sharp turn (Havannah)
            if sym.geo.kind not in ("hex", "rhombus", "triangle", "star"):
                self.error(f"ring() is for boards of hexagons, not {sym.geo.kind}", node.pos,
                           "on squares every loop turns sharply or surrounds nothing: use chain() and around()")
                return N.Const(T.BOOL, 0, False)
            c = self.cell_tree(args[1], ctx, sym)
            turns = tuple(sym.geo.dirs.index(d) for d in ("e", "ne", "nw", "w", "sw", "se"))
            order = N.ListOf(T.list_of(T.INT), 0, tuple(N.Const(T.INT, 0, t) for t in turns))
            return self.helper("K.ring", T.BOOL, gtree, self.adj_table(g), deg, order, c)
        if f == "liberties":  # the empty cells next to c's chain
            c = self.cell_tree(args[1], ctx, sym)
            return self.helper("K.liberties", T.list_of(cell_t), gtree, self.adj_table(g), deg, c)
        if f == "around":  # the cells next to some of these cells, and not among them
            cells = self.tree(args[1], ctx)
            cty = cells.type
            if cty.kind not in ("list", "zone", "any") or (cty.elem is not None and cty.elem.kind not in
                                                             ("cell", "int", "any")):
                self.error(f"around() takes a list of cells, not {cty}", args[1].pos)
            return self.helper("K.around", T.list_of(cell_t), cells, self.adj_table(g), deg, sym.geo.cells)
        if f == "sides":  # the sides of the board some of these cells lie along
            if not sym.edges:
                self.error(f"sides() needs a board whose sides are named: 'edges ENUM' on grid '{sym.name}'", node.pos)
                return "[]", T.ANY, P_ATOM
            cells = self.tree(args[1], ctx)
            if cells.type.kind not in ("list", "zone", "any"):
                self.error(f"sides() takes a list of cells, not {cells.type}", args[1].pos)
            return self.helper("K.sides_touched", T.list_of(T.enum(sym.edges)), cells, N.Global(T.ANY, 0, f"{g}_ON_SIDE"),
                               N.Const(T.INT, 0, len(sym.geo.sides)), N.Const(T.INT, 0, sym.geo.cells))
        if f in ("houses", "store"):
            p = self.number_tree(args[1], ctx)
            n = sym.geo.width
            if f == "store":
                return self.helper("ops.mancala_store", cell_t, p, n)
            return N.Houses(T.list_of(cell_t), 0, p, n)
        if f == "opposite" and not self.names_direction(args[1], ctx, sym):
            if sym.geo.kind != "mancala":
                self.error(f"opposite(G, d) takes a direction of '{sym.name}' (the house across from a cell is "
                           "for mancala boards)", args[1].pos, "its directions: " + ", ".join(sym.geo.dirs))
            cell = self.cell_tree(args[1], ctx, sym)
            return self.helper("ops.mancala_opposite", cell_t, cell, sym.geo.width)
        if f == "opposite":  # the direction back: a table made when the engine is generated
            return self.opposite_direction(self.direction_tree(args[1], ctx, sym), sym)
        if f == "line":  # the cells both ways along d through c: the far end behind, c, the far end ahead
            c, d = self.cell_tree(args[1], ctx, sym), self.direction_tree(args[2], ctx, sym)
            return self.helper("ops.line", T.list_of(cell_t), self.adj_table(g), deg, c, d,
                               self.opposite_direction(d, sym))
        if f == "cells" and len(args) > 1:  # cells(G, "a1", "d1", c): a list of cells, named or not
            return N.ListOf(T.list_of(cell_t), 0, tuple(self.cell_tree(a, ctx, sym) for a in args[1:]))
        if f == "cells":
            return N.Upto(T.list_of(cell_t), 0, N.Const(T.INT, 0, sym.geo.cells))
        if f == "filled_cells" and len(args) > 1:  # the cells holding a value (a kind, an owner)
            if numbers:
                self.error(f"filled_cells(G, v) finds pieces, and '{sym.name}' is a grid of numbers", node.pos)
                return "[]", T.list_of(cell_t), P_ATOM
            values = [self.tree(a, ctx) for a in args[1:]]
            held = self.cells_holding(gtree, sym, args[1:], [(v, v.type) for v in values])
            return attrs.evolve(held, type=T.list_of(cell_t))
        if f in ("empty_cells", "filled_cells"):
            if numbers:  # a list of numbers: 0 is an empty cell
                return self.helper("ops.number_cells", T.list_of(cell_t), gtree, int(f == "filled_cells"), c_form=False)
            # a grid named plainly: a loop over its cells may walk its bytes instead of making the list
            walkable = isinstance(args[0], ast.Name) or (isinstance(args[0], ast.Index) and isinstance(
                args[0].obj, ast.Name) and isinstance(args[0].index, (ast.Name, ast.Int)))
            return N.Cells(T.list_of(cell_t), 0, gtree, f == "filled_cells", walkable)
        if f == "content":
            if numbers:
                return N.NumberCell(sym.elem, 0, gtree, self.cell_tree(args[1], ctx, sym))
            return N.Element(sym.elem, 0, self.cell_read(gtree, self.cell_tree(args[1], ctx, sym)))
        if f == "is_empty":
            cell = self.cell_tree(args[1], ctx, sym)
            read = N.NumberCell(T.INT, 0, gtree, cell) if numbers else self.cell_read(gtree, cell)
            return N.Binary(T.BOOL, 0, "==", read, N.Const(T.INT, 0, 0))
        if f == "row":
            return self.geometry(g, "ROWS", self.cell_tree(args[1], ctx, sym))
        if f == "lane":
            return N.binary("//", self.cell_tree(args[1], ctx, sym), self.node(self.board_size(g, sym)[1]), T.INT)
        if f == "lane_count":
            return self.helper("K.lane_count", T.INT, gtree, *self.board_size(g, sym), self.number_tree(args[1], ctx))
        if f in ("groups", "largest_zone"):
            size = self.number_tree(args[1], ctx)
            wild = self.wild_code(args[2] if len(args) >= 3 else None, ctx, sym)
            if f == "largest_zone":
                # a zone of wild cells alone counts too (unlike a group, which needs a real member)
                zone = self.helper("K.largest_zone", T.ANY, gtree, self.adj_table(g), sym.geo.deg, wild, size, 0)
                return N.Index(T.INT, 0, zone, N.Const(T.INT, 0, 0))
            # a group holds at least `real` cells of its own colour (1 unless the rules say)
            real = self.number_tree(args[3], ctx) if len(args) == 4 else 1
            groups = self.helper("K.connected_groups", T.ANY, gtree, self.adj_table(g), sym.geo.deg, wild, size, real)
            return self.helper("ops.group_keys", T.list_of(T.Type("group", elem=sym.elem, space=sym.name)), groups, wild)
        if f == "line_moves":
            who = self.stored(self.element_tree(args[1], ctx, sym))
            limit = self.number_tree(args[2], ctx) if len(args) == 3 else N.Const(T.INT, 0, 0)
            return self.helper("K.line_move_keys", T.list_of(T.Type("linemove", space=sym.name)),
                               gtree, self.adj_table(g), sym.geo.deg, who, limit)
        raise AssertionError(f)

    def special_attr(self, node: ast.Attr, whole: N.Expr) -> N.Expr | None:
        """Attributes of groups, placements and line moves (None: not one of those)."""
        # attribute -> (the helper that reads it, or the value as a tree; its type)
        ty = whole.type
        table = {
            "group": {"colour": ("ops.group_colour", ty.elem or T.ANY),
                      "cell": ("ops.group_anchor", T.Type("cell", space=ty.space)),
                      "size": ("ops.group_size", T.INT)},
            "placement": {"turns": (N.binary("//", whole, N.Const(T.INT, 0, 64), T.INT), T.INT),
                          "offset": (N.binary("%", whole, N.Const(T.INT, 0, 64), T.INT), T.INT)},
            "linemove": {"head": ("ops.line_head", T.Type("cell", space=ty.space)),
                         "length": ("ops.line_length", T.INT),
                         "pushed": ("ops.line_pushed", T.INT),
                         "direction": ("ops.line_dir", T.INT)},
        }.get(ty.kind)
        if table is None:
            return None
        if node.name not in table:
            self.error(f"{ty} has no '{node.name}'", node.pos, "it has: " + ", ".join(table))
            return "0", T.ANY, P_ATOM
        c, t = table[node.name]
        return self.helper(c, t, whole) if isinstance(c, str) else c

    # ---- cells holding a value --------------------------------------------------------------
    def cells_holding(self, grid: N.Expr, sym, args: list, codes: list) -> N.Helper:
        """The cells of a grid of elements holding a value: on a grid of pieces, a piece, a kind
        (any owner), an owner (any kind), or a kind and an owner (``K.cells_holding``). ``codes``:
        the arguments lowered, (tree, type) each."""
        any_ = N.Const(T.INT, 0, -2)
        if sym.elem.kind != "piece":
            if len(args) == 2 or not T.compatible(codes[0][1], sym.elem):
                self.error(f"grid '{sym.name}' holds {sym.elem}: filled_cells({sym.name}, v) takes one of them",
                           args[-1].pos)
            return self.holding_call(grid, 256, codes[0][0], any_)
        kinds = len(self.sym.enums[sym.elem.name].members)
        kind, owner = any_, any_
        if len(args) == 2:
            (kind, kty), (owner, oty) = codes
            if not (kty.kind == "any" or (kty.kind == "enum" and kty.name == sym.elem.name)):
                self.error(f"expected a kind of piece (a member of '{sym.name}''s enum '{sym.elem.name}'), "
                           f"but this is {kty}", args[0].pos)
            if oty.kind not in ("player", "int", "any"):
                self.error(f"expected a player here, but this is {oty}", args[1].pos)
        else:
            code, ty = codes[0]
            if ty.kind == "piece" and ty.name == sym.elem.name:  # one piece: any owner and kind of it
                return self.holding_call(grid, 256, code, any_)
            if ty.kind == "enum" and ty.name == sym.elem.name:
                kind = code
            elif ty.kind in ("player", "int"):
                owner = code
            elif ty.kind != "any":
                self.error(f"grid '{sym.name}' holds pieces of '{sym.elem.name}': filled_cells({sym.name}, v) takes a "
                           f"piece, a kind or a player, not {ty}", args[0].pos)
        return self.holding_call(grid, kinds, kind, owner)

    def holding_call(self, grid: N.Expr, kinds: int, kind: N.Expr, owner: N.Expr) -> N.Helper:
        """``K.cells_holding(...)`` (``first()`` of it asks the kernel for the first such cell
        alone: ``K.first_holding``, no list made)."""
        return self.helper("K.cells_holding", T.list_of(T.ANY), grid, kinds, kind, owner)
