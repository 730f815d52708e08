"""Values of every type where the rules keep them: counters that hold cells, seats, members,
items or true/false (and `none`), and notations that show a guard's let computed from the move."""
from __future__ import annotations

import pytest

import regle
from regle import native
from regle.compiler.generate import engine_source, native_source
from regle.display import render
from regle.dsl.printer import format_text

MARKS = '''game "Marks" {
  players 2
}
enum shade { pale, dark }
table token(weight: int) {
  1
  2
}
grid board: player square 3 by 3
counter last: cell of board
counter leader: player
counter busy: bool
counter tone: shade = dark
counter heavy: token
counter firsts: cell of board per player
counter placed per player
turn {
  step place {
    action put_at(c in empty_cells(board)) "{c}" {
      require c != last
      put me at c on board
      last = c
      busy = true
      if firsts[me] == none {
        firsts[me] = c
      }
      leader = me
      placed[me] += 1
      tone = if tone == dark then pale else dark
      heavy = token[turns % 2]
    }
  }
}
end when count(empty_cells(board)) == 0
score p {
  corner: number(firsts[p] == cell(board, "a1"))
}
'''


def _errors(text: str) -> list[str]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [f"{d.line}:{d.column} {d.message} | {d.hint or ''}" for d in info.value.diagnostics]


def _games():
    games = [regle.loads(MARKS, name="marks", backend="python")]
    if native.available():
        games.append(regle.loads(MARKS, name="marks", backend="native"))
    return games


@pytest.mark.parametrize("backend", ["python", "native"])
def test_counters_hold_cells_seats_members_items_and_truths(backend):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(MARKS, name="marks", backend=backend)
    s = game.new_game(seed=1)
    counters = s.to_json()["counters"]
    assert counters["last"] == -1 and counters["leader"] == -1 and counters["firsts"] == [-1, -1]
    assert counters["busy"] == 0 and counters["tone"] == 1 and counters["heavy"] == -1  # declared start
    s = s.play("b2")
    assert "b2" not in [str(m) for m in s.legal_moves()]  # taken
    s = s.play("a1")
    counters = s.to_json()["counters"]
    names = game.cell_names("board")
    assert names[counters["last"]] == "a1" and counters["leader"] == 1 and counters["busy"] == 1
    assert [names[c] for c in counters["firsts"]] == ["b2", "a1"]
    assert counters["tone"] == 1 and counters["heavy"] == 1  # dark -> pale -> dark; token #2 at turn 1
    assert s.scores == [0, 1]  # the first seat's first mark is not on a1; the second's is
    text = render(s)
    assert "last" in text and "a1" in text and "leader" in text and "P2" in text and "busy" in text
    assert game.show_counter("last", -1) == "none" and game.show_counter("tone", 0) == "pale"
    assert game.show_counter("busy", 1) == "yes" and game.show_counter("placed", 3) == "3"


def test_a_saved_state_with_typed_counters_crosses_backends():
    games = _games()
    if len(games) < 2:
        pytest.skip("no native engines here")
    python, compiled = games
    s = python.new_game(seed=4)
    for move in ["c3", "a2", "b1"]:
        s = s.play(move)
    t = compiled.state_from_json(s.to_json())
    assert t.to_json() == s.to_json()
    assert [str(m) for m in t.legal_moves()] == [str(m) for m in s.legal_moves()]


def test_a_counter_says_what_it_holds_and_keeps_to_it():
    base = ('game "t" {\n  players 2\n}\ngrid board: player square 3 by 3\ngrid wide: player square 4 by 4\n'
            'counter ko\ncounter last: cell of board\ncounter who: player\ncounter bad: cell of nothing\n'
            'turn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n'
            '      ko = c\n      last = who\n      last += 1\n'
            '      for d in cells(wide) {\n        last = d\n      }\n    }\n  }\n}\nend when turns >= 1\n')
    errors = _errors(base)
    assert errors[0].startswith("9:14 'cell of nothing': 'nothing' is not a grid declared above")
    assert "13:12 'ko' is a counter of numbers, and this is a cell | declare what it holds: counter ko: cell of board" \
        in errors
    assert "14:14 'last' holds a cell of 'board', not a player | " in errors
    assert "15:7 '+=' adds up numbers; 'last' holds a cell | " in errors
    assert "17:16 'last' holds a cell of 'board', not a cell of 'wide' | " in errors
    assert len(errors) == 5


def test_typed_counters_format_back_to_themselves():
    once = format_text(MARKS)
    assert "counter last: cell of board\n" in once and "counter firsts: cell of board per player\n" in once
    assert format_text(once) == once


JUMPS = '''game "Jumps" {
  players 2
}
grid board: player square 5 by 5 with diagonals
define beyond(c, d) = neighbour(board, neighbour(board, c, d), d)
setup {
  put 0 at "a1" on board
  put 1 at "e5" on board
}
turn {
  step move {
    action jump(c in filled_cells(board), d in directions(board)) "{c}x{land}" {
      require board[c] == me
      let over = neighbour(board, c, d)
      require over != none
      let land = neighbour(board, over, d)
      require land != none and is_empty(board, land)
      clear c on board
      put me at land on board
    }
    action walk(c in filled_cells(board), d in directions(board)) "{c}-{t} ({far})" {
      require board[c] == me
      let t = neighbour(board, c, d)
      let far = if beyond(c, d) == none then 0 else row(board, beyond(c, d)) + 1
      require t != none and is_empty(board, t)
      clear c on board
      put me at t on board
    }
  }
}
end when turns >= 6
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_notation_shows_lets_computed_from_the_move(backend):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(JUMPS, name="jumps", backend=backend)
    s = game.new_game(seed=0)
    shown = sorted(str(m) for m in s.legal_moves())
    # from a1: jumps land two cells away, walks show the row beyond (from 1; 0 off the board)
    assert shown == ["a1-a2 (3)", "a1-b1 (1)", "a1-b2 (3)", "a1xa3", "a1xc1", "a1xc3"]
    s = s.play("a1xc3")
    assert s.to_json()["zones"]["board"][game.cell_names("board").index("c3")] == 0
    for m in s.legal_moves():  # each notation names its move
        assert s.copy().play(str(m)).to_json() == s.copy().play(m).to_json()


def test_a_notation_may_show_what_the_board_holds():
    # (it is then read in the position the move is listed in: tests/test_notation_position.py)
    text = JUMPS.replace('"{c}-{t} ({far})"', '"{c}-{t} {n}"').replace(
        "      let far =", "      let free = is_empty(board, t)\n      let n = number(free)\n      let far =")
    game = regle.loads(text, name="jumps", backend="python")
    shown = sorted(str(m) for m in game.new_game(seed=0).legal_moves())
    assert shown == ["a1-a2 1", "a1-b1 1", "a1-b2 1", "a1xa3", "a1xc1", "a1xc3"]


PIECES = '''game "Promote" {
  players 2
  colours "white", "black"
}
enum piece { man = "m", king = "k" }
grid board: piece of player square 4 by 4 with diagonals
counter crowned: piece of player
zone taken: piece of player per player
setup {
  for c in cells(board) {
    if row(board, c) == 0 {
      put piece(man, 0) at c on board
    }
    if row(board, c) == 3 {
      put piece(man, 1) at c on board
    }
  }
}
turn {
  step move {
    /// Men go forward, kings any way; a man reaching the far row is crowned.
    action advance(c in filled_cells(board, me), d in directions(board)) "{c}-{t}" {
      let t = neighbour(board, c, d)
      require t != none and (is_empty(board, t) or board[t].owner != me)
      require board[c].kind == king or row(board, t) == row(board, c) + 1 - 2 * me
      if not is_empty(board, t) {
        add board[t] to taken[me]
      }
      put board[c] at t on board
      clear c on board
      if row(board, t) == 3 - 3 * me and board[t].kind == man {
        put piece(king, me) at t on board
        crowned = board[t]
      }
    }
  }
}
end when count(board, king) >= 3 or count(board, 1 - me) == 0 or turns >= 60
score p {
  kings: 10 * count(filled_cells(board, king, p))
  men: count(board, piece(man, p))
}
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_pieces_have_a_kind_and_an_owner(backend):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(PIECES, name="promote", backend=backend)
    names = game.cell_names("board")
    s = game.new_game(seed=0)
    board = s.to_json()["zones"]["board"]
    assert board[:4] == [0, 0, 0, 0] and board[12:] == [2, 2, 2, 2]  # owner * 2 + kind: men of P1, of P2
    shown = sorted(str(m) for m in s.legal_moves())
    assert len(shown) == 10 and all(m[1] == "1" and m[-1] == "2" for m in shown)  # only P1's, forward
    assert s.scores == [4, 4]
    # a man of P1 on c3 beside a man of P2 on b3; P2's men on the top row
    data = s.to_json()
    data["zones"]["board"] = [-1] * 16
    data["zones"]["board"][names.index("c3")] = 0
    data["zones"]["board"][names.index("b3")] = 2
    data["zones"]["board"][names.index("d4")] = 2
    s = game.state_from_json(data)
    assert sorted(str(m) for m in s.legal_moves()) == ["c3-b4", "c3-c4", "c3-d4"]  # forward: steps, a capture
    s = s.play("c3-d4")  # takes P2's man and is crowned at once
    data = s.to_json()
    assert data["zones"]["board"][names.index("d4")] == 1  # a king (1) of P1 (0)
    assert data["zones"]["taken"] == [[2], []] and data["counters"]["crowned"] == 1
    assert s.scores == [10, 1]
    assert game.show_counter("crowned", 1) == "king of P1" and game.show("piece:piece", 3) == "king of P2"
    shown = render(s)
    assert " K " in shown or " K\n" in shown or "K " in shown  # the king drawn by its symbol, P1 upper case
    assert "m" in shown  # P2's man in lower case
    s = s.play("b3-b2")  # P2's man goes south
    kings = sorted(str(m) for m in s.legal_moves())
    assert "d4-c3" in kings and "d4-d3" in kings  # a king goes any way


def test_pieces_are_drawn_in_their_owners_colours_on_the_page():
    from regle.web.render import piece_colour, seat_colour
    game = regle.loads(PIECES, name="promote", backend="python")
    ns = game.namespace
    assert piece_colour(ns, "piece:piece", 1) == seat_colour(ns, 0)  # a king of P1
    assert piece_colour(ns, "piece:piece", 2) == seat_colour(ns, 1)  # a man of P2
    assert ns["show_symbol"]("piece:piece", 0) == "M" and ns["show_symbol"]("piece:piece", 3) == "k"


def test_pieces_are_checked():
    bad = PIECES.replace("put piece(man, 0) at c on board", "put 0 at c on board").replace(
        "put piece(king, me) at t on board", "put piece(2, me) at t on board").replace(
        "board[c].kind == king", "board[c].colour == king").replace(
        "men: count(board, piece(man, p))", "men: count(filled_cells(board, true))")
    errors = _errors(bad)
    assert any("grid 'board' holds a piece (piece of a player), not a number" in e for e in errors)
    assert any("expected a member of 'piece' here (a kind of piece), but this is a number" in e for e in errors)
    assert any("a piece has a '.kind' and an '.owner', not '.colour'" in e for e in errors)
    assert any("takes a piece, a kind or a player, not true/false" in e for e in errors)
    assert len(errors) == 4
    many = PIECES.replace("players 2", "players 2..64")
    assert any("4 kinds of piece for 64 players do not fit a cell (256 pieces" in e for e in _errors(
        many.replace('enum piece { man = "m", king = "k" }', 'enum piece { man = "m", king = "k", queen, rook }')))
    once = format_text(PIECES)
    assert "grid board: piece of player square 4 by 4 with diagonals\n" in once and format_text(once) == once


def test_cells_holding_kernel_twins_agree():
    from hypothesis import given, strategies as st
    from regle.runtime import kernels as pure
    try:
        from regle.runtime import _kernels as compiled
    except ImportError:
        pytest.skip("the compiled kernels are not built")

    @given(st.binary(max_size=40), st.integers(1, 255), st.integers(-2, 10), st.integers(-2, 5))
    def agree(cells, kinds, kind, owner):
        grid = bytearray(cells)
        assert compiled.cells_holding(grid, kinds, kind, owner) == pure.cells_holding(grid, kinds, kind, owner)
        got = pure.cells_holding(grid, kinds, kind, owner)
        assert all(grid[c] and (kind == -2 or (grid[c] - 1) % kinds == kind)
                   and (owner == -2 or (grid[c] - 1) // kinds == owner) for c in got)
        assert len(got) == sum(1 for b in grid if b and (kind == -2 or (b - 1) % kinds == kind)
                               and (owner == -2 or (b - 1) // kinds == owner))

    agree()


def test_native_scans_of_cells_holding_agree_with_the_kernel():
    """A native move generator walks ``for c in filled_cells(G, kind, owner)`` (and the empty or
    filled cells) on the grid's bytes: a span of them (holding_low, holding_high), from one cell
    found to the next. In C and in the Python twins, it finds what the kernel's list holds."""
    from hypothesis import given, strategies as st
    from regle.runtime import kernels as pure, ops
    try:
        from regle.runtime import _support
    except ImportError:
        pytest.skip("the compiled runtime is not built")

    def walk(grid, low, high):
        out, c = [], ops.next_in_span(grid, 0, low, high)
        while c >= 0:
            out.append(c)
            c = ops.next_in_span(grid, c + 1, low, high)
        return out

    @given(st.binary(max_size=40) | st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 128, 255]), max_size=300).map(bytes),
           st.sampled_from([1, 2, 6, 7, 256]), st.integers(-3, 300), st.integers(-3, 5))
    def agree(cells, kinds, kind, owner):
        grid = bytearray(cells)
        span = ops.holding_span(kinds, kind, owner)
        assert _support.span_of(kinds, kind, owner) == span
        expected = pure.cells_holding(grid, kinds, kind, owner)
        assert _support.scan_span(grid, *span) == walk(grid, *span) == expected
        assert _support.scan_span(grid, *span, bits=True) == expected  # taken as bits, then walked
        for low, high in ((1, 255), (0, 0), (2, 2), (3, 200)):
            assert _support.scan_span(grid, low, high, bits=True) == walk(grid, low, high)
        assert _support.first_of(grid, kinds, kind, owner) == pure.first_holding(grid, kinds, kind, owner) \
            == (expected or [-1])[0]
        assert _support.scan_span(grid, 1, 255) == walk(grid, 1, 255) == [c for c, b in enumerate(grid) if b]
        assert _support.scan_span(grid, 0, 0) == walk(grid, 0, 0) == [c for c, b in enumerate(grid) if not b]

    agree()
    with pytest.raises(TypeError):
        _support.scan_span(None, 1, 255)  # a grid that is missing stops the scan, with no read
    with pytest.raises(TypeError):
        _support.scan_span(None, 1, 255, bits=True)
    with pytest.raises(ValueError):
        _support.scan_span(bytearray(4097), 1, 255, bits=True)  # more cells than the words hold


def test_words_of_the_language_are_names_where_only_a_name_fits():
    """LALR merges states, so after `clear c on board` the lexer once read `quiet` as the zone
    option and refused `quiet = 0`; a word is now a name wherever only a name fits."""
    text = ('game "t" {\n  players 2\n}\ngrid board: player square 2 by 2\ncounter quiet\ncounter hidden\n'
            'turn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n      put me at c on board\n'
            '      clear c on board\n      quiet = 0\n      hidden += 1\n    }\n  }\n}\nend when hidden >= 3\n')
    s = regle.loads(text, name="t", backend="python").new_game(seed=0)
    s = s.play("a1")
    assert s.to_json()["counters"] == {"quiet": 0, "hidden": 1}
    errors = _errors(text.replace("      quiet = 0\n", "      quiet quiet = 0\n"))
    assert len(errors) == 1 and errors[0].startswith("12:13 unexpected")  # a real mistake is still one


def test_region_kernels_twins_agree():
    """liberties, liberty_count (with a limit) and around: compiled and pure kernels, on random
    boards, and against a flood fill written here."""
    from hypothesis import given, strategies as st
    from regle.compiler.check import geometry
    from regle.runtime import kernels as pure
    try:
        from regle.runtime import _kernels as compiled
    except ImportError:
        pytest.skip("the compiled kernels are not built")
    geo = geometry.square(5, 4)
    adj = geo.table()

    def flood(cells, start):
        seen, stack = {start}, [start]
        while stack:
            c = stack.pop()
            for d in range(4):
                x = adj[c * 4 + d]
                if x >= 0 and x not in seen and cells[x] == cells[start]:
                    seen.add(x)
                    stack.append(x)
        return seen

    @given(st.lists(st.integers(0, 2), min_size=20, max_size=20), st.integers(0, 19), st.integers(-1, 4))
    def agree(values, cell, limit):
        cells = bytearray(values)
        libs = pure.liberties(cells, adj, 4, cell)
        assert compiled.liberties(cells, adj, 4, cell) == libs
        chain = flood(cells, cell)
        assert compiled.chain(cells, adj, 4, cell) == pure.chain(cells, adj, 4, cell) == sorted(chain)
        expected = sorted({adj[c * 4 + d] for c in chain for d in range(4)} - {-1} - chain)
        assert libs == ([] if not cells[cell] else [x for x in expected if not cells[x]])
        count = len(libs) if limit <= 0 else min(len(libs), limit)
        assert compiled.liberty_count(cells, adj, 4, cell, limit) == pure.liberty_count(cells, adj, 4, cell, limit)
        assert pure.liberty_count(cells, adj, 4, cell, limit) == count
        assert compiled.around(sorted(chain), adj, 4, 20) == pure.around(sorted(chain), adj, 4, 20) == expected

    agree()


def test_chain_of_an_empty_point_is_its_region():
    text = ('game "t" {\n  players 2\n}\ngrid board: player square 3 by 3\ncounter n\ncounter m\n'
            'turn {\n  step s {\n    action go "go" {\n      put 0 at "b1" on board\n      put 0 at "b2" on board\n'
            '      put 1 at "b3" on board\n      n = count(chain(board, "a1"))\n'
            '      m = count(around(board, chain(board, "c1")))\n    }\n  }\n}\nend when turns >= 1\n')
    s = regle.loads(text, name="t", backend="python").new_game(seed=0).play("go")
    assert s.to_json()["counters"] == {"n": 3, "m": 3}  # a1 a2 a3; the border of c1 c2 c3: b1 b2 b3


PROCEDURES = '''game "Steps" {
  players 2
}
grid board: player square 4 by 1
counter moved per player
counter total
/// A piece goes from c to t; the seat that moved counts it.
define go(c, t) {
  let i = 0
  put board[c] at t on board
  if c != t {
    clear c on board
  }
  for k in 1..2 {
    i += k
  }
  moved[board[t]] += i
}
setup {
  put 0 at "a1" on board
  put 1 at "d1" on board
}
turn {
  step move {
    action step_on(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
      require is_empty(board, t)
      let i = 7
      go(c, t)
      i += 1
      total = i
      go(t, t)
    }
  }
}
end when turns >= 4
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_procedure_runs_in_place_with_locals_of_its_own(backend):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = PROCEDURES.replace("action step_on", "action walk")
    game = regle.loads(text, name="steps", backend=backend)
    s = game.new_game(seed=0).play("a1b1")
    data = s.to_json()
    assert data["zones"]["board"] == [-1, 0, -1, 1]
    # each run: its own `let i` (0, then 1 + 2) and loop, not the action's `i` (7, then 8)
    assert data["counters"]["moved"] == [6, 0] and data["counters"]["total"] == 8
    once = format_text(text)
    assert "define go(c, t) {\n  let i = 0\n" in once and format_text(once) == once


def test_procedures_are_checked():
    text = PROCEDURES.replace("action step_on", "action walk")
    errors = _errors(text.replace("      go(t, t)\n", "      go(t)\n      gone(t, t)\n      i = go(t, t)\n"))
    assert errors[0].startswith("31:7 go() takes 2 arguments, not 1")
    assert errors[1].startswith("32:7 unknown procedure 'gone' | declare one: define NAME(a, b) { statements }")
    assert "'go' is a procedure (statements): run it as a statement of its own" in errors[2]
    looping = text.replace("  moved[board[t]] += i\n}", "  moved[board[t]] += i\n  go(t, c)\n}")
    assert any("procedure 'go' runs itself" in e for e in _errors(looping))
    zone = text.replace("      go(t, t)\n", "      go(board, t)\n")
    assert any("a procedure takes values, and this is grid 'board'" in e for e in _errors(zone))
    unused = text.replace("      go(c, t)\n", "").replace("      go(t, t)\n", "put me at c on board\n").replace(
        "  clear c on board\n", "  clear c on nowhere\n")
    assert any("nowhere" in e for e in _errors(unused))  # checked though nothing runs it


ROOKS = '''game "Rooks" {
  players 2
}
grid board: player square 5 by 5
setup {
  put 0 at "a1" on board
  put 0 at "c1" on board
  put 1 at "a4" on board
}
turn {
  step move {
    /// A rook slides any number of empty squares in a line.
    action slide_to(c in filled_cells(board, me), d in directions(board), t in slide(board, c, d)) "{c}-{t}" {
      put me at t on board
      clear c on board
    }
    /// Or takes the first enemy piece in its way.
    action take(c in filled_cells(board, me), d in directions(board), t in [blocker(board, c, d)]) "{c}x{t}" {
      require t != none and board[t] != me
      put me at t on board
      clear c on board
    }
  }
}
end when count(board, 1 - me) == 0 then winner me
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_slides_stop_before_the_first_piece_met(backend):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(ROOKS, name="rooks", backend=backend)
    s = game.new_game(seed=0)
    assert sorted(str(m) for m in s.legal_moves()) == [
        "a1-a2", "a1-a3", "a1-b1", "a1xa4",  # north up to a4 (taken), east up to c1 (own)
        "c1-b1", "c1-c2", "c1-c3", "c1-c4", "c1-c5", "c1-d1", "c1-e1"]
    s = s.play("a1xa4")
    assert s.is_over and s.winners == [0]


def test_slide_and_blocker_kernel_twins_agree():
    from hypothesis import given, strategies as st
    from regle.compiler.check import geometry
    from regle.runtime import kernels as pure
    try:
        from regle.runtime import _kernels as compiled
    except ImportError:
        pytest.skip("the compiled kernels are not built")
    geo = geometry.square(4, 4, diagonals=True)
    adj = geo.table()

    @given(st.lists(st.integers(0, 2), min_size=16, max_size=16), st.integers(0, 15), st.integers(0, 7))
    def agree(values, cell, d):
        cells = bytearray(values)
        path = pure.slide(cells, adj, 8, cell, d)
        assert compiled.slide(cells, adj, 8, cell, d) == path
        hit = pure.blocker(cells, adj, 8, cell, d)
        assert compiled.blocker(cells, adj, 8, cell, d) == hit
        ray = []  # the same walk, written here
        at = adj[cell * 8 + d]
        while at >= 0:
            ray.append(at)
            at = adj[at * 8 + d]
        filled = [x for x in ray if cells[x]]
        assert hit == (filled[0] if filled else -1)
        assert path == (ray[:ray.index(hit)] if filled else ray)

    agree()


def test_a_show_text_chosen_among_several():
    text = ('game "t" {\n  players 2\n}\nenum suit { hearts = "H", spades = "S" }\n'
            'table card(suit: suit, rank: int) show "J{suit:symbol}" if rank == 11 else "Q{suit:symbol}" if rank == 12 '
            'else "K{suit:symbol}" if rank == 13 else "{rank}{suit:symbol}" {\n  suit 9..13\n}\n'
            'zone hand: card = card\nturn {\n  step s {\n    action play(c in hand) "{c}" {\n'
            '      remove c from hand\n    }\n  }\n}\nend when count(hand) == 0\n')
    game = regle.loads(text, name="t", backend="python")
    assert sorted(str(m) for m in game.new_game(seed=0).legal_moves()) == sorted(
        ["9H", "10H", "JH", "QH", "KH", "9S", "10S", "JS", "QS", "KS"])
    once = format_text(text)
    assert 'show "J{suit:symbol}" if rank == 11 else "Q{suit:symbol}" if rank == 12 else' in once
    assert format_text(once) == once
    errors = _errors(text.replace('"K{suit:symbol}"', '"K{colour}"'))
    assert any("names '{colour}', which is not a column" in e for e in errors)


def test_cells_listed_by_name():
    text = ('game "t" {\n  players 2\n}\ngrid board: player square 3 by 3\ncounter n\n'
            'setup {\n  for c in cells(board, "a1", "b2", "c3") {\n    put 0 at c on board\n  }\n'
            '  n = count(x for x in cells(board, "a1", "a2") where is_empty(board, x))\n}\n'
            'turn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n      put me at c on board\n'
            '    }\n  }\n}\nend when count(board, 0) >= 4\n')
    s = regle.loads(text, name="t", backend="python").new_game(seed=0)
    assert s.to_json()["zones"]["board"] == [0, -1, -1, -1, 0, -1, -1, -1, 0] and s.to_json()["counters"]["n"] == 1
    errors = _errors(text.replace('cells(board, "a1", "b2", "c3")', '["a1", "b2"]').replace(
        'cells(board, "a1", "a2")', 'cells(board, "a1", "z9")'))
    assert errors[0] == '7:12 a list of names: cells are named where a grid says which | write cells(board, "a1", "b2")'
    assert errors[1].startswith("10:43 grid 'board' has no cell \"z9\"")
    assert len(errors) == 2


SHUFFLE = '''game "Shuffle" {
  players 2
}
grid board: player square 3 by 1
setup {
  put 0 at "a1" on board
  put 1 at "c1" on board
}
turn {
  step move {
    action go(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
      require is_empty(board, t)
      put me at t on board
      clear c on board
    }
  }
}
/// The same position, with the same player having moved, for the third time: a draw.
end when repeated(board, me) >= 2 then draw
end when turns >= 50 then winner 0
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_repeated_positions_are_kept_by_the_engine(backend):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(SHUFFLE, name="shuffle", backend=backend)
    s = game.new_game(seed=0)
    while not s.over:  # the pieces shuffle between a1, b1 and c1: positions come back
        s = s.play(s.legal_moves()[0])
    assert s.winners == [] and s.turns < 50  # ended by the third repetition, in a draw
    keys = s.to_json()["history"][0]
    assert len(keys) == s.turns + 1 and keys.count(keys[-1]) == 3  # the start, then each turn
    again = game.state_from_json(s.to_json())
    assert again.to_json() == s.to_json() and again.winners == []


def test_repeated_is_checked_and_saved_histories_are_checked():
    errors = _errors(SHUFFLE.replace("end when repeated(board, me) >= 2 then draw",
                                     "end when repeated(3) >= 2 then draw").replace(
        "      require is_empty(board, t)\n", "      require is_empty(board, t) and repeated(board) == 0\n"))
    assert any("repeated(...) counts the positions reached at the ends of turns" in e for e in errors)
    assert any("repeated() takes the places that make a position" in e for e in errors)
    game = regle.loads(SHUFFLE, name="shuffle", backend="python")
    data = game.new_game(seed=0).to_json()
    data["history"] = [[-5]]
    with pytest.raises(regle.StateError, match="history"):
        game.state_from_json(data)
    data["history"] = [[1], [2]]
    with pytest.raises(regle.StateError, match="expected 1 lists of position keys"):
        game.state_from_json(data)


def test_position_key_remember_and_repeats_twins_agree():
    from hypothesis import given, strategies as st
    from regle.runtime import kernels as pure
    try:
        from regle.runtime import _kernels as compiled
    except ImportError:
        pytest.skip("the compiled kernels are not built")
    numbers = st.one_of(st.integers(-10 ** 18, 10 ** 18), st.integers(-2, 300))  # small: one multiply for 7 zero bytes
    cells = st.lists(st.sampled_from([0, 0, 0, 0, 1, 7, 255]), max_size=40).map(bytearray)  # runs of 8 zeros
    place = st.one_of(st.binary(max_size=12).map(bytearray), cells, st.lists(numbers, max_size=5),
                      st.lists(st.lists(numbers, max_size=3), max_size=3), numbers)

    @given(st.lists(place, max_size=4), st.integers(-1, 5), st.lists(st.integers(0, 3), max_size=12))
    def agree(parts, mover, picks):
        key = pure.position_key(parts, mover)
        assert compiled.position_key(parts, mover) == key and 0 <= key < 2 ** 63
        assert pure.position_key(parts, mover) == pure.position_key([p[:] if hasattr(p, "copy") else p
                                                                      for p in parts], mover)
        kept_pure = kept_compiled = b""
        seen = []
        for k in picks:  # a few keys, kept in order
            kept_pure, kept_compiled = pure.remember(kept_pure, k), compiled.remember(kept_compiled, k)
            seen.append(k)
            assert kept_pure == kept_compiled
            assert pure.repeats(kept_pure) == compiled.repeats(kept_compiled) == seen[:-1].count(k)

    agree()
    for cells in (bytearray(64), bytearray(b"\x03" + bytes(20)), bytearray(bytes(9) + b"\x05" + bytes(8))):
        for number in (0, 1, 255, 256, -1):  # empty cells read eight at a time, small numbers at once
            assert compiled.position_key([cells, number], number) == pure.position_key([cells, number], number)
    assert pure.position_key([bytearray(b"\x01")], -1) != pure.position_key([bytearray(b"\x02")], -1)
    assert pure.position_key([bytearray(b"\x01")], 0) != pure.position_key([bytearray(b"\x01")], 1)


def test_a_notation_through_defines_that_use_each_other_is_an_error_not_a_hang():
    text = JUMPS.replace("define beyond(c, d) = neighbour(board, neighbour(board, c, d), d)",
                         "define beyond(c, d) = helper(beyond(c, d), d)\n"
                         "define helper(c, d) = neighbour(board, c, helper(c, d))")
    assert _errors(text)  # reported, without recursing without end


def test_ensure_tests_the_position_a_move_leads_to():
    """Go's suicide rule said after the move (the stone's chain keeps a liberty once captures
    are taken) gives OpenSpiel's legal moves, as the rule said before the move does."""
    pyspiel = pytest.importorskip("pyspiel")
    import random
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "games" / "classics" / "go.rules").read_text(encoding="utf-8")
    before = "    require c != ko and lives(c)\n"
    after = "    /// A ko only when"
    assert before in text and after in text
    text = text.replace(before, "    require c != ko\n").replace(
        after, "    ensure count(liberties(board, c)) > 0\n" + after)
    game = regle.loads(text, name="go_after", backend="python")
    oracle_game = pyspiel.load_game("go(board_size=9)")
    for seed in range(4):
        state, oracle = game.new_game(seed=seed), oracle_game.new_initial_state()
        rng = random.Random(seed)
        while not oracle.is_terminal():
            theirs = {}
            for a in oracle.legal_actions():
                point = oracle.action_to_string(a).split(" ", 1)[1]
                theirs["pass" if point == "PASS" else ("i" if point[0] == "j" else point[0]) + point[1:]] = a
            assert set(str(m) for m in state.legal_moves()) == set(theirs), (seed, state.decisions)
            move = rng.choice(sorted(theirs))
            state.play(move)
            oracle.apply_action(theirs[move])


def test_ensure_is_checked():
    base = ('game "t" {\n  players 2\n}\ngrid board: player square 3 by 3\ncounter n\n'
            'turn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n      put me at c on board\n'
            '      ENSURE\n    }\n  }\n}\nend when turns >= 3\n')
    errors = _errors(base.replace("ENSURE", "ensure n > 0\n      ensure n > 1"))
    assert any("an action has one 'ensure'" in e for e in errors)
    errors = _errors(base.replace("ENSURE", "if n > 0 {\n        ensure n > 1\n      }"))
    assert any("'ensure' stands among the action's own statements" in e for e in errors)
    errors = _errors(base.replace("ENSURE", "n = random(3)\n      ensure n > 0"))
    assert any("the effects before it may not end the turn or the game" in e for e in errors)
    errors = _errors(base.replace("      ENSURE\n", "").replace("turn {", "setup {\n  ensure n > 0\n}\nturn {"))
    assert any("it belongs among an action's effects" in e for e in errors)
    ok = regle.loads(base.replace("ENSURE", "ensure count(filled_cells(board, me)) <= 2").replace(
        "turns >= 3", "turns >= 9"), name="t", backend="python")
    # a seat may have two marks at most, so after two each nobody can move: the turns go by empty
    s = ok.new_game(seed=0)
    for move in ["a1", "b1", "c1"]:
        assert len(s.legal_moves()) == 9 - ["a1", "b1", "c1"].index(move)
        s.play(move)
    assert s.current_player == 1 and len(s.legal_moves()) == 6
    s.play("a2")
    assert s.over and s.decisions == 4 and s.turns == 9


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_loop_over_neighbours_in_effects(backend):
    """Natively the loop walks the grid's table in C (no list); both engines count the same
    neighbours and refuse `none` alike."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = ('game "t" {\n  players 2\n}\ngrid board: player square 3 by 3 with diagonals\ncounter k\n'
            'counter far: cell of board\n'
            'turn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n      put me at c on board\n'
            '      for n in neighbours(board, c) {\n        k += 1\n        for m in neighbours(board, n) {\n'
            '          far = m\n        }\n      }\n      for n in neighbours(board, far) {\n        k += 0\n      }\n'
            '    }\n  }\n}\nend when turns >= 3\n')
    game = regle.loads(text, name="t", backend=backend)
    if backend == "python":  # a loop (counted against a decision's work) over a named cell's neighbours walks the
        from regle.compiler.generate import engine_source  # table's tuple, no list made (the counter's cell: a list)
        source = engine_source(text)
        assert source.count("in s._loop((G_board__ADJ_AROUND[") == 2 and "s._loop(ops.neighbours(G_board__ADJ, 8, s.c_far))" in source
    s = game.new_game(seed=0).play("a1")  # a corner: 3 neighbours
    assert s.to_json()["counters"]["k"] == 3
    s = s.play("b2")  # the centre: 8 more
    assert s.to_json()["counters"]["k"] == 11
    broken = regle.loads(text.replace("for n in neighbours(board, far)", "for n in neighbours(board, none)"),
                         name="t2", backend=backend)
    with pytest.raises(regle.RulesRuntimeError, match="there is no cell here"):
        broken.new_game(seed=0).play("a1")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_ensure_puts_back_what_its_trial_changed(backend):
    """The trial of each candidate changes the state itself and puts back the places it
    changed: zones, grids per player and counters per player included."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = ('game "t" {\n  players 2\n}\ngrid board: player per player square 2 by 2\nzone pile: int = [1, 2, 3]\n'
            'zone hand: int per player\ncounter got per player\ncounter last\n'
            'turn {\n  step s {\n    action take(v in pile, c in empty_cells(board[me])) "{v}{c}" {\n'
            '      move v from pile to hand[me]\n      put me at c on board[me]\n      got[me] += v\n      last = v\n'
            '      ensure got[me] <= 3 and count(pile) >= 1\n    }\n  }\n}\nend when turns >= 4\n')
    game = regle.loads(text, name="t", backend=backend)
    s = game.new_game(seed=0)
    before = s.to_json()
    moves = sorted(str(m) for m in s.legal_moves())
    assert moves == sorted(f"{v}{c}" for v in (1, 2, 3) for c in ("a1", "a2", "b1", "b2"))
    assert s.to_json() == before  # every trial put back
    s = s.play("3a1")  # P1 holds 3: any more would pass 3
    assert sorted(str(m) for m in s.legal_moves()) == sorted(f"{v}{c}" for v in (1, 2) for c in ("a1", "a2", "b1", "b2"))
    s = s.play("2b2")  # then P1 would pass 3 and P2 would empty the pile: nobody moves again
    assert s.over and s.decisions == 2
    data = s.to_json()
    assert data["zones"]["pile"] == [1] and data["zones"]["hand"] == [[3], [2]] and data["counters"]["got"] == [3, 2]


@pytest.mark.parametrize("backend", ["python", "native"])
def test_ensure_tries_a_move_on_a_copy_when_the_places_it_changes_are_not_known(backend):
    """A zone chosen by a condition: the places the trial changes cannot be told, so each
    candidate is tried on a copy of the state (natively the compiled copy, which the engine's
    safety check must accept)."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    text = ('game "t" {\n  players 2\n}\nzone pile: int = [1, 2, 3]\nzone hand: int per player\ncounter last\n'
            'turn {\n  step s {\n    action take(v in pile) "{v}" {\n'
            '      move v from (if last > 0 then pile else pile) to hand[me]\n      last = v\n'
            '      ensure count(pile) >= 2\n    }\n  }\n}\nend when turns >= 4\n')
    source = (native_source if backend == "native" else engine_source)(text, "t.rules", "t")
    assert ("s = s._copy()" if backend == "native" else "s = s.copy()") in source
    s = regle.loads(text, name="t", backend=backend).new_game(seed=0)
    before = s.to_json()
    assert sorted(str(m) for m in s.legal_moves()) == ["1", "2", "3"]
    assert s.to_json() == before  # the trials ran on copies
    s = s.play("2")
    assert s.to_json()["zones"]["pile"] == [1, 3] and s.to_json()["zones"]["hand"] == [[2], []]
    assert s.over and s.decisions == 1  # any move now would leave one in the pile


def test_positions_past_the_end_are_reported():
    text = ('game "t" {\n  players 2\n}\nparam sizes = [3, 4]\ngrid board: player square 3 by 3\n'
            'counter n: cell of board\ncounter k\nturn {\n  step s {\n    action go(c in empty_cells(board)) "{c}" {\n'
            '      put me at c on board\n      n = ray(board, c, "n")[1]\n    }\n  }\n}\nend when turns >= 3\n')
    errors = _errors(text.replace('ray(board, c, "n")[1]', 'ray(board, "a1", "n")[2]').replace(
        "      put me at c on board\n", "      put me at c on board\n      k = sizes[2] + [1, 2, 3][3]\n"))
    assert errors[0] == "12:17 position 2 of a list of 2 (positions count from 0) | the last is [1]"
    assert errors[1] == "12:32 position 3 of a list of 3 (positions count from 0) | the last is [2]"
    assert errors[2] == "13:33 position 2 of a list of 2 (positions count from 0) | the last is [1]"
    assert len(errors) == 3
    s = regle.loads(text, name="t", backend="python").new_game(seed=0)
    s.play("a1")  # a1: two cells north of it, [1] is a3
    with pytest.raises(regle.RulesRuntimeError, match=r":12: .*a position past the end of a list or zone"):
        s.play("a3")  # a3: no cell north of it


SEATS = '''game "Seats" {
  players 2
  seats north, south
}
grid board: player square 3 by 3
setup {
  put south at "a1" on board
}
turn {
  step place {
    action put_at(c in empty_cells(board)) "{c}" {
      put me at c on board
    }
  }
}
end when count(board, north) == 2 then winner north
score p {
  first_seat: number(p == north)
}
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_seats_have_names(backend):
    """`seats north, south` names seat 0 and seat 1 wherever a player is meant."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(SEATS, name="seats", backend=backend)
    state = game.new_game(seed=0)
    assert state.to_json()["zones"]["board"][0] == 1 and state.scores == [1, 0]
    state = state.play("b1").play("c1").play("a2")
    assert state.is_over and state.winners == [0]
    once = format_text(SEATS)
    assert "\n  seats north, south\n" in once and format_text(once) == once


def test_seat_names_are_checked():
    assert any("3 seat names for at most 2 players" in e for e in _errors(SEATS.replace(
        "seats north, south", "seats north, south, east")))
    clash = SEATS.replace("grid board:", "counter south\ngrid board:")
    assert any("'south' is already declared" in e for e in _errors(clash))
    from regle.dsl.differ import diff
    from regle.dsl.parser import parse
    renamed = SEATS.replace("north", "top").replace("south", "bottom")
    changes = diff(parse(SEATS, "a.rules"), parse(renamed, "b.rules"))
    assert any("game seats" in str(c) and "north, south" in str(c) for c in changes)
    from regle import lsp  # hover and go-to-definition know the seats
    found = lsp.declarations("file:///t.rules", SEATS)["south"]
    assert (found.kind, found.line, found.summary) == ("Seat", 2, "seat south (P2)")  # lines from 0


TRIAL = '''game "t" {
  players 2
}
grid board: player square 3 by 3
counter moves
counter last: cell of board
define place_at(c) {
  moves += 1
  put me at c on board
  last = c
}
turn {
  step s {
    action go(c in empty_cells(board)) "{c}" {
      let far = neighbour(board, c, "e")
      place_at(c)
      if far != none {
        put me at far on board
      }
      moves += 1
      ensure count(board, me) < 4
    }
  }
}
end when turns >= 4
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_an_ensure_trial_runs_only_the_effects_its_condition_needs(backend):
    """The trial of `ensure count(board, me) < 4` runs what changes the board (the procedure's
    put, the let it reads, the if), not the counters; the move itself runs everything."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    source = engine_source(TRIAL, "t.rules")
    trial = source[source.index("def _ensure_0"):]
    trial = trial[:trial.index("\n    def ", 10)]
    assert "s.c_moves" not in trial and "s.c_last" not in trial and "s.g_board[" in trial
    game = regle.loads(TRIAL, name="trial", backend=backend)
    state = game.new_game(seed=0).play("a1")  # a1 and b1
    assert state.to_json()["counters"] == {"moves": 2, "last": 0}
    state = state.play("a3")  # P2: a3 and b3
    # P1 has two: a2 (and b2) or b2 (and c2) would make four; the east column adds one
    assert sorted(state.notations()) == ["c1", "c2", "c3"]
    state = state.play("c1")
    assert state.to_json()["counters"] == {"moves": 6, "last": 2}


DICE = '''game "Dice" {
  players 2
}
counter total per player
counter die
turn {
  do roll {
    die = 1 + random(6)
  }
  step add {
    action add(n in 1..2) "add {n}" {
      require die != 6
      total[me] += n * die
    }
  }
}
end when turns >= 12
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_every_roll_is_kept_in_the_state_also_on_turns_with_no_decision(backend):
    """A six leaves no move: the turn passes with no decision, and its roll is still in the
    state's log; an outside replay from the rolls and the moves gives the same game."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(DICE, name="dice", backend=backend)
    state = game.new_game(seed=3)
    seen_moves = []
    while not state.is_over:
        move = state.notations()[0]
        seen_moves.append((state.turns, move))
        state = state.play(move)
    data = state.to_json()
    rolls = data["rolls"]
    assert len(rolls) == 12 and all(0 <= r < 6 for r in rolls) and 5 in rolls  # a six was rolled
    assert len(seen_moves) == 12 - rolls.count(5)  # no decision on those turns
    totals = [0, 0]  # the replay: each roll, and the move if there was one
    for turn, r in enumerate(rolls):
        if r != 5:
            totals[turn % 2] += 1 * (r + 1)
    assert data["counters"]["total"] == totals
    assert game.state_from_json(data).to_json()["rolls"] == rolls
    assert game.new_game(seed=3).to_json()["rolls"] == rolls[:1]  # the first turn has rolled
    assert "rolls" in game.new_game(seed=3).view(0)
    pixies = regle.load("pixies", backend="python")  # who starts is drawn: logged first, as drawn
    for seed in range(4):
        start = pixies.new_game(3, seed=seed)
        assert start.to_json()["rolls"] == [start.cur]


DIE = DICE.replace("die = 1 + random(6)", "die = die(6)").replace("counter die", "counter face") \
    .replace("die = die(6)", "face = die(6)").replace("require die != 6", "require face != 6") \
    .replace("n * die", "n * face").replace("players 2", "players 2\n  first player random(2)")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_die_is_logged_as_its_face_after_the_first_players_draw(backend):
    """die(n) is a face from 1 to n, kept in the log as the rules use it (not the 0..n-1 drawn
    beneath it); the first player's draw comes first in the log."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.loads(DIE, name="die", backend=backend)
    faces = set()
    for seed in range(12):
        state = game.new_game(seed=seed)
        first = state.to_json()["rolls"][0]  # (a six passes the first turn before any decision)
        assert first in (0, 1) and (state.cur == first or state.to_json()["rolls"][1] == 6)
        while not state.is_over:
            state = state.play(state.notations()[-1])
        rolls = state.to_json()["rolls"]
        assert rolls[0] == first
        assert len(rolls) == 13 and all(1 <= r <= 6 for r in rolls[1:])
        totals = [0, 0]  # the replay from the log: a six passes, else the move adds 2 * face
        for turn, r in enumerate(rolls[1:]):
            if r != 6:
                totals[(first + turn) % 2] += 2 * r
        assert state.to_json()["counters"]["total"] == totals
        faces.update(rolls[1:])
    assert faces == {1, 2, 3, 4, 5, 6}


JOURNAL = '''
game "t" { players 2 }
grid board: player square 3 by 3
grid marks: int square 3 by 3
turn {
  step s {
    action go(c in empty_cells(board)) "{c}" {
      put me at c on board
      put 1 - me at c on board
      if row(board, c) == 0 {
        clear c on board
      }
      for n in neighbours(board, c) {
        marks[n] += 1
      }
      ensure count(board, 1 - me) < 1 and sum(marks[x] for x in cells(marks)) < 100
    }
  }
}
end when turns >= 6
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_an_ensure_trial_puts_back_the_cells_it_wrote_one_by_one(backend):
    """A grid the trial writes a cell at a time keeps only those cells (journaled, put back in
    the reverse order: the same cell written twice ends as it was); a grid written in a loop
    is kept whole. Listing the moves leaves the state as it was, and the moves are those the
    rule allows."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    source = (native_source if backend == "native" else engine_source)(JOURNAL, "t.rules", "t")
    trial = source[source.index("def _ensure_0" if backend == "python" else "cdef bint _ensure_0"):]
    trial = trial[:trial.index("\n\n")]
    assert "_was0" in trial and "_was2" in trial and "_keep_g_board" not in trial
    assert "_keep_g_marks" in trial  # written in a loop: kept whole
    s = regle.loads(JOURNAL, name="t", backend=backend).new_game(seed=0)
    for _turn in range(2):
        before = s.to_json()
        # a stone of the other player is left unless it is on the first row (cleared)
        assert [str(m) for m in s.legal_moves()] == ["a1", "b1", "c1"]
        assert s.to_json() == before  # every trial put back, b2 written twice included
        s.play("b1")
    data = s.to_json()["zones"]  # grids are saved with the zones: -1 is an empty cell
    assert data["board"] == [-1] * 9 and data["marks"] == [2, 0, 2, 0, 2, 0, 0, 0, 0]


def test_a_zone_kept_for_plays_rollback_is_the_zone_item_for_item():
    """play() keeps each zone in its spare copy item by item in C (``keep_list``): unchanged, a
    longer or a shorter list, items shared or not, small numbers or objects. After it, the copy
    holds the same objects in the same order, and nothing is leaked or let go too early."""
    import sys
    from hypothesis import given, strategies as st
    try:
        from regle.runtime import _support
    except ImportError:
        pytest.skip("the compiled runtime is not built")
    pool = [object() for _ in range(6)] + list(range(4)) + [10 ** 30, (1, 2)]

    @given(st.lists(st.integers(0, len(pool) - 1), max_size=12), st.lists(st.integers(0, len(pool) - 1), max_size=12),
           st.booleans())
    def agree(a, b, same_start):
        into = [pool[i] for i in a]
        source = [pool[i] for i in (a if same_start else b)]
        before = [sys.getrefcount(x) for x in pool]
        _support.keep_list_into(into, source)
        assert len(into) == len(source) and all(x is y for x, y in zip(into, source))
        after = [sys.getrefcount(x) for x in pool]  # (counted alike: the same temporaries)
        held = [sum(1 for y in into + source if y is x) for x in pool]
        was = [sum(1 for y in [pool[i] for i in a] + source if y is x) for x in pool]
        counted = [i for i, x in enumerate(pool) if type(x) is not int or x > 256]  # (small ints are shared)
        assert [after[i] - held[i] for i in counted] == [before[i] - was[i] for i in counted]
        into.clear()

    agree()


def test_an_observation_made_float32_in_c_is_numpys_conversion():
    """Native observations turn the engine's list of numbers into float32 in C (``floats_of``):
    the same floats as NumPy's conversion, for whole numbers of any size and sign, floats and
    truth values."""
    np = pytest.importorskip("numpy")
    from hypothesis import given, strategies as st
    try:
        from regle.runtime import _support
    except ImportError:
        pytest.skip("the compiled runtime is not built")
    number = st.one_of(st.integers(), st.integers(-300, 300), st.booleans(),
                       st.floats(allow_nan=False, width=32))

    @given(st.lists(number, max_size=40))
    def agree(values):
        ours = _support.float_row(values)
        assert ours.dtype == np.float32 and ours.flags.writeable
        assert ours.tobytes() == np.asarray(values, dtype=np.float32).tobytes()

    agree()
