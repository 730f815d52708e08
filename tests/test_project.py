"""Project contracts: the README's commands, CI, and 'games are data'."""
from __future__ import annotations

import os
import re

import pytest

from conftest import ROOT


def test_ci_runs_the_readme_test_command_verbatim():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(python3 -m venv[^\n]*)\n```", readme)
    assert len(commands) == 2, "the quick start is exactly two commands"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()


GAME_WORDS = re.compile(r"explobilles|marbleous|cibles|pixies|[ée]clats|turquoise|spiral|sumito"
                        r"|othello|reversi|kalah|lost ?cities|connect ?four|tic-?tac-?toe", re.I)


def test_engine_code_knows_no_game():
    for folder in ("regle", "dsl", "compiler", "runtime"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".pyx", ".pxd", ".j2", ".lark"):
                text = path.read_text(encoding="utf-8")
                assert not GAME_WORDS.search(text), f"{path} names a game"


def test_runtime_never_imports_the_front_end_or_compiler():
    for path in (ROOT / "runtime").rglob("*.py*"):
        if path.suffix not in (".py", ".pyx", ".pxd", ".pxi"):  # not bytecode (__pycache__)
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(regle\.(dsl|compiler)|regle\s*$|\.\.)", text, re.M), path


@pytest.mark.skipif(not os.environ.get("CI"), reason="CI has a C compiler and must build the kernels")
def test_ci_built_the_compiled_kernels():
    from regle.runtime import KERNELS
    assert KERNELS == "compiled"


def test_the_tutorial_game_compiles_and_plays():
    import regle
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
    rules = "\n".join(body for lang, body in blocks if not lang and not body.startswith("pebbles.rules:"))
    game = regle.loads(rules, name="pebbles")
    from regle.runtime.agents import RandomAgent
    for players in (2, 3):
        for seed in range(5):
            s = game.new_game(players=players, seed=seed)
            agent = RandomAgent(seed)
            while not s.is_over:
                assert s.check_invariants() == []
                s.play(agent.choose(s))
            assert s.winners


def test_the_tutorials_error_example_is_what_regle_prints(tmp_path):
    import regle
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
    rules = "\n".join(body for lang, body in blocks if not lang and not body.startswith("pebbles.rules:"))
    shown = next(body for lang, body in blocks if body.startswith("pebbles.rules:"))
    path = tmp_path / "pebbles.rules"
    path.write_text(rules.replace("require count(pile) > 0", "require count(pil) > 0"), encoding="utf-8")
    with pytest.raises(regle.RulesError) as info:
        regle.check_file(path)
    assert info.value.render().replace(str(path), "pebbles.rules") == shown.rstrip("\n")


def test_the_classic_tutorial_is_the_othello_of_the_classics():
    """docs/tutorial-classic.md, its rules blocks put together, plays the very games of
    games/classics/othello.rules (same moves, same results) and is checked clean."""
    import random as _random

    import regle
    text = (ROOT / "docs" / "tutorial-classic.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
    rules = "\n".join(body for lang, body in blocks if not lang)
    tutorial = regle.loads(rules, name="othello_tutorial")
    classic = regle.load(ROOT / "games" / "classics" / "othello.rules")
    for seed in range(5):
        a, b = tutorial.new_game(seed=seed), classic.new_game(seed=seed)
        rng = _random.Random(seed)
        while not a.is_over:
            assert a.notations() == b.notations()
            move = rng.choice(a.notations())
            a, b = a.play(move), b.play(move)
        assert b.is_over and a.scores == b.scores and a.winners == b.winners


def test_compiler_modules_are_rooms_with_one_job_and_the_pipeline_page_names_them():
    modules = sorted((ROOT / "compiler").rglob("*.py"))
    long = {p.name: n for p in modules if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, f"compiler modules over 600 lines: {long}"
    runtime = [p for p in sorted((ROOT / "runtime").iterdir()) if p.suffix in (".py", ".pyx", ".pxd", ".pxi")]
    long = {p.name: n for p in runtime if (n := len(p.read_text(encoding="utf-8").splitlines())) > 1200}
    assert not long, f"runtime files over 1,200 lines: {long}"
    page = (ROOT / "docs" / "compiler.md").read_text(encoding="utf-8")
    missing = [p.name for p in modules if p.name != "__init__.py" and p.name not in page]
    assert not missing, f"docs/compiler.md does not say what these do: {missing}"


def test_compiled_runtime_has_no_wide_literal_without_a_c_suffix():
    """In Cython a whole-number literal past 2**31 is a Python int: an expression that mixes it
    with C numbers (``v < 2 ** 62``, ``n <= 1000000000000000000``) becomes Python arithmetic, a
    slow path on every call (a mask written ``0xFFFFFFFF`` cost 20% of chess's playouts once).
    The compiled runtime writes such constants as C (``(<long long>1 << 62)``, a ``ULL`` literal,
    a #define), so no wide literal without a C suffix and no power of two is left in its code."""
    wide = re.compile(r"(?<![\w.])(0[xX](?:[0-9a-fA-F]{9,}|[89a-fA-F][0-9a-fA-F]{7})|[0-9]{10,})(?![0-9a-fA-FxXuUlL])"
                      r"|\b2 \*\* [3-6][0-9]\b")
    found = []
    for path in sorted((ROOT / "runtime").glob("*.p[yx][xdi]")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = re.sub(r'"[^"]*"|\'[^\']*\'', '""', line.split("#")[0])  # strings and comments left out
            if wide.search(code):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert not found, "wide literals that make Python arithmetic:\n" + "\n".join(found)
