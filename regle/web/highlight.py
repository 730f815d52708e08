"""What decided a game, to outline on its board: the winners' line of pieces or their chain
between two sides, found from the end conditions the engine describes (``END_SHAPES``: each
``in_a_row(G, who, k)`` and ``connected(G, who, a, b)`` of the rules) and the final position.
Works for any game whose end says so; others outline nothing."""
from __future__ import annotations

from collections import deque


def _geometry(ns: dict, grid: str) -> tuple[list, int, list]:
    const = f"G_{grid}_"  # as the compiler names a grid's tables
    adj, dirs = ns[f"{const}_ADJ"], ns[f"{const}_DIRS"]
    return adj, len(dirs), ns.get(f"{const}_SIDES", [])


def deciding_cells(game, state) -> list[list]:
    """[grid, None, cell] of every cell of a winning line or chain (empty: nothing to show)."""
    ns = game.namespace
    winners = state.winners
    if not state.is_over or not winners:
        return []
    zones = state.view(None)["zones"]
    found: dict[tuple, None] = {}
    for shape in ns.get("END_SHAPES", ()):
        values = zones.get(shape["grid"])
        if not isinstance(values, list) or not values or isinstance(values[0], (list, dict)):
            continue  # a grid per seat, or unseen: nothing drawn once
        adj, deg, sides = _geometry(ns, shape["grid"])
        for w in winners:
            if shape["kind"] == "in_a_row":
                cells = _lines(values, adj, deg, w, shape["length"])
            elif shape.get("seat") in (None, w) and len(shape["sides"]) == 2 and sides:
                a, b = shape["sides"]
                cells = _chain(values, adj, deg, w, sides[a], sides[b])
            else:
                cells = []
            for c in cells:
                found[(shape["grid"], c)] = None
    return [[g, None, c] for g, c in found]


def _lines(values: list, adj, deg: int, who: int, length: int) -> list[int]:
    """Every cell of a straight run of at least ``length`` of ``who``'s pieces."""
    out: set[int] = set()
    for start, v in enumerate(values):
        if v != who:
            continue
        for d in range(deg):
            back = adj[start * deg + (d ^ 1)] if (d ^ 1) < deg else -1
            if back >= 0 and values[back] == who:
                continue  # not the start of this run
            run, c = [], start
            while c >= 0 and values[c] == who:
                run.append(c)
                c = adj[c * deg + d]
            if len(run) >= length:
                out.update(run)
    return sorted(out)


def _chain(values: list, adj, deg: int, who: int, side_a: list, side_b: list) -> list[int]:
    """The cells of a shortest chain of ``who``'s pieces from side a to side b."""
    goal = set(side_b)
    parent: dict[int, int] = {}
    queue = deque()
    for c in side_a:
        if values[c] == who and c not in parent:
            parent[c] = -1
            queue.append(c)
    while queue:
        c = queue.popleft()
        if c in goal:
            path = []
            while c >= 0:
                path.append(c)
                c = parent[c]
            return path
        for d in range(deg):
            n = adj[c * deg + d]
            if n >= 0 and n not in parent and values[n] == who:
                parent[n] = c
                queue.append(n)
    return []
