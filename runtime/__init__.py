"""The runtime that generated engines import: states, moves, RNG, kernels, agents.

It knows no game and never imports the rules front end or the compiler.
Kernels: the compiled ``_kernels`` module when it was built and ``REGLE_PURE`` is not ``1``,
otherwise the pure-Python twins in ``kernels``; ``KERNELS`` says which.
"""
from __future__ import annotations

from . import ops
from .kernel_select import KERNELS, K
from .engine import MAX_DECISIONS, BaseState, Game, Move, Moves
from .errors import GameOver, IllegalMove, RulesRuntimeError, StateError
from .rng import Rng

__all__ = ["BaseState", "Game", "Move", "Moves", "Rng", "IllegalMove", "GameOver", "StateError", "RulesRuntimeError",
           "MAX_DECISIONS", "KERNELS", "K", "ops"]
