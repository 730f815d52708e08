"""The typed IR of expressions: a tree of small nodes, each carrying its type and rules line.

The lowering builds these for every expression: constants, names, operators, comparisons,
conditionals, reads of the state (a grid's cell, a counter's slot, a table's column, a grid's
geometry), aggregates, calls of defines and of the runtime's helpers and kernels. What it still
writes as text (displays, tuples and some arguments) is a :class:`Code` leaf, typed like the
rest. Values known when compiling are folded as the tree is built (:func:`binary`,
:func:`negate`, :func:`invert`, :func:`choose`). The emitters (compiler/write/emit.py,
compiler/write/emit_native.py) write a tree as the Python engine's code or the native engine's;
:func:`evaluate` (compiler/ir/evaluate.py) computes a tree directly (constants, names given their
values, operators, lists, ranges, counts, aggregates), the reference the tests compare both
engines with; compiler/ir/traverse.py walks trees and says what they read.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

import attrs

from . import types as T

# precedences of the generated Python, lowest first (a conditional is 0)
P_OR, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM = range(1, 9)

#: the largest number folded when compiling (a larger one is left to the engine's checks)
FOLD_LIMIT = 2 ** 53


class Node:
    """An IR node: an expression here, or a statement (compiler/ir/statements.py)."""


@attrs.frozen
class Expr(Node):
    type: T.Type
    line: int


@attrs.frozen
class Const(Expr):
    """A number or a truth known when compiling (a literal, a param, an enum member), or
    ``None`` (nothing: an optional argument not given)."""
    value: int | bool | None


@attrs.frozen
class Text(Expr):
    """A text known when compiling (a name for a message), written as a literal: rules text only
    ever reaches the engine this way."""
    value: str


@attrs.frozen
class Code(Expr):
    """Python written by the lowering (a read of the state, a call), with its precedence."""
    text: str
    prec: int


@attrs.frozen
class Local(Expr):
    """A name of the method being written: a let, a parameter, a loop's variable, ``me``."""
    name: str


@attrs.frozen
class Field(Expr):
    """A field of the state: ``s.<attr>`` (a zone, a grid, a counter, the turn, the seats)."""
    attr: str


@attrs.frozen
class Global(Expr):
    """A constant of the engine module made when generating (a table's items, a grid's names)."""
    name: str


@attrs.frozen
class Index(Expr):
    """``obj[index]``: an element of a zone or a list, a zone or grid of one seat."""
    obj: Expr
    index: Expr


@attrs.frozen
class ListOf(Expr):
    """A list written out: ``[a, b, c]``."""
    items: tuple


@attrs.frozen
class Shown(Expr):
    """A value as the text a person reads, by its type (compiler/write/show.py): a member's name, a
    cell's name, a seat as P1... ``how``: "" as shown, "symbol" an enum member's symbol,
    "long" the longer form that tells moves apart, "detail" that form from an item's detail."""
    value: Expr
    how: str = ""


@attrs.frozen
class TextOf(Expr):
    """Texts put together, ``sep`` between each two: a notation, a show, an announcement."""
    parts: tuple
    sep: str = ""


@attrs.frozen
class Literal(Expr):
    """Data known when compiling, written as a Python literal (a param's list, as a tuple):
    ``(1, 2, 3)``."""
    value: tuple


@attrs.frozen
class Tuple(Expr):
    """Values side by side, ``a, b``: what a kernel returns several of, unpacked at once by an
    assignment (written with the lowest precedence)."""
    items: tuple


@attrs.frozen
class Concat(Expr):
    """Two lists joined, in order: ``[*left, *right]``."""
    left: Expr
    right: Expr


@attrs.frozen
class Projection(Expr):
    """A grid of items seen through one of their columns: each cell's code translated by the
    column's 256-byte table (``table``, a constant of the module), a new grid of its values."""
    grid: Expr
    table: str


@attrs.frozen
class Span(Expr):
    """The whole numbers ``first`` to ``last`` (both known when compiling), in order."""
    first: int
    last: int


@attrs.frozen
class Upto(Expr):
    """The whole numbers from 0 below ``count``, in order (the seats, an enum's members, a
    grid's cells or directions)."""
    count: Expr


@attrs.frozen
class Len(Expr):
    """How many elements a zone or a list holds."""
    coll: Expr


@attrs.frozen
class ListCount(Expr):
    """How many elements of a zone or a list (or a grid of numbers) equal ``value``."""
    coll: Expr
    value: Expr


@attrs.frozen
class Reduce(Expr):
    """``sum``, ``max`` or ``min`` of a zone or list of numbers (max and min 0 when empty)."""
    func: str
    coll: Expr


@attrs.frozen
class Not(Expr):
    operand: Expr


@attrs.frozen
class Neg(Expr):
    operand: Expr


@attrs.frozen
class Binary(Expr):
    """Arithmetic (+ - * // %), a comparison, membership (in, not in), and/or."""
    op: str
    left: Expr
    right: Expr


@attrs.frozen
class Cond(Expr):
    """``if test then then else orelse``."""
    test: Expr
    then: Expr
    orelse: Expr


@attrs.frozen
class Call(Expr):
    """A built-in function of numbers: ``abs(x)``, ``max(a, b, ...)``, ``min(a, b, ...)``."""
    func: str
    args: tuple


@attrs.frozen
class Apply(Expr):
    """A call of one of the engine's own functions: a define compiled once per kind of
    arguments (``fn__name(s, me, a, b)``)."""
    function: str
    args: tuple


@attrs.frozen
class Method(Expr):
    """A call of one of the state's own methods (``s._ensure_3(c_)``: an action's trial)."""
    name: str
    args: tuple


@attrs.frozen
class StateCopy(Expr):
    """A copy of the state (natively the compiled state's own copy)."""


@attrs.frozen
class Distinct(Expr):
    """A zone's distinct values in first-seen order, to be walked (equal values are one choice)."""
    coll: Expr


@attrs.frozen
class Aggregate(Expr):
    """``func(elem for var in source where cond)``: count, sum, max, min (0 when empty), any,
    all, argmin, argmax (the first best element; none when empty). ``lazy``: any/all stop at
    the first element that decides (nothing random is drawn by the elements)."""
    func: str
    var: str
    source: Expr
    elem: Expr
    cond: Expr | None
    lazy: bool = False
    #: the names of the place it stands in that it reads, (name, type or None) each: natively
    #: the parameters of its helper method
    params: tuple = ()
    note: str = ""  # the comment naming its rules line (natively its helper's)
    display: bool = False  # in a display function (a notation): a comprehension in both engines


@attrs.frozen
class Number(Expr):
    """``number(c)`` of a truth: 1 when it holds, else 0."""
    operand: Expr


@attrs.frozen
class Helper(Expr):
    """A call of a runtime helper, ``ops.name`` or the kernel ``K.name``: each emitter names it
    its own way (natively a C call of the compiled kernel, a C form, or a C global bound once)."""
    name: str  # qualified: "ops.ray", "K.chain"
    args: tuple
    c_form: bool = True  # natively its C form (emit.C_FORMS) when it has one


@attrs.frozen
class CellRead(Expr):
    """The code a cell of a grid of elements (a bytearray) holds: 0 when empty, else 1 + the
    element (natively a C read of the byte, bounds checked as indexing is)."""
    grid: Expr
    cell: Expr


@attrs.frozen
class NumberCell(Expr):
    """A cell of a grid of numbers, read or written: in Python an item of the state's list,
    natively a C ``long long`` of its array (``array('q')``), bounds checked as indexing is."""
    grid: Expr
    cell: Expr


@attrs.frozen
class Element(Expr):
    """The element a cell's code stands for (the code less one: -1, none, for an empty cell)."""
    code: Expr


@attrs.frozen
class Slot(Expr):
    """One seat's (member's) value of a counter kept per seat (per member): in Python an item of
    the state's list, natively an element of its C array with the index checked (``_ix``)."""
    counter: str
    index: Expr
    bound: Expr  # how many slots: the seats (``s.n``) or the enum's members


@attrs.frozen
class Column(Expr):
    """One item's value in a table's column: natively from the column's C array when it holds
    whole numbers (``c_array``)."""
    column: str  # the column's constant, e.g. T_CARD__rank
    item: Expr
    c_array: bool


@attrs.frozen
class Geometry(Expr):
    """An entry of a grid's table made when generating (``G_BOARD_ROWS[c]``): natively read
    in the table's C array (``_v_G_BOARD_ROWS[c]``)."""
    table: str
    index: Expr


@attrs.frozen
class Bound(Expr):
    """``(name := value)``: a value computed here once and kept in a local that the rest of the
    expression reads after it (a define written in place whose body asks for one call twice:
    compiler/passes/share_values.py ``bind_shared``). The Python engine's alone."""
    name: str
    value: Expr


@attrs.frozen
class LineCells(Expr):
    """The cells of one row (or column) of a grid, in order: ``first + index * line_step + k *
    cell_step`` for k below ``count``, none when ``index`` is not below ``lines`` or below 0
    (compiler/passes/line_source.py makes it where a grid's lines are that regular). The index
    is of names, numbers, ``+``, ``-`` and ``*`` alone: a native engine reads it twice."""
    index: Expr
    first: int
    line_step: int
    cell_step: int
    count: int
    lines: int


@attrs.frozen
class Table(Expr):
    """A whole table made when generating, as a kernel's argument: natively through a C
    global bound to it (a module global is looked up at every call)."""
    name: str


@attrs.frozen
class Dimension(Expr):
    """A grid's width or height: its constant's name in Python, the number natively."""
    name: str
    value: int


@attrs.frozen
class NeighbourList(Expr):
    """The cells a grid's table gives for a cell (its neighbours, its leaps), as a list."""
    table: str
    degree: int
    cell: Expr


@attrs.frozen
class Neighbour(Expr):
    """The neighbour of a cell in one direction (none at the edge), or the cell ``steps`` away."""
    table: str
    degree: int
    cell: Expr
    direction: Expr
    steps: Expr | None = None


@attrs.frozen
class Numbered(Expr):
    """The cell numbered n of a numbered grid (none when no cell has that number)."""
    table: str
    number: Expr


@attrs.frozen
class Houses(Expr):
    """A seat's houses on a mancala board of ``width`` houses a side, in sowing order."""
    seat: Expr
    width: int


@attrs.frozen
class Cells(Expr):
    """A grid's empty (``filled``) cells, in order. ``walkable``: the grid is named plainly, so
    a loop over them may walk the grid's bytes instead of making the list."""
    grid: Expr
    filled: bool
    walkable: bool = False


@attrs.frozen
class Slide(Expr):
    """The empty cells from ``cell`` in ``direction`` up to the first filled one (``slide``), or
    with that one (``reach``), on a board of ``cells`` cells."""
    kind: str
    grid: Expr
    table: Table
    degree: int
    cell: Expr
    direction: Expr
    cells: int
    noted: int = -1  # natively, in a remembered ensure's twin: the memo its walk notes cells in
    #: whether the walk's empty cells are elements (None: they are); where this is false only
    #: the filled cell it stops on is (compiler/passes/blocker_walk.py)
    empties: Expr | None = None
    #: natively, in a remembered ensure's twin, an ``any`` over a reach's filled cell: its element
    #: test, read past the cell that stopped the walk (compiler/passes/ensure_memo.py, x-ray)
    xray: Expr | None = None


@attrs.frozen
class Noted(Expr):
    """A cell read (``read``, a CellRead) whose cell is noted in memo ``memo``'s marks as it is
    read: the value is the read's (compiler/passes/ensure_memo.py)."""
    memo: int
    read: Expr
    cells: int  # how many cells the grid has (a cell outside is not noted: the read says why)
    cell: Expr  # the cell read (kept apart from the read: a writer may write the read another way)


@attrs.frozen
class NotedEq(Expr):
    """``left == right`` (``!=`` with ``op``) where ``left`` reads a cell (a CellRead, or the
    Element of one: ``shift`` 1) and ``right`` no cell: memo ``memo`` notes that the cell was
    only compared with that code (compiler/passes/ensure_memo.py)."""
    memo: int
    cells: int
    cell: Expr
    op: str
    left: Expr
    right: Expr
    shift: int


@attrs.frozen
class NotedScan(Expr):
    """``K.first_holding`` (``helper``) whose cell found, and what it looked for, memo ``memo``
    keeps: the value is the helper's (compiler/passes/ensure_memo.py)."""
    memo: int
    helper: Expr


@attrs.frozen
class Runs(Expr):
    """Whether some line of a grid holds ``length`` cells in a row holding ``code``. ``memo``:
    the end conditions' memo it may keep between turns (its number, of ``memo_size`` bytes)."""
    grid: Expr
    table: Table
    degree: int
    code: Expr
    length: Expr
    memo: int | None = None
    memo_size: int = 0
    bits: Expr | None = None  # the board's lines as bits (a table): in_a_row_bits, no memo
    journal: bool = False  # natively, only the cells written since it failed (passes/cells_written.py)


@attrs.frozen
class Joined(Expr):
    """Whether a chain of neighbouring cells holding ``code`` joins a cell of ``starts`` to one of
    ``goals`` (``connected``). ``memo``: the end conditions' memo it may keep between turns (its
    number, of ``memo_size`` bytes), when its starts and goals are the same at every call."""
    grid: Expr
    table: Table
    degree: int
    code: Expr
    starts: Expr
    goals: Expr
    memo: int | None = None
    memo_size: int = 0


@attrs.frozen
class Draw(Expr):
    """A random whole number from ``low`` up to ``low + bound - 1`` (``random(n)``: from 0; a
    die's face, ``die(n)``: from 1), from the state's generator; ``logged``: kept in the state's
    log of rolls (during play), as drawn."""
    bound: Expr
    logged: bool = False
    low: int = 0


@attrs.frozen
class CountValue(Expr):
    """How many cells of a grid of elements (bytes) hold one code."""
    grid: Expr
    value: Expr


@attrs.frozen
class Append(Expr):
    """``item`` put at the end of a zone."""
    zone: Expr
    item: Expr


@attrs.frozen
class Removal(Expr):
    """One ``item`` taken out of a zone (an error when it holds none)."""
    zone: Expr
    item: Expr


#: the node kinds whose writing differs between the engines (compiler/write/emit.py)
BACKEND_KINDS = (Helper, CellRead, NumberCell, Slot, Column, Geometry, Table, Dimension, NeighbourList, Neighbour, Numbered,
                 Houses, LineCells, Draw, CountValue, Removal, Runs, Joined, Distinct, StateCopy)


#: the Python each built-in of numbers is written as (``_abs``: a C function natively)
FUNCTIONS: dict[str, tuple[str, Callable[..., int]]] = {"abs": ("_abs", abs), "max": ("max", max), "min": ("min", min)}

ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


# ---- building, with what is known folded ------------------------------------------------------
def is_int(code: str) -> bool:
    """Whether ``code`` is a whole number written out (``7``, ``-3``)."""
    return code[1:].isdigit() if code.startswith("-") else code.isdigit()


def leaf(text: str, ty: T.Type, prec: int, line: int = 0) -> Expr:
    """The node of code the lowering wrote: a constant when it is one written out."""
    bare = text.strip("()")
    if bare in ("True", "False"):
        return Const(T.BOOL if ty.kind in ("bool", "any") else ty, line, bare == "True")
    if is_int(bare):
        return Const(ty, line, int(bare))
    return Code(ty, line, text, prec)


def _number(e: Expr) -> int | None:
    return e.value if isinstance(e, Const) and not isinstance(e.value, bool) else None


def _truth(e: Expr) -> bool | None:
    return e.value if isinstance(e, Const) and isinstance(e.value, bool) else None


def binary(op: str, left: Expr, right: Expr, ty: T.Type, line: int = 0) -> Expr:
    a, b = _number(left), _number(right)
    if op in ARITHMETIC and a is not None and b is not None and not (op in ("//", "%") and b == 0):
        value = ARITHMETIC[op](a, b)
        if abs(value) < FOLD_LIMIT:
            return Const(T.INT, line, value)
    if op in COMPARISONS and a is not None and b is not None:
        return Const(T.BOOL, line, COMPARISONS[op](a, b))
    if op in ("and", "or"):
        known = _truth(left)
        if known is not None:  # `true and x` is x, `false and x` false; `true or x` true, `false or x` x
            return attrs.evolve(right, type=T.BOOL) if known == (op == "and") else left
    return Binary(ty, line, op, left, right)


def negate(operand: Expr, line: int = 0) -> Expr:
    value = _number(operand)
    if value is not None:
        return Const(T.INT, line, -value)
    return Neg(T.INT, line, operand)


def invert(operand: Expr, line: int = 0) -> Expr:
    value = _truth(operand)
    if value is not None:
        return Const(T.BOOL, line, not value)
    return Not(T.BOOL, line, operand)


def choose(test: Expr, then: Expr, orelse: Expr, ty: T.Type, line: int = 0) -> Expr:
    known = _truth(test)
    if known is not None:  # the branch taken is known when compiling
        return attrs.evolve(then if known else orelse, type=ty)
    return Cond(ty, line, test, then, orelse)


def call(func: str, args: tuple, line: int = 0) -> Expr:
    values = [_number(a) for a in args]
    if all(v is not None for v in values):
        return Const(T.INT, line, FUNCTIONS[func][1](*values))
    return Call(T.INT, line, func, tuple(args))


def truth_number(operand: Expr, line: int = 0) -> Expr:
    known = _truth(operand)
    if known is not None:
        return Const(T.INT, line, 1 if known else 0)
    return Number(T.INT, line, operand)
