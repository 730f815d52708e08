"""Determinisation: a copy of a state in which everything a player may not see is re-dealt.

For a player p, the hidden places are the zones nobody sees, the other players' private zones,
and the filled cells of grids p may not see. Elements are pooled only between hidden places
that elements can pass between unseen (the compiler lists the moves between places as
``FLOWS``; a pool follows chains of them through places p cannot see), and only with
elements of the same kind: two face-down stacks that never exchange cards keep their own
cards, a hidden deck and the hands it deals to are one pool. Each pool is sorted (so that
its arrangement cannot leak), shuffled with the caller's generator and dealt back into the
same places, in the same numbers. The copy is consistent with ``state.view(p)`` and its
future chance is reseeded: an agent searching it learns nothing that p could not know.
"""
from __future__ import annotations

from .engine import BaseState
from .rng import Rng


def hidden_places(state: BaseState, player: int) -> list[tuple[str, str, str, int | None, bool]]:
    """(name, attribute, element kind, seat or None, is a grid) of every place ``player``
    cannot see."""
    if state.over:
        return []
    places = []
    for spaces, grids in ((state.ZONES, False), (state.GRIDS, True)):  # type: ignore[attr-defined]
        for name, attr, per, hidden, private, kind, *_ in spaces:
            is_grid = grids and kind != "int"  # a grid of numbers holds values, as a zone does
            if hidden:
                if per:
                    places.extend((name, attr, kind, i, is_grid) for i in range(len(getattr(state, attr)))
                                  if not state.shown_to_all(name, i))
                elif not state.shown_to_all(name):
                    places.append((name, attr, kind, None, is_grid))
            elif private and per == "player":
                places.extend((name, attr, kind, seat, is_grid) for seat in range(state.n)
                              if seat != player and not state.shown_to_all(name, seat))
    return places


def _pools(names: set[str], flows) -> dict[str, str]:
    """Each hidden place's pool: the places reached by moves that stay among hidden places."""
    root = {n: n for n in names}

    def find(n: str) -> str:
        while root[n] != n:
            root[n] = root[root[n]]
            n = root[n]
        return n

    for a, b in flows:
        if a in root and b in root:
            root[find(a)] = find(b)
    return {n: find(n) for n in names}


def kept_in_place(state: BaseState, player: int, places: list) -> dict[tuple[str, int | None], set[int]]:
    """Per hidden zone, the positions of the items ``player`` saw go there (a card it passed
    face down: ``state.seen``, noted by the rules' secret moves) and that are still there: the
    seat knows where they are, so a re-deal leaves them in place."""
    kept: dict[tuple[str, int | None], set[int]] = {}
    notes = getattr(state, "seen", ())
    if not notes:
        return kept
    zones = {(name, seat): (attr, seat) for name, attr, _kind, seat, is_grid in places if not is_grid}
    for who, name, part, item in notes:
        key = (name, None if part < 0 else part)
        if who != player or key not in zones:
            continue
        attr, seat = zones[key]
        value = getattr(state, attr)
        target = value[seat] if seat is not None else value
        taken = kept.setdefault(key, set())
        free = [i for i, v in enumerate(target) if v == item and i not in taken]
        if free:  # still there (a copy of it, for copies alike): kept where it lies
            taken.add(free[0])
    return kept


def determinize(state: BaseState, player: int, rng: Rng) -> BaseState:
    """A copy of ``state`` with the hidden elements re-dealt at random (see the module doc),
    but for those the player saw go where they are (``kept_in_place``)."""
    copy = state.copy()  # type: ignore[attr-defined]
    places = hidden_places(copy, player)
    pool_of = _pools({p[0] for p in places}, copy.FLOWS)  # type: ignore[attr-defined]
    kept = kept_in_place(copy, player, places)
    gathered: dict[tuple[str, str], list] = {}
    for name, attr, kind, seat, is_grid in places:
        value = getattr(copy, attr)
        target = value[seat] if seat is not None else value
        items = gathered.setdefault((pool_of[name], kind), [])
        if is_grid:  # grid cells hold element + 1
            items.extend(v - 1 for v in target if v)
        else:
            stay = kept.get((name, seat), ())
            items.extend(v for i, v in enumerate(target) if i not in stay)
    for items in gathered.values():
        items.sort()
        rng.shuffle(items)
    for name, attr, kind, seat, is_grid in places:
        value = getattr(copy, attr)
        target = value[seat] if seat is not None else value
        pool = gathered[(pool_of[name], kind)]
        if is_grid:
            for i, v in enumerate(target):
                if v:
                    target[i] = pool.pop() + 1
        else:
            stay = kept.get((name, seat), ())
            for i in range(len(target)):
                if i not in stay:
                    target[i] = pool.pop()
    _private_counters(copy, player, rng)
    copy.rng = Rng(state=rng.next64())
    if not copy.over:
        copy.legal = copy._decide()  # type: ignore[attr-defined]
    return copy


def _private_counters(copy: BaseState, player: int, rng: Rng) -> None:
    """Another seat's private counters, which ``player`` has not seen, taken from the setup of
    a new game of another seed: a draw of the same kind as the one hidden (exact for a value
    drawn in setup and kept, a die under a cup)."""
    names = copy.GAME.namespace.get("PRIVATE_COUNTERS", ())
    unseen = [(name, seat) for name in names for seat in range(copy.n)
              if seat != player and not copy.shown_to_all(name, seat)]
    if not unseen:
        return
    fresh = copy.GAME.new_game(copy.n, seed=rng.next64() & 0x7FFFFFFF)
    attrs = {c[0]: c[1] for c in copy.COUNTERS}  # type: ignore[attr-defined]
    for name, seat in unseen:
        values = list(getattr(copy, attrs[name]))
        values[seat] = getattr(fresh, attrs[name])[seat]
        setattr(copy, attrs[name], values)
