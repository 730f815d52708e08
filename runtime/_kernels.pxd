# The compiled kernels that native engines call at C level (`from regle.runtime cimport
# _kernels`): each is a cpdef function of _kernels.pyx, callable from Python as well.
# Native engines built against one version of this file are rebuilt when it changes
# (regle.native puts it in their cache key).

cpdef object deal(list src, list dst, object count, object where=*)
cpdef object clear_cells(object grid, object cells, object to)
cpdef list tagged(object action, object values, bint distinct=*)
cpdef list distinct(object values)
cpdef list tagged_product(object action, object firsts, object seconds)
cpdef object refill(list dst, list src, Py_ssize_t size)
cpdef object remove_value(list values, object value)
cpdef list distinct_pairs(list values)
cpdef object contains_all(list values, list wanted)
cpdef object contains_pair(list values, object a, object b)
cpdef list holding_pairs(list values, object items, object firsts, object seconds, object tag=*)
cpdef object shuffle(list items, object state)
cpdef list connected_groups(object cells, object adj, int deg, int wild, int min_size, int min_real)
cpdef object group_at(object cells_obj, object adj_obj, int deg, int cell, int colour, int wild)
cpdef object largest_zone(object cells, object adj, int deg, int wild, int min_size, int min_real)
cpdef object settle(object cells_obj, int lanes, int height)
cpdef int turn_cells(object cells_obj, int width, int height, int lane_major, int corner, int size, int quarters, int mirror, int to=*) except -1
cpdef object drop(object cells_obj, int lanes, int height, int lane, int value)
cpdef long lane_count(object cells_obj, int lanes, int height, int lane) except? -1
cpdef Py_ssize_t count_byte(object cells_obj, int value) except -1
cpdef tuple rotate_pattern(int rows, int cols, object pattern)
cpdef list placements(object cells_obj, int lanes, int height, int rows, int cols, object pattern)
cpdef list group_keys(list groups, long wild)
cpdef long group_colour(long key) except? -1
cpdef long group_anchor(long key) except? -1
cpdef long group_size(long key) except? -1
cpdef object show_placement(long key)
cpdef object group_cells(object cells, object adj, int deg, long key)
cpdef long drop_into(object grid, int lanes, int height, int lane, long value, list taking, list overflow) except? -2
cpdef list placement_keys(object grid, int lanes, int height, tuple pattern, list taking)
cpdef object place(object grid, int lanes, int height, long key, tuple pattern, list taking, list overflow)
cpdef list line_moves(object cells, object step, int ndirs, int me, int max_line)
cpdef list line_move_keys(object cells, object step, int ndirs, int me, int max_line, object tag=*)
cpdef tuple apply_line_key(object cells_obj, object step_obj, int ndirs, long key)
cpdef tuple apply_line(object cells_obj, object step_obj, int ndirs, int head, int d, int k)
cpdef object in_a_row(object cells_obj, object adj_obj, int deg, int value, int n)
cpdef object in_a_row_exactly(object cells_obj, object adj_obj, int deg, int value, int n)
cpdef bint in_a_row_bits(object cells_obj, bytes bits, int value, int n) except -1
cpdef object in_a_row_since(object cells_obj, bytearray memo, object adj_obj, int deg, int value, int n)
cdef int lines_written(object cells_obj, object adj_obj, int deg, int value, int n, const short* ring,
                       unsigned int start, unsigned int end, unsigned int mask) except -1
cpdef list flanked(object cells_obj, object adj_obj, int deg, int cell, int value, int d)
cpdef long flanked_count(object cells_obj, object adj_obj, int deg, int cell, int value, int d) except -1
cpdef object connected(object cells_obj, object adj_obj, int deg, int value, object starts, object goals)
cpdef object connected_since(object cells_obj, bytearray memo, object adj_obj, int deg, int value, object starts, object goals)
cpdef list empty_cells(object cells_obj)
cpdef list filled_cells(object cells_obj)
cpdef list cells_holding(object cells_obj, int kinds, int kind, int owner)
cpdef Py_ssize_t first_holding(object cells_obj, int kinds, int kind, int owner) except -2
cpdef list liberties(object cells_obj, object adj_obj, int deg, int cell)
cpdef list chain(object cells_obj, object adj_obj, int deg, int cell)
cpdef list sides_touched(object cells, object on_side, int count, int n)
cpdef list slide(object cells_obj, object adj_obj, int deg, int cell, int d)
cpdef list reach(object cells_obj, object adj_obj, int deg, int cell, int d)
cpdef long long position_key(object parts, long long mover) except -1
cpdef bytes remember(bytes keys, long long key)
cpdef long repeats(bytes keys) except -1
cpdef list met(object cells_obj, object adj_obj, int deg, int cell, int d)
cpdef long blocker(object cells_obj, object adj_obj, int deg, int cell, int d) except -2
cpdef bint ring(object cells_obj, object adj_obj, int deg, object turns, int cell) except -1
cpdef long liberty_count(object cells_obj, object adj_obj, int deg, int cell, int limit=*) except -1
cpdef bytes neighbours_holding(object cells_obj, object adj_obj, int deg, long code)
cpdef list around(object members, object adj_obj, int deg, int n)
cpdef object observe_counts(list out, list values, long lo, Py_ssize_t size)
cpdef object observe_planes(list out, object cells_obj, Py_ssize_t size, bint shown)
cpdef tuple triple(object tag, object a, object b)
cpdef tuple pair(object tag, object value)

# move keys into a growable buffer (PyMem, owned by the caller): native engines keep a step's
# keys there and make the chosen move only (line_move_keys, tagged(tag, numbers))
cdef Py_ssize_t line_keys_into(object cells_obj, object step_obj, int ndirs, int me, int max_line, long** keys, Py_ssize_t* cap) except -1
cdef Py_ssize_t keys_into(object values, long** keys, Py_ssize_t* cap) except -1
cdef Py_ssize_t cells_keys_into(object cells_obj, bint filled, long** keys, Py_ssize_t* cap) except -1

from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject
from cpython.list cimport PyList_GET_SIZE
from libc.string cimport memcmp, memcpy

cdef extern from *:
    """
    /* The value of an int of at most one digit (|v| < 2**30), read in place as CPython's own
       fast paths do: Py_SIZE is the signed digit count up to 3.11, the compact API after. */
    static inline int regle_one_digit(PyObject *v, long *out) {
    #if PY_VERSION_HEX >= 0x030C0000
        if (!PyUnstable_Long_IsCompact((PyLongObject *)v)) return 0;
        *out = (long)PyUnstable_Long_CompactValue((PyLongObject *)v);
        return 1;
    #else
        Py_ssize_t size = Py_SIZE(v);
        if (size < -1 || size > 1) return 0;
        *out = size * (long)((PyLongObject *)v)->ob_digit[0];
        return 1;
    #endif
    }
    """
    bint one_digit "regle_one_digit"(PyObject* v, long* out) noexcept


cdef inline long flank_run(const unsigned char* cells, const short* adj, int deg, int cell, int value,
                           int k) noexcept:
    """How many pieces a piece of ``value`` at ``cell`` would outflank along direction k: the
    unbroken run of other pieces next to it, when one of ``value`` closes it (else 0). The walk
    of the flanked kernels, and of a native engine's inline count (_support.flanked_count)."""
    cdef long at = adj[cell * deg + k], count = 0
    while at >= 0 and at != cell and cells[at] != 0 and cells[at] != value:
        count += 1
        at = adj[at * deg + k]
    return count if count and at >= 0 and at != cell and cells[at] == value else 0


cdef inline bint small_int(object v, long* out) noexcept:
    """Whether v is an int of one digit (then in out): inlined where it is called."""
    return type(v) is int and one_digit(<PyObject*>v, out)

# results into caller's C arrays (-1: not small numbers or no room; then the caller uses the list kernel)
cdef Py_ssize_t distinct_pairs_into(list values, long* out, Py_ssize_t cap) except -2
cdef Py_ssize_t holding_into(list values, object items, object firsts, object seconds, long* out, Py_ssize_t cap) except -2
cpdef list open_neighbours(object adj_obj, int deg, object slots_obj, object walls_obj, int cell)
cpdef long walled_distance(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to) except? -2
cpdef bint reachable(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to, object memo) except -1
cpdef bint mark_way(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to, bytearray marks, object memo) except -1
cpdef bytes take_marks(bytearray marks, bint found)
cpdef bint walls_hang(object walls_obj, object corners_obj, object around_obj, bytes ways, long w1, long w2=*) except -1


# ---- in-place copies and slots, shared by the kernels and runtime/_support.pxd (play()'s keep)
cdef extern from *:
    """
    /* The items of a list, in place (PySequence_Fast_ITEMS of a list, named for what it is here). */
    #define REGLE_LIST_ITEMS(op) (((PyListObject*)(op))->ob_item)
    /* A list's size lowered in place (its tail's items let go first by the caller): what
       del l[n:] does, without the general slice assignment. */
    #define REGLE_LIST_SHRINK(op, n) (((PyVarObject*)(op))->ob_size = (n))
    """
    PyObject** list_items "REGLE_LIST_ITEMS"(list op)
    void list_shrink "REGLE_LIST_SHRINK"(list op, Py_ssize_t n)

# PyMemberDef is complete in structmember.h up to Python 3.11
cdef extern from "structmember.h":
    ctypedef struct _MemberDef "PyMemberDef":
        Py_ssize_t offset

cdef extern from "Python.h":
    ctypedef struct _MemberDescr "PyMemberDescrObject":  # a slot's descriptor (CPython's descrobject.h)
        _MemberDef* d_member

    ctypedef struct _TypeObject "PyTypeObject":
        pass
    _TypeObject _MEMBER_DESCRIPTOR "PyMemberDescr_Type"  # the type of a slot's descriptor
    bint _is_type "Py_IS_TYPE"(PyObject* o, _TypeObject* t) noexcept


cdef inline unsigned long long fnv_number(unsigned long long h, unsigned long long u) noexcept:
    """FNV-1a over a number's 8 bytes, lowest first (the kernels' position key). Xoring a zero
    byte changes nothing, so the seven zero bytes of a number below 256 are one multiply by
    the prime's 7th power: the same key, two multiplies where there were eight."""
    cdef int k
    if u < 256:
        return ((h ^ u) * 0x100000001B3ULL) * 0xC5527B8A51D3D2DBULL
    for k in range(8):
        h = (h ^ (u & 0xFF)) * 0x100000001B3ULL
        u >>= 8
    return h


cdef inline unsigned long long fnv_span(unsigned long long h, const unsigned char* data, Py_ssize_t n) noexcept:
    """FNV-1a over n bytes (a grid's cells, in the kernels' position key), eight zero bytes (empty
    cells) at a time one multiply by the prime's 8th power: the same key, since xoring a zero
    byte changes nothing."""
    cdef Py_ssize_t i = 0
    cdef unsigned long long word
    cdef int k
    while i + 8 <= n:
        memcpy(&word, data + i, 8)
        if word == 0:
            h = h * 0x1EFAC7090AEF4A21ULL
        else:
            for k in range(8):
                h = (h ^ data[i + k]) * 0x100000001B3ULL
        i += 8
    while i < n:
        h = (h ^ data[i]) * 0x100000001B3ULL
        i += 1
    return h


cdef inline void copy_small(void* to, const void* cells, Py_ssize_t n) noexcept:
    """memcpy, with the few bytes of a small board (8 to 16) copied as two overlapping words
    through registers, no call."""
    cdef unsigned long long head, tail
    if 8 <= n <= 16:
        memcpy(&head, cells, 8)
        memcpy(&tail, <const char*>cells + n - 8, 8)
        memcpy(to, &head, 8)
        memcpy(<char*>to + n - 8, &tail, 8)
    else:
        memcpy(to, cells, n)


cdef inline int keep_list(list into, list source) except -1:
    """into[:] = source for a zone (a list), in C: nothing when both hold the same objects (one
    memcmp of their item pointers: most zones a move leaves alone); else item by item, an item
    that is already the same object costing one comparison and no reference counting; a longer
    ``into`` loses its tail, a shorter one is appended to."""
    cdef Py_ssize_t i, n, m
    cdef PyObject** old
    cdef PyObject** new
    cdef PyObject* gone
    if into is None or source is None:
        into[:] = source  # (the error Python's way gives)
        return 0
    n, m = PyList_GET_SIZE(source), PyList_GET_SIZE(into)
    new, old = list_items(source), list_items(into)
    if n == m and (n == 0 or memcmp(old, new, n * sizeof(PyObject*)) == 0):
        return 0
    for i in range(min(n, m)):
        if new[i] != old[i]:
            gone = old[i]
            Py_INCREF(<object>new[i])
            old[i] = new[i]
            Py_DECREF(<object>gone)
    if m > n:  # the size lowered first, then the tail let go: the list never shows a dead item
        list_shrink(into, n)
        for i in range(n, m):
            Py_DECREF(<object>old[i])
    for i in range(m, n):
        into.append(<object>new[i])
    return 0


cdef inline Py_ssize_t slot_at(type cls, str name) except -2:
    """Where objects of ``cls`` keep slot ``name`` (read off its descriptor), or -1 when it is
    no slot (then the Python way reads and writes it)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            d = klass.__dict__[name]
            return (<_MemberDescr*><PyObject*>d).d_member.offset if _is_type(<PyObject*>d, &_MEMBER_DESCRIPTOR) else -1
    return -1


cdef inline PyObject* slot_value(object o, Py_ssize_t at) noexcept:
    """The object in o's slot at ``at`` (borrowed; NULL when the slot is not set)."""
    return (<PyObject**>((<char*><PyObject*>o) + at))[0]


cdef inline int put_slot(object o, Py_ssize_t at, PyObject* value) except -1:
    """o's slot at ``at`` made ``value`` (a new reference taken, the old one let go)."""
    cdef PyObject** place = <PyObject**>((<char*><PyObject*>o) + at)
    cdef PyObject* old = place[0]
    if old != value:
        Py_INCREF(<object>value)
        place[0] = value
        if old != NULL:
            Py_DECREF(<object>old)
    return 0
