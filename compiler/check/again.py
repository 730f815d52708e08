"""``again with p = e``: an action that goes on with the same player, as a capture chain does.

The checker rewrites it into what the rules could say by hand, so that every later stage (the
lowering, the journal of a checked play, the trial of ``ensure``) sees plain counters and
requires:

- a flag ``again__S__A`` (S the step, A the action; no rules name may hold '__'), kept per turn
  and not drawn, and one counter ``again__S__A__p`` per parameter p that ``again`` sets;
- as A's first ``require``: while the flag is up, only the moves with those values;
- as the first ``require`` of the step's other actions: none of their moves meanwhile;
- the flag lowered as A's effects begin, and raised (with the values set) by ``again``.

The lowering sends the turn back to the step after A while the flag is up (``chained_after``),
and gives each value's counter its parameter's type once the parameters are lowered
(``ActionLowering.action_ir``).
"""
from __future__ import annotations

import typing

import attrs

from regle.dsl import ast

from ..ir import types as T
from .symbols import CounterSym, suggest

_EXPRS = typing.get_args(ast.Expr)  # expressions hold no statements


def mark_again(sym, error) -> None:
    """Rewrite each action of the turn that says ``again`` (in a copy of the turn: the parsed
    rules stay as written); refuse it where it cannot be."""
    if not sym.turns:
        return
    steps = []
    for index, step in enumerate(sym.turns[0].steps):
        choices = list(step.choices)
        for a in [c for c in choices if isinstance(c, ast.Action) and _agains(c.body)]:
            passes = [c for c in choices if isinstance(c, ast.Pass)]
            if passes:
                error("an action that plays again stands in a step with a pass: when the action has no "
                      "move left, the pass would be offered in the middle of the chain", passes[0].pos,
                      "put the pass in a step of its own, or make the step optional (skip ends the chain)")
            choices = _rewrite(sym, (index, step), choices.index(a), choices, error)
        steps.append(attrs.evolve(step, choices=choices) if choices != step.choices else step)
    sym.turns[0] = attrs.evolve(sym.turns[0], steps=steps)


def _agains(body) -> list:
    out = []
    stack = list(body) if isinstance(body, list) else [body]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Again):
            out.append(node)
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, ast.Node) and not isinstance(node, _EXPRS):
            stack.extend(getattr(node, f.name) for f in attrs.fields(type(node))
                         if isinstance(getattr(node, f.name), (list, tuple, ast.Node)))
    return out


def _rewrite(sym, where: tuple, at: int, choices: list, error) -> list:
    """The step's choices with action ``choices[at]`` rewritten, and its others barred while
    it goes on."""
    a = choices[at]
    index, step = where
    flag = f"again__{step.name}__{a.name}"
    agains = _agains(a.body)
    pos = agains[0].pos
    sym.counters[flag] = CounterSym(flag, None, ast.Counter(name=flag, per="turn", quiet=True, pos=pos), T.BOOL)
    params = [n for b in a.params for n in b.names]
    pins: dict[str, str] = {}  # parameter -> its counter
    sets = {tuple(sorted(name for name, _value in again.pins)) for again in agains}
    if len(sets) > 1:  # else a value one again leaves unset would still be compared
        error(f"the 'again' statements of action {a.name} set different parameters "
              f"({'; '.join(', '.join(s) or 'none' for s in sorted(sets))}): each must set the same ones",
              agains[0].pos, "set the same parameters in each, or split the action in two")
    for again in agains:
        seen = set()
        for (name, value), at in zip(again.pins, again.pins_pos or [p[1].pos for p in again.pins]):
            if name not in params:
                error(f"'{name}' is not a parameter of action {a.name}: again sets the parameters the next "
                      "move keeps", at, suggest(name, params) or f"parameters: {', '.join(params) or 'none'}")
            elif name in seen:
                error(f"again sets '{name}' twice", at)
            seen.add(name)
            if name in params and name not in pins:
                pins[name] = f"{flag}__{name}"
                counter = ast.Counter(name=pins[name], per="turn", quiet=True, pos=pos)
                sym.counters[pins[name]] = CounterSym(pins[name], None, counter, T.ANY)
                sym.again_pins[pins[name]] = (index, a.name, name)
    sym.again_flags[a.name, step.name] = flag
    up = ast.Name(id=flag, pos=pos)
    kept = [ast.BinOp(op="==", left=ast.Name(id=p, pos=pos), right=ast.Name(id=c, pos=pos), pos=pos)
            for p, c in pins.items()]
    body = _expanded(a.body, flag, pins)
    if kept:  # again with c = t: while the flag is up, only c == t
        both = kept[0]
        for k in kept[1:]:
            both = ast.BinOp(op="and", left=both, right=k, pos=pos)
        body.insert(0, ast.Require(cond=ast.BinOp(op="or", left=ast.Not(operand=up, pos=pos), right=both, pos=pos),
                                   pos=pos))
    first = next((i for i, s in enumerate(body) if not isinstance(s, (ast.Let, ast.Require))), len(body))
    body.insert(first, ast.Assign(name=flag, op="=", value=ast.Bool(value=False, pos=pos), pos=pos))
    barred = ast.Require(cond=ast.Not(operand=ast.Name(id=flag, pos=pos), pos=pos), pos=pos)
    return [attrs.evolve(c, body=body) if c is a else
            attrs.evolve(c, body=[barred, *c.body]) if isinstance(c, ast.Action) else c for c in choices]


def _expanded(body: list, flag: str, pins: dict) -> list:
    """The statements with each ``again`` turned into the assignments it stands for."""
    out = []
    for stmt in body:
        if isinstance(stmt, ast.Again):
            out.append(ast.Assign(name=flag, op="=", value=ast.Bool(value=True, pos=stmt.pos), pos=stmt.pos))
            first = {n: v for n, v in reversed(stmt.pins)}  # a name set twice is an error already: set once
            out += [ast.Assign(name=pins[n], op="=", value=v, pos=v.pos) for n, v in first.items() if n in pins]
            continue
        changes = {}
        for f in attrs.fields(type(stmt)):
            value = getattr(stmt, f.name)
            if isinstance(value, list) and value and all(isinstance(v, tuple) for v in value):  # if branches
                changes[f.name] = [(c, _expanded(b, flag, pins)) for c, b in value]
            elif isinstance(value, list) and any(isinstance(v, ast.Node) and not isinstance(v, _EXPRS)
                                                 for v in value):
                changes[f.name] = _expanded(value, flag, pins)
        out.append(attrs.evolve(stmt, **changes) if changes else stmt)
    return out


def chained_after(sym, step: ast.Step, action: str, index: int, after: str) -> str:
    """What follows an action's effects: while its flag is up, its step again."""
    flag = sym.again_flags.get((action, step.name))
    return f"s._enter({index}) if s.c_{flag} else {after}" if flag else after
