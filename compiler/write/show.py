"""How an engine shows a value to a person: the Python expression of the text a notation, a
table's ``show`` or an announcement makes of a value, by the value's type.

The lowering leaves these as trees (``nodes.Shown``: one value, ``nodes.TextOf``: texts put
together); the emitters write them with :func:`shown` and :func:`joined`, naming the engine's
constants by the conventions the templates use (``T_colour__NAMES``, ``G_board__NAMES``,
``show__card``). ``rt`` names a runtime helper as the engine being written calls it.
"""
from __future__ import annotations

from typing import Callable

from ..ir import types as T


def shown(ty: T.Type, code: str, how: str, rt: Callable[[str], str]) -> str:
    """The text of a value of type ``ty`` whose code is ``code`` (one operand). ``how``: ""
    as it is shown, "symbol" an enum member's symbol (its name when it has none), "long" the
    longer form that tells moves apart, "detail" that form for an item whose table has a
    ``detail`` text."""
    if how == "symbol" and ty.kind == "enum":
        const = f"T_{ty.name}_"
        return f"({const}_SYMBOLS[{code}] or {const}_NAMES[{code}] if {code} >= 0 else '-')"
    if how == "detail" and ty.kind == "item":
        return f"detail__{ty.name}({code})"
    if how == "long" and ty.kind == "item":
        return f"'#' + str({code} + 1)"
    if how in ("long", "detail") and ty.kind == "group":
        return f"'at ' + G_{ty.space}__NAMES[{rt('ops.group_anchor')}({code})]"
    if ty.kind == "direction":
        return f"G_{ty.space}__DIRS[{code}]"
    if ty.kind == "lane":  # lanes are drawn numbered from 1
        return f"str({code} + 1)"
    if ty.kind == "cell":
        return f"G_{ty.space}__NAMES[{code}]"
    if ty.kind == "linemove":
        return f"{rt('ops.show_line')}({code}, G_{ty.space}__NAMES, G_{ty.space}__DIRS)"
    if ty.kind == "placement":
        return f"{rt('ops.show_placement')}({code})"
    if ty.kind == "group":
        colour = shown(ty.elem or T.ANY, f"{rt('ops.group_colour')}({code})", "", rt)
        return f"{colour} + ' group of ' + str({rt('ops.group_size')}({code}))"
    if ty.kind == "enum":  # -1 is none (a '-' in a table)
        return f"(T_{ty.name}__NAMES[{code}] if {code} >= 0 else 'none')"
    if ty.kind == "item":
        return f"show__{ty.name}({code})"
    if ty.kind == "pattern":
        return f"PATTERN_TEXT[{code}]"
    if ty.kind == "player":
        return f"'P' + str({code} + 1)"
    if ty.kind == "bool":
        return f"('yes' if {code} else 'no')"
    if ty.kind == "list":  # a subset parameter: its values one after another, or "none"
        return f"(' '.join([{shown(ty.elem or T.ANY, '_v', '', rt)} for _v in {code}]) or 'none')"
    return f"str({code})"


def joined(parts: list[str], sep: str = "") -> str:
    """Code for the strings ``parts`` joined by ``sep``: ``a + ' ' + b`` when short, else one
    ``join`` call, so that a text of thousands of parts is no expression thousands deep."""
    if len(parts) <= 4:
        return f" + {sep!r} + ".join(parts) if sep else " + ".join(parts)
    return f"{sep!r}.join(({', '.join(parts)},))"
