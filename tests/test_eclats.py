"""Éclats (GAMES.md section 4): one test per rule, each able to fail."""
from __future__ import annotations

import pytest

import regle
from conftest import moves, position

TOTAL = 90  # 9 x (1 + 2 + 3 + 4): the glass in play


def load(game, **changes):
    """A position that keeps the glass total by padding the 'spent' pile with 1s."""
    data = position(game, **changes)
    zones = data["zones"]
    total = sum(zones["supply"]) + sum(zones["market"]) + sum(zones["reserve"])
    total += sum(sum(w) for w in zones["workshop"])
    zones["spent"] = [1] * (TOTAL - total)
    placed = set(zones["contracts"]) | {c for d in zones["delivered"] for c in d}
    zones["box"] = [c for c in range(18) if c not in placed]  # each contract in one place
    return game.state_from_json(data)


def contract_id(game, first, second):
    ns = game.namespace
    for i in range(len(ns["C_contract__first"])):
        if (ns["C_contract__first"][i], ns["C_contract__second"][i]) == (first, second):
            return i
    raise KeyError((first, second))


# ---- setup ------------------------------------------------------------------------------
def test_setup_workshops_market_reserve_contracts(eclats):
    for seed in range(20):
        s = eclats.new_game(players=2, seed=seed)
        data = s.to_json()["zones"]
        assert data["workshop"] == [[1, 2], [1, 2]]
        assert len(data["market"]) == 4 and len(data["reserve"]) == 28
        assert sorted(data["market"] + data["reserve"]).count(1) == 7  # two 1s went to workshops
        sizes = sorted(eclats.namespace["C_contract__size"][c] for c in data["contracts"])
        assert sizes == [0, 0, 1, 1, 2, 2]
        assert s.current_player == 0
    first = eclats.new_game(seed=1).to_json()["zones"]["reserve"]
    assert any(eclats.new_game(seed=k).to_json()["zones"]["reserve"] != first for k in range(2, 6))


# ---- take ----------------------------------------------------------------------------------
def test_take_into_free_place_refills_market_from_reserve_front(eclats):
    s = load(eclats, market=[3, 4, 4, 1], reserve=[2, 3], workshop=[[1, 2], [1, 2]])
    assert "take 3" in moves(s) and "take 4" in moves(s)
    assert moves(s).count("take 4") == 1  # equal fragments are one choice
    s.play("take 3")
    z = s.to_json()["zones"]
    assert z["workshop"][0] == [1, 2, 3]
    assert z["market"] == [4, 4, 1, 2] and z["reserve"] == [3]


def test_take_with_full_workshop_replaces_an_assembly(eclats):
    s = load(eclats, market=[3, 4, 4, 1], reserve=[], workshop=[[1, 2, 6, 6], [1, 2]])
    legal = moves(s)
    assert "take 3" not in legal
    assert "take 3 replacing 6" in legal and "take 3 replacing 1" in legal
    spent_before = len(s.to_json()["zones"]["spent"])
    s.play("take 3 replacing 6")
    z = s.to_json()["zones"]
    assert sorted(z["workshop"][0]) == [1, 2, 3, 6]
    assert len(z["spent"]) == spent_before + 1 and z["spent"][-1] == 6


def test_market_shrinks_when_reserve_is_empty(eclats):
    s = load(eclats, market=[3, 4], reserve=[], workshop=[[1, 2], [1, 2]])
    s.play("take 3")
    assert s.to_json()["zones"]["market"] == [4]


# ---- merge -----------------------------------------------------------------------------------
def test_merge_sums_two_assemblies_and_frees_a_place(eclats):
    s = load(eclats, market=[], reserve=[], workshop=[[4, 5, 1], [1, 2]])
    assert "merge 4+5" in moves(s)
    s.play("merge 4+5")
    assert sorted(s.to_json()["zones"]["workshop"][0]) == [1, 9]


def test_merge_is_capped_at_nine(eclats):
    s = load(eclats, market=[], reserve=[], workshop=[[5, 5, 9], [1, 2]])
    assert "merge 5+5" not in moves(s)
    s = load(eclats, market=[], reserve=[], workshop=[[5, 4], [1, 2]])
    assert "merge 4+5" in moves(s)


def test_merge_needs_two_assemblies(eclats):
    s = load(eclats, market=[2], reserve=[], workshop=[[3], [1, 2]])
    assert not any(m.startswith("merge") for m in moves(s))
    s = load(eclats, market=[], reserve=[], workshop=[[3, 3], [1, 2]])
    assert "merge 3+3" in moves(s)


# ---- deliver ---------------------------------------------------------------------------------
def test_deliver_needs_exactly_the_two_values(eclats):
    c25 = contract_id(eclats, 2, 5)
    for workshop, ok in (([7], False), ([3, 4], False), ([2, 2, 5], True), ([2, 5], True), ([5], False)):
        s = load(eclats, market=[], reserve=[], workshop=[workshop, [1]], contracts=[c25])
        assert ("deliver 2+5 (3 pt)" in moves(s)) == ok, workshop


def test_delivery_scores_and_takes_the_contract_from_both(eclats):
    c24 = contract_id(eclats, 2, 4)
    c12 = contract_id(eclats, 1, 2)
    s = load(eclats, market=[3], reserve=[], workshop=[[2, 4, 1], [2, 4]], contracts=[c24, c12])
    s.play("deliver 2+4 (3 pt)")
    z = s.to_json()["zones"]
    assert z["workshop"][0] == [1]
    assert z["delivered"][0] == [c24] and c24 not in z["contracts"]
    assert s.scores == [3, 0]
    assert s.current_player == 1
    assert "deliver 2+4 (3 pt)" not in moves(s)  # P2 holds 2 and 4 but the contract is gone


def test_same_values_contract_needs_two_assemblies(eclats):
    c44 = contract_id(eclats, 4, 4)
    s = load(eclats, market=[], reserve=[], workshop=[[4, 1], [1]], contracts=[c44])
    assert "deliver 4+4 (4 pt)" not in moves(s)
    s = load(eclats, market=[], reserve=[], workshop=[[4, 4], [1]], contracts=[c44])
    assert "deliver 4+4 (4 pt)" in moves(s)


# ---- pass ------------------------------------------------------------------------------------
def test_pass_only_when_nothing_else_is_legal(eclats):
    c79 = contract_id(eclats, 7, 9)
    s = load(eclats, market=[], reserve=[], workshop=[[9, 8], [1, 2]], contracts=[c79])
    assert moves(s) == ["pass"]
    s.play("pass")
    assert s.turns == 1 and s.current_player == 1  # a pass counts as a turn
    assert "pass" not in moves(s)  # P2 can merge 1+2


# ---- end -------------------------------------------------------------------------------------
def test_game_ends_when_all_contracts_are_taken(eclats):
    c12 = contract_id(eclats, 1, 2)
    s = load(eclats, market=[3], reserve=[], workshop=[[1, 2], [1, 2]], contracts=[c12])
    s.play("deliver 1+2 (1 pt)")
    assert s.is_over and s.current_player is None and s.legal_moves() == []
    assert s.winners == [0]


def test_game_ends_after_twenty_turns_each(eclats):
    s = load(eclats, turns=38)
    s.play(s.legal_moves()[0])
    assert not s.is_over and s.turns == 39
    s.play(s.legal_moves()[0])
    assert s.is_over and s.turns == 40


def test_every_random_game_lasts_at_most_forty_turns(eclats):
    from regle.runtime.agents import RandomAgent
    for seed in range(30):
        s = eclats.new_game(seed=seed)
        agent = RandomAgent(seed)
        while not s.is_over:
            s.play(agent.choose(s))
        assert s.turns <= 40
        assert s.turns == 40 or not s.to_json()["zones"]["contracts"]


def test_tie_is_a_draw_and_most_points_win(eclats):
    c12, c13 = contract_id(eclats, 1, 2), contract_id(eclats, 1, 3)
    s = load(eclats, market=[], reserve=[], workshop=[[1, 2], [1, 3]], contracts=[c12, c13])
    s.play("deliver 1+2 (1 pt)")
    s.play("deliver 1+3 (1 pt)")
    assert s.is_over and s.scores == [1, 1] and s.winners == []
    c24 = contract_id(eclats, 2, 4)
    s = load(eclats, market=[], reserve=[], workshop=[[1, 2], [2, 4]], contracts=[c12, c24])
    s.play("deliver 1+2 (1 pt)")
    s.play("deliver 2+4 (3 pt)")
    assert s.winners == [1]


def test_leftover_assemblies_are_worth_nothing(eclats):
    s = load(eclats, market=[], reserve=[], workshop=[[9, 9, 9, 9], [1]])
    assert s.scores == [0, 0]


# ---- invariants over many games ---------------------------------------------------------------
@pytest.mark.parametrize("seed0", range(0, 300, 100))
def test_glass_is_conserved_in_random_games(eclats, seed0):
    from regle.runtime.agents import RandomAgent
    for seed in range(seed0, seed0 + 100):
        s = eclats.new_game(seed=seed)
        agent = RandomAgent(seed)
        while not s.is_over:
            assert s.check_invariants() == []
            for w in s.to_json()["zones"]["workshop"]:
                assert len(w) <= 4 and all(1 <= v <= 9 for v in w)
            s.play(agent.choose(s))
        assert s.check_invariants() == []
        total_points = sum(s.scores)
        assert total_points == sum(eclats.namespace["C_contract__points"][c]
                                   for d in s.to_json()["zones"]["delivered"] for c in d)


def test_invariant_check_can_fail(eclats):
    s = eclats.new_game(seed=0)
    data = s.to_json()
    data["zones"]["market"].append(4)  # glass from nowhere
    with pytest.raises(regle.StateError, match="glass_conserved"):
        eclats.state_from_json(data)
