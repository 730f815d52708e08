"""Subsets as action parameters (`s in subset Z`): each different sub-collection of a zone or
a list once (dice that show alike are one choice), shown value by value in notations, numbered
densely by action ids, on both engines."""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb, prod

import pytest
from hypothesis import given, strategies as st

import regle
from regle import native
from regle.compiler.generate import engine_source
from regle.runtime import ops
from regle.runtime.actions import subset_of, subset_place


def _backends():
    return ["python", "native"] if native.available() else ["python"]


KEEP = '''
game "Keep" { players 2 }
zone pool: int capacity 6 values 1..6 = [3, 1, 3, 5, 2]
zone hand: int per player
turn {
  step take {
    action take(s in subset pool) "take {s}" {
      require count(s) >= 1 and sum(v for v in s) <= 6
      for v in s {
        move v from pool to hand[me]
      }
    }
    pass "done"
  }
}
end when count(pool) == 0 or turns >= 6
score p { total: sum(v for v in hand[p]) }
'''

MARKS = '''
game "Marks" { players 2 }
grid board: player square 3 by 3
turn {
  step go {
    action mark(s in subset empty_cells(board)) "mark {s}" {
      require count(s) <= 2 and (count(s) == 0 or cell(board, "a1") in s)
      for c in s { put me at c on board }
    }
  }
}
end when turns >= 4
'''


@given(st.lists(st.integers(0, 4), max_size=7))
def test_subsets_lists_each_sub_collection_once_in_any_order(values):
    made = ops.subsets(values)
    assert len(made) == len(set(made))
    expected = {tuple(sorted(c)) for k in range(len(values) + 1) for c in combinations(values, k)}
    assert set(made) == expected
    assert made == ops.subsets(list(reversed(values)))  # the same moves in any order
    assert made == sorted(made, key=lambda c: (len(c), c))
    counts = Counter(values)
    assert len(made) == prod(n + 1 for n in counts.values())


def test_subsets_of_too_many_values_are_refused_when_played():
    with pytest.raises(ValueError, match="more than 65,536 subsets"):
        ops.subsets(list(range(17)))


@given(st.integers(1, 5), st.integers(1, 4), st.integers(0, 3), st.data())
def test_a_multiset_place_is_dense_and_undone(values, most, lowest, data):
    domain = ("multiset", comb(values + most, values), values, lowest, most)
    place = data.draw(st.integers(0, domain[1] - 1))
    chosen = subset_of(place, domain)
    assert len(chosen) <= most and list(chosen) == sorted(chosen)
    assert subset_place(chosen, domain) == place
    assert subset_place(chosen + (lowest + values,), domain) == domain[1]  # outside: refused


@given(st.sets(st.integers(0, 7)))
def test_a_subset_of_distinct_values_is_a_bit_each(values):
    domain = ("subset", 2 ** 8, 8, 0)
    chosen = tuple(sorted(values))
    assert subset_place(chosen, domain) == sum(1 << v for v in values)
    assert subset_of(subset_place(chosen, domain), domain) == chosen
    assert subset_place((1, 1), domain) == domain[1]  # a cell twice: no such subset


@pytest.mark.parametrize("backend", _backends())
def test_a_subset_parameter_offers_each_different_choice_once(backend):
    game = regle.loads(KEEP, name="keep", backend=backend)
    state = game.new_game(seed=1)
    moves = [str(m) for m in state.legal_moves()]
    # pool 3, 1, 3, 5, 2: the two 3s are one choice each way they can be taken
    assert moves == ["take 1", "take 2", "take 3", "take 5", "take 1 2", "take 1 3", "take 1 5",
                     "take 2 3", "take 3 3", "take 1 2 3"]
    ids = state.legal_action_ids()
    assert len(set(ids)) == len(ids) and len(game.action_space(2)) == comb(6 + 6, 6) + 1
    assert [game.describe_action(i) for i in ids] == moves
    for i, m in zip(ids, state.legal_moves()):
        assert state.copy().play_id(i).to_json() == state.copy().play(m).to_json()
    state.play("take 3 3")  # both 3s move to the hand
    assert sorted(state.view(0)["zones"]["hand"][0]) == [3, 3]
    assert [str(m) for m in state.legal_moves()] == ["take 1", "take 2", "take 5", "take 1 2", "take 1 5"]
    with pytest.raises(regle.IllegalMove):
        state.play("take 3")


@pytest.mark.parametrize("backend", _backends())
def test_a_subset_of_cells_and_the_empty_subset(backend):
    game = regle.loads(MARKS, name="marks", backend=backend)
    state = game.new_game(seed=1)
    moves = [str(m) for m in state.legal_moves()]
    assert moves[:3] == ["mark none", "mark a1", "mark a1 b1"] and len(moves) == 10
    assert state.legal_action_ids()[:3] == [0, 1, 0b11] and len(game.action_space(2)) == 2 ** 9
    state.play("mark none")
    state.play("mark a1 c3")
    assert [str(m) for m in state.legal_moves()] == ["mark none"]


def test_both_engines_play_the_same_games_with_subsets():
    if not native.available():
        pytest.skip("no native engines here")
    games = [regle.loads(KEEP, name="keep", backend=b) for b in ("python", "native")]
    for seed in range(20):
        states = [g.new_game(seed=seed) for g in games]
        for s in states:
            s.play_random_playout(seed=seed)
        assert states[0].to_json() == states[1].to_json()


def _errors(text: str) -> list[str]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [f"{d.line}:{d.column} {d.message}" for d in info.value.diagnostics]


def test_a_subset_is_drawn_from_values_it_can_hold():
    assert _errors(KEEP.replace("subset pool", "subset 3")) == [
        "7:29 expected a zone or a list here, but this is a number"]
    truths = KEEP.replace("zone pool: int capacity 6 values 1..6 = [3, 1, 3, 5, 2]", "zone pool: bool = [true]")
    assert any("a subset is drawn from numbers, seats, enum values, items or cells" in e for e in _errors(truths))


def test_a_subset_without_a_bound_has_no_action_ids_and_says_why():
    game = regle.loads(KEEP.replace("capacity 6 ", ""), name="keep_free", backend="python")
    with pytest.raises(ValueError, match="may hold a value any number of times"):
        game.action_space(2)
    assert [str(m) for m in game.new_game(seed=1).legal_moves()][:2] == ["take 1", "take 2"]


def test_the_formatter_keeps_a_subset_parameter():
    from regle.dsl.printer import format_text
    text = format_text(KEEP)
    assert '    action take(s in subset pool) "take {s}" {' in text
    assert format_text(text) == text


def test_the_browser_points_at_each_cell_of_a_subset():
    from regle.web.sessions import _moves
    game = regle.loads(MARKS, name="marks", backend="python")
    moves = {m["text"]: m for m in _moves(game, game.new_game(seed=1), 0)}
    assert [c[2] for c in moves["mark a1 c3"]["cells"]] == [0, 8]
    assert moves["mark none"]["cells"] == []
