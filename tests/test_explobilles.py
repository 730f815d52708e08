"""Explobilles (GAMES.md section 1): the FAQ of seed 000 and every rule, through the public API."""
from __future__ import annotations

import pytest

import regle
from conftest import GAMES

CODE = {"B": 0, "Y": 1, "R": 2, "P": 3, "W": 4, ".": -1}
COLOUR = "BYRPW"


@pytest.fixture(scope="module")
def game():
    return regle.load(GAMES / "explobilles.rules")


def tray(*rows: str) -> list[int]:
    """Cells (lane-major, row 0 at the floor) from rows drawn top first, one char per lane."""
    rows = list(rows)
    while len(rows) < 5:
        rows.insert(0, ".....")
    cells = [-1] * 25
    for i, row in enumerate(rows):
        for lane, ch in enumerate(row):
            cells[lane * 5 + (4 - i)] = CODE[ch]
    return cells


def rows_of(cells: list[int]) -> list[str]:
    return ["".join("." if cells[lane * 5 + r] < 0 else COLOUR[cells[lane * 5 + r]] for lane in range(5))
            for r in range(4, -1, -1)]


def card_id(game, text):
    ns = game.namespace
    return next(i for i, p in enumerate(ns["C_marble_card__pattern"]) if ns["PATTERN_TEXT"][p] == text)


def position(game, trays=None, display=None, tokens=None, step=None, supply=None, **zones):
    """A 2-player position; marbles and tokens are rebalanced through the supplies."""
    s = game.new_game(players=2, seed=0)
    data = s.to_json()
    z = data["zones"]
    if trays is not None:
        z["tray"] = trays
    if display is not None:
        used_before = z["display"]
        z["display"] = [card_id(game, t) for t in display]
        z["deck"] = [c for c in z["deck"] + used_before if c not in z["display"]][:19]
        z["box"] = [c for c in range(44) if c not in z["display"] + z["deck"]]
    if tokens is not None:
        z["tokens"] = [[CODE[t] for t in ts] for ts in tokens]
    for k, v in zones.items():
        z[k] = v
    marbles = [0] * 5
    for t in z["tray"]:
        for v in t:
            if v >= 0:
                marbles[v] += 1
    z["supply"] = supply if supply is not None else sum(
        ([c] * (n - marbles[c]) for c, n in enumerate([11, 11, 11, 11, 8])), [])
    toks = [0] * 4
    for ts in z["tokens"]:
        for t in ts:
            toks[t] += 1
    z["token_supply"] = sum(([c] * (7 - toks[c]) for c in range(4)), [])
    z["token_discard"] = []
    if step:
        data["step"] = step
    return game.state_from_json(data)


def moves(s):
    return [str(m) for m in s.legal_moves()]


def zones(s):
    return s.to_json()["zones"]


# ---- FAQ ---------------------------------------------------------------------------------------
def test_faq_the_pattern_keeps_its_shape_and_spacing(game):
    s = position(game, trays=[tray(), tray()], display=["B.B", "BY", "B/Y"])
    s.play("take B.B")
    legal = moves(s)
    # flat at 3 offsets (both turns give the same result) and upright in 5 lanes
    assert len(legal) == 3 + 5
    s.play("place at lane 2")
    assert rows_of(zones(s)["tray"][0])[-1] == ".B.B."


def test_faq_diagonal_contact_is_no_group(game):
    # blues at lane 1 row 1, lane 2 row 2 and lane 3 row 3 touch only by their corners
    diagonal = tray("..B..", ".BY..", "BYR..")
    s = position(game, trays=[diagonal, tray()], display=["RP", "BY", "B/Y"])
    s.play("take RP")
    s.play("place at lane 4")
    s.play("skip bonus")
    assert s.current_player == 1  # no explosion step: no group


def test_faq_one_bonus_token_per_turn_and_none_won_this_turn(game):
    s = position(game, trays=[tray("BB..."), tray()], display=["B/Y", "YP", "RP"], tokens=["RB", "YY"])
    s.play("take RP")
    s.play("place at lane 4")
    assert s.step_name == "bonus"
    assert "spend blue into lane 3" in moves(s)
    s.play("spend blue into lane 3")  # BBB: a blue group of 3
    assert s.step_name == "explode"  # no second bonus step
    s.play(moves(s)[0])
    assert s.current_player == 1  # the turn ended without another chance to spend


def test_faq_a_connected_white_cannot_be_kept_back(game):
    s = position(game, trays=[tray("BWB.."), tray()], display=["B/Y", "YP", "RP"])
    s.play("take RP")
    s.play("place at lane 4")
    s.play("skip bonus")
    assert s.step_name == "explode" and moves(s) == ["explode the blue group of 3"]
    s.play("explode the blue group of 3")
    assert rows_of(zones(s)["tray"][0])[-1] == "...RP"  # the white went with the group


def test_faq_the_player_chooses_the_order_and_falling_marbles_chain(game):
    # lane 1: Y over W over B; B B in lanes 0, 2 at the floor; Y Y on top of lanes 0 and 2
    start = tray(".....", "YYY..", "BWB..")
    s = position(game, trays=[start, tray()], display=["P.P", "YP", "RP"])
    s.play("take P.P")
    s.play("place at lane 3")
    s.play("skip bonus")
    options = moves(s)
    assert "explode the blue group of 3" in options and "explode the yellow group of 4" in options
    a = s.copy()
    a.play("explode the blue group of 3")  # the white goes with the blues; the yellows fall and stay a group
    assert moves(a) == ["explode the yellow group of 3"]
    b = s.copy()
    b.play("explode the yellow group of 4")  # the white goes with the yellows: no blue group is left
    assert b.current_player == 1
    assert zones(a)["tray"] != zones(b)["tray"] or zones(a)["winnings"] != zones(b)["winnings"]


def test_faq_a_marble_for_a_full_lane_returns_to_the_supply(game):
    full = tray("R....", "P....", "R....", "P....", "R....")
    s = position(game, trays=[full, tray()], display=["B/Y", "YP", "RP"])
    before = len(zones(s)["supply"])
    s.play("take B/Y")
    s.play("place at lane 1")  # both marbles meet the full lane 1
    after = zones(s)
    assert rows_of(after["tray"][0]) == rows_of(full)
    assert len(after["supply"]) == before


def test_faq_an_emptied_tray_gets_a_white_in_the_centre_lane(game):
    s = position(game, trays=[tray("BB..."), tray()], display=["B.B", "YP", "RP"])
    s.play("take B.B")
    s.play("place at lane 3 turned 90")  # upright: both blues drop into lane 3
    s.play("skip bonus")
    s.play("explode the blue group of 4")
    assert rows_of(zones(s)["tray"][0]) == [".....", ".....", ".....", ".....", "..W.."]
    assert s.current_player == 1
    # with no white left in the supply, the tray stays empty
    s = position(game, trays=[tray("BB..."), tray()], display=["B.B", "YP", "RP"])
    d = s.to_json()
    d["zones"]["supply"] = [m for m in d["zones"]["supply"] if m != 4]
    d["zones"]["tray"][1] = [4 if i % 5 < 2 and i < 20 else -1 for i in range(25)]  # all 8 whites in use
    s = game.state_from_json(d)
    s.play("take B.B")
    s.play("place at lane 3 turned 90")
    s.play("skip bonus")
    s.play("explode the blue group of 4")
    assert all(v < 0 for v in zones(s)["tray"][0])


def test_the_tie_breaks(game):
    for trays, tokens, expected in (
        ([tray("BY..."), tray("B....")], [[], []], [0]),     # more marbles in the tray
        ([tray("B...."), tray("B....")], [["B"], []], [0]),  # then more tokens
        ([tray("B...."), tray("B....")], [["B"], ["Y"]], [0, 1]),  # then the win is shared
    ):
        s = position(game, trays=trays, tokens=tokens)
        d = s.to_json()
        d["over"] = True
        d["zones"]["display"] = []
        d["zones"]["deck"] = []
        d["zones"]["box"] = list(range(44))
        s = game.state_from_json(d)
        assert s.scores[0] == s.scores[1]
        assert s.winners == expected


# ---- the market ---------------------------------------------------------------------------------
def _explode_blue(game, rows, market=None):
    s = position(game, trays=[tray(*rows), tray()], display=["B/Y", "YP", "RP"], tokens=["B", ""])
    if market is not None:
        d = s.to_json()
        d["zones"]["market"] = market
        d["zones"]["turquoise_stack"] = [c for c in d["zones"]["turquoise_stack"] if all(c not in col for col in market)]
        s = game.state_from_json(d)
    s.play("take RP")
    s.play("place at lane 4")
    s.play("spend blue into lane 3")
    return s


@pytest.mark.parametrize("rows, size, row", [(("BB...",), 3, 0), (("B....", "BB..."), 4, 1), (("BB...", "BB..."), 5, 2)])
def test_a_group_takes_the_card_of_its_colour_and_size_and_the_column_slides(game, rows, size, row):
    s = _explode_blue(game, rows)
    column = list(zones(s)["market"][0])
    turquoise = list(zones(s)["turquoise_stack"])
    tokens_before = list(zones(s)["tokens"][0])
    s.play(f"explode the blue group of {size}")
    after = zones(s)
    assert after["winnings"][0] == [column[row]]
    assert after["market"][0] == column[:row] + column[row + 1:] + [turquoise[0]]  # slide, refill at the top
    assert after["tokens"][0].count(0) - tokens_before.count(0) == [0, 1, 2][row]


def test_turquoise_before_orange_and_an_exhausted_market(game):
    s = _explode_blue(game, ("BB...",))
    d = s.to_json()
    orange = d["zones"]["orange_stack"]
    d["zones"]["turquoise_stack"], d["zones"]["cards_in_box"] = [], d["zones"]["turquoise_stack"] + d["zones"]["cards_in_box"]
    s = game.state_from_json(d)
    s.play("explode the blue group of 3")
    assert zones(s)["market"][0][-1] == orange[0]  # turquoise gone: orange refills
    s = _explode_blue(game, ("BB...",))
    d = s.to_json()
    d["zones"]["cards_in_box"] += d["zones"]["turquoise_stack"] + d["zones"]["orange_stack"]
    d["zones"]["turquoise_stack"], d["zones"]["orange_stack"] = [], []
    s = game.state_from_json(d)
    s.play("explode the blue group of 3")
    assert len(zones(s)["market"][0]) == 2  # the empty slot stays at the top
    s = _explode_blue(game, ("BB...", "BB..."))
    d = s.to_json()
    d["zones"]["cards_in_box"] += d["zones"]["market"][0][2:]
    d["zones"]["market"][0] = d["zones"]["market"][0][:2]  # the 5+ slot is empty
    s = game.state_from_json(d)
    tokens = list(zones(s)["tokens"][0])
    s.play("explode the blue group of 5")
    assert zones(s)["winnings"][0] == [] and len(zones(s)["market"][0]) == 2  # no card, nothing slides
    assert zones(s)["tokens"][0].count(0) == tokens.count(0) + 2  # tokens all the same


# ---- setup and invariants ---------------------------------------------------------------------------
@pytest.mark.parametrize("players, removed", [(2, 22), (3, 12), (4, 2)])
def test_setup_by_player_count(game, players, removed):
    s = game.new_game(players=players, seed=1)
    z = zones(s)
    assert len(z["box"]) == removed and len(z["display"]) == 3
    assert all(t.count(4) == 1 and t[2 * 5] == 4 for t in z["tray"])  # a white in the centre lane
    assert all(len(t) == 2 for t in z["tokens"])
    assert z["supply"].count(4) == 8 - players
    assert [len(z["market"][c]) for c in range(4)] == [3, 3, 3, 3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_and_equal_turns_in_random_games(game, players):
    from regle.runtime.agents import RandomAgent
    for seed in range(12):
        s = game.new_game(players=players, seed=seed)
        agent = RandomAgent(seed)
        while not s.is_over:
            assert s.check_invariants() == []
            s.play(agent.choose(s))
        assert s.check_invariants() == []
        assert s.turns == 10 * players  # everyone had 10 turns
        for t in zones(s)["tray"]:
            for lane in range(5):
                column = t[lane * 5:(lane + 1) * 5]
                filled = [v for v in column if v >= 0]
                assert column[:len(filled)] == filled and len(filled) <= 5


def test_winnings_are_hidden_until_the_end(game):
    s = _explode_blue(game, ("BB...",))
    s.play("explode the blue group of 3")
    assert s.view(1)["zones"]["winnings"][0] == {"hidden": 1}
    assert s.view(0)["zones"]["winnings"][0] == zones(s)["winnings"][0]
