"""A Pygments lexer for regle rules files (``*.rules``), registered as the ``regle`` lexer
(entry point ``pygments.lexers``), so ``pygmentize``, Sphinx and MkDocs highlight them; the
HTML rulebook uses it for the rules text."""
from __future__ import annotations

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

KEYWORDS = (
    "game", "players", "first", "player", "marks", "extend", "param", "enum", "wild", "table", "show",
    "detail", "zone", "per", "hidden", "quiet", "private", "capacity", "values", "grid", "square", "by",
    "lanes", "height", "hex", "side", "mancala", "with", "diagonals", "edges", "under", "counter", "setup",
    "turn", "step", "when", "optional", "repeat", "while", "do", "action", "pass", "in", "pair", "shuffle",
    "deal", "all", "from", "to", "where", "move", "add", "remove", "refill", "up", "if", "then", "elif",
    "else", "for", "let", "require", "end", "next", "put", "at", "on", "clear", "drop", "into", "lane",
    "taking", "overflow", "settle", "place", "of", "push", "ejecting", "score", "winner", "most", "least",
    "ties", "draw", "shared", "invariant", "define", "standin", "override",
)
BUILTINS = (
    "count", "sum", "max", "min", "any", "all", "has", "abs", "random", "argmin", "argmax", "number",
    "first", "last", "cells", "empty_cells", "filled_cells", "content", "is_empty", "row", "column", "lane",
    "lane_count", "lanes", "groups", "largest_zone", "placements", "line_moves", "cell", "neighbour",
    "neighbours", "directions", "ray", "distance", "edge_cells", "in_a_row", "connected", "flanked",
    "chain", "sides", "houses", "store", "opposite",
)
CONSTANTS = ("true", "false", "none", "me", "turns", "player_count", "it")


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
            (words(("and", "or", "not"), suffix=r"\b"), Operator.Word),
            (words(CONSTANTS, suffix=r"\b"), Name.Constant),
            (words(BUILTINS, suffix=r"(?=\()"), Name.Builtin),
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
