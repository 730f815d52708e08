"""Walking and rebuilding IR trees generically, for the passes over them (compiler/passes/reads.py,
compiler/passes/share.py, compiler/passes/counts.py): what a node holds, and a node with what it holds
changed. Both work on expression and statement nodes alike (``nodes.Node``). Then what an
expression holds and reads, and the first test of an aggregate a pass may take out of it."""
from __future__ import annotations

from typing import Any, Callable

import attrs

from .nodes import Aggregate, Binary, Code, Const, Expr, Field, Local, Node
from .types import BOOL


def parts(value) -> list:
    """What a node, tuple or list holds directly, for a pass that walks a tree: a node's fields
    but its type and line (and the fields it names in ``again``: trees its other fields hold
    too, for another writing), or the items of a tuple or list."""
    if isinstance(value, (tuple, list)):
        return list(value)
    if isinstance(value, Node):
        skip = ("type", "line", *getattr(value, "again", ()))
        return [getattr(value, f.name) for f in attrs.fields(type(value)) if f.name not in skip]
    return []


def over(value, change: Callable[[Any], Any]):
    """``value`` with ``change`` applied to what it holds directly (each item of a tuple or a
    list, each field of a node: :func:`rebuild`); the value itself when nothing changed."""
    if isinstance(value, (tuple, list)):
        new = [change(item) for item in value]
        return value if all(a is b for a, b in zip(new, value)) else type(value)(new)
    if isinstance(value, Node):
        return rebuild(value, change)
    return value


def rebuild(node, change: Callable[[Any], Any]):
    """``node`` (an expression or statement node) with each field but its type and line passed
    through ``change``; the node itself when nothing changed."""
    changes = {}
    for f in attrs.fields(type(node)):
        if f.name in ("type", "line"):
            continue
        value = getattr(node, f.name)
        new = change(value)
        if new is not value:
            changes[f.name] = new
    return attrs.evolve(node, **changes) if changes else node


def put_local(tree, name: str, value):
    """``tree`` with each read of the local ``name`` made ``value`` (an aggregate inside no longer
    takes the name as a parameter of its helper). The caller makes sure no aggregate inside binds
    the name again."""
    if isinstance(tree, Local) and tree.name == name:
        return value
    if isinstance(tree, Aggregate):
        tree = attrs.evolve(tree, params=tuple(p for p in tree.params if p[0] != name))
    return over(tree, lambda part: put_local(part, name, value))


def lineless(tree):
    """``tree`` with every node's rules line 0: what two trees written alike (in two places of
    the rules) share, to compare them."""
    if isinstance(tree, (tuple, list)):
        return tuple(lineless(p) for p in tree)
    if not isinstance(tree, Node):
        return tree
    node = rebuild(tree, lineless)
    return attrs.evolve(node, line=0) if "line" in attrs.fields_dict(type(node)) else node


# ---- what an expression holds and reads ------------------------------------------------------
def children(e: Expr):
    """The nodes directly below ``e``."""
    for field in attrs.fields(type(e)):
        value = getattr(e, field.name)
        if isinstance(value, Expr):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Expr):
                    yield item


def walk(e: Expr):
    """``e`` and every node below it."""
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))


def locals_in(e: Expr) -> set[str]:
    """The names of the method a tree reads (its Local nodes, bound below it or not)."""
    return {n.name for n in walk(e) if isinstance(n, Local)}


def names_known(e: Expr) -> bool:
    """Whether every name a tree reads is a node of its own (no code leaf hides one)."""
    return not any(isinstance(n, Code) for n in walk(e))


def name_of(e: Expr) -> str | None:
    """The name a leaf stands for in :func:`evaluate`'s ``leaves``: its code, a local's name,
    ``s.<attr>`` for a field of the state."""
    if isinstance(e, Code):
        return e.text
    if isinstance(e, Local):
        return e.name
    if isinstance(e, Field):
        return f"s.{e.attr}"
    return None


def first_conjunct(test: Expr, match: Callable[[Expr], Any]) -> tuple | None:
    """(what ``match`` found, what is left of ``test`` or None) when ``match`` finds something
    (not None) in ``test`` or in the first conjunct of its chain of ``and`` (``a and b and c``:
    ``a``, the rest ``b and c``); else None. The passes that take a test out of an aggregate
    (compiler/passes/held_source.py, line_source.py) use it."""
    found = match(test)
    if found is not None:
        return found, None
    if isinstance(test, Binary) and test.op == "and":
        inner = first_conjunct(test.left, match)
        if inner is not None:
            found, rest = inner
            return found, test.right if rest is None else attrs.evolve(test, left=rest)
    return None


def aggregate_test(node: Aggregate, match: Callable[[Expr], Any]) -> tuple | None:
    """(``"cond"`` or ``"elem"``, what ``match`` found, what is left) when ``match`` finds
    something in the first conjunct of the aggregate's ``where`` clause, or of its element for
    an ``any`` (``any(a and b)`` over S is ``any(b)`` over the elements where ``a`` holds; an
    ``all``, a ``count``'s element... are not); else None. What is left of an ``any``'s element
    that was the test alone is ``True``."""
    if node.cond is not None:
        where = "cond"
    elif node.func == "any":
        where = "elem"
    else:
        return None
    found = first_conjunct(getattr(node, where), match)
    if found is None:
        return None
    found, rest = found
    if where == "elem" and rest is None:
        rest = Const(BOOL, node.line, True)
    return where, found, rest

