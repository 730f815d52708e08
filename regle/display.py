"""Draw a state in the terminal from what a player may see (its ``view``) and the game's metadata.

Generic: shared zones as rows, per-player zones and counters as a table with a column per
seat, then the scores. Hidden contents show as counts. Colour only on terminals (NO_COLOR off).
"""
from __future__ import annotations

import os
import sys
from typing import Any

from regle.runtime import BaseState


class Style:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def accent(self, text: str) -> str:
        return self._wrap("36", text)

    def good(self, text: str) -> str:
        return self._wrap("32", text)


def style_for(stream=sys.stdout) -> Style:
    return Style(stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb")


def _label(name: str) -> str:
    return name.replace("_", " ")


def _visible_len(text: str) -> int:
    import re
    return len(re.sub(r"\x1b\[[0-9;]*m", "", text))


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _visible_len(text))


def show_zone(state: BaseState, kind: str, value: Any, st: Style, limit: int = 16) -> str:
    if isinstance(value, dict):  # hidden
        n = value.get("hidden", 0)
        return st.dim(f"{n} hidden" if n else "-")
    if not value:
        return st.dim("-")
    game = state.GAME
    shown = [game.show(kind, v) for v in value[:limit]]
    sep = " " if all(" " not in s for s in shown) else " | "
    text = sep.join(shown)
    if len(value) > limit:
        text += st.dim(f" ... ({len(value)} in all)")
    elif len(value) > 4:
        text += st.dim(f"  ({len(value)})")
    return text


def render(state: BaseState, viewer: int | None = None, st: Style | None = None) -> str:
    """The state as ``viewer`` sees it (None: every public part, as a spectator)."""
    st = st or Style(False)
    game = state.GAME
    view = state.view(viewer)
    n = state.n
    lines = []
    if state.over:
        head = f"{game.title} · game over after {state.turns} turns"
    else:
        head = (f"{game.title} · turn {state.turns + 1} · "
                f"P{state.cur + 1} to play" + (f" ({state.step_name})" if len(state.STEPS) > 1 else ""))
    lines.append(st.bold(head))
    shared = [z for z in game.zones if not z[2]]
    per = [z for z in game.zones if z[2]]
    width = max([len(_label(z[0])) for z in game.zones] + [len(_label(c[0])) for c in game.counters] + [5]) + 2
    for name, _attr, _pp, _hidden, _private, kind, _cap in shared:
        lines.append("  " + _pad(_label(name), width) + show_zone(state, kind, view["zones"][name], st))
    for name, _attr, per_player, in game.counters:
        if not per_player:
            lines.append("  " + _pad(_label(name), width) + str(view["counters"][name]))
    if per or any(c[2] for c in game.counters) or n:
        cells: list[list[str]] = []
        header = []
        for p in range(n):
            mark = " ◀" if (not state.over and p == state.cur) else ""
            header.append(st.accent(f"P{p + 1}{mark}") if mark else f"P{p + 1}")
        for name, _attr, _pp, _hidden, _private, kind, _cap in per:
            cells.append([_label(name)] + [show_zone(state, kind, v, st, limit=10) for v in view["zones"][name]])
        for name, _attr, per_player in game.counters:
            if per_player:
                cells.append([_label(name)] + [str(v) for v in view["counters"][name]])
        cells.append(["score"] + [str(v) for v in state.scores])
        colw = [max([_visible_len(h) for h in header] + [_visible_len(r[p + 1]) for r in cells] + [6]) + 3
                for p in range(n)]
        lines.append("  " + " " * width + "".join(_pad(h, colw[p]) for p, h in enumerate(header)).rstrip())
        for row in cells:
            lines.append("  " + _pad(row[0], width) + "".join(_pad(v, colw[p]) for p, v in enumerate(row[1:])).rstrip())
    if state.over:
        winners = state.winners
        if not winners:
            lines.append(st.bold("  Draw."))
        else:
            names = " and ".join(f"P{p + 1}" for p in winners)
            verb = "win (shared)" if len(winners) > 1 else "wins"
            lines.append(st.good(st.bold(f"  {names} {verb}.")) + f"  Scores: {', '.join(map(str, state.scores))}")
    return "\n".join(lines)
