"""regle: a rules language and engine generator for tabletop games.

    import regle
    game = regle.load("games/mygame.rules")
    state = game.new_game(players=2, seed=1)
    state.play(state.legal_moves()[0])
"""
from __future__ import annotations

__version__ = "0.1.0"

#: the engine's names, from regle.runtime, imported when first asked for (see __getattr__)
_RUNTIME = {"KERNELS": "KERNELS", "State": "BaseState", "Game": "Game", "GameOver": "GameOver",
            "IllegalMove": "IllegalMove", "Move": "Move", "Moves": "Moves",
            "RulesRuntimeError": "RulesRuntimeError", "StateError": "StateError"}
_LOADER = ("check_file", "clear_cache", "compile_file", "load", "loads")

from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:  # what __getattr__ gives, for type checkers and editors
    from regle.dsl.errors import RulesError
    from . import games
    from .loader import check_file, clear_cache, compile_file, load, loads
    from regle.runtime import KERNELS, BaseState as State, Game, GameOver, IllegalMove, Move, Moves, RulesRuntimeError, StateError


def __getattr__(name: str):
    """The loader (and the parser and compiler behind it) is imported when first used, so that
    a program that only plays engines, or an adapter being imported, does not pay for it; the
    engine's runtime too, so that importing an adapter registers its games without it."""
    if name in _RUNTIME:
        from regle import runtime
        value = getattr(runtime, _RUNTIME[name])
        globals()[name] = value
        return value
    if name in _LOADER:
        from . import loader
        return getattr(loader, name)
    if name == "RulesError":
        from regle.dsl.errors import RulesError
        return RulesError
    if name in ("games", "loader", "native", "simulate", "background"):
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["load", "loads", "check_file", "compile_file", "clear_cache", "Game", "State", "Move", "Moves", "IllegalMove", "GameOver",
           "RulesError", "RulesRuntimeError", "StateError", "KERNELS", "games", "__version__"]
