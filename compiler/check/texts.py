"""Texts with placeholders (notations, announcements): `"{c} to {d}"` split into its parts; the
checker's fixed messages for the zone options a grid refuses; what a board's colour may be."""
from __future__ import annotations

from regle.dsl import ast


def _at(node: ast.Decl) -> tuple[int, int]:
    return node.name_pos if node.name_pos[0] else node.pos


class _Bad:
    def __repr__(self) -> str:
        return "<bad>"


_BAD = _Bad()


def _placeholders(text: str) -> list[str]:
    """Names inside ``{...}`` in a show or notation text (``{{`` and ``}}`` are literal braces;
    ``{name:symbol}`` shows an enum member by its symbol)."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if text.startswith("{{", i) or text.startswith("}}", i):
            i += 2
            continue
        if ch == "{":
            j = text.find("}", i)
            if j < 0:
                break
            out.append(text[i + 1 : j].split(":")[0].split(".")[0].strip())
            i = j + 1
            continue
        i += 1
    return out


def split_template(text: str) -> list[tuple[str, str]]:
    """``"take {v} now"`` -> [("text", "take "), ("name", "v"), ("text", " now")]."""
    parts: list[tuple[str, str]] = []
    buf, i = [], 0
    while i < len(text):
        if text.startswith("{{", i):
            buf.append("{")
            i += 2
        elif text.startswith("}}", i):
            buf.append("}")
            i += 2
        elif text[i] == "{" and text.find("}", i) > 0:
            j = text.find("}", i)
            if buf:
                parts.append(("text", "".join(buf)))
                buf = []
            parts.append(("name", text[i + 1 : j].strip()))
            i = j + 1
        else:
            buf.append(text[i])
            i += 1
    if buf:
        parts.append(("text", "".join(buf)))
    return parts


#: zones' options a grid refuses, and what to say
GRID_REFUSES = (("capacity", "a grid's capacity is its number of cells; remove 'capacity'"),
                ("values", "a grid's cells hold what its type says; 'values' is for zones of numbers"),
                ("unordered", "a grid's cells are places, in order; 'unordered' is for zones"),
                ("columns", "'columns by' lays out the items of a zone; a grid's cells have their places"))


def is_colour(text: str) -> bool:
    """A colour a board may be drawn on: a colour word (``green``) or ``#rrggbb``."""
    if text.startswith("#"):
        return len(text) == 7 and all(c in "0123456789abcdefABCDEF" for c in text[1:])
    return text.isascii() and text.isalpha() and text.islower()


#: a grid option only boards of squares take
SQUARES_ONLY = ("look", "'checkered' and 'on points' draw boards of squares")
