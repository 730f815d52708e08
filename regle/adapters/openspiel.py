"""A regle game as an OpenSpiel game (``pip install regle[openspiel]``).

    import pyspiel
    import regle.adapters.openspiel as ros
    game = ros.load("games/mygame.rules", players=2)     # registered as "regle_mygame_2_<hash>"
    state = game.new_initial_state()
    pyspiel.load_game("regle_connect4")                  # the games that ship with regle

Actions are regle's action ids (``game.action_space``), legal ones listed in ascending order as
OpenSpiel expects. Returns are +1 for a winner, -1 for a loser, 0 for all in a draw (zero-sum for
two seats and ``ties draw``, general-sum otherwise).

**Chance.** regle games draw every shuffle and random number from one seeded generator. For a
game whose rules use chance, the initial state is one chance node choosing the seed among
``SEEDS`` (1,024) equally likely outcomes; everything random then follows from it. Algorithms
that enumerate chance (exact solvers, chance-sampling CFR) see 1,024 possible deals rather than
the real shuffle tree: they treat the game as a mix of 1,024 deterministic games, which is exact
for sampling methods (MCTS, outcome sampling) and an approximation for methods that need the
true distribution of each draw. A game without chance has no chance node.

Observations are ``state.observation(seat)`` (what that seat may see); the information-state
string adds the moves played so far (moves are public: every seat sees what the others play).
"""
from __future__ import annotations

import json
import os
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("regle.adapters.openspiel needs OpenSpiel: pip install 'regle[openspiel]'") from exc

import regle
from regle.runtime.engine import Game

#: how many seeds the chance node at the start of a game with chance chooses among
SEEDS = 1024


def load(rules: str | os.PathLike | Game, players: int | None = None, backend: str | None = None) -> "pyspiel.Game":
    """Register the game (once) with OpenSpiel and load it: ``regle_<name>_<players>_<hash>``
    (``_native`` after it for the native engine). ``rules``: a rules file, a game that ships
    with regle by its name (``"connect4"``), or a loaded game."""
    game = rules if isinstance(rules, Game) else regle.load(rules, backend=backend)
    n = game.players.start if players is None else players
    if n not in game.players:
        raise ValueError(f"{game.title} is for {game._counts()} players, not {n}")
    return pyspiel.load_game(register(game, n))


def register(game: Game, players: int, short: str | None = None) -> str:
    """Register a regle game for a player count with OpenSpiel; returns its short name. The
    name holds the rules' hash and the backend, so that the same rules on another backend, or
    changed rules, are another game."""
    if short is None:
        short = f"regle_{game.name}_{players}_{game.rules_hash[:8]}".replace("-", "_")
        if getattr(game, "backend", "python") != "python":
            short += "_" + game.backend
    if short in _REGISTERED:
        return short
    space = game.action_space(players)
    zero_sum = game.utility(players) == "zero_sum"
    game_type = pyspiel.GameType(
        short_name=short, long_name=f"{game.title} ({players} players, regle)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if game.has_chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if game.has_hidden_information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={})
    info = pyspiel.GameInfo(
        num_distinct_actions=len(space), max_chance_outcomes=SEEDS if game.has_chance else 0,
        num_players=players, min_utility=-1.0, max_utility=1.0,
        utility_sum=0.0 if zero_sum else None, max_game_length=game.max_decisions(players))

    class RegleGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})
            self.regle_game = game
            self.players = players

        def new_initial_state(self):
            return RegleState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return RegleObserver(self, iig_obs_type, params)

    RegleGame.__name__ = RegleGame.__qualname__ = f"RegleGame_{short}"
    pyspiel.register_game(game_type, RegleGame)
    _REGISTERED[short] = RegleGame
    return short


_REGISTERED: dict[str, type] = {}


def register_packaged() -> list[str]:
    """Register every game that ships with regle as ``regle_<name>`` (``regle_connect4``,
    ``regle_mygame_long``), for its smallest player count, on the Python engine (load others
    with :func:`load`). Done when this module is imported."""
    from regle import games
    out = []
    for name in games.names():
        game = regle.load(name, backend="python")
        out.append(register(game, game.players.start, "regle_" + name.replace("-", "_")))
    return out


PACKAGED = register_packaged()


class RegleState(pyspiel.State):
    """An OpenSpiel state holding a regle state (None until the chance node chose the seed)."""

    def __init__(self, game):
        super().__init__(game)
        self.regle_game: Game = game.regle_game
        self.n: int = game.players
        self.inner = None if self.regle_game.has_chance else self.regle_game.new_game(self.n, seed=0)

    def current_player(self) -> int:
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        if self.inner.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player

    def _legal_actions(self, player: int) -> list[int]:
        if self.inner is None or self.inner.is_over or player != self.inner.current_player:
            return []
        return sorted(self.inner.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            self.inner = self.regle_game.new_game(self.n, seed=int(action))
        else:
            self.inner = self.inner.play_id(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        if self.inner is not None and not self.inner.is_over and player == self.inner.current_player:
            # the move's notation here: unique among the legal moves (two equal cards differ)
            for move_id, text in zip(self.inner.legal_action_ids(), self.inner.notations()):
                if move_id == action:
                    return text
        return self.regle_game.describe_action(int(action), self.n)

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.n
        winners = self.inner.winners
        return [0.0 if not winners else (1.0 if p in winners else -1.0) for p in range(self.n)]

    def __str__(self) -> str:
        if self.inner is None:
            return "(the seed is not drawn yet)"
        return json.dumps(self.inner.view(None), sort_keys=True)


class RegleObserver:
    """OpenSpiel's Python observer: the tensor is ``state.observation(player)``; the string is
    the player's view, and for perfect recall (the information state) the moves so far too."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.regle_game: Game = game.regle_game
        self.n: int = game.players
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        spec = self.regle_game.observation_spec(self.n)
        self.tensor = np.zeros(sum(length for _name, _start, length in spec), np.float32)
        self.dict = {name: self.tensor[start:start + length] for name, start, length in spec}

    def set_from(self, state: RegleState, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state.inner.observation(player)

    def string_from(self, state: RegleState, player: int) -> str:
        if state.inner is None:
            return f"p{player} before the deal"
        text = json.dumps(state.inner.view(player), sort_keys=True)
        if self.perfect_recall:
            moves = [pa.action for pa in state.full_history() if pa.player != pyspiel.PlayerId.CHANCE]
            text = f"p{player} moves {moves} " + text
        return text


def returns_of(state: Any) -> list[float]:
    """The returns of a regle state as this adapter reports them."""
    winners = state.winners
    return [0.0 if not winners else (1.0 if p in winners else -1.0) for p in range(state.n)]
