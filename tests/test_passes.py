"""The optimization passes shared by both engines (compiler/passes), each on its own: trees
before and after, and the same value under the reference evaluator (compiler/ir/evaluate.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.passes import bottom_up, optimize
from regle.compiler.passes.early_exit import stop_early

from test_ir import Trees

I, B, L = T.INT, T.BOOL, T.list_of(T.INT)
ENV = {"a": 3, "b": -2, "l": [4, -1, 0, 7], "e": []}


def count(source, cond=None):
    return N.Aggregate(I, 0, "count", "x_", source, N.Local(I, 0, "x_"), cond)


def above(k):
    return N.Binary(B, 0, ">", N.Local(I, 0, "x_"), N.Const(I, 0, k))


@pytest.mark.parametrize("op, k, some", [(">", 0, True), (">=", 1, True), ("!=", 0, True),
                                         ("==", 0, False), ("<", 1, False), ("<=", 0, False)])
def test_a_count_compared_with_none_or_one_asks_any(op, k, some):
    tree = N.Binary(B, 0, op, count(N.Local(L, 0, "l"), above(2)), N.Const(I, 0, k))
    after = stop_early(tree)
    found = after if some else after.operand
    assert isinstance(found, N.Aggregate) and found.func == "any" and found.lazy
    assert found.elem == above(2) and found.cond is None  # the condition is what any() asks
    assert some or isinstance(after, N.Not)
    for env in (ENV, {**ENV, "l": [1, 2]}, {**ENV, "l": []}):
        assert evaluate(after, env) == evaluate(tree, env)


def test_the_number_first_is_read_the_other_way_round():
    tree = N.Binary(B, 0, "<", N.Const(I, 0, 0), count(N.Local(L, 0, "l")))  # 0 < count(...)
    after = stop_early(tree)
    assert isinstance(after, N.Aggregate) and after.func == "any"
    assert evaluate(after, ENV) is True and evaluate(after, {**ENV, "l": []}) is False


def test_other_counts_and_comparisons_are_left_alone():
    for op, k in ((">", 1), ("==", 1), ("<", 2), (">=", 0)):
        tree = N.Binary(B, 0, op, count(N.Local(L, 0, "l")), N.Const(I, 0, k))
        assert stop_early(tree) is tree
    summed = N.Aggregate(I, 0, "sum", "x_", N.Local(L, 0, "l"), N.Local(I, 0, "x_"), None)
    tree = N.Binary(B, 0, ">", summed, N.Const(I, 0, 0))
    assert stop_early(tree) is tree


def test_a_count_whose_elements_draw_on_chance_counts_them_all():
    """Stopping early would draw fewer numbers: the game would change."""
    draw = N.Draw(I, 0, N.Const(I, 0, 6))
    tree = N.Binary(B, 0, ">", count(N.Local(L, 0, "l"), N.Binary(B, 0, ">", draw, N.Const(I, 0, 2))),
                    N.Const(I, 0, 0))
    assert stop_early(tree) is tree


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_pipeline_keeps_the_value_of_random_trees(data):
    """Random trees of the nesting generator, with counts compared with small numbers mixed in:
    every pass of the pipeline, bottom up, keeps the value the evaluator gives."""
    trees = Trees(data.draw)
    inner = trees.truth(2, ("a", "b", "x_"))
    counted = N.Aggregate(I, 0, "count", "x_", trees.list(2), trees.number(1, ("a", "x_")),
                          inner if trees.pick(2) else None)
    k = N.Const(I, 0, data.draw(st.integers(-1, 2)))
    op = data.draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
    compared = N.Binary(B, 0, op, *((counted, k) if trees.pick(2) else (k, counted)))
    tree = N.Binary(B, 0, data.draw(st.sampled_from(["and", "or"])), compared, trees.truth(3))
    after = optimize((tree,))[0]
    assert evaluate(after, dict(ENV)) == evaluate(tree, dict(ENV))
    assert bottom_up(after, stop_early) == after  # a fixed point: running it again changes nothing


# ---- share_values: a call a define computes twice, computed once -------------------------------

from regle.compiler.ir import statements as S# noqa: E402
from regle.compiler.passes.share_values import _occurrences, drawing_functions, share_in_function  # noqa: E402


def _run(body, env):
    """A define's function body run by the evaluator: its lets in turn, then its value."""
    tree, _names, _line, lets = body
    env = dict(env)
    for a in lets:
        env[a.target.name] = evaluate(a.value, env)
    return evaluate(tree, env)


def test_a_call_computed_twice_is_computed_once_before_its_first_statement():
    walked = count(N.Span(L, 0, 0, 9), above(4))
    tree = N.Binary(I, 0, "+", walked, N.Binary(I, 0, "*", walked, N.Const(I, 0, 2)))
    body = share_in_function((tree, frozenset({"a"}), 3, ()), set())
    after, _, _, lets = body
    assert len(lets) == 1 and lets[0].target.name == "_v0" and lets[0].value == walked
    assert after == N.Binary(I, 0, "+", lets[0].target, N.Binary(I, 0, "*", lets[0].target, N.Const(I, 0, 2)))
    assert _run(body, ENV) == _run((tree, (), 3, ()), ENV) == 15


def test_a_call_only_some_evaluations_reach_is_not_computed_earlier():
    """In the right side of and/or or a branch of if-then-else, a call may be unsafe to
    compute (c != none and walk(c)...): it is never computed where it was not."""
    walked = count(N.Local(L, 0, "l"), above(0))
    test = N.Binary(B, 0, ">", N.Local(I, 0, "a"), N.Const(I, 0, 0))
    guarded = N.Binary(B, 0, "and", test, N.Binary(B, 0, "==", walked, walked))
    assert share_in_function((guarded, frozenset({"a", "l"}), 1, ()), set())[3] == ()
    branches = N.Cond(I, 0, test, walked, N.Binary(I, 0, "+", walked, N.Const(I, 0, 1)))
    assert share_in_function((branches, frozenset({"a", "l"}), 1, ()), set())[3] == ()
    # reached by every evaluation once: the test computes it, so the branches read it
    sure = N.Cond(I, 0, N.Binary(B, 0, ">", walked, N.Const(I, 0, 1)), walked, N.Const(I, 0, 0))
    after, _, _, lets = share_in_function((sure, frozenset({"l"}), 1, ()), set())
    assert len(lets) == 1 and after.then == lets[0].target and after.test.left == lets[0].target


def test_a_let_shares_with_the_value_and_the_local_comes_before_the_first_user():
    walked = count(N.Local(L, 0, "l"), above(0))
    first = S.Assign(2, N.Local(I, 0, "n_"), "=", N.Binary(I, 0, "+", N.Local(I, 0, "a"), N.Const(I, 0, 1)))
    second = S.Assign(3, N.Local(I, 0, "m_"), "=", walked)
    tree = N.Binary(I, 0, "-", walked, N.Local(I, 0, "m_"))
    body = (tree, frozenset({"a", "l"}), 1, (first, second))
    after = share_in_function(body, set())
    lets = after[3]
    assert [a.target.name for a in lets] == ["n_", "_v0", "m_"]
    assert lets[2].value == lets[1].target and after[0].left == lets[1].target
    assert _run(after, ENV) == _run(body, ENV)


def test_what_an_aggregate_binds_or_draws_is_not_shared():
    # a call reading the aggregate's own variable is one per element
    inner = count(N.Local(L, 0, "l"), N.Binary(B, 0, ">", N.Local(I, 0, "x_"), N.Local(I, 0, "y_")))
    outer = N.Aggregate(I, 0, "sum", "y_", N.Span(L, 0, 0, 3), N.Binary(I, 0, "+", inner, inner), None)
    assert share_in_function((outer, frozenset(), 1, ()), set())[3] == ()
    # a draw on chance, or a define's function that draws, is computed as often as written
    rolled = count(N.Span(L, 0, 1, 6), N.Binary(B, 0, ">", N.Draw(I, 0, N.Const(I, 0, 6)), N.Const(I, 0, 3)))
    assert share_in_function((N.Binary(I, 0, "+", rolled, rolled), frozenset(), 1, ()), set())[3] == ()
    called = N.Apply(I, 0, "fn__roll", (N.Local(I, 0, "s"),))
    twice = N.Binary(I, 0, "+", called, called)
    assert share_in_function((twice, frozenset({"s"}), 1, ()), {"fn__roll"})[3] == ()
    assert len(share_in_function((twice, frozenset({"s"}), 1, ()), set())[3]) == 1
    functions = [("fn__roll", [], "", (N.Draw(I, 0, N.Const(I, 0, 6)), frozenset(), 1, ()), None),
                 ("fn__twice", [], "", (twice, frozenset(), 1, ()), None),
                 ("fn__plain", [], "", (N.Const(I, 0, 1), frozenset(), 1, ()), None)]
    assert drawing_functions(functions) == {"fn__roll", "fn__twice"}


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_sharing_keeps_the_value_of_random_define_bodies(data):
    """Random lets and values of the nesting generator in which one random aggregate is planted
    several times (where a name ``w`` stood): shared or not, the evaluator gives the same value."""
    trees = Trees(data.draw)
    planted = N.Aggregate(I, 0, data.draw(st.sampled_from(["count", "sum", "max", "min"])), "z_",
                          trees.list(2), trees.number(1, ("a", "z_")), trees.truth(1, ("b", "z_")) if trees.pick(2) else None)

    def plant(tree):
        return bottom_up(tree, lambda n: planted if isinstance(n, N.Local) and n.name == "w" else n)
    names = ("a", "b", "w")
    lets = []
    for i in range(trees.pick(3)):
        lets.append(S.Assign(i + 2, N.Local(I, 0, f"k{i}"), "=", plant(trees.number(3, names))))
        names = (*names, f"k{i}")
    tree = plant(trees.number(3, names) if trees.pick(2) else trees.truth(3, names))
    body = (tree, frozenset({"a", "b", "l", "e"}), 1, tuple(lets))
    after = share_in_function(body, set())
    try:
        want = _run(body, ENV)
    except (TypeError, ZeroDivisionError) as error:  # the same mistake either way
        with pytest.raises(type(error)):
            _run(after, ENV)
        return
    assert _run(after, ENV) == want
    assert share_in_function(after, set()) == after  # a fixed point
    # the planted call, met twice in the value (outside aggregates) and once for sure, is shared
    met = [sure for n, sure in _occurrences(tree) if n == planted]
    if len(met) >= 2 and any(met) and not any(n == planted for a in lets for n, _ in _occurrences(a.value)):
        assert any(a.value == planted for a in after[3])


def test_an_expression_in_place_binds_its_repeated_call_where_first_computed():
    """bind_shared: the call's first occurrence every evaluation reaches becomes ``(name :=
    call)``, the later ones read the name; evaluated, and as the Python engine writes it, the
    same value; a call only branches reach is not bound."""
    from regle.compiler.passes.share_values import bind_shared
    from regle.compiler.write.emit import PythonWriter
    walked = count(N.Local(L, 0, "l"), above(0))
    gain = N.Cond(I, 0, N.Binary(B, 0, ">", walked, N.Const(I, 0, 0)),
                  N.Binary(I, 0, "+", walked, N.Const(I, 0, 1)), N.Const(I, 0, 0))
    after, bound = bind_shared(gain, "_shared0")
    assert bound == walked and isinstance(after.test.left, N.Bound) and after.test.left.value == walked
    assert after.then.left == N.Local(I, 0, "_shared0")
    code = PythonWriter().code(after)
    assert code.count("_shared0 :=") == 1 and code.index("_shared0 :=") > code.index("_shared0 +")  # test first
    for env in (ENV, dict(ENV, l=[])):
        assert evaluate(after, dict(env)) == evaluate(gain, dict(env))
    test = N.Binary(B, 0, ">", N.Local(I, 0, "a"), N.Const(I, 0, 0))
    branches = N.Cond(I, 0, test, walked, N.Binary(I, 0, "+", walked, N.Const(I, 0, 1)))
    assert bind_shared(branches, "_shared0") == (branches, None)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_binding_keeps_the_value_of_random_expressions(data):
    """Random trees of the nesting generator with one random aggregate planted several times:
    with the repeated call bound in place, the evaluator gives the same value (the evaluator
    keeps a bound name in its leaves, as the engine's local)."""
    from regle.compiler.passes.share_values import bind_shared
    trees = Trees(data.draw)
    planted = N.Aggregate(I, 0, data.draw(st.sampled_from(["count", "sum", "max", "min"])), "z_",
                          trees.list(2), trees.number(1, ("a", "z_")), None)
    tree = bottom_up(trees.number(3, ("a", "b", "w")) if trees.pick(2) else trees.truth(3, ("a", "b", "w")),
                     lambda n: planted if isinstance(n, N.Local) and n.name == "w" else n)
    after, bound = bind_shared(tree, "_shared0")
    try:
        want = evaluate(tree, dict(ENV))
    except (TypeError, ZeroDivisionError) as error:  # the same mistake either way
        with pytest.raises(type(error)):
            evaluate(after, dict(ENV))
        return
    assert evaluate(after, dict(ENV)) == want
    met = [sure for n, sure in _occurrences(tree) if n == planted]
    if len(met) >= 2 and met[0]:
        assert bound == planted


# ---- loops: a define's truth as loops that stop early (the Python engine) ---------------------

from regle.compiler.passes.loops import as_loops  # noqa: E402


class _Returned(Exception):
    def __init__(self, value):
        self.value = value


def _run_block(block, env):
    """Statements of the loops pass run by the evaluator: for, if, return."""
    for st_ in block:
        if isinstance(st_, S.Return):
            raise _Returned(evaluate(st_.value, env))
        if isinstance(st_, S.If):
            for test, body in st_.branches:
                if evaluate(test, env):
                    _run_block(body, env)
                    break
        elif isinstance(st_, S.For):
            assert not st_.counted  # an aggregate's loop is not a rules loop
            for x in evaluate(st_.source, env):
                env[st_.var] = x
                _run_block(st_.body, env)
        else:
            raise AssertionError(f"unexpected statement {st_!r}")


def _loops_value(block, env):
    try:
        _run_block(block, dict(env))
    except _Returned as done:
        return done.value
    raise AssertionError("the statements returned nothing")


def _fresh(tree, counter=None):
    """The tree with each aggregate's name made its own (x0_, x1_...), reads renamed with it."""
    counter = counter if counter is not None else [0]

    def rename(e, old, new):
        if isinstance(e, N.Local) and e.name == old:
            return N.Local(e.type, e.line, new)
        if isinstance(e, N.Aggregate) and e.var == old:  # rebinds it: only its source reads ours
            return attrs.evolve(e, source=rename(e.source, old, new))
        return bottom_up_once(e, lambda p: rename(p, old, new))

    def walk(e):
        if isinstance(e, N.Aggregate):
            name = f"x{counter[0]}_"
            counter[0] += 1
            elem, cond = rename(e.elem, e.var, name), None if e.cond is None else rename(e.cond, e.var, name)
            return attrs.evolve(e, var=name, source=walk(e.source), elem=walk(elem),
                                cond=None if cond is None else walk(cond))
        return bottom_up_once(e, walk)
    return walk(tree)


def bottom_up_once(e, change):
    from regle.compiler.ir.traverse import over
    return over(e, change) if isinstance(e, (N.Node, tuple, list)) else e


import attrs  # noqa: E402


def _any(var, source, elem, cond=None):
    return N.Aggregate(B, 0, "any", var, source, elem, cond, True)


def test_a_truth_of_anys_becomes_loops_that_return_at_the_first_element_that_holds():
    x, y = N.Local(I, 0, "x_"), N.Local(I, 0, "y_")
    inner = _any("y_", N.Local(L, 0, "l"), N.Binary(B, 0, ">", N.Binary(I, 0, "+", x, y), N.Const(I, 0, 8)))
    tree = N.Binary(B, 0, "or", _any("x_", N.Span(L, 0, 0, 3), inner),
                    _any("y_", N.Local(L, 0, "l"), N.Binary(B, 0, "==", y, N.Local(I, 0, "a"))))
    block = as_loops(tree, 5, {"a", "l"})
    assert [type(s_).__name__ for s_ in block] == ["For", "For", "Return"]
    outer, second, last = block
    assert isinstance(outer.body[0], S.For) and isinstance(outer.body[0].body[0], S.If)
    assert last.value == N.Const(B, 0, False)
    for env in (ENV, {**ENV, "a": 7}, {**ENV, "l": [0]}, {**ENV, "l": []}):
        assert _loops_value(block, env) == evaluate(tree, env)


def test_an_all_returns_at_the_first_element_that_fails():
    tree = N.Aggregate(B, 0, "all", "x_", N.Local(L, 0, "l"), N.Binary(B, 0, "<", N.Local(I, 0, "x_"), N.Const(I, 0, 7)),
                       None, True)
    block = as_loops(tree, 1, {"l"})
    assert isinstance(block[0], S.For) and block[-1].value == N.Const(B, 0, True)
    for env in (ENV, {**ENV, "l": [1, 2]}, {**ENV, "l": []}):
        assert _loops_value(block, env) == evaluate(tree, env)


def test_what_a_loop_cannot_say_plainly_is_left_as_it_is():
    x = N.Local(I, 0, "x_")
    plain = _any("x_", N.Local(L, 0, "l"), N.Binary(B, 0, ">", x, N.Const(I, 0, 0)))
    assert as_loops(plain, 1, {"x_"}) is None  # a loop would overwrite the parameter x
    rolled = _any("x_", N.Local(L, 0, "l"), N.Binary(B, 0, ">", N.Draw(I, 0, N.Const(I, 0, 6)), x))
    assert as_loops(rolled, 1, set()) is None  # chance: every element draws, as written
    eager = attrs.evolve(plain, lazy=False)
    assert as_loops(eager, 1, set()) is None  # not an aggregate that stops early
    nested = _any("x_", N.Local(L, 0, "l"), _any("x_", N.Local(L, 0, "l"), N.Binary(B, 0, ">", x, N.Const(I, 0, 1))))
    assert as_loops(nested, 1, set()) is None  # the inner loop would overwrite the outer name
    assert as_loops(N.Binary(B, 0, ">", N.Local(I, 0, "a"), N.Const(I, 0, 0)), 1, {"a"}) is None  # no loop
    assert as_loops(N.Aggregate(I, 0, "count", "x_", N.Local(L, 0, "l"), x, None), 1, set()) is None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_loops_keep_the_value_of_random_truths(data):
    """Random truths of the nesting generator, their aggregates made to stop early and named
    apart: as loops or not, the evaluator gives the same value."""
    trees = Trees(data.draw)
    tree = trees.truth(4)
    tree = _fresh(bottom_up(tree, lambda n: attrs.evolve(n, lazy=True)
                            if isinstance(n, N.Aggregate) and n.func in ("any", "all") else n))
    block = as_loops(tree, 1, {"a", "b", "l", "e"})
    if block is None:
        return
    try:
        want = evaluate(tree, dict(ENV))
    except (TypeError, ZeroDivisionError) as error:  # the same mistake either way
        with pytest.raises(type(error)):
            _loops_value(block, ENV)
        return
    assert _loops_value(block, ENV) == want


# ---- tables: geometry of one cell read from tables made when generating ----------------------

from regle.compiler.passes.tables import read_tables  # noqa: E402


class _Grid:
    const, cells = "G_board_", 61


def test_geometry_of_a_named_cell_is_read_from_tables():
    change = read_tables([_Grid()])
    x, s = N.Local(T.Type("cell", space="board"), 0, "x_"), N.Local(T.INT, 0, "s_")
    around = N.NeighbourList(L, 0, "G_board__ADJ", 6, x)
    degree = change(N.Len(I, 1, around))
    assert isinstance(degree, N.Cond) and degree.then == N.Geometry(I, 1, "G_board__ADJ_DEGREE", x)
    assert degree.orelse == N.Len(I, 1, around)  # none still says why it has no neighbours
    side = N.Index(L, 0, N.Global(T.ANY, 0, "G_board__SIDES"), s)
    along = change(N.Binary(B, 2, "in", x, side))
    assert along.op == "and" and along.right.left.table == "G_board__ON_SIDE"
    assert along.right.left.index == N.Binary(I, 2, "+", N.Binary(I, 2, "*", s, N.Const(I, 0, 61)), x)
    assert isinstance(change(N.Binary(B, 2, "not in", x, side)), N.Not)
    first = change(N.Index(T.Type("cell", space="board"), 3, N.Upto(L, 0, N.Const(I, 0, 61)), N.Field(I, 0, "c_last")))
    assert isinstance(first, N.Cond) and first.then == N.Field(I, 0, "c_last")
    # a cell computed (read twice for nothing) or another grid's list: as it was
    computed = N.Binary(I, 0, "+", x, N.Const(I, 0, 1))
    assert change(N.Len(I, 1, N.NeighbourList(L, 0, "G_board__ADJ", 6, computed))) == \
        N.Len(I, 1, N.NeighbourList(L, 0, "G_board__ADJ", 6, computed))
    other = N.Binary(B, 2, "in", x, N.Index(L, 0, N.Global(T.ANY, 0, "G_other__SIDES"), s))
    assert change(other) is other


@pytest.mark.parametrize("shape", ["square", "hexagon", "triangle"])
def test_the_tables_hold_what_the_lists_would_give(shape):
    from regle.compiler.check import geometry
    from regle.runtime import ops
    geo = {"square": lambda: geometry.square(5, 4), "hexagon": lambda: geometry.hexagon(4),
           "triangle": lambda: geometry.triangle(6)}[shape]()
    adj = ops.table(geo.table())
    degrees = ops.degrees(adj, geo.cells)
    sides = geo.side_cells()
    on_side = ops.on_sides(sides, geo.cells)
    for c in range(geo.cells):
        assert degrees[c] == len(ops.neighbours(adj, len(adj) // geo.cells, c))
        for s, along in enumerate(sides):
            assert bool(on_side[s * geo.cells + c]) == (c in along)


# ---- natively: an aggregate's condition over a collection the same for every element ----------

HOIST = '''game "Hoist" {
  players 2
  max decisions 30
}

enum side { south, west, long_side }

grid board: player hex triangle 5 edges side

zone picked: int

counter last quiet = -1

turn {
  action place(c in empty_cells(board)) "{c}" {
    put me at c on board
    last = number(c)
  }
}

end when count(s for s in side where any(x in edge_cells(board, s) for x in chain(board, cells(board)[last]))) >= 2
    then winner me
end when count(k for k in picked where any(number(x) == k for x in chain(board, cells(board)[last]))) > 0 then draw
'''


def test_a_collection_the_same_for_every_element_is_made_once_natively():
    from regle.compiler.generate import native_source
    code = native_source(HOIST, "hoist.rules")
    assert code.count("_src = _CK.chain(") == 1  # the sides: made once before the walk
    assert "for x_ in _src:" in code
    # over a zone, which may be empty, the chain is made where it was (maybe never)
    assert code.count("_CK.chain(") == 2


def _same_games_on_both_engines(text: str, name: str, seeds: int = 30) -> None:
    """Seeded random games of a rules text on the Python and the native engine: the same legal
    moves (notations) at every decision, the same winners."""
    import random
    import regle
    games = [regle.loads(text, name=name, backend=b) for b in ("python", "native")]
    for seed in range(seeds):
        records = []
        for game in games:
            s = game.new_game(seed=seed)
            rng = random.Random(seed)
            notations = []
            while not s.over:
                notations.append(s.notations())
                s.play(rng.choice(s.legal_moves()))
            records.append((notations, s.winners))
        assert records[0] == records[1], seed


@pytest.mark.skipif(not __import__("regle").native.available(), reason="no C compiler")
def test_made_once_or_not_the_games_are_the_same():
    _same_games_on_both_engines(HOIST, "hoist")


# ---- natively: a seat's pieces scanned once for the actions that walk them --------------------

SCANS = '''game "Scans" {
  players 2
  max decisions 40
}

grid board: player square 5 by 5 with diagonals

counter frozen: bool

setup {
  for c in cells(board) where row(board, c) == 0 {
    put 0 at c on board
  }
  for c in cells(board) where row(board, c) == 4 {
    put 1 at c on board
  }
}

turn {
  action step(c in filled_cells(board, me), t in neighbours(board, c)) "{c}-{t}" {
    require is_empty(board, t)
    move c to t on board
  }
  action take(c in filled_cells(board, me), t in neighbours(board, c)) "{c}x{t}" {
    require not is_empty(board, t) and board[t] != me
    move c to t on board
  }
  action hop(c in filled_cells(board, me), t in neighbours(board, c)) "{c}!{t}" {
    require not frozen and is_empty(board, t)
    frozen = true
    move c to t on board
  }
}

end when count(board, 0) == 0 then winner 1
end when count(board, 1) == 0 then winner 0
end when turns >= 30 then draw
'''


def test_the_cells_of_a_scan_met_again_are_walked_from_the_first_ones_found():
    from regle.compiler.generate import native_source
    code = native_source(SCANS, "scans.rules")
    keys = code[code.index("cdef Py_ssize_t _keys_0"):]
    assert keys.count("_scan0[_nscan0] = c_") == 1  # the first scan keeps the cells it found
    assert keys.count("for _iscan0 in range(_nscan0):") == 2  # the other two walk them
    # under a guard a scan may not run: it keeps nothing (the next one at the top keeps them)
    guarded = native_source(SCANS.replace('''  action step(c in filled_cells(board, me), t in neighbours(board, c)) "{c}-{t}" {
    require is_empty(board, t)''', '''  action step(c in filled_cells(board, me), t in neighbours(board, c)) "{c}-{t}" {
    require not frozen and is_empty(board, t)'''), "scans.rules")
    keys = guarded[guarded.index("cdef Py_ssize_t _keys_0"):]
    guarded_step, rest = keys.split("# line 24", 1)
    assert "_scan" not in guarded_step.split("cdef long _nscan0")[1] and "_scan0[_nscan0] = c_" in rest


@pytest.mark.skipif(not __import__("regle").native.available(), reason="no C compiler")
def test_scanned_once_or_not_the_games_are_the_same():
    _same_games_on_both_engines(SCANS, "scans")
