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


GAME_WORDS = re.compile(r"explobilles|marbleous|cibles|pixies|[ée]clats|turquoise|spiral|sumito", re.I)


def test_engine_code_knows_no_game():
    for folder in ("regle", "dsl", "compiler", "runtime"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".pyx", ".pxd", ".j2", ".lark"):
                text = path.read_text(encoding="utf-8")
                assert not GAME_WORDS.search(text), f"{path} names a game"


def test_runtime_never_imports_the_front_end_or_compiler():
    for path in (ROOT / "runtime").rglob("*.py*"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(regle\.(dsl|compiler)|regle\s*$|\.\.)", text, re.M), path


@pytest.mark.skipif(not os.environ.get("CI"), reason="CI has a C compiler and must build the kernels")
def test_ci_built_the_compiled_kernels():
    from regle.runtime import KERNELS
    assert KERNELS == "compiled"
