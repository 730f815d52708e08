"""Notices: the rules' words a page points out in a position (``notice "check" when ...``),
lowered by compiler/lower/notices.py into the engine's ``notices()``; for people, never read by
play."""
from __future__ import annotations

import random

import pytest

import regle
from regle import native
from regle.dsl import parse
from regle.dsl.printer import format_text
from test_notation_position import _errors  # the rules' mistakes, as line:column message | hint

LINES = '''game "Lines" {
  seats south, north
  max decisions 40
}
grid board: player square 4 by 4
zone secret: int per player hidden = [1, 2]
turn {
  action place(c in empty_cells(board)) "{c}" {
    put me at c on board
  }
}
end when count(empty_cells(board)) == 0

/// for people: where the mover could finish a line of three
notice "three to make" at c for c in empty_cells(board) where any(board[n] == me for n in neighbours(board, c))
notice "full" when ended
notice "corner" when board[cell(board, 0, 0)] != none at cell(board, 0, 0)
notice "crowded" when count(filled_cells(board)) >= 3 at filled_cells(board)
'''

BACKENDS = ["python", "native"]
AFTER = LINES.count("\n") + 1  # the line of a notice added at the end


def _game(backend: str, text: str = LINES):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    return regle.loads(text, name="lines", backend=backend)


def _classic(name: str, backend: str):
    """A packaged classic on ``backend``, and the words of its notices in order."""
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.load(f"games/classics/{name}.rules", backend=backend)
    return game, [w for w, _g, _l in game.namespace["NOTICES"]]


def _said(state) -> dict[str, list[str]]:
    table = state.GAME.namespace["NOTICES"]
    names = state.GAME.cell_names("board")
    return {table[k][0]: [names[c] for c in cells] for k, cells in state.notices()}


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_notice_holds_where_its_condition_does_and_outlines_its_cells(backend):
    s = _game(backend).new_game(seed=0)
    assert _said(s) == {}  # nothing on the board: no cell next to the mover's, no corner
    s.play("a1")
    # now north moves: no north piece yet, so nothing to make; the corner is taken
    assert _said(s) == {"corner": ["a1"]}
    s.play("d4")
    assert _said(s) == {"three to make": ["b1", "a2"], "corner": ["a1"]}
    s.play("b2")
    said = _said(s)
    assert said["crowded"] == ["a1", "b2", "d4"] and said["three to make"] == ["d3", "c4"]
    assert "full" not in said


@pytest.mark.parametrize("backend", BACKENDS)
def test_ended_speaks_of_the_final_position_and_notices_change_nothing(backend):
    s = _game(backend).new_game(seed=1)
    rng = random.Random(1)
    while not s.over:
        before = s.to_json()
        s.notices()
        assert s.to_json() == before  # reading the notices plays nothing
        assert "full" not in _said(s)
        s.play(rng.choice(s.legal_moves()))
    assert "full" in _said(s)


def test_both_engines_point_out_the_same_things():
    if not native.available():
        pytest.skip(native.unavailable_reason())
    for name in ("chess", "go", "draughts"):
        path = f"games/classics/{name}.rules"
        a, b = regle.load(path, backend="python"), regle.load(path, backend="native")
        sa, sb = a.new_game(seed=2), b.new_game(seed=2)
        rng = random.Random(2)
        for _ in range(60):
            assert sa.notices() == sb.notices()
            if sa.over:
                break
            move = rng.choice(sa.notations())
            sa.play(move)
            sb.play(move)


@pytest.mark.parametrize("backend", BACKENDS)
def test_chess_says_check_checkmate_and_stalemate(backend):
    game, words = _classic("chess", backend)
    s = game.new_game(seed=0)
    for move in ("e2e4", "f7f5", "d1h5"):
        s.play(move)
    assert [(words[k], cells) for k, cells in s.notices()] == [("check", [60])]  # e8's king
    s = game.new_game(seed=0)
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):  # fool's mate
        s.play(move)
    assert s.over and [(words[k], cells) for k, cells in s.notices()] == [("checkmate", [4])]
    # the fastest stalemate known (Sam Loyd's, ten moves): Black to move, not attacked, no move
    s = game.new_game(seed=0)
    for move in ("e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 "
                 "b8c8 f7g6 c8e6").split():
        s.play(move)
    assert s.over and s.winners == [] and [words[k] for k, _ in s.notices()] == ["stalemate"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_go_points_out_atari_and_the_territory_at_the_end(backend):
    game, words = _classic("go", backend)
    names = game.cell_names("board")
    s = game.new_game(seed=0)
    for move in ("e5", "d5", "a1", "f5", "a2", "e4"):  # white closes on e5 from three sides
        s.play(move)
    said = {words[k]: sorted(names[c] for c in cells) for k, cells in s.notices()}
    assert said == {"atari": ["e5"]}
    s = game.new_game(seed=0)
    for move in ("e5", "pass", "pass"):  # one black stone: every empty point is black's area
        s.play(move)
    assert s.over
    said = {words[k]: cells for k, cells in s.notices()}
    assert list(said) == ["territory"] and len(said["territory"]) == 80


@pytest.mark.parametrize("backend", BACKENDS)
def test_draughts_outlines_the_pieces_that_must_jump(backend):
    if backend == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    game = regle.load("games/classics/draughts.rules", backend=backend)
    s = game.new_game(seed=0)
    rng = random.Random(4)
    seen = 0
    while not s.over and s.decisions < 300:
        said = {game.namespace["NOTICES"][k][0]: cells for k, cells in s.notices()}
        jumps = {m.args[0] for m in s.legal_moves() if m.name == "jump"}
        # the pieces outlined are exactly those that have a jump (only jumps are legal then)
        assert set(said.get("capture forced", ())) == jumps
        seen += bool(jumps)
        s.play(rng.choice(s.legal_moves()))
    assert seen > 0


def test_a_notice_may_not_read_what_a_seat_does_not_see():
    bad = LINES + 'notice "rich" when sum(secret[me]) > 1\n'
    assert any("shown to every seat" in e and e.startswith(f"{AFTER}:") for e in _errors(bad)), _errors(bad)


def test_mistakes_in_notices_are_positioned():
    errors = _errors(LINES + 'notice "empty"\n')
    assert any(e.startswith(f"{AFTER}:1 a notice says when it is shown") for e in errors), errors
    errors = _errors(LINES + 'notice "corner" when true\n')
    assert any('a second notice "corner"' in e and f"line {AFTER - 2}" in e for e in errors), errors
    errors = _errors(LINES + 'notice "odd" when true at 3\n')
    assert any("outlines a cell or a list of cells" in e for e in errors), errors
    errors = _errors(LINES.replace("end when count(empty_cells(board)) == 0", "end when ended"))
    assert any("'ended' (the game is over) is known in notices only" in e for e in errors), errors


def test_notices_are_formatted_parsed_and_diffed_as_rules():
    text = format_text(LINES, "lines.rules")
    assert format_text(text, "lines.rules") == text  # formatting twice changes nothing
    assert 'notice "full" when ended\n' in text
    for line in text.splitlines():
        assert len(line) <= 100, line
    from regle.dsl.differ import diff
    changed = LINES.replace('notice "full" when ended', 'notice "full" when ended and turns > 2')
    said = [str(c) for c in diff(parse(LINES, "a.rules"), parse(changed, "b.rules"))]
    assert any("notice 'full'" in c for c in said), said
