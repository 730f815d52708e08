"""Adapters to game-AI ecosystems, each imported on its own and needing its extra:
``regle.adapters.pettingzoo`` (``pip install regle[pettingzoo]``), ``regle.adapters.openspiel``
(``pip install regle[openspiel]``) and ``regle.adapters.gymnasium`` (``pip install
regle[gymnasium]``). They use the public engine API: action ids, action masks, observations,
``view`` for what a seat may see, and ``game.batch`` for the vector env."""
from __future__ import annotations

from typing import Any


def render_table(state: Any, mode: str | None) -> str | None:
    """An environment's ``render()``: the table as text (``"ansi"``), or printed (``"human"``,
    then None), as ``regle play`` draws it without colours."""
    from regle.display import Style, render
    text = render(state, None, Style(False))
    if mode == "human":
        print(text)
        return None
    return text
