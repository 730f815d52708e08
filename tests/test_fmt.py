"""regle fmt: one canonical layout, idempotent, comments kept, the same AST."""
from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import GAMES
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
