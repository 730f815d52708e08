"""The rules AST: plain attrs classes, each carrying the source position it came from.

Positions are 1-based (line, column) of the node's first token, like Lark's ``Meta``.
The AST is what the formatter prints, the differ compares and the checker reads; it has no
behaviour of its own.
"""
from __future__ import annotations

from typing import Union

import attrs

pos = attrs.field(default=(0, 0), eq=False, repr=False, kw_only=True)


@attrs.define
class Node:
    #: (line, column), or (line, column, file) for nodes that come from an extended file
    pos: tuple = pos
    #: a doc comment (``///``) written just before the node, where the grammar allows one
    doc: str | None = attrs.field(default=None, kw_only=True)
    #: marked ``standin``: data or a rule the original text leaves open, chosen by the project
    standin: bool = attrs.field(default=False, kw_only=True)
    #: written in parentheses (kept by the formatter around and/or/not and conditionals, where
    #: they group for the reader); not part of what the node means, so not compared
    grouped: bool = attrs.field(default=False, kw_only=True, eq=False, repr=False)

    @property
    def line(self) -> int:
        return self.pos[0]


# ---- expressions -------------------------------------------------------------------
@attrs.define
class Int(Node):
    value: int = 0


@attrs.define
class Bool(Node):
    value: bool = False


@attrs.define
class Name(Node):
    id: str = ""


@attrs.define
class Players(Node):
    """The built-in collection of seats, in seat order."""


@attrs.define
class Attr(Node):
    obj: Expr = None
    name: str = ""


@attrs.define
class Index(Node):
    obj: Expr = None
    index: Expr = None


@attrs.define
class Call(Node):
    func: str = ""
    args: list = attrs.Factory(list)


@attrs.define
class Comp(Node):
    """``func(elem for var in source where cond)``: an aggregate over a collection."""

    func: str = ""
    elem: Expr = None
    var: str = ""
    source: Expr = None
    cond: Expr | None = None


@attrs.define
class ListExpr(Node):
    items: list = attrs.Factory(list)


@attrs.define
class BinOp(Node):
    op: str = "+"
    left: Expr = None
    right: Expr = None


@attrs.define
class Not(Node):
    operand: Expr = None


@attrs.define
class Neg(Node):
    operand: Expr = None


@attrs.define
class Str(Node):
    """A quoted name of something the compiler knows: a cell (``"d4"``) or a direction (``"ne"``)."""

    value: str = ""


@attrs.define
class Range(Node):
    """``lo..hi``: the whole numbers from lo to hi, both included."""

    lo: Expr = None
    hi: Expr = None


@attrs.define
class Cond(Node):
    """``if test then a else b``: a value chosen by a condition."""

    test: Expr = None
    then: Expr = None
    orelse: Expr = None


@attrs.define
class LetIn(Node):
    """``let a = x then let b = y then value``: a define's value computed through named steps,
    each ``let`` read by the ones after it and by the value (only a define's body is one)."""

    lets: list = attrs.Factory(list)  # Let nodes, in order
    value: "Expr" = None


Expr = Union[Int, Bool, Name, Players, Attr, Index, Call, Comp, ListExpr, BinOp, Not, Neg, Str, Range, Cond,
             LetIn]


# ---- statements --------------------------------------------------------------------
@attrs.define
class Shuffle(Node):
    zone: Expr = None


@attrs.define
class Deal(Node):
    """Move the first ``count`` items (all when None) of src to dst, optionally filtered; with
    ``random``, each item is drawn at random among those left in src instead."""

    count: Expr | None = None
    src: Expr = None
    dst: Expr = None
    where: Expr | None = None
    random: bool = False


@attrs.define
class Move(Node):
    item: Expr = None
    src: Expr = None
    dst: Expr = None


@attrs.define
class Add(Node):
    item: Expr = None
    dst: Expr = None


@attrs.define
class Remove(Node):
    item: Expr = None
    src: Expr = None


@attrs.define
class Refill(Node):
    dst: Expr = None
    src: Expr = None
    size: Expr = None


@attrs.define
class If(Node):
    branches: list = attrs.Factory(list)  # [(cond, [stmt])]
    orelse: list | None = None


@attrs.define
class For(Node):
    """Repeat the body for each element of source; with ``where``, only the elements it holds for."""

    var: str = ""
    source: Expr = None
    body: list = attrs.Factory(list)
    where: Expr | None = None


@attrs.define
class While(Node):
    """Repeat the body while the condition holds (bounded by the work budget of a decision)."""

    cond: Expr = None
    body: list = attrs.Factory(list)


@attrs.define
class Let(Node):
    name: str = ""
    value: Expr = None


@attrs.define
class Require(Node):
    cond: Expr = None
    message: str | None = None


@attrs.define
class Assign(Node):
    name: str = ""
    index: Expr | None = None
    index2: Expr | None = None  # a counter of two keys: ``held[p][k] += 1``
    op: str = "="
    value: Expr = None


@attrs.define
class EndGame(Node):
    pass


@attrs.define
class Reveal(Node):
    """``reveal Z``: everyone sees a private or hidden zone or grid (or one seat's part of it,
    ``hand[p]``) from now on, to the end of the game."""
    place: Expr = None


@attrs.define
class Announce(Node):
    """A public message from the rules (`announce "Round {round} ends"`), kept in the game's
    history and shown to every seat."""
    text: str = ""


@attrs.define
class NextPlayer(Node):
    """Who plays the next turn (instead of the next seat in order)."""

    value: Expr = None


@attrs.define
class EndTurn(Node):
    """End the current turn now: the remaining steps are skipped."""


@attrs.define
class Again(Node):
    """``again with p = e, ...`` among an action's effects: the same player plays this action
    again before the turn goes on, with each named parameter set to its value (a capture chain:
    ``again with c = t``); when it has no legal move so, the turn goes on."""

    pins: list = attrs.Factory(list)  # [(parameter name, Expr)]
    pins_pos: list = attrs.field(factory=list, eq=False, repr=False)  # where each parameter is named


@attrs.define
class Ensure(Node):
    """``ensure COND`` among an action's effects: the move is legal only if COND holds once the
    effects before it are done (the position the move leads to)."""

    cond: Expr = None


@attrs.define
class Run(Node):
    """``name(a, b)`` as a statement: runs the procedure ``define name(x, y) { ... }``."""

    name: str = ""
    args: list = attrs.Factory(list)


@attrs.define
class Put(Node):
    value: Expr = None
    cell: Expr = None
    grid: Expr = None


@attrs.define
class MovePiece(Node):
    """What a cell of a grid holds moved to another cell: ``move c to t on G`` (``c`` is
    empty afterwards, unless ``t`` is ``c``)."""
    cell: Expr = None
    to: Expr = None
    grid: Expr = None


@attrs.define
class Clear(Node):
    """Empty a cell, or every cell of a group; the contents go to ``to`` when given."""

    what: Expr = None
    grid: Expr = None
    to: Expr | None = None


@attrs.define
class Drop(Node):
    value: Expr = None
    grid: Expr = None
    lane: Expr = None
    taking: Expr | None = None
    overflow: Expr | None = None


@attrs.define
class Settle(Node):
    grid: Expr = None


@attrs.define
class Rotate(Node):
    """``rotate G at C size N by Q``: the N x N block of cells whose south-west corner is C turns
    by Q quarter turns clockwise (negative: anticlockwise); ``reflect G at C size N`` (``turns``
    None) mirrors it west to east; ``copy G at C size N to D`` (``to``) copies it to the block
    whose south-west corner is D."""

    grid: Expr = None
    corner: Expr = None
    size: Expr = None
    turns: Expr | None = None
    to: Expr | None = None


@attrs.define
class Place(Node):
    placement: Expr = None
    pattern: Expr = None
    grid: Expr = None
    taking: Expr | None = None
    overflow: Expr | None = None


@attrs.define
class Push(Node):
    move: Expr = None
    grid: Expr = None
    who: str | None = None
    sides: str | None = None
    body: list | None = None


# ---- the turn ----------------------------------------------------------------------
@attrs.define
class Binding(Node):
    """A parameter of an action: ``x in Z``, ``x in lo..hi``, ``a, b in pair Z`` or
    ``s in subset Z``."""

    names: list = attrs.Factory(list)
    kind: str = "each"  # each | range | pair | subset
    source: Expr = None
    upper: Expr | None = None


@attrs.define
class Action(Node):
    name: str = ""
    params: list = attrs.Factory(list)
    notation: str | None = None
    body: list = attrs.Factory(list)
    #: ``secret ["text"]``: only its player sees which move it was; the others see the text
    #: (the action's name without one). None: everyone sees the move.
    secret: str | None = None
    #: ``ids as NAME``: its moves take the action ids of NAME's moves with the same arguments
    #: (the two are never offered in one step: a card's id is the card, passed or played)
    ids_of: str | None = None
    #: ``forced action``: while a forced action of its step has a legal move, the step's
    #: other actions have none (a capture that must be taken)
    forced: bool = False


@attrs.define
class Pass(Node):
    notation: str | None = None


@attrs.define
class Step(Node):
    override: bool = attrs.field(default=False, kw_only=True)
    kind: str = "decision"  # decision | optional | repeat | auto
    name: str = ""
    cond: Expr | None = None
    choices: list = attrs.Factory(list)
    body: list = attrs.Factory(list)
    #: a turn written as its actions alone (``turn { action ... }``): one decision step
    implicit: bool = False
    #: ``optional repeat step``: "stop NAME" is offered beside the actions, only when one is legal
    optional: bool = False
    #: ``unordered repeat step``: the moves of one round of it are one choice made a move at a
    #: time (three cards passed): the order they came in is no part of any seat's information
    unordered: bool = False


# ---- declarations ------------------------------------------------------------------
@attrs.define
class Decl(Node):
    #: written ``override ...`` in a file that extends another
    override: bool = attrs.field(default=False, kw_only=True)
    #: where the declared name stands (for "already declared" and similar messages)
    name_pos: tuple = attrs.field(default=(0, 0), kw_only=True, eq=False, repr=False)


@attrs.define
class Game(Decl):
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    first: Expr | None = None
    #: one mark per seat, drawn in the cells of grids of players (``marks "X", "O"``)
    marks: list = attrs.Factory(list)
    #: one colour per seat for drawing its pieces (``colours "red", "blue"``): colour words or #rrggbb
    colours: list = attrs.Factory(list)
    #: names for the seats, in order (``seats black, white``): constants of the rules, 0, 1...
    seats: list = attrs.Factory(list)
    seats_pos: list = attrs.field(factory=list, eq=False, repr=False)
    #: the side of the board each seat sits at (``seats white at south, black at north``), or None:
    #: where pages draw that seat's side of the board, at the bottom
    seat_sides: list = attrs.Factory(list)
    seat_sides_pos: list = attrs.field(factory=list, eq=False, repr=False)
    #: ``max decisions N``: no game of these rules takes more decisions (for game-AI tools)
    max_decisions: Expr | None = None
    players_pos: tuple = attrs.field(default=(0, 0), eq=False, repr=False)
    colours_pos: tuple = attrs.field(default=(0, 0), eq=False, repr=False)


@attrs.define
class Extend(Decl):
    path: str = ""


@attrs.define
class Param(Decl):
    name: str = ""
    value: Expr = None


@attrs.define
class EnumMember(Node):
    name: str = ""
    wild: bool = False
    symbol: str | None = None
    figure: str | None = None  # how pages draw it (a glyph: ``figure "♞"``), for people only
    on_disc: bool = False  # the figure drawn on a disc of its seat's colour (``figure "♛" on disc``)


@attrs.define
class Enum(Decl):
    name: str = ""
    members: list = attrs.Factory(list)


@attrs.define
class TypeRef(Node):
    name: str = "int"
    pattern: bool = False  # "pattern of NAME": a small grid of NAME's members
    cell: bool = False  # "cell of NAME": a cell of grid NAME
    piece: bool = False  # "NAME of player": a piece of a kind (a member of enum NAME) and an owner


@attrs.define
class Column(Node):
    name: str = ""
    type: TypeRef = None


@attrs.define
class Cell(Node):
    kind: str = "int"  # int | name | str | none | range (value = (lo, hi))
    value: object = None


@attrs.define
class Row(Node):
    cells: list = attrs.Factory(list)
    copies: int = 1


@attrs.define
class Table(Decl):
    name: str = ""
    columns: list = attrs.Factory(list)
    show: str | None = None
    rows: list = attrs.Factory(list)
    #: a longer text for listings (a player choosing from an offer), after the short ``show``
    detail: str | None = None
    #: ``show A if COND else B``: the condition over an item's columns, and the other text
    show_if: Expr | None = None
    show_else: str | None = None
    show_elifs: list = attrs.Factory(list)  # show A if c1 else B if c2 else C: [(c2, B)]


@attrs.define
class Zone(Decl):
    name: str = ""
    elem: TypeRef = None
    per: str | None = None  # None, "player" or an enum name: one zone per seat / member
    hidden: bool = False
    private: bool = False
    capacity: Expr | None = None
    #: ``values lo..hi``: the numbers a zone of numbers may hold (what action ids are made from)
    values: Expr | None = None
    init: Expr | None = None
    #: not drawn by ``regle play`` (bookkeeping); still in the state and the views
    quiet: bool = False
    #: ``unordered``: a multiset, whose order does not matter (compared, and remembered by
    #: ``repeated()``, by its contents alone)
    unordered: bool = False
    look: str | None = None  # refused by the checker: a grid's drawing option
    columns: str | None = None  # pages lay its items in columns by this column of their table
    ground: str | None = None  # refused by the checker: a board's colour
    #: ``shown at end``: a private or hidden zone everyone sees once the game is over (else
    #: the end reveals nothing the rules do not ``reveal``)
    shown_at_end: bool = False


@attrs.define
class Track(Decl):
    """``track NAME on GRID: "a1 b1 c1", "c2 c3" [loop]``: a path through a grid's cells in order
    (the texts' cell names joined), a circuit with ``loop``: what ``along`` and ``position`` walk."""

    name: str = ""
    grid: str = ""
    cells: list = attrs.Factory(list)  # Str per text, each of space-separated cell names
    loop: bool = False


@attrs.define
class Grid(Decl):
    """A board of cells: ``square`` w by h, ``lanes`` n of a height, ``hex`` of a side, ``hex``
    w by h (a rhombus of hexagons), ``mancala`` n (two rows of n pits and a store each),
    ``lines`` (points and the lines through them) or ``walls of`` another grid (the places
    between its cells)."""

    name: str = ""
    elem: TypeRef = None
    per: str | None = None
    shape: str = "square"
    size: list = attrs.Factory(list)  # the shape's numbers, as expressions (``lines``: its strings)
    diagonals: bool | str = False  # square and lanes: the diagonal neighbours too ("with diagonals"), or alone ("only")
    numbered: bool = False  # cells named 1, 2, 3... in reading order (the north row first)
    edges: str | None = None  # an enum naming the board's sides, in the documented order
    under: str | None = None  # a grid whose cells lie on top of this one's (face up over face down)
    hidden: bool = False
    private: bool = False
    capacity: Expr | None = None
    quiet: bool = False
    unordered: bool = False  # refused by the checker: a grid's cells are places
    values: Expr | None = None  # refused by the checker: what a cell holds is the grid's type
    shown_at_end: bool = False  # a private or hidden grid everyone sees once the game is over
    look: str | None = None  # how pages draw it: "checkered" squares, or stones "points" (on points)
    ground: str | None = None  # the colour pages draw its cells in (on "green"), for people only
    columns: str | None = None  # refused by the checker: a zone's layout


@attrs.define
class Counter(Decl):
    name: str = ""
    type: TypeRef | None = None  # None: a number
    per: str | None = None  # "player", an enum, "turn" or "step" (set back as each turn / step begins)
    per2: str | None = None  # a second key, an enum: ``counter held per player per kind``
    init: Expr | None = None
    quiet: bool = False
    #: ``per player private``: each seat sees its own value only (a die under a cup), unless
    #: the rules ``reveal`` it
    private: bool = False


@attrs.define
class Setup(Decl):
    body: list = attrs.Factory(list)


@attrs.define
class Turn(Decl):
    steps: list = attrs.Factory(list)


@attrs.define
class End(Decl):
    cond: Expr = None
    #: ``then winner E``: when this condition ends the game, seat E wins
    winner: Expr | None = None
    #: ``then draw``: when this condition ends the game, nobody wins
    draw: bool = False


@attrs.define
class Clause(Node):
    name: str = ""
    expr: Expr = None


@attrs.define
class Score(Decl):
    var: str = "p"
    clauses: list = attrs.Factory(list)


@attrs.define
class Rank(Node):
    most: bool = True
    expr: Expr = None


@attrs.define
class Winner(Decl):
    var: str = "p"
    ranks: list = attrs.Factory(list)
    ties: str = "draw"  # or "shared", or a seat's name (a tie goes to that seat)


@attrs.define
class Invariant(Decl):
    name: str = ""
    expr: Expr = None


@attrs.define
class Notice(Decl):
    """``notice "check" when COND at CELLS``: words a page shows (a banner, the cells outlined)
    in every position where COND holds; or ``notice "atari" at c for c in SRC where COND``: shown
    where some cell of SRC meets COND, outlining those cells. For people only: play ignores it."""

    text: str = ""
    cond: Expr | None = None
    at: Expr | None = None  # a cell or cells; with var: the element of the generator
    var: str | None = None
    source: Expr | None = None
    where: Expr | None = None


@attrs.define
class Define(Decl):
    """``define name(a, b) = expr``: a named expression, written once and used like a function;
    or ``define name(a, b) { statements }``: a procedure, run as a statement (``name(x, y)``)."""

    name: str = ""
    params: list = attrs.Factory(list)
    body: Expr = None
    block: list | None = None  # a procedure's statements (then body is None)
    #: written without parentheses (``define total = ...``): used by its name alone, ``total``
    bare: bool = False


@attrs.define
class Rules(Node):
    decls: list = attrs.Factory(list)
    filename: str = "<rules>"
