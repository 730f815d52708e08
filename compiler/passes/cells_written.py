"""A pass for the native engine: a journal of the cells each move writes, so that an end
condition's search for a line looks at those cells only, whatever the board's size.

``end when in_a_row(board, me, 4)`` is checked after every move. Natively it keeps a memo (the
board as it was when it last failed, per value: K.in_a_row_since) and compares the whole board
with it to find the cells that changed: on a board of 195 cells that comparison is most of a
move's cost, where the move itself wrote one cell. This pass makes every statement of the game
that may write the grid say so in the state's journal (statement :class:`Wrote`): a cell
written one at a time is noted (``put``, ``clear``, a piece moved: an assignment to a cell whose
index is a local, a number or a sum of those), a ``drop`` notes the cell it says it landed in,
and anything else that may write the grid (a kernel given it, text, a cell whose index is not
plain, a grid put back whole) notes that the journal no longer tells.
The end condition's search (node ``Runs`` marked ``journal``) then looks only at the cells noted
since it last failed, and falls back to its memo when the journal cannot tell
(compiler/write/templates/engine.py.j2, ``_lines_since``).

Which grid: the first grid of elements, one board for everyone (not per seat, not emptied by
the turn, not hidden), that a remembered ``in_a_row`` of an end condition searches. The blocks
rewritten are those that change the state: setup, the automatic steps and the actions'
effects. A move generator writes nothing, and an ``ensure`` trial puts back every place it
writes before it returns (compiler/lower/ensure.py; or it plays on a copy): the board is as
it was, so neither is noted (a generator trying every candidate would fill the journal for
nothing). The tests and sources of ``if``, ``for``, ``while`` and ``require`` are queries,
which read: the language writes a grid only by its statements. What the runtime does outside
the generated blocks (a rollback copied into a state in place, a state's fields replaced) is
seen by the template: the journal is dropped.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import statements as S
from ..ir.traverse import over, rebuild, walk
from .journal import cell_of, is_grid

#: the end conditions' memos the journal may serve: one bit per memo and value in a C number
JOURNAL_MEMOS = 8


def journaled_grid(ir) -> str | None:
    """The field of the grid the journal follows (``g_board``), or None: the first grid of
    elements, one for everyone, that a remembered line search of an end condition reads."""
    grids = {g.attr: g for g in ir.grids}
    for tree in _end_trees(ir):
        for node in walk(tree):
            if (isinstance(node, N.Runs) and node.memo is not None and node.memo < JOURNAL_MEMOS
                    and node.bits is None and isinstance(node.grid, N.Field)):
                g = grids.get(node.grid.attr)
                if g is not None and not (g.per or g.per_turn or g.per_step or g.hidden or g.private or g.numbers):
                    return g.attr
    return None


def _end_trees(ir) -> list:
    return [cond for _, cond in ir.end_conds] + [cond for _, cond, _, *rest in ir.end_winners]


def journal_writes(ir):
    """The game with its writes of the journaled grid noted and its end conditions' searches
    on that grid reading the journal (``ir.journal``: the grid's field); unchanged when no
    grid qualifies."""
    attr = journaled_grid(ir)
    if attr is None:
        return ir
    note = lambda block: _noted(block, attr)  # noqa: E731
    mark = lambda tree: _marked(tree, attr)  # noqa: E731
    return attrs.evolve(
        ir,
        journal=attr,
        setup_lines=note(ir.setup_lines),
        steps=[attrs.evolve(st, body_lines=note(st.body_lines)) for st in ir.steps],
        actions=[attrs.evolve(a, do_lines=note(a.do_lines)) for a in ir.actions],
        end_conds=[(comment, mark(cond)) for comment, cond in ir.end_conds],
        end_winners=[(comment, mark(cond), *rest) for comment, cond, *rest in ir.end_winners],
    )


def _marked(tree, attr: str):
    """``tree`` with its remembered line searches on the grid reading the journal."""
    if isinstance(tree, N.Runs) and tree.memo is not None and tree.memo < JOURNAL_MEMOS and tree.bits is None \
            and isinstance(tree.grid, N.Field) and tree.grid.attr == attr:
        return attrs.evolve(tree, journal=True)
    if isinstance(tree, (N.Node, tuple, list)):
        return over(tree, lambda part: _marked(part, attr))
    return tree


def _noted(value, attr: str):
    """Every block of statements in ``value`` (a block, a statement, a tuple holding blocks)
    with each write of the grid ``attr`` noted; the value itself when nothing writes it."""
    if isinstance(value, (tuple, list)) and value and all(isinstance(st, S.Stmt) for st in value):
        out: list = []
        for st in value:
            if _drop(st, attr):  # the drop noting the cell it gives
                out.append(S.Wrote(st.line, st.value, landed=True))
                continue
            st = _noted(st, attr)  # its own blocks first (an if's branches, a loop's body)
            before, after = _notes(st, attr)
            out += [*before, st, *after]
        return value if len(out) == len(value) and all(a is b for a, b in zip(out, value)) else type(value)(out)
    if isinstance(value, S.Stmt):
        return rebuild(value, lambda part: _noted(part, attr))
    if isinstance(value, (tuple, list)):
        return over(value, lambda part: _noted(part, attr))
    return value  # an expression: it reads


#: helpers of the runtime that only compute a cell from numbers (read again, the same cell)
PURE_CELLS = frozenset({"ops.at_xy"})


def _plain(e) -> bool:
    """An index that reads the same after the statement as before it, at little cost: a local,
    a number, a constant of the engine, sums and products of those, a cell by its column and
    row."""
    if isinstance(e, (N.Local, N.Const, N.Global, N.Dimension)):
        return True
    if isinstance(e, N.Helper) and e.name in PURE_CELLS:
        return all(_plain(a) for a in e.args)
    return isinstance(e, N.Binary) and e.op in ("+", "-", "*") and _plain(e.left) and _plain(e.right)


def _notes(st, attr: str) -> tuple[list, list]:
    """The notes to put before and after the statement ``st`` (its own nested blocks are noted
    already): what it writes of the grid."""
    line = st.line
    unknown = ([], [S.Wrote(line, None)])
    if isinstance(st, S.Assign):
        cell = cell_of(st.target, attr)
        if cell is not None:
            return ([], [S.Wrote(line, cell)]) if _plain(cell) else unknown
        if is_grid(st.target, attr):  # the grid read once into a local reads; replaced, it is new
            return ([], []) if isinstance(st.target, N.Local) else unknown
        return unknown if _hands_on(st.value, attr) or _hands_on(st.target, attr) else ([], [])
    if isinstance(st, S.Eval):
        return unknown if _hands_on(st.value, attr) else ([], [])
    if isinstance(st, S.Line):
        return unknown if attr in st.text else ([], [])
    if isinstance(st, (S.PutBack, S.Shuffle)):
        return unknown if _hands_on(st, attr) else ([], [])
    if isinstance(st, (S.If, S.For, S.While, S.Require, S.Return, S.Comment, S.Wrote, S.Keep, S.Try)):
        return [], []  # tests and sources are queries, which read; a note; a place kept; a trial's blocks noted
    own = [getattr(st, f.name) for f in attrs.fields(type(st)) if isinstance(getattr(st, f.name), N.Expr)]
    return unknown if any(_hands_on(e, attr) for e in own) else ([], [])  # a kind this pass does not know


def _drop(st, attr: str) -> bool:
    """Whether ``st`` drops an element into the grid (``ops.drop_into(grid, ...)``, which gives
    the cell it landed in), given nothing else of the grid."""
    e = st.value if isinstance(st, S.Eval) else None
    return (isinstance(e, N.Helper) and e.name == "ops.drop_into" and bool(e.args) and is_grid(e.args[0], attr)
            and not any(_hands_on(a, attr) for a in e.args[1:]))


def _hands_on(value, attr: str) -> bool:
    """Whether ``value`` gives the grid itself (not one of its cells) to a call, or names it in
    text: a call given the grid may write it. The typed queries of the IR (a line search, a
    count, a cell read) only read."""
    if isinstance(value, (N.Helper, N.Method, N.Apply)):
        if any(is_grid(a, attr) for a in getattr(value, "args", ())):
            return True
    if isinstance(value, N.Code) and attr in value.text:
        return True
    if isinstance(value, (N.Node, tuple, list)):
        return any(_hands_on(p, attr) for p in _parts(value))
    return False


def _parts(value) -> list:
    if isinstance(value, (tuple, list)):
        return list(value)
    return [getattr(value, f.name) for f in attrs.fields(type(value)) if f.name not in ("type", "line")]
