"""Determinisation: a copy of a state in which everything a player may not see is re-dealt.

For a player p, the hidden places are the zones nobody sees, the other players' private zones,
and the filled cells of grids p may not see. Their elements are gathered by kind (cards with
cards, tokens with tokens), sorted (so that their arrangement cannot leak), shuffled with the
caller's generator and dealt back into the same places, in the same numbers. The copy is
consistent with ``state.view(p)`` and its future chance is reseeded: an agent searching it
learns nothing that p could not know.
"""
from __future__ import annotations

from .engine import BaseState
from .rng import Rng


def hidden_places(state: BaseState, player: int) -> list[tuple[str, str, int | None, bool]]:
    """(attribute, element kind, seat or None, is a grid) of every place ``player`` cannot see."""
    if state.over:
        return []
    places = []
    for spaces, is_grid in ((state.ZONES, False), (state.GRIDS, True)):  # type: ignore[attr-defined]
        for _name, attr, per, hidden, private, kind, *_ in spaces:
            if hidden:
                if per:
                    places.extend((attr, kind, i, is_grid) for i in range(len(getattr(state, attr))))
                else:
                    places.append((attr, kind, None, is_grid))
            elif private and per == "player":
                places.extend((attr, kind, seat, is_grid) for seat in range(state.n) if seat != player)
    return places


def determinize(state: BaseState, player: int, rng: Rng) -> BaseState:
    """A copy of ``state`` with the hidden elements re-dealt at random (see the module doc)."""
    copy = state.copy()  # type: ignore[attr-defined]
    places = hidden_places(copy, player)
    by_kind: dict[str, list] = {}
    for attr, kind, seat, is_grid in places:
        value = getattr(copy, attr)
        target = value[seat] if seat is not None else value
        if is_grid:  # grid cells hold element + 1
            by_kind.setdefault(kind, []).extend(v - 1 for v in target if v)
        else:
            by_kind.setdefault(kind, []).extend(target)
    pools = {}
    for kind, items in by_kind.items():
        items.sort()
        rng.shuffle(items)
        pools[kind] = items
    for attr, kind, seat, is_grid in places:
        value = getattr(copy, attr)
        target = value[seat] if seat is not None else value
        pool = pools[kind]
        if is_grid:
            for i, v in enumerate(target):
                if v:
                    target[i] = pool.pop() + 1
        else:
            for i in range(len(target)):
                target[i] = pool.pop()
    copy.rng = Rng(state=rng.next64())
    if not copy.over:
        copy.legal = copy._decide()  # type: ignore[attr-defined]
    return copy
