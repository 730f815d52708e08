"""regle fmt: one canonical layout, idempotent, comments kept, the same AST."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import GAMES
from test_nesting import COND, ENV, Maker  # random nested expressions of every form
from regle.dsl import ast, parse
from regle.dsl.printer import expr, format_text

ALL = sorted(GAMES.glob("*.rules")) + sorted((GAMES / "variants").glob("*.rules"))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_game_files_are_formatted_and_formatting_keeps_the_ast(path):
    text = path.read_text(encoding="utf-8")
    formatted = format_text(text)
    assert formatted == text, "run: regle fmt " + str(path)
    assert format_text(formatted) == formatted
    assert parse(formatted) == parse(text)


def test_comments_are_kept_and_layout_is_canonical():
    messy = ('# header\n\ngame   "T"{players 2}\nzone  pile :int=[1,2,3] # trailing\n'
             'turn{step a{action take(v in pile){move v from pile to pile\n# inside\n}}}\n'
             'end when count(pile)==0\n')
    out = format_text(messy)
    assert "# header" in out and "# trailing" in out and "# inside" in out
    assert "zone pile: int = [1, 2, 3]" in out and "end when count(pile) == 0" in out
    assert format_text(out) == out
    assert parse(out) == parse(messy)


def test_fmt_check_exit_codes(tmp_path):
    f = tmp_path / "x.rules"
    f.write_text('game "T" {players 2}\n', encoding="utf-8")
    run = lambda *a: subprocess.run([sys.executable, "-m", "regle.cli", "fmt", *a], capture_output=True, text=True)
    r = run("--check", str(f))
    assert r.returncode == 1 and "not formatted" in r.stderr
    assert f.read_text() == 'game "T" {players 2}\n'  # --check changes nothing
    r = run(str(f))
    assert r.returncode == 0 and f.read_text() == 'game "T" {\n  players 2\n}\n'
    assert run("--check", str(f)).returncode == 0


# ---- generated ASTs ---------------------------------------------------------------------------
names = st.sampled_from(["a", "b", "pile", "hand", "me", "x1", "it"])


def exprs():
    leaves = st.one_of(
        st.integers(-5, 50).map(lambda v: ast.Int(value=v)),
        st.booleans().map(lambda v: ast.Bool(value=v)),
        names.map(lambda n: ast.Name(id=n)),
        st.just(ast.Players()),
    )

    def extend(children):
        return st.one_of(
            st.tuples(st.sampled_from(["+", "-", "*", "//", "%", "==", "!=", "<", ">=", "and", "or", "in"]),
                      children, children).map(lambda t: ast.BinOp(op=t[0], left=t[1], right=t[2])),
            children.map(lambda c: ast.Not(operand=c)),
            children.filter(lambda c: not isinstance(c, ast.Int)).map(lambda c: ast.Neg(operand=c)),
            st.tuples(children, names).map(lambda t: ast.Attr(obj=t[0], name=t[1])),
            st.tuples(children, children).map(lambda t: ast.Index(obj=t[0], index=t[1])),
            st.tuples(st.sampled_from(["count", "sum", "max"]), st.lists(children, max_size=3)).map(
                lambda t: ast.Call(func=t[0], args=t[1])),
            st.tuples(children, names, children, st.one_of(st.none(), children)).map(
                lambda t: ast.Comp(func="sum", elem=t[0], var=t[1], source=t[2], cond=t[3])),
            st.lists(children, max_size=3).map(lambda items: ast.ListExpr(items=items)),
        )

    return st.recursive(leaves, extend, max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exprs())
def test_printed_expressions_parse_back_to_the_same_tree(e):
    text = f'game "T" {{ players 2 }}\nend when {expr(e)}\n'
    parsed = parse(text)
    assert parsed.decls[1].cond == e
    assert format_text(format_text(text)) == format_text(text)


def test_a_trailing_comment_stays_on_its_line_inside_its_block():
    text = ('game "x" { players 2 }\nzone pile: int = [1, 2, 3]  # three numbers\nturn {\n  step s {\n'
            '    action take(v in pile) {\n      remove v from pile  # the last of the block\n'
            '    }  # closes the action\n  }\n}\nend when count(pile) == 0  # the end\n')
    out = format_text(text)
    lines = out.splitlines()
    assert "zone pile: int = [1, 2, 3]  # three numbers" in lines
    i = lines.index("      remove v from pile  # the last of the block")
    assert lines[i + 1] == "    }"  # still inside the action's block
    assert "end when count(pile) == 0  # the end" in lines
    assert any(line.strip() == "# closes the action" for line in lines)  # kept, above what follows
    assert format_text(out) == out


# ---- laying out: lines of at most 100 characters, grouping kept ---------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.integers(3, 5))
def test_long_expressions_are_laid_out_within_the_width_idempotently(seed, depth):
    rng = random.Random(seed)
    maker = Maker(rng.randrange, {})
    body = maker.number(depth, list(ENV))
    text = (f'game "T" {{ players 2 }}\nparam k = 5\ncounter a = 3\ncounter b = -2\ncounter c = 0\n'
            f"define long_name_of_a_define(u) = {body.text(COND)}\n"
            f"invariant held: {maker.truth(depth, list(ENV)).text(COND)}\n")
    out = format_text(text)
    assert format_text(out) == out
    assert parse(out) == parse(text)
    for line in out.splitlines():
        # a line may only be longer when nothing in it can break: a name, a number, a bracket
        if len(line) > 100:
            assert " " not in line.strip(), line


def test_grouping_parentheses_are_kept_and_redundant_ones_dropped():
    text = ('game "T" { players 2 }\ncounter a\n'
            'define f(x) = if (x > 1 and x < 5) or (x == 9) then ((x)) else (if x > 0 then 1 else 2)\n'
            'end when (a > 3 and a < 9) or not (a == 1 or a == 2)\n')
    out = format_text(text)
    assert "define f(x) = if (x > 1 and x < 5) or x == 9 then x else (if x > 0 then 1 else 2)" in out
    assert "end when (a > 3 and a < 9) or not (a == 1 or a == 2)" in out
    assert format_text(out) == out and parse(out) == parse(text)


def test_a_long_condition_breaks_between_its_operands():
    clause = " or ".join(f"count(pile_{i}) == {i} and total_{i} > {i * 10}" for i in range(6))
    text = f'game "T" {{ players 2 }}\nend when {clause}\n'
    out = format_text(text)
    lines = out.splitlines()
    assert all(len(line) <= 100 for line in lines)
    at = next(i for i, line in enumerate(lines) if line.startswith("end when "))
    assert lines[at] == "end when count(pile_0) == 0 and total_0 > 0"
    assert lines[at + 1:] == [f"    or count(pile_{i}) == {i} and total_{i} > {i * 10}" for i in range(1, 6)]
    assert parse(out) == parse(text) and format_text(out) == out


# ---- every line within 100 columns: comments and doc comments too ------------------------------


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_no_formatted_line_of_a_shipped_game_is_over_100_columns(path):
    for n, line in enumerate(format_text(path.read_text(encoding="utf-8")).splitlines(), 1):
        assert len(line) <= 100 or " " not in line.strip(), f"{path.name}:{n}: {len(line)} columns"


_words = st.lists(st.text("abcdefghij", min_size=1, max_size=14), min_size=1, max_size=40).map(" ".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_words, _words, _words, st.integers(0, 60))
def test_long_comments_and_doc_comments_are_broken_between_words(doc, comment, trailing, pad):
    """A doc comment is a paragraph: broken into lines it says the same. A comment, on a line
    of its own or after code, is broken the same way (after code it moves above when too long)."""
    name = "n" + "x" * pad
    text = (f'game "T" {{ players 2 }}\n/// {doc}\ncounter {name} = 1  # {trailing}\n# {comment}\n'
            f"turn {{\n  step s {{\n    /// {doc}\n    action a {{\n      {name} += 1  # {trailing}\n"
            f"    }}\n  }}\n}}\nend when {name} > 3\n")
    out = format_text(text)
    assert format_text(out) == out
    for line in out.splitlines():
        assert len(line) <= 100 or " " not in line.strip().lstrip("#/ ").strip(), line
    before, after = parse(text), parse(out)
    prose = lambda d: " ".join((d or "").split())  # noqa: E731
    assert [prose(d.doc) for d in before.decls] == [prose(d.doc) for d in after.decls]
    # every word of every comment is still there, in order
    said = lambda t: [w for line in t.splitlines() if "#" in line for w in line.split("#", 1)[1].split()]  # noqa: E731
    assert said(out) == said(text) or sorted(said(out)) == sorted(said(text))
