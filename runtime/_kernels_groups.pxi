# Included by _kernels.pyx (one compiled module): connectivity (groups), lanes with gravity, placements, the keys of groups and placements.
# The pure-Python twins are the same section of kernels.py.

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


cpdef long drop_into(object grid, int lanes, int height, int lane, long value, list taking, list overflow) except? -2:
    cdef unsigned char* cells = _rw(grid)
    if not 0 <= lane < lanes:
        raise ValueError(f"there is no lane {lane} (lanes are 0 to {lanes - 1})")
    cdef int row
    if taking is not None:
        if value not in taking:
            return -1
        taking.remove(value)
    if value + 1 < 1 or value + 1 > 255:
        raise ValueError(f"{value} can not go in a grid cell")
    row = _drop(cells, height, lane, <int>(value + 1))
    if row >= 0:
        return lane * height + row
    if overflow is None:
        raise ValueError(f"lane {lane} is full and the rules say nowhere for the overflow to go")
    overflow.append(value)
    return -1


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
