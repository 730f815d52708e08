"""The phrasing suite (benchmarks/phrasing.py): the two texts of each pair mean the same, so they
play identical games: the same legal moves at every step, the same states and the same end."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import regle
from regle import native

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from phrasing import PAIRS  # noqa: E402


def _same_games(first, second, games: int) -> None:
    for seed in range(games):
        a, b = first.new_game(seed=seed), second.new_game(seed=seed)
        rng = random.Random(seed)
        while not a.over:
            ids = a.legal_action_ids()
            assert ids == b.legal_action_ids(), (seed, a.decisions)
            assert [str(m) for m in a.legal_moves()] == [str(m) for m in b.legal_moves()]
            i = rng.choice(ids)
            a.advance_id(i)
            b.advance_id(i)
            assert a.to_json()["zones"] == b.to_json()["zones"]
        assert b.over and a.scores == b.scores and a.winners == b.winners


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
def test_the_two_texts_of_a_pair_play_identical_games(pair):
    first, second = (regle.loads(t, name=f"{pair.name}{i}", backend="python") for i, t in enumerate(pair.texts()))
    assert pair.texts()[0] != pair.texts()[1]
    _same_games(first, second, 12)


@pytest.mark.parametrize("name", ["any-or-count", "let-or-repeat", "ways-all-or-each"])
def test_the_two_texts_play_identical_games_natively(name):
    if not native.available():
        pytest.skip(native.unavailable_reason())
    pair = next(p for p in PAIRS if p.name == name)
    first, second = (regle.loads(t, name=f"{pair.name}{i}", backend="native") for i, t in enumerate(pair.texts()))
    _same_games(first, second, 6)


#: the pairs whose two texts the compiler makes one engine (its passes: early exit, held source,
#: tables, one walk); a pass that stops applying to one text shows here before it shows in a bench
SAME_ENGINE = ("any-or-count", "any-or-count-end", "filled-or-filter", "define-or-expression", "two-walks-or-one")


@pytest.mark.parametrize("name", SAME_ENGINE)
def test_these_pairs_compile_to_the_same_engine_on_both_engines(name):
    from phrasing import engines_differ
    pair = next(p for p in PAIRS if p.name == name)
    assert engines_differ(pair, "python") == 0
    assert engines_differ(pair, "native") == 0


def test_the_engines_are_compared_without_their_comments_and_rules_hash():
    from phrasing import code_lines
    a = "RULES_HASH = 'abc'\nx = 1  # line 3: put\n\ndef f():\n    # line 4\n    return x + 1\n"
    b = "RULES_HASH = 'def'\nx = 1  # line 9: put\ndef f():\n    return x + 1\n"
    assert code_lines(a) == code_lines(b) == ["x = 1", "def f ( ) :", "    return x + 1"]
    assert code_lines(a) != code_lines(b.replace("x + 1", "x + 2"))
    assert code_lines(a) != code_lines(b.replace("    return", "        return").replace("def f():\n", "def f():\n  if 1:\n"))


def test_the_bench_plays_the_same_games_on_both_texts_and_refuses_two_that_differ():
    """benchmarks/phrasing.py times the two texts over the same games, game by game alternately:
    each game takes the same steps on both (it checks), and a pair whose texts play other games
    is refused rather than given a ratio."""
    from phrasing import Pair, measure, paired_steps
    pair = next(p for p in PAIRS if p.name == "any-or-count")
    games = [regle.loads(t, name=f"paired{i}", backend="python") for i, t in enumerate(pair.texts())]
    steps, spent, seed = paired_steps(games, 0.05)
    assert steps[0] == steps[1] > 0 and min(spent) >= 0.05 and seed >= 1
    again = paired_steps(games, 0.05, seed)  # the next round goes on with the next games
    assert again[2] > seed
    first, second, ratio = measure(pair, "python", 1, 0.05)
    assert first > 0 and second > 0 and ratio >= 1
    other = Pair("other", "three in a row or four", "games/classics/connect4.rules",
                 (("in_a_row(board, me, 4)", "in_a_row(board, me, 3)"),))
    with pytest.raises(AssertionError, match="played different games"):
        measure(other, "python", 1, 0.2)
