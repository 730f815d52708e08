"""Mutated game files (lines dropped, doubled, swapped, words replaced) through the whole
toolchain: each either gets positioned RulesErrors or compiles into an engine that plays, where
only the documented errors may occur."""
from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings, strategies as st

import regle
from conftest import GAMES
from regle.compiler.generate import engine_source

TEXTS = {p.stem: p.read_text(encoding="utf-8") for p in sorted(GAMES.glob("*.rules"))}


@st.composite
def mutants(draw):
    name = draw(st.sampled_from(sorted(TEXTS)))
    lines = TEXTS[name].split("\n")
    words = sorted(set(re.findall(r"[A-Za-z_]\w*|\d+|[-+*/<>=!]+", TEXTS[name])))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["drop", "double", "swap", "word"]))
        if op == "drop":
            del lines[i]
        elif op == "double":
            lines.insert(i, lines[i])
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif op == "word":
            tokens = re.findall(r"[A-Za-z_]\w*|\d+|[-+*/<>=!]+", lines[i])
            if tokens:
                old = draw(st.sampled_from(tokens))
                new = draw(st.sampled_from(words))
                lines[i] = lines[i].replace(old, new, 1)
    return name, "\n".join(lines)


@settings(max_examples=int(os.environ.get("REGLE_FUZZ_EXAMPLES", "120")), deadline=10_000,
          derandomize=not os.environ.get("REGLE_FUZZ_EXAMPLES"),  # CI: the same mutants every run
          suppress_health_check=[HealthCheck.too_slow])
@given(mutants())
def test_mutated_rules_fail_cleanly_or_play(mutant):
    name, text = mutant
    try:
        compile(engine_source(text, f"{name}.rules"), "engine", "exec")
    except regle.RulesError as err:
        assert err.diagnostics and all(d.line >= 1 for d in err.diagnostics)
        err.render()
        return
    try:
        game = regle.loads(text, name=name)
    except regle.RulesError:
        return
    try:
        s = game.new_game(seed=0)
        s.require_invariants("setup")
        for i in range(60):
            if s.is_over:
                break
            moves = s.legal_moves()
            s.play(moves[i % len(moves)])
            s.require_invariants(f"decision {s.decisions}")  # caught where it breaks, not on reload
    except regle.RulesRuntimeError as err:
        assert re.search(r":\d+: ", str(err)) or str(err).startswith("error")  # the documented outcome
        return
    # a mutant that played cleanly saves and loads as any state does
    assert game.state_from_json(s.to_json()).to_json() == s.to_json()
