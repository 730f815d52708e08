"""Variants: extend and override, with errors that point into the right file."""
from __future__ import annotations

import pytest

import regle
from conftest import GAMES


@pytest.fixture(autouse=True)
def games_on_search_path(monkeypatch):
    """These variants live in a temporary folder and extend the project's games: allowed by
    listing the games folder in REGLE_PATH, as a user would."""
    monkeypatch.setenv("REGLE_PATH", str(GAMES))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_side_five_board_checks_and_plays():
    game = regle.load(GAMES / "variants" / "cibles-side5.rules")
    s = game.new_game(seed=0)
    assert len(s.to_json()["zones"]["board"]) == 61
    assert s.to_json()["zones"]["board"].count(0) == 11
    from regle.runtime.agents import RandomAgent
    agent = RandomAgent(0)
    while not s.is_over:
        s.play(agent.choose(s))
        assert s.check_invariants() == []


def test_override_changes_a_param_and_keeps_the_rest(tmp_path):
    variant = write(tmp_path, "v.rules", f'extend "{GAMES / "eclats.rules"}"\noverride param merge_cap = 8\n')
    game = regle.load(variant)
    assert game.title == "Éclats" and game.new_game(seed=3).to_json()["zones"]["workshop"] == [[1, 2], [1, 2]]
    code = regle.compile_file(variant)
    assert "if a_ + b_ <= 8:" in code and "if a_ + b_ <= 9:" not in code


def test_overriding_something_absent_is_an_error_with_a_position(tmp_path):
    variant = write(tmp_path, "v.rules", f'extend "{GAMES / "eclats.rules"}"\n\noverride param merge_limit = 8\n')
    with pytest.raises(regle.RulesError) as info:
        regle.check_file(variant)
    d = info.value.diagnostics[0]
    assert (d.line, d.column) == (3, 16) and "has no param merge_limit to override" in d.message


def test_redeclaring_without_override_is_an_error(tmp_path):
    variant = write(tmp_path, "v.rules", f'extend "{GAMES / "eclats.rules"}"\nparam merge_cap = 8\n')
    with pytest.raises(regle.RulesError, match="(?s)already declared in .*write 'override param"):
        regle.check_file(variant)


def test_override_without_extend_is_an_error(tmp_path):
    f = write(tmp_path, "v.rules", (GAMES / "eclats.rules").read_text(encoding="utf-8") + "\noverride param places = 3\n")
    with pytest.raises(regle.RulesError, match="extends none"):
        regle.check_file(f)


def test_circular_extends_are_refused(tmp_path):
    write(tmp_path, "a.rules", 'extend "b.rules"\n')
    b = write(tmp_path, "b.rules", 'extend "a.rules"\n')
    with pytest.raises(regle.RulesError, match="circle of extends"):
        regle.check_file(b)


def test_missing_base_is_reported_at_the_extend(tmp_path):
    f = write(tmp_path, "v.rules", '\nextend "nope.rules"\n')
    with pytest.raises(regle.RulesError) as info:
        regle.check_file(f)
    d = info.value.diagnostics[0]
    assert d.line == 2 and "cannot read 'nope.rules'" in d.message


def test_an_override_that_breaks_the_base_points_into_the_base(tmp_path):
    base = write(tmp_path, "base.rules", (GAMES / "eclats.rules").read_text(encoding="utf-8"))
    variant = write(tmp_path, "v.rules", 'extend "base.rules"\noverride enum size { small, big }\n')
    with pytest.raises(regle.RulesError) as info:
        regle.check_file(variant)
    text = info.value.render()
    assert f"{base}:" in text and "'medium' is not a member of enum 'size'" in text


def test_overriding_a_step(tmp_path):
    variant = write(tmp_path, "v.rules", f'''extend "{GAMES / "eclats.rules"}"
/// In this variant one may only take.
override step act {{
  action take(v in market) "take {{v}}" {{
    require count(workshop[me]) < places
    move v from market to workshop[me]
    refill market from reserve up to market_size
  }}
  pass "pass"
}}
''')
    game = regle.load(variant)
    s = game.new_game(seed=0)
    assert all(str(m).startswith("take") for m in s.legal_moves())


def test_a_changed_base_changes_the_variant(tmp_path):
    base = write(tmp_path, "base.rules", (GAMES / "eclats.rules").read_text(encoding="utf-8"))
    variant = write(tmp_path, "v.rules", 'extend "base.rules"\noverride param turns_each = 25\n')
    first = regle.load(variant)
    base.write_text(base.read_text(encoding="utf-8").replace("param places = 4", "param places = 5"), encoding="utf-8")
    second = regle.load(variant)
    assert first is not second
    assert "== 5" in regle.compile_file(variant)


@pytest.mark.parametrize("path", sorted((GAMES / "variants").glob("*.rules")), ids=lambda p: p.stem)
def test_every_variant_checks_and_plays(path):
    regle.check_file(path)
    game = regle.load(path)
    from regle.runtime.agents import RandomAgent
    for seed in range(3):
        s = game.new_game(seed=seed)
        agent = RandomAgent(seed)
        while not s.is_over:
            s.play(agent.choose(s))
            assert s.check_invariants() == []
