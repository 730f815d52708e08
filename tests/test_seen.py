"""What a seat saw go where it cannot see stays put in its determinisations: a card it passed
face down (a ``secret`` action's move into another seat's private hand) is noted in the state
(``seen``: compiler/lower/stmts.py ``saw``, runtime/ops.py ``saw``) and ``state.resample(seat,
...)`` leaves it with the receiver (runtime/hidden.py ``kept_in_place``); other seats' resamples,
which never saw it, still deal it anywhere it could be."""
from __future__ import annotations

import random

import pytest

import regle
from regle import native
from regle.runtime.errors import StateError

PASS = '''game "Pass" { players 3 }
table card(value: int) {
  1..12
}
zone deck: card hidden = card
zone hand: card per player private
setup {
  shuffle deck
  for p in players {
    deal 4 from deck to hand[p]
  }
}
turn {
  step give {
    action give(c in hand[me]) "give {c}" secret "gives a card" {
      move c from hand[me] to hand[(number(me) + 1) % player_count]
    }
  }
}
end when turns >= 6
score p { cards: count(hand[p]) }
'''
BACKENDS = ["python", "native"]
TRIES = 1000


def _game(backend: str, text: str = PASS):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    return regle.loads(text, name="passing", backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_card_a_seat_passed_stays_with_the_receiver_in_its_resamples(backend):
    s = _game(backend).new_game(seed=1)
    move = s.legal_moves()[0]
    passed = move.args[0]
    s.play(move)  # P1 passes a card face down to P2
    assert s.to_json()["seen"] == [[0, "hand", 1, passed]]
    receiver_hands = set()
    for k in range(TRIES):
        r = s.resample(0, k)
        hands = r.to_json()["zones"]["hand"]
        assert passed in hands[1]  # every time
        assert r.view(0) == s.view(0)  # what P1 sees is kept
        receiver_hands.add(tuple(sorted(hands[1])))
    assert len(receiver_hands) > 20  # the rest of P2's hand is dealt again
    # the note is P1's alone: no other seat's view (nor a spectator's) holds it
    assert s.view(0)["seen"] == [[0, "hand", 1, passed]]
    assert s.view(1)["seen"] == s.view(2)["seen"] == s.view(None)["seen"] == []
    # P3 never saw the pass: its resamples put the card anywhere it could be (P2's 5 cards or
    # P1's 3 of the 8 it cannot see), about 5 times in 8
    with_receiver = sum(passed in s.resample(2, k).to_json()["zones"]["hand"][1] for k in range(TRIES))
    assert 0.52 * TRIES < with_receiver < 0.73 * TRIES, with_receiver


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_card_that_moved_on_unseen_is_not_pinned(backend):
    s = _game(backend).new_game(seed=2)
    move = s.legal_moves()[0]
    passed = move.args[0]
    s.play(move)  # P1 to P2
    s.play(next(m for m in s.legal_moves() if m.args[0] == passed))  # P2 passes it on to P3
    assert passed in s.to_json()["zones"]["hand"][2]
    # P1's note puts the card in P2's hand, where it no longer is: nothing is pinned, and P1's
    # resamples put it anywhere it could be
    places = [next(p for p, hand in enumerate(s.resample(0, k).to_json()["zones"]["hand"]) if passed in hand)
              for k in range(300)]
    assert set(places) == {1, 2}
    # P2 saw it go to P3: its resamples keep it there
    assert all(passed in s.resample(1, k).to_json()["zones"]["hand"][2] for k in range(300))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_notes_are_saved_loaded_and_checked(backend):
    game = _game(backend)
    s = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(4):
        s.play(rng.choice(s.legal_moves()))
    saved = s.to_json()
    assert len(saved["seen"]) == 4 and game.state_from_json(saved).to_json() == saved
    assert s.copy().to_json() == saved
    for bad in ([[0, "hand", 9, 1]], [[0, "nowhere", 1, 1]], [[5, "hand", 1, 1]], "x"):
        with pytest.raises(StateError, match="field 'seen'"):
            game.state_from_json({**saved, "seen": bad})


def test_a_game_without_secret_moves_out_of_sight_keeps_no_notes():
    game = _game("python", PASS.replace(' secret "gives a card"', ""))
    s = game.new_game(seed=1)
    s.play(s.legal_moves()[0])
    assert "seen" not in s.to_json()
    with pytest.raises(StateError, match="field 'seen'"):
        game.state_from_json({**s.to_json(), "seen": []})
