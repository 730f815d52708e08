"""A grammar-aware fuzzer (tests/grammar_fuzz.py draws texts from dsl/rules.lark), on a fixed
budget: whatever the text, ``check``, ``fmt`` and the loader never raise anything but a
positioned RulesError, never hang, ``fmt`` is idempotent and keeps the meaning (the same
AST), and a text that checks generates both engines' sources and plays on the Python engine
with only rules errors (the first clean texts are built natively too, and play the same game
there). A planted defect shows that the fuzzer can fail."""
from __future__ import annotations

import signal
import sys

import pytest
from hypothesis import HealthCheck, given, settings

from grammar_fuzz import games, sentences
from regle import native
from regle.dsl import parse
from regle.dsl.errors import RulesError
from regle.dsl.printer import format_text
from regle.runtime import IllegalMove, RulesRuntimeError

HANG_SECONDS = 20  # a hang detector, not a speed test: checking is bounded by its work budget
BUDGET = settings(max_examples=120, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {HANG_SECONDS} s")


def examine(text: str) -> None:
    """Every property the fuzzer holds a text to (an AssertionError or the exception when one
    fails)."""
    from regle.compiler.generate import engine_source, native_source
    from regle.loader import loads
    previous = signal.signal(signal.SIGALRM, _alarm) if sys.platform != "win32" else None
    if previous is not None:
        signal.alarm(HANG_SECONDS)
    try:
        try:
            tree = parse(text)
        except RulesError as err:
            assert err.diagnostics and all(d.line >= 1 for d in err.diagnostics)
            return
        formatted = format_text(text)
        assert format_text(formatted) == formatted, "fmt is not idempotent"
        assert parse(formatted) == tree, "fmt changed the meaning"
        try:
            engine_source(text, "fuzz.rules", "fuzz")
        except RulesError as err:
            assert err.diagnostics and all(d.line >= 1 for d in err.diagnostics)
            return
        native_source(text, "fuzz.rules", "fuzz")  # the Cython source of the same lowering
        played = _play(loads, text, "python")
        if native.available() and (text in _BUILT or len(_BUILT) < NATIVE_BUILDS):
            _BUILT.add(text)  # a few clean texts built natively too: the same game on both engines
            assert _play(loads, text, "native") == played, "the engines disagree"
    finally:
        if previous is not None:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)


NATIVE_BUILDS = 2  # clean texts also built and played natively (a build takes seconds)
_BUILT: set[str] = set()


def _play(loads, text: str, backend: str) -> tuple:
    """A seeded game of a clean text on one engine: its final state, or the rules error."""
    try:
        game = loads(text, "fuzz", backend=backend)
        state = game.new_game(game.players.start, seed=1)
        state.play_random_playout(1, limit=40)
        return ("state", state.to_json())
    except (RulesRuntimeError, IllegalMove) as err:
        return ("error", type(err).__name__, str(err).split(":", 2)[-1])


@BUDGET
@given(games())
def test_any_text_of_the_grammar_is_checked_formatted_and_loaded_without_a_traceback(text):
    examine(text)


def test_the_fuzzer_finds_a_planted_defect(monkeypatch):
    """A printer that writes `<` for `<=`: a change of meaning the fuzzer must catch."""
    from regle.dsl import printer
    real = printer.expr

    def wrong(node, *args, **kwargs):
        return real(node, *args, **kwargs).replace(" <= ", " < ")
    monkeypatch.setattr(printer, "expr", wrong)

    @BUDGET
    @given(sentences())
    def fuzz(text):
        examine(text)
    with pytest.raises(AssertionError, match="fmt changed the meaning"):
        fuzz()
