"""Trust: a rules file that cannot run code, names that cannot collide, files kept, commands
that fail in one line. (Secrets, notations and saved states: test_secrets.py.)"""
from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

import regle
from conftest import GAMES
from regle.dsl.errors import RulesError
from regle.runtime import RulesRuntimeError

BASE = '''game "TITLE" { players 2 }
enum colour { red = "R", blue = "B" }
table card(colour: colour, value: int) show "SHOW{value}" detail "DETAIL" {
  red 1
  blue 2
  red 3
}
zone pile: card = card
zone hand: card per player
turn {
  /// DOC
  step act {
    action take(c in pile) "NOTE {c}" { move c from pile to hand[me] }
  }
}
end when count(pile) == 0
'''


def marker_payload(marker: Path) -> list[str]:
    """Texts that would run code if any string were spliced into the engine's source."""
    code = f"__import__('os').system('touch {marker}')"
    return [
        f'x\\"\\"\\"; {code}; \\"\\"\\"',        # closes a docstring
        f"x'''; {code}; '''",                     # the other docstring quote
        f"x\\n{code}\\n",                         # \\n escape: a line of its own after a comment
        f"x\\\\\\n{code}",                        # a backslash before the line break
        f"x {{{code}}} {{0.__class__}}",          # format braces
        f"\\\\x00\\\\r\\\\u2028 {code}",          # escapes spelled out
    ]


def run_everything(path: Path, marker: Path) -> bool:
    """Check, load, play, compile and import the engine: the marker must never appear.
    True when the rules were accepted and all of that ran, False when they were refused."""
    try:
        regle.check_file(path)
        game = regle.load(path)
        s = game.new_game(seed=1)
        while not s.is_over:
            [str(m) for m in s.legal_moves()]
            s.play(s.legal_moves()[0])
        s.view(0), s.scores, s.winners
        code = regle.compile_file(path)
        out = path.with_name("engine_out.py")
        out.write_text(code, encoding="utf-8")
        imported = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                                   "import engine_out; engine_out.new_game(seed=2)", str(out.parent)],
                                  capture_output=True, text=True, timeout=60)
        assert imported.returncode == 0, imported.stderr[-800:]
    except RulesError as err:  # refused with a position: fine, as long as nothing ran
        assert err.diagnostics and err.diagnostics[0].line >= 1
        assert not marker.exists(), f"code ran from {path.name}"
        return False
    assert not marker.exists(), f"code ran from {path.name}"
    return True


@pytest.mark.parametrize("where", ["TITLE", "SHOW", "DETAIL", "NOTE", "DOC"])
def test_no_string_of_the_rules_runs_code(tmp_path, where):
    marker = tmp_path / "marker"
    for i, payload in enumerate(marker_payload(marker)):
        if where == "DOC":
            payload = payload.replace("\\n", " ")  # a doc comment is one line
        text = BASE.replace(where, payload.replace("{", "{{").replace("}", "}}") if where in ("SHOW", "DETAIL", "NOTE") else payload)
        path = tmp_path / f"g{i}.rules"
        path.write_text(text, encoding="utf-8")
        assert run_everything(path, marker), f"payload {i} in {where} was refused, so it proved nothing"


def test_raw_control_characters_in_strings_are_refused(tmp_path):
    for ch in ("\r", "\x00", "\u2028", "\x1b", "\u202e"):
        path = tmp_path / "c.rules"
        path.write_text(BASE.replace("TITLE", f"a{ch}b"), encoding="utf-8")
        with pytest.raises(RulesError) as err:
            regle.check_file(path)
        assert "control character" in str(err.value) or "NUL" in str(err.value) or "null" in str(err.value)


@pytest.mark.parametrize("symbol", ['\\"', "\\\\", "'", "#"])  # a quote and a backslash, escaped
def test_enum_symbols_are_data(tmp_path, symbol):
    marker = tmp_path / "marker"
    path = tmp_path / "s.rules"
    path.write_text(BASE.replace('red = "R"', f'red = "{symbol}"'), encoding="utf-8")
    assert run_everything(path, marker)


def test_pattern_cells_are_data(tmp_path):
    marker = tmp_path / "marker"
    for i, payload in enumerate(marker_payload(marker)):
        path = tmp_path / f"pat{i}.rules"
        path.write_text(BASE.replace('zone pile: card = card', f'table shape(p: pattern of colour) {{\n  "{payload}"\n}}\n'
                                     'zone pile: card = card'), encoding="utf-8")
        run_everything(path, marker)


def test_file_names_and_extend_paths_are_data(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    monkeypatch.setenv("REGLE_TEST_MARKER", str(marker))  # a file name cannot hold a '/'
    code = "__import__('os').system('touch $REGLE_TEST_MARKER')"
    for i, name in enumerate([f'x"""; {code}; """', f"x'''; {code}; '''", f"x\n{code}\n", f"x\r{code}",
                              f"x\u2028{code}"]):
        folder = tmp_path / f"d{i}"
        folder.mkdir()
        (folder / "regle.toml").write_text("", encoding="utf-8")  # the project folder
        base = folder / f"{name}.rules"
        base.write_text(BASE, encoding="utf-8")
        assert run_everything(base, marker)
        variant = folder / "variant.rules"
        # the path written with the language's escapes (\" and \n); a CR or U+2028 has none,
        # so those two extends are refused, at their line
        variant.write_text(f'extend "{json.dumps(base.name)[1:-1]}"\nparam extra = 2\n', encoding="utf-8")
        assert run_everything(variant, marker) == (i < 3)


def test_title_payload_through_simulate_workers_and_diff(tmp_path):
    marker = tmp_path / "marker"
    path = tmp_path / "t.rules"
    path.write_text(BASE.replace("TITLE", marker_payload(marker)[0]), encoding="utf-8")
    env = {**os.environ, "REGLE_CACHE_DIR": str(tmp_path / "cache")}
    for args in (["simulate", str(path), "-n", "4", "--jobs", "2"], ["diff", str(path), str(path), "--simulate", "2"]):
        done = subprocess.run([sys.executable, "-m", "regle.cli", *args], env=env, capture_output=True, timeout=120)
        assert done.returncode == 0, (args, done.stderr[-500:])  # it really played (diff: the same rules)
    assert not marker.exists()


def test_verify_refuses_what_the_templates_never_write():
    from regle.compiler.write.safety import verify
    for code in ("x = __builtins__['__import__']('os')", "globals()['x'] = 1", "breakpoint()", "vars()",
                 "import os", "from regle.runtime import ops\nops.os", "def f(): return f.__globals__",
                 "x = getattr(1, 'real')", "'{0.__class__}'.format(1)", "globals = 1"):
        with pytest.raises(RulesError):
            verify(code)
    verify("from regle.runtime import ops\ndef f(s):\n    return len(s.legal)\n")


# ---- extend stays in the project ----------------------------------------------------------------
def test_extend_outside_the_project_is_a_positioned_error(tmp_path):
    (tmp_path / "regle.toml").write_text("", encoding="utf-8")
    cases = ['extend "/etc/passwd"', 'extend "../../etc/x.rules"', 'extend "/dev/zero"', 'extend "notes.txt"']
    (tmp_path / "notes.txt").write_text("secret line\n", encoding="utf-8")
    for text in cases:
        path = tmp_path / "v.rules"
        path.write_text(text + "\n", encoding="utf-8")
        with pytest.raises(RulesError) as err:
            regle.check_file(path)
        d = err.value.diagnostics[0]
        assert (d.line, d.column) == (1, 1) and "cannot extend" in d.message
        assert "root:" not in str(err.value) and "secret line" not in str(err.value)


def test_extend_follows_the_search_path(tmp_path, monkeypatch):
    (tmp_path / "regle.toml").write_text("", encoding="utf-8")
    path = tmp_path / "v.rules"
    path.write_text(f'extend "{GAMES / "eclats.rules"}"\noverride param merge_cap = 8\n', encoding="utf-8")
    with pytest.raises(RulesError):
        regle.check_file(path)
    monkeypatch.setenv("REGLE_PATH", str(GAMES))
    regle.check_file(path)


# ---- resources: every case a positioned error within 5 s and 1 GiB ------------------------------------
HEAD = 'game "x" { players 2 }\n'
TAIL = 'zone pile: int = [1, 2, 3]\nturn { step s { action take(v in pile) { remove v from pile } } }\nend when count(pile) == 0\n'
DOUBLING = "define d0(x) = x + 1\n" + "".join(f"define d{i}(x) = d{i - 1}(x) + d{i - 1}(x)\n" for i in range(1, 40)) + \
    'zone pile: int = [1, 2, 3]\nturn { step s { action take(v in pile) { require d39(v) > 0\nremove v from pile } } }\nend when count(pile) == 0\n'
RESOURCE_CASES = {
    "hex": HEAD + "grid g: int hex side 1000000000\n" + TAIL,
    "lanes": HEAD + "grid g: int lanes 1000000000 height 1000000000\n" + TAIL,
    "table copies": HEAD + "table t(v: int) {\n  1 * 1000000000\n}\n" + TAIL,
    "many grids": HEAD + "".join(f"grid g{i}: int square 64 by 64\n" for i in range(300)) + TAIL,
    "define chain": HEAD + DOUBLING,
    "big constant": HEAD + "param p = " + " * ".join(["1000000000"] * 3000) + "\n" + TAIL,
}
PLAY_CASES = {  # rules that grow without bound while playing
    "zone squares": HEAD + "zone pile: int = [1, 2]\nturn { step s { action go \"go\" {\n"
                    "  for a in pile { for b in pile { add a to pile } }\n} } }\n",
    "counter squares": HEAD + "counter n = 2\nturn { step s { action go \"go\" {\n  n = n * n\n} } }\n",
    "loop inside loop": HEAD + "zone pile: int = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n"
                        "counter n\nturn { step s { action go \"go\" {\n"
                        "  for a in pile { for b in pile { for c in pile { for d in pile { for e in pile { n += 1 } } } } }\n"
                        "} } }\n",
    "range from a counter": HEAD + "counter n = 2\nturn { step s { action go(k in 1..n) \"go {k}\" {\n"
                            "  n = n + n + n\n} } }\n",
    "zone per turn": HEAD + "zone pile: int = [1]\nturn { step s { action go \"go\" {\n"
                     "  for a in pile { add a to pile\n add a to pile }\n} } }\n",
}


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _regle(*args, timeout=5.0, cwd=None):
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "regle.cli", *args], capture_output=True, text=True,
                            timeout=timeout + 10, preexec_fn=_limited, cwd=cwd,
                            env={**os.environ, "CI": "", "NO_COLOR": "1"})
    return result, time.perf_counter() - start


def test_nested_defines_compile_to_an_engine_that_grows_linearly(tmp_path):
    """Each define is one function of the engine: 12 defines that each use the previous one
    twice make 12 small functions, not 2**12 pasted copies (the doubling chain of 40 is refused
    above for the work one use would do)."""
    path = tmp_path / "r.rules"
    chain = "".join(line + "\n" for line in DOUBLING.splitlines() if not re.match(r"define d(1[2-9]|[2-9]\d)\(", line))
    path.write_text(HEAD + chain.replace("d39(v)", "d11(v)"), encoding="utf-8")
    result, seconds = _regle("compile", str(path), "-o", str(tmp_path / "engine.py"))
    assert result.returncode == 0 and seconds < 5 + 2, (result.stderr[-500:], seconds)
    code = (tmp_path / "engine.py").read_text(encoding="utf-8")
    assert code.count("\ndef fn__") >= 5 and len(code) < 60_000  # the smallest few are written in place


@pytest.mark.parametrize("name", sorted(RESOURCE_CASES))
def test_check_time_resource_cases_end_in_a_positioned_error(tmp_path, name):
    path = tmp_path / "r.rules"
    path.write_text(RESOURCE_CASES[name], encoding="utf-8")
    result, seconds = _regle("check", str(path))
    assert result.returncode == 1 and seconds < 5 + 2, (result.stderr[-500:], seconds)  # + interpreter start
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:") and ": error: " in first and "Traceback" not in result.stderr


@pytest.mark.parametrize("name", sorted(PLAY_CASES))
def test_play_time_resource_cases_end_in_a_rules_runtime_error(tmp_path, name):
    path = tmp_path / "p.rules"
    path.write_text(PLAY_CASES[name], encoding="utf-8")
    result, seconds = _regle("simulate", str(path), "-n", "1")
    assert result.returncode == 1 and seconds < 5 + 2, (result.stderr[-500:], seconds)
    assert "p.rules:" in result.stderr and "error" in result.stderr and "Traceback" not in result.stderr


# ---- names from the rules cannot meet the engine's own -------------------------------------------------
GAME = 'game "G" { players 2 }\n'
LOOP = 'zone pile: int = [1, 2, 3]\nturn { step s { action take(v in pile) "take {v}" { remove v from pile } } }\nend when count(pile) == 0\n'


def test_tables_whose_names_join_alike_stay_apart():
    game = regle.loads(GAME + "table a_b(x: int) {\n  1\n}\ntable a(b_x: int) {\n  2\n}\n"
                       "zone u: a_b = a_b\nzone w: a = a\n"
                       "score p { one: sum(c.x for c in u) * 10 + sum(c.b_x for c in w) }\n" + LOOP)
    assert game.new_game().scores == [12, 12]


def test_enums_differing_in_case_stay_apart():
    game = regle.loads(GAME + 'enum colour { red, blue }\nenum Colour { green, grey, gold }\n'
                       'zone u: colour = [red]\nzone w: Colour = [gold]\n' + LOOP)
    s = game.new_game()
    assert game.show("enum:colour", 0) == "red" and game.show("enum:Colour", 2) == "gold"
    assert s.to_json()["zones"]["w"] == [2]


def test_rules_names_like_the_engines_own_keep_their_meaning():
    text = (GAME + "param max_players = 1000\nparam min_players = 0\nparam rules_hash = 3\nparam name = 4\n"
            "param title = 5\nenum grid { a, b }\ntable value(v: int, v_cells: int) {\n  7 1\n}\nzone z: value = value\n"
            "zone w: int = [1]\nzone w_cells: int = [2]\n"
            "score keys { parts: sum(w) + sum(w_cells) + max_players + title }\n"
            "winner parts { most score\n  ties shared }\n" + LOOP)
    game = regle.loads(text, name="names")
    assert game.players == range(2, 3) and game.title == "G" and len(game.rules_hash) == 16
    with pytest.raises(ValueError):
        game.new_game(players=0)
    s = game.new_game()
    assert s.scores == [1008, 1008] and game.show("item:value", 0) == "7 1"
    ns = game.namespace
    assert ns["C_value__v"] == (7,) and ns["C_value__v_cells"] == (1,) and ns["T_grid__NAMES"] == ["a", "b"]
    while not s.is_over:
        s.play(s.legal_moves()[0])
    assert s.winners == [0, 1]


def test_counter_per_member_takes_a_member():
    game = regle.loads(GAME + "enum colour { red, blue }\ncounter votes per colour\n"
                       'zone pile: colour = [red, blue, blue]\n'
                       'turn { step s { action take(c in pile) "take {c}" { remove c from pile\n votes[c] += 1 } } }\n'
                       "end when count(pile) == 0\n")
    s = game.new_game()
    s.play("take blue")
    assert s.to_json()["counters"]["votes"] == [0, 1]


def test_names_that_end_or_start_with_an_underscore_are_refused():
    for bad in ("zone pile_: int", "zone _pile: int", "zone a__b: int"):
        with pytest.raises(RulesError) as err:
            regle.loads(GAME + bad + "\n" + LOOP)
        assert "cannot be a name" in str(err.value) or "may not start or end" in str(err.value)


@pytest.mark.parametrize("clause, line", [
    ("score p { s: 10 // (count(hand[p]) - count(hand[p])) }", "scores"),
    ("invariant i: pile[5] > 0", "invariants"),
])
def test_errors_while_evaluating_the_rules_name_their_line(clause, line):
    game = regle.loads(GAME + "zone hand: int per player\n" + LOOP + clause + "\n", name="ev")
    s = game.new_game()
    with pytest.raises(RulesRuntimeError) as err:
        s.scores if line == "scores" else s.check_invariants()
    assert ":6:" in str(err.value)
    if line == "invariants":
        with pytest.raises(regle.StateError):
            game.state_from_json(s.to_json())


# ---- files and commands -----------------------------------------------------------------------------------
def test_cache_clear_never_removes_a_file_it_did_not_write(tmp_path):
    own = tmp_path / "mine"
    own.mkdir()
    (own / "notes.txt").write_text("precious", encoding="utf-8")
    (own / "engines").mkdir()
    (own / "engines" / "keep.py").write_text("x = 1", encoding="utf-8")
    outside = tmp_path / "outside.py"
    outside.write_text("y = 2", encoding="utf-8")
    (own / "engines" / "game_0123456789abcdef0123.py").symlink_to(outside)
    env = {**os.environ, "REGLE_CACHE_DIR": str(own)}
    run = lambda *a: subprocess.run([sys.executable, "-m", "regle.cli", *a], env=env, capture_output=True, text=True)
    assert run("check", str(GAMES / "eclats.rules")).returncode == 0
    assert run("cache", "--clear").returncode == 0
    assert (own / "notes.txt").read_text() == "precious" and (own / "engines" / "keep.py").exists()
    assert outside.read_text() == "y = 2" and (own / "engines" / "game_0123456789abcdef0123.py").is_symlink()
    assert not list(own.glob("grammar-*")) and not [p for p in (own / "engines").glob("eclats_*")]


def test_command_line_mistakes_give_one_line_and_a_status(tmp_path):
    game = str(GAMES / "eclats.rules")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    (tmp_path / "notjson.jsonl").write_text("nope\n", encoding="utf-8")
    (tmp_path / "foreign.jsonl").write_text('{"a": 1}\n', encoding="utf-8")
    cases = [
        ["check", "/dev/zero"], ["check", str(fifo)],
        ["compile", game, "-o", str(tmp_path / "missing" / "x.py")], ["compile", game, "-o", str(tmp_path / "dir")],
        ["rules", game, "-o", str(tmp_path / "missing" / "x.md")], ["rules", game, "-o", str(tmp_path / "dir")],
        ["simulate", game, "-n", "2", "--out", str(tmp_path / "missing" / "x.jsonl")],
        ["simulate", game, "-n", "2", "--out", str(tmp_path / "dir")],
        ["simulate", game, "-n", "2", "--agents", ""], ["simulate", game, "-n", "2", "--agents", "mcts:c=nan"],
        ["simulate", game, "-n", "2", "--agents", "mcts:time=inf,iterations=0"],
        ["simulate", "--report", str(tmp_path / "missing.jsonl")],
        ["simulate", "--report", str(tmp_path / "notjson.jsonl")],
        ["simulate", "--report", str(tmp_path / "foreign.jsonl")],
        ["diff", game, game, "--simulate", "-1"], ["simulate", game, "-n", "0"],
    ]
    for args in cases:
        result, seconds = _regle(*args)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.returncode in (1, 2), (args, result.stderr)
        assert "Traceback" not in result.stderr and seconds < 5 + 2, (args, result.stderr, seconds)
        if result.returncode == 1:  # one line saying what is wrong
            assert len(lines) == 1 and ("error" in lines[0] or lines[0].startswith("regle:")), (args, lines)
        else:  # argparse: usage, then the error
            assert lines[-1].startswith("regle") and "error:" in lines[-1], (args, lines)


def test_an_unreachable_scheduler_is_said_in_one_line():
    pytest.importorskip("distributed")
    result, seconds = _regle("simulate", str(GAMES / "eclats.rules"), "-n", "2", "--scheduler", "tcp://127.0.0.1:9",
                             timeout=40)
    assert result.returncode == 1 and "cannot reach the Dask scheduler" in result.stderr
    # the command's own short wait, not Dask's 30 s (the time itself also holds the start of a
    # Python that imports Dask: seconds on a loaded machine, so only a bound well below 30 s)
    assert "after 3 s" in result.stderr and seconds < 20, (result.stderr, seconds)


def test_check_simulate_reports_the_first_broken_invariant(tmp_path):
    text = (GAMES / "eclats.rules").read_text(encoding="utf-8")
    broken = text.replace("refill market from reserve up to market_size\n",
                          "refill market from reserve up to market_size - 1\n", 1)
    assert broken != text
    path = tmp_path / "bug.rules"
    path.write_text(broken, encoding="utf-8")
    result, _ = _regle("check", "--simulate", "3", str(path), timeout=60)
    assert result.returncode == 1
    assert "invariant market_full does not hold after decision" in result.stderr
    line = next(i for i, t in enumerate(broken.splitlines(), 1) if t.startswith("invariant market_full"))
    assert f"bug.rules:{line}:" in result.stderr
    assert _regle("check", "--simulate", "3", str(GAMES / "eclats.rules"), timeout=60)[0].returncode == 0


def test_two_humans_at_one_terminal_hand_over_and_see_their_own(tmp_path):
    answers = "\n".join(["", "1"] * 6 + ["", "q"]) + "\n"
    result = subprocess.run([sys.executable, "-m", "regle.cli", "play", str(GAMES / "pixies.rules"), "--seats",
                             "human,human", "--seed", "4"], input=answers, capture_output=True, text=True,
                            timeout=60, env={**os.environ, "NO_COLOR": "1"})
    out = result.stdout
    assert result.returncode == 0 and "Pass the terminal to P1" in out and "Pass the terminal to P2" in out
    assert "seed 4" in out.splitlines()[0]


def test_a_drawn_seed_is_told_only_at_the_end():
    result = subprocess.run([sys.executable, "-m", "regle.cli", "play", str(GAMES / "eclats.rules"), "--seats",
                             "random,random", "--quiet"], capture_output=True, text=True, timeout=60)
    lines = result.stdout.splitlines()
    assert "seed" not in lines[0] and lines[-1].startswith("seed ")


def test_zones_read_once_keep_apart_when_their_names_run_together():
    game = regle.loads(GAME + "zone a: int per player\nzone a_me: int = [5, 6]\n"
                       'turn { step s { action take(v in a_me) "take {v}" {\n'
                       "  require count(a[me]) < 3 and count(a_me) > 0\n"
                       "  move v from a_me to a[me]\n  add count(a[me]) + count(a_me) to a[me]\n} } }\n"
                       "end when count(a_me) == 0\n")
    s = game.new_game()
    s.play("take 5")
    assert s.to_json()["zones"]["a"] == [[5, 2], []] and s.to_json()["zones"]["a_me"] == [6]
