"""A user's script over regle's public API, checked by mypy --strict (tests/test_library.py)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

import regle
from regle import GameOver, IllegalMove, Move, Moves, RulesError


def best_first(state: regle.State) -> Move:
    moves: Moves = state.legal_moves()  # a Sequence[Move], each made when read
    ordered: Sequence[Move] = moves
    listed: list[Move] = list(moves)
    return ordered[0] if listed[0] == moves[0] else listed[0]


def main() -> int:
    try:
        game: regle.Game = regle.load("tictactoe", backend="python")
    except RulesError as err:
        print(err.render())
        return 1
    names: list[str] = regle.games.names()
    state = game.new_game(players=2, seed=1)
    ids: list[int] = state.legal_action_ids()
    state.play_id(ids[0])
    state.play(best_first(state))
    scores: list[int] = state.scores
    view = state.view(0)
    saved = state.to_json()
    again = game.state_from_json(saved)
    while not again.is_over:
        again.play(best_first(again))
    try:
        again.play("a1")
    except GameOver:
        pass
    except IllegalMove:
        return 2
    winners: list[int] = again.winners
    # copies, counts, and what game-AI tools read, typed as NumPy arrays
    copied = state.copy()
    made: int = copied.decisions + copied.turns + copied.cur + copied.n
    observed: npt.NDArray[np.float32] = state.observation(0)
    mask: npt.NDArray[np.int8] = state.action_mask()
    batch = game.batch(4, seed=1)
    rewards, done = batch.step(np.array([int(np.flatnonzero(row)[0]) for row in batch.mask]))
    rows: npt.NDArray[np.float32] = batch.observations()
    print(made, observed.shape, int(mask.sum()), rewards.shape, bool(done.any()), rows.shape)
    print(len(names), scores, winners, view["zones"].keys(), game.title, len(game.action_space(2)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
