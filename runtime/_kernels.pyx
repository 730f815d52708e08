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

# ---- the kernels, one file per concern (Cython includes: still one compiled module) ----
include "_kernels_moves.pxi"  # moves (shared move tuples, tagged lists), zones, multisets, shuffling
include "_kernels_groups.pxi"  # connectivity (groups), lanes with gravity, placements, the keys of groups and placements
include "_kernels_lines.pxi"  # lines and pushes, board queries (runs, outflanking, connection, slides, liberties, pieces held)
include "_kernels_observe.pxi"  # observations
include "_kernels_walls.pxi"  # walls: the ways between a board's cells that no standing wall crosses
include "_kernels_rollback.pxi"  # play()'s rollback: one state's slots kept in another's
