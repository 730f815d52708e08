# cython: language_level=3, boundscheck=True, wraparound=False, cdivision=True
"""Searches of the game tree in C for native engines: Monte Carlo tree search (regle.runtime.mcts
uses it when it can), and perft, the tree counted to a depth (BaseState.perft).

The same search as ``MctsAgent`` in mcts.py, iteration for iteration: the same generator
draws, the same UCB1 values (the C library's log and sqrt, which Python's math module calls),
the same ties broken the same way, so a seeded agent makes the same choices on either path.
Only the bookkeeping differs: a node is a C record in a growing array, its children a row of
indexes by the position of each move among the legal moves (always the same moves in the same
order here, since this path is only taken for games with no chance and nothing hidden), and
the states are compiled states copied and played in C by their move keys.
"""
from libc.math cimport log, sqrt
from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_Free, PyMem_Realloc

from regle.runtime._support cimport NativeCore, below, mix64, next64, rng_at


cdef struct TreeNode:
    long visits  # rewards backed up through it
    long passes  # times the descent stood here with the game going on (each move's availability)
    Py_ssize_t children  # where its row of children starts in the pool (-1: not reached yet)
    Py_ssize_t moves  # how many legal moves (the row's length)
    Py_ssize_t totals  # where its totals (one per seat) start in the pool


cdef class Tree:
    """The nodes of one decision's search (freed with it)."""
    cdef TreeNode* nodes
    cdef Py_ssize_t n, cap
    cdef Py_ssize_t* kids  # rows of child indexes, -1 where a move is not explored
    cdef Py_ssize_t nkids, capkids
    cdef double* totals
    cdef Py_ssize_t ntotals, captotals
    cdef long players

    def __dealloc__(self):
        PyMem_Free(self.nodes)
        PyMem_Free(self.kids)
        PyMem_Free(self.totals)

    cdef Py_ssize_t add(self) except -1:
        """A new node with no visits and zero totals: its index."""
        cdef Py_ssize_t i
        if self.n == self.cap:
            self.cap = self.cap * 2 if self.cap else 256
            self.nodes = <TreeNode*>_grown(self.nodes, self.cap * sizeof(TreeNode))
        if self.ntotals + self.players > self.captotals:
            self.captotals = max(self.captotals * 2, 256 * self.players)
            self.totals = <double*>_grown(self.totals, self.captotals * sizeof(double))
        self.nodes[self.n] = TreeNode(0, 0, -1, 0, self.ntotals)
        for i in range(self.players):
            self.totals[self.ntotals + i] = 0.0
        self.ntotals += self.players
        self.n += 1
        return self.n - 1

    cdef int reach(self, Py_ssize_t node, Py_ssize_t moves) except -1:
        """The first time the descent stands at ``node``: a row of unexplored children."""
        cdef Py_ssize_t i
        if self.nkids + moves > self.capkids:
            self.capkids = max(self.capkids * 2, self.nkids + moves, 1024)
            self.kids = <Py_ssize_t*>_grown(self.kids, self.capkids * sizeof(Py_ssize_t))
        self.nodes[node].children = self.nkids
        self.nodes[node].moves = moves
        for i in range(moves):
            self.kids[self.nkids + i] = -1
        self.nkids += moves
        return 0


cdef void* _grown(void* block, size_t size) except NULL:
    cdef void* bigger = PyMem_Realloc(block, size)
    if bigger == NULL:
        raise MemoryError()
    return bigger


cdef inline Py_ssize_t _moves(NativeCore s) except -1:
    return s._nkeys if s._legal is None else len(s._legal)


cdef inline int _play_at(NativeCore s, Py_ssize_t i) except -1:
    """The i-th legal move played (by its key when the step is keyed)."""
    if s._legal is None:
        s._play(None, s._keys[i])
    else:
        s._play(s._legal[i])
    return 0


def search(NativeCore state, long iterations, double budget, double cap, double c, long rollout,
           object rng, object rewards, object clock):
    """The index among ``state.legal`` of the move MctsAgent.choose picks: ``iterations``
    iterations, or as many as ``budget`` seconds allow (at least one), never past ``cap``
    seconds when it is set; ``rng`` (a regle Rng) is drawn from as the Python search draws;
    ``rewards(s)`` gives each seat's reward after a rollout stopped before the end (the
    rewards of a game over are computed here, as it computes them); ``clock`` is
    time.perf_counter."""
    cdef Tree tree = Tree.__new__(Tree)
    cdef unsigned long long r = rng.state
    cdef Py_ssize_t root, node, child, i, n, k, best, unexplored
    cdef Py_ssize_t* path = NULL
    cdef double* result = NULL
    cdef double share
    cdef Py_ssize_t depth, room = 0, done = 0
    cdef long actor, me = state.cur, p
    cdef double value, best_value, start = clock()
    cdef double deadline = start + budget if budget > 0 else -1.0
    cdef double ceiling = start + cap if cap > 0 else -1.0
    cdef NativeCore s
    cdef TreeNode* nd
    cdef TreeNode* ch
    tree.players = state.n
    result = <double*>_grown(NULL, tree.players * sizeof(double))
    root = tree.add()
    try:
        while True:
            if deadline < 0:
                if done >= iterations:
                    break
            elif done > 0 and clock() >= deadline:
                break
            if ceiling >= 0 and done > 0 and clock() >= ceiling:
                break
            # determinize(): a copy of the state with its own generator (nothing hidden here)
            s = state._copy()
            s.rng = rng_at(next64(&r))
            depth = 0
            node = root
            # selection and expansion
            while not s.over:
                n = _moves(s)
                nd = &tree.nodes[node]
                if nd.children < 0:
                    tree.reach(node, n)
                    nd = &tree.nodes[node]
                nd.passes += 1
                unexplored = 0
                for i in range(n):
                    if tree.kids[nd.children + i] < 0:
                        unexplored += 1
                actor = s.cur
                if unexplored:
                    k = below(&r, unexplored)
                    for i in range(n):
                        if tree.kids[nd.children + i] < 0:
                            if k == 0:
                                break
                            k -= 1
                    _play_at(s, i)
                    child = tree.add()
                    tree.kids[tree.nodes[node].children + i] = child
                    node = child
                    depth = _step(&path, &room, depth, node)
                    break
                best, best_value = -1, -1.0
                for i in range(n):
                    ch = &tree.nodes[tree.kids[nd.children + i]]
                    value = tree.totals[ch.totals + actor] / ch.visits + c * sqrt(log(<double>nd.passes) / ch.visits)
                    if value > best_value:
                        best, best_value = i, value
                _play_at(s, best)
                node = tree.kids[nd.children + best]
                depth = _step(&path, &room, depth, node)
            # rollout, then each seat's reward backed up the path
            s._playout(mix64(next64(&r)), rollout)  # play_random_playout(rng.next64(), rollout)
            if s.over:  # a sole winner 1, k winners (or k tied leaders in a draw) 1/k each
                winners = s.winners or s.leaders
                share = 1.0 / len(winners)
                for p in range(tree.players):
                    result[p] = 0.0
                for p in winners:
                    result[p] = share
            else:  # a rollout stopped early: by the game's scores
                made = rewards(s)
                for p in range(tree.players):
                    result[p] = made[p]
            tree.nodes[root].visits += 1
            for k in range(depth):
                nd = &tree.nodes[path[k]]
                nd.visits += 1
                for p in range(tree.players):
                    tree.totals[nd.totals + p] += result[p]
            done += 1
        # the most visited move, then the best total for the searching seat (the first of equals)
        nd = &tree.nodes[root]
        best = 0
        for i in range(nd.moves):
            if _better(tree, tree.kids[nd.children + i], tree.kids[nd.children + best], me):
                best = i
        return best
    finally:
        rng.state = r
        PyMem_Free(path)
        PyMem_Free(result)


cdef bint _better(Tree tree, Py_ssize_t a, Py_ssize_t b, long me) noexcept:
    """Whether child a beats child b by (visits, total of ``me``); an unexplored child (-1) has
    visits -1 and total 0, as the Python search ranks it."""
    cdef long va = tree.nodes[a].visits if a >= 0 else -1
    cdef long vb = tree.nodes[b].visits if b >= 0 else -1
    cdef double ta = tree.totals[tree.nodes[a].totals + me] if a >= 0 else 0.0
    cdef double tb = tree.totals[tree.nodes[b].totals + me] if b >= 0 else 0.0
    return va > vb or (va == vb and ta > tb)


cdef Py_ssize_t _step(Py_ssize_t** path, Py_ssize_t* room, Py_ssize_t depth, Py_ssize_t node) except -1:
    """The node entered added to the path (grown as needed): the path's new length."""
    if depth == room[0]:
        room[0] = room[0] * 2 if room[0] else 64
        path[0] = <Py_ssize_t*>_grown(path[0], room[0] * sizeof(Py_ssize_t))
    path[0][depth] = node
    return depth + 1


# ---- perft: the game tree counted to a depth ----
def perft(NativeCore state, int depth):
    """BaseState.perft in C: how many sequences of ``depth`` decisions the game allows from
    ``state``, every legal move played in turn (a game that ends sooner has none past its end).
    A state per level is made once and made equal to its parent again for each move (in place:
    nothing allocated per node), and each move is played by its key where the step is keyed;
    the last level is counted, not played."""
    if depth < 0:
        raise ValueError(f"perft counts sequences of 0 decisions or more, not {depth}")
    cdef list pool = [state._copy() for _ in range(depth - 1)]
    return _perft(state, depth, pool, 0)


cdef long long _perft(NativeCore s, int depth, list pool, Py_ssize_t level) except -1:
    cdef Py_ssize_t i, n
    cdef long long total = 0
    cdef NativeCore child
    if depth == 0:
        return 1
    n = _moves(s)
    if depth == 1 or n == 0:
        return n
    PyErr_CheckSignals()  # Ctrl-C stops a long count
    child = <NativeCore>pool[level]
    for i in range(n):
        s._keep_into(child)
        _play_at(child, i)
        total += _perft(child, depth - 1, pool, level + 1)
    return total
