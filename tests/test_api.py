"""The public API of DESIGN.md: determinism, saving, illegal moves, views."""
from __future__ import annotations

import copy
import json
import pickle

import pytest

import regle
from conftest import GAMES, moves
from regle.runtime.agents import RandomAgent


def play_out(game, seed, agent_seed=0, limit=None):
    s = game.new_game(seed=seed)
    agent = RandomAgent(agent_seed)
    history = []
    while not s.is_over and (limit is None or len(history) < limit):
        m = agent.choose(s)
        history.append(str(s.MOVE(m)))
        s.play(m)
    return s, history


def test_load_exposes_name_and_players(eclats):
    assert eclats.name == "eclats"
    assert eclats.title == "Éclats"
    assert eclats.players == range(2, 3)
    with pytest.raises(ValueError, match="2 players"):
        eclats.new_game(players=3)


def test_loads_from_text_matches_load():
    text = (GAMES / "eclats.rules").read_text(encoding="utf-8")
    game = regle.loads(text, name="my-variant")
    assert game.name == "my-variant"
    a = game.new_game(seed=5).to_json()["zones"]
    b = regle.load(GAMES / "eclats.rules").new_game(seed=5).to_json()["zones"]
    assert a == b


def test_same_seed_and_moves_give_the_same_game(eclats):
    a, moves_a = play_out(eclats, 11, 3)
    b = eclats.new_game(seed=11)
    for m in moves_a:
        b.play(m)  # by notation
    assert a.to_json() == b.to_json()
    c, moves_c = play_out(eclats, 12, 3)
    assert moves_c != moves_a or c.to_json() != a.to_json()


def test_json_round_trip_mid_game(eclats):
    s, _ = play_out(eclats, 4, 1, limit=15)
    data = json.loads(json.dumps(s.to_json()))
    t = eclats.state_from_json(data)
    assert t.to_json() == s.to_json()
    assert moves(t) == moves(s)
    agent_a, agent_b = RandomAgent(9), RandomAgent(9)
    while not s.is_over:
        s.play(agent_a.choose(s))
        t.play(agent_b.choose(t))
    assert t.to_json() == s.to_json()


def test_copy_is_independent(eclats):
    s = eclats.new_game(seed=2)
    t = s.copy()
    t.play(t.legal_moves()[0])
    assert s.turns == 0 and t.turns == 1
    assert s.to_json() != t.to_json()


def test_illegal_move_raises_and_changes_nothing(eclats):
    s = eclats.new_game(seed=3)
    before = s.to_json()
    for bad in ("take 99", "deliver nothing", "", 42, (99,), None):
        with pytest.raises(regle.IllegalMove):
            s.play(bad)
        assert s.to_json() == before
    with pytest.raises(regle.IllegalMove, match="legal moves: "):
        s.play("take 99")  # the message lists what is legal
    stale = s.legal_moves()[0]
    while not s.is_over:
        s.play(s.legal_moves()[-1])
    finished = s.to_json()
    with pytest.raises(regle.IllegalMove, match="the game is over"):
        s.play(stale)  # legal once, not any more
    assert s.to_json() == finished


def test_moves_have_stable_readable_notation(eclats):
    s = eclats.new_game(seed=1)
    legal = s.legal_moves()
    texts = [str(m) for m in legal]
    assert len(set(texts)) == len(texts)
    assert texts == [str(m) for m in eclats.new_game(seed=1).legal_moves()]
    assert all(isinstance(m, regle.Move) for m in legal)
    assert s.move_from_text("  " + texts[0] + " ") == legal[0]


def test_move_objects_from_a_copy_are_accepted(eclats):
    s = eclats.new_game(seed=8)
    m = s.copy().legal_moves()[0]
    s.play(m)
    assert s.turns == 1


def test_view_hides_hidden_zones_and_rng(eclats):
    s = eclats.new_game(seed=1)
    v = s.view(0)
    assert v["zones"]["box"] == {"hidden": 12}
    assert "rng" not in v
    assert v["zones"]["reserve"] == s.to_json()["zones"]["reserve"]  # the reserve is visible
    with pytest.raises(regle.StateError, match="view"):
        eclats.state_from_json(v)


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.update(extra=1), "extra"),
    (lambda d: d.pop("zones"), "zones"),
    (lambda d: d.update(players="2"), "players"),
    (lambda d: d.update(players=3), "players"),
    (lambda d: d.update(current=5), "current"),
    (lambda d: d.update(step="fly"), "step"),
    (lambda d: d["zones"].update(market="1234"), "zones.market"),
    (lambda d: d["zones"]["workshop"][0].extend([1, 1, 1]), "zones.workshop[0]"),
    (lambda d: d["zones"]["contracts"].append(99), "zones.contracts[6]"),
    (lambda d: d["zones"].update(bag=[]), "zones.bag"),
    (lambda d: d.update(game="chess"), "game"),
    (lambda d: d.update(rng=-1), "rng"),
    (lambda d: d.update(over="no"), "over"),
])
def test_malformed_saved_states_are_refused_naming_the_field(eclats, mutate, field):
    s = eclats.new_game(seed=1)
    data = s.to_json()
    mutate(data)
    with pytest.raises(regle.StateError) as info:
        eclats.state_from_json(data)
    assert f"'{field}'" in str(info.value)


def test_scores_are_available_during_the_game(eclats):
    s = eclats.new_game(seed=1)
    assert s.scores == [0, 0]
    assert s.winners == []


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("path", ["classics/hex.rules", "classics/breakthrough.rules", "classics/kalah.rules",
                                  "eclats.rules", "pixies.rules"])
def test_legal_moves_is_a_sequence_of_moves_made_when_read(path, backend):
    """legal_moves() reads as the list of Moves it stands for (in order, by index, slice, ``in``,
    ``index``, ``==``), keeps its moves when the state plays on, and play() takes its moves, their
    tuples and their notations alike."""
    game = regle.load(GAMES / path, backend=backend)
    s = game.new_game(seed=3)
    for turn in range(30):
        if s.is_over:
            break
        got = s.legal_moves()
        assert isinstance(got, regle.Moves) and len(got) == len(s.legal) > 0
        listed = list(got)
        assert all(isinstance(m, regle.Move) for m in listed)
        assert listed == [tuple(m) for m in s.legal] and got == listed and got != listed[:-1]
        assert [str(m) for m in got] == s.notations()  # each notation its own
        assert got[-1] == listed[-1] and got[1:3] == listed[1:3] and got[::-1] == listed[::-1]
        assert pickle.loads(pickle.dumps(got)) == listed and copy.copy(got) == listed
        k = (7 * turn) % len(got)
        assert got.index(listed[k]) == k and listed[k] in got and tuple(listed[k]) in got
        assert got.index(listed[-1], -1) == len(got) - 1
        with pytest.raises(ValueError):
            got.index(listed[0], -1 if len(got) > 1 else 1)  # not among the last one
        assert (99, 99) not in got and "x" not in got
        with pytest.raises(IndexError):
            got[len(got)]
        before = [str(m) for m in got]
        pick = (listed[k], tuple(listed[k]), str(listed[k]))[turn % 3]
        s.play(pick)
        assert [str(m) for m in got] == before  # a snapshot: playing on does not change it
        if not s.is_over and listed[k] not in s.legal_moves():
            with pytest.raises(regle.IllegalMove):
                s.copy().play(listed[k])  # a move of an earlier decision


@pytest.mark.parametrize("backend", ["python", "native"])
def test_play_takes_a_moves_tuple_by_value(backend):
    """A tuple equal to a legal move (1.0 for 1, True for 1) plays the engine's own move."""
    game = regle.load(GAMES / "classics/tictactoe.rules", backend=backend)
    s = game.new_game(seed=0)
    first = s.legal_moves()[1]
    s.play((first[0], float(first[1])))
    assert s.decisions == 1 and first not in s.legal_moves()
    with pytest.raises(regle.IllegalMove):
        s.play((first[0], float(first[1])))
    with pytest.raises(regle.IllegalMove):
        s.play((0, 2 ** 40))


ALIKE = '''game "alike" {
  players 2
}

grid board: player square 2 by 2

turn {
  step s {
    action mark(c in empty_cells(board)) "{c}" {
      put me at c on board
    }
    action cross(c in empty_cells(board)) "{c}" {
      put 1 - me at c on board
    }
  }
}

end when count(empty_cells(board)) == 0
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_notations_that_read_alike_are_told_apart_when_read_not_when_listed(backend):
    """Where two actions' notations can read alike, legal_moves() makes no notation: each Move
    reads its own when asked (str), told apart from the others' of its decision even after the
    state has played on, and a copied or pickled Move keeps it."""
    game = regle.loads(ALIKE, name="alike", backend=backend)
    s = game.new_game(seed=0)
    move_class = type(s).MOVE
    calls = []
    formats = move_class.FORMATS
    move_class.FORMATS = tuple((lambda f: lambda *a: calls.append(1) or f(*a))(f) for f in formats)
    try:
        got = s.legal_moves()
        picked = [got[0], got[5], got[-1]]
        assert calls == []  # listed and read, no notation made
        s.play(got[1])
        assert [str(m) for m in picked] == ["a1 a1", "b1 b1 #2", "b2 b2 #2"]
        assert [str(m) for m in got] == ["a1 a1", "b1 b1", "a2 a2", "b2 b2",
                                         "a1 a1 #2", "b1 b1 #2", "a2 a2 #2", "b2 b2 #2"]
        assert len(calls) == 8  # all of the decision's notations made once, at the first str()
        for kept in (copy.deepcopy(picked[1]), pickle.loads(pickle.dumps(picked[1]))):
            assert kept == picked[1] and str(kept) == "b1 b1 #2" and isinstance(kept, regle.Move)
        assert got[1] not in s.legal_moves() and len(s.legal_moves()) == 6
    finally:
        move_class.FORMATS = formats


def test_a_native_told_move_holds_its_decision_and_lets_it_go():
    """Natively a Move that may read alike holds its decision past its items (no dict): the
    decision lives as long as one of its Moves, and goes when the last does; the move is a
    tuple to everything else; one made by its class from a tuple reads its plain notation."""
    import sys
    from regle import native
    if not native.available():
        pytest.skip("no C compiler or Cython here")
    s = regle.loads(ALIKE, name="alike", backend="native").new_game(seed=0)
    got = s.legal_moves()
    held = sys.getrefcount(got)
    picked = [got[k] for k in range(len(got))]
    assert sys.getrefcount(got) == held + len(got)
    m = picked[5]
    assert not hasattr(m, "__dict__") and m == (1, 1) and hash(m) == hash((1, 1)) and len(m) == 2
    assert list(m) == [1, 1] and m[-1] == 1 and m + (0,) == (1, 1, 0)
    assert str(m) == "b1 b1 #2" and str(type(m)((1, 1))) == "b1"  # its plain notation, alone
    with pytest.raises(TypeError):
        type("Sub", (type(m),), {})  # (a subclass's dict would sit where the decision does)
    del picked, m
    assert sys.getrefcount(got) == held


SETUP_FAILS = """game "Broken setup" { players 2..3 }
counter left = 0
setup {
  left += 6 // left
}
turn {
  action go "go" {
    left += 1
  }
}
"""


@pytest.mark.parametrize("backend", ["python", "native"])
def test_new_game_reports_a_setup_error_at_its_line_whichever_way_it_is_asked(backend):
    """new_game's quick way (no players, or a count of them, no generator) and its careful way
    give the same answers: the game, a refusal of a count that does not fit, a setup error at
    its rules line."""
    game = regle.loads(SETUP_FAILS, "broken", backend=backend)
    for players in (None, 2, 3):
        with pytest.raises(regle.RulesRuntimeError, match=r":4:"):
            game.new_game(players, seed=1)
    for wrong in (1, 4, True, [2], "2"):
        with pytest.raises(ValueError, match="is for 2 to 3 players"):
            game.new_game(wrong)
    fine = regle.loads(SETUP_FAILS.replace("6 // left", "6 // (left + 1)"), "fine", backend=backend)
    assert [fine.new_game(p, seed=2).n for p in (None, 2, 3)] == [2, 2, 3]


def test_a_native_new_game_is_made_in_c_and_is_the_python_methods_game():
    """Natively, game.new_game is made in C (NewGames: no Python frame per game); its game is
    the one the Python method makes, seat for seat and seed for seed, and what it hands on (a
    generator of one's own) is refused as the method refuses it."""
    game = regle.load("kalah", backend="native")
    assert type(game.new_game.__self__).__name__ == "NewGames"
    careful = type(game).new_game.__get__(game)  # the Python method, as a Python engine has it
    for players, seed in ((None, 0), (2, 7), (None, 2**70)):
        quick, slow = game.new_game(players, seed=seed), careful(players, seed=seed)
        assert type(quick) is type(slow) and quick.to_json() == slow.to_json()
        assert quick.legal_action_ids() == slow.legal_action_ids()
    assert game.new_game(seed=3).to_json() == game.new_game(None, 3).to_json() == careful(seed=3).to_json()
    with pytest.raises(ValueError, match="generator of one's own"):
        game.new_game(rng=object())
    with pytest.raises(ValueError, match="is for 2 players"):
        game.new_game(3)
    assert "new_game" not in vars(regle.load("kalah", backend="python"))  # the Python engine's is the method
