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
