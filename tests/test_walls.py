"""Walls between cells (`grid F: ... walls of G`): the places a board's cells share, their
names and geometry, the queries that respect them (wall, beside, neighbours, distance,
reachable) on both engines, their errors, how they are drawn, and the compiled kernels against
their pure twins."""
from __future__ import annotations

from array import array

import pytest
from hypothesis import given, settings, strategies as st

import regle
from regle.compiler.check import geometry
from regle.runtime import kernels as pure
from regle.runtime import kernels_walls as pure_walls  # (where the walls' twins live)

try:
    from regle.runtime import _kernels as compiled
except ImportError:  # pragma: no cover - the compiled kernels are optional
    compiled = None

RACE = '''
game "Walled race" { players 2 }
enum side { south, west, north, east }
grid board: player square 4 by 4 edges side
grid fence: player walls of board
grid marks: int walls of board
counter left per player = 2
counter probe
setup {
  put 0 at "b1" on board
  put 1 at "c4" on board
}
define pawn(p) = first(filled_cells(board, p))
define goal(p) = if p == 0 then north else south
turn {
  step play {
    action step(t in neighbours(board, pawn(me), fence)) "{t}" {
      require is_empty(board, t)
      move pawn(me) to t on board
      probe = distance(board, t, goal(me), fence)
    }
    action build(w in empty_cells(fence)) "{w}" {
      require left[me] > 0
      put me at w on fence
      marks[w] += 1
      ensure all(reachable(board, pawn(p), goal(p), fence) for p in players)
      left[me] -= 1
      probe = count(beside(fence, w)) * 100 + count(neighbours(board, pawn(me), fence)) * 10
          + number(wall(fence, "a1", "b1") == cell(fence, "a1|b1"))
    }
  }
}
end when row(board, pawn(0)) == 3 then winner 0
end when row(board, pawn(1)) == 0 then winner 1
'''


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_the_places_of_walls_lie_between_cells_that_share_a_side():
    square = geometry.walls(geometry.square(3, 3))
    assert square.cells == 12 and square.cell_names()[:4] == ("a1|b1", "a1|a2", "b1|c1", "b1|b2")
    assert square.ends[0] == (0, 1) and square.slots[0 * 4 + 0] == 0 and square.slots[1 * 4 + 1] == 0  # a1 e, b1 w
    assert square.layout() == ("wall", square.layout()[1]) and square.layout()[1][0] == (0.5, 2.0)
    # diagonal neighbours share a corner only; a hexagon shares six sides
    assert geometry.walls(geometry.square(3, 3, diagonals=True)).cells == 12
    assert geometry.walls(geometry.square(3, 3, diagonals="only")).cells == 0
    assert geometry.walls(geometry.hexagon(2)).cells == 12


@pytest.mark.parametrize("backend", ["python", "native"])
def test_pawns_keep_off_walls_and_a_wall_must_leave_a_way(backend):
    game = regle.loads(RACE, name="race", backend=backend)
    state = game.new_game(seed=1)
    assert {"a1", "c1", "b2"} <= moves(state) and "a1|b1" in moves(state)
    state.play("a1|b1")  # P1 walls its own pawn off a1
    assert state.c_probe == 200 + 2 * 10 + 1  # two cells beside; b1 still opens to c1 and b2
    state.play("b4|c4")
    assert "a1" not in moves(state) and {"c1", "b2"} <= moves(state)
    state.play("b1|b2")
    # P2 may not shut P1 in: c1 is its last way out (b1|c1 would close b1 off)
    assert "b1|c1" not in moves(state) and "c1|d1" in moves(state)
    state.play("c1|d1")
    assert list(state.g_marks)[game.cell_names("fence").index("c1|d1")] == 1  # a grid of numbers too
    state.play("c1")  # P1's step: the way north from c1, round the walls
    assert state.c_probe == 3
    assert sorted(v for v in state.g_fence if v) == [1, 1, 2, 2]  # two walls each (a byte: owner + 1)


def test_walls_are_drawn_on_their_board_in_the_terminal_and_the_browser():
    from regle.display import render
    from regle.web.render import table_html
    game = regle.loads(RACE, name="race", backend="python")
    state = game.new_game(seed=1)
    state.play("a1|b1")
    state.play("b3|b4")
    text = render(state)
    assert " 1 .│1" in text  # between a1 and b1
    lines = text.splitlines()
    row4 = next(i for i, line in enumerate(lines) if line.strip().startswith("4 "))
    assert lines[row4 + 1].strip() == "─"  # under b4, above b3
    assert "fence" not in text  # drawn on the board, not as a grid of its own
    page = table_html(state, 0)
    # both grids of walls on the board (the walls, and the numbers the rules keep on them)
    assert page.count('class="cell wall') == 2 * 24 and page.count('class="cell wall up"') == 2 * 2
    assert 'data-grid="fence"' in page and 'data-grid="marks"' in page and 'data-name="a1|b1"' in page


def test_walls_read_back_by_the_formatter_and_the_rulebook():
    from regle.dsl.printer import format_text
    from regle.rulebook import rulebook
    text = format_text(RACE, "race.rules")
    assert "grid fence: player walls of board" in text and format_text(text, "race.rules") == text
    assert "the places between two cells of `board` that share a side (walls)" in rulebook("race.rules", text=RACE)


@pytest.mark.parametrize("change, message", [
    ("grid fence: player walls of board", "grid fence: player walls of boards"),
    ("grid fence: player walls of board", "grid fence: player walls of marks"),
    ("probe = distance(board, t, goal(me), fence)", "probe = distance(board, t, goal(me), board)"),
    ('number(wall(fence, "a1", "b1")', 'number(wall(board, "a1", "b1")'),
])
def test_mistakes_with_walls_are_reported_at_their_place(change, message):
    text = RACE.replace(change, message) if "marks" not in message else \
        RACE.replace("grid marks: int walls of board\n", "").replace(change, message).replace(
            "grid fence", "grid marks: int walls of board\ngrid fence").replace("  marks[w] += 1\n", "")
    with pytest.raises(regle.RulesError) as info:
        regle.loads(text, name="bad", backend="python")
    said = str(info.value)
    assert {"walls of boards": "there is no grid 'boards' declared above",
            "walls of marks": "'marks' is itself walls",
            "me), board)": "needs a grid of walls, but 'board' is square",
            'wall(board': "wall() needs a grid of walls"}[next(k for k in ("walls of boards", "walls of marks",
                                                                            "me), board)", "wall(board")
                                                                   if k in message)] in said


def test_walls_of_a_board_shaped_otherwise_are_refused():
    text = RACE.replace("grid marks: int walls of board", "grid small: player square 3 by 3\ngrid marks: int walls of small")
    text = text.replace("  marks[w] += 1\n", "").replace("probe = distance(board, t, goal(me), fence)",
                                                          "probe = distance(board, t, goal(me), marks)")
    with pytest.raises(regle.RulesError, match="'marks' are walls of a board shaped otherwise than 'board'"):
        regle.loads(text, name="bad", backend="python")


def test_a_board_whose_cells_share_no_side_has_no_walls():
    text = RACE.replace("grid board: player square 4 by 4 edges side",
                        "grid board: player square 4 by 4 with diagonals only edges side")
    with pytest.raises(regle.RulesError, match="no two cells of 'board' share a side"):
        regle.loads(text, name="bad", backend="python")


# ---- kernels ------------------------------------------------------------------------------------
KERNELS = [pytest.param(pure, id="pure"),
           pytest.param(compiled, id="compiled", marks=pytest.mark.skipif(compiled is None, reason="not built"))]
BOARDS = [geometry.square(4, 4), geometry.square(5, 3), geometry.hexagon(3), geometry.lanes(3, 4)]


@st.composite
def walled(draw):
    board = draw(st.sampled_from(BOARDS))
    places = geometry.walls(board)
    standing = draw(st.lists(st.booleans(), min_size=places.cells, max_size=places.cells))
    a = draw(st.integers(0, board.cells - 1))
    to = draw(st.one_of(st.integers(0, board.cells - 1),
                        st.lists(st.integers(0, board.cells - 1), min_size=1, max_size=5),
                        st.binary(min_size=0, max_size=board.cells + 2)))  # a mask of cells (a side's)
    return board, places, bytearray(standing), a, to


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300, deadline=None)
@given(walled(), st.data())
def test_wall_kernels_agree_with_their_twins(case, data):
    board, places, standing, a, to = case
    adj, slots = array("h", board.adj), array("h", places.slots)
    deg = board.deg
    memos = [array("h", bytes(2 * 3 * (board.cells + 1))) for _ in range(2)]
    for k in (pure, compiled):
        assert k.open_neighbours(adj, deg, slots, standing, a) == pure.open_neighbours(adj, deg, slots, standing, a)
    steps = pure.walled_distance(adj, deg, slots, standing, a, to)
    assert compiled.walled_distance(adj, deg, slots, standing, a, to) == steps
    # a grid of numbers stands where it is not 0; no walls at all is the plain distance
    numbers = [3 * v for v in standing]
    assert compiled.walled_distance(adj, deg, slots, numbers, a, to) == steps
    if not any(standing):  # no wall standing is the same as no walls at all (plain distance())
        assert compiled.walled_distance(adj, deg, None, None, a, to) == steps
    marks = [bytearray(places.cells + 1) for _ in range(2)]
    for _ in range(3):  # again and again: the kept ways are tried first, and agree
        found = [k.reachable(adj, deg, slots, standing, a, to, m) for k, m in zip((pure, compiled), memos)]
        assert found == [steps >= 0] * 2 and memos[0] == memos[1]
        # the ways a position keeps (compiler/lower/kept_ways.py): the same marks, handed over alike
        marked = [k.mark_way(adj, deg, slots, standing, a, to, m, memo)
                  for k, m, memo in zip((pure, compiled), marks, memos)]
        assert marked == found and marks[0] == marks[1] and memos[0] == memos[1]
        assert pure.take_marks(marks[0], found[0]) == compiled.take_marks(marks[1], found[1])
        if data.draw(st.booleans()):  # a wall raised or taken down between calls
            w = data.draw(st.integers(0, places.cells - 1))
            standing[w] ^= 1
            steps = pure.walled_distance(adj, deg, slots, standing, a, to)


def _kept_cells(adj, memo, base: int) -> list[int]:
    """The cells of the way kept at ``memo[base]``: its start, then where each kept step (an
    index into adj) leads."""
    length = memo[base]
    if length < 2:
        return []
    return [memo[base + 1]] + [adj[k] for k in memo[base + 2:base + length + 1]]


def _open_way(board, slots, standing, way: list, a: int, targets: set) -> bool:
    """Whether ``way`` leads from a to a target, step by step between cells next to each other,
    crossing no standing wall and meeting no cell twice."""
    if not way or way[0] != a or way[-1] not in targets or len(set(way)) != len(way):
        return False
    for at, nxt in zip(way, way[1:]):
        ks = [k for k in range(at * board.deg, at * board.deg + board.deg) if board.adj[k] == nxt]
        if not ks or (slots[ks[0]] >= 0 and standing[slots[ks[0]]]):
            return False
    return True


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300, deadline=None)
@given(walled(), st.data())
def test_the_ways_kept_are_open_ways_as_walls_rise_and_fall(case, data):
    """reachable() asked again and again as walls rise (mostly) and fall: the answer is
    walled_distance's, after each True one of the ways kept is an open way from a to a target
    with no cell twice, and both twins keep the same ways."""
    board, places, standing, a, to = case
    adj, slots = array("h", board.adj), array("h", places.slots)
    targets = pure_walls._targets(to)
    row = board.cells + 1
    memos = [array("h", bytes(2 * 2 * row)) for _ in range(2)]
    for _ in range(6):
        steps = pure.walled_distance(adj, board.deg, slots, standing, a, to)
        found = [k.reachable(adj, board.deg, slots, standing, a, to, m) for k, m in zip((pure, compiled), memos)]
        assert found == [steps >= 0] * 2 and memos[0] == memos[1]
        if steps > 0:
            ways = [_kept_cells(adj, memos[0], r * row) for r in range(2)]
            assert any(_open_way(board, places.slots, standing, way, a, targets) for way in ways)
        for _ in range(data.draw(st.integers(1, 3))):  # walls rise (mostly) and fall
            w = data.draw(st.integers(0, places.cells - 1))
            standing[w] = data.draw(st.sampled_from([1, 1, 1, 0]))


@pytest.mark.parametrize("k", KERNELS)
@pytest.mark.parametrize("length", [-5, 17, 30000])
def test_a_kept_way_of_a_length_no_row_holds_is_not_read(k, length):
    """A memo is the caller's array: a row whose length is out of its bounds is passed over
    (nothing read past the row), the answer searched as usual."""
    board = geometry.square(4, 4)
    places = geometry.walls(board)
    adj, slots = array("h", board.adj), array("h", places.slots)
    memo = array("h", bytes(2 * 2 * 17))
    memo[0], memo[1] = length, 0
    assert k.reachable(adj, 4, slots, bytearray(places.cells), 0, 15, memo)
    assert k.reachable(adj, 4, slots, bytearray(places.cells), 0, 15, memo)


def _open_square() -> tuple:
    """A 4x4 board with no wall standing, its tables, the north row as the goal and the size
    of a row of kept ways."""
    board = geometry.square(4, 4)
    places = geometry.walls(board)
    adj, slots = array("h", board.adj), array("h", places.slots)
    return board, places, adj, slots, bytearray(places.cells), [12, 13, 14, 15], board.cells + 1


@pytest.mark.parametrize("k", KERNELS)
def test_starts_asked_in_turn_keep_their_ways(k, monkeypatch):
    """Two pawns asked about in turn, as a wall's ``ensure`` asks for each seat, when every row
    holds a way from elsewhere: each keeps its way, the newest first, whatever their cells
    (starts 0 and 2 once took turns in row 0, each search undoing the other's), and asking
    again searches nothing."""
    board, places, adj, slots, walls, goal, row = _open_square()
    memo = array("h", bytes(2 * 2 * row))
    for a in (1, 3, 0, 2, 0, 2):  # the ways from 1 and 3 fill both rows first
        assert k.reachable(adj, 4, slots, walls, a, goal, memo)
    assert (memo[1], memo[row + 1]) == (2, 0)  # the way used last first
    kept = array("h", memo)

    def search(*args):
        raise AssertionError("a way kept was searched again")

    if k is pure:  # (the compiled kernel is held to the twin's ways by the hypothesis tests)
        monkeypatch.setattr(pure_walls, "_search", search)
    for a in (0, 2, 0, 2):
        assert k.reachable(adj, 4, slots, walls, a, goal, memo)
    assert memo == kept


@pytest.mark.parametrize("k", KERNELS)
def test_the_ways_kept_must_be_an_array_of_shorts(k):
    board = geometry.square(3, 3)
    adj, slots = array("h", board.adj), array("h", geometry.walls(board).slots)
    for memo in ([0] * 20, array("q", bytes(8 * 20)), bytearray(40)):
        with pytest.raises(TypeError, match="array"):
            k.reachable(adj, 4, slots, bytearray(12), 0, 8, memo)


@pytest.mark.parametrize("k", KERNELS)
def test_wall_kernels_refuse_a_missing_cell(k):
    board = geometry.square(3, 3)
    adj, slots = array("h", board.adj), array("h", geometry.walls(board).slots)
    with pytest.raises(ValueError, match="no cell here"):
        k.reachable(adj, 4, slots, bytearray(12), -1, 3, array("h", bytes(20)))
    with pytest.raises(ValueError, match="no cell here"):
        k.walled_distance(adj, 4, slots, bytearray(12), 0, [2, -1])


def test_hidden_walls_are_not_drawn_standing():
    """A grid of walls nobody sees: its places are drawn empty, whatever stands there."""
    from regle.display import render
    from regle.web.render import table_html
    text = RACE.replace("grid fence: player walls of board", "grid fence: player walls of board hidden")
    text = text.replace("grid marks: int walls of board\n", "").replace("      marks[w] += 1\n", "")
    game = regle.loads(text, name="hidden_walls", backend="python")
    state = game.new_game(seed=1)
    state.play("a1|b1")
    assert state.view(0)["zones"]["fence"][0] == -2  # something there, unseen
    assert "│" not in render(state, 0) and 'class="cell wall up"' not in table_html(state, 0)
    assert " 1 .│1" in render(regle.loads(RACE, name="race", backend="python").new_game(seed=1).play("a1|b1"))


def test_a_kept_way_a_wall_cuts_is_mended_round_it_without_a_full_search(monkeypatch):
    """A wall raised across the way kept: the way is mended from the cell before the wall to the
    rest of the way (no search from the start), the way mended is open, meets no cell twice,
    and both twins keep the same."""
    board, places, adj, slots, walls, goal, row = _open_square()
    memos = [array("h", bytes(2 * 2 * row)) for _ in range(2)]
    kernels = [pure] + ([compiled] if compiled is not None else [])
    for k, memo in zip(kernels, memos):
        assert k.reachable(adj, 4, slots, walls, 0, goal, memo)
    way = _kept_cells(adj, memos[0], 0)
    assert way == [0, 4, 8, 12]  # straight north from a1
    walls[places.cell_names().index("a2|a3")] = 1  # across its second step

    def search(*args):
        raise AssertionError("the way was searched from its start again")

    monkeypatch.setattr(pure_walls, "_search", search)
    for k, memo in zip(kernels, memos):
        assert k.reachable(adj, 4, slots, walls, 0, goal, memo)
    mended = _kept_cells(adj, memos[0], 0)
    assert mended[:2] == [0, 4] and mended[-1] in goal and len(set(mended)) == len(mended)
    assert _open_way(board, places.slots, walls, mended, 0, set(goal))
    assert all(m == memos[0] for m in memos)
