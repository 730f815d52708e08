"""compiler/passes/one_walk.py: ``any(A for y in S) or any(B for y in S)`` over a cell's
neighbours (leaps) walks them once, ``any(A or B for y in S)`` (``all`` and ``and`` alike).
Trees before and after, the same value under the reference evaluator on random boards, tables
and tests, what the pass leaves alone, and games played alike by rules it changes and the same
rules phrased so that it cannot, on both engines."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import engine_source, lower
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.passes import bottom_up, optimize
from regle.compiler.passes.one_walk import walk_once
from test_ensure_memo import GUARDS

I, B, C = T.INT, T.BOOL, T.Type("cell", space="board")
GRID = N.Field(T.Type("grid", elem=T.PLAYER, space="board"), 0, "g_board")
CELLS, DEGREE = 6, 4


def _around(table: str = "G_ADJ", centre: str = "x_") -> N.NeighbourList:
    return N.NeighbourList(T.list_of(C), 0, table, DEGREE, N.Local(C, 0, centre))


def _code(var: str = "y_") -> N.Expr:
    return N.CellRead(I, 0, GRID, N.Local(C, 0, var))


def _holds(k: int, var: str = "y_") -> N.Expr:
    return N.Binary(B, 0, "==", _code(var), N.Const(I, 0, k))


def _agg(func: str, elem: N.Expr, var: str = "y_", source=None, cond=None) -> N.Aggregate:
    return N.Aggregate(B, 0, func, var, source or _around(), elem, cond, lazy=True)


def _env(board, table, rows, x):
    return {"s.g_board": board, "G_ADJ": table, "G_ROWS": rows, "x_": x, "p_": 1}


ENV = _env([0, 1, 2, 0, 2, 1], [1, 2, -1, 3, 0, 4, 5, -1, 1, -1, -1, 5, 2, 3, 4, 0, 5, 5, 5, 5, 0, 1, 2, 3],
           [0, 0, 1, 1, 2, 2], 0)


def test_two_anys_over_a_cells_neighbours_become_one_walk():
    """The king and the pawn next to x: one walk, both tests at each cell, the same truth."""
    tree = N.Binary(B, 0, "or", _agg("any", _holds(2)), _agg("any", _holds(3)))
    after = bottom_up(tree, walk_once([]))
    assert isinstance(after, N.Aggregate) and after.func == "any" and after.source == _around()
    assert after.elem == N.Binary(B, 0, "or", _holds(2), _holds(3))
    for x in range(CELLS):
        env = {**ENV, "x_": x}
        assert evaluate(after, env) == evaluate(tree, env)


def test_the_last_two_of_a_chain_meet_and_a_second_name_is_read_as_the_first():
    """``X or any(A) or any(B)`` parses as ``(X or any(A)) or any(B)``: the two anys meet; the
    second walk's name for its cell (z) is read as the first's."""
    first = N.Binary(B, 0, "==", N.Local(I, 0, "x_"), N.Const(I, 0, 4))
    tree = N.Binary(B, 0, "or", N.Binary(B, 0, "or", first, _agg("any", _holds(2))), _agg("any", _holds(1, "z_"), "z_"))
    after = bottom_up(tree, walk_once([]))
    assert after.left == first and isinstance(after.right, N.Aggregate) and after.right.var == "y_"
    assert after.right.elem == N.Binary(B, 0, "or", _holds(2), _holds(1))


def test_two_alls_joined_by_and_and_where_clauses_folded_in():
    cond = N.Binary(B, 0, "!=", _code(), N.Const(I, 0, 0))
    tree = N.Binary(B, 0, "and", _agg("all", _holds(2), cond=cond), _agg("all", _holds(1), cond=cond))
    after = bottom_up(tree, walk_once([]))
    assert isinstance(after, N.Aggregate) and after.func == "all" and after.cond is None
    for x in range(CELLS):
        env = {**ENV, "x_": x}
        assert evaluate(after, env) == evaluate(tree, env)


@pytest.mark.parametrize("case", ["other source", "other centre", "a test that can fail", "another cell read",
                                  "any and all", "any with and", "count", "the centre's name bound", "name taken"])
def test_what_the_pass_cannot_join_is_left_alone(case):
    a, b = _agg("any", _holds(2)), _agg("any", _holds(3))
    op = "or"
    if case == "other source":
        b = _agg("any", _holds(3), source=_around("G_LEAP"))
    elif case == "other centre":
        b = _agg("any", _holds(3), source=_around(centre="w_"))
    elif case == "a test that can fail":  # a division: asked of a cell the first walk never reached
        b = _agg("any", N.Binary(B, 0, "==", N.Binary(I, 0, "//", N.Const(I, 0, 6), _code()), N.Const(I, 0, 3)))
    elif case == "another cell read":  # board[w]: w could be none
        b = _agg("any", N.Binary(B, 0, "==", _code("w_"), _code()))
    elif case == "any and all":
        b = _agg("all", _holds(3))
    elif case == "any with and":
        op = "and"
    elif case == "count":
        b = N.Aggregate(I, 0, "count", "y_", _around(), _holds(3), None)
    elif case == "the centre's name bound":
        a, b = (_agg("any", _holds(k, "x_"), "x_") for k in (2, 3))
    elif case == "name taken":  # the second walk reads y_ as another name: renaming z_ would clash
        b = _agg("any", N.Binary(B, 0, "==", _code("z_"), _code("y_")), "z_")
    tree = N.Binary(B, 0, op, a, b)
    assert bottom_up(tree, walk_once([])) == tree


# what a random test may be: a cell of the walk's code, its row (and the centre's), numbers
def _tests(draw, depth: int = 2) -> N.Expr:
    kind = draw(st.integers(0, 3 if depth else 1))
    if kind == 0:
        return N.Binary(B, 0, draw(st.sampled_from(["==", "!=", "<", ">="])), _code(), N.Const(I, 0, draw(st.integers(0, 3))))
    if kind == 1:
        rows = N.Binary(I, 0, "-", N.Geometry(I, 0, "G_ROWS", N.Local(C, 0, "x_")), N.Geometry(I, 0, "G_ROWS", N.Local(C, 0, "y_")))
        return N.Binary(B, 0, "==", rows, N.Binary(I, 0, "*", N.Local(I, 0, "p_"), N.Const(I, 0, draw(st.integers(-1, 1)))))
    if kind == 2:
        return N.Not(B, 0, _tests(draw, depth - 1))
    return N.Binary(B, 0, draw(st.sampled_from(["and", "or"])), _tests(draw, depth - 1), _tests(draw, depth - 1))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_one_walk_keeps_the_value_on_random_boards_tables_and_tests(data):
    draw = data.draw
    func = draw(st.sampled_from(["any", "all"]))
    conds = [_tests(draw, 1) if draw(st.booleans()) else None for _ in range(2)]
    tree = N.Binary(B, 0, "or" if func == "any" else "and",
                    _agg(func, _tests(draw), cond=conds[0]), _agg(func, _tests(draw), cond=conds[1]))
    after = bottom_up(tree, walk_once([]))
    assert isinstance(after, N.Aggregate)  # every such test is total: the pass always applies
    board = draw(st.lists(st.integers(0, 3), min_size=CELLS, max_size=CELLS))
    table = draw(st.lists(st.integers(-1, CELLS - 1), min_size=CELLS * DEGREE, max_size=CELLS * DEGREE))
    rows = draw(st.lists(st.integers(0, 2), min_size=CELLS, max_size=CELLS))
    for x in range(CELLS):
        env = _env(board, table, rows, x)
        assert evaluate(after, env) == evaluate(tree, env)


#: a knight next to x that stands on another row attacks it too (a test of a walk's cell and its row)
NEAR = "any(board[y] == piece(king, p) for y in neighbours(board, x))"
NEXT = NEAR + "\n    or any(board[y] == piece(knight, p) and row(board, y) != row(board, x) for y in neighbours(board, x))"
#: the same, phrased so that the pass cannot join them (a division: it could fail)
PLAIN = NEXT.replace("row(board, y) != row(board, x)", "row(board, y) // 1 != row(board, x)")


def _attacked(text: str) -> N.Expr:
    ir = optimize(lower(text), until="one_walk")
    return next(body[0] for name, _p, _c, body, _s in ir.functions if name == "fn__attacked")


def test_the_guards_attack_test_walks_the_neighbours_once():
    text = GUARDS.replace("ENSURE", "ensure safe()").replace(NEAR, NEXT)
    walks = [n for n in _walk_or(_attacked(text)) if isinstance(n, N.Aggregate) and isinstance(n.source, N.NeighbourList)]
    assert [w.source.table for w in walks] == ["G_board__LEAP_1_2", "G_board__ADJ"]
    plain = [n for n in _walk_or(_attacked(text.replace(NEXT, PLAIN))) if isinstance(n, N.Aggregate)]
    assert len(plain) == 4  # the rays, the leaps, the neighbours twice
    assert engine_source(text, "g.rules", "g").count("G_board__ADJ_AROUND[x_]") == 2  # the define and its noted twin


def _walk_or(tree):
    if isinstance(tree, N.Binary) and tree.op == "or":
        return [*_walk_or(tree.left), *_walk_or(tree.right)]
    return [tree]


@pytest.mark.parametrize("backend", ["python", "native"])
def test_games_are_those_of_the_rules_the_pass_cannot_change(backend):
    """Seeded games alike with the attack test walked once and with it phrased so that the pass
    cannot join the walks, on each engine (the remembered ensure reads the joined walk too)."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = GUARDS.replace("ENSURE", "ensure safe()").replace(NEAR, NEXT)
    reference, tested = (regle.loads(t, name=f"walks_{k}", backend=backend)
                         for k, t in (("plain", text.replace(NEXT, PLAIN)), ("joined", text)))
    nodes, _decided = play_alike(reference, tested, 150 if backend == "native" else 40)
    assert nodes > 1_000
