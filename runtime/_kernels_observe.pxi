# Included by _kernels.pyx (one compiled module): observations.
# The pure-Python twins are the same section of kernels.py.

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
