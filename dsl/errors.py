"""Positioned diagnostics for rules files.

Every mistake an author makes is reported as ``FILE:LINE:COL: error: message``, followed by the
offending line, a caret under the column and, when we know one, a hint saying what to do.
:class:`RulesError` is the only exception the front end and checker raise for bad input.
"""
from __future__ import annotations

import attrs


@attrs.frozen
class Source:
    """A rules text and the name it is reported under."""

    text: str
    filename: str = "<rules>"

    def line_text(self, line: int) -> str:
        """Line ``line`` (from 1) as the parser counts lines: only ``\\n`` ends one (a form feed,
        a vertical tab, U+2028 or a lone CR are characters of the line), without its CR."""
        lines = self.text.split("\n")
        if 1 <= line <= len(lines):
            text = lines[line - 1]
            return text[:-1] if text.endswith("\r") else text
        return ""


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every character that is not plainly printable
    (escape sequences, CR, form feeds, U+2028...) is written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def shown_line(text: str, column: int) -> tuple[str, int]:
    """A source line as printed under a message (tabs expanded, other unprintable characters
    escaped) and the printed column (from 1) of source column ``column``."""
    out: list[str] = []
    width = 0
    caret = None
    for i, c in enumerate(text):
        if i == column - 1:
            caret = width + 1
        piece = " " * (4 - width % 4) if c == "\t" else printable(c)
        out.append(piece)
        width += len(piece)
    return "".join(out), caret if caret is not None else width + max(column - len(text), 1)


@attrs.frozen
class Diagnostic:
    """One positioned message (1-based line and column)."""

    message: str
    line: int
    column: int
    hint: str | None = None
    severity: str = "error"
    #: the file it is in, when not the main file (a file the main one extends)
    file: str | None = None

    @classmethod
    def at(cls, message: str, pos: tuple, hint: str | None = None) -> "Diagnostic":
        """A diagnostic at a node position ``(line, column[, file])``."""
        if not pos or not pos[0]:
            return cls(message, 1, 1, hint)
        return cls(message, pos[0], pos[1], hint, file=pos[2] if len(pos) > 2 else None)

    def render(self, source: Source | None, filename: str = "<rules>") -> str:
        name = source.filename if source is not None else filename
        head = f"{printable(name)}:{self.line}:{self.column}: {self.severity}: {printable(self.message)}"
        parts = [head]
        if source is not None:
            text = source.line_text(self.line)
            if text:
                shown, col = shown_line(text, self.column)
                if len(shown) > 200:  # keep long lines readable around the caret
                    start = max(0, col - 100)
                    shown = ("..." if start else "") + shown[start : start + 200]
                    col = col - start + (3 if start else 0)
                parts.append("    " + shown)
                parts.append("    " + " " * max(col - 1, 0) + "^")
        if self.hint:
            parts.append("    hint: " + printable(self.hint))
        return "\n".join(parts)


class RulesError(Exception):
    """A rules file (or saved state) that regle cannot accept; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic], source: Source | None = None,
                 sources: dict[str, Source] | None = None):
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.file or "", d.line, d.column))
        self.source = source
        #: other files involved (those the main file extends), by file name
        self.sources = dict(sources or {})
        #: after a syntax error: (AST of the declarations that parsed, names of those that did not)
        self.partial = None
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources.get(d.file, Source("", d.file)) if d.file else self.source)
                         for d in self.diagnostics)

    def __str__(self) -> str:
        return self.render()
