"""Counters of two keys (``counter held per player per kind``): read and changed by both keys on
both engines alike, kept through saved states, views, observations and ``ensure`` trials, drawn
by the displays, and refused where one key is given, a key is of the wrong kind, or the
declaration cannot be."""
from __future__ import annotations

import json
import random

import pytest

import regle
from regle import native
from regle.compiler.generate import engine_source
from regle.dsl.parser import parse
from regle.dsl.printer import format_rules

HELD = '''game "Held" {
  players 2
  max decisions 40
}

enum kind { pawn, knight, rook }

/// How many pieces of each kind each player holds.
counter held per player per kind

/// How often a kind was traded for another.
counter trades per kind per kind

turn {
  action take(k in kind) "take {k}" {
    require held[me][k] < 3
    held[me][k] += 1
  }
  action trade(k in kind, j in kind) "trade {k} {j}" {
    require held[me][k] > 0 and k != j
    held[me][k] -= 1
    held[me][j] = held[me][j] + 1
    trades[k][j] += 1
    ensure held[1 - me][j] <= held[me][j] + 2
  }
}

end when sum(held[me][k] for k in kind) >= 7 then winner me
'''


def _backends():
    return ["python", "native"] if native.available() else ["python"]


def _play(game, seed):
    """A seeded random game, checking after each move what the move did to the counters."""
    s = game.new_game(2, seed=seed)
    rng = random.Random(seed)
    while not s.over:
        before = s.to_json()["counters"]
        me = s.cur
        move = rng.choice(s.legal_moves())
        s.play(move)
        after = s.to_json()["counters"]
        text = str(move).split()
        kinds = ["pawn", "knight", "rook"]
        if text[0] == "take":
            k = kinds.index(text[1])
            before["held"][me][k] += 1
        else:
            k, j = kinds.index(text[1]), kinds.index(text[2])
            before["held"][me][k] -= 1
            before["held"][me][j] += 1
            before["trades"][k][j] += 1
        assert after == before, (str(move), before, after)
    return s


@pytest.mark.parametrize("backend", _backends())
def test_each_move_changes_the_value_of_its_pair_only(backend):
    game = regle.loads(HELD, name="held", backend=backend)
    for seed in range(8):
        s = _play(game, seed)
        held = s.to_json()["counters"]["held"]
        assert any(sum(row) >= 7 for row in held) and s.winners


def test_both_engines_play_the_same_games():
    if not native.available():
        pytest.skip("no C compiler")
    games = [regle.loads(HELD, name="held", backend=b) for b in ("python", "native")]
    for seed in range(10):
        records = []
        for game in games:
            s = game.new_game(2, seed=seed)
            rng = random.Random(seed)
            while not s.over:
                s.play(rng.choice(s.legal_moves()))
            records.append((s.to_json()["counters"], s.winners, s.decisions))
        assert records[0] == records[1]


@pytest.mark.parametrize("backend", _backends())
def test_saved_states_views_and_observations_give_rows(backend):
    game = regle.loads(HELD, name="held", backend=backend)
    s = _play(game, 3)
    data = s.to_json()
    held = data["counters"]["held"]
    assert len(held) == 2 and all(len(row) == 3 for row in held)
    assert len(data["counters"]["trades"]) == 3
    again = game.state_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert s.view(0)["counters"]["held"] == held
    spec = game.observation_spec(2)
    names = [name for name, _start, _length in spec]
    assert "counter held[1][2]" in names and "counter trades[2][0]" in names
    start = dict((name, at) for name, at, _length in spec)["counter held[0][0]"]
    observed = list(s.observation(0))
    assert observed[start:start + 6] == [v for row in held for v in row]
    broken = json.loads(json.dumps(data))
    broken["counters"]["held"] = [1, 2, 3]
    with pytest.raises(regle.StateError, match="expected 2 lists of 3 numbers"):
        game.state_from_json(broken)


@pytest.mark.parametrize("backend", _backends())
def test_an_ensure_reads_the_pairs_after_the_move_and_its_trials_put_them_back(backend):
    """The trades offered are exactly those whose ensure holds once the pair changed (the other
    seat holds at most two more of the kind got), so the trial read the counter after the move;
    and each move changes only its own pairs (``_play``), so every trial put them back."""
    game = regle.loads(HELD, name="held", backend=backend)
    kinds = ["pawn", "knight", "rook"]
    refused = 0
    for seed in range(8):
        s = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not s.over:
            held, me = s.to_json()["counters"]["held"], s.cur
            want = {f"trade {kinds[k]} {kinds[j]}" for k in range(3) for j in range(3)
                    if held[me][k] > 0 and k != j and held[1 - me][j] <= held[me][j] + 1 + 2}
            offered = {n for n in s.notations() if n.startswith("trade")}
            assert offered == want
            refused += sum(1 for k in range(3) for j in range(3) if held[me][k] > 0 and k != j) - len(want)
            s.play(rng.choice(s.legal_moves()))
    assert refused > 0  # the ensure refused some trades
    _play(game, 11)


def test_the_displays_draw_a_row_per_seat():
    game = regle.loads(HELD, name="held", backend="python")
    s = _play(game, 1)
    from regle.display import render
    text = render(s)
    held = s.to_json()["counters"]["held"]
    assert " ".join(str(v) for v in held[0]) in text and " ".join(str(v) for v in held[1]) in text
    from regle.web.render import table_html
    html = table_html(s, None)
    assert ", ".join(str(v) for v in held[0]) in html


def test_the_formatter_and_the_rulebook_keep_both_keys():
    text = format_rules(parse(HELD, "held.rules"))
    assert "counter held per player per kind" in text and "held[me][k] += 1" in text
    assert format_rules(parse(text, "held.rules")) == text
    from regle.rulebook import rulebook
    assert "(one per player and kind)" in rulebook("held.rules", text=HELD)


@pytest.mark.parametrize("change, message", [
    (("held[me][k] += 1", "held[me] += 1"), "'held' is a counter per player per kind: say which, e.g. held[me][pawn]"),
    (("require held[me][k] < 3", "require held[me][me] < 3"), "expected a member of kind here, but this is a player"),
    (("require held[me][k] < 3", "require held[me] < 3"), "say both keys, e.g. held[me][pawn]"),
    (("counter trades per kind per kind", "counter trades per kind per player"),
     "the second key of a counter is an enum"),
    (("counter held per player per kind", "counter held per player per kind private"),
     "a counter of two keys cannot be private"),
    (("counter trades per kind per kind", "counter trades per kind"), "'trades' takes one index, not two"),
    (("enum kind { pawn, knight, rook }", "enum kind { pawn, knight, rook }\nenum other { x, y }\n"
      "counter bad per player per other"), None),
])
def test_a_counter_of_two_keys_used_with_one_is_refused_at_its_line(change, message):
    text = HELD.replace(*change)
    if message is None:  # a second enum is fine
        engine_source(text, "held.rules")
        return
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "held.rules")
    assert any(message in d.message for d in info.value.diagnostics), info.value.diagnostics
