"""Actions that share action ids (``action play(c in hand[me]) "{c}" ids as pass``).

Action ids number every move a game can offer, action after action (regle.runtime.actions).
Some action spaces give one id to one thing whatever is done with it: a card's id is the card,
whether it is passed face down in one phase or played in the next (OpenSpiel's trick-taking
games number them so). ``ids as NAME`` says so: the action's moves take the ids of NAME's moves
with the same arguments, and the action adds no ids of its own.

Two moves must never have one id in the same position, so the two actions must stand in
different steps (a decision offers one step's moves), and their arguments must have the same
domains, argument by argument. The engine then reads an id back among the legal moves, which
are one step's.
"""
from __future__ import annotations

from regle.dsl import ast


def share_ids(low, steps: list, actions: list) -> None:
    """Set ``ids_of`` on each ActionIR whose action says ``ids as NAME`` (the index of NAME's
    ActionIR), after checking the two may share: a positioned error otherwise."""
    by_name = {a.name: a for a in actions if not a.is_pass}
    nodes = [c for step in steps for c in step.choices if isinstance(c, ast.Action)]
    sharing = {node.name: node.ids_of for node in nodes if node.ids_of is not None}
    for node in nodes:
        if node.ids_of is None:
            continue
        mine, theirs = by_name[node.name], by_name.get(node.ids_of)
        problem = _why_not(node, mine, theirs, by_name, sharing)
        if problem is not None:
            low.error(f"'ids as {node.ids_of}': {problem[0]}", node.pos, problem[1])
        else:
            mine.ids_of = theirs.index


def _why_not(node, mine, theirs, by_name: dict, sharing: dict) -> tuple[str, str] | None:
    """Why ``mine`` may not take ``theirs``'s ids: (what is wrong, what to do), or None."""
    hint = f"name an action of another step whose parameters range over the same values as {node.name}'s"
    if theirs is None:
        known = ", ".join(sorted(n for n in by_name if n != node.name)) or "none"
        return f"there is no action named {node.ids_of} (actions: {known})", hint
    if theirs is mine:
        return "an action takes its own ids already", hint
    if theirs.name in sharing:
        return f"{theirs.name} takes the ids of another action itself", f"write ids as {sharing[theirs.name]}"
    if theirs.step == mine.step:
        return (f"{node.name} and {theirs.name} are offered in the same step, so two of their moves could be "
                "legal at once with one id", "share ids only between actions of different steps (passing, then playing)")
    if mine.domains != theirs.domains:
        return (f"{node.name}'s parameters do not range over the same values as {theirs.name}'s "
                f"({_domains(mine)} against {_domains(theirs)})", hint)
    return None


def _domains(action) -> str:
    """The domains of an action's parameters, for a message: how many values each takes."""
    if not action.domains:
        return "no parameters"
    return ", ".join(f"{d[1]} values" if len(d) > 1 and isinstance(d[1], int) else str(d[0])
                     for d in action.domains)
