"""Values of every type where the rules keep them: counters that hold cells, seats, members,
items or true/false (and `none`), and notations that show a guard's let computed from the move."""
from __future__ import annotations

import pytest

import regle
from regle import native
from regle.compiler.generate import engine_source
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


def test_a_notation_cannot_show_what_the_board_holds():
    text = JUMPS.replace('"{c}-{t} ({far})"', '"{c}-{t} {free}"').replace(
        "      require t != none and is_empty(board, t)\n",
        "      let free = is_empty(board, t)\n      require t != none and free\n")
    errors = _errors(text)
    assert len(errors) == 1
    assert errors[0].startswith("25:18 '{free}': a notation names the move alone")
    assert "show a parameter instead" in errors[0]
    # a let that reads a let which reads the board is refused at what it reads
    text = JUMPS.replace('"{c}-{t} ({far})"', '"{c}-{t} {n}"').replace(
        "      let far =", "      let free = is_empty(board, t)\n      let n = number(free)\n      let far =")
    errors = _errors(text)
    assert len(errors) == 1 and errors[0].startswith("25:22 '{n}'")
