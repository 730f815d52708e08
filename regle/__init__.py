"""regle: a rules language and engine generator for tabletop games.

    import regle
    game = regle.load("games/mygame.rules")
    state = game.new_game(players=2, seed=1)
    state.play(state.legal_moves()[0])
"""
from __future__ import annotations

__version__ = "0.1.0"

from regle.dsl.errors import RulesError  # noqa: E402
from regle.runtime import KERNELS, BaseState as State, Game, GameOver, IllegalMove, Move, Moves, RulesRuntimeError, StateError  # noqa: E402

from . import games  # noqa: E402
from .loader import check_file, clear_cache, compile_file, load, loads  # noqa: E402

__all__ = ["load", "loads", "check_file", "compile_file", "clear_cache", "Game", "State", "Move", "Moves", "IllegalMove", "GameOver",
           "RulesError", "RulesRuntimeError", "StateError", "KERNELS", "games", "__version__"]
