"""compiler/passes/seats_written_out.py: ``any`` and ``all`` over the seats of a game of a fixed
number of seats written out seat by seat. Trees before and after, what the pass leaves alone,
and games played alike with the pass and without it, on both engines."""
from __future__ import annotations

from pathlib import Path

import pytest

import regle
from conftest import play_alike
from regle import native
from regle.compiler.generate import lower
from regle.compiler.ir import nodes as N
from regle.compiler.ir.traverse import walk
from regle.compiler.passes import optimize

ROOT = Path(__file__).resolve().parents[1]

#: three seats; the ends ask about every seat with any and all, one with a where clause
ROUND = """
game "Round" {
  players 3
  max decisions 40
}

grid board: player square 4 by 4 with diagonals

turn {
  action put(c in empty_cells(board)) "{c}" {
    put me at c on board
  }
}

end when any(in_a_row(board, p, 3) for p in players where p != me) then winner 1 - me + 1
end when any(in_a_row(board, p, 3) for p in players) then winner me
end when all(count(board, p) >= 4 for p in players where p != me) then draw
"""


def _over_seats(n) -> bool:
    return (isinstance(n, N.Aggregate) and isinstance(n.source, N.Upto) and isinstance(n.source.count, N.Field)
            and n.source.count.attr == "n")


def _seat_walks(text: str, **kw) -> list:
    """The aggregates over the seats left in the end conditions once the pass has run."""
    ir = optimize(lower(text, **kw), until="seats_written_out")
    trees = [cond for _c, cond, _w in ir.end_winners] + [cond for _c, cond in ir.end_conds]
    return [n for tree in trees for n in walk(tree) if _over_seats(n)]


def test_any_and_all_over_the_seats_are_written_out():
    assert _seat_walks(ROUND) == []
    ir = optimize(lower(ROUND), until="seats_written_out")
    draw = ir.end_conds[-1][1] if ir.end_conds else None
    tree = repr(ir.end_winners) + repr(draw)
    assert tree.count("Const(type=Type(kind='int'") >= 9  # seats 0, 1 and 2 in each of the three
    othello = (ROOT / "games/classics/othello.rules").read_text(encoding="utf-8")
    assert "any" in othello and _seat_walks(othello) == []


@pytest.mark.parametrize("change", [
    ("players 3", "players 2..4"),  # the number of seats varies
    # an aggregate inside binds the name again (a cell there)
    ("count(board, p) >= 4 for p in players where p != me",
     "count(board, p) >= 4 and any(is_empty(board, p) for p in cells(board)) for p in players where p != me"),
])
def test_aggregates_the_pass_cannot_write_out_are_left_alone(change):
    text = ROUND.replace(*change)
    assert _seat_walks(text)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_games_are_those_of_the_loops_over_the_seats(backend, monkeypatch):
    """ROUND with the pass and without it (its text marked by a comment, so that the engine
    without it is cached as its own): the same legal moves, winners and scores in 150 seeded
    games, on each engine."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    import regle.compiler.passes as passes
    tested = regle.loads(ROUND, name="round_out", backend=backend)
    monkeypatch.setattr(passes, "write_out_seats", lambda seats, ways: lambda node: node)
    assert _seat_walks(ROUND)  # (the pass is left out)
    reference = regle.loads(ROUND + "\n# the loops over the seats kept (the pass left out)\n", name="round_loops",
                            backend=backend)
    nodes, decided = play_alike(reference, tested, 150)
    assert nodes > 1_000 and decided > 10


def test_each_seat_s_copy_of_a_search_keeps_its_own_ways():
    """Quoridor's ``ensure all(reachable(board, pawn(p), goal(p), fence) for p in players)``:
    written out, each seat's search keeps its last ways in a memo of its own (as two calls
    written by hand do), not one the two searches would take from each other at every trial;
    the board counts the memos made."""
    text = (ROOT / "games/classics/quoridor.rules").read_text(encoding="utf-8")
    before = lower(text)
    after = optimize(before, until="seats_written_out")
    memos = [n.name for a in after.actions for n in walk_all(a.ensure_lines) if isinstance(n, N.Global)
             and "_WAYS_" in n.name]
    assert len(memos) == len(set(memos)) >= 4
    board = next(g for g in after.grids if g.name == "board")
    assert board.ways == next(g for g in before.grids if g.name == "board").ways + 2


def walk_all(tree):
    """Every node in ``tree`` (statements, expressions, tuples of them)."""
    from regle.compiler.ir.traverse import parts
    if isinstance(tree, N.Node):
        yield tree
    for p in parts(tree) if isinstance(tree, (N.Node, tuple, list)) else ():
        yield from walk_all(p)
