"""A game as its whole tree for OpenSpiel (regle.adapters.spiel_tree): the same game as the
adapter's, node for node, and the same answers from OpenSpiel's algorithms."""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'regle[openspiel]'")

import regle  # noqa: E402
from regle.adapters import openspiel as ros  # noqa: E402
from regle.adapters import spiel_tree as tree  # noqa: E402

TINY = """
game "Two in a row" {
  players 2
  marks "X", "O"
  max decisions 4
}

grid board: player square 2 by 2

turn {
  action mark(c in empty_cells(board)) "{c}" {
    put me at c on board
  }
}

end when in_a_row(board, me, 2) then winner me
end when count(empty_cells(board)) == 0
"""


@pytest.fixture(scope="module", params=["python", "native"])
def tiny(request):
    return regle.loads(TINY, name="tiny", backend=request.param)


def test_the_engines_walk_writes_what_the_adapters_walk_writes(tiny):
    """The engine's own walk (no OpenSpiel state) and the walk of the adapter's game give the
    same text: the same nodes, seats, actions and returns, in the same order."""
    text = tree.engine_efg_text(tiny, 2)
    assert text == tree.efg_text(ros.load(tiny, 2))
    assert text.startswith('EFG 2 R "Two in a row (2 players, regle)" { "P1" "P2" }')
    first = text.splitlines()[3]
    assert first == 'p "" 1 1 "" { "0" "1" "2" "3" } 0'  # the first seat, every cell
    finals = [line for line in text.splitlines() if line.startswith("t ")]
    # the first seat makes a line or both hold a diagonal (a draw): the second never has a line first
    assert {line.split("{")[1] for line in finals} == {" 1, -1 }", " 0, 0 }"}


def test_the_tree_is_the_adapters_game_for_openspiel(tiny):
    """OpenSpiel's exploitability and its game value on the tree are the adapter's game's."""
    from open_spiel.python import policy as policies
    from open_spiel.python.algorithms import exploitability, expected_game_score
    spiel, whole = ros.load(tiny, 2), ros.load_tree(tiny)  # (the adapter's way to spiel_tree's)
    assert whole.num_players() == 2
    for game in (spiel, whole):
        assert game.new_initial_state().current_player() == 0
    values = [exploitability.exploitability(g, policies.UniformRandomPolicy(g)) for g in (spiel, whole)]
    assert values[0] == pytest.approx(values[1]) and values[0] > 0
    scores = [expected_game_score.policy_value(g.new_initial_state(), [policies.UniformRandomPolicy(g)] * 2)
              for g in (spiel, whole)]
    assert scores[0] == pytest.approx(scores[1])


def test_a_game_with_chance_and_hidden_cards_keeps_its_information_sets():
    """Kuhn poker (chance deals, hidden cards): its tree has chance nodes with the true
    probabilities and the seats' information sets, so CFR's policy and the exploitability of
    the uniform policy are those of the adapter's game with explicit chance."""
    from open_spiel.python import policy as policies
    from open_spiel.python.algorithms import exploitability
    text = tree.efg_text(ros.load("kuhn", chance="explicit", returns="scores"))
    assert any(line.startswith("c ") for line in text.splitlines())
    whole = tree.load_tree("kuhn", returns="scores")
    spiel = ros.load("kuhn", chance="explicit", returns="scores")
    values = [exploitability.exploitability(g, policies.UniformRandomPolicy(g)) for g in (spiel, whole)]
    assert values[0] == pytest.approx(values[1])
    sets = {line.split('"')[2].split()[1] for line in text.splitlines() if line.startswith("p ")}
    decisions = sum(line.startswith("p ") for line in text.splitlines())
    assert len(sets) < decisions  # nodes a seat cannot tell apart share a set


def test_a_tree_past_its_bound_is_refused_with_the_reason(tiny):
    with pytest.raises(tree.TooLarge, match="more than 10 nodes"):
        tree.load_tree(tiny, max_nodes=10)
    with pytest.raises(ValueError, match="chance or hidden information"):
        tree.engine_efg_text(regle.load("kuhn"), 2)


needs_native = pytest.mark.skipif(not __import__("regle.native").native.available(), reason="no C compiler here")


@needs_native
def test_a_native_game_walks_into_the_same_tree_and_plays_with_scores_as_returns():
    from open_spiel.python import policy as policies
    from open_spiel.python.algorithms import exploitability
    values = []
    for backend in ("native", "python"):
        whole = tree.load_tree(regle.load("kuhn", backend=backend), returns="scores")
        values.append(exploitability.exploitability(whole, policies.UniformRandomPolicy(whole)))
    kuhn = pyspiel.load_game("kuhn_poker")
    assert values[0] == values[1] == pytest.approx(exploitability.exploitability(
        kuhn, policies.UniformRandomPolicy(kuhn)), abs=1e-9)
    native, python = (ros.load("kuhn", returns="scores", backend=b) for b in ("native", "python"))
    for seed in range(20):
        finals = []
        for spiel in (native, python):
            state, k = spiel.new_initial_state(), seed
            while not state.is_terminal():
                options = ([a for a, _p in state.chance_outcomes()] if state.is_chance_node()
                           else state.legal_actions())
                state.apply_action(options[k % len(options)])
                k = k * 7 + 3
            finals.append(state.returns())
        assert finals[0] == finals[1] and sum(finals[0]) == 0


def test_explicit_chance_on_the_native_engine_is_refused_not_quietly_replaced():
    with pytest.raises(ValueError, match="explicit chance plays on the Python engine"):
        ros.load("kuhn", backend="native", chance="explicit")


def test_a_game_too_long_for_an_information_state_tensor_says_so_and_refuses_one():
    """Lost Cities without its ``max decisions`` (the engine's bound, 100,000, times its 126 ids
    is too many numbers for a tensor of the whole history)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "games" / "classics" / "lostcities.rules").read_text(encoding="utf-8")
    assert "  max decisions 2000\n" in text
    spiel = ros.load(regle.loads(text.replace("  max decisions 2000\n", ""), name="lostcities_unbounded"))
    assert not spiel.get_type().provides_information_state_tensor
    state = spiel.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.information_state_string(0)
    with pytest.raises(Exception, match="provides no information-state tensor"):
        state.information_state_tensor(0)


def test_importing_the_adapter_loads_no_game_nor_the_compiler():
    """Import time: the packaged games are registered from their facts (spiel_games.json), and
    numpy, the engine's runtime, the parser and the compiler wait until a game is made."""
    import subprocess
    import sys
    code = ("import sys, regle.adapters.openspiel as ros\n"
            "print(len(ros.PACKAGED), sorted(m for m in ('numpy', 'regle.loader', 'regle.dsl.parser', "
            "'regle.compiler.generate', 'lark', 'regle.runtime') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    count, loaded = out.stdout.split(" ", 1)
    assert int(count) >= 20 and loaded.strip() == "[]"


def test_the_packaged_games_facts_are_up_to_date():
    import json
    from pathlib import Path
    kept = json.loads(Path(ros.__file__).with_name(ros.FACTS).read_text(encoding="utf-8"))
    assert kept == json.loads(json.dumps(ros.packaged_facts())), "run: python -m regle.adapters.openspiel"
    made = pyspiel.load_game("regle_kuhn")  # loaded now, and checked against its facts
    assert made.num_distinct_actions() == kept["kuhn"]["actions"]
