"""`let` inside a define (``define f(c) = let a = ... then let b = ... then value``): parsed with
positions, laid out by the formatter and parsed back, refused with a position and a hint where
it is misspelt or takes a name it may not, computed once per use, and played alike by both
engines (the random nested expressions of tests/test_nesting.py draw such lets too)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import regle
from regle import native
from regle.compiler.generate import engine_source, native_source
from regle.dsl import ast, parse
from regle.dsl.printer import expr, format_text

from test_nesting import COND, ENV, Maker


def _backends():
    return ["python", "native"] if native.available() else ["python"]


def _errors(text: str) -> list[str]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [f"{d.line}:{d.column} {d.message}" + (f" | {d.hint}" if d.hint else "") for d in info.value.diagnostics]


HEAD = '''game "t" {
  players 2
}
grid board: player square 4 by 4 with diagonals
'''

# a define with lets, and the same value written without them
WITH = HEAD + '''
define room(c) =
  let free = count(d for d in neighbours(board, c) where is_empty(board, d))
  then let mine = count(d for d in neighbours(board, c) where board[d] == me)
  then free * 2 - mine + row(board, c)

turn {
  action put(c in empty_cells(board)) "{c}" {
    require room(c) >= 2
    put me at c on board
  }
}
end when not any(room(c) >= 2 for c in empty_cells(board))
'''
WITHOUT = WITH.replace('''define room(c) =
  let free = count(d for d in neighbours(board, c) where is_empty(board, d))
  then let mine = count(d for d in neighbours(board, c) where board[d] == me)
  then free * 2 - mine + row(board, c)''', '''define room(c) =
  count(d for d in neighbours(board, c) where is_empty(board, d)) * 2
  - count(d for d in neighbours(board, c) where board[d] == me) + row(board, c)''')


def test_a_define_with_lets_parses_into_its_lets_and_value_with_positions():
    rules = parse(WITH)
    d = next(x for x in rules.decls if isinstance(x, ast.Define))
    assert isinstance(d.body, ast.LetIn)
    assert [let.name for let in d.body.lets] == ["free", "mine"]
    assert [let.pos for let in d.body.lets] == [(7, 3), (8, 8)]
    assert isinstance(d.body.value, ast.BinOp)
    assert "then let mine" in expr(d.body)  # on one line (hover, rulebook, diff)


def test_the_formatter_puts_each_let_on_its_line_and_keeps_the_tree():
    out = format_text(WITH)
    assert WITH[WITH.index("define"):WITH.index("turn")] in out  # as written above
    assert format_text(out) == out
    squeezed = WITH.replace("\n  then", " then")
    assert format_text(squeezed) == out
    assert parse(squeezed) == parse(WITH)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.integers(1, 3), st.integers(1, 4))
def test_random_lets_are_laid_out_within_the_width_and_parse_back(seed, depth, count):
    rng = random.Random(seed)
    maker = Maker(rng.randrange, {})
    names = list(ENV)[:3] + ["u"]
    lets = []
    for i in range(count):
        lets.append(f"let w{i} = {maker.number(depth, names).text(COND)}")
        names.append(f"w{i}")
    body = " then ".join(lets + [maker.number(depth, names).text(COND)])
    text = (f'game "T" {{ players 2 }}\nparam k = 5\ncounter a = 3\ncounter b = -2\ncounter c = 0\n'
            f"define long_name_of_a_define(u) = {body}\n")
    out = format_text(text)
    assert format_text(out) == out
    assert parse(out) == parse(text)
    d = parse(text).decls[-1]
    assert [let.name for let in d.body.lets] == [f"w{i}" for i in range(count)]
    for line in out.splitlines():
        if len(line) > 100:
            assert " " not in line.strip(), line
    # the one-line form parses back too
    again = parse(f'game "T" {{ players 2 }}\ndefine f(u) = {expr(d.body)}\n').decls[-1]
    assert again.body == d.body


def test_lets_are_computed_once_in_the_function_and_natively_are_c_numbers():
    py = engine_source(WITH, "t.rules")
    fn = py[py.index("def fn__room"):]
    fn = fn[:fn.index("\n\n")]
    # the board the two lets read taken once at the top (compiler/passes/reads.py), then the lets
    assert fn.splitlines()[1].strip() == "g_board = s.g_board  # read once"
    lines = [line.strip() for line in fn.splitlines()[2:]]
    assert lines[0].startswith("free_ = len(") and lines[1].startswith("mine_ = len(")
    assert "s.g_board" not in "".join(lines)
    assert lines[2] == "return free_ * 2 - mine_ + G_board__ROWS[c_]"  # each let computed once
    nat = native_source(WITH, "t.rules")
    fn = nat[nat.index("cdef long fn__room"):]
    assert "cdef long free_" in fn[:300] and "cdef long mine_" in fn[:300]


@pytest.mark.parametrize("backend", _backends())
def test_a_define_with_lets_plays_the_game_its_value_written_out_plays(backend):
    a = regle.loads(WITH, name="lets_with", backend=backend)
    b = regle.loads(WITHOUT, name="lets_without", backend=backend)
    for seed in range(30):
        rng = random.Random(seed)
        s, t = a.new_game(2, seed=seed), b.new_game(2, seed=seed)
        while not s.over:
            assert [str(m) for m in s.legal_moves()] == [str(m) for m in t.legal_moves()]
            move = rng.choice(s.legal_moves())
            s.play(move)
            t.play(str(move))
        assert t.over and s.winners == t.winners


@pytest.mark.parametrize("backend", _backends())
def test_a_notation_shows_a_value_a_define_with_lets_computes(backend):
    text = HEAD + '''
define label(c) =
  let r = row(board, c)
  then let k = column(board, c)
  then r * 10 + k

turn {
  action put(c in empty_cells(board)) "{c}:{n}" {
    let n = label(c)
    put me at c on board
  }
}
end when count(empty_cells(board)) == 0
'''
    game = regle.loads(text, name="lets_notation", backend=backend)
    shown = [str(m) for m in game.new_game(2, seed=1).legal_moves()]
    assert shown[:5] == ["a1:0", "b1:1", "c1:2", "d1:3", "a2:10"]


def test_a_let_with_a_product_is_kept_in_range():
    text = HEAD + "define big(c) =\n  let n = 1000000 * (row(board, c) + 1)\n  then n * n * n\n" \
        "turn { action put(c in empty_cells(board)) { require big(c) > 0\n put me at c on board } }\n" \
        "end when count(empty_cells(board)) == 0\n"
    fn = engine_source(text, "t.rules")
    assert "n_ = ops.number(" in fn


@pytest.mark.parametrize("body, where, message", [
    ("let c = 1 then c", "7:3", "'c' is a parameter of this define"),
    ("let board = 1 then board", "7:3", "'board' is already declared"),
    ("let me = 1 then me", "7:3", "'me' is a built-in name of the rules language"),
    ("let x = 1 then let x = 2 then x", "7:18", "'x' is already a let of this define"),
    ("let x = y then let y = 2 then x", "7:11", "unknown name 'y'"),
    ("let x = board then 1", "7:11", "'let' names a value"),
])
def test_a_let_that_takes_a_name_it_may_not_is_refused_at_its_position(body, where, message):
    text = HEAD + "zone pile: int\n" + f"define f(c) =\n  {body}\n" + \
        "turn { action put(c in empty_cells(board)) { require f(c) != 5\n put me at c on board } }\n" \
        "end when count(empty_cells(board)) == 0\n"
    text = text.replace("let x = board", "let x = pile")
    found = _errors(text)
    assert any(e.startswith(where) and message in e for e in found), found


def test_a_let_without_then_and_a_value_in_a_procedure_get_hints():
    missing = HEAD + "define f(c) =\n  let x = row(board, c)\n  x + 1\nend when false\n"
    found = [e for e in _errors(missing) if e.startswith("7:3 unexpected 'x'; expected 'then'")]
    assert found and "each let is followed by 'then'" in found[0]
    procedure = HEAD + "define f(c) {\n  let x = row(board, c)\n  x + 1\n}\nend when false\n"
    found = [e for e in _errors(procedure) if e.startswith("7:5 unexpected '+'")]
    assert found and "a define that gives a value is written define f(c) = let a = ... then a + 1" in found[0]
