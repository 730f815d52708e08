"""What every generated engine shares: moves, the state base class, the game object.

A generated module defines ``State(BaseState)`` with the game's fields and methods
(``_setup``, ``_enter``, one ``_do_<action>`` per action, ``_scores``, ...) plus metadata
tables (``ZONES``, ``COUNTERS``, ``STEPS``). Everything here is game-agnostic.
"""
from __future__ import annotations

import linecache
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Iterator, Self, overload

from .errors import GameOver, IllegalMove, RulesRuntimeError, StateError
from .rng import Rng

if TYPE_CHECKING:  # NumPy is optional: these name the arrays it makes, when it is there
    import numpy
    import numpy.typing as npt

    from .batch import Batch
    from .spec import GameSpec

STATE_FORMAT = "regle-state/1"
#: Safety net for rules that never end: a game stops with an error after this many decisions.
MAX_DECISIONS = 100_000
#: Elements that the ``for`` loops of one decision (or the setup) may walk in all.
MAX_WORK = 1_000_000
TOO_MUCH_FOR = f"one decision walked more than {MAX_WORK:,} elements in for loops"
TOO_MUCH_WHILE = (f"one decision walked more than {MAX_WORK:,} elements in loops: "
                  "does a while condition ever become false?")


class Move(tuple):
    """One legal choice: ``(action number, *arguments)``, a tuple of small ints.

    ``str(move)`` is its notation, stable and readable; generated engines subclass this with
    their own ``FORMATS``. Moves compare by value (as tuples, in C), so a move from a copy of
    a state is legal in the original too.
    """

    __slots__ = ()
    FORMATS: tuple = ()
    NAMES: tuple = ()
    SECRET: tuple = ()  # per action: what the other seats see of its moves (None: the move itself)
    #: per action: whether its notation reads the position the move is listed in (then a Move
    #: made from its tuple alone, with no position at hand, reads as its action's name and values)
    READS: tuple = ()

    def __str__(self) -> str:
        return self.FORMATS[self[0]](*self[1:])

    def hidden_from(self, viewer: int | None, mover: int) -> str | None:
        """What ``viewer`` (None: a spectator) sees instead of this move, played by ``mover``:
        the text of a ``secret`` action for anyone but its player, else None (the move)."""
        secret = self.SECRET[self[0]] if self.SECRET else None
        return None if secret is None or viewer == mover else secret

    def __repr__(self) -> str:
        return f"<Move {str(self)!r}>"

    @property
    def action(self) -> int:
        return self[0]

    @property
    def args(self) -> tuple:
        return self[1:]

    @property
    def name(self) -> str:
        """The action's name in the rules file (e.g. ``take``)."""
        return self.NAMES[self[0]]

    @classmethod
    def named(cls, move: tuple, text: str) -> "Move":
        """The move with a notation of its own in its state (its longer form, where two moves
        would otherwise read the same); equal to the plain move all the same."""
        named_class = cls.__dict__.get("_named_class")
        if named_class is None:
            named_class = type(cls.__name__, (cls,), {"__str__": lambda self: self.text})
            cls._named_class = named_class
        m = named_class(move)
        m.text = text
        return m

    @classmethod
    def told_class(cls) -> type:
        """The class of the moves of a decision whose notations may read alike (made once per
        engine). Each holds its decision (``moves``) and its place there (``at``), and reads
        its notation there when it is first read (all of the decision's are told apart then,
        once), not when it is made; it is equal to the plain move all the same. (A native
        engine's moves hold their decision without a dict: _support.told_key_class.)"""
        told_class = cls.__dict__.get("_told_class")
        if told_class is None:
            told_class = type(cls.__name__, (cls,), {
                "__str__": lambda self: self.moves.notation_at(self.at),
                # copied and pickled as the named move it reads as, without its decision
                "__reduce__": lambda self: (cls.named, (tuple(self), str(self)))})
            cls._told_class = told_class
        return told_class


class Moves(Sequence[Move]):
    """The legal moves of a decision as ``legal_moves()`` gives them: a read-only sequence
    (indexing, slicing, ``len``, iteration, ``in``, ``index``, ``==`` with a list) that makes
    each :class:`Move` when it is read, so that an agent picking one of hundreds of moves makes
    one. It is a snapshot: playing on the state does not change it. ``list(moves)`` gives a
    list."""

    __slots__ = ("_source", "_move", "_told", "_at")

    def __init__(self, source: Any, move: Any = None, told: bool = False, at: Any = None):
        self._source = source  # move tuples (a list, or natively the keys of a decision)
        #: a copy of the position the moves are listed in, where notations read it (Move.READS)
        self._at = at
        #: with ``told``, two moves may read alike: each Move (of Move.told_class()) reads its
        #: notation here, where they are all told apart when the first is read (then a list)
        self._told: bool | list[str] = told and move is not None
        #: the Move class that wraps each; None: the items are Moves already
        self._move = move.told_class() if self._told else move

    def __len__(self) -> int:
        return len(self._source)

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self._source)))]
        m = self._source[i]
        if self._move is None:
            return m
        if self._told is False:
            return self._move(m)
        m = self._move(m)
        m.moves, m.at = self, i + len(self._source) if i < 0 else i
        return m

    def __iter__(self) -> Iterator[Move]:
        if self._move is None:
            return iter(self._source)
        if self._told is False:
            return map(self._move, self._source)
        return (self[i] for i in range(len(self._source)))

    def notation_at(self, i: int) -> str:
        """The notation of move ``i``, told apart from the others' (BaseState.notations)."""
        if self._told is True:
            legal = list(self._source)
            self._told = _told_apart(legal, self._move, self._at)[1]
        return self._told[i]

    def __contains__(self, move: object) -> bool:
        try:
            self._source.index(move)
        except (ValueError, TypeError):
            return False
        return True

    def index(self, move: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of ``move`` (a Move, or its tuple); ValueError when it is not here."""
        i = self._source.index(move)
        lo, hi, _ = slice(start, stop).indices(len(self._source))  # as list.index reads them
        if not lo <= i < hi:
            raise ValueError(f"{move!r} is not in the moves between {start} and {stop}")
        return i

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Moves, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))

    def __reduce__(self) -> tuple:  # pickled (and copied) as the list of its Moves
        return Moves, (list(self),)


_RULES_LINE = re.compile(r"# (?:(\S+) )?line (\d+):")


def rules_line_of(exc: BaseException) -> tuple[str, int] | None:
    """Map an exception raised inside generated code back to (rules file, line), like
    jinja2.debug: the innermost frame of an engine whose function quotes a rules line (a helper
    of the engine's own, such as a native engine's C lookups, quotes none: its caller does)."""
    tb = exc.__traceback__
    frames = []
    while tb is not None:
        g = tb.tb_frame.f_globals
        if g.get("__regle_engine__"):
            frames.append((g, tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    sources = []
    for g, filename, lineno in reversed(frames):
        lines = linecache.getlines(filename, g)
        if not lines and g.get("__file__"):  # a native engine's frames name its .pyx, which lies beside it
            lines = linecache.getlines(os.path.join(os.path.dirname(g["__file__"]), os.path.basename(filename)))
        sources.append((g, lines, lineno))
    for strict in (True, False):  # in the frame's own function first; else the nearest above
        for g, lines, lineno in sources:
            found = _rules_line_above(lines, lineno, strict)
            if found:
                return found[0] or g.get("RULES_FILE", "<rules>"), found[1]
    return None


def _rules_line_above(lines: list[str], lineno: int, strict: bool = True) -> tuple[str | None, int] | None:
    """The rules line quoted nearest above ``lineno``: with ``strict``, only in its own function
    (or in the comments just above the function's head)."""
    in_head = False  # past the head of the function holding lineno (strict only)
    for i in range(min(lineno, len(lines)) - 1, -1, -1):
        m = _RULES_LINE.search(lines[i])
        if m:
            return m.group(1), int(m.group(2))
        text = lines[i].strip()
        if in_head and text and not text.startswith(("#", "@")):
            return None
        if strict and text.startswith(("def ", "cdef ", "cpdef ")) and text.endswith(":"):
            in_head = True
    return None


#: what Python says when a rules text asks for the impossible -> the same in the rules' words
_IN_RULES_WORDS = (
    (ValueError, "not in list", "the item to take is not there (a zone holds it no more, or never did)"),
    (ValueError, "not in deque", "the item to take is not there (a zone holds it no more, or never did)"),
    (ValueError, "byte must be in range", "a value a cell cannot hold (a grid's cell holds a piece, a player "
                                          "or a number from 0 to 254)"),
    (IndexError, "out of range", "a position past the end of a list or zone (positions count from 0; "
                                 "count(Z) says how many there are)"),
    (IndexError, "empty", "an item taken from an empty zone or list"),
    (ValueError, "arg is an empty sequence", "the largest or smallest of nothing (max or min over no values)"),
    (ValueError, "empty range", "a random choice among no values"),
    (ValueError, "math domain error", "a number outside what the operation accepts"),
    (ValueError, "negative shift count", "a negative number of places to shift"),
    (ValueError, "invalid literal", "a text that is not a number"),
    (ZeroDivisionError, "", "a division by zero"),
    (OverflowError, "", "a number too large to compute"),
    (RecursionError, "", "rules that call themselves too deeply"),
    (MemoryError, "", "more than this machine's memory"),
)


def _rules_words(exc: BaseException) -> str:
    """What went wrong, in the words of the rules, never Python's own (an unknown failure is
    said as one of the engine, to be reported)."""
    text = str(exc)
    for kind, mark, words in _IN_RULES_WORDS:
        if isinstance(exc, kind) and mark in text:
            return words
    if isinstance(exc, ValueError) and text:
        return text  # the runtime's helpers raise ValueError in the rules' words
    return ("a step the engine could not take (this may be a bug of regle: please report it with the rules "
            "file and the command below)")


def _runtime_error(exc: BaseException, doing: str = "while playing") -> RulesRuntimeError:
    if isinstance(exc, RulesRuntimeError):
        return exc
    where = rules_line_of(exc)
    what = _rules_words(exc)
    if where:
        return RulesRuntimeError(f"{where[0]}:{where[1]}: error {doing}: {what}")
    return RulesRuntimeError(f"error {doing}: {what}")


def _told_apart(legal: list, move: Any, at: Any = None) -> tuple[list[str], list[str]]:
    """(each move's plain notation, its notation told apart from the others') for the legal
    move tuples of a decision (``move``: the engine's Move class, with its formats; ``at``: a
    copy of the position they are listed in, which the notations of Move.READS read)."""
    formats = move.FORMATS
    reads = move.READS if at is not None else ()
    if True in reads:
        say = at._say_in
        plain = [say(m) if reads[m[0]] else formats[m[0]](*m[1:]) for m in legal]
    else:
        plain = [formats[m[0]](*m[1:]) for m in legal]
    clash = move.CLASH
    if not any(clash[m[0]] for m in legal) or len(set(plain)) == len(plain):
        return plain, plain
    return plain, _tell_apart(legal, plain, move.LONG, reads)


def _tell_apart(legal: list, texts: list[str], long_formats, reads: tuple = ()) -> list[str]:
    """Make the notations of one state different: the longer form for those that clash,
    then a count (#2, #3...) for any that still do. (The longer form of a notation read in
    the position, Move.READS, is that notation and its arguments' longer forms.)"""
    counts: dict[str, int] = {}
    for t in texts:
        counts[t] = counts.get(t, 0) + 1
    texts = [t if counts[t] == 1 else t + long_formats[m[0]](*m[1:]) if reads and reads[m[0]]
             else long_formats[m[0]](*m[1:]) for m, t in zip(legal, texts)]
    while True:
        seen: dict[str, int] = {}
        changed = False
        for i, t in enumerate(texts):
            seen[t] = seen.get(t, 0) + 1
            if seen[t] > 1:
                texts[i] = f"{t} #{seen[t]}"
                changed = True
        if not changed:
            return texts


class BaseState:
    """Shared behaviour of generated game states. Fields: see the generated ``State``.

    What each method costs (L: the legal moves of the decision, S: the size of the state):

    - ``legal`` (the move tuples), ``current_player``, ``is_over``: made once per decision, then
      read for free; ``legal_moves()``: a sequence that makes each ``Move`` when it is read
      (where notations may read alike, the decision's L texts when the first is read);
      ``notations()``: L texts;
    - ``advance(move)``: the move's effects only (the fast path; no check, no copy);
      ``play(move)``: finds the move among ``legal`` (L) and keeps the state first, so a rules
      error leaves it whole: S the first time (a spare copy), then S overwritten in place in
      that spare, nothing new made; ``play("text")`` also matches the notations (L texts);
    - ``legal_action_ids()`` / ``action_mask()``: encode the L moves; ``play_id(i)`` /
      ``advance_id(i)``: encode the L moves to find i, then as ``play`` / ``advance``;
    - ``copy()``: S (lists and counters copied); ``to_json()`` / ``view(p)`` / ``observation(p)``:
      S, building new data each call; ``resample(p, seed)``: a copy and a re-deal of what p
      cannot see;
    - ``scores``, ``winners``: the rules' scoring clauses, evaluated at each read.
    """

    #: the fields every state has; a generated State adds its zones, grids and counters and
    #: holds them all (in ``__slots__``, or as typed fields of a compiled base class)
    BASE_FIELDS = ("n", "cur", "step", "turns", "decisions", "over", "rng", "legal", "seed", "nxt", "repeats",
                   "work")
    FIELDS: tuple = BASE_FIELDS
    __slots__ = ()
    MAX_DECISIONS = MAX_DECISIONS  # a generated State may lower it (max decisions in the game block)
    GAME: "Game"
    # the fields every state has, as a typed script reads them (each generated State holds them)
    n: int  # the number of players
    cur: int  # the seat to play (0 for P1)
    turns: int  # turns completed
    decisions: int  # decisions made (moves played)
    over: bool
    legal: list  # the legal moves as plain tuples, in legal_moves() order

    def copy(self) -> Self:
        """An independent copy of the state (its zones, grids and counters copied; the game
        shared). Every generated State writes its own."""
        raise NotImplementedError("a generated State defines copy()")

    def _work_done(self) -> tuple:
        """The work counted in this decision, to put back after a trial (``ensure``)."""
        return self.work

    def _work_back(self, work: tuple) -> None:
        self.work = work

    def _walk(self, n: int) -> None:
        """n elements walked by a ``for`` statement that makes no list (counted as ``_loop``)."""
        self._loop(range(n))

    def _loop(self, items):
        """What a ``for`` statement of the rules walks, counted against the work one decision
        may do (MAX_WORK elements walked), so nested loops cannot run away. ``work`` holds
        (decision, elements walked in it): a new decision starts from nothing."""
        decision, walked = self.work
        walked = (walked if decision == self.decisions else 0) + len(items)
        if walked > MAX_WORK:
            raise ValueError(TOO_MUCH_FOR)
        self.work = (self.decisions, walked)
        return items

    def _memo(self, k: int, size: int) -> bytearray:
        """Memo k of the end conditions (``K.in_a_row_since``): a native engine keeps it in the
        state between turns; here a blank one each time, so the whole board is looked at."""
        return bytearray(size)

    def _spin(self) -> None:
        """One round of a ``while`` of the rules, counted like one element walked."""
        decision, walked = self.work
        walked = (walked if decision == self.decisions else 0) + 1
        if walked > MAX_WORK:
            raise ValueError(TOO_MUCH_WHILE)
        self.work = (self.decisions, walked)

    # -- the public API -------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.over else self.cur

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def players(self) -> int:
        return self.n

    def legal_moves(self) -> Moves:
        """The legal choices of the acting player, in a stable order (empty when over); each
        one's ``str()`` is its notation, different from every other one's here. A
        :class:`Moves` sequence: each Move is made when it is read.

        Internally ``self.legal`` holds the same moves as plain tuples (cheaper to make in
        move generators); agents may use it directly, and ``play`` accepts either form.
        """
        move = self.MOVE  # type: ignore[attr-defined]
        clash = move.CLASH
        # each Move made when read; where two of an action's notations could read alike, its
        # notation is told apart from the others' when first read (str), not before; where a
        # notation reads the position, in a copy of this one (the moves outlive it)
        if True in move.READS:
            return Moves(self._legal_source(), move, told=True, at=self.copy())
        return Moves(self._legal_source(), move, told=True in clash)

    def _legal_source(self) -> Any:
        """The legal move tuples as a sequence for :class:`Moves` (natively: the decision's keys,
        copied, each made into its tuple when read)."""
        return self.legal

    def notations(self) -> list[str]:
        """The notation of each legal move, in ``legal`` order, all different: where two moves
        would read the same (two cards that show alike), both get their longer form (the
        card's detail, a group's first cell), and ``#2``, ``#3`` if that is not enough."""
        return self._texts()[1]

    def _texts(self) -> tuple[list[str], list[str]]:
        """(each legal move's plain notation, its notation told apart from the others')."""
        move = self.MOVE  # type: ignore[attr-defined]
        return _told_apart(self.legal, move, self.copy() if True in move.READS else None)

    def notation(self, move: tuple) -> str:
        """The notation of one legal move in this state."""
        return self.notations()[self.legal.index(move)]

    def move_from_text(self, text: str) -> Move:
        """The legal move whose notation is ``text`` (surrounding blanks ignored); a text that
        several moves share is refused with each one's own notation."""
        want = " ".join(str(text).split())
        if self.over:
            raise self._game_over(repr(want))
        plain, texts = self._texts()
        move = self.MOVE  # type: ignore[attr-defined]
        reads = move.READS
        for m, p, t in zip(self.legal, plain, texts):
            if t == want:
                return move(m) if t == p and not (reads and reads[m[0]]) else move.named(m, t)
        if True in reads:  # a notation read in the position may also be given as name and values
            formats = move.FORMATS
            bare = [(m, t) for m, t in zip(self.legal, texts) if reads[m[0]] and formats[m[0]](*m[1:]) == want]
            if len(bare) == 1:
                return move.named(*bare[0])
        alike = [t for p, t in zip(plain, texts) if p == want]
        if len(alike) > 1:
            raise IllegalMove(f"{want!r} could be any of {len(alike)} moves here: "
                              + ", ".join(repr(t) for t in alike) + "; give one of these")
        raise IllegalMove(self._illegal_message(repr(want)))

    def play(self, move: Move | str) -> "BaseState":
        """Play a legal move (or its notation). Raises IllegalMove, leaving the state unchanged;
        a rules error half-way (RulesRuntimeError) also leaves it as it was."""
        if isinstance(move, str):  # a str subclass too, read as the text it is
            move = self.move_from_text(move if move.__class__ is str else str.__str__(move))
        elif self.over:
            raise self._game_over(repr(str(move)) if isinstance(move, Move) else repr(move))
        legal = self._legal_source()
        try:
            move = legal[legal.index(move)]  # the engine's own tuple, never the caller's 1.0 or True
        except (ValueError, TypeError):
            raise IllegalMove(self._illegal_message(repr(str(move)) if isinstance(move, Move) else repr(move))) \
                from None
        before = self._keep()
        try:
            return self.advance(move)
        except BaseException:
            self._unkeep()
            self._restore(before)
            raise

    def _keep(self) -> "BaseState":
        """The state as it is, kept for play's rollback: in a spare copy made at the first checked
        move and overwritten in place after that (``_keep_into``), so that a checked move makes
        no new state or lists."""
        try:
            spare = self._spare  # type: ignore[has-type]
        except AttributeError:
            spare = None
        if spare is None:
            spare = self._spare = self.copy()  # type: ignore[attr-defined]
        else:
            self._keep_into(spare)  # type: ignore[attr-defined]
        return spare

    def _unkeep(self) -> None:
        """Forget the spare copy (its places are about to become this state's own)."""
        self._spare = None

    def advance(self, move: tuple) -> "BaseState":
        """Play ``move``, which must be one of ``self.legal`` as listed there: the fast path of
        agents and simulations, without the checks of :meth:`play`. After a rules error the
        state is left half-played: use it on states you can throw away."""
        if self.over:
            raise self._game_over(repr(move))
        self.decisions += 1
        if self.decisions > self.MAX_DECISIONS:
            raise self._too_long()
        try:
            self.APPLY[move[0]](self, move)  # type: ignore[attr-defined, index]
        except (IllegalMove, RulesRuntimeError):
            raise
        except Exception as exc:  # a bug in the rules text, reported at its rules line
            raise _runtime_error(exc) from exc
        return self

    def _too_long(self) -> RulesRuntimeError:
        """The error of a game that went past its most decisions (MAX_DECISIONS)."""
        name, _kind, line = self.STEPS[self.step]  # type: ignore[attr-defined]
        declared = self.MAX_DECISIONS < MAX_DECISIONS
        return RulesRuntimeError(
            f"{self.GAME.rules_file}:{line}: the game has not ended after {self.MAX_DECISIONS:,} decisions "
            f"(now at step {name}); "
            + ("the rules say no game takes more (max decisions)" if declared else
               "do the rules declare an end (end when ...) that can happen?"))

    def play_random_playout(self, seed: int = 0, limit: int = 0) -> "BaseState":
        """Play on with uniformly random moves, picked by ``Rng(seed).below`` over ``legal``, to
        the end (or for at most ``limit`` moves when limit > 0): the fast path of simulations and
        MCTS rollouts (a native engine runs the same loop compiled, with the same picks).
        Returns the state."""
        below = Rng(seed).below
        left = limit if limit > 0 else -1
        while not self.over and left != 0:
            legal = self.legal
            self.advance(legal[below(len(legal))])
            left -= 1
        return self

    def play_random_seats(self, rngs: list) -> "BaseState":
        """Play on to the end, each seat p picking uniformly with ``rngs[p].below`` (the Rng
        objects advance): the games ``random`` agents play, in one loop (compiled in a native
        engine). Returns the state."""
        while not self.over:
            legal = self.legal
            self.advance(legal[rngs[self.cur].below(len(legal))])
        return self

    def _histories(self) -> int:
        """How many sets of places the rules' repeated(...) compares (their keys are kept)."""
        return int(self.GAME.namespace.get("HISTORIES", 0))

    def _restore(self, other: "BaseState") -> None:
        """Take every field back from ``other`` (a copy made before a failed move)."""
        for attr in self.FIELDS:
            setattr(self, attr, getattr(other, attr))

    # -- game-AI tools: action ids, observations, resampling, pickling -----------------------
    def legal_action_ids(self) -> list[int]:
        """The ids of the legal moves (``game.action_space``), in ``legal_moves()`` order."""
        return self.GAME.action_space(self.n).encode_all(self.legal)

    def perft(self, depth: int) -> int:
        """How many sequences of ``depth`` decisions the game allows from here: every legal
        move played in turn, to that depth (a game that ends sooner has none past its end;
        ``perft(0)`` is 1). The count chess programmers check a move generator with, for any
        game: a change of the rules that changes it changed what can be played. Natively a
        loop in C (regle.runtime._search), with nothing made per position."""
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"perft counts sequences of 0 decisions or more, not {depth!r}")
        if getattr(self, "NATIVE", False):
            try:
                from . import _search
            except ImportError:  # pragma: no cover - the kernels always build with native engines
                pass
            else:
                return _search.perft(self, depth)
        return _perft(self, depth)

    def action_mask(self) -> "npt.NDArray[numpy.int8]":
        """1 for each legal action id, 0 elsewhere (a NumPy int8 array; a bytearray where NumPy
        is not installed)."""
        from .actions import mask
        return mask(self.legal_action_ids(), len(self.GAME.action_space(self.n)))

    def play_id(self, action_id: int) -> "BaseState":
        """Play the legal move numbered ``action_id`` (IllegalMove when no legal move has it,
        GameOver after the end)."""
        return self.play(self._move_of_id(action_id))

    def advance_id(self, action_id: int) -> "BaseState":
        """``play_id`` in place, for loops that own the state (as ``advance``)."""
        return self.advance(self._move_of_id(action_id))

    def _move_of_id(self, action_id: int):
        space = self.GAME.action_space(self.n)
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < len(space):
            raise IllegalMove(f"action id {action_id!r}: ids are whole numbers from 0 to {len(space) - 1}")
        if self.over:
            raise self._game_over(f"action id {action_id} ({space.describe(action_id)})")
        legal = self.legal
        ids = space.encode_all(legal)  # (the list legal_action_ids() just made: remembered by the space)
        try:  # found in C: the first move with that id (one walk of the list, not a test and then a search)
            return legal[ids.index(action_id)]
        except ValueError:
            pass
        raise IllegalMove(f"action id {action_id} ({space.describe(action_id)}) is not a legal move here")

    def observation(self, player: int | None) -> "npt.NDArray[numpy.float32]":
        """What ``player`` may see, as a flat vector (``game.observation_spec`` names its
        slices; regle.runtime.observe); None: a spectator. A NumPy float32 array (a list of
        numbers where NumPy is not installed)."""
        self._check_seat(player)
        out = self._observe(player)  # type: ignore[attr-defined]
        try:
            import numpy
        except ImportError:  # NumPy is optional
            return out
        return numpy.asarray(out, dtype=numpy.float32)

    def resample(self, player: int, seed: int) -> "BaseState":
        """A copy in which what ``player`` may not see is dealt again at random (determinisation,
        as the MCTS agent searches): the same for the same seed."""
        from .hidden import determinize
        from .rng import Rng
        self._check_seat(player)
        return determinize(self, player, Rng(seed))

    def _check_seat(self, player: int | None) -> None:
        """ValueError naming the seats when ``player`` is not one of this game's (None: a
        spectator, where that is allowed)."""
        if player is None:
            return
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.n:
            raise ValueError(f"seat {player!r}: this game's seats are 0 to {self.n - 1} (None: a spectator)")

    def __reduce__(self):
        """A state pickles as its game and its saved form (``to_json``)."""
        return (_restore_state, (self.GAME, self.to_json()))

    def __deepcopy__(self, memo: dict) -> "BaseState":
        """``copy.deepcopy`` is :meth:`copy` (OpenSpiel's ``clone()`` deep-copies the fields of
        an adapter's state), not a round trip through the saved form."""
        twin = self.copy()
        memo[id(self)] = twin
        return twin

    def _game_over(self, what: str) -> GameOver:
        winners = self.winners
        result = "a draw" if not winners else " and ".join(f"P{w + 1}" for w in winners) + " won"
        return GameOver(f"{what} cannot be played: the game is over ({result})")

    def _illegal_message(self, what: str) -> str:
        if self.over:
            return f"illegal move {what}: the game is over"
        shown = ", ".join(str(m) for m in self.legal_moves()[:12])
        more = f" and {len(self.legal) - 12} more" if len(self.legal) > 12 else ""
        return f"illegal move {what} for player {self.cur + 1}; legal moves: {shown}{more}"

    @property
    def scores(self) -> list[int]:
        """Each seat's score by the rules' scoring clauses (available at any time). This is
        the whole truth: what one seat may see of it is :meth:`scores_seen_by`."""
        try:
            return self._scores()  # type: ignore[attr-defined]
        except (IllegalMove, RulesRuntimeError):
            raise
        except Exception as exc:
            raise _runtime_error(exc, "while scoring") from exc

    @property
    def announcements(self) -> list[tuple[int, str]]:
        """What the rules announced so far (``announce "..."``), in order: (the number of the
        decision during which it was said, counted from 1, or 0 in the setup; the text).
        Public: every seat sees them."""
        return list(getattr(self, "announced", ()))

    def score_parts_seen_by(self, viewer: int | None) -> list[list[tuple[str, int | None]]]:
        """Per seat, each score clause's (name, points) as ``viewer`` may see them: a clause
        reading what the viewer may not see is None until the end."""
        secrecy = self.SCORE_SECRECY  # type: ignore[attr-defined]
        out = []
        for seat in range(self.n):
            parts = self._score_parts(seat)  # type: ignore[attr-defined]
            out.append([(name, points if self.over or level == "public" or (level == "owner" and seat == viewer)
                         else None) for (name, points), level in zip(parts, secrecy)])
        return out

    def scores_seen_by(self, viewer: int | None) -> list[int | None]:
        """The scores as seat ``viewer`` (None: a spectator) may see them: a seat's score that
        reads something the viewer may not see (face-down cards won) is None until the end."""
        scores = self.scores
        if self.over:
            return scores
        secrecy = self.SCORE_SECRECY  # type: ignore[attr-defined]
        if "nobody" in secrecy:
            return [None] * self.n
        if "owner" in secrecy:
            return [v if seat == viewer else None for seat, v in enumerate(scores)]
        return scores

    @property
    def winners(self) -> list[int]:
        """Winning seats once the game is over: one seat, several for a shared win, [] for a draw."""
        if not self.over:
            return []
        try:
            return self._winners()  # type: ignore[attr-defined]
        except Exception as exc:
            raise _runtime_error(exc, "while ranking the players") from exc

    @property
    def leaders(self) -> list[int]:
        """The seats ranked first by the winner rules, ties included (even when a tie is a
        draw): who shares a draw, for agents that reward it."""
        try:
            return self._leaders()  # type: ignore[attr-defined]
        except Exception as exc:
            raise _runtime_error(exc, "while ranking the players") from exc

    @property
    def step_name(self) -> str:
        return self.STEPS[self.step][0] if not self.over else "over"  # type: ignore[attr-defined]

    def require_invariants(self, after: str = "") -> None:
        """Raise RulesRuntimeError naming the rules line of the first invariant that does not
        hold (the debug mode of ``--check``: invariants after every decision)."""
        broken = self.check_invariants()
        if broken:
            name = broken[0]
            line = self.INVARIANT_LINES[self.INVARIANTS.index(name)]  # type: ignore[attr-defined]
            raise RulesRuntimeError(f"{self.GAME.rules_file}:{line}: invariant {name} does not hold"
                                    + (f" after {after}" if after else ""))

    def check_invariants(self) -> list[str]:
        """Names of the declared invariants that do not hold (empty when all hold)."""
        try:
            return self._broken_invariants()  # type: ignore[attr-defined]
        except Exception as exc:
            raise _runtime_error(exc, "while checking the invariants") from exc

    # -- serialisation --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (format ``regle-state/1``, see docs/state.md)."""
        zones: dict[str, Any] = {}
        for name, attr, per, *_ in self.ZONES:  # type: ignore[attr-defined]
            value = getattr(self, attr)
            zones[name] = [list(v) for v in value] if per else list(value)
        for name, attr, per, _hidden, _private, kind, *_ in self.GRIDS:  # type: ignore[attr-defined]
            value = getattr(self, attr)
            if kind == "int":  # a grid of numbers: the numbers
                zones[name] = [list(v) for v in value] if per else list(value)
            else:  # a grid of elements: the element in each cell, -1 for an empty one
                zones[name] = [[c - 1 for c in v] for v in value] if per else [c - 1 for c in value]
        counters = {}
        for name, attr, per in self.COUNTERS:  # type: ignore[attr-defined]
            value = getattr(self, attr)
            if isinstance(per, tuple):  # two keys: a row of the second per value of the first
                width = per[1]
                counters[name] = [list(value[i:i + width]) for i in range(0, len(value), width)]
            else:
                counters[name] = list(value) if per else value
        return {
            "format": STATE_FORMAT, "game": self.GAME.name, "rules": self.GAME.rules_hash,
            "players": self.n, "seed": self.seed, "current": self.cur, "next": self.nxt,
            "step": self.STEPS[self.step][0], "turns": self.turns,  # type: ignore[attr-defined]
            "decisions": self.decisions, "over": self.over, "rng": self.rng.state,
            "zones": zones, "counters": counters,
            **({"announced": [list(a) for a in self.announced]}  # type: ignore[attr-defined]
               if "announced" in self.FIELDS else {}),
            **({"stuck": bool(self.stuck)} if "stuck" in self.FIELDS else {}),  # type: ignore[attr-defined]
            **({"rolls": list(self.rolls)} if "rolls" in self.FIELDS else {}),  # type: ignore[attr-defined]
            **({"revealed": [list(r) for r in self.revealed]}  # type: ignore[attr-defined]
               if "revealed" in self.FIELDS else {}),
            **({"seen": [list(r) for r in self.seen]}  # type: ignore[attr-defined]
               if "seen" in self.FIELDS else {}),
            **({"history": [_keys(getattr(self, f"hist_{k}")) for k in range(histories)]}
               if (histories := self._histories()) else {}),
        }

    def shown_to_all(self, name: str, part: int = -1) -> bool:
        """Whether everyone sees a hidden or private place (``part``: one seat's or member's):
        the rules revealed it (``reveal``), or the game is over and it is ``shown at end``.
        Nothing else is ever shown: a fold reveals nothing the rules do not say."""
        if self.over and name in self.GAME.namespace.get("SHOWN_AT_END", ()):
            return True
        revealed = getattr(self, "revealed", ())
        return bool(revealed) and ((name, -1) in revealed or (name, part) in revealed)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator): hidden zones and grids become counts,
        and so do other players' private ones, unless the rules revealed them (``reveal``, or
        ``shown at end`` once the game is over); the random generator is left out."""
        self._check_seat(player)
        data = self.to_json()
        del data["rng"], data["seed"]  # with the seed and the moves, every shuffle could be replayed
        zones = data["zones"]
        for spaces, is_grid in ((self.ZONES, False), (self.GRIDS, True)):  # type: ignore[attr-defined]
            for name, _attr, per, hidden, private, kind, *_ in spaces:
                value = zones[name]
                grid = is_grid and kind != "int"  # a grid of numbers is masked as a zone of them
                if hidden:
                    zones[name] = ([v if self.shown_to_all(name, i) else _masked(v, grid) for i, v in enumerate(value)]
                                   if per else value if self.shown_to_all(name) else _masked(value, grid))
                elif private and per == "player":
                    zones[name] = [v if seat == player or self.shown_to_all(name, seat) else _masked(v, grid)
                                   for seat, v in enumerate(value)]
        unordered = self.GAME.namespace.get("UNORDERED", ())
        for name, _attr, per, *_ in (self.ZONES if unordered else ()):  # type: ignore[attr-defined]
            if name in unordered:  # a multiset: in one order, not as it came
                zones[name] = [_in_order(v) for v in zones[name]] if per else _in_order(zones[name])
        counters = data["counters"]
        for name in self.GAME.namespace.get("PRIVATE_COUNTERS", ()):  # another seat's: None, unseen
            counters[name] = [v if seat == player or self.shown_to_all(name, seat) else None
                              for seat, v in enumerate(counters[name])]
        if "seen" in data:  # what a seat saw go out of its sight: its own notes, no one else's
            data["seen"] = sorted(note for note in data["seen"] if note[0] == player)  # facts, in no order
        data["viewer"] = player
        data["scores"] = self.scores_seen_by(player)
        return data

    def __repr__(self) -> str:
        status = "over" if self.over else f"player {self.cur + 1} to play, step {self.step_name}"
        return f"<{self.GAME.title} state: turn {self.turns + 1}, {status}>"


def _restore_state(game: "Game", data: dict) -> BaseState:
    return game.state_from_json(data)


def _in_order(value: Any) -> Any:
    """A multiset's elements in increasing order (a count of hidden ones as it is)."""
    if not isinstance(value, list):
        return value
    try:
        return sorted(value)
    except TypeError:  # elements that do not compare (none beside numbers): as they are
        return value


def _masked(value: list, is_grid: bool):
    """What is shown of a zone one may not see: how many elements it holds; of a grid: which
    cells are filled (-2: something you cannot see, -1: empty)."""
    if is_grid:
        return [-2 if v >= 0 else -1 for v in value]
    return {"hidden": len(value)}


class Game:
    """A loaded game: what ``regle.load`` returns and what a generated module exposes.

    Costs: ``new_game()`` runs the rules' setup (shuffles and deals); ``action_space(n)`` is
    built once per player count, then cached; ``observation_spec(n)`` is computed at each call
    (a few lists); ``state_from_json`` checks every field of the saved state (its size). Loading
    (``regle.load``) generates the engine once per rules text and caches it on disk.
    """

    #: which engine plays: "python" (the generated module) or "native" (compiled by Cython)
    backend = "python"

    def __init__(self, state_class: type):
        """``state_class``: the generated module's ``State`` (the module builds its own Game at
        import); the module's namespace is found through it."""
        namespace = vars(sys.modules[state_class.__module__])
        self.namespace = namespace
        self.name: str = namespace["NAME"]
        self.title: str = namespace["TITLE"]
        self.players = range(namespace["MIN_PLAYERS"], namespace["MAX_PLAYERS"] + 1)
        self.rules_file: str = namespace["RULES_FILE"]
        self.rules_hash: str = namespace["RULES_HASH"]
        self.State = namespace["State"]
        self.State.GAME = self
        self._new = self.State.new  # (bound once: new_game's common case is one call)
        self._fewest = self.players.start
        self._counts_held = frozenset(self.players)  # (found by hash: a range's test is a few comparisons more)
        if getattr(state_class, "NATIVE", False):  # a compiled engine: new_game's common case made in C
            from ._support import NewGames
            self.new_game = NewGames(state_class.__new__(state_class), self._fewest, self._counts_held,
                                     type(self).new_game.__get__(self), _runtime_error).new_game
        self.module_name: str = namespace["__name__"]
        self._spec = None  # game.spec, read from the module when first asked

    def __repr__(self) -> str:
        return f"<regle game {self.name!r} ({self.title}), players {self.players.start}-{self.players.stop - 1}>"

    def __deepcopy__(self, memo: dict) -> "Game":
        """A game is what its rules say and never changes: a deep copy of anything that holds
        one shares it (loading it again would cost a rebuild each time)."""
        return self

    def __reduce__(self):
        """A game pickles as the way to load it again (set by ``regle.load``), so that states and
        games cross to worker processes and files."""
        rebuild = getattr(self, "_rebuild", None)
        if rebuild is None:
            raise TypeError("this game was not loaded with regle.load/loads: it cannot be pickled")
        return rebuild

    # -- facts for game-AI tools ---------------------------------------------------------------
    @property
    def has_chance(self) -> bool:
        """Whether the rules shuffle or draw random numbers (the seed decides them)."""
        return bool(self.namespace["HAS_CHANCE"])

    @property
    def has_hidden_information(self) -> bool:
        """Whether some place is hidden or private, or some action secret: a seat may not see
        the whole state, or every move."""
        spaces = (*self.namespace["ZONES"], *self.namespace["GRIDS"])
        return any(hidden or private for _n, _a, _p, hidden, private, *_ in spaces) or \
            any(s is not None for s in self.State.MOVE.SECRET) or bool(self.namespace.get("PRIVATE_COUNTERS"))

    @property
    def ties(self) -> str | int:
        """'draw' (a tie on everything: no winner), 'shared' (every tied seat wins), or a seat
        (the tie goes to it when it is among the tied)."""
        return self.namespace["TIES"]

    def max_decisions(self, players: int | None = None) -> int:
        """A bound on the decisions of one game: the rules' ``max decisions N``, else the
        engine's own limit; the engine stops a game that passes it."""
        return self.State.MAX_DECISIONS

    def utility(self, players: int | None = None) -> str:
        """'zero_sum' when the returns always add up to 0 (two seats, one winner or a draw),
        else 'general_sum'. Returns are +1 for a winner, -1 for a loser, 0 for all in a draw."""
        n = self.players.start if players is None else players
        return "zero_sum" if n == 2 and self.ties != "shared" else "general_sum"

    def action_space(self, players: int | None = None):
        """The numbering of every move this game can offer, for a player count (see
        ``regle.runtime.actions``): ``len(space)`` ids, ``space.describe(i)``."""
        try:
            return self._spaces[players]
        except (AttributeError, KeyError):
            pass
        from .actions import ActionSpace
        n = self.players.start if players is None else players
        if isinstance(n, bool) or not isinstance(n, int) or n not in self.players:
            raise ValueError(f"{self.title} is for {self._counts()} players, not {n!r}")
        cache = self.__dict__.setdefault("_spaces", {})
        if n not in cache:
            cache[n] = ActionSpace(self.namespace, n)
        cache[players] = cache[n]
        return cache[n]

    def batch(self, n: int, players: int | None = None, seed: int = 0, seat: int | None = None,
              illegal: str = "raises") -> "Batch":
        """``n`` games stepped together with NumPy arrays (``regle.runtime.batch.Batch``): for
        reinforcement learning. ``seat``: the seat the caller plays, the others playing at
        random (None: the caller plays every seat); ``illegal="loses"``: an id that is not
        legal ends its game, -1 for that seat. Natively each step of all n runs in C."""
        from .batch import Batch
        return Batch(self, n, players, seed, seat, illegal)

    def describe_action(self, action_id: int, players: int | None = None) -> str:
        """The notation of the move numbered ``action_id``."""
        return self.action_space(players).describe(action_id)

    def observation_spec(self, players: int | None = None) -> list[tuple[str, int, int]]:
        """(name, start, length) of each slice of ``state.observation(p)``."""
        from .observe import observation_spec
        n = self.players.start if players is None else players
        if isinstance(n, bool) or not isinstance(n, int) or n not in self.players:
            raise ValueError(f"{self.title} is for {self._counts()} players, not {n!r}")
        return observation_spec(self.namespace, n)

    def new_game(self, players: int | None = None, seed: int = 0, rng: Any = None) -> BaseState:
        """A fresh game after setup, for ``players`` seats (default: the smallest count).
        ``rng``: a generator to draw from instead of the seed's (Python engines; see
        ``regle.runtime.chance``)."""
        if rng is None and (players is None or type(players) is int and players in self._counts_held):  # agents' loops
            try:
                return self._new(self._fewest if players is None else players, seed)
            except Exception as exc:  # a bug in the rules' setup, reported at its rules line
                raise _runtime_error(exc) from exc
        n = self.players.start if players is None else players
        if n not in self.players:
            raise ValueError(f"{self.title} is for {self._counts()} players, not {n}")
        if rng is not None and self.backend != "python":  # the caller's mistake, not the rules'
            raise ValueError("a generator of one's own plays on the Python engine (backend='python'; "
                             "regle.loader.on_backend(game, 'python') gives it)")
        try:
            if rng is not None:
                return self.State.new(n, seed, rng)
            return self.State.new(n, seed)
        except Exception as exc:  # a bug in the rules' setup, reported at its rules line
            raise _runtime_error(exc) from exc

    def _counts(self) -> str:
        lo, hi = self.players.start, self.players.stop - 1
        return str(lo) if lo == hi else f"{lo} to {hi}"

    def state_from_json(self, data: Any) -> BaseState:
        """Rebuild a state saved by ``to_json``; refuse anything that does not fit (StateError)."""
        from .saved import load_state  # local: only needed when loading
        return load_state(self, data)

    # metadata for displays and tools
    @property
    def zones(self) -> tuple:
        """(name, attribute, per player, hidden, private, element kind, capacity) per zone."""
        return self.namespace["ZONES"]

    @property
    def counters(self) -> tuple:
        return self.namespace["COUNTERS"]

    @property
    def grids(self) -> tuple:
        """(name, attribute, per, hidden, private, element kind, shape, width, height, cells)."""
        return self.namespace["GRIDS"]

    @property
    def spec(self) -> "GameSpec":
        """What the rules declare, as data: params, enums, tables (every column), zones,
        counters, boards with their geometry, steps and actions (regle.runtime.spec)."""
        if self._spec is None:
            from .spec import GameSpec
            self._spec = GameSpec(self)
        return self._spec

    def cell_names(self, grid: str) -> tuple:
        return self.namespace["GRID_NAMES"][grid]

    def show(self, kind: str, value: Any, detail: bool = False) -> str:
        """Display an element of a zone of the given kind (``int``, ``enum:x``, ``item:t``);
        ``detail`` adds a table's detail text, for listings."""
        return self.namespace["show_detail" if detail else "show_value"](kind, value)

    def show_counter(self, name: str, value: Any) -> str:
        """Display a counter's value as what it holds (a cell by its name, a seat as P1, ...)."""
        if value is None:  # another seat's private counter
            return "?"
        kind = self.namespace.get("COUNTER_KINDS", {}).get(name)
        return str(value) if kind is None else self.show(kind, value)



def _keys(kept: bytes) -> list[int]:
    """The position keys a state keeps (8 bytes each, little-endian), as numbers."""
    return [int.from_bytes(kept[i:i + 8], "little") for i in range(0, len(kept), 8)]


def _perft(state: BaseState, depth: int) -> int:
    """BaseState.perft on a Python engine: each legal move played on a copy."""
    legal = state.legal  # type: ignore[attr-defined]
    if depth == 0:
        return 1
    if depth == 1 or not legal:
        return len(legal)
    return sum(_perft(state.copy().advance(move), depth - 1) for move in legal)


__all__ = ["Move", "BaseState", "Game", "IllegalMove", "StateError", "RulesRuntimeError", "Rng",
           "MAX_DECISIONS", "STATE_FORMAT"]

