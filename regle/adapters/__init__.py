"""Adapters to game-AI ecosystems, each imported on its own and needing its extra:
``regle.adapters.pettingzoo`` (``pip install regle[pettingzoo]``) and ``regle.adapters.openspiel``
(``pip install regle[openspiel]``). Both use the public engine API: action ids, action masks,
observations, ``view`` for what a seat may see."""
