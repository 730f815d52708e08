"""Draw a state as one seat sees it: boards as SVG (square, hex, lanes, rhombus and mancala
grids), zones as rows of items, counters and scores. Works for any game: everything comes from
the engine's metadata (``GRIDS``, ``GRID_LAYOUTS``, ``ZONES``...) and ``state.view(seat)``, so a
page shows exactly what that seat may see. Cells carry ``data-grid``/``data-cell`` and items
``data-zone``/``data-value`` for the page to point at them.
"""
from __future__ import annotations

import html
import math

from regle.display import standing, walls_on_boards

UNIT = 46  # pixels per cell width
#: CSS colours for enum members named after a colour (any other member gets one of PALETTE)
COLOUR_WORDS = {
    "red": "#d64541", "blue": "#3a78d8", "green": "#3fa34d", "yellow": "#f2c531", "white": "#f4f4f4",
    "black": "#333333", "purple": "#8e44ad", "orange": "#e67e22", "pink": "#e86aa6", "grey": "#999999",
    "gray": "#999999", "brown": "#8b5a2b", "cyan": "#33b5c9", "multi": "url(#rainbow)",
}
PALETTE = ["#d64541", "#3a78d8", "#3fa34d", "#f2c531", "#8e44ad", "#e67e22", "#33b5c9", "#8b5a2b"]
SEATS = ["#333333", "#f4f4f4", "#d64541", "#3a78d8", "#3fa34d", "#f2c531"]


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def words(name: str) -> str:
    """A rules name as people read it: ``face_up`` -> ``face up``."""
    return str(name).replace("_", " ")


def piece_colour(ns: dict, kind: str, value: int) -> str:
    """The fill of a piece: an enum member's colour word, a seat's colour, else the palette."""
    if kind.startswith("enum:"):
        enum = kind[5:]
        names = next((v for k, v in ns.items() if k.startswith("T_") and k.endswith("__NAMES")
                      and k[2:-len("__NAMES")] == enum), ())
        if 0 <= value < len(names):
            word = names[value].lower()
            return COLOUR_WORDS.get(word, PALETTE[value % len(PALETTE)])
    if kind == "player":
        return seat_colour(ns, value)
    if kind.startswith("piece:") and kind in ns["KIND_SIZES"]:  # a piece: its owner's colour
        kinds = ns["KIND_SIZES"][kind] // ns["MAX_PLAYERS"]
        return seat_colour(ns, value // kinds)
    return PALETTE[value % len(PALETTE)]


def figure_of(ns: dict, kind: str, value: int) -> str:
    """The glyph the rules draw an enum member or a piece as (``figure "♞"``), else ''."""
    if kind.startswith("piece:") and kind in ns["KIND_SIZES"]:
        enum = kind[6:]
        value %= ns["KIND_SIZES"][kind] // ns["MAX_PLAYERS"]
    elif kind.startswith("enum:"):
        enum = kind[5:]
    else:
        return ""
    figures = ns.get("ENUM_FIGURES", {}).get(enum) or ()
    return figures[value] if 0 <= value < len(figures) else ""


def seat_colour(ns: dict, seat: int) -> str:
    """A seat's colour: the rules' ``colours`` (a word or #rrggbb), else a default per seat."""
    chosen = ns.get("SEAT_COLOURS") or []
    if 0 <= seat < len(chosen):
        return COLOUR_WORDS.get(chosen[seat].lower(), chosen[seat])
    return SEATS[seat % len(SEATS)]


def _text_colour(fill: str) -> str:
    """Dark or light text, whichever reads on ``fill``."""
    if fill.startswith("#") and len(fill) in (4, 7):
        digits = fill[1:] if len(fill) == 7 else "".join(c * 2 for c in fill[1:])
        r, g, b = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
        return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#222222"
    return "#ffffff" if fill in ("black", "navy", "maroon", "purple", "brown", "darkgreen") else "#222222"


def edge_owners(ns: dict, grid: str) -> dict[int, int]:
    """cell -> the seat whose goal its side is (a side a ``connected`` end joins for that seat)."""
    sides = ns.get(f"G_{grid}__SIDES") or []
    owners: dict[int, int] = {}
    for shape in ns.get("END_SHAPES", ()):
        if shape.get("kind") == "connected" and shape.get("grid") == grid and shape.get("seat") is not None:
            for side in shape["sides"]:
                for cell in sides[side] if side < len(sides) else ():
                    owners.setdefault(cell, shape["seat"])
    return owners


def side_labels(ns: dict, name: str, zones: dict | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """Per side of a board whose sides an enum names (``edges side``): its words ("north
    east"), what list params say of it ("target value 1"), and per zone laid out by that enum
    (a target beyond the side) its contents as (fill, text) tokens; [] for other boards."""
    enum = ns.get("GRID_EDGES", {}).get(name)
    if not enum:
        return []
    members = ns.get(f"T_{enum}__NAMES", ())
    params = ns.get("ENUM_PARAMS", {}).get(enum, {})
    out = []
    for k, member in enumerate(members):
        said = [words(member)] + [f"{words(param)} {values[k]}" for param, values in params.items() if k < len(values)]
        tokens: list[tuple[str, str]] = []
        for zone, (kind, place) in (zones or {}).items():
            value = place[k] if k < len(place) else []
            if isinstance(value, dict):
                tokens.append(("", f"{words(zone)}: {value['hidden']} hidden"))
            elif not value:
                tokens.append(("", f"{words(zone)} empty"))
            else:
                tokens += [(piece_colour(ns, kind, v), ns["show_symbol"](kind, v)) for v in value]
        out.append((" · ".join(said), tokens))
    return out


def _side_svg(ns: dict, name: str, centres: list, labels: list, x0: float, y0: float) -> list[str]:
    """The labels of a board's sides, each beyond the middle of its side, with what lies there."""
    sides = ns.get(f"G_{name}__SIDES") or []
    mx = sum(x for x, _ in centres) / len(centres)
    my = sum(y for _, y in centres) / len(centres)
    out = []
    for k, (said, tokens) in enumerate(labels):
        cells = sides[k] if k < len(sides) else []
        if not cells:
            continue
        sx = sum(centres[c][0] for c in cells) / len(cells)
        sy = sum(centres[c][1] for c in cells) / len(cells)
        dx, dy = sx - mx, sy - my
        norm = math.hypot(dx, dy) or 1.0
        dx, dy = dx / norm, dy / norm
        px, py = (sx + dx * 1.05 - x0) * UNIT, (sy + dy * 1.05 - y0) * UNIT
        anchor = "start" if dx > 0.35 else "end" if dx < -0.35 else "middle"
        out.append(f'<g class="side" data-side="{k}"><text class="side-name" x="{px:.1f}" y="{py:.1f}" '
                   f'text-anchor="{anchor}">{esc(said)}</text>')
        step = 16
        tx = px if anchor == "start" else px - step * len(tokens) if anchor == "end" else px - step * len(tokens) / 2
        for i, (fill, text) in enumerate(tokens):
            if fill:
                out.append(f'<circle class="side-piece" cx="{tx + step * i + 8:.1f}" cy="{py + 12:.1f}" r="7" fill="{esc(fill)}"/>')
            else:
                out.append(f'<text class="side-empty" x="{px:.1f}" y="{py + 15:.1f}" text-anchor="{anchor}">{esc(text)}</text>')
        out.append("</g>")
    return out


def walls_svg(game, walls: list, centres: tuple, shape: str, x0: float, y0: float) -> list[str]:
    """Grids of walls drawn on their board: each place a thin bar along the side two cells
    share (a cell of its own grid for the page to point at), filled where a wall stands.
    ``walls``: (grid name, kind, values) per grid of walls on this board."""
    ns = game.namespace
    out = []
    for name, kind, values in walls:
        ends, names = ns[f"G_{name}__ENDS"], game.cell_names(name)
        for k, (a, b) in enumerate(ends):
            (ax, ay), (bx, by) = centres[a], centres[b]
            length = math.hypot(bx - ax, by - ay) or 1.0
            vx, vy = (bx - ax) / length, (by - ay) / length  # across the wall
            half = length * {"hex": 0.29, "point": 0.22}.get(shape, 0.5)  # half the side the cells share
            thick = 0.07 * length
            mx, my = (ax + bx) / 2, (ay + by) / 2
            corners = [(mx - vy * half * s1 + vx * thick * s2, my + vx * half * s1 + vy * thick * s2)
                       for s1, s2 in ((1, 1), (1, -1), (-1, -1), (-1, 1))]
            pts = " ".join(f"{(x - x0) * UNIT:.1f},{(y - y0) * UNIT:.1f}" for x, y in corners)
            v = values[k]
            up = standing(kind, v)
            style = ""
            if up:
                fill = "#5b4a32" if kind == "int" else piece_colour(ns, kind, v)
                style = f' style="fill:{esc(fill)};stroke:#222;stroke-width:1"'
            out.append(f'<polygon class="cell wall{" up" if up else ""}" data-grid="{esc(name)}" data-instance="0" '
                       f'data-cell="{k}" data-name="{esc(names[k])}" points="{pts}"{style}>'
                       f'<title>{esc(names[k])}</title></polygon>')
    return out


#: quarter turns (clockwise) that bring a side of a board to the bottom of the page
QUARTER_TURNS = {"south": 0, "east": 1, "north": 2, "west": 3}


def seat_turn(game, name: str, viewer: int | None, players: int) -> int:
    """How many quarter turns the shared board ``name`` is drawn turned for ``viewer``: so that the
    side the rules seat it at (``seats white at south, black at north``) is at the bottom. Where the
    rules seat nobody, the second seat of a two-seat game sits at the north, except at a board
    of lanes (pieces fall down them). A board of hexagons turns by half turns only."""
    ns = game.namespace
    if viewer is None:
        return 0
    sides = ns.get("SEAT_SIDES") or []
    side = sides[viewer] if viewer < len(sides) else None
    if not any(sides) and players == 2 and viewer == 1 and _lanes(game, name) is None:
        side = "north"
    turn = QUARTER_TURNS.get(side or "south", 0)
    return turn if ns["GRID_LAYOUTS"][name][0] != "hex" or turn % 2 == 0 else 0


def _turned(centres, turn: int) -> list:
    for _ in range(turn):  # a quarter turn clockwise on the page (y grows downwards)
        centres = [(-y, x) for x, y in centres]
    return list(centres)


def grid_svg(game, name: str, values: list, kind: str, label: str = "", marks: dict | None = None,
             instance: int = 0, around: dict | None = None, walls: list | None = None, turn: int = 0) -> str:
    """One grid as SVG. ``values``: per cell the element (-1 empty, -2 unseen), or the number
    for a grid of numbers (``kind`` "int"). ``around``: zones laid out by the enum naming the
    board's sides ({zone: (kind, contents per member)}), drawn beyond those sides. ``walls``:
    grids of walls standing on this board, drawn on it (see walls_svg). ``turn``: quarter turns
    the board is drawn turned (seat_turn)."""
    ns = game.namespace
    shape, centres = ns["GRID_LAYOUTS"][name]
    centres = _turned(centres, turn) if turn else centres
    names = game.cell_names(name)
    xs = [x for x, _y in centres] or [0]
    ys = [y for _x, y in centres] or [0]
    labels = side_labels(ns, name, around) if centres else []
    pad = 0.75
    lanes = _lanes(game, name)  # lane grids: their lanes numbered below, as moves name them
    side_x = side_y = 0.0  # room for the sides' labels
    if labels:
        longest = max(len(said) for said, _ in labels)
        side_x = min(4.0, 0.3 + longest * 6.2 / UNIT)
        side_y = 1.6 if any(tokens for _, tokens in labels) else 0.9
    x0, y0 = min(xs) - pad - side_x, min(ys) - pad - side_y
    width = (max(xs) - min(xs) + 2 * (pad + side_x)) * UNIT
    height = (max(ys) - min(ys) + 2 * (pad + side_y) + (0.6 if lanes else 0)) * UNIT
    show = ns["show_symbol"]
    out = [f'<svg class="board" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
           f'role="group" aria-label="{esc(label or name)}" data-grid="{esc(name)}" data-instance="{instance}">',
           '<defs><linearGradient id="rainbow"><stop offset="0" stop-color="#d64541"/>'
           '<stop offset=".5" stop-color="#3fa34d"/><stop offset="1" stop-color="#3a78d8"/></linearGradient></defs>']
    r = UNIT * 0.5
    owners = edge_owners(ns, name)
    look = ns.get("GRID_LOOKS", {}).get(name)
    ground = ns.get("GRID_GROUNDS", {}).get(name)
    lines = list(ns.get("GRID_LINES", {}).get(name, ()))
    if look == "points":  # stones on the points where lines cross: the rows and columns drawn
        shape = "point"
        columns, rows = ns[f"G_{name}__COLUMNS"], ns[f"G_{name}__ROWS"]
        by_row: dict[int, list[int]] = {}
        by_column: dict[int, list[int]] = {}
        for c in range(len(centres)):
            by_row.setdefault(rows[c], []).append(c)
            by_column.setdefault(columns[c], []).append(c)
        lines += [sorted(cs, key=lambda c: columns[c]) for cs in by_row.values()]
        lines += [sorted(cs, key=lambda c: rows[c]) for cs in by_column.values()]
        out.append(f'<rect class="wood" x="{(min(xs) - x0 - 0.5) * UNIT:.1f}" y="{(min(ys) - y0 - 0.5) * UNIT:.1f}" '
                   f'width="{(max(xs) - min(xs) + 1) * UNIT:.1f}" height="{(max(ys) - min(ys) + 1) * UNIT:.1f}" rx="6"/>')
    shades = None
    if look == "checkered":  # a1's shade dark, as shade(board, c) == 0 says
        columns, rows = ns[f"G_{name}__COLUMNS"], ns[f"G_{name}__ROWS"]
        shades = [(columns[c] + rows[c]) % 2 for c in range(len(centres))]
    above: list[str] = []  # cells drawn over what stands on them (the crossings of a board on points)
    for line in lines:  # a board of points: its lines, under the points
        ends = " ".join(f"{(centres[c][0] - x0) * UNIT:.1f},{(centres[c][1] - y0) * UNIT:.1f}" for c in line)
        width = 1.5 if look == "points" else 4
        out.append(f'<polyline class="track" points="{ends}" fill="none" stroke="#5b4a32" stroke-width="{width}" '
                   'stroke-linecap="round"/>')  # drawn alike on the page and in a rulebook
    for c, (cx, cy) in enumerate(centres):
        px, py = (cx - x0) * UNIT, (cy - y0) * UNIT
        shade = "" if shades is None else " dark" if shades[c] == 0 else " light"
        styles = []
        if ground and not shade:  # the board's colour (a green baize), kept under the page's tints
            shade = " grounded"
            styles.append(f"--ground:{COLOUR_WORDS.get(ground, ground)}")
        attrs = (f'class="cell{shade}" data-grid="{esc(name)}" data-instance="{instance}" data-cell="{c}" '
                 f'data-name="{esc(names[c])}" role="img" aria-label="{esc(cell_label(ns, names[c], kind, values[c]))}"')
        if c in owners:  # a side that is a seat's goal, in that seat's colour
            styles += [f"stroke:{seat_colour(ns, owners[c])}", "stroke-width:3"]
        if styles:
            attrs += f' style="{esc(";".join(styles))}"'

        if shape == "hex":
            pts = " ".join(f"{px + r * 1.12 * math.cos(math.radians(a)):.1f},{py + r * 1.12 * math.sin(math.radians(a)):.1f}"
                           for a in range(30, 390, 60))
            out.append(f'<polygon {attrs} points="{pts}"><title>{esc(names[c])}</title></polygon>')
        elif shape == "point" and look == "points":  # a crossing of lines: a stone's place, unmarked
            crossing = attrs.replace('class="cell', 'class="cell crossing', 1)
            above.append(f'<circle {crossing} cx="{px:.1f}" cy="{py:.1f}" r="{r * 0.48:.1f}">'
                         f'<title>{esc(names[c])}</title></circle>')  # drawn over the stones: clicked, outlined
        elif shape == "point":  # a point of a board of lines: a dot where pieces stand
            out.append(f'<circle {attrs} cx="{px:.1f}" cy="{py:.1f}" r="{r * 0.7:.1f}">'
                       f'<title>{esc(names[c])}</title></circle>')
        elif shape == "pit":
            big = names[c].startswith("store")
            out.append(f'<ellipse {attrs} cx="{px:.1f}" cy="{py:.1f}" rx="{r * 0.9:.1f}" ry="{r * (1.6 if big else 0.9):.1f}">'
                       f'<title>{esc(names[c])}</title></ellipse>')
        else:
            out.append(f'<rect {attrs} x="{px - r:.1f}" y="{py - r:.1f}" width="{UNIT}" height="{UNIT}">'
                       f'<title>{esc(names[c])}</title></rect>')
        edge = _edge_names(names[c]) if look else None
        if edge is None:
            out.append(f'<text class="name" aria-hidden="true" x="{px - r * 0.8:.1f}" y="{py - r * 0.55:.1f}">{esc(names[c])}</text>')
        else:  # a board drawn as its game's: its files along the bottom, its ranks up the left
            if cy == max(ys):
                out.append(f'<text class="coord" aria-hidden="true" x="{px:.1f}" y="{py + r + 9:.1f}">{esc(edge[0])}</text>')
            if cx == min(xs):
                out.append(f'<text class="coord" aria-hidden="true" x="{px - r - 9:.1f}" y="{py + 4:.1f}">{esc(edge[1])}</text>')
        v = values[c]
        if kind == "int":
            if v:
                out.append(f'<text class="number" aria-hidden="true" x="{px:.1f}" y="{py + 6:.1f}">{esc(v)}</text>')
            continue
        # what stands on a cell is one group (piece and symbol, or card and value): it is what
        # moves when the page animates a move
        if v == -2:
            out.append(f'<g class="token" aria-hidden="true" data-grid="{esc(name)}" data-cell="{c}"><circle class="piece unseen" cx="{px:.1f}" cy="{py:.1f}" r="{r * 0.62:.1f}"/>'
                       f'<text class="symbol" x="{px:.1f}" y="{py + 5:.1f}">?</text></g>')
        elif v >= 0:
            text = show(kind, v)
            if kind.startswith("item:"):  # a card: edged in its colour where its row names one (a suit)
                colour = item_colour(ns, kind, v)
                edge = f' style="stroke:{esc(colour)};stroke-width:3"' if colour else ""
                out.append(f'<g class="token" aria-hidden="true" data-grid="{esc(name)}" data-cell="{c}"><rect class="card" x="{px - r * 0.8:.1f}" y="{py - r * 0.45:.1f}" width="{r * 1.6:.1f}" '
                           f'height="{r * 1.1:.1f}" rx="4"{edge}/><text class="cardtext" x="{px:.1f}" y="{py + 5:.1f}">'
                           f'{esc(ns["show_value"](kind, v))}</text></g>')
                continue
            fill = piece_colour(ns, kind, v)
            figure = figure_of(ns, kind, v)
            if figure.startswith("disc:"):  # a disc of its seat's colour bearing the figure (a crowned man)
                text = figure[5:]
            elif figure:  # the rules' glyph, in its seat's colour, edged to read on any square
                out.append(f'<g class="token" aria-hidden="true" data-grid="{esc(name)}" data-cell="{c}"><text class="figure" '
                           f'x="{px:.1f}" y="{py + r * 0.36:.1f}" fill="{fill}" stroke="{_text_colour(fill)}">{esc(figure)}</text></g>')
                continue
            if look == "points":  # a stone on a crossing: as wide as the squares, and unlettered
                out.append(f'<g class="token" aria-hidden="true" data-grid="{esc(name)}" data-cell="{c}"><circle class="piece stone" '
                           f'cx="{px:.1f}" cy="{py:.1f}" r="{r * 0.9:.1f}" fill="{fill}"/></g>')
                continue
            out.append(f'<g class="token" aria-hidden="true" data-grid="{esc(name)}" data-cell="{c}"><circle class="piece" cx="{px:.1f}" cy="{py:.1f}" r="{r * 0.62:.1f}" fill="{fill}"/>'
                       f'<text class="symbol" x="{px:.1f}" y="{py + 5:.1f}" fill="{_text_colour(fill)}">{esc(text)}</text></g>')
    out += above
    if walls:
        out += walls_svg(game, walls, centres, shape, x0, y0)
    out += _side_svg(ns, name, centres, labels, x0, y0)
    if lanes:
        width_cells, height_cells = lanes
        for lane in range(width_cells):
            cx, _cy = centres[lane * height_cells]
            out.append(f'<text class="lane" x="{(cx - x0) * UNIT:.1f}" y="{(max(ys) - y0 + 0.9) * UNIT:.1f}">'
                       f'{lane + 1}</text>')
    out.append("</svg>")
    return "".join(out)


def _edge_names(name: str) -> tuple[str, str] | None:
    """A cell name's file and rank (``e4``: ``e``, ``4``), else None."""
    letters = name.rstrip("0123456789")
    return (letters, name[len(letters):]) if letters.isalpha() and name[len(letters):] else None


def _lanes(game, name: str) -> tuple[int, int] | None:
    """(lanes, height) of a lane grid (cells lane-major), else None."""
    for grid in game.grids:
        if grid[0] == name and grid[6] == "lanes":
            return grid[7], grid[8]
    return None


def _items(game, zone: str, kind: str, place, instance: int) -> str:
    ns = game.namespace
    if isinstance(place, dict):
        return f'<span class="hidden">{place["hidden"]} hidden</span>'
    column = ns.get("ZONE_COLUMNS", {}).get(zone)
    if column and kind.startswith("item:"):  # laid out as the game lays them: a column per member
        return _columns(ns, zone, kind, place, instance, column)
    if not place:
        return '<span class="empty">empty</span>'
    if kind.startswith("enum:") and len(place) > 12:  # a big pool of members: one chip per member, counted
        first: dict[int, int] = {}
        counts: dict[int, int] = {}
        for i, v in enumerate(place):
            first.setdefault(v, i)
            counts[v] = counts.get(v, 0) + 1
        return "".join(
            f'<span class="item pool" data-zone="{esc(zone)}" data-instance="{instance}" data-index="{i}" data-value="{v}" '
            f'title="{esc(ns["show_value"](kind, v))}"><span class="swatch" style="background:{esc(piece_colour(ns, kind, v))}">'
            f'</span>{esc(ns["show_value"](kind, v))} ×{counts[v]}</span>' for v, i in sorted(first.items()))
    return "".join(_item(ns, zone, kind, v, i, instance) for i, v in enumerate(place))


def _item(ns: dict, zone: str, kind: str, v: int, i: int, instance: int) -> str:
    """One item of a zone: its text (a card's show), edged in its colour, with its pattern drawn
    where its table has one."""
    text = ns["show_value"](kind, v) if kind != "int" else str(v)
    colour = item_colour(ns, kind, v)
    style = f' style="border-left:6px solid {esc(colour)}"' if colour else ""
    drawn = pattern_svg(ns, kind, v)
    shown = f'{drawn}<span class="visually-hidden">{esc(text)}</span>' if drawn else esc(text)
    return (f'<span class="item{" card" if colour or drawn else ""}" data-zone="{esc(zone)}" data-instance="{instance}" '
            f'data-index="{i}" data-value="{v}"{style} title="{esc(ns["show_detail"](kind, v) if kind != "int" else v)}">'
            f'{shown}</span>')


def _columns(ns: dict, zone: str, kind: str, place: list, instance: int, column: str) -> str:
    """A zone of items in columns, one per member of the enum column they are laid out by (an
    expedition per suit), each headed by its member, in its colour where it names one."""
    table = kind[5:]
    enum = dict(ns.get("TABLE_ENUM_COLUMNS", {}).get(table, ())).get(column)
    members = ns.get(f"T_{enum}__NAMES") or ()
    values = ns[f"C_{table}__{column}"]
    out = ['<div class="columns">']
    for m, member in enumerate(members):
        colour = COLOUR_WORDS.get(member.lower())
        edge = f' style="border-top-color:{esc(colour)}"' if colour else ""
        cards = "".join(_item(ns, zone, kind, v, i, instance) for i, v in enumerate(place) if values[v] == m)
        out.append(f'<div class="column" data-member="{esc(member)}"{edge}><span class="column-head">{esc(words(member))}'
                   f'</span>{cards}</div>')
    out.append("</div>")
    return "".join(out)


def pattern_svg(ns: dict, kind: str, value: int) -> str:
    """An item's pattern (its table's pattern column) as a small picture: a disc per mark, in
    its member's colour, rows top to bottom; '' for items without one."""
    const = ns.get("ITEM_PATTERNS", {}).get(kind)
    if const is None:
        return ""
    height, width, marks = ns["PATTERNS"][const[value]]
    enum = ns.get("ITEM_PATTERN_ENUMS", {}).get(kind, "")
    step = 12
    out = [f'<svg class="marks" aria-hidden="true" width="{width * step}" height="{height * step}" '
           f'viewBox="0 0 {width * step} {height * step}">']
    for k, mark in enumerate(marks):
        row, col = divmod(k, width)
        if mark:
            fill = piece_colour(ns, f"enum:{enum}", mark - 1)
            out.append(f'<circle cx="{col * step + step / 2}" cy="{row * step + step / 2}" r="{step / 2 - 1}" '
                       f'fill="{esc(fill)}" stroke="#555" stroke-width="0.8"/>')
        else:
            out.append(f'<circle cx="{col * step + step / 2}" cy="{row * step + step / 2}" r="1.5" fill="#aaa"/>')
    out.append("</svg>")
    return "".join(out)


def item_colour(ns: dict, kind: str, value: int) -> str | None:
    """The colour of a table's item whose row names a colour (a column of an enum whose members
    are colour words, such as a card's suit), else None."""
    if not kind.startswith("item:"):
        return None
    table = kind[5:]
    for column, enum in ns.get("TABLE_ENUM_COLUMNS", {}).get(table, ()):
        names = ns.get(f"T_{enum}__NAMES") or ()
        if names and all(n.lower() in COLOUR_WORDS for n in names):
            member = ns[f"C_{table}__{column}"][value]
            if 0 <= member < len(names):
                return COLOUR_WORDS[names[member].lower()]
    return None


def _places(ns: dict, name: str, per, value, n: int):
    """(owning seat or None, instance, label, contents) of each place of a zone or grid: one per
    seat, one per enum member (labelled by it), or the one place."""
    if per == "player":
        return [(p, p, name, value[p]) for p in range(n)]
    if per:
        enum = ns["ZONE_PER_ENUM"].get(name)
        members = ns.get(f"T_{enum}__NAMES", ()) if enum else ()
        return [(None, i, f"{name} {members[i]}" if i < len(members) else f"{name} {i + 1}", place)
                for i, place in enumerate(value)]
    return [(None, 0, name, value)]


def seat_word(ns: dict, seat: int) -> str:
    """A seat as a person names it: its name in the rules (white, black), else P1, P2..."""
    seats = ns.get("SEATS") or []
    return seats[seat] if 0 <= seat < len(seats) else f"P{seat + 1}"


def cell_label(ns: dict, name: str, kind: str, value: int) -> str:
    """What a screen reader says of a cell: its name and what stands there ("e4, white knight",
    "a1, empty")."""
    return f"{name}, {value_words(ns, kind, value)}"


def value_words(ns: dict, kind: str, value: int) -> str:
    """An element as people say it: "white knight", "black" (a seat by its name), a card's
    show, a number; "empty" for none, "hidden" for one this seat may not see."""
    if value == -2:
        return "hidden"
    if kind == "int":
        return str(value)
    if value < 0:
        return "empty"
    if kind == "player":
        return seat_word(ns, value)
    if kind.startswith("piece:") and kind in ns["KIND_SIZES"]:
        kinds = ns["KIND_SIZES"][kind] // ns["MAX_PLAYERS"]
        return f"{seat_word(ns, value // kinds)} {ns['show_value']('enum:' + kind[6:], value % kinds)}"
    return str(ns["show_value"](kind, value))


def seat_name(game, seat: int) -> str:
    marks = game.namespace.get("MARKS") or []
    return f"P{seat + 1}" + (f" ({marks[seat]})" if seat < len(marks) else "")


def table_html(state, viewer: int | None) -> str:
    """The whole table as ``viewer`` (None: a spectator) sees it: shared places, then a column
    per seat, then counters and scores."""
    game = state.GAME
    ns = game.namespace
    view = state.view(viewer)
    zones = view["zones"]
    quiet = set(ns.get("QUIET", ()))
    shared, per_seat = [], {p: [] for p in range(state.n)}
    spaces = [(meta, "zone") for meta in ns["ZONES"]] + [(meta, "grid") for meta in ns["GRIDS"]]
    # zones laid out by the enum that names a board's sides (targets beyond them) are drawn there
    edges = ns.get("GRID_EDGES", {})
    around: dict[str, dict] = {grid: {} for grid in edges}
    for name, _attr, per, _h, _p, kind, *_ in ns["ZONES"]:
        for grid, enum in edges.items():
            if per and per != "player" and ns["ZONE_PER_ENUM"].get(name) == enum and name not in quiet:
                around[grid][name] = (kind, zones[name])
    beyond = {z for zs in around.values() for z in zs}
    kinds = {g[0]: g[5] for g in ns["GRIDS"]}
    on_board = {base: [(w, kinds[w], zones[w]) for w in ws] for base, ws in walls_on_boards(ns).items()}
    drawn_on = {w for ws in on_board.values() for w, _k, _v in ws}  # drawn on their board
    for (name, _attr, per, _h, _p, kind, *_), what in spaces:
        if name in quiet or name in beyond or name in drawn_on:
            continue
        for seat, instance, label, value in _places(ns, name, per, zones[name], state.n):
            if what == "zone":
                body = _items(game, name, kind, value, instance)
            else:
                body = grid_svg(game, name, value, kind, f"{name} of P{seat + 1}" if seat is not None else label,
                                instance=instance, around=around.get(name), walls=on_board.get(name),
                                turn=seat_turn(game, name, viewer, state.n) if seat is None else 0)
            (per_seat[seat] if seat is not None else shared).append(
                f'<div class="{what}"><span class="label">{esc(words(label))}</span>{body}</div>')
    counters_shared = []
    for name, _attr, per in ns["COUNTERS"]:
        if name in quiet:
            continue
        value = view["counters"][name]
        if isinstance(per, tuple):  # two keys: a row per first key
            value = [", ".join(game.show_counter(name, v) for v in row) for row in value]
            if per[0] == "player":
                for p in range(state.n):
                    per_seat[p].append(f'<div class="counter"><span class="label">{esc(words(name))}</span> '
                                       f'{esc(value[p])}</div>')
            else:
                counters_shared.append(f'<div class="counter"><span class="label">{esc(words(name))}</span> '
                                       f'{esc(" / ".join(value))}</div>')
        elif per == "player":
            for p in range(state.n):
                per_seat[p].append(f'<div class="counter"><span class="label">{esc(words(name))}</span> '
                                   f'{esc(game.show_counter(name, value[p]))}</div>')
        elif per:
            counters_shared.append(f'<div class="counter"><span class="label">{esc(words(name))}</span> '
                                   f'{esc(", ".join(game.show_counter(name, v) for v in value))}</div>')
        else:
            counters_shared.append(f'<div class="counter"><span class="label">{esc(words(name))}</span> '
                                   f'{esc(game.show_counter(name, value))}</div>')
    scores = view["scores"]
    seats = []
    for p in range(state.n):
        turn = " to-play" if not state.is_over and state.current_player == p else ""
        you = " (you)" if viewer == p else ""
        score = "?" if scores[p] is None else scores[p]
        scored = f'<span class="score">{esc(score)}</span>' if ns.get("SCORE_CLAUSES") else ""  # no score: none shown
        seats.append(f'<section class="seat{turn}" data-seat="{p}"><h3>{esc(seat_name(game, p))}{you}'
                     f'{scored}</h3>{"".join(per_seat[p])}</section>')
    return (f'<div class="shared">{"".join(shared)}{"".join(counters_shared)}</div>'
            f'<div class="seats">{"".join(seats)}</div>')
