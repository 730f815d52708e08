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
cpdef object drop_into(object grid, int lanes, int height, int lane, long value, list taking, list overflow)
cpdef list placement_keys(object grid, int lanes, int height, tuple pattern, list taking)
cpdef object place(object grid, int lanes, int height, long key, tuple pattern, list taking, list overflow)
cpdef list line_moves(object cells, object step, int ndirs, int me, int max_line)
cpdef list line_move_keys(object cells, object step, int ndirs, int me, int max_line, object tag=*)
cpdef tuple apply_line_key(object cells_obj, object step_obj, int ndirs, long key)
cpdef tuple apply_line(object cells_obj, object step_obj, int ndirs, int head, int d, int k)
cpdef object in_a_row(object cells_obj, object adj_obj, int deg, int value, int n)
cpdef object in_a_row_exactly(object cells_obj, object adj_obj, int deg, int value, int n)
cpdef object in_a_row_since(object cells_obj, bytearray memo, object adj_obj, int deg, int value, int n)
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
cpdef list slide(object cells_obj, object adj_obj, int deg, int cell, int d)
cpdef list reach(object cells_obj, object adj_obj, int deg, int cell, int d)
cpdef long long position_key(object parts, long long mover) except -1
cpdef bytes remember(bytes keys, long long key)
cpdef long repeats(bytes keys) except -1
cpdef long blocker(object cells_obj, object adj_obj, int deg, int cell, int d) except -2
cpdef long liberty_count(object cells_obj, object adj_obj, int deg, int cell, int limit=*) except -1
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

from cpython.ref cimport PyObject

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
