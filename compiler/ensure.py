"""Legality after the move: an action's ``ensure COND``.

A move is legal only if COND holds once the effects before the ``ensure`` are done. The move
generator tests each candidate by calling the action's ``_ensure_N`` method, which copies the
state, runs those effects on the copy and returns the condition; the action's own effects skip
the ``ensure`` (the move was tested).
"""
from __future__ import annotations

from regle.dsl import ast

from .lower_common import Ctx, ast_nodes, pyname


def ensure_test(low, effects: list, index: int, arg_names: list) -> str | None:
    """The test of an action's ``ensure`` (the call of its ``_ensure_`` method), or None."""
    ensures = [s for s in effects if isinstance(s, ast.Ensure)]
    for stmt in ast_nodes(effects):
        if isinstance(stmt, ast.Ensure) and stmt not in ensures:
            low.error("'ensure' stands among the action's own statements, not inside if, for or while",
                      stmt.pos, "the move is tested once its effects before the ensure are done")
    if len(ensures) > 1:
        low.error("an action has one 'ensure'; join the conditions with 'and'", ensures[1].pos)
    if not ensures:
        return None
    before = effects[:effects.index(ensures[0])]
    for stmt in ast_nodes(before):
        if isinstance(stmt, (ast.EndTurn, ast.EndGame, ast.NextPlayer, ast.Shuffle, ast.Announce)) or (
                isinstance(stmt, ast.Call) and stmt.func == "random"):
            low.error("'ensure' tests the position the move leads to: the effects before it may not end the "
                      "turn or the game, choose the next player, announce or draw on chance", stmt.pos,
                      "put the ensure before this statement")
    return f"if s._ensure_{index}({', '.join(pyname(n) for n in arg_names)}):"


def ensure_method(low, prefix: list, effects: list, guard_ctx: Ctx, arg_names: list) -> tuple[list, list]:
    """The lines of ``_ensure_N``: on a copy of the state (``s`` rebound to it), the guards'
    lets and the effects before ``ensure``, then its condition returned."""
    ensure = next((s for s in effects if isinstance(s, ast.Ensure)), None)
    if ensure is None:
        return [], []
    lines, ctx = low.effects(prefix, effects[:effects.index(ensure)] + [ensure], guard_ctx, ensure=True)
    return lines, ctx.c_numbers(exclude={pyname(n) for n in arg_names} | {"me"})
