"""Errors raised while playing a generated engine."""
from __future__ import annotations


class IllegalMove(ValueError):
    """The move is not among the legal moves of this state; the state is unchanged."""


class GameOver(IllegalMove):
    """A move asked for after the game has ended: no move is legal any more."""


class StateError(ValueError):
    """A saved state that does not fit the game's declared structure; nothing was loaded."""


class RulesRuntimeError(RuntimeError):
    """A rules file asked for something impossible while playing (e.g. removing an absent item).

    The message names the rules line that was running, like a Jinja2 template traceback.
    """
