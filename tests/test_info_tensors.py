"""Every packaged game with hidden information gives OpenSpiel an information-state tensor, and
it partitions the states as the information-state strings do: over random games, at every node
and for every seat, two states share a string exactly when they share a tensor."""
from __future__ import annotations

import hashlib
import random

import pytest

import regle
from regle import games

HIDDEN = [name for name in games.names() if games.kind(name) != "variant"
          and regle.load(name, backend="python").has_hidden_information]


def test_the_games_with_hidden_information_are_the_expected_ones():
    assert {"pixies", "eclats", "explobilles", "lostcities", "hearts", "kuhn", "leduc", "liarsdice",
            "crazyeights"} <= set(HIDDEN)


@pytest.mark.parametrize("name", HIDDEN)
def test_an_information_state_tensor_partitions_states_as_the_strings_do(name):
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    game = ros.load(name)
    assert game.get_type().provides_information_state_tensor
    size = game.information_state_tensor_shape()[0]
    seats = game.num_players()
    rng = random.Random(name)
    forward: dict = {}
    backward: dict = {}
    for _game in range(1 if size > 100_000 else 3):  # a long game's tensors are large: one game
        state = game.new_initial_state()
        state.apply_action(rng.randrange(len(state.chance_outcomes())))
        while not state.is_terminal():
            for seat in range(seats):
                text = state.information_state_string(seat)
                tensor = state.information_state_tensor(seat)
                assert len(tensor) == size
                digest = hashlib.sha1(bytes(memoryview(_floats(tensor)))).hexdigest()
                assert forward.setdefault((seat, text), digest) == digest, (name, seat)
                assert backward.setdefault((seat, digest), text) == text, (name, seat)
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(forward) > 10


def _floats(values):
    import numpy as np
    return np.asarray(values, dtype=np.float32)
