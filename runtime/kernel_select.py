"""Pick the kernels: compiled ``_kernels`` when built and ``REGLE_PURE`` is unset, else the twins."""
from __future__ import annotations

import os

if os.environ.get("REGLE_PURE", "") not in ("", "0"):
    from . import kernels as K
    KERNELS = "pure (REGLE_PURE is set)"
else:
    try:
        from . import _kernels as K  # type: ignore[no-redef]
        KERNELS = "compiled"
    except ImportError:
        from . import kernels as K  # type: ignore[no-redef]
        KERNELS = "pure (the compiled kernels are not built)"

__all__ = ["K", "KERNELS"]
