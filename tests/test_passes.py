"""The optimization passes shared by both engines (compiler/passes), each on its own: trees
before and after, and the same value under the reference evaluator (compiler/evaluate.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from regle.compiler import nodes as N
from regle.compiler import types as T
from regle.compiler.evaluate import evaluate
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
