"""Boards of points and lines (`grid G: T lines "a1 d1 g1", ...`), the `lines()` query, their
drawings; and three compiler points the first such game met: loop variables of a define written
in place, a require's conjuncts tested where their parameters are known, and the native forms
of `t in neighbours(G, c)` and `count(G, v)`."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regle
from regle import native
from regle.compiler.check import geometry
from regle.compiler.generate import engine_source
from regle.display import Style, render
from regle.dsl.printer import format_text
from regle.web.render import grid_svg

#: a small board: a square of eight points around a centre joined to the middles of its sides
SQUARE = ('"a1 b1 c1", "a3 b3 c3", "a1 a2 a3", "c1 c2 c3", "b1 b2 b3", "a2 b2 c2"')

GAME = f'''game "Lines" {{
  players 2
}}
grid board: player lines {SQUARE}
counter made
define full(c) = any(all(board[x] == board[c] for x in l) for l in lines(board, c))
turn {{
  step place {{
    action put_at(c in empty_cells(board)) "{{c}}" {{
      put me at c on board
      if full(c) {{
        made += 1
      }}
    }}
  }}
}}
end when made > 0 then winner me
end when count(empty_cells(board)) == 0
'''


def _backends():
    out = ["python"]
    if native.available():
        out.append("native")
    return out


def _errors(text: str) -> list[str]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [f"{d.line}:{d.column} {d.message} | {d.hint or ''}" for d in info.value.diagnostics]


def test_points_are_named_numbered_and_joined_by_their_lines():
    geo = geometry.points(["a1 b1 c1", "a3 b3 c3", "a1 a2 a3", "c1 c2 c3", "b1 b2 b3", "a2 b2 c2"])
    names = geo.cell_names()
    # numbered row by row from the south, west to east, as a square board
    assert names == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    assert geo.dirs == ("e", "w", "n", "s") and geo.sides == ()

    def near(name: str) -> dict:
        c = names.index(name)
        return {geo.dirs[d]: names[geo.adj[c * geo.deg + d]] for d in range(geo.deg) if geo.adj[c * geo.deg + d] >= 0}
    assert near("a1") == {"e": "b1", "n": "a2"}
    assert near("b2") == {"e": "c2", "w": "a2", "n": "b3", "s": "b1"}
    # points far apart on one line are neighbours (a mill board's a7 and d7)
    far = geometry.points(["a7 d7 g7", "a1 a4 a7"])
    fnames = far.cell_names()
    a7 = fnames.index("a7")
    assert fnames[far.adj[a7 * far.deg + far.dirs.index("e")]] == "d7"
    assert fnames[far.adj[a7 * far.deg + far.dirs.index("s")]] == "a4"
    # a diagonal line brings the diagonal directions
    diag = geometry.points(["a1 b2 c3", "a1 b1"])
    assert diag.dirs == geometry.EIGHT_DIRS
    assert [tuple(diag.cell_names()[c] for c in line) for line in diag.lines] == [("a1", "b2", "c3"), ("a1", "b1")]


def test_a_board_of_lines_is_checked_at_the_string_that_is_wrong():
    turn = 'turn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n      put me at c on board\n    }\n  }\n}\n'
    base = 'game "t" {\n  players 2\n}\ngrid board: player lines "a1 b1", %s\n' + turn
    assert _errors(base % '"a1 zz"') == ["4:35 'zz' is not a point's name | name a point by its column letter "
                                         "and row number, as a1 or d7"]
    assert "twice on this line" in _errors(base % '"a2 b2 a2"')[0]
    assert _errors(base % '"a1 c1"') == ["4:35 two lines leave a1 towards the E | a point has one neighbour in "
                                         "each direction; join them by one line"]
    assert "names no point" in _errors(base % '" "')[0]
    edges = 'game "t" {\n  players 2\n}\nenum side { s, n }\ngrid board: player lines "a1 b1" edges side\n' + turn
    assert "a board of points and lines has no edges to leave by" in _errors(edges)[0]
    square = ('game "t" {\n  players 2\n}\ngrid board: player square 3 by 3\n' + turn
              + 'end when count(lines(board)) > 0\n')
    assert "lines() is for a board declared by its lines" in _errors(square)[0]
    as_param = GAME.replace('action put_at(c in empty_cells(board)) "{c}" {\n      put me at c on board',
                            'action put_at(l in lines(board)) "{l}" {\n      put me at l[0] on board')
    assert any("a parameter takes one value at a time" in e for e in _errors(as_param))
    xy = GAME.replace("end when made > 0", "end when cell(board, 0, 0) != none")
    assert "cell(G, x, y) is for square boards" in _errors(xy)[0]


@pytest.mark.parametrize("backend", _backends())
def test_lines_through_a_point_find_a_full_line(backend):
    game = regle.loads(GAME, name="lines", backend=backend)
    state = game.new_game(seed=0)
    for move in ("a1", "c3", "b1", "a3"):
        state = state.play(move)
    assert not state.is_over
    state = state.play("c1")  # a1 b1 c1: P1's full line
    assert state.is_over and state.winners == [0]
    # the middle line a2 b2 c2 counts, and so does a column
    state = game.new_game(seed=0)
    for move in ("b2", "a1", "a2", "c3", "c2"):
        state = state.play(move)
    assert state.is_over and state.winners == [0]


@pytest.mark.parametrize("backend", _backends())
def test_lines_of_the_board_as_values(backend):
    text = GAME.replace("counter made\n", "counter made\ncounter longest\ncounter through\n").replace(
        "      put me at c on board\n",
        "      put me at c on board\n      longest = max(count(l) for l in lines(board))\n"
        "      through = count(lines(board, c))\n")
    game = regle.loads(text, name="lines2", backend=backend)
    state = game.new_game(seed=0).play("b2")
    assert state.to_json()["counters"]["longest"] == 3 and state.to_json()["counters"]["through"] == 2
    state = state.play("a1")
    assert state.to_json()["counters"]["through"] == 2
    nowhere = regle.loads(text.replace("count(lines(board, c))", "count(lines(board, none))"), name="lines3",
                          backend=backend)
    with pytest.raises(regle.RulesRuntimeError, match="no point here"):
        nowhere.new_game(seed=0).play("b2")


def test_a_board_of_lines_is_drawn_as_a_diagram():
    game = regle.loads(GAME, name="lines", backend="python")
    state = game.new_game(seed=0).play("a1").play("b2")
    text = render(state, None, Style(False))
    drawn = text.split("\n")
    start = [line.strip() for line in drawn].index("board")
    assert "\n".join(line.strip() for line in drawn[start:start + 7]) == "\n".join([
        "board",
        "3 .──.──.",
        "│  │  │",
        "2 .──2──.",
        "│  │  │",
        "1 1──.──.",
        "a  b  c",
    ])
    svg = grid_svg(game, "board", state.to_json()["zones"]["board"], "player")
    assert svg.count('<polyline class="track"') == 6 and svg.count("<circle") >= 9 + 2


def test_a_long_board_of_lines_formats_over_several_lines_and_back():
    many = ", ".join(f'"a{i} b{i} c{i}"' for i in range(1, 13))
    turn = 'turn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n      put me at c on board\n    }\n  }\n}\n'
    text = f'game "t" {{\n  players 2\n}}\ngrid board: player lines {many}\n' + turn
    once = format_text(text)
    assert "\ngrid board: player lines\n    \"a1 b1 c1\", " in once
    assert all(len(line) <= 100 for line in once.split("\n"))
    assert format_text(once) == once
    assert regle.loads(once, name="t", backend="python").cell_names("board")[:3] == ["a1", "b1", "c1"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=4, unique=True),
                min_size=1, max_size=6))
def test_any_board_of_lines_either_lays_out_or_says_why(walks):
    """Whatever lines are written, the board is laid with symmetric neighbours along them, or
    refused with a reason at one of them (never another exception)."""
    lines = [" ".join(f"{chr(97 + x)}{y + 1}" for x, y in walk) for walk in walks]
    try:
        geo = geometry.points(lines)
    except geometry.BadLines as why:
        assert 0 <= why.line < len(lines) and why.message
        return
    names = geo.cell_names()
    assert sorted(names) == sorted({p for line in lines for p in line.split()})
    for c in range(geo.cells):
        for d in range(geo.deg):
            n = geo.adj[c * geo.deg + d]
            if n >= 0:
                assert geo.adj[n * geo.deg + (d ^ 1)] == c
    for line, cells in zip(lines, geo.lines):
        assert [names[c] for c in cells] == line.split()


# ---- compiler points ------------------------------------------------------------------------
HYGIENE = '''game "t" {
  players 2
}
define at_least(n) = all(k <= n for k in 1..3)
counter moves
score p {
  big: count(k for k in 0..5 where at_least(k))
}
turn {
  step s {
    action go "go" {
      moves += 1
    }
  }
}
end when turns >= 1
'''


@pytest.mark.parametrize("backend", _backends())
def test_a_define_written_in_place_keeps_its_own_loop_variable(backend):
    """`at_least(k)` inside `for k`: the define's own `for k` must not capture the argument
    (it would make the define true for every k: 6 instead of 3)."""
    game = regle.loads(HYGIENE, name="hygiene", backend=backend)
    assert game.new_game(seed=0).scores == [3, 3]


CONJUNCTS = '''game "t" {
  players 2
}
counter hand per player = 1
grid board: player square 3 by 3
turn {
  step s {
    action go(d in 1..2, n in 0..1) "{d} {n}" {
      require n > 1 and 10 // (d - 1) > 0
    }
    action put_at(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
      require hand[me] == 0 and count(board, me) > 0 and is_empty(board, t) and t not in neighbours(board, "b2")
    }
    pass "pass"
  }
}
end when turns >= 2
'''


@pytest.mark.parametrize("backend", _backends())
def test_a_requires_conjuncts_are_tested_early_but_never_out_of_turn(backend):
    """`n > 1 and 10 // (d - 1) > 0`: the second part needs only d, but is only ever evaluated
    where the first held (never here: no division by zero); the parts of the second action that
    need no parameter are tested once, outside its loops."""
    game = regle.loads(CONJUNCTS, name="conjuncts", backend=backend)
    assert game.new_game(seed=0).notations() == ["pass"]
    source = engine_source(CONJUNCTS, "t.rules")
    body = source[source.index("def _moves_0"):]
    assert body.index("s.c_hand[me] == 0") < body.index("for c_ in") < body.index("g_board[t_] == 0")
    assert body.index("for n_ in") < body.index("10 //")


@pytest.mark.parametrize("backend", _backends())
def test_membership_among_neighbours_and_counts_of_a_grid(backend):
    """`t in neighbours(G, c)`, `not in`, and `count(G, v)` (C forms natively) agree with the
    Python engine, and refuse `none` alike."""
    text = '''game "t" {
  players 2
}
grid board: player square 3 by 3 with diagonals
counter near
counter apart
counter mine
turn {
  step s {
    action put_at(c in empty_cells(board)) "{c}" {
      put me at c on board
      near = count(t for t in cells(board) where t in neighbours(board, c))
      apart = count(t for t in cells(board) where t not in neighbours(board, c))
      mine = count(board, me) * 10 + count(board)
    }
  }
}
end when turns >= 4
'''
    game = regle.loads(text, name="members", backend=backend)
    state = game.new_game(seed=0).play("a1")
    assert [state.to_json()["counters"][k] for k in ("near", "apart", "mine")] == [3, 6, 11]
    state = state.play("b2").play("c3")
    assert [state.to_json()["counters"][k] for k in ("near", "apart", "mine")] == [3, 6, 23]
    broken = regle.loads(text.replace("t in neighbours(board, c)", "t in neighbours(board, none)"),
                         name="members2", backend=backend)
    with pytest.raises(regle.RulesRuntimeError, match="there is no cell here"):
        broken.new_game(seed=0).play("a1")

