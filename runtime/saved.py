"""Loading saved states: validate everything against the game's declared structure first.

A saved state is untrusted data. Nothing is built until every field has been checked, so a
refused state leaves nothing half-loaded; the error names the offending field.
"""
from __future__ import annotations

import reprlib
from typing import Any

from .engine import MAX_DECISIONS, STATE_FORMAT, BaseState, Game
from .errors import StateError
from .ops import MAX_NUMBER, MAX_ZONE
from .rng import MASK

_short = reprlib.Repr()
_short.maxlevel, _short.maxstring, _short.maxother, _short.maxlist = 3, 40, 40, 6


def _show(value: Any) -> str:
    """A short, safe rendering of an untrusted value for a message (no deep recursion, no
    10,000-digit number)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of {value.bit_length():,} bits"
    try:
        return _short.repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__} too large to show"

_FIELDS = {"format", "game", "rules", "players", "seed", "current", "next", "step", "turns", "decisions",
           "over", "rng", "zones", "counters", "viewer", "announced", "stuck", "history", "rolls", "revealed", "seen"}
#: announced: only in games whose rules announce things; stuck: in games whose end reads it;
#: history: in games whose end conditions read repeated(...)
_OPTIONAL = {"viewer", "announced", "stuck", "history", "rolls", "revealed", "seen"}
MAX_HISTORY = 1_000_000  # position keys kept per set of places
MAX_ANNOUNCED = 100_000  # announcements kept in a saved state, each at most MAX_TEXT characters
MAX_TEXT = 10_000


def _int(value: Any, field: str, lo: int | None = -MAX_NUMBER, hi: int | None = MAX_NUMBER) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"field '{field}': expected a whole number, got {type(value).__name__}")
    if lo is not None and value < lo:
        raise StateError(f"field '{field}': {_show(value)} is below {lo}")
    if hi is not None and value > hi:
        raise StateError(f"field '{field}': {_show(value)} is above {hi}")
    return value


def _items(value: Any, field: str, kind: str, sizes: dict, capacity: int | None) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"field '{field}': expected a list, got {type(value).__name__}")
    if capacity is not None and len(value) > capacity:
        raise StateError(f"field '{field}': {len(value)} items, but the zone holds at most {capacity}")
    if len(value) > MAX_ZONE:
        raise StateError(f"field '{field}': {len(value):,} items, more than any zone may hold ({MAX_ZONE:,})")
    bound = sizes.get(kind)
    lowest = -1 if kind.startswith("enum:") else 0  # -1 is an enum's `none` (a '-' in a table)
    out = []
    for i, v in enumerate(value):
        if kind == "bool":
            if not isinstance(v, bool):
                raise StateError(f"field '{field}[{i}]': expected true/false")
            out.append(v)
            continue
        out.append(_int(v, f"{field}[{i}]", lowest if bound is not None else -MAX_NUMBER,
                        bound - 1 if bound is not None else MAX_NUMBER))
    return out


def _grid(value: Any, field: str, kind: str, sizes: dict, cells: int) -> bytearray | list:
    """A grid: one element code per cell, -1 for an empty one (``sizes['player']`` = seats)."""
    if not isinstance(value, list) or len(value) != cells:
        raise StateError(f"field '{field}': expected a list of {cells} cells (-1 for an empty one)")
    if kind == "int":  # a grid of numbers
        return [_int(v, f"{field}[{i}]", -MAX_NUMBER, MAX_NUMBER) for i, v in enumerate(value)]
    bound = sizes.get(kind, 254)
    return bytearray(_int(v, f"{field}[{i}]", -1, min(bound, 254) - 1) + 1 for i, v in enumerate(value))


def _fill(grid, values: list, per) -> None:
    """A blank grid of numbers (one per seat when ``per``) given its cells, checked already."""
    for part, cells in zip(grid, values) if per else ((grid, values),):
        for i, v in enumerate(cells):
            part[i] = v


def _per(given: dict, name: str, per, n: int, read) -> Any:
    """Read a zone or grid, one per seat / enum member when ``per`` says so."""
    if name not in given:
        raise StateError(f"field 'zones.{name}' is missing")
    value = given[name]
    if not per:
        return read(value, f"zones.{name}")
    count = n if per == "player" else per
    if not isinstance(value, list) or len(value) != count:
        raise StateError(f"field 'zones.{name}': expected {count} lists, one per "
                         f"{'player' if per == 'player' else 'member'}")
    return [read(v, f"zones.{name}[{i}]") for i, v in enumerate(value)]


def _string_keys(obj: dict, field: str) -> None:
    if not all(isinstance(k, str) for k in obj):
        raise StateError(f"field '{field}': its keys must be names (strings)")


def _items_once(ns: dict, zones: dict, n: int) -> None:
    """Each item of a table lies in one place at most: an item is a component, not a value."""
    seen: dict[tuple[str, int], str] = {}
    spaces = [(z[0], z[1], z[2], z[5], False) for z in ns["ZONES"]] + \
             [(g[0], g[1], g[2], g[5], True) for g in ns["GRIDS"]]
    for name, attr, per, kind, is_grid in spaces:
        if not kind.startswith("item:"):
            continue
        places = zones[attr] if per else [zones[attr]]
        for i, place in enumerate(places):
            where = f"zones.{name}[{i}]" if per else f"zones.{name}"
            values = [v - 1 for v in place if v] if is_grid else place
            for v in values:
                if (kind, v) in seen:
                    raise StateError(f"field '{where}': item {v} of {kind[5:]} is also in {seen[(kind, v)]}; "
                                     "an item lies in one place at a time")
                seen[(kind, v)] = where


def _announced(value: Any, decisions: int) -> tuple:
    """The announcements of a saved state: [[decision, text], ...] in the order they were said."""
    if not isinstance(value, list) or len(value) > MAX_ANNOUNCED:
        raise StateError(f"field 'announced': expected a list of at most {MAX_ANNOUNCED:,} [decision, text] pairs")
    out, last = [], 0
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[1], str) or len(pair[1]) > MAX_TEXT:
            raise StateError(f"field 'announced[{i}]': expected [decision, text] with a text of at most {MAX_TEXT:,} characters")
        at = _int(pair[0], f"announced[{i}][0]", last, decisions)
        out.append((at, pair[1]))
        last = at
    return tuple(out)


def _not_ended_before(s: BaseState, n: int) -> None:
    """A state at the start of a turn: the turn before ended without ending the game, so the
    end conditions, read as its seat (the one before), do not hold."""
    cur = s.cur
    s.cur = (cur - 1) % n
    try:
        ended = s._end_reached()
    except Exception as exc:  # noqa: BLE001 - the rules cannot even read this state
        raise StateError(f"the rules cannot read this state: {exc}") from None
    finally:
        s.cur = cur
    if ended:
        raise StateError("field 'over': the game is marked not over, but an end condition holds after the "
                         f"turn of P{(cur - 1) % n + 1}: the game would have ended")


def _items_of(ns: dict, s: BaseState, kind: str) -> list[int]:
    """Every item of ``kind`` in the state's zones and grids (sorted)."""
    found: list[int] = []
    for _name, attr, per, _h, _p, k, *_ in ns["ZONES"]:
        if k == kind:
            value = getattr(s, attr)
            for part in (value if per else [value]):
                found.extend(part)
    for _name, attr, per, _h, _p, k, *_ in ns["GRIDS"]:
        if k == kind:
            value = getattr(s, attr)
            for part in (value if per else [value]):
                found.extend(v - 1 for v in part if v)
    return sorted(found)


def _conserved(game: Game, ns: dict, s: BaseState, n: int, seed: int) -> None:
    """Each item of a kind play never makes nor takes lies in exactly one place, and they are
    the items a new game of the same seed holds (none missing, none added)."""
    kinds = ns.get("CONSERVED_ITEMS", ())
    if not kinds:
        return
    try:
        fresh = game.new_game(players=n, seed=seed)
    except Exception:  # noqa: BLE001 - a setup that fails is the rules' to report, elsewhere
        return
    for kind in kinds:
        have, want = _items_of(ns, s, kind), _items_of(ns, fresh, kind)
        if have != want:
            missing = sorted(set(want) - set(have))
            extra = sorted(set(have) - set(want))
            what = (f"item {missing[0]} of {kind[5:]} is nowhere" if missing else
                    f"item {extra[0]} of {kind[5:]} is not part of this game" if extra else
                    f"{len(have) - len(want)} items of {kind[5:]} too many")
            raise StateError(f"the state does not hold the game's items: {what} (every one lies in exactly one "
                             "place: the rules never add nor remove one)")


def load_state(game: Game, data: Any) -> BaseState:
    """Build a state from ``to_json`` data, or raise StateError naming the first bad field."""
    if not isinstance(data, dict):
        raise StateError(f"a saved state is a JSON object, not {type(data).__name__}")
    if "viewer" in data:
        raise StateError("field 'viewer': this is a player's view, not a whole state; views cannot be loaded")
    _string_keys(data, "the state")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise StateError(f"unknown field '{unknown[0]}'")
    for field in sorted(_FIELDS - _OPTIONAL):
        if field not in data:
            raise StateError(f"field '{field}' is missing")
    if data["format"] != STATE_FORMAT:
        raise StateError(f"field 'format': expected {STATE_FORMAT!r}, got {_show(data['format'])}")
    if data["game"] != game.name:
        raise StateError(f"field 'game': this state is for {_show(data['game'])}, not {game.name!r}")
    if data["rules"] != game.rules_hash:
        raise StateError(f"field 'rules': the state was saved with other rules ({_show(data['rules'])}; "
                         f"these are {game.rules_hash!r})")
    ns = game.namespace
    n = _int(data["players"], "players")
    if n not in game.players:
        raise StateError(f"field 'players': {game.title} is for {game.players.start}-{game.players.stop - 1} players, not {n}")
    seed = _int(data["seed"], "seed")
    cur = _int(data["current"], "current", 0, n - 1)
    nxt = _int(data["next"], "next", -1, n - 1 if ns["NEXT_PLAYER"] else -1)  # -1: the next seat in order
    steps = [s[0] for s in ns["STEPS"]]
    if not isinstance(data["step"], str) or data["step"] not in steps:
        raise StateError(f"field 'step': unknown step {_show(data['step'])} (steps: {', '.join(steps)})")
    step = steps.index(data["step"])
    decisions = _int(data["decisions"], "decisions", 0, MAX_DECISIONS)
    # a turn takes a decision, but for at most 1,000 turns in a row that offer none
    turns = _int(data["turns"], "turns", 0, 1001 * (decisions + 1))
    if not isinstance(data["over"], bool):
        raise StateError("field 'over': expected true or false")
    rng = _int(data["rng"], "rng", 0, MASK)
    sizes = dict(ns["KIND_SIZES"], player=n)
    zones_in = data["zones"]
    if not isinstance(zones_in, dict):
        raise StateError("field 'zones': expected an object")
    _string_keys(zones_in, "zones")
    names = {z[0] for z in ns["ZONES"]} | {g[0] for g in ns["GRIDS"]}
    extra = sorted(set(zones_in) - names)
    if extra:
        raise StateError(f"field 'zones.{extra[0]}': no such zone in {game.title}")
    zones = {}
    for name, attr, per, _hidden, _private, kind, capacity in ns["ZONES"]:
        zones[attr] = _per(zones_in, name, per, n, lambda v, f: _items(v, f, kind, sizes, capacity))
    for name, attr, per, _hidden, _private, kind, _shape, _w, _h, cells in ns["GRIDS"]:
        zones[attr] = _per(zones_in, name, per, n, lambda v, f: _grid(v, f, kind, sizes, cells))
    counters_in = data["counters"]
    if not isinstance(counters_in, dict):
        raise StateError("field 'counters': expected an object")
    _string_keys(counters_in, "counters")
    names = {c[0] for c in ns["COUNTERS"]}
    extra = sorted(set(counters_in) - names)
    if extra:
        raise StateError(f"field 'counters.{extra[0]}': no such counter in {game.title}")
    counters = {}
    for name, attr, per in ns["COUNTERS"]:
        if name not in counters_in:
            raise StateError(f"field 'counters.{name}' is missing")
        value = counters_in[name]
        if isinstance(per, tuple):  # two keys: a list of rows, kept row after row in one list
            rows, width = (n if per[0] == "player" else per[0]), per[1]
            if not (isinstance(value, list) and len(value) == rows
                    and all(isinstance(row, list) and len(row) == width for row in value)):
                raise StateError(f"field 'counters.{name}': expected {rows} lists of {width} numbers")
            counters[attr] = [_int(v, f"counters.{name}[{i}][{k}]") for i, row in enumerate(value)
                              for k, v in enumerate(row)]
        elif per:
            count = n if per == "player" else per
            if not isinstance(value, list) or len(value) != count:
                raise StateError(f"field 'counters.{name}': expected a list of {count} numbers")
            counters[attr] = [_int(v, f"counters.{name}[{i}]") for i, v in enumerate(value)]
        else:
            counters[attr] = _int(value, f"counters.{name}")
    _items_once(ns, zones, n)
    announced = _announced(data.get("announced", []), decisions) if "announced" in game.State.FIELDS else None
    if announced is None and "announced" in data:
        raise StateError(f"field 'announced': {game.title} announces nothing")
    histories = int(ns.get("HISTORIES", 0))
    history = data.get("history", [[] for _ in range(histories)])
    if "history" in data and not histories:
        raise StateError(f"field 'history': {game.title}'s end conditions read no repeated positions")
    if not isinstance(history, list) or len(history) != histories or not all(
            isinstance(keys, list) and len(keys) <= MAX_HISTORY for keys in history):
        raise StateError(f"field 'history': expected {histories} lists of position keys")
    history = [b"".join(_int(k, f"history[{i}][{j}]", 0, 2 ** 63 - 1).to_bytes(8, "little")
                        for j, k in enumerate(keys)) for i, keys in enumerate(history)]
    stuck = data.get("stuck", False)
    if "stuck" in data and ("stuck" not in game.State.FIELDS or not isinstance(stuck, bool)):
        raise StateError("field 'stuck': expected true or false" if "stuck" in game.State.FIELDS
                         else f"field 'stuck': {game.title}'s end conditions do not read it")
    rolls = data.get("rolls", [])
    if "rolls" in data and "rolls" not in game.State.FIELDS:
        raise StateError(f"field 'rolls': {game.title} draws no random numbers during play")
    if not isinstance(rolls, list) or len(rolls) > MAX_HISTORY:
        raise StateError("field 'rolls': expected a list of the numbers drawn")
    rolls = [_int(v, f"rolls[{i}]", 0, 2 ** 63 - 1) for i, v in enumerate(rolls)]
    revealed = data.get("revealed", [])
    if "revealed" in data and "revealed" not in game.State.FIELDS:
        raise StateError(f"field 'revealed': {game.title} reveals nothing")
    places = {z[0]: z[2] for z in ns["ZONES"]} | {g[0]: g[2] for g in ns["GRIDS"]} | \
        {c[0]: c[2] for c in ns["COUNTERS"] if c[0] in ns.get("PRIVATE_COUNTERS", ())}
    if not isinstance(revealed, list) or not all(
            isinstance(r, list) and len(r) == 2 and r[0] in places and isinstance(r[1], int)
            and not isinstance(r[1], bool) and -1 <= r[1] < (n if places[r[0]] == "player" else places[r[0]] or 0)
            for r in revealed):
        raise StateError("field 'revealed': expected [place, part] pairs of this game's zones, grids and "
                         "private counters")
    revealed = tuple(sorted({(r[0], r[1]) for r in revealed}))
    seen = _seen(data, game, n, places)
    # everything checked: build
    s = game.State._blank(n, seed)
    s.cur, s.nxt, s.step, s.turns, s.decisions, s.over = cur, nxt, step, turns, decisions, data["over"]
    s.repeats = 0  # a count within one turn only, not saved
    s.rng.state = rng
    numbers = {attr: per for _n, attr, per, _h, _p, kind, *_ in ns["GRIDS"] if kind == "int"}
    for attr, value in {**zones, **counters}.items():
        if attr in numbers:  # into the blank grid's own cells (natively an array of C numbers)
            _fill(getattr(s, attr), value, numbers[attr])
        else:
            setattr(s, attr, value)
    if announced is not None:
        s.announced = announced
    if "stuck" in game.State.FIELDS:
        s.stuck = stuck
    if "rolls" in game.State.FIELDS:
        s.rolls = rolls
    if "revealed" in game.State.FIELDS:
        s.revealed = revealed
    if "seen" in game.State.FIELDS:
        s.seen = seen
    for k, keys in enumerate(history):
        setattr(s, f"hist_{k}", keys)
    try:
        broken = s.check_invariants()
        ended = s._end_reached() if s.over and not ns["ENDS_BY_STATEMENT"] else True
    except Exception as exc:  # noqa: BLE001 - the rules cannot even read this state
        raise StateError(f"the rules cannot read this state: {exc}") from None
    if broken:
        line = ns["INVARIANT_LINES"][ns["INVARIANTS"].index(broken[0])]
        raise StateError(f"the state breaks the rules' invariant '{broken[0]}' ({game.rules_file}:{line})")
    if not ended:
        raise StateError("field 'over': the game is marked over, but none of its end conditions holds")
    if not s.over and step == 0 and turns > 0 and ns.get("ENDS_CHECKED_ON_LOAD"):
        _not_ended_before(s, n)
    _conserved(game, ns, s, n, seed)
    try:
        s.legal = [] if s.over else s._decide()
    except Exception as exc:  # noqa: BLE001 - a state the rules cannot continue from
        raise StateError(f"the state cannot be continued: {exc}") from None
    if not s.over and not s.legal:
        raise StateError(f"field 'step': nothing can be decided at step {data['step']!r} in this state")
    return s


def _seen(data: dict, game, n: int, places: dict) -> tuple:
    """The saved notes of items a seat saw go where it cannot see: [seat, place, part, item]."""
    seen = data.get("seen", [])
    if "seen" in data and "seen" not in game.State.FIELDS:
        raise StateError(f"field 'seen': no secret move of {game.title} puts anything out of its player's sight")
    if not isinstance(seen, list) or len(seen) > MAX_HISTORY or not all(
            isinstance(r, list) and len(r) == 4 and all(isinstance(v, int) and not isinstance(v, bool) for v in (r[0], r[2], r[3]))
            and 0 <= r[0] < n and r[1] in places and -1 <= r[2] < (n if places[r[1]] == "player" else places[r[1]] or 0)
            and r[3] >= 0 for r in seen):
        raise StateError("field 'seen': expected [seat, place, part, item] notes of this game's zones")
    return tuple(tuple(r) for r in seen)
