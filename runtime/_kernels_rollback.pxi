# Included by _kernels.pyx (one compiled module): play()'s rollback: one state's slots kept in another's.
# The pure-Python twins are the same section of kernels.py.

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
