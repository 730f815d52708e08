"""Calls: the built-in functions, defines (compiled once per kind of arguments into functions
of the engine) and aggregates (`sum(... for x in ... where ...)`; natively, methods that walk
the collection once on C numbers)."""
from __future__ import annotations

from collections import Counter

import attrs

from regle.dsl import ast

from ..ir import nodes as N
from ..ir.traverse import locals_in, walk
from ..passes.counts import COUNTED_FORMS
from ..write.emit import PythonWriter
from ..passes.share import shape
from ..passes.share_values import bind_shared
from ..ir import types as T
from ..check.symbols import BUILTIN_NAMES, CHANCE_FUNCTIONS, FUNCTIONS, LIMITS, OPEN_FUNCTIONS, suggest
from ..ir import statements as S
from .grids import GRID_FUNCTIONS
from .common import P_ATOM, Ctx, c_type, pyname, ast_nodes, has_product, nodes_through_defines


def draws(node, defines: dict) -> bool:
    """Whether evaluating an expression may draw a random number (``random()``, itself or in a
    define it uses): then an aggregate evaluates every element, so that both engines draw alike;
    otherwise it stops at the first element that decides."""
    return any(isinstance(inner, ast.Call) and inner.func in CHANCE_FUNCTIONS
               for inner in nodes_through_defines(node, defines))


def fresh_local(name: str, ctx: Ctx) -> str:
    """The Python local of a loop variable: its own name, unless the code of another name in
    scope reads a local of that name (a define written in place, ``mill(x)``, whose body has
    its own ``for x``): then a name no rules name can have (rules names never hold ``__``)."""
    var = pyname(name)
    taken = {local for other, tree in ctx.scope.items() if other != name for local in _locals_read(tree)}
    k = 1
    while var in taken:
        var, k = f"{name}__{k}_", k + 1
    return var


def _locals_read(tree: N.Expr) -> set[str]:
    """The locals a tree reads: its ``Local`` nodes, and the words of its code leaves."""
    out = locals_in(tree)
    for leaf in walk(tree):
        if isinstance(leaf, N.Code):
            out.update("".join(ch if ch.isalnum() or ch == "_" else " " for ch in leaf.text).split())
    return out


def _plain(tree: N.Expr, ctx: Ctx) -> bool:
    """Whether an argument may be written more than once at no cost: a number written out, a
    local, or what a name of the scope stands for."""
    if isinstance(tree, N.Local) or isinstance(tree, N.Const) and not isinstance(tree.value, bool):
        return True
    return any(shape(tree) == shape(bound) for bound in ctx.scope.values())


class CallLowering:
    """Mixed into :class:`lower.Lowerer`."""

    def t_Call(self, node: ast.Call, ctx: Ctx) -> N.Expr:
        """The built-ins of numbers as IR nodes (abs, max and min of two or more, number of
        a truth); every other call is lowered by :meth:`x_Call` into a code leaf."""
        f, args, line = node.func, node.args, node.pos[0]
        builtin = f not in self.sym.defines and f not in GRID_FUNCTIONS and f not in self.sym.enums
        if f not in self.sym.defines and f not in self.sym.enums and f in OPEN_FUNCTIONS | set(GRID_FUNCTIONS) \
                and self.declared_as(f):
            what, pos = self.declared_as(f)
            self.error(f"'{f}' is your {what} in this file (line {pos[0]}), so the built-in {f}() cannot be "
                       "used here too: a name means one thing in a file", node.pos,
                       f"rename your {what} (then {f}() is the built-in), or define {f}(...) to call your own")
            return N.Const(T.ANY, 0, 0)
        if builtin and ((f == "abs" and len(args) == 1) or (f in ("max", "min") and len(args) >= 2)):
            trees = tuple(self.tree(a, ctx) for a in args)
            for tree, arg in zip(trees, args):
                if tree.type.kind not in ("int", "player", "lane", "any"):
                    self.error(f"expected a number here, but this is {tree.type}", arg.pos)
            return N.call(f, trees, line)
        if builtin and f == "number" and len(args) == 1:
            inner = self.tree(args[0], ctx)
            if inner.type.kind == "bool":
                return N.truth_number(inner, line)
            if inner.type.kind not in ("int", "player", "lane", "enum", "cell", "direction", "any"):
                self.error(f"number() turns a condition, an enum member, a player or a cell into a number, "
                           f"not {inner.type}", args[0].pos)
            return attrs.evolve(inner, type=T.INT)
        if builtin and f == "since" and node.args and isinstance(node.args[0], ast.Name) \
                and node.args[0].id in self.sym.since:
            # the turns gone by since the action was last played (all of them before it is)
            last = ast.Name(id=self.sym.since[node.args[0].id], pos=node.pos)
            turns = ast.Name(id="turns", pos=node.pos)
            gone = ast.BinOp(op="-", left=ast.BinOp(op="-", left=turns, right=last, pos=node.pos),
                             right=ast.Int(value=1, pos=node.pos), pos=node.pos)
            return self.tree(gone, ctx)
        if builtin and f == "since":
            return N.Const(T.INT, 0, 0)  # said by the checker
        return self.as_tree(self.x_Call(node, ctx), line)

    def track_call(self, node: ast.Call, ctx: Ctx):
        """``along(T, c, k)``: the cell k places along track T from c (none off its ends, round a
        loop); ``position(T, c)``: c's place on T from 0 (-1 off it)."""
        f, args = node.func, node.args
        usage = "along(T, c, k): the cell k places along track T from cell c" if f == "along" else \
            "position(T, c): where cell c lies on track T, from 0"
        if len(args) != (3 if f == "along" else 2) or not isinstance(args[0], ast.Name) \
                or args[0].id not in self.sym.tracks:
            self.error(f"{f}() takes a track first: {usage}", node.pos,
                       f"tracks: {', '.join(self.sym.tracks)}" if self.sym.tracks else
                       'declare one: track lap on board: "a1 b1 c1 ..." (loop for a circuit)')
            return "0", T.ANY, P_ATOM
        track = self.sym.tracks[args[0].id]
        cell = self.cell_tree(args[1], ctx, self.sym.grids[track.grid])
        places = N.Global(T.ANY, 0, f"TRACK_{track.name}_AT")
        if f == "position":
            return self.helper("ops.track_position", T.INT, places, cell)
        steps = self.number_tree(args[2], ctx)
        return self.helper("ops.along", T.Type("cell", space=track.grid), N.Global(T.ANY, 0, f"TRACK_{track.name}_CELLS"),
                           places, N.Const(T.BOOL, 0, track.loop), cell, steps)

    def declared_as(self, name: str) -> tuple[str, tuple] | None:
        """What the rules declare by that name, besides a define, and where: (what, position)."""
        if name not in self.sym.all_names():
            return None
        for decl in self.rules.decls:
            if getattr(decl, "name", None) == name and not isinstance(decl, ast.Define):
                return type(decl).__name__.lower(), decl.pos
        if name in self.sym.members or name in self.sym.seats:
            return ("enum member" if name in self.sym.members else "seat"), self.sym.game.pos
        return None

    def x_Call(self, node: ast.Call, ctx: Ctx):
        f, args = node.func, node.args
        if f in self.sym.defines and self.sym.defines[f].block is not None:
            self.error(f"'{f}' is a procedure (statements): run it as a statement of its own, {f}(...)", node.pos)
            return "0", T.ANY, P_ATOM
        if f in self.sym.defines:
            return self.call_define(node, ctx)
        if f in GRID_FUNCTIONS:
            return self.grid_call(node, ctx)
        if f == "repeated" and f not in self.sym.defines:
            return self.repeated(node, ctx)
        if f in self.sym.enums and f not in ctx.scope:  # colour(2): the member numbered 2
            enum = self.sym.enums[f]
            if len(args) == 2:  # piece(king, me): a piece of that kind owned by that seat
                kind = self.tree(args[0], ctx)
                if kind.type.kind != "any" and not (kind.type.kind == "enum" and kind.type.name == f):
                    self.error(f"expected a member of '{f}' here (a kind of piece), but this is {kind.type}",
                               args[0].pos)
                owner = self.want_tree(args[1], ctx, ("player", "int"), "a player")
                kinds = N.Const(T.INT, 0, len(enum.members))
                piece = N.binary("+", N.binary("*", owner, kinds, T.INT), kind, T.INT)
                return attrs.evolve(piece, type=T.Type("piece", f))
            if len(args) != 1:
                self.error(f"{f}(n) takes one number: the member's number, from 0; {f}(member, seat) makes a "
                           "piece of that kind for that seat", node.pos)
                return "0", T.enum(f), P_ATOM
            n = self.number_tree(args[0], ctx)
            if isinstance(n, N.Const):
                if not 0 <= n.value < len(enum.members):
                    self.error(f"enum '{f}' has no member number {n.value} (it has {len(enum.members)}, from 0)",
                               node.pos)
                return N.Const(T.enum(f), 0, n.value)
            return self.helper("ops.member", T.enum(f), n, len(enum.members), N.Text(T.ANY, 0, f))
        if f in ("along", "position"):
            return self.track_call(node, ctx)
        if f not in FUNCTIONS and f not in OPEN_FUNCTIONS:
            # `at` is reserved for `put X at C on G`, not a function one can call
            known = sorted((FUNCTIONS - {"at"}) | OPEN_FUNCTIONS | set(GRID_FUNCTIONS) | set(self.sym.defines))
            self.error(f"unknown function '{f}'", node.pos,  # a near miss only: column is not count
                       suggest(f, known, cutoff=0.8) or "functions: " + ", ".join(known)
                       + " (or declare one with define)")
            return "0", T.ANY, P_ATOM

        def arity(*counts: int) -> bool:
            if len(args) not in counts:
                want = " or ".join(str(c) for c in counts)
                self.error(f"{f}() takes {want} argument{'s' if counts != (1,) else ''}, not {len(args)}", node.pos)
                return False
            return True

        if f == "count":
            limit, self.count_limit = self.count_limit, None  # for this count only, not those inside
            if not arity(1, 2):
                return "0", T.INT, P_ATOM
            mark = self.mark(ctx)
            grid = self.tree(args[0], ctx)
            gty = grid.type
            if gty.kind == "grid":  # filled cells, or cells holding a value
                sym = self.sym.grids[gty.space]
                if len(args) == 2:
                    if sym.elem.kind == "piece":
                        value = self.tree(args[1], ctx)
                        vty = value.type
                        if vty.kind != "piece":  # a kind or an owner: counted among the pieces
                            return N.Len(T.INT, 0, self.cells_holding(grid, sym, args[1:], [(value, vty)]))
                        if not T.compatible(vty, sym.elem):
                            self.error(f"grid '{sym.name}' holds {sym.elem}, not {vty}", args[1].pos)
                        return self.count_cells(grid, self.stored(value))
                    if sym.elem.kind == "int":
                        return N.ListCount(T.INT, 0, grid, self.element_tree(args[1], ctx, sym))
                    return self.count_cells(grid, self.stored(self.element_tree(args[1], ctx, sym)))
                return N.Binary(T.INT, 0, "-", N.Const(T.INT, 0, sym.geo.cells), self.count_cells(grid, 0))
            self.rewind(mark, ctx)  # lowered again, as a collection
            tree, ty = self.collection_tree(args[0], ctx)
            if len(args) == 2:
                value = self.tree(args[1], ctx)
                if ty.elem and not T.compatible(ty.elem, value.type):
                    self.error(f"{value.type} cannot be in {ty}", args[1].pos)
                return N.ListCount(T.INT, 0, tree, value)
            kernel = tree.name if isinstance(tree, N.Helper) else None
            if kernel == "K.liberties":  # counted without a list, as far as a comparison needs
                return self.helper("K.liberty_count", T.INT, *tree.args, -1 if limit is None else limit)
            if kernel in COUNTED_FORMS:  # counted without a list
                return self.helper(COUNTED_FORMS[kernel], T.INT, *tree.args)
            if isinstance(tree, N.Cells) and tree.walkable:  # a grid's empty (or filled) cells, counted in its bytes
                empty = self.count_cells(tree.grid, 0)
                if not tree.filled:
                    return empty
                return N.Binary(T.INT, 0, "-", N.Len(T.INT, 0, tree.grid), empty)
            return N.Len(T.INT, 0, tree)
        if f in ("sum", "max", "min"):
            if len(args) == 1:
                tree, ty = self.collection_tree(args[0], ctx)
                if ty.elem is not None and not ty.elem.is_number:
                    self.error(f"{f}() adds up numbers, but this holds {ty.elem}", args[0].pos)
                return N.Reduce(T.INT, 0, f, tree)
            arity(1)  # max and min of two or more numbers are IR nodes (t_Call)
            return "0", T.INT, P_ATOM
        if f == "has":
            if not arity(2):
                return "False", T.BOOL, P_ATOM
            tree, ty = self.collection_tree(args[0], ctx)
            value = self.tree(args[1], ctx)
            tv = value.type
            if tv.kind == "list":
                if ty.elem and tv.elem and not T.compatible(ty.elem, tv.elem):
                    self.error(f"{tv} cannot be in {ty}", args[1].pos)
                if isinstance(args[1], ast.ListExpr) and len(args[1].items) == 2:
                    a, b = (self.tree(i, ctx) for i in args[1].items)
                    return self.helper("K.contains_pair", T.BOOL, tree, a, b)
                return self.helper("K.contains_all", T.BOOL, tree, value)
            if ty.elem and not T.compatible(ty.elem, tv):
                self.error(f"{tv} cannot be in {ty}", args[1].pos)
            return N.binary("in", value, tree, T.BOOL)
        if f in ("number", "abs"):  # of one argument, IR nodes (t_Call): here, the wrong count
            arity(1)
            return "0", T.INT, P_ATOM
        if f in ("first", "last"):
            if not arity(1):
                return "0", T.ANY, P_ATOM
            tree, ty = self.collection_tree(args[0], ctx)
            if f == "first" and isinstance(tree, N.Helper) and tree.name == "K.cells_holding":
                return self.helper("K.first_holding", ty.elem or T.ANY, *tree.args)  # the first one found, no list
            return self.helper("ops." + f, ty.elem or T.ANY, tree)
        if f in CHANCE_FUNCTIONS:  # random(n): 0..n-1; die(n): a die's face, 1..n
            if not arity(1):
                return "0", T.INT, P_ATOM
            if not ctx.random_ok:
                self.error(f"{f}() may only be used in setup and in effects", node.pos,
                           "conditions, scores and the winner must not depend on chance")
            bound = self.number_tree(args[0], ctx)
            # during play (and the first player's draw): kept in the state's log, as the rules use
            # it, so that a game can be replayed from its rolls and moves
            logged = ctx.where != "setup"
            self.rolls = self.rolls or logged
            return N.Draw(T.INT, 0, bound, logged, 1 if f == "die" else 0)
        self.error(f"{f}() needs the form {f}(value for x in zone where condition)", node.pos)
        return "0", T.ANY, P_ATOM

    def count_cells(self, grid, code) -> N.CountValue:
        """How many cells of a grid of elements (bytes) hold the code ``code``."""
        return N.CountValue(T.INT, 0, self.node(grid), self.node(code))

    def call_define(self, node: ast.Call, ctx: Ctx):
        """A define is compiled once (per kind of arguments) into a function of the engine,
        ``fn__name(s, [me,] args...)``, and called; where its code is a short expression
        (``slot_cell[n - 1]``) it is written in place, as a compiler inlines a small function."""
        self.calls.append(node)  # where too much work is reported (exprs.TooMuchWork)
        try:
            return self._call_define(node, ctx)
        finally:
            self.calls.pop()

    def _call_define(self, node: ast.Call, ctx: Ctx):
        d = self.sym.defines[node.func]
        if len(node.args) != len(d.params):
            self.error(f"{d.name}() takes {len(d.params)} argument{'s' if len(d.params) != 1 else ''}, "
                       f"not {len(node.args)}", node.pos)
            return "0", T.ANY, P_ATOM
        stack = self._defining
        if d.name in stack:
            self.error(f"define '{d.name}' uses itself", node.pos, "a define cannot be recursive")
            return "0", T.ANY, P_ATOM
        trees = [self.tree(arg, ctx) for arg in node.args]
        key = (d.name, tuple(t.type for t in trees), ctx.has_me, ctx.random_ok, "score" in ctx.scope)
        entry = self._bodies.get(key)
        if entry is None:  # typed and lowered once per kind of arguments
            scope = {p: N.Local(t.type, 0, pyname(p)) for p, t in zip(d.params, trees)}
            inner = self._define_ctx(d, dict(scope), ctx)
            self._defining = stack + [d.name]
            self._in_function += 1
            try:
                steps, body = self.define_lets(d, inner)
                tree = self.tree(body, inner)
                # how long its code is, as the Python engine writes it (the same for both engines)
                size = len(PythonWriter().code(tree))
                # the function's body: its tree, the names it is given, its rules line, its lets'
                # statements (written by compiler/write/written.py, which builds each list of cells it
                # builds twice once)
                lines = (tree, frozenset({p.name for p in scope.values()} | {"me"}), d.pos[0], tuple(steps))
            finally:
                self._defining = stack
                self._in_function -= 1
            entry = (size, tree.type, inner.uses, lines)
            self._bodies[key] = entry
        size, ty, uses, lines = entry
        params = [pyname(p) for p in d.params]
        # a short expression that calls no other define's function is written in place when no
        # argument would be computed twice (a name or a number may be repeated freely): the body
        # lowered again with the arguments' trees in place of its parameters
        plain = [_plain(t, ctx) for t in trees]
        # a list written out (``[off(c, -1, 1), off(c, 0, 1)]``) is as cheap in place at any
        # length, and a loop over it in place needs no list natively
        listed = isinstance(d.body, ast.ListExpr) and len(d.body.items) <= 8 and all(plain)
        body_fits = (not any(u.startswith("fn:") for u in uses)
                     and "span" not in uses
                     and not isinstance(d.body, ast.LetIn)  # its lets are locals of its function
                     and "score" not in uses
                     # natively an aggregate is a helper that takes the names it reads: in place only
                     # when the arguments are names or numbers (in both engines, which stay alike)
                     and not (any(isinstance(n, ast.Comp) for n in ast_nodes(d.body)) and not all(plain)))
        # the parameters a body reads twice or more given something other than a name or a number
        twice = [t for p, t, simple in zip(d.params, trees, plain) if uses[p] > 1 and not simple]
        fits = body_fits and not twice
        # (a notation has no state to give a function: what it shows is always written in place)
        in_place = ctx.where == "notation" or ((size <= 100 or listed) and fits)
        # a call of a function costs the Python engine more than a short body: a body too long
        # only because it asks for one call twice is written in place too, the call's value kept
        # in a local as it is first computed (``(_shared0 := ...)``; natively a C number), in a
        # move's guards and effects, outside aggregates (an assignment expression in one would
        # bind in another scope); the same trees for both engines
        where_ok = ctx.where in ("guard", "effect") and not self._comp_depth and not self._in_function
        bind = not in_place and fits and all(plain) and size <= 300 and where_ok
        # a short body that reads one parameter twice, given a call (``open(wall(fence, c, "n"))``
        # for ``open(w) = w != none and fence[w] == none``), is written in place too, the call
        # computed where every evaluation first reaches it and kept in a local for the other
        # reads (bind_shared's way): the function's call and its argument made once, as before
        bind_arg = (not in_place and not bind and body_fits and len(twice) == 1 and size <= 100 and where_ok
                    and not any(isinstance(n, N.Apply) for n in walk(twice[0])))
        if in_place or bind or bind_arg:
            self._functions.setdefault(key, None)
            inner = self._define_ctx(d, dict(zip(d.params, trees)), ctx)
            diags, self.diags = self.diags, []  # its mistakes were reported as it was typed, above
            self._defining = stack + [d.name]
            try:
                tree = self.tree(d.body, inner)
            finally:
                self._defining, self.diags = stack, diags
            shared, local = None, f"_shared{self._shared_names}"
            if bind or bind_arg:
                tree, shared = bind_shared(tree, local, twice[0] if bind_arg else None)
            if bind_arg and (shared is None or shape(shared) != shape(twice[0])):
                shared = None  # another call bound, or none: the argument would be computed twice
            if in_place or (shared is not None and len(PythonWriter().code(tree)) <= 120):
                if shared is not None:  # a local of the method (natively a C number when whole)
                    ctx.note_local(local, shared.type)
                    self._shared_names += 1
                ctx.uses.update({u: n for u, n in inner.uses.items() if u not in d.params})
                return tree
        fn = self._functions.get(key)
        if fn is None:
            uses_me, needs_scores = "me" in uses, "score" in uses
            head = ["s"] + (["me"] if uses_me else []) + params + (["_sc"] if needs_scores else [])
            mine = [f for f in self.functions if f[0] == f"fn__{d.name}" or f[0].startswith(f"fn__{d.name}__")]
            # for Cython: the C type of each parameter and of the result
            types = {"s": "_Core", "me": "long", "_sc": "object"}
            types.update((pyname(p), c_type(t.type)) for p, t in zip(d.params, trees))
            sig = ([types[h] for h in head], c_type(ty))
            same = next((f for f in mine if f[1] == head and f[3] == lines and f[4] == sig), None)
            if same is not None:  # compiled alike from another place: one function
                fname = same[0]
            else:
                fname = f"fn__{d.name}" + (f"__{len(mine) + 1}" if mine else "")
                self.functions.append((fname, head, self.comment(d), lines, sig))
                # the work of one call: its own code and that of every call it makes, so
                # that a chain of defines each using the previous twice cannot hide 2**40 steps
                cost = size + sum(self._cost.get(u[3:], 0) * n for u, n in uses.items() if u.startswith("fn:"))
                self._cost[fname] = cost
                if cost > LIMITS["define_work"]:
                    self.error(f"define '{d.name}' does the work of {cost:,} characters of code per use "
                               f"(the limit is {LIMITS['define_work']:,})", node.pos,
                               "a define that uses another several times multiplies its work: "
                               "compute the value once with let")
            fn = (fname, uses_me, needs_scores)
            self._functions[key] = fn
        fname, uses_me, needs_scores = fn
        ctx.uses["fn:" + fname] += 1
        ctx.uses.update(["me"] * uses_me + ["score"] * needs_scores)
        state = [N.Local(T.ANY, 0, "s")] + ([N.Local(T.PLAYER, 0, "me")] if uses_me else [])
        scores = [N.Local(T.ANY, 0, "_sc")] if needs_scores else []
        return N.Apply(ty, 0, fname, tuple(state + trees + scores))

    def define_lets(self, d, inner: Ctx) -> tuple[list, ast.Node]:
        """A define's lets (``let a = x then ... then value``) as assignments of its function's
        locals, each name bound in ``inner`` for the lets after it and the value; and the
        value's AST. A define without lets has none."""
        if not isinstance(d.body, ast.LetIn):
            return [], d.body
        steps = []
        for let in d.body.lets:
            tree = self.let_value(let, d.params, inner)
            if tree is not None:
                local = inner.bind(let.name, pyname(let.name), tree.type)
                inner.lets.add(let.name)
                steps.append(S.Assign(let.pos[0], local, "=", tree))
        return steps, d.body.value

    def let_value(self, let: ast.Let, params: list, ctx: Ctx) -> N.Expr | None:
        """A define's let's value as a tree (a product kept in range), after saying what is wrong
        with it; None when its name may not be taken."""
        tree = self.tree(let.value, ctx)
        if tree.type.kind in ("zone", "zones", "counters"):
            self.error("'let' names a value; a zone can be used by its own name", let.value.pos)
        if self.let_name_clashes(let, params, ctx):
            return None
        if tree.type.kind in ("int", "any") and has_product(let.value, self.sym.defines):  # kept in range
            tree = self.helper("ops.number", T.INT, tree, c_form=False)
        return tree

    def let_name_clashes(self, let: ast.Let, params: list, ctx: Ctx) -> bool:
        """Whether a define's ``let`` takes a name it may not (reported at the let): a built-in
        name, a declared one, a parameter, or an earlier let's."""
        if let.name in BUILTIN_NAMES:
            self.error(f"'{let.name}' is a built-in name of the rules language; choose another name for this value",
                       let.pos)
        elif let.name in self.sym.all_names():
            self.error(f"'{let.name}' is already declared; choose another name for this value", let.pos)
        elif let.name in params:
            self.error(f"'{let.name}' is a parameter of this define; choose another name for this value", let.pos)
        elif let.name in ctx.lets:
            self.error(f"'{let.name}' is already a let of this define; choose another name for this value", let.pos,
                       "a define's lets are values, each named once")
        else:
            return False
        return True

    def t_LetIn(self, node: ast.LetIn, ctx: Ctx) -> N.Expr:
        """A define's lets where its body is lowered as one expression (a define used nowhere,
        checked once): each let's tree stands in for its name."""
        inner = ctx.child()
        params = [n for n in ctx.scope if n not in ctx.lets]
        for let in node.lets:
            tree = self.let_value(let, params, inner)
            if tree is not None:
                inner.scope[let.name] = tree
                inner.lets.add(let.name)
        return self.tree(node.value, inner)

    @staticmethod
    def _define_ctx(d, scope: dict, ctx: Ctx) -> Ctx:
        """Where a define's body is lowered: its parameters (as ``scope`` says) and, in the
        winner's ranks, the score; ``me`` and chance as where it is used."""
        if "score" in ctx.scope:  # the winner's ranks may name the score
            scope["score"] = ctx.scope["score"]
        inner = Ctx(ctx.where, scope, ctx.has_me, ctx.random_ok)
        inner.needs = {n: v for n, v in ctx.needs.items() if n == "score"}
        return inner

    def repeated(self, node: ast.Call, ctx: Ctx) -> tuple[str, T.Type, int]:
        """repeated(board, ..., [me]): how many times before the position of these places (and
        the player who just moved, with `me`) was reached at the end of a turn or the start."""
        if ctx.where != "end":
            self.error("repeated(...) counts the positions reached at the ends of turns: it belongs in an end "
                       "condition", node.pos, "end when repeated(board, me) >= 2")
            return "0", T.INT, P_ATOM
        parts, mover = [], False
        for a in node.args:
            name = a.id if isinstance(a, ast.Name) and a.id not in ctx.scope else None
            if name == "me":
                mover = True
            elif name in self.sym.grids or name in self.sym.zones or name in self.sym.counters:
                prefix = "g_" if name in self.sym.grids else "z_" if name in self.sym.zones else "c_"
                zone = self.sym.zones.get(name)
                if zone is not None and zone.node.unordered:  # a multiset: its contents in any order
                    parts.append(f"[sorted(_z) for _z in s.z_{name}]" if zone.per else f"sorted(s.z_{name})")
                else:
                    parts.append(f"s.{prefix}{name}")
            else:
                self.error("repeated() takes the places that make a position (grids, zones, counters by name) "
                           "and `me` for the player who moved", a.pos)
        if not parts:
            self.error("say which places make the position: repeated(board), or repeated(board, me) when who "
                       "moved counts too", node.pos)
            return "0", T.INT, P_ATOM
        spec = (tuple(parts), mover)
        if spec not in self.histories:
            self.histories.append(spec)
        k = self.histories.index(spec)
        return self.helper("K.repeats", T.INT, N.Field(T.ANY, 0, f"hist_{k}"))

    def check_unused_defines(self) -> None:
        """A define is checked where it is used; one used nowhere is checked once here, its
        parameters taking any value, so that its mistakes are reported all the same."""
        used = {key[0] for key in self._functions}
        kept = len(self.functions)  # checked, not compiled: nothing of this reaches the engine
        for d in self.sym.defines.values():
            if d.name not in used and d.block is not None and d.name not in self._ran:
                self.s_Run(ast.Run(name=d.name, args=[ast.Name(id="none", pos=d.pos) for _ in d.params], pos=d.pos),
                           Ctx("effect", has_me=True, random_ok=True))
            elif d.name not in used and d.block is None:
                scope = {p: N.Local(T.ANY, 0, pyname(p)) for p in d.params}
                self._defining = [d.name]
                try:
                    self.tree(d.body, Ctx("define", scope, has_me=True))
                finally:
                    self._defining = []
        del self.functions[kept:]

    def collection_tree(self, node: ast.Node, ctx: Ctx) -> tuple[N.Expr, T.Type]:
        tree = self.tree(node, ctx)
        ty = tree.type
        if ty.kind == "zones":
            self.error(f"this is {ty}", node.pos)
        elif not ty.is_collection and ty.kind != "any":
            self.error(f"expected a zone or a list here, but this is {ty}", node.pos)
        if ty.kind == "zones" or not ty.is_collection:
            return N.ListOf(T.list_of(T.ANY), node.pos[0], ()), T.list_of(T.ANY)
        return tree, ty

    def x_Comp(self, node: ast.Comp, ctx: Ctx):
        self._comp_depth += 1
        try:
            return self.comprehension(node, ctx)
        finally:
            self._comp_depth -= 1

    def comprehension(self, node: ast.Comp, ctx: Ctx):
        f = node.func
        before = Counter(ctx.uses)
        source, ty = self.collection_tree(node.source, ctx)
        var = fresh_local(node.var, ctx)
        inner = ctx.child(**{node.var: N.Local(ty.elem or T.ANY, 0, var)})
        element = self.tree(node.elem, inner)
        te = element.type
        test = self.boolean_tree(node.cond, inner) if node.cond is not None else None
        # list comprehensions: over the small collections of games they beat generators
        result = {"count": T.INT, "sum": T.INT, "max": T.INT, "min": T.INT, "any": T.BOOL, "all": T.BOOL,
                  "argmin": ty.elem or T.ANY, "argmax": ty.elem or T.ANY}.get(f)
        if f in ("sum", "max", "min", "argmin", "argmax") and not te.is_number:
            self.error(f"{f}() ranks by a number, but this is {te}" if f.startswith("arg") else
                       f"{f}() needs numbers, but this is {te}", node.elem.pos)
        if f in ("any", "all") and te.kind not in ("bool", "any"):
            self.error(f"{f}() needs a condition, but this is {te}", node.elem.pos)
        if result is None:
            self.error(f"'{f}(... for ...)' is not an aggregate; use count, sum, max, min, any, all, argmin or argmax",
                       node.pos)
            return "0", T.ANY, P_ATOM
        # any/all stop at the first element that decides, unless an element draws a random number
        lazy = f in ("any", "all") and not (ctx.random_ok and draws(node, self.sym.defines))
        types = {t.name: t.type for t in ctx.scope.values() if isinstance(t, N.Local)}
        types["me"] = T.PLAYER
        params = tuple((n, types.get(n)) for n in sorted(ctx.engine_names(ctx.uses - before, exclude=var)))
        made = N.Aggregate(result, 0, f, var, source, element, test, lazy, params, self.comment(node),
                           display=ctx.where == "show")
        return made
