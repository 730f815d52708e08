"""The typed IR (compiler/ir/nodes.py, compiler/ir/statements.py) and its two emitters
(compiler/write/emit.py): every node kind is written by both, random trees written as Python compute
what the reference evaluator says, and the native forms are the C ones."""
from __future__ import annotations

import inspect

import attrs
from hypothesis import given, settings, strategies as st

from regle.compiler.write import emit
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.write.emit_native import CythonWriter
from regle.compiler.ir.evaluate import evaluate

ENV = {"a": 3, "b": -2, "l": [4, -1, 0, 7], "e": []}
BUILTINS = {"_abs": abs, "max": max, "min": min, "sum": sum, "len": len, "range": range, "any": any,
            "all": all, "enumerate": enumerate, "list": list}


def kinds(module, base):
    return [c for _n, c in inspect.getmembers(module, inspect.isclass)
            if issubclass(c, base) and c is not base and c.__module__ == module.__name__]


def test_every_node_kind_is_written_by_both_emitters():
    for kind in kinds(N, N.Expr):
        assert hasattr(emit.PythonWriter, "w_" + kind.__name__), kind
    for kind in N.BACKEND_KINDS:  # the native engine writes these its own way
        assert "w_" + kind.__name__ in CythonWriter.__dict__, kind
    for kind in kinds(S, S.Stmt):
        assert hasattr(emit.PythonWriter, "s_" + kind.__name__), kind
    assert all(attrs.has(k) for k in kinds(N, N.Expr) + kinds(S, S.Stmt))


# ---- random trees: the Python written from a tree computes what the evaluator says ----------
I, B, L = T.INT, T.BOOL, T.list_of(T.INT)


def const(v):
    return N.Const(B if isinstance(v, bool) else I, 0, v)


class Trees:
    """Random trees of numbers, truths and lists, drawn one choice at a time."""

    def __init__(self, draw):
        self.draw = draw

    def pick(self, n: int) -> int:
        return self.draw(st.integers(0, n - 1))

    def number(self, depth: int, names=("a", "b")) -> N.Expr:
        choice = self.pick(13) if depth else self.pick(2)
        sub = lambda: self.number(depth - 1, names)  # noqa: E731
        if choice == 0:
            return const(self.draw(st.integers(-6, 6)))
        if choice == 1:
            return N.Local(I, 0, self.draw(st.sampled_from(names)))
        if choice == 2:
            return N.Binary(I, 0, self.draw(st.sampled_from("+-*")), sub(), sub())
        if choice == 3:
            return N.Binary(I, 0, self.draw(st.sampled_from(["//", "%"])), sub(), const(self.draw(st.sampled_from([-3, 2, 5]))))
        if choice == 4:
            return N.Neg(I, 0, sub())
        if choice == 5:
            func = self.draw(st.sampled_from(["abs", "max", "min"]))
            return N.Call(I, 0, func, (sub(),) if func == "abs" else (sub(), sub()))
        if choice == 6:
            return N.Number(I, 0, self.truth(depth - 1, names))
        if choice == 7:
            return N.Cond(I, 0, self.truth(depth - 1, names), sub(), sub())
        if choice == 8:
            return N.Len(I, 0, self.list(depth - 1, names))
        if choice == 9:
            return N.ListCount(I, 0, self.list(depth - 1, names), sub())
        if choice == 10:
            return N.Reduce(I, 0, self.draw(st.sampled_from(["sum", "max", "min"])), self.list(depth - 1, names))
        if choice == 11:
            items = tuple(sub() for _ in range(1 + self.pick(3)))
            return N.Index(I, 0, N.ListOf(L, 0, items), const(self.pick(len(items))))
        func = self.draw(st.sampled_from(["count", "sum", "max", "min", "argmin", "argmax"]))
        cond = self.truth(depth - 1, (*names, "x_")) if self.pick(2) else None
        return N.Aggregate(I, 0, func, "x_", self.list(depth - 1, names), self.number(depth - 1, (*names, "x_")), cond)

    def truth(self, depth: int, names=("a", "b")) -> N.Expr:
        choice = self.pick(6) if depth else 0
        if choice == 0:
            return const(self.draw(st.booleans()))
        if choice == 1:
            op = self.draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
            return N.Binary(B, 0, op, self.number(depth - 1, names), self.number(depth - 1, names))
        if choice == 2:
            op = self.draw(st.sampled_from(["and", "or"]))
            return N.Binary(B, 0, op, self.truth(depth - 1, names), self.truth(depth - 1, names))
        if choice == 3:
            return N.Not(B, 0, self.truth(depth - 1, names))
        if choice == 4:
            op = self.draw(st.sampled_from(["in", "not in"]))
            return N.Binary(B, 0, op, self.number(depth - 1, names), self.list(depth - 1, names))
        func = self.draw(st.sampled_from(["any", "all"]))
        return N.Aggregate(B, 0, func, "x_", self.list(depth - 1, names), self.truth(depth - 1, (*names, "x_")),
                           None, self.draw(st.booleans()))

    def list(self, depth: int, names=("a", "b")) -> N.Expr:
        choice = self.pick(4) if depth else self.pick(3)
        if choice == 0:
            return N.Local(L, 0, self.draw(st.sampled_from(["l", "e"])))
        if choice == 1:
            lo, hi = sorted((self.draw(st.integers(-3, 3)), self.draw(st.integers(-3, 3))))
            return N.Span(L, 0, lo, hi)
        if choice == 2:
            return N.Upto(L, 0, const(self.pick(5)))
        return N.ListOf(L, 0, tuple(self.number(depth - 1, names) for _ in range(self.pick(4))))


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_python_written_from_a_tree_computes_what_the_evaluator_says(data):
    trees = Trees(data.draw)
    tree = trees.number(4) if trees.pick(2) else trees.truth(4)
    code, _prec = emit.python(tree)
    want = evaluate(tree, dict(ENV))
    # one namespace: a comprehension sees the globals, not eval's separate locals
    assert eval(code, {"__builtins__": {}, **BUILTINS, **ENV}) == want, code  # noqa: S307


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from(["+", "-", "*", "%"]))
def test_a_child_is_parenthesised_only_where_its_place_needs_it(data, op):
    """Writing a tree and the same tree with every child grouped computes the same value."""
    trees = Trees(data.draw)
    left, right = trees.number(3), trees.number(3)
    code, _ = emit.python(N.Binary(I, 0, op, left, right))
    grouped = f"({emit.python(left)[0]}) {op} ({emit.python(right)[0]})"
    scope = {"__builtins__": {}, **BUILTINS, **ENV}
    try:
        want = eval(grouped, dict(scope))  # noqa: S307
    except ZeroDivisionError:
        return
    assert eval(code, dict(scope)) == want  # noqa: S307


# ---- statements --------------------------------------------------------------------------------
def local(name, ty=I):
    return N.Local(ty, 0, name)


def test_a_block_of_statements_is_written_with_its_nesting_and_runs():
    """for, if/elif/else, while, require, assignments and return, nested, as Python lines."""
    block = [
        S.Comment(1, "# line 1: total = 0"),
        S.Assign(1, local("total"), "=", const(0)),
        S.For(2, "x_", N.Local(L, 0, "l"), (
            S.If(3, ((N.Binary(B, 0, ">", local("x_"), const(0)), (S.Assign(3, local("total"), "+=", local("x_")),)),
                     (N.Binary(B, 0, "==", local("x_"), const(0)), ())),
                 (S.Assign(4, local("total"), "-=", const(1)),)),
        )),
        S.While(5, N.Binary(B, 0, "<", local("total"), const(20)),
                (S.Assign(5, local("total"), "*=", const(2)),)),
        S.Require(6, N.Binary(B, 0, ">=", local("total"), const(20)), "too small"),
        S.Return(7, local("total")),
    ]
    lines = emit.PythonWriter().lines(block)
    assert "        pass" in lines  # an empty branch, in the loop
    source = "def run(s, l):\n" + "\n".join("    " + line for line in lines)

    class State:
        @staticmethod
        def _loop(values):
            return values

    space = {}
    exec(compile(source, "<ir>", "exec"), space)  # noqa: S102
    # 4 + 7 = 11, less 1 for -1 (0 is skipped) = 10, doubled while under 20 = 20
    assert space["run"](State, [4, -1, 0, 7]) == 20


def test_the_native_emitter_writes_the_c_forms():
    py, cy = emit.PythonWriter(), CythonWriter()
    grid, cell = N.Field(T.ANY, 0, "g_board"), local("c_")
    cases = [
        (N.CellRead(I, 0, grid, cell), "s.g_board[c_]", "_cell(s.g_board, c_)"),
        (N.Slot(I, 0, "score", local("me"), N.Field(I, 0, "n")), "s.c_score[me]", "s.a_score[_ix(me, s.n)]"),
        (N.Column(I, 0, "C_card__rank", local("i"), True), "C_card__rank[i]", "_v_C_card__rank[i]"),
        (N.Geometry(I, 0, "G_board__ROWS", cell), "G_board__ROWS[c_]", "_v_G_board__ROWS[c_]"),
        (N.Table(T.ANY, 0, "G_board__ADJ"), "G_board__ADJ", "_t_G_board__ADJ"),
        (N.Dimension(I, 0, "G_board__WIDTH", 7), "G_board__WIDTH", "7"),
        (N.Draw(I, 0, const(6), True), "_rolled(s.rolls, s.rng.below(6))", "_rolled(s.rolls, _rng_below(s.rng, 6))"),
        # a die: its face from 1, logged as the face; grouped where its place needs it
        (N.Draw(I, 0, const(6), True, 1), "_rolled(s.rolls, s.rng.below(6) + 1)",
         "_rolled(s.rolls, _rng_below(s.rng, 6) + 1)"),
        (N.Binary(I, 0, "*", const(2), N.Draw(I, 0, const(6), False, 1)), "2 * (s.rng.below(6) + 1)",
         "2 * (_rng_below(s.rng, 6) + 1)"),
        (N.CountValue(I, 0, grid, const(0)), "s.g_board.count(0)", "_CK.count_byte(s.g_board, 0)"),
        (N.Removal(T.ANY, 0, N.Field(T.ANY, 0, "z_deck"), local("x_")), "s.z_deck.remove(x_)",
         "_CK.remove_value(s.z_deck, x_)"),
        (N.Helper(I, 0, "ops.number", (local("x_"),)), "ops.number(x_)", "_number(x_)"),
        (N.Helper(I, 0, "ops.number", (local("x_"),), False), "ops.number(x_)", "_ops_number(x_)"),
        (N.Binary(B, 0, "in", local("t_"), N.NeighbourList(L, 0, "G_board__ADJ", 8, cell)),
         "t_ in ops.neighbours(G_board__ADJ, 8, c_)", "_next_to(_p_G_board__ADJ, len(_v_G_board__ADJ), 8, c_, t_)"),
    ]
    for tree, python, native in cases:
        assert py.write(tree)[0] == python
        assert cy.write(tree)[0] == native
    assert cy.bound == {"_ops_number": "ops.number"}  # a helper without a C form: a C global bound once
    walk = S.For(1, "n_", N.NeighbourList(L, 0, "G_board__ADJ", 4, cell), (S.Eval(1, local("n_")),),
                 walk=("_atn_", "_dn_"))
    assert py.lines([walk])[0] == ("for n_ in s._loop((G_board__ADJ_AROUND[c_] if c_ >= 0 else "  # the table's tuple
                                   "ops.neighbours(G_board__ADJ, 4, c_))):")
    assert cy.lines([walk])[:3] == ["_atn_ = c_",
                                    "if _atn_ < 0: raise ValueError('there is no cell here (none) to look around')",
                                    "for _dn_ in range(4):"]
    shuffle = S.Shuffle(1, N.Field(T.ANY, 0, "z_deck"))
    assert py.lines([shuffle]) == ["s.rng.shuffle(s.z_deck)"]
    assert cy.lines([shuffle]) == ["s.rng.state = _CK.shuffle(s.z_deck, s.rng.state)"]


def test_a_count_of_cells_compared_with_none_is_a_search_that_stops_at_the_first():
    """``count(empty_cells(G)) == 0`` asks whether some cell is empty: both engines search for
    one (``in``; natively the C library's memchr) rather than count every cell; the answers are
    those of the counts, on any grid."""
    py, cy = emit.PythonWriter(), CythonWriter()
    grid = N.Field(T.ANY, 0, "g_board")
    count = N.CountValue(I, 0, grid, const(0))
    cases = [
        (N.Binary(B, 0, "==", count, const(0)), "0 not in s.g_board", "not _has_byte(s.g_board, 0)"),
        (N.Binary(B, 0, "!=", count, const(0)), "0 in s.g_board", "_has_byte(s.g_board, 0)"),
        (N.Binary(B, 0, ">", count, const(0)), "0 in s.g_board", "_has_byte(s.g_board, 0)"),
        (N.Binary(B, 0, "==", const(0), count), "0 not in s.g_board", "not _has_byte(s.g_board, 0)"),
        # a value worked out when playing (count(board, 1 - me) == 0): searched for too
        (N.Binary(B, 0, "==", N.CountValue(I, 0, grid, local("v_")), const(0)),
         "v_ not in s.g_board", "not _has_byte(s.g_board, v_)"),
        # anything else is still a count: another comparison, another number, a byte out of range
        (N.Binary(B, 0, ">", count, const(1)), "s.g_board.count(0) > 1", "_CK.count_byte(s.g_board, 0) > 1"),
        (N.Binary(B, 0, "<", count, const(0)), "s.g_board.count(0) < 0", "_CK.count_byte(s.g_board, 0) < 0"),
        (N.Binary(B, 0, "==", N.CountValue(I, 0, grid, const(300)), const(0)),
         "s.g_board.count(300) == 0", "_CK.count_byte(s.g_board, 300) == 0"),
    ]
    for tree, python, native in cases:
        assert py.write(tree)[0] == python
        assert cy.write(tree)[0] == native

    @settings(max_examples=200)
    @given(st.binary(max_size=30), st.integers(0, 255), st.sampled_from(["==", "!=", ">"]), st.booleans())
    def agree(cells, value, op, named):
        board = bytearray(cells)
        tree = N.Binary(B, 0, op, N.CountValue(I, 0, grid, local("v_") if named else const(value)), const(0))
        counted = {"==": board.count(value) == 0, "!=": board.count(value) != 0, ">": board.count(value) > 0}[op]
        assert eval(py.write(tree)[0], {"s": type("S", (), {"g_board": board}), "v_": value}) == counted

    agree()


def test_a_text_of_the_rules_reaches_the_engine_only_as_a_literal():
    nasty = "x')\nimport os  # "
    for writer in (emit.PythonWriter(), CythonWriter()):
        code, _ = writer.write(N.Helper(T.ANY, 0, "ops.overflow", (N.Text(T.ANY, 0, nasty), const(3))))
        assert eval(code.split("(", 1)[1].rsplit(",", 1)[0]) == nasty  # noqa: S307


def test_an_aggregate_over_the_seats_of_a_counter_is_one_call_in_python_and_a_loop_natively():
    """``sum(points[p] for p in players)`` is ``sum(s.c_points)`` in the Python engine and
    ``any(points[p] >= k ...)`` is ``max(s.c_points) >= k``; the native engine loops in C."""
    seats = N.Upto(L, 0, N.Field(I, 0, "n"))
    slot = N.Slot(I, 0, "points", local("p_"), N.Field(I, 0, "n"))
    total = N.Aggregate(I, 0, "sum", "p_", seats, slot, None)
    reached = N.Aggregate(B, 0, "any", "p_", seats, N.Binary(B, 0, ">=", slot, local("k_")), None, True,
                          params=(("k_", I),))
    mine = N.Aggregate(B, 0, "all", "p_", seats, N.Binary(B, 0, "<", slot, local("p_")), None, True)
    py = emit.PythonWriter()
    assert py.write(total) == ("sum(s.c_points)", N.P_ATOM)
    assert py.write(reached) == ("max(s.c_points) >= k_", N.P_CMP)
    assert py.write(N.Not(B, 0, reached))[0] == "not max(s.c_points) >= k_"
    assert "for p_ in range(s.n)" in py.write(mine)[0]  # the bound reads the seat itself: a loop

    class State:
        n, c_points = 3, [2, 7, 4]
    for tree in (total, reached, mine):
        written = py.write(tree)[0]
        looped = py.write(attrs.evolve(tree, source=N.ListOf(L, 0, (const(0), const(1), const(2)))))[0]
        scope = {"__builtins__": {}, **BUILTINS, "s": State, "k_": 6}
        assert eval(written, dict(scope)) == eval(looped, dict(scope))  # noqa: S307
    cy = CythonWriter()
    assert cy.write(reached)[0] == "_agg_0_any(s, k_)"  # a function of the module, given the state
    name, params, _note, lines, sig = cy.helpers[0]
    assert (name, params, sig[0], sig[1]) == ("_agg_0_any", ["k_"], ["long"], "bint")
    assert "for p_ in range(s.n):" in lines and "        break" in lines


def _trees_in(value):
    """Every IR node held anywhere in a lowered game (records, lists, tuples, dicts)."""
    if isinstance(value, N.Node):
        yield value
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from _trees_in(getattr(value, field.name))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _trees_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _trees_in(item)


def test_the_lowering_of_every_game_is_trees_and_the_same_for_both_engines():
    """The lowering writes no code: no code leaf (``Code``) nor line of text (``Line``) in the
    GameIR of any file in games/, which holds trees; and lowering for the native engine gives
    the very same trees (only the mark of the engine to write them for differs)."""
    from pathlib import Path

    from regle.compiler.generate import lower
    root = Path(__file__).resolve().parent.parent
    for path in sorted((root / "games").rglob("*.rules")):
        text = path.read_text(encoding="utf-8")
        ir = lower(text, str(path), path.stem)
        found = [n for n in _trees_in(ir) if isinstance(n, (N.Code, S.Line))]
        assert not found, (path.name, found[:3])
        assert any(isinstance(n, N.Expr) for n in _trees_in(ir.steps)), path.name
        native = lower(text, str(path), path.stem, native=True)
        assert attrs.evolve(native, native_lowered=False) == ir, path.name
