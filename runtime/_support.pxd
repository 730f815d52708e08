# What every native engine shares, compiled once with regle (runtime/_support.pyx) and cimported
# by each engine (`from regle.runtime._support cimport ...`), so that no engine's build compiles
# it again: the base class of a compiled state (its fields, the buffer of packed move keys, the
# loops that play it), the generator in C, and the C forms of the language's small operations.
#
# The inline functions below are compiled into each engine (they are a few lines each and on
# the hottest paths); the others are called through Cython's table of C functions.
# Native engines built against one version of this file are rebuilt when it changes
# (regle.native puts it in their cache key).

cimport cython
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc
from cpython.array cimport array
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_FromStringAndSize, PyByteArray_GET_SIZE
from cpython.object cimport Py_SIZE, PyObject
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF, Py_DECREF
from libc.string cimport memchr, memcpy, memset
from regle.runtime cimport _kernels as _CK

cdef extern from *:
    """
    #define REGLE_MAX_NUMBER 1000000000000000000LL
    """
    const long long MAX_NUMBER "REGLE_MAX_NUMBER"  # the language's bound on numbers (ops.MAX_NUMBER)


cdef enum:
    KEY_HALF = 1 << 26  # each argument of a packed key is kept in 27 bits, from -2**26 to 2**26 - 1
    KEY_MASK = (1 << 27) - 1
    KEY3_HALF = 1 << 17  # ... of a move of three arguments, in 18 bits each, from -2**17 to 2**17 - 1
    KEY3_MASK = (1 << 18) - 1
    KEYS_SMALL = 16  # a decision of this many moves or fewer keeps its keys inside the state


cdef class NativeCore:
    """The fields every compiled state has and the methods that need nothing of the game's own.
    An engine's ``_Core`` adds its places and overrides the methods declared abstract here."""
    cdef public long n, cur, step, turns, decisions, nxt, repeats
    cdef public bint over
    cdef list _legal  # the legal moves; None while they are keys in _keys (see legal)
    cdef long* _keys  # a keyed step's moves: action _keys_tag with each key, or packed keys (tag -1)
    cdef long _keys_small[KEYS_SMALL]  # where _keys points while they are few: no buffer of their own
    cdef Py_ssize_t _keys_cap, _nkeys
    cdef long _keys_tag
    cdef bint _keys_wide  # a move did not fit a packed key: the step uses its list
    cdef public object rng, seed, work  # work: unused here (walked, walked_in count instead)
    cdef long walked, walked_in  # elements walked by loops in decision walked_in
    cdef NativeCore _spare  # play's rollback: the state before the move, kept in place (_keep)
    cdef const long long* _plan_at  # _plan() remembered (plan_of), for _plan_n players
    cdef list _ids_out  # the list legal_action_ids gave last, filled again once nobody else holds it
    cdef long _plan_n

    # the game's own (the engine's _Core defines them)
    cdef NativeCore _copy(self)
    cdef int _keep_into(self, NativeCore t) except -1
    cdef _play(self, move, long key=*)
    cdef const long long* _plan(self) except NULL
    cdef const unsigned char* _arities(self) noexcept
    cdef NativeCore _new_game(self, object n, object seed)

    # shared
    cdef int _copy_keys(self, NativeCore t) except -1
    cdef NativeCore _kept(self)
    cdef int _playout(self, unsigned long long state, long limit) except -1
    cdef Py_ssize_t _key_of_id(self, long long wanted) except -2
    cdef int _play_checked(self, move, long key) except -1
    cdef _loop(self, items)
    cdef long long _work_done(self) noexcept
    cdef int _work_back(self, long long work) except -1
    cdef int _walk(self, long n) except -1
    cdef int _spin(self) except -1


# ---- making objects without a Python call ----
cdef extern from *:
    """
    /* A new instance of a type made by its own tp_new, as cls.__new__(cls) would make it, but
       without looking __new__ up, binding it and calling it through Python (no __init__). */
    static CYTHON_INLINE PyObject* regle_fresh(PyObject* cls, PyObject* no_args) {
        return ((PyTypeObject*)cls)->tp_new((PyTypeObject*)cls, no_args, NULL);
    }
    """
    object fresh "regle_fresh"(object cls, tuple no_args)


cdef extern from *:
    """
    /* cls(items) for a subclass of tuple that keeps tuple's own __new__ (a Move class): the
       instance allocated at its size and filled from items, as tuple's __new__ does for a
       subclass, without the call through Python and the tuple made in between. */
    static CYTHON_INLINE PyObject* regle_retyped(PyObject* cls, PyObject* items) {
        PyTypeObject* type = (PyTypeObject*)cls;
        Py_ssize_t n = PyTuple_GET_SIZE(items), i;
        PyObject* out;
        if (type->tp_new != PyTuple_Type.tp_new || !PyType_IsSubtype(type, &PyTuple_Type))
            return PyObject_CallOneArg(cls, items);
        out = type->tp_alloc(type, n);
        if (out == NULL)
            return NULL;
        for (i = 0; i < n; i++) {
            PyObject* item = PyTuple_GET_ITEM(items, i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(out, i, item);
        }
        return out;
    }
    """
    object retyped "regle_retyped"(object cls, tuple items)


cdef extern from *:
    """
    /* A told move: a Move of a decision whose notations may read alike, that finds its
       notation in its decision (a KeyMoves) when it is read. The decision is held past the
       tuple's items, at ob_item[size], where no tuple operation looks (hash, ==, len and
       pickling see the move alone), so that a told move costs what a plain one does: no
       instance dict. regle_told_dealloc (the class's tp_dealloc, see told_key_class) lets it
       go. A told class has no dict, slots, weak references or finalizer: its instances are
       tuples with a type; PyType_GenericAlloc always allocates one item more than asked (the
       sentinel), so an instance made by the class's own __new__ holds NULL there. */
    static CYTHON_UNUSED PyObject* regle_told(PyObject* cls, PyObject* items, PyObject* decision) {
        PyTypeObject* type = (PyTypeObject*)cls;
        Py_ssize_t n = PyTuple_GET_SIZE(items), i;
        PyObject* out = type->tp_alloc(type, n + 1);
        if (out == NULL)
            return NULL;
        Py_SET_SIZE(out, n);
        for (i = 0; i < n; i++) {
            PyObject* item = PyTuple_GET_ITEM(items, i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(out, i, item);
        }
        Py_INCREF(decision);
        ((PyTupleObject*)out)->ob_item[n] = decision;
        return out;
    }

    static CYTHON_UNUSED PyObject* regle_told_decision(PyObject* move) {  /* borrowed; NULL: none */
        return ((PyTupleObject*)move)->ob_item[Py_SIZE(move)];
    }

    /* What subtype_dealloc does for such a class (untrack, tuple's dealloc, the type let go),
       and the decision let go after. */
    static CYTHON_UNUSED void regle_told_dealloc(PyObject* self) {
        PyTypeObject* type = Py_TYPE(self);
        PyObject* decision = ((PyTupleObject*)self)->ob_item[Py_SIZE(self)];
        PyTuple_Type.tp_dealloc(self);
        Py_XDECREF(decision);
        Py_DECREF(type);
    }

    /* Whether cls is a class of that kind; if so its instances are let go as above, and it
       can have no subclass (whose instance dict would sit at ob_item[size]). */
    static CYTHON_UNUSED int regle_make_told(PyObject* cls) {
        PyTypeObject* type = (PyTypeObject*)cls;
        if (!PyType_IsSubtype(type, &PyTuple_Type) || !(type->tp_flags & Py_TPFLAGS_HEAPTYPE)
                || type->tp_itemsize != (Py_ssize_t)sizeof(PyObject*)
                || type->tp_basicsize != PyTuple_Type.tp_basicsize || type->tp_dictoffset != 0
                || type->tp_weaklistoffset != 0 || type->tp_finalize != NULL || type->tp_del != NULL
                || type->tp_alloc != PyType_GenericAlloc)
            return 0;
        type->tp_dealloc = regle_told_dealloc;
        type->tp_flags &= ~Py_TPFLAGS_BASETYPE;
        return 1;
    }

    static CYTHON_INLINE int regle_is_told(PyObject* cls) {
        return ((PyTypeObject*)cls)->tp_dealloc == regle_told_dealloc;
    }
    """
    object told "regle_told"(object cls, tuple items, object decision)
    PyObject* told_decision "regle_told_decision"(object move)
    bint make_told "regle_make_told"(object cls)
    bint is_told "regle_is_told"(object cls)


cdef inline int keep_block(object into, object source, void* to, const void* cells, Py_ssize_t into_size,
                           Py_ssize_t size) except -1:
    """into[:] = source for a grid's cells (into the rollback copy's), given where both keep
    them and their sizes in bytes: one copy when the sizes agree, as a grid's always do;
    Python's slice assignment otherwise."""
    if into_size != size:
        into[:] = source
    elif size:
        _CK.copy_small(to, cells, size)
    return 0


cdef inline int keep_bytes(bytearray into, bytearray source) except -1:
    """into[:] = source for a grid of elements (a bytearray)."""
    return keep_block(into, source, PyByteArray_AS_STRING(into), PyByteArray_AS_STRING(source),
                      PyByteArray_GET_SIZE(into), PyByteArray_GET_SIZE(source))


cdef extern from *:
    """
    /* A borrowed object's bytes when it is a bytearray (else NULL), and its size. */
    #define REGLE_BYTEARRAY_AT(op) (Py_IS_TYPE((op), &PyByteArray_Type) ? PyByteArray_AS_STRING(op) : NULL)
    #define REGLE_BYTEARRAY_SIZE(op) PyByteArray_GET_SIZE(op)
    #define REGLE_IS_LIST(op) Py_IS_TYPE((op), &PyList_Type)
    """
    char* bytearray_at "REGLE_BYTEARRAY_AT"(PyObject* op) noexcept
    Py_ssize_t bytearray_size "REGLE_BYTEARRAY_SIZE"(PyObject* op) noexcept
    bint is_list "REGLE_IS_LIST"(PyObject* op) noexcept


cdef inline int keep_list(list into, list source) except -1:
    """into[:] = source for a zone (a list), in C (_kernels.keep_list: item by item, the same
    ones skipped)."""
    return _CK.keep_list(into, source)


cdef inline int keep_parts(list into, list source) except -1:
    """into[i][:] = source[i] for each part of a place per seat (or per member), in a C loop
    that reads the parts in place, borrowed (both lists checked to be lists of one size first):
    a grid's part of the same size is one memcpy, a zone's is keep_list."""
    cdef Py_ssize_t i
    cdef PyObject* part
    cdef PyObject* mine
    cdef char* cells
    cdef char* to
    cdef object whole
    if into is None or source is None or PyList_GET_SIZE(into) != PyList_GET_SIZE(source):
        into[:] = [whole[:] for whole in source]
        return 0
    for i in range(PyList_GET_SIZE(source)):
        part = PyList_GET_ITEM(source, i)
        mine = PyList_GET_ITEM(into, i)
        cells, to = bytearray_at(part), bytearray_at(mine)
        if cells != NULL and to != NULL and bytearray_size(part) == bytearray_size(mine):
            _CK.copy_small(to, cells, bytearray_size(part))
        elif is_list(part) and is_list(mine):
            keep_list(<list>mine, <list>part)
        else:
            (<object>mine)[:] = <object>part
    return 0


cdef inline const long long* plan_of(NativeCore s) except NULL:
    """``s._plan()`` remembered in the state for its player count: the ids of its keys are read
    at every step of the loops by ids and of a batch."""
    if s._plan_at == NULL or s._plan_n != s.n:
        s._plan_at = s._plan()
        s._plan_n = s.n
    return s._plan_at


cdef inline bytearray zeroed(Py_ssize_t size):
    """bytearray(size) made in C (a grid's blank cells), without calling the type."""
    cdef bytearray out = PyByteArray_FromStringAndSize(NULL, size)
    memset(PyByteArray_AS_STRING(out), 0, size)
    return out


# ---- the generator in C (regle.runtime.rng, SplitMix64) ----
cdef unsigned long long mixed(object seed) except? 0
cdef object rng_at(unsigned long long state)
cdef int keep_rng(object into, object source) except -1
cdef object rng_copy(object source)


@cython.overflowcheck(False)  # SplitMix64 wraps around by design
cdef inline unsigned long long scrambled(unsigned long long z) noexcept:
    """SplitMix64's output for the generator state z (Rng.next64 after its step)."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


@cython.overflowcheck(False)
cdef inline unsigned long long next64(unsigned long long* state) noexcept:
    """Rng.next64 in C: the generator's step, then its output."""
    state[0] += 0x9E3779B97F4A7C15ULL
    return scrambled(state[0])


@cython.overflowcheck(False)
cdef inline unsigned long long mix64(unsigned long long seed) noexcept:
    """rng.mix of a seed that is already a 64-bit number: the generator's first state."""
    return scrambled(seed * 0x9E3779B97F4A7C15ULL + 0x9E3779B97F4A7C15ULL)


@cython.overflowcheck(False)
cdef inline unsigned long long below(unsigned long long *state, unsigned long long n) noexcept:
    """Rng.below in C: a uniform number in [0, n) without modulo bias."""
    cdef unsigned long long z
    if n <= 1:
        return 0
    while True:
        z = next64(state)
        # kept below the largest multiple of n (a bound of at least 2**64 - n, computed only
        # for the rare draws above 2**64 - n)
        if z <= 0xFFFFFFFFFFFFFFFFULL - n or z <= 0xFFFFFFFFFFFFFFFFULL - ((0xFFFFFFFFFFFFFFFFULL % n) + 1) % n:
            return z % n


cdef inline long long rng_below(object rng, long long n) except? -1:
    """Rng.below(n) in C on the generator's state: the same number, the same next state."""
    cdef unsigned long long state
    if n <= 1:
        return 0
    state = rng.state
    n = below(&state, n)
    rng.state = state
    return n


cdef inline long long rolled(list rolls, long long value) except? -1:
    """A number random() drew during play, kept in the state's log (``rolls``) and returned."""
    rolls.append(value)
    return value


# ---- the C forms of the language's operations (regle.runtime.ops) ----
cdef extern from *:
    """
    /* A cell of a grid of elements (a bytearray): its byte, read in place wherever it is read.
       Forced inline: in a large method (a move generator) the C compiler would otherwise call
       it, and its call costs more than the read. Another grid, a wrong index or one from the
       end goes the way of Python's indexing (regle_cell_slow: the same value or error). */
    static long regle_cell_slow(PyObject* grid, Py_ssize_t at) {
        PyObject *key, *item;
        long value;
        key = PyLong_FromSsize_t(at);
        if (key == NULL) return -1;
        item = PyObject_GetItem(grid, key);
        Py_DECREF(key);
        if (item == NULL) return -1;
        value = PyLong_AsLong(item);
        Py_DECREF(item);
        return value;
    }
    #if defined(__GNUC__)
    __attribute__((always_inline))
    #endif
    static CYTHON_INLINE long regle_cell(PyObject* grid, Py_ssize_t at) {
        if (grid->ob_type == &PyByteArray_Type && (size_t)at < (size_t)((PyVarObject*)grid)->ob_size)
            return (unsigned char)((PyByteArrayObject*)grid)->ob_start[at];
        return regle_cell_slow(grid, at);
    }
    /* A cell's byte where the index is known good (a scan of the grid's own cells or tables). */
    #define REGLE_BYTE_AT(grid, at) ((long)(unsigned char)((PyByteArrayObject*)(grid))->ob_start[at])
    """
    long cell "regle_cell"(object grid, Py_ssize_t at) except? -1
    long byte_at "REGLE_BYTE_AT"(bytearray grid, Py_ssize_t at) noexcept


cdef inline long long abs_number(long long n) except? -1:
    """abs() of a whole number in C (the language's numbers are bounded well inside 64 bits);
    Cython's own abs() of some nested conditionals does not compile (Cython 3.3)."""
    return -n if n < 0 else n


cdef inline long long number(long long n) except? -1:
    """ops.number in C, for sums: a number kept within the language's bound (1e18)."""
    if -MAX_NUMBER <= n <= MAX_NUMBER:  # a C constant: the literal would be a Python int here
        return n
    raise ValueError("a number grew past 1e+18: does a product keep multiplying?")


cdef inline Py_ssize_t ix(Py_ssize_t i, Py_ssize_t n) except -1:
    """The index of a counter's C array, by a list's rule: from the end when negative, and an
    IndexError (as the list of the Python engine raises) when out of range."""
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("list index out of range")
    return i


# ---- grids of numbers: each an array('q'), its cells C long longs ----
cdef array numbers_zeroed(Py_ssize_t size)


cdef inline long long* number_at(array grid, Py_ssize_t at) except NULL:
    """The place of a cell of a grid of numbers, read or written in C (``number_at(g, c)[0]``);
    bounds checked, and from the end when negative, as the Python engine's list is indexed.
    Small enough to be written where it is called (a sowing loop calls it at every seed): the
    rare cases, a missing grid or an index from the end, in a function of their own."""
    if grid is not None and <size_t>at < <size_t>Py_SIZE(grid):
        return grid.data.as_longlongs + at
    return number_at_rare(grid, at)


cdef long long* number_at_rare(array grid, Py_ssize_t at) except NULL


cdef inline int keep_numbers(array into, array source) except -1:
    """into[:] = source for a grid of numbers (an array of C long longs)."""
    return keep_block(into, source, into.data.as_longlongs, source.data.as_longlongs,
                      Py_SIZE(into) * <Py_ssize_t>sizeof(long long), Py_SIZE(source) * <Py_ssize_t>sizeof(long long))


cdef inline long mancala_first(long seat, long n) except? -1:
    """The first house of a seat's side of a mancala board of n houses a side (C form)."""
    if seat != 0 and seat != 1:
        raise ValueError(f"a mancala board has two sides, for seats 0 and 1, not {seat}")
    return seat * (n + 1)


cdef inline long line_first(long index, long lines, long first, long line_step) noexcept:
    """Where the walk of row (column) ``index`` of a grid of regular lines begins (ops.line_cells
    in C): 0, with line_end's 0, for a line the grid lacks (no cell walked)."""
    return first + index * line_step if 0 <= index < lines else 0


cdef inline long line_end(long index, long lines, long first, long line_step, long span) noexcept:
    """Where that walk stops: ``span`` (count * cell_step) past line_first's start."""
    return first + index * line_step + span if 0 <= index < lines else 0


cdef inline long mancala_store(long seat, long n) except? -1:
    """ops.mancala_store in C."""
    if seat != 0 and seat != 1:
        raise ValueError(f"a mancala board has two stores, for seats 0 and 1, not {seat}")
    return seat * (n + 1) + n


cdef inline tuple lines_through(tuple table, long cell):
    """ops.lines_through in C: the lines through a point (a tuple of the table made when the
    engine was generated), with no Python call."""
    if cell < 0:
        raise ValueError("there is no point here (none) to find lines through")
    return <tuple>table[cell]


cdef inline long mancala_opposite(long at, long n) noexcept:
    """ops.mancala_opposite in C: the house across (-1 for a store)."""
    if at < 0 or at == n or at >= 2 * n + 1:
        return -1
    return 2 * n - at


cdef inline long at_xy(long x, long y, long width, long height, long lane_major) noexcept:
    """ops.at_xy in C: the cell at column x, row y, or -1 (none) off the board."""
    if 0 <= x < width and 0 <= y < height:
        return x * height + y if lane_major else y * width + x
    return -1


cdef list neighbour_list(const short[::1] table, long deg, long at)


cdef inline bint next_to(const short* table, Py_ssize_t size, long deg, long at, long other) except -1:
    """``other in neighbours(G, at)`` in C on the table's pointer (``size`` entries): whether
    other is one of at's neighbours, with no memoryview passed."""
    cdef long d
    if at < 0:
        raise ValueError("there is no cell here (none) to look around")
    if at * deg + deg > size:
        raise IndexError("no such cell")
    if other < 0:
        return False
    table += at * deg
    for d in range(deg):
        if table[d] == other:
            return True
    return False


cdef inline long walled_at(Py_ssize_t size, long deg, long at, bytearray walls) except -1:
    """Where cell ``at``'s row of a table of neighbours begins (``at * deg``; ``size``
    entries), for a walk of the neighbours no wall separates from it: checked as the kernels'
    open_neighbours checks it (the same errors, in the same order)."""
    if at < 0:
        raise ValueError("there is no cell here (none) to look around")
    if (at + 1) * deg > size:
        raise ValueError("the cell is not on the board")
    if walls is None:
        raise TypeError("a grid of walls is missing")
    return at * deg


cdef inline bint open_wall(const short* places, bytearray walls, long k) noexcept:
    """Whether no wall stands across entry k of a table of neighbours: the wall's place there
    (-1: none) is past the grid of walls or empty (the kernels' _open_step, on bytes that
    walled_at found to be there)."""
    cdef long w = places[k]
    return w < 0 or w >= PyByteArray_GET_SIZE(walls) or \
        (<const unsigned char*>PyByteArray_AS_STRING(walls))[w] == 0


cdef inline bint open_next_to(const short* adj, Py_ssize_t size, long deg, const short* places, bytearray walls,
                              long at, long other) except -1:
    """``other in neighbours(G, at, walls)`` in C: whether other is one of at's neighbours with
    no wall standing between them, with no list made."""
    cdef long k, first = walled_at(size, deg, at, walls)
    if other < 0:
        return False
    for k in range(first, first + deg):
        if adj[k] == other and open_wall(places, walls, k):
            return True
    return False


cdef inline long neighbour(const short* adj, Py_ssize_t size, long deg, long at, long d) except? -2:
    """ops.neighbour in C: the next cell from `at` in direction d, -1 (none) off the board. The
    table as a C pointer and its length (a memoryview given to an inline function would be
    acquired and let go at every call)."""
    if at < 0:
        raise ValueError("there is no cell here (none) to step from")
    if d < 0 or d >= deg or at * deg + d >= size:
        raise IndexError("no such cell or direction")
    return adj[at * deg + d]


cdef inline long neighbour_steps(const short* adj, Py_ssize_t size, long deg, long at, long d,
                                 long steps) except? -2:
    """ops.neighbour with a number of steps in C: the cell `steps` steps from `at` along d, -1 off
    the board."""
    if steps < 0:
        raise ValueError(f"a cell {steps} steps along a direction: count the steps from 0")
    while steps > 0 and at >= 0:
        at = neighbour(adj, size, deg, at, d)
        steps -= 1
    return at


cdef inline unsigned long long fnv_int(unsigned long long h, long long v) noexcept:
    """The kernels' FNV key (position_key) taking a whole number: its 8 bytes, lowest first."""
    return _CK.fnv_number(h, <unsigned long long>v)


cdef inline unsigned long long fnv_bytes(unsigned long long h, bytearray cells) except? 0:
    """The kernels' FNV key taking a grid of pieces: each byte, then an end mark."""
    if cells is None:
        raise TypeError("a grid of pieces is missing")
    h = _CK.fnv_span(h, <const unsigned char*>PyByteArray_AS_STRING(cells), PyByteArray_GET_SIZE(cells))
    return (h ^ 0xFF) * 0x100000001B3ULL


cdef inline long long listed(long long i, long long n, long long a0, long long a1, long long a2, long long a3,
                            long long a4, long long a5, long long a6, long long a7) except? -1:
    """``[a0, a1, ...][i]`` of at most eight whole numbers written out (``n`` of them), in C with
    no list made: from the end when i is negative, and IndexError past either end, as a list is
    indexed."""
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError("list index out of range")
    if i < 4:
        return a0 if i == 0 else a1 if i == 1 else a2 if i == 2 else a3
    return a4 if i == 4 else a5 if i == 5 else a6 if i == 6 else a7


cdef inline int spin(NativeCore s) except -1:
    """``s._spin()``, a round of a rules' while loop counted against the work budget, with its
    common case in place: a round among the decision's first 4,096 counts with no call (the
    budget is far above them: _support checks it at import); the method counts the others and
    raises past the budget."""
    if s.walked_in == s.decisions and 0 <= s.walked < 4096:
        s.walked += 1
        return 0
    return s._spin()


cdef inline long mark_at(bytes marks, Py_ssize_t i) except -1:
    """A search's mark of place i (a byte of the marks K.take_marks hands over), in C: read as
    Python reads ``marks[i]``, from the end when i is negative, IndexError past either end (a
    place that is none, -1, reads the last mark)."""
    cdef Py_ssize_t n
    if marks is None:
        raise TypeError("'NoneType' object is not subscriptable")
    n = Py_SIZE(marks)
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError("index out of range")
    return (<const unsigned char*><char*>marks)[i]


cdef inline long element(long code) noexcept:
    """The element a cell's code stands for (the code, a byte, less one: -1 for an empty cell)."""
    return code - 1


cdef inline long table_at(const short* table, long at, long deg, long d) noexcept:
    """``table[at * deg + d]`` for a walk of a grid's own table whose start cell and direction
    were checked (so no overflow check either: this file's functions have none)."""
    return table[at * deg + d]


cdef inline long piece_kind(long piece, long kinds) noexcept:
    """ops.piece_kind in C."""
    return piece % kinds if piece >= 0 else -1


cdef inline long piece_owner(long piece, long kinds) noexcept:
    """ops.piece_owner in C."""
    return piece // kinds if piece >= 0 else -1


cdef inline long holding_low(long kinds, long kind, long owner) noexcept:
    """The lowest byte of a grid of elements that ``K.cells_holding(g, kinds, kind, owner)``
    finds (-2: any kind or owner): a scan of the grid's bytes tests each against the span from
    this to ``holding_high``. A kind of any owner is no span: it is told as ``-1 - kind`` (and
    ``holding_high`` gives the number of kinds), which ``in_span`` tests by division."""
    if kinds >= 256 and owner == -2 and 0 <= kind < 255:  # a grid of values: one byte
        return kind + 1
    if owner == -2 and kind == -2:
        return 1
    if owner == -2 and 0 <= kind < kinds:
        return -1 - kind
    if owner >= 0 and kind == -2:
        return owner * kinds + 1
    if owner >= 0 and 0 <= kind < kinds:
        return owner * kinds + kind + 1
    return 1  # nothing (a kind or owner that is none)


cdef inline long holding_high(long kinds, long kind, long owner) noexcept:
    """The highest byte of the span ``holding_low`` begins (below it: nothing is found)."""
    if kinds >= 256 and owner == -2 and 0 <= kind < 255:
        return kind + 1
    if owner == -2 and kind == -2:
        return 255
    if owner == -2 and 0 <= kind < kinds:
        return kinds
    if owner >= 0 and kind == -2:
        return owner * kinds + kinds
    if owner >= 0 and 0 <= kind < kinds:
        return owner * kinds + kind + 1
    return 0


cdef extern from *:
    """
    /* The first of the n cells from ``at`` on whose byte is in low..high, or -1. One value
       (low == high: a seat's pieces, the empty cells) or any filled cell (1..255) is looked
       for eight cells at a time: the bytes that match marked by their top bit in one word, the
       first found by counting trailing zero bits, so a scan turns once per cell found, not at
       every cell; other spans, the last few cells, and big-endian machines a byte at a time. */
    /* The bytes of the word w that a span of one value (``one``: ``want`` is that byte eight
       times) or of any filled cell looks for, marked by their top bit. */
    static inline unsigned long long regle_span_marks(unsigned long long w, int one, unsigned long long want) {
        const unsigned long long low7 = 0x7f7f7f7f7f7f7f7fULL, top = 0x8080808080808080ULL;
        unsigned long long hit;
        if (one)
            w ^= want;  /* a byte that holds the value is now 0 */
        hit = (((w & low7) + low7) | w) & top;  /* the top bit of each byte not 0 */
        return one ? ~hit & top : hit;
    }

    static inline Py_ssize_t regle_next_in_span(const unsigned char *cells, Py_ssize_t at, Py_ssize_t n,
                                                long low, long high) {
    #if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        int one = low == high, filled = low == 1 && high >= 255;
        if (one || filled) {
            unsigned long long w, hit, want = (unsigned long long)(low & 255) * 0x0101010101010101ULL;
            for (; at + 8 <= n; at += 8) {
                memcpy(&w, cells + at, 8);
                hit = regle_span_marks(w, one, want);
                if (hit)
                    return at + (__builtin_ctzll(hit) >> 3);
            }
        }
    #endif
        for (; at < n; at++)
            if ((unsigned long)(cells[at] - low) <= (unsigned long)(high - low))
                return at;
        return -1;
    }
    """
    Py_ssize_t span_from "regle_next_in_span"(const unsigned char* cells, Py_ssize_t at, Py_ssize_t n, long low,
                                              long high) noexcept


cdef extern from *:
    """
    /* The n cells whose byte is in low..high as bits of ``words`` (cell c: bit c % 64 of word
       c / 64; the words zeroed first): one value or any filled cell eight cells at a time (the
       bytes that match marked by their top bit, the eight marks gathered into a byte by one
       product), other spans, the last few cells and big-endian machines a byte at a time. */
    static inline void regle_span_bits(const unsigned char *cells, Py_ssize_t n, long low, long high,
                                       unsigned long long *words) {
        Py_ssize_t at = 0;
        memset(words, 0, (size_t)((n + 63) >> 6) * 8);
    #if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        int one = low == high, filled = low == 1 && high >= 255;
        unsigned long long w, want = (unsigned long long)(low & 255) * 0x0101010101010101ULL;
        for (; (one || filled) && at + 8 <= n; at += 8) {
            memcpy(&w, cells + at, 8);  /* (regle_span_marks: the first extern block's) */
            words[at >> 6] |= (((regle_span_marks(w, one, want) >> 7) * 0x0102040810204080ULL) >> 56) << (at & 63);
        }
    #endif
        for (; at < n; at++)
            if ((unsigned long)(cells[at] - low) <= (unsigned long)(high - low))
                words[at >> 6] |= 1ULL << (at & 63);
    }

    /* The first cell after c (c = -1: the first) whose bit is set in the nw words, or -1. */
    static inline Py_ssize_t regle_bits_after(const unsigned long long *words, Py_ssize_t nw, Py_ssize_t c) {
        Py_ssize_t k = (c + 1) >> 6;
        unsigned long long m;
        if (c < -1 || k >= nw)
            return -1;
        m = words[k] & (~0ULL << ((c + 1) & 63));
        while (!m) {
            if (++k >= nw)
                return -1;
            m = words[k];
        }
    #if defined(__GNUC__)
        return (k << 6) + __builtin_ctzll(m);
    #else
        {
            Py_ssize_t b = 0;
            while (!(m & 1)) { m >>= 1; b++; }
            return (k << 6) + b;
        }
    #endif
    }
    """
    void span_bits_of "regle_span_bits"(const unsigned char* cells, Py_ssize_t n, long low, long high,
                                          unsigned long long* words) noexcept
    Py_ssize_t bits_after "regle_bits_after"(const unsigned long long* words, Py_ssize_t nw, Py_ssize_t c) noexcept


cdef inline Py_ssize_t span_bits(object grid, long low, long high, unsigned long long* words) except -2:
    """The cells of a grid of elements whose byte is in the span ``holding_low`` and
    ``holding_high`` give, as bits of ``words`` (room for 64 words: a grid's 4,096 cells): how
    many words. A scan walks them from bit to bit (``bits_after``), the grid read once, in
    order, as next_in_span would find them on the grid as it was (a move generator or an
    aggregate changes nothing it walks)."""
    cdef const unsigned char* cells
    cdef Py_ssize_t n, at, nw
    if type(grid) is not bytearray:
        raise TypeError("a grid of elements is missing")
    n = PyByteArray_GET_SIZE(grid)
    if n > 4096:
        raise ValueError("a grid of more than 4,096 cells")
    nw = (n + 63) >> 6
    cells = <const unsigned char*>PyByteArray_AS_STRING(grid)
    if low >= 0 and (high < low or low > 255):
        memset(words, 0, nw * 8)
        return nw
    if low >= 0:
        span_bits_of(cells, n, low, high, words)
        return nw
    memset(words, 0, nw * 8)
    for at in range(n):  # a kind of any owner: by division
        if cells[at] != 0 and (cells[at] - 1) % high == -1 - low:
            words[at >> 6] |= (<unsigned long long>1) << (at & 63)
    return nw


cdef inline Py_ssize_t next_in_span(object grid, Py_ssize_t at, long low, long high) except -2:
    """The first cell from ``at`` on of a grid of elements whose byte is in the span
    ``holding_low`` and ``holding_high`` give (an empty cell: 0 to 0; a filled one: 1 to 255),
    or -1: a scan of the grid's cells walks them so, one call per cell found, with no list (eight
    cells at a time for one value or any filled cell: ``regle_next_in_span``)."""
    cdef const unsigned char* cells
    cdef Py_ssize_t n
    if type(grid) is not bytearray:
        raise TypeError("a grid of elements is missing")
    n = PyByteArray_GET_SIZE(grid)
    if at < 0 or (low >= 0 and (high < low or low > 255)):
        return -1
    cells = <const unsigned char*>PyByteArray_AS_STRING(grid)
    if low >= 0:
        return span_from(cells, at, n, low, high)
    while at < n:  # a kind of any owner: by division
        if cells[at] != 0 and (cells[at] - 1) % high == -1 - low:
            return at
        at += 1
    return -1


cdef inline long lane_count(object grid, long lanes, long height, long lane) except? -1:
    """``K.lane_count`` inline on a grid of elements (a bytearray): how many cells of a lane
    are filled from its foot, with no call of the kernel; anything else goes to the kernel."""
    cdef const unsigned char* cells
    cdef const void* found
    if type(grid) is not bytearray or not 0 <= lane < lanes or PyByteArray_GET_SIZE(grid) < lanes * height:
        return _CK.lane_count(grid, lanes, height, lane)  # (which says what is wrong)
    cells = <const unsigned char*>PyByteArray_AS_STRING(grid) + lane * height
    found = memchr(cells, 0, height)  # the first empty cell from the foot: the C library's search
    return height if found == NULL else <const unsigned char*>found - cells


cdef bint lane_open_checked(object grid, long lanes, long height, long lane) except -1


cdef inline bint lane_open(object grid, long lanes, long height, long lane) except -1:
    """``K.lane_count(G, l) < height`` inline: whether a lane has an empty cell (room for one
    more piece dropped in), read at its top cell first (empty: yes, at once) and searched from
    its foot only when the top is filled (a hole below counts, as lane_count counts it). Any
    other grid or lane goes out of line (lane_open_checked), so that this stays small enough
    to be written inside a move generator's loop over the lanes."""
    cdef const unsigned char* cells
    if type(grid) is not bytearray or not 0 <= lane < lanes or height <= 0 \
            or PyByteArray_GET_SIZE(grid) < lanes * height:
        return lane_open_checked(grid, lanes, height, lane)
    cells = <const unsigned char*>PyByteArray_AS_STRING(grid) + lane * height
    return cells[height - 1] == 0 or memchr(cells, 0, height) != NULL


cdef inline long flanked_count(object grid, object table, long deg, long cell, long value, long d) except? -1:
    """``K.flanked_count`` inline on a grid of elements (a bytearray) and its table (an
    array('h')): how many pieces a piece of ``value`` at ``cell`` would outflank, along
    direction d (-1: every direction), read in place with no call of the kernel (a move
    generator asks it of every empty cell); anything else goes to the kernel."""
    cdef const unsigned char* cells
    cdef const short* adj
    cdef long k, k_end, total = 0
    if type(grid) is not bytearray or type(table) is not array or (<array>table).ob_descr.typecode != b'h' \
            or not 0 <= cell < PyByteArray_GET_SIZE(grid) or Py_SIZE(table) < PyByteArray_GET_SIZE(grid) * deg \
            or d >= deg:
        return _CK.flanked_count(grid, table, deg, cell, value, d)  # (which says what is wrong)
    cells = <const unsigned char*>PyByteArray_AS_STRING(grid)
    adj = (<array>table).data.as_shorts
    k, k_end = (0, deg) if d < 0 else (d, d + 1)
    while k < k_end:  # each way: a run of the other pieces, closed by one of value
        total += _CK.flank_run(cells, adj, deg, cell, value, k)
        k += 1
    return total


cdef inline bint has_byte(object grid, long value) except -1:
    """Whether some cell of a grid of elements holds the byte ``value`` (``count(empty_cells(G))
    == 0`` asks it): the C library's byte search, stopping at the first."""
    if type(grid) is bytearray and 0 <= value <= 255:
        return memchr(PyByteArray_AS_STRING(grid), value, PyByteArray_GET_SIZE(grid)) != NULL
    return value in grid


cdef inline Py_ssize_t first_in(object grid, long kinds, long kind, long owner) except -2:
    """``K.first_holding`` on a grid of elements (a bytearray), inline: the first cell holding
    (kind, owner), or -1. One byte (a king of a seat) is the C library's search (memchr);
    anything but a bytearray goes to the kernel."""
    cdef long low = holding_low(kinds, kind, owner), high = holding_high(kinds, kind, owner)
    cdef const void* found
    cdef Py_ssize_t n
    if type(grid) is not bytearray:
        return _CK.first_holding(grid, kinds, kind, owner)
    if low != high or low < 1 or low > 255:
        return next_in_span(grid, 0, low, high)
    n = PyByteArray_GET_SIZE(grid)
    found = memchr(PyByteArray_AS_STRING(grid), low, n)
    return -1 if found == NULL else <const char*>found - PyByteArray_AS_STRING(grid)


# ---- packed move keys: a move (tag, a, b) of small numbers as one C long, pushed into the
# state's buffer by the _keys_N methods; the move tuple is made only when it is played or read
cdef inline long packed(long tag, long a, long b) noexcept:
    """A move's packed key: the action in the low 8 bits, then each argument in 27 bits."""
    return tag | ((a + KEY_HALF) << 8) | ((b + KEY_HALF) << 35)


cdef inline void unpack(long keys_tag, long key, long* tag, long* a, long* b) noexcept:
    """The action and arguments of a key: of action ``keys_tag`` (then the key is its one
    argument), or packed (``keys_tag`` -1)."""
    if keys_tag >= 0:
        tag[0], a[0], b[0] = keys_tag, key, 0
    else:
        tag[0], a[0], b[0] = key & 255, ((key >> 8) & KEY_MASK) - KEY_HALF, ((key >> 35) & KEY_MASK) - KEY_HALF


cdef inline long packed3(long tag, long a, long b, long c) noexcept:
    """The packed key of a move of three arguments (its action says so): the action in the low
    8 bits, then each argument in 18 bits."""
    return tag | ((a + KEY3_HALF) << 8) | ((b + KEY3_HALF) << 26) | ((c + KEY3_HALF) << 44)


cdef inline void unpack3(long key, long* a, long* b, long* c) noexcept:
    """The three arguments of a packed key made by ``packed3``."""
    a[0] = ((key >> 8) & KEY3_MASK) - KEY3_HALF
    b[0] = ((key >> 26) & KEY3_MASK) - KEY3_HALF
    c[0] = ((key >> 44) & KEY3_MASK) - KEY3_HALF


cdef int grow_keys(NativeCore s, Py_ssize_t more) except -1


cdef inline int room_for(NativeCore s, Py_ssize_t more) except -1:
    """Room in the buffer for ``more`` keys at once (a loop then writes them with no check):
    one test when they fit, grow_keys (out of line) when not."""
    if s._nkeys + more <= s._keys_cap:
        return 0
    return grow_keys(s, more)


cdef inline int _room(NativeCore s) except -1:
    """Room in the buffer for one more key."""
    return room_for(s, 1)


cdef inline int push(NativeCore s, long tag, long a, long b) except -1:
    """One move's key into the buffer (or, when an argument does not fit, the step marked wide)."""
    if not (-KEY_HALF <= a < KEY_HALF and -KEY_HALF <= b < KEY_HALF):
        s._keys_wide = True
        return 0
    _room(s)
    s._keys[s._nkeys] = packed(tag, a, b)
    s._nkeys += 1
    return 0


cdef inline int push_if(NativeCore s, bint keep, long tag, long a, long b) except -1:
    """``if keep: push(s, tag, a, b)`` with no branch on ``keep``: the key is written after the
    others either way and counted only when kept. A guard that a random board makes true about
    half the time (is the square ahead empty?) is a guess the processor gets wrong half the
    time; a written key not counted costs a store."""
    if not (-KEY_HALF <= a < KEY_HALF and -KEY_HALF <= b < KEY_HALF):
        if keep:
            s._keys_wide = True
        return 0
    room_for(s, 1)
    s._keys[s._nkeys] = packed(tag, a, b)
    s._nkeys += keep
    return 0


cdef inline int push3(NativeCore s, long tag, long a, long b, long c) except -1:
    """``push`` for a move of three arguments."""
    if not (-KEY3_HALF <= a < KEY3_HALF and -KEY3_HALF <= b < KEY3_HALF and -KEY3_HALF <= c < KEY3_HALF):
        s._keys_wide = True
        return 0
    _room(s)
    s._keys[s._nkeys] = packed3(tag, a, b, c)
    s._nkeys += 1
    return 0


cdef int push_move(NativeCore s, object move) except -1
cdef int push_moves(NativeCore s, object moves) except -1
cdef int push_tagged(NativeCore s, long tag, object values, bint distinct) except -1
cdef int push_cells(NativeCore s, long tag, bytearray grid, bint filled) except -1
cdef int push_product(NativeCore s, long tag, object firsts, object seconds, bint distinct) except -1
cdef int push_cells_product(NativeCore s, long tag, bytearray grid, bint filled, object seconds) except -1
cdef object move_of_key(const unsigned char* arity, long keys_tag, long key)
cdef int key_of_move(const unsigned char* arity, long keys_tag, object move, long* key) except -1
cdef object key_moves(NativeCore s, object move, bint told=*)
