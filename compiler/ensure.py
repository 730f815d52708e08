"""Legality after the move: an action's ``ensure COND``.

A move is legal only if COND holds once the effects before the ``ensure`` are done. The move
generator tests each candidate by calling the action's ``_ensure_N`` method, which keeps a copy
of the places those effects may change (and the work count), runs the effects on the state
itself, reads the condition and puts the places back: no copy of the whole state per candidate.
A grid whose cells the trial writes one by one keeps only those cells (compiler/journal.py).
Where the places changed cannot be told, it runs them on a copy of the state instead. The
action's own effects skip the ``ensure`` (the move was tested).
"""
from __future__ import annotations

import attrs

from regle.dsl import ast

from . import nodes as N
from . import statements as S
from . import types as T
from .analysis import written_places
from .journal import journal
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
    args = tuple(arg_types[n] for n in arg_names)
    return N.Method(T.BOOL, 0, f"_ensure_{index}", args)


def ensure_method(low, prefix: list, effects: list, guard_ctx: Ctx, arg_names: list) -> tuple[list, list]:
    """The trial of ``_ensure_N`` (after ``me``), as (the statements before it, its effects and
    condition, what a ``finally`` puts back or None, its rules line): the places the effects
    before ``ensure`` may change kept, those effects and the condition returned, the places put
    back; or, when the places are not known, the same on a copy of the state (``s`` rebound to
    it). compiler/written.py assembles and writes it."""
    ensure = next((s for s in effects if isinstance(s, ast.Ensure)), None)
    if ensure is None:
        return (), []
    before, blocks = trial_statements(effects[:effects.index(ensure)], ensure.cond, low.sym.defines)
    low.trial_blocks = blocks  # the procedures the trial runs, pruned alike
    try:
        block, ctx = low.effects(prefix, before + [ensure], guard_ctx, ensure=True)
    finally:
        low.trial_blocks = None
    c_locals = ctx.c_numbers(exclude={pyname(n) for n in arg_names} | {"me"})
    places = written_places(before, {**low.sym.defines, **{n: _with_block(low.sym.defines[n], b)
                                                            for n, b in blocks.items()}})
    line = ensure.pos[0]
    if places is None:
        copy = S.Assign(line, N.Local(T.ANY, 0, "s"), "=", N.StateCopy(T.ANY, 0))
        return ((copy,), tuple(block), None, line), c_locals
    grids = [f"g_{name}" for name in sorted(places) if name in low.sym.grids and not low.sym.grids[name].per]
    journaled = journal(block, grids, line)
    start: list = []
    back: list = []
    if journaled is not None:  # cells put back one by one (compiler/journal.py)
        block, start, back, names, done = journaled
        places = {name for name in places if f"g_{name}" not in done}
        c_locals = c_locals + names
    keep, put_back = _keep(low, sorted(places), line)
    c_locals = c_locals + ["_keep_work"]  # natively the work count is one C number
    return ((*keep, *start), tuple(block), tuple(back + put_back), line), c_locals


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


def _keep(low, places: list[str], line: int) -> tuple[list, list]:
    """Statements keeping the places (and the count of work done in this decision), and
    statements putting them back in place (the same objects, which the move generator may
    hold)."""
    work = N.Local(T.INT, 0, "_keep_work")
    keep = [S.Assign(line, work, "=", N.Method(T.INT, 0, "_work_done", ()))]
    put_back = [S.Eval(line, N.Method(T.ANY, 0, "_work_back", (work,)))]
    for name in places:
        counter = low.sym.counters.get(name)
        if counter is not None:
            place, shape = N.Field(T.ANY, 0, f"c_{name}"), "seats" if counter.per else "number"
        elif name in low.sym.grids:
            place, shape = N.Field(T.ANY, 0, f"g_{name}"), "lists" if low.sym.grids[name].per else "list"
        elif name in low.sym.zones:
            place, shape = N.Field(T.ANY, 0, f"z_{name}"), "lists" if low.sym.zones[name].per else "list"
        else:  # a let changed by the effects: a local of the method, not the state
            continue
        local = f"_keep_{place.attr}"
        keep.append(S.Keep(line, local, place, shape))
        put_back.append(S.PutBack(line, local, place, shape))
    return keep, put_back
