"""Tracks: named paths through a grid's cells (``track lap on board: "a1 b1 c1", "c2 c3" loop``),
checked into symbols. Race games and circuits move pieces ``along`` them; the lowering writes
each track as two tables (its cells in order, and each grid cell's place on it)."""
from __future__ import annotations

import attrs

from regle.dsl import ast

from .symbols import suggest


@attrs.define
class TrackSym:
    name: str
    grid: str
    cells: tuple  # the grid's cell numbers, in the track's order
    loop: bool
    node: ast.Track


def decl_track(checker, node: ast.Track) -> None:
    """A track's grid declared above it, every name one of its cells, none twice, two or more."""
    checker.declare(node.name, node.name_pos, "track")
    grid = checker.sym.grids.get(node.grid)
    if grid is None:
        checker.error(f"track '{node.name}' is on grid '{node.grid}', which is not declared above it", node.pos,
                      suggest(node.grid, checker.sym.grids) or "declare the grid before the track")
        return
    if grid.geo.kind == "walls":
        checker.error("a track runs through a board's cells, not through walls", node.pos)
        return
    names = {name: i for i, name in enumerate(grid.geo.cell_names())}
    cells: list[int] = []
    for text in node.cells:
        for word in text.value.split():
            if word not in names:
                checker.error(f"track '{node.name}': grid '{node.grid}' has no cell '{word}'", text.pos,
                              suggest(word, names) or f"its cells are named {', '.join(list(names)[:4])}, ...")
                return
            if names[word] in cells:
                checker.error(f"track '{node.name}' passes through {word} twice", text.pos,
                              "a track meets each cell once; a circuit ends with 'loop' instead of its first cell")
                return
            cells.append(names[word])
    if len(cells) < 2:
        checker.error(f"track '{node.name}' has {len(cells)} cell{'' if len(cells) == 1 else 's'}: a track needs two "
                      "or more", node.pos)
        return
    checker.sym.tracks[node.name] = TrackSym(node.name, node.grid, tuple(cells), node.loop, node)
