"""What the lowering learns from its own records rather than from the code it wrote: a define
written in place only when no argument would be computed twice, the reads of the state taken
once, the value a step's condition shares with its moves, counted lets, and move generators
written from statement nodes (compiler/write/moves.py)."""
from __future__ import annotations

import pytest

import regle
from regle.compiler.generate import engine_source, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.write.emit import PythonWriter
from regle.compiler.write.emit_native import CythonWriter
from regle.compiler.write.keyed import keyed_moves
from regle.compiler.write.moves import AddMove, Guard, KernelMoves, MovesBound, move_lines, nest

DICE = '''
game "Dice" { players 2 }
counter total per player
define twice(a) = a + a
turn {
  step roll {
    action roll "roll" { total[me] += twice(random(6)) }
  }
}
end when turns >= 40
score p { total: total[p] }
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_define_is_not_written_in_place_when_an_argument_would_be_drawn_twice(backend):
    """`twice(random(6))` draws once: were the body written in place as `random(6) +
    random(6)`, odd totals would appear."""
    game = regle.loads(DICE, name="dice", backend=backend)
    for seed in range(5):
        state = game.new_game(seed=seed)
        while not state.is_over:
            state.play("roll")
            assert all(t % 2 == 0 for t in state.to_json()["counters"]["total"])


def _method(source: str, head: str) -> str:
    """The text of the method of ``source`` that starts with ``head``."""
    start = source.index(head)
    end = source.find("\n\n", start)
    return source[start:end]


HAND = '''
game "Hand" { players 2 }
zone pool: int = [1, 2, 3, 4, 5, 6]
zone hand: int per player
grid board: player square 3 by 3
turn {
  step pick {
    action take(v in pool) "take {v}" {
      require count(hand[me]) < 3
      move v from pool to hand[me]
    }
    action give(v in hand[me]) "give {v}" {
      require count(hand[me]) > 1
      move v from hand[me] to pool
    }
    action mark(c in cells(board)) "mark {c}" {
      require turns > 100
      put me at c on board
    }
  }
}
end when turns >= 10
'''


def test_reads_of_the_state_written_twice_are_taken_once_and_others_are_not():
    source = engine_source(HAND, "hand.rules", "hand")
    moves = _method(source, "def _moves_0(s")
    assert "z_hand__me = s.z_hand[me]  # read once" in moves
    assert "n_z_hand__me = len(z_hand__me)  # taken once" in moves
    assert "z_pool = " not in moves  # read once only
    assert "g_board" not in moves  # cells(board) needs the board's size, not its cells
    assert "s.z_hand[me]" not in moves.replace("z_hand__me = s.z_hand[me]", "")


def test_a_value_the_condition_and_the_moves_both_compute_is_computed_once():
    shared = '''
game "Shared" { players 2 }
enum colour { red, blue, white }
grid board: colour square 3 by 3
turn {
  repeat step pop while count(groups(board, 2, white)) > 0 {
    action pop(g in groups(board, 2, white)) "{g}" { clear g on board }
  }
  step place {
    action place(c in empty_cells(board)) "{c}" { put red at c on board }
  }
}
end when turns >= 12 or count(empty_cells(board)) == 0
'''
    source = engine_source(shared, "shared.rules", "shared")
    groups = "ops.group_keys(K.connected_groups(s.g_board, G_board__ADJ, 4, 3, 2, 1), 3)"  # (white is 2, its code 3)
    assert f"_shared = {groups}  # the condition's and the moves' (computed once)" in source
    assert "if len(_shared) > 0:" in source and "return K.tagged(0, _shared)" in source
    assert source.count(groups) == 2  # by the turn machine, and by the moves of a loaded state
    # a count of empty cells is counted in the grid's bytes: no list to share
    assert "_shared" not in engine_source(shared.replace("count(groups(board, 2, white)) > 0",
                                                         "count(empty_cells(board)) > 4"), "e.rules", "e")
    # a condition that may skip a part of itself computes nothing ahead of it
    skipping = shared.replace("while count(groups", "while turns < 3 and count(groups")
    assert "_shared" not in engine_source(skipping, "skipping.rules", "skipping")
    states = [regle.loads(shared, name="shared", backend=b).new_game(seed=5) for b in ("python", "native")]
    for state in states:
        state.play_random_playout(11)
    assert states[0].to_json() == states[1].to_json()


def test_a_let_of_flanked_cells_the_guards_only_count_is_the_count():
    flips = '''
game "Flips" { players 2 }
grid board: player square 4 by 4 with diagonals
setup { put 0 at "b2" on board
  put 1 at "c2" on board }
turn {
  step place {
    action place(c in empty_cells(board)) "{c}" {
      let turned = flanked(board, c, me)
      require count(turned) > 0
      put me at c on board
      for d in turned { put me at d on board }
    }
  }
}
end when turns >= 6
'''
    for source in (engine_source(flips, "flips.rules", "flips"), native_source(flips, "flips.rules", "flips")):
        moves = _method(source, "_moves_0(s")
        assert "turned_ = " in moves and "flanked_count(" in moves and "len(turned_)" not in moves
        effects = source[source.index("effects of action place"):]
        assert "flanked(" in effects.split("\n\n")[0]  # the effects still have the cells
    # counted through another let, too; and both engines play it alike
    through = flips.replace("require count(turned) > 0", "let n = count(turned)\n      require n > 0")
    assert "flanked_count(" in _method(engine_source(through, "t.rules", "t"), "_moves_0(s")
    for text in (flips, through):
        states = [regle.loads(text, name="flips", backend=b).new_game(seed=3) for b in ("python", "native")]
        for state in states:
            state.play_random_playout(3)
        assert states[0].to_json() == states[1].to_json()


def test_move_generators_are_statement_nodes_each_engine_writes():
    pool = N.Field(T.zone_of(T.INT), 0, "z_pool")
    take = (S.Comment(3, "# line 3: action take(v in pool)"),
            KernelMoves(3, "K.tagged", (N.Const(T.INT, 0, 0), pool)))
    python, native = PythonWriter(), CythonWriter()
    assert move_lines(take, python) == ["# line 3: action take(v in pool)", "return K.tagged(0, s.z_pool)"]
    assert move_lines(take, native) == ["# line 3: action take(v in pool)", "return _CK.tagged(0, s.z_pool)"]
    keyed = keyed_moves(take, [], "decision", False, native)
    assert keyed == {"tag": "0", "lines": ["# line 3: action take(v in pool)",
                                           "return _CK.keys_into(s.z_pool, &s._keys, &s._keys_cap)"]}
    # a guard opens: what follows it in the generator's order is inside it
    late = N.binary(">", N.Field(T.INT, 0, "turns"), N.Const(T.INT, 0, 1), T.BOOL)
    guarded = nest([Guard(2, late), AddMove(2, 1, (N.Const(T.INT, 0, 2),))]) + take
    assert isinstance(guarded[0], Guard) and len(guarded) == 3
    lines = move_lines(guarded, python)
    assert lines[:3] == ["out = []", "_add = out.append", "_extend = out.extend"] and lines[-1] == "return out"
    assert lines[3:5] == ["if s.turns > 1:", "    _add((1, 2))"]
    assert "out.append(_CK.pair(1, 2))" in " ".join(move_lines(guarded, native))
    packed = keyed_moves(guarded, [], "decision", False, native)["lines"]
    assert "    _push(s, 1, 2, 0)" in packed and "_push_tagged(s, 0, s.z_pool, False)" in packed
    assert packed[-1] == "return -2 if s._keys_wide else s._nkeys"
    # a step that reads its own list as it makes it keeps the list; so do optional steps
    checked = guarded + (MovesBound(4, 9, "take"),)
    assert "if len(out) > 9: _ops_too_many_moves(RULES_FILE, 4, 'take', 9)" in move_lines(checked, native)
    assert keyed_moves(checked, [], "decision", False, native) is None
    assert keyed_moves(guarded, [], "optional", False, native) is None


CROSSING = '''
game "Crossing" {
  players 2
  max decisions 60
}
enum side { south, west, north, east }
grid board: player square 5 by 5 edges side
turn {
  step place {
    action place(c in empty_cells(board)) "{c}" {
      put me at c on board
    }
    /// a stone taken back now and then: what joined the sides may be cut again
    action lift(c in filled_cells(board)) "x{c}" {
      require turns % 5 == 4
      clear c on board
    }
  }
}
end when connected(board, 0, south, north) then winner 0
end when connected(board, 1, west, east) then winner 1
'''


@pytest.mark.parametrize("memo", [True, False])
def test_an_end_condition_between_fixed_sides_remembers_what_it_reached(memo):
    """connected() in an end condition between sides named by their members keeps a memo
    natively (connected_since: only the cells that gained stones are flooded from); between
    sides that can change (here a conditional) it searches the whole board. Both engines play
    alike, stones lifted included."""
    text = CROSSING if memo else CROSSING.replace(
        "connected(board, 0, south, north)", "connected(board, 0, if turns > 100 then west else south, north)").replace(
        "connected(board, 1, west, east)", "connected(board, 1, west, if turns > 100 then north else east)")
    native = native_source(text, "c.rules", "c")
    assert ("connected_since(" in native) is memo
    assert "connected_since(" not in engine_source(text, "c.rules", "c")
    for seed in range(12):
        states = [regle.loads(text, name="crossing", backend=b).new_game(seed=seed) for b in ("python", "native")]
        for state in states:
            state.play_random_playout(seed)
        assert states[0].to_json() == states[1].to_json()
        assert states[0].winners == states[1].winners


STEPS = '''
game "Steps" { players 2 }
grid board: player square 5 by 4
setup { put 0 at cell(board, 0, 0) on board  put 1 at cell(board, 4, 3) on board }
turn {
  action step(c in filled_cells(board, me), dx in -1..1, dy in -1..1) "{c}{dx}{dy}" {
    require cell(board, column(board, c) + dx, row(board, c) + dy) != none
    require is_empty(board, cell(board, column(board, c) + dx, row(board, c) + dy))
    put me at cell(board, column(board, c) + dx, row(board, c) + dy) on board
  }
}
end when turns >= 12
'''


def test_a_cell_by_its_column_and_row_is_found_with_the_board_size_as_numbers_natively():
    """cell(G, x, y) natively passes its board's width and height to the C helper as numbers,
    not as the module's Python constants (a dictionary lookup and a conversion per call, in
    every move generator that steps by columns and rows); the Python engine keeps the names.
    Off the board is none on both, and both play alike."""
    native, python = native_source(STEPS, "s.rules", "s"), engine_source(STEPS, "s.rules", "s")
    assert "5, 4, 0)" in native and "G_board__WIDTH, G_board__HEIGHT, 0)" not in native
    assert "G_board__WIDTH, G_board__HEIGHT, 0)" in python
    for seed in range(8):
        states = [regle.loads(STEPS, name="steps", backend=b).new_game(seed=seed) for b in ("python", "native")]
        for state in states:
            state.play_random_playout(seed)
        assert states[0].to_json() == states[1].to_json()
