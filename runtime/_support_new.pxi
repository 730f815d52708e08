# Included by _support.pyx: a new game made in C, game.new_game's common case.
cdef class NewGames:
    """``Game.new_game`` of a native engine: the common case (no generator of one's own; no
    count of players, or one the game is for) made in C, with no Python frame between the
    caller and the engine's setup; anything else goes to the Python method, which says why it
    refuses. A loop of short games (an agent's, a learner's resets) calls it once a game: a
    Python method's frame costs about as much as a native engine's setup."""
    cdef NativeCore _blank  # a blank state of the engine's class, whose _new_game makes the game
    cdef object _fewest, _slow, _error
    cdef frozenset _counts

    def __init__(self, NativeCore blank, fewest, frozenset counts, slow, error):
        """``blank``: State.__new__(State); ``fewest``: the count when none is given; ``counts``:
        the counts the game is for; ``slow``: the Python method; ``error``: what a setup error
        is raised as (a RulesRuntimeError that names its rules line)."""
        self._blank, self._fewest, self._counts, self._slow, self._error = blank, fewest, counts, slow, error

    def new_game(self, players=None, seed=0, rng=None):
        """A fresh game after setup, for ``players`` seats (default: the smallest count).
        ``rng``: a generator to draw from instead of the seed's (Python engines; see
        ``regle.runtime.chance``)."""
        if rng is None:
            if players is None:
                players = self._fewest
            elif type(players) is not int or players not in self._counts:
                return self._slow(players, seed, rng)
            try:
                return self._blank._new_game(players, seed)
            except Exception as exc:  # a bug in the rules' setup, reported at its rules line
                raise self._error(exc) from exc
        return self._slow(players, seed, rng)
