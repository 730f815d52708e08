"""compiler/passes/point_lines.py: natively, an aggregate over the lines through a point that
uses each line only as what an aggregate inside walks walks the lines' numbers and their points
in tables made when generating. The tables against ops.lines_at (hypothesis over random
boards of lines), the trees before and after, what the pass leaves alone, the error for no
point, and games played alike with and without the pass and on both engines."""
from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regle
from conftest import play_alike
from regle import native
from regle.compiler.check.geometry import point_line_tables
from regle.compiler.generate import lower, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir.traverse import walk
from regle.compiler.passes import bottom_up, each_tree, optimize
from regle.compiler.passes.point_lines import walk_point_lines
from regle.compiler.write import written
from regle.runtime import ops

ROOT = Path(__file__).resolve().parents[1]

# lines of two lengths (the padding of LINE_CELLS), points on one to three lines (of LINE_IDS)
GAME = """game "Lines walked" { players 2 max decisions 14 }
grid board: player lines "a1 b1 c1", "c1 c2 c3", "a1 b2 c3", "b1 b2", "a2 b2 c2"
counter last: cell of board = none
define open_lines(c) = count(l for l in lines(board, c) where any(board[x] == 0 for x in l))
define mine_along(c) = sum(count(x for x in l where board[x] == me) for l in lines(board, c))
define longest(c) = max(count(l) for l in lines(board, c))
turn {
  action put(c in empty_cells(board)) "{c}" {
    require open_lines(c) + mine_along(c) + longest(c) >= 2 or count(empty_cells(board)) < 5
    put me at c on board
    last = c
  }
}
end when last != none and any(all(board[x] == me for x in l) for l in lines(board, last)) then winner me
end when stuck then draw
"""


def _define(ir, name: str):
    return next(body[0] for fname, _params, _comment, body, _sig in ir.functions if fname == f"fn__{name}")


def _walked(text: str = GAME):
    ir = optimize(lower(text, "lines.rules", native=True))
    return ir, each_tree(ir, lambda tree, change=walk_point_lines(ir.grids): bottom_up(tree, change))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12).flatmap(lambda cells: st.tuples(
    st.just(cells), st.lists(st.lists(st.integers(0, cells - 1), min_size=1, max_size=5, unique=True),
                             min_size=1, max_size=8))))
def test_the_tables_hold_the_lines_through_each_point_in_order(board):
    """Per point, the lines through it in the order declared; per line, its points in order;
    each row padded with -1 to the longest: what ops.lines_at gives, once -1 is dropped."""
    cells, lines = board
    ids, points = point_line_tables(lines, cells)
    per_point, per_line = len(ids) // cells, len(points) // len(lines)
    through = ops.lines_at(tuple(tuple(line) for line in lines), cells)
    for c in range(cells):
        row = [v for v in ids[c * per_point:(c + 1) * per_point] if v >= 0]
        assert [tuple(points[n * per_line:(n + 1) * per_line]) for n in row] \
            == [tuple(line) + (-1,) * (per_line - len(line)) for line in through[c]]
    for n, line in enumerate(lines):
        assert points[n * per_line:(n + 1) * per_line] == list(line) + [-1] * (per_line - len(line))
    assert point_line_tables([], cells) == ([], [])


def test_the_tables_of_a_board():
    ir = lower(GAME, "lines.rules")
    board = ir.grids[0]
    assert len(board.line_ids) == board.cells * 3  # b2 is on three lines
    assert len(board.line_cells) == 5 * 3  # five lines, the longest of three points
    b1 = board.names.index("b1")
    assert board.line_ids[b1 * 3:b1 * 3 + 3] == [0, 3, -1]


def test_the_walks_become_tables():
    before, after = _walked()
    for name, func in (("open_lines", "count"), ("mine_along", "sum")):
        old, new = _define(before, name), _define(after, name)
        assert isinstance(old, N.Aggregate) and old.source.name == "ops.lines_through"
        assert isinstance(new, N.Cond) and isinstance(new.then, N.Aggregate) and new.then.func == func
        numbers = new.then.source
        assert isinstance(numbers, N.NeighbourList) and numbers.table == "G_board__LINE_IDS" and numbers.degree == 3
        inner = [n for n in walk(new.then) if isinstance(n, N.Aggregate) and n is not new.then]
        assert inner and all(isinstance(n.source, N.NeighbourList) and n.source.table == "G_board__LINE_CELLS"
                             and n.source.degree == 3 for n in inner)
        assert new.orelse.source == old.source  # none for the point: lines_through says why
    end = after.end_winners[0][1]
    assert any(isinstance(n, N.NeighbourList) and n.table == "G_board__LINE_IDS" for n in walk(end))


ONE_END = """game "One end" { players 2 max decisions 14 }
grid board: player lines "a1 b1 c1", "c1 c2 c3", "a1 b2 c3", "b1 b2", "a2 b2 c2"
counter last: cell of board = none
turn {
  action put(c in empty_cells(board)) "{c}" {
    put me at c on board
    last = c
  }
}
end when last != none and VALUE then winner me
"""


@pytest.mark.parametrize("value, walked", [
    ("any(all(board[x] == me for x in l) for l in lines(board, last))", True),
    ("max(count(l) for l in lines(board, last)) == 3", False),  # counted (the length of a list)
    ("any(board[l[0]] == me for l in lines(board, last))", False),  # indexed
    ("count(l[0] for l in lines(board, last) where all(board[x] == me for x in l)) >= 2", False),  # indexed in a count's element
    ("count(l for l in lines(board, last) where all(board[x] == me for x in l)) > 0", True),
    ("any(last in l for l in lines(board, last))", False),  # a member asked
    ("any(any(board[l] == me for l in l) for l in lines(board, last))", False),  # its name bound again inside
    ("any(all(board[x] == me for x in l) for l in lines(board, c1))", False),  # a point that is worked out
])
def test_what_the_pass_changes_and_leaves_alone(value, walked):
    text = ONE_END.replace("VALUE", value.replace("c1", "first(empty_cells(board))"))
    _before, after = _walked(text)
    assert (_count(after, _walks_lines) > 0) == walked and (_count(after, _asks_lines) == 0) == walked


def _asks_lines(n) -> bool:
    return isinstance(n, N.Aggregate) and isinstance(n.source, N.Helper) and n.source.name == "ops.lines_through" \
        and not isinstance(n.elem, N.Const)  # (not the walk kept for none, whose element is a constant)


def _walks_lines(n) -> bool:
    return isinstance(n, N.NeighbourList) and n.table.endswith(("_LINE_IDS", "_LINE_CELLS"))


def _count(ir, test) -> int:
    """How many nodes of every tree the game holds (statements and all they hold) pass ``test``."""
    found = []
    each_tree(ir, lambda tree: bottom_up(tree, lambda node: found.append(node) or node if test(node) else node))
    return len(found)


def test_the_python_engine_keeps_its_tuples():
    """The pass runs for the native engine alone: the Python engine's define stays a loop that
    returns early."""
    from regle.compiler.generate import engine_source
    python, cython = engine_source(GAME, "lines.rules"), native_source(GAME, "lines.rules")
    assert "LINE_IDS" not in python and "_p_G_board__LINE_IDS" in cython and "_p_G_board__LINE_CELLS" in cython


def _engines(backend: str, text: str = GAME):
    walked = regle.loads(text, name="lines_walked", backend=backend)
    orig = written.walk_point_lines
    written.walk_point_lines = lambda grids: (lambda node: node)
    try:
        plain = regle.loads(text + "\n# without point_lines\n", name="lines_plain", backend=backend)
    finally:
        written.walk_point_lines = orig
    return plain, walked


def test_the_games_are_alike_with_and_without_the_pass_and_on_both_engines():
    if not native.available():
        pytest.skip(native.unavailable_reason())
    plain, walked = _engines("native")
    nodes, decided = play_alike(plain, walked, 40, ids=True)
    assert nodes > 200 and decided > 5
    nodes, decided = play_alike(regle.loads(GAME, name="lines_walked", backend="python"), walked, 20, ids=True)
    assert nodes > 100 and decided > 3
    morris = (ROOT / "games/classics/morris.rules").read_text(encoding="utf-8")
    plain, walked = _engines("native", morris)
    assert "_p_G_board__LINE_CELLS" in native_source(morris, "morris.rules")
    nodes, _decided = play_alike(plain, walked, 6, ids=True)
    assert nodes > 300


def test_no_point_is_still_an_error_that_says_why():
    if not native.available():
        pytest.skip(native.unavailable_reason())
    nowhere = GAME.replace("last != none and any(", "any(").replace("last = c", "last = none")
    with pytest.raises(regle.RulesRuntimeError, match="no point here"):
        regle.loads(nowhere, "lines_nowhere", backend="native").new_game(seed=0).play_random_playout(0)


def test_a_point_given_as_a_number():
    """A constant point needs no test for none; a constant below 0 is left to lines_through."""
    text = GAME.replace("define longest(c) = max(count(l) for l in lines(board, c))",
                        "define longest(c) = count(l for l in lines(board, 4) where all(board[x] == 0 for x in l))")
    before, after = _walked(text)
    tree = _define(after, "longest")
    assert isinstance(tree, N.Aggregate) and isinstance(tree.source, N.NeighbourList)
    old = _define(before, "longest")
    at, _point = old.source.args
    below = attrs.evolve(old, source=attrs.evolve(old.source, args=(at, N.Const(_point.type, 0, -1))))
    assert walk_point_lines(before.grids)(below) is below
