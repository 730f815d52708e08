# Included by _kernels.pyx (one compiled module): moves (shared move tuples, tagged lists), zones, multisets, shuffling.
# The pure-Python twins are the same section of kernels.py.

# ---- moves ---------------------------------------------------------------------------------
cdef inline tuple _new_pair(object a, object b):
    cdef tuple t = PyTuple_New(2)
    Py_INCREF(a)
    PyTuple_SET_ITEM(t, 0, a)
    Py_INCREF(b)
    PyTuple_SET_ITEM(t, 1, b)
    return t


# Moves are tuples, equal whoever made them; the common ones, (tag, value) with a small tag and
# a natural number as value, are made once and shared (a tuple made and freed per legal move
# at every decision was a third of a line-pushing game's playout). The tables grow on demand,
# two levels deep (value >> 10, then value & 1023) so that sparse values stay small.
# The tables are C arrays of owned references, kept for the life of the process: looking a move
# up touches no Python object but the move itself.
cdef PyObject*** _shared_pairs[64]  # tag -> (value >> 10) -> 1024 moves; NULL: none made yet
cdef PyObject*** _shared_triples[64]  # tag -> a -> 1024 moves (tag, a, b) by b


cdef PyObject** _slot(PyObject*** tables[64], long t, long index) noexcept:
    """Where the shared move of tag t and index lives (NULL when memory ran out)."""
    cdef PyObject** bucket
    if tables[t] == NULL:  # calloc of this size maps pages lazily: untouched ones cost nothing
        tables[t] = <PyObject***>calloc(1 << 20, sizeof(PyObject**))
        if tables[t] == NULL:
            return NULL
    bucket = tables[t][index >> 10]
    if bucket == NULL:
        bucket = <PyObject**>calloc(1024, sizeof(PyObject*))
        if bucket == NULL:
            return NULL
        tables[t][index >> 10] = bucket
    return &bucket[index & 1023]


cdef tuple _pair_long(object tag, long value):
    """The move (tag, value), shared when tag is an int below 64 and value a natural number."""
    cdef long t
    cdef PyObject** slot
    cdef tuple made
    if type(tag) is not int or value < 0 or value >= (1 << 30):
        return _new_pair(tag, value)
    t = tag
    if t < 0 or t >= 64:
        return _new_pair(tag, value)
    slot = _slot(_shared_pairs, t, value)
    if slot == NULL:
        return _new_pair(tag, value)
    if slot[0] == NULL:
        made = _new_pair(tag, value)
        Py_INCREF(made)  # the table's own reference
        slot[0] = <PyObject*>made
        return made
    return <tuple>slot[0]


cpdef tuple pair(object tag, object value):
    """The move (tag, value), shared when small (see _pair_long)."""
    return _pair(tag, value)


cdef inline tuple _new_triple(object a, object b, object c):
    cdef tuple t = PyTuple_New(3)
    Py_INCREF(a)
    PyTuple_SET_ITEM(t, 0, a)
    Py_INCREF(b)
    PyTuple_SET_ITEM(t, 1, b)
    Py_INCREF(c)
    PyTuple_SET_ITEM(t, 2, c)
    return t


cpdef tuple triple(object tag, object a, object b):
    """The move (tag, a, b), shared when tag is below 64 and a and b are in 0..1023."""
    cdef long t, x, y
    cdef int overflow = 0
    cdef PyObject** slot
    cdef tuple made
    if type(tag) is not int or type(a) is not int or type(b) is not int:
        return _new_triple(tag, a, b)
    t = PyLong_AsLongAndOverflow(tag, &overflow)
    x = PyLong_AsLongAndOverflow(a, &overflow)
    y = PyLong_AsLongAndOverflow(b, &overflow)
    if overflow or not (0 <= t < 64 and 0 <= x < 1024 and 0 <= y < 1024):
        return _new_triple(tag, a, b)
    slot = _slot(_shared_triples, t, (x << 10) | y)
    if slot == NULL:
        return _new_triple(tag, a, b)
    if slot[0] == NULL:
        made = _new_triple(tag, a, b)
        Py_INCREF(made)  # the table's own reference
        slot[0] = <PyObject*>made
        return made
    return <tuple>slot[0]


cdef inline tuple _pair(object a, object b):
    cdef int overflow = 0
    cdef long value
    if type(b) is int:
        value = PyLong_AsLongAndOverflow(b, &overflow)
        if not overflow:
            return _pair_long(a, value)
    return _new_pair(a, b)


cpdef object deal(list src, list dst, object count, object where=None):
    """kernels.deal: the first ``count`` items of src (all when None) to the end of dst."""
    cdef Py_ssize_t n = PyList_GET_SIZE(src), k, i, taken, limit
    if where is None:
        if count is None or count >= n:
            dst.extend(src)
            _cut(src, 0, n)
        elif count > 0:
            k = count
            for i in range(k):
                dst.append(<object>PyList_GET_ITEM(src, i))
            _cut(src, 0, k)
        return
    taken = 0
    i = 0
    limit = n if count is None else count
    while taken < limit and i < PyList_GET_SIZE(src):
        if where(<object>PyList_GET_ITEM(src, i)):
            dst.append(src.pop(i))
            taken += 1
        else:
            i += 1


from . import kernels as _pure


cpdef object clear_cells(object grid, object cells, object to):
    """kernels.clear_cells: empty cells of a grid, their contents to the end of ``to``."""
    cdef Py_ssize_t c
    cdef long v
    cdef list zone = to
    if type(grid) is bytearray:
        for c in cells:
            v = (<bytearray>grid)[c]
            if v:
                if zone is not None:
                    zone.append(v - 1)
                (<bytearray>grid)[c] = 0
        return
    _pure.clear_cells(grid, cells, to)  # a grid of numbers (a list): the twin does as well


cpdef list tagged(object action, object values, bint distinct=False):
    cdef Py_ssize_t i, j, n
    cdef list out
    cdef object v
    cdef bint seen
    if distinct and type(values) is list and PyList_GET_SIZE(values) <= 16:
        out = []  # equal values once, in first-seen order: a few comparisons beat a set
        n = PyList_GET_SIZE(values)
        for i in range(n):
            v = <object>PyList_GET_ITEM(values, i)
            seen = False
            for j in range(i):
                if <object>PyList_GET_ITEM(values, j) == v:
                    seen = True
                    break
            if not seen:
                out.append(_pair(action, v))
        return out
    if distinct:
        values = dict.fromkeys(values)
    if type(values) is list:
        n = PyList_GET_SIZE(values)
        out = PyList_New(n)
        for i in range(n):
            t = _pair(action, <object>PyList_GET_ITEM(values, i))
            Py_INCREF(t)
            PyList_SET_ITEM(out, i, t)
        return out
    out = []
    for v in values:
        out.append(_pair(action, v))
    return out


cdef inline bint _small(object v, long* out) noexcept:
    """Whether v is a whole number well inside a C long (then stored in out), checked in C:
    an int of one digit is read in place, a bigger one through the C API."""
    cdef int overflow = 0
    if type(v) is not int:
        return False
    if one_digit(<PyObject*>v, out):
        return True
    out[0] = PyLong_AsLongAndOverflow(v, &overflow)
    return not overflow and -(<long>1 << 62) < out[0] < (<long>1 << 62)  # C constants (a literal past 2**31 is a Python int)


cpdef list distinct(object values):
    """The values in order, each once (as the keys of dict.fromkeys)."""
    cdef list src, out
    cdef Py_ssize_t n, i, j
    cdef long xs[64]
    cdef long v
    cdef int overflow = 0
    if type(values) is list and len(<list>values) <= 64:
        src = <list>values
        n = len(src)
        out = []
        for i in range(n):
            item = src[i]
            if type(item) is not int:
                return list(dict.fromkeys(values))
            v = PyLong_AsLongAndOverflow(item, &overflow)
            if overflow:
                return list(dict.fromkeys(values))
            xs[i] = v
            for j in range(i):
                if xs[j] == v:
                    break
            else:
                out.append(item)
        return out
    return list(dict.fromkeys(values))


cpdef list tagged_product(object action, object firsts, object seconds):
    cdef list xs = list(firsts), ys = list(seconds), out = []
    if len(xs) * len(ys) > MAX_PAIRS:
        raise ValueError(TOO_MANY_PAIRS)
    for x in xs:
        for y in ys:
            out.append(triple(action, x, y))
    return out


# ---- zones -----------------------------------------------------------------------------------
cpdef object remove_value(list values, object value):
    """list.remove in C (native engines call it without a method lookup): small ints compared
    as C numbers, anything else by ==; the same ValueError when the value is not there."""
    cdef Py_ssize_t i, n = len(values)
    cdef long v, x
    cdef object item
    if type(value) is int and one_digit(<PyObject*>value, &v):
        for i in range(n):  # the first element equal to it, as list.remove finds it
            item = <object>PyList_GET_ITEM(values, i)
            if type(item) is int and one_digit(<PyObject*>item, &x):
                if x == v:
                    _cut(values, i, i + 1)
                    return None
            elif item == value:  # equal without being a small int (True == 1, 1.0 == 1)
                _cut(values, i, i + 1)
                return None
        raise ValueError("list.remove(x): x not in list")
    values.remove(value)


cpdef object refill(list dst, list src, Py_ssize_t size):
    """Top dst up to ``size`` elements from the front of src, as far as src allows (the C list
    API: no slice objects)."""
    cdef Py_ssize_t missing = size - len(dst), k, i
    if missing > 0 and src:
        k = min(missing, len(src))
        for i in range(k):
            dst.append(<object>PyList_GET_ITEM(src, i))
        _cut(src, 0, k)


# ---- multisets -----------------------------------------------------------------------------
cpdef list distinct_pairs(list values):
    cdef Py_ssize_t n = len(values), i, j, found
    cdef set seen
    cdef list out = []
    cdef long pairs[240]
    if n <= 16:  # small whole numbers: pairs compared in C, a tuple only for each new one
        found = distinct_pairs_into(values, pairs, 120)
        if found >= 0:
            return [(pairs[2 * i], pairs[2 * i + 1]) for i in range(found)]
    seen = set()
    for i in range(n):
        if len(out) > MAX_PAIRS:
            raise ValueError(TOO_MANY_PAIRS)
        a = values[i]
        for j in range(i + 1, n):
            b = values[j]
            key = (a, b) if a <= b else (b, a)
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


cdef Py_ssize_t distinct_pairs_into(list values, long* out, Py_ssize_t cap) except -2:
    """distinct_pairs in C: each pair (low, high) as two numbers of ``out`` (room for ``cap``
    pairs); returns how many pairs, or -1 when a value is not a small whole number or there
    is no room (then the caller takes the list)."""
    cdef Py_ssize_t n = len(values), i, j, k, found = 0
    cdef long xs[64]
    cdef long a_, b_, lo, hi
    if n > 64:
        return -1
    for i in range(n):
        if not _small(values[i], &xs[i]):
            return -1
    for i in range(n):
        a_ = xs[i]
        for j in range(i + 1, n):
            b_ = xs[j]
            lo, hi = (a_, b_) if a_ <= b_ else (b_, a_)
            for k in range(found):
                if out[2 * k] == lo and out[2 * k + 1] == hi:
                    break
            else:
                if found >= cap:
                    return -1
                out[2 * found] = lo
                out[2 * found + 1] = hi
                found += 1
    return found


cdef Py_ssize_t holding_into(list values, object items, object firsts, object seconds, long* out,
                             Py_ssize_t cap) except -2:
    """holding_pairs in C: the items (in their order) whose two numbers are two different
    elements of ``values``, into ``out`` (room for ``cap``); -1 when something is not a small
    whole number, the tables are not tuples, or there is no room (then the caller takes the list)."""
    cdef Py_ssize_t i, n = len(values), count, found = 0
    cdef int found_a, found_b
    cdef long xs[32]
    cdef long a_, b_, item_
    cdef long* tables
    if n > 32 or type(firsts) is not tuple or type(seconds) is not tuple:
        return -1
    tables = _held_tables(<tuple>firsts, <tuple>seconds)
    if tables == NULL:
        return -1
    cdef unsigned char held[64]  # how many elements hold each number below 64
    cdef bint tally = True
    for i in range(n):
        if not _small(values[i], &xs[i]):
            return -1
        tally = tally and 0 <= xs[i] < 64
    count = _held_count
    if type(items) is not list:
        items = list(items)
    if tally:
        memset(held, 0, 64)
        for i in range(n):
            held[xs[i]] += 1
    for item in <list>items:
        if not _small(item, &item_) or not (0 <= item_ < count):
            return -1
        a_, b_ = tables[item_], tables[count + item_]
        if tally:  # a and b held by two different elements: a count of 2 when they are equal
            if not (0 <= a_ < 64 and 0 <= b_ < 64):
                continue
            if a_ == b_:
                found_a = found_b = held[a_] >= 2
            else:
                found_a, found_b = held[a_] >= 1, held[b_] >= 1
        else:
            found_a = found_b = 0
            for i in range(n):  # one pass: a and b as two different elements
                if not found_a and xs[i] == a_:
                    found_a = 1
                elif not found_b and xs[i] == b_:
                    found_b = 1
        if found_a and found_b:
            if found >= cap:
                return -1
            out[found] = item_
            found += 1
    return found


def _probe_into(str kernel, list values, *args):
    """For the twin tests: what a C-only kernel writes into its C array (a list of pairs or of
    items), or None when it declines (then native engines take the list kernel)."""
    cdef long out[512]
    cdef Py_ssize_t n, cap = int(args[len(args) - 1]) if args else 0  # (no wraparound here)
    if kernel == "distinct_pairs_into":
        n = distinct_pairs_into(values, out, min(cap, 256))
        return None if n < 0 else [(out[2 * i], out[2 * i + 1]) for i in range(n)]
    n = holding_into(values, args[0], args[1], args[2], out, min(cap, 512))
    return None if n < 0 else [out[i] for i in range(n)]


cpdef object contains_all(list values, list wanted):
    cdef list pool = list(values)
    for w in wanted:
        if w in pool:
            pool.remove(w)
        else:
            return False
    return True


cpdef object contains_pair(list values, object a, object b):
    if a == b:
        return values.count(a) >= 2
    return a in values and b in values


# the last two tables holding_pairs read, as C numbers (tuples do not change: kept by identity)
cdef object _held_firsts = None, _held_seconds = None
cdef long* _held = NULL  # firsts then seconds; NULL when they are not all small numbers
cdef Py_ssize_t _held_count = 0


cdef long* _held_tables(tuple firsts, tuple seconds) except? NULL:
    global _held_firsts, _held_seconds, _held, _held_count
    cdef Py_ssize_t i, count = len(firsts)
    if firsts is _held_firsts and seconds is _held_seconds:
        return _held
    PyMem_Free(_held)
    _held, _held_firsts, _held_seconds, _held_count = NULL, firsts, seconds, count
    if len(seconds) != count:
        return NULL
    _held = <long*>PyMem_Malloc((2 * count + 1) * sizeof(long))
    if _held == NULL:
        raise MemoryError()
    for i in range(count):
        if not _small(firsts[i], &_held[i]) or not _small(seconds[i], &_held[count + i]):
            PyMem_Free(_held)
            _held = NULL
            return NULL
    return _held


cpdef list holding_pairs(list values, object items, object firsts, object seconds, object tag=None):
    cdef list out = [], seq = items if type(items) is list else list(items)
    cdef Py_ssize_t i, n = len(values), found
    cdef int found_a, found_b
    cdef long here[64]
    cdef long* held = &here[0]
    if len(seq) > 64:
        held = <long*>PyMem_Malloc(len(seq) * sizeof(long))
    if held == NULL:
        raise MemoryError()
    try:  # small whole numbers: compared in C by holding_into
        found = holding_into(values, seq, firsts, seconds, held, len(seq))
        if found >= 0:
            return [held[i] if tag is None else _pair_long(tag, held[i]) for i in range(found)]
    finally:
        if held != &here[0]:
            PyMem_Free(held)
    for item in seq:
        a = firsts[item]
        b = seconds[item]
        found_a = found_b = 0
        for i in range(n):  # one pass: a and b as two different elements
            v = values[i]
            if not found_a and v == a:
                found_a = 1
            elif not found_b and v == b:
                found_b = 1
        if found_a and found_b:
            out.append(item if tag is None else _pair(tag, item))
    return out


# ---- random ---------------------------------------------------------------------------------
cdef uint64_t _GOLDEN = 0x9E3779B97F4A7C15ULL


cpdef object shuffle(list items, object state):
    """Fisher-Yates with Rng.below's numbers: a draw above the largest multiple of n is drawn
    again (that bound is computed only for draws near the top, where it can matter)."""
    cdef uint64_t s = <uint64_t>state
    cdef uint64_t z, n
    cdef Py_ssize_t i, j
    cdef PyObject** cells = PySequence_Fast_ITEMS(items)
    cdef PyObject* held
    for i in range(len(items) - 1, 0, -1):
        n = <uint64_t>(i + 1)
        while True:
            s = s + _GOLDEN
            z = s
            z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
            z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
            z = z ^ (z >> 31)
            if z <= <uint64_t>0xFFFFFFFFFFFFFFFFULL - n:
                break  # below every bound: kept (the bound is at least 2**64 - n)
            if z <= <uint64_t>0xFFFFFFFFFFFFFFFFULL - ((<uint64_t>0xFFFFFFFFFFFFFFFFULL % n) + 1) % n:
                break
        j = <Py_ssize_t>(z % n)
        held = cells[i]  # a swap in place: both stay in the list, no reference changes
        cells[i] = cells[j]
        cells[j] = held
    return s
