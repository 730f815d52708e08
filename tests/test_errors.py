"""Author-facing errors: positions, words and hints; never anything but RulesError."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import regle
from regle.compiler.generate import engine_source
from regle.dsl import parse

GOOD = '''game "T" { players 2 }
zone pile: int = [1, 2, 3]
zone hand: int per player
turn {
  step act {
    action take(v in pile) { move v from pile to hand[me] }
  }
}
end when count(pile) == 0
'''


def errors_of(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [(d.line, d.column, d.message + " | " + (d.hint or "")) for d in info.value.diagnostics]


def test_the_good_file_is_clean():
    assert "class State" in engine_source(GOOD, "t.rules")


# (replace this text of GOOD, by this) -> expected (line, column, words in the message)
CASES = [
    ("[1, 2, 3]", "[1, 2, 3", [(2, 18, "this '[' is never closed")]),
    ('game "T" { players 2 }', 'game "T" { players 2', [(1, 10, "this '{' is never closed")]),
    ('game "T"', "game 'T'", [(1, 6, "strings use double quotes")]),
    ("count(pile) == 0", "count(pile) = 0", [(9, 22, "to compare use '=='")]),
    ("players 2", "players 3..2", [(1, 12, "impossible player range 3..2")]),
    ("from pile to hand", "from pil to hand", [(6, 42, "unknown name 'pil'"), (6, 42, "did you mean 'pile'")]),
    ("zone hand: int per player", "zone hand: card per player", [(3, 12, "unknown type 'card'")]),
    ("hand[me] }", "hand }", [(6, 50, "say whose, e.g. hand[me]")]),
    ("count(pile) == 0", "count(pile, 1, 2) == 0", [(9, 10, "count() takes 1 or 2 arguments, not 3")]),
    ("count(pile) == 0", "cuont(pile) == 0", [(9, 10, "unknown function 'cuont'"), (9, 10, "did you mean 'count'")]),
    ("count(pile) == 0", "count(pile) == true", [(9, 10, "cannot compare a number with true/false")]),
    ("zone hand: int per player", "zone pile: int", [(3, 6, "'pile' is already declared (line 2)")]),
    ("move v from pile to hand[me]", "move v from pile to hand[me]\n require v > 0",
     [(7, 2, "'require' must come before the action's effects")]),
    ("end when count(pile) == 0", "end when count(pile) == 0 and me", [(9, 31, "'and' joins conditions")]),
    ("zone pile: int = [1, 2, 3]", "zone pile: int = [1, 2, 3]\nparam lambda = 3",
     [(3, 7, "reserved (a Python keyword)")]),
    ("zone pile: int = [1, 2, 3]", "zone pile: int = [1, 2, 3]\nzone __class__: int",
     [(3, 6, "may not start or end with '_'")]),
    ("step act {", "step act {\n  pass\n  pass", [(7, 3, "a step may have one pass")]),
    ("zone hand: int per player", "zone hand: int per player\nsetup { shuffle hand }",
     [(4, 17, "'hand' is a zone per player")]),
    ("end when count(pile) == 0", "end when random(2) == 0", [(9, 10, "random() may only be used in setup")]),
]


@pytest.mark.parametrize("old, new, expected", CASES)
def test_broken_inputs_report_position_and_words(old, new, expected):
    assert old in GOOD
    found = errors_of(GOOD.replace(old, new, 1))
    for line, col, words in expected:
        assert any(l == line and c == col and words in m for l, c, m in found), (expected, found)


def test_several_errors_are_reported_at_once():
    text = GOOD.replace("from pile to", "from pil to").replace("count(pile)", "count(pil)")
    text = text.replace("zone hand: int", "zone hand: cards")
    found = errors_of(text)
    assert len(found) >= 3
    assert [f[0] for f in found] == sorted(f[0] for f in found)


def test_a_syntax_error_does_not_hide_checker_errors_elsewhere():
    text = GOOD.replace("from pile to", "from pil to").replace("== 0", "= 0")
    found = errors_of(text)
    assert any("unknown name 'pil'" in m for _, _, m in found)
    assert any("'=='" in m for _, _, m in found)


def test_errors_render_with_file_line_caret_and_hint():
    with pytest.raises(regle.RulesError) as info:
        engine_source(GOOD.replace("from pile to", "from pil to"), "games/x.rules")
    text = info.value.render()
    lines = text.splitlines()
    assert lines[0] == "games/x.rules:6:42: error: unknown name 'pil'"
    assert lines[1].strip().startswith("action take")
    assert lines[2].index("^") == lines[1].index("pil to")
    assert lines[3].strip() == "hint: did you mean 'pile'?"


@pytest.mark.parametrize("data, words", [
    (b"", "declare no game"),
    (b"\xff\xfe\x00bad", "not valid UTF-8"),
    (b"game \x00", "NUL byte"),
    (b"game " + b"x" * 3_000_000, "too large"),
])
def test_odd_bytes_give_clear_errors(tmp_path, data, words):
    f = tmp_path / "odd.rules"
    f.write_bytes(data)
    with pytest.raises(regle.RulesError) as info:
        regle.check_file(f)
    assert words in str(info.value)


def test_missing_file_is_a_rules_error(tmp_path):
    with pytest.raises(regle.RulesError, match="cannot read"):
        regle.check_file(tmp_path / "nope.rules")


@pytest.mark.parametrize("deep", ["(" * 5000 + "1" + ")" * 5000 + " == 1",
                                  "not " * 3000 + "true", "1" + " + 1" * 3000 + " > 0"])
def test_deep_nesting_is_refused_or_compiled_never_a_crash(deep):
    try:
        engine_source(GOOD.replace("count(pile) == 0", deep), "deep.rules")
    except regle.RulesError as err:
        assert "nested too deeply" in str(err)


KEYWORDS = ["game", "players", "zone", "int", "per", "player", "turn", "step", "action", "move",
            "from", "to", "in", "end", "when", "count", "(", ")", "{", "}", "[", "]", "==", "=",
            "+", "-", "*", "//", "pile", "hand", "me", "1", "2", '"T"', "\n", "#c\n", "///d\n",
            "require", "if", "else", "for", "let", "deal", "all", "where", "it", ".", ",", "..",
            "score", "winner", "most", "ties", "draw", "table", "enum", "param", "pass", "setup"]


@settings(max_examples=300, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(KEYWORDS), max_size=40))
def test_grammar_shaped_garbage_only_raises_rules_error(words):
    text = " ".join(words)
    try:
        engine_source(text, "fuzz.rules")
    except regle.RulesError as err:
        assert err.diagnostics and all(d.line >= 1 and d.column >= 1 for d in err.diagnostics)
        err.render()


@settings(max_examples=200, deadline=5000)
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_rules_error(data):
    try:
        parse(data, "bytes.rules")
    except regle.RulesError as err:
        err.render()


@settings(max_examples=200, deadline=5000)
@given(st.text(max_size=200))
def test_random_text_only_raises_rules_error(text):
    try:
        engine_source(text, "text.rules")
    except regle.RulesError as err:
        err.render()


@settings(max_examples=150, deadline=5000)
@given(st.integers(0, len(GOOD) - 1), st.integers(1, 8))
def test_truncated_or_cut_good_files_only_raise_rules_error(at, length):
    text = GOOD[:at] + GOOD[at + length:]
    try:
        engine_source(text, "cut.rules")
    except regle.RulesError as err:
        err.render()


def test_a_define_without_parentheses_and_hints_for_a_function_that_is_not_one():
    head = 'game "x" { players 2 }\n'
    tail = 'zone pile: int = [1, 2, 3]\nturn { step s { action take(v in pile) { require {call} > 0\n remove v from pile } } }\n' \
           'end when count(pile) == 0\n'
    regle.loads(head + "define q = 3\n" + tail.replace("{call}", "count(pile) + q"))  # no parameters: no ()
    found = errors_of(head + tail.replace("{call}", "spin(v)"))
    assert any("unknown function 'spin'" in m and "did you mean" not in m and "count" in m for _l, _c, m in found)
    found = errors_of(head + tail.replace("{call}", "cuont(pile)"))
    assert any("did you mean 'count'?" in m for _l, _c, m in found)


def test_a_define_used_nowhere_is_checked_all_the_same():
    text = ('game "x" { players 2 }\ndefine unused(a) = a + pil\nzone pile: int = [1, 2, 3]\n'
            'turn { step s { action take(v in pile) { remove v from pile } } }\nend when count(pile) == 0\n')
    found = errors_of(text)
    assert any(line == 2 and "unknown name 'pil'" in m for line, _c, m in found), found


def test_hints_for_else_if_among_statements_and_a_condition_on_an_optional_step():
    text = ('game "x" { players 2 }\ncounter n\nsetup {\n  if n > 0 {\n    n += 1\n  } else if n < 0 {\n'
            '    n += 2\n  }\n}\nturn {\n  step s {\n    action a { n += 1 }\n  }\n}\nend when turns > 2\n')
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "x.rules")
    d = info.value.diagnostics[0]
    assert (d.line, d.column) == (6, 10) and "elif COND" in d.hint
    engine_source(text.replace("} else if n < 0", "} elif n < 0"), "x.rules")  # the spelling it hints at
    optional = text.replace("} else if n < 0", "} elif n < 0").replace("  step s {", "  optional step s when n > 0 {")
    with pytest.raises(regle.RulesError) as info:
        engine_source(optional, "x.rules")
    assert "only a plain step takes a condition" in info.value.diagnostics[0].hint
