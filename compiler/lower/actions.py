"""Steps and actions: the moves a decision offers (generators), their effects, notations,
domains for action ids, and the end shapes displays outline."""
from __future__ import annotations

from math import comb

import attrs

from regle.dsl import ast
from regle.dsl.errors import Diagnostic

from ..ir import types as T
from ..check.symbols import LIMITS, NotConstant, fold_constant
from ..check.texts import split_template
from . import kept_ways
from .ensure import ensure_method, ensure_test
from ..passes.counts import count_only
from ..passes.share import shared_value, use_shared
from .notation import notation_code
from ..check.analysis import conjuncts
from ..check.again import chained_after
from ..ir.game import ActionIR, StepIR
from ..ir import nodes as N
from ..ir.traverse import name_of
from ..ir import statements as S
from ..write.moves import (
    AddMove, CellScan, ForcedFirst, Guard, ItemScan, KernelMoves, ListedMoves, MovesBound, NeighbourScan, PairScan, Scan, Source,
    SlideScan, holding_scan, neighbour_tables, nest)
from .common import Ctx, decides_in_parts, item_list, pyname, _zone_name, _names_in, _moves_fit


@attrs.define
class Loop:
    """One parameter's loop in a move generator, as the choices after it need to see it."""
    level: int
    names: str  # the loop variable(s): ``c_``, or ``a_, b_`` for a pair
    src: N.Expr  # what it walks (a hoisted source's local, when hoisted)
    reads: set  # the rules names its source reads
    single: bool = True  # one variable
    distinct: N.Expr | None = None  # the zone whose distinct values ``src`` is
    pairs_of: N.Expr | None = None  # a pair's loop: the values whose distinct pairs it walks (not hoisted)
    hoisted: bool = False  # ``src`` names a source computed once, before the loops
    pair: tuple = ()  # a pair's loop: its two variables
    clauses: tuple = ()  # (names, source) of the loops folded into one comprehension

    def __attrs_post_init__(self) -> None:
        self.clauses = self.clauses or ((self.names, self.src),)


class ActionLowering:
    """Mixed into :class:`lower.Lowerer`."""

    def step_ir(self, index: int, step: ast.Step, nsteps: int, actions: list) -> StepIR:
        """A step: its condition and its actions, then a pass over its move generators' tree:
        the call the condition and the generators both compute, computed once per decision
        (compiler/passes/share.py). (Each engine's writing takes the reads of the state they make
        twice once: compiler/write/written.py.)"""
        ir, cond = self.step_choices(index, step, actions)
        block = [st for a in ir.actions if a.forced for st in a.moves]
        if block:  # the forced actions' moves first; when there are any, they are all the moves
            block.append(ForcedFirst(step.pos[0]))
        block += [st for a in ir.actions if not a.forced for st in a.moves]
        # a condition that may skip a part of itself could skip the shared call: not shared
        if cond is not None and step.kind != "auto" and not decides_in_parts(step.cond, self.sym.defines):
            shared = shared_value(cond, block)
            if shared is not None:
                ir.shared_code = shared
                cond, block = use_shared(cond, shared), use_shared(block, shared)
        ir.cond_code = cond
        ir.move_lines = tuple(block)  # written as a list of moves, and natively as keys too (compiler/write/written.py)
        whole: dict[str, bool] = {}  # a local of several actions: a C number if it is in each
        for a in ir.actions:
            for var, number in a.gen_locals.items():
                whole[var] = whole.get(var, True) and number
        ir.c_locals = sorted(v for v, number in whole.items() if number and v != "me")
        return ir

    def step_choices(self, index: int, step: ast.Step, actions: list) -> tuple[StepIR, N.Expr | None]:
        """The step's IR (its actions appended to ``actions`` too), and its condition's tree
        (written by ``step_ir``, once it knows what the condition shares with the moves)."""
        ctx = Ctx("turn", has_me=True)
        cond = self.boolean_tree(step.cond, ctx) if step.cond is not None else None
        after = f"s._again({index})" if step.kind == "repeat" else f"s._enter({index + 1})"
        ir = StepIR(index, step.name, step.kind, step.pos[0], None, [], None, [], self.comment(step),
                    unordered=step.unordered)
        if step.kind == "auto":
            ir.body_lines = self.block(step.body, Ctx("auto", has_me=True, random_ok=True))
            return ir, cond
        if step.kind == "decision" and step.cond is not None:
            ir.kind = "when"
        if step.optional:  # "stop" beside the actions, only when one is legal
            ir.kind = "optional_repeat"
        for choice in step.choices:
            if isinstance(choice, ast.Action):
                a = self.action_ir(choice, index, chained_after(self.sym, step, choice.name, index, after))
                ir.actions.append(a)
                actions.append(a)
            else:
                text = choice.notation or "pass"
                a = ActionIR(self.action_count, "pass", index, [S.Return(choice.pos[0], N.Text(T.TEXT, 0, text))],
                             [], [], [], after, choice.pos[0], is_pass=True, skeleton=text)
                self.action_count += 1
                ir.pass_action = a
                actions.append(a)
        if step.kind == "optional" or step.optional:  # optional repeat: "stop" goes on to the next step
            skip = ("stop " if step.optional else "skip ") + step.name
            a = ActionIR(self.action_count, "skip", index, [S.Return(step.pos[0], N.Text(T.TEXT, 0, skip))], [], [], [],
                         f"s._enter({index + 1})" if step.optional else after, step.pos[0], is_pass=True,
                         skeleton=skip)
            self.action_count += 1
            ir.pass_action = a
            actions.append(a)
        return ir, cond

    def visible_choice(self, source: ast.Node) -> None:
        """Refuse a parameter over a zone the acting player cannot see: its legal moves would
        list the hidden elements, in order, for anyone to read."""
        index = source.index if isinstance(source, ast.Index) else None
        name = _zone_name(source)
        place = self.sym.zones.get(name) or self.sym.grids.get(name)
        if place is None:
            return
        if place.hidden:
            self.error(f"the player cannot see '{name}' (it is hidden), so cannot choose among its elements",
                       source.pos, "choose from a zone the player sees, or deal from this one")
        elif place.private and place.per == "player" and not (isinstance(index, ast.Name) and index.id == "me"):
            self.error(f"'{name}' is private to its owner: only {name}[me] can offer choices here",
                       source.pos, "choose from the acting player's own zone")

    def secret_text(self, node: ast.Action) -> str | None:
        """What the other seats see of a ``secret`` action's move: its text, or its name. The
        text is said as written: it names nothing of the move (no placeholders)."""
        if node.secret is None:
            return None
        if "{" in node.secret or "}" in node.secret:
            self.error("a secret move's text is what the others see: it names nothing of the move "
                       "(no {placeholders})", node.pos, 'e.g. action pass(cs in subset hand[me]) "pass {cs}" '
                       'secret "passes three cards"')
        return node.secret or node.name

    def action_ir(self, node: ast.Action, step: int, after: str) -> ActionIR:
        index = self.action_count
        self.action_count += 1
        ctx = Ctx("guard", has_me=True)
        levels: dict[str, int] = {}
        loops: list[Loop] = []
        hoisted: list[Source] = []  # loop sources that no parameter changes, computed once
        arg_names: list[str] = []
        arg_types: dict[str, N.Local] = {}  # each parameter's local
        domains: list[tuple] = []
        for level, b in enumerate(node.params):
            for n in b.names:
                if n in ctx.scope or n in self.sym.all_names():
                    self.error(f"'{n}' is already a name here; choose another parameter name", b.pos)
            reads = _names_in(b.source) | _names_in(b.upper)
            free = not reads & set(levels)

            def source_code(tree: N.Expr) -> N.Expr:
                if level == 0 or not free or _constant_range(tree):  # natively a C loop
                    return tree
                var = f"_src{len(hoisted)}_{index}"
                hoisted.append(Source(node.pos[0], var, tree))
                return N.Local(tree.type, 0, var)

            if b.kind == "range":
                lo = self.number_tree(b.source, ctx)
                hi = self.number_tree(b.upper, ctx)
                var = pyname(b.names[0])
                constant = isinstance(lo, N.Const) and isinstance(hi, N.Const)
                if constant:
                    if hi.value - lo.value + 1 > LIMITS["range_values"]:
                        self.error(f"this range has {hi.value - lo.value + 1:,} values (the limit is "
                                   f"{LIMITS['range_values']:,})", b.pos, "a parameter offers at most that many choices")
                    values = N.Span(T.list_of(T.INT), 0, lo.value, hi.value)
                else:  # bounded when played: a runaway counter cannot make a runaway move list
                    values = self.helper("ops.span", T.list_of(T.INT), lo, hi)
                # a constant range stays in the loop (natively Cython makes it a C loop)
                loops.append(Loop(level, var, values if constant else source_code(values), reads))
                ctx.bind(b.names[0], var, T.INT)
                ctx.note_local(var, T.INT)
            elif b.kind == "pair":
                self.visible_choice(b.source)
                src, ty = self.collection_tree(b.source, ctx)
                if ty.elem is not None and ty.elem.kind not in ("int", "player", "enum", "item", "any"):
                    self.error("pairs are drawn from a zone of numbers, enum values or items", b.source.pos)
                va, vb = pyname(b.names[0]), pyname(b.names[1])
                pairs = source_code(self.helper("K.distinct_pairs", T.list_of(T.ANY), src))
                loops.append(Loop(level, f"{va}, {vb}", pairs, reads, single=False, pair=(va, vb),
                                  pairs_of=src if level == 0 or not free else None))
                ctx.bind(b.names[0], va, ty.elem or T.ANY)
                ctx.bind(b.names[1], vb, ty.elem or T.ANY)
                ctx.note_local(va, ty.elem or T.ANY)
                ctx.note_local(vb, ty.elem or T.ANY)
            elif b.kind == "subset":
                self.visible_choice(b.source)
                src, ty = self.collection_tree(b.source, ctx)
                elem = ty.elem or T.ANY
                if elem.kind not in ("int", "player", "enum", "item", "cell", "any"):
                    self.error(f"a subset is drawn from numbers, seats, enum values, items or cells, not {elem}",
                               b.source.pos)
                var = pyname(b.names[0])
                loops.append(Loop(level, var, source_code(self.helper("ops.subsets", T.list_of(T.list_of(elem)), src)),
                                  reads))
                ctx.bind(b.names[0], var, T.list_of(elem))
                ctx.note_local(var, T.list_of(elem))
            else:
                self.visible_choice(b.source)
                src, ty = self.collection_tree(b.source, ctx)
                var = pyname(b.names[0])
                elem = ty.elem or T.ANY
                distinct = None
                if ty.kind == "zone" and elem.kind in ("int", "enum", "bool", "any"):
                    distinct, src = src, N.Distinct(ty, 0, src)  # equal values are one choice
                made = source_code(src)
                loops.append(Loop(level, var, made, reads, distinct=distinct, hoisted=made is not src))
                ctx.bind(b.names[0], var, elem)
                ctx.note_local(var, elem)
                if elem.is_collection:
                    self.error(f"a parameter takes one value at a time, and '{b.names[0]}' would range over "
                               f"lists ({elem})", b.pos, "number the choices instead: i in 0..N, then "
                               "use the list's [i]")
            for n in b.names:
                levels[n] = level
                arg_names.append(n)
                arg_types[n] = ctx.scope[n]
                domains.append(self.domain(node, n, b, ctx.scope[n].type))
        for counter, (at, action, param) in self.sym.again_pins.items():  # again keeps a value of this type
            if (at, action) == (step, node.name) and param in arg_types:
                self.sym.counters[counter].type = arg_types[param].type
        # guard prefix (let/require) and effects
        prefix, effects = [], []
        for stmt in node.body:
            if isinstance(stmt, (ast.Let, ast.Require)) and not effects:
                prefix.append(stmt)
            elif isinstance(stmt, ast.Require):
                self.error("'require' must come before the action's effects", stmt.pos,
                           "conditions decide whether the action is legal; put them first")
            else:
                effects.append(stmt)
        if node.name in self.sym.since:  # since(this action): the turn it is played, noted first
            effects.insert(0, ast.Assign(name=self.sym.since[node.name], op="=",
                                         value=ast.Name(id="turns", pos=node.pos), pos=node.pos))
        # place each guard at the innermost loop it depends on
        placed: dict[int, list] = {i: [] for i in range(-1, len(node.params))}
        tests: dict[int, list] = {i: [] for i in range(-1, len(node.params))}  # (the let or require, its test)
        guard_ctx = ctx.child()
        ways = kept_ways.plan(self, effects, prefix, arg_names) if node.params else None  # an ensure of ways
        needed: set[str] = kept_ways.cells_read(ways)  # the lets some require reads: the rest serve the effects
        for stmt in reversed(prefix):
            if isinstance(stmt, ast.Require) or stmt.name in needed:
                needed |= _names_in(stmt)
        floor = -1  # a conjunct is tested no further out than those before it in its require
        for stmt, later in conjuncts(prefix):
            deps = _names_in(stmt) & set(levels)
            level = max((levels[d] for d in deps), default=-1)
            if later:
                level = max(level, floor)
            floor = level
            items: list = [S.Comment(stmt.pos[0], self.comment(stmt))]
            if isinstance(stmt, ast.Let):
                let = self.s_Let(stmt, guard_ctx)
                levels[stmt.name] = level
                if stmt.name not in needed:  # computed with the effects, not for every move
                    continue
                items += let
                tests[level].append((stmt, None))
            else:
                cond = self.boolean_tree(stmt.cond, guard_ctx)
                items.append(Guard(stmt.pos[0], cond))
                tests[level].append((stmt, cond))
            placed[level].extend(items)
        ensure = ensure_test(self, effects, index, arg_names, arg_types)
        if ensure is not None:  # tested last, where every parameter is known: a trial per move (ensure.py)
            level = len(node.params) - 1
            if ways is not None:  # unless the ways found once in the position decide (kept_ways.py)
                ensure = kept_ways.lower(self, ways, ctx, guard_ctx, index, ensure, node.pos[0], hoisted)
            placed[level].append(Guard(node.pos[0], ensure))
            tests[level].append((None, ensure))
        gen: list = list(placed[-1]) + hoisted
        args = tuple(arg_types[n] for n in arg_names)
        # the loops from `fold` inward have no guards: one comprehension over all of them
        fold = len(loops)
        while fold > 0 and not placed[loops[fold - 1].level]:
            fold -= 1
        # an action that could offer more moves than one decision may hold: its loops stay
        # statements, and the list's size is checked before each innermost loop
        risky = len(loops) >= 2 and not _moves_fit(domains)
        product = None
        tag = N.Const(T.INT, 0, index)
        if len(loops) == 2 and fold == 0 and len(arg_names) == 2:
            outer, inner = loops
            if outer.single and inner.single and node.params[outer.level].names[0] not in inner.reads:
                # two free parameters: every pair of values, made by one kernel call (which
                # checks the bound on moves itself)
                zones = (outer.distinct, inner.distinct) if outer.distinct and inner.distinct else None
                sources = tuple(loop.src.name for loop in loops if loop.hoisted)
                cells = (outer.src.grid, outer.src.filled) if isinstance(outer.src, N.Cells) and outer.src.walkable \
                    and zones is None else None  # natively from the grid's bytes, no list of cells
                product = KernelMoves(node.pos[0], "K.tagged_product", (tag, outer.src, inner.src), zones=zones,
                                      sources=sources, cells=cells)
                risky = False
        if risky:
            fold = len(loops)
        if product is not None:
            gen.append(product)
            loops = []
        elif len(loops) - fold >= 2:
            clauses = tuple(c for loop in loops[fold:] for c in loop.clauses)
            loops = loops[:fold] + [Loop(loops[fold].level, "", None, set(), single=False, clauses=clauses)]
        held = None if risky else self.holding_pairs_loop(node, loops, tests, arg_names, index)
        if held is not None:  # the whole list in one call: nothing left to loop over
            gen += [r for r in placed[loops[0].level] if isinstance(r, S.Comment)]
            gen.append(held)
            loops = []
        for i, loop in enumerate(loops):
            level = loop.level
            if i == len(loops) - 1 and not placed[level]:
                # the innermost loop has no guard of its own: one list, built in one go (a loop
                # with guards stays a loop: on Python 3.11 a comprehension is a call of its own,
                # dearer than the few tests of a game's small zones)
                src = loop.src
                if len(loops) == 1 and loop.single and len(arg_names) == 1:
                    if isinstance(src, N.Helper) and src.name == "K.line_move_keys":  # tagged where made
                        gen.append(KernelMoves(node.pos[0], "K.line_move_keys", src.args + (tag,)))
                    elif loop.distinct is not None:  # equal values are one choice: dropped as the list is made
                        gen.append(KernelMoves(node.pos[0], "K.tagged", (tag, loop.distinct, N.Const(T.BOOL, 0, True))))
                    else:
                        cells = (src.grid, src.filled) if isinstance(src, N.Cells) and src.walkable else None
                        gen.append(KernelMoves(node.pos[0], "K.tagged", (tag, src), cells=cells))
                else:
                    gen.append(ListedMoves(node.pos[0], index, tuple(pyname(n) for n in arg_names), loop.clauses))
                break
            if isinstance(loop.src, N.Cells) and loop.src.walkable:  # natively the grid's bytes: no list
                gen.append(CellScan(node.pos[0], loop.names, loop.src))
            elif holding_scan(loop.src):  # the cells holding pieces: the grid's bytes too
                low, high = f"_lo{level}", f"_hi{level}"
                ctx.note_local(low, T.INT)
                ctx.note_local(high, T.INT)
                gen.append(CellScan(node.pos[0], loop.names, loop.src, low=low, high=high))
            elif loop.pairs_of is not None:
                gen.append(PairScan(node.pos[0], *loop.pair, loop.src, loop.pairs_of))
            elif isinstance(loop.src, N.Slide) and loop.single:  # natively followed in C: no list
                start, steps = f"_from{level}", f"_steps{level}"
                ctx.note_local(start, T.INT)
                ctx.note_local(steps, T.INT)
                gen.append(SlideScan(node.pos[0], loop.names, loop.src, start, steps))
            elif item_list(loop.src) and loop.single:  # natively its items, then a C loop
                k, items = f"_k{level}", tuple(f"_item{level}_{j}" for j in range(len(loop.src.items)))
                for name in (k, *items):
                    ctx.note_local(name, T.INT)
                gen.append(ItemScan(node.pos[0], loop.names, loop.src, k, items))
            elif neighbour_tables(loop.src) is not None:  # natively the neighbours' C tables: no list
                d = f"_d{level}"
                ctx.note_local(d, T.INT)
                gen.append(NeighbourScan(node.pos[0], loop.names, loop.src, d))
            else:
                gen.append(Scan(node.pos[0], loop.names, loop.src))
            gen += placed[level]
            if risky and i == len(loops) - 2:
                gen.append(MovesBound(node.pos[0], LIMITS["moves"], node.name))
        else:
            if held is None and product is None:
                gen.append(AddMove(node.pos[0], index, args))
        # effects (a secret one's moves into unseen places noted: compiler/lower/stmts.py saw)
        self.noting = "player" if node.secret is not None else None
        do_block, do_ctx = self.effects(prefix, effects, guard_ctx)
        self.noting = "owner"
        ensure_lines, ensure_locals = ensure_method(self, prefix, effects, guard_ctx, arg_names)
        line = node.pos[0]
        # the notation (from the move alone, or in the position it is listed in: compiler/lower/notation.py)
        say_body, sayin_lines, sayin_locals = notation_code(self, node, prefix, effects, guard_ctx, arg_types)
        # the notation, then each argument's longer form (telling apart moves that read alike);
        # of a notation read in the position, the longer forms only (the runtime adds them to it)
        say_call = N.Text(T.TEXT, 0, "") if sayin_lines else N.Apply(T.TEXT, 0, f"_say_{index}_{node.name}", tuple(arg_types.values()))
        long_body = N.TextOf(T.TEXT, 0, (say_call, *(self.long_form(a) for a in arg_types.values())), " ")
        clash, skeleton = self.clash_of(node, arg_types)
        # a let of a kernel's list the guards only count is the count (compiler/passes/counts.py)
        moves, counted = count_only(nest([S.Comment(node.pos[0], self.comment(node))] + gen))
        for var in counted:
            ctx.locals[var] = True  # its one binding in the generator is now a whole number
        return ActionIR(index, node.name, step, [S.Return(line, say_body)], [pyname(n) for n in arg_names],
                        moves, do_block, after, node.pos[0],
                        long_lines=[S.Return(line, long_body)], clash=clash, skeleton=skeleton, domains=domains,
                        arg_kinds=[a.type.display_kind for a in arg_types.values()],
                        c_locals=do_ctx.c_numbers(exclude={pyname(n) for n in arg_names} | {"me"}),
                        gen_locals=dict(ctx.locals), ensure_lines=ensure_lines, ensure_locals=ensure_locals,
                        forced=node.forced, secret=self.secret_text(node), sayin_lines=sayin_lines,
                        sayin_locals=sayin_locals)

    def effects(self, prefix: list, effects: list, guard_ctx: Ctx, ensure: bool = False) -> tuple[list, Ctx]:
        """An action's effects (the lets of its guards again, then its statements). With
        ``ensure``, the method that tests the move: its ``ensure`` returns the condition. (Each
        engine's writing takes the reads of the state they make twice once: written.py.)"""
        ensuring, self.ensuring = self.ensuring, ensure
        try:
            do_ctx = Ctx("effect", dict(guard_ctx.scope), has_me=True, random_ok=True)
            do_ctx.lets = set(guard_ctx.lets)
            block = []
            for stmt in prefix:
                if isinstance(stmt, ast.Let):
                    block += self.statement(stmt, do_ctx)
            block += self.block(effects, do_ctx)
            return block, do_ctx
        finally:
            self.ensuring = ensuring

    def end_shapes(self, ends: list) -> list[dict]:
        """What a page outlines when the game ends: for each end condition that is (or holds,
        joined by and/or) a line of pieces (``in_a_row(G, who, k)``) or a chain between two sides
        (``connected(G, who, a, b)``), the grid and its numbers. Data for drawing only."""
        shapes: list[dict] = []

        def visit(node) -> None:
            if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
                visit(node.left)
                visit(node.right)
            elif isinstance(node, ast.Call) and node.func in ("in_a_row", "connected") and node.args \
                    and node.func not in self.sym.defines \
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in self.sym.grids:
                grid = self.sym.grids[node.args[0].id]
                if node.func == "in_a_row" and len(node.args) == 3:
                    k = self.sym_const(node.args[2])
                    if k is not None:
                        shapes.append({"kind": "in_a_row", "grid": grid.name, "length": k})
                elif node.func == "connected" and len(node.args) == 4 and grid.edges:
                    members = self.sym.enums[grid.edges].members
                    names = [a.id if isinstance(a, ast.Name) else None for a in node.args[2:]]
                    if all(n in members for n in names):
                        shapes.append({"kind": "connected", "grid": grid.name, "seat": self.sym_const(node.args[1]),
                                       "sides": [members.index(n) for n in names]})
        for e in ends:
            visit(e.cond)
        return shapes

    def domain(self, action: ast.Action, name: str, b: ast.Binding, ty: T.Type) -> tuple:
        """The values a parameter can take in any state, for action ids (game.action_space):
        each move of the game gets a number from its action and its arguments' places in these."""
        if b.kind == "range":
            lo, hi = self.sym_const(b.source), self.sym_const(b.upper)
            if lo is None or hi is None:
                return self.unbounded(b.pos, f"action '{action.name}': the range of '{name}' has bounds known "
                                      "only when played, so its moves have no action ids",
                                      "give it constant bounds (numbers or params) and narrow it with a require "
                                      "(action ids number every move a game can offer, for game-AI tools)")
            return ("value", max(hi - lo + 1, 1), lo)
        if b.kind == "subset":
            return self.subset_domain(action, name, b, ty)
        return self.value_domain(action, name, b, ty)

    def value_domain(self, action: ast.Action, name: str, b: ast.Binding, ty: T.Type) -> tuple:
        """The domain of one value of type ``ty`` drawn from ``b``'s source (a parameter's own,
        or each element of a subset's)."""
        kind = ty.kind
        if kind == "item":
            return ("value", self.sym.tables[ty.name].count, 0)
        if kind == "enum":
            return ("value", len(self.sym.enums[ty.name].members), 0)
        if kind == "player":
            return ("players",)
        if kind == "bool":
            return ("value", 2, 0)
        if kind in ("cell", "lane", "direction", "group", "linemove") and ty.space in self.sym.grids:
            g = self.sym.grids[ty.space]
            geo = g.geo
            if kind == "cell":
                return ("value", geo.cells, 0)
            if kind == "lane":
                return ("value", geo.width, 0)
            if kind == "direction":
                return ("value", geo.deg, 0)
            if kind == "group":
                colours = len(self.sym.enums[g.elem.name].members) if g.elem.kind == "enum" else LIMITS["players"]
                return ("group", colours, geo.cells, g.name, g.elem.display_kind)
            return ("line", geo.cells, geo.deg, min(2 * max(geo.width, geo.height) + 1, 64), g.name)
        if kind == "placement":
            return ("value", 256, 0)
        if kind == "pattern":
            return ("value", max(len(self.sym.patterns), 1), 0)
        if kind == "int":
            zone = self.sym.zones.get(_zone_name(b.source))
            if zone is not None and zone.values is not None:
                lo, hi = zone.values
                return ("value", hi - lo + 1, lo)
            where = f"'{zone.name}'" if zone is not None else "this list"
            return self.unbounded(b.source.pos, f"action '{action.name}': '{name}' takes numbers from {where}, "
                                  "whose values are not declared, so its moves have no action ids",
                                  (f"declare them: zone {zone.name}: int ... values 1..9" if zone is not None else
                                   "take them from a zone declared with 'values lo..hi', or from a range")
                                  + " (action ids number every move a game can offer, for game-AI tools)")
        return self.unbounded(b.pos, f"action '{action.name}': '{name}' is {ty}, which action ids cannot "
                              "number", "action ids cover items, cells, enum members, seats, ranges and "
                              "zones of numbers with declared values")

    def subset_domain(self, action: ast.Action, name: str, b: ast.Binding, ty: T.Type) -> tuple:
        """A subset's domain for action ids: of items or cells, which are each one of a kind,
        ("subset", size, values, lowest), a bit per value; of numbers, seats or members, which
        repeat, ("multiset", size, values, lowest, most): every way to hold at most ``most`` of
        them (the zone's capacity)."""
        each = self.value_domain(action, name, b, ty.elem or T.ANY)
        if each[0] != "value":
            return each if each[0] == "unbounded" else self.unbounded(
                b.pos, f"action '{action.name}': '{name}' is a subset of {ty.elem}, which action ids cannot "
                "number", "action ids number subsets of items, cells, enum members, seats and numbers")
        values, lowest = each[1], each[2]
        zone = self.sym.zones.get(_zone_name(b.source))
        if (ty.elem or T.ANY).kind in ("item", "cell"):
            domain: tuple = ("subset", 2 ** values, values, lowest)
        elif zone is not None and zone.capacity is not None:
            domain = ("multiset", comb(values + zone.capacity, values), values, lowest, zone.capacity)
        else:
            return self.unbounded(b.source.pos, f"action '{action.name}': '{name}' may hold a value any number "
                                  "of times, so its moves have no action ids",
                                  "draw it from a zone with a capacity (zone dice: int capacity 5 ...)")
        if domain[1] > LIMITS["subset_ids"]:
            return self.unbounded(b.pos, f"action '{action.name}': '{name}' could be any of {domain[1]:,} subsets, "
                                  f"more than action ids number ({LIMITS['subset_ids']:,})",
                                  "draw it from fewer values (action ids number every move a game can offer)")
        return domain

    def unbounded(self, pos: tuple, message: str, hint: str) -> tuple:
        """A parameter whose values are not known in advance: the game compiles and plays, but
        has no action ids; ``regle check`` says so as a note, and game.action_space() refuses
        with the same words."""
        note = Diagnostic.at(message, pos, hint)
        note = Diagnostic(note.message, note.line, note.column, note.hint, "note", note.file)
        source = self.sources.get(note.file, self.source) if note.file else self.source
        text = note.render(source)
        self.notes.append(text)
        return ("unbounded", text)

    def sym_const(self, node: ast.Node) -> int | None:
        """A constant number (a literal or + - * // % of params and seats named in the game
        block, ``red`` for seat 0), else None (the checker's folding: nothing of the rules text
        is ever run)."""
        seats = {name: _Seat(number) for name, number in self.sym.seats.items()}
        try:
            value = fold_constant(node, {**seats, **self.sym.params})
        except NotConstant:
            return None
        return value if type(value) is int else None

    def holding_pairs_loop(self, node: ast.Action, loops: list[Loop], tests: dict, arg_names, index) -> KernelMoves | None:
        """``action a(c in Z) { require has(W, [c.x, c.y]) }``: every item of Z tested by one
        kernel call (``K.holding_pairs``) instead of a call per item; None for other shapes."""
        if len(loops) != 1 or len(arg_names) != 1 or not loops[0].single or len(tests[loops[0].level]) != 1:
            return None
        loop = loops[0]
        stmt, test = tests[loop.level][0]
        if not (isinstance(test, N.Helper) and test.name == "K.contains_pair") or arg_names[0] in _names_in(stmt.cond.args[0]):
            return None
        zone, a, b = test.args
        if not (isinstance(a, N.Column) and isinstance(b, N.Column)
                and name_of(a.item) == name_of(b.item) == loop.names):
            return None
        # (natively the columns are read through their C arrays, _v_C_...: the kernel takes the tuples)
        columns = (N.Global(T.ANY, 0, a.column), N.Global(T.ANY, 0, b.column))
        return KernelMoves(node.pos[0], "K.holding_pairs", (zone, loop.src, *columns, N.Const(T.INT, 0, index)))

    def long_form(self, arg: N.Expr) -> N.Shown:
        """A longer display of a move's argument that tells apart what the notation may not:
        an item's detail text (or its number), a group's first cell (compiler/write/show.py)."""
        ty = arg.type
        detail = ty.kind == "item" and self.sym.tables[ty.name].node.detail is not None
        return N.Shown(T.TEXT, 0, arg, "detail" if detail else "long")

    def clash_of(self, node: ast.Action, arg_types: dict) -> tuple[str, str]:
        """Whether two moves of this action may share a notation (a Python condition, decided
        when the engine loads for item shows), and the notation's skeleton, which another
        action sharing it may also clash with."""
        if node.notation is None:
            shown = set(arg_types)
            skeleton = node.name + " {}" * len(arg_types)
        else:
            parts = split_template(node.notation)
            shown = {v for kind, v in parts if kind != "text" and v.strip() in arg_types}
            skeleton = "".join(v if kind == "text" else "{}" for kind, v in parts)
        conditions = []
        for name, arg in arg_types.items():
            ty = arg.type
            if ty.kind == "list":  # a subset: shown as its values are
                ty = ty.elem or T.ANY
            if name not in shown or ty.kind in ("group", "any"):
                return "True", skeleton
            if ty.kind == "item":
                conditions.append(f"not SHOWS_DIFFER[{ty.name!r}]")
        return (" or ".join(dict.fromkeys(conditions)) or "False"), skeleton


def _constant_range(tree: N.Expr) -> bool:
    """Whether a loop's source is whole numbers known when compiling (a range with constant
    bounds, a grid's directions): left in its loop, where Cython makes it a C loop, rather than
    hoisted into a local (a Python range object walked number by number)."""
    return isinstance(tree, N.Span) or isinstance(tree, N.Upto) and isinstance(tree.count, N.Const)


@attrs.frozen
class _Seat:
    """A seat named in the game block, as constant folding reads a param: its number."""
    value: int
