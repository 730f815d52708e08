# Included by _kernels.pyx (one compiled module): lines and pushes, board queries (runs, outflanking, connection, slides, liberties, pieces held).
# The pure-Python twins are the same section of kernels.py.

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
    list made); returns how many. Every cell is written and the count moves on only past the
    ones taken: no branch (a branch per cell, taken as at random on a board in play, is
    mispredicted about every other cell, and costs more than the write)."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t c, count = 0, n = _len(cells_obj)
    cdef long* out
    cdef unsigned char want = 1 if filled else 0
    if n > cap[0]:
        _grow(keys, cap, n)
    out = keys[0]
    for c in range(n):  # (count <= c < n <= the buffer's capacity: every write is in it)
        out[count] = c
        count += (cells[c] != 0) == want
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
    padded with equal bytes. Thirty-two cells that did not change are passed over with one test
    (a stone placed on a large board is one word that differs among dozens)."""
    cdef unsigned long long now, then, a0, a1, a2, a3, b0, b1, b2, b3
    cdef Py_ssize_t k
    while c + 32 <= size:
        memcpy(&a0, cells + c, 8)
        memcpy(&a1, cells + c + 8, 8)
        memcpy(&a2, cells + c + 16, 8)
        memcpy(&a3, cells + c + 24, 8)
        memcpy(&b0, board + c, 8)
        memcpy(&b1, board + c + 8, 8)
        memcpy(&b2, board + c + 16, 8)
        memcpy(&b3, board + c + 24, 8)
        if (a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2) | (a3 ^ b3):
            break  # one of these four words differs: found below, a word at a time
        c += 32
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


cpdef bint in_a_row_bits(object cells_obj, bytes bits, int value, int n) except -1:
    """in_a_row on a board whose lines ``bits`` describes (ops.line_bits: at most 64 cells, each
    line's step the same from every cell): the cells holding ``value`` as the bits of one
    number; along each line, a run of k + 1 starts where a run of k does and the next cell
    that way starts one of k: n - 1 shifts and masks per line, no cell walked."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef Py_ssize_t size = _len(cells_obj), i, lines
    cdef const unsigned char* b
    cdef uint64_t x = 0, run, mask, want, word, found = 0
    cdef long long step
    cdef int k
    if size > 64:
        raise ValueError("a board of more than 64 cells has no line bits")
    if bits is None:
        raise TypeError("no line bits")
    if value < 0 or value > 255:
        return False  # no cell holds it
    want = (<uint64_t>value) * 0x0101010101010101ULL
    i = 0
    while i + 8 <= size:  # eight cells at a time: a byte that holds the value is 0 after the xor,
        memcpy(&word, cells + i, 8)  # its top bit set below, the eight top bits gathered by a product
        word ^= want
        word = ~(((word & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL) | word) & 0x8080808080808080ULL
        x |= (((word >> 7) * 0x0102040810204080ULL) >> 56) << i
        i += 8
    while i < size:
        x |= (<uint64_t>(cells[i] == value)) << i
        i += 1
    if x == 0 or n <= 1:
        return x != 0
    b = <const unsigned char*>PyBytes_AS_STRING(bits)
    lines = PyBytes_GET_SIZE(bits) // 16
    for i in range(lines):  # no test inside: a run that dies stays 0 (a branch taken at random,
        memcpy(&step, b + 16 * i, 8)  # as a run's death is, costs more than the shifts it saves)
        memcpy(&mask, b + 16 * i + 8, 8)
        if step <= -64 or step >= 64 or step == 0:
            raise ValueError("line bits of a step off the board")
        mask &= x  # the cells of the value with a neighbour this way
        run = x
        if step > 0:
            for k in range(n - 1):
                run = mask & (run >> step)
        else:
            for k in range(n - 1):
                run = mask & (run << (-step))
        found |= run
    return found != 0


cpdef object in_a_row_since(object cells_obj, bytearray memo, object adj_obj, int deg, int value, int n):
    """in_a_row, looking only at the cells that changed since it last answered False for this
    value: ``memo`` keeps, per value 1, 2, ..., a flag and the board as it was then (a line
    that was not there must run through a cell that changed). The same answer as in_a_row."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = _len(cells_obj), c = 0, at
    cdef unsigned long long diff = 0
    cdef int b, words = 0
    cdef Py_ssize_t changed[16]  # where the words that changed start (the first 16)
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
        if words < 16:
            changed[words] = c
        words += 1
        while diff:
            b = next_byte(&diff)
            at = c + b
            if cells[at] == value and m[1 + at] != value and _run_through(cells, adj, deg, <int>at, value, n):
                return True  # (nothing remembered: the board stays as it was at the last False)
        c += 8
    if words > 16 or not m[0]:
        copy_small(m + 1, cells, size)
    else:  # only the words that changed are remembered anew (a move changes one or two)
        for b in range(words):
            c = changed[b]
            memcpy(m + 1 + c, cells + c, 8 if c + 8 <= size else size - c)
    m[0] = 1
    return False


cdef int lines_written(object cells_obj, object adj_obj, int deg, int value, int n, const short* ring,
                       unsigned int start, unsigned int end, unsigned int mask) except -1:
    """Whether a line of ``n`` cells holding ``value`` runs through one of the cells noted in a
    journal of written cells, ``ring[start & mask]`` to ``ring[(end - 1) & mask]`` (1: one
    does, 0: none does), in_a_row's answer where the lines it did not find before all run
    through a cell written since; 2 when a cell noted is not on the board (the caller then
    compares the whole board). Each line is walked from the cell (_run_through: a walk that
    stops at the first cell of another value beats reading n - 1 cells each way without
    tests, measured on boards of Connect Four)."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = _len(cells_obj)
    cdef int c
    if Py_SIZE(adj_obj) < size * deg:
        raise ValueError("the table is smaller than the board")
    while start != end:
        c = ring[start & mask]
        if c < 0 or c >= size:
            return 2
        if cells[c] == value and _run_through(cells, adj, deg, c, value, n):
            return 1
        start += 1
    return 0


def lines_written_of(object cells, object adj, int deg, int value, int n, list written):
    """``lines_written`` from Python, for tests: the cells ``written`` (at most 16) as a journal."""
    cdef short ring[16]
    cdef unsigned int k
    if len(written) > 16:
        raise ValueError("a journal holds 16 cells")
    for k in range(len(written)):
        ring[k] = written[k]
    return lines_written(cells, adj, deg, value, n, ring, 0, len(written), 15)


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
                board[at] = cells[at]  # remembered as it is now (no copy of the whole board after)
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
        if whole:  # (otherwise every byte that changed was remembered as it was found)
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
    if PyByteArray_Check(value) or PyBytes_Check(value):
        h = fnv_span(h, _ro(value), len(value))
        return (h ^ 0xFF) * _FNV_PRIME
    if isinstance(value, (list, tuple, array.array)):  # an array: a grid of numbers, natively
        if depth > 4:
            raise ValueError("a position nested too deeply")
        h = _fnv(h, len(value), depth + 1)
        for item in value:
            h = _fnv(h, item, depth + 1)
        return h
    return fnv_number(h, <uint64_t>(<long long>value))


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


cpdef list met(object cells_obj, object adj_obj, int deg, int cell, int d):
    cdef int at = _slide_into(cells_obj, adj_obj, deg, cell, d, None, "slide")
    return [at] if at >= 0 else []


cpdef long blocker(object cells_obj, object adj_obj, int deg, int cell, int d) except -2:
    return _slide_into(cells_obj, adj_obj, deg, cell, d, None, "look")


cpdef list sides_touched(object cells, object on_side, int count, int n):
    """The sides (by number, in order) along which at least one of ``cells`` lies, read from
    ``on_side`` (``side * n + cell`` -> 1 where the cell lies along the side): ``sides(G, cells)``.
    A cell off the board lies along none."""
    cdef const long long[::1] table = on_side
    cdef unsigned long long found = 0
    cdef long c
    cdef int s
    if count > 64:
        raise ValueError("a board of more than 64 sides")
    if table.shape[0] < count * n:
        raise ValueError("the table of sides is too short")
    for item in cells:
        c = item
        if c < 0 or c >= n:
            continue
        for s in range(count):
            if table[s * n + c]:
                found |= (<unsigned long long>1) << s
    return [s for s in range(count) if (found >> s) & 1]


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


cpdef bint ring(object cells_obj, object adj_obj, int deg, object turns, int cell) except -1:
    """Whether the piece at ``cell`` closes a ring: a loop of cells holding what it holds,
    through ``cell``, turning at most one place of ``turns`` from step to step (kernels.ring is
    its twin): a depth-first search of the walks from ``cell``, each cell once on a walk."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t n = _len(cells_obj)
    cdef unsigned char on_walk[MAX_BOARD]
    cdef int at_[MAX_BOARD]
    cdef signed char came_[MAX_BOARD]
    cdef signed char tried_[MAX_BOARD]
    cdef int order[16]
    cdef int k = len(turns), first, start, top, at, way, nxt, colour, i
    if n > MAX_BOARD:
        raise ValueError("a board of more than 4,096 cells")
    if cell < 0 or cell >= n:
        raise ValueError("there is no cell here (none) to look for a ring from")
    if k > 16:
        raise ValueError("more than 16 directions around a cell")
    for i in range(k):
        order[i] = turns[i]
        if not 0 <= order[i] < deg:
            raise ValueError("a direction the board does not have")
    colour = cells[cell]
    if colour == 0 or k < 3:
        return False
    memset(on_walk, 0, n)
    on_walk[cell] = 1
    for first in range(k):
        start = adj[cell * deg + order[first]]
        if start < 0 or cells[start] != colour:
            continue
        on_walk[start] = 1
        at_[0], came_[0], tried_[0] = start, first, 0
        top = 1
        while top > 0:
            at = at_[top - 1]
            if tried_[top - 1] == 3:  # left, straight on and right all tried: back one step
                on_walk[at] = 0
                top -= 1
                continue
            way = (came_[top - 1] + tried_[top - 1] - 1 + k) % k
            tried_[top - 1] += 1
            nxt = adj[at * deg + order[way]]
            if nxt < 0 or cells[nxt] != colour:
                continue
            if nxt == cell:  # back at the start: a ring if leaving it again turns no more than once
                i = (first - way + k) % k
                if i == 0 or i == 1 or i == k - 1:
                    return True
                continue
            if on_walk[nxt]:
                continue
            on_walk[nxt] = 1
            at_[top], came_[top], tried_[top] = nxt, way, 0
            top += 1
    return False


cpdef long liberty_count(object cells_obj, object adj_obj, int deg, int cell, int limit=-1) except -1:
    cdef unsigned char mark[MAX_BOARD]
    cdef int stack[MAX_BOARD]
    return _liberties(_ro(cells_obj), _tab(adj_obj), _len(cells_obj), deg, cell, mark, stack, limit)


cpdef bytes neighbours_holding(object cells_obj, object adj_obj, int deg, long code):
    """One byte per cell: 1 where some neighbour (by the table) holds ``code``, else 0. What
    ``any(G[n] == code for n in neighbours(G, c))`` says of every cell c at once, for a move
    generator that asks it of many cells of one position (compiler/passes/neighbour_mask.py)."""
    cdef const unsigned char* cells = _ro(cells_obj)
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t n = _len(cells_obj), c
    cdef int d, x
    cdef bytes out
    cdef char* o
    if len(adj_obj) < n * deg:
        raise ValueError("a table of neighbours shorter than the board")
    out = PyBytes_FromStringAndSize(NULL, n)
    o = PyBytes_AS_STRING(out)
    memset(o, 0, n)
    if code < 0 or code > 255:  # no cell holds it
        return out
    for c in range(n):
        for d in range(deg):
            x = adj[c * deg + d]
            if 0 <= x < n and cells[x] == code:
                o[c] = 1
                break
    return out


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
