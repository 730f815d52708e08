"""The studio's state inspector: every field, zone, grid and counter of a position, as words.

Seen as a seat sees it (``state.view(seat)``: another seat's hand is a count) or whole, as the
author of the rules needs it to find a mistake (everything, hidden places too). The studio asks
for it with its key only: the page of a seat never gets it. Works for any game: names, kinds and
per-what come from the engine's tables (``ZONES``, ``GRIDS``, ``COUNTERS``).
"""
from __future__ import annotations

from typing import Any

from .render import value_words


def inspect(state, seat: int | None) -> dict[str, Any]:
    """The position as rows of words. ``seat``: that seat's view; None: the whole state."""
    game = state.GAME
    ns = game.namespace
    whole = state.to_json()
    view = state.view(seat) if seat is not None else None
    zones = whole["zones"] if view is None else view["zones"]
    counters = whole["counters"] if view is None else view["counters"]
    rows: list[dict[str, Any]] = []
    for name, _attr, per, *_rest in ns["ZONES"]:
        kind = _rest[2]
        rows.append({"what": "zone", "name": name, **_places(state, name, per, zones[name], kind)})
    for meta in ns["GRIDS"]:
        name, per, kind = meta[0], meta[2], meta[5]
        rows.append({"what": "grid", "name": name, **_places(state, name, per, zones[name], kind, grid=True)})
    for name, _attr, per in ns["COUNTERS"]:
        value = counters[name]
        rows.append({"what": "counter", "name": name, **_counter(state, name, per, value)})
    scores = state.scores if seat is None else state.scores_seen_by(seat)
    return {
        "seen_by": "everything" if seat is None else f"P{seat + 1}",
        "position": {"turn": state.turns + 1, "decisions": state.decisions,
                     "to play": None if state.is_over else f"P{state.current_player + 1}",
                     "step": None if state.is_over else state.step_name, "over": state.is_over,
                     "winners": [f"P{p + 1}" for p in state.winners] if state.is_over else None,
                     "seed": whole.get("seed") if seat is None else None},
        "rows": rows,
        "scores": ["?" if v is None else v for v in scores],
        "notices": [ns["NOTICES"][k][0] for k, _cells in state.notices()],
    }


def _places(state, name: str, per, value, kind: str, grid: bool = False) -> dict[str, Any]:
    """A zone or grid: one line of words per place (per seat, per member, or the one place)."""
    game = state.GAME
    ns = game.namespace
    if per == "player":
        places = [(f"P{p + 1}", v) for p, v in enumerate(value)]
    elif per:
        enum = ns.get("ZONE_PER_ENUM", {}).get(name)
        members = ns.get(f"T_{enum}__NAMES", ()) if enum else ()
        places = [(members[i] if i < len(members) else str(i + 1), v) for i, v in enumerate(value)]
    else:
        places = [("", value)]
    names = game.cell_names(name) if grid else None
    out = []
    for label, contents in places:
        if isinstance(contents, dict):  # hidden from this seat: how many, no more
            out.append({"place": label, "text": f"{contents['hidden']} hidden", "count": contents["hidden"]})
            continue
        if grid:
            shown = [f"{names[c]} {value_words(ns, kind, v)}" for c, v in enumerate(contents) if _filled(kind, v)]
            out.append({"place": label, "text": ", ".join(shown) or "empty", "count": len(shown)})
        else:
            out.append({"place": label, "text": ", ".join(value_words(ns, kind, v) for v in contents) or "empty",
                        "count": len(contents)})
    return {"kind": kind, "places": out}


def _filled(kind: str, v: int) -> bool:
    return v != 0 if kind == "int" else v != -1


def _counter(state, name: str, per, value) -> dict[str, Any]:
    show = state.GAME.show_counter
    if per is None:
        return {"places": [{"place": "", "text": show(name, value)}]}
    if isinstance(per, tuple):
        return {"places": [{"place": f"P{i + 1}" if per[0] == "player" else str(i),
                            "text": ", ".join(show(name, v) for v in row)} for i, row in enumerate(value)]}
    labels = [f"P{i + 1}" for i in range(len(value))] if per == "player" else [str(i) for i in range(len(value))]
    return {"places": [{"place": label, "text": "?" if v is None else show(name, v)} for label, v in zip(labels, value)]}
