"""compiler/passes/neighbour_mask.py: a define's first test of a cell's neighbours, asked of
every cell a loop gives, read from a mask made once before the loop (the kernel
``neighbours_holding``; the Python engine); trees before and after, what is left alone, the
kernel's twins, and games played alike with the pass and without it, and as the native engine."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regle
import regle.compiler.write.written as written
from conftest import play_alike
from regle import native
from regle.compiler.generate import engine_source, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.passes.neighbour_mask import mask_neighbour_tests
from regle.compiler.write.moves import AddMove, CellScan, Guard, Scan, Source
from regle.runtime import kernels as pure

try:
    from regle.runtime import _kernels as compiled
except ImportError:  # pragma: no cover - the pure twins alone
    compiled = None

CELL = T.Type("cell", space="board")
GRID = T.Type("grid", space="board")
INT, BOOL = T.INT, T.BOOL
S_ = N.Local(T.ANY, 0, "s")
ME = N.Local(INT, 0, "me")


def _define(test_value=None, element=False, table="G_board__ADJ", first_op="any", lets=()):
    """``lives(c) = any(board[n] == v for n in neighbours(board, c)) or c == 3`` as a define's
    function (head, tree, lets)."""
    read = N.CellRead(INT, 0, N.Field(GRID, 0, "g_board"), N.Local(CELL, 0, "n_"))
    if element:
        read = N.Element(INT, 0, read)
    value = test_value if test_value is not None else N.Const(INT, 0, 0)
    first = N.Aggregate(BOOL, 0, first_op, "n_", N.NeighbourList(T.list_of(CELL), 0, table, 4, N.Local(CELL, 0, "c_")),
                        N.Binary(BOOL, 0, "==", read, value), None)
    rest = N.Binary(BOOL, 0, "==", N.Local(CELL, 0, "c_"), N.Const(INT, 0, 3))
    return {"fn__lives": (["s", "me", "c_"], N.Binary(BOOL, 0, "or", first, rest), lets)}


def _call(cell="c_"):
    return N.Apply(BOOL, 0, "fn__lives", (S_, ME, N.Local(CELL, 0, cell)))


def _loop(test):
    cells = N.Cells(T.list_of(CELL), 0, N.Field(GRID, 0, "g_board"), False)
    return (CellScan(0, "c_", cells, body=(Guard(0, test, (AddMove(0, 0, ()),)),)),)


def _mask(items, defines, rests=None):
    return mask_neighbour_tests(items, defines, lambda line, var, value: Source(line, var, value),
                                {} if rests is None else rests)


def _rest_call(cell="c_"):
    return N.Apply(BOOL, 0, "fn__lives__rest", (S_, ME, N.Local(CELL, 0, cell)))


def test_the_guard_reads_the_mask_first_and_the_mask_is_made_before_the_loop():
    rests: dict = {}
    out = _mask(_loop(_call()), _define(), rests)
    source, scan = out
    assert isinstance(source, Source) and source.var == "_nm0"
    assert source.value == N.Helper(T.ANY, 0, "K.neighbours_holding", (
        N.Field(GRID, 0, "g_board"), N.Table(T.ANY, 0, "G_board__ADJ"), N.Const(INT, 0, 4), N.Const(INT, 0, 0)))
    test = scan.body[0].test
    assert test == N.Binary(BOOL, 0, "or", N.Index(INT, 0, N.Local(T.ANY, 0, "_nm0"), N.Local(CELL, 0, "c_")), _rest_call())
    # where the byte is 0 the define is called as its twin without the first test
    assert rests == {"fn__lives": _define()["fn__lives"][1].right}
    # inside and/or of the test too, and the same test twice shares one mask
    both = N.Binary(BOOL, 0, "and", N.Binary(BOOL, 0, "!=", N.Local(CELL, 0, "c_"), N.Const(INT, 0, 5)),
                    N.Binary(BOOL, 0, "or", _call(), _call()))
    out = _mask(_loop(both), _define())
    assert [type(x).__name__ for x in out] == ["Source", "CellScan"]
    assert sum(isinstance(n, N.Index) for n in _nodes(out[1].body[0].test)) == 2


def test_a_test_written_in_the_guard_itself_is_read_from_the_mask():
    """The same test written in the guard (no define): the aggregate itself becomes the read,
    as it is the whole of that operand's truth."""
    first, rest = _define()["fn__lives"][1].left, N.Binary(BOOL, 0, "==", N.Local(CELL, 0, "c_"), N.Const(INT, 0, 3))
    out = _mask(_loop(N.Binary(BOOL, 0, "or", first, rest)), {})
    read = N.Index(INT, 0, N.Local(T.ANY, 0, "_nm0"), N.Local(CELL, 0, "c_"))
    assert out[1].body[0].test == N.Binary(BOOL, 0, "or", read, rest)
    assert _mask(_loop(N.Not(BOOL, 0, first)), {}) == _loop(N.Not(BOOL, 0, first))


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 5), st.data())
def test_the_twin_is_the_define_where_its_first_test_fails(n, data):
    """``a or b or c ...`` grouped from the left, without its first operand: where a is false,
    the same value under the reference evaluator (the twin a mask's 0 calls)."""
    from regle.compiler.ir.evaluate import evaluate
    from regle.compiler.passes.neighbour_mask import _without_first
    names = [f"v{k}" for k in range(n)]
    tree = N.Local(BOOL, 0, names[0])
    for name in names[1:]:
        tree = N.Binary(BOOL, 0, "or", tree, N.Local(BOOL, 0, name))
    values = {name: data.draw(st.sampled_from([0, 1, 2, False, True])) for name in names}
    values[names[0]] = data.draw(st.sampled_from([0, False]))
    rest = _without_first(tree)
    assert names[0] not in {x.name for x in _nodes(rest) if isinstance(x, N.Local)}
    assert evaluate(rest, values) == evaluate(tree, values)


def test_an_element_compared_reads_its_code_and_me_is_given_by_the_call():
    """``board[n] == me`` (an element: the code less one) asks the kernel for the code me + 1,
    in the caller's names."""
    out = _mask(_loop(_call()), _define(N.Local(INT, 0, "me"), element=True))
    code = out[0].value.args[3]
    assert code == N.Binary(INT, 0, "+", ME, N.Const(INT, 0, 1))


@pytest.mark.parametrize("case", ["lets", "all", "other table", "value reads a cell", "value of the loop",
                                  "not a loop's cell", "under not", "another grid's cell"])
def test_what_is_left_alone(case):
    defines, test = _define(), _call()
    cell_read = N.CellRead(INT, 0, N.Field(GRID, 0, "g_board"), N.Const(INT, 0, 0))
    if case == "lets":
        defines = _define(lets=("a let",))
    elif case == "all":
        defines = _define(first_op="all")
    elif case == "other table":
        defines = _define(table="G_other__ADJ")
    elif case == "value reads a cell":
        defines = _define(cell_read)
    elif case == "value of the loop":
        defines = _define(N.Local(INT, 0, "n_"))
    elif case == "not a loop's cell":
        test = _call("x_")
    elif case == "under not":
        test = N.Not(BOOL, 0, _call())
    elif case == "another grid's cell":
        test = N.Apply(BOOL, 0, "fn__lives", (S_, ME, N.Local(T.Type("cell", space="other"), 0, "c_")))
    items = _loop(test)
    assert _mask(items, defines) == items


def test_a_loop_inside_gets_its_mask_before_it_and_outside_names_only():
    """A loop over directions around the loop over cells: the mask goes before the cell loop,
    and a code read from the outer loop's name is allowed (bound before), one of the cell loop's
    own is not."""
    inner = _loop(_call())[0]
    outer = (Scan(0, "d_", N.Upto(T.list_of(INT), 0, N.Const(INT, 0, 8)), body=(inner,)),)
    out = _mask(outer, _define(N.Local(INT, 0, "k_")))
    assert out == outer  # k_ is given by the call only as a parameter name it does not have
    defines = {"fn__lives": (["s", "me", "k_", "c_"], _define(N.Local(INT, 0, "k_"))["fn__lives"][1], ())}
    call = N.Apply(BOOL, 0, "fn__lives", (S_, ME, N.Local(INT, 0, "d_"), N.Local(CELL, 0, "c_")))
    out = _mask((Scan(0, "d_", N.Upto(T.list_of(INT), 0, N.Const(INT, 0, 8)), body=_loop(call)),), defines)
    assert [type(x).__name__ for x in out[0].body] == ["Source", "CellScan"]
    assert out[0].body[0].value.args[3] == N.Local(INT, 0, "d_")
    call = N.Apply(BOOL, 0, "fn__lives", (S_, ME, N.Local(CELL, 0, "c_"), N.Local(CELL, 0, "c_")))
    assert _mask(_loop(call), defines) == _loop(call)  # the cell loop's own name as the code


def _nodes(e):
    from regle.compiler.ir.traverse import walk
    return list(walk(e))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_the_kernel_twins_agree_with_the_test_they_stand_for(width, height, data):
    cells = bytes(data.draw(st.lists(st.integers(0, 3), min_size=width * height, max_size=width * height)))
    adj = []
    for c in range(width * height):
        x, y = c % width, c // width
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            inside = 0 <= x + dx < width and 0 <= y + dy < height
            adj.append((y + dy) * width + x + dx if inside else -1)
    from array import array
    table = array("h", adj)
    code = data.draw(st.integers(-2, 300))
    want = bytes(int(any(cells[n] == code for n in adj[4 * c:4 * c + 4] if n >= 0)) for c in range(width * height))
    for k in [pure] + ([compiled] if compiled is not None else []):
        assert k.neighbours_holding(cells, table, 4, code) == want
        assert k.neighbours_holding(bytearray(cells), table, 4, code) == want
    for k in [pure] + ([compiled] if compiled is not None else []):
        with pytest.raises(ValueError):
            k.neighbours_holding(cells + b"\0", table, 4, 0)  # a table shorter than the board


# Stones on a small board: a stone goes where it has an empty neighbour, or a friend whose
# group has another liberty, or takes a lone enemy; the first test is the one the mask answers.
FIELDS = """
game "Fields" {
  seats black, white
  max decisions 120
}

grid board: player square 5 by 5 on points

define free(c) = any(is_empty(board, n) for n in neighbours(board, c))
    or any(board[n] == me and count(liberties(board, n)) > 1 for n in neighbours(board, c))
define touches(c) = any(board[n] == me for n in neighbours(board, c)) or turns < 2

turn {
  action place(c in empty_cells(board)) "{c}" {
    require free(c) and touches(c)
    put me at c on board
    for n in neighbours(board, c) where board[n] == 1 - me and count(liberties(board, n)) == 0 {
      clear chain(board, n) on board
    }
  }
  action skip "pass" {
    passes += 1
  }
}

counter passes

end when since(place) >= 2 or turns >= 60

score p {
  stones: count(board, p)
}

winner p {
  most score
  ties white
}
"""


def _without_pass(monkeypatch):
    monkeypatch.setattr(written, "mask_neighbour_tests", lambda moves, defines, source, rests: moves)


def test_the_python_engine_makes_the_masks(monkeypatch):
    python, cython = engine_source(FIELDS, "fields.rules"), native_source(FIELDS, "fields.rules")
    assert "_nm0 = K.neighbours_holding(g_board, G_board__ADJ, 4, 0)" in python
    assert "_nm1 = K.neighbours_holding(g_board, G_board__ADJ, 4, me + 1)" in python
    assert "_nm0[c_] or fn__free__rest(s, me, c_)" in python and "_nm1[c_] or fn__touches__rest(s, me, c_)" in python
    assert "def fn__free__rest(s, me, c_):" in python and "def fn__touches__rest(s, me, c_):" in python
    assert "neighbours_holding" not in cython  # natively the define's loop is cheaper than a mask
    _without_pass(monkeypatch)
    assert "_nm0" not in engine_source(FIELDS, "fields.rules", "fields_plain")


def test_a_game_plays_alike_with_the_masks_and_as_the_native_engine(monkeypatch):
    """Seeded random games: the legal moves and ids at every node the same as the Python
    engine written without the pass, and as the native engine (which has none); captures empty
    cells between moves, so the masks must be made anew each time the moves are listed."""
    masked = regle.loads(FIELDS, name="fields_masked", backend="python")
    if native.available():
        nodes, _ = play_alike(regle.loads(FIELDS, name="fields_native", backend="native"), masked, 20, ids=True)
        assert nodes > 200
    _without_pass(monkeypatch)
    plain = regle.loads(FIELDS, name="fields_plain", backend="python")
    nodes, _ = play_alike(plain, masked, 15, ids=True)
    assert nodes > 150
