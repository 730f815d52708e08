"""compiler/passes/same_guards.py: guards side by side in a move generator that test the same
pure tree become one guard holding both bodies, so that the test is made once and what both
bodies ask is shared (compiler/passes/shared_calls.py looks into a guard's body). Trees before
and after, what the pass leaves alone, and games played alike with it and without on both
engines."""
from __future__ import annotations

from pathlib import Path

import pytest

import regle
from conftest import play_alike
from regle.compiler.generate import engine_source, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.passes.same_guards import merge_guards
from regle.compiler.passes.shared_calls import share_calls
from regle.compiler.write.moves import AddMove, Guard, Scan

ROOT = Path(__file__).resolve().parents[1]
MORRIS = (ROOT / "games/classics/morris.rules").read_text(encoding="utf-8")
ME = N.Local(T.PLAYER, 0, "me")
BOARD = N.Field(T.Type("grid", space="board"), 0, "g_board")
HAND = N.Slot(T.INT, 0, "hand", ME, N.Field(T.INT, 0, "n"))


def _test(line: int, value: int) -> N.Expr:
    return N.binary("==", HAND, N.Const(T.INT, 0, value), T.BOOL, line)


def _men(line: int) -> N.Expr:
    return N.CountValue(T.INT, line, BOARD, N.binary("+", ME, N.Const(T.INT, 0, 1), T.INT, line))


def test_guards_side_by_side_with_the_same_test_become_one_and_their_count_is_shared():
    move = Guard(2, _test(2, 0), (Guard(2, N.binary(">", _men(2), N.Const(T.INT, 0, 3), T.BOOL, 2), (AddMove(2, 1, ()),)),))
    fly = Guard(5, _test(5, 0), (Guard(5, N.binary("==", _men(5), N.Const(T.INT, 0, 3), T.BOOL, 5), (AddMove(5, 2, ()),)),))
    note = S.Comment(4, "# line 4: action fly")
    out = merge_guards((move, note, fly))
    assert len(out) == 1 and out[0].test == move.test  # (a rules line apart: the same test)
    assert out[0].body == (move.body[0], note, fly.body[0])  # in order, the comment before what it named
    shared, made = share_calls(out)
    assert made == ["_call0"]
    body = shared[0].body
    assert isinstance(body[0], S.Assign) and isinstance(body[0].value, N.CountValue)
    assert repr(body).count("CountValue(") == 1 and repr(body).count("name='_call0'") == 3


def test_other_tests_a_statement_between_or_a_test_that_is_not_a_read_are_left_alone():
    a, b = Guard(1, _test(1, 0), (AddMove(1, 0, ()),)), Guard(2, _test(2, 1), (AddMove(2, 1, ()),))
    assert merge_guards((a, b)) == (a, b)
    scan = Scan(3, "t_", N.Local(T.ANY, 0, "_src0"), (AddMove(3, 2, ()),))
    again = Guard(4, _test(4, 0), (AddMove(4, 3, ()),))
    assert merge_guards((a, scan, again)) == (a, scan, again)
    trial = N.Method(T.BOOL, 0, "_ensure_0", ())  # a method: a trial counts its work, a memo may change
    tried = (Guard(1, trial, (AddMove(1, 0, ()),)), Guard(2, trial, (AddMove(2, 1, ()),)))
    assert merge_guards(tried) == tried
    inner = (Guard(6, _test(6, 2), (AddMove(6, 4, ()),)), Guard(7, _test(7, 2), (AddMove(7, 5, ()),)))
    nested = merge_guards((Scan(5, "c_", N.Local(T.ANY, 0, "_src1"), inner),))
    assert len(nested[0].body) == 1 and len(nested[0].body[0].body) == 2  # inside a loop's body too


def test_morris_counts_a_seats_men_once_when_its_hand_is_empty():
    for source, start, count in ((native_source(MORRIS, "morris.rules"), "_keys_0(s", "_CK.count_byte("),
                                 (engine_source(MORRIS, "morris.rules"), "_moves_0(s", "g_board.count(")):
        keys = source[source.index(start):source.index("_moves_1(s")]
        assert keys.count(count) == 1 and keys.count("_call0 + ") == 2


@pytest.mark.parametrize("backend", ["python", "native"])
def test_games_alike_with_the_pass_and_without(backend, monkeypatch):
    """Morris with its guards made one and without (the pass made the identity; the text marked
    by a comment so that the engine is cached as its own): the same legal moves and ids at
    every node of seeded games, which reach the moves and flights behind the shared guard."""
    if backend == "native":
        from regle import native
        if not native.available():
            pytest.skip(native.unavailable_reason())
    from regle.compiler.write import written
    tested = regle.loads(MORRIS, name="same_guards", backend=backend)
    merged = engine_source(MORRIS, "m.rules").count("g_board.count(")
    monkeypatch.setattr(written, "merge_guards", lambda items: tuple(items))
    marked = MORRIS + "\n# each guard tested where it is written\n"
    reference = regle.loads(marked, name="same_guards_not", backend=backend)
    assert engine_source(marked, "m.rules").count("g_board.count(") == merged + 1
    nodes, _decided = play_alike(reference, tested, 12 if backend == "native" else 4, ids=True)
    assert nodes > 400
