"""Agents and simulation at scale: strength, hidden information, reproducibility."""
from __future__ import annotations

import pytest

import regle
from conftest import GAMES
from regle import simulate as sim
from regle.runtime.agents import make_agent
from regle.runtime.hidden import determinize
from regle.runtime.match import play_game
from regle.runtime.rng import Rng

ECLATS = str(GAMES / "eclats.rules")


def duel(game, agent: str, games: int = 20) -> tuple[int, int]:
    """(wins, games) of ``agent`` against random, alternating seats, fixed seeds."""
    wins = 0
    for seed in range(games):
        seats = [agent, "random"] if seed % 2 == 0 else ["random", agent]
        r = play_game(game, 2, 1000 + seed, seats)
        wins += r.winners == [seats.index(agent)]
    return wins, games


def test_mcts_beats_random_at_eclats(eclats):
    wins, games = duel(eclats, "mcts:iterations=60")
    assert wins >= 0.75 * games


def test_greedy_beats_random_at_eclats(eclats):
    wins, games = duel(eclats, "greedy")
    assert wins > games / 2


def test_agents_are_reproducible(eclats):
    a = play_game(eclats, 2, 7, ["mcts:iterations=30", "greedy"])
    b = play_game(eclats, 2, 7, ["mcts:iterations=30", "greedy"])
    assert a == b


def test_agent_options_are_checked():
    with pytest.raises(ValueError, match="unknown mcts option"):
        make_agent("mcts:depth=3", 0)
    with pytest.raises(ValueError, match="needs a value"):
        make_agent("mcts:iterations", 0)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("alphago", 0)


@pytest.fixture(scope="module")
def pixies():
    return regle.load(GAMES / "pixies.rules")


def pixies_midgame(pixies, seed=5, decisions=20):
    s = pixies.new_game(players=3, seed=seed)
    agent = make_agent("random", seed)
    for _ in range(decisions):
        s.play(agent.choose(s))
    return s


def test_a_determinisation_is_consistent_with_the_players_view(pixies):
    for seed in range(10):
        s = pixies_midgame(pixies, seed)
        for p in range(3):
            d = determinize(s, p, Rng(seed))
            assert d.view(p) == s.view(p)
            assert d.check_invariants() == []
            cards = lambda x: sorted(  # noqa: E731 - every card id, wherever it is
                [c for z in ("deck", "offer", "taken") for c in x.to_json()["zones"][z]]
                + [c for g in ("face_up", "face_down") for grid in x.to_json()["zones"][g] for c in grid if c >= 0])
            assert cards(d) == cards(s) == list(range(70))


def perturb_hidden(pixies, s, viewer):
    """Move hidden things around without changing what ``viewer`` sees."""
    data = s.to_json()
    z = data["zones"]
    z["deck"] = list(reversed(z["deck"]))
    other = (viewer + 1) % 3
    down = z["face_down"][other]
    cells = [i for i, v in enumerate(down) if v >= 0]
    if cells:
        down[cells[0]], z["deck"][0] = z["deck"][0], down[cells[0]]
    data["rng"] = (data["rng"] * 31 + 7) % (1 << 64)
    t = pixies.state_from_json(data)
    assert t.view(viewer) == s.view(viewer) and t.to_json() != s.to_json()
    return t


def test_mcts_does_not_use_what_it_may_not_see(pixies):
    for seed in range(4):
        s = pixies_midgame(pixies, seed, decisions=24)
        me = s.current_player
        t = perturb_hidden(pixies, s, me)
        a = make_agent("mcts:iterations=40,rollout=20", 99).choose(s)
        b = make_agent("mcts:iterations=40,rollout=20", 99).choose(t)
        assert a == b


def test_greedy_does_not_use_what_it_may_not_see(pixies):
    s = pixies_midgame(pixies, 3, decisions=25)
    me = s.current_player
    t = perturb_hidden(pixies, s, me)
    assert make_agent("greedy", 5).choose(s) == make_agent("greedy", 5).choose(t)


def test_the_same_seed_gives_the_same_summary_for_any_jobs():
    one, _ = sim.simulate(ECLATS, 24, 2, ["greedy", "random"], seed=3, jobs=1)
    two, _ = sim.simulate(ECLATS, 24, 2, ["greedy", "random"], seed=3, jobs=2)
    assert one == two
    s1, s2 = sim.summarise(one), sim.summarise(two)
    assert s1 == s2


def test_the_same_seed_gives_the_same_summary_on_a_dask_cluster():
    pytest.importorskip("distributed")
    client, cluster = sim.dask_executor("local", 2)
    try:
        records, _ = sim.simulate(ECLATS, 16, 2, ["greedy", "random"], seed=3, jobs=2,
                                  executor=client.get_executor())
    finally:
        client.close()
        cluster.close()
    local, _ = sim.simulate(ECLATS, 16, 2, ["greedy", "random"], seed=3, jobs=1)
    assert records == local


def test_summary_statistics():
    records = [{"seed": i, "players": 2, "agents": ["a", "b"], "decisions": 10 + i, "turns": 5,
                "scores": [i, 1], "winners": [0] if i % 2 else []} for i in range(10)]
    s = sim.summarise(records, 2.0)
    assert s["wins"] == [5, 0] and s["draws"] == 5 and s["draw_rate"] == 0.5
    lo, hi = s["win_rate_ci95"][0]
    assert lo < 0.5 < hi and 0.2 < lo and hi < 0.8
    assert s["median_decisions"] == 14.5 and s["decisions_per_second"] == sum(range(10, 20)) / 2.0


def test_agent_lists_keep_options_with_their_agent():
    from regle.runtime.agents import split_specs
    assert split_specs("mcts:iterations=50,c=2,random") == ["mcts:iterations=50,c=2", "random"]
    assert split_specs("greedy, random") == ["greedy", "random"]
    agent = make_agent(split_specs("mcts:iterations=5,c=0.5,rollout=3")[0], 1)
    assert (agent.iterations, agent.c, agent.rollout) == (5, 0.5, 3)


def test_random_playouts_go_to_the_end_or_stop_at_their_limit():
    game = regle.load(GAMES / "eclats.rules")
    short = game.new_game(seed=2).play_random_playout(9, limit=7)
    assert short.decisions == 7 and not short.is_over
    whole = game.new_game(seed=2).play_random_playout(9)
    assert whole.is_over and whole.to_json() == game.new_game(seed=2).play_random_playout(9).to_json()
    on = game.state_from_json(short.to_json()).play_random_playout(9)  # the same picks go on from a copy
    assert on.is_over and on.decisions > 7


def test_random_seats_play_as_random_agents_do():
    game = regle.load(GAMES / "pixies.rules")
    for seed in range(3):
        agents = [make_agent("random", 100 + p) for p in range(3)]
        by_agents = game.new_game(3, seed=seed)
        while not by_agents.is_over:
            by_agents.advance(agents[by_agents.cur].choose(by_agents))
        rngs = [make_agent("random", 100 + p).rng for p in range(3)]
        in_one_loop = game.new_game(3, seed=seed).play_random_seats(rngs)
        assert in_one_loop.to_json() == by_agents.to_json()
        assert [r.state for r in rngs] == [a.rng.state for a in agents]  # the streams advanced alike
