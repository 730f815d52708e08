"""What OpenSpiel's C++ algorithms cost on a game written in Python, whatever the game.

OpenSpiel's exploitability walks the game tree in C++ (``TabularBestResponse``) and, for a
Python game, calls back into Python for every ``current_player``, ``clone``, ``apply_action``,
``legal_actions``, ``is_terminal`` and ``returns``: about 22 million calls for Tic-tac-toe. The
floor of any Python game is then what those calls cost when each does nothing: ``TableGame``
is Tic-tac-toe read off pyspiel's own game into tables, every method one lookup. bench.py's
``--exploitability`` times it beside OpenSpiel's C++ game, OpenSpiel's own Python Tic-tac-toe,
regle's engine through the adapter, and regle's game handed to OpenSpiel as its whole tree
(``regle.adapters.spiel_tree``: no call back into Python at all).
"""
from __future__ import annotations

import importlib
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as policies
from open_spiel.python.algorithms import exploitability

_TABLE_NAME = "regle_bench_table_tic_tac_toe"


def _tables(game: Any) -> dict[str, list]:
    """Every position of ``game`` (by its text): who plays, the legal actions, whether it is
    over, the returns, and the position each action leads to."""
    index: dict[str, int] = {}
    t: dict[str, list] = {"player": [], "legal": [], "over": [], "returns": [], "child": []}

    def walk(state) -> int:
        key = str(state)
        if key in index:
            return index[key]
        i = index[key] = len(t["player"])
        over = state.is_terminal()
        t["player"].append(pyspiel.PlayerId.TERMINAL if over else state.current_player())
        t["legal"].append([] if over else state.legal_actions())
        t["over"].append(over)
        t["returns"].append(state.returns())
        t["child"].append({})
        for action in t["legal"][i]:
            t["child"][i][action] = walk(state.child(action))
        return i

    walk(game.new_initial_state())
    return t


def register_table_game() -> str:
    """Register Tic-tac-toe as a Python game of lookups (once); returns its short name."""
    if _TABLE_NAME in {g.short_name for g in pyspiel.registered_games()}:
        return _TABLE_NAME
    source = pyspiel.load_game("tic_tac_toe")
    t = _tables(source)
    player, legal, over, returns, child = t["player"], t["legal"], t["over"], t["returns"], t["child"]
    game_type = pyspiel.GameType(
        short_name=_TABLE_NAME, long_name="Tic-tac-toe as tables (bench)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=True,
        provides_information_state_tensor=False, provides_observation_string=True,
        provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=9, max_chance_outcomes=0, num_players=2, min_utility=-1.0,
                            max_utility=1.0, utility_sum=0.0, max_game_length=9)

    class TableState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.at = 0

        def current_player(self):
            return player[self.at]

        def _legal_actions(self, seat):
            return legal[self.at]

        def _apply_action(self, action):
            self.at = child[self.at][action]

        def is_terminal(self):
            return over[self.at]

        def returns(self):
            return returns[self.at]

        def __str__(self):
            return str(self.at)

    class TableObserver:
        def __init__(self):
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict = {}

        def set_from(self, state, seat):
            pass

        def string_from(self, state, seat):
            return f"p{seat} {state.history_str()}"

    class TableGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})

        def new_initial_state(self):
            return TableState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return TableObserver()

    pyspiel.register_game(game_type, TableGame)
    return _TABLE_NAME


def _timed(game: Any) -> float:
    start = time.perf_counter()
    exploitability.exploitability(game, policies.UniformRandomPolicy(game))
    return time.perf_counter() - start


def _timed_tree(regle_game: Any) -> float:
    """The same on regle's game as its whole tree (spiel_tree.load_tree), the walk that writes
    the tree and OpenSpiel's reading of it counted in."""
    import regle.adapters.spiel_tree as tree
    start = time.perf_counter()
    game = tree.load_tree(regle_game, 2)
    exploitability.exploitability(game, policies.UniformRandomPolicy(game))
    return time.perf_counter() - start


def exploitability_times(regle_game: Any) -> list[tuple[str, float]]:
    """(what, seconds) of the exploitability of the uniform policy on each Tic-tac-toe: OpenSpiel's
    C++ game first."""
    import regle.adapters.openspiel as ros
    importlib.import_module("open_spiel.python.games")  # registers python_tic_tac_toe
    return [("OpenSpiel's C++ tic_tac_toe", _timed(pyspiel.load_game("tic_tac_toe"))),
            (f"regle ({regle_game.backend}) through the adapter", _timed(ros.load(regle_game, 2))),
            (f"regle ({regle_game.backend}) as its whole tree (load_tree)", _timed_tree(regle_game)),
            ("any Python game: every method a table lookup", _timed(pyspiel.load_game(register_table_game()))),
            ("OpenSpiel's own Python python_tic_tac_toe", _timed(pyspiel.load_game("python_tic_tac_toe")))]
