"""Declarations: names, types, tables and ranges, checked before anything is lowered.

The checker turns the declarations of a rules file into symbols (params with their constant values,
enums, tables with one column tuple per attribute, zones, counters) and reports every mistake it
finds, each at its position, with a hint where one helps."""
from __future__ import annotations

import itertools
from typing import Any

import attrs

from regle.dsl import ast
from regle.dsl.errors import Diagnostic

from . import geometry
from ..ir import types as T
from .again import mark_again
from .analysis import children
from .since import mark_since
from .tracks import decl_track
from .counters import decl_counter
from .symbols import (COLOUR, LIMITS, SEAT_SIDES, ParamSym, EnumSym, ColumnSym, TableSym, ZoneSym, GridSym, CounterSym,
                      Symbols, _cell_count, NotConstant, fold_constant, suggest, bad_identifier)
from .texts import _at, _BAD, _placeholders, GRID_REFUSES, SQUARES_ONLY


class Checker:
    """Collects symbols and diagnostics from a parsed rules file."""

    def __init__(self, rules: ast.Rules):
        self.rules = rules
        self.diags: list[Diagnostic] = []
        self.sym = Symbols()
        self._declared: dict[str, tuple[int, int]] = {}
        self.grid_cells = 0  # all grids so far, for the limit on their total
        self.grid_cells_reported = False

    def error(self, message: str, pos: tuple, hint: str | None = None) -> None:
        self.diags.append(Diagnostic.at(message, pos, hint))

    # -- entry --------------------------------------------------------------------------
    def run(self) -> Symbols:
        for decl in self.rules.decls:
            method = getattr(self, "decl_" + type(decl).__name__.lower())
            method(decl)
        if self.sym.game is None:
            self.error("the rules declare no game", (1, 1),
                       'start with a game block, e.g. game "My game" { players 2 }')
        if not self.sym.turns:
            self.error("the rules declare no turn", (1, 1),
                       "add a turn { step ... { action ... } } block saying what a player does")
        if len(self.sym.turns) > 1:
            self.error("a second turn block", self.sym.turns[1].pos, "keep one turn block")
        if len(self.sym.winners) > 1:
            self.error("a second winner block", self.sym.winners[1].pos, "keep one winner block")
        if self.sym.turns and self.sym.turns[0].steps and all(s.kind == "auto" for s in self.sym.turns[0].steps):
            self.error("the turn never asks a player anything", self.sym.turns[0].pos,
                       "add a step with at least one action")
        self.nesting(self.rules)
        mark_since(self.rules, self.sym, self.error)
        mark_again(self.sym, self.error)
        return self.sym

    def nesting(self, rules: ast.Rules) -> None:
        """Refuse runaway nesting with a position, before anything recursive walks it."""
        limit = LIMITS["nesting"]
        stack = [(d, 1) for d in rules.decls]
        while stack:
            node, depth = stack.pop()
            if depth > limit:
                self.error(f"this is nested more than {limit} levels deep", node.pos,
                           "split it up: name parts with let or define")
                return
            stack.extend((child, depth + 1) for child in children(node))

    def declare(self, name: str, pos: tuple[int, int], what: str) -> bool:
        why = bad_identifier(name)
        if why:
            self.error(why, pos)  # still declared: its uses should not be reported as unknown
        if name in self._declared:
            line = self._declared[name][0]
            self.error(f"'{name}' is already declared (line {line})", pos,
                       "each name may be declared once; rename one of them")
            return False
        self._declared[name] = pos
        return True

    # -- declarations -------------------------------------------------------------------
    decl_track = decl_track  # a path through a grid's cells (compiler/check/tracks.py)
    decl_counter = decl_counter  # one value, or one per key or pair of keys (compiler/check/counters.py)

    def decl_game(self, node: ast.Game) -> None:
        if self.sym.game is not None:
            return self.error("a second game block", node.pos, "a rules file describes one game")
        self.sym.game = node
        at = node.players_pos if node.players_pos[0] else node.pos
        if node.min_players < 1:
            self.error("a game needs at least 1 player", at)
        if node.max_players < node.min_players:
            self.error(f"impossible player range {node.min_players}..{node.max_players}", at,
                       "write the smaller count first, e.g. players 2..4")
        if node.max_players > LIMITS["players"]:
            self.error(f"at most {LIMITS['players']} players are supported", at)
        for colour in node.colours:
            if not COLOUR.fullmatch(colour):
                self.error(f"colours: {colour!r} is not a colour", node.colours_pos if node.colours_pos[0] else node.pos,
                           "a colour word (red, blue, black, white, green, yellow, ...) or #rrggbb")
        if len(node.seats) > node.max_players:
            self.error(f"{len(node.seats)} seat names for at most {node.max_players} players", node.seats_pos[-1],
                       "one name per seat, in order")
        for i, (name, where) in enumerate(zip(node.seats, node.seats_pos)):
            if self.declare(name, where, "seat"):
                self.sym.seats[name] = i
        for side, where in zip(node.seat_sides, node.seat_sides_pos):
            if side is not None and side not in SEAT_SIDES:
                self.error(f"'{side}' is not a side a seat can sit at", where, "one of " + ", ".join(SEAT_SIDES))
        if len(node.colours) > node.max_players:
            self.error(f"{len(node.colours)} colours for at most {node.max_players} players",
                       node.colours_pos if node.colours_pos[0] else node.pos, "one colour per seat")
        if node.max_decisions is not None:
            bound = self.const(node.max_decisions)
            if isinstance(bound, int) and not 1 <= bound <= LIMITS["decisions"]:
                self.error(f"impossible bound {bound} on a game's decisions", node.max_decisions.pos,
                           f"between 1 and {LIMITS['decisions']:,} (the engine's own limit)")

    def decl_extend(self, node: ast.Extend) -> None:
        pass  # resolved before checking (regle.dsl.variants)

    def decl_step(self, node: ast.Step) -> None:
        self.error("a step belongs in the turn", node.pos)

    def decl_param(self, node: ast.Param) -> None:
        if not self.declare(node.name, _at(node), "param"):
            return
        if isinstance(node.value, ast.ListExpr):
            values = [self.const(item) for item in node.value.items]
            if any(v is None or isinstance(v, bool) for v in values) or not values:
                if not values:
                    self.error("a list param needs at least one number", node.value.pos)
                self.sym.params[node.name] = ParamSym(node.name, (0,), T.list_of(T.INT), node)
                return
            self.sym.params[node.name] = ParamSym(node.name, tuple(values), T.list_of(T.INT), node)
            return
        value = self.const(node.value)
        if value is None:
            self.sym.params[node.name] = ParamSym(node.name, 0, T.ANY, node)
            return
        ty = T.BOOL if isinstance(value, bool) else T.INT
        if ty is T.INT and abs(value) > LIMITS["param_value"]:
            self.error(f"the number {value} is too large (limit {LIMITS['param_value']:,})", node.value.pos)
            return
        self.sym.params[node.name] = ParamSym(node.name, value, ty, node)

    def const(self, expr: ast.Node) -> Any:
        """Evaluate a constant expression (numbers, true/false, params, arithmetic) or report it."""
        try:
            return fold_constant(expr, self.sym.params)
        except NotConstant as why:
            self.error(why.message, why.pos, why.hint)
            return None

    def decl_enum(self, node: ast.Enum) -> None:
        if not self.declare(node.name, _at(node), "enum"):
            return
        names, wild, symbols = [], None, {}
        if len(node.members) > 254:
            self.error("an enum has at most 254 members", node.pos)
        for i, m in enumerate(node.members):
            if m.name in names:
                self.error(f"'{m.name}' appears twice in enum '{node.name}'", m.pos)
                continue
            if m.name in self.sym.members:
                other = self.sym.members[m.name][0]
                self.error(f"'{m.name}' is already a member of enum '{other}'", m.pos,
                           "members are used by bare name, so they must be unique across enums")
                continue
            if not self.declare(m.name, m.pos, "member"):
                continue
            if m.wild:
                if wild is not None:
                    self.error("an enum may have one wild member", m.pos)
                wild = len(names)
            if m.symbol is not None:
                if len(m.symbol) != 1 or m.symbol in "./ " or ord(m.symbol) > 127:
                    self.error(f"a member's symbol is one ASCII character other than '.' and '/', not {m.symbol!r}",
                               m.pos)
                elif m.symbol in symbols:
                    self.error(f"symbol {m.symbol!r} is already used by '{names[symbols[m.symbol]]}'", m.pos)
                else:
                    symbols[m.symbol] = len(names)
            if m.figure is not None and not int(not m.on_disc) <= len(m.figure) <= 2:
                self.error(f"a member's figure (how pages draw it) is one or two characters, not {m.figure!r}", m.pos)
            self.sym.members[m.name] = (node.name, len(names))
            names.append(m.name)
        self.sym.enums[node.name] = EnumSym(node.name, names, wild, node, symbols)

    def resolve_type(self, ref: ast.TypeRef) -> T.Type | None:
        if ref.pattern:
            if ref.name not in self.sym.enums:
                self.error(f"'pattern of {ref.name}': '{ref.name}' is not an enum", ref.pos,
                           suggest(ref.name, self.sym.enums))
                return None
            if not self.sym.enums[ref.name].symbols:
                self.error(f"patterns of '{ref.name}' need its members' symbols", ref.pos,
                           f'give each member a one-letter symbol: enum {ref.name} {{ red = "R", ... }}')
                return None
            return T.Type("pattern", ref.name)
        if ref.piece:
            if ref.name not in self.sym.enums:
                self.error(f"'{ref.name} of player': '{ref.name}' is not an enum declared above", ref.pos,
                           suggest(ref.name, self.sym.enums) or "declare the kinds of piece: enum piece { man, king }")
                return None
            return T.Type("piece", ref.name)
        if ref.cell:
            if ref.name not in self.sym.grids:
                self.error(f"'cell of {ref.name}': '{ref.name}' is not a grid declared above", ref.pos,
                           suggest(ref.name, self.sym.grids) or "declare the grid first")
                return None
            return T.Type("cell", space=ref.name)
        if ref.name == "int":
            return T.INT
        if ref.name == "bool":
            return T.BOOL
        if ref.name == "player":
            return T.PLAYER
        if ref.name in self.sym.enums:
            return T.enum(ref.name)
        if ref.name in self.sym.tables:
            return T.item(ref.name)
        self.error(f"unknown type '{ref.name}'", ref.pos,
                   suggest(ref.name, [*self.sym.enums, *self.sym.tables, "int", "bool", "player"])
                   or "use int, bool, player, or an enum or table declared above")
        return None

    def decl_table(self, node: ast.Table) -> None:
        if not self.declare(node.name, _at(node), "table"):
            return
        cols: list[tuple[str, T.Type, ast.Column]] = []
        seen = set()
        ok = True
        for c in node.columns:
            if c.name in seen:
                self.error(f"column '{c.name}' appears twice", c.pos)
                ok = False
                continue
            why = bad_identifier(c.name)
            if why:
                self.error(why, c.pos)
                ok = False
                continue
            seen.add(c.name)
            ty = self.resolve_type(c.type)
            if ty is None or ty.kind in ("item", "cell", "piece"):
                if ty is not None:
                    what = {"item": "items of another table", "cell": "cells", "piece": "pieces"}[ty.kind]
                    self.error(f"a table column cannot hold {what}", c.type.pos)
                ok = False
                continue
            cols.append((c.name, ty, c))
        values: list[list] = [[] for _ in cols]
        count = 0
        for row in node.rows:
            if len(row.cells) != len(node.columns):
                self.error(f"this row has {len(row.cells)} values but table '{node.name}' has "
                           f"{len(node.columns)} columns", row.pos,
                           "write one row per line, one value per column (use - for none)")
                ok = False
                continue
            if row.copies < 1:
                self.error("a row needs at least 1 copy", row.pos)
                ok = False
                continue
            if not ok:
                continue
            # a row with a range (2..10) or an enum's name in an enum column stands for one row
            # per value, every combination of them (in column order)
            choices = [self.cell_values(cell, ty) for cell, (_, ty, _) in zip(row.cells, cols)]
            if any(v is _BAD for v in choices):
                continue
            made = row.copies
            for values_here in choices:
                made *= len(values_here)
            if count + made > LIMITS["table_rows"]:  # before building anything
                self.error(f"table '{node.name}' has more than {LIMITS['table_rows']:,} items", row.pos,
                           "this limit protects against runaway files")
                return
            for combo in itertools.product(*choices):
                for i, v in enumerate(combo):
                    values[i].extend([v] * row.copies)
            count += made
        for what, text in (("show", node.show), ("show", node.show_else), ("detail", node.detail),
                           *(("show", t) for _c, t in node.show_elifs)):
            for name in _placeholders(text or ""):
                if name not in seen:
                    self.error(f"the {what} text names '{{{name}}}', which is not a column of '{node.name}'",
                               node.pos, suggest(name, seen))
        columns = {name: ColumnSym(name, ty, tuple(values[i])) for i, (name, ty, _) in enumerate(cols)}
        self.sym.tables[node.name] = TableSym(node.name, columns, count, node.show, node, node.detail)

    def cell_values(self, cell: ast.Cell, ty: T.Type) -> Any:
        """The values one table cell stands for: one, or several for a range or a whole enum."""
        if cell.kind == "range":
            lo, hi = cell.value
            if ty.kind != "int":
                self.error(f"a range of numbers is only allowed in a number column, not for {ty}", cell.pos)
                return _BAD
            if hi < lo:
                self.error(f"the range {lo}..{hi} is empty", cell.pos, "write the smaller number first")
                return _BAD
            if hi - lo >= LIMITS["table_rows"]:
                self.error(f"this range has more than {LIMITS['table_rows']:,} items", cell.pos)
                return _BAD
            return list(range(lo, hi + 1))
        if ty.kind == "enum" and cell.kind == "name" and cell.value == ty.name:
            return list(range(len(self.sym.enums[ty.name].members)))  # every member, in order
        value = self.cell(cell, ty)
        return _BAD if value is _BAD else [value]

    def cell(self, cell: ast.Cell, ty: T.Type) -> Any:
        if cell.kind == "none":
            if ty.kind == "enum":
                return -1
            self.error(f"'-' (none) is only allowed in enum columns, not for {ty}", cell.pos)
            return _BAD
        if ty.kind in ("int", "player"):
            if cell.kind == "int":
                return cell.value
            if cell.kind == "name" and cell.value in self.sym.params and self.sym.params[cell.value].type is T.INT:
                return self.sym.params[cell.value].value
        elif ty.kind == "bool":
            if cell.kind == "name" and cell.value in ("true", "false"):
                return cell.value == "true"
        elif ty.kind == "pattern":
            if cell.kind in ("str", "name", "int"):
                return self.pattern(str(cell.value), ty.name, cell.pos)
        elif ty.kind == "enum":
            enum = self.sym.enums[ty.name]
            if cell.kind == "name" and cell.value in enum.members:
                return enum.members.index(cell.value)
            self.error(f"'{cell.value}' is not a member of enum '{ty.name}'", cell.pos,
                       suggest(str(cell.value), enum.members) or "members: " + ", ".join(enum.members))
            return _BAD
        self.error(f"expected {ty} here, got {cell.value!r}", cell.pos)
        return _BAD

    def pattern(self, text: str, enum_name: str, pos: tuple[int, int]) -> Any:
        """Read a pattern such as ``BB/Y.`` (rows top first, '/' between rows) into the
        game's pattern list; returns its index."""
        enum = self.sym.enums[enum_name]
        rows = text.split("/")
        width = len(rows[0])
        if not text or any(len(r) != width for r in rows) or width == 0:
            self.error(f"pattern {text!r}: every row needs the same number of cells", pos,
                       "write rows top first, separated by '/', e.g. BB/Y.")
            return _BAD
        if width * len(rows) > LIMITS["pattern_cells"]:
            self.error(f"pattern {text!r} is too large (at most {LIMITS['pattern_cells']} cells)", pos)
            return _BAD
        codes = bytearray()
        for ch in "".join(rows):
            if ch == ".":
                codes.append(0)
            elif ch in enum.symbols:
                codes.append(enum.symbols[ch] + 1)
            else:
                known = ", ".join(f"{k}={enum.members[v]}" for k, v in enum.symbols.items())
                self.error(f"pattern {text!r}: {ch!r} is not a symbol of enum '{enum_name}'", pos,
                           f"symbols: {known}; '.' is an empty place")
                return _BAD
        key = (len(rows), width, bytes(codes))
        if key not in self.sym.patterns:
            self.sym.patterns.append(key)
            self.sym.pattern_texts.append(text)
        return self.sym.patterns.index(key)

    def resolve_per(self, per: str | None, pos) -> str | None:
        if per is None or per == "player":
            return per
        if per in ("turn", "step"):  # one value, set back (a counter) or emptied (a grid, a zone)
            return None
        if per in self.sym.enums:
            return per
        return self.error(f"'per {per}': '{per}' is not an enum", pos,
                          suggest(per, self.sym.enums) or "write 'per player' or 'per' an enum declared above")

    def lines_board(self, node: ast.Grid) -> geometry.Geometry | None:
        """A board of points and lines, or None after saying why it cannot be laid."""
        try:
            geo = geometry.points([s.value for s in node.size])
        except geometry.BadLines as why:
            self.error(why.message, node.size[why.line].pos, why.hint)
            return None
        if geo.cells > LIMITS["grid_cells"] or self.grid_cells + geo.cells > LIMITS["all_grid_cells"]:
            self.error(f"grid '{node.name}' has too many points ({geo.cells:,})", node.pos)
            return None
        self.grid_cells += geo.cells
        return attrs.evolve(geo, numbered=True) if node.numbered else geo

    def walls_board(self, node: ast.Grid):
        """``walls of G``: the places between the cells of a grid declared above."""
        base = node.size[0]
        sym = self.sym.grids.get(base.id)
        if sym is None:
            self.error(f"'walls of {base.id}': there is no grid '{base.id}' declared above", base.pos,
                       suggest(base.id, self.sym.grids) or "declare the board first, then its walls")
            return None
        if sym.geo.kind == "walls":
            return self.error(f"'{base.id}' is itself walls: walls stand between the cells of a board", base.pos)
        if node.numbered or node.under is not None:  # named by their two cells, drawn on their board
            self.error("walls take no 'numbered' or 'under'", node.pos)
        geo = geometry.walls(sym.geo)
        if geo.cells == 0:
            self.error(f"no two cells of '{base.id}' share a side, so there is no place for a wall", base.pos,
                       "walls stand between orthogonal neighbours (square boards), hexagons, or points of a line")
            return None
        if geo.cells > LIMITS["grid_cells"] or self.grid_cells + geo.cells > LIMITS["all_grid_cells"]:
            return self.error(f"grid '{node.name}' has too many walls ({geo.cells:,})", node.pos)
        self.grid_cells += geo.cells
        return geo

    def decl_grid(self, node: ast.Grid) -> None:
        if not self.declare(node.name, _at(node), "grid"):
            return
        elem = self.resolve_type(node.elem) or T.ANY
        if elem.kind not in ("enum", "player", "item", "int", "piece", "any"):
            self.error(f"a grid holds numbers, enum members, players, pieces or items, not {elem}", node.elem.pos)
            elem = T.ANY
        if node.diagonals and node.shape not in ("square", "lanes"):
            self.error(f"'with diagonals' is for square boards and lanes; a {node.shape} board has its own "
                       "neighbours", node.pos)
        if elem.kind == "item" and self.sym.tables[elem.name].count > 254:
            self.error(f"a grid holds at most 254 different items; table '{elem.name}' has more", node.elem.pos)
        for option, said in GRID_REFUSES + (SQUARES_ONLY,) * (node.shape != "square"):
            if getattr(node, option) not in (None, False):  # zones' options, refused on a grid
                self.error(said, getattr(getattr(node, option), "pos", node.pos))
        sizes = [self.const(e) for e in node.size] if node.shape not in ("lines", "walls") else []
        geo = None
        if node.shape == "lines":
            geo = self.lines_board(node)
        elif node.shape == "walls":
            geo = self.walls_board(node)
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in sizes):
            if any(v < 1 for v in sizes):
                self.error(f"a grid's sizes must be at least 1, not {', '.join(map(str, sizes))}", node.pos)
            elif _cell_count(node.shape, sizes) > LIMITS["grid_cells"]:  # before building the geometry
                self.error(f"grid '{node.name}' has {_cell_count(node.shape, sizes):,} cells (the limit is "
                           f"{LIMITS['grid_cells']:,})", node.pos)
            elif self.grid_cells + _cell_count(node.shape, sizes) > LIMITS["all_grid_cells"]:
                self.grid_cells = LIMITS["all_grid_cells"] + 1  # said once: the next grids say nothing
                if self.grid_cells_reported:
                    return
                self.grid_cells_reported = True
                self.error(f"the grids have more than {LIMITS['all_grid_cells']:,} cells together", node.pos,
                           "this limit keeps engines small; use fewer or smaller grids")
            else:
                self.grid_cells += _cell_count(node.shape, sizes)
                if node.shape in ("square", "lanes"):
                    geo = getattr(geometry, node.shape)(*sizes, diagonals=node.diagonals)
                else:  # hex side S, hex W by H, hex triangle S, mancala N
                    geo = {"hex": geometry.hexagon, "rhombus": geometry.rhombus, "triangle": geometry.triangle,
                           "mancala": geometry.mancala, "star": geometry.star}[node.shape](*sizes)
                if node.numbered:
                    geo = attrs.evolve(geo, numbered=True)
                if geo.cells > LIMITS["grid_cells"]:
                    self.error(f"grid '{node.name}' has {geo.cells:,} cells (the limit is {LIMITS['grid_cells']:,})", node.pos)
                    geo = None
        if node.private and node.per != "player":
            self.error("only a grid 'per player' can be private to its owner", node.pos)
        per = self.resolve_per(node.per, node.pos)
        if node.per in ("turn", "step") and (node.under is not None or node.shape == "walls"):
            self.error(f"a grid 'per {node.per}' is emptied as each {node.per} begins: not under another, nor walls", node.pos)
        geo = geo or geometry.square(1, 1)
        edges = None
        if node.edges is not None:
            enum = self.sym.enums.get(node.edges)
            if enum is None:
                self.error(f"'edges {node.edges}': '{node.edges}' is not an enum", node.pos,
                           suggest(node.edges, self.sym.enums))
            elif node.shape in ("lanes", "mancala", "lines", "walls", "star"):
                self.error({"lanes": "lanes have no edges to leave by", "star": "a star's points are found by rows and places, not edges",
                            "mancala": "a mancala board has no edges to leave by",
                            "lines": "a board of points and lines has no edges to leave by",
                            "walls": "walls have no edges to leave by"}[node.shape], node.pos)
            elif len(enum.members) != len(geo.sides):
                shape = "hex W by H" if node.shape == "rhombus" else node.shape
                self.error(f"a {shape} board has {len(geo.sides)} sides ({', '.join(geo.sides)}, clockwise "
                           f"from the south), but enum '{enum.name}' has {len(enum.members)} members", node.pos)
            else:
                edges = enum.name
        if node.under is not None:
            top = self.sym.grids.get(node.under)
            if top is None:
                self.error(f"'under {node.under}': there is no grid '{node.under}' declared above", node.pos,
                           suggest(node.under, self.sym.grids))
            elif top.node.per in ("turn", "step"):
                self.error(f"grid '{node.under}' is emptied as each {top.node.per} begins: nothing can lie under it", node.pos)
            elif (top.geo.kind, top.geo.cells, top.per, top.geo.numbered) != (geo.kind, geo.cells, per, geo.numbered):
                self.error(f"grid '{node.name}' lies under '{node.under}', so both need the same shape and owners",
                           node.pos)
        self.sym.grids[node.name] = GridSym(node.name, elem, per, node.hidden, node.private, geo, node, edges)

    def decl_zone(self, node: ast.Zone) -> None:
        if not self.declare(node.name, _at(node), "zone"):
            return
        elem = self.resolve_type(node.elem) or T.ANY  # keep the name known: no cascade of errors
        capacity = None
        if node.capacity is not None:
            capacity = self.const(node.capacity)
            if capacity is not None and not (0 <= capacity <= LIMITS["zone_capacity"]):
                self.error(f"impossible capacity {capacity}", node.capacity.pos,
                           f"a capacity is between 0 and {LIMITS['zone_capacity']:,}")
                capacity = None
        if node.hidden and node.private:
            self.error("a zone is either hidden (from everyone) or private (to its owner), not both", node.pos)
        if node.private and node.per != "player":
            self.error("only a zone 'per player' can be private to its owner", node.pos,
                       "add 'per player', or use 'hidden' for a zone nobody sees")
        per = self.resolve_per(node.per, node.pos)
        if node.per in ("turn", "step") and node.init is not None:
            self.error(f"a zone 'per {node.per}' starts each {node.per} empty: it takes no first contents", node.init.pos,
                       f"fill it in the turn's effects, or leave out 'per {node.per}'")
        values = None
        if node.values is not None:
            v = node.values
            lo = self.const(v.lo) if isinstance(v, ast.Range) else None
            hi = self.const(v.hi) if isinstance(v, ast.Range) else None
            if elem.kind != "int":
                self.error(f"'values' says which numbers a zone of numbers holds; this zone holds {elem}", v.pos)
            elif not isinstance(v, ast.Range):
                self.error("write the values as a range, e.g. values 1..9", v.pos)
            elif isinstance(lo, int) and isinstance(hi, int):
                if hi < lo or hi - lo >= LIMITS["range_values"]:
                    self.error(f"impossible values {lo}..{hi}", v.pos,
                               f"at most {LIMITS['range_values']:,} values, the smaller first")
                else:
                    values = (lo, hi)
        self.sym.zones[node.name] = ZoneSym(node.name, elem, per, node.hidden, node.private, capacity, node,
                                            values)

    def decl_setup(self, node: ast.Setup) -> None:
        self.sym.setup.append(node)

    def decl_turn(self, node: ast.Turn) -> None:
        self.sym.turns.append(node)
        names = {}
        for step in node.steps:
            if step.name in names:
                self.error(f"step '{step.name}' appears twice (line {names[step.name]})", step.pos)
            names[step.name] = step.pos[0]
            if step.kind != "auto" and not any(isinstance(c, ast.Action) for c in step.choices):
                self.error(f"step '{step.name}' offers no action", step.pos,
                           "a step lists at least one 'action'; use 'do NAME { ... }' for automatic steps")
            actions = {}
            passes = [c for c in step.choices if isinstance(c, ast.Pass)]
            if len(passes) > 1:
                self.error("a step may have one pass", passes[1].pos)
            if passes and (step.kind == "optional" or step.optional):
                self.error("an optional step already offers 'skip' (or 'stop'); it needs no pass", passes[0].pos)
            for c in step.choices:
                if isinstance(c, ast.Action):
                    if c.name in actions:
                        self.error(f"action '{c.name}' appears twice in step '{step.name}'", c.pos)
                    actions[c.name] = c

    def decl_end(self, node: ast.End) -> None:
        self.sym.ends.append(node)

    def decl_score(self, node: ast.Score) -> None:
        self.sym.scores.append(node)
        names = set()
        for clause in node.clauses:
            if clause.name in names:
                self.error(f"scoring clause '{clause.name}' appears twice", clause.pos)
            names.add(clause.name)

    def decl_winner(self, node: ast.Winner) -> None:
        self.sym.winners.append(node)
        if node.ties not in ("draw", "shared") and node.ties not in self.sym.seats:
            self.error(f"'ties {node.ties}': a tie is a draw, shared, or goes to a seat, and '{node.ties}' "
                       "names no seat", node.pos,
                       suggest(node.ties, self.sym.seats) or "name the seats in the game block: seats black, white")

    def decl_define(self, node: ast.Define) -> None:
        if not self.declare(node.name, _at(node), "define"):
            return
        if len(set(node.params)) != len(node.params):
            self.error(f"define '{node.name}' names a parameter twice", node.pos)
        self.sym.defines[node.name] = node

    def decl_invariant(self, node: ast.Invariant) -> None:
        self.sym.invariants.append(node)

    def decl_notice(self, node: ast.Notice) -> None:
        self.sym.notices.append(node)
