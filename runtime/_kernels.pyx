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
