"""Symbols: what the declarations of a rules file define (params with their values, enums,
tables, zones, grids, counters), the language's own names and limits, and constant folding."""
from __future__ import annotations

import difflib
import keyword
import re
from typing import Any

import attrs

from regle.dsl import ast

from . import geometry
from ..ir import types as T


#: Names the language defines; a declaration may not reuse them.
BUILTIN_NAMES = {"me", "turns", "player_count", "players", "it", "score", "true", "false", "none", "stuck", "ended"}
FUNCTIONS = {"count", "sum", "max", "min", "any", "all", "has", "abs", "random", "argmin", "argmax",
             "at", "cells", "empty_cells", "filled_cells", "content", "is_empty", "row", "lane",
             "lane_count", "groups", "largest_zone", "placements", "line_moves"}
#: Functions added later: common words, so they stay free as names of declarations and columns.
#: Such a name means one thing in a file: a define of the same name is called everywhere in its
#: place; any other declaration of it makes a call of the built-in an error (lower/calls.py).
OPEN_FUNCTIONS = {"number", "first", "last", "column", "cell", "neighbour", "neighbours", "directions",
                  "ray", "distance", "edge_cells", "in_a_row", "connected", "flanked", "houses", "store",
                  "opposite", "chain", "sides", "lanes", "around", "liberties", "slide", "blocker", "repeated",
                  "lines", "leaps", "reach", "in_a_row_exactly", "wall", "beside", "reachable", "since", "line",
                  "die", "ring", "along", "position"}
#: The functions that draw on chance: ``random(n)`` (0..n-1) and ``die(n)`` (a die's face, 1..n).
CHANCE_FUNCTIONS = frozenset({"random", "die"})

#: Resource bounds for untrusted rules files (see docs/language.md, "Limits").
#: a seat's colour: a colour word (letters only, as CSS names them) or #rgb / #rrggbb
COLOUR = re.compile(r"[a-z]{3,20}|#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}")
#: the sides of a board a seat may sit at (``seats white at south``): pages draw it at the bottom
SEAT_SIDES = ("south", "north", "east", "west")

LIMITS = {
    "table_rows": 10_000,     # items in one table, copies included
    "zone_capacity": 100_000,
    "players": 64,
    "param_value": 10**9,
    "grid_cells": 4096,
    "pattern_cells": 64,
    "nesting": 60,            # blocks inside blocks, expressions inside expressions
    "range_values": 100_000,  # values of one range parameter
    "moves": 1_000_000,       # legal moves of one decision (checked while playing)
    "subset_ids": 1 << 20,    # action ids of one subset parameter (its possible subsets)
    "constant": 10**18,       # any step of a constant expression (params, sizes)
    "all_grid_cells": 16_384,  # cells of all grids together (each one's geometry is in the engine)
    "decisions": 100_000,     # decisions of one game (the engine's own bound; max decisions may lower it)
    "define_work": 200_000,
    "check_work": 60_000,     # expressions lowered at least (more in proportion to a long text)   # characters of code one use of a define runs, the defines it uses included
    "engine_bytes": 8_000_000,  # the generated module
}


@attrs.define
class ParamSym:
    name: str
    value: Any
    type: T.Type
    node: ast.Param


@attrs.define
class EnumSym:
    name: str
    members: list
    wild: int | None
    node: ast.Enum
    symbols: dict = attrs.Factory(dict)  # one-character symbol -> member index (for patterns)


@attrs.define
class ColumnSym:
    name: str
    type: T.Type
    values: tuple


@attrs.define
class TableSym:
    name: str
    columns: dict
    count: int
    show: str | None
    node: ast.Table
    detail: str | None = None


@attrs.define
class ZoneSym:
    name: str
    elem: T.Type
    per: str | None  # None, "player" or an enum name
    hidden: bool
    private: bool
    capacity: int | None
    node: ast.Zone
    values: tuple | None = None  # (lo, hi): the numbers a zone of numbers may hold

    @property
    def per_player(self) -> bool:
        return self.per == "player"


@attrs.define
class GridSym:
    name: str
    elem: T.Type
    per: str | None
    hidden: bool
    private: bool
    geo: geometry.Geometry
    node: ast.Grid
    edges: str | None = None


@attrs.define
class CounterSym:
    name: str
    per: str | None
    node: ast.Counter
    type: T.Type = T.INT  # what it holds: a number unless declared (counter ko: cell of board)
    per2: str | None = None  # the enum of its second key (counter held per player per kind)

    @property
    def per_player(self) -> bool:
        return self.per == "player"

    @property
    def private(self) -> bool:
        """``per player private``: each seat sees its own value only."""
        return self.node.private

    hidden = False  # a counter is never seen by nobody


@attrs.define
class Symbols:
    game: ast.Game | None = None
    params: dict = attrs.Factory(dict)
    enums: dict = attrs.Factory(dict)
    members: dict = attrs.Factory(dict)  # member name -> (enum name, index)
    seats: dict = attrs.Factory(dict)  # a seat's name (game seats ...) -> its number from 0
    tables: dict = attrs.Factory(dict)
    zones: dict = attrs.Factory(dict)
    grids: dict = attrs.Factory(dict)
    counters: dict = attrs.Factory(dict)
    tracks: dict = attrs.Factory(dict)  # name -> tracks.TrackSym
    defines: dict = attrs.Factory(dict)
    since: dict = attrs.Factory(dict)  # an action since() names -> the counter of the turn it was last played
    again_flags: dict = attrs.Factory(dict)  # (action, step) that says again -> its flag counter (compiler/check/again.py)
    again_pins: dict = attrs.Factory(dict)  # a counter of a value again keeps -> (step, action, parameter)
    patterns: list = attrs.Factory(list)  # (rows, cols, bytes) per distinct pattern
    pattern_texts: list = attrs.Factory(list)  # how each was first written
    setup: list = attrs.Factory(list)
    turns: list = attrs.Factory(list)
    ends: list = attrs.Factory(list)
    scores: list = attrs.Factory(list)
    winners: list = attrs.Factory(list)
    invariants: list = attrs.Factory(list)
    notices: list = attrs.Factory(list)

    def all_names(self) -> list[str]:
        return [*self.params, *self.enums, *self.members, *self.seats, *self.tables, *self.zones, *self.grids,
                *self.counters, *self.tracks, *self.defines, *BUILTIN_NAMES]


def _cell_count(shape: str, sizes: list[int]) -> int:
    """How many cells a grid of that shape and size has, without building it."""
    if shape == "hex":
        side = sizes[0]
        return 3 * side * (side - 1) + 1
    if shape == "mancala":
        return 2 * sizes[0] + 2
    if shape == "triangle":
        return sizes[0] * (sizes[0] + 1) // 2
    if shape == "star":
        return 6 * sizes[0] * (sizes[0] + 1) + 1
    count = 1
    for size in sizes:
        count *= size
    return count


class NotConstant(Exception):
    """Why an expression is not a constant, and where."""

    def __init__(self, message: str, pos: tuple, hint: str | None = None):
        super().__init__(message)
        self.message, self.pos, self.hint = message, pos, hint


def fold_constant(expr: ast.Node, params: dict) -> Any:
    """The value of a constant expression (numbers, true/false, params, + - * // %), computed
    on the syntax tree; NotConstant says why not."""
    if isinstance(expr, (ast.Int, ast.Bool)):
        return expr.value
    if isinstance(expr, ast.Name):
        p = params.get(expr.id)
        if p is None:
            raise NotConstant(f"'{expr.id}' is not a known param here", expr.pos,
                              suggest(expr.id, params) or "a value here must be a number or a param declared above")
        if isinstance(p.value, tuple):
            raise NotConstant(f"'{expr.id}' is a list; a single number is needed here", expr.pos)
        return p.value
    if isinstance(expr, ast.Neg):
        return -fold_constant(expr.operand, params)
    if isinstance(expr, ast.BinOp) and expr.op in ("+", "-", "*", "//", "%"):
        a, b = fold_constant(expr.left, params), fold_constant(expr.right, params)
        if expr.op in ("//", "%") and b == 0:
            raise NotConstant("division by zero", expr.pos)
        value = {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0, "%": a % b if b else 0}[expr.op]
        if abs(value) > LIMITS["constant"]:
            raise NotConstant(f"this value is too large (the limit is {LIMITS['constant']:.0e})", expr.pos)
        return value
    raise NotConstant("this must be a constant (a number, true/false or a param)", expr.pos)


def suggest(name: str, candidates, cutoff: float = 0.7) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=cutoff)
    return f"did you mean '{close[0]}'?" if close else None


def bad_identifier(name: str) -> str | None:
    """Why a declared name cannot be used, or None (names reach generated code as identifiers)."""
    if name.startswith("_") or name.endswith("_") or "__" in name:
        return "names may not start or end with '_' or hold '__'"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return f"'{name}' is reserved (a Python keyword); choose another name"
    if name in BUILTIN_NAMES or name in FUNCTIONS:
        return f"'{name}' is a built-in name of the rules language; choose another name"
    return None
