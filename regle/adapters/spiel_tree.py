"""A small game as its whole tree, read by OpenSpiel in C++ (``pip install regle[openspiel]``).

    import regle.adapters.spiel_tree as tree
    game = tree.load_tree("games/mygame.rules")        # a pyspiel game: OpenSpiel's EFG game
    exploitability.exploitability(game, policy.UniformRandomPolicy(game))

OpenSpiel's algorithms that walk a whole game (exploitability, best response, CFR, sequence-form
solvers) call back into Python at every node of a game written in Python, such as the adapter's
(``regle.adapters.openspiel``): that costs more than the algorithm itself, whatever the game does.
``load_tree`` walks the game once (on the engine itself when the game has neither chance nor
hidden information, else the adapter's game), writes every node in Gambit's extensive-form format
(``.efg``: a decision node's seat, information set and actions; a chance node's outcomes and
probabilities; a final node's returns) and hands the text to ``pyspiel.load_efg_game``: from then
on every call is OpenSpiel's own C++. The tree is a tree (a position reached in two orders is
written twice), so this is for small games: ``max_nodes`` (2,000,000 by default) bounds it.

An action of the tree is named by regle's action id (``"4"``), a node's actions in ascending
order; OpenSpiel numbers the names as it meets them (``state.action_to_string(a)`` gives the
name, so the regle id, back). Information sets: in a game
of perfect information each decision node is its own; otherwise the nodes where a seat's
information-state string is the same are one set. ``efg_text`` gives the text itself (Gambit reads
it too).
"""
from __future__ import annotations

import os
from typing import Any

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("regle.adapters.spiel_tree needs OpenSpiel: pip install 'regle[openspiel]'") from exc

from regle.runtime.engine import Game

#: the most nodes load_tree writes unless told otherwise (three in a row on a 3x3 grid has 549,946)
MAX_NODES = 2_000_000


class TooLarge(ValueError):
    """The tree has more nodes than the bound given."""


def efg_text(game: Any, max_nodes: int = MAX_NODES) -> str:
    """The whole tree of ``game`` (any sequential pyspiel game) in Gambit's extensive-form
    format, depth first in the order of the legal actions."""
    n = game.num_players()
    perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    name, lines = _header(game)
    sets: dict[tuple[int, str], int] = {}  # (seat, information-state string) -> its set's number
    counts = [0] * (n + 1)  # the sets numbered so far, per seat (the last: chance)
    outcomes: dict[tuple, int] = {}  # the returns of a final node -> its outcome's number

    def number(seat: int, state: Any) -> int:
        if perfect:
            counts[seat] += 1
            return counts[seat]
        key = (seat, state.information_state_string(seat))
        if key not in sets:
            counts[seat] += 1
            sets[key] = counts[seat]
        return sets[key]

    stack = [game.new_initial_state()]  # depth first, a node's children in the order listed
    while stack:
        state = stack.pop()
        _bound(lines, max_nodes, name)
        if state.is_terminal():
            lines.append(_final(tuple(state.returns()), outcomes))
            continue
        if state.is_chance_node():
            counts[n] += 1
            chances = state.chance_outcomes()
            names = " ".join(f'"{a}" {p:.17g}' for a, p in chances)
            lines.append(f'c "" {counts[n]} "" {{ {names} }} 0')
            actions = [a for a, _p in chances]
        else:
            seat = state.current_player()
            actions = state.legal_actions()
            lines.append(_decision(seat, number(seat, state), actions))
        stack.extend(state.child(a) for a in reversed(actions))
    return "\n".join(lines) + "\n"


def _header(game: Any) -> tuple[str, list[str]]:
    """The game's name as the text may hold it, and the text's first lines: the format, the
    name, the seats (P1, P2...) and an empty comment."""
    name = game.get_type().long_name.replace("\\", "").replace('"', "'")
    seats = " ".join(f'"P{p + 1}"' for p in range(game.num_players()))
    return name, [f'EFG 2 R "{name}" {{ {seats} }}', '""', ""]


def _bound(lines: list, max_nodes: int, name: str) -> None:
    if len(lines) > max_nodes:
        raise TooLarge(f"{name}: its tree has more than {max_nodes:,} nodes; load_tree is for small "
                       "games (pass max_nodes to allow more, or use the adapter's game)")


def _final(values: tuple, outcomes: dict) -> str:
    """A final node: its outcome's number (one per distinct returns) and the returns."""
    k = outcomes.setdefault(values, len(outcomes) + 1)
    return f't "" {k} "" {{ {", ".join(f"{v:.17g}" for v in values)} }}'


def _decision(seat: int, infoset: int, actions: list) -> str:
    names = " ".join(f'"{a}"' for a in actions)
    return f'p "" {seat + 1} {infoset} "" {{ {names} }} 0'


def engine_efg_text(game: Game, players: int, returns: str = "winners", max_nodes: int = MAX_NODES) -> str:
    """``efg_text`` of the adapter's game for a regle game without chance or hidden information,
    walked on the engine itself (a copy and ``advance_id`` per node, no OpenSpiel state): the
    same text, several times sooner."""
    from regle.adapters import openspiel as ros
    if game.has_chance or game.has_hidden_information:
        raise ValueError("the engine's own walk is for games without chance or hidden information")
    name, lines = _header(ros.load(game, players, returns=returns))  # (the adapter's name for it)
    counts = [0] * players
    outcomes: dict[tuple, int] = {}
    by_scores = returns == "scores"

    stack = [game.new_game(players, seed=0)]
    while stack:
        state = stack.pop()
        _bound(lines, max_nodes, name)
        if state.over:
            lines.append(_final(tuple(ros.returns_of(state, by_scores)), outcomes))
            continue
        seat = state.current_player
        counts[seat] += 1
        actions = sorted(state.legal_action_ids())
        lines.append(_decision(seat, counts[seat], actions))
        for a in reversed(actions):
            child = state.copy()
            child.advance_id(a)
            stack.append(child)
    return "\n".join(lines) + "\n"


def load_tree(rules: str | os.PathLike | Game, players: int | None = None, backend: str | None = None,
              returns: str = "winners", max_nodes: int = MAX_NODES) -> "pyspiel.Game":
    """The regle game (a rules file, a game that ships with regle by its name, or a loaded game)
    as OpenSpiel's extensive-form game of its whole tree: the adapter's game
    (``regle.adapters.openspiel.load``, with the same ``returns``) walked once. A game with
    chance is walked with every draw a chance node of its true probabilities (``chance=
    "explicit"``, on the Python engine). Raises ``TooLarge`` past ``max_nodes`` nodes."""
    import regle
    from regle.adapters import openspiel as ros
    from regle.loader import on_backend
    game = rules if isinstance(rules, Game) else regle.load(rules, backend="python")  # (cached, quick)
    if game.has_chance or game.has_hidden_information:  # the adapter's game, walked (on the Python
        # engine, which stops at every draw; the tree itself is OpenSpiel's C++ whatever walked it)
        spiel = ros.load(on_backend(game, "python"), players, chance="explicit" if game.has_chance else "seeds",
                         returns=returns)
        return pyspiel.load_efg_game(efg_text(spiel, max_nodes))
    if not isinstance(rules, Game) and backend != "python":
        game = regle.load(rules, backend=backend)  # the engine asked for (native by default) walks
    n = game.players.start if players is None else players
    return pyspiel.load_efg_game(engine_efg_text(game, n, returns, max_nodes))
