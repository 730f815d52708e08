"""Grids and the kernel built-ins, from rules text (small games of their own)."""
from __future__ import annotations

import pytest

import regle

TRAY = '''
game "Tray" { players 2 }
enum colour { blue = "B", red = "R", wild white = "W" }
table card(shape: pattern of colour) {
  "BR"
  "B/W"
  "BB/R."
}
param lanes = 3
param height = 4
zone supply: colour = [blue, blue, blue, blue, blue, blue, red, red, red, red, white, white]
zone spare: colour
zone deck: card = card
zone chosen: card capacity 1
grid tray: colour per player lanes lanes height height
counter popped per player
setup {
  for p in players { drop white into tray[p] lane 1 taking from supply }
}
turn {
  step pick {
    action take(c in deck) "take {c}" { move c from deck to chosen }
  }
  step place {
    action put(pl in placements(chosen[0].shape, tray[me], supply)) "{pl}" {
      place pl of chosen[0].shape into tray[me] taking from supply overflow to supply
      move chosen[0] from chosen to deck
    }
  }
  repeat step pop while count(groups(tray[me], 3, white)) > 0 {
    action pop(g in groups(tray[me], 3, white)) "pop {g}" {
      popped[me] += g.size
      clear g on tray[me] to supply
      settle tray[me]
    }
  }
}
end when turns >= 6
score p { popped: popped[p] }
invariant marbles: count(supply) + count(spare) + sum(count(tray[p]) for p in players) == 12
'''


def moves(s):
    return [str(m) for m in s.legal_moves()]


def test_lanes_placements_groups_and_gravity():
    game = regle.loads(TRAY, name="tray")
    s = game.new_game(seed=1)
    z = s.to_json()["zones"]
    assert z["tray"][0][1 * 4] == 2  # the white in lane 1 (0-based), at the floor
    assert moves(s) == ["take BR", "take B/W", "take BB/R."]
    s.play("take BR")
    legal = moves(s)
    # a flat pair: 2 offsets x 2 directions, plus a vertical pair in each of 3 lanes x 2 orders
    assert len(legal) == len(set(legal)) == 10
    assert legal[0] == "lane 1"
    s.play("lane 1")
    tray = s.to_json()["zones"]["tray"][0]
    assert tray[0] == 0 and tray[4:6] == [2, 1]  # blue in lane 0; white then red in lane 1
    assert s.check_invariants() == []


def test_group_choice_order_and_chain():
    game = regle.loads(TRAY, name="tray")
    s = game.new_game(seed=1)
    data = s.to_json()
    # lane 0: B B ; lane 1: W R ; lane 2: R R  (bottom first) -> a blue group (B,B,W) and a red one (W,R,R,R)
    data["zones"]["tray"][0] = [0, 0, -1, -1, 2, 1, -1, -1, 1, 1, -1, -1]
    data["zones"]["supply"] = [0, 0, 0, 0, 1]
    s = game.state_from_json(data)
    s.play(next(m for m in s.legal_moves() if str(m) == "take B/W"))
    s.play(s.legal_moves()[-1])  # somewhere
    assert s.step_name == "pop"
    options = moves(s)
    assert any(o.startswith("pop blue group") for o in options) and any(o.startswith("pop red group") for o in options)
    before = s.copy()
    s.play(next(m for m in s.legal_moves() if str(m).startswith("pop red")))
    other = before.copy()
    other.play(next(m for m in other.legal_moves() if str(m).startswith("pop blue")))
    assert s.to_json()["zones"]["tray"] != other.to_json()["zones"]["tray"]  # the order changes the result
    for state in (s, other):
        while not state.is_over and state.step_name == "pop":
            state.play(state.legal_moves()[0])
        assert state.check_invariants() == []


def test_random_games_keep_marbles_and_lanes_bounded():
    game = regle.loads(TRAY, name="tray")
    for seed in range(40):
        s = game.new_game(seed=seed)
        while not s.is_over:
            assert s.check_invariants() == []
            for tray in s.to_json()["zones"]["tray"]:
                for lane in range(3):
                    col = tray[lane * 4:(lane + 1) * 4]
                    filled = [v for v in col if v >= 0]
                    assert col[:len(filled)] == filled  # no holes under a marble
            m = s.legal_moves()[(seed * 7 + s.decisions) % len(s.legal_moves())]
            s.play(m)


BOARD = '''
game "Shove" { players 2 }
enum edge { south, south_west, north_west, north, north_east, south_east }
param target_value = [1, 2, 3, 1, 2, 3]
grid board: player hex side 3 edges edge
zone target: player per edge capacity 1
counter points per player
counter bounced per player
setup {
  for c in cells(board) {
    if row(board, c) == 0 { put 0 at c on board }
    if row(board, c) == 4 { put 1 at c on board }
  }
}
turn {
  step back when bounced[me] > 0 {
    action place(c in empty_cells(board)) "place {c}" {
      put me at c on board
      bounced[me] = 0
      end turn
    }
    action discard "discard" { bounced[me] = 0 }
  }
  step move {
    action shove(m in line_moves(board, me)) "{m}" {
      push m on board ejecting (who, sides) {
        if any(count(target[s]) == 0 for s in sides) {
          let free = argmin(target_value[s] for s in sides where count(target[s]) == 0)
          add who to target[free]
          points[me] += target_value[free]
        } else {
          bounced[who] = 1
        }
      }
    }
    pass
  }
}
end when any(points[p] >= 6 for p in players)
end when turns >= 200
score p { points: points[p] }
winner p { most score ties draw }
invariant pieces: count(board) + sum(count(target[e]) for e in edge) + sum(bounced[p] for p in players) <= 7
'''


def test_hex_board_line_moves_pushes_and_targets():
    game = regle.loads(BOARD, name="shove")
    s = game.new_game(seed=0)
    z = s.to_json()["zones"]["board"]
    assert z.count(0) == 3 and z.count(1) == 3  # rows of 3 cells at each end of a side-3 board
    legal = moves(s)
    assert "a1-ne" in legal and "a2-ne" in legal
    assert all("push" not in m for m in legal)
    seen_eject = False
    for seed in range(30):
        s = game.new_game(seed=seed)
        while not s.is_over:
            assert s.check_invariants() == []
            before = sum(s.scores)
            s.play(s.legal_moves()[(seed * 13 + s.decisions * 7) % len(s.legal_moves())])
            if sum(s.scores) > before:
                seen_eject = True
        for e in s.to_json()["zones"]["target"]:
            assert len(e) <= 1
    assert seen_eject


def test_grid_mistakes_are_positioned():
    bad = BOARD.replace("grid board: player hex side 3 edges edge", "grid board: player hex side 3 edges colour")
    with pytest.raises(regle.RulesError, match="'colour' is not an enum"):
        regle.loads(bad, name="bad")
    bad = BOARD.replace("put 0 at c on board", "put 0 at c on target")
    with pytest.raises(regle.RulesError, match="expected a grid here"):
        regle.loads(bad, name="bad")
    bad = TRAY.replace('"BB/R."', '"BB/X."')
    with pytest.raises(regle.RulesError, match="'X' is not a symbol of enum 'colour'"):
        regle.loads(bad, name="bad")
    bad = TRAY.replace("settle tray[me]", "settle tray")
    with pytest.raises(regle.RulesError, match="say whose"):
        regle.loads(bad, name="bad")


AROUND_A_SUM = '''
game "Around a sum" { players 2 }
grid board: player square 4 by 1
counter n
turn {
  step go {
    action put(k in 0..2, t in neighbours(board, k + 1)) "{k}{t}" {
      require is_empty(board, t)
      put me at t on board
      n += sum(number(x) for x in neighbours(board, k + 1))
    }
  }
}
end when turns >= 3
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_the_neighbours_of_a_cell_given_by_a_sum(backend):
    """`neighbours(board, k + 1)`, walked in the neighbours' table natively, reads the row of
    cell k + 1. It used to read `k + 1 * 4 + d` (the row of k, shifted) in a move generator and
    an aggregate, so the native engine offered other moves than the Python one."""
    game = regle.loads(AROUND_A_SUM, name="around_a_sum", backend=backend)
    state = game.new_game(seed=1)
    assert sorted(str(m) for m in state.legal_moves()) == ["0a1", "0c1", "1b1", "1d1", "2c1"]
    state.play("1d1")  # the neighbours of c1 (2) are b1 (1) and d1 (3)
    assert state.to_json()["counters"]["n"] == 4
