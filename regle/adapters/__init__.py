"""Adapters to game-AI ecosystems, each imported on its own and needing its extra:
``regle.adapters.pettingzoo`` (``pip install regle[pettingzoo]``), ``regle.adapters.openspiel``
(``pip install regle[openspiel]``) and ``regle.adapters.gymnasium`` (``pip install
regle[gymnasium]``). They use the public engine API: action ids, action masks, observations,
``view`` for what a seat may see, and ``game.batch`` for the vector env."""
