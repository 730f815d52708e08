"""Which values a move's notation may show besides its parameters.

A notation names the move itself: ``str(move)`` is computed from the move's values alone, with
no state at hand, so that a move reads the same in every copy of a game and can be parsed back.
A guard's ``let`` may therefore appear in a notation (``"{c}x{land}"``) when its value follows
from the parameters, constants and the board's geometry, never from what the board holds.
"""
from __future__ import annotations

from regle.dsl import ast

from ..ir import nodes as N
from ..ir import types as T
from .common import Ctx, _names_in
from .grids import GEOMETRY_ONLY
from ..check.texts import split_template

#: functions of numbers that read nothing else
_PURE_CALLS = frozenset({"abs", "min", "max", "number"})


def beyond_move(node: ast.Node, names: set[str], sym, _defines: frozenset = frozenset()) -> ast.Node | None:
    """The first part of ``node`` that reads more than ``names`` (parameters and lets known
    from the move), constants and geometry: None when there is none."""
    if isinstance(node, (ast.Int, ast.Bool, ast.Str)):
        return None
    if isinstance(node, ast.Name):
        if node.id in names or node.id in sym.params or node.id in sym.members or node.id == "none":
            return None
        return node
    if isinstance(node, ast.Call):
        if node.func in GEOMETRY_ONLY and node.func not in sym.defines and node.args and isinstance(node.args[0], ast.Name) \
                and node.args[0].id in sym.grids and not sym.grids[node.args[0].id].per:
            return _first(node.args[1:], names, sym, _defines)
        if node.func in _PURE_CALLS and node.func not in sym.defines:
            return _first(node.args, names, sym, _defines)
        define = sym.defines.get(node.func)
        if define is not None and define.block is None and len(define.params) == len(node.args) \
                and node.func not in _defines:  # a define made of the same (not one using itself)
            inner = beyond_move(define.body, set(define.params), sym, _defines | {node.func})
            return node if inner is not None else _first(node.args, names, sym, _defines)
        return node
    if isinstance(node, ast.Comp):
        return _first([node.source], names, sym, _defines) or _first(
            [x for x in (node.elem, node.cond) if x is not None], names | {node.var}, sym, _defines)
    if isinstance(node, ast.Attr):
        return beyond_move(node.obj, names, sym, _defines)
    if isinstance(node, ast.Index):
        obj = node.obj
        if isinstance(obj, ast.Name) and obj.id in sym.params:
            return beyond_move(node.index, names, sym, _defines)
        return _first([obj, node.index], names, sym, _defines)
    if isinstance(node, ast.BinOp):
        return _first([node.left, node.right], names, sym, _defines)
    if isinstance(node, (ast.Not, ast.Neg)):
        return beyond_move(node.operand, names, sym, _defines)
    if isinstance(node, ast.Cond):
        return _first([node.test, node.then, node.orelse], names, sym, _defines)
    if isinstance(node, ast.LetIn):  # a define's lets: each known when what it reads is
        known = set(names)
        for let in node.lets:
            found = beyond_move(let.value, known, sym, _defines)
            if found is not None:
                return found
            known.add(let.name)
        return beyond_move(node.value, known, sym, _defines)
    if isinstance(node, ast.Range):
        return _first([node.lo, node.hi], names, sym, _defines)
    if isinstance(node, ast.ListExpr):
        return _first(node.items, names, sym, _defines)
    return node


def _first(nodes: list, names: set[str], sym, _defines: frozenset) -> ast.Node | None:
    for n in nodes:
        found = beyond_move(n, names, sym, _defines)
        if found is not None:
            return found
    return None


def notation_names(low, node: ast.Action, prefix: list, arg_types: dict) -> dict:
    """What a notation may show: the parameters, and the guards' lets it names whose values
    follow from the move alone (see :func:`beyond_move`), each as its code over the
    parameters."""
    wanted = {v.partition(":")[0].partition(".")[0].strip()
              for kind, v in split_template(node.notation) if kind != "text"}
    lets = [stmt for stmt in prefix if isinstance(stmt, ast.Let) and stmt.name not in arg_types]
    needed = wanted - set(arg_types)
    for stmt in reversed(lets):  # and the lets those read
        if stmt.name in needed:
            needed |= _names_in(stmt.value)
    names = dict(arg_types)
    ctx = Ctx("notation", scope=arg_types)
    for stmt in lets:
        if stmt.name not in needed:
            continue
        beyond = beyond_move(stmt.value, set(names), low.sym)
        if beyond is not None and stmt.name not in wanted:  # reported where a wanted let reads it
            continue
        if beyond is not None:
            low.error(f"'{{{stmt.name}}}': a notation names the move alone, so it shows parameters, and "
                      f"lets computed from them and the board's geometry; '{stmt.name}' also reads this",
                      beyond.pos, "show a parameter instead, or compute the value from the parameters only")
            names[stmt.name] = N.Text(T.ANY, 0, "")
            continue
        names[stmt.name] = ctx.scope[stmt.name] = low.tree(stmt.value, ctx)
    return names
