"""Legality after the move: an action's ``ensure COND``.

A move is legal only if COND holds once the effects before the ``ensure`` are done. The move
generator tests each candidate by calling the action's ``_ensure_N`` method, which keeps a copy
of the places those effects may change (and the work count), runs the effects on the state
itself, reads the condition and puts the places back: no copy of the whole state per candidate.
Where the places changed cannot be told, it runs them on a copy of the state instead. The
action's own effects skip the ``ensure`` (the move was tested).
"""
from __future__ import annotations

import attrs

from regle.dsl import ast

from . import nodes as N
from . import types as T
from .analysis import written_places
from .lower_common import Ctx, ast_nodes, nodes_through_defines, pyname


def ensure_test(low, effects: list, index: int, arg_names: list, arg_types: dict) -> N.Expr | None:
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
    args = tuple(N.Local(arg_types[n][1], 0, pyname(n)) for n in arg_names)
    return N.Method(T.BOOL, 0, f"_ensure_{index}", args)


def ensure_method(low, prefix: list, effects: list, guard_ctx: Ctx, arg_names: list) -> tuple[list, list]:
    """The lines of ``_ensure_N`` (after ``me``): the places the effects before ``ensure`` may
    change kept, those effects and the condition returned, the places put back; or, when the
    places are not known, the same on a copy of the state (``s`` rebound to it)."""
    ensure = next((s for s in effects if isinstance(s, ast.Ensure)), None)
    if ensure is None:
        return [], []
    before, blocks = trial_statements(effects[:effects.index(ensure)], ensure.cond, low.sym.defines)
    low.trial_blocks = blocks  # the procedures the trial runs, pruned alike
    try:
        lines, ctx = low.effects(prefix, before + [ensure], guard_ctx, ensure=True)
    finally:
        low.trial_blocks = None
    c_locals = ctx.c_numbers(exclude={pyname(n) for n in arg_names} | {"me"})
    places = written_places(before, {**low.sym.defines, **{n: _with_block(low.sym.defines[n], b)
                                                            for n, b in blocks.items()}})
    if places is None:
        return ["s = s._copy()" if low.native else "s = s.copy()", *lines], c_locals
    keep, put_back = _keep(low, sorted(places))
    return keep + ["try:"] + ["    " + line for line in lines] + ["finally:"] + ["    " + line for line in put_back], \
        c_locals


def trial_statements(before: list, cond, defines: dict) -> tuple[list, dict]:
    """The effects a trial of ``ensure COND`` needs: those that change what COND reads, directly
    or through other statements kept. Returns them and, per procedure, its statements kept (a
    procedure is pruned alike wherever it runs). A statement whose writes are not known is
    kept, and so is an if, for or while any of whose statements is. The move itself, once
    chosen, runs every effect."""
    relevant = _reads(cond, defines)
    while True:
        size, blocks = len(relevant), {}
        kept = _prune(before, relevant, defines, blocks)
        if len(relevant) == size:
            return kept, blocks


def _prune(stmts: list, relevant: set, defines: dict, blocks: dict) -> list:
    kept = []
    for s in stmts:
        if isinstance(s, ast.Run) and defines.get(s.name) is not None and defines[s.name].block is not None:
            if s.name not in blocks:
                blocks[s.name] = []  # while pruned (a procedure may not run itself)
                blocks[s.name] = _prune(defines[s.name].block, relevant, defines, blocks)
            if blocks[s.name]:
                kept.append(s)
                relevant |= _reads(s.args, defines)
            continue
        writes = {s.name} if isinstance(s, ast.Let) else written_places([s], defines)
        if writes is None or writes & relevant:
            kept.append(s)
            relevant |= _reads(s, defines)
    return kept


def _reads(node, defines: dict) -> set:
    """The names an expression or statement reads, through the defines it calls."""
    return {inner.id for inner in nodes_through_defines(node, defines) if isinstance(inner, ast.Name)}


def _with_block(define, block: list):
    return attrs.evolve(define, block=block)


def _keep(low, places: list[str]) -> tuple[list[str], list[str]]:
    """Lines keeping the places (and the count of work done in this decision), and lines
    putting them back in place (the same objects, which the move generator may hold)."""
    keep, put_back = ["_keep_work = s._work_done()"], ["s._work_back(_keep_work)"]
    for name in places:
        counter = low.sym.counters.get(name)
        if counter is not None:
            attr = f"s.c_{name}"
            if counter.per and not low.native:  # a list: put back in place
                keep.append(f"_keep_c_{name} = {attr}[:]")
                put_back.append(f"{attr}[:] = _keep_c_{name}")
            else:  # a number, or natively a C array seen as a list (its setter copies it back)
                keep.append(f"_keep_c_{name} = {attr}")
                put_back.append(f"{attr} = _keep_c_{name}")
            continue
        if name in low.sym.grids:
            attr, per = f"s.g_{name}", low.sym.grids[name].per
        elif name in low.sym.zones:
            attr, per = f"s.z_{name}", low.sym.zones[name].per
        else:  # a let changed by the effects: a local of the method, not the state
            continue
        local = f"_keep_{attr[2:]}"
        if per:
            keep.append(f"{local} = [_p[:] for _p in {attr}]")
            put_back.append(f"for _p, _k in zip({attr}, {local}): _p[:] = _k")
        else:
            keep.append(f"{local} = {attr}[:]")
            put_back.append(f"{attr}[:] = {local}")
    return keep, put_back
