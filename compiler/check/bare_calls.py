"""Defines without parameters, used by their name alone.

``define total = sum(...)`` (or ``define total() = ...``) may be used as ``total`` as well as
``total()``. Before anything reads the rules, each bare name of such a define becomes the call
it means, so that every later stage (the checker, the analyses of chance and secrecy, the
lowering) sees one form. A name means one thing in a file: a local (a parameter, a loop's or an
aggregate's variable, a let, the seat of a score) may not take the name of a define without
parameters, and is refused at its position.
"""
from __future__ import annotations

import attrs

from regle.dsl import ast
from regle.dsl.errors import Diagnostic


def call_bare_defines(rules: ast.Rules) -> list[Diagnostic]:
    """Rewrite, in place, each ``Name`` of a define without parameters into its ``Call``; the
    mistakes found: locals named like such a define."""
    bare = {d.name for d in rules.decls if isinstance(d, ast.Define) and not d.params and d.block is None}
    if not bare:
        return []
    diags: list[Diagnostic] = []
    for decl in rules.decls:
        _rewrite(decl, bare, diags)
    return diags


def _bound(node) -> list[str]:
    """The names a node binds for what it holds (those the checker does not already refuse
    when a declaration has them)."""
    if isinstance(node, (ast.Comp, ast.For)):
        return [node.var]
    if isinstance(node, ast.Define):  # (a let or an action's parameter is refused as declared already)
        return list(node.params)
    if isinstance(node, (ast.Score, ast.Winner)):
        return [node.var]
    if isinstance(node, ast.Push):
        return [n for n in (node.who, node.sides) if n]
    return []


def _rewrite(node, bare: set[str], diags: list) -> None:
    for name in _bound(node):
        if name in bare:
            diags.append(Diagnostic.at(
                f"'{name}' is a define without parameters, which its name alone calls; "
                "choose another name here", node.pos, f"a local named '{name}' would hide it"))
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        if isinstance(value, (ast.Node, list, tuple)):
            setattr(node, field.name, _value(value, bare, diags))


def _value(value, bare: set[str], diags: list):
    """A field's value with its names rewritten: a node (perhaps replaced), a list (changed in
    place: the same list), a tuple (``(condition, statements)`` of an ``if``: a new tuple)."""
    if isinstance(value, ast.Name) and value.id in bare:
        return ast.Call(func=value.id, args=[], pos=value.pos)
    if isinstance(value, ast.Node):
        _rewrite(value, bare, diags)
    elif isinstance(value, list):
        value[:] = [_value(v, bare, diags) for v in value]
    elif isinstance(value, tuple) and value and not isinstance(value[0], int):  # not a position
        return tuple(_value(v, bare, diags) for v in value)
    return value
