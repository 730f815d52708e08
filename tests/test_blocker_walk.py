"""compiler/passes/blocker_walk.py: a walk along a direction inside ``any`` (``all``) whose test
fails (holds) on every empty cell tests only the filled cell it stops on. Trees before and
after, what the pass leaves alone, and games played alike by rules the pass changes and the
same rules phrased so that it cannot, on both engines."""
from __future__ import annotations

import pytest

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import engine_source, lower, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir.traverse import walk
from regle.compiler.passes import optimize
from test_ensure_memo import GUARDS

#: a rook's line of attack, as GUARDS writes it (the test fails on an empty cell)
RAY = "board[y] == piece(rook, p)"
#: the first direction from t holds a cell not of the opponent's (the test holds on an empty cell)
SEEN = "any(board[y].owner != 1 - me for y in reach(board, t, \"n\"))"


def _walks(text: str) -> list[N.Slide]:
    ir = optimize(lower(text), until="blocker_walk")
    found = []
    for f in ir.functions:
        found += [n for n in walk(f[3][0]) if isinstance(n, N.Slide)]
    for a in ir.actions:
        for tree in (a.ensure_lines or ())[1:2]:
            for st in tree:
                found += [n for n in walk(getattr(st, "value", None)) if isinstance(n, N.Slide)] \
                    if isinstance(getattr(st, "value", None), N.Expr) else []
    return found


def test_a_ray_whose_test_fails_on_an_empty_cell_tests_the_piece_it_meets_alone():
    [ray] = _walks(GUARDS.replace("ENSURE", "ensure safe()"))
    assert ray.kind == "reach" and ray.empties is not None
    assert not any(isinstance(n, N.CellRead) for n in walk(ray.empties))  # the test on an empty cell
    python = engine_source(GUARDS.replace("ENSURE", "ensure safe()"), "g.rules", "g")
    assert "K.met(" in python and " else K.met(" in python
    native_text = native_source(GUARDS.replace("ENSURE", "ensure safe()"), "g.rules", "g")
    assert "_all or _steps" in native_text


@pytest.mark.parametrize("test", [
    f"{RAY} and y != none",  # reads the cell itself, not only what it holds
    "board[y].owner // 1 == p and board[y].kind == rook",  # a division: computed before the walk, it could fail
    "board[x] == piece(rook, p) and board[y] == piece(rook, p)",  # another cell read: it could be none
])
def test_walks_the_pass_cannot_follow_are_left_alone(test):
    text = GUARDS.replace("ENSURE", "ensure safe()").replace(RAY, test)
    assert [w.empties for w in _walks(text)] == [None]


def test_a_count_along_a_walk_is_left_alone():
    text = GUARDS.replace("ENSURE", "ensure safe()").replace(
        f"any({RAY} for y in reach(board, x, d))", f"count(y for y in reach(board, x, d) where {RAY}) > 1")
    assert [w.empties for w in _walks(text)] == [None]


@pytest.mark.parametrize("backend", ["python", "native"])
def test_games_are_those_of_the_rules_the_pass_cannot_change(backend):
    """Rays that fail on empty cells (the king's safety), and a walk whose test holds on one
    (a move is legal only if the first line from its square shows a cell not the opponent's:
    every empty cell counts there): 150 seeded games alike with the same rules phrased so that
    no walk is changed (``and y != none``), on each engine. Testing the met piece alone where
    an empty cell can decide makes these games differ."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = GUARDS.replace("ENSURE", f"ensure safe() and {SEEN}")
    plain = text.replace(RAY, f"{RAY} and y != none").replace("!= 1 - me for", "!= 1 - me and y != none for")
    assert [w.empties is None for w in _walks(text)] == [False, False]
    assert all(w.empties is None for w in _walks(plain))
    reference, tested = (regle.loads(t, name=f"rays_{k}", backend=backend) for k, t in (("plain", plain), ("pass", text)))
    nodes, _decided = play_alike(reference, tested, 150 if backend == "native" else 40)
    assert nodes > 1_000
