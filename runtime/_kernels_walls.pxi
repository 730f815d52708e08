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
    """Marks the target cells (a cell, or a list or tuple of cells) with 2."""
    cdef Py_ssize_t c
    if isinstance(to, int):
        to = (to,)
    for t in to:
        c = t
        if c < 0:
            raise ValueError("there is no cell here (none) to go to")
        if c < size:
            mark[c] = 2
    return 0


cdef int _walls_search(object adj_obj, int deg, object slots_obj, object walls_obj, int a, object to,
                       object memo_obj, bint shortest) except -2:
    """The search behind walled_distance (the steps, -1 none) and reachable (1 or 0, the way kept
    in memo): breadth first from a, in the order the twins search."""
    cdef const short* adj = _tab(adj_obj)
    cdef Py_ssize_t size = Py_SIZE(adj_obj) // deg if deg > 0 else 0
    cdef const short* slots = NULL
    cdef const unsigned char* walls = NULL
    cdef object keep = None
    cdef Py_ssize_t nwalls = 0
    cdef unsigned char mark[MAX_BOARD]
    cdef short parent[MAX_BOARD]
    cdef short queue[MAX_BOARD]
    cdef short depth[MAX_BOARD]
    cdef short kept[MAX_BOARD + 1]
    cdef int head = 0, tail = 0, c, nb, k, i, length, at, nxt, r, rows = 0, base, row = 0
    cdef short* memo = NULL
    cdef Py_ssize_t memo_size = 0
    if a < 0:
        raise ValueError("there is no cell here (none) to start from")
    if size > MAX_BOARD:
        raise ValueError("the board has more cells than a grid may")
    keep = _walls_view(slots_obj, walls_obj, &slots, &walls, &nwalls)
    if memo_obj is not None:
        if type(memo_obj) is not array.array or (<array.array>memo_obj).ob_descr.typecode != b'h':
            raise TypeError("the ways kept must be an array('h')")
        memo = (<array.array>memo_obj).data.as_shorts
        memo_size = Py_SIZE(memo_obj)
    memset(mark, 0, size)
    _mark_targets(to, mark, size)
    if a >= size:
        raise ValueError("the cell is not on the board")
    if mark[a] == 2:
        return 1 if not shortest else 0
    if memo != NULL:  # the ways kept from a, newest first: the first still open to a target
        row = size + 1
        rows = memo_size // row
        for r in range(rows):
            base = r * row
            length = memo[base]
            if length == 0 or memo[base + 1] != a:
                continue
            if not (0 < length <= size and 0 <= memo[base + length] < size and mark[memo[base + length]] == 2):
                continue
            at = a
            for i in range(base + 2, base + length + 1):
                nxt = memo[i]
                k = -1
                for c in range(at * deg, at * deg + deg):
                    if adj[c] == nxt:
                        k = c
                        break
                if k < 0 or not _open_step(slots, walls, nwalls, k):
                    break
                at = nxt
            else:
                if r > 1:  # the way used goes first (the rows before it one down); from the
                    # second row it stays, so that two starts asked in turn move nothing
                    memcpy(kept, memo + base, row * sizeof(short))
                    memmove(memo + row, memo, base * sizeof(short))
                    memcpy(memo, kept, row * sizeof(short))
                return 1
        if rows:  # the way found will go first, the oldest kept goes
            memmove(memo + row, memo, (rows - 1) * row * sizeof(short))
            memo[0] = 0
    mark[a] = 1
    parent[a] = -1
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
            parent[nb] = c
            depth[nb] = depth[c] + 1
            if mark[nb] == 2:
                if shortest:
                    return depth[nb]
                if memo != NULL and rows:
                    length = depth[nb] + 1
                    memo[0] = length
                    at = nb
                    for i in range(length, 0, -1):
                        memo[i] = at
                        at = parent[at]
                return 1
            mark[nb] = 1
            queue[tail] = nb
            tail += 1
    return -1 if shortest else 0


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
