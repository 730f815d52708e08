"""A notation that reads the position: a let that reads the board, or one the effects compute,
shown in the move's notation (compiler/lower/notation.py, runtime/engine.py ``Move.READS``)."""
from __future__ import annotations

import pickle
import random

import pytest

import regle
from regle import native
from compiler.generate import engine_source

SHOTS = '''game "Shots" {
  seats south, north
  max decisions 60
}
grid board: player square 5 by 5
setup {
  for c in cells(board) {
    if row(board, c) == 0 {
      put south at c on board
    }
    if row(board, c) == 4 {
      put north at c on board
    }
  }
}
turn {
  /// the first piece along the line is hit: the notation names it
  action shoot(c in filled_cells(board, me), d in directions(board)) "{c}x{target}" {
    let target = argmin(0 for t in ray(board, c, d) where not is_empty(board, t))
    require target != none and board[target] != me
    clear target on board
  }
  /// the notation counts the empty cells once the piece has moved
  action walk(c in filled_cells(board, me), t in neighbours(board, c)) "{c}-{t} ({left} left)" {
    require is_empty(board, t)
    move c to t on board
    let left = count(empty_cells(board))
  }
}
end when count(filled_cells(board, 1 - me)) == 0 then winner me
'''

BACKENDS = ["python", "native"]


def _game(backend: str, text: str = SHOTS):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    return regle.loads(text, name="shots", backend=backend)


def _errors(text: str) -> list[str]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [f"{d.line}:{d.column} {d.message} | {d.hint or ''}" for d in info.value.diagnostics]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_notation_reads_the_position_the_move_is_listed_in(backend):
    s = _game(backend).new_game(seed=0)
    shown = [str(m) for m in s.legal_moves()]
    # each south piece shoots north at the north piece across the board
    assert shown[:5] == ["a1xa5", "b1xb5", "c1xc5", "d1xd5", "e1xe5"]
    # the effect's let after the move: 15 empty cells before, still 15 after a step
    assert shown[5:] == [f"{x}1-{x}2 (15 left)" for x in "abcde"]
    assert s.notations() == shown
    s.play("c1xc5")  # one north piece fewer: 16 empty cells, and c1's line is clear
    assert "c5xc1" not in s.notations()  # (the piece is gone)
    assert "b5-c5 (16 left)" in s.notations() and "a5xa1" in s.notations()


@pytest.mark.parametrize("backend", BACKENDS)
def test_reading_the_notations_changes_nothing(backend):
    s = _game(backend).new_game(seed=3)
    rng = random.Random(3)
    while not s.over:
        before = s.to_json()
        texts = s.notations()
        moves = s.legal_moves()
        assert [str(m) for m in moves] == texts and len(set(texts)) == len(texts)
        assert s.to_json() == before
        s.play(rng.choice(s.legal))


@pytest.mark.parametrize("backend", BACKENDS)
def test_listed_moves_keep_the_notation_of_their_position(backend):
    s = _game(backend).new_game(seed=0)
    moves = s.legal_moves()
    s.play(moves[0])  # a1xa5: the position changes, the list it was taken from does not
    assert str(moves[0]) == "a1xa5" and str(moves[5]) == "a1-a2 (15 left)"
    copied = pickle.loads(pickle.dumps(moves[5]))
    assert str(copied) == "a1-a2 (15 left)" and copied == moves[5]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_move_without_its_position_reads_as_its_name_and_values(backend):
    s = _game(backend).new_game(seed=0)
    m = s.legal[0]
    assert str(s.MOVE(m)) == "shoot a1 n"  # no position at hand: the action's name and values
    assert s.notation(m) == "a1xa5"
    # either text plays it; the move played reads as in its position
    assert str(s.move_from_text("shoot a1 n")) == "a1xa5"
    assert s.copy().play("shoot a1 n").to_json() == s.copy().play("a1xa5").to_json()


def test_both_engines_give_the_same_notations():
    if not native.available():
        pytest.skip(native.unavailable_reason())
    for seed in range(5):
        a, b = _game("python").new_game(seed=seed), _game("native").new_game(seed=seed)
        rng = random.Random(seed)
        while not a.over:
            assert a.notations() == b.notations()
            text = rng.choice(a.notations())
            a.play(text)
            b.play(text)
        assert b.over and a.to_json() == b.to_json()


def test_moves_that_read_alike_in_the_position_are_told_apart():
    # shown without the shooter, two shots at one target read alike: each gets its longer form
    text = SHOTS.replace('"{c}x{target}"', '"x{target}"')
    told = 0
    for seed in range(6):
        s = _game("python", text).new_game(seed=seed)
        rng = random.Random(seed)
        while not s.over:
            plain, texts = s._texts()
            assert len(set(texts)) == len(texts)
            for m, p, t in zip(s.legal, plain, texts):
                if p != t:
                    told += 1
                    assert t.startswith(p + " ")  # the notation, then the values' longer forms
                    assert s.copy().play(t).to_json() == s.copy().play(m).to_json()
            s.play(rng.choice(s.legal))
    assert told > 0


def test_what_a_notation_cannot_read_in_the_position():
    # a value drawn on chance before the let shown: the notation would draw it too
    text = SHOTS.replace("    move c to t on board\n", "    move c to t on board\n    let roll = random(6)\n") \
        .replace("({left} left)", "({roll})")
    errors = _errors(text)
    assert len(errors) == 1 and "may not end the turn or the game" in errors[0] and "draw on chance" in errors[0]
    # the turn ended before it
    text = SHOTS.replace("    move c to t on board\n", "    move c to t on board\n    end turn\n")
    errors = _errors(text)
    assert len(errors) == 1 and errors[0].startswith("27:5 a notation shows the move in the position")
    # a let inside an if is not the action's own
    text = SHOTS.replace("    let left = count(empty_cells(board))\n",
                         "    if true {\n      let left = count(empty_cells(board))\n    }\n")
    errors = _errors(text)
    assert any("'{left}' in this text names nothing" in e for e in errors)
