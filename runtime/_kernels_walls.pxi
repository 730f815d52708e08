# Included by _kernels.pyx (one compiled module): walls: the ways between a board's cells that no standing wall crosses.
# The pure-Python twins are the same section of kernels.py.

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
    """Marks the target cells (a cell, a list or tuple of cells, or a mask of the board's cells:
    bytes, not 0 where a cell is one) with 2."""
    cdef Py_ssize_t c
    cdef const unsigned char* mask
    if PyBytes_Check(to):
        mask = <const unsigned char*>PyBytes_AS_STRING(to)
        for c in range(min(size, PyBytes_GET_SIZE(to))):
            if mask[c]:
                mark[c] = 2
        return 0
    if isinstance(to, int):
        to = (to,)
    for t in to:
        c = t
        if c < 0:
            raise ValueError("there is no cell here (none) to go to")
        if c < size:
            mark[c] = 2
    return 0


cdef int _in_targets(object to, Py_ssize_t cell) except -1:
    """Whether ``cell`` is one of the targets (a cell, a list or tuple of cells, or a mask of the
    board's cells), read in C without marking a board; a target that is no cell (none) is
    refused, as the search does."""
    cdef Py_ssize_t i, n, c
    cdef bint found = False
    if PyBytes_Check(to):  # a mask of the board's cells
        return 0 <= cell < PyBytes_GET_SIZE(to) and (<const unsigned char*>PyBytes_AS_STRING(to))[cell] != 0
    if isinstance(to, int):
        c = to
        if c < 0:
            raise ValueError("there is no cell here (none) to go to")
        return c == cell
    if type(to) is list:
        n = PyList_GET_SIZE(to)
        for i in range(n):
            c = <object>PyList_GET_ITEM(to, i)
            if c < 0:
                raise ValueError("there is no cell here (none) to go to")
            if c == cell:
                found = True
        return found
    for t in to:
        c = t
        if c < 0:
            raise ValueError("there is no cell here (none) to go to")
        if c == cell:
            found = True
    return found


cdef int _walk_kept(const short* adj, int deg, Py_ssize_t size, const short* slots, const unsigned char* walls,
                    Py_ssize_t nwalls, const short* memo, Py_ssize_t base, int a, short* cells, int* cut,
                    bint whole=True) noexcept:
    """Where the way kept at ``memo[base]`` (its length in cells, its start, then the step taken
    out of each cell: an index into adj) ends, when it is a way of this board from a; -1 when
    it is not, or (unless ``whole``) when a wall cuts it. ``cut``: its first walled step (-1: it
    is open); ``cells`` (unless NULL): its cells."""
    cdef int length = memo[base], at = a, i, k
    cut[0] = -1
    if length < 2 or length > size or memo[base + 1] != a:
        return -1
    if cells != NULL:
        cells[0] = a
    for i in range(length - 1):
        k = memo[base + 2 + i]
        if k < at * deg or k >= at * deg + deg:
            return -1
        if cut[0] < 0 and not _open_step(slots, walls, nwalls, k):
            cut[0] = i
            if not whole:
                return -1
        at = adj[k]
        if at < 0 or at >= size:
            return -1
        if cells != NULL:
            cells[i + 1] = at
    return at


cdef int _repair(const short* adj, int deg, Py_ssize_t size, const short* slots, const unsigned char* walls,
                 Py_ssize_t nwalls, short* memo, int rows, int row, int a, object to,
                 unsigned char* mark, short* via, short* queue, short* pos, short* way) except -1:
    """The first way kept from a to a target that a wall now cuts, mended round the wall: from
    the cell before its first walled step, breadth first (in the twins' order) through cells off
    the way's start, to the first cell of the rest of the way or a target. The way mended goes
    first among those kept (the oldest kept goes) and 1 is returned; 0, nothing changed, when
    no kept way is cut so, or no mending is found (the full search decides)."""
    cdef int length, i, k, at, cut = -1, u, c, nb, meet = -1, head = 0, tail = 0, d, n, r
    cdef Py_ssize_t base = 0
    for r in range(rows):  # (the way's cells in queue, for a moment)
        base = r * row
        at = _walk_kept(adj, deg, size, slots, walls, nwalls, memo, base, a, queue, &cut)
        if at >= 0 and cut >= 0 and _in_targets(to, at):
            break
    else:
        return 0
    length = memo[base]
    memset(mark, 0, size)
    _mark_targets(to, mark, size)
    for i in range(cut + 1):
        if mark[queue[i]] == 2:  # a target before the cut: the full search decides
            return 0
    for i in range(cut + 1, length):  # the rest of the way: 3, where each cell stands on it
        mark[queue[i]] = 3
        pos[queue[i]] = i
    for i in range(cut + 1):  # the start of the way: passed over
        mark[queue[i]] = 1
    u = queue[cut]
    queue[0] = u
    tail = 1
    while head < tail and meet < 0:
        c = queue[head]
        head += 1
        for k in range(c * deg, c * deg + deg):
            nb = adj[k]
            if nb < 0 or mark[nb] == 1 or not _open_step(slots, walls, nwalls, k):
                continue
            via[nb] = k
            if mark[nb] >= 2:
                meet = nb
                break
            mark[nb] = 1
            queue[tail] = nb
            tail += 1
    if meet < 0:
        return 0
    d = 0
    at = meet
    while at != u:
        d += 1
        at = via[at] // deg
    n = cut + d + (length - 1 - pos[meet] if mark[meet] == 3 else 0)  # the steps of the way mended
    if n + 1 > size:
        return 0
    for i in range(cut):
        way[2 + i] = memo[base + 2 + i]
    at = meet
    for i in range(cut + d - 1, cut - 1, -1):
        way[2 + i] = via[at]
        at = via[at] // deg
    if mark[meet] == 3:
        for i in range(pos[meet], length - 1):
            k = memo[base + 2 + i]
            if not _open_step(slots, walls, nwalls, k):
                return 0
            way[2 + cut + d + i - pos[meet]] = k
    way[0] = n + 1
    way[1] = a
    memmove(memo + row, memo, (rows - 1) * row * sizeof(short))
    memcpy(memo, way, (n + 2) * sizeof(short))
    return 1


cdef int _walls_search(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to,
                       object memo_obj, bint shortest, object marks_obj=None) except -2:
    """The search behind walled_distance (the steps, -1 none), reachable (1 or 0, the way kept
    in memo) and mark_way (1 or 0, the walls the way found crosses marked in ``marks_obj``):
    breadth first from a, in the order the twins search."""
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = Py_SIZE(adj_obj) // deg if deg > 0 else 0
    cdef const short* slots = NULL
    cdef const unsigned char* walls = NULL
    cdef object keep = None
    cdef Py_ssize_t nwalls = 0
    cdef unsigned char mark[MAX_BOARD]
    cdef short via[MAX_BOARD]  # the step (an index into adj) each cell was reached by
    cdef short queue[MAX_BOARD]
    cdef short depth[MAX_BOARD]
    cdef short kept[MAX_BOARD + 1]
    cdef int head = 0, tail = 0, c, nb, k, i, length, at, r, rows = 0, base, row = 0, end, cut
    cdef short* memo = NULL
    cdef Py_ssize_t memo_size = 0
    if a < 0:
        raise ValueError("there is no cell here (none) to start from")
    if size > MAX_BOARD:
        raise ValueError("the board has more cells than a grid may")
    if a >= size:
        raise ValueError("the cell is not on the board")
    keep = _walls_view(slots_obj, walls_obj, &slots, &walls, &nwalls)
    if memo_obj is not None:
        if type(memo_obj) is not array.array or (<array.array>memo_obj).ob_descr.typecode != b'h':
            raise TypeError("the ways kept must be an array('h')")
        memo = (<array.array>memo_obj).data.as_shorts
        memo_size = Py_SIZE(memo_obj)
        if _in_targets(to, a):
            return 1
        # the ways kept from a, newest first: the first still open to a target is the answer
        row = size + 1
        rows = memo_size // row
        for r in range(rows if marks_obj is None else 0):  # (marks: a shortest way, which fewer walls cross)
            base = r * row
            end = _walk_kept(adj, deg, size, slots, walls, nwalls, memo, base, a, NULL, &cut, False)
            if end < 0 or not _in_targets(to, end):
                continue
            if r > 1:  # the way used goes first (the rows before it one down); from the
                # second row it stays, so that two starts asked in turn move nothing
                memcpy(kept, memo + base, row * sizeof(short))
                memmove(memo + row, memo, base * sizeof(short))
                memcpy(memo, kept, row * sizeof(short))
            return 1
        if rows and marks_obj is None and _repair(adj, deg, size, slots, walls, nwalls, memo, rows, row, a, to,
                                                  mark, via, queue, depth, kept):
            return 1
        if rows:  # the way found will go first, the oldest kept goes
            memmove(memo + row, memo, (rows - 1) * row * sizeof(short))
            memo[0] = 0
    memset(mark, 0, size)
    _mark_targets(to, mark, size)
    if mark[a] == 2:
        return 1 if not shortest else 0
    mark[a] = 1
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
            via[nb] = k
            depth[nb] = depth[c] + 1
            if mark[nb] == 2:
                if shortest:
                    return depth[nb]
                if marks_obj is not None:
                    _mark_crossed(marks_obj, slots, nwalls, via, deg, a, nb)
                if memo != NULL and rows:
                    length = depth[nb] + 1
                    memo[0] = length
                    memo[1] = a
                    at = nb
                    for i in range(length, 1, -1):
                        memo[i] = via[at]
                        at = via[at] // deg
                return 1
            mark[nb] = 1
            queue[tail] = nb
            tail += 1
    return -1 if shortest else 0


cdef int _mark_crossed(object marks_obj, const short* slots, Py_ssize_t nwalls, const short* via, int deg, int a,
                       int end) except -1:
    """Marks (1) in ``marks_obj`` each wall place the way from a to ``end`` crosses."""
    cdef unsigned char* marks = _rw(marks_obj)
    cdef Py_ssize_t size = PyByteArray_GET_SIZE(marks_obj) - 1, w  # (the last byte: always marked)
    cdef int at = end
    while at != a:
        if slots != NULL:
            w = slots[via[at]]
            if 0 <= w < size:
                marks[w] = 1
        at = via[at] // deg
    return 0


cpdef bint mark_way(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to,
                    bytearray marks, object memo) except -1:
    """Whether some way leads from a to ``to`` crossing no standing wall, as reachable(); the
    wall places a shortest way crosses marked 1 in ``marks`` (one byte per place and one more):
    a wall put up anywhere else leaves that way open. The way is searched (the shortest ways
    cross the fewest walls, so fewer candidates need a trial), and kept first in ``memo``,
    where the trials of the candidates find it."""
    if a < 0:
        raise ValueError("there is no cell here (none) to start from")
    return _walls_search(adj_obj, deg, slots_obj, walls_obj, a, to, memo, False, marks) == 1


cpdef bytes take_marks(bytearray marks, bint found):
    """The marks mark_way() left (every place marked when a way was not ``found``, and the last
    byte, where a place that is none is read, always), the scratch emptied for the next
    position. A mark is 1, or 2 everywhere when no way was found: the last byte says which."""
    cdef Py_ssize_t n = PyByteArray_GET_SIZE(marks)
    cdef bytes out
    if n == 0:
        return b""
    if found:
        out = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(marks), n)
        (<char*>PyBytes_AS_STRING(out))[n - 1] = 1
    else:
        out = b"\x02" * n
    memset(PyByteArray_AS_STRING(marks), 0, n)
    return out


cpdef bint walls_hang(object walls_obj, object corners_obj, object around_obj, bytes ways, long w1, long w2=-2) except -1:
    """Whether the walls w1 and w2 (-2: w1 alone), put up, leave every way open: the ways were
    all found in the position (``ways``, take_marks' bytes, ends in 1), and the new walls touch
    the walls standing or the board's edge at one corner at most (``corners``: per wall its
    two corners; ``around``: per corner, 1 on the edge, then the walls that end there). Two
    squares are parted only by a loop of walls (the edge one of them); walls that hang from
    one corner, or from none, close no loop. False says nothing: the trial decides."""
    cdef const short* corners = _tab(corners_obj)
    cdef const short* around = _tab(around_obj)
    cdef object keep = _standing(walls_obj)
    cdef const unsigned char* walls = _ro(keep)
    cdef Py_ssize_t nwalls = len(walls_obj), ncorners = Py_SIZE(around_obj) // 5, nways = 0 if ways is None else len(ways)
    cdef long ends[4]
    cdef long v, x
    cdef int n, i, j, k, touching = 0
    cdef bint seen
    if ways is None or nways == 0 or (<const unsigned char*>PyBytes_AS_STRING(ways))[nways - 1] != 1:
        return False  # a way was not found in the position: the trial decides
    if Py_SIZE(corners_obj) < 2 * nwalls:
        raise ValueError("the corners table is smaller than the walls")
    if not 0 <= w1 < nwalls or not (w2 == -2 or 0 <= w2 < nwalls):
        return False  # a wall that is none: the trial decides
    if w2 == w1:
        w2 = -2
    n = 2 if w2 == -2 else 4
    ends[0], ends[1] = corners[2 * w1], corners[2 * w1 + 1]
    if w2 != -2:
        ends[2], ends[3] = corners[2 * w2], corners[2 * w2 + 1]
    for i in range(n):
        v = ends[i]
        if not 0 <= v < ncorners:
            raise ValueError("a wall's corner is off the corners table")
        seen = False
        for j in range(i):
            seen = seen or ends[j] == v
        if seen:
            continue  # (the corner two new walls share, counted once)
        if around[5 * v]:
            touching += 1
            continue
        for k in range(1, 5):
            x = around[5 * v + k]
            if 0 <= x < nwalls and x != w1 and x != w2 and walls[x] != 0:
                touching += 1
                break
    return touching <= 1


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
