"""The typed IR of statements: what setup, an action's effects, an automatic step and a procedure
do, as a tree of small nodes over the expression nodes of :mod:`nodes`.

Each statement carries its rules line; a :class:`Comment` before it names that line in the
engine. The emitters (compiler/write/emit.py) write a block as the Python engine's lines or the native
engine's; the node kinds whose native form differs are :class:`Shuffle` (the generator's state
shuffled in C) and a :class:`For` over a cell's neighbours (the table walked in C, no list).
:class:`Line` is a line the lowering still writes as text (``Code``'s counterpart), until its
statement gets a node kind of its own.
"""
from __future__ import annotations

import attrs

from . import nodes as N


@attrs.frozen
class Stmt(N.Node):
    line: int


@attrs.frozen
class Comment(Stmt):
    """``# line N: <the rules line>``: which rules line the statements after it come from."""
    text: str


@attrs.frozen
class Line(Stmt):
    """A line written by the lowering as text (its indentation included)."""
    text: str


@attrs.frozen
class Assign(Stmt):
    """``target op value``: a local, a counter, a cell of a grid of numbers (``op``: = += -= ...);
    ``note``: a comment at the end of the line (why it is there)."""
    target: N.Expr
    op: str
    value: N.Expr
    note: str = ""


@attrs.frozen
class Eval(Stmt):
    """An expression computed for what it does (a call of a runtime helper)."""
    value: N.Expr


@attrs.frozen
class Require(Stmt):
    """``require``: the move is refused, with the rules' message, unless ``test`` holds."""
    test: N.Expr
    message: str


@attrs.frozen
class If(Stmt):
    """``if ... else if ... else``: ``branches`` of (test, body), then ``orelse`` (None: none)."""
    branches: tuple
    orelse: tuple | None = None


@attrs.frozen
class For(Stmt):
    """``for var in source``: a zone is walked on a copy (the body may change it); a cell's
    neighbours natively by their table, with no list. ``walk`` holds the names of the walk's
    own locals (the cell looked around, the direction)."""
    var: str
    source: N.Expr
    body: tuple
    copy: bool = False  # the source is a zone the body may change
    walk: tuple = ()
    #: counted against the decision's work budget (a rules loop); an aggregate written as a
    #: loop (compiler/passes/loops.py) is not, as its generator was not
    counted: bool = True
    #: the body runs again and again: a read there is made many times (compiler/passes/reads.py)
    repeated = ("body",)


@attrs.frozen
class While(Stmt):
    """``while test``: each round counts against the decision's work budget."""
    test: N.Expr
    body: tuple
    #: the test and the body run again and again (compiler/passes/reads.py)
    repeated = ("test", "body")


@attrs.frozen
class Return(Stmt):
    value: N.Expr | None = None


@attrs.frozen
class Try(Stmt):
    """``try: body`` then ``finally: cleanup``: a trial on the state itself, its places put
    back whatever happens."""
    body: tuple
    cleanup: tuple


@attrs.frozen
class Keep(Stmt):
    """A place of the state kept in ``local`` before a trial changes it. ``shape``: "number" (a
    counter), "seats" (a counter per seat: natively a C array, whose read is a copy), "list" (a
    zone or a grid), "lists" (one per seat)."""
    local: str
    place: N.Expr
    shape: str


@attrs.frozen
class PutBack(Stmt):
    """A place kept by :class:`Keep` put back after the trial, into the same objects (the move
    generator may hold them)."""
    local: str
    place: N.Expr
    shape: str


@attrs.frozen
class Wrote(Stmt):
    """Natively, a note in the state's journal of written cells (compiler/passes/cells_written.py),
    which an end condition's line search reads to look only at the cells a move wrote: ``cell``
    written; with ``landed``, ``cell`` is the call that writes (a drop), which gives the cell
    it wrote, -1 for none; ``cell`` None: the grid may have been written anywhere (the journal
    no longer tells). The Python engine keeps no journal: it writes the call alone."""
    cell: N.Expr | None
    landed: bool = False


@attrs.frozen
class Shuffle(Stmt):
    """A zone shuffled by the state's generator."""
    zone: N.Expr


def line(text: str) -> Line:
    return Line(0, text)
