"""The neighbours no wall separates from a cell (``neighbours(board, c, fence)``) walked on the
C tables natively (compiler/passes/walled_neighbours.py): the loop of a move generator a C walk
of the cell's row, ``x in neighbours(board, c, fence)`` a C test, where the walls are a grid of
pieces; the Python engine keeps the kernel's list. The trees, what is left alone, and games
played alike on both engines, errors included."""
from __future__ import annotations

import random

import pytest

import regle
from regle.compiler.generate import engine_source, native_source
from regle.compiler.passes.walled_neighbours import walk_walled, walled

MAZE = '''
game "Maze" { players 2 }
enum side { south, west, north, east }
grid board: player square 4 by 4 edges side
grid fence: player walls of board
grid marks: int walls of board
counter touched = 0
setup {
  put 0 at "a1" on board
  put 1 at "d4" on board
}
define pawn(p) = first(filled_cells(board, p))
turn {
  action step(t in neighbours(board, pawn(me), fence)) "{t}" {
    require is_empty(board, t)
    move pawn(me) to t on board
  }
  action slip(t in neighbours(board, pawn(me), marks)) "{t}~" {
    require is_empty(board, t) and t not in neighbours(board, pawn(me), fence)
    move pawn(me) to t on board
  }
  action touch(c in empty_cells(board)) "{c}!" {
    require pawn(1 - me) in neighbours(board, c, fence) and c not in neighbours(board, pawn(me), fence)
    touched += 1
  }
  action build(w in empty_cells(fence)) "{w}" {
    put me at w on fence
    marks[w] += 1 + touched % 2
  }
}
end when turns >= 40 then draw
'''


def _keys(source: str) -> str:
    """The native engine's keyed move generator of the first step."""
    start = source.index("cdef Py_ssize_t _keys_0")
    return source[start:source.index("\n    # line", start + 1)]


def test_a_loop_and_a_test_over_walls_of_pieces_are_c_walks_natively_and_walls_of_numbers_the_kernel():
    native, python = native_source(MAZE, "maze.rules"), engine_source(MAZE, "maze.rules")
    keys = _keys(native)
    assert "_walled_at(len(_v_G_board__ADJ), 4, " in keys and "_open_wall(_p_G_fence__SLOTS, g_fence, " in keys
    assert keys.count("_open_next_to(_p_G_board__ADJ, len(_v_G_board__ADJ), 4, _p_G_fence__SLOTS, g_fence, ") == 3
    # the walls of numbers (a list of them in Python, an array natively) keep the kernel's list
    assert keys.count("open_neighbours(") == 1 and "_CK.open_neighbours(_t_G_board__ADJ, 4, _t_G_marks__SLOTS, " in keys
    assert "_walled_at(len(" not in python and "_open_next_to(_p_" not in python and "K.open_neighbours(" in python


def test_the_pass_takes_only_loops_of_one_name_over_walls_of_pieces():
    from regle.compiler.ir import nodes as N
    from regle.compiler.ir import types as T
    from regle.compiler.write.moves import Scan, WalledScan
    grid = T.Type("grid", elem=T.Type("player"))
    numbers = T.Type("grid", elem=T.INT)
    adj, places = N.Table(T.ANY, 0, "G_board__ADJ"), N.Table(T.ANY, 0, "G_fence__SLOTS")
    cell = N.Local(T.INT, 0, "c_")

    def helper(walls):
        return N.Helper(T.ANY, 0, "K.open_neighbours", (adj, 4, places, walls, cell))
    pieces, counted = helper(N.Field(grid, 0, "g_fence")), helper(N.Field(numbers, 0, "g_marks"))
    assert walled(pieces) and not walled(counted) and not walled(N.Helper(T.ANY, 0, "K.neighbours", ()))
    inner = Scan(1, "t_", pieces, body=())
    block, made = walk_walled((Scan(1, "c_", counted, body=(inner,)), Scan(2, "a_, b_", pieces, body=())))
    assert made == ["_wall0", "_wall1"]
    outer, pair = block
    assert type(outer) is Scan and type(pair) is Scan  # walls of numbers, two names: left as they were
    assert outer.body == (WalledScan(1, "t_", pieces, "_wall0", "_wall1", body=()),)


@pytest.mark.parametrize("seed", range(6))
def test_the_engines_list_the_same_moves_at_every_decision(seed):
    """Random games through the walls, with the same ids and notations on both engines at
    every decision (the walls of pieces decide which neighbours are open: a walk that did not
    read them, or read the wrong place, lists other moves)."""
    python = regle.loads(MAZE, "maze.rules", backend="python")
    native = regle.loads(MAZE, "maze.rules", backend="native")
    a, b = python.new_game(seed=seed), native.new_game(seed=seed)
    rng = random.Random(seed)
    while not a.over:
        ids = a.legal_action_ids()
        assert ids == b.legal_action_ids()
        assert [str(m) for m in a.legal_moves()] == [str(m) for m in b.legal_moves()]
        pick = rng.choice(ids)
        a.advance_id(pick)
        b.advance_id(pick)
    assert a.to_json() == b.to_json() and b.over
    assert any(a.g_fence) and any(a.g_marks)  # walls stood, of both kinds


def test_a_walk_from_no_cell_says_so_on_both_engines():
    broken = MAZE.replace('put 0 at "a1" on board', "")  # the first seat has no pawn to walk from
    said = []
    for backend in ("python", "native"):
        game = regle.loads(broken, "maze.rules", backend=backend)
        with pytest.raises(regle.RulesRuntimeError, match=r"there is no cell here \(none\) to look around") as caught:
            game.new_game(seed=1).legal_action_ids()
        said.append(str(caught.value))
    assert said[0] == said[1] and "maze.rules>:14:" in said[0], said  # the loop's line
