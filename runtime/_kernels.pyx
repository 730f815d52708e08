# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled kernels; ``kernels.py`` holds the pure-Python twins with the same signatures."""


def distinct_pairs(list values):
    """Unordered pairs of two different positions, one per pair of values (a <= b), in order found."""
    cdef Py_ssize_t n = len(values), i, j
    cdef long a, b
    cdef set seen = set()
    cdef list out = []
    for i in range(n):
        a = values[i]
        for j in range(i + 1, n):
            b = values[j]
            key = (a, b) if a <= b else (b, a)
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


def contains_all(list values, list wanted):
    """True when ``values`` holds every item of ``wanted``, counting repeats (multiset inclusion)."""
    cdef list pool
    if len(wanted) == 2:
        a = wanted[0]
        b = wanted[1]
        if a == b:
            return values.count(a) >= 2
        return a in values and b in values
    pool = list(values)
    for w in wanted:
        if w in pool:
            pool.remove(w)
        else:
            return False
    return True


def contains_pair(list values, a, b):
    """True when ``values`` holds a and b as two different items (two copies when a == b)."""
    if a == b:
        return values.count(a) >= 2
    return a in values and b in values


from libc.stdint cimport uint64_t

cdef uint64_t _GOLDEN = 0x9E3779B97F4A7C15ULL


def shuffle(list items, state):
    """Fisher-Yates shuffle of ``items`` in place driven by SplitMix64 from ``state``;
    returns the generator's new state (the same numbers as :class:`regle.runtime.rng.Rng`)."""
    cdef uint64_t s = <uint64_t>state
    cdef uint64_t z, n, limit
    cdef Py_ssize_t i, j
    for i in range(len(items) - 1, 0, -1):
        n = <uint64_t>(i + 1)
        limit = <uint64_t>0xFFFFFFFFFFFFFFFFULL - ((<uint64_t>0xFFFFFFFFFFFFFFFFULL % n) + 1) % n
        while True:
            s = s + _GOLDEN
            z = s
            z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
            z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
            z = z ^ (z >> 31)
            if z <= limit:
                break
        j = <Py_ssize_t>(z % n)
        items[i], items[j] = items[j], items[i]
    return s
