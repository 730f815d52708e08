"""A pass over a move generator's tree: of the guards tested one inside the other at a level,
those that read nothing of the state and cannot fail are tested first.

``require row(board, t) == row(board, c) + forward(me)`` reads two tables made when generating
and adds numbers; ``require not is_empty(board, t)`` reads the board. Tested for each of a
piece's neighbours, the first answers the same for the same direction at every call (a branch
the processor predicts) and touches no memory the moves change; the second depends on the
position. Authors write them in either order, and the engine should not care: in a chain of
guards (each guard's body is its comment and the next guard), this pass moves the guards made
only of numbers, locals, comparisons and arithmetic (``+ - *``, ``and``, ``or``, ``not``) and
tables read at a cell a loop walks (a neighbour, a grid's cell: never none) ahead of the
others, keeping the order within each group, each guard with its comment.

It changes no answer: the guards are pure (a generator changes nothing), a guard moved can
raise no error (nothing in it divides, reads a list or a cell that may be none, or calls), so
testing it earlier, even before a guard that was written to protect it, gives the same moves
(it may turn a move away before a failing test written ahead of it is reached, as a require
tested in an outer loop already does: an error is never made, one may be spared). The
``ensure`` trial, a test of the state, stays where it is: after the guards before it.
"""
from __future__ import annotations

import attrs

from ..ir import nodes as N
from ..ir import statements as S

#: operators that cannot fail on numbers (no division, no membership in a list)
TOTAL_OPS = frozenset(("==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "and", "or"))


def cannot_fail(e: N.Expr, cells: frozenset[str]) -> bool:
    """Whether ``e`` reads nothing of the state and cannot raise: constants, locals, the
    operators above, and tables made when generating read at a cell in ``cells`` (the
    variables of loops over a grid's cells or a cell's neighbours, never none)."""
    if isinstance(e, (N.Const, N.Local)):
        return True
    if isinstance(e, N.Binary):
        return e.op in TOTAL_OPS and cannot_fail(e.left, cells) and cannot_fail(e.right, cells)
    if isinstance(e, (N.Not, N.Neg)):
        return cannot_fail(e.operand, cells)
    if isinstance(e, N.Geometry):
        return isinstance(e.index, N.Local) and e.index.name in cells
    return False


def _is_guard(item) -> bool:
    """A guard that opens a block (the move generator's kinds, compiler/write/moves.py, are known
    here by name: that module imports the lowering, which this pass must not)."""
    return type(item).__name__ == "Guard" and getattr(item, "body", None) is not None


def _chain(items: tuple) -> tuple[int, list] | None:
    """Where a chain of guards starts in ``items`` (after the statements before it) and its
    links: (the comments before a guard, the guard). A chain is a guard that ends the list,
    with its comments before it, whose body is again comments and one guard, and so on."""
    if not items or not _is_guard(items[-1]):
        return None
    start = len(items) - 1
    while start > 0 and isinstance(items[start - 1], S.Comment):
        start -= 1
    links = [(tuple(items[start:-1]), items[-1])]
    while True:
        body = links[-1][1].body
        if not (body and _is_guard(body[-1]) and all(isinstance(x, S.Comment) for x in body[:-1])):
            return start, links
        links.append((tuple(body[:-1]), body[-1]))


def order_guards(items: tuple, cells: frozenset[str] = frozenset()) -> tuple:
    """``items`` (a block of a move generator) with each chain of guards in it tested in the
    order above, and every block inside done too."""
    found = _chain(items)
    if found is None:
        return tuple(_inside(item, cells) for item in items)
    start, links = found
    head = tuple(_inside(item, cells) for item in items[:start])
    body = order_guards(links[-1][1].body, cells)  # the block the last guard opens
    ordered = [link for link in links if cannot_fail(link[1].test, cells)]
    ordered += [link for link in links if not cannot_fail(link[1].test, cells)]
    for comments, guard in reversed(ordered[1:]):
        body = (*comments, attrs.evolve(guard, body=body))
    comments, guard = ordered[0]
    return (*head, *comments, attrs.evolve(guard, body=body))


def _inside(item, cells: frozenset[str]):
    """A statement with the blocks it holds ordered (a loop over cells adds its variable to
    the cells known never to be none)."""
    body = getattr(item, "body", None)
    if not isinstance(body, tuple) or not attrs.has(type(item)):
        return item
    kind = type(item).__name__
    if kind in ("NeighbourScan", "CellScan"):
        cells = cells | {item.var}
    new = order_guards(body, cells)
    return item if new == body else attrs.evolve(item, body=new)
