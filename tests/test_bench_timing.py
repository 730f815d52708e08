"""How benchmarks/bench.py times regle against OpenSpiel (the ids loop, batches): the sides in
turn, a short slice each, whole games seeded in order on each side."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench import _ids_alternated, _in_turn  # noqa: E402


class _Log:
    def __init__(self):
        self.calls: list[tuple[str, int]] = []


class _State:
    """A game of three steps with two legal ids at each."""

    def __init__(self, log, side, seed):
        self.log, self.left = log, 3
        log.calls.append((side, seed))

    @property
    def over(self):
        return self.left == 0

    def is_terminal(self):
        return self.over

    def legal_action_ids(self):
        return [0, 1]

    legal_actions = legal_action_ids

    def advance_id(self, action):
        assert action in (0, 1)
        self.left -= 1

    apply_action = advance_id


class _Game:
    def __init__(self, log):
        self.log = log

    def new_game(self, players, seed):
        return _State(self.log, "regle", seed)


class _Spiel:
    def __init__(self, log):
        self.log, self.made = log, 0

    def new_initial_state(self):
        self.made += 1
        return _State(self.log, "spiel", self.made - 1)


def test_the_sides_take_turns_each_with_its_own_games_in_order():
    log = _Log()
    ours, theirs = _ids_alternated(_Game(log), _Spiel(log), 0.02, slice_=0.002)
    assert ours > 0 and theirs > 0
    sides = [side for side, _seed in log.calls]
    runs = [sides[0]]  # the side of each run of games in a row
    for side in sides[1:]:
        if side != runs[-1]:
            runs.append(side)
    assert len(runs) >= 4  # several turns, not one long stretch each
    assert runs[0] == "regle"
    for name in ("regle", "spiel"):
        seeds = [seed for side, seed in log.calls if side == name]
        assert seeds == list(range(len(seeds)))  # each side's games in order, none skipped or repeated


def test_three_sides_take_turns_in_an_order_that_turns_round():
    """bench_batch's way: OpenSpiel's loop, the batch and the single loop; each side starts a turn
    first in its turn, and every side is timed for at least the time asked."""
    import time
    calls: list[int] = []

    def side(k):
        def play(started, slice_):
            calls.append(k)
            while time.perf_counter() - started < slice_:
                pass
            return 10 * (k + 1)
        return play

    rates = _in_turn([side(0), side(1), side(2)], 0.02, slice_=0.002)
    turns = [tuple(calls[i:i + 3]) for i in range(0, len(calls), 3)]
    assert len(turns) >= 4 and len(calls) % 3 == 0  # whole turns, every side in each
    assert turns[:3] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert all(sorted(t) == [0, 1, 2] for t in turns)
    assert rates[0] < rates[1] < rates[2]  # each side's own steps over its own time
    assert all(rate <= 10 * (k + 1) / 0.002 for k, rate in enumerate(rates))
