"""compiler/passes/hoist.py: in a move generator, the part of a guard that no loop around it
changes is computed once before the loop; trees before and after, the values kept (the
reference evaluator), what stays in the loop, and a game with an ``ensure`` trial inside the
loop played alike with the pass and without it, on both engines."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regle
import regle.compiler.write.written as written
from conftest import play_alike
from regle import native
from regle.compiler.generate import engine_source, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.ir.traverse import over, walk
from regle.compiler.passes.hoist import hoist_invariants
from regle.compiler.write.moves import AddMove, CellScan, Guard, ItemScan, Scan

CELL = T.Type("cell", space="board")
GRID = T.Type("grid", space="board")
INT, BOOL, KIND = T.INT, T.BOOL, T.enum("piece")


def _read(var: str) -> N.Expr:
    """The kind of the piece at the cell ``var`` (a read of the state's grid)."""
    code = N.CellRead(INT, 0, N.Field(GRID, 0, "g_board"), N.Local(CELL, 0, var))
    return N.Helper(KIND, 0, "ops.piece_kind", (N.Element(T.Type("piece", name="piece"), 0, code), N.Const(INT, 0, 6)))


def _eq(a: N.Expr, b: N.Expr) -> N.Expr:
    return N.Binary(BOOL, 0, "==", a, b)


def _loops(test: N.Expr, inner=None) -> tuple:
    """A loop over cells (``c_``), inside it one over the directions (``d_``), the guard inside
    that, adding a move."""
    inner = inner or Scan(0, "d_", N.Upto(T.list_of(INT), 0, N.Const(INT, 0, 8)), body=(Guard(0, test, (AddMove(0, 0, ()),)),))
    cells = N.Cells(T.list_of(CELL), 0, N.Field(GRID, 0, "g_board"), True)
    return (CellScan(0, "c_", cells, body=(inner,)),)


def test_a_read_of_the_outer_cell_is_computed_before_the_inner_loop():
    test = _eq(_read("c_"), N.Local(INT, 0, "d_"))
    out, made = hoist_invariants(_loops(test))
    assert made == ["_inv0"]
    assign, scan = out[0].body
    assert isinstance(assign, S.Assign) and assign.target == N.Local(KIND, 0, "_inv0") and assign.value == _read("c_")
    assert scan.body[0].test == _eq(N.Local(KIND, 0, "_inv0"), N.Local(INT, 0, "d_"))
    # the same part twice is one local
    out, made = hoist_invariants(_loops(N.Binary(BOOL, 0, "or", _eq(_read("c_"), N.Const(INT, 0, 1)),
                                                 _eq(_read("c_"), N.Const(INT, 0, 5)))))
    assert made == ["_inv0"] and len(out[0].body) == 2


def test_a_counter_is_read_once_before_the_loops_by_the_python_engine():
    """A counter of one value (Go's ``ko``) is an attribute looked up at every turn of the
    Python engine's loop: read once before the loops. Natively it is a C field, left where it
    is; a counter per seat (a list) stays in both."""
    ko = N.Field(CELL, 0, "c_ko")
    test = N.Binary(BOOL, 0, "!=", N.Local(CELL, 0, "c_"), ko)
    out, made = hoist_invariants(_loops(test))
    assert made == ["_inv0"] and out[0] == S.Assign(0, N.Local(CELL, 0, "_inv0"), "=", ko)
    assert out[1].body[0].body[0].test == N.Binary(BOOL, 0, "!=", N.Local(CELL, 0, "c_"), N.Local(CELL, 0, "_inv0"))
    assert hoist_invariants(_loops(test), native=True) == (_loops(test), [])
    hands = N.Field(T.Type("counters", elem=INT, per="seats"), 0, "c_hand")
    per_seat = N.Binary(BOOL, 0, "==", N.Index(INT, 0, hands, N.Local(INT, 0, "me")), N.Local(INT, 0, "d_"))
    assert hoist_invariants(_loops(per_seat)) == (_loops(per_seat), [])


def test_what_the_loop_changes_may_fail_or_binds_names_stays_in_the_loop():
    """A read at the inner loop's variable, at a cell an item list gives (it may be none), a
    division, a define's function, an aggregate and a let of the loop stay; natively a list
    (of neighbours) stays too, and nothing at all is lifted outside every loop."""
    inner_read = _eq(_read("d_"), N.Const(INT, 0, 1))
    divides = N.Binary(BOOL, 0, ">", N.Binary(INT, 0, "//", _read("c_"), N.Local(INT, 0, "k_")), N.Const(INT, 0, 0))
    define = N.Apply(BOOL, 0, "fn__open", (N.Local(T.ANY, 0, "s"), _read("c_")))
    let = _eq(N.Local(INT, 0, "x_"), _read("c_"))
    assert hoist_invariants(_loops(inner_read)) == (_loops(inner_read), [])
    for test in (divides, define):  # the read goes before the loop; the division and the call stay
        out, made = hoist_invariants(_loops(test))
        guard = out[0].body[1].body[0]
        assert made == ["_inv0"] and guard.test != test
        kinds = [type(n).__name__ for n in _nodes(guard.test)]
        assert ("Apply" in kinds) == (test is define) and "CellRead" not in kinds
    assert any(isinstance(n, N.Binary) and n.op == "//" for n in _nodes(hoist_invariants(_loops(divides))[0][0].body[1].body[0].test))
    # a let of the loop (x_) read beside the cell: the read alone goes
    scan = Scan(0, "d_", N.Upto(T.list_of(INT), 0, N.Const(INT, 0, 8)), body=(
        S.Assign(0, N.Local(INT, 0, "x_"), "=", N.Local(INT, 0, "d_")), Guard(0, let, (AddMove(0, 0, ()),))))
    out, made = hoist_invariants(_loops(None, scan))
    assert made == ["_inv0"] and out[0].body[1].body[1].test == _eq(N.Local(INT, 0, "x_"), N.Local(KIND, 0, "_inv0"))
    # an item list's cell may be none: no read of it goes before the loop inside
    maybe_none = (ItemScan(0, "c_", N.ListOf(T.list_of(CELL), 0, ()), "_k0", (), body=(
        Scan(0, "d_", N.Upto(T.list_of(INT), 0, N.Const(INT, 0, 8)),
             body=(Guard(0, _eq(_read("c_"), N.Local(INT, 0, "d_")), (AddMove(0, 0, ()),)),)),)),)
    assert hoist_invariants(maybe_none) == (maybe_none, [])
    aggregate = N.Aggregate(BOOL, 0, "any", "y_", N.ListOf(T.list_of(INT), 0, ()), _read("c_"), None)
    assert hoist_invariants(_loops(aggregate))[1] == []
    neighbours = N.Binary(BOOL, 0, "in", N.Local(INT, 0, "d_"), N.NeighbourList(T.list_of(CELL), 0, "G_board__ADJ", 8,
                                                                             N.Local(CELL, 0, "c_")))
    assert hoist_invariants(_loops(neighbours), native=True)[1] == []
    assert hoist_invariants(_loops(neighbours), native=False)[1] == ["_inv0"]
    alone = (Guard(0, _eq(_read("c_"), N.Const(INT, 0, 1)), (AddMove(0, 0, ()),)),)
    assert hoist_invariants(alone) == (alone, [])


_OUTSIDE = ["a", "b"]  # bound before the loop
_INSIDE = ["d"]  # the loop's variable


def _trees():
    leaf = st.one_of(st.sampled_from([N.Local(INT, 0, n) for n in _OUTSIDE + _INSIDE]),
                     st.integers(-3, 3).map(lambda v: N.Const(INT, 0, v)),
                     st.just(N.CellRead(INT, 0, N.Field(GRID, 0, "g_board"), N.Local(CELL, 0, "c"))))
    return st.recursive(leaf, lambda inner: st.builds(
        lambda op, a, b: N.Binary(BOOL if op in ("==", "<") else INT, 0, op, a, b),
        st.sampled_from(["+", "-", "*", "==", "<", "//"]), inner, inner), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(_trees(), st.fixed_dictionaries({"a": st.integers(-3, 3), "b": st.integers(-3, 3), "d": st.integers(-3, 3)}),
       st.integers(0, 2))
def test_the_guard_reads_the_same_value_from_its_locals(tree, leaves, held):
    """Random guards of names bound before the loop and in it, numbers, a cell read and
    divisions: evaluated with the lifted locals set to their parts' values, the guard's value
    (or its error) is the one written; no part read in the loop or that divides was lifted."""
    test = tree if tree.type == BOOL else N.Binary(BOOL, 0, "==", tree, N.Const(INT, 0, 0))
    loop = Scan(0, "d", N.Upto(T.list_of(INT), 0, N.Const(INT, 0, 4)), body=(Guard(0, test, (AddMove(0, 0, ()),)),))
    before = tuple(S.Assign(0, N.Local(INT, 0, n), "=", N.Const(INT, 0, 0)) for n in _OUTSIDE)
    block = (*before, CellScan(0, "c", N.Cells(T.list_of(CELL), 0, N.Field(GRID, 0, "g_board"), True), body=(loop,)))
    out, made = hoist_invariants(block)
    assert out[:2] == before
    out = out[2:]
    values = dict(leaves)

    def run(e, names):
        return evaluate(_with_cell(e, held), names)

    lifted = {}
    for st_ in out[0].body[:-1]:
        assert isinstance(st_, S.Assign)
        part = st_.value
        assert not any(isinstance(n, N.Local) and n.name == "d" for n in _nodes(part))
        assert not any(isinstance(n, N.Binary) and n.op == "//" for n in _nodes(part))
        lifted[st_.target.name] = run(part, {**values, "c": 0})  # a lifted part cannot fail
    new_test = out[0].body[-1].body[0].test
    try:
        expected = run(test, {**values, "c": 0})
    except ZeroDivisionError:
        expected = ZeroDivisionError
    try:
        got = run(new_test, {**values, "c": 0, **lifted})
    except ZeroDivisionError:
        got = ZeroDivisionError
    assert got == expected
    assert len(made) == len(lifted)


def _nodes(e):
    return list(walk(e))


def _with_cell(e, held: int):
    """``e`` with the grid's cell read as the number it holds (the evaluator has no state)."""
    if isinstance(e, N.CellRead):
        return N.Const(INT, 0, held)
    return over(e, lambda part: _with_cell(part, held) if isinstance(part, (N.Node, tuple)) else part)


# A game whose move generator reads each piece's kind for every direction, with an ``ensure``
# trial inside the loops (the trial writes the board and puts it back).
SLIDERS = """
game "Sliders" {
  seats white, black
  max decisions 200
}

enum piece { rook = "r", bishop = "b", king = "k" }

grid board: piece of player square 6 by 6 with diagonals

setup {
  put piece(king, 0) at cell(board, 2, 0) on board
  put piece(rook, 0) at cell(board, 0, 0) on board
  put piece(bishop, 0) at cell(board, 4, 0) on board
  put piece(rook, 0) at cell(board, 5, 1) on board
  put piece(king, 1) at cell(board, 3, 5) on board
  put piece(rook, 1) at cell(board, 5, 5) on board
  put piece(bishop, 1) at cell(board, 1, 5) on board
  put piece(bishop, 1) at cell(board, 0, 4) on board
}

define sweeps(k, d) = k == rook and number(d) < 4 or k == bishop and number(d) >= 4
define attacked(x, p) = any(
        any(board[y].owner == p and sweeps(board[y].kind, d) for y in reach(board, x, d))
        for d in directions(board)
    )
    or any(board[y] == piece(king, p) for y in neighbours(board, x))
define safe() = not attacked(first(filled_cells(board, king, me)), 1 - me)

turn {
  action slide(c in filled_cells(board, me), d in directions(board), t in reach(board, c, d)) "{c}{t}" {
    require sweeps(board[c].kind, d) and board[t].owner != me
    move c to t on board
    ensure safe()
  }
  action step(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
    require board[c].kind == king and board[t].owner != me
    move c to t on board
    ensure safe()
  }
}

end when stuck and not safe() then winner 1 - me
end when stuck then draw
end when turns >= 60 or count(board) <= 3 then draw
"""


def _without_pass(monkeypatch):
    monkeypatch.setattr(written, "hoist_invariants", lambda moves, native=False: (moves, []))


def test_the_written_engines_read_the_kind_once_per_piece(monkeypatch):
    python, cython = engine_source(SLIDERS, "sliders.rules"), native_source(SLIDERS, "sliders.rules")
    assert "_inv0 = ops.piece_kind((g_board[c_] - 1), 3)" in python
    assert "_inv0 = _piece_kind(_element(_byte_at(g_board, c_)), 3)" in cython
    for source in (python, cython):  # before the loop over the directions, which reads the local
        at = source.index("_inv0 = ")
        # (sweeps(k, d), which reads k twice, written in place: the kind bound from the local)
        assert at < source.index("for d_ in range(8)", at) < source.index("(_shared0 := _inv0) == 0 and d_ < 4", at)
    _without_pass(monkeypatch)
    assert "_inv0" not in engine_source(SLIDERS, "sliders.rules", "sliders_unlifted")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_game_plays_alike_with_the_kind_read_before_the_loop(backend, monkeypatch):
    """Seeded random games: the legal moves and ids at every node the same as the engine
    written without the pass (the trials inside the loop write the board the lifted read
    came from, and put it back)."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    lifted = regle.loads(SLIDERS, name="sliders_lifted", backend=backend)
    _without_pass(monkeypatch)
    plain = regle.loads(SLIDERS, name="sliders_unlifted", backend=backend)
    games = 60 if backend == "native" else 20
    nodes, _ = play_alike(plain, lifted, games, ids=True)
    assert nodes > 10 * games
