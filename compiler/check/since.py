"""``since(A)``: the turns since action A was last played. The checker gives each action that
``since`` names a counter of the turn it was last played in; the lowering notes the turn when
the action is played and reads ``since(A)`` as ``turns - that - 1``."""
from __future__ import annotations

from regle.dsl import ast

from ..ir import types as T
from .analysis import children
from .symbols import CounterSym, suggest


def mark_since(rules: ast.Rules, sym, error) -> None:
    """A counter ``since__A`` (no rules name may hold '__') for each action A that since()
    names, kept by the engine and not drawn; a since() of what is not an action is an error."""
    if "since" in sym.defines or not sym.turns:
        return
    actions = [c.name for step in sym.turns[0].steps for c in step.choices if isinstance(c, ast.Action)]
    stack = list(rules.decls)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and node.func == "since":
            arg = node.args[0] if len(node.args) == 1 else None
            if not isinstance(arg, ast.Name) or arg.id not in actions:
                error("since() takes the name of an action: the turns since it was last played", (arg or node).pos,
                      suggest(arg.id, actions) if isinstance(arg, ast.Name) else
                      f"e.g. since({actions[0] if actions else 'place'})")
            elif arg.id not in sym.since:
                name = f"since__{arg.id}"
                sym.since[arg.id] = name
                counter = ast.Counter(name=name, init=ast.Int(value=-1, pos=node.pos), quiet=True, pos=node.pos)
                sym.counters[name] = CounterSym(name, None, counter, T.INT)
        stack.extend(children(node))
