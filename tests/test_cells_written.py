"""compiler/passes/cells_written.py: natively, every write of the board an end condition's line
search reads is noted in the state's journal, and the search looks only at the cells noted
since it last failed. The notes in the trees, the grids it leaves alone, and games whose moves
write the board every way the language has (put, clear, move, drop, kernels, loops, setup,
trials, a piece given to the other seat, play's rollback, copies and saved states) played
alike by the Python engine, which keeps no journal, and the native one."""
from __future__ import annotations

import random

import attrs
import pytest

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import lower
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.passes import optimize
from regle.compiler.passes.cells_written import journal_writes, journaled_grid

#: drops, and pops that empty a lane's foot and let the lane fall (a kernel: the journal cannot
#: tell then); a line of the other seat can appear on my pop
POPS = """
game "Pop lanes" {
  players 2
  max decisions 300
}

grid board: player lanes 9 height 8 with diagonals

turn {
  action drop(column in lanes(board)) "{column}" {
    require lane_count(board, column) < 8
    drop me into board lane column
  }
  action pop(column in lanes(board)) "pop {column}" {
    require board[cell(board, column, 0)] == me
    clear cell(board, column, 0) on board
    settle board
  }
}

end when in_a_row(board, me, 4) then winner me
end when in_a_row(board, 1 - me, 4) then winner 1 - me
end when count(empty_cells(board)) == 0
"""

#: put, move, a piece put for the other seat (its line is seen on its own next turn: the
#: journal looks back further than one move), a trial with ensure, and a setup of many cells
FIVES = """
game "Fives" {
  players 2
  max decisions 160
}

grid board: player square 9 by 9 with diagonals

setup {
  for c in cells(board) where row(board, c) == 4 and column(board, c) % 4 == 0 {
    put 0 at c on board
  }
}

turn {
  action place(c in empty_cells(board)) "{c}" {
    put me at c on board
  }
  action jump(c in filled_cells(board, me), t in neighbours(board, c)) "{c}-{t}" {
    require not is_empty(board, t) and board[t] != me
    move c to t on board
    ensure count(filled_cells(board, me)) > 1
  }
  action gift(c in empty_cells(board)) "+{c}" {
    require count(filled_cells(board, me)) > 8
    put 1 - me at c on board
  }
}

end when in_a_row(board, me, 5) then winner me
end when count(empty_cells(board)) < 3
"""

#: a quarter turn of a block (a kernel given the board) after each stone, on 81 cells
TURNS = """
game "Turns" {
  players 2
  max decisions 81
}

grid board: player square 9 by 9 with diagonals

turn {
  action place(c in empty_cells(board), q in 0..1) "{c}/{q}" {
    put me at c on board
    rotate board at cell(board, 3 * q, 3 * q) size 3 by 1
  }
}

end when in_a_row(board, me, 5) then winner me
end when in_a_row(board, 1 - me, 5) then winner 1 - me
end when count(empty_cells(board)) == 0
"""

#: setup writing more cells than the journal holds (every cell of two rows), then stones
MANY = FIVES.replace("row(board, c) == 4 and column(board, c) % 4 == 0", "row(board, c) < 2").replace(
    "put 0 at c on board", "put (column(board, c) + row(board, c)) % 2 at c on board")


def _written(text: str):
    return journal_writes(attrs.evolve(optimize(lower(text, "t.rules")), native_lowered=True))


def _notes(value) -> list:
    """Every note in a block, its nested blocks included (an if's branches, a loop's body)."""
    if isinstance(value, S.Wrote):
        return [value]
    if isinstance(value, (tuple, list)):
        return [w for part in value for w in _notes(part)]
    if isinstance(value, S.Stmt):
        return [w for f in attrs.fields(type(value)) for w in _notes(getattr(value, f.name))]
    return []


def test_the_board_of_a_remembered_line_search_is_journaled():
    assert journaled_grid(optimize(lower(POPS, "t.rules"))) == "g_board"
    small = POPS.replace("lanes 9 height 8", "lanes 7 height 6")  # 42 cells: its lines as bits, no memo
    assert journaled_grid(optimize(lower(small, "t.rules"))) is None
    ir = _written(small)
    assert ir.journal is None and not any(_notes(a.do_lines) for a in ir.actions)
    ir = optimize(lower(POPS, "t.rules"))
    for change in ({"per": "player"}, {"hidden": True}, {"private": True}, {"per_turn": True}, {"per_step": True},
                   {"numbers": True}):  # not one board for everyone, kept all game, of elements
        assert journaled_grid(attrs.evolve(ir, grids=[attrs.evolve(g, **change) for g in ir.grids])) is None, change


def test_each_write_is_noted_as_it_is():
    ir = _written(POPS)
    assert ir.journal == "g_board"
    drop, pop = (_notes(a.do_lines) for a in ir.actions)
    assert len(drop) == 1 and drop[0].landed and isinstance(drop[0].cell, N.Helper) \
        and drop[0].cell.name == "ops.drop_into"  # the drop gives the cell it landed in
    assert [w.cell is None for w in pop] == [False, True]  # the cell cleared, then "anywhere" after settle
    ends = [cond for _, cond, *_ in ir.end_winners]
    runs = [n for tree in ends for n in _walk(tree) if isinstance(n, N.Runs)]
    assert runs and all(r.journal for r in runs)
    fives = _written(FIVES)
    place, jump, gift = (_notes(a.do_lines) for a in fives.actions)
    assert [type(w.cell).__name__ for w in place] == ["Local"]
    assert len(jump) == 2 and all(isinstance(w.cell, N.Local) for w in jump)  # both cells of the move
    assert len(gift) == 1
    assert _notes(fives.setup_lines), "the setup's writes are noted too"
    assert fives.actions[1].ensure_lines and not _notes(fives.actions[1].ensure_lines), \
        "an ensure's trial puts back what it writes: not noted"
    turns = _written(TURNS)
    assert [w.cell is None for w in _notes(turns.actions[0].do_lines)] == [False, True]  # a kernel given the board


def _walk(tree):
    from regle.compiler.ir.traverse import walk
    return walk(tree)


def test_only_what_may_write_the_board_stops_the_journal():
    """Natively, "anywhere" is noted once in the pop game (after `settle`): not in its move
    generator, whose guards read the board through a kernel (`lane_count`), nor anywhere else."""
    from regle.compiler.generate import native_source
    source = native_source(POPS, "t.rules")
    assert source.count("s._jseq += 17  #") == 1
    assert source.index("s._jseq += 17  #") > source.index("K.settle" if "K.settle" in source else "settle(")
    assert native_source(FIVES, "t.rules").count("s._jseq += 17  #") == 0  # puts, moves, a trial: each cell noted


def test_the_python_engine_keeps_no_journal():
    from regle.compiler.generate import engine_source
    python_source = engine_source(POPS, "t.rules")
    assert "_jot" not in python_source and "_lines_since" not in python_source


@pytest.mark.parametrize("name,text", [("pops", POPS), ("fives", FIVES), ("turns", TURNS), ("many", MANY)])
def test_games_play_alike_with_the_journal(name, text):
    """The native engine (journal) against the Python engine (none): the legal moves and ids
    at every node, the winners, and random playouts to the same final state."""
    if not native.available():
        pytest.skip(native.unavailable_reason())
    python = regle.loads(text, name=f"journal_{name}")
    compiled = regle.loads(text, name=f"journal_{name}", backend="native")
    nodes, decided = play_alike(python, compiled, 12, ids=True)
    assert nodes > 150 and decided > 0
    for seed in range(60):
        a = python.new_game(None, seed=seed).play_random_playout(seed)
        b = compiled.new_game(None, seed=seed).play_random_playout(seed)
        assert a.to_json() == b.to_json(), seed


#: a move that writes a cell, then fails (a lane full with nowhere for the overflow to go)
STUFF = POPS.replace("""  action pop(""", """  action stuff(column in lanes(board)) "stuff {column}" {
    require lane_count(board, column) == 7
    drop me into board lane column
    drop me into board lane column
  }
  action pop(""")


def test_rollbacks_copies_and_saved_states_drop_the_journal():
    """Moves that fail half-way (play takes the state back), states copied and played on
    separately, a state saved and loaded mid-game: every line is still found where the Python
    engine finds it."""
    if not native.available():
        pytest.skip(native.unavailable_reason())
    python = regle.loads(STUFF, name="journal_stuff")
    compiled = regle.loads(STUFF, name="journal_stuff", backend="native")
    failed = copied = 0
    for seed in range(30):
        rng = random.Random(seed)
        a, b = python.new_game(None, seed=seed), compiled.new_game(None, seed=seed)
        while not a.over:
            legal = [str(m) for m in a.legal_moves()]
            assert [str(m) for m in b.legal_moves()] == legal
            for bad in [m for m in legal if m.startswith("stuff")][:1]:  # refused half-way, taken back
                before = b.to_json()
                with pytest.raises(regle.RulesRuntimeError):
                    a.play(bad)
                with pytest.raises(regle.RulesRuntimeError):
                    b.play(bad)
                assert b.to_json() == before
                failed += 1
            r = rng.random()
            if r < 0.1:
                b, copied = b.copy(), copied + 1  # the copy plays on
            elif r < 0.15:
                b = compiled.state_from_json(b.to_json())
            move = rng.choice([m for m in legal if not m.startswith("stuff")])
            a.play(move)
            b.play(move)
        assert b.over and a.winners == b.winners, seed
    assert failed > 10 and copied > 10


def test_a_board_replaced_from_outside_is_read_whole():
    """A state's board replaced by another object (as play's rollback does): the journal no
    longer follows it, and the next search reads the whole board."""
    if not native.available():
        pytest.skip(native.unavailable_reason())
    python = regle.loads(FIVES, name="journal_fives")
    compiled = regle.loads(FIVES, name="journal_fives", backend="native")
    for seed in range(6):
        rng = random.Random(seed)
        a, b = python.new_game(None, seed=seed), compiled.new_game(None, seed=seed)
        for _ in range(6):
            move = str(rng.choice(a.legal_moves()))
            a.play(move)
            b.play(move)
        mover = a.current_player
        for state in (a, b):
            board = bytearray(state.g_board)
            for x in range(5):  # five of the mover's in the top row: there before the move
                board[8 * 9 + x] = mover + 1
            state.g_board = board
        move = str(next(m for m in a.legal_moves() if str(m).startswith("+") is False))
        a.play(move)
        b.play(move)
        assert a.over and b.over and a.winners == b.winners == [mover], seed
