"""Moves of several steps (`again with p = v`), a turn written as its actions alone, the cell n
steps away (`neighbour(G, c, d, n)`), the shade of a square and seats that count the players:
each on a small game of its own, on both backends where it plays."""
from __future__ import annotations

import pytest

import regle
from regle.dsl.differ import diff
from regle.dsl.parser import parse
from regle.dsl.printer import format_text
from regle.rulebook import rulebook

HOPS = '''
game "Hops" {
  seats left, right
}
grid board: player square 6 by 1
counter hops per player
setup {
  put left at "a1" on board
  put right at "f1" on board
}
turn {
  action hop(c in filled_cells(board, me), d in directions(board)) "{c}{t}" {
    let t = neighbour(board, c, d)
    require t != none and is_empty(board, t)
    move c to t on board
    hops[me] += 1
    again with c = t, d = d
  }
  action rest "rest" {
    hops[me] += 10
  }
}
end when turns >= 4
'''


def moves(state):
    return [str(m) for m in state.legal_moves()]


@pytest.mark.parametrize("backend", ["python", "native"])
def test_again_keeps_the_same_player_on_the_pinned_moves_until_none_is_left(backend):
    """After a hop the same player hops again with the same piece the same way, and may not
    rest meanwhile; when that piece is blocked the turn goes on to the next seat. Ids, a saved
    and loaded state in the middle of a chain, and the next turn (the chain forgotten) agree."""
    game = regle.loads(HOPS, name="hops", backend=backend)
    assert game.players == range(2, 3)  # the seats say two
    state = game.new_game(seed=0)
    assert state.step_name == "move" and moves(state) == ["a1b1", "rest"]
    state.play("a1b1")
    assert state.current_player == 0 and moves(state) == ["b1c1"]  # same piece, same way, no rest
    loaded = game.state_from_json(state.to_json())
    assert moves(loaded) == ["b1c1"] and loaded.current_player == 0
    ids = state.legal_action_ids()
    assert len(ids) == 1 and state.copy().play_id(ids[0]).to_json() == state.copy().play("b1c1").to_json()
    with pytest.raises(regle.IllegalMove):
        state.play("rest")
    for m in ["b1c1", "c1d1", "d1e1"]:
        assert state.current_player == 0
        state.play(m)
    # e1 is blocked by the piece on f1: no hop is left, so the turn went on
    assert state.current_player == 1 and moves(state) == ["rest"]
    assert state.to_json()["counters"]["hops"] == [4, 0]
    state.play("rest")
    assert state.current_player == 0 and moves(state) == ["e1d1", "rest"]  # a new turn: any hop


AGAIN_ALONE = '''
game "Tally" { players 2 }
counter total
turn {
  step add {
    action add(n in 1..2) "+{n}" {
      total += n
      if total % 5 != 0 {
        again
      }
    }
    action wait "wait" {
      total += 0
    }
  }
}
end when total >= 10
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_again_alone_replays_the_action_with_any_values(backend):
    game = regle.loads(AGAIN_ALONE, name="tally", backend=backend)
    state = game.new_game(seed=0)
    assert moves(state) == ["+1", "+2", "wait"]
    state.play("+2")
    assert state.current_player == 0 and moves(state) == ["+1", "+2"]
    state.play("+2").play("+1")  # 5: no again, P2's turn
    assert state.current_player == 1 and moves(state) == ["+1", "+2", "wait"]


OPTIONAL = HOPS.replace('''turn {
  action hop''', '''turn {
  optional step run {
  action hop''').replace('''  action rest "rest" {
    hops[me] += 10
  }
}''', '''}
}''')


@pytest.mark.parametrize("backend", ["python", "native"])
def test_skip_ends_a_chain_in_an_optional_step(backend):
    game = regle.loads(OPTIONAL, name="optional_hops", backend=backend)
    state = game.new_game(seed=0)
    assert moves(state) == ["a1b1", "skip run"]
    state.play("a1b1")
    assert state.current_player == 0 and moves(state) == ["b1c1", "skip run"]
    state.play("skip run")
    assert state.current_player == 1 and moves(state) == ["f1e1", "skip run"]


@pytest.mark.parametrize("change, message", [
    ("again with c = t, d = d", None),
    ("again with e = t", r"hops.rules:17:16: error: 'e' is not a parameter of action hop"),
    ("again with c = t, c = t", r"hops.rules:17:23: error: again sets 'c' twice"),
    ("again with c = d", "again sets parameter 'c', which takes a cell of 'board', to a direction"),
])
def test_again_names_only_the_actions_parameters(change, message):
    text = HOPS.replace("again with c = t, d = d", change)
    if message is None:
        regle.loads(text, name="hops", backend="python")
        return
    with pytest.raises(regle.RulesError, match=message) as info:
        regle.loads(text, name="hops", backend="python", filename="hops.rules")
    assert "^" in str(info.value) and "__" not in str(info.value)  # a caret; no name of the engine's own


def test_again_outside_an_action_or_beside_a_pass_is_refused():
    in_setup = HOPS.replace('put right at "f1" on board', 'put right at "f1" on board\n  again')
    with pytest.raises(regle.RulesError, match="'again' stands among an action's own effects"):
        regle.loads(in_setup, name="hops", backend="python")
    with_pass = AGAIN_ALONE.replace('action wait "wait" {\n      total += 0\n    }', 'pass')
    with pytest.raises(regle.RulesError, match="an action that plays again stands in a step with a pass"):
        regle.loads(with_pass, name="tally", backend="python")


def test_again_and_a_turn_of_actions_alone_are_kept_by_the_formatter_rulebook_and_diff(tmp_path):
    text = format_text(HOPS)
    assert "again with c = t, d = d" in text and "step move" not in text
    assert "players" not in text  # the seats say it
    assert format_text(text) == text
    path = tmp_path / "hops.rules"
    path.write_text(text)
    book = rulebook(str(path))
    assert "plays this action again, `c` being `t`, `d` being `d`" in book
    changes = diff(parse(text), parse(text.replace("again with c = t, d = d", "again with c = t")))
    assert any("again with c = t" in str(c) for c in changes)


NEIGHBOURS = '''
game "Steps" { players 2 }
grid board: player square 5 by 3 with diagonals
counter far: cell of board
counter none_far: cell of board
counter here: cell of board
counter light
counter dark
setup {
  far = neighbour(board, cell(board, "a1"), "ne", 2)
  none_far = neighbour(board, cell(board, "a1"), "ne", 3)
  here = neighbour(board, cell(board, "b2"), "w", 0)
  light = sum(shade(board, c) for c in cells(board))
  dark = shade(board, cell(board, "a1")) + shade(board, cell(board, "c1")) + shade(board, cell(board, "e3"))
}
turn {
  action go(n in 0..4) "go {n}" {
    here = neighbour(board, cell(board, "a2"), "e", n)
  }
}
end when turns >= 2
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_neighbour_n_steps_away_and_the_shade_of_a_square(backend):
    game = regle.loads(NEIGHBOURS, name="steps", backend=backend)
    state = game.new_game(seed=0)
    names = game.cell_names("board")
    counters = state.to_json()["counters"]
    assert names[counters["far"]] == "c3" and counters["none_far"] == -1  # the third step leaves the board
    assert names[counters["here"]] == "b2"  # 0 steps: the cell itself
    assert counters["light"] == 7 and counters["dark"] == 0  # a1, c1, e3 share a1's shade
    for n, where in [(0, "a2"), (3, "d2"), (4, "e2")]:
        assert names[state.copy().play(f"go {n}").to_json()["counters"]["here"]] == where


def test_shade_is_for_boards_of_squares():
    text = NEIGHBOURS.replace("square 5 by 3 with diagonals", "hex side 3").replace(
        'far = neighbour(board, cell(board, "a1"), "ne", 2)', "far = none")
    with pytest.raises(regle.RulesError, match="shade\\(\\) is for boards of squares"):
        regle.loads(text, name="steps", backend="python")


def test_seats_count_the_players_unless_players_says_more():
    three = 'game "Three" {\n  seats red, green, blue\n}\n'
    rest = 'counter x\nturn {\n  action go "go" {\n    x += 1\n  }\n}\nend when x >= 3\n'
    assert regle.loads(three + rest, name="three", backend="python").players == range(3, 4)
    ranged = 'game "Ranged" {\n  players 2..4\n  seats red, green\n}\n'
    assert regle.loads(ranged + rest, name="ranged", backend="python").players == range(2, 5)
    assert "players 2..4" in format_text(ranged + rest) and "players" not in format_text(three + rest)


def test_every_again_of_an_action_sets_the_same_parameters():
    """Else the move after an again that leaves d unset would still be held to an old d."""
    text = HOPS.replace("    again with c = t, d = d\n", "    if hops[me] > 2 {\n      again with c = t\n    } else {\n"
                        "      again with c = t, d = d\n    }\n")
    with pytest.raises(regle.RulesError, match="the 'again' statements of action hop set different parameters"):
        regle.loads(text, name="hops", backend="python")
