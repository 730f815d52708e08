"""Pure-Python kernels: the reference twins of ``_kernels.pyx``.

Same names, same signatures, same results; the compiled module is used when it is built and
``REGLE_PURE`` is not set. Kernels work on plain lists of small ints.
"""
from __future__ import annotations


def distinct_pairs(values: list[int]) -> list[tuple[int, int]]:
    """Unordered pairs of two different positions, one per pair of values (a <= b), in order found."""
    seen = set()
    out = []
    n = len(values)
    for i in range(n):
        a = values[i]
        for j in range(i + 1, n):
            b = values[j]
            key = (a, b) if a <= b else (b, a)
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


def contains_all(values: list[int], wanted: list[int]) -> bool:
    """True when ``values`` holds every item of ``wanted``, counting repeats (multiset inclusion)."""
    if len(wanted) == 2:  # the common case, without allocating
        a, b = wanted
        if a == b:
            return values.count(a) >= 2
        return a in values and b in values
    pool = list(values)
    for w in wanted:
        try:
            pool.remove(w)
        except ValueError:
            return False
    return True


def contains_pair(values: list[int], a: int, b: int) -> bool:
    """True when ``values`` holds a and b as two different items (two copies when a == b)."""
    if a == b:
        return values.count(a) >= 2
    return a in values and b in values


_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def shuffle(items: list, state: int) -> int:
    """Fisher-Yates shuffle of ``items`` in place driven by SplitMix64 from ``state``;
    returns the generator's new state (the same numbers as :class:`regle.runtime.rng.Rng`)."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _MASK - (_MASK + 1) % n
        while True:
            state = (state + _GOLDEN) & _MASK
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z <= limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state
