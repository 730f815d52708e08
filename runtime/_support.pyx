# cython: language_level=3, boundscheck=True, wraparound=True
"""What every native engine shares, compiled once with regle instead of once per engine.

A native engine is Cython source generated from a rules file (compiler/templates/engine.py.j2).
Everything in it that does not depend on the rules lives here: the base class of its compiled
state (the fields every state has, the buffer of packed move keys, copying them, action ids read
off the keys, ``play`` and the random playouts in C, the work budget of loops), the generator in
C, the C forms of the language's operations, the sequence of legal moves made from keys, and the
batched stepping of many games. The declarations engines cimport are in _support.pxd.

No pure-Python twin: a native engine cannot exist without this module compiled, and the Python
engines never use it.
"""
cimport cython
from cpython.array cimport array, clone
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_FromStringAndSize
from cpython.float cimport PyFloat_AsDouble
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_AsUnsignedLongLongMask
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_INCREF, PyObject
from cpython.sequence cimport PySequence_Fast_ITEMS
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.string cimport memcpy, memset

cdef extern from "Python.h":
    int PyObject_GenericSetDict(object o, object value, void* context) except -1
    ctypedef struct PyListObject:  # (the fields of a list: its places, and how many there is room for)
        PyObject** ob_item
        Py_ssize_t allocated
    void Py_SET_SIZE(object o, Py_ssize_t size)
    void Py_XDECREF(PyObject* o)
    Py_ssize_t Py_REFCNT(PyObject* o)

from regle.runtime.engine import _told_apart, BaseState as _BaseState, Move as _Move, MAX_WORK as _MAX_WORK, Moves as _Moves, \
    TOO_MUCH_FOR as _TOO_MUCH_FOR, TOO_MUCH_WHILE as _TOO_MUCH_WHILE
from regle.runtime.kernels import MAX_PAIRS as _MAX_PAIRS, TOO_MANY_PAIRS as _TOO_MANY_PAIRS
from regle.runtime.rng import Rng as _Rng


cdef array _LONGS = array("q")  # the model of a grid of numbers' array: C long longs

# NumPy's frombuffer and dtypes, fetched at the first observation or mask (False: no NumPy, and
# the Python engine's plain forms are given, as BaseState does)
cdef object _frombuffer = None
cdef object _float32 = None
cdef object _int8 = None


cdef bint numpy_here() except -1:
    """Whether NumPy is installed (imported once, when first asked)."""
    global _frombuffer, _float32, _int8
    if _frombuffer is None:
        try:
            import numpy
        except ImportError:
            _frombuffer = False
            return False
        _frombuffer, _float32, _int8 = numpy.frombuffer, numpy.float32, numpy.int8
    return _frombuffer is not False


cdef bytearray floats_of(list values):
    """The numbers of ``values`` as C floats in a bytearray: NumPy's conversion of a list looks
    at each item's type again, about 20 ns a number, where this reads whole numbers in C."""
    cdef Py_ssize_t i, n = len(values)
    cdef bytearray out = PyByteArray_FromStringAndSize(NULL, 4 * n)
    cdef float* f = <float*>PyByteArray_AS_STRING(out)
    cdef long long v
    cdef int overflow
    cdef object item
    for i in range(n):
        item = <object>PyList_GET_ITEM(values, i)
        if type(item) is int:
            v = PyLong_AsLongLongAndOverflow(item, &overflow)
            if not overflow:
                f[i] = <float>v
                continue
        f[i] = <float>PyFloat_AsDouble(item)
    return out


cdef int mark_legal(NativeCore s, signed char* row, Py_ssize_t width) except -1:
    """1 at each legal action id of ``s`` in ``row`` (zeroed before): read off the keys in C
    when the step is keyed and every key has a plain id, else through legal_action_ids."""
    cdef long long v
    if s.over:
        return 0
    if s._legal is None and _fill_ids(NULL, row, width, s._keys, s._nkeys, s._keys_tag, plan_of(s)) == s._nkeys:
        return 0
    for v in s.legal_action_ids():  # (the 1s set so far are legal ids too)
        if not 0 <= v < width:
            raise IndexError(f"action id {v} outside the action space of {width}")
        row[v] = 1
    return 0


cdef long long* number_at_rare(array grid, Py_ssize_t at) except NULL:
    """number_at's rare cases: no grid (an error), or an index from the end."""
    if grid is None:
        raise TypeError("a grid of numbers is missing")
    return grid.data.as_longlongs + ix(at, Py_SIZE(grid))


cdef array numbers_zeroed(Py_ssize_t size):
    """A grid of numbers' blank cells, made in C: an array('q') of ``size`` zeros."""
    return clone(_LONGS, size, True)


cdef Py_ssize_t _packed_key_of_id(NativeCore s, const long long* plan, long long wanted) noexcept:
    """Where the packed key whose action id is ``wanted`` is, found without decoding the keys:
    the action whose ids hold it (no argument, or one or two plain ones), its arguments read
    off the id, and the key they pack into looked for. -1 when not found this way (then the
    keys are decoded one by one)."""
    cdef const long long* row = plan
    cdef long long rel
    cdef long tag = 0, a = 0, b = 0
    cdef long key
    cdef Py_ssize_t i
    while True:
        if row[0] == -1:  # the end of the plan
            return -1
        rel = wanted - row[1]
        if row[0] == 1 and rel == 0:
            break
        if row[0] == 2 and 0 <= rel < row[3]:
            a = <long>(rel + row[2])
            break
        if row[0] == 3 and row[6] > 0 and rel >= 0 and rel // row[6] < row[3] and rel % row[6] < row[5]:
            a, b = <long>(rel // row[6] + row[2]), <long>(rel % row[6] + row[4])
            break
        tag += 1
        row += 8
    if not (-KEY_HALF <= a < KEY_HALF and -KEY_HALF <= b < KEY_HALF):
        return -1
    key = packed(tag, a, b)
    for i in range(s._nkeys):
        if s._keys[i] == key:
            return i
    return -1


cdef int grow_keys(NativeCore s, Py_ssize_t more) except -1:
    """room_for's way out when the keys do not fit (kept out of line, so that push, which
    calls room_for for every key, stays small enough to be written inside the loops that
    call it): a few keys live in the state itself (``_keys_small``: read with the state's own
    fields, no other memory to fetch, which a batch of a thousand states feels); more, in a
    buffer of their own, kept for the state's next decisions."""
    cdef long* bigger
    cdef Py_ssize_t size
    if s._keys == NULL and s._nkeys + more <= KEYS_SMALL:
        s._keys, s._keys_cap = s._keys_small, KEYS_SMALL
        return 0
    size = s._keys_cap if s._keys_cap > KEYS_SMALL else 64
    while size < s._nkeys + more:
        size *= 2
    if s._keys == s._keys_small:  # out of the state into a buffer, the keys so far taken along
        bigger = <long*>PyMem_Malloc(size * sizeof(long))
        if bigger != NULL:
            memcpy(bigger, s._keys_small, s._nkeys * sizeof(long))
    else:
        bigger = <long*>PyMem_Realloc(s._keys, size * sizeof(long))
    if bigger == NULL:
        raise MemoryError()
    s._keys, s._keys_cap = bigger, size
    return 0


cdef bint lane_open_checked(object grid, long lanes, long height, long lane) except -1:
    """lane_open for a grid or lane it does not take in place: the kernel's count (which says
    what is wrong)."""
    return lane_count(grid, lanes, height, lane) < height


cdef class NativeCore:
    """The base of every engine's compiled state (see _support.pxd for its fields)."""

    # ---- the game's own: every engine's _Core overrides these ----
    cdef NativeCore _copy(self):
        raise NotImplementedError

    cdef int _keep_into(self, NativeCore t) except -1:
        """Make ``t`` (a copy of this state made earlier) equal to this state again, in place:
        its lists, bytes and buffers reused, nothing allocated that fits."""
        raise NotImplementedError

    cdef _play(self, move, long key=0):
        raise NotImplementedError

    cdef const long long* _plan(self) except NULL:
        raise NotImplementedError

    cdef const unsigned char* _arities(self) noexcept:
        return NULL

    cdef NativeCore _new_game(self, object n, object seed):
        """A new game of this state's class for n players after setup (State.new without a
        Python call; NewGames calls it on a blank state of the class)."""
        raise NotImplementedError

    # ---- the public API's properties read by every loop, as C properties (BaseState's) ----
    @property
    def current_player(s):
        """The seat to act, or None when the game is over."""
        return None if s.over else s.cur

    @property
    def is_over(s):
        return s.over

    @property
    def players(s):
        return s.n

    # ---- the legal moves, as move tuples or as keys ----
    @property
    def legal(s):
        """The legal moves (a list of move tuples, as in the Python engine)."""
        cdef Py_ssize_t i
        cdef const unsigned char* arity
        if s._legal is None:  # made from the keys of a keyed step, once
            arity = s._arities()
            s._legal = [move_of_key(arity, s._keys_tag, s._keys[i]) for i in range(s._nkeys)]
        return s._legal

    @legal.setter
    def legal(s, value):
        s._legal = value

    def _legal_source(s):
        """BaseState._legal_source: the move tuples, or natively a snapshot of the keys."""
        return s._legal if s._legal is not None else key_moves(s, None)

    cdef int _copy_keys(self, NativeCore t) except -1:
        """The decision's moves into the copy ``t``: its keys copied when the step is keyed (no
        move tuple made; the copy's buffer reused when it has one large enough), else the list
        (shared: a list of legal moves is never changed)."""
        if self._legal is None:
            if t._keys == NULL or t._keys_cap < self._nkeys:
                t._nkeys = 0  # (nothing of the copy's own to take along)
                room_for(t, max(self._nkeys, 1))
            memcpy(t._keys, self._keys, self._nkeys * sizeof(long))
            t._nkeys, t._keys_tag, t._keys_wide = self._nkeys, self._keys_tag, self._keys_wide
        t._legal = self._legal
        return 0

    cdef NativeCore _kept(s):
        """The state as it is, in its spare copy (made at the first call, then overwritten in
        place by _keep_into): what play takes back after a rules error half-way."""
        if s._spare is None:
            s._spare = s._copy()
        else:
            s._keep_into(s._spare)
        return s._spare

    def _keep(s):
        """BaseState._keep in C (for play's Python way)."""
        return s._kept()

    def _unkeep(s):
        s._spare = None

    def copy(self):
        """An independent copy (the same game, played on separately)."""
        return self._copy()

    def __deepcopy__(self, memo):
        """BaseState.__deepcopy__ in C: copy() (OpenSpiel deep-copies an adapter's state at
        every clone, millions of times in a tree walk)."""
        twin = self._copy()
        memo[id(self)] = twin
        return twin

    # ---- what learners read at every step: made in C, not through a Python list ----
    def action_mask(s):
        """BaseState.action_mask compiled: the ids read off the keys into a bytearray, which
        the NumPy int8 array wraps (no copy)."""
        cdef Py_ssize_t size = len(s.GAME.action_space(s.n))
        cdef bytearray out = zeroed(size)
        mark_legal(s, <signed char*>PyByteArray_AS_STRING(out), size)
        return _frombuffer(out, _int8) if numpy_here() else out

    def observation(s, player):
        """BaseState.observation compiled: the engine's numbers made float32 in C (NumPy's
        conversion of a list costs more than making the list)."""
        if not (player is None or type(player) is int and 0 <= player < s.n):
            s._check_seat(player)  # it says why
        out = s._observe(player)
        return _frombuffer(floats_of(out), _float32) if numpy_here() else out

    def __dealloc__(s):
        if s._keys != s._keys_small:
            PyMem_Free(s._keys)

    # ---- action ids straight from the keys (BaseState's, through move tuples, otherwise) ----
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def legal_action_ids(s):
        """The ids of the legal moves, in ``legal`` order (compiled: read off the keys, with no
        move tuple made, when the step is keyed and its actions' arguments are plain values)."""
        cdef const long long* plan
        cdef list out
        cdef long long v
        cdef Py_ssize_t i
        cdef object item
        if s.over or s._legal is not None:
            return _BaseState.legal_action_ids(s)
        plan = plan_of(s)
        out = _ids_list(s, s._nkeys)  # filled below, each place set once (no None put first)
        i = _fill_ids(PySequence_Fast_ITEMS(out), NULL, _NIDS, s._keys, s._nkeys, s._keys_tag, plan)
        for i in range(i, s._nkeys):  # what the quick fill left: ids past the shared ones
            v = key_id(s._keys_tag, s._keys[i], plan)
            if v < 0:
                for i in range(i, s._nkeys):  # the places not filled, made valid before it goes
                    Py_INCREF(None)
                    PyList_SET_ITEM(out, i, None)
                return _BaseState.legal_action_ids(s)
            item = <object>PyTuple_GET_ITEM(_IDS, v) if v < _NIDS else v  # an id made once
            Py_INCREF(item)  # PyList_SET_ITEM takes the reference
            PyList_SET_ITEM(out, i, item)
        return out

    cdef Py_ssize_t _key_of_id(s, long long wanted) except -2:
        """Where among the keys is the key whose action id is ``wanted``: -1 when the Python
        way must decide (the step is not keyed, a key has no plain id, or none has this one).
        Keys of one action with one plain argument are not decoded: the key the id stands for
        is looked for."""
        cdef const long long* plan
        cdef const long long* row
        cdef long long v
        cdef long key
        cdef Py_ssize_t i
        if s.over or s._legal is not None:
            return -1
        plan = plan_of(s)
        if 0 <= wanted < _NIDS:  # where the ids last listed had it: the key there says if it is this one
            i = _AT_ID[wanted]
            if i < s._nkeys and key_id(s._keys_tag, s._keys[i], plan) == wanted:
                return i
        if s._keys_tag >= 0:
            row = plan + 8 * s._keys_tag
            if row[0] == 2:  # one plain argument: id = offset + value - lowest
                if not 0 <= wanted - row[1] < row[3]:
                    return -1
                key = <long>(wanted - row[1] + row[2])
                for i in range(s._nkeys):
                    if s._keys[i] == key:
                        return i
                return -1
        else:
            i = _packed_key_of_id(s, plan, wanted)
            if i >= 0:
                return i
        for i in range(s._nkeys):
            v = id_of_key(s._keys_tag, s._keys[i], plan)
            if v < 0:
                return -1
            if v == wanted:
                return i
        return -1

    def advance_id(s, action_id):
        """``BaseState.advance_id`` compiled: the key whose id it is is found among the keys and
        played, with no move tuple made (the Python way when the step is not keyed)."""
        cdef Py_ssize_t i = s._key_of_id(action_id) if _plain_id(action_id) else -1
        if i < 0:
            return _BaseState.advance_id(s, action_id)  # a list step, or not a legal id: it says why
        s._play(None, s._keys[i])
        return s

    def play_id(s, action_id):
        """``BaseState.play_id`` compiled: the key whose id it is found among the keys and played
        as ``play`` plays (the Python way, which says why, when the step is not keyed or no key
        has that id)."""
        cdef Py_ssize_t i = s._key_of_id(action_id) if _plain_id(action_id) else -1
        if i < 0:
            return _BaseState.play_id(s, action_id)
        s._play_checked(None, s._keys[i])
        return s

    cdef int _play_checked(s, move, long key) except -1:
        """``_play``, with the state kept first and taken back when a rules error stops the
        move half-way (what ``play`` promises). It is kept in a spare state made once (at the
        first checked move) and then overwritten in place, so a checked move allocates nothing
        that fits: no new state, lists or bytes per move."""
        s._kept()
        try:
            s._play(move, key)
        except BaseException:
            before, s._spare = s._spare, None  # its places become this state's again
            s._restore(before)
            raise
        return 0

    # ---- compiled fast paths: BaseState.advance, play and play_random_playout ----
    def advance(s, move):
        """Play ``move``, one of ``s.legal`` (BaseState.advance, compiled)."""
        if s.over:
            raise s._game_over(repr(move))
        s._play(move)
        return s

    def play(s, move):
        """BaseState.play compiled for the move tuple of a keyed step: its key found among the
        keys in C, the state copied for a rules error half-way, the key played. Everything
        else (a notation, a list step, a refusal and its message) goes the Python way."""
        cdef long key
        cdef Py_ssize_t i
        cdef list legal = s._legal
        if s.over or isinstance(move, str):
            return _BaseState.play(s, move)
        if legal is None:
            if key_of_move(s._arities(), s._keys_tag, move, &key) == 1:
                for i in range(s._nkeys):
                    if s._keys[i] == key:
                        s._play_checked(None, key)
                        return s
        elif isinstance(move, tuple) and move in legal:  # a list of move tuples: found by value
            s._play_checked(legal[legal.index(move)], 0)  # the engine's own tuple
            return s
        return _BaseState.play(s, move)  # a notation, or a refusal that says why

    def play_random_seats(s, list rngs):
        """BaseState.play_random_seats compiled: seat p picks as ``rngs[p].below`` would."""
        cdef unsigned long long states[64]
        cdef long seats = len(rngs), p
        cdef list legal
        if seats > 64:
            return _BaseState.play_random_seats(s, rngs)
        for p in range(seats):
            states[p] = rngs[p].state
        try:
            while not s.over:
                legal = s._legal
                if legal is None:  # keys: only the move picked is made
                    s._play(None, s._keys[below(&states[s.cur], s._nkeys)])
                else:
                    s._play(legal[below(&states[s.cur], len(legal))])
        finally:
            for p in range(seats):
                rngs[p].state = states[p]
        return s

    def play_random_playout(s, seed=0, long limit=0):
        """BaseState.play_random_playout compiled: the same picks (SplitMix64 in C)."""
        s._playout(mixed(seed), limit)
        return s

    cdef int _playout(s, unsigned long long state, long limit) except -1:
        """play_random_playout for C callers: from generator state ``state``, ``limit``
        decisions at most (0: to the end)."""
        cdef long left = limit if limit > 0 else -1
        cdef list legal
        while not s.over and left != 0:
            legal = s._legal
            if legal is None:  # keys: only the move picked is made
                s._play(None, s._keys[below(&state, s._nkeys)])
            else:
                s._play(legal[below(&state, len(legal))])
            left -= 1
        return 0

    # ---- the work budget of the rules' loops (BaseState's, in C) ----
    cdef _loop(s, items):
        """BaseState._loop in C: for loops count the elements they walk in one decision."""
        if s.walked_in != s.decisions:
            s.walked_in, s.walked = s.decisions, 0
        s.walked += len(items)
        if s.walked > MAX_WORK_C:
            raise ValueError(_TOO_MUCH_FOR)
        return items

    cdef long long _work_done(s) noexcept:
        """BaseState._work_done in C: the decision the count is of and the count, as one C number
        (an ensure trial keeps it in a typed local: no tuple per candidate move)."""
        return (<long long>s.walked_in << 32) | (<long long>s.walked & _LOW32)

    cdef int _work_back(s, long long work) except -1:
        s.walked_in, s.walked = <long>(work >> 32), <long>(work & _LOW32)
        return 0

    cdef int _walk(s, long n) except -1:
        """BaseState._walk in C: n elements walked by a for loop that makes no list."""
        if s.walked_in != s.decisions:
            s.walked_in, s.walked = s.decisions, 0
        s.walked += n
        if s.walked > MAX_WORK_C:
            raise ValueError(_TOO_MUCH_FOR)
        return 0

    cdef int _spin(s) except -1:
        """BaseState._spin in C: a round of a while loop counts as one element walked."""
        if s.walked_in != s.decisions:
            s.walked_in, s.walked = s.decisions, 0
        s.walked += 1
        if s.walked > MAX_WORK_C:
            raise ValueError(_TOO_MUCH_WHILE)
        return 0


cdef long MAX_WORK_C = _MAX_WORK  # the work budget as a C number: compared at every round of a loop
if MAX_WORK_C < 4096:  # _support.pxd's spin() lets a decision's first 4,096 rounds go unchecked
    raise ImportError(f"the work budget ({MAX_WORK_C:,}) must allow a decision 4,096 rounds of a loop")
cdef long long _LOW32 = (<long long>1 << 32) - 1  # the low half of a C number (a literal past 2**31 is a Python int)


cdef inline bint _plain_id(object action_id):
    """Whether an action id given from Python can be looked for among the keys in C (else the
    Python way reads it, and refuses it with the reason)."""
    cdef int overflow = 0
    cdef long long v
    if type(action_id) is not int:
        return False
    v = PyLong_AsLongLongAndOverflow(action_id, &overflow)  # read in C: no Python comparison
    return overflow == 0 and 0 <= v < (<long long>1 << 62)


cdef inline long long plain_id(long long first, long long low, long long span, long a) noexcept:
    """The id of a move of an action of one plain argument: its first id, its argument's lowest
    value and how many values it takes (plan row kind 2: row[1], row[2], row[3]); -1 outside."""
    return first + a - low if 0 <= a - low < span else -1


cdef inline long long pair_id(long long first, long long low_a, long long span_a, long long low_b,
                              long long span_b, long long stride, long a, long b) noexcept:
    """The id of a move of an action of two plain arguments (plan row kind 3: row[1] to
    row[6]); -1 outside."""
    return first + (a - low_a) * stride + b - low_b if 0 <= a - low_a < span_a and 0 <= b - low_b < span_b else -1


cdef inline long long one_plain_id(const long long* row, long a) noexcept:
    """plain_id by a plan row of kind 2."""
    return plain_id(row[1], row[2], row[3], a)


cdef inline long long two_plain_id(const long long* row, long a, long b) noexcept:
    """pair_id by a plan row of kind 3."""
    return pair_id(row[1], row[2], row[3], row[4], row[5], row[6], a, b)


cdef long long id_of_key(long keys_tag, long key, const long long* plan) noexcept:
    """The action id of a key of the buffer, by the action space's plan (-1: not a plain
    move, or outside its domain: the Python way says which). A call, not inline: key_id
    answers the common cases in the loops, and this one inlined there crowded them."""
    cdef long tag, a, b, c
    cdef const long long* row
    unpack(keys_tag, key, &tag, &a, &b)
    row = plan + 8 * tag
    if row[0] == 2:  # one plain argument (the most common action: asked first)
        return one_plain_id(row, a)
    if row[0] == 1:  # no arguments
        return row[1]
    if row[0] == 6:  # three plain arguments, a key laid out apart
        unpack3(key, &a, &b, &c)
        if not (0 <= a - row[2] < row[3] and 0 <= b - row[4] < row[5] and 0 <= c - row[6] < row[7]):
            return -1
        return row[1] + ((a - row[2]) * row[5] + b - row[4]) * row[7] + c - row[6]
    if row[0] == 4:  # a line move: its head, direction and length (as the action space reads them)
        b = ((a >> 15) * row[4] + ((a >> 12) & 7)) * row[5] + ((a >> 6) & 63)
        return row[1] + b if a >= 0 and 0 <= b < row[3] and ((a >> 6) & 63) < row[5] else -1
    if row[0] == 5:  # a group: its colour and first cell
        b = (((a >> 24) & 255) - 1) * row[4] + ((a >> 12) & 4095)
        return row[1] + b if a >= 0 and 0 <= b < row[3] else -1
    if row[0] == 0:  # another shape: through tuples
        return -1
    return two_plain_id(row, a, b)  # two plain arguments


cdef list _ids_list(NativeCore s, Py_ssize_t n):
    """A list of n empty places for legal_action_ids to fill: the list it gave last time when
    nobody holds it any more (the state alone does: the caller let it go), its ids let go,
    else a new one, kept for next time. A loop that asks for the ids at every move (an agent's,
    perft's) then makes and frees no list per move: in CPython a new list is two allocations,
    and freeing it a loop over its items."""
    cdef PyObject* last = <PyObject*>s._ids_out
    cdef PyListObject* kept
    cdef PyObject* item
    cdef list out
    cdef Py_ssize_t i
    if s._ids_out is not None and Py_REFCNT(last) == 1 and (<PyListObject*>last).allocated >= n:
        out = s._ids_out  # held while its items go: an item's __del__ that asks again gets a new list
        kept = <PyListObject*>last
        for i in range(PyList_GET_SIZE(out)):  # (what a caller may have put there, too)
            item = kept.ob_item[i]
            kept.ob_item[i] = NULL
            Py_XDECREF(item)
        Py_SET_SIZE(out, n)
        return out
    out = PyList_New(n)
    s._ids_out = out
    return out


# the ids up to 4,095 made once: legal_action_ids hands them out with no int made per id
cdef Py_ssize_t _NIDS = 4096
cdef tuple _IDS = tuple(range(_NIDS))
# per id below 4,096, the place among its state's keys where legal_action_ids last found it (any
# state's: a hint, checked against the keys of the state that reads it before it is trusted)
cdef int _AT_ID[4096]


cdef inline Py_ssize_t _fill_ids(PyObject** slots, signed char* mask, Py_ssize_t nids, const long* keys,
                                 Py_ssize_t n, long keys_tag, const long long* plan) noexcept:
    """The loop of legal_action_ids and of a batch's masks: each key's id, as its shared int into
    ``slots`` (a new list's n places), or as a 1 in ``mask`` (zeroed, ``nids`` long) when it is
    given, in locals that no write to the list or the mask can alias. How many keys it took: it
    stops at a key whose id is not a plain one below ``nids``, left to the caller's careful
    loop. Keys of one action of one plain argument (a cell, a column) take a loop of their own."""
    cdef PyObject** ids = PySequence_Fast_ITEMS(_IDS)
    cdef const long long* row
    cdef long long v, kind = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0
    cdef long key, last, a, b
    cdef Py_ssize_t i
    if keys_tag >= 0 and plan[8 * keys_tag] == 2:
        row = plan + 8 * keys_tag
        r1, r2, r3 = row[1], row[2], row[3]
        if r1 < 0 or r1 + r3 > nids:  # (every id of the action is a shared one: no check per key)
            return 0
        for i in range(n):
            v = plain_id(r1, r2, r3, keys[i])
            if v < 0:
                return i
            _take(slots, mask, ids, i, v)
        return n
    if keys_tag >= 0:
        for i in range(n):
            v = key_id(keys_tag, keys[i], plan)
            if not 0 <= v < nids:
                return i
            _take(slots, mask, ids, i, v)
        return n
    i = 0
    while i < n:  # packed keys, in runs of one action: its row read once, a tight loop per kind
        last = keys[i] & 255
        row = plan + 8 * last
        kind, r1, r2, r3 = row[0], row[1], row[2], row[3]
        if kind == 2 and 0 <= r1 and r1 + r3 <= nids:  # one plain argument, every id a shared one
            while i < n and keys[i] & 255 == last:
                a = ((keys[i] >> 8) & KEY_MASK) - KEY_HALF
                if not 0 <= a - r2 < r3:
                    return i
                _take(slots, mask, ids, i, r1 + a - r2)
                i += 1
            continue
        r4, r5, r6 = row[4], row[5], row[6]
        if kind == 3 and 0 <= r1 and 0 <= r6 and r1 + r3 * r6 <= nids and r5 <= r6:
            # two plain arguments, every id a shared one (the last: r1 + (r3 - 1) * r6 + r5 - 1)
            while i < n and keys[i] & 255 == last:
                key = keys[i]
                a = ((key >> 8) & KEY_MASK) - KEY_HALF - r2
                b = ((key >> 35) & KEY_MASK) - KEY_HALF - r4
                if not (0 <= a < r3 and 0 <= b < r5):
                    return i
                _take(slots, mask, ids, i, r1 + a * r6 + b)
                i += 1
            continue
        v = r1 if kind == 1 else id_of_key(keys_tag, keys[i], plan)
        if not 0 <= v < nids:
            return i
        _take(slots, mask, ids, i, v)
        i += 1
    return n


cdef inline void _take(PyObject** slots, signed char* mask, PyObject** ids, Py_ssize_t i, long long v) noexcept:
    """_fill_ids' sink: a 1 at the id in the mask, or the id's shared int into place i (and i
    noted as where id v was, for advance_id to look there first: _key_of_id)."""
    if mask != NULL:
        mask[v] = 1
    else:
        _put_id(slots, i, ids[v])
        _AT_ID[v] = <int>i


cdef inline void _put_id(PyObject** slots, Py_ssize_t i, PyObject* item) noexcept:
    """A shared id into place i of a new list (which takes the reference)."""
    Py_INCREF(<object>item)
    slots[i] = item


cdef inline long long key_id(long keys_tag, long key, const long long* plan) noexcept:
    """id_of_key with its most common cases inline (an action of one plain argument: the key's
    argument and an offset; of two: a cell and a direction, a square and a twist...); the
    others through id_of_key."""
    cdef long tag = keys_tag if keys_tag >= 0 else key & 255
    cdef long a = key if keys_tag >= 0 else ((key >> 8) & KEY_MASK) - KEY_HALF
    cdef const long long* row = plan + 8 * tag
    if row[0] == 2:
        return one_plain_id(row, a)
    if row[0] == 3 and keys_tag < 0:
        return two_plain_id(row, a, ((key >> 35) & KEY_MASK) - KEY_HALF)
    return id_of_key(keys_tag, key, plan)


# ---- the generator in C ----
cdef unsigned long long mixed(object seed) except? 0:
    """rng.mix(seed) in C: any whole number taken modulo 2**64 first, as the mask there does."""
    if type(seed) is not int:
        return _Rng(seed).state
    return mix64(PyLong_AsUnsignedLongLongMask(seed))


cdef object rng_at(unsigned long long state):
    """An Rng in that state, without running Rng.__init__ (a Python function)."""
    cdef object rng = fresh(_Rng, ())
    rng.state = state
    return rng


# Where an Rng keeps its state (its one slot), read off the slot's descriptor once: play()'s
# keep and a copy move the state's number from slot to slot, with no attribute looked up.
cdef object _RNG_TYPE = _Rng
cdef Py_ssize_t _RNG_STATE_AT = _CK.slot_at(_Rng, "state")


cdef int keep_rng(object into, object source) except -1:
    """``into.state = source.state`` for play()'s keep: slot to slot when both are Rngs."""
    cdef PyObject* value
    if type(into) is not _RNG_TYPE or type(source) is not _RNG_TYPE or _RNG_STATE_AT < 0:
        into.state = source.state
        return 0
    value = _CK.slot_value(source, _RNG_STATE_AT)
    if value == NULL:
        raise AttributeError("state")
    return _CK.put_slot(into, _RNG_STATE_AT, value)


cdef object rng_copy(object source):
    """A new Rng in ``source``'s state (a state's copy), made in C."""
    cdef object rng = fresh(_Rng, ())
    keep_rng(rng, source)
    return rng


cdef list neighbour_list(const short[::1] table, long deg, long at):
    """ops.neighbours in C: the cells a table of neighbours (or leaps) gives for a cell."""
    cdef long k, there
    cdef list out = []
    if at < 0:
        raise ValueError("there is no cell here (none) to look around")
    if at * deg + deg > table.shape[0]:
        raise IndexError("no such cell")
    for k in range(deg):
        there = table[at * deg + k]
        if there >= 0:
            out.append(there)
    return out


# ---- the moves kernels and the rules' code list, as keys ----
cdef inline bint _fits(object v, long* out) noexcept:
    """Whether v is a whole number that fits a packed key (then stored in out)."""
    return _CK.small_int(v, out) and -KEY_HALF <= out[0] < KEY_HALF


cdef int push_move(NativeCore s, object move) except -1:
    """A move tuple made by the rules' code, as its key."""
    cdef long parts[4]
    cdef Py_ssize_t n, i
    if type(move) is not tuple or len(move) > 4 or len(move) == 0:
        s._keys_wide = True
        return 0
    n = len(move)
    parts[0] = parts[1] = parts[2] = parts[3] = 0
    for i in range(n):
        if not _fits(move[i], &parts[i]):
            s._keys_wide = True
            return 0
    if n == 4:
        return push3(s, parts[0], parts[1], parts[2], parts[3])
    return push(s, parts[0], parts[1], parts[2])


cdef int push_moves(NativeCore s, object moves) except -1:
    for move in moves:
        push_move(s, move)
    return 0


cdef int push_tagged(NativeCore s, long tag, object values, bint distinct) except -1:
    """K.tagged(tag, values, distinct) as keys: each value (each once, in first-seen order)."""
    cdef Py_ssize_t first = s._nkeys, i
    cdef long key, value
    cdef list items = values if type(values) is list else list(values)
    for v in items:
        if not _fits(v, &value):
            s._keys_wide = True
            return 0
        push(s, tag, value, 0)
        if distinct:
            key = s._keys[s._nkeys - 1]
            for i in range(first, s._nkeys - 1):
                if s._keys[i] == key:
                    s._nkeys -= 1
                    break
    return 0


cdef int push_cells(NativeCore s, long tag, bytearray grid, bint filled) except -1:
    """K.tagged(tag, K.empty_cells(grid)) (or filled_cells) as keys, from the grid's bytes."""
    cdef const unsigned char* cells = <const unsigned char*>PyByteArray_AS_STRING(grid)
    cdef Py_ssize_t i, j, n = len(grid), k
    cdef long* keys
    cdef long first
    cdef unsigned long long word, kept, flip
    if n >= KEY_HALF:  # (a cell past what a packed key holds: push marks the step wide)
        for i in range(n):
            if (cells[i] != 0) == filled:
                push(s, tag, i, 0)
        return 0
    room_for(s, n)  # for every cell at once: no check per key
    keys, k, first = s._keys, s._nkeys, packed(tag, 0, 0)
    flip = 0 if filled else 0x8080808080808080ULL
    i = 0
    while i + 8 <= n:  # eight cells at a time: which are kept, found for all eight at once
        memcpy(&word, cells + i, 8)
        # 0x80 in each byte of a filled cell (a carry into the top bit of a nonzero byte), then
        # flipped to each byte of an empty one when the empty cells are listed
        kept = ((word | ((word & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL)) & 0x8080808080808080ULL) ^ flip
        for j in range(8):  # written at every cell, kept where the cell is one (no branch)
            keys[k] = first + ((i + j) << 8)  # packed(tag, i + j, 0)
            k += (<unsigned char*>&kept)[j] >> 7  # byte j of the word is cell i + j, either endianness
        i += 8
    for i in range(i, n):
        keys[k] = first + (i << 8)
        k += (cells[i] != 0) == filled
    s._nkeys = k
    return 0


cdef int push_product(NativeCore s, long tag, object firsts, object seconds, bint distinct) except -1:
    """K.tagged_product(tag, firsts, seconds) as keys; with ``distinct``, of the distinct values
    of each (in first-seen order, as dict.fromkeys gives them), found in C."""
    cdef list xs = firsts if type(firsts) is list else list(firsts)
    cdef list ys = seconds if type(seconds) is list else list(seconds)
    cdef long a[64]
    cdef long b[64]
    cdef Py_ssize_t na = 0, nb = 0, i, j, k
    cdef long* keys
    if len(xs) > 64 or len(ys) > 64:
        if distinct:
            xs, ys = _CK.distinct(xs), _CK.distinct(ys)
        if len(xs) * len(ys) > _MAX_PAIRS:
            raise ValueError(_TOO_MANY_PAIRS)
        for x in xs:
            for y in ys:
                if not (_fits(x, &a[0]) and _fits(y, &b[0])):
                    s._keys_wide = True
                    return 0
                push(s, tag, a[0], b[0])
        return 0
    na = _small_values(xs, a, distinct)
    nb = _small_values(ys, b, distinct) if na >= 0 else -1
    if na < 0 or nb < 0:
        s._keys_wide = True
        return 0
    room_for(s, na * nb)  # every key at once: each value fits (_small_values said so)
    keys, k = s._keys, s._nkeys  # in locals: a write to the buffer may alias the state
    for i in range(na):
        for j in range(nb):
            keys[k] = packed(tag, a[i], b[j])
            k += 1
    s._nkeys = k
    return 0


cdef int push_cells_product(NativeCore s, long tag, bytearray grid, bint filled, object seconds) except -1:
    """K.tagged_product(tag, the grid's empty (filled) cells, seconds) as keys: the cells found
    in the grid's bytes, with no list of them made (a cell and a twist, a cell and a kind)."""
    cdef const unsigned char* cells = <const unsigned char*>PyByteArray_AS_STRING(grid)
    cdef Py_ssize_t n = len(grid), i, j, k, nb
    cdef long b[64]
    cdef long* keys
    cdef list ys = seconds if type(seconds) is list else list(seconds)
    if n >= KEY_HALF or len(ys) > 64:  # (as the kernel's list would be, then the general way)
        firsts = [i for i in range(n) if (cells[i] != 0) == filled]
        return push_product(s, tag, firsts, ys, False)
    nb = _small_values(ys, b, False)
    if nb < 0:
        s._keys_wide = True
        return 0
    room_for(s, n * nb)  # room for every cell's keys at once
    keys, k = s._keys, s._nkeys
    for i in range(n):  # every cell's keys written, kept where the cell is one (no branch to mispredict)
        for j in range(nb):
            keys[k + j] = packed(tag, i, b[j])
        k += nb * ((cells[i] != 0) == filled)
    s._nkeys = k
    return 0


cdef Py_ssize_t _small_values(list values, long* out, bint distinct) except -2:
    """The values (at most 64) as C numbers into ``out``, each once with ``distinct`` (in
    first-seen order): how many, or -1 when one does not fit a key."""
    cdef Py_ssize_t n = 0, i
    for v in values:
        if not _fits(v, &out[n]):
            return -1
        if distinct:
            for i in range(n):
                if out[i] == out[n]:
                    break
            else:
                n += 1
        else:
            n += 1
    return n


# ---- keys and move tuples ----
cdef object move_of_key(const unsigned char* arity, long keys_tag, long key):
    """The move tuple of a key: of action ``keys_tag`` (a kernel's keys of one action), or
    packed (``keys_tag`` -1), whose action has ``arity[tag]`` arguments."""
    cdef long tag, a, b, c
    if keys_tag >= 0:  # a kernel's keys of one action
        return _CK.pair(keys_tag, key)
    unpack(keys_tag, key, &tag, &a, &b)
    if arity[tag] == 0:
        return (tag,)
    if arity[tag] == 1:
        return _CK.pair(tag, a)
    if arity[tag] == 3:
        unpack3(key, &a, &b, &c)
        return (tag, a, b, c)
    return _CK.triple(tag, a, b)


cdef int key_of_move(const unsigned char* arity, long keys_tag, object move, long* key) except -1:
    """The key a move tuple of whole numbers has among keys of action ``keys_tag`` (or packed:
    -1), into ``key``: 1. 2: it is no key of these; 0: not whole numbers (compare tuples). Its
    numbers are read into C once (play() reads every move it is given here)."""
    cdef Py_ssize_t size, i
    cdef long long v[4]
    cdef long tag, n
    cdef int overflow
    if not isinstance(move, tuple):
        return 0
    size = PyTuple_GET_SIZE(move)
    for i in range(size):
        if type(<object>PyTuple_GET_ITEM(move, i)) is not int:
            return 0
    if size < 1 or size > 4:
        return 2
    for i in range(size):
        v[i] = PyLong_AsLongLongAndOverflow(<object>PyTuple_GET_ITEM(move, i), &overflow)
        if overflow:
            return 2
    if not 0 <= v[0] < 256:
        return 2
    tag = <long>v[0]
    if keys_tag >= 0:
        if size != 2 or tag != keys_tag or not -KEY_HALF <= v[1] < KEY_HALF:
            return 2
        key[0] = <long>v[1]
        return 1
    n = arity[tag]
    if size != n + 1:
        return 2
    if n == 3:
        for i in range(1, 4):
            if not -KEY3_HALF <= v[i] < KEY3_HALF:
                return 2
        key[0] = packed3(tag, <long>v[1], <long>v[2], <long>v[3])
        return 1
    for i in range(1, size):
        if not -KEY_HALF <= v[i] < KEY_HALF:
            return 2
    key[0] = packed(tag, <long>v[1] if n >= 1 else 0, <long>v[2] if n == 2 else 0)
    return 1


cdef class KeyMoves:
    """A decision's legal moves as its keys, copied (a snapshot), each made into its move tuple,
    or its Move, when read: ``legal_moves()`` of a keyed step natively (a regle.runtime.Moves),
    and what play() looks a move up in."""

    cdef long* keys  # ``few`` when they fit there, else their own memory
    cdef long few[16]  # the keys of a decision of 16 moves or fewer: no allocation
    cdef Py_ssize_t n
    cdef long tag
    cdef const unsigned char* arity  # of the engine's actions (its module keeps the bytes)
    cdef object move  # the Move class each is made into (None: plain tuples)
    #: None: no two notations can read alike; else each Move reads its notation here, where
    #: the decision's are told apart when the first is read (True until then, then a list)
    cdef object told

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        cdef Py_ssize_t k
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.n))]
        k = i
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("move index out of range")
        return self._at(k)

    cdef object _at(self, Py_ssize_t k):
        m = move_of_key(self.arity, self.tag, self.keys[k])
        if self.move is None:
            return m
        if self.told is None:
            return retyped(self.move, m)  # self.move(m), made in C
        if is_told(self.move):  # a told move (told_key_class): it holds this decision, past its items
            return told(self.move, m, self)
        m = retyped(self.move, m)  # a Move of Move.told_class(): it reads its notation here
        PyObject_GenericSetDict(m, {"moves": self, "at": k}, NULL)  # one dict, made whole
        return m

    def notation_at(self, Py_ssize_t k):
        """The notation of move ``k``, told apart from the others' (Moves.notation_at)."""
        cdef list legal
        if self.told is True:
            legal = [move_of_key(self.arity, self.tag, self.keys[i]) for i in range(self.n)]
            self.told = _told_apart(legal, self.move)[1]
        return self.told[k]

    def __iter__(self):
        cdef Py_ssize_t k
        for k in range(self.n):
            yield self._at(k)

    def __contains__(self, move):
        try:
            self.index(move)
        except (ValueError, TypeError):
            return False
        return True

    def index(self, move, start=0, stop=None):
        """The position of a move tuple among the keys (its key computed, then looked for);
        ValueError when it is not one of them."""
        cdef long key
        cdef Py_ssize_t k, lo, hi
        cdef int found = key_of_move(self.arity, self.tag, move, &key)
        lo, hi, _ = slice(start, stop).indices(self.n)  # as list.index reads them (never outside the keys)
        if found == 0:  # 1.0, True...: compared by ==
            for k in range(lo, hi):
                if move_of_key(self.arity, self.tag, self.keys[k]) == move:
                    return k
        elif found == 1:
            for k in range(lo, hi):
                if self.keys[k] == key:
                    return k
        raise ValueError("not one of these moves")

    def count(self, move):
        return 1 if move in self else 0

    def __eq__(self, other):
        if isinstance(other, (list, tuple, _Moves)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        return repr(list(self))

    def __reduce__(self):  # pickled (and copied) as the Moves it stands for
        return _Moves, (list(self),)

    def __dealloc__(self):
        if self.keys != &self.few[0]:
            PyMem_Free(self.keys)


_Moves.register(KeyMoves)


def told_key_class(move: type) -> type:
    """The class of the moves ``legal_moves()`` makes natively in a decision whose notations
    may read alike (made once per engine, from its Move class). Each holds its decision past
    its items, not in a dict (see regle_told), and reads its notation there when it is read;
    it is equal to the plain move, and copied and pickled as the named move it reads as.
    Move.told_class() (a dict per move) where this Python lays classes out otherwise."""
    cls = move.__dict__.get("_told_key_class")
    if cls is None:
        cls = type(move.__name__, (move,), {
            "__slots__": (), "__module__": move.__module__, "__qualname__": move.__qualname__, "__str__": _told_notation,
            "__reduce__": lambda self: (move.named, (tuple(self), str(self)))})
        if not make_told(cls):
            cls = move.told_class()
        move._told_key_class = cls
    return cls


def _told_notation(move) -> str:
    """A told move's notation, told apart from its decision's others (KeyMoves.notation_at);
    one made by its class's own __new__ has no decision: its plain notation."""
    cdef PyObject* decision = told_decision(move)
    cdef KeyMoves moves
    if decision is NULL:
        return _Move.__str__(move)
    moves = <KeyMoves>decision
    return moves.notation_at(moves.index(move))


cdef object key_moves(NativeCore s, object move, bint told=False):
    """The keys of ``s``'s decision, copied, as a sequence of moves (``move``: their class;
    ``told``: two of their notations may read alike, and ``move`` is the engine's
    Move.told_class(), see KeyMoves.told)."""
    cdef KeyMoves out = KeyMoves.__new__(KeyMoves)
    if s._nkeys <= 16:
        out.keys = &out.few[0]
    else:
        out.keys = <long*>PyMem_Malloc(s._nkeys * sizeof(long))
    if out.keys == NULL:
        raise MemoryError()
    memcpy(out.keys, s._keys, s._nkeys * sizeof(long))
    out.n, out.tag, out.arity, out.move = s._nkeys, s._keys_tag, s._arities(), move
    out.told = True if told and move is not None else None  # then ``move`` is Move.told_class()
    return out


include "_support_batch.pxi"
include "_support_new.pxi"


# ---- for the tests: the inline scans of native engines, held to the kernels they stand for ----
def cells_pushed(bytearray grid, bint filled, long tag, long before, object seconds=None):
    """``push_cells``: the cells whose keys a listing of the grid's empty (filled) cells pushes,
    after ``before`` keys already there (those kept as they were), read back from the keys;
    with ``seconds``, ``push_cells_product``'s (cell, second) pairs."""
    cdef NativeCore s = NativeCore.__new__(NativeCore)
    cdef Py_ssize_t i
    for i in range(before):
        push(s, tag, i, 0)
    if seconds is None:
        push_cells(s, tag, grid, filled)
    else:
        push_cells_product(s, tag, grid, filled, seconds)
    if any(s._keys[i] != packed(tag, i, 0) for i in range(before)):
        raise AssertionError("a key pushed before was overwritten")
    if seconds is None:
        return [(s._keys[i] - packed(tag, 0, 0)) >> 8 for i in range(before, s._nkeys)]
    return [(((s._keys[i] >> 8) & KEY_MASK) - KEY_HALF, ((s._keys[i] >> 35) & KEY_MASK) - KEY_HALF)
            for i in range(before, s._nkeys)]


def span_of(long kinds, long kind, long owner):
    """(holding_low, holding_high): the span of bytes a native scan for ``K.cells_holding(g,
    kinds, kind, owner)`` tests (ops.holding_span is its twin)."""
    return holding_low(kinds, kind, owner), holding_high(kinds, kind, owner)


def first_of(object grid, long kinds, long kind, long owner):
    """``first_in``: K.first_holding as a native engine searches a grid of elements inline."""
    return first_in(grid, kinds, kind, owner)


def lane_count_of(object grid, long lanes, long height, long lane):
    """``lane_count``: K.lane_count as a native engine counts it inline (the C library's search)."""
    return lane_count(grid, lanes, height, lane)


def lane_open_of(object grid, long lanes, long height, long lane):
    """``lane_open``: K.lane_count(G, l) < height as a native engine tests it inline."""
    return lane_open(grid, lanes, height, lane)


def flanked_count_of(object grid, object table, long deg, long cell, long value, long d):
    """``flanked_count``: K.flanked_count as a native engine counts it inline."""
    return flanked_count(grid, table, deg, cell, value, d)


def scan_span(object grid, long low, long high, bint bits=False):
    """The cells a native engine's scan walks for a span of bytes, in order: ``next_in_span``
    from each cell found to the next (ops.next_in_span is its twin); with ``bits``, as a keyed
    generator or an aggregate walks them: the cells taken as bits first (span_bits), then
    from bit to bit (bits_after)."""
    cdef unsigned long long words[64]
    cdef Py_ssize_t nw = span_bits(grid, low, high, words) if bits else 0
    cdef Py_ssize_t c = bits_after(words, nw, -1) if bits else next_in_span(grid, 0, low, high)
    out = []
    while c >= 0:
        out.append(c)
        c = bits_after(words, nw, c) if bits else next_in_span(grid, c + 1, low, high)
    return out


def float_row(list values):
    """``floats_of``: a list of numbers as the float32 array a native observation returns."""
    numpy_here()
    return _frombuffer(floats_of(values), _float32)


def keep_list_into(list into, list source):
    """``keep_list``: into[:] = source as play()'s rollback copy keeps a zone, in C."""
    keep_list(into, source)
