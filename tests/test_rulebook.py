"""The rulebook: generated from the rules text, complete, up to date, self-contained in HTML."""
from __future__ import annotations

import re
import subprocess
import sys

import attrs
import pytest

from conftest import GAMES, ROOT
from regle.dsl import ast, parse
from regle.rulebook import MARK, rulebook

NAMES = ["eclats", "cibles", "explobilles", "pixies"]


def walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.Node):
            yield n
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)))


@pytest.mark.parametrize("name", NAMES)
def test_the_rulebook_mentions_every_component_step_and_scoring_clause(name):
    path = GAMES / f"{name}.rules"
    rules = parse(path.read_text(encoding="utf-8"))
    book = rulebook(path)
    spoken = book.replace("_", " ")
    for d in rules.decls:
        if isinstance(d, (ast.Table, ast.Zone, ast.Grid, ast.Counter, ast.Param, ast.Define, ast.Enum)):
            assert d.name.replace("_", " ").lower() in spoken.lower(), d.name
        if isinstance(d, ast.Enum):
            for m in d.members:
                assert f"**{m.name}**" in book
        if isinstance(d, ast.Turn):
            for step in d.steps:
                assert step.name.replace("_", " ").capitalize() in spoken
                for choice in step.choices:
                    if isinstance(choice, ast.Action):
                        assert f"**{choice.name.replace('_', ' ')}**" in book
        if isinstance(d, ast.Score):
            for clause in d.clauses:
                assert f"**{clause.name.replace('_', ' ')}**" in book
        if isinstance(d, ast.Table):
            for row in d.rows:  # every row of every table
                first = row.cells[0]
                assert str(first.value).strip('"') in book


@pytest.mark.parametrize("name", NAMES)
def test_the_rulebook_lists_every_stand_in(name):
    path = GAMES / f"{name}.rules"
    rules = parse(path.read_text(encoding="utf-8"))
    marked = [n for n in walk(rules) if getattr(n, "standin", False)]
    book = rulebook(path)
    section = book.split("## Stand-ins", 1)[1]
    listed = [line for line in section.splitlines() if line.startswith("- ")]
    assert marked and len(listed) == len(marked)
    assert book.count(MARK) >= len(marked)


@pytest.mark.parametrize("name", NAMES)
def test_committed_rulebooks_are_up_to_date(name):
    committed = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert committed == rulebook(GAMES / f"{name}.rules"), f"run: regle rules games/{name}.rules -o docs/rules/{name}.md"


def test_changing_a_number_changes_the_rulebook(tmp_path):
    text = (GAMES / "eclats.rules").read_text(encoding="utf-8")
    f = tmp_path / "eclats.rules"
    f.write_text(text.replace("param merge_cap = 9", "param merge_cap = 7"), encoding="utf-8")
    book = rulebook(f)
    assert "merge cap: **7**" in book and "merge cap: **9**" not in book
    f.write_text(text.replace("  medium    2 5 3\n", "  medium    2 5 5\n"), encoding="utf-8")
    assert "| medium | 2 | 5 | 5 | 1 |" in rulebook(f)


def test_the_html_rulebook_is_one_self_contained_page(tmp_path):
    out = tmp_path / "explobilles.html"
    r = subprocess.run([sys.executable, "-m", "regle.cli", "rules", str(GAMES / "explobilles.rules"),
                        "--format", "html", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<style>" in page
    assert not re.search(r"<(link|script)\b|src=|href=\"http", page)
    assert page.count('class="pattern"') == 44  # every marble card drawn
    assert "<table>" in page and "Stand-ins" in page


def test_a_variant_rulebook_shows_its_overrides():
    book = rulebook(GAMES / "variants" / "cibles-side5.rules")
    assert "board side: **5**" in book and "pieces: **11**" in book
