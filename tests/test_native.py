"""The native backend against the Python engine: every game file in games/ played move by move
in both must give the same legal moves, notations, states (to_json) and results.

Native engines are built once per rules text (a few seconds each, two at a time here) and
cached in the test session's cache directory.
"""
from __future__ import annotations

import pickle
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import regle
from regle import native

from test_language import STEPS

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "games").rglob("*.rules"))

pytestmark = pytest.mark.skipif(not native.available(), reason=f"no native engines here: {native.unavailable_reason()}")


@pytest.fixture(scope="module")
def engines():
    """(python game, native game) of every game file, the native ones built two at a time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        natives = dict(zip(GAME_FILES, pool.map(lambda f: regle.load(ROOT / f, backend="native"), GAME_FILES)))
    return {f: (regle.load(ROOT / f, backend="python"), natives[f]) for f in GAME_FILES}


def test_every_game_file_is_covered():
    assert len(GAME_FILES) >= 18 and "games/pixies.rules" in GAME_FILES and "games/classics/hex.rules" in GAME_FILES


@pytest.mark.parametrize("path", GAME_FILES)
def test_both_backends_play_the_same_games(engines, path):
    python, compiled = engines[path]
    assert python.backend == "python" and compiled.backend == "native"
    assert compiled.State.NATIVE and not hasattr(python.State, "NATIVE")
    counts = sorted({python.players.start, python.players.stop - 1})
    for n in counts:
        for seed in range(4):
            a, b = python.new_game(n, seed=seed), compiled.new_game(n, seed=seed)
            rng = random.Random(seed)
            while True:
                assert a.to_json() == b.to_json()
                assert [str(m) for m in a.legal_moves()] == [str(m) for m in b.legal_moves()]
                assert a.scores == b.scores
                assert (a.current_player, a.is_over, a.players) == (b.current_player, b.is_over, b.players)
                if a.is_over:
                    break
                k = rng.randrange(len(a.legal))
                if rng.random() < 0.5:
                    a.play(a.legal_moves()[k])
                    b.play(b.legal_moves()[k])
                else:  # the fast path
                    a.advance(a.legal[k])
                    b.advance(b.legal[k])
            assert b.is_over and a.winners == b.winners and a.decisions == b.decisions


@pytest.mark.parametrize("path", GAME_FILES)
def test_observations_and_masks_made_in_c_are_the_python_engines(engines, path):
    """A native engine makes ``observation`` float32 and ``action_mask`` int8 in C: the same
    numbers as the Python engine's, for every seat, along random games; arrays of their own
    (writing one changes no other)."""
    import numpy as np
    python, compiled = engines[path]
    n = python.players.start
    for seed in range(2):
        a, b = python.new_game(n, seed=seed), compiled.new_game(n, seed=seed)
        rng = random.Random(seed)
        while True:
            for p in [None, *range(n)]:
                theirs, ours = a.observation(p), b.observation(p)
                assert ours.dtype == np.float32 and ours.tolist() == theirs.tolist()
            mask = b.action_mask()
            assert mask.dtype == np.int8 and mask.tolist() == a.action_mask().tolist()
            assert np.flatnonzero(mask).tolist() == sorted(b.legal_action_ids())
            mask[:] = 7
            assert b.action_mask().tolist() == a.action_mask().tolist()  # a new array each time
            if a.is_over:
                break
            k = rng.randrange(len(a.legal))
            a.advance(a.legal[k])
            b.advance(b.legal[k])


@pytest.mark.parametrize("path", ["games/classics/connect4.rules", "games/pixies.rules", "games/eclats.rules",
                                  "games/classics/chess.rules"])
def test_play_reads_any_tuple_as_the_python_engine_does(engines, path):
    """play() reads a move tuple's numbers in C to find its key: any tuple (a legal move with
    one number changed to another, a truth value, a float, a number too large for C, or one
    more or fewer) is played or refused as by the Python engine, which compares tuples."""
    from hypothesis import given, settings, strategies as st
    python, compiled = engines[path]
    a, b = python.new_game(seed=2), compiled.new_game(seed=2)
    for k in range(3):
        a.advance(a.legal[k % len(a.legal)])
        b.advance(b.legal[k % len(b.legal)])
    odd = st.one_of(st.integers(), st.integers(-3, 70), st.sampled_from([True, False, 1.0, 2 ** 63, -2 ** 40, None]))

    @settings(max_examples=150, deadline=None)
    @given(st.integers(0, len(a.legal) - 1), st.integers(0, 4), odd, st.sampled_from(["change", "add", "drop"]))
    def agree(k, where, value, how):
        move = list(a.legal[k])
        if how == "change":
            move[where % len(move)] = value
        elif how == "add":
            move.append(value)
        else:
            move.pop()
        move = tuple(move)
        outcome = []
        for state in (a.copy(), b.copy()):
            try:
                state.play(move)
                outcome.append(state.to_json())
            except regle.IllegalMove:
                outcome.append("refused")
        assert outcome[0] == outcome[1], move

    agree()


@pytest.mark.parametrize("path", GAME_FILES)
def test_random_playouts_are_the_same_and_saved_states_cross_backends(engines, path):
    python, compiled = engines[path]
    n = python.players.start
    for seed in range(6):
        a = python.new_game(n, seed=seed).play_random_playout(seed)
        b = compiled.new_game(n, seed=seed).play_random_playout(seed)
        assert a.to_json() == b.to_json() and a.winners == b.winners
    a, b = python.new_game(n, seed=1).play_random_playout(2, 5), compiled.new_game(n, seed=1).play_random_playout(2, 5)
    assert a.to_json() == b.to_json() and (a.decisions == 5 or a.is_over)
    # stopped halfway: the moves kept as keys (a keyed step) read as the same list, in a copy too
    c = b.copy()
    assert b.legal == a.legal and c.legal == a.legal and [str(m) for m in c.legal_moves()] == [
        str(m) for m in a.legal_moves()]
    assert a.play_random_playout(7).to_json() == b.play_random_playout(7).to_json() == c.play_random_playout(7).to_json()
    from regle.runtime.rng import Rng
    ra, rb = [Rng(p) for p in range(n)], [Rng(p) for p in range(n)]
    a, b = python.new_game(n, seed=2).play_random_seats(ra), compiled.new_game(n, seed=2).play_random_seats(rb)
    assert a.to_json() == b.to_json() and [r.state for r in ra] == [r.state for r in rb]
    start = python.new_game(n, seed=9)
    for _ in range(5):
        if not start.is_over:
            start.advance(start.legal[0])
    loaded = compiled.state_from_json(start.to_json())
    assert type(loaded) is compiled.State and loaded.to_json() == start.to_json()
    assert loaded.copy().play_random_playout(3).to_json() == start.copy().play_random_playout(3).to_json()
    again = pickle.loads(pickle.dumps(loaded))
    assert again.GAME is compiled and again.to_json() == loaded.to_json()


def test_a_rules_error_in_a_native_engine_names_its_rules_line():
    text = STEPS.replace("action drop(v in hand[me]) { move v from hand[me] to bag }",
                         "action drop(v in hand[me]) { move 99 from hand[me] to bag }")
    game = regle.loads(text, name="buggy", filename="buggy.rules", backend="native")
    assert game.backend == "native"
    s = game.new_game(seed=0)
    for m in ("take 8", "skip boost", "take 1", "skip boost", "take 2", "skip boost"):
        s.play(m)
    before = s.to_json()
    with pytest.raises(regle.RulesRuntimeError, match=r"buggy.rules:10: error while playing"):
        s.play(s.legal_moves()[0])
    assert s.to_json() == before  # play() leaves the state as it was
    with pytest.raises(regle.IllegalMove):
        s.play("take 99")


def test_the_decision_bound_holds_natively():
    text = (ROOT / "games/classics/tictactoe.rules").read_text(encoding="utf-8")
    assert "max decisions 9" in text
    compiled = regle.loads(text.replace("max decisions 9", "max decisions 3"), name="short", backend="native")
    assert compiled.State.MAX_DECISIONS == 3  # compiled in as a constant
    s = compiled.new_game(2, seed=0)
    with pytest.raises(regle.RulesRuntimeError, match="has not ended after 3 decisions"):
        s.play_random_playout(0)


def test_backends_are_chosen_and_cached(engines, monkeypatch):
    _python, compiled = engines["games/classics/connect4.rules"]
    assert regle.load(ROOT / "games/classics/connect4.rules", backend="native") is compiled
    assert regle.load(ROOT / "games/classics/connect4.rules", backend="auto") is compiled  # a compiler is here
    monkeypatch.setenv("REGLE_BACKEND", "native")
    assert regle.load(ROOT / "games/classics/connect4.rules") is compiled
    with pytest.raises(ValueError, match="backend 'fast'"):
        regle.load(ROOT / "games/classics/connect4.rules", backend="fast")
    monkeypatch.setattr(native, "unavailable_reason", lambda: "no C compiler was found")
    assert regle.load(ROOT / "games/classics/connect4.rules", backend="auto").backend == "python"


def test_the_native_source_is_the_same_engine_typed():
    from regle.compiler.generate import engine_source, native_source
    text = (ROOT / "games/classics/tictactoe.rules").read_text()
    py, pyx = engine_source(text, "t.rules"), native_source(text, "t.rules")
    assert pyx.startswith("# cython:") and "cdef class _Core(_NativeCore):" in pyx and "cdef class" not in py
    for line in py.splitlines():  # every rules-line comment of the Python engine is in the native one
        if line.strip().startswith("# line "):
            assert line.strip() in pyx


def test_steps_whose_moves_come_from_one_kernel_keep_keys():
    """A step whose moves are one action's keys (line moves, empty cells, a zone's numbers) keeps
    them in a C buffer natively; a step with other moves besides builds its list."""
    from regle.compiler.generate import native_source
    cibles = native_source((ROOT / "games/cibles.rules").read_text(), "c.rules")
    assert "_CK.line_keys_into(s.g_board, _t_G_board__ADJ, 6, me + 1, 0, &s._keys, &s._keys_cap)" in cibles
    tictactoe = native_source((ROOT / "games/classics/tictactoe.rules").read_text(), "t.rules")
    assert "_CK.cells_keys_into(s.g_board, False, &s._keys, &s._keys_cap)" in tictactoe  # no list made
    for path in ("games/classics/hex.rules", "games/eclats.rules"):  # several actions: packed keys
        source = native_source((ROOT / path).read_text(), "x.rules")
        assert "_keys_into" not in source and "s._keys_tag = -1" in source and "_push(s, " in source


PACKED = """game "packed" {
  players 2
}
param big = [BIG, 3, -2]
counter total
zone left: int
zone right: int
setup {
  add 2 to left
  add BIG to left
  add 2 to left
  add 1 to right
  add 3 to right
  add 1 to right
}
turn {
  step s {
    action one(k in big) "one {k}" {
      total += k
    }
    action two(a in 0..1, b in big) "two {a} {b}" {
      total += a + b
    }
    action pick(x in left, y in right) "pick {x} {y}" {
      total += x - y
    }
    pass "pass"
  }
}
end when turns >= 6
"""


@pytest.mark.parametrize("big", [7, 2**26 - 1, -(2**26), 2**26, 10**12])
def test_packed_keys_give_the_same_moves(big):
    """Moves of one or two numbers are packed into C keys (27 bits an argument); a step with a
    move whose number does not fit uses its list, with the same moves and the same game."""
    text = PACKED.replace("BIG", str(big))
    python = regle.loads(text, name="packed", backend="python")
    compiled = regle.loads(text, name="packed", backend="native")
    for seed in range(3):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        while not a.is_over:
            assert b.legal == a.legal and [m for m in b.legal_moves()] == [m for m in a.legal_moves()]
            a.advance(a.legal[seed % len(a.legal)])
            b.advance(b.legal[seed % len(b.legal)])
            assert a.to_json() == b.to_json()
        assert (compiled.new_game(seed=seed).play_random_playout(seed).to_json()
                == python.new_game(seed=seed).play_random_playout(seed).to_json())


CELLS = """game "cells" {
  players 2
}
grid board: player square 3 by 3
turn {
  step s {
    action put(c in empty_cells(board)) "put {c}" {
      put me at c on board
    }
    action take(c in filled_cells(board)) "take {c}" {
      clear c on board
    }
  }
}
end when turns >= 14
"""


LISTED = """game "Listed" { players 2 }
grid board: player square 3 by 3
counter picked = 0
counter spot: cell of board
turn {
  action pick(k in 0..9) "{k}" {
    require k != 4 or picked % 2 == 0
    picked += [7, -1, 30, 2][k - 5]
    spot = cells(board, "a1", "c3", "b2")[k % 3]
    put me at spot on board
  }
}
end when turns >= 6
"""


def test_a_short_list_of_numbers_written_out_and_indexed_is_picked_in_c_as_python_indexes_it():
    """``[7, -1, 30, 2][k - 5]`` and ``cells(board, ...)[i]`` natively pick in C with no list
    made (``_listed``): from the end for an index below 0, IndexError past the end (k = 9),
    on both engines alike."""
    from regle.compiler.generate import native_source
    source = native_source(LISTED, "l.rules")
    assert "_listed(k_ - 5, 4, 7, -1, 30, 2, 0, 0, 0, 0)" in source and "[7, -1, 30, 2][k_" not in source
    assert "_listed(k_ % 3, 3, 0, 8, 4, 0, 0, 0, 0, 0)" in source
    python = regle.loads(LISTED, "l.rules", backend="python")
    compiled = regle.loads(LISTED, "l.rules", backend="native")
    for k in range(10):
        a, b = python.new_game(seed=k), compiled.new_game(seed=k)
        said = []
        for state in (a, b):
            try:
                state.play_id(state.legal_action_ids()[k if k < len(state.legal_action_ids()) else 0])
                said.append(state.to_json())
            except regle.RulesRuntimeError as exc:
                said.append(str(exc))
        assert said[0] == said[1], k
    for state in (python.new_game(seed=1), compiled.new_game(seed=1)):
        with pytest.raises(regle.RulesRuntimeError, match="past the end of a list"):
            state.play("9")


def test_a_for_over_a_seats_houses_is_a_counted_c_range_and_sets_up_as_the_python_engine():
    """``for h in houses(pits, p)`` (a statement: Kalah's setup) is natively a C range counted
    by the houses' number, not a Python iterator walked through ``s._loop``; the games set up
    the same."""
    from regle.compiler.generate import native_source
    text = (ROOT / "games/classics/kalah.rules").read_text(encoding="utf-8")
    source = native_source(text, "kalah.rules")
    setup = source[source.index("cdef _setup(s)"):source.index("cdef _enter(")]
    assert "s._walk(6)" in setup and "s._loop(" not in setup, setup
    for seeds in (3,):
        variant = text.replace("param seeds = 4", f"param seeds = {seeds}")
        python = regle.loads(variant, "k.rules", backend="python").new_game(seed=1)
        native = regle.loads(variant, "k.rules", backend="native").new_game(seed=1)
        assert python.to_json() == native.to_json() and python.legal_action_ids() == native.legal_action_ids()


def test_room_in_a_lane_is_seen_at_its_top_cell_and_plays_as_the_python_engine():
    """``require lane_count(board, column) < rows`` (Connect Four's) is written natively as
    ``_lane_open``, the lane's top cell read first; the engines agree at every decision."""
    from regle.compiler.generate import native_source
    text = (ROOT / "games/classics/connect4.rules").read_text(encoding="utf-8")
    assert "_lane_open(g_board, 7, 6, column_)" in native_source(text, "connect4.rules")
    python = regle.load(ROOT / "games/classics/connect4.rules", backend="python")
    compiled = regle.load(ROOT / "games/classics/connect4.rules", backend="native")
    for seed in range(20):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        while not a.is_over:
            assert a.legal_action_ids() == b.legal_action_ids()
            move = a.legal_action_ids()[seed % len(a.legal_action_ids())]
            a.advance_id(move)
            b.advance_id(move)
        assert b.is_over and a.winners == b.winners


def test_a_grids_empty_and_filled_cells_become_keys_from_its_bytes():
    from regle.compiler.generate import native_source
    source = native_source(CELLS, "c.rules")
    assert "_push_cells(s, 0, g_board, 0)" in source and "_push_cells(s, 1, g_board, 1)" in source
    python = regle.loads(CELLS, name="cells", backend="python")
    compiled = regle.loads(CELLS, name="cells", backend="native")
    for seed in range(4):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        while not a.is_over:
            assert a.legal == b.legal
            k = (seed * 7 + a.turns) % len(a.legal)
            a.advance(a.legal[k]), b.advance(b.legal[k])
            assert a.to_json() == b.to_json()
        assert (python.new_game(seed=seed).play_random_playout(seed).to_json()
                == compiled.new_game(seed=seed).play_random_playout(seed).to_json())


THREE = PACKED.replace('action one(k in big) "one {k}" {\n', 'action one(k in 0..1, j in BIG..BIG, i in -1..0) "one {k} {j} {i}" {\n'
                       '      require k + i >= -1\n')


@pytest.mark.parametrize("big", [7, 2**17 - 1, -(2**17), 2**17, 10**12])
def test_packed_keys_of_three_arguments_give_the_same_moves(big):
    """Moves of three numbers are packed into C keys too, 18 bits an argument (a chess move:
    from, direction, to); a step with a move whose number does not fit uses its list."""
    from regle.compiler.generate import native_source
    text = THREE.replace("BIG", str(big))
    assert "_push3(s, 0, k_, j_, i_)" in native_source(text, "t.rules")
    python = regle.loads(text, name="three", backend="python")
    compiled = regle.loads(text, name="three", backend="native")
    for seed in range(3):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        while not a.is_over:
            assert b.legal == a.legal and [str(m) for m in b.legal_moves()] == [str(m) for m in a.legal_moves()]
            k = (seed * 5 + a.turns) % len(a.legal)
            a.advance(a.legal[k])
            b.play(b.legal_moves()[k])
            assert a.to_json() == b.to_json()
        assert (compiled.new_game(seed=seed).play_random_playout(seed).to_json()
                == python.new_game(seed=seed).play_random_playout(seed).to_json())


def test_steps_with_four_arguments_or_truths_keep_their_list():
    from regle.compiler.generate import native_source
    four = PACKED.replace("BIG", "1").replace('action one(k in big) "one {k}"',
                                              'action one(k in big, j in big, i in big, h in big) "one {k} {j} {i} {h}"')
    assert "s._keys_tag = -1" not in native_source(four, "t.rules")
    truth = PACKED.replace("BIG", "1").replace('action one(k in big) "one {k}" {\n      total += k',
                                              'action one(k in [true, false]) "one {k}" {\n      total += 1')
    assert "'bool'" in native_source(truth, "t.rules") and "s._keys_tag = -1" not in native_source(truth, "t.rules")
    packed = native_source(PACKED.replace("BIG", "1"), "t.rules")
    assert "s._keys_tag = -1" in packed and "_push_product(s, 2, s.z_left, s.z_right, True)" in packed


def test_keyed_moves_read_as_lists(engines):
    python, compiled = engines["games/classics/tictactoe.rules"]
    a, b = python.new_game(2, seed=0), compiled.new_game(2, seed=0)
    assert b.legal == a.legal == [(0, c) for c in range(9)]
    b.advance(b.legal[4])
    a.advance((0, 4))
    assert b.legal is b.legal and b.legal == a.legal  # made once, then kept
    b.legal = [(0, 0)]  # a state's moves may be set, as saved states do
    assert b.legal == [(0, 0)]
    for seed in (-7, 2**64 + 3, 2**70, -(2**65)):  # seeds are taken modulo 2**64 alike
        assert compiled.new_game(2, seed=seed).to_json() == python.new_game(2, seed=seed).to_json()
        assert (compiled.new_game(2, seed=1).play_random_playout(seed).to_json()
                == python.new_game(2, seed=1).play_random_playout(seed).to_json())

AGGREGATES = """game "aggregates" {
  players 3
}
counter a per player
counter lowest
counter last_big
counter biggest
counter heads
counter dice
counter any_six
counter all_low
counter after
turn {
  step s {
    action go(k in 0..3) "go {k}" {
      a[me] += k
      lowest = number(argmin(a[p] for p in players))
      last_big = number(argmax(a[p] - 1 for p in players where a[p] > 4))
      biggest = max(a[p] for p in players where a[p] > 100)
      heads = count(p for p in players where random(2) == 0)
      dice = sum(random(6) for p in players)
      if any(random(6) == 5 for p in players) {
        any_six += 1
      }
      if all(a[p] < 3 for p in players) {
        all_low += 1
      }
      after = random(1000)
    }
  }
}
end when turns >= 12
"""


def test_aggregates_compute_alike_natively():
    """Natively an aggregate is a method with a loop: the same first element on ties, 0 or -1
    over nothing, and every element evaluated (the same random draws) as the Python engine."""
    python = regle.loads(AGGREGATES, name="aggregates", backend="python")
    compiled = regle.loads(AGGREGATES, name="aggregates", backend="native")
    from regle.compiler.generate import native_source
    source = native_source(AGGREGATES, "a.rules")
    assert re.search(r"cdef long _agg_\d+_argmin\(", source) and "min([" not in source
    for seed in range(12):
        a, b = python.new_game(3, seed=seed), compiled.new_game(3, seed=seed)
        rng = random.Random(seed)
        while not a.is_over:
            k = rng.randrange(len(a.legal))
            a.advance(a.legal[k])
            b.advance(b.legal[k])
            assert a.to_json() == b.to_json()
        counters = a.to_json()["counters"]
        assert counters["biggest"] == 0 and counters["lowest"] in (0, 1, 2)

MINE = """game "mine" {
  players 2
}

grid board: player square 4 by 4

setup {
  put 0 at cell(board, 0, 0) on board
  put 1 at cell(board, 3, 3) on board
}

turn {
  action grow(c in filled_cells(board, me), t in neighbours(board, c)) "{c}{t}" {
    require is_empty(board, t)
    put me at t on board
  }
  action pass "pass" {
    require not any(any(is_empty(board, t) for t in neighbours(board, c)) for c in filled_cells(board, me))
  }
}

end when any(row(board, c) == 3 - 3 * me and column(board, c) == 3 - 3 * me for c in filled_cells(board, me))
    then winner me
end when count(board, me) + count(board, 1 - me) == 16
"""


def test_the_cells_of_a_value_are_walked_in_the_grid_s_bytes_natively():
    """``filled_cells(G, v)`` on a grid of values is one byte: a move generator's loop and an
    aggregate's walk find its cells in the grid's bytes, in cell order, with no list made by
    the kernel; the same games as the Python engine."""
    from regle.compiler.generate import native_source
    source = native_source(MINE, "m.rules")
    assert "_next_in_span(" in source and "cells_holding(" not in source
    python = regle.loads(MINE, name="mine", backend="python")
    compiled = regle.loads(MINE, name="mine", backend="native")
    for seed in range(8):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        rng = random.Random(seed)
        while not a.is_over:
            assert a.legal == b.legal
            k = rng.randrange(len(a.legal))
            a.advance(a.legal[k])
            b.advance(b.legal[k])
            assert a.to_json() == b.to_json()


def test_numbered_cells_read_alike_natively():
    """Natively the cells of a numbered grid are found in a C table; a number that is not
    there still says so."""
    from test_vocabulary import HEAD, PASS_TURN
    body = "put 0 at cell(slots, 1) on slots\n      a = number(cell(slots, {n}))"
    decls = "grid slots: player square 3 by 2 numbered\ncounter a\n"
    game = regle.loads(HEAD + decls + PASS_TURN.replace("{body}", body.format(n=4)), name="numbered",
                       backend="native")
    s = game.new_game()
    s.play("go")
    assert s.c_a == 0 and s.g_slots[3] == 1
    bad = regle.loads(HEAD + decls + PASS_TURN.replace("{body}", body.format(n=7)), name="numbered7",
                      backend="native")
    with pytest.raises(regle.RulesRuntimeError, match="no cell numbered 7"):
        bad.new_game().play("go")

def test_counters_are_c_numbers_that_never_wrap_around():
    """Natively counters are C longs (per seat: a C array read as a list): an index out of range
    raises as a list's would, a negative one counts from the end, and numbers stop at the
    language's bound (1e18, within 64 bits) with the same error as in Python."""
    from test_vocabulary import HEAD, PASS_TURN
    body = "big = 1\n      for i in 1..K {\n        big = big * 2\n      }\n      per[me - 1] += 3"
    decls = "counter big\ncounter per per player\n"
    text = HEAD + decls + PASS_TURN.replace("{body}", body)
    python = regle.loads(text.replace("K", "59"), name="wide", backend="python")
    compiled = regle.loads(text.replace("K", "59"), name="wide", backend="native")
    a, b = python.new_game(), compiled.new_game()
    a.play("go"), b.play("go")
    assert a.to_json() == b.to_json() and b.c_big == 2 ** 59 and b.c_per == [0, 3]
    b.c_per = [5, 6]
    assert b.c_per == [5, 6] and b.copy().c_per == [5, 6]
    with pytest.raises(ValueError):
        b.c_per = [1, 2, 3]
    for backend in ("python", "native"):
        past = regle.loads(text.replace("K", "60"), name="past", backend=backend)
        with pytest.raises(regle.RulesRuntimeError, match=r":11: .*grew past 1e\+18"):
            past.new_game().play("go")
    outside = regle.loads(HEAD + decls + PASS_TURN.replace("{body}", "per[me + 2] += 1"), name="outside",
                          backend="native")
    with pytest.raises(regle.RulesRuntimeError, match="a position past the end of a list or zone"):
        outside.new_game().play("go")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_sum_into_a_grid_of_numbers_stops_at_the_languages_bound_exactly(backend):
    """A cell's sum is bounded in C natively (the compiled runtime's own constant, beside
    ops.MAX_NUMBER): it reaches 1e18 itself and stops one past it, as ops.number does."""
    from test_vocabulary import HEAD, PASS_TURN
    from regle.runtime import ops
    body = ("for c in cells(g) {\n        g[c] += 500000000000000000\n        g[c] += 500000000000000000\n"
            "        g[c] += STEP\n      }")
    text = HEAD + "grid g: int square 1 by 1\n" + PASS_TURN.replace("{body}", body)
    ok = regle.loads(text.replace("STEP", "0"), name="edge", backend=backend).new_game()
    ok.play("go")
    assert list(ok.g_g) == [ops.MAX_NUMBER]
    past = regle.loads(text.replace("STEP", "1"), name="past_edge", backend=backend)
    with pytest.raises(regle.RulesRuntimeError, match=r"grew past 1e\+18"):
        past.new_game().play("go")


def test_a_let_of_a_product_keeps_the_bound_on_both_backends():
    """A let holding a product is checked against the language's bound (1e18) as it is set, in
    both engines (natively the let is a C number: nothing past 64 bits could be held)."""
    from test_vocabulary import HEAD, PASS_TURN
    text = HEAD + "counter c\n" + PASS_TURN.replace("{body}", "let x = 2000000000 * K\n      c = x // 1000")
    for backend in ("python", "native"):
        fits = regle.loads(text.replace("K", "1000"), name="fits", backend=backend)
        assert fits.new_game().play("go").c_c == 2_000_000_000
        past = regle.loads(text.replace("K", "4000000000"), name="past", backend=backend)
        with pytest.raises(regle.RulesRuntimeError, match=r"grew past 1e\+18"):
            past.new_game().play("go")


@pytest.mark.parametrize("top", [2**64 - 1, 2**64 - 2, 2**64 - 5, 12345])
def test_random_draws_alike_natively_even_near_the_top(top):
    """random(n) natively is Rng.below in C: a draw above the largest multiple of n is drawn
    again, the same numbers and the same next state as the Python engine."""
    from test_kernels import _state_drawing
    from test_vocabulary import HEAD, PASS_TURN
    text = HEAD + "counter a\ncounter b\n" + PASS_TURN.replace("{body}", "a = random(3)\n      b = random(7)")
    python = regle.loads(text, name="draws", backend="python")
    compiled = regle.loads(text, name="draws", backend="native")
    a, b = python.new_game(), compiled.new_game()
    a.rng.state = b.rng.state = _state_drawing(top)
    a.play("go"), b.play("go")
    assert a.to_json() == b.to_json()


def test_counters_per_member_are_c_arrays_too():
    """A counter per member of an enum is a C array of the member count, read as a list."""
    from test_vocabulary import HEAD, PASS_TURN
    body = "votes[red] += 2\n      votes[colour(me + 1)] += 1\n      best = number(argmax(votes[c] for c in colour))"
    text = HEAD + "enum colour { red, blue, green }\ncounter votes per colour\ncounter best\n" + \
        PASS_TURN.replace("{body}", body).replace("turns >= 1", "turns >= 4")
    python = regle.loads(text, name="members", backend="python")
    compiled = regle.loads(text, name="members", backend="native")
    a, b = python.new_game(), compiled.new_game()
    while not a.is_over:
        a.play("go"), b.play("go")
        assert a.to_json() == b.to_json()
    assert b.c_votes == a.c_votes == [8, 2, 2] and len(b.copy().c_votes) == 3
    with pytest.raises(ValueError):
        b.c_votes = [1, 2]


NUMBER_GRIDS = '''game "tally" {
  players 2
  max decisions 60
}

grid tally: int square 2 by 2
grid seen: int per player square 2 by 2

turn {
  step s {
    action add(c in cells(tally)) "{c}" {
      tally[c] += 1
      put tally[c] * 10 at c on seen[me]
      if tally[c] > 2 {
        tally[c] = 0
      }
      ensure tally[c] != 2 or sum(tally[x] for x in cells(tally)) < 6
    }
  }
}

end when repeated(tally) >= 2 then draw
'''


def test_grids_of_numbers_are_arrays_of_c_numbers_natively(engines):
    """Natively a grid of numbers is an array('q') (one per seat for a grid per seat): its cells
    are read and written in C, an ensure trial puts its cells back one by one, copies and saved
    states hold their own arrays, and the positions it is part of are remembered with the same
    keys as the Python engine's lists. Both engines play every game alike."""
    python = regle.loads(NUMBER_GRIDS, name="tally", backend="python")
    compiled = regle.loads(NUMBER_GRIDS, name="tally", backend="native")
    from compiler.generate import native_source
    source = native_source(NUMBER_GRIDS, "tally.rules", "tally")
    assert "cdef public _numbers_t g_tally" in source and "_number_at(g_tally, c_)[0] = " in source
    trial = source[source.index("cdef bint _ensure_0"):]
    assert "_was0" in trial[:trial.index("\n\n")]  # the trial's cell put back, not the grid copied
    total = source[source.index("cdef long _agg_0_sum"):]  # sum(tally[x] ...): the array read once, typed
    total = total[:total.index("\n\n")]
    assert "cdef _numbers_t _g_tally" in total and "_g_tally = s.g_tally" in total and "s.g_tally" not in total.split(
        "_g_tally = s.g_tally")[1]
    rng = random.Random(3)
    for seed in range(8):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        assert type(b.g_tally).__name__ == "array" and b.g_tally.typecode == "q"
        assert [type(part).__name__ for part in b.g_seen] == ["array", "array"]
        while not a.is_over:
            assert [str(m) for m in b.legal_moves()] == [str(m) for m in a.legal_moves()]
            move = rng.choice([str(m) for m in a.legal_moves()])
            a.play(move), b.play(move)
            assert a.to_json() == b.to_json()
        assert b.is_over and a.to_json()["history"] == b.to_json()["history"]
    b = compiled.new_game(seed=1)
    b.play("a1"), b.play("a1")
    copy, saved = b.copy(), compiled.state_from_json(b.to_json())
    assert type(saved.g_tally).__name__ == "array" and saved.to_json() == b.to_json()
    copy.play("b1")
    assert list(b.g_tally) == [2, 0, 0, 0] and list(copy.g_tally) == [2, 1, 0, 0]
    assert list(b.g_seen[1]) == [20, 0, 0, 0] and list(saved.g_seen[1]) == [20, 0, 0, 0]


@pytest.mark.parametrize("rounds, over", [(999_997, False), (999_998, True)])
def test_a_while_loop_counts_every_round_natively(rounds, over):
    """A while loop's rounds are counted in place (_support.pxd spin) up to 4,096 per decision,
    then by the method: with the for loop's 3 elements, 999,997 rounds are exactly the budget
    (1,000,000) and play, one more is past it; the count starts again at the next decision."""
    from test_vocabulary import HEAD
    body = (f"for i in 1..3 {{\n        n += 0\n      }}\n      n = 0\n      while n < {rounds} {{\n        n += 1\n      }}")
    turn = 'turn {\n  step s {\n    action go "go" {\n      ' + body + '\n    }\n  }\n}\nend when turns >= 2\n'
    from regle.compiler.generate import native_source
    assert "_spin(s)" in native_source(HEAD + "counter n\n" + turn, "r.rules")
    game = regle.loads(HEAD + "counter n\n" + turn, name=f"rounds{rounds}", backend="native")
    s = game.new_game()
    if over:
        with pytest.raises(regle.RulesRuntimeError, match="walked more than 1,000,000 elements in loops"):
            s.play("go")
        return
    s.play("go")
    assert s.c_n == rounds and not s.over
    s.play("go")  # the next decision has a budget of its own
    assert s.c_n == rounds and s.over


def test_loops_are_bounded_natively():
    from test_vocabulary import HEAD, PASS_TURN
    body = "for i in 1..3 {\n        n += i\n      }\n      while n >= 0 {\n        n += 1\n      }"
    runaway = regle.loads(HEAD + "counter n\n" + PASS_TURN.replace("{body}", body), name="runaway", backend="native")
    s = runaway.new_game()
    with pytest.raises(regle.RulesRuntimeError, match="walked more than 1,000,000 elements in loops"):
        s.play("go")
    assert s.to_json() == runaway.new_game().to_json()


@pytest.mark.parametrize("path", ["games/pixies.rules", "games/eclats.rules", "games/classics/lostcities.rules"])
def test_hidden_information_and_agents_work_natively(engines, path):
    from regle.runtime.agents import make_agent
    python, compiled = engines[path]
    a, b = python.new_game(seed=4), compiled.new_game(seed=4)
    for _ in range(6):
        a.advance(a.legal[0])
        b.advance(b.legal[0])
    for p in range(a.n):
        assert a.view(p) == b.view(p) and list(a.observation(p)) == list(b.observation(p))
        assert a.resample(p, 7).to_json() == b.resample(p, 7).to_json()
    mcts = make_agent("mcts:iterations=30", 1)
    assert str(make_agent("mcts:iterations=30", 1).choose(a)) == str(mcts.choose(b))


def test_the_cache_holds_native_engines_and_clears_them(engines):
    from regle.loader import cached_files
    names = [p.name for p in cached_files()]
    assert any(n.startswith("regle_native_pixies_") and n.endswith(".pyx") for n in names)
    assert any(n.startswith("regle_native_pixies_") and n.endswith((".so", ".pyd")) for n in names)


def test_native_states_cross_to_another_process(engines):
    import subprocess
    import sys
    _python, compiled = engines["games/cibles.rules"]
    s = compiled.new_game(2, seed=5)
    for _ in range(4):
        s.advance(s.legal[-1])
    code = ("import pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); "
            "print(s.GAME.backend, s.to_json() == pickle.loads(pickle.dumps(s)).to_json(), s.legal_action_ids()[:3])")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(s), capture_output=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr.decode()[-800:]
    assert out.stdout.decode().split(None, 2)[:2] == ["native", "True"]
    assert out.stdout.decode().split(None, 2)[2].strip() == str(s.legal_action_ids()[:3])


def test_simulations_do_not_depend_on_the_backend_or_the_workers(engines):
    from regle import simulate as sim
    path = str(ROOT / "games/eclats.rules")
    natively, _ = sim.simulate(path, 12, 2, ["greedy", "random"], seed=3, jobs=2, backend="native")
    in_python, _ = sim.simulate(path, 12, 2, ["greedy", "random"], seed=3, jobs=1, backend="python")
    assert natively == in_python and len(natively) == 12


def test_the_command_line_says_which_engine_and_why_not(engines, monkeypatch, capsys, tmp_path):
    from regle.cli import main
    assert main(["simulate", str(ROOT / "games/classics/tictactoe.rules"), "-n", "3", "--backend", "native"]) == 0
    assert "engine        native (compiled by Cython)" in capsys.readouterr().out
    monkeypatch.setenv("REGLE_BACKEND", "fast")
    with pytest.raises(SystemExit, match="REGLE_BACKEND='fast': use one of auto, python, native"):
        main(["simulate", str(ROOT / "games/classics/tictactoe.rules"), "-n", "3"])
    monkeypatch.setenv("REGLE_BACKEND", "native")
    monkeypatch.setattr(native, "unavailable_reason", lambda: "no C compiler was found")
    fresh = tmp_path / "fresh.rules"  # rules never built
    fresh.write_text((ROOT / "games/classics/kalah.rules").read_text() + "\n# a new text\n")
    with pytest.raises(SystemExit, match="no C compiler was found .--backend python plays without it"):
        main(["simulate", str(fresh), "-n", "3"])
    with pytest.raises(SystemExit):
        main(["--version"])
    assert "engines: python (no native engines: no C compiler was found)" in capsys.readouterr().out


@pytest.mark.parametrize("path", GAME_FILES)
def test_action_ids_read_off_the_keys_are_those_of_the_moves(engines, path):
    """Natively, legal_action_ids and advance_id work on the move keys in C: the ids are those
    of the Python engine's moves, in the same order, and playing by id gives the same game; the
    tuple way (once ``legal`` is made) agrees too, and an illegal id is refused alike."""
    py, nat = engines[path]
    try:
        py.action_space()
    except ValueError:
        pytest.skip("this game has no action ids")
    for seed in range(2):
        a, b = py.new_game(seed=seed), nat.new_game(seed=seed)
        rng = random.Random(seed)
        k = 0
        while not a.over and k < 300:
            ids = b.legal_action_ids()
            assert ids == a.legal_action_ids()
            if k % 2:  # through the move tuples as well
                assert ids == b.GAME.action_space(b.n).encode_all(list(b.legal))
            illegal = next(i for i in range(len(b.GAME.action_space(b.n)) + 1) if i not in ids)
            with pytest.raises(regle.IllegalMove):
                b.copy().advance_id(illegal)
            choice = rng.choice(ids)
            a.advance_id(choice)
            b.advance_id(choice)
            assert a.to_json() == b.to_json()
            k += 1


@pytest.mark.parametrize("path", ["games/classics/connect4.rules", "games/classics/tictactoe.rules",
                                  "games/cibles.rules", "games/classics/kalah.rules"])
def test_the_search_in_c_makes_the_choices_of_the_python_search(engines, path):
    """MCTS in C (regle.runtime._search) against the Python search, on the same native states
    and on the Python engine: the same move and the same generator state after every decision,
    with rollouts cut short (rewards by scores) and to the end (draws shared)."""
    from regle.runtime.agents import make_agent
    from regle.runtime.mcts import _searchable_in_c
    python, compiled = engines[path]
    rng = random.Random(3)
    for seed, n in enumerate(sorted({compiled.players.start, compiled.players.stop - 1})):
        a, b = python.new_game(n, seed=seed), compiled.new_game(n, seed=seed)
        while not a.over:
            spec = f"mcts:iterations=40,rollout={0 if a.decisions % 2 else 5}"
            in_c, in_python, on_python = (make_agent(spec, a.decisions) for _ in range(3))
            in_python.in_c = False
            assert _searchable_in_c(b, b.cur) and not _searchable_in_c(a, a.cur)
            choice = in_c.choose(b)
            assert choice == in_python.choose(b) == on_python.choose(a)
            assert in_c.rng.state == in_python.rng.state == on_python.rng.state
            move = rng.choice(a.legal)
            a.advance(move)
            b.advance(move)


def test_games_with_chance_or_secrets_are_searched_in_python(engines):
    from regle.runtime.mcts import _searchable_in_c
    for path in ("games/pixies.rules", "games/eclats.rules", "games/explobilles.rules"):
        state = engines[path][1].new_game(seed=1)
        assert not _searchable_in_c(state, state.cur)


def test_play_id_is_checked_natively_and_a_rules_error_leaves_the_state_as_it_was(engines):
    """The compiled play_id (the key of the id found in C): the same game as the Python engine,
    the same refusals, and after a rules error half-way the state it was given, unchanged."""
    from test_vocabulary import HEAD, PASS_TURN
    python, compiled = engines["games/classics/tictactoe.rules"]
    a, b = python.new_game(seed=2), compiled.new_game(seed=2)
    rng = random.Random(2)
    while not a.over:
        for bad in (99, -1, 2 ** 70, True, 4.0):
            for method in ("play_id", "advance_id"):
                with pytest.raises(regle.IllegalMove) as on_python:
                    getattr(a, method)(bad)
                with pytest.raises(regle.IllegalMove) as natively:
                    getattr(b, method)(bad)
                assert str(natively.value) == str(on_python.value)
        taken = [i for i in range(9) if i not in a.legal_action_ids()]
        for bad in taken:
            with pytest.raises(regle.IllegalMove, match="is not a legal move here"):
                b.play_id(bad)
        pick = rng.choice(a.legal_action_ids())
        assert b.play_id(pick) is b and a.play_id(pick).to_json() == b.to_json()
    body = "for i in 1..3 {\n        n += i\n      }\n      while n >= 0 {\n        n += 1\n      }"
    runaway = regle.loads(HEAD + "counter n\n" + PASS_TURN.replace("{body}", body), name="runaway", backend="native")
    s = runaway.new_game()
    with pytest.raises(regle.RulesRuntimeError, match="walked more than 1,000,000 elements in loops"):
        s.play_id(s.legal_action_ids()[0])
    assert s.to_json() == runaway.new_game().to_json()


SPARE_RULES = '''game "spare" {
  players 2
  max decisions 40
}

grid board: player square 3 by 3
grid copied: player per player square 3 by 3
grid tally: int square 3 by 3
grid tallies: int per player square 3 by 3
zone pile: int
zone hand: int per player
counter n = 1
counter marks per player

turn {
  step s {
    action mark(c in empty_cells(board)) "{c}" {
      put me at c on board
      put me at c on copied[me]
      tally[c] += n
      put n at c on tallies[me]
      add n to pile
      add random(1000) to pile
      add marks[me] to hand[me]
      marks[me] += 1
      n += 1
    }
    action grow "grow" {
      add n to pile
      add random(1000) to pile
      put me at first(empty_cells(board)) on copied[1 - me]
      tally[first(empty_cells(board))] += 7
      put 3 at first(empty_cells(board)) on tallies[1 - me]
      marks[me] += 1
      n = n * 1000
      n = n * 1000
    }
  }
}

end when count(empty_cells(board)) == 0
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_play_keeps_the_state_in_a_spare_copy_and_takes_it_back_after_a_rules_error(backend):
    """play() keeps the state before a move in a spare copy that it overwrites in place from
    one move to the next: a move that fails half-way (a product past the largest number, after
    the effects before it changed a zone, a counter per seat and a counter) leaves the state as
    it was, however many moves the spare was reused for, and play goes on the same as advance
    on a copy (the Python engine's). The places cover each way the spare is overwritten: a
    grid, a grid per seat, a grid of numbers (natively an array of C numbers) and one per
    seat, a zone, a zone per seat, counters, and the generator (a draw before the failure)."""
    game = regle.loads(SPARE_RULES, name="spare", backend=backend)
    reference = regle.loads(SPARE_RULES, name="spare", backend="python")
    rng = random.Random(5)
    failed = 0
    for seed in range(6):
        s, ref = game.new_game(seed=seed), reference.new_game(seed=seed)
        while not s.over:
            moves = s.legal_moves()
            move = rng.choice(list(moves))
            before = s.to_json()
            try:
                s.play(move)
            except regle.RulesRuntimeError:
                failed += 1
                assert s.to_json() == before
                assert s.legal_moves() == moves
                continue
            ref.advance(tuple(move))
            assert s.to_json() == ref.to_json()
    assert failed > 3  # the rollback was exercised, after moves that reused the spare


LINES_THROUGH = """game "Lines through" { players 2 max decisions 12 }
grid board: player lines "a1 b1 c1", "c1 c2 c3", "a1 b2 c3", "b1 b2"
counter last: cell of board = none
turn {
  action put(c in empty_cells(board)) "{c}" {
    put me at c on board
    last = c
  }
}
end when last != none and any(all(board[x] == me for x in l) for l in lines(board, last)) then winner me
end when stuck then draw
"""


def test_lines_through_a_point_is_a_c_call_natively_and_plays_as_the_python_engine():
    """``lines(G, c)`` natively reads the table in C (_support.lines_through), no Python call;
    the games, and the error for no point, are the Python engine's."""
    from regle.compiler.generate import native_source
    source = native_source(LINES_THROUGH, "l.rules")
    assert "_lines_through(G_board__LINES_AT, " in source and "_ops_lines_through" not in source
    python, native = (regle.loads(LINES_THROUGH, "lines_through", backend=b) for b in ("python", "native"))
    for seed in range(20):
        a, b = python.new_game(seed=seed), native.new_game(seed=seed)
        a.play_random_playout(seed)
        b.play_random_playout(seed)
        assert a.to_json() == b.to_json() and a.winners == b.winners
    nowhere = LINES_THROUGH.replace("last != none and any(", "any(").replace("last = c", "last = none")
    for backend in ("python", "native"):
        with pytest.raises(regle.RulesRuntimeError, match="no point here"):
            regle.loads(nowhere, "lines_nowhere", backend=backend).new_game(seed=0).play_random_playout(0)


KEYS = """game "Keys" { players 2 }
enum side { left, right }
grid board: player square 3 by 3
grid heat: int square 3 by 3
counter tally per player per side = 0
counter last = 0
turn {
  action place(c in empty_cells(board)) "{c}" {
    put me at c on board
    heat[c] += 2
    tally[me][left] += 1
    last = number(c)
  }
  action cool(c in cells(board)) "{c}-" {
    require heat[c] > 0
    heat[c] -= 1
    last = -1
  }
}
end when repeated(board, heat, tally, last, me) >= 2 then draw
end when turns >= 40
"""


@pytest.mark.parametrize("text, name", [(KEYS, "keys"), ((ROOT / "games/classics/chess.rules").read_text(), "chess"),
                                        ((ROOT / "games/classics/go.rules").read_text(), "go")])
def test_a_positions_key_is_computed_in_c_natively_and_is_the_kernels(text, name):
    """``repeated(...)``'s key of a position (``K.position_key`` of its places) is computed in C
    natively from the places themselves (a grid of pieces, a grid of numbers, a counter, one
    per seat of two keys, who moved), with no Python value made: the same keys, position after
    position, as the Python engine keeps, and the same games."""
    from regle.compiler.generate import native_source
    source = native_source(text, f"{name}.rules")
    remember = source[source.index("cdef _remember(s"):source.index("cdef _finish(s")]
    assert "_fnv_bytes(_h, s.g_board)" in remember and "position_key(" not in remember
    if name == "keys":  # a grid of numbers, a counter per seat of two keys: their length, then each number
        assert "_number_at(s.g_heat, _i)[0]" in remember and "range(s.n * 2)" in remember and "s.a_tally[_i]" in remember
    python = regle.loads(text, f"{name}.rules", backend="python")
    compiled = regle.loads(text, f"{name}.rules", backend="native")
    rng = random.Random(7)
    for seed in range(3):
        a, b = python.new_game(seed=seed), compiled.new_game(seed=seed)
        for _ in range(60):
            if a.over:
                break
            assert a.hist_0 == b.hist_0 and a.legal_action_ids() == b.legal_action_ids()
            pick = rng.choice(a.legal_action_ids())
            a.advance_id(pick)
            b.advance_id(pick)
        assert a.hist_0 == b.hist_0 and len(a.hist_0) > 8 and a.to_json() == b.to_json()


READ_ONCE_NUMBERS = """game "Heaps" { players 2 }
grid heat: int square 3 by 3
grid mine: int per player square 3 by 3
turn {
  action warm(c in cells(heat)) "{c}" {
    require heat[c] < 3
    heat[c] += 1
    put heat[c] * 10 at c on mine[me]
    if heat[c] == 3 {
      heat[c] = 0
    }
  }
}
end when turns >= 30
score p { heat: sum(heat[c] for c in cells(heat)) }
"""


def test_a_grid_of_numbers_read_once_is_typed_natively():
    """A grid of numbers a method reads once into a local (``g_heat = s.g_heat``) is typed an
    array of C numbers natively (``_as_numbers``), so that no cell read or write tests the
    local's type; one grid per seat (a list of arrays) is left as it is. The same games."""
    from regle.compiler.generate import native_source
    source = native_source(READ_ONCE_NUMBERS, "heaps.rules")
    effect = source[source.index("cdef _do_0_warm("):]
    assert "g_heat = _as_numbers(s.g_heat)  # read once" in effect[:effect.index("\n    cdef ")]  # a move's effect too
    assert "_as_numbers(s.g_mine" not in source
    python = regle.loads(READ_ONCE_NUMBERS, "heaps.rules", backend="python")
    compiled = regle.loads(READ_ONCE_NUMBERS, "heaps.rules", backend="native")
    for seed in range(10):
        a, b = python.new_game(seed=seed).play_random_playout(seed), compiled.new_game(seed=seed).play_random_playout(seed)
        assert a.to_json() == b.to_json() and a.scores == b.scores
