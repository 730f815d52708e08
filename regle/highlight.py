"""A Pygments lexer for regle rules files (``*.rules``), registered as the ``regle`` lexer
(entry point ``pygments.lexers``), so ``pygmentize``, Sphinx and MkDocs highlight them; the
HTML rulebook uses it for the rules text."""
from __future__ import annotations

import re
from pathlib import Path

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

from regle.compiler.check.symbols import FUNCTIONS, OPEN_FUNCTIONS
from regle.compiler.lower.grids import GRID_FUNCTIONS
from regle.dsl import parser


def grammar_text() -> str:
    """The language's Lark grammar, the one source of its words (the lexer and regle.textmate)."""
    return Path(parser.__file__).with_name("rules.lark").read_text(encoding="utf-8")


def _keywords() -> tuple:
    """The language's keywords, as its grammar spells them (so the lexer never lags behind)."""
    return tuple(sorted(set(re.findall(r'"([a-z]+)"', grammar_text())) - {"and", "or", "not", "true", "false"}))


KEYWORDS = _keywords()
#: the built-in functions, as the compiler knows them
BUILTINS = tuple(sorted((FUNCTIONS - {"at"}) | OPEN_FUNCTIONS | GRID_FUNCTIONS))
CONSTANTS = ("true", "false", "none", "me", "turns", "player_count", "it", "stuck", "ended")
#: keywords that declare or bind the name after them (``action place(...)``, ``let move = ...``):
#: the language's words are soft, so that name is a name even where it is spelt as a keyword
DECLARING = ("action", "step", "define", "zone", "counter", "grid", "enum", "table", "param", "track",
             "invariant", "let", "for")


class RulesLexer(RegexLexer):
    """regle's rules language."""

    name = "regle"
    aliases = ["regle", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-regle"]

    tokens = {
        "root": [
            (r"///[^\n]*", String.Doc),
            (r"#[^\n]*", Comment.Single),
            (r'"(\\\\|\\"|\\n|[^"\\\n])*"', String.Double),
            (r"\s+", Text),
            # a keyword is a name where the language reads one: the name a declaration or a
            # binding gives (``action place(``, ``let move =``), and a call (regle.textmate)
            (r"\b(" + "|".join(DECLARING) + r")(\s+)([A-Za-z_][A-Za-z0-9_]*)", bygroups(Keyword, Text, Name)),
            (words(("and", "or", "not"), suffix=r"\b"), Operator.Word),
            (words(CONSTANTS, suffix=r"\b"), Name.Constant),
            (words(BUILTINS, suffix=r"(?=\()"), Name.Builtin),
            (words(KEYWORDS, suffix=r"(?=\()"), Name.Function),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (r"[A-Za-z][A-Za-z0-9_]*(?=\()", Name.Function),
            (r"[A-Za-z][A-Za-z0-9_]*", Name),
            (r"-?\d+", Number.Integer),
            (r"\.\.|==|!=|<=|>=|\+=|-=|//|[-+*%<>=]", Operator),
            (r"[{}()\[\],:.]", Punctuation),
        ],
    }


def highlight_html(text: str) -> str:
    """The rules text as an HTML block with inline colours (no stylesheet needed)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    return highlight(text, RulesLexer(), HtmlFormatter(noclasses=True, style="friendly", nowrap=False))
