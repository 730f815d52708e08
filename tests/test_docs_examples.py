"""The examples of README.md and docs/*.md are found whole, and each one is either run from the
wheel (tests/test_library.py, in CI) or needs the clone and is run elsewhere (named)."""
from __future__ import annotations

import re
from pathlib import Path

import regle
from regle import games
from docs_examples import FROM_THE_CLONE, TUTORIAL_FILES, as_run, examples, from_the_clone, tutorial_rules


def test_every_example_is_found_and_each_one_is_run_somewhere():
    found = examples()
    assert len([e for e in found if e.file == "README.md" and e.kind == "sh"]) >= 20
    assert {e.file for e in found if e.kind == "python"} >= {"README.md", "docs/ai.md", "docs/native.md",
                                                              "docs/state.md"}
    for start in FROM_THE_CLONE:  # no stale entry: each names an example that is there
        assert any(e.text.startswith(start) for e in found), start
    for e in found:
        if e.kind == "sh" and from_the_clone(e) is None:
            assert re.match(r"(regle|pip|mkdir|cp|echo) ", e.text + " "), f"{e}: how should the test run it?"


def test_the_games_the_examples_name_ship_with_regle():
    shipped = set(games.names())
    for e in examples():
        m = re.match(r"regle (?:check|play|simulate|serve|diff|rules|compile|fmt)(?: --\w+(?: \d+)?)* (\S+)", e.text)
        if m is None or "." in m.group(1) or m.group(1).startswith("-"):  # a file, not a name
            continue
        assert m.group(1) in shipped, str(e)


def test_a_run_differs_from_the_line_only_as_said(tmp_path):
    wheel = Path("/w/regle-0.1.0-cp311-linux_x86_64.whl")
    assert as_run("regle simulate eclats -n 2000 --agents mcts,random --jobs 2", wheel) == \
        "regle simulate eclats -n 3 --agents mcts,random --jobs 2"
    assert as_run("regle diff eclats eclats-long --simulate 500", wheel) == "regle diff eclats eclats-long --simulate 3"
    assert as_run("pip install 'regle[gymnasium]'", wheel) == f"pip install '{wheel}[gymnasium]'"
    assert as_run("regle serve pixies --players 3 --port 8080", wheel) == "regle serve pixies --players 3 --port 0"
    assert as_run("regle check eclats", wheel) == "regle check eclats"
    assert as_run("regle perft chess --depth 5 --divide", wheel) == "regle perft chess --depth 3 --divide"
    assert as_run("regle play chess --depth 5", wheel) == "regle play chess --depth 5"  # perft's only


def test_the_tutorials_files_are_whole_games():
    for doc, name in TUTORIAL_FILES.items():
        game = regle.loads(tutorial_rules(doc), name=Path(name).stem, backend="python")
        assert game.new_game(seed=1).legal_moves()
        assert any(e.file == doc and name in e.text for e in examples()), doc
