"""Errors raised while playing a generated engine."""
from __future__ import annotations

import re

_WHERE = re.compile(r"(.+?):(\d+): ")


class IllegalMove(ValueError):
    """The move is not among the legal moves of this state; the state is unchanged."""


class GameOver(IllegalMove):
    """A move asked for after the game has ended: no move is legal any more."""


class StateError(ValueError):
    """A saved state that does not fit the game's declared structure; nothing was loaded."""


class RulesRuntimeError(RuntimeError):
    """A rules file asked for something impossible while playing (e.g. removing an absent item).

    The message names the rules line that was running, like a Jinja2 template traceback
    (``FILE:LINE: error while playing: ...``); ``file`` and ``line`` say it apart (None when the
    message names none). Where a game was being played from a seed, ``context`` says which game
    and how to play it again (``regle play ... --replay ...``): see :meth:`in_game`.
    """

    def __init__(self, message: str, context: str = ""):
        super().__init__(message + (f"\n{context}" if context else ""))
        self.bare = message
        self.context = context
        found = _WHERE.match(message)
        self.file: str | None = found.group(1) if found else None
        self.line: int | None = int(found.group(2)) if found else None

    def in_game(self, context: str) -> "RulesRuntimeError":
        """The same error, told with the game it happened in (kept the first time only)."""
        if self.context:
            return self
        told = RulesRuntimeError(self.bare, context)
        told.__cause__, told.__traceback__ = self.__cause__, self.__traceback__
        return told
