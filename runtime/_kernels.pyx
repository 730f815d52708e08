# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled kernels; ``kernels.py`` holds the pure-Python twins with the same signatures and
results (see its docstring for the layouts). Tables (``adj``, ``step``) are ``array('h')``."""

from cpython cimport array
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_Check, PyByteArray_GET_SIZE
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_Check, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject
from cpython.object cimport Py_SIZE
from libc.stdlib cimport calloc
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.sequence cimport PySequence_Fast_ITEMS
from libc.stdint cimport uint64_t
from libc.string cimport memchr, memcmp, memcpy, memmove, memset

import array as _array_module

cdef extern from "Python.h":
    int _list_set_slice "PyList_SetSlice"(object items, Py_ssize_t low, Py_ssize_t high, PyObject* value) except -1


cdef inline int _cut(list items, Py_ssize_t low, Py_ssize_t high) except -1:
    """del items[low:high] through the C API (no slice object)."""
    return _list_set_slice(items, low, high, NULL)


cdef int GHOST = 255
cdef enum:
    MAX_BOARD = 4096  # the cells of one grid at most (the language's limit)
#: the pairs one call may list: the legal moves one decision may hold (LIMITS["moves"])
cdef Py_ssize_t MAX_PAIRS = 1_000_000
TOO_MANY_PAIRS = "more than 1,000,000 moves (or pairs), the limit of legal moves in one decision"


# ---- buffers ---------------------------------------------------------------------------------
cdef inline const unsigned char* _ro(object cells) except NULL:
    """Read-only pointer into bytes or a bytearray (no buffer-protocol set-up cost)."""
    if PyBytes_Check(cells):
        return <const unsigned char*>PyBytes_AS_STRING(cells)
    if PyByteArray_Check(cells):
        return <const unsigned char*>PyByteArray_AS_STRING(cells)
    raise TypeError("cells must be bytes or a bytearray")


cdef inline Py_ssize_t _len(object cells) except -1:
    """len(cells) of a grid's bytes read in C (Python's len() is a generic call), any other
    object as len() says."""
    if PyByteArray_Check(cells):
        return PyByteArray_GET_SIZE(cells)
    if PyBytes_Check(cells):
        return PyBytes_GET_SIZE(cells)
    return len(cells)


cdef inline unsigned char* _rw(object cells) except NULL:
    if PyByteArray_Check(cells):
        return <unsigned char*>PyByteArray_AS_STRING(cells)
    raise TypeError("cells must be a bytearray")


cdef type _ARRAY = _array_module.array  # looked up once: _tab runs on every kernel call


cdef inline const short* _tab(object table) except NULL:
    if isinstance(table, _ARRAY) and (<array.array>table).ob_descr.typecode == b'h':
        return (<array.array>table).data.as_shorts
    raise TypeError("tables must be array('h')")


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


# ---- connectivity ---------------------------------------------------------------------------
cdef int _component(const unsigned char* cells, const short* adj, int deg, int start, int colour,
                    int wild, unsigned char* seen, unsigned char* found, int* stack,
                    int* members) noexcept nogil:
    """Flood fill from start over colour-or-wild cells; marks ``seen`` for colour cells,
    ``found`` for members (listed in ``members``); returns the member count."""
    cdef int top = 1, count = 1, c, k, nb, v
    stack[0] = start
    found[start] = 1
    members[0] = start
    if cells[start] == colour:
        seen[start] = 1
    while top > 0:
        top -= 1
        c = stack[top]
        for k in range(deg):
            nb = adj[c * deg + k]
            if nb < 0 or found[nb]:
                continue
            v = cells[nb]
            if v == colour or (v == wild and wild != 0):
                found[nb] = 1
                members[count] = nb
                count += 1
                if v == colour:
                    seen[nb] = 1
                stack[top] = nb
                top += 1
    return count


cdef tuple _take_members(unsigned char* found, int n, int* members, int count, bint keep):
    """Clear the found flags of a component; with ``keep``, return its cells sorted."""
    cdef int i
    cdef list out
    if not keep:
        for i in range(count):
            found[members[i]] = 0
        return None
    out = []
    for i in range(n):
        if found[i]:
            out.append(i)
            found[i] = 0
    return tuple(out)


cdef enum:
    SMALL = 512  # boards up to this many cells use stack buffers


cdef struct Scratch:
    unsigned char* seen
    unsigned char* found
    int* stack
    int* members
    unsigned char small_flags[2 * SMALL + 2]
    int small_ints[2 * SMALL + 2]
    bint heap


cdef int _scratch_open(Scratch* w, int n) except -1:
    """Point the work buffers at the stack for small boards, at the heap otherwise."""
    if n <= SMALL:
        w.heap = False
        w.seen = w.small_flags
        w.stack = w.small_ints
    else:
        w.heap = True
        w.seen = <unsigned char*>PyMem_Malloc(2 * n + 2)
        w.stack = <int*>PyMem_Malloc((2 * n + 2) * sizeof(int))
        if w.seen == NULL or w.stack == NULL:
            PyMem_Free(w.seen)
            PyMem_Free(w.stack)
            raise MemoryError()
    memset(w.seen, 0, 2 * n + 2)
    w.found = w.seen + n + 1
    w.members = w.stack + n + 1
    return 0


cdef void _scratch_close(Scratch* w) noexcept:
    if w.heap:
        PyMem_Free(w.seen)
        PyMem_Free(w.stack)


cdef list _groups(object cells_obj, object adj_obj, int deg, int wild, int min_size, int min_real,
                  bint best_only):
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef int n = _len(cells_obj)
    cdef Scratch w
    _scratch_open(&w, n)
    try:
        return _groups_in(cells, adj, n, deg, wild, min_size, min_real, best_only, &w)
    finally:
        _scratch_close(&w)


cdef int _reals(const unsigned char* cells, int* members, int count, int colour):
    """How many cells of a component hold its own colour (not the wild value)."""
    cdef int k, reals = 0
    for k in range(count):
        if cells[members[k]] == colour:
            reals += 1
    return reals


cdef list _groups_in(const unsigned char* cells, const short* adj, int n, int deg, int wild, int min_size,
                     int min_real, bint best_only, Scratch* w):
    cdef int i, colour, joker, count, best = 0, best_colour = 0, best_start = -1
    cdef unsigned char present[256]
    cdef list out = []
    memset(present, 0, 256)
    for i in range(n):
        present[cells[i]] = 1
    for colour in range(1, 256):
        if not present[colour] or (colour == wild and min_real > 0):
            continue
        joker = 0 if colour == wild else wild
        memset(w.seen, 0, n)
        for i in range(n):
            if cells[i] == colour and not w.seen[i]:
                count = _component(cells, adj, deg, i, colour, joker, w.seen, w.found, w.stack, w.members)
                if min_real > 1 and colour != wild and _reals(cells, w.members, count, colour) < min_real:
                    count = -count  # too few of its own colour: never counted, still cleared
                if count < 0:
                    _take_members(w.found, n, w.members, -count, False)
                elif best_only:
                    _take_members(w.found, n, w.members, count, False)
                    if count >= min_size and count > best:
                        best, best_colour, best_start = count, colour, i
                elif count >= min_size:
                    out.append((colour, _take_members(w.found, n, w.members, count, True)))
                else:
                    _take_members(w.found, n, w.members, count, False)
    if best_only:
        if best_start < 0:
            return [(0, 0, ())]
        memset(w.seen, 0, n)
        joker = 0 if best_colour == wild else wild
        count = _component(cells, adj, deg, best_start, best_colour, joker, w.seen, w.found, w.stack, w.members)
        return [(best, best_colour, _take_members(w.found, n, w.members, count, True))]
    return out


cpdef list connected_groups(object cells, object adj, int deg, int wild, int min_size, int min_real):
    return _groups(cells, adj, deg, wild, min_size, min_real, False)


cpdef object group_at(object cells_obj, object adj_obj, int deg, int cell, int colour, int wild):
    return _group_at(cells_obj, adj_obj, deg, cell, colour, wild)


cdef object _group_at(object cells_obj, object adj_obj, int deg, int cell, int colour, int wild):
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef int n = _len(cells_obj), count
    cdef int v = cells[cell]
    if v != colour and not (v == wild and wild != 0):
        return ()
    cdef Scratch w
    _scratch_open(&w, n)
    try:
        count = _component(cells, adj, deg, cell, colour, wild, w.seen, w.found, w.stack, w.members)
        return _take_members(w.found, n, w.members, count, True)
    finally:
        _scratch_close(&w)


cpdef object largest_zone(object cells, object adj, int deg, int wild, int min_size, int min_real):
    return _groups(cells, adj, deg, wild, min_size, min_real, True)[0]


# ---- lanes with gravity ------------------------------------------------------------------------
cdef int _block_origin(int cell, int width, int height, int lane_major, int size, int* x, int* y) except -1:
    if cell < 0 or cell >= width * height:
        raise ValueError("there is no cell here (none) for the block's corner")
    if lane_major:
        x[0], y[0] = cell // height, cell % height
    else:
        x[0], y[0] = cell % width, cell // width
    if size < 1 or size > 16 or x[0] + size > width or y[0] + size > height:
        raise ValueError(f"a block of {size} x {size} cells from that corner does not fit on the board")
    return 0


cpdef int turn_cells(object cells_obj, int width, int height, int lane_major, int corner, int size,
                     int quarters, int mirror, int to=-1) except -1:
    cdef unsigned char* cells = _rw(cells_obj)
    cdef unsigned char before[256]
    cdef int x0, y0, dx, dy, nx, ny, k, q, t, x1, y1
    _block_origin(corner, width, height, lane_major, size, &x0, &y0)
    if to >= 0:
        _block_origin(to, width, height, lane_major, size, &x1, &y1)
    else:
        x1, y1 = x0, y0
    for dx in range(size):
        for dy in range(size):
            before[dx * size + dy] = cells[(x0 + dx) * height + y0 + dy if lane_major else (y0 + dy) * width + x0 + dx]
    q = quarters % 4
    if q < 0:
        q += 4
    for dx in range(size):
        for dy in range(size):
            nx, ny = dx, dy
            if mirror:
                nx = size - 1 - dx
            else:
                for k in range(q):
                    t = nx
                    nx = ny
                    ny = size - 1 - t
            cells[(x1 + nx) * height + y1 + ny if lane_major else (y1 + ny) * width + x1 + nx] = before[dx * size + dy]
    return 0


cpdef object settle(object cells_obj, int lanes, int height):
    cdef unsigned char* cells = _rw(cells_obj)
    cdef int moved = 0, lane, row, base, write, v
    for lane in range(lanes):
        base = lane * height
        write = base
        for row in range(height):
            v = cells[base + row]
            if v:
                if base + row != write:
                    cells[write] = v
                    cells[base + row] = 0
                    moved += 1
                write += 1
    return moved


cdef inline int _drop(unsigned char* cells, int height, int lane, int value) noexcept nogil:
    cdef int base = lane * height, row
    for row in range(height):
        if cells[base + row] == 0:
            cells[base + row] = value
            return row
    return -1


cpdef object drop(object cells_obj, int lanes, int height, int lane, int value):
    return _drop(_rw(cells_obj), height, lane, value)


cpdef long lane_count(object cells_obj, int lanes, int height, int lane) except? -1:
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef int base = lane * height, row = 0
    if not 0 <= lane < lanes or _len(cells_obj) < lanes * height:
        raise ValueError(f"there is no lane {lane} (lanes are 0 to {lanes - 1})")
    while row < height and cells[base + row]:
        row += 1
    return row


cpdef Py_ssize_t count_byte(object cells_obj, int value) except -1:
    """How many cells of a grid hold ``value`` (0: the empty ones): bytearray.count in C."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t c, count = 0, n = _len(cells_obj)
    for c in range(n):
        count += cells[c] == value
    return count


cpdef tuple rotate_pattern(int rows, int cols, object pattern):
    cdef const unsigned char* p = _ro(pattern)
    cdef bytearray out = bytearray(rows * cols)
    cdef unsigned char* o = <unsigned char*>PyByteArray_AS_STRING(out)
    cdef int r, c
    for r in range(rows):
        for c in range(cols):
            o[c * rows + (rows - 1 - r)] = p[r * cols + c]
    return cols, rows, bytes(out)


cdef inline uint64_t _grid_hash(const unsigned char* g, Py_ssize_t n) noexcept nogil:
    """A quick hash of n cells, eight at a time (equal hashes are then compared in full)."""
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL, word
    cdef Py_ssize_t i = 0
    while i + 8 <= n:
        memcpy(&word, g + i, 8)
        h = (h ^ word) * 0xBF58476D1CE4E5B9ULL
        h ^= h >> 29
        i += 8
    word = 0
    if i < n:
        memcpy(&word, g + i, n - i)
    h = (h ^ word ^ <uint64_t>n) * 0x94D049BB133111EBULL
    return h ^ (h >> 31)


cdef class _Placed:
    """Every distinct result of dropping one pattern into one grid, kept in C: the grid and
    pattern it is for, and per result its key (turns * 64 + offset), cells and overflow."""
    cdef bytes grid, ghost
    cdef int lanes, height, rows, cols, count
    cdef Py_ssize_t n
    cdef int* keys
    cdef unsigned char* results  # count * n cells
    cdef unsigned char* overs  # count * 64 values
    cdef int* nover

    def __dealloc__(self):
        PyMem_Free(self.keys)
        PyMem_Free(self.results)
        PyMem_Free(self.overs)
        PyMem_Free(self.nover)


cdef _Placed _place_all(object cells_obj, int lanes, int height, int rows, int cols, object pattern):
    """The placements of a pattern (as ``placements`` lists them) worked out in C."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const unsigned char* given = _ro(pattern)
    cdef Py_ssize_t n = _len(cells_obj), size = <Py_ssize_t>rows * cols, i
    cdef int r = rows, c = cols, turns, offset, col, row, lane, v, tries = 4 * (lanes + 1), k
    cdef _Placed out = _Placed.__new__(_Placed)
    cdef uint64_t* hashes = NULL
    cdef unsigned char* pv = NULL
    cdef unsigned char* turned
    cdef unsigned char* g
    cdef uint64_t h
    if len(pattern) < size:
        raise ValueError("the pattern is shorter than its rows and columns say")
    out.grid, out.lanes, out.height, out.rows, out.cols, out.n = bytes(cells_obj), lanes, height, rows, cols, n
    out.keys = <int*>PyMem_Malloc(tries * sizeof(int))
    out.results = <unsigned char*>PyMem_Malloc(tries * n + 1)
    out.overs = <unsigned char*>PyMem_Malloc(tries * 64)
    out.nover = <int*>PyMem_Malloc(tries * sizeof(int))
    hashes = <uint64_t*>PyMem_Malloc(tries * sizeof(uint64_t))
    pv = <unsigned char*>PyMem_Malloc(2 * size + 1)  # the pattern as turned so far, and room to turn it
    try:
        if out.keys == NULL or out.results == NULL or out.overs == NULL or out.nover == NULL or hashes == NULL \
                or pv == NULL:
            raise MemoryError()
        turned = pv + size
        for i in range(size):
            pv[i] = given[i]
        for turns in range(4):
            if turns:  # a quarter turn clockwise: (row, col) goes to (col, r - 1 - row) of c x r
                for row in range(r):
                    for col in range(c):
                        turned[col * r + (r - 1 - row)] = pv[row * c + col]
                for i in range(size):
                    pv[i] = turned[i]
                r, c = c, r
            for offset in range(lanes - c + 1):
                g = out.results + out.count * n
                for i in range(n):
                    g[i] = cells[i]
                out.nover[out.count] = 0
                for col in range(c):
                    lane = offset + col
                    for row in range(r - 1, -1, -1):
                        v = pv[row * c + col]
                        if v == 0 or v == GHOST:
                            continue
                        if _drop(g, height, lane, v) < 0 and out.nover[out.count] < 64:
                            out.overs[out.count * 64 + out.nover[out.count]] = v
                            out.nover[out.count] += 1
                h = _grid_hash(g, n)  # distinct results found without a set
                for k in range(out.count):
                    if hashes[k] == h and memcmp(out.results + k * n, g, n) == 0:
                        break
                else:
                    hashes[out.count] = h
                    out.keys[out.count] = turns * 64 + offset
                    out.count += 1
    finally:
        PyMem_Free(hashes)
        PyMem_Free(pv)
    return out


cpdef list placements(object cells_obj, int lanes, int height, int rows, int cols, object pattern):
    cdef _Placed found = _place_all(cells_obj, lanes, height, rows, cols, pattern)
    cdef int k, i
    return [(found.keys[k] // 64, found.keys[k] % 64,
             PyBytes_FromStringAndSize(<char*>found.results + k * found.n, found.n),
             tuple([found.overs[k * 64 + i] for i in range(found.nover[k])])) for k in range(found.count)]


# ---- keys of groups and placements, carried in moves ------------------------------------------
cpdef list group_keys(list groups, long wild):
    cdef list out = []
    cdef tuple group
    for group in groups:
        colour, cells = group
        out.append(((wild * 256 + <long>colour) * 4096 + <long>cells[0]) * 4096 + len(cells))
    return out


cpdef long group_colour(long key):
    return (key // (4096 * 4096)) % 256 - 1


cpdef long group_anchor(long key):
    return (key // 4096) % 4096


cpdef long group_size(long key):
    return key % 4096


cpdef object show_placement(long key):
    from .kernels import show_placement
    return show_placement(key)


cpdef object group_cells(object cells, object adj, int deg, long key):
    return _group_at(cells, adj, deg, (key // 4096) % 4096,
                     (key // (4096 * 4096)) % 256, key // (<long>1 << 32))


cpdef object drop_into(object grid, int lanes, int height, int lane, long value, list taking, list overflow):
    cdef unsigned char* cells = _rw(grid)
    if not 0 <= lane < lanes:
        raise ValueError(f"there is no lane {lane} (lanes are 0 to {lanes - 1})")
    if taking is not None:
        if value not in taking:
            return False
        taking.remove(value)
    if value + 1 < 1 or value + 1 > 255:
        raise ValueError(f"{value} can not go in a grid cell")
    if _drop(cells, height, lane, <int>(value + 1)) >= 0:
        return True
    if overflow is None:
        raise ValueError(f"lane {lane} is full and the rules say nowhere for the overflow to go")
    overflow.append(value)
    return False


cdef bytes _ghosted(tuple pattern, list taking):
    """The pattern with the elements ``taking`` lacks (in reading order) made into ghosts."""
    cdef bytes cells = pattern[2]
    cdef const unsigned char* src = <const unsigned char*>PyBytes_AS_STRING(cells)
    cdef Py_ssize_t n = len(cells), i
    cdef long have[256]
    cdef long need[256]
    cdef object item
    cdef long v
    cdef int wanted = 0  # distinct values the pattern still needs more of from taking
    cdef bytearray out = None
    cdef unsigned char* o = NULL
    if taking is None:
        return cells
    memset(have, 0, sizeof(have))
    memset(need, 0, sizeof(need))
    for i in range(n):
        v = src[i]
        if v and v != GHOST:
            if need[v] == 0:
                wanted += 1
            need[v] += 1
    for item in taking:  # counted only as far as the pattern needs: a big supply stops early
        if wanted == 0:
            break
        v = item
        if 0 <= v < 254 and have[v + 1] < need[v + 1]:
            have[v + 1] += 1
            if have[v + 1] == need[v + 1]:
                wanted -= 1
    for i in range(n):
        v = src[i]
        if v == 0:
            continue
        if have[v] > 0:
            have[v] -= 1
        else:
            if out is None:
                out = bytearray(cells)
                o = <unsigned char*>PyByteArray_AS_STRING(out)
            o[i] = GHOST
    return cells if out is None else bytes(out)


# the placements last worked out, by what they depend on: the moves of a step find them, and the
# move played drops the same pattern into the same grid just after (a pure function's memo);
# a few entries suffice, compared in place (hashing the grid for a dict cost more than a miss)
cdef list _placed = [None] * 8  # _Placed entries, the newest at _placed_next - 1
cdef int _placed_next = 0


cdef _Placed _placements_memo(object grid, int lanes, int height, tuple pattern, list taking):
    global _placed_next
    cdef bytes ghost = _ghosted(pattern, taking)
    cdef const unsigned char* cells = _ro(grid)
    cdef Py_ssize_t n = len(grid)
    cdef int rows = pattern[0], cols = pattern[1], k
    cdef object entry
    cdef _Placed found
    for k in range(8):  # the newest first: a move played drops what its step just listed
        entry = _placed[(_placed_next + 7 - k) % 8]
        if entry is None:
            break
        found = <_Placed>entry
        if (found.n == n and found.lanes == lanes and found.height == height and found.rows == rows
                and found.cols == cols and (found.ghost is ghost or found.ghost == ghost)
                and memcmp(PyBytes_AS_STRING(found.grid), cells, n) == 0):
            return found
    found = _place_all(grid, lanes, height, rows, cols, ghost)
    found.ghost = ghost
    _placed[_placed_next] = found
    _placed_next = (_placed_next + 1) % 8
    return found


cpdef list placement_keys(object grid, int lanes, int height, tuple pattern, list taking):
    cdef _Placed found = _placements_memo(grid, lanes, height, pattern, taking)
    cdef int k
    return [found.keys[k] for k in range(found.count)]


cpdef object place(object grid, int lanes, int height, long key, tuple pattern, list taking, list overflow):
    cdef _Placed found = _placements_memo(grid, lanes, height, pattern, taking)
    cdef const unsigned char* src
    cdef unsigned char* cells
    cdef Py_ssize_t i
    cdef int k, at = -1
    for k in range(found.count):
        if found.keys[k] == key:
            at = k
            break
    if at < 0:
        raise ValueError(f"placement {show_placement(key)} is not possible here")
    if taking is not None:
        src = <const unsigned char*>PyBytes_AS_STRING(found.ghost)
        for i in range(len(found.ghost)):
            if src[i] and src[i] != GHOST:
                taking.remove(src[i] - 1)
    if len(grid) != found.n:
        raise ValueError("the grid changed size")
    cells = _rw(grid)
    memcpy(cells, found.results + at * found.n, found.n)
    for k in range(found.nover[at]):
        if overflow is None:
            raise ValueError("a lane is full and the rules say nowhere for the overflow to go")
        overflow.append(found.overs[at * 64 + k] - 1)


# ---- lines and pushes --------------------------------------------------------------------------
cdef long* _line_scratch = NULL  # _line_moves' keys before its list is made (kernels hold the GIL)
cdef Py_ssize_t _line_scratch_cap = 0


cdef int _grow(long** keys, Py_ssize_t* cap, Py_ssize_t need) except -1:
    """Make room for ``need`` keys in a growable buffer (PyMem: freed by its owner)."""
    cdef Py_ssize_t size = cap[0] if cap[0] > 0 else 64
    cdef long* bigger
    while size < need:
        size *= 2
    bigger = <long*>PyMem_Realloc(keys[0], size * sizeof(long))
    if bigger == NULL:
        raise MemoryError()
    keys[0] = bigger
    cap[0] = size
    return 0


cdef Py_ssize_t line_keys_into(object cells_obj, object step_obj, int ndirs, int me, int max_line,
                               long** keys, Py_ssize_t* cap) except -1:
    """The keys of every line move and push of ``me`` (as ``line_move_keys``) into a growable
    buffer; returns how many. Native engines keep them there until a move is picked."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* step = _tab(step_obj)
    cdef int n = _len(cells_obj), head, d, run, back, front, v, m, cur, k
    cdef Py_ssize_t count = 0
    for head in range(n):
        if cells[head] != me:
            continue
        for d in range(ndirs):
            front = step[head * ndirs + d]
            if front < 0:
                continue  # never push one's own piece off the board
            v = cells[front]
            if v == me:
                continue
            run = 1
            back = step[head * ndirs + (d ^ 1)]
            while back >= 0 and cells[back] == me:
                run += 1
                back = step[back * ndirs + (d ^ 1)]
            if max_line > 0 and run > max_line:
                run = max_line
            if v == 0:
                m = 0
                k = 1
            else:
                m = 0
                cur = front
                while cur >= 0 and cells[cur] != 0 and cells[cur] != me:
                    m += 1
                    cur = step[cur * ndirs + d]
                if cur >= 0 and cells[cur] == me:
                    continue  # a sandwiched own piece blocks the push
                k = m + 1
            if count + run >= cap[0]:
                _grow(keys, cap, count + run + 1)
            while k <= run:
                keys[0][count] = ((head * 8 + d) * 64 + k) * 64 + m
                count += 1
                k += 1
    return count


cdef Py_ssize_t keys_into(object values, long** keys, Py_ssize_t* cap) except -1:
    """The numbers of a list into a growable buffer; returns how many, or -2 when one is not a
    number that fits (then the caller keeps the list)."""
    cdef Py_ssize_t i, n
    cdef int overflow = 0
    cdef object v
    if type(values) is not list:
        return -2
    n = len(<list>values)
    if n > cap[0]:
        _grow(keys, cap, n)
    for i in range(n):
        v = (<list>values)[i]
        if type(v) is not int:
            return -2
        keys[0][i] = PyLong_AsLongAndOverflow(v, &overflow)
        if overflow:
            return -2
    return n


cdef Py_ssize_t cells_keys_into(object cells_obj, bint filled, long** keys, Py_ssize_t* cap) except -1:
    """A grid's empty (or filled) cells, read from its bytes into a growable buffer of keys (no
    list made); returns how many."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t c, count = 0, n = _len(cells_obj)
    if n > cap[0]:
        _grow(keys, cap, n)
    for c in range(n):
        if (cells[c] != 0) == filled:
            keys[0][count] = c
            count += 1
    return count


cdef list _line_moves(object cells_obj, object step_obj, int ndirs, int me, int max_line, bint packed,
                      object tag=None):
    global _line_scratch, _line_scratch_cap
    cdef Py_ssize_t count = line_keys_into(cells_obj, step_obj, ndirs, me, max_line,
                                           &_line_scratch, &_line_scratch_cap), i
    cdef list out = PyList_New(count)
    cdef object item
    for i in range(count):
        item = _key_item(_line_scratch[i], packed, tag)
        Py_INCREF(item)
        PyList_SET_ITEM(out, i, item)
    return out


cdef inline object _key_item(long key, bint packed, object tag):
    """A line move as the caller wants it: (tag, key), the key, or (head, dir, length, pushed)."""
    if tag is not None:
        return _pair_long(tag, key)
    if packed:
        return key
    return (key // 32768, (key // 4096) % 8, (key // 64) % 64, key % 64)


cpdef list line_moves(object cells, object step, int ndirs, int me, int max_line):
    return _line_moves(cells, step, ndirs, me, max_line, False)


cpdef list line_move_keys(object cells, object step, int ndirs, int me, int max_line, object tag=None):
    return _line_moves(cells, step, ndirs, me, max_line, True, tag)


cpdef tuple apply_line_key(object cells_obj, object step_obj, int ndirs, long key):
    return apply_line(cells_obj, step_obj, ndirs, key // 32768, (key // 4096) % 8, (key // 64) % 64)


cpdef tuple apply_line(object cells_obj, object step_obj, int ndirs, int head, int d, int k):
    cdef unsigned char* cells = _rw(cells_obj)
    cdef const short* step = _tab(step_obj)
    cdef int cur, last = -1, i, src, dst, count = 0
    cdef int ejected = 0
    cur = step[head * ndirs + d]
    while cur >= 0 and cells[cur] != 0:
        last = cur
        count += 1
        cur = step[cur * ndirs + d]
    if count > 0 and cur < 0:
        ejected = cells[last]
    if count > 0:
        src = last
        for i in range(count):
            dst = step[src * ndirs + d]
            if dst >= 0:
                cells[dst] = cells[src]
            cells[src] = 0
            src = step[src * ndirs + (d ^ 1)]
    src = head
    for i in range(k):
        dst = step[src * ndirs + d]
        cells[dst] = cells[src]
        cells[src] = 0
        src = step[src * ndirs + (d ^ 1)]
    if ejected:
        return (ejected, last, d)
    return (0, -1, d)


# ---- board queries: lines, outflanking, connection ---------------------------------------------
cdef bint _some_run(object cells_obj, object adj_obj, int deg, int value, int n, bint exact) except -1:
    """Whether some line holds a run of ``value`` of n or more cells (of exactly n with
    ``exact``: an overline does not count); each line is walked once, from its first cell."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = _len(cells_obj)
    cdef int c, d, back
    if Py_SIZE(adj_obj) < size * deg:
        raise ValueError("the table is smaller than the board")
    for c in range(size):
        if cells[c] != value:
            continue
        for d in range(0, deg - 1, 2):
            back = adj[c * deg + d + 1]
            if back >= 0 and cells[back] == value:
                continue
            if exact:
                if _run_from(cells, adj, deg, c, d, value, n + 1) == n:
                    return True
            elif _run_from(cells, adj, deg, c, d, value, n) >= n:
                return True
    return False


cpdef object in_a_row(object cells_obj, object adj_obj, int deg, int value, int n):
    return _some_run(cells_obj, adj_obj, deg, value, n, False)


cpdef object in_a_row_exactly(object cells_obj, object adj_obj, int deg, int value, int n):
    return _some_run(cells_obj, adj_obj, deg, value, n, True)


cdef inline int _run_from(const unsigned char* cells, const short* adj, int deg, int start, int d, int value,
                          int n) noexcept:
    """How long the run of ``value`` from ``start`` (its first cell) along direction d is, counted
    up to n (a ring stops where it began)."""
    cdef int run = 1, at = start
    while run < n:
        at = adj[at * deg + d]
        if at < 0 or cells[at] != value or at == start:
            break
        run += 1
    return run


cdef extern from *:
    """
    /* Which byte of a word of differences (cells compared eight at a time, copied from memory)
       is the first that differs, in memory order; that byte is cleared, so that the next call
       gives the next. Little-endian machines count the trailing zero bits. */
    static inline int regle_next_byte(unsigned long long *diff) {
    #if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        int b = __builtin_ctzll(*diff) >> 3;
        *diff &= ~(0xFFULL << (b * 8));
        return b;
    #else
        unsigned char *bytes = (unsigned char *)diff;
        int b = 0;
        while (!bytes[b]) b++;
        bytes[b] = 0;
        return b;
    #endif
    }
    """
    int next_byte "regle_next_byte"(unsigned long long* diff) noexcept


cdef bint _run_through(const unsigned char* cells, const short* adj, int deg, int c, int value, int n) noexcept:
    """Whether the run of ``value`` along some line through ``c`` (which holds it) is n long, as
    in_a_row counts it from the run's start (a closed ring has no start): the cells behind c
    are walked to the run's start, then the cells ahead of c only as far as n needs."""
    cdef int d, at, nxt, start, run
    for d in range(0, deg - 1, 2):
        at, run = c, 1
        while True:  # behind c (direction d + 1), to the start of the run
            nxt = adj[at * deg + d + 1]
            if nxt < 0 or cells[nxt] != value or nxt == c:
                break
            at = nxt
            run += 1
        if nxt == c:
            continue  # around a ring: in_a_row finds no start there
        start, at = at, c
        while run < n:  # ahead of c (direction d), stopping where a ring comes back to the start
            at = adj[at * deg + d]
            if at < 0 or cells[at] != value or at == start:
                break
            run += 1
        if run >= n:
            return True
    return False


cdef inline Py_ssize_t _changed_from(const unsigned char* cells, const unsigned char* board, Py_ssize_t c,
                                     Py_ssize_t size, unsigned long long* diff) noexcept:
    """The first word of eight cells from c on that differs from the board as remembered, with
    which of its bytes differ in ``diff`` (the equal words are passed over eight cells at a
    time); ``size`` when none does. The last few cells (fewer than eight) are read as a word
    padded with equal bytes."""
    cdef unsigned long long now, then
    cdef Py_ssize_t k
    while c + 8 <= size:
        memcpy(&now, cells + c, 8)
        memcpy(&then, board + c, 8)
        if now != then:
            diff[0] = now ^ then
            return c
        c += 8
    if c < size:  # the last few: their differences put in a word byte by byte (no memcpy call)
        now = 0
        for k in range(size - c):
            (<unsigned char*>&now)[k] = cells[c + k] ^ board[c + k]
        if now:
            diff[0] = now
            return c
    return size


cpdef object in_a_row_since(object cells_obj, bytearray memo, object adj_obj, int deg, int value, int n):
    """in_a_row, looking only at the cells that changed since it last answered False for this
    value: ``memo`` keeps, per value 1, 2, ..., a flag and the board as it was then (a line
    that was not there must run through a cell that changed). The same answer as in_a_row."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = _len(cells_obj), c = 0, at
    cdef unsigned long long diff = 0
    cdef int b
    cdef unsigned char* m
    if Py_SIZE(adj_obj) < size * deg:  # (an array's length: _tab checked its type)
        raise ValueError("the table is smaller than the board")
    if memo is None or value < 1 or value * (size + 1) > PyByteArray_GET_SIZE(memo):
        return in_a_row(cells_obj, adj_obj, deg, value, n)
    m = <unsigned char*>PyByteArray_AS_STRING(memo) + (value - 1) * (size + 1)
    if not m[0]:  # not used yet: remembered as a board of zeros, where no line of a value of 1
        memset(m + 1, 0, size)  # or more can be; every cell filled since is looked at
    while True:  # the cells that changed: a word of eight that differs, then its bytes that do
        c = _changed_from(cells, m + 1, c, size, &diff)
        if c >= size:
            break
        while diff:
            b = next_byte(&diff)
            at = c + b
            if cells[at] == value and m[1 + at] != value and _run_through(cells, adj, deg, <int>at, value, n):
                return True
        c += 8
    copy_small(m + 1, cells, size)
    m[0] = 1
    return False


cdef long _flank(object cells_obj, object adj_obj, int deg, int cell, int value, int d, list out) except -1:
    """The cells a piece of ``value`` at ``cell`` would outflank (see kernels.flanked): how many,
    and into ``out`` when it is a list."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = _len(cells_obj)
    cdef int k, k_end, at, count
    cdef long total = 0
    if cell < 0 or cell >= size or Py_SIZE(adj_obj) < size * deg or d >= deg:
        raise IndexError("no such cell or direction")
    if d < 0:
        k, k_end = 0, deg
    else:
        k, k_end = d, d + 1
    while k < k_end:
        count = flank_run(cells, adj, deg, cell, value, k)
        if count:
            total += count
            at = adj[cell * deg + k]
            while count and out is not None:
                out.append(at)
                at = adj[at * deg + k]
                count -= 1
        k += 1
    return total


cpdef list flanked(object cells_obj, object adj_obj, int deg, int cell, int value, int d):
    cdef list out = []
    _flank(cells_obj, adj_obj, deg, cell, value, d, out)
    return out


cpdef long flanked_count(object cells_obj, object adj_obj, int deg, int cell, int value, int d) except -1:
    """How many cells flanked() would list (without listing them)."""
    return _flank(cells_obj, adj_obj, deg, cell, value, d, None)


cpdef object connected(object cells_obj, object adj_obj, int deg, int value, object starts, object goals):
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = _len(cells_obj)
    cdef int c, k, nb, top = 0
    cdef object g
    cdef unsigned char mark_here[1024]  # boards up to 1023 cells: no allocation
    cdef int stack_here[1024]
    cdef bint small = size < 1024
    if Py_SIZE(adj_obj) < size * deg:
        raise ValueError("the table is smaller than the board")
    cdef unsigned char* mark = &mark_here[0]
    cdef int* stack = &stack_here[0]
    if not small:
        mark = <unsigned char*>PyMem_Malloc(size + 1)
        stack = <int*>PyMem_Malloc((size + 1) * sizeof(int))
    if mark == NULL or stack == NULL:
        if not small:
            PyMem_Free(mark)
            PyMem_Free(stack)
        raise MemoryError()
    try:
        memset(mark, 0, size)
        for g in goals:
            c = g
            if 0 <= c < size:
                mark[c] = 2  # a goal
        for g in starts:
            c = g
            if 0 <= c < size and cells[c] == value and not (mark[c] & 1):
                if mark[c] & 2:
                    return True
                mark[c] |= 1
                stack[top] = c
                top += 1
        while top > 0:
            top -= 1
            c = stack[top]
            for k in range(deg):
                nb = adj[c * deg + k]
                if nb >= 0 and not (mark[nb] & 1) and cells[nb] == value:
                    if mark[nb] & 2:
                        return True
                    mark[nb] |= 1
                    stack[top] = nb
                    top += 1
        return False
    finally:
        if not small:
            PyMem_Free(mark)
            PyMem_Free(stack)


cpdef object connected_since(object cells_obj, bytearray memo, object adj_obj, int deg, int value, object starts,
                             object goals):
    """connected, remembering in ``memo`` (per value 1, 2, ...: a flag, the board, and per cell
    whether it is reached from the starts, a start, a goal) what the starts reach, so that a
    later call floods only from the cells that gained ``value`` since (the whole board again
    when a reached cell lost it). The same starts and goals at every call with one memo. The
    same answer as connected."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = _len(cells_obj), c
    cdef Py_ssize_t width = 2 * size + 1
    cdef unsigned char* m
    cdef unsigned char* board
    cdef unsigned char* marks
    cdef int* stack
    cdef Py_ssize_t at
    cdef unsigned long long diff = 0
    cdef int stack_here[1024]
    cdef int k, nb, top = 0
    cdef bint whole
    cdef object g
    if Py_SIZE(adj_obj) < size * deg:  # (an array's length: _tab checked its type)
        raise ValueError("the table is smaller than the board")
    if memo is None or value < 1 or value > 255 or value * width > PyByteArray_GET_SIZE(memo):
        return connected(cells_obj, adj_obj, deg, value, starts, goals)
    m = <unsigned char*>PyByteArray_AS_STRING(memo) + (value - 1) * width
    board, marks = m + 1, m + 1 + size
    stack = &stack_here[0]  # boards up to 1023 cells: no allocation
    if size >= 1024:
        stack = <int*>PyMem_Malloc((size + 1) * sizeof(int))
        if stack == NULL:
            raise MemoryError()
    try:
        whole = not m[0]
        c = 0
        while not whole:  # the cells that changed: a word of eight that differs, then its bytes that do
            c = _changed_from(cells, board, c, size, &diff)
            if c >= size:
                break
            while diff:
                at = c + next_byte(&diff)
                if cells[at] == value:  # gained the value: reached when a start or touching one
                    if board[at] != value and not marks[at] & 1:
                        if marks[at] & 2:
                            marks[at] |= 1
                            stack[top] = <int>at
                            top += 1
                        else:
                            for k in range(deg):
                                nb = adj[at * deg + k]
                                if nb >= 0 and marks[nb] & 1:
                                    marks[at] |= 1
                                    stack[top] = <int>at
                                    top += 1
                                    break
                elif marks[at] & 1:  # a reached cell lost the value: what it joined may be cut
                    whole = True
                    break
            c += 8
        if whole:
            top = 0
            memset(marks, 0, size)
            for g in goals:
                c = g
                if 0 <= c < size:
                    marks[c] |= 4
            for g in starts:
                c = g
                if 0 <= c < size:
                    marks[c] |= 2
            for c in range(size):
                if marks[c] & 2 and cells[c] == value:
                    marks[c] |= 1
                    stack[top] = <int>c
                    top += 1
            m[0] = 1
        while top > 0:
            top -= 1
            c = stack[top]
            if marks[c] & 4:
                m[0] = 2  # a goal is reached (it stays reached while no reached cell is lost)
            for k in range(deg):
                nb = adj[c * deg + k]
                if nb >= 0 and not marks[nb] & 1 and cells[nb] == value:
                    marks[nb] |= 1
                    stack[top] = nb
                    top += 1
        memcpy(board, cells, size)
        return m[0] == 2
    finally:
        if size >= 1024:
            PyMem_Free(stack)


cpdef list empty_cells(object cells_obj):
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t c, n = _len(cells_obj)
    cdef list out = []
    for c in range(n):
        if not cells[c]:
            out.append(c)
    return out


cpdef list filled_cells(object cells_obj):
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t c, n = _len(cells_obj)
    cdef list out = []
    for c in range(n):
        if cells[c]:
            out.append(c)
    return out


cdef uint64_t _FNV_PRIME = 0x100000001B3ULL


cdef uint64_t _fnv(uint64_t h, object value, int depth) except? 0:
    cdef const unsigned char* data
    cdef Py_ssize_t i, n
    cdef uint64_t v
    cdef int k
    if PyByteArray_Check(value) or PyBytes_Check(value):
        data = _ro(value)
        n = len(value)
        for i in range(n):
            h = (h ^ data[i]) * _FNV_PRIME
        return (h ^ 0xFF) * _FNV_PRIME
    if isinstance(value, (list, tuple, array.array)):  # an array: a grid of numbers, natively
        if depth > 4:
            raise ValueError("a position nested too deeply")
        h = _fnv(h, len(value), depth + 1)
        for item in value:
            h = _fnv(h, item, depth + 1)
        return h
    v = <uint64_t>(<long long>value)
    for k in range(8):
        h = (h ^ (v & 0xFF)) * _FNV_PRIME
        v >>= 8
    return h


cpdef long long position_key(object parts, long long mover) except -1:
    cdef uint64_t h = 0xCBF29CE484222325ULL
    for part in parts:
        h = _fnv(h, part, 0)
    return <long long>(_fnv(h, mover, 0) >> 1)


cpdef bytes remember(bytes keys, long long key):
    cdef Py_ssize_t n = len(keys)
    cdef bytes out = PyBytes_FromStringAndSize(NULL, n + 8)
    cdef char* o = PyBytes_AS_STRING(out)
    cdef uint64_t v = <uint64_t>key
    cdef int k
    memcpy(o, PyBytes_AS_STRING(keys), n)
    for k in range(8):  # little-endian, as the pure twin writes it
        o[n + k] = <char>(v & 0xFF)
        v >>= 8
    return out


cpdef long repeats(bytes keys) except -1:
    cdef Py_ssize_t n = len(keys), i
    cdef const unsigned char* p = <const unsigned char*>PyBytes_AS_STRING(keys)
    cdef long count = 0
    cdef uint64_t last, key
    if n < 8:
        return 0
    memcpy(&last, p + n - 8, 8)  # each key read as one 64-bit number (a load, not a call per key)
    for i in range(0, n - 8, 8):
        memcpy(&key, p + i, 8)
        if key == last:
            count += 1
    return count


cdef int _slide_into(object cells_obj, object adj_obj, int deg, int cell, int d, list out, str what) except -3:
    """The empty cells from ``cell`` in direction d appended to ``out`` (when given); returns the
    first filled cell met, or -1 at the edge (or back at the start, around a ring)."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t n = _len(cells_obj), steps = 0
    cdef int at
    if cell < 0 or cell >= n:
        raise ValueError(f"there is no cell here (none) to {what} from")
    if d < 0 or d >= deg:
        raise IndexError("no such direction")
    at = adj[cell * deg + d]
    while at >= 0 and at != cell and not cells[at] and steps < n:
        if out is not None:
            out.append(at)
        steps += 1
        at = adj[at * deg + d]
    return at if at >= 0 and at != cell and cells[at] else -1


cpdef list slide(object cells_obj, object adj_obj, int deg, int cell, int d):
    cdef list out = []
    _slide_into(cells_obj, adj_obj, deg, cell, d, out, "slide")
    return out


cpdef list reach(object cells_obj, object adj_obj, int deg, int cell, int d):
    cdef list out = []
    cdef int met = _slide_into(cells_obj, adj_obj, deg, cell, d, out, "slide")
    if met >= 0:
        out.append(met)
    return out


cpdef long blocker(object cells_obj, object adj_obj, int deg, int cell, int d) except -2:
    return _slide_into(cells_obj, adj_obj, deg, cell, d, None, "look")


cpdef list chain(object cells_obj, object adj_obj, int deg, int cell):
    cdef const unsigned char* cells = _ro(cells_obj)
    if cell < 0 or cell >= _len(cells_obj):
        raise ValueError("there is no cell here (none) to start a chain from")
    return list(_group_at(cells_obj, adj_obj, deg, cell, cells[cell], 0))


cdef int _liberties(const unsigned char* cells, const short* adj, Py_ssize_t n, int deg, int cell,
                    unsigned char* mark, int* stack, int limit) except -1:
    """Marks the chain of `cell` 1 and its liberties 2 in `mark` (n cells); how many liberties,
    stopping at `limit` of them when it is positive."""
    cdef int top, c, d, x, colour, count = 0
    if n > MAX_BOARD:
        raise ValueError("a board of more than 4,096 cells")
    if cell < 0 or cell >= n:
        raise IndexError("no such cell")
    memset(mark, 0, n)
    colour = cells[cell]
    if colour == 0:
        return 0
    mark[cell] = 1
    stack[0] = cell
    top = 1
    while top > 0:
        top -= 1
        c = stack[top]
        for d in range(deg):
            x = adj[c * deg + d]
            if x < 0 or mark[x]:
                continue
            if cells[x] == colour:
                mark[x] = 1
                stack[top] = x
                top += 1
            elif cells[x] == 0:
                mark[x] = 2
                count += 1
                if count == limit:
                    return count
    return count


cpdef list liberties(object cells_obj, object adj_obj, int deg, int cell):
    cdef unsigned char mark[MAX_BOARD]  # 1: in the chain, 2: a liberty
    cdef int stack[MAX_BOARD]
    cdef Py_ssize_t n = _len(cells_obj), c
    cdef list out = []
    if _liberties(_ro(cells_obj), _tab(adj_obj), n, deg, cell, mark, stack, -1) > 0:
        for c in range(n):
            if mark[c] == 2:
                out.append(c)
    return out


cpdef long liberty_count(object cells_obj, object adj_obj, int deg, int cell, int limit=-1) except -1:
    cdef unsigned char mark[MAX_BOARD]
    cdef int stack[MAX_BOARD]
    return _liberties(_ro(cells_obj), _tab(adj_obj), _len(cells_obj), deg, cell, mark, stack, limit)


cpdef list around(object members, object adj_obj, int deg, int n):
    cdef const short* adj = _tab(adj_obj)
    cdef unsigned char mark[MAX_BOARD]
    cdef long c
    cdef int d, x
    cdef list out = []
    if n > MAX_BOARD or n < 0:
        raise ValueError("a board of more than 4,096 cells")
    memset(mark, 0, n)
    for item in members:
        c = item
        if c < 0 or c >= n:
            raise IndexError("no such cell")
        mark[c] = 1
    for item in members:
        c = item
        for d in range(deg):
            x = adj[c * deg + d]
            if x >= 0 and not mark[x]:
                mark[x] = 2
    for c in range(n):
        if mark[c] == 2:
            out.append(c)
    return out


cdef inline int _holding_byte(int kinds, int kind, int owner) noexcept:
    """The one byte a search for (kind, owner) looks for, or -1 when it matches several: both
    given on a grid of pieces, or a value on any grid (kinds 256, any owner)."""
    if kind >= 0 and owner >= 0 and kind < kinds:
        return owner * kinds + kind + 1 if owner * kinds + kind + 1 < 256 else 256
    if kinds == 256 and kind >= 0 and owner == -2:
        return kind + 1 if kind < 255 else 256
    return -1


cpdef Py_ssize_t first_holding(object cells_obj, int kinds, int kind, int owner) except -2:
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t c, n = _len(cells_obj)
    cdef int e, byte
    if kinds <= 0:
        raise ValueError("kinds must be positive")
    cdef const void* found
    byte = _holding_byte(kinds, kind, owner)
    if byte >= 0:  # one value: the C library's byte search (memchr), no division per cell
        if byte > 255 or n == 0:
            return -1
        found = memchr(cells, byte, n)
        return -1 if found == NULL else <const unsigned char*>found - cells
    for c in range(n):
        e = cells[c] - 1
        if e >= 0 and (kind == -2 or e % kinds == kind) and (owner == -2 or e // kinds == owner):
            return c
    return -1


cpdef list cells_holding(object cells_obj, int kinds, int kind, int owner):
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t c, n = _len(cells_obj)
    cdef int e
    cdef list out = []
    cdef int byte, low, high
    if kinds <= 0:
        raise ValueError("kinds must be positive")
    byte = _holding_byte(kinds, kind, owner)
    if byte >= 0:  # one value
        for c in range(n):
            if cells[c] == byte:
                out.append(c)
        return out
    if kind == -2 and owner >= 0:  # one owner's pieces: a range of bytes
        low, high = owner * kinds + 1, owner * kinds + kinds
        for c in range(n):
            if low <= cells[c] <= high:
                out.append(c)
        return out
    for c in range(n):
        e = cells[c] - 1
        if e >= 0 and (kind == -2 or e % kinds == kind) and (owner == -2 or e // kinds == owner):
            out.append(c)
    return out


# ---- observations ------------------------------------------------------------------------------
cpdef object observe_counts(list out, list values, long lo, Py_ssize_t size):
    cdef Py_ssize_t i, n = PyList_GET_SIZE(values), place
    cdef long v
    cdef list row
    cdef object item
    cdef long* counts = <long*>PyMem_Malloc((size + 1) * sizeof(long))
    if counts == NULL:
        raise MemoryError()
    try:
        memset(counts, 0, (size + 1) * sizeof(long))
        for i in range(n):
            v = <object>PyList_GET_ITEM(values, i)
            place = v - lo
            if 0 <= place < size:
                counts[place] += 1
        row = PyList_New(size + 1)
        for i in range(size):
            item = counts[i]
            Py_INCREF(item)
            PyList_SET_ITEM(row, i, item)
        item = (<long>values[n - 1]) - lo + 1 if n else 0
        Py_INCREF(item)
        PyList_SET_ITEM(row, size, item)
        out.extend(row)
    finally:
        PyMem_Free(counts)


cpdef object observe_planes(list out, object cells_obj, Py_ssize_t size, bint shown):
    """Append the planes of a grid (kernels.observe_planes): a list of zeros made at once, the
    ones set at the cells that hold something, then appended whole."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t n = _len(cells_obj), c, at
    cdef object zero = 0, one = 1
    cdef list row = [zero] * ((size + 1) * n)
    cdef unsigned char v
    for c in range(n):
        v = cells[c]
        if v:
            at = ((v - 1) if shown and v - 1 < size else size) * n + c
            Py_INCREF(one)
            Py_DECREF(zero)  # the place held a zero; each cell has one place
            PyList_SET_ITEM(row, at, one)
    out.extend(row)


# ---- walls: ways between the cells of a board that no standing wall crosses ------------------
cdef inline object _standing(object walls):
    """The walls as bytes, 0 where none stands: a grid of pieces as it is, a grid of numbers
    (a list) as a new bytes."""
    if PyBytes_Check(walls) or PyByteArray_Check(walls):
        return walls
    return bytes([1 if v else 0 for v in walls])


cdef object _walls_view(object slots_obj, object walls_obj, const short** slots, const unsigned char** walls,
                        Py_ssize_t* nwalls):
    """Points at the wall places' table and at the walls (none when ``slots_obj`` is None);
    returns what must stay alive while they are read."""
    if slots_obj is None:
        return None
    slots[0] = _tab(slots_obj)
    keep = _standing(walls_obj)
    walls[0] = _ro(keep)
    nwalls[0] = len(walls_obj)
    return keep


cdef inline bint _open_step(const short* slots, const unsigned char* walls, Py_ssize_t nwalls, int k) noexcept:
    cdef int w
    if slots == NULL:
        return True
    w = slots[k]
    return w < 0 or w >= nwalls or walls[w] == 0


cdef int _mark_targets(object to, unsigned char* mark, Py_ssize_t size) except -1:
    """Marks the target cells (a cell, or a list or tuple of cells) with 2."""
    cdef Py_ssize_t c
    if isinstance(to, int):
        to = (to,)
    for t in to:
        c = t
        if c < 0:
            raise ValueError("there is no cell here (none) to go to")
        if c < size:
            mark[c] = 2
    return 0


cdef int _walls_search(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to,
                       object memo_obj, bint shortest) except -2:
    """The search behind walled_distance (the steps, -1 none) and reachable (1 or 0, the way kept
    in memo): breadth first from a, in the order the twins search."""
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = Py_SIZE(adj_obj) // deg if deg > 0 else 0
    cdef const short* slots = NULL
    cdef const unsigned char* walls = NULL
    cdef object keep = None
    cdef Py_ssize_t nwalls = 0
    cdef unsigned char mark[MAX_BOARD]
    cdef short parent[MAX_BOARD]
    cdef short queue[MAX_BOARD]
    cdef short depth[MAX_BOARD]
    cdef short kept[MAX_BOARD + 1]
    cdef int head = 0, tail = 0, c, nb, k, i, length, at, nxt, r, rows = 0, base, row = 0
    cdef short* memo = NULL
    cdef Py_ssize_t memo_size = 0
    if a < 0:
        raise ValueError("there is no cell here (none) to start from")
    if size > MAX_BOARD:
        raise ValueError("the board has more cells than a grid may")
    keep = _walls_view(slots_obj, walls_obj, &slots, &walls, &nwalls)
    if memo_obj is not None:
        if type(memo_obj) is not array.array or (<array.array>memo_obj).ob_descr.typecode != b'h':
            raise TypeError("the ways kept must be an array('h')")
        memo = (<array.array>memo_obj).data.as_shorts
        memo_size = Py_SIZE(memo_obj)
    memset(mark, 0, size)
    _mark_targets(to, mark, size)
    if a >= size:
        raise ValueError("the cell is not on the board")
    if mark[a] == 2:
        return 1 if not shortest else 0
    if memo != NULL:  # the ways kept from a, newest first: the first still open to a target
        row = size + 1
        rows = memo_size // row
        for r in range(rows):
            base = r * row
            length = memo[base]
            if length == 0 or memo[base + 1] != a:
                continue
            if not (0 < length <= size and 0 <= memo[base + length] < size and mark[memo[base + length]] == 2):
                continue
            at = a
            for i in range(base + 2, base + length + 1):
                nxt = memo[i]
                k = -1
                for c in range(at * deg, at * deg + deg):
                    if adj[c] == nxt:
                        k = c
                        break
                if k < 0 or not _open_step(slots, walls, nwalls, k):
                    break
                at = nxt
            else:
                if r > 1:  # the way used goes first (the rows before it one down); from the
                    # second row it stays, so that two starts asked in turn move nothing
                    memcpy(kept, memo + base, row * sizeof(short))
                    memmove(memo + row, memo, base * sizeof(short))
                    memcpy(memo, kept, row * sizeof(short))
                return 1
        if rows:  # the way found will go first, the oldest kept goes
            memmove(memo + row, memo, (rows - 1) * row * sizeof(short))
            memo[0] = 0
    mark[a] = 1
    parent[a] = -1
    depth[a] = 0
    queue[tail] = a
    tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(c * deg, c * deg + deg):
            nb = adj[k]
            if nb < 0 or mark[nb] == 1 or not _open_step(slots, walls, nwalls, k):
                continue
            parent[nb] = c
            depth[nb] = depth[c] + 1
            if mark[nb] == 2:
                if shortest:
                    return depth[nb]
                if memo != NULL and rows:
                    length = depth[nb] + 1
                    memo[0] = length
                    at = nb
                    for i in range(length, 0, -1):
                        memo[i] = at
                        at = parent[at]
                return 1
            mark[nb] = 1
            queue[tail] = nb
            tail += 1
    return -1 if shortest else 0


cpdef list open_neighbours(object adj_obj, int deg, object slots_obj, object walls_obj, int cell):
    """The cells next to ``cell`` that no standing wall separates from it."""
    cdef const short* adj = _tab(adj_obj)
    cdef const short* slots = NULL
    cdef const unsigned char* walls = NULL
    cdef object keep = None
    cdef Py_ssize_t nwalls = 0
    cdef list out = []
    cdef int k
    if cell < 0:
        raise ValueError("there is no cell here (none) to look around")
    if (cell + 1) * deg > Py_SIZE(adj_obj):
        raise ValueError("the cell is not on the board")
    keep = _walls_view(slots_obj, walls_obj, &slots, &walls, &nwalls)
    for k in range(cell * deg, cell * deg + deg):
        if adj[k] >= 0 and _open_step(slots, walls, nwalls, k):
            out.append(adj[k])
    return out


cpdef long walled_distance(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to) except? -2:
    """The fewest steps from a to ``to`` (a cell or cells) crossing no standing wall, -1 none."""
    if a < 0:
        raise ValueError("there is no cell here (none) to measure from")
    return _walls_search(adj_obj, deg, slots_obj, walls_obj, a, to, None, True)


cpdef bint reachable(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to,
                     object memo) except -1:
    """Whether some way leads from a to ``to`` crossing no standing wall (the last way found
    kept in ``memo`` and tried first)."""
    return _walls_search(adj_obj, deg, slots_obj, walls_obj, a, to, memo, False) == 1


# ---- play()'s rollback: one state's slots kept in another's (kernels.keep_slots) --------------
cdef class SlotPlan:
    """kernels.slot_plan compiled: each slot's kind and place, read off its descriptor once."""
    cdef readonly object cls
    cdef readonly tuple pure  # the twin's plan: what keep_slots falls back on
    cdef bytes kinds  # 0 same, 1 list, 2 parts, 3 inner
    cdef object places  # array('q'): each slot's offset (for inner: then the inner slot's name index)
    cdef object inner_type  # the class of an inner slot's object (found at the first keep)
    cdef Py_ssize_t inner_at


def slot_plan(type cls, same=(), lists=(), parts=(), inner=()):
    """kernels.slot_plan: the slots' places read off their descriptors (the Python way when one
    is not a slot)."""
    cdef SlotPlan plan = SlotPlan.__new__(SlotPlan)
    cdef Py_ssize_t at
    plan.cls, plan.pure = cls, _pure.slot_plan(cls, same, lists, parts, inner)
    plan.inner_type, plan.inner_at = None, -1
    kinds, places = bytearray(), _array_module.array("q")
    for kind, names in ((0, plan.pure[1]), (1, plan.pure[2]), (2, plan.pure[3]), (3, [n for n, _ in plan.pure[4]])):
        for name in names:
            at = slot_at(cls, name)
            if at < 0:
                plan.kinds = None  # not slots: keep_slots goes the Python way
                return plan
            kinds.append(kind)
            places.append(at)
    if len(plan.pure[4]) > 1:
        plan.kinds = None  # (one inner slot at most is kept in C)
        return plan
    plan.kinds, plan.places = bytes(kinds), places
    return plan


cdef int _keep_whole(object mine, object theirs) except -1:
    """mine[:] = theirs, in C for two lists (keep_list) and for two bytearrays of one size."""
    if type(mine) is list and type(theirs) is list:
        return keep_list(mine, theirs)
    if type(mine) is bytearray and type(theirs) is bytearray and _len(mine) == _len(theirs):
        copy_small(PyByteArray_AS_STRING(mine), PyByteArray_AS_STRING(theirs), _len(theirs))
        return 0
    mine[:] = theirs
    return 0


def keep_slots(into, source, plan):
    """kernels.keep_slots in C: each slot read and written at its place, with no attribute
    looked up (the Python way for another plan, class or a slot not set)."""
    cdef SlotPlan p
    cdef const unsigned char* kinds
    cdef const long long* places
    cdef Py_ssize_t k, n, i, at
    cdef PyObject* theirs
    cdef PyObject* mine
    cdef object a, b
    if type(plan) is not SlotPlan:
        return _pure.keep_slots(into, source, plan)
    p = <SlotPlan>plan
    if p.kinds is None or type(into) is not p.cls or type(source) is not p.cls:
        return _pure.keep_slots(into, source, p.pure)
    kinds, n = <const unsigned char*>PyBytes_AS_STRING(p.kinds), PyBytes_GET_SIZE(p.kinds)
    places = (<array.array>p.places).data.as_longlongs
    for k in range(n):
        theirs = slot_value(source, places[k])
        if theirs == NULL:
            return _pure.keep_slots(into, source, p.pure)  # (which says which is not set)
        if kinds[k] == 0:
            put_slot(into, places[k], theirs)
            continue
        mine = slot_value(into, places[k])
        if mine == NULL:
            return _pure.keep_slots(into, source, p.pure)
        a, b = <object>mine, <object>theirs
        if kinds[k] == 1:
            _keep_whole(a, b)
        elif kinds[k] == 2:
            if type(a) is list and type(b) is list and PyList_GET_SIZE(a) == PyList_GET_SIZE(b):
                for i in range(PyList_GET_SIZE(b)):
                    _keep_whole(<object>PyList_GET_ITEM(a, i), <object>PyList_GET_ITEM(b, i))
            else:
                for i, part in enumerate(b):
                    a[i][:] = part
        else:  # an inner slot: the object's own slot (a generator's state)
            if p.inner_type is not type(b):
                at = slot_at(type(b), p.pure[4][0][1])
                p.inner_type, p.inner_at = (type(b), at) if at >= 0 else (None, -1)
            if p.inner_type is not None and type(a) is p.inner_type and slot_value(b, p.inner_at) != NULL:
                put_slot(a, p.inner_at, slot_value(b, p.inner_at))
            else:
                setattr(a, p.pure[4][0][1], getattr(b, p.pure[4][0][1]))
    return None
