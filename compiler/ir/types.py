"""The checker's types. Values are small ints at run time; types say what the ints mean."""
from __future__ import annotations

import attrs


@attrs.frozen
class Type:
    """kind: int bool player enum item list zone zones counters grid grids cell group
    placement linemove pattern any."""

    kind: str
    name: str | None = None  # enum or table name (enum, item, pattern)
    elem: "Type | None" = None  # element type of collections and grids
    per: str | None = None  # zones/counters/grids: "player" or an enum name
    space: str | None = None  # grids, cells, groups, line moves: the grid's name

    def __str__(self) -> str:
        if self.kind in ("enum", "item"):
            return str(self.name)
        if self.kind == "list":
            return f"a list of {self.elem}"
        if self.kind == "zone":
            return f"a zone of {self.elem}"
        if self.kind in ("zones", "grids", "counters"):
            what = {"zones": f"a zone of {self.elem}", "grids": f"a grid of {self.elem}",
                    "counters": "a counter"}[self.kind]
            example = "p" if self.per == "player" else "x"
            return f"{what} per {self.per} (index it: name[{example}])"
        if self.kind == "grid":
            return f"grid '{self.space}'"
        if self.kind in ("cell", "group", "placement", "linemove", "lane", "direction"):
            return {"cell": "a cell", "group": "a group", "placement": "a placement",
                    "linemove": "a line move", "lane": "a lane", "direction": "a direction"}[self.kind]
        if self.kind == "pattern":
            return f"a pattern of {self.name}"
        if self.kind == "piece":
            return f"a piece ({self.name} of a player)"
        return {"int": "a number", "bool": "true/false", "player": "a player", "any": "a value"}.get(
            self.kind, self.kind)

    @property
    def is_collection(self) -> bool:
        return self.kind in ("list", "zone")

    @property
    def is_number(self) -> bool:
        """Values that count as numbers: a lane is its number from 0 (shown from 1)."""
        return self.kind in ("int", "player", "lane", "any")

    @property
    def display_kind(self) -> str:
        """How runtime displays an element of this type: ``int``, ``enum:name``, ``item:name``."""
        if self.kind in ("enum", "item", "pattern", "piece"):
            return f"{self.kind}:{self.name}"
        if self.kind in ("cell", "linemove", "group"):
            return f"{self.kind}:{self.space}"
        if self.kind == "player":
            return "player"
        if self.kind == "bool":
            return "bool"
        if self.kind == "list":  # a subset parameter's values (a tuple)
            return "list:" + (self.elem or ANY).display_kind
        return "int"


INT = Type("int")
BOOL = Type("bool")
PLAYER = Type("player")
ANY = Type("any")
TEXT = Type("text")  # a text made for people (a notation, a show): only ever shown
MARKS = Type("marks")  # the marks a search left on a grid's places, a byte each (compiler/lower/kept_ways.py)


def enum(name: str) -> Type:
    return Type("enum", name)


def item(name: str) -> Type:
    return Type("item", name)


def list_of(elem: Type) -> Type:
    return Type("list", elem=elem)


def zone_of(elem: Type) -> Type:
    return Type("zone", elem=elem)


def compatible(a: Type, b: Type) -> bool:
    """Whether values of a and b may be compared or stored in each other's place."""
    if a.kind == "any" or b.kind == "any":
        return True
    if a.is_number and b.is_number:
        return True
    if a.kind == "cell" and b.kind == "cell":
        return True
    if a.kind in ("list", "zone") and b.kind in ("list", "zone"):
        return a.elem is None or b.elem is None or compatible(a.elem, b.elem)
    return a.kind == b.kind and a.name == b.name
