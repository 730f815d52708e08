"""Observations: a flat vector of numbers holding what one seat may see (``state.observation``).

It is computed from ``state.view(p)``, the one place that decides what p may see, so it can never
hold more: hidden zones give their size only, hidden cells are "something unknown", scores p may
not see are 0. ``observation_spec(n)`` names each slice. Layout, for n players:

- ``current``: one-hot of the seat to play (all 0 once the game is over); ``step``: one-hot of
  the step; ``turns``: turns played;
- each zone (each seat's / member's one apart): its size, then how many of each value it holds
  (items of a table, members of an enum, seats, true/false, or the declared ``values lo..hi`` of a
  zone of numbers; a zone of numbers without them gives its sum), then its last element's place
  + 1 (the top of a pile; 0 when empty, unseen or ``unordered``: a multiset has no top);
- each grid: one plane of its cells per value (1 where the cell holds it), and a plane of cells
  holding something unseen; a grid of numbers: one plane of the numbers;
- each counter: a number as it is; one that holds a cell, an enum member, an item, a piece or
  a seat one-hot over those values (all 0 for none, and for a private counter p may not see);
  then the scores as p sees them.
"""
from __future__ import annotations

from typing import Any


def _values(ns: dict, kind: str, zone: str, n: int) -> tuple[int, int] | None:
    """(lowest, count) of the values an element of this kind can take, or None (unbounded)."""
    sizes = ns["KIND_SIZES"]
    if kind in sizes:
        return 0, sizes[kind]
    if kind == "player":
        return 0, n
    if kind == "bool":
        return 0, 2
    if zone in ns["ZONE_VALUES"]:
        lo, hi = ns["ZONE_VALUES"][zone]
        return lo, hi - lo + 1
    return None


def _instances(per, n: int) -> int:
    if isinstance(per, tuple):  # a counter of two keys: rows times their width
        return _instances(per[0], n) * per[1]
    return 1 if not per else (n if per == "player" else per)


def observation_spec(ns: dict, n: int) -> list[tuple[str, int, int]]:
    """(name, start, length) of each slice of the observation vector for n players."""
    spec: list[tuple[str, int, int]] = []

    def add(name: str, length: int) -> None:
        start = spec[-1][1] + spec[-1][2] if spec else 0
        spec.append((name, start, length))

    add("current", n)
    add("step", len(ns["STEPS"]))
    add("turns", 1)
    for name, _attr, per, _hidden, _private, kind, *_ in ns["ZONES"]:
        for i in range(_instances(per, n)):
            label = f"zone {name}" + (f"[{i}]" if per else "")
            values = _values(ns, kind, name, n)
            add(label, 2 + (values[1] if values else 1))
    for name, _attr, per, _hidden, _private, kind, _shape, _w, _h, cells in ns["GRIDS"]:
        for i in range(_instances(per, n)):
            label = f"grid {name}" + (f"[{i}]" if per else "")
            if kind == "int":
                add(label, cells)
            else:
                add(label, (_values(ns, kind, name, n)[1] + 1) * cells)
    one_hot = ns.get("COUNTER_VALUES", {})
    for name, _attr, per in ns["COUNTERS"]:
        size = one_hot.get(name)
        for i in range(_instances(per, n)):
            at = f"[{i // per[1]}][{i % per[1]}]" if isinstance(per, tuple) else f"[{i}]" if per else ""
            add(f"counter {name}{at}", 1 if size is None else (n if size == "n" else size))
    add("scores", n)
    return spec


def observation(state, player: int | None) -> Any:
    """The observation vector of ``player`` (None: a spectator); NumPy float32 when installed."""
    ns = state.GAME.namespace
    n = state.n
    view = state.view(player)
    out: list[int] = []
    current = [0] * n
    if not state.over:
        current[state.cur] = 1
    out += current
    step = [0] * len(ns["STEPS"])
    step[state.step] = 1
    out += step
    out.append(state.turns)
    zones = view["zones"]
    for name, _attr, per, _hidden, _private, kind, *_ in ns["ZONES"]:
        places = zones[name] if per else [zones[name]]
        values = _values(ns, kind, name, n)
        unordered = name in ns.get("UNORDERED", ())  # a multiset has no top
        for place in places:
            if isinstance(place, dict):  # unseen: its size only
                out.append(place["hidden"])
                out += [0] * (values[1] if values else 1)
                out.append(0)
                continue
            out.append(len(place))
            if values:
                lo, count = values
                counts = [0] * count
                for v in place:
                    if 0 <= v - lo < count:
                        counts[v - lo] += 1
                out += counts
                out.append(place[-1] - lo + 1 if place and not unordered else 0)
            else:
                out.append(sum(place))
                out.append(0)
    for name, _attr, per, _hidden, _private, kind, _shape, _w, _h, cells in ns["GRIDS"]:
        places = zones[name] if per else [zones[name]]
        for place in places:
            if isinstance(place, dict):  # a grid of numbers one may not see
                out += [0] * cells
                continue
            if kind == "int":
                out += list(place)
                continue
            count = _values(ns, kind, name, n)[1]
            planes = [0] * ((count + 1) * cells)
            for c, v in enumerate(place):
                if v >= 0:
                    planes[v * cells + c] = 1
                elif v == -2:  # something there that this seat may not see
                    planes[count * cells + c] = 1
            out += planes
    counters = view["counters"]
    one_hot = ns.get("COUNTER_VALUES", {})
    for name, _attr, per in ns["COUNTERS"]:
        value = counters[name]
        if isinstance(per, tuple):  # two keys: its rows one after another
            value = [v for row in value for v in row]
        size = one_hot.get(name)
        if size is None:
            out += [v if v is not None else 0 for v in value] if per else [value]  # unseen (private): 0
            continue
        size = n if size == "n" else size
        for v in value if per else [value]:
            slots = [0] * size
            if v is not None and 0 <= v < size:  # none (-1), or unseen (None): all 0
                slots[v] = 1
            out += slots
    out += [s if s is not None else 0 for s in view["scores"]]
    try:
        import numpy
    except ImportError:  # NumPy is optional
        return out
    return numpy.asarray(out, dtype=numpy.float32)
