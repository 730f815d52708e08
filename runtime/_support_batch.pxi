# Included by _support.pyx: batched stepping, kept apart so that each file stays readable.
# ---- batched stepping (regle.runtime.batch): many games stepped in one C loop ----
cdef int _batch_mask(NativeCore s, signed char* row, Py_ssize_t width) except -1:
    """The legal action ids of ``s`` as 1s in ``row`` (zeroed first)."""
    memset(row, 0, width)
    return mark_legal(s, row, width)


cdef int _batch_advance(NativeCore s, long long action_id, bint lose) except -1:
    """advance_id in C: the key whose id it is, played (the Python way says why when none is).
    With ``lose``, an id that is not legal is not played: returns 1."""
    cdef Py_ssize_t i = s._key_of_id(action_id)
    if i >= 0:
        s._play(None, s._keys[i])
        return 0
    if lose and action_id not in s.legal_action_ids():
        return 1
    s.advance_id(action_id)
    return 0


cdef int _batch_answer(NativeCore s, long seat, unsigned long long* rng) except -1:
    """The other seats play uniformly random moves (``Rng.below`` on ``rng``) until ``seat``
    is to play or the game is over, as play_random_seats picks."""
    cdef list legal
    while not s.over and s.cur != seat:
        legal = s._legal
        if legal is None:
            s._play(None, s._keys[below(rng, s._nkeys)])
        else:
            s._play(legal[below(rng, len(legal))])
    return 0


cdef NativeCore _batch_new(object state_class, long players, object seed, long seat, unsigned long long* rng):
    """Game ``seed`` of a batch, up to the decision of ``seat`` (every seat's first: -1)."""
    cdef NativeCore s = state_class.new(players, seed)
    rng[0] = mixed(-1 - seed)
    if seat >= 0:
        _batch_answer(s, seat, rng)
    if s.over:
        raise ValueError(f"{state_class.GAME.title}: the game of seed {seed} ended before "
                         + ("any decision" if seat < 0 else f"seat {seat} had a decision"))
    return s


def batch_start(object state_class, list states, long i, long players, object seed, long seat,
                unsigned long long[::1] rngs, signed char[:, ::1] mask, long long[::1] current):
    """Slot i of a batch of games of ``state_class`` starts game ``seed``: its state, generator,
    mask and acting seat."""
    cdef NativeCore s = _batch_new(state_class, players, seed, seat, &rngs[i])
    states[i] = s
    current[i] = s.cur
    _batch_mask(s, &mask[i, 0], mask.shape[1])


def batch_step(object state_class, list states, list finished, const long long[::1] actions, long players,
               long seat, object seed, unsigned long long[::1] rngs, long long[::1] episodes,
               signed char[:, ::1] mask, long long[::1] current, unsigned char[::1] done,
               float[:, ::1] rewards, bint lose):
    """One step of every game of a batch (regle.runtime.batch.Batch.step): game i plays
    ``actions[i]``; with ``seat`` >= 0 the other seats then answer at random from ``rngs[i]``.
    A game that ends gets its rewards (+1 a winner, -1 a loser, 0 all in a draw), goes to
    ``finished[i]``, and slot i starts its next game (seed + i + k * n for its k-th). With
    ``lose``, an id that is not legal ends its game there: -1 for the seat that gave it."""
    cdef Py_ssize_t i, n = len(states), width = mask.shape[1]
    cdef NativeCore s
    cdef long w
    cdef bint illegal
    for i in range(n):
        s = <NativeCore>states[i]
        illegal = _batch_advance(s, actions[i], lose)
        if seat >= 0 and not illegal:
            _batch_answer(s, seat, &rngs[i])
        for w in range(players):
            rewards[i, w] = 0
        done[i] = s.over or illegal
        if illegal:
            rewards[i, s.cur] = -1
        if done[i]:
            winners = [] if illegal else s.winners
            if winners:
                for w in range(players):
                    rewards[i, w] = -1
                for w in winners:
                    rewards[i, w] = 1
            finished[i] = s
            s = _batch_new(state_class, players, seed + i + episodes[i] * n, seat, &rngs[i])
            episodes[i] += 1
            states[i] = s
        current[i] = s.cur
        _batch_mask(s, &mask[i, 0], width)
