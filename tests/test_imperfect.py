"""Imperfect information, faithfully (issue 54): who starts can come from the deal, and a
first player that reads what setup has not made yet is refused."""
from __future__ import annotations

import collections
from pathlib import Path

import pytest

import regle
from regle import native
from regle.dsl.errors import RulesError

LEAD = """game "Lead" {
  players 3
}

enum suit { clubs = "C", hearts = "H" }

table card(suit: suit, rank: int) show "{rank}{suit:symbol}" {
  suit 2..4
}

zone deck: card hidden = card
zone hand: card per player private
counter played = 0

setup {
  shuffle deck
  for p in players {
    deal 2 from deck to hand[p]
  }
  next player argmax(count(c for c in hand[p] where c.rank == 2 and c.suit == clubs) for p in players)
}

turn {
  action play(c in hand[me]) "{c}" {
    move c from hand[me] to deck
    played += 1
  }
}

end when played == 3
"""

BACKENDS = ["python"] + (["native"] if native.available() else [])


@pytest.mark.parametrize("backend", BACKENDS)
def test_setup_says_who_starts_from_the_deal(backend):
    game = regle.loads(LEAD, "lead", backend=backend)
    starters = set()
    for seed in range(12):
        state = game.new_game(3, seed=seed)
        hands = state.to_json()["zones"]["hand"]
        holder = next(p for p in range(3) if any(game.show("item:card", c) == "2C" for c in hands[p]))
        assert state.current_player == holder
        starters.add(holder)
        state.play(state.legal_moves()[0])
        assert state.current_player == (holder + 1) % 3  # then the seats go in order
    assert len(starters) > 1  # the deal decides, not a fixed seat


def test_a_first_player_that_reads_what_setup_makes_is_refused_where_it_reads():
    text = LEAD.replace("  players 3\n", "  players 3\n  first player count(hand[0]) % 3\n")
    with pytest.raises(RulesError) as err:
        regle.loads(text, "lead_first", backend="python")
    [d] = err.value.diagnostics
    assert (d.line, d.column) == (3, 22) and "chosen before setup, so 'hand' is not set up yet" in d.message
    assert "next player" in d.hint
    through = LEAD.replace("  players 3\n", "  players 3\n  first player so_far()\n") + \
        "define so_far() = played % 3\n"
    with pytest.raises(RulesError, match="'played' is not set up yet"):
        regle.loads(through, "lead_through", backend="python")
    fine = LEAD.replace("  players 3\n", "  players 3\n  first player random(player_count)\n")
    regle.loads(fine, "lead_random", backend="python")


# ---- reveals are rules ---------------------------------------------------------------------------
def _kuhn_games(backend: str):
    game = regle.load("kuhn", backend=backend)
    for seed in range(60):
        state = game.new_game(2, seed=seed)
        state.play_random_playout(seed)
        yield game, state, state.to_json()["counters"]["folded"] >= 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fold_reveals_nothing_and_a_showdown_reveals_the_hands(backend):
    folds = showdowns = 0
    for game, state, folded in _kuhn_games(backend):
        assert state.is_over
        for seat in (0, 1, None):
            hands = state.view(seat)["zones"]["hand"]
            for owner in (0, 1):
                seen = not isinstance(hands[owner], dict)
                assert seen == (owner == seat or not folded), (seat, owner, folded)
        folds += folded
        showdowns += not folded
        assert game.state_from_json(state.to_json()).view(None) == state.view(None)
    assert folds and showdowns


def test_the_adapter_and_the_page_keep_a_folded_card_secret():
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    from regle.web.render import table_html
    spiel = ros.load("kuhn", returns="scores")
    for deal in range(6):
        state = spiel.new_initial_state()
        state.apply_action(state.chance_outcomes()[deal][0])
        state.apply_action(1)  # P1 bets (OpenSpiel's ids: check or fold 0, bet or call 1)
        state.apply_action(0)  # P2 folds
        assert state.is_terminal()
        import json
        text = state.information_state_string(1)
        seen = json.loads(text[text.index("{"):])["zones"]["hand"]
        assert seen[0] == {"hidden": 1} and isinstance(seen[1], list)  # P2 sees its own card only
        page = table_html(state.inner, 1)
        assert 'data-zone="hand" data-instance="1" data-index="0"' in page
        assert 'data-zone="hand" data-instance="0" data-index="0"' not in page


def test_reveal_and_shown_at_end_are_refused_where_everyone_sees_already():
    head = 'game "R" {\n  players 2\n}\n\nzone pile: int = [1, 2]\nzone secret: int hidden = [3]\n'
    turn = 'turn {\n  action go "go" {\n    STMT\n  }\n}\n\nend when true\n'
    for stmt, said in (("reveal pile", "everyone sees 'pile' already"),
                       ("reveal secret[0]", "'secret' is one place, not one per player"),
                       ("reveal 3", "'reveal' names a zone, a grid or a private counter")):
        with pytest.raises(RulesError, match=said):
            regle.loads(head + turn.replace("STMT", stmt), "r", backend="python")
    with pytest.raises(RulesError, match="'shown at end' is for hidden or private places"):
        regle.loads(head.replace("= [1, 2]", "shown at end = [1, 2]") + turn.replace("STMT", "reveal secret"),
                    "r2", backend="python")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_revealed_hidden_zone_is_seen_resampled_as_is_and_saved(backend):
    text = ('game "R" {\n  players 2\n}\n\nzone secret: int hidden = [3, 4, 5]\nzone bag: int hidden = [6, 7]\n'
            'counter went = 0\n\nsetup {\n  shuffle secret\n  shuffle bag\n}\n\n'
            'turn {\n  action go "go" {\n    reveal secret\n    went += 1\n  }\n}\n\nend when went == 2\n')
    game = regle.loads(text, "reveal_" + backend, backend=backend)
    state = game.new_game(2, seed=5)
    assert state.view(1)["zones"]["secret"] == {"hidden": 3}
    state.play("go")
    order = state.to_json()["zones"]["secret"]
    assert state.view(1)["zones"]["secret"] == order and state.view(None)["zones"]["bag"] == {"hidden": 2}
    for k in range(20):  # determinisation keeps what everyone saw, and deals the rest again
        assert state.resample(1, k).to_json()["zones"]["secret"] == order
    saved = state.to_json()
    assert saved["revealed"] == [["secret", -1]]
    assert game.state_from_json(saved).view(1)["zones"]["secret"] == order
    saved["revealed"] = [["nowhere", -1]]
    with pytest.raises(regle.StateError, match="field 'revealed'"):
        game.state_from_json(saved)


# ---- who sees a move --------------------------------------------------------------------------------
GIVE = """game "Give" {
  players 3
}

table card(rank: int) show "{rank}" {
  1..9
}

zone deck: card hidden = card
zone hand: card per player private
counter given = 0

setup {
  shuffle deck
  for p in players {
    deal 3 from deck to hand[p]
  }
}

turn {
  action give(c in hand[me]) "give {c}" secret "gives a card" {
    move c from hand[me] to hand[(number(me) + 1) % player_count]
    given += 1
  }
}

end when given == 3
"""


def test_a_secret_move_is_seen_by_its_player_only():
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    spiel = ros.load(regle.loads(GIVE, "give", backend="python"), 3, chance="explicit")
    first = spiel.new_initial_state()
    while first.is_chance_node():
        first.apply_action(first.chance_outcomes()[0][0])
    legal = first.legal_actions()
    assert len(legal) == 3
    after = []
    for action in legal[:2]:
        state = first.clone()
        state.apply_action(action)
        after.append(state)
    third = [s.information_state_string(2) for s in after]
    assert third[0] == third[1] and "P1 gives a card" in third[0]  # P3 cannot tell which card went
    assert third[0].startswith("p2 moves ['P1 gives a card'] ")  # no action id: it would name the card
    assert after[0].information_state_string(0) != after[1].information_state_string(0)  # P1 knows
    assert after[0].information_state_string(1) != after[1].information_state_string(1)  # P2 got it
    if spiel.get_type().provides_information_state_tensor:
        assert after[0].information_state_tensor(2) == after[1].information_state_tensor(2)


def test_a_secret_moves_page_and_terminal_show_its_text_to_the_others(tmp_path):
    from regle.web.sessions import Hub
    game = regle.loads(GIVE, "give_page", backend="python")
    hub = Hub(game, ["human", "human", "human"], 3)
    try:
        session = hub.create({"seed": 2})
        move = session.state.legal_moves()[0]
        with session.lock:
            session.apply(move, 0)
        assert session.payload(0)["log"] == [f"P1: {move}"]
        for seat in (1, 2, None):
            seen = session.payload(seat)
            assert seen["log"] == ["P1: gives a card"] and seen["last"]["text"] == "gives a card"
    finally:
        hub.stop()
    path = tmp_path / "give.rules"
    path.write_text(GIVE, encoding="utf-8")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "regle.cli", "play", str(path), "--seats", "random,random,random",
                          "--seed", "1", "--quiet"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.count("gives a card") == 3 and "give " not in out.stdout


def test_a_secret_text_names_nothing_of_the_move_and_formats_back():
    from regle.dsl import parse
    from regle.dsl.printer import format_text
    with pytest.raises(RulesError, match="names nothing of the move"):
        regle.loads(GIVE.replace('secret "gives a card"', 'secret "gives {c}"'), "give_bad", backend="python")
    formatted = format_text(GIVE)
    assert 'secret "gives a card"' in formatted and parse(formatted) == parse(GIVE)
    bare = GIVE.replace('secret "gives a card"', "secret")
    assert regle.loads(bare, "give_bare", backend="python").State.MOVE.SECRET == ("give",)


# ---- who sees a draw: private counters ----------------------------------------------------------------
CUP = """game "Cup" {
  players 2
}

/// Each player's die, under a cup: its owner sees it.
counter cup per player private
counter called = 0

setup {
  for p in players {
    cup[p] = die(6)
  }
}

turn {
  action call(n in 2..12) "call {n}" {
    require n > called
    called = n
  }
  action doubt "doubt" {
    require called > 0
    reveal cup
    end game
  }
}

score p {
  right: if cup[0] + cup[1] >= called then 1 else 0
}

end when called == 12
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_private_counter_is_seen_by_its_seat_only_until_revealed(backend):
    game = regle.loads(CUP, "cup_" + backend, backend=backend)
    assert game.has_hidden_information
    state = game.new_game(2, seed=4)
    dice = state.to_json()["counters"]["cup"]
    assert all(1 <= d <= 6 for d in dice)
    assert state.view(0)["counters"]["cup"] == [dice[0], None]
    assert state.view(1)["counters"]["cup"] == [None, dice[1]]
    assert state.view(None)["counters"]["cup"] == [None, None]
    assert state.scores_seen_by(0)[1] is None  # the score reads both dice
    spec = {name: start for name, start, _length in game.observation_spec(2)}
    assert state.observation(0)[spec["counter cup[1]"]] == 0  # the other's die: unseen
    assert state.observation(1)[spec["counter cup[1]"]] == dice[1]
    state.play("call 5")
    state.play("doubt")
    assert state.is_over and state.view(None)["counters"]["cup"] == dice


def test_determinisation_draws_the_unseen_die_again_and_keeps_ones_own():
    game = regle.loads(CUP, "cup_resample", backend="python")
    state = game.new_game(2, seed=4)
    own = state.to_json()["counters"]["cup"][0]
    others = {state.resample(0, k).to_json()["counters"]["cup"][1] for k in range(40)}
    assert {state.resample(0, k).to_json()["counters"]["cup"][0] for k in range(10)} == {own}
    assert len(others) >= 4  # drawn again, not the true die


def test_explicit_chance_deals_two_dice_in_36_ways_and_each_seat_sees_its_own():
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    spiel = ros.load(regle.loads(CUP, "cup_spiel", backend="python"), 2, chance="explicit")
    first = spiel.new_initial_state()
    deals, strings = 0, {}
    for a, pa in first.chance_outcomes():
        one = first.child(a)
        for b, pb in one.chance_outcomes():
            two = one.child(b)
            assert not two.is_chance_node() and pa * pb == pytest.approx(1 / 36)
            deals += 1
            strings.setdefault(two.information_state_string(0), set()).add(b)
    assert deals == 36 and len(strings) == 6 and all(len(v) == 6 for v in strings.values())


def test_a_private_counter_is_one_per_player():
    with pytest.raises(RulesError, match="a private counter is one per player"):
        regle.loads(CUP.replace("counter called = 0", "counter called private = 0"), "cup_bad", backend="python")


# ---- Liar's dice, node for node against OpenSpiel's liars_dice ------------------------------------------
def _partition_matches(pairs: dict) -> None:
    """Each seat's information-state strings: one of OpenSpiel's is one of regle's, both ways."""
    for seat, seen in pairs.items():
        forward, backward = {}, {}
        for theirs, ours in seen:
            assert forward.setdefault(theirs, ours) == ours, (seat, theirs)
            assert backward.setdefault(ours, theirs) == theirs, (seat, ours)


def _node_for_node(theirs_game, ours_game, games: int, seed: int, same_outcomes: bool = True) -> list:
    """``games`` random games played on OpenSpiel's game and on regle's through the adapter side
    by side: at every node the same player; at chance nodes the same probabilities, outcome by
    outcome (``same_outcomes``: the same outcome ids too; otherwise the k-th outcome of each is
    the same, as cards left in the deck's order are); elsewhere the same legal ids; the same
    returns at the end, and each seat's information states partitioned alike. OpenSpiel's
    histories of the games."""
    import random
    rng = random.Random(seed)
    pairs: dict[int, set] = {0: set(), 1: set()}
    histories = []
    for _game in range(games):
        theirs, ours = theirs_game.new_initial_state(), ours_game.new_initial_state()
        while not theirs.is_terminal():
            assert not ours.is_terminal() and theirs.current_player() == ours.current_player()
            if theirs.is_chance_node():
                assert ours.is_chance_node()
                mine, other = theirs.chance_outcomes(), ours.chance_outcomes()
                assert [p for _a, p in mine] == pytest.approx([p for _a, p in other])
                assert not same_outcomes or [a for a, _p in mine] == [a for a, _p in other]
                k = rng.randrange(len(mine))
                theirs.apply_action(mine[k][0])
                ours.apply_action(other[k][0])
                continue
            assert theirs.legal_actions() == ours.legal_actions()
            for seat in (0, 1):
                pairs[seat].add((theirs.information_state_string(seat), ours.information_state_string(seat)))
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply_action(action)
        assert ours.is_terminal() and theirs.returns() == ours.returns()
        histories.append(theirs.history())
    _partition_matches(pairs)
    return histories


def test_liars_dice_is_openspiels_at_every_node_of_a_thousand_games():
    pyspiel = pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    theirs_game = pyspiel.load_game("liars_dice")
    ours_game = ros.load("liarsdice", chance="explicit")
    assert ours_game.num_distinct_actions() == theirs_game.num_distinct_actions()
    _node_for_node(theirs_game, ours_game, 1000, 7)


def _native_plays(name: str, spiel_name: str, seed: int, chance, returns) -> None:
    """1,000 seeded games of the native engine played beside OpenSpiel's game: ``chance(state)``
    gives OpenSpiel's outcome for each of its chance nodes from the regle state (the dice or
    cards regle drew), then at every decision the same legal ids and player; ``returns(state)``
    OpenSpiel's returns at the end."""
    pyspiel = pytest.importorskip("pyspiel")
    import random
    theirs_game = pyspiel.load_game(spiel_name)
    game = regle.load(name, backend="native")
    rng = random.Random(seed)
    for game_seed in range(1000):
        state = game.new_game(2, seed=game_seed)
        theirs = theirs_game.new_initial_state()
        drawn = 0
        while not theirs.is_terminal():
            if theirs.is_chance_node():
                theirs.apply_action(chance(state)[drawn])
                drawn += 1
                continue
            assert sorted(state.legal_action_ids()) == theirs.legal_actions()
            assert state.current_player == theirs.current_player()
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            state.advance_id(action)
        assert state.is_over and returns(state) == theirs.returns()


@pytest.mark.skipif(not native.available(), reason="no C compiler here")
def test_liars_dice_on_the_native_engine_plays_openspiels_games():
    _native_plays("liarsdice", "liars_dice", 3, lambda s: [die - 1 for die in s.to_json()["counters"]["cup"]],
                  lambda s: [1.0 if p in s.winners else -1.0 for p in range(2)])


@pytest.fixture(scope="module")
def liars_tree():
    """Liar's dice written out as a tree (regle.adapters.spiel_tree), on the native engine where
    there is one: written once for the tests below (about 10 s)."""
    pytest.importorskip("pyspiel")
    from regle.adapters import spiel_tree
    return spiel_tree.load_tree(regle.load("liarsdice", backend="native" if native.available() else "python"))


def test_liars_dice_exploitability_equals_openspiels_through_the_whole_tree(liars_tree):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as policies
    from open_spiel.python.algorithms import exploitability
    ours = liars_tree
    theirs = pyspiel.load_game("liars_dice")
    # OpenSpiel's Python algorithm through our tree; its C++ one on its own game (the same value,
    # in a tenth of the time)
    assert exploitability.exploitability(ours, policies.UniformRandomPolicy(ours)) == pytest.approx(
        pyspiel.exploitability(theirs, pyspiel.UniformRandomPolicy(theirs)), abs=1e-9)


def test_liars_dice_tree_deals_one_die_each_in_36_ways(liars_tree):
    """Through load_tree on the native engine (where there is one): explicit chance deals the
    two dice under their cups in 36 ways, each 1/36, as OpenSpiel's liars_dice."""
    first = liars_tree.new_initial_state()
    deals = {}
    for a, pa in first.chance_outcomes():
        one = first.child(a)
        for b, pb in one.chance_outcomes():
            two = one.child(b)
            assert not two.is_chance_node()
            deals[(a, b)] = pa * pb
    assert len(deals) == 36 and all(p == pytest.approx(1 / 36) for p in deals.values())


def test_liars_dice_cfr_through_the_tree_equals_openspiels(liars_tree):
    """C++ CFR, 20 iterations, on the native engine's tree and on pyspiel's liars_dice: the
    average policy's exploitability and the game's value agree to 1e-9 (a tree that differs
    anywhere differs from the first iteration on; 100 iterations took 50 s of the suite)."""
    pyspiel = pytest.importorskip("pyspiel")
    results = []
    for game in (liars_tree, pyspiel.load_game("liars_dice")):
        solver = pyspiel.CFRSolver(game)
        for _ in range(20):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        results.append((pyspiel.exploitability(game, average),
                        pyspiel.expected_returns(game.new_initial_state(), average, -1, True)[0]))
    assert results[0] == pytest.approx(results[1], abs=1e-9)
    assert 0 < results[1][0] < 0.12  # 0.096 after 20 iterations: CFR at work, not a uniform policy


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["kuhn", "liarsdice", "pixies", "lostcities", "hearts"])
def test_the_engines_observation_is_its_reference_read_from_the_view_at_every_position(name, backend):
    """The compiled observation and regle.runtime.observe (which reads view) agree, reveals and
    private counters included: nothing a seat may not see reaches its vector, at the end too."""
    from regle.runtime.observe import observation as reference
    game = regle.load(name, backend=backend)
    for seed in range(8):
        state = game.new_game(game.players.start, seed=seed)
        while True:
            for seat in [None, *range(state.n)]:
                ours, theirs = list(state.observation(seat)), list(reference(state, seat))
                assert ours == theirs or ours == pytest.approx(theirs), (seed, seat)  # (exact first: quick)
            if state.is_over:
                break
            state.play_random_playout(seed * 100 + state.decisions, limit=1)


# ---- Kuhn poker, node for node against OpenSpiel's kuhn_poker ---------------------------------------------
def test_kuhn_poker_is_openspiels_at_every_node_of_a_thousand_games():
    """Legal ids (a check and a fold are OpenSpiel's "pass", 0; a bet and a call its "bet", 1:
    ``ids as``), the seat to play, chance outcomes (the k-th card left is the same card) and
    their probabilities, returns, and each seat's information states partitioned alike."""
    pyspiel = pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    theirs_game = pyspiel.load_game("kuhn_poker")
    ours_game = ros.load("kuhn", chance="explicit", returns="scores")
    assert ours_game.num_distinct_actions() == theirs_game.num_distinct_actions() == 2
    _node_for_node(theirs_game, ours_game, 1000, 13, same_outcomes=False)


@pytest.mark.skipif(not native.available(), reason="no C compiler here")
def test_kuhn_poker_on_the_native_engine_plays_openspiels_games():
    _native_plays("kuhn", "kuhn_poker", 17, lambda s: [hand[0] for hand in s.to_json()["zones"]["hand"]],
                  lambda s: [float(v) for v in s.scores])


# ---- Leduc poker, node for node against OpenSpiel's leduc_poker -----------------------------------------
def test_leduc_poker_is_openspiels_at_every_node_of_a_thousand_games():
    pyspiel = pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    theirs_game = pyspiel.load_game("leduc_poker")
    ours_game = ros.load("leduc", chance="explicit", returns="scores")
    assert ours_game.num_distinct_actions() == theirs_game.num_distinct_actions() == 3  # fold, call, raise
    # the cards left, in the deck's order: the k-th outcome of each is the same card
    histories = _node_for_node(theirs_game, ours_game, 1000, 11, same_outcomes=False)
    folds = sum(h[-1] == 0 for h in histories)
    showdowns = sum(h[-1] == 1 for h in histories)
    assert folds > 100 and showdowns > 100  # both ways of ending, many times


@pytest.mark.skipif(not native.available(), reason="no C compiler here")
def test_leduc_poker_on_the_native_engine_plays_openspiels_games():
    def cards(state):  # each hand's card, then the public one: numbered as the deck and OpenSpiel number them
        zones = state.to_json()["zones"]
        return [hand[0] for hand in zones["hand"]] + zones["board"]
    _native_plays("leduc", "leduc_poker", 5, cards, lambda s: [float(v) for v in s.scores])


def test_leduc_poker_solved_through_the_tree_equals_openspiels():
    """Exact algorithms on the native engine's tree: 120 chance sequences (six cards, five, four
    for the public card), the uniform policy's exploitability, and C++ CFR after 100 iterations
    (its exploitability and the game's value) equal pyspiel's."""
    pyspiel = pytest.importorskip("pyspiel")
    from regle.adapters import spiel_tree
    backend = "native" if native.available() else "python"
    ours = spiel_tree.load_tree(regle.load("leduc", backend=backend), returns="scores")
    theirs = pyspiel.load_game("leduc_poker")

    def deals(state, chance, out):
        if state.is_terminal():
            out.add(tuple(chance))
            return out
        if state.is_chance_node():
            for action, _p in state.chance_outcomes():
                deals(state.child(action), chance + [action], out)
        else:
            for action in state.legal_actions():
                deals(state.child(action), chance, out)
        return out
    assert len({d for d in deals(ours.new_initial_state(), [], set()) if len(d) == 3}) == 120
    results = []
    for game in (ours, theirs):
        uniform = pyspiel.UniformRandomPolicy(game)
        solver = pyspiel.CFRSolver(game)
        for _ in range(20):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        results.append((pyspiel.exploitability(game, uniform), pyspiel.exploitability(game, average),
                        pyspiel.expected_returns(game.new_initial_state(), average, -1, True)[0]))
    assert results[0] == pytest.approx(results[1], abs=1e-9)
    assert results[1][0] == pytest.approx(2.3736111, abs=1e-6)


def test_leduc_poker_never_shows_a_folded_card():
    import random
    game = regle.load("leduc", backend="python")
    rng = random.Random(2)
    seen_fold = 0
    for seed in range(200):
        state = game.new_game(2, seed=seed)
        while not state.is_over:
            moves = state.legal_moves()
            state.play(moves[0] if "fold" in map(str, moves) and rng.random() < 0.5 else rng.choice(moves))
        folded = state.to_json()["counters"]["folded"]
        if folded >= 0:
            seen_fold += 1
            for seat in (0, 1):  # neither seat, nor a spectator, sees the other's card
                hands = state.view(seat)["zones"]["hand"]
                assert hands[1 - seat] == {"hidden": 1}
            assert all(hand == {"hidden": 1} for hand in state.view(None)["zones"]["hand"])
    assert seen_fold > 20


# ---- research loops: OpenSpiel's Python algorithms on the shipped games, through the adapter ----------
@pytest.mark.parametrize("name, returns", [("kuhn", "scores"), ("leduc", "scores"), ("liarsdice", "winners"),
                                           ("hearts", "scores")])
def test_openspiels_python_algorithms_run_on_each_shipped_imperfect_information_game(name, returns):
    """OpenSpiel's own Python MCTS bot plays a game, outcome-sampling Monte Carlo CFR iterates,
    and its RL environment (the loop NFSP and DQN agents drive) runs episodes with information
    states and legal actions, on Kuhn, Leduc, Liar's dice and Hearts written in regle; on Kuhn,
    tabular CFR lowers the exploitability. NFSP's loop: each seat's tabular Q-learner (a best
    response learned by RL, on information-state strings) trains in self-play and then against
    the other seat's average play (uniform), beside the count of what it played (the supervised
    half), and the learners end up beating uniform random play on Kuhn. (Learners trained only in
    self-play won anywhere from -28 to +493 chips, run to run: a test of luck, not of the loop.)"""
    pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import cfr, exploitability, mcts, outcome_sampling_mccfr, random_agent
    from open_spiel.python.algorithms import tabular_qlearner
    import regle.adapters.openspiel as ros
    game = ros.load(name, chance="explicit", returns=returns)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.4, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(bot.step(state))
    # zero-sum, but Hearts: 26 minus the points each took (78 in all, or 26 when the moon is shot)
    assert sum(state.returns()) == pytest.approx(0) if name != "hearts" else sum(state.returns()) in (78, 26)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(100):
        solver.iteration()
    env = rl_environment.Environment(game)
    seats = game.num_players()
    agents = [random_agent.RandomAgent(p, game.num_distinct_actions()) for p in range(seats)]
    for _episode in range(20):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            assert step.observations["legal_actions"][seat] and len(step.observations["info_state"][seat]) > 0
            step = env.step([agents[seat].step(step).action])
        assert name == "hearts" or sum(step.rewards) == pytest.approx(0)
    np.random.seed(0)
    env.seed(0)  # the environment's own chance sampler: without a seed each run deals differently
    learners = [tabular_qlearner.QLearner(p, game.num_distinct_actions(), step_size=0.2) for p in range(seats)]
    averages = [collections.Counter() for _ in range(seats)]  # NFSP's supervised half: what each played
    _episodes(env, learners, 30, averages)  # self-play
    if name == "kuhn":  # NFSP's RL half: each learner a best response to the other's average play (uniform)
        _episodes(env, [learners[0], agents[1]], 1500, averages)
        _episodes(env, [agents[0], learners[1]], 1500, averages)
    assert all(learner._q_values for learner in learners) and all(averages)
    if name == "kuhn":  # the learners, greedy, against uniform random play from both seats
        won = _episodes(env, [learners[0], agents[1]], 1000)[0] + _episodes(env, [agents[0], learners[1]], 1000)[1]
        assert won > 0, won
    if name == "kuhn":
        tabular = cfr.CFRSolver(game)
        first = None
        for _ in range(20):
            tabular.evaluate_and_update_policy()
            first = first or exploitability.exploitability(game, tabular.average_policy())
        assert exploitability.exploitability(game, tabular.average_policy()) < first


def _episodes(env, agents: list, count: int, averages: list | None = None) -> list[float]:
    """``count`` episodes of OpenSpiel's RL environment, ``agents`` playing their seats (each
    told every step, as NFSP's loop does; learners learn unless ``averages`` is None, then they
    are evaluated); each seat's returns summed; with ``averages``, each seat's actions counted."""
    totals = [0.0] * len(agents)
    evaluating = averages is None
    for _episode in range(count):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            action = agents[seat].step(step, is_evaluation=evaluating).action
            if averages is not None:
                averages[seat][action] += 1
            step = env.step([action])
        for agent in agents:
            agent.step(step, is_evaluation=evaluating)
        totals = [total + reward for total, reward in zip(totals, step.rewards)]
    return totals


# ---- Crazy Eights, move for move against OpenSpiel's crazy_eights --------------------------------------
_RANKS, _SUITS = "23456789TJQKA", "CDHS"
_CRAZY = Path(__file__).resolve().parent.parent / "games" / "classics" / "crazyeights.rules"


def _crazy_eights(players: int, max_plays: int = 100, max_draws: int = 5, backend: str = "python"):
    """regle's crazyeights.rules and OpenSpiel's crazy_eights with the same parameters."""
    pyspiel = pytest.importorskip("pyspiel")
    text = _CRAZY.read_text(encoding="utf-8").replace("param max_plays = 100", f"param max_plays = {max_plays}")
    text = text.replace("param max_draws = 5", f"param max_draws = {max_draws}")
    game = regle.loads(text, name=f"crazyeights_{max_plays}_{max_draws}", backend=backend)
    theirs = pyspiel.load_game(f"crazy_eights(players={players},max_turns={max_plays},max_draw_cards={max_draws})")
    return game, theirs


def _card_of(text: str) -> int:
    """OpenSpiel's number of a card from its chance text, "Deal H7": the table's order too."""
    return _RANKS.index(text[6]) * 4 + _SUITS.index(text[5])


@pytest.mark.parametrize("players, max_plays, max_draws, games", [(2, 100, 5, 300), (3, 100, 5, 100), (5, 100, 5, 50),
                                                                  (2, 12, 2, 100)])
def test_crazy_eights_is_openspiels_at_every_node(players, max_plays, max_draws, games):
    """Through the OpenSpiel adapter with explicit chance: at every node the same player, at
    chance nodes as many outcomes with the same probabilities (the dealer, then each card from
    those left: regle's k-th outcome is the k-th card of its deck, a turned-up eight put back
    last), at decisions the same legal ids (a card is its number, then draw, pass and the four
    suits to name), and the same returns (what the cards left in hand cost). A draw of the last
    card is no chance node for regle (one outcome), but one for OpenSpiel."""
    import random
    import pyspiel
    import regle.adapters.openspiel as ros
    game, theirs_game = _crazy_eights(players, max_plays, max_draws)
    ours_game = ros.load(game, players=players, chance="explicit", returns="scores")
    assert ours_game.num_distinct_actions() == theirs_game.num_distinct_actions() == 58
    rng = random.Random(players * 1000 + max_plays)
    dealt_first = 7 if players == 2 else 5
    ends = {"hand": 0, "plays": 0, "passes": 0}
    for _game in range(games):
        theirs, ours = theirs_game.new_initial_state(), ours_game.new_initial_state()
        deck, deals = list(range(52)), 0
        while not theirs.is_terminal():
            mine = theirs.chance_outcomes() if theirs.is_chance_node() else None
            if mine is not None and len(mine) == 1 and not ours.is_chance_node():  # the last card
                deck.remove(_card_of(theirs.action_to_string(pyspiel.PlayerId.CHANCE, mine[0][0])))
                theirs.apply_action(mine[0][0])
                continue
            assert not ours.is_terminal() and theirs.current_player() == ours.current_player()
            if mine is not None:
                other = ours.chance_outcomes()
                assert [p for _a, p in mine] == pytest.approx([p for _a, p in other])
                k = rng.randrange(len(mine))
                text = theirs.action_to_string(pyspiel.PlayerId.CHANCE, mine[k][0])
                if text.startswith("Deal "):
                    card = _card_of(text)
                    k_ours = deck.index(card)
                    deck.remove(card)
                    deals += 1
                else:  # the dealer
                    card, k_ours = None, k
                theirs.apply_action(mine[k][0])
                ours.apply_action(other[k_ours][0])
                if card is not None and deals > players * dealt_first and text[6] == "8" and theirs.is_chance_node():
                    deck.append(card)  # the turned-up eight goes back, at the end of regle's deck
                continue
            assert theirs.legal_actions() == ours.legal_actions()
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply_action(action)
        assert ours.is_terminal() and ours.returns() == theirs.returns()
        counters = ours.inner.to_json()["counters"]
        ends["passes" if counters["passes"] == players + 1 else "plays" if counters["played"] >= max_plays
             else "hand"] += 1
    if max_plays < 20:  # a short game: the bound on cards played ends some
        assert ends["plays"] > 0
    else:  # an empty hand ends some, passes on an empty deck others
        assert ends["hand"] > 0 and ends["passes"] > 0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("players", [2, 4])
def test_crazy_eights_plays_openspiels_games_on_both_engines(backend, players):
    """200 seeded games of the engine beside OpenSpiel's game: OpenSpiel's chance outcomes are
    the cards regle dealt (its dealer, the hands in the order dealt, the card turned up, then
    each card drawn, last in the drawer's hand); at every decision the same player and legal
    ids; the same returns. Eights are named, and games end both ways."""
    import random
    game, theirs_game = _crazy_eights(players, backend=backend)
    rng = random.Random(players)
    first = 7 if players == 2 else 5
    named = emptied = 0
    for seed in range(200):
        state, theirs = game.new_game(players, seed=seed), theirs_game.new_initial_state()
        data = state.to_json()
        dealer, hands = data["counters"]["dealer"], data["zones"]["hand"]
        setup = [theirs.chance_outcomes()[dealer][0]]
        setup += [hands[(dealer + 1 + i) % players][i // players] for i in range(players * first)]
        for action in setup + data["zones"]["pile"]:
            theirs.apply_action(action)
        mover = None
        while not theirs.is_terminal():
            if theirs.is_chance_node():  # a card drawn: the one regle dealt, last in the hand
                theirs.apply_action(state.to_json()["zones"]["hand"][mover][-1])
                continue
            assert not state.is_over and state.current_player == theirs.current_player(), seed
            assert sorted(state.legal_action_ids()) == theirs.legal_actions(), (seed, state.decisions)
            action, mover = rng.choice(theirs.legal_actions()), theirs.current_player()
            named += action >= 54
            theirs.apply_action(action)
            state.advance_id(action)
        assert state.is_over and [float(v) for v in state.scores] == theirs.returns(), seed
        emptied += any(not hand for hand in state.to_json()["zones"]["hand"])
    assert named > 20 and 0 < emptied < 200
