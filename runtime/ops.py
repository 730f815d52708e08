"""Small zone operations that generated engines call (kept out of the hot move generators)."""
from __future__ import annotations

from typing import Callable


def deal(src: list, dst: list, count: int | None, where: Callable[[int], bool] | None = None) -> None:
    """Move the first ``count`` items of src (all when None) to the end of dst, in order;
    with ``where``, only items that satisfy it (the others keep their places)."""
    if where is None:
        if count is None or count >= len(src):
            dst.extend(src)
            src.clear()
        elif count > 0:
            dst.extend(src[:count])
            del src[:count]
        return
    taken = 0
    i = 0
    limit = len(src) if count is None else count
    while taken < limit and i < len(src):
        if where(src[i]):
            dst.append(src.pop(i))
            taken += 1
        else:
            i += 1


def refill(dst: list, src: list, size: int) -> None:
    """Top dst up to ``size`` items from the front of src, as far as src allows."""
    missing = size - len(dst)
    if missing > 0 and src:
        dst.extend(src[:missing])
        del src[:missing]


def overflow(zone_name: str, capacity: int) -> None:
    """Raised by generated code when an effect would put too many items in a zone."""
    raise ValueError(f"zone '{zone_name}' is full (capacity {capacity})")
