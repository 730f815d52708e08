"""Cibles (GAMES.md section 2): one test per rule, on hand-made positions."""
from __future__ import annotations

import pytest

import regle
from conftest import GAMES

E, W, NE, SW, NW, SE = "e", "w", "ne", "sw", "nw", "se"
SIDES = ["south", "south_west", "north_west", "north", "north_east", "south_east"]
VALUE = dict(zip(SIDES, [1, 2, 3, 1, 2, 3]))


@pytest.fixture(scope="module")
def cibles():
    return regle.load(GAMES / "cibles.rules")


def position(game, mine=(), theirs=(), current=0, targets=None, points=(0, 0), bounced=(0, 0),
             removed=None, turns=0):
    """A position from cell names: ``mine`` are P1's marbles, ``theirs`` P2's."""
    names = game.cell_names("board")
    board = [-1] * len(names)
    for cell in mine:
        board[names.index(cell)] = 0
    for cell in theirs:
        board[names.index(cell)] = 1
    data = game.new_game(seed=0).to_json()
    data["zones"]["board"] = board
    data["zones"]["target"] = targets or [[] for _ in SIDES]
    data["current"] = current
    data["turns"] = turns
    on_board = [board.count(0), board.count(1)]
    in_targets = [sum(t.count(p) for t in data["zones"]["target"]) for p in (0, 1)]
    data["counters"]["points"] = list(points)
    data["counters"]["bounced"] = list(bounced)
    data["counters"]["removed"] = removed or [9 - on_board[p] - in_targets[p] - bounced[p] for p in (0, 1)]
    return game.state_from_json(data)


def moves(s):
    return [str(m) for m in s.legal_moves()]


def board(s):
    names = s.GAME.cell_names("board")
    cells = s.to_json()["zones"]["board"]
    return {names[i]: v for i, v in enumerate(cells) if v >= 0}


def test_layout_and_start(cibles):
    s = cibles.new_game(seed=0)
    b = board(s)
    assert sorted(c for c, v in b.items() if v == 0) == sorted(
        ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "b5"])
    assert sum(1 for v in b.values() if v == 1) == 9 and all(c[0] in "fg" for c, v in b.items() if v == 1)
    assert s.current_player == 0


def test_a_single_step_in_each_of_six_directions(cibles):
    s = position(cibles, mine=["d4"], theirs=["a1"])
    assert sorted(m for m in moves(s) if m.startswith("d4")) == sorted(f"d4-{d}" for d in (E, W, NE, SW, NW, SE))
    for d, target in ((E, "d5"), (W, "d3"), (NE, "e4"), (SW, "c3"), (NW, "e3"), (SE, "c4")):
        t = position(cibles, mine=["d4"], theirs=["a1"])
        t.play(f"d4-{d}")
        assert board(t) == {target: 0, "a1": 1}, d


def test_a_line_of_five_moves_along_its_axis(cibles):
    s = position(cibles, mine=["d2", "d3", "d4", "d5", "d6"], theirs=["a1"])
    assert "d6-e x5" in moves(s) and "d2-w x5" in moves(s)
    s.play("d6-e x5")
    assert sorted(c for c, v in board(s).items() if v == 0) == ["d3", "d4", "d5", "d6", "d7"]


def test_a_sub_line_including_the_front_end(cibles):
    s = position(cibles, mine=["d1", "d2", "d3", "d4"], theirs=["a1"])
    assert {"d4-e", "d4-e x2", "d4-e x3", "d4-e x4"} <= set(moves(s))
    s.play("d4-e x2")
    assert sorted(c for c, v in board(s).items() if v == 0) == ["d1", "d2", "d4", "d5"]


@pytest.mark.parametrize("k, m", [(2, 1), (3, 2), (4, 3)])
def test_pushes_with_more_pushers(cibles, k, m):
    mine = [f"d{i}" for i in range(1, k + 1)]
    theirs = [f"d{i}" for i in range(k + 1, k + 1 + m)]
    s = position(cibles, mine=mine, theirs=theirs)
    push = f"d{k}-e x{k} push {m}"
    assert push in moves(s)
    s.play(push)
    after = [f"d{i}" for i in range(k + 2, k + 2 + m) if i <= 7]  # row d has 7 cells
    assert sorted(c for c, v in board(s).items() if v == 1) == after
    assert sorted(c for c, v in board(s).items() if v == 0) == [f"d{i}" for i in range(2, k + 2)]


def test_equal_strength_cannot_push(cibles):
    s = position(cibles, mine=["d2", "d3"], theirs=["d4", "d5"])
    assert not [m for m in moves(s) if m.startswith("d3-e")]


def test_a_push_is_blocked_by_a_piece_behind_the_pushed_ones(cibles):
    s = position(cibles, mine=["d1", "d2", "d3", "d5"], theirs=["d4"])
    assert not [m for m in moves(s) if m.startswith("d3-e")]
    s = position(cibles, mine=["d1", "d2", "d3"], theirs=["d4", "d5", "d6"])
    assert not [m for m in moves(s) if m.startswith("d3-e")]


def test_no_move_ejects_ones_own_marble(cibles):
    s = position(cibles, mine=["d7", "d6"], theirs=["a1"])
    assert not [m for m in moves(s) if m.startswith("d7-e") or m.startswith("d6-e")]


def _eject_case(game, side):
    """A 2-v-1 push that sends P2's marble off across ``side`` (not through a corner exit)."""
    names = game.cell_names("board")
    geo_exits = game.namespace["G_board__EXITS"]
    adj = game.namespace["G_board__ADJ"]
    dirs = game.namespace["G_board__DIRS"]
    want = SIDES.index(side)
    for cell in range(len(names)):
        for d in range(6):
            if tuple(geo_exits[cell * 6 + d]) != (want,):
                continue
            back = adj[cell * 6 + (d ^ 1)]
            back2 = adj[back * 6 + (d ^ 1)] if back >= 0 else -1
            if back >= 0 and back2 >= 0:
                return names[back2], names[back], names[cell], dirs[d]
    raise AssertionError(side)


@pytest.mark.parametrize("side", SIDES)
def test_an_ejection_scores_the_target_beyond_the_side_crossed(cibles, side):
    a, b, victim, d = _eject_case(cibles, side)
    s = position(cibles, mine=[a, b], theirs=[victim])
    s.play(f"{b}-{d} x2 push 1")
    targets = s.to_json()["zones"]["target"]
    assert targets[SIDES.index(side)] == [1]
    assert s.scores == [VALUE[side], 0]


def test_corner_exit_goes_to_the_lower_value_then_rolls_on(cibles):
    # north-east corner g4 (the long diagonal d4-e4-f4-g4 runs NE): its corner exit crosses
    # the north (1 point) and north-east (2 points) sides
    s = position(cibles, mine=["e4", "f4"], theirs=["g4"])
    s.play("f4-ne x2 push 1")
    t = s.to_json()["zones"]["target"]
    assert t[SIDES.index("north")] == [1] and s.scores == [1, 0]
    full = [[] for _ in SIDES]
    full[SIDES.index("north")] = [0]
    s = position(cibles, mine=["e4", "f4"], theirs=["g4"], targets=full)
    s.play("f4-ne x2 push 1")
    t = s.to_json()["zones"]["target"]
    assert t[SIDES.index("north_east")] == [1] and s.scores == [2, 0]


def _bounce(game):
    full = [[] for _ in SIDES]
    full[SIDES.index("north")] = [0]
    full[SIDES.index("north_east")] = [0]
    s = position(game, mine=["e4", "f4", "a1"], theirs=["g4", "b2"], targets=full)
    s.play("f4-ne x2 push 1")
    return s


def test_a_marble_with_every_target_full_bounces_back_unscored(cibles):
    s = _bounce(cibles)
    assert s.scores == [0, 0] and s.to_json()["counters"]["bounced"] == [0, 1]
    assert s.current_player == 1
    legal = moves(s)
    assert "discard the bounced marble" in legal
    assert all(m.startswith("place at ") or m == "discard the bounced marble" for m in legal)
    assert len(legal) == 37 - 4 + 1  # every empty cell (the bounced marble left the board), or discard


def test_placing_the_bounced_marble_is_the_whole_turn(cibles):
    s = _bounce(cibles)
    s.play("place at d4")
    assert board(s)["d4"] == 1 and s.current_player == 0 and s.turns == 2
    assert s.to_json()["counters"]["bounced"] == [0, 0]


def test_discarding_the_bounced_marble_then_moving(cibles):
    s = _bounce(cibles)
    removed = s.to_json()["counters"]["removed"]
    s.play("discard the bounced marble")
    assert s.current_player == 1 and s.step_name == "move"
    assert s.to_json()["counters"]["removed"] == [removed[0], removed[1] + 1]
    s.play(moves(s)[0])
    assert s.current_player == 0 and s.turns == 2
    assert s.check_invariants() == []


@pytest.mark.parametrize("before, side", [(5, "north"), (4, "north_west"), (5, "north_west")])
def test_six_points_win_at_once_exactly_and_beyond(cibles, before, side):
    a, b, victim, d = _eject_case(cibles, side)
    s = position(cibles, mine=[a, b], theirs=[victim, "a1"], points=(before, 0))
    s.play(f"{b}-{d} x2 push 1")
    assert s.is_over and s.scores == [before + VALUE[side], 0] and s.winners == [0]
    s = position(cibles, mine=[a, b], theirs=[victim, "a1"], points=(2, 0))
    s.play(f"{b}-{d} x2 push 1")
    assert not s.is_over


def test_the_safeguard_ends_in_a_draw(cibles):
    s = position(cibles, mine=["a1"], theirs=["g4"], turns=299, points=(5, 3))
    s.play(moves(s)[0])
    assert s.is_over and s.turns == 300 and s.winners == []


def test_a_player_with_no_move_passes(cibles):
    # P1's only marble is at a corner and surrounded so that nothing moves
    s = position(cibles, mine=["a1"], theirs=["a2", "b1", "b2"])
    legal = moves(s)
    assert legal == ["pass"]


def test_pieces_are_conserved_in_random_games(cibles):
    from regle.runtime.agents import RandomAgent
    for seed in range(25):
        s = cibles.new_game(seed=seed)
        a = RandomAgent(seed)
        while not s.is_over:
            s.play(a.choose(s))
            assert s.check_invariants() == []
        for t in s.to_json()["zones"]["target"]:
            assert len(t) <= 1
