"""Movement queries of any board game with sliding and leaping pieces: `leaps(G, c, m, n)` (the
cells an (m, n) leaper reaches), `reach(G, c, d)` (a slide and the piece it meets), lists
joined with `+`, `first(filled_cells(G, v))`; their kernels' twins agree, both engines agree,
and a product that only picks a cell is not bounded as a number."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regle
from regle import native
from regle.compiler.check import geometry
from regle.compiler.generate import engine_source
from regle.dsl.printer import format_text
from regle.runtime import kernels as pure

try:
    from regle.runtime import _kernels as compiled
except ImportError:  # pragma: no cover - the kernels are built in CI
    compiled = None


def _backends():
    return ["python", "native"] if native.available() else ["python"]


def _errors(text: str) -> list[str]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [f"{d.line}:{d.column} {d.message}" for d in info.value.diagnostics]


def test_a_leap_table_lists_each_leap_once_and_stays_on_the_board():
    geo = geometry.square(8, 8)
    deg, table = geometry.leap_table(geo, 1, 2)
    names = geo.cell_names()
    assert deg == 8

    def landing(name: str) -> set[str]:
        c = names.index(name)
        return {names[t] for t in table[c * deg:(c + 1) * deg] if t >= 0}
    assert landing("a1") == {"b3", "c2"}
    assert landing("d4") == {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}
    assert geometry.leap_table(geo, 1, 1)[0] == 4 and geometry.leap_table(geo, 0, 2)[0] == 4


MOVES = '''game "t" {
  players 2
}
grid board: player square 5 by 5
counter jumps
counter rays
counter joined
counter found: cell of board
turn {
  step s {
    action put_at(c in empty_cells(board)) "{c}" {
      put me at c on board
      jumps = count(leaps(board, c, 1, 2))
      rays = count(reach(board, c, "e")) * 10 + count(slide(board, c, "e"))
      joined = count(leaps(board, c, 2, 2) + neighbours(board, c))
      found = first(filled_cells(board, 1 - me))
    }
  }
}
end when turns >= 6
'''


@pytest.mark.parametrize("backend", _backends())
def test_leaps_reach_joined_lists_and_first_on_both_engines(backend):
    game = regle.loads(MOVES, name="moves", backend=backend)
    names = game.cell_names("board")
    state = game.new_game(seed=0).play("c3")
    counters = state.to_json()["counters"]
    # from c3: 8 knight leaps; east to the edge (d3, e3) with nothing met; 4 (2, 2) leaps + 4
    assert [counters[k] for k in ("jumps", "rays", "joined")] == [8, 22, 8] and counters["found"] == -1
    state = state.play("a3")  # P2 west of c3: eastwards c3 is met after b3
    counters = state.to_json()["counters"]
    assert counters["rays"] == 2 * 10 + 1 and names[counters["found"]] == "c3"
    state = state.play("a1")  # a corner: two leaps
    assert state.to_json()["counters"]["jumps"] == 2


def test_movement_queries_are_checked():
    base = MOVES.replace("jumps = count(leaps(board, c, 1, 2))", "jumps = count(leaps(board, c, %s))")
    assert "leaps(G, c, m, n) takes the leap's two lengths as constants" in _errors(base % "jumps, 2")[0]
    assert "goes nowhere" in _errors(base % "0, 0")[0]
    joined = MOVES.replace("joined = count(leaps(board, c, 2, 2) + neighbours(board, c))",
                           "joined = count(neighbours(board, c) + c)")
    assert "two lists are joined by +" in " ".join(_errors(joined))
    hexes = MOVES.replace("square 5 by 5", "hex side 3").replace('"e"', '"ne"')
    assert "leaps() is for boards of rows and columns" in " ".join(_errors(hexes))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=25, max_size=25), st.integers(0, 24), st.integers(0, 7))
def test_reach_met_and_first_holding_twins_agree(cells, start, d):
    """The compiled reach, met and first_holding give what their pure twins give."""
    if compiled is None:
        pytest.skip("the compiled kernels are not built")
    geo = geometry.square(5, 5, diagonals=True)
    grid, adj = bytearray(cells), geo.table()
    assert compiled.reach(grid, adj, 8, start, d) == pure.reach(grid, adj, 8, start, d)
    want = pure.reach(grid, adj, 8, start, d)
    assert want[:-1] == pure.slide(grid, adj, 8, start, d)[:len(want) - 1]
    # met: the filled cell that ends the reach, alone (none at the edge)
    ends = [c for c in want[-1:] if grid[c]]
    assert compiled.met(grid, adj, 8, start, d) == pure.met(grid, adj, 8, start, d) == ends
    for kinds, kind, owner in ((256, 1, -2), (3, 0, -2), (3, -2, 0), (3, 2, 0)):
        assert compiled.first_holding(grid, kinds, kind, owner) == pure.first_holding(grid, kinds, kind, owner) \
            == (pure.cells_holding(grid, kinds, kind, owner) or [-1])[0]


def test_a_product_that_only_picks_a_cell_leaves_the_value_unbounded():
    """`rank = if c == cell(board, 0, 2 * k) then 1 else 0` multiplies only to find a cell: the
    engine stores it as it is; `big = k * k` is kept within the language's bound."""
    text = MOVES.replace("counter found: cell of board\n", "counter found: cell of board\ncounter big\n").replace(
        "      found = first(filled_cells(board, 1 - me))\n",
        "      found = first(filled_cells(board, 1 - me))\n      joined = if c == cell(board, 0, 2 * jumps) then 1 else 0\n"
        "      big = jumps * jumps\n")
    source = engine_source(text, "t.rules")
    stored = {line.split(" = ", 1)[0].strip(): line for line in source.split("\n") if " = " in line}
    assert "ops.number(" not in stored["s.c_joined"] and "ops.number(s.c_jumps * s.c_jumps)" in stored["s.c_big"]


TURNS = '''game "t" {
  players 2
}
grid board: player square 4 by 3
grid marks: int square 4 by 3
setup {
  put 0 at "a1" on board
  put 1 at "b1" on board
  marks[cell(board, 0, 0)] = 7
}
turn {
  step s {
    action spin(q in -1..2) "spin {q}" {
      rotate board at "a1" size 2 by q
      rotate marks at "a1" size 2 by q
    }
    action flip "flip" {
      reflect board at "b1" size 3
    }
    action twin "twin" {
      copy board at "a1" size 2 to "c2"
    }
  }
}
end when turns >= 4
'''


@pytest.mark.parametrize("backend", _backends())
def test_rotate_and_reflect_turn_a_block_of_cells(backend):
    """A quarter turn clockwise takes a block's south-west corner to its north-west corner; -1
    turns the other way, 2 is a half turn; reflect mirrors west to east. Grids of numbers turn
    the same way."""
    game = regle.loads(TURNS, name="turns", backend=backend)
    names = game.cell_names("board")

    def where(state, grid="board"):
        return {names[c]: v for c, v in enumerate(state.to_json()["zones"][grid]) if v not in (-1, 0) or
                (grid == "board" and v == 0)}
    start = game.new_game(seed=0)
    assert where(start) == {"a1": 0, "b1": 1}
    assert where(start.copy().play("spin 1")) == {"a2": 0, "a1": 1}
    assert where(start.copy().play("spin -1")) == {"b1": 0, "b2": 1}
    assert where(start.copy().play("spin 2")) == {"b2": 0, "a2": 1}
    assert where(start.copy().play("spin 0")) == {"a1": 0, "b1": 1}
    assert where(start.copy().play("spin 1"), "marks") == {"a2": 7}
    assert where(start.copy().play("flip")) == {"a1": 0, "d1": 1}  # b1..d1 mirrored
    assert where(start.copy().play("twin")) == {"a1": 0, "b1": 1, "c2": 0, "d2": 1}  # the block stays


def test_rotate_is_checked_where_it_is_written_and_when_it_runs():
    hexes = TURNS.replace("square 4 by 3\ngrid marks: int square 4 by 3", "hex side 2\ngrid marks: int hex side 2")
    assert any("a square board or lanes" in e for e in _errors(hexes))
    game = regle.loads(TURNS.replace('reflect board at "b1" size 3', 'reflect board at "c1" size 3'),
                       name="far", backend="python")
    with pytest.raises(regle.RulesRuntimeError, match="does not fit on the board"):
        game.new_game(seed=0).play("flip")
    once = format_text(TURNS)
    assert 'copy board at "a1" size 2 to "c2"' in once and format_text(once) == once


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=30, max_size=30), st.integers(0, 29), st.integers(1, 4),
       st.integers(-5, 5), st.booleans(), st.booleans(), st.integers(-1, 29))
def test_turn_block_twins_agree(cells, corner, size, quarters, mirror, lane_major, to):
    """The compiled turn_block does what the pure one does, refusals included; four quarter
    turns are none."""
    if compiled is None:
        pytest.skip("the compiled kernels are not built")
    width, height = (5, 6) if lane_major else (6, 5)
    a, b = bytearray(cells), bytearray(cells)
    if to >= 0:  # a copy elsewhere: both agree, the block read stays
        try:
            pure.turn_cells(a, width, height, int(lane_major), corner, size, quarters, int(mirror), to)
        except ValueError:
            with pytest.raises(ValueError):
                compiled.turn_cells(b, width, height, int(lane_major), corner, size, quarters, int(mirror), to)
            return
        compiled.turn_cells(b, width, height, int(lane_major), corner, size, quarters, int(mirror), to)
        assert a == b
        return
    try:
        pure.turn_cells(a, width, height, int(lane_major), corner, size, quarters, int(mirror))
    except ValueError:
        with pytest.raises(ValueError):
            compiled.turn_cells(b, width, height, int(lane_major), corner, size, quarters, int(mirror))
        return
    compiled.turn_cells(b, width, height, int(lane_major), corner, size, quarters, int(mirror))
    assert a == b and sorted(a) == sorted(cells)
    if not mirror:
        for _ in range(3):
            compiled.turn_cells(b, width, height, int(lane_major), corner, size, quarters, 0)
        assert b == bytearray(cells)


EXACT = '''game "t" {
  players 2
}
grid board: player square 7 by 1
end when in_a_row_exactly(board, me, 3) then winner me
turn {
  step s {
    action put_at(c in empty_cells(board)) "{c}" {
      put me at c on board
    }
  }
}
'''


@pytest.mark.parametrize("backend", _backends())
def test_exactly_n_in_a_row_does_not_count_an_overline(backend):
    game = regle.loads(EXACT, name="exact", backend=backend)
    data = game.new_game(seed=0).to_json()
    data["zones"]["board"] = [0, 0, -1, 0, 0, -1, -1]  # P1: a1 b1, d1 e1
    state = game.state_from_json(data).play("c1")  # five in a row: not exactly three
    assert not state.is_over
    state = game.state_from_json(data).play("f1")  # d1 e1 f1: exactly three
    assert state.is_over and state.winners == [0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=30, max_size=30), st.integers(1, 2), st.integers(1, 6))
def test_in_a_row_exactly_twins_agree(cells, value, n):
    """The compiled kernel agrees with its twin; an exact run of n is a run of n, and a run
    of n is an exact run of some length n or more."""
    if compiled is None:
        pytest.skip("the compiled kernels are not built")
    geo = geometry.square(6, 5, diagonals=True)
    grid, adj = bytearray(cells), geo.table()
    exact = pure.in_a_row_exactly(grid, adj, 8, value, n)
    assert compiled.in_a_row_exactly(grid, adj, 8, value, n) == exact
    if exact:
        assert pure.in_a_row(grid, adj, 8, value, n)
    if pure.in_a_row(grid, adj, 8, value, n):
        assert any(pure.in_a_row_exactly(grid, adj, 8, value, k) for k in range(n, 8))


SLIDERS = '''
game "sliders" { players 2 }
grid board: player square 5 by 5 with diagonals
setup {
  put 0 at "a1" on board
  put 0 at "e1" on board
  put 1 at "a5" on board
  put 1 at "e5" on board
}
turn {
  step move {
    action glide(c in filled_cells(board, me), d in directions(board), t in slide(board, c, d)) "{c}-{t}" {
      require column(board, t) != 2
      put me at t on board
      clear c on board
    }
    action take(c in filled_cells(board, me), d in directions(board), t in reach(board, c, d)) "{c}x{t}" {
      require board[t] == 1 - me
      put me at t on board
      clear c on board
    }
  }
}
end when turns >= 30 or count(board, 0) == 0 or count(board, 1) == 0
'''


def test_moves_along_slides_and_reaches_are_the_same_on_both_engines():
    """A parameter over slide(...) or reach(...): natively the line is followed in C, with no
    list (the move generator's SlideScan); the moves are those of the Python engine's lists."""
    if "native" not in _backends():
        pytest.skip("no native engines here")
    from regle.compiler.generate import native_source
    source = native_source(SLIDERS, "s.rules")
    generator = source.split("def _moves_0")[1].split("\n\n")[0]
    assert "_CK.slide(" not in generator and "_CK.reach(" not in generator and "while t_ >= 0" in generator
    python, compiled = (regle.loads(SLIDERS, name="sliders", backend=b) for b in ("python", "native"))
    for seed in range(12):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        while not a.is_over:
            assert [str(m) for m in b.legal_moves()] == [str(m) for m in a.legal_moves()]
            k = (seed * 7 + a.turns) % len(a.legal)
            a.advance(a.legal[k])
            b.advance(b.legal[k])
            assert a.to_json() == b.to_json()
        assert a.turns > 3


HOLDERS = '''
game "Holders" {
  seats white, black
}

enum piece { man = "m", king = "k" }

grid board: piece of player square 5 by 5 with diagonals

setup {
  for c in cells(board) where row(board, c) == 0 or row(board, c) == 4 {
    put piece(if column(board, c) == 2 then king else man, number(row(board, c) == 4)) at c on board
  }
}

define off(c, dx, dy) = cell(board, column(board, c) + dx, row(board, c) + dy)
define ahead(c) = [off(c, -1, 1 - 2 * me), off(c, 0, 1 - 2 * me), off(c, 1, 1 - 2 * me)]

turn {
  action step(c in filled_cells(board, man, me), t in ahead(c)) "{c}-{t}" {
    require t != none and board[t].owner != me
    move c to t on board
  }
  action hop(c in filled_cells(board, me), t in leaps(board, c, 1, 2) + neighbours(board, c)) "{c}:{t}" {
    require board[c].kind == king and is_empty(board, t)
    move c to t on board
  }
  action crown(c in filled_cells(board, king), t in empty_cells(board)) "{c}*{t}" {
    require board[c].owner == me and row(board, t) == 2 and column(board, c) == column(board, t)
    move c to t on board
  }
}

end when turns >= 40 or count(board, king) < 2
'''


def test_scans_of_pieces_joined_tables_and_written_out_lists_are_the_same_on_both_engines():
    """Natively, a parameter over filled_cells(G, kind, owner) (or an owner's pieces, or the
    empty cells) walks the grid's bytes from one cell found to the next, one over joined
    neighbour tables walks them in turn, and one over a list written out (here through a define,
    written in place) takes its items computed once: no list made. A kind of any owner keeps the
    kernel's list. The moves are those of the Python engine's lists, position after position."""
    if "native" not in _backends():
        pytest.skip("no native engines here")
    from regle.compiler.generate import native_source
    source = native_source(HOLDERS, "h.rules")
    generator = source.split("cdef _moves_0")[1].split("\n\n")[0]
    assert generator.count("_next_in_span(") == 2 * 2  # two spans of pieces (the empty cells are
    assert "_src0_2 = _CK.empty_cells(g_board)" in generator  # listed once, before the loops)
    assert "_CK.cells_holding(g_board, 2, 1, -2)" in generator  # a king of any owner: the list
    assert "for _d1 in range(16):" in generator and "_item1_2 = " in generator
    assert "fn__ahead" not in source and "_neighbour_list" not in generator
    python, compiled = (regle.loads(HOLDERS, name="holders", backend=b) for b in ("python", "native"))
    kinds = set()
    for seed in range(12):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        while not a.is_over:
            assert [str(m) for m in b.legal_moves()] == [str(m) for m in a.legal_moves()]
            kinds.update(str(m)[2] for m in a.legal_moves())
            k = (seed * 7 + a.turns) % len(a.legal)
            a.advance(a.legal[k])
            b.advance(b.legal[k])
            assert a.to_json() == b.to_json()
    assert kinds == {"-", ":", "*"}  # every action was offered somewhere


# ---- directions both ways: opposite(G, d), line(G, c, d), negative steps refused -------------

BOTH_WAYS = '''game "l" {
  players 2
  max decisions 20
}
grid board: player square 4 by 4 with diagonals
grid ring: int hex side 2
counter k
counter back: cell of board
counter home
turn {
  action mark(c in empty_cells(board)) "{c}" {
    put me at c on board
    k = count(line(board, c, "ne"))
    back = neighbour(board, c, opposite(board, "n"), 1)
    for d in directions(board) {
      if neighbour(board, c, d) != none and neighbour(board, neighbour(board, c, d), opposite(board, d)) == c {
        home += 1
      }
    }
  }
}
end when turns >= 3
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_opposite_and_line_go_both_ways_along_a_direction(backend):
    """line(G, c, d) holds the cells behind c (from the far end), c, then those ahead; a step
    along d then along opposite(G, d) comes back to c, for every direction."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(BOTH_WAYS, name="l", backend=backend)
    s = game.new_game(seed=0)
    s = s.play("b2")  # every step from b2 and back comes home: 8 neighbours
    assert s.to_json()["counters"] == {"k": 4, "back": 1, "home": 8}  # a1 b2 c3 d4; b1 below b2
    s = s.play("d1")
    assert s.to_json()["counters"]["k"] == 1  # only d1 on its north-east line


def test_opposite_pairs_every_direction_of_every_board():
    from regle.compiler.check import geometry
    from regle.compiler.lower.grids import OPPOSITE_NAMES
    for geo in (geometry.square(3, 3, True), geometry.hexagon(2), geometry.mancala(6), geometry.lanes(3, 3)):
        for d, name in enumerate(geo.dirs):
            back = geo.dirs.index(OPPOSITE_NAMES[name])
            for c in range(geo.cells):
                ahead = geo.adj[c * geo.deg + d]
                if ahead >= 0 and geo.kind != "mancala":  # a step there and back comes home
                    assert geo.adj[ahead * geo.deg + back] == c, (geo.kind, name, c)


def test_a_negative_step_count_is_refused_with_the_way_back():
    from regle.compiler.generate import engine_source
    text = BOTH_WAYS.replace('opposite(board, "n"), 1)', '"n", -1)')
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "l.rules")
    assert any("steps count from 0" in d.message and "opposite(board" in (d.hint or "")
               for d in info.value.diagnostics)
    with pytest.raises(regle.RulesError) as info:  # a cell is not a direction of a square board
        engine_source(BOTH_WAYS.replace('opposite(board, "n")', "opposite(board, c)"), "l.rules")
    assert any("opposite(G, d) takes a direction" in d.message for d in info.value.diagnostics)
