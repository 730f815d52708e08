"""A native state's legal_action_ids fills the list it gave last time again once the caller has
let it go (runtime/_support.pyx, ``_ids_list``): a loop that asks for the ids at every move makes
and frees no list per move. A list someone still holds is never touched."""
from __future__ import annotations

import random

import pytest

import regle
from conftest import ROOT


@pytest.fixture(scope="module")
def game():
    return regle.load(ROOT / "games/classics/breakthrough.rules", backend="native")


def test_a_list_let_go_is_filled_again_and_a_list_held_is_not(game):
    state = game.new_game(2, seed=1)
    first = state.legal_action_ids()
    where, values = id(first), list(first)
    del first
    again = state.legal_action_ids()
    assert id(again) == where and again == values  # let go: the same list, filled again
    state.advance_id(again[0])
    after = state.legal_action_ids()
    assert after is not again and again == values  # held: a new list, the old one as it was
    assert after != values


def test_what_a_caller_did_to_a_list_it_let_go_does_not_show(game):
    state = game.new_game(2, seed=2)
    values = list(state.legal_action_ids())
    grown = state.legal_action_ids()
    grown += [object(), "x", *range(200)]
    del grown
    assert state.legal_action_ids() == values  # its own items let go, the caller's too
    emptied = state.legal_action_ids()
    emptied.clear()  # (its room given back: a new list is made)
    del emptied
    assert state.legal_action_ids() == values


def test_the_ids_of_every_move_as_a_copy_would_give_them(game):
    """Random games where the list of each move is let go before the next: each list is the
    ids a fresh copy of the state gives (a copy starts with no list of its own)."""
    for seed in range(5):
        rng, state = random.Random(seed), game.new_game(2, seed=seed)
        while not state.over:
            ids = state.legal_action_ids()
            assert ids == state.copy().legal_action_ids()
            pick = rng.choice(ids)
            del ids
            state.advance_id(pick)


@pytest.mark.parametrize("path", ["games/classics/breakthrough.rules", "games/classics/morris.rules",
                                  "games/classics/pentago.rules"])
def test_advance_id_looks_first_where_the_ids_last_listed_had_it_and_trusts_only_its_own_keys(path):
    """advance_id (play_id) looks for an id's key first at the place where the last ids listed,
    by any state, put that id (runtime/_support.pyx, ``_AT_ID``). Two states of one game listed
    in turn leave each other's places there: every id of one still plays its own move (as the
    Python engine's state plays it), and an id legal in the other alone is refused."""
    native, python = (regle.load(ROOT / path, backend=b) for b in ("native", "python"))
    rng = random.Random(5)
    checked = refused = 0
    for seed in range(6):
        a, b = native.new_game(2, seed=seed), native.new_game(2, seed=seed + 100)
        ref = python.new_game(2, seed=seed)
        for _ in range(rng.randrange(1, 30)):  # b some moves further on than a, or another game
            if b.over:
                break
            b.advance_id(rng.choice(b.legal_action_ids()))
        while not a.over and not b.over:
            ids_a = list(a.legal_action_ids())
            ids_b = list(b.legal_action_ids())  # the places noted now are b's
            assert ids_a == ref.legal_action_ids()
            for i in [x for x in ids_b if x not in ids_a][:3]:
                with pytest.raises(regle.IllegalMove):
                    a.copy().advance_id(i)
                refused += 1
            pick = rng.choice(ids_a)
            for x in rng.sample(ids_a, min(3, len(ids_a))):  # a few of a's ids played on copies
                assert a.copy().play_id(x).to_json() == ref.copy().advance_id(x).to_json()
                checked += 1
            a.advance_id(pick)
            ref.advance_id(pick)
            assert a.to_json() == ref.to_json()
            if rng.random() < 0.5 and not b.over:
                b.advance_id(rng.choice(b.legal_action_ids()))
    assert checked > 100 and refused > 10
