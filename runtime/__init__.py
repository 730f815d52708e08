"""The runtime that generated engines import: states, moves, RNG, kernels, agents.

It knows no game and never imports the rules front end or the compiler.
Kernels: the compiled ``_kernels`` module when it was built and ``REGLE_PURE`` is not ``1``,
otherwise the pure-Python twins in ``kernels``; ``KERNELS`` says which.
"""
from __future__ import annotations

import os

from . import ops
from .engine import MAX_DECISIONS, BaseState, Game, Move
from .errors import IllegalMove, RulesRuntimeError, StateError
from .rng import Rng

if os.environ.get("REGLE_PURE", "") not in ("", "0"):
    from . import kernels as kernels_impl
    KERNELS = "pure (REGLE_PURE is set)"
else:
    try:
        from . import _kernels as kernels_impl  # type: ignore[no-redef]
        KERNELS = "compiled"
    except ImportError:
        from . import kernels as kernels_impl  # type: ignore[no-redef]
        KERNELS = "pure (the compiled kernels are not built)"

K = kernels_impl

__all__ = ["BaseState", "Game", "Move", "Rng", "IllegalMove", "StateError", "RulesRuntimeError",
           "MAX_DECISIONS", "KERNELS", "K", "ops"]
