"""compiler/passes/ensure_memo.py: an ``ensure`` read once in a position, its reads of the grid
noted, and a trial whose writes miss them taking the value remembered. Trees before and after,
what the pass leaves alone, the nodes it makes under the reference evaluator, and a game
played alike by the native engine (which remembers) and the Python engine (which does not)."""
from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from hypothesis import given, strategies as st

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import lower, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.ir.traverse import parts
from regle.compiler.passes import optimize
from regle.compiler.passes.ensure_memo import remember_ensures

ROOT = Path(__file__).resolve().parents[1]

#: a royal piece that may not be left attacked: by a rook along any line (a reach), a knight a
#: leap away, the other king next to it; the king found by a scan for it
GUARDS = """
game "Guards" {
  seats north, south
  max decisions 200
}

enum piece { king = "k", rook = "r", knight = "n" }

grid board: piece of player square 6 by 6 with diagonals

setup {
  put piece(king, 0) at cell(board, 2, 0) on board
  put piece(rook, 0) at cell(board, 0, 0) on board
  put piece(knight, 0) at cell(board, 4, 0) on board
  put piece(king, 1) at cell(board, 3, 5) on board
  put piece(rook, 1) at cell(board, 5, 5) on board
  put piece(knight, 1) at cell(board, 1, 5) on board
}

define open(t) = t != none and board[t].owner != me
define attacked(x, p) = any(any(board[y] == piece(rook, p) for y in reach(board, x, d)) for d in directions(board))
    or any(board[y] == piece(knight, p) for y in leaps(board, x, 1, 2))
    or any(board[y] == piece(king, p) for y in neighbours(board, x))
define safe() = not attacked(first(filled_cells(board, king, me)), 1 - me)

turn {
  action slide(c in filled_cells(board, rook, me), d in directions(board), t in reach(board, c, d)) "{c}{t}" {
    require open(t)
    move c to t on board
    ensure safe()
  }
  action hop(c in filled_cells(board, me), t in leaps(board, c, 1, 2) + neighbours(board, c)) "{c}{t}" {
    require open(t) and board[c].kind != rook
    require (t in neighbours(board, c)) == (board[c].kind == king)
    move c to t on board
    ENSURE
  }
}

end when stuck and not safe() then winner 1 - me
end when stuck then draw
end when turns >= 100 then draw
"""


def _remembered(text: str):
    return remember_ensures(optimize(lower(text, native=True)))


def _kinds(tree) -> set:
    found = {type(tree).__name__} if isinstance(tree, N.Node) else set()
    for p in parts(tree):
        found |= _kinds(p)
    return found


def test_chess_trials_share_one_memo_of_the_kings_safety():
    ir = _remembered((ROOT / "games/classics/chess.rules").read_text(encoding="utf-8"))
    assert [fp.memo for fp in ir.footprints] == [0] and ir.footprints[0].grid == "g_board"
    names = {f[0] for f in ir.functions}
    assert {"fn__safe__noted0", "fn__attacked__noted0", "fn__sweeps__noted0"} <= names
    twin = next(f for f in ir.functions if f[0] == "fn__attacked__noted0")
    assert {"Noted", "NotedEq"} <= _kinds(twin[3][0])  # rays read whole, knights and kings compared
    assert "NotedScan" in _kinds(next(f for f in ir.functions if f[0] == "fn__safe__noted0")[3][0])
    by_name = {a.name: a for a in ir.actions}
    for name in ("slide", "hop", "pawn", "double", "promote"):
        body = by_name[name].ensure_lines[1]
        assert "_remember0" in repr(body[0]) and "_missed0" in repr(body[-2]), name
    # a pawn's trial clears the en passant square (a counter kept whole and put back, which
    # the condition does not read) and may clear a third cell, in a branch: remembered too
    assert "_keep_c_passant" in repr(by_name["pawn"].ensure_lines[0])
    assert repr(by_name["pawn"].ensure_lines[1][-2]).count("_missed0") == 3
    # the generator forgets the memo as it starts
    assert "_memo0" in repr(ir.steps[0].move_lines[0])


def test_the_python_engine_remembers_too_but_walks_no_slide():
    """The Python engine's walk is the kernel's list: a reach's is every cell it read, a
    slide's leaves out the filled cell that stopped it, so a condition walking a slide is left
    alone there (natively the walk itself notes that cell)."""
    python = remember_ensures(optimize(lower(GUARDS.replace("ENSURE", "ensure safe()"))))
    assert [fp.memo for fp in python.footprints] == [0]
    sliding = GUARDS.replace("ENSURE", "ensure safe()").replace("for y in reach(board, x, d)",
                                                                "for y in slide(board, x, d)")
    assert remember_ensures(optimize(lower(sliding))).footprints == []
    assert len(remember_ensures(optimize(lower(sliding, native=True))).footprints) == 1


@pytest.mark.parametrize("ensure", ["ensure not attacked(t, 1 - me)",  # reads the move's own cell
                                    "ensure count(board) > 2 and safe()",  # the grid given whole to a kernel
                                    ])
def test_conditions_a_memo_cannot_follow_are_left_alone(ensure):
    ir = _remembered(GUARDS.replace("ENSURE", ensure))
    hop = next(a for a in ir.actions if a.name == "hop")
    slide = next(a for a in ir.actions if a.name == "slide")
    assert "_remember" not in repr(hop.ensure_lines)
    assert "_remember0" in repr(slide.ensure_lines)  # the other action's own ensure still is


@given(st.integers(-3, 300), st.integers(-3, 300), st.sampled_from(["==", "!="]), st.booleans())
def test_noted_nodes_have_the_values_of_what_they_note(code, value, op, element):
    """The reference evaluator: a noted read is the read, a noted comparison the comparison."""
    read = N.Const(T.INT, 0, code)
    left = N.Element(T.INT, 0, read) if element else read
    plain = N.Binary(T.BOOL, 0, op, left, N.Const(T.INT, 0, value))
    noted = N.NotedEq(T.BOOL, 0, 0, 64, N.Const(T.INT, 0, 3), op, left, N.Const(T.INT, 0, value), int(element))
    assert evaluate(noted) == evaluate(plain)
    assert evaluate(N.Noted(T.INT, 0, 0, read, 64, N.Const(T.INT, 0, 3))) == code


def test_the_native_engine_writes_the_memo():
    source = native_source(GUARDS.replace("ENSURE", "ensure safe()"), "guards.rules", "guards")
    assert "_remember0" in source and "_missed0(_at0, _was0)" in source and "_noted_eq(" in source


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_game_with_a_remembered_ensure_plays_as_the_same_rules_read_at_every_trial(backend):
    """Discovered attacks, blocks, a king that moves, captures: 300 seeded random games, the
    legal moves at every node the same as the rules' whose condition also reads the move's own
    cell (``or t == none``, never true: no memo), on each engine (a memo trusted where a write met
    a ray the condition read makes every one of these games differ)."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    memo = GUARDS.replace("ENSURE", "ensure safe()")
    plain = memo.replace("ensure safe()", "ensure safe() or t == none")
    assert "_remember0" not in repr(remember_ensures(optimize(lower(plain, native=backend == "native"))).actions)
    remembered, reference = (regle.loads(text, name=f"guards_{k}", backend=backend)
                             for k, text in (("memo", memo), ("plain", plain)))
    nodes, decided = play_alike(reference, remembered, 300 if backend == "native" else 60)
    assert nodes > 2_000 and (decided > 0 or backend == "python")  # long games, and (300 of them) some mates


def test_a_trial_called_outside_the_move_generators_is_left_alone():
    """The memo is forgotten as each move generator starts: a trial called anywhere else (here
    an end condition made to call the first action's) could read a memo of another position."""
    ir = optimize(lower((ROOT / "games/classics/chess.rules").read_text(encoding="utf-8"), native=True))
    first = ir.actions[0]
    called = attrs.evolve(ir, end_conds=[*ir.end_conds, ("# a test", N.Method(T.BOOL, 0, f"_ensure_{first.index}", ()))])
    after = remember_ensures(called)
    assert "_remember" not in repr(next(a for a in after.actions if a.index == first.index).ensure_lines)
    assert "_remember0" in repr(next(a for a in after.actions if a.name == "hop").ensure_lines)


#: the hop's trial reads a counter, clears a cell in a branch, then writes the counter (which it
#: keeps whole and puts back, as a pawn's trial does the en passant square); the condition
#: reads the counter or not
MARKED = GUARDS.replace("define open(t)", "counter mark: cell of board quiet\n\ndefine open(t)").replace(
    "    move c to t on board\n    ENSURE",
    "    if t == mark {\n      clear t on board\n    }\n    mark = c\n    move c to t on board\n    ENSURE")


@pytest.mark.parametrize("ensure, remembered", [("ensure safe()", True),
                                                ("ensure safe() and (mark == none or is_empty(board, mark))", False)])
def test_a_trial_that_keeps_a_counter_is_remembered_only_where_the_condition_does_not_read_it(ensure, remembered):
    ir = _remembered(MARKED.replace("ENSURE", ensure))
    hop = next(a for a in ir.actions if a.name == "hop")
    assert "_keep_c_mark" in repr(hop.ensure_lines[0])  # the trial keeps the counter whole
    assert ("_remember" in repr(hop.ensure_lines)) == remembered


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("ensure", ["ensure safe()", "ensure safe() and (mark == none or is_empty(board, mark))"])
def test_a_trial_that_keeps_a_counter_plays_as_the_rules_read_at_every_trial(backend, ensure):
    """A counter the trial writes (kept and put back): where the condition does not read it
    the memo stands and the games are those of the rules read at every trial; where it does
    (the trial sets ``mark`` to the cell it empties, so the condition is safe() in every trial;
    in the position, ``mark`` may be a cell a piece has since moved to) a memo would refuse
    hops the rules allow, and the games would differ."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = MARKED.replace("ENSURE", ensure)
    plain = text.replace(ensure, ensure + " or t == none")
    reference, tested = (regle.loads(t, name=f"marked_{k}_{len(ensure)}", backend=backend)
                         for k, t in (("plain", plain), ("memo", text)))
    nodes, _decided = play_alike(reference, tested, 150 if backend == "native" else 40)
    assert nodes > 1_000
