"""What a game's rules declare, read from its engine: ``game.spec``.

Tools built on regle (a GUI, an analysis notebook, a harness that checks a game against another
implementation) need the rules' params, enums, tables, places, boards and actions as data, not
as printed text. The engine module holds all of it as constants written when it was generated
(``SPEC_*``, ``P_*``, the grids' geometry tables); this module reads them into plain Python
values, so that it works the same on both engines and needs neither the rules text nor the
compiler (the runtime never imports it).

    spec = regle.load("hex").spec
    spec.params                       # {"size": 11}
    spec.enums["side"]                # ["south", "west", "north", "east"]
    board = spec.grids["board"]
    board.neighbours("a1")            # {"e": "b1", "ne": "a2"}
    board.sides["south"][:3]          # ["a1", "b1", "c1"]
    spec.to_dict()                    # all of it, ready for json.dumps
"""
from __future__ import annotations

from typing import Any


class GridSpec:
    """A board: its cells by name, its directions, each cell's neighbours, its sides."""

    def __init__(self, ns: dict, name: str, row: tuple):
        const = f"G_{name}_"
        _name, _attr, per, hidden, private, kind, shape, width, height, cells = row
        self.name: str = name
        self.shape: str = shape
        self.width: int = width
        self.height: int = height
        self.per = per
        self.hidden: bool = hidden
        self.private: bool = private
        self.holds: str = kind
        self.cells: list[str] = list(ns[f"{const}_NAMES"])
        self.directions: list[str] = list(ns.get(f"{const}_DIRS", ()))
        deg = len(self.directions)
        adj = list(ns.get(f"{const}_ADJ", ()))
        self._adj = adj
        self._deg = deg
        self._index = {cell: i for i, cell in enumerate(self.cells)}
        rows, columns = ns.get(f"{const}_ROWS"), ns.get(f"{const}_COLUMNS")
        self.rows: dict[str, int] = {c: rows[i] for i, c in enumerate(self.cells)} if rows is not None else {}
        self.columns: dict[str, int] = ({c: columns[i] for i, c in enumerate(self.cells)}
                                        if columns is not None and len(columns) == len(self.cells) else {})
        side_names = list(ns.get(f"{const}_SIDE_NAMES", ()))
        enum = ns.get("GRID_EDGES", {}).get(name)
        if enum is not None:  # the rules name the sides by an enum's members, in the same order
            side_names = list(ns["SPEC_ENUMS"][enum][0])
        sides = ns.get(f"{const}_SIDES", ())
        self.sides: dict[str, list[str]] = {side: [self.cells[c] for c in sides[i]]
                                            for i, side in enumerate(side_names) if i < len(sides)}
        exits = ns.get(f"{const}_EXITS", ())
        self._exits = exits
        self._side_names = side_names

    def _cell(self, cell: str) -> int:
        try:
            return self._index[cell]
        except KeyError:
            raise KeyError(f"board '{self.name}' has no cell {cell!r}") from None

    def neighbour(self, cell: str, direction: str) -> str | None:
        """The cell next to ``cell`` in ``direction``, None off the board."""
        if direction not in self.directions:
            raise KeyError(f"board '{self.name}' has no direction {direction!r}: {', '.join(self.directions)}")
        j = self._adj[self._cell(cell) * self._deg + self.directions.index(direction)]
        return None if j < 0 else self.cells[j]

    def neighbours(self, cell: str) -> dict[str, str]:
        """The cells next to ``cell``, by direction (the directions that stay on the board)."""
        i = self._cell(cell)
        out = {}
        for d, direction in enumerate(self.directions):
            j = self._adj[i * self._deg + d]
            if j >= 0:
                out[direction] = self.cells[j]
        return out

    def exits(self, cell: str, direction: str) -> list[str]:
        """The sides a step from ``cell`` in ``direction`` leaves the board by (none: it stays)."""
        if not self._exits:
            return []
        crossed = self._exits[self._cell(cell) * self._deg + self.directions.index(direction)]
        return [self._side_names[s] for s in crossed if s < len(self._side_names)]

    def to_dict(self) -> dict:
        return {"shape": self.shape, "width": self.width, "height": self.height, "per": self.per,
                "hidden": self.hidden, "private": self.private, "holds": self.holds, "cells": self.cells,
                "directions": self.directions, "neighbours": {c: self.neighbours(c) for c in self.cells},
                "rows": self.rows, "columns": self.columns, "sides": self.sides}

    def __repr__(self) -> str:
        return f"<GridSpec {self.name}: {self.shape} {self.width}x{self.height}, {len(self.cells)} cells>"


class GameSpec:
    """Everything a game's rules declare, as data (``game.spec``); see the module."""

    def __init__(self, game: Any):
        ns = game.namespace
        self.name: str = game.name
        self.title: str = game.title
        self.players: list[int] = list(game.players)
        self.params: dict[str, Any] = {name: ns[f"P_{name}"] for name in ns.get("SPEC_PARAMS", ())}
        enums = ns.get("SPEC_ENUMS", {})
        self.enums: dict[str, list[str]] = {name: list(names) for name, (names, _symbols) in enums.items()}
        self.enum_symbols: dict[str, list[str]] = {name: list(symbols) for name, (_n, symbols) in enums.items()}
        self.tables: dict[str, list[dict]] = {}
        for table, columns in ns.get("SPEC_TABLES", {}).items():
            count = len(columns[0][2]) if columns else 0
            self.tables[table] = [{column: self._value(kind, values[i], enums, ns.get("PATTERNS", ()))
                                   for column, kind, values in columns} for i in range(count)]
        self.zones: dict[str, dict] = {
            name: {"per": per, "hidden": hidden, "private": private, "holds": kind, "capacity": capacity}
            for name, _attr, per, hidden, private, kind, capacity in ns.get("ZONES", ())}
        kinds = ns.get("COUNTER_KINDS", {})
        self.counters: dict[str, dict] = {name: {"per": list(per) if isinstance(per, tuple) else per,
                                                 "holds": kinds.get(name, "int")}
                                          for name, _attr, per in ns.get("COUNTERS", ())}
        self.grids: dict[str, GridSpec] = {row[0]: GridSpec(ns, row[0], row) for row in ns.get("GRIDS", ())}
        self.tracks: dict[str, dict] = {
            name: {"grid": grid, "cells": [self.grids[grid].cells[c] for c in cells], "loop": loop}
            for name, (grid, cells, loop) in ns.get("TRACKS", {}).items() if grid in self.grids}
        actions = ns.get("SPEC_ACTIONS", ())
        self.steps: list[dict] = [
            {"name": step, "kind": kind, "line": line,
             "actions": [{"name": a, "params": [p.rstrip("_") for p in params], "takes": list(takes)}
                         for a, in_step, params, takes in actions if in_step == step]}
            for step, kind, line in ns.get("STEPS", ())]

    @staticmethod
    def _value(kind: str, value: Any, enums: dict, patterns: tuple) -> Any:
        """A table's cell as the rules wrote it: an enum member by its name; a pattern as its
        rows, the top one first, each a list of member names (None where it has none)."""
        family, _, enum = kind.partition(":")
        if family not in ("enum", "pattern") or enum not in enums or not isinstance(value, int):
            return value
        names = enums[enum][0]
        if family == "enum":
            return names[value] if 0 <= value < len(names) else None
        rows, columns, cells = patterns[value]
        return [[names[cells[r * columns + c] - 1] if cells[r * columns + c] else None for c in range(columns)]
                for r in range(rows)]

    def to_dict(self) -> dict:
        """All of it as plain JSON values."""
        return {"name": self.name, "title": self.title, "players": self.players, "params": self.params,
                "enums": self.enums, "enum_symbols": self.enum_symbols, "tables": self.tables,
                "zones": self.zones, "counters": self.counters,
                "grids": {name: grid.to_dict() for name, grid in self.grids.items()}, "tracks": self.tracks,
                "steps": self.steps}

    def __repr__(self) -> str:
        return (f"<GameSpec {self.name}: {len(self.params)} params, {len(self.enums)} enums, "
                f"{len(self.tables)} tables, {len(self.zones)} zones, {len(self.grids)} grids, {len(self.steps)} steps>")
