"""compiler/passes/ensure_memo.py: an ``ensure`` read once in a position, its reads of the grid
noted, and a trial whose writes miss them taking the value remembered. Trees before and after,
what the pass leaves alone, the nodes it makes under the reference evaluator, and a game
played alike by the native engine (which remembers) and the Python engine (which does not)."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings, strategies as st

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
    assert "_remember0" in source and "_missed0(s, _at0, _was0)" in source and "_noted_eq(" in source
    # the test of a write a function of the module, inline in each trial (no method looked up)
    assert "cdef inline bint _missed0(_Core s, long at, long was) except -1:" in source


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


# ---- x-ray: a walk that looks past the cell that stopped it ------------------------------------
def _xray_walks(tree) -> list:
    """The walks in ``tree`` that look past the cell that stopped them (Slide.xray set)."""
    found = [tree] if isinstance(tree, N.Slide) and tree.xray is not None else []
    for p in parts(tree):
        found += _xray_walks(p)
    return found


def test_a_walk_whose_test_reads_only_its_cell_looks_past_the_cell_that_stopped_it():
    """Natively, ``any(... for y in reach(board, x, d))`` whose test reads the board at y alone
    (chess's sweepers, the rooks of GUARDS) is an x-ray walk of the memo; the Python engine's
    reach is a kernel's list (no x-ray), and a walk whose test reads another cell, has a
    ``where`` or is an ``all`` is left as it was."""
    for text in (GUARDS.replace("ENSURE", "ensure safe()"), (ROOT / "games/classics/chess.rules").read_text(encoding="utf-8")):
        ir = _remembered(text)
        assert [fp.xray for fp in ir.footprints] == [True]
        twin = next(f for f in ir.functions if f[0] == "fn__attacked__noted0")
        walks = _xray_walks(twin[3][0])
        assert len(walks) == 1 and walks[0].kind == "reach" and walks[0].noted == 0
        assert "Noted" not in _kinds(walks[0].xray)  # the test past the cell reads plainly
        assert not _xray_walks([f[3][0] for f in ir.functions if "__noted" not in f[0]])  # only the memo's twins
        python = remember_ensures(optimize(lower(text)))
        assert python.footprints and not any(fp.xray for fp in python.footprints)
        assert not _xray_walks([f[3][0] for f in python.functions])
    rook = "any(board[y] == piece(rook, p) for y in reach(board, x, d))"
    for other in ("any(board[y] == piece(rook, p) and board[x] != none for y in reach(board, x, d))",  # reads x too
                  "any(board[y] == piece(rook, p) for y in reach(board, x, d) where y != x)",  # a where
                  "not all(board[y] != piece(rook, p) for y in reach(board, x, d))"):  # an all
        ir = _remembered(GUARDS.replace("ENSURE", "ensure safe()").replace(rook, other))
        assert [fp.xray for fp in ir.footprints] == [False], other


def test_the_native_engine_looks_past_the_cell_and_reads_it_again_when_a_trial_writes_past_it():
    source = native_source((ROOT / "games/classics/chess.rules").read_text(encoding="utf-8"), "chess.rules", "chess")
    assert "s._xc0[_steps1_xb] |= 2" in source and "s._xc0[y_] |= 1" in source
    assert "s._xmark0 = 0" in source and "s._xmark0 != 3" in source and "cdef char _xc0[64]" in source


def test_an_en_passant_that_empties_the_cell_that_stopped_a_walk_and_the_cell_past_it_is_read_again():
    """White king a5, white pawn e5, black pawn d5 (just moved two), black rook h5: the rook's
    line to the king along the fifth row is stopped by the pawn on d5 (which attacks nothing
    there), then by the pawn on e5. exd6 empties both: the position's memo would say safe, the
    rules say the king is left attacked. Natively (x-ray) and in the Python engine alike: not
    a legal move; its twin with nothing behind (no rook) is."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from perft import from_fen
    text = (ROOT / "games/classics/chess.rules").read_text(encoding="utf-8")
    backends = ["python"] + (["native"] if native.available() else [])
    for backend in backends:
        game = regle.loads(text, name="chess", backend=backend)
        pinned = from_fen(game, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2").notations()
        free = from_fen(game, "8/8/8/K2pP3/8/8/8/7k w - d6 0 2").notations()
        assert "e5d6" not in pinned and "e5e6" in pinned, backend
        assert "e5d6" in free, backend


@functools.cache
def _guards_module():
    """The Python engine's module of GUARDS (its helpers are the native ones' twins)."""
    state = regle.loads(GUARDS.replace("ENSURE", "ensure safe()"), name="guards_marks", backend="python").new_game(seed=1)
    return sys.modules[type(state).__module__]


@settings(deadline=None)
@given(st.lists(st.integers(-2, 300), max_size=4), st.integers(0, 300), st.integers(0, 300))
def test_a_cell_compared_with_one_code_or_two_is_missed_only_when_a_comparison_changes(codes, was, now):
    """The marks of a cell compared with codes (``_noted_eq``, the Python engine's twin of the
    native one, the same lines): a trial changing the cell from ``was`` to ``now`` leaves the
    memo standing (``_truth_moved`` false) only when every comparison made reads as before;
    past two codes (or a code no byte holds) the cell is read whole (-1)."""
    module = _guards_module()
    seen = [0]
    for code in codes:
        assert module._noted_eq(seen, 0, 1, 7, code, 1) == (7 == code)
    mark, distinct = seen[0], set(codes)
    if not codes:
        assert mark == 0
    elif len(distinct) > 2 or any(not 0 < c + 2 < 4096 for c in distinct):
        assert mark == -1
    else:
        # (shift 1: the code compared is c + 1, as an element c is the code c + 1)
        assert mark > 0 and module._truth_moved(mark, was, now) == any((was == c + 1) != (now == c + 1) for c in distinct)


#: GUARDS with a move that puts a rook of the other seat on an empty cell: on a line from the
#: king that the position's walk passed empty, it attacks (the walk's test holds of it)
SUMMONS = GUARDS.replace("turn {\n", """turn {
  action summon(t in empty_cells(board)) "+{t}" {
    require turns % 7 == 3
    put piece(rook, 1 - me) at t on board
    ensure safe()
  }
""", 1)


def test_a_piece_put_where_a_walk_passed_is_asked_the_walks_test():
    """Natively the memo keeps the empty cells a false walk passed (compiler/write/xray.py): a
    trial that puts a piece there keeps the value only when the walk's test fails on that piece
    (the mover's own: it stops the line), and reads the condition again when it holds (a rook
    of the other seat put on the king's line). Seeded games alike with the rules read at every
    trial; a fill never asked the test (``_xfill`` true for no piece) makes them differ."""
    source = native_source(SUMMONS.replace("ENSURE", "ensure safe()"), "summons.rules", "summons")
    assert "_noted_full(s._seen0" in source and "cdef bint _xfill0(s, long at, long code_)" in source
    assert "s._xf0[at] and code != 0 and s._xfill0(at, code)" in source
    if not native.available():
        pytest.skip(native.unavailable_reason())
    memo = SUMMONS.replace("ENSURE", "ensure safe()")
    plain = memo.replace("ensure safe()", "ensure safe() or t == none")  # every trial reads it (no memo)
    assert "_remember0" not in repr(remember_ensures(optimize(lower(plain, native=True))).actions)
    remembered, reference = (regle.loads(text, name=f"summons_{k}", backend="native")
                             for k, text in (("memo", memo), ("plain", plain)))
    nodes, _decided = play_alike(reference, remembered, 200)
    assert nodes > 2_000
