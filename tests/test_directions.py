"""compiler/passes/directions.py: the guards of a loop over neighbours that ask only which way
the neighbour lies choose the directions once, before the loops. The changes of row and column
read from the tables, comparisons rid of the terms that cancel (the reference evaluator as
judge), trees before and after, what the pass leaves alone, and a game played alike with and
without it on both engines, by the documented loop and by ids."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import engine_source, lower, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import types as T
from regle.compiler.ir.evaluate import evaluate
from regle.compiler.passes.directions import DX, DY, Directions, cancel, choose_directions, steps_of
from regle.compiler.passes.guard_order import order_guards
from regle.compiler.write.moves import NeighbourScan

ROOT = Path(__file__).resolve().parents[1]
INT, BOOL = T.INT, T.BOOL

#: pieces that step forward (straight or diagonally), sideways to the west, and leap two rows
#: forward a knight's way, taking by replacement; the first to the far row, or the last with
#: pieces, wins
RUNNERS = """
game "Runners" {
  seats south, north
  max decisions 300
}

param size = 7

grid board: player square size by size with diagonals

setup {
  for c in cells(board) {
    if row(board, c) == 0 and column(board, c) % 2 == 0 {
      put south at c on board
    }
    if row(board, c) == size - 1 and column(board, c) % 2 == 1 {
      put north at c on board
    }
  }
}

define forward(p) = 1 - 2 * p
define goal(p) = (size - 1) * (1 - p)

turn {
  action step(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
    require ROW_TEST
    require board[t] != me
    move c to t on board
  }
  action side(c in filled_cells(board, me), t in neighbours(board, c)) "{c}<{t}" {
    require SIDE_TEST
    require is_empty(board, t)
    move c to t on board
  }
  action jump(c in filled_cells(board, me), t in leaps(board, c, 1, 2)) "{c}^{t}" {
    require JUMP_TEST and board[t] != me
    move c to t on board
  }
}

end when any(row(board, c) == goal(me) for c in filled_cells(board, me)) then winner me
end when count(board, 1 - me) == 0 then winner me
"""

TESTS = {"ROW_TEST": "row(board, t) == row(board, c) + forward(me)",
         "SIDE_TEST": "column(board, c) - column(board, t) == 1 and row(board, t) == row(board, c)",
         "JUMP_TEST": "row(board, t) - row(board, c) == 2 * forward(me)"}


def _rules(plain: bool = False) -> str:
    """The game; ``plain``: each test also compared with a truth read from the state (always
    true), which the pass cannot take out of the loops."""
    text = RUNNERS
    for name, test in TESTS.items():
        text = text.replace(name, f"({test}) == (turns >= 0)" if plain else test)
    return text


def _loc(name: str) -> N.Expr:
    return N.Local(INT, 0, name)


def _row(var: str) -> N.Expr:
    return N.Geometry(INT, 0, "G_board__ROWS", N.Local(T.Type("cell", space="board"), 0, var))


# ---- the changes of row and column ------------------------------------------------------------
def test_each_tables_changes_are_read_from_the_tables():
    grids = lower(_rules(), "runners.rules").grids
    steps = steps_of(grids)
    adj = [(dy, dx) for dy, dx, some, _ in steps["G_board__ADJ"][2]]
    assert adj == [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)]
    leaps = {(dy, dx) for dy, dx, some, _ in steps["G_board__LEAP_1_2"][2]}
    assert leaps == {(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)}
    assert steps["G_board__ADJ"][:2] == ("G_board__ROWS", "G_board__COLUMNS")


def test_a_board_whose_steps_differ_from_cell_to_cell_has_no_change_there():
    """A star of points: a step north-east changes the row by one, but the column by a number
    that depends on the cell; a board of lines: neither is the same everywhere."""
    halma = steps_of(lower((ROOT / "games/classics/halma.rules").read_text(encoding="utf-8")).grids)
    assert [dx for _, dx, _, _ in halma["G_board__ADJ"][2]][2:] == [None] * 4
    morris = steps_of(lower((ROOT / "games/classics/morris.rules").read_text(encoding="utf-8")).grids)
    assert all(None in (dy, dx) for dy, dx, _, _ in morris["G_board__ADJ"][2])


# ---- terms that cancel ------------------------------------------------------------------------
def test_a_term_on_both_sides_or_twice_on_one_goes():
    x, a, b = _loc("x"), _loc("a"), _loc("b")
    both = N.Binary(BOOL, 0, "==", N.Binary(INT, 0, "+", x, a), N.Binary(INT, 0, "+", x, b))
    assert cancel(both) == N.Binary(BOOL, 0, "==", a, b)
    one = N.Binary(BOOL, 0, "<", N.Binary(INT, 0, "-", N.Binary(INT, 0, "+", x, a), x), b)
    assert cancel(one) == N.Binary(BOOL, 0, "<", a, b)
    nothing = N.Binary(BOOL, 0, "==", N.Binary(INT, 0, "+", x, a), N.Binary(INT, 0, "-", b, x))
    assert cancel(nothing) == nothing  # x + a == b - x: x does not cancel


_ATOMS = ("x", "y", "a")


def _sums():
    leaf = st.one_of(st.sampled_from(_ATOMS).map(_loc), st.integers(-3, 3).map(lambda v: N.Const(INT, 0, v)))
    return st.recursive(leaf, lambda inner: st.builds(lambda op, l, r: N.Binary(INT, 0, op, l, r),
                                                      st.sampled_from(["+", "-", "*"]), inner, inner), max_leaves=8)


@given(st.sampled_from(sorted(("==", "!=", "<", "<=", ">", ">="))), _sums(), _sums(),
       st.fixed_dictionaries({name: st.integers(-20, 20) for name in _ATOMS}))
def test_cancelling_keeps_the_truth(op, left, right, values):
    tree = N.Binary(BOOL, 0, op, left, right)
    assert evaluate(cancel(tree), values) == evaluate(tree, values)


# ---- the generator ----------------------------------------------------------------------------
def _generator(text: str, step: int = 0) -> tuple:
    ir = lower(text, "runners.rules", native=True)
    moves = choose_directions(order_guards(tuple(ir.steps[step].move_lines)), steps_of(ir.grids))
    return moves


def _scans(block) -> list:
    out = []
    for item in block:
        if isinstance(item, NeighbourScan):
            out.append(item)
        out += _scans(getattr(item, "body", None) or ())
    return out


def test_the_guards_that_ask_only_the_way_go_before_the_loops():
    block = _generator(_rules())
    chosen = [item for item in block if isinstance(item, Directions)]
    assert [d.var for d in chosen] == ["_dirs0", "_dirs1", "_dirs2"]
    scans = _scans(block)
    assert [s.dirs for s in scans] == ["_dirs0", "_dirs1", "_dirs2"]
    # what stays in each loop: the read of the board (step, jump) and of the cell (side)
    for scan in scans:
        guards = [x for x in scan.body if type(x).__name__ == "Guard"]
        assert len(guards) == 1 and "g_board" in repr(guards[0].test)
    step, side, jump = chosen
    assert evaluate(step.test, {"me": 0, DY: 1, DX: 0}) and not evaluate(step.test, {"me": 1, DY: 1, DX: 0})
    assert "G_board" not in repr(step.test) + repr(side.test) + repr(jump.test)  # the cell's row cancelled
    assert {(dy, dx) for _, dy, dx, _ in jump.steps if evaluate(jump.test, {"me": 1, DY: dy, DX: dx})} \
        == {(-2, -1), (-2, 1)}
    assert [(dy, dx) for _, dy, dx, _ in side.steps if evaluate(side.test, {"me": 0, DY: dy, DX: dx})] == [(0, -1)]


def test_a_guard_that_reads_the_state_or_the_cell_stays_in_the_loop():
    assert not any(isinstance(x, Directions) for x in _generator(_rules(plain=True)))
    assert all(not s.dirs for s in _scans(_generator(_rules(plain=True))))
    # the cell's own row does not cancel: it stays, and so the loop walks every direction
    own = _rules().replace("require row(board, t) == row(board, c) + forward(me)", "require row(board, t) < 3 + row(board, c) * 0")
    assert [s.dirs for s in _scans(_generator(own))] == ["", "_dirs0", "_dirs1"]


def test_the_written_engines_say_where_the_directions_come_from():
    python, cython = engine_source(_rules(), "runners.rules"), native_source(_rules(), "runners.rules")
    for source in (python, cython):
        assert "compiler/passes/directions.py" in source
        assert "# ne: row +1, column +1" in source
    assert "_dirs0.append(" in python and "_dirs0[_n_dirs0] = " in cython


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_game_plays_alike_with_its_directions_chosen_before_the_loops(backend):
    """Seeded random games: the legal moves and the legal ids at every node the same as the
    rules' whose guards read the state too (and so stay in the loops)."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    chosen, reference = (regle.loads(text, name=f"runners_{k}", backend=backend)
                         for k, text in (("chosen", _rules()), ("plain", _rules(plain=True))))
    games = 150 if backend == "native" else 40
    nodes, _ = play_alike(reference, chosen, games, ids=True)
    assert nodes > 15 * games  # games of some length, not won at once
    if backend == "native":  # random playouts walk the keyed generator: the same games
        for seed in range(50):
            assert chosen.new_game(None, seed=seed).play_random_playout(seed).decisions \
                == reference.new_game(None, seed=seed).play_random_playout(seed).decisions
