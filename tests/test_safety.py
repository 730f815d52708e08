"""Untrusted rules files and saved games: no code runs, bounds hold, errors are clear."""
from __future__ import annotations

import json

import pytest

import regle
from conftest import GAMES
from regle.compiler.generate import engine_source

BASE = '''game "T" { players 2 }
zone pile: int = [1, 2, 3]
zone hand: int per player
turn {
  step act {
    action take(v in pile) "take {v}" { move v from pile to hand[me] }
  }
}
end when count(pile) == 0
'''


# ---- injection ------------------------------------------------------------------------------------
def canary_text(canary) -> str:
    return f"__import__('os').system('touch {canary}')"


@pytest.mark.parametrize("make", [
    lambda c: BASE.replace('game "T"', 'game "T\\"); ' + canary_text(c).replace("'", "\\\"") + ' #"'),
    lambda c: BASE.replace('"take {v}"', '"take {v}\\n' + canary_text(c).replace("'", "\\\"") + '"'),
    lambda c: BASE.replace('"take {v}"', '"take {{v}} {v} \\\\ \\" \'\'\' {{__class__}}"'),
    lambda c: BASE.replace('game "T"', 'game "Т — Unicode look-alike: \u0430\u0435\u043e and \u200b"'),
])
def test_strings_are_carried_as_data(tmp_path, make):
    canary = tmp_path / "canary"
    text = make(canary)
    game = regle.loads(text, name="inject")
    s = game.new_game(seed=0)
    for m in s.legal_moves():
        str(m)
    s.play(s.legal_moves()[0])
    assert not canary.exists()


@pytest.mark.parametrize("bad, words", [
    ("zone __import__: int", "may not start or end with '_'"),
    ("zone __class__: int", "may not start or end with '_'"),
    ("zone p\u0430le: int", "unexpected character"),  # a Cyrillic a inside a name
    ('zone "pile": int', "unexpected"),
    ("param lambda = 1", "reserved (a Python keyword)"),
    ("param print = 1", None),  # a Python builtin is a fine rules name: it is renamed in the engine
    ("zone import: int", "reserved (a Python keyword)"),
])
def test_names_that_could_escape_are_refused_or_renamed(tmp_path, bad, words):
    text = BASE.replace("zone hand: int per player", "zone hand: int per player\n" + bad)
    if words is None:
        code = engine_source(text, "t.rules")
        compile(code, "engine", "exec")
        return
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    assert words in str(info.value)
    assert info.value.diagnostics[0].line == 4


# ---- resource limits ---------------------------------------------------------------------------------
LIMIT_CASES = [
    ("table rows", BASE + "table t(v: int) {\n  1 * 10001\n}\n", "more than 10,000 items"),
    ("players", BASE.replace("players 2", "players 2..99"), "at most 64 players"),
    ("param size", BASE + "param big = 99999999999\n", "too large"),
    ("grid cells", BASE.replace("zone hand: int per player", "zone hand: int per player\nenum e { a }\n"
                                "grid g: e square 100 by 100"), "the limit is 4,096"),
    ("pattern size", BASE + 'enum e { a = "A" }\ntable t(p: pattern of e) {\n  "' + "A" * 65 + '"\n}\n',
     "too large (at most 64 cells)"),
    ("capacity", BASE.replace("zone pile: int", "zone pile: int capacity 1000000"), "impossible capacity"),
    ("enum members", BASE + "enum e { " + ", ".join(f"m{i}" for i in range(300)) + " }\n", "at most 254 members"),
    ("nesting", BASE.replace("count(pile) == 0", "not " * 70 + "true"), "nested more than 60 levels"),
]


@pytest.mark.parametrize("name, text, words", LIMIT_CASES, ids=[c[0] for c in LIMIT_CASES])
def test_each_limit_is_a_positioned_error(name, text, words):
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "limits.rules")
    assert words in str(info.value)
    assert all(d.line >= 1 for d in info.value.diagnostics)


def test_a_turn_without_a_decision_is_refused():
    text = BASE.replace('step act {\n    action take(v in pile) "take {v}" { move v from pile to hand[me] }\n  }',
                        "do nothing { }")
    with pytest.raises(regle.RulesError, match="never asks a player anything"):
        engine_source(text, "t.rules")


def test_a_turn_whose_decisions_never_come_is_stopped_with_its_line():
    text = BASE.replace("action take(v in pile)", "action take(v in hand[me])").replace("end when count(pile) == 0", "")
    game = regle.loads(text, name="stuck", filename="stuck.rules")
    with pytest.raises(regle.RulesRuntimeError, match="without a decision"):
        game.new_game(seed=0)


def test_extends_that_go_too_deep_are_refused(tmp_path):
    (tmp_path / "f0.rules").write_text(BASE, encoding="utf-8")
    for i in range(1, 11):
        (tmp_path / f"f{i}.rules").write_text(f'extend "f{i - 1}.rules"\n', encoding="utf-8")
    with pytest.raises(regle.RulesError, match="more than 8 files extend one another"):
        regle.check_file(tmp_path / "f10.rules")


def test_a_huge_file_is_refused_without_reading_it_all_into_the_parser(tmp_path):
    f = tmp_path / "huge.rules"
    f.write_bytes(b"# " + b"x" * (50 * 1024 * 1024))
    with pytest.raises(regle.RulesError, match="too large"):
        regle.check_file(f)


# ---- saved games -----------------------------------------------------------------------------------
def _mid(game, players=2, seed=1, decisions=12):
    s = game.new_game(players=players, seed=seed)
    from regle.runtime.agents import RandomAgent
    agent = RandomAgent(seed)
    for _ in range(decisions):
        if s.is_over:
            break
        s.play(agent.choose(s))
    return s


SAVED_CASES = {
    "eclats": [(lambda d: d["zones"]["market"].append(4), "glass_conserved"),
               (lambda d: d["zones"]["workshop"].append([]), "zones.workshop"),
               (lambda d: d["zones"]["contracts"].__setitem__(0, "x"), "zones.contracts[0]")],
    "cibles": [(lambda d: d["zones"]["board"].__setitem__(0, 7), "zones.board[0]"),
               (lambda d: d["zones"]["board"].append(-1), "zones.board"),
               (lambda d: d["counters"]["points"].append(0), "counters.points"),
               (lambda d: d["zones"]["board"].__setitem__(d["zones"]["board"].index(-1), 0), "marbles_kept")],
    "explobilles": [(lambda d: d["zones"]["supply"].append(0), "marbles_kept"),  # 53 marbles
                    (lambda d: d["zones"]["tray"][0].__setitem__(0, 9), "zones.tray[0][0]"),
                    (lambda d: d["zones"]["market"].pop(), "zones.market"),
                    (lambda d: d.update(current=2), "current")],
    "pixies": [(lambda d: d["zones"]["deck"].pop(), "cards_kept"),
               (lambda d: d["zones"]["face_up"][0].__setitem__(0, 70), "zones.face_up[0][0]"),
               (lambda d: d["counters"].update(round="1"), "counters.round"),
               (lambda d: d.update(next=5), "next")],
}


@pytest.mark.parametrize("name", sorted(SAVED_CASES))
def test_malformed_saved_states_are_refused_and_the_state_in_use_is_untouched(name):
    game = regle.load(GAMES / f"{name}.rules")
    s = _mid(game)
    before = json.dumps(s.to_json(), sort_keys=True)
    for mutate, field in SAVED_CASES[name]:
        data = json.loads(before)
        mutate(data)
        with pytest.raises(regle.StateError) as info:
            game.state_from_json(data)
        assert field in str(info.value), (field, str(info.value))
        assert json.dumps(s.to_json(), sort_keys=True) == before
    game.state_from_json(json.loads(before))  # the unmodified state still loads


def test_a_repeat_step_that_never_ends_is_stopped_with_its_line():
    text = BASE.replace('''  step act {
    action take(v in pile) "take {v}" { move v from pile to hand[me] }
  }''', '''  step act {
    action take(v in pile) "take {v}" { move v from pile to hand[me] }
  }
  repeat step fidget while true {
    action wiggle "wiggle" { }
  }''')
    game = regle.loads(text, name="fidget", filename="fidget.rules")
    s = game.new_game(seed=0)
    s.play("take 1")
    with pytest.raises(regle.RulesRuntimeError, match=r"fidget.rules:8: step fidget repeated 10,000 times"):
        while True:
            s.play("wiggle")


def test_the_native_engine_is_the_templates_output_with_no_pass_over_its_text():
    """Nothing rewrites a native engine's text after the template (no regular expression over
    generated code, so text from the rules can never be read as code): the native source of
    every file in games/ is exactly the native lowering rendered by the template, and its rules
    text (notations, comments) is there as the Python engine has it."""
    from pathlib import Path

    from regle.compiler.generate import engine_source, lower, native_source, render
    root = Path(__file__).resolve().parent.parent
    for path in sorted((root / "games").rglob("*.rules")):
        text = path.read_text(encoding="utf-8")
        native = native_source(text, str(path), path.stem)
        assert native == render(lower(text, str(path), path.stem, native=True), native=True), path.name
        python = engine_source(text, str(path), path.stem)
        for line in python.splitlines():
            if line.strip().startswith("# line "):  # the rules lines quoted, unchanged
                assert line.strip() in native, (path.name, line)


def test_the_compiler_never_searches_or_rewrites_the_code_it_wrote():
    """The compiler decides from its records of what it wrote (the rules' tree, the lowering's
    counts and records of moves, reads and calls), never by matching patterns in generated code:
    no module of compiler/ uses regular expressions or a text replacement, except the symbol
    table, whose one pattern checks colour words of the rules text (never generated code)."""
    import ast as pyast
    from pathlib import Path

    compiler = Path(__file__).resolve().parent.parent / "compiler"
    found, patterns = [], []
    for path in sorted(compiler.rglob("*.py")):  # every room
        tree = pyast.parse(path.read_text(encoding="utf-8"))
        for node in pyast.walk(tree):
            if isinstance(node, (pyast.Import, pyast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, pyast.Import) else [node.module or ""]
                if "re" in names and path.name != "symbols.py":
                    found.append(f"{path.name}:{node.lineno}: imports re")
            if isinstance(node, pyast.Attribute) and node.attr == "replace":
                found.append(f"{path.name}:{node.lineno}: .{node.attr}(")
            if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) and node.value.id == "re":
                patterns.append(f"{path.name}:{node.lineno}: re.{node.attr}")
    assert found == []
    # the one pattern left reads the rules text: the symbol table's colour words
    assert len(patterns) == 1 and patterns[0].startswith("symbols.py:") and patterns[0].endswith("re.compile")
    assert "COLOUR = re.compile(" in (compiler / "check" / "symbols.py").read_text(encoding="utf-8")
