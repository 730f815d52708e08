"""Draw a state in the terminal from what a player may see (its ``view``) and the game's metadata.

Generic: shared zones as rows; zones per enum member as one row per member; grids drawn cell
by cell (lanes bottom-up, hex boards as offset rows, squares as rows); per-player zones,
counters and grids side by side, one column per seat; then the scores. Hidden contents show
as counts. Colour only on terminals (NO_COLOR respected).
"""
from __future__ import annotations

import os
import re
import sys
from typing import Any

from regle.dsl.parser import CONTROL  # what a rules text may not hold: never printed raw
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

    @staticmethod
    def safe(text: str) -> str:
        """Text from elsewhere (rules, saved games) with control characters shown as escapes,
        so that none can drive the terminal."""
        return CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)




def style_for(stream=sys.stdout) -> Style:
    return Style(stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb")


def _label(name: str) -> str:
    return name.replace("_", " ")


def _visible_len(text: str) -> int:
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
    if len(value) > limit and kind.startswith("enum:"):
        # a big pool of a few kinds of things: count them
        counts: dict[str, int] = {}
        for v in value:
            name = game.show(kind, v)
            counts[name] = counts.get(name, 0) + 1
        return " ".join(f"{name} x{n}" for name, n in counts.items()) + st.dim(f"  ({len(value)})")
    detailed = len(value) <= 6  # a short listing (an offer, a hand) shows the details
    shown = [game.show(kind, v, detail=detailed) for v in value[:limit]]
    sep = " " if all(" " not in s for s in shown) else " | "
    text = sep.join(shown)
    if len(value) > limit:
        text += st.dim(f" ... ({len(value)} in all)")
    elif len(value) > 4:
        text += st.dim(f"  ({len(value)})")
    return text


def draw_patterns(texts: list[str], st: Style) -> list[str]:
    """Patterns (rows top first, '/' between rows) side by side, bottoms aligned."""
    shapes = [t.split("/") for t in texts]
    height = max(len(s) for s in shapes)
    widths = [max(len(r) for r in s) * 2 - 1 for s in shapes]
    lines = []
    for row in range(height):
        cells = []
        for shape, w in zip(shapes, widths):
            offset = height - len(shape)
            text = " ".join(shape[row - offset]) if row >= offset else ""
            cells.append(_pad(text.replace(".", st.dim(".")), w))
        lines.append("   ".join(cells).rstrip())
    return lines


def draw_grid(state: BaseState, meta: tuple, value: Any, st: Style, below=None,
              walls: set | None = None) -> list[str]:
    """Lines of text drawing one grid (its cells, top row first). ``below``: (kind, cells) of a
    grid lying under this one, drawn in the same cells: ``5R+`` has a card under it, ``(9B)`` is
    a card alone underneath, ``(#)`` one this player may not see. ``walls``: the pairs of cells
    (lower first) a wall stands between, drawn between them on a square board (``│``, ``─``),
    listed below any other."""
    name, _attr, _per, _hidden, _private, kind, shape, width, height, cells = meta
    symbol = state.GAME.namespace["show_symbol"]

    def mark(v: int, k: str = kind) -> str:
        if v == -2:
            return "#"  # something there that this player may not see
        return symbol(k, v) if v >= 0 else st.dim(".")

    marks = [mark(v) for v in value]
    if below is not None:
        under_kind, under = below
        for i, v in enumerate(under):
            if v == -1:
                continue
            marks[i] = marks[i] + "+" if value[i] >= 0 else f"({mark(v, under_kind)})"
    w = max(_visible_len(m) for m in marks) if marks else 1

    def cell(i: int) -> str:
        return _pad(marks[i], w)

    lines = []
    if shape == "walls":  # not drawn on a board (one per player, or on a board per player): listed
        names = state.GAME.cell_names(name)
        up = [f"{names[i]} {marks[i]}" for i, v in enumerate(value) if standing(kind, v)]
        return [", ".join(up) if up else st.dim("no wall")]
    if shape == "points":
        return draw_points(state, name, [_pad(m, w) for m in marks], w, st)
    if shape == "lanes":
        for row in range(height - 1, -1, -1):
            lines.append(" ".join(cell(lane * height + row) for lane in range(width)).rstrip())
        lines.append(" ".join(_pad(str(lane + 1), w) for lane in range(width)).rstrip())
    elif shape == "square" and state.GAME.cell_names(name)[0].isdigit():  # a numbered grid
        names = state.GAME.cell_names(name)
        wide = max(w, max(len(n) for n in names))
        for y in range(height - 1, -1, -1):
            row = []
            for x in range(width):
                i = y * width + x
                empty = value[i] == -1 and (below is None or below[1][i] == -1)
                row.append(_pad(st.dim(names[i]) if empty else marks[i], wide))
            lines.append("   " + " ".join(row).rstrip())
    elif shape == "square" and walls is not None:
        for y in range(height - 1, -1, -1):
            row = []
            for x in range(width):
                i = y * width + x
                row.append(cell(i) + ("" if x == width - 1 else st.bold("│") if (i, i + 1) in walls else " "))
            lines.append(f"{y + 1:>2} " + "".join(row).rstrip())
            if y:
                lines.append("   " + " ".join(st.bold("─" * w) if (i - width, i) in walls else " " * w
                                              for i in range(y * width, y * width + width)).rstrip())
        lines.append("   " + " ".join(_pad(chr(97 + x), w) for x in range(width)).rstrip())
        return lines
    elif shape == "square":
        for y in range(height - 1, -1, -1):
            lines.append(f"{y + 1:>2} " + " ".join(cell(y * width + x) for x in range(width)).rstrip())
        lines.append("   " + " ".join(_pad(chr(97 + x), w) for x in range(width)).rstrip())
    elif shape == "rhombus":  # hexagons in a parallelogram: each row half a cell east of the one below
        for y in range(height - 1, -1, -1):
            lines.append(f"{y + 1:>2} " + " " * ((w + 1) * y // 2)
                         + " ".join(cell(y * width + x) for x in range(width)).rstrip())
        lines.append("   " + " ".join(_pad(chr(97 + x), w) for x in range(width)).rstrip())
    elif shape == "triangle":  # a triangle of hexagons: row y holds width - y cells, each row half a cell east
        starts = [sum(width - k for k in range(y)) for y in range(width)]
        for y in range(width - 1, -1, -1):
            lines.append(f"{y + 1:>2} " + " " * ((w + 1) * y // 2)
                         + " ".join(cell(starts[y] + x) for x in range(width - y)).rstrip())
        lines.append("   " + " ".join(_pad(chr(97 + x), w) for x in range(width)).rstrip())
    elif shape == "mancala":  # the second seat's houses above (east to west), stores at the ends
        n = width
        north = [cell(2 * n - x) for x in range(n)]
        south = [cell(x) for x in range(n)]
        pad = " " * w
        lines.append(f"{pad}  " + " ".join(north))
        lines.append(f"{cell(2 * n + 1)}  " + " ".join(pad for _ in range(n)) + f"  {cell(n)}")
        lines.append(f"{pad}  " + " ".join(south))
        lines.append(f"{pad}  " + " ".join(_pad(chr(97 + x), w) for x in range(n)))
    else:  # hex: rows from the north down, offset so neighbours line up
        names = state.GAME.cell_names(name)
        rows: dict[str, list[int]] = {}
        for i, n in enumerate(names):
            rows.setdefault(re.match(r"[a-z]+", n).group(), []).append(i)
        longest = max(len(r) for r in rows.values())
        # an empty cell shows its name (dimmed), so any cell is found without counting places
        wide = max(w, max(len(n) for n in names))

        def hex_cell(i: int) -> str:
            return _pad(marks[i] if value[i] != -1 or below is not None else st.dim(names[i]), wide)
        for letter in sorted(rows, key=lambda k: (len(k), k), reverse=True):
            cells_ = rows[letter]
            indent = " " * ((longest - len(cells_)) * (wide + 1) // 2)
            lines.append(f"{letter:>2} {indent}" + " ".join(hex_cell(c) for c in cells_).rstrip())
    if walls:
        names = state.GAME.cell_names(name)
        lines.append("walls " + " ".join(f"{names[a]}|{names[b]}" for a, b in sorted(walls)))
    return lines


def walls_on_boards(ns: dict) -> dict[str, list[str]]:
    """Per shared board, the shared grids of walls drawn on it (not quiet): what the terminal
    and the browser draw in the board instead of as grids of their own."""
    per = {g[0]: g[2] for g in ns["GRIDS"]}
    quiet = set(ns.get("QUIET", ()))
    out: dict[str, list[str]] = {}
    for walls, base in ns.get("GRID_WALLS", {}).items():
        if per[walls] is None and per[base] is None and walls not in quiet:
            out.setdefault(base, []).append(walls)
    return out


def standing(kind: str, value: int) -> bool:
    """Whether a wall stands in a place as a view shows it: a number that is not 0, an element
    that is seen (-1 is empty, -2 unseen)."""
    return value != 0 if kind == "int" else value >= 0


def standing_walls(state: BaseState, view: dict, board: str) -> set | None:
    """The pairs of cells of a shared board that a wall of a grid of walls drawn on it stands
    between (None when no grid of walls is drawn on it)."""
    ns = state.GAME.namespace
    kinds = {g[0]: g[5] for g in ns["GRIDS"]}
    found = None
    for walls in walls_on_boards(ns).get(board, ()):
        ends = ns[f"G_{walls}__ENDS"]
        found = (found or set()) | {tuple(ends[w]) for w, v in enumerate(view["zones"][walls])
                                    if standing(kinds[walls], v)}
    return found

def draw_points(state: BaseState, name: str, marks: list[str], w: int, st: Style) -> list[str]:
    """A board of points and lines as a diagram: each point where its name puts it (columns a, b,
    c... from the west, rows from the south), the lines between neighbours drawn with box
    characters (as a mill board is printed)."""
    layout = state.GAME.namespace["GRID_LAYOUTS"][name][1]
    lines_of = state.GAME.namespace.get("GRID_LINES", {}).get(name, ())
    height = int(max(y for _x, y in layout)) + 1 if layout else 1
    width = int(max(x for x, _y in layout)) + 1 if layout else 1
    gap = w + 2  # text columns from one lattice column to the next
    canvas = [[" "] * (width * gap) for _ in range(2 * height - 1)]
    where = {c: (int(y) * 2, int(x) * gap) for c, (x, y) in enumerate(layout)}
    for line in lines_of:
        for a, b in zip(line, line[1:]):
            (ra, ca), (rb, cb) = sorted((where[a], where[b]))
            mid_a, mid_b = ca + (w - 1) // 2, cb + (w - 1) // 2
            if ra == rb:  # along a row
                for col in range(min(ca, cb) + w, max(ca, cb)):
                    canvas[ra][col] = "─"
            else:  # down the rows: straight, or slanting one way
                for row in range(ra + 1, rb):
                    col = round(mid_a + (mid_b - mid_a) * (row - ra) / (rb - ra))
                    canvas[row][col] = "│" if mid_a == mid_b else ("\\" if mid_b > mid_a else "/")
    out = []
    for r, row in enumerate(canvas):
        text = "".join(row)
        points = sorted((col, c) for c, (pr, col) in where.items() if pr == r)
        for col, c in reversed(points):  # the marks last: they may carry colour codes
            text = text[:col] + marks[c] + text[col + w:]
        label = f"{height - r // 2:>2} " if r % 2 == 0 else "   "
        out.append((label + text).rstrip())
    names = state.GAME.cell_names(name)
    letters = {int(layout[c][0]): names[c].rstrip("0123456789") for c in range(len(layout))}
    out.append("   " + "".join(_pad(letters.get(x, ""), gap) for x in range(width)).rstrip())
    return out


def render(state: BaseState, viewer: int | None = None, st: Style | None = None) -> str:
    """The state as ``viewer`` sees it (None: every public part, as a spectator)."""
    st = st or Style(False)
    game = state.GAME
    view = state.view(viewer)
    zones = view["zones"]
    n = state.n
    lines = []
    if state.over:
        head = f"{game.title} · game over after {state.turns} turns"
    else:
        head = (f"{game.title} · turn {state.turns + 1} · "
                f"P{state.cur + 1} to play" + (f" ({state.step_name})" if len(state.STEPS) > 1 else ""))
    lines.append(st.bold(head))
    ns = game.namespace
    quiet = set(ns.get("QUIET", ()))
    edges = ns.get("GRID_EDGES", {})
    per_enum = ns.get("ZONE_PER_ENUM", {})
    around = {z for z, e in per_enum.items() if e in edges.values()}  # drawn around their board
    labels = [z[0] for z in game.zones] + [c[0] for c in game.counters] + [g[0] for g in game.grids]
    labels += [f"{z[0]} {_member_name(state, z[0], i)}" for z in game.zones if z[2] not in (None, "player")
               for i in range(z[2])]
    labels += [f"{top} (over {low})" for low, top in ns.get("GRID_UNDER", {}).items()]
    width = max([len(_label(x)) for x in labels] + [5]) + 3
    patterns = ns.get("ITEM_PATTERNS", {})
    for name, _attr, per, _hidden, _private, kind, _cap in game.zones:
        if name in quiet or name in around:
            continue
        value = zones[name]
        if per is None and kind in patterns and isinstance(value, list) and 0 < len(value) <= 8:
            drawn = draw_patterns([ns["PATTERN_TEXT"][patterns[kind][v]] for v in value], st)
            for i, line in enumerate(drawn):
                lines.append("  " + _pad(_label(name) if i == 0 else "", width) + line)
            continue
        if per is None:
            lines.append("  " + _pad(_label(name), width) + show_zone(state, kind, value, st))
        elif per != "player":
            for i, value in enumerate(zones[name]):
                member = _member_name(state, name, i)
                lines.append("  " + _pad(f"{_label(name)} {member}", width) + show_zone(state, kind, value, st))
    for name, _attr, per in game.counters:
        if name in quiet:
            continue
        if per is None:
            lines.append("  " + _pad(_label(name), width) + game.show_counter(name, view["counters"][name]))
        elif per != "player" and not (isinstance(per, tuple) and per[0] == "player"):
            lines.append("  " + _pad(_label(name), width) + _counter_text(game, name, view["counters"][name]))
    on_boards = {w for ws in walls_on_boards(ns).values() for w in ws}  # drawn on their board
    for meta in game.grids:
        if meta[2] is None and meta[0] not in quiet and meta[0] not in on_boards:
            lines.append("  " + _label(meta[0]))
            top, bottom = _edge_lines(state, meta, around, zones)
            lines.extend("    " + line for line in top)
            walls = standing_walls(state, view, meta[0])
            lines.extend("    " + line for line in draw_grid(state, meta, zones[meta[0]], st, walls=walls))
            lines.extend("    " + line for line in bottom)
    # per player
    header = []
    for p in range(n):
        mark = " ◀" if (not state.over and p == state.cur) else ""
        header.append(st.accent(f"P{p + 1}{mark}") if mark else f"P{p + 1}")
    rows: list[list[str]] = []
    for name, _attr, per, _hidden, _private, kind, _cap in game.zones:
        if per == "player" and name not in quiet:
            rows.append([_label(name)] + [show_zone(state, kind, v, st, limit=10) for v in zones[name]])
    for name, _attr, per in game.counters:
        if (per == "player" or isinstance(per, tuple) and per[0] == "player") and name not in quiet:
            rows.append([_label(name)] + [_counter_text(game, name, v) for v in view["counters"][name]])
    rows.append(["score"] + ["?" if v is None else str(v) for v in state.scores_seen_by(viewer)])
    under = ns.get("GRID_UNDER", {})  # lower grid -> upper grid
    lower_of = {top: low for low, top in under.items()}
    kinds_of = {g[0]: g[5] for g in game.grids}

    def drawn(meta, p):
        low = lower_of.get(meta[0])
        below = (kinds_of[low], zones[low][p]) if low else None
        return draw_grid(state, meta, zones[meta[0]][p], st, below)

    blocks = [(meta[0] + (f" (over {_label(lower_of[meta[0]])})" if meta[0] in lower_of else ""),
               [drawn(meta, p) for p in range(n)])
              for meta in game.grids if meta[2] == "player" and meta[0] not in quiet and meta[0] not in under]
    colw = [max([_visible_len(h) for h in header] + [_visible_len(r[p + 1]) for r in rows]
                + [_visible_len(line) for _, b in blocks for line in b[p]] + [6]) + 3 for p in range(n)]
    lines.append("  " + " " * width + "".join(_pad(h, colw[p]) for p, h in enumerate(header)).rstrip())
    for name, drawn in blocks:
        depth = max(len(d) for d in drawn)
        for i in range(depth):
            label = _label(name) if i == 0 else ""
            cells = [d[i] if i < len(d) else "" for d in drawn]
            lines.append("  " + _pad(label, width) + "".join(_pad(c, colw[p]) for p, c in enumerate(cells)).rstrip())
    for row in rows:
        lines.append("  " + _pad(row[0], width) + "".join(_pad(v, colw[p]) for p, v in enumerate(row[1:])).rstrip())
    said = state.notices() if hasattr(state, "notices") else []
    if said:  # the rules' notices ("check", "atari"), with the cells they outline
        table = ns.get("NOTICES", ())
        for k, cells in said:
            text, grid, _line = table[k]
            at = ", ".join(game.cell_names(grid)[c] for c in cells[:8]) + (" ..." if len(cells) > 8 else "")
            lines.append(st.bold(f"  {text}") + (f" at {at}" if at else ""))
    if state.over:
        winners = state.winners
        if not winners:
            lines.append(st.bold("  Draw."))
        else:
            names = " and ".join(f"P{p + 1}" for p in winners)
            verb = "win (shared)" if len(winners) > 1 else "wins"
            lines.append(st.good(st.bold(f"  {names} {verb}.")) + f"  Scores: {', '.join(map(str, state.scores))}")
    return "\n".join(lines)


#: which sides go above and below a board, by shape (indices into its edges enum)
_ABOVE_BELOW = {"hex": ((2, 3, 4), (1, 0, 5)), "square": ((2,), (1, 0, 3))}


def _edge_lines(state: BaseState, meta: tuple, around: set, zones: dict) -> tuple[list[str], list[str]]:
    """The zones kept per side of a board, as lines above and below its drawing."""
    name, shape = meta[0], meta[6]
    enum = state.GAME.namespace.get("GRID_EDGES", {}).get(name)
    if not enum or shape not in _ABOVE_BELOW:
        return [], []
    ns = state.GAME.namespace
    per_enum = ns.get("ZONE_PER_ENUM", {})
    params = ns.get("ENUM_PARAMS", {}).get(enum, {})
    kinds = {z[0]: z[5] for z in state.GAME.zones}
    out = []
    for indices in _ABOVE_BELOW[shape]:
        parts = []
        for zone in sorted(z for z in around if per_enum.get(z) == enum):
            for i in indices:
                member = state.GAME.show(f"enum:{enum}", i).replace("_", " ")
                values = ", ".join(f"{_label(p)} {v[i]}" for p, v in params.items() if i < len(v))
                contents = show_zone(state, kinds[zone], zones[zone][i], Style(False))
                parts.append(f"{member}" + (f" ({values})" if values else "") + f": {contents}")
        out.append(["   ".join(parts)] if parts else [])
    return out[0], out[1]


def _counter_text(game, name: str, value) -> str:
    """A counter's values as a line: one per member, the rows of a counter of two keys apart."""
    if isinstance(value, list):
        return (" / " if value and isinstance(value[0], list) else " ").join(_counter_text(game, name, v) for v in value)
    return game.show_counter(name, value)


def _member_name(state: BaseState, zone: str, index: int) -> str:
    """The enum member a per-member zone's i-th list belongs to."""
    per_enum = state.GAME.namespace.get("ZONE_PER_ENUM", {}).get(zone)
    if per_enum:
        return state.GAME.show(f"enum:{per_enum}", index)
    return str(index)
