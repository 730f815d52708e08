"""regle as a library users install: the games ship in the package and load by name, errors
speak one vocabulary (IllegalMove, GameOver, ValueError naming the valid range), the adapters
know the packaged games and keep backends apart, and a built wheel works from an empty folder."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import regle
from regle import games
from regle.runtime import GameOver, IllegalMove

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_of_the_repository_ships_and_loads_by_name():
    shipped = set(games.names())
    on_disk = {p.stem for p in (ROOT / "games").rglob("*.rules")}
    assert shipped == on_disk and {"connect4", "eclats", "eclats-long", "pixies"} <= shipped
    assert games.names()[:4] == ["cibles", "eclats", "explobilles", "pixies"]  # the main games first
    for name in ("connect4", "eclats-long"):
        game = regle.load(name, backend="python")
        assert game.new_game(seed=1).legal_moves()
    assert regle.load("eclats-long", backend="python").title == "Éclats"
    assert games.summary("connect4").startswith("Two players take turns dropping a disc")
    assert games.kind("eclats-long") == "variant" and games.kind("hex") == "classic"


def test_a_file_that_exists_wins_over_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "connect4").write_text((ROOT / "games/classics/tictactoe.rules").read_text(), encoding="utf-8")
    assert regle.load("connect4", backend="python").title == "Tic-tac-toe"
    with pytest.raises(RulesErrorOrOSError):
        regle.load("no-such-game", backend="python")


RulesErrorOrOSError = (regle.RulesError, OSError)


def _cli(*args, cwd=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "regle.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env={**os.environ, "CI": "", "NO_COLOR": "1", "REGLE_BACKEND": "python"})


def test_the_command_line_lists_and_plays_games_by_name(tmp_path):
    listed = _cli("list", cwd=tmp_path)
    assert listed.returncode == 0 and "connect4" in listed.stdout and "2-5 players" in listed.stdout
    rows = json.loads(_cli("list", "--json").stdout)
    assert {r["name"] for r in rows} == set(games.names()) and all(r["title"] and r["players"] for r in rows)
    played = _cli("play", "connect4", "--seats", "random,random", "--seed", "3", "--quiet", cwd=tmp_path)
    assert played.returncode == 0 and ("wins" in played.stdout or "draw" in played.stdout), played.stderr
    wrong = _cli("play", "conect4", cwd=tmp_path)
    assert wrong.returncode == 1 and "did you mean 'connect4'" in wrong.stderr and "Traceback" not in wrong.stderr
    assert _cli("rules", "eclats-long", cwd=tmp_path).stdout.startswith("# Éclats")


# ---- one error vocabulary ------------------------------------------------------------------------
def test_illegal_moves_in_every_form_are_illegal_move_and_after_the_end_game_over():
    game = regle.load("tictactoe", backend="python")
    state = game.new_game(seed=1)
    state.play("b2")
    for bad in (4, 99, -1, "b2", (0, 4), "nonsense"):
        with pytest.raises(IllegalMove) as info:
            state.play_id(bad) if isinstance(bad, int) else state.play(bad)
        assert not isinstance(info.value, GameOver)
    with pytest.raises(IllegalMove, match="ids are whole numbers from 0 to 8"):
        state.play_id(99)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    for after in (lambda: state.play("a1"), lambda: state.play_id(0), lambda: state.advance((0, 0)),
                  lambda: state.play((0, 0)), lambda: state.advance_id(0)):
        with pytest.raises(GameOver, match="the game is over"):
            after()


def test_wrong_seats_and_player_counts_say_the_valid_range():
    game = regle.load("tictactoe", backend="python")
    state = game.new_game(seed=1)
    for call in (lambda: game.action_space(5), lambda: game.observation_spec(3), lambda: game.new_game(7)):
        with pytest.raises(ValueError, match="is for 2 players"):
            call()
    for seat in (2, 7, -1, True):
        for call in (state.observation, state.view, lambda p: state.resample(p, 1)):
            with pytest.raises(ValueError, match="seats are 0 to 1"):
                call(seat)
    assert state.view(None) and len(state.observation(None))


def test_simulate_explains_shared_wins(tmp_path):
    out = _cli("simulate", "pixies", "-n", "30", "--seed", "2")
    assert out.returncode == 0, out.stderr
    summary = json.loads(_cli("simulate", "pixies", "-n", "30", "--seed", "2", "--json").stdout)
    if summary["shared_wins"]:
        assert "shared wins" in out.stdout and "more than 100%" in out.stdout
    assert summary["games"] == 30 and summary["shared_wins"] >= 0
    # every game counts once for each of its winners
    assert sum(summary["wins"]) >= 30 - summary["draws"] + summary["shared_wins"]


# ---- the adapters --------------------------------------------------------------------------------
def test_openspiel_knows_the_packaged_games_and_keeps_backends_apart():
    pyspiel = pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    assert "regle_connect4" in ros.PACKAGED and "regle_eclats_long" in ros.PACKAGED
    game = pyspiel.load_game("regle_connect4")
    assert game.new_initial_state().legal_actions() == list(range(7))
    python = ros.load("connect4", backend="python")
    from regle import native
    if native.available():
        compiled = ros.load("connect4", backend="native")
        assert str(compiled) != str(python) and str(compiled).endswith("_native()")
    with pytest.raises(ValueError, match="is for 2 players"):
        ros.load("connect4", players=5)


def test_pettingzoo_loads_a_packaged_game_by_name():
    pytest.importorskip("pettingzoo")
    import regle.adapters.pettingzoo as rpz
    env = rpz.env("connect4")
    env.reset(seed=1)
    assert env.agents and env.action_space(env.agents[0]).n == 7


# ---- typed -----------------------------------------------------------------------------------------
def test_the_package_is_typed():
    assert (Path(regle.__file__).parent / "py.typed").exists()


# ---- a wheel, installed alone, from an empty folder --------------------------------------------------
@pytest.mark.long
@pytest.mark.skipif(not os.environ.get("CI") and not os.environ.get("REGLE_WHEEL_TEST"),
                    reason="builds a wheel and a fresh venv (about a minute): CI runs it, or REGLE_WHEEL_TEST=1")
def test_a_built_wheel_lists_and_plays_from_an_empty_folder(tmp_path):
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(wheels.glob("regle-*.whl"))
    import zipfile
    with zipfile.ZipFile(wheel) as packed:  # compiled, but without Cython's C output or debug information
        names = packed.namelist()
        assert not [n for n in names if n.endswith(".c")], names
        assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names  # the license, as metadata 2.4 says
        for name in (n for n in names if n.endswith(".so")):
            assert b".debug_info" not in packed.read(name), name
    assert wheel.stat().st_size <= 2_000_000, wheel.stat().st_size
    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], capture_output=True,
                               text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr[-2000:]
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(REGLE_BACKEND="python", REGLE_CACHE_DIR=str(tmp_path / "cache"))
    regle_cmd = str(target / "bin" / "regle")
    listed = subprocess.run([regle_cmd, "list"], capture_output=True, text=True, cwd=empty, env=env, timeout=120)
    assert listed.returncode == 0 and "connect4" in listed.stdout, listed.stderr
    for name in ("connect4", "eclats-long"):  # a variant extends its game inside the package
        played = subprocess.run([regle_cmd, "play", name, "--seats", "random,random", "--quiet", "--seed", "1"],
                                capture_output=True, text=True, cwd=empty, env=env, timeout=300)
        assert played.returncode == 0 and ("wins" in played.stdout or "draw" in played.stdout), played.stderr
    script = ("import regle; g = regle.load('tictactoe'); s = g.new_game(2, seed=1); "
              "s.play_id(s.legal_action_ids()[0]); print(g.title, len(g.action_space(2)))")
    ran = subprocess.run([str(python), "-c", script], capture_output=True, text=True, cwd=empty, env=env,
                         timeout=300)
    assert ran.returncode == 0 and ran.stdout.strip() == "Tic-tac-toe 9", ran.stderr
    # typed: a user's script over the public API passes mypy --strict against the installed package
    example = empty / "example.py"
    example.write_text((ROOT / "tests" / "typed_example.py").read_text(encoding="utf-8"), encoding="utf-8")
    # (--no-compile, here and for the extras: no .pyc written ahead for thousands of files, PyTorch's
    # among them; what a run imports is compiled as it is imported)
    got_mypy = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-compile", "mypy", "numpy"],
                              capture_output=True, text=True, timeout=900)
    assert got_mypy.returncode == 0, got_mypy.stderr[-2000:]
    checked = subprocess.run([str(python), "-m", "mypy", "--strict", "example.py"], capture_output=True, text=True,
                             cwd=empty, env=env, timeout=600)
    assert checked.returncode == 0, checked.stdout[-3000:]
    assert subprocess.run([str(python), "example.py"], cwd=empty, env=env, timeout=300).returncode == 0
    # the extras, and what deep learning needs: every example of README.md and docs/*.md runs
    # from an empty folder of its own (tests/docs_examples.py says how; docs/ai.md's MaskablePPO
    # among them, trained a few hundred steps on Connect Four), and Deep CFR (OpenSpiel's,
    # on PyTorch) runs a few iterations on the information-state tensors of Kuhn poker written in regle
    extras = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-compile",
                             f"{wheel}[pettingzoo,openspiel,gymnasium,dask,lsp]", "torch==2.13.0", "dm-tree",
                             "sb3-contrib"],
                            capture_output=True, text=True, timeout=1800)
    assert extras.returncode == 0, extras.stderr[-2000:]
    from docs_examples import TUTORIAL_FILES, examples, from_the_clone, run, tutorial_rules
    folder, home = tmp_path / "examples", tmp_path / "home"
    folder.mkdir()
    home.mkdir()
    for doc, name in TUTORIAL_FILES.items():
        (folder / name).write_text(tutorial_rules(doc), encoding="utf-8")
    shell = {**env, "PATH": f"{target / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(home), "CI": "true"}
    failed = []
    for example in examples():
        if from_the_clone(example) is None:
            status, said = run(example, python, folder, shell, wheel)
            if status != 0:
                failed.append(f"{example}\n{said[-1500:]}")
    assert not failed, "\n\n".join(failed)
    deep = ("import torch, regle.adapters.openspiel as ros\n"
            "from open_spiel.python.pytorch import deep_cfr\n"
            "torch.manual_seed(0)\n"
            "game = ros.load('kuhn', chance='explicit', returns='scores')\n"
            "solver = deep_cfr.DeepCFRSolver(game, policy_network_layers=(16,), advantage_network_layers=(16,),\n"
            "    num_iterations=2, num_traversals=20, learning_rate=1e-3, batch_size_advantage=32,\n"
            "    batch_size_strategy=32, memory_capacity=10000)\n"
            "_, advantage_losses, policy_loss = solver.solve()\n"
            "print(len(advantage_losses), float(policy_loss) >= 0)\n")
    ran = subprocess.run([str(python), "-c", deep], capture_output=True, text=True, cwd=empty, env=env, timeout=900)
    assert ran.returncode == 0 and ran.stdout.split() == ["2", "True"], ran.stderr[-2000:]


# ---- explicit chance -------------------------------------------------------------------------------
KUHN = "kuhn"  # games/classics/kuhn.rules


def test_explicit_chance_passes_openspiels_random_simulation_on_every_packaged_game():
    pyspiel = pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    for name in games.names():
        if games.kind(name) == "variant":
            continue
        game = ros.load(name, chance="explicit")
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
        if regle.load(name, backend="python").has_chance:
            assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            state = game.new_initial_state()
            assert state.is_chance_node()
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _o, p in outcomes) - 1.0) < 1e-9 and len(outcomes) <= game.max_chance_outcomes()
    lost = ros.load("lostcities", chance="explicit").new_initial_state()
    sizes = []
    while lost.is_chance_node():  # the deal: one draw per place of a 60-card shuffle
        sizes.append(len(lost.chance_outcomes()))
        lost.apply_action(0)
    assert sizes == list(range(60, 1, -1))


@pytest.mark.parametrize("name", ["eclats", "pixies"])
def test_an_explicit_clone_is_independent_through_pending_draws(name):
    """A clone taken anywhere (a move pending its draws included) plays on alone: the state it
    came from does not move with it, and the same outcomes and moves bring both to one place."""
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    game = ros.load(name, chance="explicit")
    rng = random.Random(3)
    state = game.new_initial_state()
    pending = 0
    for _ in range(60):
        if state.is_terminal():
            break
        clone = state.clone()
        chance = state.is_chance_node()
        action = rng.choice([o for o, _p in state.chance_outcomes()] if chance else state.legal_actions())
        seen = str(clone)
        state.apply_action(action)
        assert str(clone) == seen
        clone.apply_action(action)
        assert str(clone) == str(state) and clone.current_player() == state.current_player()
        pending += chance and state.is_chance_node()
    assert pending  # some clones were taken between two draws


def test_cfr_on_kuhn_written_in_regle_matches_openspiels_kuhn_poker():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
    import regle.adapters.openspiel as ros
    ours = ros.load(KUHN, chance="explicit", returns="scores")
    theirs = pyspiel.load_game("kuhn_poker")
    results = []
    for game in (ours, theirs):
        solver = cfr.CFRSolver(game)
        for _ in range(150):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
        results.append((exploitability.exploitability(game, policy), value))
    (ours_exploitability, ours_value), (theirs_exploitability, theirs_value) = results
    assert ours_exploitability < 0.01
    assert ours_exploitability == pytest.approx(theirs_exploitability, abs=1e-9)
    assert ours_value == pytest.approx(theirs_value, abs=1e-9) and ours_value == pytest.approx(-1 / 18, abs=0.01)


def test_explicit_chance_is_for_the_python_engine_and_modes_are_checked():
    pytest.importorskip("pyspiel")
    import regle.adapters.openspiel as ros
    with pytest.raises(ValueError, match="chance is"):
        ros.load("tictactoe", chance="sometimes")
    from regle import native
    if native.available():
        with pytest.raises(ValueError, match="Python engine"):
            ros.load(regle.load("eclats", backend="native"), chance="explicit")


def test_information_state_tensors_are_consistent_with_the_strings():
    """One tensor per information state and one information state per tensor, over every state
    of Kuhn poker (OpenSpiel enumerates them); the history rows hold the moves so far."""
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import get_all_states
    import regle.adapters.openspiel as ros
    game = ros.load(KUHN, chance="explicit", returns="scores")
    assert game.get_type().provides_information_state_tensor
    states = get_all_states.get_all_states(game, include_terminals=False, include_chance_states=False)
    by_string: dict = {}
    by_tensor: dict = {}
    for state in states.values():
        player = state.current_player()
        text = state.information_state_string(player)
        tensor = tuple(state.information_state_tensor(player))
        assert len(tensor) == game.information_state_tensor_shape()[0]
        assert by_string.setdefault(text, tensor) == tensor
        assert by_tensor.setdefault(tensor, text) == text
        moves = [pa.action for pa in state.full_history() if pa.player >= 0]
        assert sum(tensor[-6:]) == len(moves)  # 3 decisions x 2 action ids: one 1 per move
    assert len(by_string) == 12  # Kuhn poker's 12 information states
