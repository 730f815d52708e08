"""A short define that reads one parameter twice, given a call rather than a name or a number
(``open(neighbour(board, c, "n"))`` for ``open(w) = w != none and board[w] == none``), is written
in place: the call computed where every evaluation first reaches it and kept in a local for the
other read (compiler/lower/calls.py, ``bind_shared`` with the argument wanted), not a call of the
define's function. The same games as the function, on both engines."""
from __future__ import annotations

import pytest

import regle
from conftest import play_alike
from regle.compiler.generate import engine_source, native_source

RULES = """
game "Open sides" {
  players 2
}

grid board: player square 5 by 5

define open(w) = w != none and board[w] == none

turn {
  action place(c in empty_cells(board)) "{c}" {
    require open(neighbour(board, c, "n")) or open(neighbour(board, c, "w"))
    put me at c on board
  }
}

end when stuck then draw
"""


def _sources(text: str) -> list[str]:
    return [engine_source(text, "open.rules"), native_source(text, "open.rules")]


def test_the_define_is_written_in_place_with_its_argument_computed_once():
    for source in _sources(RULES):
        assert "fn__open(" not in source
        # each argument bound where it is first read, then read from its local
        # (once per move generator: natively the list of moves and the buffer of keys)
        assert source.count("_shared0 := ") == source.count("_shared1 := ") >= 1
        assert "g_board[_shared0]" in source or "_cell(g_board, _shared0)" in source
        assert "_shared0 != -1" not in source  # (the first read is the binding itself)


def test_a_first_read_that_not_every_evaluation_reaches_keeps_the_function():
    """``x > 0 and ...`` first: the argument would be computed only where the left side holds,
    where the function computes it always (and would raise there if it raises)."""
    text = RULES.replace("define open(w) = w != none", "define open(w) = turns >= 0 and w != none")
    for source in _sources(text):
        assert "fn__open(" in source


def test_two_parameters_each_read_twice_keep_the_function():
    text = RULES.replace("define open(w) = w != none and board[w] == none",
                         "define open(w, v) = board[w] == board[v] and w != v")
    text = text.replace('open(neighbour(board, c, "n")) or open(neighbour(board, c, "w"))',
                        'open(neighbour(board, c, "n"), neighbour(board, c, "w"))')
    for source in _sources(text):
        assert "fn__open(" in source


@pytest.mark.parametrize("backend", ["python", "native"])
def test_games_alike_in_place_and_as_the_function(backend, monkeypatch):
    if backend == "native":
        from regle import native
        if not native.available():
            pytest.skip(native.unavailable_reason())
    from regle.compiler.lower import calls
    tested = regle.loads(RULES, name="open_in_place", backend=backend)
    real = calls.bind_shared
    monkeypatch.setattr(calls, "bind_shared",
                        lambda tree, name, wanted=None: (tree, None) if wanted is not None else real(tree, name))
    text = RULES + "\n# the define as a function\n"
    assert "fn__open(" in engine_source(text, "open.rules")
    reference = regle.loads(text, name="open_function", backend=backend)
    nodes, _decided = play_alike(reference, tested, 12, ids=True)
    assert nodes > 150
