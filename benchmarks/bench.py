"""regle benchmarks: generated engines against hand-written yardsticks, in one run.

    python benchmarks/bench.py            # every benchmark
    python benchmarks/bench.py --quick    # shorter runs
    python benchmarks/bench.py --only eclats
    python benchmarks/bench.py --profile cibles   # where a playout's time goes
    python benchmarks/bench.py --adapters                  # also the OpenSpiel and PettingZoo adapters
    python benchmarks/bench.py --exploitability            # also OpenSpiel's exploitability (minutes)
    python benchmarks/bench.py --openspiel --only kalah    # also the classics against OpenSpiel's
    python benchmarks/bench.py --batch --only hex          # also batched stepping (game.batch)
    python benchmarks/bench.py --play                      # also legal_moves + play against ids
    python benchmarks/bench.py --mcts 100 --only cibles    # also MCTS against OpenSpiel's MCTSBot (a duel)
    python benchmarks/bench.py --phrasing                  # also the phrasing suite (benchmarks/phrasing.py)

Prints random playouts per second of each generated engine and of its yardstick, and their
ratio (generated / yardstick; above 1.0 the generated engine is faster). Both sides play
uniformly random moves with the same kind of RNG, interleaved in rounds so that machine noise
hits both alike; the best round of each is reported. The native column is the same engine
compiled by Cython (regle.load(..., backend="native")), playing through its fast path
(state.play_random_playout) as simulations and MCTS rollouts do; --no-native leaves it out.
"""
from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import regle  # noqa: E402

GAMES = {"eclats": ("games/eclats.rules", 2), "cibles": ("games/cibles.rules", 2),
         "explobilles": ("games/explobilles.rules", 2), "pixies": ("games/pixies.rules", 3),
         "othello": ("games/classics/othello.rules", 2), "hex": ("games/classics/hex.rules", 2),
         "kalah": ("games/classics/kalah.rules", 2), "breakthrough": ("games/classics/breakthrough.rules", 2),
         "draughts": ("games/classics/draughts.rules", 2), "go": ("games/classics/go.rules", 2),
         "morris": ("games/classics/morris.rules", 2)}


def generated_playouts(game, players: int, seconds: float, seed0: int) -> tuple[float, float]:
    """Random playouts the way `regle simulate` plays them (moves from `state.legal`)."""
    rng = random.Random(seed0)
    done = decisions = 0
    start = time.perf_counter()
    choice = rng.choice
    while True:
        s = game.new_game(players, seed=seed0 + done)
        while not s.over:
            s.advance(choice(s.legal))
        decisions += s.decisions
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, decisions / done


def native_playouts(game, players: int, seconds: float, seed0: int) -> float:
    """Random playouts through the fast path (the native engine's compiled loop)."""
    return native_playouts_moves(game, players, seconds, seed0)[0]


def native_playouts_moves(game, players: int, seconds: float, seed0: int) -> tuple[float, float]:
    """(random playouts/s through the native engine's compiled loop, their mean length in
    moves): the length counted in the games timed, as OpenSpiel's side counts its own."""
    done = moves = 0
    start = time.perf_counter()
    while True:
        moves += game.new_game(players, seed=seed0 + done).play_random_playout(seed0 + done).decisions
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, moves / done


def yardstick_playouts(module, seconds: float, seed0: int) -> float:
    rng = random.Random(seed0)
    done = 0
    start = time.perf_counter()
    while True:
        module.playout(seed0 + done, rng)
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def bench_game(name: str, rounds: int, seconds: float, native: bool = True) -> dict:
    path, players = GAMES[name]
    game = regle.load(ROOT / path, backend="python")
    compiled = regle.load(ROOT / path, backend="native") if native else None
    yard = importlib.import_module(f"yardsticks.{name}")
    gen_best = yard_best = native_best = 0.0
    mean_decisions = 0.0
    for r in range(rounds):
        rate, mean_decisions = generated_playouts(game, players, seconds, 1000 * r)
        gen_best = max(gen_best, rate)
        yard_best = max(yard_best, yardstick_playouts(yard, seconds, 1000 * r))
        if compiled is not None:
            native_best = max(native_best, native_playouts(compiled, players, seconds, 1000 * r))
    return {"game": name, "players": players, "generated": gen_best, "yardstick": yard_best,
            "ratio": gen_best / yard_best, "decisions": mean_decisions,
            "native": native_best, "native_ratio": native_best / yard_best}


def bench_agents(quick: bool, native: bool = True) -> None:
    """MCTS decisions per second at a fixed iteration count (each backend), and the --jobs 2
    speed-up of simulate."""
    from regle import simulate as sim
    for backend in ("python", "native") if native else ("python",):
        bench_mcts(regle.load(ROOT / "games/eclats.rules", backend=backend), quick)
    _bench_jobs(sim, quick)


def bench_mcts(game, quick: bool) -> None:
    from regle.runtime.agents import make_agent
    iterations = 200
    agent = make_agent(f"mcts:iterations={iterations}", 1)
    decisions, spent = 0, 0.0
    for seed in range(2 if quick else 4):
        s = game.new_game(seed=seed)
        other = make_agent("random", seed)
        while not s.over:
            if s.cur == 0:
                start = time.perf_counter()
                s.advance(agent.choose(s))
                spent += time.perf_counter() - start
                decisions += 1
            else:
                s.advance(other.choose(s))
    print(f"mcts (Éclats, {iterations} iterations, {game.backend} engine): {decisions / spent:,.1f} decisions/s, "
          f"{decisions * iterations / spent:,.0f} iterations/s")


def bench_mcts_openspiel(quick: bool, native: bool, games: int) -> None:
    """MCTS on Connect Four (200 iterations a decision, random rollouts to the end) against
    OpenSpiel's C++ ``MCTSBot`` with ``RandomRolloutEvaluator(1)``: each side's iterations/s,
    timed over the decisions of a duel between them (seats alternate, seeds fixed), and who won.
    The exploration constants match on the rewards' scales: regle's c=1.4 on [0, 1], OpenSpiel's
    2.8 on [-1, 1]."""
    try:
        import pyspiel
    except ImportError:
        print("mcts: pyspiel is not installed (the test extra has it)")
        return
    from regle.runtime.agents import make_agent
    iterations, games = 200, (10 if quick else games)
    game = regle.load(ROOT / "games/classics/connect4.rules", backend="native" if native else "python")
    spiel = pyspiel.load_game("connect_four")
    spent = {"regle": 0.0, "openspiel": 0.0}
    decisions = {"regle": 0, "openspiel": 0}
    results = {"regle": 0, "openspiel": 0, "draw": 0}
    for g in range(games):
        ours = make_agent(f"mcts:iterations={iterations},rollout=0", g)
        theirs = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(1, g), 2.8, iterations, 1000, False, g, False)
        s, st, seat = game.new_game(2, seed=g), spiel.new_initial_state(), g % 2
        while not s.over:
            side = "regle" if s.cur == seat else "openspiel"
            start = time.perf_counter()
            column = ours.choose(s)[1] if side == "regle" else theirs.step(st)
            spent[side] += time.perf_counter() - start
            decisions[side] += 1
            s.advance((0, column))
            st.apply_action(column)
        winners = s.winners
        results["draw" if len(winners) != 1 else "regle" if winners == [seat] else "openspiel"] += 1
    rate = {side: decisions[side] * iterations / spent[side] for side in spent}
    print(f"\nMCTS on Connect Four, {iterations} iterations a decision, random rollouts ({game.backend} engine)")
    print(f"regle {rate['regle']:,.0f} iterations/s, OpenSpiel MCTSBot {rate['openspiel']:,.0f}: "
          f"{rate['regle'] / rate['openspiel']:.2f}x; over {games} games regle won {results['regle']}, "
          f"OpenSpiel {results['openspiel']}, {results['draw']} draws")


def _bench_jobs(sim, quick: bool) -> None:
    n = 800 if quick else 3000
    times = {}
    for jobs in (1, 2):
        _, times[jobs] = sim.simulate(str(ROOT / "games/eclats.rules"), n, 2, ["greedy", "random"], seed=0, jobs=jobs,
                                      backend="python")
    print(f"simulate {n} greedy-vs-random Éclats games: --jobs 1 {times[1]:.2f} s, --jobs 2 {times[2]:.2f} s,"
          f" speed-up {times[1] / times[2]:.2f}x")


def _engine_steps(game, players: int, seconds: float) -> float:
    """Steps/s of an agent loop on the bare engine API: mask and observation, a legal id
    drawn from the mask (as the PettingZoo loop below does), play by id."""
    import numpy as np
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = game.new_game(players, seed=steps)
        while not s.over:
            mask = s.action_mask()
            s.observation(s.cur)
            s.advance_id(rng.choice(np.flatnonzero(mask).tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def _pettingzoo_steps(game, players: int, seconds: float) -> float:
    """The same loop through the PettingZoo AEC environment (last() gives mask and observation)."""
    import warnings

    import numpy as np
    warnings.simplefilter("ignore")
    import regle.adapters.pettingzoo as rpz
    env = rpz.env(game, players)
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=steps)
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def _openspiel_adapter_steps(game, players: int, seconds: float) -> float:
    """The ids loop through the OpenSpiel adapter: ``legal_actions`` + ``apply_action`` on the
    adapter's states, as an OpenSpiel user drives any game."""
    import regle.adapters.openspiel as ros
    return _openspiel_steps(ros.load(game, players), seconds)


def bench_adapters(quick: bool, native: bool) -> None:
    """Steps/s through the two adapters against the engine's own loops, on each engine: the
    OpenSpiel adapter's ids loop against the engine's (``legal_action_ids`` + ``advance_id``),
    and PettingZoo's AEC loop, whose ``last()`` gives every step an observation and a mask,
    against the engine's ids loop and against the engine's loop with the same observation and
    mask. Rounds alternate so that noise hits every side."""
    try:
        importlib.import_module("pettingzoo")
        import pyspiel
    except ImportError:
        print("adapters: PettingZoo and OpenSpiel are not both installed (the test extra has them)")
        return
    seconds, rounds = (0.5, 2) if quick else (1.0, 3)
    print(f"\nsteps/s through the adapters against the engine's loops (best of {rounds}; x: times fewer)")
    print(f"{'game':<12}{'backend':<8}{'ids':>11}{'OpenSpiel':>11}{'x':>6}{'mask+obs':>10}{'PettingZoo':>12}"
          f"{'x ids':>7}{'x m+o':>7}")
    for name in ("tictactoe", "connect4", "othello"):
        path, _spiel = OPENSPIEL[name]
        for backend in (("python", "native") if native else ("python",)):
            game = regle.load(ROOT / path, backend=backend)
            ids = spiel = observed = zoo = 0.0
            for _ in range(rounds):
                ids = max(ids, _ids_steps(game, seconds, 2))
                spiel = max(spiel, _openspiel_adapter_steps(game, 2, seconds))
                observed = max(observed, _engine_steps(game, 2, seconds))
                zoo = max(zoo, _pettingzoo_steps(game, 2, seconds))
            print(f"{name:<12}{backend:<8}{ids:>11,.0f}{spiel:>11,.0f}{ids / spiel:>6.2f}{observed:>10,.0f}"
                  f"{zoo:>12,.0f}{ids / zoo:>7.2f}{observed / zoo:>7.2f}")
    import spiel_floor
    table = pyspiel.load_game(spiel_floor.register_table_game())
    floor = max(_openspiel_steps(table, seconds) for _ in range(rounds))
    print(f"(any Python game in OpenSpiel's loop: Tic-tac-toe as table lookups, {floor:,.0f} steps/s; "
          "apply_action calls back from C++ into Python)")


def bench_exploitability(native: bool) -> None:
    """OpenSpiel's exploitability of the uniform policy on Tic-tac-toe: its C++ game, regle's
    engine through the adapter (native unless --no-native), and two other Python games under the same C++ best
    response (spiel_floor): OpenSpiel's own Python Tic-tac-toe, and a game whose every method
    is a table lookup, the least any Python game can cost. Minutes in all."""
    try:
        import spiel_floor
    except ImportError as exc:
        print(f"exploitability: {exc}")
        return
    print("\nexploitability of the uniform policy on Tic-tac-toe, seconds (x: against OpenSpiel's C++ game)")
    rows = spiel_floor.exploitability_times(regle.load("tictactoe", backend="native" if native else "python"))
    base = rows[0][1]
    for label, seconds in rows:
        print(f"{label:<52}{seconds:>9.1f}{seconds / base:>7.2f}x")


#: regle's rules file beside the OpenSpiel game with the same rules (pyspiel, in the test extra)
OPENSPIEL = {"tictactoe": ("games/classics/tictactoe.rules", "tic_tac_toe"),
             "connect4": ("games/classics/connect4.rules", "connect_four"),
             "othello": ("games/classics/othello.rules", "othello"),
             "hex": ("games/classics/hex.rules", "hex(board_size=11)"),
             "kalah": ("games/classics/kalah.rules", "mancala"),
             "breakthrough": ("games/classics/breakthrough.rules", "breakthrough"),
             "draughts": ("games/classics/draughts.rules", "checkers"),
             "go": ("games/classics/go.rules", "go(board_size=9)"),
             "morris": ("games/classics/morris.rules", "nine_mens_morris"),
             "chess": ("games/classics/chess.rules", "chess"),
             "pentago": ("games/classics/pentago.rules", "pentago"),
             "quoridor": ("games/classics/quoridor.rules", "quoridor")}


#: the proof games of the language (docs/language.md): regle's file beside OpenSpiel's game
PROOF_GAMES = {"clobber": ("games/classics/clobber.rules", "clobber"),
               "dotsandboxes": ("games/classics/dotsandboxes.rules", "dots_and_boxes"),
               "y": ("games/classics/y.rules", "y"),
               "havannah": ("games/classics/havannah.rules", "havannah"),
               "kuhn": ("games/classics/kuhn.rules", "kuhn_poker"),
               "leduc": ("games/classics/leduc.rules", "leduc_poker"),
               "liarsdice": ("games/classics/liarsdice.rules", "liars_dice"),
               "crazyeights": ("games/classics/crazyeights.rules", "crazy_eights(players=2)")}


def bench_proof_games(seconds: float, rounds: int, pyspiel) -> None:
    """Native random playouts of each proof game against OpenSpiel's game through its Python
    loop (chance nodes drawn there as well), two players."""
    print(f"\nproof games: random playouts/s natively against OpenSpiel's (best of {rounds}), mean moves a game")
    print(f"{'game':<14}{'OpenSpiel':>11}{'moves':>8}{'regle':>11}{'moves':>8}{'ratio':>8}")
    for name, (path, spiel_name) in PROOF_GAMES.items():
        game = regle.load(ROOT / path, backend="native")
        ours, our_length, theirs, their_length = _playouts_side_by_side(game, pyspiel.load_game(spiel_name),
                                                                        seconds, rounds, 20)
        print(f"{name:<14}{theirs:>11,.1f}{their_length:>8.0f}{ours:>11,.1f}{our_length:>8.0f}{ours / theirs:>8.2f}")


def _ids_steps(game, seconds: float, players: int | None = None, by_moves: bool = False) -> float:
    """Steps/s of the loop an agent or RL user drives: the legal action ids, one picked at
    random, played by id (``legal_action_ids`` + ``advance_id``); with ``by_moves``, the
    documented loop instead (``legal_moves``, one picked at random, ``play``)."""
    rng = random.Random(0)
    steps, games, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = game.new_game(players, seed=games)
        games += 1
        while not s.over:
            if by_moves:
                s.play(rng.choice(s.legal_moves()))
            else:
                s.advance_id(rng.choice(s.legal_action_ids()))
            steps += 1
    return steps / (time.perf_counter() - start)


def _loop_floor(game):
    """A side for ``_in_turn``: the ids loop with an engine that costs nothing: the same random
    pick from the ids lists a game of ``game`` really has, handed out and taken by C calls. No
    engine can make the loop faster, so OpenSpiel's steps/s over this is the highest ratio the
    loop can show for the game (its ceiling)."""
    import itertools

    class _Free:
        __slots__ = ("over", "legal_action_ids", "advance_id")

    clock, rng = time.perf_counter, random.Random(0)
    lists = []
    for seed in range(20):
        s = game.new_game(None, seed=seed)
        while not s.over:
            lists.append(s.legal_action_ids())
            s.advance_id(rng.choice(lists[-1]))
    free, taken = _Free(), []
    free.over, free.legal_action_ids, free.advance_id = False, itertools.cycle(lists).__next__, taken.append

    def play(started: float, slice_: float) -> int:
        steps = 0
        while True:
            for _ in range(len(lists)):
                if not free.over:
                    free.advance_id(rng.choice(free.legal_action_ids()))
            steps += len(lists)
            taken.clear()
            if clock() - started >= slice_:
                return steps
    return play


def _in_turn(sides: list, seconds: float, slice_: float = 0.05) -> list[float]:
    """Steps/s of each of ``sides`` timed in turn: each side is a callable that plays whole
    units of work (games, or a batch's steps) from the clock reading it is given until
    ``slice_`` seconds have gone, and returns how many steps it took. The order turns round
    every turn (two sides: swapped), until each side has had ``seconds``. A slower stretch of
    the machine (this one's speed drifts by a third within minutes) then slows every side
    alike, where rounds of a second or more each could fall on one side only."""
    clock = time.perf_counter
    steps, spent = [0] * len(sides), [0.0] * len(sides)
    turn = 0
    while min(spent) < seconds:
        for k in range(len(sides)):
            side = (turn + k) % len(sides)
            started = clock()
            steps[side] += sides[side](started, slice_)
            spent[side] += clock() - started
        turn += 1
    return [done / took for done, took in zip(steps, spent)]


def _regle_games(game, players: int | None = None):
    """A side for ``_in_turn``: regle's ids loop (``legal_action_ids`` + ``advance_id``), game
    k seeded k, in order from one slice to the next, the picks from one generator made once
    (making one costs microseconds: a game of Tic-tac-toe costs some)."""
    clock, rng, seeds = time.perf_counter, random.Random(0), [0]

    def play(started: float, slice_: float) -> int:
        k, n = seeds[0], 0
        while True:
            s = game.new_game(players, seed=k)
            while not s.over:
                s.advance_id(rng.choice(s.legal_action_ids()))
                n += 1
            k += 1
            if clock() - started >= slice_:
                seeds[0] = k
                return n
    return play


def _spiel_games(spiel):
    """A side for ``_in_turn``: OpenSpiel's same loop (``legal_actions`` + ``apply_action``)."""
    clock, rng = time.perf_counter, random.Random(0)

    def play(started: float, slice_: float) -> int:
        n = 0
        while True:
            state = spiel.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
            if clock() - started >= slice_:
                return n
    return play


def _batch_steps_side(game, size: int):
    """A side for ``_in_turn``: ``game.batch(size)`` stepped, every game a random legal id each
    step, picked from the masks with NumPy (as a learner's sampling would), new games included."""
    import numpy as np
    clock, batch, rng = time.perf_counter, game.batch(size, seed=0), np.random.default_rng(0)

    def play(started: float, slice_: float) -> int:
        n = 0
        while True:
            batch.step((rng.random(batch.mask.shape) * batch.mask).argmax(axis=1))
            n += size
            if clock() - started >= slice_:
                return n
    return play


def _ids_alternated(game, spiel, seconds: float, slice_: float = 0.05) -> tuple[float, float]:
    """Steps/s of regle's ids loop and of OpenSpiel's same loop, timed in turn (``_in_turn``)."""
    ours, theirs = _in_turn([_regle_games(game), _spiel_games(spiel)], seconds, slice_)
    return ours, theirs


def _openspiel_steps(game, seconds: float) -> float:
    """The same loop on OpenSpiel's C++ game through pybind11 (``legal_actions`` +
    ``apply_action``)."""
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def _openspiel_playouts(game, seconds: float) -> tuple[float, float]:
    """Random games per second of OpenSpiel's C++ game driven through its Python loop, and
    their mean length in moves."""
    rng = random.Random(0)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        games += 1
    return games / (time.perf_counter() - start), moves / games


def bench_openspiel(quick: bool, native: bool) -> None:
    """regle's classics against OpenSpiel's C++ games in the same Python loop, as ratios; then,
    natively, regle's random playouts against OpenSpiel's games driven through that loop."""
    try:
        import pyspiel
    except ImportError:
        print("openspiel: pyspiel is not installed (the test extra has it)")
        return
    seconds, rounds = (0.6, 2) if quick else (1.5, 3)
    backend = "native" if native else "python"
    print(f"\nsteps/s of legal action ids + play by id, a random pick ({rounds * seconds:g} s a side, the two "
          "sides in turn every 0.05 s); ceiling: the ratio of an engine that cost nothing (the loop's own Python: "
          "the pick, the calls), timed in the same turns")
    print(f"{'game':<14}{'OpenSpiel game':<22}{'OpenSpiel':>11}{'regle ' + backend:>15}{'ratio':>8}{'ceiling':>9}")
    for name, (path, spiel_name) in OPENSPIEL.items():
        game = regle.load(ROOT / path, backend=backend)
        spiel = pyspiel.load_game(spiel_name)
        ours, theirs, floor = _in_turn([_regle_games(game), _spiel_games(spiel), _loop_floor(game)],
                                       rounds * seconds)
        print(f"{name:<14}{spiel_name:<22}{theirs:>11,.0f}{ours:>15,.0f}{ours / theirs:>8.2f}{floor / theirs:>9.1f}")
    if not native:
        return
    bench_python_engine(pyspiel, seconds, rounds)
    print(f"\nrandom playouts/s: regle native (play_random_playout) against OpenSpiel's game through its "
          f"Python loop (best of {rounds}), and the mean length of a game in moves")
    print(f"{'game':<14}{'OpenSpiel':>11}{'moves':>8}{'regle':>11}{'moves':>8}{'ratio':>8}")
    for name, (path, spiel_name) in OPENSPIEL.items():
        game = regle.load(ROOT / path, backend="native")
        ours, our_length, theirs, their_length = _playouts_side_by_side(game, pyspiel.load_game(spiel_name),
                                                                        seconds, rounds, 20)
        print(f"{name:<14}{theirs:>11,.1f}{their_length:>8.0f}{ours:>11,.1f}{our_length:>8.0f}{ours / theirs:>8.2f}")
    bench_board_growth(seconds, rounds, pyspiel)
    bench_proof_games(seconds, rounds, pyspiel)


#: the classics whose Python engine is held to OpenSpiel's loop (the Python engine is the one
#: without a C compiler, the studio's, and every new file's first)
PYTHON_ENGINE = ("chess", "go")


def bench_python_engine(pyspiel, seconds: float, rounds: int) -> None:
    """The Python engine (no C compiler: the generated module on the compiled kernels) in the
    same ids loop against OpenSpiel's C++ game, for the classics it is held to, beside the
    native table: one run answers both."""
    print(f"\nthe Python engine in the same loop ({rounds * seconds:g} s a side, the sides in turn every 0.05 s)")
    print(f"{'game':<14}{'OpenSpiel game':<22}{'OpenSpiel':>11}{'regle python':>15}{'ratio':>8}")
    for name in PYTHON_ENGINE:
        path, spiel_name = OPENSPIEL[name]
        game = regle.load(ROOT / path, backend="python")
        spiel = pyspiel.load_game(spiel_name)
        ours, theirs = _ids_alternated(game, spiel, rounds * seconds)
        print(f"{name:<14}{spiel_name:<22}{theirs:>11,.0f}{ours:>15,.0f}{ours / theirs:>8.3f}")


def _playouts_side_by_side(game, spiel, seconds: float, rounds: int, games: int) -> tuple:
    """(regle's native random playouts/s, its mean game length over ``games`` seeded games,
    OpenSpiel's playouts/s through its Python loop, its mean length), the best of rounds taken
    in turn."""
    ours = theirs = 0.0
    for r in range(rounds):
        ours = max(ours, native_playouts(game, 2, seconds, 1000 * r))
        rate, their_length = _openspiel_playouts(spiel, seconds)
        theirs = max(theirs, rate)
    lengths = [game.new_game(2, seed=i).play_random_playout(i).decisions for i in range(games)]
    return ours, sum(lengths) / len(lengths), theirs, their_length


#: the boards grown: each game's rules with its params (and the bound on decisions) changed,
#: beside OpenSpiel's game at the same size
GROWTH = {
    "Connect Four": ("games/classics/connect4.rules", [
        ("7x6", [], "connect_four"),
        ("15x13", [("param columns = 7", "param columns = 15"), ("param rows = 6", "param rows = 13"),
                   ("max decisions 42", "max decisions 195")], "connect_four(rows=13,columns=15)")]),
    "Hex": ("games/classics/hex.rules", [
        ("7x7", [("param size = 11", "param size = 7"), ("max decisions 122", "max decisions 50")],
         "hex(board_size=7)"),
        ("19x19", [("param size = 11", "param size = 19"), ("max decisions 122", "max decisions 362")],
         "hex(board_size=19)")]),
}


def bench_board_growth(seconds: float, rounds: int, pyspiel) -> None:
    """Native random playouts of Connect Four (7x6 and 15x13) and Hex (7x7 and 19x19) against
    OpenSpiel's games at the same sizes (its Python loop), and how the cost of a move grows.
    The rounds go round both sizes and both engines in turn, so that a machine slower for a
    while slows both sizes alike (the growth is a ratio of two sizes measured apart). A move's
    cost is a round's time over the moves of the games played in it, on both sides alike (the
    mean length of other games than the timed ones was off by up to 7%)."""
    for title, (path, sizes) in GROWTH.items():
        text = (ROOT / path).read_text(encoding="utf-8")
        print(f"\n{title} as the board grows: random playouts/s natively against OpenSpiel's (best of {rounds}, "
              "the sizes in turn), and the cost of a move")
        print(f"{'board':<8}{'OpenSpiel':>11}{'ns/move':>9}{'regle':>11}{'ns/move':>9}{'ratio':>8}")
        boards = []
        for label, changes, spec in sizes:
            rules = text
            for old, new in changes:
                assert old in rules, old
                rules = rules.replace(old, new)
            name = Path(path).stem + ("" if not changes else "_" + label)
            game = regle.loads(rules, name=name, backend="native")
            boards.append({"label": label, "game": game, "spiel": pyspiel.load_game(spec),
                           "ours": 0.0, "theirs": 0.0, "mine_ns": float("inf"), "theirs_ns": float("inf")})
        for r in range(rounds):  # a move's cost: each round's time over the moves played in it, the best round
            for b in boards:
                rate, length = native_playouts_moves(b["game"], 2, seconds, 1000 * r)
                b["ours"], b["mine_ns"] = max(b["ours"], rate), min(b["mine_ns"], 1e9 / rate / length)
                rate, length = _openspiel_playouts(b["spiel"], seconds)
                b["theirs"], b["theirs_ns"] = max(b["theirs"], rate), min(b["theirs_ns"], 1e9 / rate / length)
        per_move = []
        for b in boards:
            mine, theirs_ns = b["mine_ns"], b["theirs_ns"]
            per_move.append((mine, theirs_ns))
            print(f"{b['label']:<8}{b['theirs']:>11,.0f}{theirs_ns:>9.0f}{b['ours']:>11,.0f}{mine:>9.0f}"
                  f"{b['ours'] / b['theirs']:>8.2f}")
        (small, *_), (big, *_) = sizes
        print(f"a move's cost from {small} to {big}: regle {per_move[1][0] / per_move[0][0]:.2f}x, "
              f"OpenSpiel {per_move[1][1] / per_move[0][1]:.2f}x")


def bench_play(quick: bool, native: bool, only: str | None = None) -> None:
    """The documented loop (``legal_moves`` + ``play``, checked, each Move made when read)
    against the loop by ids (``legal_action_ids`` + ``advance_id``) on each game and engine;
    rounds alternate so that noise hits both."""
    seconds, rounds = (0.4, 2) if quick else (1.0, 3)
    games = dict(GAMES, tictactoe=("games/classics/tictactoe.rules", 2),
                 connect4=("games/classics/connect4.rules", 2))
    print(f"\nsteps/s of legal_moves + play against legal_action_ids + advance_id (best of {rounds})")
    print(f"{'game':<14}{'backend':<9}{'ids':>11}{'moves+play':>12}{'ids / moves':>13}")
    for name in ([only] if only else games):
        path, players = games[name]
        for backend in (("python", "native") if native else ("python",)):
            game = regle.load(ROOT / path, backend=backend)
            ids = moves = 0.0
            for _ in range(rounds):
                ids = max(ids, _ids_steps(game, seconds, players))
                moves = max(moves, _ids_steps(game, seconds, players, by_moves=True))
            print(f"{name:<14}{backend:<9}{ids:>11,.0f}{moves:>12,.0f}{ids / moves:>13.2f}")


def bench_batch(quick: bool, native: bool, n: int = 1024) -> None:
    """Batched stepping of Connect Four against OpenSpiel's ``connect_four`` in its Python loop
    (``legal_actions`` + ``apply_action``) and against the same engine's own ids loop, one game
    at a time: the three timed in turn (``_in_turn``), so that the machine's drift falls on all
    three alike."""
    try:
        import pyspiel
    except ImportError:
        print("batch: pyspiel is not installed (the test extra has it)")
        return
    seconds = 1.2 if quick else 4.5
    spiel = pyspiel.load_game("connect_four")
    print(f"\nsteps/s of {n:,} Connect Four games stepped together (game.batch, masks included), against "
          "OpenSpiel's loop and the same engine's own loop by ids, one game at a time (the three in turn, "
          f"{seconds:g} s each)")
    print(f"{'backend':<14}{'OpenSpiel loop':>16}{'regle batch':>14}{'ratio':>8}{'one game':>12}{'batch/one':>11}")
    for backend in (("python", "native") if native else ("python",)):
        game = regle.load(ROOT / "games/classics/connect4.rules", backend=backend)
        theirs, ours, alone = _in_turn([_spiel_games(spiel), _batch_steps_side(game, n), _regle_games(game)],
                                       seconds)
        print(f"{backend:<14}{theirs:>16,.0f}{ours:>14,.0f}{ours / theirs:>8.2f}{alone:>12,.0f}{ours / alone:>11.2f}")


def profile_game(name: str, seconds: float, top: int = 25) -> None:
    """Random playouts of one game under cProfile: the top functions by own time, so that the
    next person starts from a profile (generated functions are named after their step/action)."""
    import cProfile
    import pstats
    path, players = GAMES[name]
    game = regle.load(ROOT / path, backend="python")
    profiler = cProfile.Profile()
    profiler.enable()
    rate, _ = generated_playouts(game, players, seconds, 0)
    profiler.disable()
    print(f"{name}: {rate:,.0f} playouts/s under the profiler; top {top} functions by own time")
    stats = pstats.Stats(profiler)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short rounds (about 5 s in all)")
    parser.add_argument("--only", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--agents", action="store_true", help="also measure MCTS and parallel simulation")
    parser.add_argument("--no-native", action="store_true",
                        help="leave out the native engines (built once per game, seconds each, when not cached)")
    parser.add_argument("--adapters", action="store_true",
                        help="also steps/s through the OpenSpiel and PettingZoo adapters against the engine's loops")
    parser.add_argument("--exploitability", action="store_true",
                        help="also OpenSpiel's exploitability on Tic-tac-toe: its C++ game, regle's through "
                             "the adapter, and the floor of any Python game (minutes)")
    parser.add_argument("--openspiel", action="store_true",
                        help="also the classics against OpenSpiel's C++ games in the same loop (pyspiel)")
    parser.add_argument("--play", action="store_true",
                        help="also the documented loop (legal_moves + play) against the loop by ids, per game")
    parser.add_argument("--batch", action="store_true",
                        help="also batched Connect Four (game.batch, 1,024 games) against OpenSpiel's loop")
    parser.add_argument("--mcts", type=int, nargs="?", const=100, metavar="GAMES",
                        help="also MCTS on Connect Four against OpenSpiel's C++ MCTSBot: iterations/s and "
                             "a duel of GAMES games (default 100; 10 with --quick)")
    parser.add_argument("--perft", action="store_true",
                        help="also chess perft: regle natively (public API) against python-chess and "
                             "Stockfish's go perft (when stockfish is on the PATH)")
    parser.add_argument("--phrasing", action="store_true",
                        help="also the phrasing suite: pairs of texts with the same meaning, side by side "
                             "(benchmarks/phrasing.py)")
    parser.add_argument("--profile", choices=sorted(GAMES), metavar="GAME",
                        help="profile random playouts of GAME and print its top functions (instead of the table)")
    args = parser.parse_args(argv)
    if args.profile:
        profile_game(args.profile, 3.0)
        return 0
    rounds, seconds = (2, 0.6) if args.quick else (5, 1.5)
    print(f"regle {regle.__version__}, kernels: {regle.KERNELS}, Python {sys.version.split()[0]}")
    print(f"random playouts per second (best of {rounds} rounds of {seconds:.1f} s each side)")
    native = not args.no_native
    if native:
        from regle import native as nat
        if nat.unavailable_reason():
            print(f"(no native column: {nat.unavailable_reason()})")
            native = False
    print(f"{'game':<14}{'players':>8}{'yardstick':>12}{'python':>10}{'ratio':>7}"
          + (f"{'native':>10}{'ratio':>7}" if native else "") + f"{'decisions/game':>16}")
    for name in ([args.only] if args.only else GAMES):
        r = bench_game(name, rounds, seconds, native)
        print(f"{r['game']:<14}{r['players']:>8}{r['yardstick']:>12,.0f}{r['generated']:>10,.0f}{r['ratio']:>7.2f}"
              + (f"{r['native']:>10,.0f}{r['native_ratio']:>7.2f}" if native else "") + f"{r['decisions']:>16.1f}")
    if args.agents:
        bench_agents(args.quick, native)
    if args.adapters:
        bench_adapters(args.quick, native)
    if args.exploitability:
        bench_exploitability(native)
    if args.openspiel:
        bench_openspiel(args.quick, native)
    if args.play:
        bench_play(args.quick, native, args.only)
    if args.batch:
        bench_batch(args.quick, native)
    if args.mcts:
        bench_mcts_openspiel(args.quick, native, args.mcts)
    if args.perft:
        import perft
        perft.run("native" if native else "python")
    if args.phrasing:
        import phrasing
        phrasing.run(args.quick, native)
    return 0


if __name__ == "__main__":
    sys.exit(main())
