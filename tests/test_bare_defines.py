"""A define without parameters, declared and used without parentheses (``define free = ...``,
``free``): the same engine as with them, laid out as written, and a local that would hide it
refused at its position."""
from __future__ import annotations

import pytest

import regle
from regle import native
from regle.compiler.generate import engine_source
from regle.dsl import ast, parse
from regle.dsl.printer import format_text

HEAD = '''game "t" {
  players 2
}

grid board: player square 3 by 3
'''
BARE = HEAD + '''
define free = count(empty_cells(board))
define size = count(cells(board))
define half = size // 2

turn {
  action put(c in empty_cells(board)) {
    require free > half or c == first(empty_cells(board))
    put me at c on board
  }
}

end when free == 0
'''
PARENS = BARE.replace("define free =", "define free() =").replace("define half =", "define half() =") \
    .replace("define size =", "define size() =").replace("require free > half", "require free() > half()") \
    .replace("end when free ==", "end when free() ==").replace("= size // 2", "= size() // 2")


def _backends():
    return ["python", "native"] if native.available() else ["python"]


def test_a_bare_define_parses_as_written_and_is_laid_out_so():
    d = next(x for x in parse(BARE).decls if isinstance(x, ast.Define))
    assert d.bare and d.params == []
    assert not next(x for x in parse(PARENS).decls if isinstance(x, ast.Define)).bare
    assert format_text(BARE) == BARE
    assert format_text(PARENS) == PARENS


def _code(text: str) -> list[str]:
    """An engine's code without its comments (which quote the rules' lines) and the rules' hash."""
    lines = (line.split("#")[0].rstrip() for line in engine_source(text, "t.rules").splitlines())
    return [line for line in lines if line and not line.startswith("RULES_HASH")]


def test_the_bare_name_and_the_call_make_the_same_engine():
    assert _code(BARE) == _code(PARENS)
    # and either spelling of the use works with either spelling of the declaration
    mixed = BARE.replace("end when free ==", "end when free() ==")
    assert _code(mixed) == _code(PARENS)


@pytest.mark.parametrize("backend", _backends())
def test_a_bare_define_plays(backend):
    game = regle.loads(BARE, name="bare_defines", backend=backend)
    s = game.new_game(2, seed=3)
    seen = 0
    names = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    while not s.over:
        empty = ["put " + names[c] for c in range(9) if s.g_board[c] == 0]
        legal = [str(m) for m in s.legal_moves()]
        # the require: every empty cell while more than half (4 of 9) are empty, else the first
        assert legal == (empty if len(empty) > 4 else empty[:1])
        s.play(legal[-1])
        seen += 1
    assert seen == 9


@pytest.mark.parametrize("local, where", [
    ("define g(free) = free + 1\n", "19:1"),
    ("invariant x: count(free for free in empty_cells(board)) >= 0\n", "19:14"),
    ("score free {\n  cells: 1\n}\n", "19:1"),
])
def test_a_local_named_like_a_bare_define_is_refused_where_it_is_bound(local, where):
    text = BARE.replace("end when free == 0\n", "end when free == 0\n" + local)
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    found = [f"{d.line}:{d.column} {d.message}" for d in info.value.diagnostics]
    assert any(f.startswith(where) and "'free' is a define without parameters" in f for f in found), found
