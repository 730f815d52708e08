"""Language features, each on a small game of its own (no game of the four needed)."""
from __future__ import annotations

import pytest

import regle

RACE = '''
game "Race" { players 2..4 }
counter pos per player
turn {
  step go {
    action step(n in 1..3) "step {n}" { pos[me] += n }
  }
}
end when any(pos[p] >= 10 for p in players)
score p { distance: pos[p] }
winner p {
  most score
  ties shared
}
'''

STEPS = '''
game "Steps" { players 2 }
zone bag: int = [1, 1, 2, 3, 5, 8]
zone hand: int per player
counter bonus per player
turn {
  step draw { action take(v in bag) { move v from bag to hand[me] } }
  optional step boost { action boost { bonus[me] += 1 } }
  repeat step discard while count(hand[me]) > 1 {
    action drop(v in hand[me]) { move v from hand[me] to bag }
  }
  do tidy {
    if sum(hand[me]) >= 5 { bonus[me] += 10 }
  }
}
end when turns >= 4
score p { bonus: bonus[p] }
winner p { most score ties draw }
'''


def moves(state):
    return [str(m) for m in state.legal_moves()]


def test_range_parameters_counters_and_shared_wins():
    game = regle.loads(RACE, name="race")
    assert game.players == range(2, 5)
    s = game.new_game(players=3, seed=0)
    assert moves(s) == ["step 1", "step 2", "step 3"]
    for _ in range(3):  # 3 players each step 3 three times: 9
        for _ in range(3):
            s.play("step 3")
    assert not s.is_over and s.scores == [9, 9, 9]
    s.play("step 1")
    assert s.is_over and s.winners == [0]
    s = game.new_game(players=2, seed=0)
    for _ in range(7):
        s.play("step 3")
    assert s.is_over and s.scores == [12, 9] and s.winners == [0]  # P1 got there first


def test_optional_repeat_and_automatic_steps():
    game = regle.loads(STEPS, name="steps")
    s = game.new_game(seed=0)
    assert s.step_name == "draw"
    assert moves(s) == ["take 1", "take 2", "take 3", "take 5", "take 8"]  # equal values: one choice
    s.play("take 8")
    assert s.step_name == "boost"
    assert moves(s) == ["boost", "skip boost"]
    s.play("skip boost")
    # one card in hand: the repeat step is skipped, the automatic step ran (8 >= 5), turn over
    assert s.current_player == 1 and s.to_json()["counters"]["bonus"] == [10, 0]
    s.play("take 1")
    s.play("boost")
    assert s.to_json()["counters"]["bonus"] == [10, 1]
    s.play("take 2")  # P1: hand 8, 2 -> must discard until one is left
    s.play("skip boost")
    assert s.step_name == "discard" and moves(s) == ["drop 8", "drop 2"]
    s.play("drop 8")
    assert s.current_player == 1  # the loop ended when one card was left; tidy: 2 < 5
    assert s.to_json()["counters"]["bonus"] == [10, 1]


RICH = '''
game "Rich" { players 2  first player random(player_count) }
enum colour { red, blue, wild multi }
standin table card(value: int, colour: colour) show "{value}{colour}" {
  1 red * 2
  2 blue
  3 multi
}
param hand_size = 2
zone deck: card hidden = card
zone hand: card per player private
zone pool: card
counter total per player
counter rounds
setup {
  shuffle deck
  for p in players { deal hand_size from deck to hand[p] }
  deal all from deck to pool where it.colour != blue
}
turn {
  step play {
    action put(c in hand[me]) "put {c}" {
      let v = c.value
      move c from hand[me] to pool
      if c.colour == multi { total[me] += 10 * v }
      elif v > 1 { total[me] += v }
      else { total[me] -= 1 }
      rounds += 1
      if count(hand[0]) + count(hand[1]) == 0 { end game }
    }
    pass
  }
}
end when rounds >= 100
score p { points: total[p] }
winner p {
  most score
  least count(hand[p])
  ties draw
}
invariant cards_kept: count(deck) + count(pool) + sum(count(hand[p]) for p in players) == 4
'''


def test_tables_enums_items_setup_and_visibility():
    game = regle.loads(RICH, name="rich")
    firsts = {game.new_game(seed=k).current_player for k in range(20)}
    assert firsts == {0, 1}  # first player drawn by the seeded RNG
    s = game.new_game(seed=3)
    data = s.to_json()
    assert sorted(sum(data["zones"]["hand"], []) + data["zones"]["pool"] + data["zones"]["deck"]) == [0, 1, 2, 3]
    me = s.current_player
    other = 1 - me
    view = s.view(me)
    assert view["zones"]["hand"][me] == data["zones"]["hand"][me]
    assert view["zones"]["hand"][other] == {"hidden": len(data["zones"]["hand"][other])}
    assert view["zones"]["deck"] == {"hidden": len(data["zones"]["deck"])}
    assert all(m.startswith("put ") for m in moves(s))
    assert {game.show("item:card", c) for c in range(4)} == {"1red", "2blue", "3multi"}


def test_effects_if_elif_else_let_counters_and_end_game():
    game = regle.loads(RICH, name="rich")
    for seed in range(10):
        s = game.new_game(seed=seed)
        while not s.is_over:
            assert s.check_invariants() == []
            s.play(s.legal_moves()[0])
        totals = s.to_json()["counters"]["total"]
        assert s.scores == totals
        assert s.to_json()["counters"]["rounds"] == 4  # every card played, then 'end game'


def test_deal_all_where_moves_only_what_matches():
    game = regle.loads(RICH.replace("param hand_size = 2", "param hand_size = 1"), name="rich1")
    colour = game.namespace["C_card__colour"]
    for seed in range(10):
        z = game.new_game(seed=seed).to_json()["zones"]
        assert len(z["pool"]) + len(z["deck"]) == 2
        assert all(colour[c] != 1 for c in z["pool"])  # no blue dealt to the pool
        assert all(colour[c] == 1 for c in z["deck"])  # blue stays behind


def test_deal_where_keeps_the_others_in_order():
    text = RICH.replace("deal all from deck to pool where it.colour != blue", "deal 1 from deck to pool where it.value == 3")
    game = regle.loads(text, name="rich2")
    for seed in range(10):
        s = game.new_game(seed=seed)
        z = s.to_json()["zones"]
        ns = game.namespace
        assert all(ns["C_card__value"][c] == 3 for c in z["pool"])
        assert len(z["pool"]) == (0 if 3 in [ns["C_card__value"][c] for c in sum(z["hand"], [])] else 1)


def test_a_rules_bug_at_play_time_names_its_rules_line():
    text = STEPS.replace("action drop(v in hand[me]) { move v from hand[me] to bag }",
                         "action drop(v in hand[me]) { move 99 from hand[me] to bag }")
    game = regle.loads(text, name="buggy", filename="buggy.rules")
    s = game.new_game(seed=0)
    s.play("take 8")
    s.play("skip boost")
    s.play("take 1")
    s.play("skip boost")
    s.play("take 2")
    s.play("skip boost")
    with pytest.raises(regle.RulesRuntimeError, match=r"buggy.rules:10: error while playing"):
        s.play(s.legal_moves()[0])


def test_rules_without_an_end_are_stopped(monkeypatch):
    game = regle.loads(RACE.replace("end when any(pos[p] >= 10 for p in players)", ""), name="endless")
    assert game.State.MAX_DECISIONS == 100_000  # the engine's own bound when the rules declare none
    monkeypatch.setattr(game.State, "MAX_DECISIONS", 50)
    s = game.new_game(seed=0)
    with pytest.raises(regle.RulesRuntimeError, match="has not ended after 50 decisions"):
        while True:
            s.play(s.legal_moves()[0])


def test_generated_code_names_its_rules_lines():
    from regle.compiler.generate import engine_source
    code = engine_source(STEPS, "steps.rules")
    assert "# line 9: repeat step discard while count(hand[me]) > 1 {" in code
    assert "# line 10: action drop(v in hand[me]) { move v from hand[me] to bag }" in code
    assert "# line 16: end when turns >= 4" in code
    assert "import" in code and "regle.runtime" in code
    imports = [l for l in code.splitlines() if l.startswith(("import", "from"))]
    assert imports == ["from regle.runtime import BaseState as _BaseState, Game as _Game, K, Move as _Move, Rng as _Rng, "
                       "RulesRuntimeError, ops"]


def test_strings_and_names_cannot_inject_code(tmp_path):
    canary = tmp_path / "canary"
    evil = f'__import__("os").system("touch {canary}")'
    text = STEPS.replace('game "Steps"', 'game "Steps\\" + ' + evil.replace('"', '\\"') + ' + \\""')
    text = text.replace("action boost", 'action boost "x{{}}\\\\n\'\'\'"')
    game = regle.loads(text, name="evil")
    s = game.new_game(seed=0)
    s.play("take 8")
    assert not canary.exists()
    assert "__import__" in game.title
    assert any("x{}" in m for m in moves(s))


def test_setup_require_and_end_game_in_setup():
    text = STEPS.replace("counter bonus per player", "counter bonus per player\nsetup { require count(bag) > 10 else \"the bag is too small\" }")
    game = regle.loads(text, name="req", filename="req.rules")
    with pytest.raises(regle.RulesRuntimeError, match=r"req.rules:6: error while playing: the bag is too small"):
        game.new_game(seed=0)
    game = regle.loads(STEPS.replace("counter bonus per player", "counter bonus per player\nsetup { end game }"), name="ends")
    s = game.new_game(seed=0)
    assert s.is_over and s.legal_moves() == [] and s.current_player is None


def test_a_step_condition_and_its_moves_share_what_both_compute():
    from conftest import GAMES
    code = regle.compile_file(GAMES / "explobilles.rules")
    enter = code[code.index("def _enter"):code.index("def _again")]
    assert enter.count("K.connected_groups(") == 1 and "_shared = ops.group_keys(" in enter
    assert "def _moves_3(s, _shared=None):" in code
    # a condition that may skip a part keeps its own order: nothing computed ahead of it
    text = ('game "G" { players 2 }\nzone pile: int = [1, 2]\n'
            'turn { step s when count(pile) > 0 and max(pile) > 1 {\n'
            '  action take(v in pile) "take {v}" { require v <= max(pile)\n remove v from pile } } }\n'
            "end when count(pile) == 0\n")
    from regle.loader import compile_text
    assert "_shared" not in compile_text(text)


def test_a_list_of_filled_cells_used_twice_in_a_line_is_built_once():
    from conftest import GAMES
    code = regle.compile_file(GAMES / "pixies.rules")
    effects = code[code.index("def fn__effects("):]
    effects = effects[:effects.index("\n\n")]  # the function compiled from define effects(p)
    built = "K.filled_cells(g_face_up[p_])"  # (the grid read once at the function's top: reads.py)
    assert "g_face_up = s.g_face_up" in effects and "s.g_face_up[" not in effects
    assert effects.count(built) == 1 and "_cells0 = " + built in effects
    game = regle.load(GAMES / "pixies.rules")
    s = game.new_game(players=3, seed=2)
    while not s.is_over:  # the scores by the clauses (computed apart) add up to the shared total
        assert s.scores == [sum(v for _, v in s._score_parts(p)) for p in range(s.n)]
        s.advance(s.legal[0])


def test_a_let_no_require_reads_is_computed_with_the_effects_only():
    from conftest import GAMES
    code = regle.compile_file(GAMES / "explobilles.rules")
    moves = code[code.index("def _moves_3"):code.index("def _auto_tidy")]
    effects = code[code.index("def _do_4_explode"):code.index("APPLY = ")]
    assert "ops.group_colour" not in moves and "c_ = ops.group_colour(g_)" in effects
    game = regle.loads('game "G" { players 2 }\nzone pile: int = [1, 2, 3]\ncounter total\n'
                       'turn { step s { action take(v in pile) "take {v}" {\n'
                       '  let big = v * 10\n  let twice = v * 2\n  require twice < 5\n'
                       '  remove v from pile\n  total += big\n} } }\nend when count(pile) < 2\n')
    s = game.new_game()
    assert [str(m) for m in s.legal_moves()] == ["take 1", "take 2"]
    s.play("take 2")
    assert s.to_json()["counters"]["total"] == 20


def test_seat_colours_are_data_checked_and_drawn(tmp_path):
    from regle.web.render import seat_colour, table_html
    text = ('game "C" {\n  players 2\n  colours "red", "#3a78d8"\n}\ngrid board: player square 3 by 3\n'
            'turn {\n  step s {\n    action put(c in empty_cells(board)) "{c}" {\n      put me at c on board\n'
            '    }\n  }\n}\nend when count(empty_cells(board)) == 0\n')
    game = regle.loads(text, name="colours", backend="python")
    assert game.namespace["SEAT_COLOURS"] == ["red", "#3a78d8"]
    assert seat_colour(game.namespace, 0) == "#d64541" and seat_colour(game.namespace, 1) == "#3a78d8"
    state = game.new_game()
    state.play("a1")
    assert 'fill="#d64541"' in table_html(state, None)
    for bad, what in (('"red; x"', "is not a colour"), ('"red", "blue", "green"', "3 colours for at most 2")):
        with pytest.raises(regle.RulesError, match=what) as info:
            regle.loads(text.replace('"red", "#3a78d8"', bad), name="bad", backend="python")
        assert info.value.diagnostics[0].line == 3
    from regle.dsl.parser import parse
    from regle.dsl.printer import format_text
    assert 'colours "red", "#3a78d8"' in format_text(text, "c.rules")
    assert parse(format_text(text, "c.rules"), "c.rules").decls[0].colours == ["red", "#3a78d8"]


ANNOUNCER = '''
game "Announcer" { players 2 }
param rounds = 3
counter round = 1
counter points per player
turn {
  step go {
    action add(n in 1..2) "add {n}" {
      points[me] += n
      if points[me] >= 2 * round {
        announce "Round {round} of {rounds} ends: {me} reached it on turn {turns}"
        round += 1
      }
    }
  }
}
end when round > rounds
score p { points: points[p] }
winner p {
  most score
  ties shared
}
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_announcements_are_kept_in_order_saved_and_public(backend):
    game = regle.loads(ANNOUNCER, name="announcer", backend=backend)
    state = game.new_game(seed=1)
    assert state.announcements == []
    for text in ["add 2", "add 1", "add 1", "add 2", "add 2"]:
        state.play(text)
    # P1 reached 2 on move 1 (round 1), then 5 on move 5 (round 2)
    assert state.announcements == [(1, "Round 1 of 3 ends: P1 reached it on turn 1"),
                                   (5, "Round 2 of 3 ends: P1 reached it on turn 5")]
    copy = state.copy()
    copy.play("add 2")
    copy.play("add 2")
    assert len(copy.announcements) == 3 and len(state.announcements) == 2  # a copy's own history
    saved = state.to_json()
    assert saved["announced"] == [[1, "Round 1 of 3 ends: P1 reached it on turn 1"],
                                  [5, "Round 2 of 3 ends: P1 reached it on turn 5"]]
    assert game.state_from_json(saved).announcements == state.announcements
    assert state.view(1)["announced"] == saved["announced"]  # everyone sees them
    for bad, what in (([[6, "x"]], "announced\\[0\\]\\[0\\]"), ([[1, 2]], "announced\\[0\\]"),
                      ("x", "announced"), ([[3, "a"], [2, "b"]], "announced\\[1\\]\\[0\\]")):
        with pytest.raises(regle.StateError, match=what):
            game.state_from_json({**saved, "announced": bad})


def test_an_announcement_names_only_what_everyone_sees():
    hidden = ANNOUNCER.replace('announce "Round {round}', 'let secret = points[me]\n        announce "Round {secret}')
    with pytest.raises(regle.RulesError, match="an announcement is seen by everyone") as info:
        regle.loads(hidden, name="bad", backend="python")
    assert info.value.diagnostics[0].line == 12  # the announce line (the let is line 11)
    with pytest.raises(regle.RulesError, match="names nothing"):
        regle.loads(ANNOUNCER.replace("{rounds}", "{roundz}"), name="bad", backend="python")
    plain = regle.loads(ANNOUNCER.replace("announce", "# announce"), name="quiet", backend="python")
    assert "announced" not in plain.new_game().to_json()  # a game that announces nothing saves nothing
    with pytest.raises(regle.StateError, match="announces nothing"):
        plain.state_from_json({**plain.new_game().to_json(), "announced": []})
    from regle.dsl.printer import format_text
    assert 'announce "Round {round} of {rounds} ends' in format_text(ANNOUNCER, "a.rules")


SKIP_ONE = '''
game "Skip one" { players 3 }
counter c
turn {
  step go {
    action wait {
      c += 1
      next player me + 2
    }
  }
}
end when c >= 6
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_next_player_takes_the_whole_expression_modulo_the_seats(backend):
    """`next player me + 2` is (me + 2) modulo the seats: P1, P3, P2, P1... It used to be
    written `me + 2 % s.n` (the remainder of 2 alone), which named a seat past the last."""
    game = regle.loads(SKIP_ONE, name="skip_one", backend=backend)
    state = game.new_game(seed=3)
    seats = []
    while not state.is_over:
        seats.append(state.current_player)
        state.play("wait")
    assert seats == [0, 2, 1, 0, 2, 1]


TALLY = '''
game "Tally" { players 2 }
grid pile: int square 2 by 1
turn {
  step go {
    action take(n in 1..2) {
      pile[cell(pile, "a1")] += 10
      pile[cell(pile, "a1")] -= n - 1
    }
  }
}
end when turns >= 2
score p { left: pile[cell(pile, "a1")] }
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_cell_of_a_grid_of_numbers_takes_the_whole_value_of_an_update(backend):
    """`pile[c] -= n - 1` takes away n - 1. It used to be written `pile[c] - n - 1`, taking
    away n + 1: the value was pasted after the operator without its parentheses."""
    game = regle.loads(TALLY, name="tally", backend=backend)
    state = game.new_game(seed=1)
    state.play("take 2")  # 10 - (2 - 1) = 9
    assert state.scores[0] == 9
    state.play("take 1")  # 9 + 10 - 0 = 19
    assert state.scores[0] == 19


FORCED = '''
game "Forced" { players 2 }
counter pile = 14
turn {
  step go {
    action wait "wait" {
      pile -= 1
    }
    forced action grab(n in 1..2) "grab {n}" {
      require pile % 3 == 0
      pile -= n
    }
    forced action halve "halve" {
      require pile % 4 == 0
      pile = pile // 2
    }
  }
}
end when pile <= 1
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_forced_action_with_a_legal_move_leaves_the_others_none(backend):
    """`forced action`: while a forced action of the step has a legal move, only the forced
    actions' moves are legal (in rules order), so `wait` is refused then; otherwise the other
    actions' moves are. Ids and the checked play agree with the list."""
    game = regle.loads(FORCED, name="forced", backend=backend)
    state = game.new_game(seed=1)
    seen = []
    for move in ["wait", "wait", "halve", "grab 2", "halve"]:  # 14 -> 13 -> 12 -> 6 -> 4 -> 2
        moves = state.legal_moves()
        seen.append([str(m) for m in moves])
        ids = state.legal_action_ids()
        assert len(ids) == len(moves)
        for i, m in zip(ids, moves):  # each id plays its move
            assert state.copy().play_id(i).to_json() == state.copy().play(m).to_json()
        if move != "wait":  # a forced move is there: waiting is refused, the state unchanged
            before = state.to_json()
            with pytest.raises(regle.IllegalMove):
                state.play("wait")
            assert state.to_json() == before
        state.play(move)
    assert seen == [
        ["wait"],                          # 14: no forced move
        ["wait"],                          # 13
        ["grab 1", "grab 2", "halve"],     # 12: both forced actions, wait left out
        ["grab 1", "grab 2"],              # 6
        ["halve"],                         # 4
    ]
    assert [str(m) for m in state.legal_moves()] == ["wait"]  # 2


def test_forced_is_kept_by_the_formatter_the_rulebook_and_diff():
    from regle.dsl.differ import diff
    from regle.dsl.parser import parse
    from regle.dsl.printer import format_text
    from regle.rulebook import rulebook
    assert '    forced action grab(n in 1..2) "grab {n}" {' in format_text(FORCED)
    assert format_text(format_text(FORCED)) == format_text(FORCED)
    assert "**Forced**" in rulebook("forced.rules", text=FORCED)
    changes = [str(c) for c in diff(parse(FORCED), parse(FORCED.replace("forced action halve", "action halve")))]
    assert any("halve" in c and "not forced" in c for c in changes), changes


MOVERS = '''
game "Movers" { players 2 }
enum piece { man = "o", king = "k" }
grid board: piece of player square 4 by 4
grid counts: int square 2 by 2
setup {
  put piece(man, 0) at "a1" on board
  put piece(king, 1) at "d4" on board
  counts["a1"] = 5
}
turn {
  step go {
    action shift(c in filled_cells(board, me), t in empty_cells(board)) "{c}-{t}" {
      move c to t on board
      move "a1" to "b2" on counts
    }
    action stay(c in filled_cells(board, me)) "{c}=" {
      move c to c on board
    }
    action swap(c in filled_cells(board, me), t in filled_cells(board, 1 - me)) "{c}x{t}" {
      move c to t on board
      ensure board[t].kind == man
    }
  }
}
end when turns >= 6
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_piece_moves_to_another_cell_of_its_grid(backend):
    """`move c to t on G`: t gets what c held (a piece, or a number), c is left empty; a move to
    its own cell leaves the piece where it is; in an `ensure` trial the move is tried on the
    position and put back (only the man may capture: the king's capture is not legal)."""
    game = regle.loads(MOVERS, name="movers", backend=backend)
    state = game.new_game(seed=1)
    a1, c3, d4 = 0, 10, 15  # cells numbered from a1, west to east then north
    assert "a1xd4" in moves(state)
    state.play("a1-c3")
    assert [(c, v) for c, v in enumerate(state.g_board) if v] == [(c3, 1), (d4, 4)]  # man of P1, king of P2
    assert list(state.g_counts) == [0, 0, 0, 5]  # a1 emptied, b2 holds the 5
    state.play("d4=")  # to its own cell: still there
    assert [(c, v) for c, v in enumerate(state.g_board) if v] == [(c3, 1), (d4, 4)]
    assert "c3xd4" in moves(state)
    state.play("c3-a1")
    assert not [m for m in moves(state) if "x" in m]  # the king may not take the man
    assert [(c, v) for c, v in enumerate(state.g_board) if v] == [(a1, 1), (d4, 4)]  # trials put back


def test_moving_on_what_is_not_a_grid_or_a_cell_of_another_is_reported():
    with pytest.raises(regle.RulesError, match="expected a grid here") as info:
        regle.loads(MOVERS.replace("move c to t on board", "move c to t on me"), name="bad", backend="python")
    assert info.value.diagnostics[0].line == 14
    with pytest.raises(regle.RulesError, match="a cell of grid 'board', which is not shaped like 'counts'"):
        regle.loads(MOVERS.replace('move "a1" to "b2" on counts', "move c to c on counts"), name="bad",
                    backend="python")
    from regle.dsl.printer import format_text
    assert "move c to t on board" in format_text(MOVERS, "m.rules")


FILTERED = '''
game "Filtered" { players 2 }
grid board: player square 4 by 4
counter seen
setup {
  for c in cells(board) where row(board, c) == 0 and column(board, c) != 1 {
    put 0 at c on board
  }
}
turn {
  step s {
    action place(c in empty_cells(board)) "{c}" {
      put me at c on board
      /// the condition is tested before each round: the body's changes count
      for n in neighbours(board, c) where is_empty(board, n) and seen < 2 {
        seen += 1
      }
    }
  }
}
end when turns >= 3
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_for_where_runs_the_body_only_where_the_condition_holds(backend):
    """`for x in S where C { ... }`: the body runs for the elements C holds for, C read before
    each round (so a change made by the body counts for the next element)."""
    game = regle.loads(FILTERED, name="filtered", backend=backend)
    state = game.new_game(seed=1)
    assert [c for c, v in enumerate(state.g_board) if v] == [0, 2, 3]  # a1, c1, d1: not b1
    state.play("b2")  # four empty neighbours, but only two rounds before seen reaches 2
    assert state.c_seen == 2
    state.play("d4")
    assert state.c_seen == 2


def test_for_where_is_kept_by_the_formatter_and_the_rulebook():
    from regle.dsl.printer import format_text
    from regle.rulebook import rulebook
    text = format_text(FILTERED, "f.rules")
    assert "for c in cells(board) where row(board, c) == 0 and column(board, c) != 1 {" in text
    assert format_text(text, "f.rules") == text
    assert "For each `n` in `neighbours(board, c)` such that" in rulebook("f.rules", text=FILTERED)


SINCE = '''
game "Since" {
  players 2
  seats black, white
}
counter pot per player
turn {
  step s {
    action grab "grab" { pot[me] += 1 }
    action wait "wait" { }
  }
}
end when since(grab) >= 2 then winner me
end when turns >= 9
score p { pot: pot[p] }
winner p {
  most score
  ties white
}
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_since_counts_the_turns_after_the_last_one_an_action_was_played(backend):
    """since(A): 0 at the end of a turn A was played in, then 1, 2...; every turn so far while
    it never was (two waits at the start already end the game)."""
    game = regle.loads(SINCE, name="since", backend=backend)
    state = game.new_game(seed=1)
    state.play("wait")
    assert not state.is_over
    state.play("wait")
    assert state.is_over and state.winners == [1]  # the ending turn's player named
    state = game.new_game(seed=1)
    for move in ["grab", "wait", "grab", "wait"]:
        state.play(move)
        assert not state.is_over
    state.play("wait")
    assert state.is_over
    # the turn is kept in the state: a saved game goes on alike
    state = game.new_game(seed=1)
    for move in ["grab", "wait"]:
        state.play(move)
    again = game.state_from_json(state.to_json())
    again.play("wait")
    assert again.is_over


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_tie_can_go_to_a_named_seat(backend):
    game = regle.loads(SINCE, name="since", backend=backend)  # the same game: no second build
    state = game.new_game(seed=1)
    for move in ["grab", "grab", "wait", "grab", "grab", "wait", "grab", "grab", "wait"]:
        state.play(move)  # never two turns without a grab
    assert state.is_over and state.scores == [3, 3] and state.winners == [1]  # white
    assert game.ties == 1 and game.utility() == "zero_sum"


def test_since_and_ties_are_checked_and_seats_name_their_colours_and_marks():
    with pytest.raises(regle.RulesError, match="since\\(\\) takes the name of an action") as info:
        regle.loads(SINCE.replace("since(grab)", "since(grabs)"), name="bad", backend="python")
    assert "grab" in str(info.value)  # the near miss suggested
    with pytest.raises(regle.RulesError, match="'ties red': .* 'red' names no seat"):
        regle.loads(SINCE.replace("ties white", "ties red"), name="bad", backend="python")
    game = regle.loads(SINCE, name="since", backend="python")
    assert game.namespace["SEAT_COLOURS"] == ["black", "white"] and game.namespace["MARKS"] == ["b", "w"]
    from regle.rulebook import rulebook
    assert "a tie on all of these goes to **white**" in rulebook("since.rules", text=SINCE)
    from regle.dsl.printer import format_text
    assert "ties white" in format_text(SINCE, "since.rules")


PER_TURN = '''
game "Per turn" { players 2 }
counter taken per turn
counter best per player
turn {
  repeat step take while taken < 2 {
    action take(n in 1..3) "take {n}" {
      taken += 1
      best[me] = max(best[me], n)
    }
  }
}
end when taken == 2 and turns >= 4
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_counter_per_turn_begins_each_turn_afresh(backend):
    """`counter X per turn`: back to its first value as each turn begins, after the end
    conditions have read it (two takes a turn, since the count starts again at 0)."""
    game = regle.loads(PER_TURN, name="per_turn", backend=backend)
    state = game.new_game(seed=1)
    for turn in range(4):
        assert state.current_player == turn % 2 and state.c_taken == 0
        state.play("take 1")
        assert state.c_taken == 1 and state.current_player == turn % 2  # the same turn goes on
        state.play("take 3")
    assert state.is_over  # the end condition saw taken == 2 before it was set back


def test_per_turn_is_kept_by_the_formatter_and_a_zone_per_turn_starts_empty():
    from regle.dsl.printer import format_text
    from regle.rulebook import rulebook
    assert "counter taken per turn" in format_text(PER_TURN, "p.rules")
    assert "set back as each turn begins" in rulebook("p.rules", text=PER_TURN)
    with pytest.raises(regle.RulesError, match="a zone 'per turn' starts each turn empty"):
        regle.loads(PER_TURN.replace("counter best per player", "zone pile: int per turn = [1]"), name="bad",
                    backend="python")
