"""Action ids: a stable, dense numbering of every move a game can offer (``game.action_space``).

The compiler gives each action parameter a domain (``Move.DOMAINS``): the items of a table, the
cells of a grid, the members of an enum, a range, the seats, or a packed kernel result. An
action's moves are numbered from its offset by their arguments' places in those domains (mixed
radix, the last argument varying fastest); actions follow each other in rules order. An action
declared ``ids as NAME`` adds no ids: its moves take NAME's ids (``Move.IDS_OF``; the two are
never offered in one step). The same rules and player count give the same ids on any machine
and in any process.
"""
from __future__ import annotations

from math import comb
from typing import Any

from . import ops


class ActionSpace:
    """The numbering of the moves of one game for one player count."""

    def __init__(self, namespace: dict, players: int):
        move_class = namespace["Move"]
        missing = [d[1] for args in move_class.DOMAINS for d in args if d[0] == "unbounded"]
        if missing:
            raise ValueError("this game has no action ids:\n" + "\n".join(missing))
        self.players = players
        self.names: tuple = move_class.NAMES
        self.formats: tuple = move_class.FORMATS
        self.namespace = namespace  # the engine module's: grid names for describing moves
        self.domains: list[list[tuple]] = [[self._sized(d) for d in args] for args in move_class.DOMAINS]
        #: per action, the action whose ids its moves take (itself, unless ``ids as NAME``)
        self.owners: list[int] = [i if o is None else o
                                  for i, o in enumerate(getattr(move_class, "IDS_OF", None) or [None] * len(self.domains))]
        self.offsets: list[int] = []
        self.sizes: list[int] = []  # per action, how many ids its moves have
        self.strides: list[list[int]] = []
        total = 0
        for action, args in enumerate(self.domains):
            strides, size = [], 1
            for d in reversed(args):
                strides.append(size)
                size *= d[1]
            self.strides.append(strides[::-1])
            self.sizes.append(size)
            self.offsets.append(total)
            total += size if self.owners[action] == action else 0
        # an action sharing ids starts where its owner's start (declared before or after it)
        self.offsets = [self.offsets[owner] for owner in self.owners]
        self.size = total
        self.encoders = [self._encoder(a) for a in range(len(self.domains))]
        self.key_plan = self._key_plan()
        self._last_moves: list | None = None
        self._last_ids: list[int] = []
        self._known = _KnownIds(self.encode)  # move tuple -> its id, for encode_all
        #: the id of a move tuple (TypeError for one holding a list): a dict's own lookup, in C,
        #: for loops that map it over many lists of moves (a batch's)
        self.known_id = self._known.__getitem__

    def _sized(self, domain: tuple) -> tuple:
        """(kind, size, ...) with the seats' domain fixed by the player count."""
        if domain[0] == "players":
            return ("value", self.players, 0)
        if domain[0] == "group":
            _kind, colours, cells, grid, kind = domain
            return ("group", colours * cells, cells, grid, kind)
        if domain[0] == "line":
            _kind, cells, dirs, longest, grid = domain
            return ("line", cells * dirs * longest, dirs, longest, grid)
        return domain

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<action space of {self.size:,} ids for {self.players} players>"

    def _key_plan(self):
        """For native engines, which read ids off their move keys in C: 8 numbers per action,
        (kind, offset, lowest, size, lowest, size, stride, 0), where kind is 1 for no argument,
        2 for one plain value, 3 for two, 0 for any other shape (then ids go through tuples);
        6 for three plain values (offset, then lowest and size of each: the strides follow);
        4 for a line move (offset, 0, size, directions, longest) and 5 for a group (offset, 0,
        size, cells), read from the key's fields as the encoders below do. A row of kind -1
        ends the plan."""
        from array import array
        rows: list[int] = []
        for action, doms in enumerate(self.domains):
            off = self.offsets[action]
            if not doms:
                rows += [1, off, 0, 0, 0, 0, 0, 0]
            elif len(doms) == 1 and doms[0][0] == "line":
                _kind, size, dirs, longest, _grid = doms[0]
                rows += [4, off, 0, size, dirs, longest, 0, 0]
            elif len(doms) == 1 and doms[0][0] == "group":
                _kind, size, cells, _grid, _elem = doms[0]
                rows += [5, off, 0, size, cells, 0, 0, 0]
            elif len(doms) == 3 and all(d[0] == "value" for d in doms):  # strides follow from the sizes
                rows += [6, off, doms[0][2], doms[0][1], doms[1][2], doms[1][1], doms[2][2], doms[2][1]]
            elif len(doms) <= 2 and all(d[0] == "value" for d in doms):
                lo1, size1 = doms[0][2], doms[0][1]
                if len(doms) == 1:
                    rows += [2, off, lo1, size1, 0, 0, 0, 0]
                else:
                    rows += [3, off, lo1, size1, doms[1][2], doms[1][1], self.strides[action][0], 0]
            else:
                rows += [0] * 8
        return array("q", rows + [-1, 0, 0, 0, 0, 0, 0, 0])

    # -- moves <-> ids ----------------------------------------------------------------------
    def _encoder(self, action: int):
        """A function move -> id for one action, made for its shape (no arguments, one or two
        plain values: the common cases, without a loop); others go through ``_encode``."""
        off, doms, strides = self.offsets[action], self.domains[action], self.strides[action]
        if not doms:
            return lambda move: off
        if len(doms) == 1 and doms[0][0] == "line":  # the key's fields, as ops.line_* read them
            _kind, size, dirs, longest, _grid = doms[0]

            def line(move):
                key = move[1]
                place = ((key >> 15) * dirs + ((key >> 12) & 7)) * longest + ((key >> 6) & 63)
                if 0 <= place < size and (key >> 6) & 63 < longest:
                    return off + place
                return self._encode(move)
            return line
        if len(doms) == 1 and doms[0][0] == "group":  # colour and first cell, as ops.group_* read them
            _kind, size, cells, _grid, _elem = doms[0]

            def group(move):
                key = move[1]
                place = (((key >> 24) & 255) - 1) * cells + ((key >> 12) & 4095)
                if 0 <= place < size:
                    return off + place
                return self._encode(move)
            return group
        if all(d[0] == "value" for d in doms) and len(doms) <= 2:
            lo1, size1 = doms[0][2], doms[0][1]
            if len(doms) == 1:
                def one(move):
                    place = move[1] - lo1
                    if 0 <= place < size1:
                        return off + place
                    return self._encode(move)  # raises: out of its domain
                return one
            lo2, size2, stride1 = doms[1][2], doms[1][1], strides[0]

            def two(move):
                a, b = move[1] - lo1, move[2] - lo2
                if 0 <= a < size1 and 0 <= b < size2:
                    return off + a * stride1 + b
                return self._encode(move)
            return two
        return self._encode

    def encode(self, move: tuple) -> int:
        """The id of a move tuple ``(action, *args)``."""
        return self.encoders[move[0]](move)

    def encode_all(self, moves: list) -> list[int]:
        """The ids of a list of moves, in order (the last list asked for is remembered: an agent
        loop asks for the same legal moves' ids for the mask and again for the move)."""
        if moves is self._last_moves:
            return self._last_ids
        try:  # each move's id found by its tuple, computed once (a dict's own lookup, in C)
            ids = list(map(self._known.__getitem__, moves))
        except TypeError:  # a move holding a list (a subset): its encoder every time
            encoders = self.encoders
            ids = [encoders[m[0]](m) for m in moves]
        self._last_moves, self._last_ids = moves, ids
        return ids

    def _encode(self, move: tuple) -> int:
        action = move[0]
        out = self.offsets[action]
        for value, domain, stride in zip(move[1:], self.domains[action], self.strides[action]):
            out += self._place(value, domain) * stride
        return out

    @staticmethod
    def _place(value: int, domain: tuple) -> int:
        kind = domain[0]
        if kind == "value":
            place = value - domain[2]
        elif kind in ("subset", "multiset"):
            place = subset_place(value, domain)
        elif kind == "group":  # a group by its colour and first cell (its size follows from them)
            place = ops.group_colour(value) * domain[2] + ops.group_anchor(value)
        else:  # a line move by its head, direction and length (what it pushes follows from them)
            place = (ops.line_head(value) * domain[2] + ops.line_dir(value)) * domain[3] + ops.line_length(value)
        if not 0 <= place < domain[1]:
            raise ValueError(f"the value {value} lies outside its declared domain ({domain[1]} values): "
                             "does a zone hold numbers outside its 'values'?")
        return place

    def action_of(self, action_id: int) -> tuple[int, list[int]]:
        """(action, the arguments' places in their domains) of an id: of ids shared (``ids as``),
        the action whose ids they are (``sharers`` lists the others)."""
        if not 0 <= action_id < self.size:
            raise ValueError(f"no action id {action_id}: ids go from 0 to {self.size - 1}")
        action = next(i for i, (off, size) in enumerate(zip(self.offsets, self.sizes))
                      if self.owners[i] == i and off <= action_id < off + size)
        rest = action_id - self.offsets[action]
        places = []
        for stride in self.strides[action]:
            places.append(rest // stride)
            rest %= stride
        return action, places

    def sharers(self, action: int) -> list[int]:
        """The actions whose moves take ``action``'s ids (``ids as``), itself first."""
        return [action] + [i for i, o in enumerate(self.owners) if o == action and i != action]

    def describe(self, action_id: int) -> str:
        """The notation of the move with this id, as far as it is known without a state (a group
        or a line move is named by what its id holds: colour and first cell, head and length);
        an id that several actions share (``ids as``) reads as each of their moves, "pass 2C or
        2C"."""
        action, places = self.action_of(action_id)
        return " or ".join(self._describe(a, places) for a in self.sharers(action))

    def _describe(self, action: int, places: list[int]) -> str:
        values = []
        exact = True
        for place, domain in zip(places, self.domains[action]):
            if domain[0] == "value":
                values.append(place + domain[2])
            elif domain[0] in ("subset", "multiset"):
                values.append(subset_of(place, domain))
            else:
                exact = False
                values.append(place)
        if exact:
            return self.formats[action](*values)
        ns = self.namespace
        parts = [self.names[action]]
        for place, domain in zip(places, self.domains[action]):
            if domain[0] == "group":
                colour, cell = divmod(place, domain[2])
                names = ns["GRID_NAMES"][domain[3]]
                parts.append(f"the {ns['show_value'](domain[4], colour)} group at {names[cell]}")
            elif domain[0] == "line":
                head, rest = divmod(place, domain[2] * domain[3])
                direction, length = divmod(rest, domain[3])
                names = ns["GRID_NAMES"][domain[4]]
                dirs = next(v for k, v in ns.items() if k.startswith("G_") and k.endswith("__DIRS")
                            and ns.get(k[:-len("DIRS")] + "NAMES") is names)
                parts.append(f"{names[head]}-{dirs[direction]}" + (f" x{length}" if length > 1 else ""))
            else:
                parts.append(str(place + domain[2]))
        return " ".join(parts)


def _ways(values: int, most: int) -> int:
    """How many ways ``values`` kinds of value can be held, at most ``most`` of them in all."""
    return comb(values + most, values)


def subset_place(chosen: tuple, domain: tuple) -> int:
    """A subset's place in its domain (``domain[1]`` when it lies outside): for a "subset", a
    bit per value; for a "multiset", its rank among all the ways of holding at most ``most``
    values, counted value by value (dense: no id is wasted)."""
    kind, size, values, lowest = domain[:4]
    counts = [0] * values
    for v in chosen:
        if not 0 <= v - lowest < values:
            return size
        counts[v - lowest] += 1
    if kind == "subset":
        if max(counts, default=0) > 1:
            return size
        return sum(1 << i for i, n in enumerate(counts) if n)
    left = domain[4]
    if sum(counts) > left:
        return size
    place = 0
    for i, n in enumerate(counts):  # before this count: the ways with fewer of value i
        rest = values - i - 1
        for k in range(n):
            place += _ways(rest, left - k)
        left -= n
    return place


def subset_of(place: int, domain: tuple) -> tuple:
    """The values a subset's place stands for, in increasing order (``subset_place`` undone)."""
    kind, _size, values, lowest = domain[:4]
    if kind == "subset":
        return tuple(lowest + i for i in range(values) if place >> i & 1)
    left, out = domain[4], []
    for i in range(values):
        rest, n = values - i - 1, 0
        while place >= _ways(rest, left - n):
            place -= _ways(rest, left - n)
            n += 1
        out += [lowest + i] * n
        left -= n
    return tuple(out)


def mask(ids: list[int], size: int) -> Any:
    """A 0/1 mask of ``size`` with ones at ``ids``: a NumPy int8 array when NumPy is installed,
    else a bytearray."""
    out = bytearray(size)
    for i in ids:
        out[i] = 1
    try:
        import numpy
    except ImportError:  # NumPy is optional
        return out
    return numpy.frombuffer(out, dtype=numpy.int8)  # the array wraps the bytearray: writable, no copy


class _KnownIds(dict):
    """Move tuples and their ids, each found by its encoder the first time it is asked for
    (at most one entry per id of the action space)."""

    def __init__(self, encode):
        super().__init__()
        self.encode = encode

    def __missing__(self, move: tuple) -> int:
        found = self[move] = self.encode(move)
        return found
