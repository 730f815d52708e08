"""Legality after the move: an action's ``ensure COND``.

A move is legal only if COND holds once the effects before the ``ensure`` are done. The move
generator tests each candidate by calling the action's ``_ensure_N`` method, which keeps a copy
of the places those effects may change (and the work count), runs the effects on the state
itself, reads the condition and puts the places back: no copy of the whole state per candidate.
A grid whose cells the trial writes one by one keeps only those cells (compiler/passes/journal.py).
Where the places changed cannot be told, it runs them on a copy of the state instead. The
action's own effects skip the ``ensure`` (the move was tested).
"""
from __future__ import annotations

import attrs

from regle.dsl import ast

from ..ir import nodes as N
from ..ir import statements as S
from ..ir import types as T
from ..check.analysis import written_places
from ..passes.journal import journal
from .common import Ctx, ast_nodes, nodes_through_defines, pyname
from ..check.symbols import CHANCE_FUNCTIONS


def ensure_sites(stmts: list, defines: dict) -> list[tuple[tuple, ast.Ensure, bool]]:
    """Every ``ensure`` the statements hold, directly or in a procedure they run (through any
    depth of procedures), as (the runs leading to it, outermost first; the ensure; whether it
    stands among the statements' own, each run on the way among its runner's own statements).
    An ensure in a procedure acts as if the procedure's statements stood where it runs."""
    sites: list = []

    def walk(block: list, runs: tuple, top: bool) -> None:
        for stmt in block:
            for inner in ast_nodes(stmt):
                here = top and inner is stmt
                if isinstance(inner, ast.Ensure):
                    sites.append((runs, inner, here))
                elif isinstance(inner, ast.Run):
                    proc = defines.get(inner.name)
                    if proc is not None and proc.block is not None and all(r.name != inner.name for r in runs):
                        walk(proc.block, runs + (inner,), here)
    walk(stmts, (), True)
    return sites


def _among(stmt, block: list) -> bool:
    return any(s is stmt for s in block)


def _nested_at(effects: list, runs: tuple, ens: ast.Ensure, defines: dict):
    """The first statement on the way to an ensure that stands inside if, for or while of its
    block: what an error about the misplaced ensure points at."""
    block = effects
    for stmt in (*runs, ens):
        if not _among(stmt, block):
            return stmt
        block = defines[stmt.name].block if isinstance(stmt, ast.Run) else block
    return ens


def _trial_chain(runs: tuple, ens: ast.Ensure, defines: dict) -> list[tuple[str, list]]:
    """Each procedure on the way to the ensure with its statements up to the run it leads to
    (or the ensure itself, last): what a trial of the move runs of it."""
    chain = []
    for i, run in enumerate(runs):
        target = runs[i + 1] if i + 1 < len(runs) else ens
        block = defines[run.name].block
        cut = next(k for k, s in enumerate(block) if s is target)
        chain.append((run.name, block[:cut + 1]))
    return chain


def _split(effects: list, defines: dict) -> tuple[list, object, tuple, ast.Ensure] | None:
    """The action's statements before its one ``ensure`` (or before the run that leads to it),
    that statement, the runs on the way and the ensure; None without an ensure."""
    tops = [(runs, ens) for runs, ens, top in ensure_sites(effects, defines) if top]
    if not tops:
        return None
    runs, ens = tops[0]
    head = runs[0] if runs else ens
    index = next(i for i, s in enumerate(effects) if s is head)
    return list(effects[:index]), head, runs, ens


def ensure_test(low, effects: list, index: int, arg_names: list, arg_types: dict) -> N.Expr | None:
    """The test of an action's ``ensure`` (the call of its ``_ensure_`` method), or None. An
    ``ensure`` in a procedure the action runs is the action's: tested alike, or refused where
    the action's own would be."""
    defines = low.sym.defines
    sites = ensure_sites(effects, defines)
    for runs, ens, top in sites:
        if top:
            continue
        at = _nested_at(effects, runs, ens, defines)
        if isinstance(at, ast.Run):
            low.error(f"procedure '{at.name}' holds an 'ensure' (line {ens.pos[0]}), and it runs inside if, for "
                      "or while here", at.pos, "run it among the action's own statements: the move is tested once "
                      "its effects before the ensure are done")
        else:
            low.error("'ensure' stands among the action's own statements (or those of a procedure it runs), not "
                      "inside if, for or while", ens.pos, "the move is tested once its effects before the ensure "
                      "are done")
    tops = [ens for _, ens, top in sites if top]
    if len(tops) > 1:
        low.error("an action has one 'ensure'; join the conditions with 'and'", tops[1].pos)
    split = _split(effects, defines)
    if split is None:
        return None
    before, _, runs, ens = split
    before += [s for _, block in _trial_chain(runs, ens, defines) for s in block[:-1]]
    for stmt in unsettling(before):
        low.error("'ensure' tests the position the move leads to: the effects before it may not end the "
                  "turn or the game, choose the next player, announce, reveal or draw on chance", stmt.pos,
                  "put the ensure before this statement")
    args = tuple(arg_types[n] for n in arg_names)
    return N.Method(T.BOOL, 0, f"_ensure_{index}", args)


def unsettling(stmts: list) -> list:
    """The statements among ``stmts`` (and inside them) that a trial of the move cannot run
    twice or put back: ending the turn or the game, choosing the next player, announcing,
    revealing, drawing on chance (an ``ensure``'s trial, a notation read in the position)."""
    return [stmt for stmt in ast_nodes(stmts)
            if isinstance(stmt, (ast.EndTurn, ast.EndGame, ast.NextPlayer, ast.Shuffle, ast.Announce, ast.Reveal))
            or (isinstance(stmt, ast.Deal) and stmt.random)
            or (isinstance(stmt, ast.Call) and stmt.func in CHANCE_FUNCTIONS)]


def ensure_method(low, prefix: list, effects: list, guard_ctx: Ctx, arg_names: list) -> tuple[list, list]:
    """The trial of ``_ensure_N`` (after ``me``), as (the statements before it, its effects and
    condition, what a ``finally`` puts back or None, its rules line): the places the effects
    before ``ensure`` may change kept, those effects and the condition returned, the places put
    back; or, when the places are not known, the same on a copy of the state (``s`` rebound to
    it). compiler/write/written.py assembles and writes it."""
    split = _split(effects, low.sym.defines)
    if split is None:
        return (), []
    before, head, runs, ensure = split
    # the effects before it that change what it reads; of the procedures on the way to it,
    # their statements up to it, all run (compiler/passes/journal.py and the places kept see them)
    before, blocks = trial_statements(before, head, low.sym.defines)
    blocks.update(_trial_chain(runs, ensure, low.sym.defines))
    low.trial_blocks = blocks  # the procedures the trial runs, pruned alike
    try:
        block, ctx = low.effects(prefix, before + [head], guard_ctx, ensure=True)
    finally:
        low.trial_blocks = None
    c_locals = ctx.c_numbers(exclude={pyname(n) for n in arg_names} | {"me"})
    trial_defines = {**low.sym.defines, **{n: _with_block(low.sym.defines[n], b) for n, b in blocks.items()}}
    places = written_places(before + [head], trial_defines)
    line = ensure.pos[0]
    if places is None:
        copy = S.Assign(line, N.Local(T.ANY, 0, "s"), "=", N.StateCopy(T.ANY, 0))
        return ((copy,), tuple(block), None, line), c_locals
    grids = [f"g_{name}" for name in sorted(places) if name in low.sym.grids and not low.sym.grids[name].per]
    journaled = journal(block, grids, line)
    start: list = []
    back: list = []
    if journaled is not None:  # cells put back one by one (compiler/passes/journal.py)
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
