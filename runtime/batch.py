"""Many games of one rules text stepped together, with NumPy arrays in and out: the loop of
reinforcement learning, where one Python call per game and step costs more than the step.

    batch = game.batch(1024, seed=0)            # every seat plays through step()
    batch = game.batch(1024, seat=0, seed=0)    # seat 0 plays; the other seats play at random
    while training:
        actions = policy(batch.observations(), batch.mask)   # one legal action id per game
        rewards, done = batch.step(actions)

``mask`` (games x action ids, int8) holds the legal ids of each game's acting seat and
``current`` that seat. ``step`` plays one id in every game; a game that ends is started again
at once (its rewards, +1 a winner, -1 a loser, 0 everyone in a draw, are in that step's
``rewards``; the state it ended in is in ``finished``). Game i's k-th game is the game of seed
``seed + i + k * n``, and with ``seat`` set, the other seats' picks come from ``Rng(-1 -
that seed)``: the same games as stepping each one alone (``step_alone`` does, and the tests
compare). An id that is not legal raises IllegalMove, or with ``illegal="loses"`` ends that game
at once, -1 for the seat that gave it (as learning environments often want). On a native engine
the whole step runs in C, new games included.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - NumPy is an extra
    raise ImportError("batched stepping needs NumPy: pip install numpy") from exc

from .engine import _runtime_error
from .errors import IllegalMove, RulesRuntimeError
from .rng import Rng

if TYPE_CHECKING:
    import numpy.typing as npt


class Batch:
    """``n`` games of ``game`` for ``players`` seats, stepped together (see the module)."""

    def __init__(self, game: Any, n: int, players: int | None = None, seed: int = 0, seat: int | None = None,
                 illegal: str = "raises"):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"a batch holds one game or more, not {n!r}")
        self.game = game
        self.players = game.players.start if players is None else players
        if self.players not in game.players:
            raise ValueError(f"{game.title} is for {game._counts()} players, not {self.players!r}")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.players):
            raise ValueError(f"seat {seat!r}: this game's seats are 0 to {self.players - 1} (None: every seat)")
        if illegal not in ("raises", "loses"):
            raise ValueError(f"illegal={illegal!r}: 'raises' (IllegalMove) or 'loses' (the game ends, -1)")
        self.size = n
        self.seat = seat
        self.illegal = illegal
        self.num_actions = len(game.action_space(self.players))
        self.mask: npt.NDArray[np.int8] = np.zeros((n, self.num_actions), dtype=np.int8)
        self.current: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)
        self.rewards: npt.NDArray[np.float32] = np.zeros((n, self.players), dtype=np.float32)
        self.episodes: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)  # games started in each slot
        self._done = np.zeros(n, dtype=np.uint8)
        self._rngs = np.zeros(n, dtype=np.uint64)  # the random seats' generators (SplitMix64 states)
        self.states: list = [None] * n
        self._legal: list = [None] * n  # per game: its legal moves (Python engines)...
        self._ids: list = [()] * n  # ...and their ids, kept for the next step
        self.finished: list = [None] * n  # the last game each slot ended, as it ended
        ns = game.namespace
        self._compiled = (ns["_batch_step"], ns["_batch_start"]) if "_batch_step" in ns else None
        self.reset(seed)

    @property
    def native(self) -> bool:
        """Whether the steps run in C (a native engine)."""
        return self._compiled is not None

    def reset(self, seed: int = 0) -> None:
        """Start every game again: game i's first game is the game of seed ``seed + i``."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"a seed is a whole number, not {seed!r}")
        self.seed = seed
        self.episodes[:] = 0
        self.finished = [None] * self.size
        for i in range(self.size):
            self._start(i)

    def seed_of(self, i: int, k: int) -> int:
        """The seed of the k-th game (from 0) of slot i."""
        return self.seed + i + k * self.size

    def _start(self, i: int) -> None:
        """Slot i's next game, its mask row and seat to play set (in C on a native engine)."""
        k = int(self.episodes[i])
        self.episodes[i] += 1
        if self._compiled is not None:
            seat = -1 if self.seat is None else self.seat
            self._compiled[1](self.states, i, self.players, self.seed_of(i, k), seat, self._rngs, self.mask,
                              self.current)
            return
        self._mask_of(self._begin(i, k), i)

    def _begin(self, i: int, k: int) -> Any:
        """Slot i's k-th game on a Python engine (``episodes`` counted by the caller), played to
        its first decision of the seat that plays, kept in ``states``; its mask row is the
        caller's to set. The random seats' generator is made only where there are such seats."""
        seed = self.seed_of(i, k)
        s = self.game.new_game(self.players, seed=seed)
        if self.seat is not None:
            self._rngs[i] = Rng(-1 - seed).state
            self._answer(s, i, self.seat)
        if s.over:
            raise ValueError(f"{self.game.title}: the game of seed {seed} ended before "
                             + ("any decision" if self.seat is None else f"seat {self.seat} had a decision"))
        self.states[i] = s
        return s

    def _answer(self, s: Any, i: int, seat: int) -> None:
        """The other seats' random moves until ``seat`` is to play (Python engines)."""
        if seat < 0 or s.over or s.cur == seat:
            return
        rng = Rng(state=int(self._rngs[i]))
        while not s.over and s.cur != seat:
            legal = s.legal
            s.advance(legal[rng.below(len(legal))])
        self._rngs[i] = rng.state

    def _ids_of(self, s: Any, i: int) -> list:
        """The legal ids of game i (none when it is over), kept with the list of moves they
        number, so that ``step`` finds its move by index with no id computed again."""
        self.current[i] = s.cur
        if s.over:
            self._legal[i] = None
            return []
        ids = self._ids[i] = s.legal_action_ids()
        self._legal[i] = s.legal
        return ids

    def _mask_of(self, s: Any, i: int) -> None:
        row = self.mask[i]
        row[:] = 0
        row[self._ids_of(s, i)] = 1

    def step(self, actions: Any) -> tuple["npt.NDArray[np.float32]", "npt.NDArray[np.bool_]"]:
        """Play ``actions[i]`` (a legal action id of game i's acting seat) in every game. Returns
        (rewards: games x seats, float32; done: games, bool); a game that ended is started again,
        so ``mask`` and ``current`` are always those of games to play."""
        ids = np.ascontiguousarray(actions, dtype=np.int64)
        if ids.shape != (self.size,):
            raise ValueError(f"step takes one action id per game: {self.size} of them, not shape {ids.shape}")
        seat = -1 if self.seat is None else self.seat
        done = self._done
        if self._compiled is not None:  # the whole step in C, new games included
            self._compiled[0](self.states, self.finished, ids, self.players, seat, self.seed, self._rngs,
                              self.episodes, self.mask, self.current, done, self.rewards,
                              self.illegal == "loses")
            return self.rewards, done.view(bool)
        self.rewards[:] = 0
        current, counts, ended, on = self._play_all(ids.tolist(), seat)
        width, flat = self.num_actions, self.mask.reshape(-1)
        self.mask.fill(0)  # then each game's legal ids set, at i * width + id
        flat[np.repeat(np.arange(self.size, dtype=np.int64) * width, counts) + np.asarray(on, dtype=np.int64)] = 1
        done[:] = 0
        if ended:
            done[ended] = 1
            starts = self.episodes[ended].tolist()  # each slot's next game, counted at once
            self.episodes[ended] += 1
            again: list = []  # the new games' legal ids, one game after another, set in the mask at once
            won, rows = [], []  # the rewards of the games with winners, written at once
            for i, k in zip(ended, starts):
                s = self.finished[i] = self.states[i]
                winners = s.winners
                if winners:
                    row = [-1.0] * self.players
                    for w in winners:
                        row[w] = 1.0
                    won.append(i)
                    rows.append(row)
                s = self._begin(i, k)
                current[i] = s.cur
                legal_ids = self._ids[i] = s.legal_action_ids()
                self._legal[i] = s.legal
                again.extend(legal_ids)
                counts[i] = len(legal_ids)
            if won:
                self.rewards[won] = rows
            at = np.repeat(np.asarray(ended, dtype=np.int64) * width, [counts[i] for i in ended])
            flat[at + np.asarray(again, dtype=np.int64)] = 1
        self.current[:] = current
        return self.rewards, done.view(bool)

    def _play_all(self, actions: list, seat: int) -> tuple[list, list, list, list]:
        """``step``'s loop on a Python engine: each game's move found by its id among the legal
        ids kept from the last step, played as ``advance`` plays it (its checks written here,
        one Python call fewer per game), and the new legal ids gathered into one list for the
        mask. Returns each game's seat to play, how many ids each has, the games that ended, and
        the ids gathered."""
        legal_of, ids_of, loses = self._legal, self._ids, self.illegal == "loses"
        python = "_batch_step" not in self.game.namespace
        space = self.game.action_space(self.players)
        encode, known_id = space.encode_all, space.known_id
        current = self.current.tolist()  # set one by one in a list, then in the array at once
        on: list = []  # the legal ids of every game after this step, one game after another
        counts = [0] * self.size  # how many each game has
        ended = []
        extend, states, rewards = on.extend, self.states, self.rewards
        for i, action in enumerate(actions):
            s = states[i]
            moves, legal_ids = legal_of[i], ids_of[i]
            if moves is None or moves is not s.legal:  # not kept (started in C, or changed by hand)
                moves, legal_ids = s.legal, s.legal_action_ids()
            try:  # the move the id numbers, by its place among the legal ids of the mask
                move = moves[legal_ids.index(action)]
            except ValueError:  # not a legal id
                if loses:
                    rewards[i, s.cur] = -1
                    ended.append(i)
                    continue
                s.advance_id(action)  # raises IllegalMove, saying why
            if not python:  # (step_alone on a native engine: its own advance)
                s.advance(move)
            else:  # BaseState.advance, inline
                s.decisions += 1
                if s.decisions > s.MAX_DECISIONS:
                    raise s._too_long()
                try:
                    s.APPLY[move[0]](s, move)
                except (IllegalMove, RulesRuntimeError):
                    raise
                except Exception as exc:  # a bug in the rules text, reported at its rules line
                    raise _runtime_error(exc) from exc
            if seat >= 0:
                self._answer(s, i, seat)
            current[i] = s.cur
            if s.over:
                legal_of[i] = None
                ended.append(i)
            else:
                legal_of[i] = moves = s.legal
                if python:
                    try:  # encode_all's own way, with no call of it
                        legal_ids = list(map(known_id, moves))
                    except TypeError:  # a move holding a list (a subset)
                        legal_ids = encode(moves)
                else:
                    legal_ids = s.legal_action_ids()
                ids_of[i] = legal_ids
                extend(legal_ids)
                counts[i] = len(legal_ids)
        return current, counts, ended, on

    def observations(self, seat: int | None = None) -> "npt.NDArray[np.float32]":
        """What each game's acting seat (or ``seat``, in every game) may see, one row per game
        (``state.observation``; float32)."""
        rows = [s.observation(s.cur if seat is None else seat) for s in self.states]
        return np.asarray(rows, dtype=np.float32)

    def step_alone(self, actions: Any) -> tuple[Any, Any]:
        """``step`` through each game's own public API, one call at a time: the reference the
        compiled step is tested against."""
        compiled, self._compiled = self._compiled, None
        try:
            return self.step(actions)
        finally:
            self._compiled = compiled
