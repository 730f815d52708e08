"""The lowered game written out: each tree :class:`GameIR` holds, as one engine's code.

The lowering (:mod:`lower`) is the same for both engines and leaves the game's expressions and
blocks of statements as trees (``nodes``, ``statements``); this is the one place they become
code, by the emitter of the engine being made (``PythonWriter``, or ``CythonWriter`` for a game
lowered with ``native_lowered``), after the passes each engine needs: the reads of the state a
method makes twice taken once (compiler/passes/reads.py), the cell lists a define builds twice built
once (compiler/passes/share.py), natively the lines through a point walked in tables
(compiler/passes/point_lines.py) and the move generators' packed keys (compiler/write/moves.py). It
runs before the template is laid out, so that what writing declares (natively an aggregate's
helper method, the C globals bound to runtime helpers) is complete when the module is.
"""
from __future__ import annotations

import attrs

from .emit import PythonWriter
from .emit_native import CythonWriter, c_type
from ..ir.game import ActionIR, GameIR, StepIR
from .keyed import keyed_moves
from .moves import Source, move_lines
from ..passes import bottom_up, each_tree, optimize
from ..passes.point_lines import walk_point_lines
from ..passes.cells_written import journal_writes
from ..passes.ensure_memo import remember_ensures
from ..passes.trial_work import drop_idle_work
from ..passes.directions import choose_directions, steps_of
from ..passes.guard_order import order_guards
from ..passes.hoist import hoist_invariants
from ..passes.shared_calls import share_calls
from ..passes.neighbour_mask import REST, mask_neighbour_tests
from ..passes.items_in_place import items_in_place
from ..passes.walk_membership import disjoint_tables, tell_by_walk
from ..passes.walled_neighbours import walk_walled
from ..passes.same_guards import merge_guards
from ..passes.reads import take_reads_once
from ..passes.loops import as_loops
from ..passes.share import build_once
from ..ir import nodes as N
from ..ir import statements as S


def write_game(ir: GameIR) -> GameIR:
    """The game with its trees written as code, by the emitter of the engine it is for, after
    the optimizations both engines share (compiler/passes)."""
    ir = optimize(ir)
    if ir.native_lowered:  # natively, lines(G, c) walked by the lines' numbers in C tables (compiler/passes/point_lines.py)
        ir = each_tree(ir, lambda tree, change=walk_point_lines(ir.grids): bottom_up(tree, change))
    ir = remember_ensures(ir)  # ensures read once in a position (compiler/passes/ensure_memo.py)
    ir = drop_idle_work(ir)  # a trial that counts no work keeps no count (compiler/passes/trial_work.py)
    if ir.native_lowered:  # natively, the cells each move writes noted for the end conditions' line searches
        ir = journal_writes(ir)
    writer = CythonWriter() if ir.native_lowered else PythonWriter()
    # the Python engine's moves of cells taken from tables of tuples made once (compiler/write/moves.py)
    writer.grid_cells, writer.move_tables = {g.name: g.cells for g in ir.grids}, {}
    code, lines = writer.code, writer.lines
    directions = steps_of(ir.grids)  # each table's changes of row and column by direction
    disjoint = disjoint_tables(ir.grids) if ir.native_lowered else {}  # the pairs of tables no cell is in both of
    defines = {name: (params, body[0], body[3]) for name, params, _comment, body, _sig in ir.functions}
    rests: dict = {}  # a define -> its value without its first test, called where a mask says it fails
    written = attrs.evolve(
        ir,
        first_code=code(ir.first_code),
        zones=[attrs.evolve(z, init_code=None if z.init_code is None else code(z.init_code)) for z in ir.zones],
        counters=[attrs.evolve(c, init_code=code(c.init_code)) for c in ir.counters],
        setup_lines=lines(ir.setup_lines),
        steps=[_step(st, writer, directions, disjoint, defines, rests) for st in ir.steps],
        end_conds=[(comment, code(cond)) for comment, cond in ir.end_conds],
        end_winners=[(comment, code(cond), win if win is None or isinstance(win, str) else code(win))
                     for comment, cond, win in ir.end_winners],
        score_clauses=[(name, line, code(value)) for name, line, value in ir.score_clauses],
        winner_keys=[(line, code(key), var) for line, key, var in ir.winner_keys],
        invariants=[(name, line, code(cond)) for name, line, cond in ir.invariants],
        notices=[attrs.evolve(n, cond=None if n.cond is None else code(n.cond), at=None if n.at is None else code(n.at),
                              source=None if n.source is None else code(n.source),
                              where=None if n.where is None else code(n.where)) for n in ir.notices],
        tables=[attrs.evolve(t, show_lines=lines(t.show_lines), detail_lines=lines(t.detail_lines)) for t in ir.tables],
        # (after the steps, in the order Python evaluates arguments: their masks name the twins to write)
        functions=[(name, params, comment, lines(_function_body(body, writer.native)), (*sig, _c_locals(body)))
                   for name, params, comment, body, sig in [*ir.functions, *_rest_functions(ir.functions, rests)]],
        footprints=[attrs.evolve(fp, cond=code(fp.cond)) for fp in ir.footprints],
    )
    actions = {a.index: _action(a, writer) for a in ir.actions}
    written.actions = [actions[a.index] for a in ir.actions]
    written.steps = [attrs.evolve(st, actions=[actions[a.index] for a in st.actions],
                                  pass_action=None if st.pass_action is None else actions[st.pass_action.index])
                     for st in written.steps]
    # natively, the aggregates' helper methods and the C globals the written code calls
    written.helpers = list(getattr(writer, "helpers", []))
    # natively, the tests a remembered walk asks of a piece put where it passed (compiler/write/xray.py)
    written.footprints = [attrs.evolve(fp, fills=tuple(getattr(writer, "xfills", {}).get(fp.memo, ())))
                          for fp in written.footprints]
    written.bound_calls = dict(sorted(getattr(writer, "bound", {}).items()))
    written.move_tables = sorted(writer.move_tables.items())
    written.written = True
    return written


def _rest_functions(functions: list, rests: dict) -> list:
    """The twins of the defines a mask stands before (compiler/passes/neighbour_mask.py): the
    same function with its value's first test left out."""
    out = []
    for name, params, comment, body, sig in functions:
        if name in rests:
            tree, names, line, lets = body
            out.append((f"{name}{REST}", params, comment.rstrip() + "\n# (its twin without its first test, called where a mask says that test fails)",
                        (rests[name], names, line, lets), sig))
    return out


def _function_body(body: tuple, native: bool) -> tuple:
    """A define's function: its lets (natively each a C local where it is a number or a
    truth), each list of cells its value builds twice or more built once into a local
    (compiler/passes/share.py), then its value returned."""
    tree, names, line, lets = body
    built, tree = build_once(tree, set(names) | {a.target.name for a in lets}, native)
    loops = None if native else as_loops(tree, line, set(names) | {a.target.name for a in lets}
                                         | {b.target.name for b in built if isinstance(b.target, N.Local)})
    statements = (*lets, *built, *(loops or (S.Return(line, tree),)))
    if native:  # (a typed field of the C state is a pointer away; an aggregate is a method of its own)
        return statements
    # the Python engine's function reads a grid or zone it reads twice, or in a loop, once
    # (compiler/passes/reads.py): an attribute looked up at every round of its loops otherwise
    return tuple(take_reads_once(statements, False))


def _c_locals(body: tuple) -> list[str]:
    """The native declarations of a define's function's lets that are C numbers or truths
    (``long n_``), for the template to write at the top of the function."""
    lets = body[3]
    return [f"{c_type(a.target.type)} {a.target.name}" for a in lets if c_type(a.target.type) != "object"]


def _step(st: StepIR, writer, steps: dict, disjoint: dict, defines: dict, rests: dict) -> StepIR:
    """A step written: its condition, its automatic statements, and its move generator as a
    list of moves and, natively, as packed keys into the state's buffer (compiler/write/moves.py)."""
    shared = st.shared_code is not None
    # the guards that cannot fail first (compiler/passes/guard_order.py), those of them that ask
    # only which way a neighbour lies tested once before the loops (compiler/passes/directions.py),
    # the parts of guards a loop does not change computed before it (compiler/passes/hoist.py),
    # then the reads of the state made twice taken once (compiler/passes/reads.py)
    moves = choose_directions(order_guards(tuple(st.move_lines)), steps)
    moves = merge_guards(moves)  # guards side by side that test the same made one (compiler/passes/same_guards.py)
    moves, calls = share_calls(moves)  # a scan of the position asked twice, made once (compiler/passes/shared_calls.py)
    moves, lifted = hoist_invariants(moves, writer.native)
    lifted = [*calls, *lifted]
    if not writer.native:  # a define's first test of a cell's neighbours answered for every cell at once (compiler/passes/neighbour_mask.py)
        moves = mask_neighbour_tests(moves, defines, Source, rests)
    if writer.native:  # short lists of whole numbers walked in their loops, as C locals (compiler/passes/items_in_place.py)
        moves, placed = items_in_place(moves)
        lifted = [*lifted, *placed]
        moves = tell_by_walk(moves, disjoint)  # t in T(c) of a walk's own table (compiler/passes/walk_membership.py)
        moves, walls = walk_walled(moves)  # the neighbours through walls on the C tables (compiler/passes/walled_neighbours.py)
        lifted = [*lifted, *walls]
    moves = tuple(take_reads_once(moves, writer.native, sizes=True))
    return attrs.evolve(
        st,
        c_locals=[*st.c_locals, *lifted] if writer.native else st.c_locals,
        cond_code=None if st.cond_code is None else writer.code(st.cond_code),
        shared_code=None if st.shared_code is None else writer.code(st.shared_code),
        body_lines=writer.lines(st.body_lines),
        move_lines=move_lines(moves, writer),
        keyed=keyed_moves(moves, st.actions, st.kind, shared, writer) if writer.native else None,
    )


def _action(a: ActionIR, writer) -> ActionIR:
    """An action's effects and its ``ensure`` trial, each with the reads of the state it makes
    twice taken once (compiler/passes/reads.py: natively not inside an aggregate, a method of its own)."""
    effects = take_reads_once(a.do_lines, writer.native)
    trial: list = []
    if a.ensure_lines:
        before, body, put_back, line = a.ensure_lines
        body = tuple(take_reads_once(body, writer.native))
        trial = [*before, *body] if put_back is None else [*before, S.Try(line, body, put_back)]
    return attrs.evolve(a, do_lines=writer.lines(effects), ensure_lines=writer.lines(trial),
                        say_lines=writer.lines(a.say_lines), long_lines=writer.lines(a.long_lines),
                        sayin_lines=writer.lines(a.sayin_lines))
