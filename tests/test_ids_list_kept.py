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
