"""Statements and texts: each statement of setup, effects and automatic steps becomes nodes of
the statement IR (compiler/ir/statements.py) after a comment naming its rules line; notations and
announcements become string expressions."""
from __future__ import annotations


from regle.dsl import ast

from ..ir import nodes as N
from ..ir import statements as S
from ..ir import types as T
from ..check.symbols import BUILTIN_NAMES, LIMITS, suggest
from ..check.texts import split_template
from .common import Ctx, has_product, _zone_name


class StatementLowering:
    """Mixed into :class:`lower.Lowerer`."""

    # ---- display ------------------------------------------------------------------------
    def template_code(self, text: str, names: dict[str, N.Expr], pos) -> N.Expr:
        """A text with ``{placeholders}`` as a tree (``TextOf`` its literal parts and the values
        shown, compiler/write/show.py): ``names`` says what each name it may show stands for."""
        parts: list[N.Expr] = []
        for kind, value in split_template(text):
            if kind == "text":
                parts.append(N.Text(T.TEXT, 0, value))
                continue
            value, _, spec = value.partition(":")
            value, spec = value.strip(), spec.strip()
            base, _, column = value.partition(".")
            if column and base in names and names[base].type.kind == "item":
                ty = names[base].type
                col = self.sym.tables[ty.name].columns.get(column)
                if col is None:
                    self.error(f"'{{{value}}}': a {ty.name} has no '{column}'", pos)
                    continue
                names = dict(names)
                names[value] = self.column(ty.name, column, col, names[base])
            if value in names:
                ty = names[value].type
                if spec == "symbol" and ty.kind == "enum":
                    parts.append(N.Shown(T.TEXT, 0, names[value], "symbol"))
                elif spec:
                    self.error(f"'{{{value}:{spec}}}': the only format is ':symbol', for enum members", pos)
                else:
                    parts.append(N.Shown(T.TEXT, 0, names[value]))
            else:
                self.error(f"'{{{value}}}' in this text names nothing", pos,
                           suggest(value, names) or ("known: " + ", ".join(names) if names else None))
        return N.TextOf(T.TEXT, 0, tuple(parts))

    # ---- statements ---------------------------------------------------------------------
    def block(self, body: list, ctx: Ctx) -> list[S.Stmt]:
        """The typed IR of a block of statements (compiler/ir/statements.py)."""
        out: list[S.Stmt] = []
        for node in body:
            out.extend(self.statement(node, ctx))
        return out

    def statement(self, node: ast.Node, ctx: Ctx) -> list[S.Stmt]:
        """A statement's nodes, after the comment naming its rules line (a line the lowering
        still writes as text becomes a :class:`statements.Line`)."""
        out: list[S.Stmt] = [S.Comment(node.pos[0], self.comment(node))]
        made = getattr(self, "s_" + type(node).__name__)(node, ctx)
        out.extend(S.line(m) if isinstance(m, str) else m for m in made)
        return out

    def s_Let(self, node: ast.Let, ctx: Ctx) -> list[S.Stmt]:
        value = self.tree(node.value, ctx)
        ty = value.type
        if ty.kind in ("zone", "zones", "counters"):
            self.error("'let' names a value; a zone can be used by its own name", node.value.pos)
        var = ctx.local(node.name)
        if node.name in BUILTIN_NAMES:
            self.error(f"'{node.name}' is a built-in name of the rules language; choose another name for this value",
                       node.pos)
        elif node.name in self.sym.all_names():
            self.error(f"'{node.name}' is already declared; choose another name for this value", node.pos)
        ctx.bind(node.name, var, ty)
        ctx.lets.add(node.name)
        ctx.note_local(var, ty)
        if ty.kind in ("int", "any") and has_product(node.value, self.sym.defines):  # kept in range
            value = self.helper("ops.number", T.INT, value, c_form=False)
        return [S.Assign(node.pos[0], N.Local(ty, 0, var), "=", value)]

    def s_Require(self, node: ast.Require, ctx: Ctx) -> list[S.Stmt]:
        cond = self.boolean_tree(node.cond, ctx)
        return [S.Require(node.pos[0], cond, node.message or "a requirement of the rules does not hold")]

    def s_Assign(self, node: ast.Assign, ctx: Ctx) -> list[S.Stmt]:
        c = self.sym.counters.get(node.name)
        if node.index2 is not None and (c is None or c.per2 is None or node.name in ctx.scope):
            self.error(f"'{node.name}' takes one index, not two", node.index2.pos,
                       "only a counter of two keys (counter NAME per player per ENUM) takes two")
            return []
        if node.name in ctx.scope and node.index is None:  # a let: its value changes
            bound = ctx.scope[node.name]  # a let's local
            ty = bound.type
            if node.name not in ctx.lets:
                self.error(f"'{node.name}' cannot be changed here: only a value named with let can", node.pos)
                return []
            value = self.tree(node.value, ctx)
            vty = value.type
            if node.op != "=" and not (ty.is_number and vty.is_number):
                self.error(f"'{node.op}' adds up numbers; '{node.name}' is {ty}", node.pos)
            elif not T.compatible(ty, vty):
                self.error(f"'{node.name}' holds {ty}, not {vty}", node.value.pos)
            if vty.kind in ("int", "any") and has_product(node.value, self.sym.defines):  # kept in range
                value = self.helper("ops.number", T.INT, value, c_form=False)
            return [S.Assign(node.pos[0], bound, node.op, value)]
        if c is not None and not c.type.is_number and node.name not in ctx.scope:  # a counter of cells, seats...
            if node.op != "=":
                self.error(f"'{node.op}' adds up numbers; '{node.name}' holds {c.type}", node.pos)
                return []
            value = self.counter_value(c, node.value, ctx)
        elif c is not None and c.node.type is None and node.name not in ctx.scope:  # a number, unless declared
            value = self.tree(node.value, ctx)
            ty = value.type
            if ty.kind not in ("int", "player", "lane", "any"):
                spelt = type_spelling(ty)
                self.error(f"'{node.name}' is a counter of numbers, and this is {ty}", node.value.pos,
                           f"declare what it holds: counter {node.name}: {spelt}" if spelt else None)
        else:
            value = self.number_tree(node.value, ctx)
        if has_product(node.value, self.sym.defines) and (c is None or c.type.is_number):
            value = self.helper("ops.number", T.INT, value, c_form=False)  # products can grow without bound
        grid = self.sym.grids.get(node.name)
        if grid is not None and node.name not in ctx.scope:  # G[c] = n: a cell of a grid of numbers
            if grid.elem.kind != "int":
                self.error(f"'{node.name}' holds pieces: use 'put X at C on {node.name}' or 'clear C on "
                           f"{node.name}'", node.pos)
                return []
            if grid.per or node.index is None:
                self.error(f"say which cell of '{node.name}', e.g. {node.name}[c] += 1" if node.index is None else
                           f"'{node.name}' is a grid per {grid.per}: use put ... on {node.name}[p]", node.pos)
                return []
            cell = self.cell_tree(node.index, ctx, grid)
            if node.op == "=":
                target = N.NumberCell(T.INT, 0, self.number_grid(node.name), cell)
                return [S.Assign(node.pos[0], target, "=", value)]
            sums = node.op[0] in "+-" and not has_product(node.value, self.sym.defines)  # sums fit in C
            target, source = (N.NumberCell(T.INT, 0, self.number_grid(node.name), cell) for _ in range(2))
            bound = self.helper("ops.number", T.INT, N.Binary(T.INT, 0, node.op[0], source, value), c_form=sums)
            return [S.Assign(node.pos[0], target, "=", bound)]
        if c is None:
            self.error(f"only counters, grids of numbers and let values can be set, and '{node.name}' is "
                       "none of them", node.pos,
                       suggest(node.name, [*self.sym.counters, *ctx.lets]) or "declare it: counter NAME per player")
            return []
        if c.per and (node.index is None or c.per2 is not None and node.index2 is None):
            example = f"{node.name}[me]" if c.per_player else f"{node.name}[{self.sym.enums[c.per].members[0]}]"
            if c.per2 is not None:
                example += f"[{self.sym.enums[c.per2].members[0]}]"
            keys = f"per {c.per}" + (f" per {c.per2}" if c.per2 else "")
            self.error(f"'{node.name}' is a counter {keys}: say which, e.g. {example}", node.pos)
            return []
        if not c.per and node.index is not None:
            self.error(f"'{node.name}' is one shared counter; it takes no [index]", node.index.pos)
            return []
        target: N.Expr = N.Field(c.type, 0, f"c_{node.name}")
        if node.index is not None:
            target = self.counter_slot(node.name, self.counter_key(c, node.index, ctx),
                                       second=None if c.per2 is None else self.counter_key(c, node.index2, ctx, True))
        return [S.Assign(node.pos[0], target, node.op, value)]

    def counter_value(self, c, node: ast.Expr, ctx: Ctx) -> N.Expr:
        """The tree of a value stored in counter c, checked against what c holds."""
        tree = self.tree(node, ctx)
        ty = tree.type
        if not T.compatible(c.type, ty) or (c.type.kind == "cell" and ty.kind == "cell" and ty.space
                                             and not self.same_cells(c.type.space, ty.space)):
            held = f"{c.type}{self.cell_grid(c.type)}"
            pin = self.sym.again_pins.get(c.name)  # again with p = v: say it of the parameter
            self.error(f"again sets parameter '{pin[2]}', which takes {held}, to {ty}{self.cell_grid(ty)}" if pin else
                       f"'{c.name}' holds {held}, not {ty}{self.cell_grid(ty)}", node.pos)
        if c.type.kind == "bool":  # stored as 1 or 0, as in a counter's C slot
            return N.Number(T.INT, 0, tree)
        return tree

    def number_grid(self, name: str) -> N.Field:
        """A grid of numbers shared by the seats, typed as reading it by its name types it (so
        that a method reading it once natively types the local an array of C numbers)."""
        return N.Field(T.Type("grid", elem=self.sym.grids[name].elem, space=name), 0, f"g_{name}")

    @staticmethod
    def cell_grid(ty: T.Type) -> str:
        return f" of '{ty.space}'" if ty.kind == "cell" and ty.space else ""

    def s_While(self, node: ast.While, ctx: Ctx) -> list[S.Stmt]:
        cond = self.boolean_tree(node.cond, ctx)
        # each round counts against the work budget of one decision, so it cannot run forever
        spin = S.Eval(node.pos[0], N.Apply(T.ANY, 0, "s._spin", ()))
        return [S.While(node.pos[0], cond, (spin, *self.block(node.body, ctx.child())))]

    def s_Shuffle(self, node: ast.Shuffle, ctx: Ctx) -> list[S.Stmt]:
        self.need_random(node, ctx)
        zone, _, _ = self.zone_tree(node.zone, ctx)
        return [S.Shuffle(node.pos[0], zone)]

    def need_random(self, node: ast.Node, ctx: Ctx) -> None:
        if not ctx.random_ok:
            self.error("chance (shuffle, random) is not allowed here", node.pos)

    def s_Deal(self, node: ast.Deal, ctx: Ctx) -> list[S.Stmt]:
        src, es, _ = self.zone_tree(node.src, ctx)
        dst, ed, dname = self.zone_tree(node.dst, ctx)
        self.same_elem(es, ed, node)
        count = N.Const(T.ANY, 0, None) if node.count is None else self.number_tree(node.count, ctx)
        line = node.pos[0]
        if node.random:
            lines = self.random_deal(node, ctx, src, dst, count, es)
        elif node.where is None:
            lines = [S.Eval(line, self.helper("ops.deal", T.ANY, src, dst, count))]
        else:  # the first matches, in order, as ops.deal with a condition would; written out so
            # that no function is called per element (and the native engine needs no closure)
            cond = self.boolean_tree(node.where, ctx.child(it=N.Local(es, 0, "it")))
            names = {n: N.Local(T.INT, 0, n) for n in ("_src", "_dst", "_i", "_taken", "_limit", "it")}
            limit = N.Len(T.INT, 0, names["_src"]) if node.count is None else count
            taken = N.Apply(es, 0, "_src.pop", (names["_i"],))
            more = N.Binary(T.BOOL, 0, "and", N.Binary(T.BOOL, 0, "<", names["_taken"], names["_limit"]),
                            N.Binary(T.BOOL, 0, "<", names["_i"], N.Len(T.INT, 0, names["_src"])))
            one = N.Const(T.INT, 0, 1)
            lines = [S.Assign(line, names["_src"], "=", src), S.Assign(line, names["_dst"], "=", dst),
                     S.Assign(line, names["_i"], "=", N.Const(T.INT, 0, 0)),
                     S.Assign(line, names["_taken"], "=", N.Const(T.INT, 0, 0)),
                     S.Assign(line, names["_limit"], "=", limit),
                     S.While(line, more, (
                         S.Assign(line, names["it"], "=", N.Index(es, 0, names["_src"], names["_i"])),
                         S.If(line, ((cond, (S.Eval(line, N.Append(T.ANY, 0, names["_dst"], taken)),
                                             S.Assign(line, names["_taken"], "+=", one))),),
                              (S.Assign(line, names["_i"], "+=", one),))))]
        cap = self.capacity_of(node.dst)
        if cap is not None:
            lines.append(self.overflow_check(">", dst, dname, cap))
        return lines

    def random_deal(self, node: ast.Deal, ctx: Ctx, src: N.Expr, dst: N.Expr, count: N.Expr,
                    elem: T.Type) -> list[S.Stmt]:
        """``deal N at random from A to B``: N times (while A has any), one element drawn among
        those left in A, each equally likely (one draw of ``len(A)`` outcomes: what explicit
        chance offers as a node), moved to the end of B; the others keep their order."""
        self.need_random(node, ctx)
        if node.where is not None:
            self.error("'deal ... at random' draws among all the elements left; it takes no 'where'", node.where.pos,
                       "deal the matching elements to a zone of their own first, then draw from it")
        line = node.pos[0]
        names = {n: N.Local(T.INT, 0, n) for n in ("_src", "_dst", "_taken", "_limit")}
        limit = N.Len(T.INT, 0, names["_src"]) if node.count is None else count
        left = N.Len(T.INT, 0, names["_src"])
        drawn = N.Apply(elem, 0, "_src.pop", (N.Draw(T.INT, 0, left),))
        more = N.Binary(T.BOOL, 0, "and", N.Binary(T.BOOL, 0, "<", names["_taken"], names["_limit"]),
                        N.Binary(T.BOOL, 0, ">", left, N.Const(T.INT, 0, 0)))
        return [S.Assign(line, names["_src"], "=", src), S.Assign(line, names["_dst"], "=", dst),
                S.Assign(line, names["_taken"], "=", N.Const(T.INT, 0, 0)),
                S.Assign(line, names["_limit"], "=", limit),
                S.While(line, more, (S.Eval(line, N.Append(T.ANY, 0, names["_dst"], drawn)),
                                     S.Assign(line, names["_taken"], "+=", N.Const(T.INT, 0, 1))))]

    def overflow_check(self, op: str, zone: N.Expr, name: str, cap: int) -> S.If:
        """A zone's capacity checked (its size ``op`` the capacity): past it, the rules' error
        naming the zone."""
        test = N.Binary(T.BOOL, 0, op, N.Len(T.INT, 0, zone), N.Const(T.INT, 0, cap))
        return S.If(0, ((test, (S.Eval(0, self.helper("ops.overflow", T.ANY, N.Text(T.ANY, 0, name), cap)),)),))

    def same_elem(self, a: T.Type, b: T.Type, node: ast.Node) -> None:
        if not T.compatible(a, b):
            self.error(f"cannot put {a} into a zone of {b}", node.pos)

    def capacity_of(self, zone_node: ast.Node) -> int | None:
        name = _zone_name(zone_node)
        z = self.sym.zones.get(name)
        return z.capacity if z is not None else None

    def s_Move(self, node: ast.Move, ctx: Ctx) -> list[S.Stmt]:
        item = self.tree(node.item, ctx)
        src, es, sname = self.zone_tree(node.src, ctx)
        dst, ed, dname = self.zone_tree(node.dst, ctx)
        self.same_elem(item.type, es, node.item)
        self.same_elem(es, ed, node)
        lines: list[S.Stmt] = []
        if not isinstance(item, (N.Local, N.Global, N.Const)):  # computed once
            lines.append(S.Assign(node.pos[0], N.Local(item.type, 0, "_x"), "=", item))
            item = N.Local(item.type, 0, "_x")
        lines += self.capacity_check(node.dst, dst, dname)
        lines += [self.removal(src, item, node.pos[0]), self.append(dst, item, node.pos[0])]
        return lines + self.saw(node, item, ctx)

    def saw(self, node: ast.Move, item: N.Expr, ctx: Ctx) -> list[S.Stmt]:
        """A move into a place a seat cannot see, of an item that seat saw leave: the state notes
        that the seat saw it go there (``seen``), so that determinisation leaves it there. The
        seat is the player of a secret action (a card it passes face down), or, in setup and
        automatic steps, the owner of the private place the item leaves (the passed cards handed
        over once all have passed). A public action's move is seen by all: nothing to note. Not
        in an ``ensure`` trial, which plays nothing."""
        if self.ensuring:
            return []
        target, part = (node.dst.obj, node.dst.index) if isinstance(node.dst, ast.Index) else (node.dst, None)
        zone = self.sym.zones.get(target.id) if isinstance(target, ast.Name) else None
        if zone is None or not (zone.hidden or zone.private):
            return []
        if self.noting == "player":
            seat = self.tree(ast.Name(id="me", pos=node.pos), ctx)
        elif self.noting == "owner" and isinstance(node.src, ast.Index) and isinstance(node.src.obj, ast.Name):
            source = self.sym.zones.get(node.src.obj.id)
            if source is None or not source.private or source.per != "player":
                return []
            seat = self.number_tree(node.src.index, ctx)
        else:
            return []
        self.remembers = True
        index = N.Const(T.INT, 0, -1) if part is None else self.number_tree(part, ctx)
        seen = N.Field(T.ANY, 0, "seen")
        call = self.helper("ops.saw", T.ANY, seen, seat, N.Text(T.ANY, 0, zone.name), index, item,
                           N.Const(T.INT, 0, int(bool(zone.private))), c_form=False)
        return [S.Assign(node.pos[0], seen, "=", call)]

    @staticmethod
    def append(zone: N.Expr, item: N.Expr, line: int) -> S.Eval:
        return S.Eval(line, N.Append(T.ANY, 0, zone, item))

    def capacity_check(self, zone_node: ast.Node, zone: N.Expr, name: str, created: bool = False) -> list[S.Stmt]:
        """A check before putting one element into a zone: its capacity, or, for an element
        that did not exist before (``add``), the largest zone the engine allows."""
        cap = self.capacity_of(zone_node)
        if cap is None:
            if not created:
                return []
            cap = LIMITS["zone_capacity"]
        return [self.overflow_check(">=", zone, name, cap)]

    def s_Add(self, node: ast.Add, ctx: Ctx) -> list[S.Stmt]:
        item = self.tree(node.item, ctx)
        dst, ed, dname = self.zone_tree(node.dst, ctx)
        self.same_elem(item.type, ed, node.item)
        if has_product(node.item, self.sym.defines):  # kept in range
            item = self.helper("ops.number", T.INT, item, c_form=False)
        return self.capacity_check(node.dst, dst, dname, created=True) + [self.append(dst, item, node.pos[0])]

    def s_Remove(self, node: ast.Remove, ctx: Ctx) -> list[S.Stmt]:
        item = self.tree(node.item, ctx)
        src, es, _ = self.zone_tree(node.src, ctx)
        self.same_elem(item.type, es, node.item)
        return [self.removal(src, item, node.pos[0])]

    @staticmethod
    def removal(zone: N.Expr, item: N.Expr, line: int) -> S.Eval:
        """Take one ``item`` out of a zone (with list.remove's ValueError when it is not there)."""
        return S.Eval(line, N.Removal(T.ANY, 0, zone, item))

    def s_Refill(self, node: ast.Refill, ctx: Ctx) -> list[S.Stmt]:
        dst, ed, _ = self.zone_tree(node.dst, ctx)
        src, es, _ = self.zone_tree(node.src, ctx)
        self.same_elem(es, ed, node)
        return [S.Eval(node.pos[0], self.helper("K.refill", T.ANY, dst, src, self.number_tree(node.size, ctx)))]

    def s_If(self, node: ast.If, ctx: Ctx) -> list[S.Stmt]:
        branches = []
        for cond, body in node.branches:
            test = self.boolean_tree(cond, ctx)
            branches.append((test, tuple(self.block(body, ctx.child()))))
        orelse = tuple(self.block(node.orelse, ctx.child())) if node.orelse is not None else None
        return [S.If(node.pos[0], tuple(branches), orelse)]

    def s_For(self, node: ast.For, ctx: Ctx) -> list[S.Stmt]:
        source, ty = self.collection_tree(node.source, ctx)
        var = ctx.local(node.var)
        walk: tuple = ()
        if isinstance(source, N.NeighbourList):  # natively the table is walked in C, no list
            walk = (f"_at{var}", f"_d{var}")
            for local in (*walk, var):
                ctx.note_local(local, T.INT)
        inner = ctx.child(**{node.var: N.Local(ty.elem or T.ANY, 0, var)})
        if not walk:
            ctx.note_local(var, ty.elem or T.ANY)
        where = None if node.where is None else self.boolean_tree(node.where, inner)
        body = tuple(self.block(node.body, inner))
        if where is not None:  # `for x in S where C`: the body under `if C`
            body = (S.If(node.pos[0], ((where, body),), None),)
        # a zone is walked on a copy: the body may change the zone it walks
        return [S.For(node.pos[0], var, source, body, copy=ty.kind == "zone", walk=walk)]

    def s_Ensure(self, node: ast.Ensure, ctx: Ctx) -> list[S.Stmt]:
        """In the action's effects, nothing (the move was tested); in its _ensure_ method, the test."""
        if ctx.where != "effect":
            self.error("'ensure' tests the position a move leads to: it belongs among an action's effects", node.pos)
            return []
        cond = self.boolean_tree(node.cond, ctx)
        return [S.Return(node.pos[0], cond)] if self.ensuring else []

    def s_Run(self, node: ast.Run, ctx: Ctx) -> list[S.Stmt]:
        """A procedure's statements, written in place: each argument computed once into a local
        of its own, the statements lowered with the parameters bound to those locals (and the
        declarations, not the lets of the block that runs it)."""
        proc = self.sym.defines.get(node.name)
        if proc is None or proc.block is None:
            procedures = [d.name for d in self.sym.defines.values() if d.block is not None]
            self.error(f"'{node.name}' is a define of a value: use it in an expression" if proc is not None else
                       f"unknown procedure '{node.name}'", node.pos,
                       suggest(node.name, procedures) or "declare one: define NAME(a, b) { statements }")
            return []
        if len(node.args) != len(proc.params):
            self.error(f"{node.name}() takes {len(proc.params)} argument{'s' if len(proc.params) != 1 else ''}, "
                       f"not {len(node.args)}", node.pos)
            return []
        if node.name in self._running:
            self.error(f"procedure '{node.name}' runs itself (through {' -> '.join(self._running)}): "
                       "a procedure is written in place, so it may not", node.pos)
            return []
        self._runs += 1
        prefix = f"r{self._runs}_"
        lines: list[S.Stmt] = []
        scope = {}
        for param, arg in zip(proc.params, node.args):
            value = self.tree(arg, ctx)
            ty = value.type
            if ty.kind in ("zone", "zones", "grid", "grids", "counters"):
                self.error(f"a procedure takes values, and this is {ty}: name the place in its statements",
                           arg.pos)
            var = f"_{prefix}{param}"
            lines.append(S.Assign(arg.pos[0], N.Local(ty, 0, var), "=", value))
            scope[param] = N.Local(ty, 0, var)
            ctx.note_local(var, ty)
        inner = Ctx(ctx.where, scope, ctx.has_me, ctx.random_ok)
        inner.prefix, inner.locals, inner.uses, inner.needs = prefix, ctx.locals, ctx.uses, ctx.needs
        self._running.append(node.name)
        self._ran.add(node.name)
        block = proc.block if self.trial_blocks is None else self.trial_blocks.get(node.name, proc.block)
        try:
            return lines + self.block(block, inner)
        finally:
            self._running.pop()

    def s_NextPlayer(self, node: ast.NextPlayer, ctx: Ctx) -> list[S.Stmt]:
        """``next player EXPR``: in the turn, who plays after this turn; in setup, who starts
        (read from the deal: "the holder of the two of clubs leads")."""
        if ctx.where not in ("effect", "auto", "setup"):
            self.error("'next player' belongs in the turn (an action or an automatic step), or in setup "
                       "(who starts)", node.pos)
        seat = N.binary("%", self.number_tree(node.value, ctx), N.Field(T.INT, 0, "n"), T.INT)
        return [S.Assign(node.pos[0], N.Field(T.PLAYER, 0, "cur" if ctx.where == "setup" else "nxt"), "=", seat)]

    def s_Reveal(self, node: ast.Reveal, ctx: Ctx) -> list[S.Stmt]:
        """``reveal Z`` or ``reveal Z[p]``: everyone sees a hidden or private place from now on
        (the state keeps the (name, part) pairs revealed, in its views and saved states)."""
        target, part = (node.place.obj, node.place.index) if isinstance(node.place, ast.Index) else (node.place, None)
        name = target.id if isinstance(target, ast.Name) else None
        counter = self.sym.counters.get(name) if name else None
        place = (self.sym.zones.get(name) or self.sym.grids.get(name)
                 or (counter if counter is not None and counter.private else None)) if name else None
        if place is None:
            self.error("'reveal' names a zone, a grid or a private counter, or one seat's part of it "
                       "(reveal hand[p])", node.place.pos)
            return []
        if not (place.hidden or place.private):
            self.error(f"everyone sees '{name}' already: 'reveal' is for hidden or private places", node.place.pos)
            return []
        if part is not None and not place.per:
            self.error(f"'{name}' is one place, not one per player or member: reveal {name}", node.place.pos)
            return []
        if ctx.where not in ("effect", "auto", "setup"):
            self.error("'reveal' is an effect: it belongs in setup or the turn", node.pos)
        self.reveals = True
        index = N.Const(T.INT, 0, -1) if part is None else self.number_tree(part, ctx)
        revealed = N.Field(T.ANY, 0, "revealed")
        call = self.helper("ops.reveal", T.ANY, revealed, N.Text(T.ANY, 0, name), index, c_form=False)
        return [S.Assign(node.pos[0], revealed, "=", call)]

    def s_Announce(self, node: ast.Announce, ctx: Ctx) -> list[S.Stmt]:
        """Everyone sees an announcement, so its placeholders name only what everyone sees:
        seats, shared counters, params, the turn number and the player count."""
        names: dict[str, N.Expr] = {}
        for name, tree in ctx.scope.items():
            if tree.type.kind == "player":
                names[name] = tree
        if ctx.has_me:
            names["me"] = N.Local(T.PLAYER, 0, "me")
        for name, c in self.sym.counters.items():
            if not c.per:
                names[name] = N.Field(T.INT, 0, f"c_{name}")
        for name, p in self.sym.params.items():
            if p.type.kind in ("int", "bool", "player", "enum"):
                names[name] = N.Const(p.type, 0, p.value)
        names["turns"] = N.Binary(T.INT, 0, "+", N.Field(T.INT, 0, "turns"), N.Const(T.INT, 0, 1))
        names["player_count"] = N.Field(T.INT, 0, "n")
        for kind, value in split_template(node.text):
            word = value.partition(":")[0].partition(".")[0].strip()
            if kind != "text" and word not in names and word in ctx.scope:
                self.error(f"'{{{word}}}': an announcement is seen by everyone, so it names only seats, "
                           "shared counters, params, turns and player_count", node.pos,
                           "keep the value in a counter if everyone may see it")
                return []
        text = self.template_code(node.text, names, node.pos)  # a text made of literals and shows
        return [S.Eval(node.pos[0], N.Apply(T.ANY, 0, "s._announce", (text,)))]

    def s_EndGame(self, node: ast.EndGame, ctx: Ctx) -> list[S.Stmt]:
        finish = [S.Eval(node.pos[0], N.Apply(T.ANY, 0, "s._finish", ())), S.Return(node.pos[0])]
        if ctx.where in ("effect", "auto"):
            turns = S.Assign(node.pos[0], N.Field(T.INT, 0, "turns"), "+=", N.Const(T.INT, 0, 1),
                             "the turn in progress counts as played")
            return [turns, *finish]
        return finish


def type_spelling(ty: T.Type) -> str | None:
    """How a counter's declaration names a type (None: no counter can hold it)."""
    if ty.kind == "cell" and ty.space:
        return f"cell of {ty.space}"
    if ty.kind in ("enum", "item"):
        return ty.name
    return {"bool": "bool", "player": "player"}.get(ty.kind)
