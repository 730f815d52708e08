"""A TextMate grammar for rules files (``source.regle``): the format VS Code, Sublime Text,
GitHub's linguist and many other editors and code hosts highlight with. It is made from the
same word lists as the Pygments lexer (:mod:`regle.highlight`: the grammar's keywords, the
compiler's built-in functions), so the two never disagree; the package ships it as
``regle/editors/regle.tmLanguage.json``.

    python -m regle.textmate > regle.tmLanguage.json
    python -m regle.textmate --vim > regle.vim      # the same words for Vim and Neovim
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from regle.highlight import BUILTINS, CONSTANTS, DECLARING, KEYWORDS, grammar_text

SHIPPED = Path(__file__).with_name("editors") / "regle.tmLanguage.json"


def _words(names) -> str:
    return r"\b(?:" + "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n))) + r")\b"


#: keywords an expression may hold (the rest, where an expression stands, are names)
IN_EXPRESSIONS = ("if", "then", "else", "for", "in", "where", "not", "and", "or", "players")
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_OPERATOR = r"[(\[,=<>+\-*/%.]"


def _before_expressions() -> tuple[set[str], set[str]]:
    """From the grammar: the keywords an expression follows (``require``, ``square``, ``by``...;
    not ``then`` and ``else``, which a statement may follow, nor ``player``, also a type), and
    the keywords that stay keywords after one of those: those that follow it in the grammar
    (``in subset``, ``end when``) and those that follow an expression (``by``, ``to``), since the
    word before may be a name (``square size by size``)."""
    grammar = grammar_text()
    before = set(re.findall(r'"([a-z]+)" (?:expr|count|span|sum_|not_expr|and_expr|or_expr)\b', grammar))
    before -= {"then", "else", "player"}
    after = {second for first, second in re.findall(r'"([a-z]+)" "([a-z]+)"', grammar) if first in before}
    after |= set(re.findall(r'(?:expr|count|span|sum_|NAME|INT|STRING|\]|\))\s+"([a-z]+)"', grammar))
    return before, after


def _names_in_expressions() -> list[dict]:
    """Where an expression stands (after a bracket, a comma or an operator, or a keyword an
    expression follows), a keyword the expression grammar does not hold is a name."""
    before, after = _before_expressions()
    by_sign = r"(?<=" + _OPERATOR + "|" + _OPERATOR + " )"
    by_word = r"(?<=" + "|".join(rf"\b{re.escape(w)} " for w in sorted(before)) + ")"
    return [{"name": "variable.other.regle", "match": by_sign + _words(set(KEYWORDS) - set(IN_EXPRESSIONS))},
            {"name": "variable.other.regle", "match": by_word + _words(set(KEYWORDS) - set(IN_EXPRESSIONS) - after)}]


def grammar() -> dict:
    """The grammar as JSON-ready data."""
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "regle rules",
        "scopeName": "source.regle",
        "fileTypes": ["rules"],
        "patterns": [
            {"include": "#comments"}, {"include": "#strings"}, {"include": "#words"},
            {"include": "#numbers"}, {"include": "#operators"}, {"include": "#punctuation"},
        ],
        "repository": {
            "comments": {"patterns": [
                {"name": "comment.block.documentation.regle", "match": r"///.*$"},
                {"name": "comment.line.number-sign.regle", "match": r"#.*$"},
            ]},
            "strings": {"patterns": [{
                # a string never spans lines: an unfinished one ends with its line
                "name": "string.quoted.double.regle", "begin": '"', "end": r'"|$',
                "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.regle"}},
                "endCaptures": {"0": {"name": "punctuation.definition.string.end.regle"}},
                "patterns": [
                    {"name": "constant.character.escape.regle", "match": r'\\["\\n]'},
                    {"name": "variable.other.placeholder.regle", "match": r"\{[^{}\"]*\}"},
                ],
            }]},
            "words": {"patterns": [
                # a keyword is a name where the language reads one (its words are soft): the
                # name a declaration or binding gives, a call, and a name inside an expression
                {"match": "(" + _words(DECLARING) + r")\s+(" + _NAME + r")\b", "captures": {
                    "1": {"name": "keyword.control.regle"}, "2": {"name": "entity.name.regle"}}},
                {"name": "keyword.operator.word.regle", "match": _words(("and", "or", "not"))},
                {"name": "constant.language.regle", "match": _words(CONSTANTS)},
                {"name": "support.function.builtin.regle", "match": _words(BUILTINS) + r"(?=\s*\()"},
                {"name": "entity.name.function.regle", "match": _words(KEYWORDS) + r"(?=\()"},
                *_names_in_expressions(),
                {"name": "keyword.control.regle", "match": _words(KEYWORDS)},
                {"name": "entity.name.function.regle", "match": r"\b[A-Za-z][A-Za-z0-9_]*(?=\s*\()"},
                {"name": "variable.other.regle", "match": r"\b[A-Za-z_][A-Za-z0-9_]*\b"},
            ]},
            "numbers": {"patterns": [{"name": "constant.numeric.integer.regle", "match": r"\b\d+\b"}]},
            "operators": {"patterns": [
                {"name": "keyword.operator.regle", "match": r"\.\.|==|!=|<=|>=|\+=|-=|//|[-+*%<>=]"},
            ]},
            "punctuation": {"patterns": [
                {"name": "punctuation.section.braces.regle", "match": r"[{}]"},
                {"name": "punctuation.section.parens.regle", "match": r"[()\[\]]"},
                {"name": "punctuation.separator.regle", "match": r"[,:.]"},
            ]},
        },
    }


def text() -> str:
    """The grammar as the JSON file the package ships."""
    return json.dumps(grammar(), indent=2) + "\n"


VIM = Path(__file__).with_name("editors") / "regle.vim"


def vim_syntax() -> str:
    """The same words as a Vim/Neovim syntax file (``syntax/regle.vim``)."""
    lines = ['" Vim syntax file for regle rules files (*.rules), made by python -m regle.textmate --vim',
             'if exists("b:current_syntax") | finish | endif',
             "syntax keyword regleKeyword " + " ".join(KEYWORDS),
             "syntax keyword regleOperator and or not",
             "syntax keyword regleConstant " + " ".join(CONSTANTS),
             "syntax match regleBuiltin /\\<\\(" + "\\|".join(BUILTINS) + "\\)\\ze\\s*(/",
             "syntax match regleNumber /\\<\\d\\+\\>/",
             'syntax region regleString start=/"/ skip=/\\\\./ end=/"/ end=/$/ contains=reglePlaceholder',
             "syntax match reglePlaceholder /{[^{}\"]*}/ contained",
             "syntax match regleDoc /\\/\\/\\/.*$/",
             "syntax match regleComment /#.*$/",
             "highlight default link regleKeyword Keyword",
             "highlight default link regleOperator Operator",
             "highlight default link regleConstant Constant",
             "highlight default link regleBuiltin Function",
             "highlight default link regleNumber Number",
             "highlight default link regleString String",
             "highlight default link reglePlaceholder Special",
             "highlight default link regleDoc SpecialComment",
             "highlight default link regleComment Comment",
             'let b:current_syntax = "regle"']
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys
    print(vim_syntax() if "--vim" in sys.argv[1:] else text(), end="")
