"""compiler/passes/shared_calls.py: a scan of the position that a move generator asks for twice
or more is made once, into a local, where it is first computed whatever the guards decide.
Trees before and after, what the pass leaves alone, and games played alike with the pass and
without it on both engines."""
from __future__ import annotations

from pathlib import Path

import pytest

import regle
from conftest import play_alike
from regle.compiler.generate import engine_source, native_source
from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.passes.shared_calls import share_calls
from regle.compiler.write.moves import AddMove, Guard, Scan

ROOT = Path(__file__).resolve().parents[1]
QUORIDOR = (ROOT / "games/classics/quoridor.rules").read_text(encoding="utf-8")
CELL = T.Type("cell", space="board")
ME = N.Local(T.PLAYER, 0, "me")
BOARD = N.Field(T.Type("grid", space="board"), 0, "g_board")


def first(seat) -> N.Helper:
    """``first(filled_cells(board, seat))`` as the lowering writes it."""
    return N.Helper(CELL, 1, "K.first_holding", (BOARD, N.Const(T.INT, 0, 256), seat, N.Const(T.INT, 0, -2)))


def _uses(tree, name: str) -> int:
    return repr(tree).count(f"name='{name}'")


def test_a_scan_asked_twice_is_made_once_where_it_is_first_computed():
    guard = Guard(2, N.binary("==", first(ME), N.Const(T.INT, 0, 3), T.BOOL, 2), (AddMove(2, 0, ()),))
    scan = Scan(3, "t_", N.Helper(T.list_of(CELL), 3, "K.open_neighbours", (first(ME),)),
                (AddMove(3, 1, (N.Local(CELL, 0, "t_"),)),))
    out, made = share_calls((guard, scan))
    assert made == ["_call0"]
    assert isinstance(out[0], S.Assign) and out[0].target.name == "_call0" and out[0].value == first(ME)
    assert "K.first_holding" not in repr(out[1:]) and _uses(out[1:], "_call0") == 2


def test_a_scan_first_asked_only_sometimes_is_made_where_it_is_always_asked():
    """In the right side of ``and`` the first one runs only when the left holds: the local is
    made before the first statement that always computes it, and the one before stays."""
    sometimes = Guard(2, N.binary("and", N.binary("==", ME, N.Const(T.INT, 0, 0), T.BOOL, 2),
                                  N.binary("==", first(ME), N.Const(T.INT, 0, 3), T.BOOL, 2), T.BOOL, 2),
                      (AddMove(2, 0, ()),))
    always = Guard(3, N.binary("!=", first(ME), N.Const(T.INT, 0, 5), T.BOOL, 3),
                   (Guard(4, N.binary("!=", first(ME), N.Const(T.INT, 0, 6), T.BOOL, 4), (AddMove(4, 1, ()),)),))
    out, made = share_calls((sometimes, always))
    assert made == ["_call0"] and out[0] == sometimes
    assert isinstance(out[1], S.Assign) and _uses(out[2], "_call0") == 2


def test_what_is_left_alone():
    """Once only; another seat's scan; a scan reading a loop's name; one inside an aggregate."""
    once = Guard(2, N.binary("==", first(ME), N.Const(T.INT, 0, 3), T.BOOL, 2), (AddMove(2, 0, ()),))
    other = Guard(3, N.binary("==", first(N.binary("-", N.Const(T.INT, 0, 1), ME, T.INT, 3)), N.Const(T.INT, 0, 3),
                                   T.BOOL, 3), (AddMove(3, 1, ()),))
    assert share_calls((once, other)) == ((once, other), [])
    # a name the block binds: not at the top, where it changes (a loop's variable, a let)
    loop_name = N.Local(T.PLAYER, 0, "p_")
    inner = Guard(4, N.binary("==", first(loop_name), first(loop_name), T.BOOL, 4), (AddMove(4, 2, ()),))
    let = S.Assign(4, loop_name, "=", N.Const(T.INT, 0, 1))
    assert share_calls((let, inner)) == ((let, inner), [])
    # inside an aggregate (natively a method of its own): left, while the guard's own is shared
    agg = N.Aggregate(T.BOOL, 5, "any", "x_", N.Helper(T.list_of(CELL), 5, "K.open_neighbours", (first(ME),)),
                      N.binary("==", N.Local(CELL, 0, "x_"), first(ME), T.BOOL, 5), None, lazy=True)
    both = Guard(5, N.binary("and", N.binary("!=", first(ME), N.Const(T.INT, 0, 9), T.BOOL, 5), agg, T.BOOL, 5),
                 (AddMove(5, 3, ()),))
    again = Guard(6, N.binary("!=", first(ME), N.Const(T.INT, 0, 7), T.BOOL, 6), (AddMove(6, 4, ()),))
    out, made = share_calls((both, again))
    assert made == ["_call0"] and isinstance(out[0], S.Assign)
    assert repr(out[1].test.right) == repr(agg) and _uses(out[2], "_call0") == 1


def neighbour(cell, d: int) -> N.Neighbour:
    """``neighbour(fence, cell, d)`` as the lowering writes it: a read of the wall places' table."""
    return N.Neighbour(CELL, 1, "G_fence__SLOTS", 4, cell, N.Const(T.INT, 0, d))


def test_a_neighbour_asked_twice_in_a_loop_body_is_read_once_there():
    """In the body of a loop over c the loop's c holds one value: ``neighbour(c, 2)`` tested
    and then used is read once per c, in the body; a let the body assigns is left alone."""
    c, e = N.Local(CELL, 0, "c_"), N.Local(CELL, 0, "e_")
    test = Guard(3, N.binary("!=", neighbour(c, 2), N.Const(T.INT, 0, -1), T.BOOL, 3),
                 (AddMove(4, 0, (neighbour(c, 2),)),))
    lets = (S.Assign(5, e, "=", neighbour(c, 0)),
            Guard(6, N.binary("!=", e, N.Const(T.INT, 0, -1), T.BOOL, 6),
                  (Guard(7, N.binary("!=", neighbour(e, 2), N.Const(T.INT, 0, -1), T.BOOL, 7),
                         (AddMove(7, 1, (neighbour(e, 2),)),)),)))
    loop = Scan(2, "c_", N.Helper(T.list_of(CELL), 2, "K.cells", ()), (test, *lets))
    out, made = share_calls((loop,))
    assert made == ["_call0", "_call1"]
    body = out[0].body
    assert isinstance(body[0], S.Assign) and body[0].target.name == "_call0" and body[0].value == neighbour(c, 2)
    assert _uses(body[1], "_call0") == 2 and "Neighbour(" not in repr(body[1])
    # e_ is assigned in the loop's body: its neighbour is shared in the body of the guard after it
    assert body[2] == lets[0] and body[3].test == lets[1].test
    inner = body[3].body
    assert isinstance(inner[0], S.Assign) and inner[0].target.name == "_call1" and inner[0].value == neighbour(e, 2)
    assert _uses(inner[1], "_call1") == 2 and "Neighbour(" not in repr(inner[1])
    # at the top, where c_ is the loop's, nothing is shared: the loop binds it
    assert share_calls((test, S.Assign(7, c, "=", N.Const(T.INT, 0, 0)))) == ((test, S.Assign(7, c, "=", N.Const(T.INT, 0, 0))), [])


def test_quoridor_scans_each_pawn_once_per_generator():
    for source in (native_source(QUORIDOR, "quoridor.rules"), engine_source(QUORIDOR, "quoridor.rules")):
        assert "_call0 = " in source and "_call1 = " in source
        # a wall's place beside a cell, tested open and then looked up in the ways' marks: read once
        # (open(w), which reads w twice, written in place: the place kept in a local where it is read first)
        assert "_call2 = " in source and ":= _call2) != -1 and " in source
        assert "_walled_at(len(_v_G_board__ADJ), 4, _call0, g_fence)" in source \
            or "open_neighbours(G_board__ADJ, 4, G_fence__SLOTS, g_fence, _call0)" in source  # (natively walked in C)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_games_alike_with_the_pass_and_without(backend, monkeypatch):
    """Quoridor on a 5x5 board with scans shared and without (the pass made the identity; the
    text marked by a comment so that the engine is cached as its own): the same legal moves and
    ids at every node of seeded games (conftest.play_alike)."""
    if backend == "native":
        from regle import native
        if not native.available():
            pytest.skip(native.unavailable_reason())
    from regle.compiler.write import written
    text = QUORIDOR.replace("param size = 9", "param size = 5")
    tested = regle.loads(text, name="shared_calls", backend=backend)
    monkeypatch.setattr(written, "share_calls", lambda items: (tuple(items), []))
    reference = regle.loads(text + "\n# every scan made where it is asked\n", name="shared_calls_not", backend=backend)
    assert "_call0" not in engine_source(text + "\n# every scan made where it is asked\n", "q.rules")
    nodes, _decided = play_alike(reference, tested, 30 if backend == "native" else 8, ids=True)
    assert nodes > 300
