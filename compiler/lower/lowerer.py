"""Typed lowering: checked declarations + the turn -> :class:`GameIR`.

Every expression is typed as it is lowered (unknown names, wrong types and wrong arity are
reported here, at their positions) into a tree of :mod:`nodes`, and every statement into a
tree of :mod:`statements` after a ``# line N: ...`` comment naming its rules line (which is
also how run-time errors are traced back to the rules text). The lowering is the same for
both engines; :mod:`written` has each engine's emitter write the trees as its code.
"""
from __future__ import annotations

from regle.dsl import ast
from regle.dsl.printer import expr as expr_text
from regle.dsl.errors import Diagnostic, Source

from ..ir import types as T
from ..check.symbols import LIMITS, Symbols
from ..check.geometry import point_line_tables, wall_corners
from ..check.texts import is_colour
from ..ir.game import CounterIR, EnumIR, GameIR, GridIR, TableIR, ZoneIR
from .grids import GridLowering, gconst
from .grid_stmts import GridStatementLowering
from ..write.safety import comment_text
from ..check.analysis import (announces, ends_by_statement, flows, has_chance, has_next_player,
                              places_not_conserved, secrecy)

from ..ir import nodes as N
from ..ir import statements as S
from .common import Ctx, ast_nodes, nodes_through_defines, pyname, _hex_places, _path_word, _const, column_const, is_c_column
from .exprs import ExpressionLowering, TooMuchWork, WORK_PER_NODE
from .calls import CallLowering
from .stmts import StatementLowering
from .actions import ActionLowering
from .kept_ways import WaysLowering
from .shared_ids import share_ids
from .notices import lower_notices


#: seat names that are colours: seats so named are drawn in them when no colours are given
COLOUR_NAMES = frozenset({"black", "white", "red", "blue", "green", "yellow", "orange", "purple", "pink", "brown",
                          "grey", "gray", "cyan", "magenta", "gold", "silver"})


def seat_colours(seats: list[str]) -> list[str]:
    """The seats' own names as their colours, when every one is a colour (seats black, white)."""
    return list(seats) if seats and all(s in COLOUR_NAMES for s in seats) else []


def seat_marks(seats: list[str]) -> list[str]:
    """The first letters of the seats' names as their marks, when those differ (seats black,
    white: b and w)."""
    firsts = [s[0] for s in seats]
    return firsts if seats and len(set(firsts)) == len(firsts) else []


def _kinds_of(places) -> set[str]:
    return {p.kind for p in places if p.kind.startswith("item:")}


def work_budget(rules: ast.Rules) -> int:
    """How many expressions lowering a text may build: in proportion to its size, so that
    checking stays linear in the text whatever its defines do (a refusal within a second)."""
    return max(LIMITS["check_work"], WORK_PER_NODE * sum(1 for _ in ast_nodes(rules)))


class Lowerer(ExpressionLowering, CallLowering, StatementLowering, ActionLowering, GridLowering,
              GridStatementLowering, WaysLowering):
    """The checked rules -> GameIR: each concern in its own mixin (expressions, calls,
    statements, actions, grids and their statements); here the whole game is put together."""

    def __init__(self, rules: ast.Rules, sym: Symbols, source: Source, diags: list[Diagnostic],
                 sources: dict[str, Source] | None = None, native: bool = False):
        self.rules = rules
        #: whether the game is to be written for the native engine (GameIR.native_lowered):
        #: the lowering itself is the same for both engines
        self.native = native
        #: natively, the memos of lines looked for at the end of turns (in_a_row_since): a key
        #: per grid and length -> its index among the state's memos
        self.memos: dict[tuple, int] = {}
        #: the leap tables the rules use: (grid, m, n) -> (offsets per cell, the table)
        self.leap_tables: dict[tuple, tuple] = {}
        self.line_bits_of: dict[str, list] = {}  # grid -> its lines as bits, where in_a_row reads them
        self.way_memos: dict[str, int] = {}  # per board, how many reachable() calls keep the ways found
        self.way_marks: str | None = None  # while a kept-ways source is lowered: reachable() marks its way there
        self.way_marks_of: set[str] = set()  # the walls grids whose ways are marked (their W_MARKS)
        self.wall_corners_of: set[str] = set()  # the walls grids whose walls' corners are read (W_CORNERS, W_AROUND)
        self.side_masks_of: set[str] = set()  # the boards a side is searched to on (their SIDE_MASKS)
        #: while an ensure's trial is written: per procedure, the statements it keeps (ensure.py)
        self.trial_blocks: dict | None = None
        self.sym = sym
        self.source = source
        self.sources = sources or {}
        self.reads_stuck = False  # an end condition reads `stuck`
        #: who is noted to have seen an item go out of its sight (compiler/lower/stmts.py saw): in a
        #: secret action's effects "player", in setup and automatic steps "owner" (of the private
        #: place it leaves), in a public action's None (everyone saw the move)
        self.noting: str | None = "owner"
        self.remembers = False  # some effect notes what a seat saw go where it cannot see (``seen``)
        self.rolls = False  # random() draws during play: the state keeps a log of them
        self.reveals = False  # a statement reveals a place: the state keeps what it revealed
        self.ensuring = False  # while an action's _ensure_ method is lowered (its ensure returns)
        #: the sets of places repeated(...) compares: (their attributes, whether the mover counts)
        self.histories: list[tuple] = []
        self._running: list[str] = []  # the procedures being written in place, innermost last
        self._runs = 0  # procedures written in place so far (each gets locals of its own)
        self._ran: set[str] = set()  # the procedures some statement runs
        #: while the left side of `count(X) CMP k` is lowered: k + 1, as far as counting must go
        self.count_limit: int | None = None
        self.enum_params: dict[str, dict] = {}  # enum -> {list param read by its members: values}
        self.diags = diags
        self.action_count = 0
        self._functions: dict[tuple, tuple | None] = {}  # (define, argument types, ...) -> its function
        self._bodies: dict[tuple, tuple] = {}  # the same key -> the define's (code, type, precedence), uses
        self.functions: list[tuple] = []  # the engine's functions compiled from defines
        self._defining: list[str] = []  # the defines being compiled (a define may not use itself)
        self._cost: dict[str, int] = {}  # function -> characters of code one call runs, calls included
        self.notes: list[str] = []  # rendered notes: what the rules leave out that tools would need
        self._comp_depth = 0  # aggregates being lowered (an end condition keeps no memo inside one)
        self._in_function = 0  # > 0 while a define's body is lowered for a function of its own
        self._shared_names = 0  # the locals of calls kept in place ((_shared0 := ...): lower/calls.py)
        self.nsteps = len(sym.turns[0].steps) if sym.turns else 0
        #: the expressions lowering may build, in proportion to the text: defines written in
        #: place within defines written in place could otherwise ask for 2**depth of them
        self.work_left = work_budget(rules)
        self.calls: list[ast.Call] = []  # the define calls being lowered, outermost first

    @staticmethod
    def local(name: str) -> str:
        return pyname(name)

    def shown_at_end(self) -> list[str]:
        """The hidden or private places the rules show everyone once the game is over."""
        shown = []
        for place in list(self.sym.zones.values()) + list(self.sym.grids.values()):
            if place.node.shown_at_end:
                if place.hidden or place.private:
                    shown.append(place.name)
                else:
                    self.error(f"everyone sees '{place.name}' already: 'shown at end' is for hidden or private "
                               "places", place.node.pos)
        return shown

    def first_reads_nothing_set_up(self, expr: ast.Node) -> None:
        """``first player`` is chosen before setup: it may not read a zone, grid or counter
        (set up after it), even through a define."""
        places = set(self.sym.zones) | set(self.sym.grids) | set(self.sym.counters)
        read = next((n for n in nodes_through_defines(expr, self.sym.defines)
                     if isinstance(n, ast.Name) and n.id in places), None)
        if read is not None:
            inside = any(n is read for n in ast_nodes(expr))  # else read by a define it calls
            self.error(f"'first player' is chosen before setup, so '{read.id}' is not set up yet",
                       read.pos if inside else expr.pos,
                       "to choose who starts from the deal, end setup with 'next player EXPR' "
                       "(e.g. next player argmax(count(c for c in hand[p] where ...) for p in players))")

    def conserved_items(self, zones: list, grids: list) -> list[str]:
        """The item kinds (tables) that play never makes appear or vanish: no statement adds,
        removes, puts, captures or pushes off one where they lie, and no place of theirs is
        emptied as a turn begins. Each of their items lies in exactly one place in any state
        play reaches (a saved state is checked against a new game of the same seed)."""
        changed = places_not_conserved(self.rules)
        if changed is None:
            return []
        places = zones + grids
        lost = _kinds_of(p for p in places if p.name in changed or p.per_turn or p.per_step)
        return sorted(_kinds_of(places) - lost)

    def helper(self, qualified: str, ty: T.Type, *args, c_form: bool = True) -> N.Helper:
        """A call of the runtime helper ``ops.name`` / ``K.name`` (natively by its C form when
        it has one and ``c_form`` allows it); each argument a tree or code already written."""
        return N.Helper(ty, 0, qualified, tuple(self.node(a) for a in args), c_form)

    @staticmethod
    def node(value, ty: T.Type = T.ANY) -> N.Expr:
        """A tree as it is, or code already written as a leaf of one (kept as written)."""
        if isinstance(value, N.Expr):
            return value
        if isinstance(value, int):  # a number the compiler knows (a degree, a size)
            return N.Const(T.INT if ty.kind == "any" else ty, 0, value)
        return N.Code(ty, 0, str(value), N.P_ATOM)  # written in place, as the code around it was

    def error(self, message: str, pos: tuple, hint: str | None = None) -> None:
        self.diags.append(Diagnostic.at(message, pos, hint))

    def comment(self, node: ast.Node) -> str:
        """``# line N: <rules text>`` (``# FILE line N: ...`` for a line of an extended file)."""
        line = node.pos[0]
        file = node.pos[2] if len(node.pos) > 2 else None
        source = self.sources.get(file, self.source) if file else self.source
        text = source.line_text(line).strip()
        if len(text) > 90:
            text = text[:87] + "..."
        where = f"{_path_word(file)} line" if file else "line"
        return comment_text(f"# {where} {line}: {text}")

    # ---- the game -----------------------------------------------------------------------
    def build(self, name: str, rules_hash: str) -> GameIR:
        sym = self.sym
        game = sym.game
        enums = [EnumIR(e.name, _const(e.name), e.members, e.wild,
                        [next((k for k, v in e.symbols.items() if v == i), "") for i in range(len(e.members))],
                        [("disc:" if m.on_disc else "") + (m.figure or "") for m in e.node.members if m.name in e.members])
                 for e in sym.enums.values()]
        tables = [self.table_ir(t) for t in sym.tables.values()]
        setup_ctx = Ctx("setup", random_ok=True)
        zones = []
        for z in sym.zones.values():
            self.check_columns(z)
            init = None
            if z.node.init is not None:
                tree = self.tree(z.node.init, setup_ctx)
                ty = tree.type
                if not ty.is_collection and ty.kind != "any":
                    self.error(f"a zone starts with a list of items, but this is {ty}", z.node.init.pos)
                elif ty.elem is not None and not T.compatible(ty.elem, z.elem):
                    self.error(f"zone '{z.name}' holds {z.elem}, but this holds {ty.elem}", z.node.init.pos)
                init = N.Apply(T.ANY, 0, "list", (tree,))
            zones.append(ZoneIR(z.name, f"z_{z.name}", self.per_count(z.per), z.hidden, z.private,
                                z.elem.display_kind, z.capacity, init, z.node.pos[0],
                                values=self.value_count(z.elem, z.values), per_turn=z.node.per == "turn", per_step=z.node.per == "step",
                                unordered=bool(z.node.unordered)))
        grids = []
        seats = sym.game.max_players if sym.game else 2
        for g in sym.grids.values():
            geo = g.geo
            point_lines = point_line_tables(geo.lines, geo.cells)  # lines(G, c) walked in C (passes/point_lines.py)
            if g.elem.kind == "piece" and len(sym.enums[g.elem.name].members) * seats > 254:
                kinds = len(sym.enums[g.elem.name].members)  # a cell holds owner * kinds + kind + 1 in a byte
                self.error(f"{kinds} kinds of piece for {seats} players do not fit a cell ({kinds * seats} pieces; "
                           "at most 254)", g.node.elem.pos, "fewer kinds, or fewer players")
            grids.append(GridIR(g.name, f"g_{g.name}", gconst(g.name), self.per_count(g.per), g.hidden,
                                g.private, g.elem.display_kind, geo.kind, geo.width, geo.height, geo.cells,
                                list(geo.adj), list(geo.rows), list(geo.cell_names()), list(geo.dirs),
                                [list(e) for e in geo.exits], g.node.pos[0],
                                columns=[c[0] for c in geo.coords] if geo.kind not in ("hex", "star") else
                                _hex_places(geo), sides=[list(c) for c in geo.side_cells()], side_names=list(geo.sides),
                                numbers=g.elem.kind == "int", values=self.value_count(g.elem, None)[1],
                                layout=geo.layout(),
                                numbered={n: c for n, c in enumerate(geo.reading_order(), 1)} if geo.numbered else {},
                                lines=[list(line) for line in geo.lines],
                                line_ids=point_lines[0], line_cells=point_lines[1],
                                base=g.node.size[0].id if geo.kind == "walls" else None,
                                ends=[list(pair) for pair in geo.ends], slots=list(geo.slots),
                                per_turn=g.node.per == "turn", per_step=g.node.per == "step"))
        first = N.Const(T.INT, 0, 0)
        if game is not None and game.first is not None:
            self.first_reads_nothing_set_up(game.first)
            # its draw is logged with the rolls of play: who starts is part of a game's replay
            first = self.number_tree(game.first, Ctx("first", random_ok=True))
        setup_lines = []
        for node in sym.setup:
            setup_lines += self.block(node.body, Ctx("setup", random_ok=True))
        steps, actions = [], []
        if sym.turns:
            for i, step in enumerate(sym.turns[0].steps):
                steps.append(self.step_ir(i, step, len(sym.turns[0].steps), actions))
            share_ids(self, sym.turns[0].steps, actions)
        counters = []  # after the steps: a counter of again takes its parameter's type there
        for c in sym.counters.values():
            if c.node.init is None:
                init = N.Const(T.INT, 0, 0 if c.type.kind in ("int", "bool", "any") else -1)  # none until set
            elif c.type.is_number:
                init = self.number_tree(c.node.init, setup_ctx)
            else:
                init = self.counter_value(c, c.node.init, setup_ctx)
            if c.private and c.per != "player":
                self.error(f"a private counter is one per player, each seen by its seat: counter {c.name} per "
                           "player private", c.node.pos)
            counters.append(CounterIR(c.name, f"c_{c.name}", self.per_count(c.per), init, c.node.pos[0],
                                      c.type.display_kind, per_turn=c.node.per == "turn", per_step=c.node.per == "step", private=c.private,
                                      values=self.counter_values(c.type),
                                      per2=None if c.per2 is None else len(sym.enums[c.per2].members)))
        end_ctx = Ctx("end", has_me=True)
        skeletons: dict[str, int] = {}
        for a in actions:
            skeletons[a.skeleton] = skeletons.get(a.skeleton, 0) + 1
        for a in actions:
            if skeletons[a.skeleton] > 1:
                a.clash = "True"
        ends = [(self.comment(e), self.boolean_tree(e.cond, end_ctx)) for e in sym.ends]
        end_winners = []
        if any(e.winner is not None or e.draw for e in sym.ends):
            for e, (comment, cond) in zip(sym.ends, ends):
                win = "draw" if e.draw else None  # nobody wins
                if e.winner is not None:
                    win = self.want_tree(e.winner, end_ctx, ("player", "int"), "a player (the winner)")
                end_winners.append((comment, cond, win))
        clauses, score_secrecy = [], []
        score_var = pyname(sym.scores[0].var) if sym.scores else "p"
        for score in sym.scores:
            if pyname(score.var) != score_var:
                self.error("every score block must name its player the same way", score.pos)
            ctx = Ctx("score", {score.var: N.Local(T.PLAYER, 0, pyname(score.var))})
            for clause in score.clauses:
                clauses.append((clause.name, clause.pos[0], self.number_tree(clause.expr, ctx)))
                score_secrecy.append(secrecy(clause.expr, score.var, sym))
        keys, ties, said = [], "draw", []
        if sym.winners:
            w = sym.winners[0]
            seat = N.Local(T.PLAYER, 0, pyname(w.var))
            ctx = Ctx("winner", {w.var: seat, "score": N.Index(T.INT, 0, N.Local(T.ANY, 0, "_sc"), seat)})
            ctx.needs["score"] = ("_sc", pyname(w.var))
            for rank in w.ranks:
                said.append(("most " if rank.most else "fewest ") + expr_text(rank.expr))
                key = self.number_tree(rank.expr, ctx)
                keys.append((rank.pos[0], key if rank.most else N.Neg(T.INT, 0, key), pyname(w.var)))
            ties = w.ties if w.ties in ("draw", "shared") else sym.seats.get(w.ties, 0)  # a seat: its number
        else:
            keys = [(0, N.Index(T.INT, 0, N.Local(T.ANY, 0, "_sc"), N.Local(T.PLAYER, 0, "p")), "p")]
        invariants = []
        for inv in sym.invariants:
            invariants.append((inv.name, inv.pos[0], self.boolean_tree(inv.expr, Ctx("invariant"))))
        for z in sym.zones.values():  # a zone declared with its values holds no others
            if z.values is not None:
                lo, hi = z.values
                within = self.helper("ops.values_within", T.BOOL, N.Field(T.ANY, 0, f"z_{z.name}"), lo, hi,
                                     int(z.per is not None), c_form=False)
                invariants.append((f"{z.name} values", z.node.pos[0], within))
        kinds = {f"enum:{e.name}": len(e.members) for e in sym.enums.values()}
        kinds.update({f"item:{t.name}": t.count for t in sym.tables.values()})
        held = [x.elem for x in [*sym.grids.values(), *sym.zones.values()]] + [c.type for c in sym.counters.values()]
        kinds.update({t.display_kind: len(sym.enums[t.name].members) * seats for t in held if t.kind == "piece"})
        notices = lower_notices(self, sym)  # before: a define only a notice uses is used
        self.check_unused_defines()
        for gr in grids:  # the leaps the rules used, each a table of its own
            gr.leaps = [(f"LEAP_{m}_{n}", deg, list(table))
                        for (g, m, n), (deg, table) in sorted(self.leap_tables.items()) if g == gr.name]
            gr.ways = self.way_memos.get(gr.name, 0)
            gr.marks = gr.name in self.way_marks_of
            if gr.name in self.wall_corners_of:
                gr.corners, gr.around = wall_corners(self.sym.grids[gr.name].geo)
            gr.side_masks = gr.name in self.side_masks_of
            gr.line_bits = self.line_bits_of.get(gr.name, [])
        return GameIR(
            name=name, title=game.title if game else name, rules_file=self.source.filename,
            native_lowered=self.native,
            memos=len(self.memos), rules_hash=rules_hash,
            min_players=game.min_players if game else 2, max_players=game.max_players if game else 2,
            first_code=first, params=[(p.name, p.value) for p in sym.params.values()],
            enums=enums, tables=tables, zones=zones, grids=grids, patterns=list(sym.patterns),
            tracks=[(t.name, t.grid, t.node.pos[0], list(t.cells), _places(t.cells, sym.grids[t.grid].geo.cells), t.loop)
                    for t in sym.tracks.values()],
            pattern_texts=list(sym.pattern_texts),
            counters=counters, setup_lines=setup_lines,
            steps=steps, actions=actions, end_conds=ends, end_shapes=self.end_shapes(sym.ends),
            end_winners=end_winners, functions=self.functions,
            marks=list(game.marks) or seat_marks(game.seats) if game else [],
            seats=list(game.seats) if game else [],
            seat_sides=list(game.seat_sides) if game else [],
            colours=list(game.colours) or seat_colours(game.seats) if game else [],
            zone_values={z.name: z.values for z in sym.zones.values() if z.values is not None},
            notes=list(dict.fromkeys(self.notes)),
            max_decisions=self.sym_const(game.max_decisions) or LIMITS["decisions"]
            if game is not None and game.max_decisions is not None else LIMITS["decisions"],
            has_chance=has_chance(self.rules),
            score_clauses=clauses, score_var=score_var,
            score_secrecy=score_secrecy, flows=flows(self.rules), ends_by_statement=ends_by_statement(self.rules),
            reads_stuck=self.reads_stuck, remembers=self.remembers, rolls=self.rolls, histories=[(", ".join(parts), mover) for parts, mover in self.histories],
            has_next_player=has_next_player(self.rules), announces=announces(self.rules),
            conserved_items=self.conserved_items(zones, grids), reveals=self.reveals,
            shown_at_end=self.shown_at_end(),
            winner_keys=keys, winner_said=said, ties=ties, invariants=invariants, kinds=kinds,
            notices=notices,
            zone_per_enum={z.name: z.per for z in sym.zones.values() if z.per not in (None, "player")},
            quiet=sorted(n for n, d in [*((z.name, z.node) for z in sym.zones.values()),
                                         *((g.name, g.node) for g in sym.grids.values()),
                                         *((c.name, c.node) for c in sym.counters.values())] if d.quiet),
            edges={g.name: g.edges for g in sym.grids.values() if g.edges},
            under={g.name: g.node.under for g in sym.grids.values() if g.node.under},
            looks={g.name: g.node.look for g in sym.grids.values() if g.node.look}, grounds=self.grounds(),
            zone_columns={z.name: z.node.columns for z in sym.zones.values() if z.node.columns},
            pattern_enums={f"item:{t.name}": c.type.name for t in sym.tables.values()
                           for c in t.columns.values() if c.type.kind == "pattern"},
            enum_params={e: dict(sorted(v.items())) for e, v in sorted(self.enum_params.items())},
            item_patterns={f"item:{t.name}": column_const(t.name, c.name) for t in sym.tables.values()
                           for c in t.columns.values() if c.type.kind == "pattern"})

    def check_columns(self, z) -> None:
        """``columns by COLUMN``: a zone of items laid out by an enum column of their table (and
        no drawing option of a board on a zone)."""
        if z.node.look or z.node.ground:
            said = {"checkered": "checkered", "points": "on points"}.get(z.node.look, f'on "{z.node.ground}"')
            self.error(f"'{said}' draws a board: it is for grids", z.node.pos)
        column = z.node.columns
        if column is None:
            return
        table = self.sym.tables.get(z.elem.name) if z.elem.kind == "item" else None
        col = table.columns.get(column) if table is not None else None
        if table is None:
            self.error(f"'columns by {column}' lays out items by a column of their table; zone '{z.name}' holds {z.elem}",
                       z.node.pos)
        elif col is None or col.type.kind != "enum":
            self.error(f"'columns by {column}': table '{table.name}' has no enum column '{column}'", z.node.pos,
                       "name a column whose values are members of an enum (a suit, a colour)")

    def grounds(self) -> dict[str, str]:
        """The colours boards are drawn on (``on "green"``): a CSS colour word or #rrggbb."""
        out = {}
        for g in self.sym.grids.values():
            ground = g.node.ground
            if ground is None:
                continue
            if not is_colour(ground):
                self.error(f"'on \"{ground}\"': a board's colour is a colour word or #rrggbb", g.node.pos,
                           'grid board: player square 8 by 8 on "#2e7d32"')
            out[g.name] = ground
        return out

    def value_count(self, elem: T.Type, values: tuple | None) -> tuple:
        """(lowest, how many) values an element may take, for observations: a number, "n" for
        the seats, None for numbers whose values are not declared."""
        if elem.kind == "item":
            return (0, self.sym.tables[elem.name].count)
        if elem.kind == "enum":
            return (0, len(self.sym.enums[elem.name].members))
        if elem.kind == "player":
            return (0, "n")
        if elem.kind == "piece":  # owner * kinds + kind, for every seat the game may have
            return (0, len(self.sym.enums[elem.name].members) * (self.sym.game.max_players if self.sym.game else 2))
        if elem.kind == "bool":
            return (0, 2)
        if values is not None:
            return (values[0], values[1] - values[0] + 1)
        return (0, None)

    def counter_values(self, ty: T.Type) -> int | str | None:
        """How many values a counter holds when observations give it one-hot (a cell of a grid, a
        member, an item, a piece, a seat: "n"); None for numbers and truths, given as they are."""
        family, _, name = ty.display_kind.partition(":")
        if family == "cell" and name in self.sym.grids:
            return self.sym.grids[name].geo.cells
        if ty.kind in ("item", "enum", "player", "piece"):
            return self.value_count(ty, None)[1]
        return None

    def per_count(self, per: str | None) -> str | int | None:
        """How a per-something declaration is laid out: None, "player", or a member count."""
        if per is None or per == "player":
            return per
        return len(self.sym.enums[per].members)

    def table_ir(self, t) -> TableIR:
        columns = [(c.name, c.type.display_kind, c.values) for c in t.columns.values()]
        # byte tables mapping a grid cell (item + 1) to (column value + 1): grid projections
        cells = []
        for c in t.columns.values():
            if c.type.kind in ("enum", "int") and t.count < 255 and all(-1 <= v < 254 for v in c.values):
                table = bytearray(256)
                for i, v in enumerate(c.values):
                    table[i + 1] = v + 1
                cells.append((c.name, bytes(table)))
        item = N.Local(T.item(t.name), 0, "i")
        names = {c.name: self.column(t.name, c.name, c, item) for c in t.columns.values()}
        if t.show is not None:
            body = self.template_code(t.show, names, t.node.pos)
            if t.node.show_if is not None:  # show A if C1 else B if C2 else C: the text chosen by the item
                other = self.template_code(t.node.show_else, names, t.node.pos)
                for cond_node, text in reversed(t.node.show_elifs):
                    cond = self.boolean_tree(cond_node, Ctx("show", names))
                    other = N.Cond(T.TEXT, 0, cond, self.template_code(text, names, t.node.pos), other)
                cond = self.boolean_tree(t.node.show_if, Ctx("show", names))
                body = N.Cond(T.TEXT, 0, cond, body, other)
        elif names:
            body = N.TextOf(T.TEXT, 0, tuple(N.Shown(T.TEXT, 0, tree) for tree in names.values()), " ")
        else:
            body = N.Apply(T.TEXT, 0, "str", (item,))
        line = t.node.pos[0]
        detail = [S.Return(line, self.template_code(t.detail, names, t.node.pos))] if t.detail is not None else []
        c_columns = [c.name for c in t.columns.values() if is_c_column(c.values)]
        return TableIR(t.name, _const(t.name), columns, t.count, [S.Return(line, body)], line, cells, detail, c_columns)


def _places(cells: tuple, size: int) -> list[int]:
    """Each of a grid's ``size`` cells' place on a track through ``cells`` (-1: off it)."""
    places = [-1] * size
    for i, c in enumerate(cells):
        places[c] = i
    return places

