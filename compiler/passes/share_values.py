"""Shared values: a call a define computes twice or more, computed once.

``define f(c) = if count(walk(c)) > 0 then sum(... for x in walk(c)) + count(walk(c)) else 0``
asks for ``walk(c)`` three times; the same define written with ``let w = walk(c) then ...``
asks once. This pass makes the first into the second: in a define's function (its lets, then
its value), each call (of the runtime, of another define, an aggregate, a list of cells) that
appears twice or more with the same arguments is computed once, into a local, just before the
first of the function's statements that computes it unconditionally, and read from there by that
statement and the ones after it.

What keeps the value the same:

- Only an occurrence every evaluation reaches counts as "unconditional": not in the right side
  of ``and``/``or``, not in a branch of ``if then else``, not inside an aggregate (whose
  element and condition run per element, or not at all). Computing such a value earlier within
  the same statement changes nothing, as expressions have no effects; a value only some
  evaluations reach (``c != none and walk(c) ...``) is never computed where it was not.
- Nothing that draws on chance is shared (it would draw fewer numbers), nor a call of a define
  that draws.
- A value that reads a name bound where it stands (an aggregate's variable) is not shared, and
  nothing inside an aggregate is replaced: natively an aggregate is a method of its own, given
  the names it reads, and both engines must stay alike.
"""
from __future__ import annotations

from collections import Counter

from ..ir import nodes as N
from ..ir.traverse import children, names_known, walk
from ..ir import statements as S
from .share import CALLS, _free_locals as free_locals, _replace as read_from_locals, shape
from ..ir.traverse import over, parts


def drawing_functions(functions: list) -> set[str]:
    """The engine's functions whose value draws on chance, directly or through another."""
    bodies = {f[0]: f[3] for f in functions}
    drawing: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, body in bodies.items():
            if name not in drawing and _draws(body, drawing):
                drawing.add(name)
                changed = True
    return drawing


def _draws(value, drawing: set[str]) -> bool:
    """Whether a tree may draw on chance (or calls a method of the state, which this pass
    leaves alone)."""
    if isinstance(value, (N.Draw, N.Method)) or (isinstance(value, N.Apply) and value.function in drawing):
        return True
    return any(_draws(p, drawing) for p in parts(value))


def _occurrences(tree: N.Expr, sure: bool = True):
    """Each node of ``tree`` outside aggregates (an aggregate itself included), with whether
    every evaluation of ``tree`` computes it."""
    yield tree, sure
    if isinstance(tree, N.Aggregate):
        return
    if isinstance(tree, N.Binary) and tree.op in ("and", "or"):
        yield from _occurrences(tree.left, sure)
        yield from _occurrences(tree.right, False)
        return
    if isinstance(tree, N.Cond):
        yield from _occurrences(tree.test, sure)
        yield from _occurrences(tree.then, False)
        yield from _occurrences(tree.orelse, False)
        return
    for child in children(tree):
        yield from _occurrences(child, sure)


def share_in_function(body: tuple, drawing: set[str]) -> tuple:
    """A define's function body ``(value, names, line, lets)`` with each call it computes twice
    or more computed once, into a local added to its lets (``_v0``, ``_v1``...)."""
    tree, names, line, lets = body
    lets = list(lets)
    made = 0
    while True:
        slots = [a.value for a in lets] + [tree]
        # the locals bound before each slot: the function's names, then each let in turn
        bound = [set(names) | {a.target.name for a in lets[:i]} for i in range(len(slots))]
        counts: Counter = Counter()
        first: dict = {}  # shape -> (slot of its first unconditional occurrence, the node)
        seen_in: dict = {}  # shape -> the slots it occurs in
        for i, slot in enumerate(slots):
            for node, sure in _occurrences(slot):
                if not isinstance(node, CALLS) or not names_known(node):
                    continue
                key = shape(node)
                counts[key] += 1
                seen_in.setdefault(key, []).append(i)
                if sure and key not in first and free_locals(node) <= bound[i] and not _draws(node, drawing):
                    first[key] = (i, node)
        # the largest value met twice, from its first unconditional statement on
        best = None
        for key, (i, node) in first.items():
            later = sum(1 for j in seen_in[key] if j >= i)
            if later >= 2 and (best is None or _size(node) > _size(best[2])):
                best = (key, i, node)
        if best is None:
            return (tree, names, line, tuple(lets))
        key, i, node = best
        local = N.Local(node.type, 0, f"_v{made}")
        made += 1
        new_lets = lets[:i] + [S.Assign(node.line, local, "=", node, "computed once")]
        # read from the local everywhere after (natively=True: never inside an aggregate, in both engines)
        new_lets += [read_from_locals(a, {key: local.name}, True) for a in lets[i:]]
        tree = read_from_locals(tree, {key: local.name}, True)
        lets = new_lets


def _size(e: N.Expr) -> int:
    return sum(1 for _ in walk(e))


def share_values(functions: list) -> list:
    """The engine's functions, each with the calls it computes twice or more computed once."""
    drawing = drawing_functions(functions)
    return [(name, head, comment, share_in_function(body, drawing), sig)
            for name, head, comment, body, sig in functions]


def bind_shared(tree: N.Expr, name: str, wanted: N.Expr | None = None) -> tuple[N.Expr, N.Expr | None]:
    """``tree`` (an expression written in place, outside any aggregate) with the largest call
    it computes twice or more, outside aggregates, computed once where every evaluation first
    reaches it (``(name := call)``, :class:`~compiler.ir.nodes.Bound`) and read from ``name``
    by its later occurrences; and the call bound (None when none is). As share_in_function, but in an
    expression: the Python engine's define written in place with its shared value, no function
    call. Nothing that draws or calls a define's function is bound. With ``wanted``, only a
    tree of its shape is (a define's argument that its body reads twice: any kind of node)."""
    found: dict = {}  # shape -> its occurrences (node, sure), in the order they are evaluated
    for node, sure in _occurrences(tree):
        kind_ok = isinstance(node, CALLS) if wanted is None else shape(node) == shape(wanted)
        if kind_ok and names_known(node) and not _draws(node, set()) \
                and not any(isinstance(n, N.Apply) for n in walk(node)):
            found.setdefault(shape(node), []).append((node, sure))
    best = None
    for key, seen in found.items():
        if len(seen) >= 2 and seen[0][1] and (best is None or _size(seen[0][0]) > _size(best[1])):
            best = (key, seen[0][0])
    if best is None:
        return tree, None
    key, first = best
    made = []  # the first occurrence met (in the order evaluated, as _occurrences met it) is bound

    def change(value):
        if isinstance(value, N.Expr) and type(value).__name__ == key[0] and shape(value) == key:
            if made:
                return N.Local(value.type, value.line, name)
            made.append(value)
            return N.Bound(value.type, value.line, name, value)
        if isinstance(value, N.Aggregate):  # its element and condition: another scope, left alone
            return value
        return over(value, change)
    return change(tree), first

