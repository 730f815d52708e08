"""A regle game as an OpenSpiel game (``pip install regle[openspiel]``).

    import pyspiel
    import regle.adapters.openspiel as ros
    game = ros.load("games/mygame.rules", players=2)     # registered as "regle_mygame_2_<hash>"
    state = game.new_initial_state()
    pyspiel.load_game("regle_connect4")                  # the games that ship with regle

Actions are regle's action ids (``game.action_space``), legal ones listed in ascending order as
OpenSpiel expects. Returns are +1 for a winner, -1 for a loser, 0 for all in a draw (zero-sum for
two seats and ``ties draw``, general-sum otherwise).

**Chance.** regle games draw every shuffle and random number from one seeded generator. For a
game whose rules use chance, the initial state is one chance node choosing the seed among
``SEEDS`` (1,024) equally likely outcomes; everything random then follows from it. Algorithms
that enumerate chance (exact solvers, chance-sampling CFR) see 1,024 possible deals rather than
the real shuffle tree: they treat the game as a mix of 1,024 deterministic games, which is exact
for sampling methods (MCTS, outcome sampling) and an approximation for methods that need the
true distribution of each draw. A game without chance has no chance node.

Observations are ``state.observation(seat)`` (what that seat may see); the information-state
string adds the moves played so far (moves are public: every seat sees what the others play).

**A small game as its whole tree.** ``load_tree`` hands OpenSpiel every node at once (Gambit's
extensive-form text, ``regle.adapters.spiel_tree``): exploitability, CFR and best response then
run all in C++, with no call back into Python per node.
"""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("regle.adapters.openspiel needs OpenSpiel: pip install 'regle[openspiel]'") from exc

import regle

if TYPE_CHECKING:  # the runtime is imported when a game is made, not with the adapter
    from regle.runtime.engine import Game

#: how many seeds the chance node at the start of a game with chance chooses among
SEEDS = 1024
#: the largest history part of an information-state tensor (decisions x action ids): games
#: whose longest play times their action ids passes it provide no such tensor
MAX_HISTORY_TENSOR = 1 << 20


def history_size(game: Game, players: int) -> int:
    """Floats of the history part of the information-state tensor: one slot per action id for
    each decision the longest game can have."""
    return game.max_decisions(players) * len(game.action_space(players))


def load(rules: str | os.PathLike | Game, players: int | None = None, backend: str | None = None,
         chance: str = "seeds", returns: str = "winners") -> "pyspiel.Game":
    """Register the game (once) with OpenSpiel and load it: ``regle_<name>_<players>_<hash>``
    (``_native`` after it for the native engine). ``rules``: a rules file, a game that ships
    with regle by its name (``"connect4"``), or a loaded game.

    ``chance="explicit"``: every draw of the rules (each place of a shuffle, each random number)
    is a chance node with its outcomes and their true probabilities, for exact algorithms and
    chance-sampling ones (on the Python engine); ``"seeds"`` (the default, faster): one node
    choosing among ``SEEDS`` seeds. ``returns="scores"``: the returns are the scores (a game
    whose scores add up to 0, such as chips won); ``"winners"``: +1 / -1 / 0."""
    if chance not in ("seeds", "explicit") or returns not in ("winners", "scores"):
        raise ValueError("chance is 'seeds' or 'explicit'; returns is 'winners' or 'scores'")
    from regle.runtime.engine import Game
    if chance == "explicit":  # every draw a chance node: the Python engine, which stops at each
        asked = getattr(rules, "backend", None) if isinstance(rules, Game) else backend
        if asked not in (None, "python", "auto"):
            raise ValueError(f"explicit chance plays on the Python engine (it stops at every draw), not the "
                             f"{asked} one: pass backend='python' or leave it out (load_tree walks any game "
                             "on it for you)")
        backend = "python"
    game = rules if isinstance(rules, Game) else regle.load(rules, backend=backend)
    n = game.players.start if players is None else players
    if n not in game.players:
        raise ValueError(f"{game.title} is for {game._counts()} players, not {n}")
    return pyspiel.load_game(register(game, n, chance=chance, returns=returns))


def load_tree(rules: str | os.PathLike | Game, players: int | None = None, backend: str | None = None,
              returns: str = "winners", max_nodes: int | None = None) -> "pyspiel.Game":
    """A small game as its whole tree, read by OpenSpiel in C++ (``pyspiel.load_efg_game``):
    algorithms that walk the whole game (exploitability, CFR, best response) then never call
    back into Python. See ``regle.adapters.spiel_tree``."""
    from regle.adapters import spiel_tree
    return spiel_tree.load_tree(rules, players, backend, returns, max_nodes or spiel_tree.MAX_NODES)


def register(game: Game, players: int, short: str | None = None, chance: str = "seeds",
             returns: str = "winners") -> str:
    """Register a regle game for a player count with OpenSpiel; returns its short name. The
    name holds the rules' hash, the backend and the modes, so that the same rules on another
    backend, or changed rules, are another game."""
    explicit = chance == "explicit" and game.has_chance
    if short is None:
        short = f"regle_{game.name}_{players}_{game.rules_hash[:8]}".replace("-", "_")
        if getattr(game, "backend", "python") != "python":
            short += "_" + game.backend
        short += ("_explicit" if explicit else "") + ("_scores" if returns == "scores" else "")
    if short in _REGISTERED:
        return short
    return _register(short, facts_of(game, players, chance, returns), lambda: game, explicit, returns == "scores")


def facts_of(game: Game, players: int, chance: str = "seeds", returns: str = "winners") -> dict:
    """What OpenSpiel is told of a game before any of it is played (its GameType and GameInfo):
    computed from the loaded game, or for the games that ship with regle read from
    ``spiel_games.json`` (so that importing the adapter loads none of them)."""
    explicit = chance == "explicit" and game.has_chance
    zero_sum = game.utility(players) == "zero_sum" or (returns == "scores" and players == 2)
    return {"title": game.title, "players": players, "rules_hash": game.rules_hash,
            "chance": game.has_chance, "hidden": game.has_hidden_information, "zero_sum": zero_sum,
            "bound": float(max(1, score_bound(game, players))) if returns == "scores" else 1.0,
            "info_tensor": history_size(game, players) <= MAX_HISTORY_TENSOR,
            "actions": len(game.action_space(players)),
            "outcomes": (max_draw(game, players) if explicit else SEEDS) if game.has_chance else 0,
            "max_length": game.max_decisions(players)}


def _register(short: str, facts: dict, get_game, explicit: bool, by_scores: bool) -> str:
    """Register ``short`` with OpenSpiel from its facts; the regle game (``get_game()``) is
    loaded when OpenSpiel first makes the game."""
    players = facts["players"]
    game_type = pyspiel.GameType(
        short_name=short, long_name=f"{facts['title']} ({players} players, regle)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if facts["chance"]
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if facts["hidden"]
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM if facts["zero_sum"] else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=facts["info_tensor"],
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={})
    info = pyspiel.GameInfo(
        num_distinct_actions=facts["actions"], max_chance_outcomes=facts["outcomes"],
        num_players=players, min_utility=-facts["bound"], max_utility=facts["bound"],
        utility_sum=0.0 if facts["zero_sum"] else None, max_game_length=facts["max_length"])

    class RegleGame(pyspiel.Game):
        state_class: type | None = None  # made with the first game: it needs the regle game

        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})
            game = get_game()
            self.regle_game = game
            self.players = players
            self.explicit = explicit
            self.by_scores = by_scores
            if RegleGame.state_class is None:
                RegleGame.state_class = type(f"RegleState_{short}", (ExplicitState if explicit else RegleState,), {
                    "regle_game": game, "n": players, "by_scores": by_scores,
                    "noting": any(s is not None for s in game.State.MOVE.SECRET)
                    or bool(game.namespace.get("UNORDERED_STEPS")),
                    "unordered_steps": frozenset(game.namespace.get("UNORDERED_STEPS", ())),
                    # the first position of a game without chance, which each new state copies
                    # when first read
                    "first": None if game.has_chance else game.new_game(players, seed=0)})

        def new_initial_state(self):
            return RegleGame.state_class(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return RegleObserver(self, iig_obs_type, params)

    RegleGame.__name__ = RegleGame.__qualname__ = f"RegleGame_{short}"
    pyspiel.register_game(game_type, RegleGame)
    _REGISTERED[short] = RegleGame
    return short


_REGISTERED: dict[str, type] = {}


def _sample_games(game: Game, players: int, count: int = 40):
    """States met in random games with explicit chance (random outcomes and moves), with the
    sizes of the draws met on the way (on the Python engine: it stops at every draw)."""
    import random
    from regle.loader import on_backend
    from regle.runtime import chance
    game = on_backend(game, "python")
    rng = random.Random(0)
    for _ in range(count):
        state, need, draws = None, None, []
        script: list[int] = []
        state, need = chance.setup(game, players)
        while state is None:
            draws.append(need)
            script.append(rng.randrange(need))
            state, need = chance.attempt(lambda r: game.new_game(players, 0, rng=r), script)
        while not state.is_over:
            move = state.legal[rng.randrange(len(state.legal))]
            script = []
            after, need = chance.advance(state, move, script)
            while after is None:
                draws.append(need)
                script.append(rng.randrange(need))
                after, need = chance.advance(state, move, script)
            state = after
        yield state, draws


def max_draw(game: Game, players: int) -> int:
    """The most outcomes one draw has: the largest table's item count (a shuffle of all of them)
    or more where random games meet a larger draw."""
    tables = [len(v) for k, v in game.namespace.items() if k.startswith("T_") and k.endswith("__ALL")]
    seen = [max(draws, default=0) for _state, draws in _sample_games(game, players, 10)]
    return max([2, *tables, *seen])


def score_bound(game: Game, players: int) -> int:
    """The largest score (in absolute value) random games reach: the returns' bound when they
    are the scores."""
    if game.has_chance:
        finals = [s for s, _draws in _sample_games(game, players, 200)]
    else:
        finals = [game.new_game(players, seed=i).play_random_playout(i) for i in range(200)]
    return max(abs(v) for s in finals for v in s.scores)


FACTS = "spiel_games.json"  # beside this module: the facts of the games that ship with regle


def packaged_facts() -> dict[str, dict]:
    """The facts of every game that ships with regle, for its smallest player count (what
    ``spiel_games.json`` holds; a test keeps it up to date: python -m regle.adapters.openspiel)."""
    from regle import games
    out = {}
    for name in games.names():
        game = regle.load(name, backend="python")
        out[name] = facts_of(game, game.players.start)
    return out


def register_packaged(missing_ok: bool = False) -> list[str]:
    """Register every game that ships with regle as ``regle_<name>`` (``regle_connect4``,
    ``regle_mygame_long``), for its smallest player count, on the Python engine (load others
    with :func:`load`). Done when this module is imported, from the facts kept beside it: a
    game is loaded only when OpenSpiel makes it (``pyspiel.load_game("regle_connect4")``)."""
    from pathlib import Path
    try:
        facts = json.loads(Path(__file__).with_name(FACTS).read_text(encoding="utf-8"))
    except FileNotFoundError:
        if missing_ok:  # (only while the facts are being written the first time)
            return []
        raise
    out = []
    for name, said in sorted(facts.items()):
        out.append(_register("regle_" + name.replace("-", "_"), said, _packaged(name, said), False, False))
    return out


def _packaged(name: str, said: dict):
    """How a packaged game is loaded when OpenSpiel first makes it, checked against its facts."""
    def get() -> Game:
        game = regle.load(name, backend="python")
        if game.rules_hash != said["rules_hash"]:
            raise RuntimeError(f"regle's facts of {name} are out of date (its rules changed): run "
                               "python -m regle.adapters.openspiel to write them again")
        return game
    return get


class _Start:
    """A new state's regle state, made when it is first read: OpenSpiel makes a new state for
    every clone and then sets its attributes from the old one's (so a clone never reads this),
    and a state without an ``__init__`` of its own is made in C++. A game without chance starts
    from a copy of its first position (setup never runs again); with chance by seeds, there is
    none until the chance node chose the seed."""

    def __get__(self, state, owner=None):
        if state is None:
            return self
        first = state.first
        inner = state.__dict__["inner"] = None if first is None else first.copy()
        return inner


_CHANCE = pyspiel.PlayerId.CHANCE
_TERMINAL = pyspiel.PlayerId.TERMINAL


class RegleState(pyspiel.State):
    """An OpenSpiel state holding a regle state, ``inner`` (None until the chance node chose the
    seed). Each registered game has its subclass, whose class attributes say what never changes
    (``regle_game``, ``n``, ``by_scores``, ``first``): only ``inner`` is the
    state's own. OpenSpiel clones a Python state by deep-copying its attributes, and a regle
    state's deep copy is its ``copy()``: a clone is one copy of the position, and its move plays
    on it in place.

    OpenSpiel's C++ algorithms call these methods millions of times (a best response over a
    small board game: 22 million ``current_player``), so each reads the regle state once."""

    regle_game: Game
    n: int
    by_scores: bool
    first: Any  # the first position of a game without chance (None with chance)
    #: some action of the rules is secret, or some step unordered: each move is noted as played
    noting: bool = False
    unordered_steps: frozenset = frozenset()  # the rules' unordered steps, by number
    inner = _Start()
    #: the moves so far that a seat's information sees otherwise than by their ids: (decision
    #: number, player, what the others saw of a secret move or None, the unordered step it was
    #: made in or -1, the turn); a tuple, replaced at each such move, so that a clone's copy of
    #: it is never changed by the other's moves
    notes: tuple = ()

    def current_player(self) -> int:
        inner = self.inner
        if inner is None:
            return _CHANCE
        return _TERMINAL if inner.over else inner.cur

    # Python callers reach these two here; OpenSpiel's own would call back from C++ into
    # current_player, is_terminal and _legal_actions, about a microsecond a call
    def legal_actions(self, player: int | None = None) -> list[int]:
        inner = self.inner
        if inner is not None and not inner.over and (player is None or player == inner.cur):
            return sorted(inner.legal_action_ids())
        return super().legal_actions() if player is None else super().legal_actions(player)

    def is_chance_node(self) -> bool:
        return self.inner is None

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.inner
        if inner is None or inner.over or player != inner.cur:
            return []
        return sorted(inner.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]

    def _apply_action(self, action: int) -> None:
        inner = self.inner
        if inner is None:
            self.inner = self.regle_game.new_game(self.n, seed=int(action))
        else:
            if self.noting:
                self._note(inner, inner._move_of_id(action))
            inner.play_id(action)

    def _note(self, inner, move) -> None:
        """Whether ``move`` (about to be played) is a secret one is known only now: actions
        may share ids (``ids as``), so an id alone does not say which action it was; and so is
        the step it is made in."""
        text = inner.MOVE.SECRET[move[0]]
        step = inner.step if inner.step in self.unordered_steps else -1
        if text is not None or step >= 0:
            self.notes = self.notes + ((inner.decisions, inner.cur, text, step, inner.turns),)

    def _chance_text(self, action: int) -> str:
        return f"seed {action}"

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return self._chance_text(action)
        inner = self.inner
        if inner is not None and not inner.is_over and player == inner.current_player:
            # the move's notation here: unique among the legal moves (two equal cards differ)
            for move_id, text in zip(inner.legal_action_ids(), inner.notations()):
                if move_id == action:
                    return text
        return self.regle_game.describe_action(int(action), self.n)

    def is_terminal(self) -> bool:
        inner = self.inner
        return inner is not None and inner.over

    def returns(self) -> list[float]:
        inner = self.inner
        if inner is None or not inner.over:
            return [0.0] * self.n
        return returns_of(inner, self.by_scores)

    def __str__(self) -> str:
        inner = self.inner
        if inner is None:
            return "(the deal is not drawn yet)"
        return json.dumps(inner.view(None), sort_keys=True)


class Draws:
    """Explicit chance: the draw pending (its number of outcomes), the regle state before the
    move that needs it (None: setup), that move, and the outcomes drawn for it so far."""

    __slots__ = ("need", "before", "pending", "script")

    def __init__(self, need: int | None = None) -> None:
        self.need = need
        self.before = None
        self.pending: tuple | None = None
        self.script: list[int] = []

    def __deepcopy__(self, memo: dict) -> "Draws":
        twin = Draws(self.need)
        twin.before = None if self.before is None else self.before.copy()
        twin.pending = self.pending  # a move tuple: never changed
        twin.script = list(self.script)
        return twin


class _StartDrawn:
    """A new state's regle state and draws with explicit chance: the setup played up to its
    first draw (regle.runtime.chance)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, state, owner=None):
        if state is None:
            return self
        from regle.runtime import chance
        inner, need = chance.setup(state.regle_game, state.n)
        state.__dict__["inner"], state.__dict__["draws"] = inner, Draws(need)
        return state.__dict__[self.name]


class ExplicitState(RegleState):
    """A state of a game with explicit chance: each draw of the rules is a chance node, with
    its outcomes (``draws`` holds the one pending)."""

    inner = _StartDrawn("inner")
    draws = _StartDrawn("draws")

    def current_player(self) -> int:
        if self.draws.need is not None:
            return _CHANCE
        return RegleState.current_player(self)

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.draws.need is not None:
            return super(RegleState, self).legal_actions() if player is None else super(RegleState, self).legal_actions(player)
        return RegleState.legal_actions(self, player)

    def is_chance_node(self) -> bool:
        return self.draws.need is not None

    def _legal_actions(self, player: int) -> list[int]:
        return [] if self.draws.need is not None else RegleState._legal_actions(self, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self.draws.need
        return [(o, 1.0 / need) for o in range(need or 0)]

    def _chance_text(self, action: int) -> str:
        return f"outcome {action} of {self.draws.need}"

    def is_terminal(self) -> bool:
        return self.draws.need is None and RegleState.is_terminal(self)

    def returns(self) -> list[float]:
        if self.draws.need is not None:
            return [0.0] * self.n
        return RegleState.returns(self)

    def _apply_action(self, action: int) -> None:
        """A draw's outcome, or a move (which may need draws): the step is played again from
        the position before it with every outcome chosen so far (regle.runtime.chance)."""
        from regle.runtime import chance
        d, action = self.draws, int(action)
        if d.need is not None:
            if not 0 <= action < d.need:
                raise ValueError(f"chance outcome {action}: this draw has outcomes 0 to {d.need - 1}")
            d.script.append(action)
            if d.pending is None:  # the setup
                game, n = self.regle_game, self.n
                after, d.need = chance.attempt(lambda rng: game.new_game(n, 0, rng=rng), d.script)
            else:
                after, d.need = chance.advance(d.before, d.pending, d.script)
        else:
            inner = self.inner
            move = inner._move_of_id(action)
            if self.noting:
                self._note(inner, move)
            d.before, d.pending, d.script = inner, move, []
            after, d.need = chance.advance(inner, move, [])
        if after is not None:
            self.inner, d.before, d.pending, d.script = after, None, None, []


class RegleObserver:
    """OpenSpiel's Python observer: the tensor is ``state.observation(player)``; the string is
    the player's view, and for perfect recall (the information state) the moves so far too."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.regle_game: Game = game.regle_game
        self.n: int = game.players
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        #: with nothing hidden, a position's moves so far (chance's too) tell it from every other:
        #: its information state is that history, with no view to describe. Not with chance by
        #: seeds: a seed is the whole future of the dice, which no seat may know in advance
        self.by_history = (self.perfect_recall and not self.regle_game.has_hidden_information
                           and (not self.regle_game.has_chance or game.explicit))
        spec = self.regle_game.observation_spec(self.n)
        self.size = sum(length for _name, _start, length in spec)
        self.actions = len(self.regle_game.action_space(self.n))
        self.history = self.regle_game.max_decisions(self.n) if self.perfect_recall else 0
        #: too long a game for a tensor of its whole history: the information-state string has
        #: it, and asking for the tensor is an error (never the observation passed off as one)
        self.no_tensor = self.history * self.actions > MAX_HISTORY_TENSOR
        if self.no_tensor:
            self.history = 0
        import numpy as np  # (imported here: importing the adapter stays as quick as pyspiel's)
        self.tensor = np.zeros(self.size + self.history * self.actions, np.float32)
        self.dict = {name: self.tensor[start:start + length] for name, start, length in spec}
        if self.history:
            # the information state: the observation, then the moves so far (they are public),
            # one row per decision with a 1 at the action id played
            self.dict["history"] = self.tensor[self.size:].reshape(self.history, self.actions)

    def set_from(self, state: RegleState, player: int) -> None:
        if self.no_tensor:
            raise ValueError(f"{self.regle_game.title} provides no information-state tensor (its longest game "
                             f"times its {self.actions:,} action ids is over {MAX_HISTORY_TENSOR:,} numbers; "
                             "provides_information_state_tensor is false): use information_state_string")
        self.tensor.fill(0)
        if state.inner is not None:
            self.tensor[:self.size] = state.inner.observation(player)
        if self.history:
            rows = self.dict["history"]
            for t, move in enumerate(self._moves_seen(state, player)[:self.history]):
                if isinstance(move, int):  # another seat's secret move: a row of zeros
                    rows[t, move] = 1.0

    def string_from(self, state: RegleState, player: int) -> str:
        if self.by_history:
            return f"p{player} history {state.history_str()}"
        if state.inner is None:
            return f"p{player} before the deal"
        text = json.dumps(state.inner.view(player), sort_keys=True)
        if self.perfect_recall:
            text = f"p{player} moves {self._moves_seen(state, player)} " + text
        return text

    def _moves_seen(self, state: RegleState, player: int) -> list:
        """The moves so far as ``player`` saw them: each an action id, or for another seat's
        ``secret`` move the text everyone else sees ("P1 passes three cards"). The moves of one
        round of an ``unordered repeat step`` (three cards passed) are one choice: they are
        listed in increasing order, whatever order they were made in."""
        notes = {k: (mover, text, step, turn) for k, mover, text, step, turn in state.notes}
        seen: list = []
        runs: list = []  # (start, end) of each round of an unordered step, in ``seen``
        k = 0  # decisions so far
        last = None  # the (player, step, turn) of the round under way, and its decision before this one
        for pa in state.full_history():
            if pa.player == pyspiel.PlayerId.CHANCE:
                continue
            mover, text, step, turn = notes.get(k, (pa.player, None, -1, -1))
            if step >= 0 and last is not None and last[:3] == (mover, step, turn) and last[3] == k - 1:
                runs[-1][1] = len(seen) + 1
            elif step >= 0:
                runs.append([len(seen), len(seen) + 1])
            last = (mover, step, turn, k) if step >= 0 else None
            k += 1
            seen.append(f"P{mover + 1} {text}" if text is not None and mover != player else pa.action)
        for start, end in runs:
            seen[start:end] = sorted(seen[start:end], key=lambda v: (isinstance(v, str), v))
        return seen


def returns_of(state: Any, by_scores: bool = False) -> list[float]:
    """The returns of a finished regle state as this adapter reports them: +1 / -1 / 0 by its
    winners, or with ``by_scores`` its scores."""
    if by_scores:
        return [float(v) for v in state.scores]
    winners = state.winners
    return [0.0 if not winners else (1.0 if p in winners else -1.0) for p in range(state.n)]


PACKAGED = register_packaged(missing_ok=__name__ == "__main__")

if __name__ == "__main__":  # write the facts of the packaged games (after changing one)
    from pathlib import Path
    Path(__file__).with_name(FACTS).write_text(json.dumps(packaged_facts(), indent=1, sort_keys=True) + "\n",
                                               encoding="utf-8")
