"""Which values a move's notation may show besides its parameters, and how each is found.

A notation shows the move's parameters and any ``let`` of the action standing among its own
statements (a guard's or an effect's). Where every value shown follows from the parameters,
constants and the board's geometry, the notation is a function of the move alone (``_say_N``):
the move reads the same in every copy of a game. Where one reads what the board holds, or is
computed by the effects, the notation is that of the position the move is listed in: a method
of the state (``_sayin_N``) runs the action's lets and its effects up to the last let shown (on
a copy of the state where those effects change it), then writes the text. The runtime calls it
on a copy of the listing position (runtime/engine.py, ``Move.READS``), and a move made from its
tuple alone, with no position at hand, reads as its action's name and values.
"""
from __future__ import annotations

from regle.dsl import ast

from ..ir import nodes as N
from ..ir import types as T
from .common import Ctx, _names_in, pyname
from .ensure import unsettling
from .grids import GEOMETRY_ONLY
from ..check.texts import split_template
from ..check.analysis import written_places
from ..ir import statements as S

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


def notation_names(low, node: ast.Action, prefix: list, arg_types: dict) -> tuple[dict, set[str]]:
    """What a notation computed from the move alone may show: the parameters, and the guards'
    lets it names whose values follow from the move alone (see :func:`beyond_move`), each as
    its code over the parameters; and the names it shows that need the position instead."""
    wanted = shown_names(node.notation)
    lets = [stmt for stmt in prefix if isinstance(stmt, ast.Let) and stmt.name not in arg_types]
    needed = wanted - set(arg_types)
    for stmt in reversed(lets):  # and the lets those read
        if stmt.name in needed:
            needed |= _names_in(stmt.value)
    names = dict(arg_types)
    ctx = Ctx("notation", scope=arg_types)
    reading: set[str] = set()
    for stmt in lets:
        if stmt.name not in needed:
            continue
        if beyond_move(stmt.value, set(names), low.sym) is not None or _names_in(stmt.value) & reading:
            reading.add(stmt.name)
            continue
        names[stmt.name] = ctx.scope[stmt.name] = low.tree(stmt.value, ctx)
    return names, (reading | (wanted - set(names))) & wanted


def shown_names(notation: str | None) -> set[str]:
    """The names a notation's placeholders show (``{c}``, ``{k:symbol}``, ``{card.rank}``: c, k, card)."""
    return {v.partition(":")[0].partition(".")[0].strip()
            for kind, v in split_template(notation or "") if kind != "text"}


def notation_code(low, node: ast.Action, prefix: list, effects: list, guard_ctx: Ctx,
                  arg_types: dict) -> tuple[N.Expr, list, list]:
    """An action's notation: (the text from the move alone, the body of ``_sayin_N`` when it
    reads the position the move is listed in (else []), that method's C locals)."""
    default = N.TextOf(T.TEXT, 0, (N.Text(T.TEXT, 0, node.name), *(N.Shown(T.TEXT, 0, a) for a in arg_types.values())), " ")
    if node.notation is None:  # the action's name, then each argument shown
        return default, [], []
    names, reading = notation_names(low, node, prefix, arg_types)
    if not reading:
        return low.template_code(node.notation, names, node.pos), [], []
    # the effects up to the last of the action's own lets the notation shows
    last = max((i for i, stmt in enumerate(effects) if isinstance(stmt, ast.Let) and stmt.name in reading), default=-1)
    before = effects[:last + 1]
    for stmt in unsettling(before)[:1]:
        low.error("a notation shows the move in the position it is listed in: the effects before a let it "
                  "shows may not end the turn or the game, choose the next player, announce, reveal or draw "
                  "on chance", stmt.pos, "compute the value before this statement, or do not show it")
        return default, [], []
    block, ctx = low.effects(prefix, before, guard_ctx)
    text = low.template_code(node.notation, ctx.scope, node.pos)
    line = node.pos[0]
    places = written_places(before, low.sym.defines) if before else set()
    copy = [] if places == set() else [S.Assign(line, N.Local(T.ANY, 0, "s"), "=", N.StateCopy(T.ANY, 0))]
    c_locals = ctx.c_numbers(exclude={pyname(n) for n in arg_types} | {"me"})
    return default, [*copy, *block, S.Return(line, text)], c_locals

