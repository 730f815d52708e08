"""The fold pass (compiler/passes/fold.py): what a pass made known when compiling, worked out.

Trees before and after, the same value under the reference evaluator on random trees with their
names made numbers (as seats written out makes them), and the written-out seats of a shipped game
as an author would write them seat by seat."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from regle.compiler.generate import engine_source, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.ir.traverse import parts, put_local
from regle.compiler.passes import bottom_up
from regle.compiler.passes.fold import fold_known

from test_ir import Trees
from test_passes import ENV

I, B = T.INT, T.BOOL


def c(v):
    return N.Const(B if isinstance(v, bool) else I, 0, v)


def x(name="a"):
    return N.Local(I, 0, name)


def folded(tree):
    return bottom_up(tree, fold_known)


def test_a_seats_copy_of_a_conditional_is_the_branch_its_seat_takes():
    # goal(p) = if p == 0 then 2 else 0, written out for seat 0 and seat 1
    goal = N.Cond(I, 0, N.Binary(B, 0, "==", x("p"), c(0)), c(2), c(0))
    assert folded(put_local(goal, "p", c(0))) == c(2)
    assert folded(put_local(goal, "p", c(1))) == c(0)


def test_arithmetic_comparisons_truths_and_calls_of_numbers_are_worked_out():
    assert folded(N.Binary(I, 0, "+", c(0), c(1))) == c(1)
    assert folded(N.Binary(I, 0, "//", c(-7), c(2))) == c(-4)
    assert folded(N.Binary(B, 0, "<", c(3), c(2))) == c(False)
    assert folded(N.Not(B, 0, N.Binary(B, 0, "!=", c(1), c(1)))) == c(True)
    assert folded(N.Neg(I, 0, N.Binary(I, 0, "*", c(3), c(4)))) == c(-12)
    assert folded(N.Call(I, 0, "max", (c(2), N.Binary(I, 0, "-", c(9), c(4))))) == c(5)
    assert folded(N.Number(I, 0, N.Binary(B, 0, ">=", c(2), c(2)))) == c(1)
    # `true and E` is E, `false or E` is E, `false and E` false, `true or E` true
    e = N.Binary(B, 0, ">", x(), c(0))
    assert folded(N.Binary(B, 0, "and", c(True), e)) == e
    assert folded(N.Binary(B, 0, "or", c(False), e)) == e
    assert folded(N.Binary(B, 0, "and", c(False), e)) == c(False)
    assert folded(N.Binary(B, 0, "or", c(True), e)) == c(True)


def test_a_number_keeps_the_type_it_had():
    # a seat's code on the board (`me + 1` with me a number): the folded number is typed as the sum was
    code = T.list_of(I)  # any type other than a plain number shows it
    tree = N.Binary(code, 0, "+", c(1), c(1))
    after = folded(tree)
    assert after == N.Const(code, 0, 2)


def test_what_is_not_known_or_would_fail_is_left_as_it_is():
    for tree in (N.Binary(I, 0, "+", x(), c(1)),  # a name
                 N.Binary(I, 0, "//", c(1), c(0)),  # a division by zero: the engine's to report
                 N.Binary(I, 0, "%", c(5), c(0)),
                 N.Binary(I, 0, "*", c(2 ** 40), c(2 ** 40)),  # past the largest number folded
                 N.Binary(B, 0, "and", x(), c(True)),  # the truth on the right: E's own value
                 N.Cond(I, 0, N.Binary(B, 0, ">", x(), c(0)), c(1), c(2)),
                 N.Binary(B, 0, "in", c(1), N.ListOf(T.list_of(I), 0, (c(1),)))):
        assert folded(tree) is tree  # nothing rebuilt where nothing folds


def _knowable(tree) -> bool:
    """Whether a node of ``tree`` has only constants below it where fold_known works it out."""
    if fold_known(tree) is not tree:
        return True
    return any(_knowable(p) for p in parts(tree) if isinstance(p, N.Expr))


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_folding_keeps_the_value_of_random_trees_with_their_names_made_numbers(data):
    trees = Trees(data.draw)
    tree = trees.number(4) if trees.pick(2) else trees.truth(4)
    for name in ("a", "b"):  # what seats written out does: a name becomes a number
        if trees.pick(2):
            tree = put_local(tree, name, c(ENV[name]))
    try:
        want = evaluate(tree, dict(ENV))
    except (ArithmeticError, IndexError, ValueError) as exc:
        want = type(exc)
    after = folded(tree)
    try:
        got = evaluate(after, dict(ENV))
    except (ArithmeticError, IndexError, ValueError) as exc:
        got = type(exc)
    assert got == want
    assert folded(after) == after  # a fixed point
    assert not _knowable(after)  # and nothing left that it would work out


def test_the_seats_written_out_read_as_written_seat_by_seat():
    """Quoridor's `ensure all(reachable(board, pawn(p), goal(p), fence) for p in players)`:
    written out, each seat's goal is its side's number, not `if 0 == 0 then ...` asked again
    (the phrasing pair ways-all-or-each)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "games/classics/quoridor.rules").read_text(encoding="utf-8")
    for source in (engine_source(text, name="quoridor"), native_source(text, name="quoridor")):
        assert "SIDE_MASKS[2]" in source and "SIDE_MASKS[0]" in source
        assert " if 0 == 0 " not in source and " if 1 == 0 " not in source
        assert "0 + 1" not in source and "1 + 1" not in source  # a seat's code on the board, as a number
