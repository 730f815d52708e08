"""The checker's types. Values are small ints at run time; types say what the ints mean."""
from __future__ import annotations

import attrs


@attrs.frozen
class Type:
    kind: str  # int bool player enum item list zone zones counters any
    name: str | None = None  # enum or table name
    elem: "Type | None" = None

    def __str__(self) -> str:
        if self.kind in ("enum", "item"):
            return str(self.name)
        if self.kind == "list":
            return f"a list of {self.elem}"
        if self.kind == "zone":
            return f"a zone of {self.elem}"
        if self.kind == "zones":
            return f"a zone of {self.elem} per player (index it with a player: name[p])"
        if self.kind == "counters":
            return "a counter per player (index it with a player: name[p])"
        return {"int": "a number", "bool": "true/false", "player": "a player", "any": "a value"}.get(
            self.kind, self.kind)

    @property
    def is_collection(self) -> bool:
        return self.kind in ("list", "zone")

    @property
    def is_number(self) -> bool:
        return self.kind in ("int", "player", "any")

    @property
    def display_kind(self) -> str:
        """How runtime displays an element of this type: ``int``, ``enum:name``, ``item:name``."""
        if self.kind in ("enum", "item"):
            return f"{self.kind}:{self.name}"
        if self.kind == "player":
            return "player"
        if self.kind == "bool":
            return "bool"
        return "int"


INT = Type("int")
BOOL = Type("bool")
PLAYER = Type("player")
ANY = Type("any")


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
    if a.kind in ("list", "zone") and b.kind in ("list", "zone"):
        return a.elem is None or b.elem is None or compatible(a.elem, b.elem)
    return a.kind == b.kind and a.name == b.name
