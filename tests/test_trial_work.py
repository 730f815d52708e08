"""compiler/passes/trial_work.py: a trial that counts no work (no for or while, no method of the
state that could count) keeps no count of it; one that could keeps it and puts it back."""
from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import engine_source, lower
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.passes import optimize
from regle.compiler.passes.ensure_memo import remember_ensures
from regle.compiler.passes.trial_work import drop_idle_work
from test_ensure_memo import GUARDS

ROOT = Path(__file__).resolve().parents[1]

#: the hop also takes the enemy rooks next to where it lands: a loop of writes, counted as work
TAKING = GUARDS.replace("    move c to t on board\n    ENSURE",
                        "    move c to t on board\n"
                        "    for n in neighbours(board, t) where board[n] == piece(rook, 1 - me) {\n"
                        "      clear n on board\n    }\n    ensure safe()")


def _passed(text: str):
    return drop_idle_work(remember_ensures(optimize(lower(text, native=True))))


def _keeps_work(a) -> bool:
    return "_work_done" in repr(a.ensure_lines[0]) and "_work_back" in repr(a.ensure_lines[2])


def test_chess_trials_keep_no_count_of_work():
    ir = _passed((ROOT / "games/classics/chess.rules").read_text(encoding="utf-8"))
    trials = [a for a in ir.actions if a.ensure_lines]
    assert len(trials) == 5 and not any(_keeps_work(a) for a in trials)
    assert not any("_keep_work" in a.ensure_locals for a in trials)


def test_a_trial_with_a_loop_keeps_its_count():
    ir = _passed(TAKING)
    hop, slide = (next(a for a in ir.actions if a.name == name) for name in ("hop", "slide"))
    assert _keeps_work(hop) and "_keep_work" in hop.ensure_locals
    assert not _keeps_work(slide)


def test_a_trial_that_calls_a_method_of_the_state_keeps_its_count():
    """A method of the state (other than a remembered ensure's own) might count work."""
    ir = optimize(lower(GUARDS.replace("ENSURE", "ensure safe()"), native=True))
    hop = next(a for a in ir.actions if a.name == "hop")
    before, body, put_back, line = hop.ensure_lines
    asking = S.Return(line, N.Method(T.BOOL, 0, "_ensure_0", (N.Local(T.INT, 0, "c_"),)))
    called = attrs.evolve(ir, actions=[attrs.evolve(a, ensure_lines=(before, (*body[:-1], asking), put_back, line))
                                       if a is hop else a for a in ir.actions])
    assert _keeps_work(next(a for a in drop_idle_work(called).actions if a.name == "hop"))
    assert not _keeps_work(next(a for a in drop_idle_work(ir).actions if a.name == "hop"))


@pytest.mark.parametrize("backend", ["python", "native"])
def test_games_are_those_of_trials_that_keep_their_count(backend, monkeypatch):
    """The same rules (a king's safety tried by every move) played with the pass and without
    it (its text marked by a comment, so that the engine without it is cached as its own):
    the same legal moves at every node of 100 seeded games, on each engine."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    from regle.compiler.write import written
    text = GUARDS.replace("ENSURE", "ensure safe()")
    assert "_work_done" not in engine_source(text, "guards.rules", "guards")
    tested = regle.loads(text, name="idle_work", backend=backend)
    monkeypatch.setattr(written, "drop_idle_work", lambda ir: ir)
    assert "_work_done" in engine_source(text, "guards.rules", "guards")
    reference = regle.loads(text + "\n# every trial keeps its count (the pass left out)\n", name="idle_work_kept",
                            backend=backend)
    nodes, _decided = play_alike(reference, tested, 100 if backend == "native" else 30)
    assert nodes > 1_000
