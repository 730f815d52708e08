"""The lowered game written out: each tree :class:`GameIR` holds, as this engine's code.

The lowering (:mod:`lower`) leaves the game's expressions and blocks of statements as trees
(``nodes``, ``statements``); this is the one place they become code, by the emitter of the
engine being made (``PythonWriter`` or ``CythonWriter``). It runs before the template is laid
out, so that what writing declares (an aggregate's helper method, natively the C globals
bound to runtime helpers) is complete when the module's head is rendered.
"""
from __future__ import annotations

import attrs

from .ir import ActionIR, GameIR, StepIR
from .moves import keyed_moves, move_lines
from .reads import take_reads_once
from .share import build_once
from . import statements as S


def write_game(ir: GameIR, writer) -> GameIR:
    """The game with its trees written as code by ``writer`` (the emitter of this engine)."""
    code, lines = writer.code, writer.lines
    written = attrs.evolve(
        ir,
        first_code=code(ir.first_code),
        zones=[attrs.evolve(z, init_code=None if z.init_code is None else code(z.init_code)) for z in ir.zones],
        counters=[attrs.evolve(c, init_code=code(c.init_code)) for c in ir.counters],
        setup_lines=lines(ir.setup_lines),
        steps=[_step(st, writer) for st in ir.steps],
        end_conds=[(comment, code(cond)) for comment, cond in ir.end_conds],
        end_winners=[(comment, code(cond), win if win is None or isinstance(win, str) else code(win))
                     for comment, cond, win in ir.end_winners],
        score_clauses=[(name, line, code(value)) for name, line, value in ir.score_clauses],
        winner_keys=[(line, code(key), var) for line, key, var in ir.winner_keys],
        invariants=[(name, line, code(cond)) for name, line, cond in ir.invariants],
        functions=[(name, params, comment, lines(_function_body(body, writer.native)), sig)
                   for name, params, comment, body, sig in ir.functions],
    )
    actions = {a.index: _action(a, writer) for a in ir.actions}
    written.actions = [actions[a.index] for a in ir.actions]
    written.steps = [attrs.evolve(st, actions=[actions[a.index] for a in st.actions],
                                  pass_action=None if st.pass_action is None else actions[st.pass_action.index])
                     for st in written.steps]
    written.bound_calls = dict(sorted(getattr(writer, "bound", {}).items())) or ir.bound_calls
    written.writer = None
    return written


def _function_body(body: tuple, native: bool) -> tuple:
    """A define's function: each list of cells its body builds twice or more built once into
    a local first (compiler/share.py), then its value returned."""
    tree, names, line = body
    built, tree = build_once(tree, set(names), native)
    return (*built, S.Return(line, tree))


def _step(st: StepIR, writer) -> StepIR:
    """A step written: its condition, its automatic statements, and its move generator as a
    list of moves and, natively, as packed keys into the state's buffer (compiler/moves.py)."""
    shared = st.shared_code is not None
    moves = tuple(take_reads_once(st.move_lines, writer.native, sizes=True))  # compiler/reads.py
    return attrs.evolve(
        st,
        cond_code=None if st.cond_code is None else writer.code(st.cond_code),
        shared_code=None if st.shared_code is None else writer.code(st.shared_code),
        body_lines=writer.lines(st.body_lines),
        move_lines=move_lines(moves, writer),
        keyed=keyed_moves(moves, st.actions, st.kind, shared, writer) if writer.native else None,
    )


def _action(a: ActionIR, writer) -> ActionIR:
    return attrs.evolve(a, do_lines=writer.lines(a.do_lines), ensure_lines=writer.lines(a.ensure_lines))
