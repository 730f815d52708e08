"""The regle command, as a user runs it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GAMES

ECLATS = str(GAMES / "eclats.rules")


def regle(*args, input=None, env=None):
    run_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "regle.cli", *args], capture_output=True, text=True,
                          input=input, env=run_env, timeout=300)


def test_version_says_which_kernels():
    r = regle("--version")
    assert r.returncode == 0 and "regle" in r.stdout and "kernels:" in r.stdout


def test_help_lists_commands_and_examples():
    r = regle("--help")
    for word in ("check", "compile", "play", "simulate", "examples:"):
        assert word in r.stdout


def test_check_clean_file_prints_nothing():
    r = regle("check", ECLATS)
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""


def test_check_broken_file_prints_positions_and_exits_1(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text(Path(ECLATS).read_text(encoding="utf-8").replace("from market to workshop[me]", "from markt to workshop[me]", 1)
                   .replace("count(contracts) == 0", "count(contracts) = 0"), encoding="utf-8")
    r = regle("check", str(bad))
    assert r.returncode == 1
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{bad}:") and ": error: unknown name 'markt'" in first
    assert "^" in r.stderr and "did you mean 'market'?" in r.stderr
    assert "to compare use '=='" in r.stderr
    assert "Traceback" not in r.stderr


def test_check_several_files_reports_each(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("game {", encoding="utf-8")
    r = regle("check", ECLATS, str(bad), str(tmp_path / "missing.rules"))
    assert r.returncode == 1
    assert "bad.rules:1:6" in r.stderr and "missing.rules:1:1: error: cannot read the file" in r.stderr


def test_compiled_module_imports_on_its_own_and_plays(tmp_path):
    out = tmp_path / "eclats_engine.py"
    r = regle("compile", ECLATS, "-o", str(out))
    assert r.returncode == 0, r.stderr
    script = (f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
              "import eclats_engine as e\n"
              "s = e.new_game(players=2, seed=4)\n"
              "while not s.is_over: s.play(s.legal_moves()[0])\n"
              "print(e.name, e.players, s.turns, s.winners)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("eclats range(2, 3)")
    source = out.read_text(encoding="utf-8")
    imports = {l.split()[1] for l in source.splitlines() if l.startswith(("import ", "from "))}
    assert imports == {"regle.runtime"}


def test_play_agents_to_the_end_deterministically():
    a = regle("play", ECLATS, "--seats", "random,random", "--seed", "3")
    b = regle("play", ECLATS, "--seats", "random,random", "--seed", "3")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert "market" in a.stdout and "workshop" in a.stdout and "contracts" in a.stdout
    assert "P1 (random): " in a.stdout and "P1 (random): (" not in a.stdout
    assert a.stdout.rstrip().splitlines()[-1].strip().startswith(("P1 wins", "P2 wins", "Draw"))


def test_play_human_by_number_and_notation_then_quit():
    r = regle("play", ECLATS, "--seats", "human,random", "--seed", "1", input="1\nnonsense\nq\n")
    assert r.returncode == 0, r.stderr
    assert "your move" in r.stdout and "is not a legal move here" in r.stdout and "game abandoned" in r.stdout


def test_play_rejects_wrong_seats():
    r = regle("play", ECLATS, "--seats", "random")
    assert r.returncode != 0 and "2 players" in r.stderr
    r = regle("play", ECLATS, "--seats", "random,wizard")
    assert r.returncode != 0 and "unknown agent 'wizard'" in r.stderr


def test_simulate_json_summary_has_the_contract_fields(tmp_path):
    out = tmp_path / "games.jsonl"
    r = regle("simulate", ECLATS, "-n", "30", "--agents", "random,random", "--seed", "5", "--json",
              "--out", str(out))
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    for key in ("games", "players", "agents", "wins", "draws", "mean_decisions", "mean_scores",
                "decisions_per_second"):
        assert key in summary
    assert summary["games"] == 30 and len(summary["wins"]) == 2
    assert sum(summary["wins"]) + summary["draws"] >= 30
    lines = out.read_text().splitlines()
    assert len(lines) == 30 and json.loads(lines[0])["seed"] == 5
    report = regle("simulate", "--report", str(out), "--json")
    again = json.loads(report.stdout)
    assert again["wins"] == summary["wins"] and again["draws"] == summary["draws"]


def test_simulate_same_results_for_any_jobs():
    one = json.loads(regle("simulate", ECLATS, "-n", "40", "--seed", "9", "--json", "--jobs", "1").stdout)
    two = json.loads(regle("simulate", ECLATS, "-n", "40", "--seed", "9", "--json", "--jobs", "2").stdout)
    for key in ("wins", "draws", "mean_decisions", "mean_scores"):
        assert one[key] == two[key]


def test_simulate_human_readable_summary():
    r = regle("simulate", ECLATS, "-n", "10", "--agents", "greedy,random")
    assert r.returncode == 0, r.stderr
    assert "win rate" in r.stdout and "95% interval" in r.stdout and "greedy" in r.stdout


def test_pure_mode_is_visible_and_plays_the_same():
    pure = regle("--version", env={"REGLE_PURE": "1"})
    assert "pure" in pure.stdout
    a = regle("play", ECLATS, "--seats", "random,random", "--seed", "2", "--quiet", env={"REGLE_PURE": "1"})
    b = regle("play", ECLATS, "--seats", "random,random", "--seed", "2", "--quiet")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_cache_command(tmp_path):
    env = {"REGLE_CACHE_DIR": str(tmp_path / "cache")}
    assert regle("check", ECLATS, env=env).returncode == 0
    shown = regle("cache", env=env)
    assert "files" in shown.stdout
    cleared = regle("cache", "--clear", env=env)
    assert "removed" in cleared.stdout
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]


@pytest.mark.parametrize("game, players, fragments", [
    ("cibles", 2, ["north (target value 1)", "south west (target value 2)", " g ", " a "]),
    ("explobilles", 3, ["market blue", "tray", "1 2 3 4 5", "display", "tokens"]),
    ("pixies", 3, ["offer", "face up", "face down", "effect"]),
    ("eclats", 2, ["workshop", "market", "reserve", "contracts"]),
])
def test_play_draws_each_game(game, players, fragments):
    r = regle("play", str(GAMES / f"{game}.rules"), "--players", str(players),
              "--seats", ",".join(["random"] * players), "--seed", "1")
    assert r.returncode == 0, r.stderr
    first_state = r.stdout.split("\n\n")[0]
    for fragment in fragments:
        assert fragment in first_state, fragment


def test_a_human_may_type_a_move_in_any_case_and_is_helped_after_a_mistake():
    play = ("play", ECLATS, "--seats", "human,random", "--seed", "3")
    out = regle(*play, input="TAKE  2\nq\n").stdout
    assert "P1: take 2" in out
    out = regle(*play, input="tkae 2\nq\n").stdout
    assert "'tkae 2' is not a legal move here; did you mean 'take 2'" in out
    assert out.count("P1, your move:") == 2  # the list again after the mistake


def test_a_human_may_name_a_move_with_its_parts_in_another_order():
    play = ("play", ECLATS, "--seats", "human,random", "--seed", "3")
    out = regle(*play, input="merge 2+1\nq\n").stdout
    assert "P1: merge 1+2" in out


def test_serve_explains_itself_and_refuses_unknown_seats():
    r = regle("serve", "--help")
    assert r.returncode == 0 and "a link for" in r.stdout and "--seats" in r.stdout
    r = regle("serve", ECLATS, "--seats", "human,wizard", "--no-browser")
    assert r.returncode != 0 and "seat 2: unknown agent 'wizard'" in r.stderr
    r = regle("studio", "--help")
    assert r.returncode == 0 and "#k=" in r.stdout and "nothing else" in r.stdout


# ---- regle new: a rules file to start from ---------------------------------------------------


def test_new_writes_a_starter_game_that_checks_formats_and_plays(tmp_path):
    made = regle("new", str(tmp_path / "mine"))
    assert made.returncode == 0 and "wrote" in made.stderr
    path = tmp_path / "mine.rules"
    assert regle("check", str(path)).returncode == 0
    assert regle("fmt", "--check", str(path)).returncode == 0
    played = regle("play", str(path), "--seats", "random,random", "--seed", "3")
    assert played.returncode == 0 and "wins" in played.stdout
    again = regle("new", str(path))  # never overwritten unless asked
    assert again.returncode == 1 and "exists" in again.stderr
    assert regle("new", str(path), "--force").returncode == 0


def test_new_from_a_shipped_game_copies_it_and_says_what_it_cannot(tmp_path):
    assert regle("new", str(tmp_path / "c4.rules"), "--from", "connect4").returncode == 0
    assert (tmp_path / "c4.rules").read_text(encoding="utf-8") == (GAMES / "classics" / "connect4.rules").read_text(
        encoding="utf-8")
    misspelt = regle("new", str(tmp_path / "x.rules"), "--from", "conect4")
    assert misspelt.returncode == 1 and "did you mean 'connect4'?" in misspelt.stderr
    variant = regle("new", str(tmp_path / "v.rules"), "--from", "eclats-long")
    assert variant.returncode == 1 and "--from eclats" in variant.stderr and not (tmp_path / "v.rules").exists()


def test_load_of_a_misspelt_game_name_suggests_the_nearest():
    import regle as api
    with pytest.raises(api.RulesError) as info:
        api.load("conect4")
    assert "neither a file nor a game that ships with regle" in str(info.value)
    assert "did you mean 'connect4'?" in str(info.value)


def test_a_c_compiler_that_does_not_run_is_not_taken_for_one():
    out = regle("--version", env={"CC": "/bin/false"})
    assert out.returncode == 0
    assert "no native engines: the C compiler /bin/false does not run" in out.stdout + out.stderr


def test_fmt_of_a_shipped_game_by_name_prints_it_and_leaves_its_file_alone():
    shipped = GAMES / "classics" / "connect4.rules"
    out = regle("fmt", "connect4")
    assert out.returncode == 0 and out.stdout == shipped.read_text(encoding="utf-8")
    assert "ships with regle" in out.stderr and "--from connect4" in out.stderr
    assert regle("fmt", "connect4", "--check").returncode == 0
