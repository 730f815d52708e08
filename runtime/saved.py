"""Loading saved states: validate everything against the game's declared structure first.

A saved state is untrusted data. Nothing is built until every field has been checked, so a
refused state leaves nothing half-loaded; the error names the offending field.
"""
from __future__ import annotations

from typing import Any

from .engine import STATE_FORMAT, BaseState, Game
from .errors import StateError
from .rng import MASK

_FIELDS = {"format", "game", "rules", "players", "seed", "current", "next", "step", "turns", "decisions",
           "over", "rng", "zones", "counters", "viewer"}


def _int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"field '{field}': expected a whole number, got {type(value).__name__}")
    if lo is not None and value < lo:
        raise StateError(f"field '{field}': {value} is below {lo}")
    if hi is not None and value > hi:
        raise StateError(f"field '{field}': {value} is above {hi}")
    return value


def _items(value: Any, field: str, kind: str, sizes: dict, capacity: int | None) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"field '{field}': expected a list, got {type(value).__name__}")
    if capacity is not None and len(value) > capacity:
        raise StateError(f"field '{field}': {len(value)} items, but the zone holds at most {capacity}")
    bound = sizes.get(kind)
    out = []
    for i, v in enumerate(value):
        if kind == "bool":
            if not isinstance(v, bool):
                raise StateError(f"field '{field}[{i}]': expected true/false")
            out.append(v)
            continue
        out.append(_int(v, f"{field}[{i}]", 0 if bound is not None else None,
                        bound - 1 if bound is not None else None))
    return out


def _grid(value: Any, field: str, kind: str, sizes: dict, cells: int) -> bytearray:
    """A grid: one element code per cell, -1 for an empty one (``sizes['player']`` = seats)."""
    if not isinstance(value, list) or len(value) != cells:
        raise StateError(f"field '{field}': expected a list of {cells} cells (-1 for an empty one)")
    bound = sizes.get(kind, 254)
    return bytearray(_int(v, f"{field}[{i}]", -1, min(bound, 254) - 1) + 1 for i, v in enumerate(value))


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


def load_state(game: Game, data: Any) -> BaseState:
    """Build a state from ``to_json`` data, or raise StateError naming the first bad field."""
    if not isinstance(data, dict):
        raise StateError(f"a saved state is a JSON object, not {type(data).__name__}")
    if "viewer" in data:
        raise StateError("field 'viewer': this is a player's view, not a whole state; views cannot be loaded")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise StateError(f"unknown field '{unknown[0]}'")
    for field in sorted(_FIELDS - {"viewer"}):
        if field not in data:
            raise StateError(f"field '{field}' is missing")
    if data["format"] != STATE_FORMAT:
        raise StateError(f"field 'format': expected {STATE_FORMAT!r}, got {data['format']!r}")
    if data["game"] != game.name:
        raise StateError(f"field 'game': this state is for {data['game']!r}, not {game.name!r}")
    if data["rules"] != game.rules_hash:
        raise StateError(f"field 'rules': the state was saved with other rules ({data['rules']!r}; "
                         f"these are {game.rules_hash!r})")
    ns = game.namespace
    n = _int(data["players"], "players")
    if n not in game.players:
        raise StateError(f"field 'players': {game.title} is for {game.players.start}-{game.players.stop - 1} players, not {n}")
    seed = _int(data["seed"], "seed")
    cur = _int(data["current"], "current", 0, n - 1)
    nxt = _int(data["next"], "next", -1, n - 1)
    steps = [s[0] for s in ns["STEPS"]]
    if data["step"] not in steps:
        raise StateError(f"field 'step': unknown step {data['step']!r} (steps: {', '.join(steps)})")
    step = steps.index(data["step"])
    turns = _int(data["turns"], "turns", 0)
    decisions = _int(data["decisions"], "decisions", 0)
    if not isinstance(data["over"], bool):
        raise StateError("field 'over': expected true or false")
    rng = _int(data["rng"], "rng", 0, MASK)
    sizes = dict(ns["KIND_SIZES"], player=n)
    zones_in = data["zones"]
    if not isinstance(zones_in, dict):
        raise StateError("field 'zones': expected an object")
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
    names = {c[0] for c in ns["COUNTERS"]}
    extra = sorted(set(counters_in) - names)
    if extra:
        raise StateError(f"field 'counters.{extra[0]}': no such counter in {game.title}")
    counters = {}
    for name, attr, per in ns["COUNTERS"]:
        if name not in counters_in:
            raise StateError(f"field 'counters.{name}' is missing")
        value = counters_in[name]
        if per:
            count = n if per == "player" else per
            if not isinstance(value, list) or len(value) != count:
                raise StateError(f"field 'counters.{name}': expected a list of {count} numbers")
            counters[attr] = [_int(v, f"counters.{name}[{i}]") for i, v in enumerate(value)]
        else:
            counters[attr] = _int(value, f"counters.{name}")
    # everything checked: build
    s = game.State._blank(n, seed)
    s.cur, s.nxt, s.step, s.turns, s.decisions, s.over = cur, nxt, step, turns, decisions, data["over"]
    s.repeats = 0  # a count within one turn only, not saved
    s.rng.state = rng
    for attr, value in {**zones, **counters}.items():
        setattr(s, attr, value)
    broken = s.check_invariants()
    if broken:
        raise StateError(f"the state breaks the rules' invariant '{broken[0]}'")
    try:
        s.legal = [] if s.over else s._decide()
    except Exception as exc:  # noqa: BLE001 - a state the rules cannot continue from
        raise StateError(f"the state cannot be continued: {exc}") from None
    if not s.over and not s.legal:
        raise StateError(f"field 'step': nothing can be decided at step {data['step']!r} in this state")
    return s
