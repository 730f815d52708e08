"""``regle studio``: the rules playground. Through its API (mistakes positioned, a clean change
restarts the game from the same seed, the changes and a simulation of both versions, a save
that writes only the file served and only with the studio's key) and in headless Chromium as an
author uses it: typing a mistake shows it in the text, undoing it goes on with the game, changing a
param shows the diff and the simulation, Save writes the file, another tab writes nothing."""
from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path

import pytest

from regle.web.studio import make_studio

ROOT = Path(__file__).resolve().parent.parent
CONNECT4 = ROOT / "games" / "classics" / "connect4.rules"


class Studio:
    def __init__(self, path: Path, **kw):
        self.server = make_studio(path, port=0, **kw)
        self.port = self.server.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.key = self.server.bench.key
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def call(self, method: str, path: str, body=None, key: str | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if key:
            headers["X-Regle-Studio"] = key
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        data = json.loads(response.read())
        conn.close()
        return response.status, data

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def studio(tmp_path):
    made = []

    def make(text: str | None = None, name: str = "connect4.rules", **kw) -> tuple[Studio, Path]:
        path = tmp_path / name
        path.write_text(CONNECT4.read_text() if text is None else text)
        s = Studio(path, **kw)
        made.append(s)
        return s, path
    yield make
    for s in made:
        s.close()


def test_mistakes_come_back_at_their_positions_and_a_clean_change_restarts_from_the_same_seed(studio):
    s, path = studio()
    status, source = s.call("GET", "/api/studio/source")
    assert status == 200 and source["text"] == path.read_text() and source["problems"] == []
    assert "end" in source["grammar"]["keywords"] and "in_a_row" in source["grammar"]["builtins"]
    first = source["game"]
    broken = source["text"].replace("players 2", "players two")
    status, result = s.call("POST", "/api/studio/check", {"text": broken})
    line = broken.split("\n").index("  players two") + 1
    assert status == 200
    assert [(p["line"], p["column"]) for p in result["problems"]] == [(line, 11)]
    assert "expected a number" in result["problems"][0]["message"]
    assert result["game"] == first  # the game goes on with the last text that checked
    # a clean change: a new game, on the new text, from the same seed
    five = source["text"].replace("in_a_row(board, me, 4)", "in_a_row(board, me, 5)")
    status, result = s.call("POST", "/api/studio/check", {"text": five})
    assert result["problems"] == [] and result["game"]["id"] != first["id"] and result["playing"] == five
    assert result["unsaved"] is True
    _, game = s.call("GET", f"/api/games/{result['game']['id']}")
    assert game["version"] == 0
    assert s.server.bench.hub.get(result["game"]["id"]).seed == 1
    # the same text again: the same game (nothing restarts while nothing changed)
    _, again = s.call("POST", "/api/studio/check", {"text": five})
    assert again["game"] == result["game"]
    # a mistake, then the text being played again (a check answered late, say): still that game
    s.call("POST", "/api/studio/check", {"text": broken})
    _, back = s.call("POST", "/api/studio/check", {"text": five})
    assert back["problems"] == [] and back["game"] == result["game"]


def test_changes_and_a_quick_simulation_compare_the_text_with_the_saved_file(studio):
    s, path = studio()
    text = path.read_text()
    _, same = s.call("POST", "/api/studio/changes", {"text": text})
    assert same == {"changes": [], "why": None}
    fewer = text.replace("param rows = 6", "param rows = 4")
    _, found = s.call("POST", "/api/studio/changes", {"text": fewer})
    assert any("rows" in c for c in found["changes"])
    status, sim = s.call("POST", "/api/studio/simulate", {"text": fewer, "games": 100})
    assert status == 200 and sim["games"] == 100
    rows = {r["label"]: r for r in sim["rows"]}
    assert rows["draw rate"]["significant"]  # 28 cells against 42: a board filled without a line
    assert rows["draw rate"]["old"].startswith("0.0%") and not rows["draw rate"]["new"].startswith("0.0%")
    _, broken = s.call("POST", "/api/studio/changes", {"text": "game {"})
    assert broken["changes"] is None and "mistakes" in broken["why"]
    status, refused = s.call("POST", "/api/studio/simulate", {"text": fewer, "games": 10 ** 6})
    assert status == 400


def test_save_writes_the_served_file_only_and_only_with_the_key(studio, tmp_path):
    s, path = studio()
    before = path.read_text()
    changed = before.replace("param rows = 6", "param rows = 5")
    status, refused = s.call("POST", "/api/studio/save", {"text": changed})
    assert status == 403 and path.read_text() == before
    status, refused = s.call("POST", "/api/studio/save", {"text": changed}, key="guessed")
    assert status == 403 and path.read_text() == before
    other = tmp_path / "other.rules"
    for extra in ({"path": str(other)}, {"file": "../other.rules"}, {"name": "other"}):
        status, refused = s.call("POST", "/api/studio/save", {"text": changed, **extra}, key=s.key)
        assert status == 400 and "saves only connect4.rules" in refused["error"]
    assert not other.exists() and path.read_text() == before
    status, done = s.call("POST", "/api/studio/save", {"text": changed}, key=s.key)
    assert status == 200 and path.read_text() == changed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["connect4.rules"]  # no temporary file left
    _, state = s.call("POST", "/api/studio/check", {"text": changed})
    assert state["unsaved"] is False


def test_a_file_that_does_not_check_opens_with_its_mistakes_and_no_game(studio):
    s, path = studio(text="game \"Broken\" {\n  players 2\n}\nparam x = \n")
    _, source = s.call("GET", "/api/studio/source")
    assert source["game"] is None and (4, 10) in [(p["line"], p["column"]) for p in source["problems"]]
    status, refused = s.call("GET", "/api/game")
    assert status == 409 and "mistakes" in refused["error"]


def test_the_command_refuses_a_missing_file_and_names_a_shipped_game(tmp_path, capsys):
    from regle.cli import main
    with pytest.raises(SystemExit) as missing:
        main(["studio", str(tmp_path / "nothing.rules"), "--no-browser"])
    assert "no such file" in str(missing.value)
    with pytest.raises(SystemExit) as shipped:
        main(["studio", "connect4", "--no-browser"])
    assert "ships with regle" in str(shipped.value) and "copy it first" in str(shipped.value)


# ---- in a real browser ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    from test_web import _browser
    b = _browser()
    yield b
    b.quit()


def _editor(browser, script: str, *args):
    return browser.execute_script("const cm = document.querySelector('.CodeMirror').CodeMirror; " + script, *args)


def _open(browser, s: Studio, key: bool = True):
    from selenium.webdriver.common.by import By
    from test_web import waiting
    browser.get(s.base + "/" + (f"#k={s.key}" if key else ""))
    wait = waiting(browser, 30)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, ".CodeMirror")
               and b.find_element(By.ID, "game-frame").get_attribute("src"))
    # the editor holds the rules text before anything is typed into it (under load it can
    # take a moment after the page: typing earlier would edit an empty text)
    wait.until(lambda b: _editor(b, "return cm.getValue();").strip() != "")
    return wait


def test_typing_a_mistake_shows_it_in_the_text_and_fixing_it_goes_on_with_the_game(browser, studio):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    s, path = studio()
    wait = _open(browser, s)
    first = browser.find_element(By.ID, "game-frame").get_attribute("src")
    line = path.read_text().split("\n").index("  players 2")
    _editor(browser, "cm.focus(); cm.setCursor(arguments[0], 11);", line)  # after "players 2"
    typing = browser.find_element(By.CSS_SELECTOR, ".CodeMirror textarea")
    typing.send_keys("x")  # "players 2x": typed, as an author would
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#problems li"))
    problem = browser.find_element(By.CSS_SELECTOR, "#problems li").text
    assert problem.startswith(f"{line + 1}:"), problem
    marked = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, ".CodeMirror-lint-mark-error"))
    assert marked[0].text.strip() in ("x", "2x")  # underlined where the mistake is
    assert _editor(browser, "return cm.lineInfo(arguments[0]).gutterMarkers !== null;", line)
    assert browser.find_element(By.ID, "game-frame").get_attribute("src") == first  # still the old game
    typing.send_keys(Keys.BACKSPACE)  # the text the game plays again: that game goes on
    wait.until(lambda b: not b.find_elements(By.CSS_SELECTOR, "#problems li"))
    assert browser.find_element(By.ID, "game-frame").get_attribute("src") == first
    browser.switch_to.frame(browser.find_element(By.ID, "game-frame"))
    try:
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))  # the new game plays
    finally:
        browser.switch_to.default_content()


def test_changing_a_param_shows_the_changes_and_the_simulation_then_save_writes_the_file(browser, studio):
    from selenium.webdriver.common.by import By
    s, path = studio()
    wait = _open(browser, s)
    assert browser.find_element(By.ID, "save").get_attribute("disabled")  # nothing to save yet
    _editor(browser, "cm.setValue(cm.getValue().replace('param rows = 6', 'param rows = 4'));")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#changes li"))
    assert "rows" in browser.find_element(By.ID, "changes").text
    wait.until(lambda b: "decisions" in b.find_element(By.ID, "sim").text)
    figures = browser.find_element(By.ID, "sim").text
    assert "P1 win rate" in figures and "%" in figures and "*" in figures  # more draws: significant
    assert "games of each" in browser.find_element(By.ID, "sim-status").text
    assert "unsaved" in browser.find_element(By.ID, "saved-state").text
    browser.find_element(By.ID, "save").click()
    wait.until(lambda b: b.find_element(By.ID, "saved-state").text == "saved")
    assert "param rows = 4" in path.read_text()
    assert path.read_text() == _editor(browser, "return cm.getValue();")


def test_a_second_tab_cannot_write_any_file(browser, studio, tmp_path):
    from selenium.webdriver.common.by import By
    s, path = studio()
    _open(browser, s)  # the first tab, with the key
    before = path.read_text()
    browser.switch_to.new_window("tab")
    try:
        _open(browser, s, key=False)  # a second tab, opened by its address alone
        assert browser.find_element(By.ID, "save").get_attribute("disabled")
        other = tmp_path / "elsewhere.rules"
        results = browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const send = (body, key) => fetch('/api/studio/save', {method: 'POST',
                headers: Object.assign({'Content-Type': 'application/json'}, key ? {'X-Regle-Studio': key} : {}),
                body: JSON.stringify(body)}).then((r) => r.status);
            Promise.all([send({text: 'x'}), send({text: 'x', path: arguments[0]}), send({text: 'x'}, 'guess')])
                .then(done);""", str(other))
        assert results == [403, 400, 403]
        assert not other.exists() and path.read_text() == before
    finally:
        browser.close()
        browser.switch_to.window(browser.window_handles[0])


def test_the_studio_plays_you_against_a_searching_agent_unless_told(tmp_path):
    from regle.web.studio import STUDIO_OPPONENT, Workbench
    path = tmp_path / "mine.rules"
    path.write_text((ROOT / "games" / "classics" / "tictactoe.rules").read_text(encoding="utf-8"), encoding="utf-8")
    bench, told = Workbench(path), Workbench(path, seats=["human", "greedy"])
    try:
        assert STUDIO_OPPONENT.startswith("mcts") and bench.hub.seats == ["human", STUDIO_OPPONENT]
        assert told.hub.seats == ["human", "greedy"]
    finally:
        for b in (bench, told):
            b.hub.stop()


LOST_CITIES = ROOT / "games" / "classics" / "lostcities.rules"


def test_the_inspector_shows_the_whole_state_or_a_seats_view_and_only_to_the_studio(studio):
    s, _ = studio(LOST_CITIES.read_text(), "lostcities.rules")
    status, whole = s.call("GET", "/api/studio/inspect?seat=all", key=s.key)
    assert status == 200 and whole["seen_by"] == "everything"
    rows = {(r["name"], p["place"]): p for r in whole["rows"] for p in r["places"]}
    assert rows[("deck", "")]["count"] == 44 and "hidden" not in rows[("deck", "")]["text"]  # every card
    assert rows[("hand", "P2")]["count"] == 8 and "hidden" not in rows[("hand", "P2")]["text"]
    status, seen = s.call("GET", "/api/studio/inspect?seat=0", key=s.key)
    rows = {(r["name"], p["place"]): p for r in seen["rows"] for p in r["places"]}
    assert rows[("hand", "P2")]["text"] == "8 hidden" and rows[("deck", "")]["text"] == "44 hidden"
    assert seen["position"]["seed"] is None  # a seat's view keeps the seed to itself
    assert whole["moves"] and whole["position"]["to play"] == "P1"
    # asked again at the same version (the page asks every second): the version alone
    _, again = s.call("GET", f"/api/studio/inspect?seat=all&after={whole['version']}", key=s.key)
    assert again == {"version": whole["version"], "game": whole["game"], "unchanged": True}
    # without the studio's key: nothing (a seat's page never gets the whole state)
    assert s.call("GET", "/api/studio/inspect?seat=all")[0] == 403
    assert s.call("GET", "/api/studio/inspect?seat=all", key="guess")[0] == 403
    assert s.call("GET", "/api/studio/inspect?seat=7", key=s.key)[0] == 400


def test_any_legal_move_is_made_by_hand_for_any_seat(studio):
    s, _ = studio(seats=["human", "human"])
    _, before = s.call("GET", "/api/studio/inspect", key=s.key)
    for expected_seat in (1, 2, 1):  # whoever is to play, the author plays for them
        _, now = s.call("GET", "/api/studio/inspect", key=s.key)
        assert now["position"]["to play"] == f"P{expected_seat}"
        status, made = s.call("POST", "/api/studio/move", {"game": now["game"], "move": now["moves"][0],
                                                            "version": now["version"]}, key=s.key)
        assert status == 200 and made["version"] == now["version"] + 1
    _, after = s.call("GET", "/api/studio/inspect", key=s.key)
    assert after["position"]["decisions"] == before["position"]["decisions"] + 3
    status, refused = s.call("POST", "/api/studio/move", {"game": after["game"], "move": "nonsense",
                                                          "version": after["version"]}, key=s.key)
    assert status == 422
    assert s.call("POST", "/api/studio/move", {"move": after["moves"][0], "version": after["version"]})[0] == 403


def test_you_play_any_seat_against_the_opponent_chosen(studio):
    s, _ = studio()
    status, made = s.call("POST", "/api/studio/seats", {"opponent": "random", "as": 1}, key=s.key)
    assert status == 200 and made["seats"] == ["random", "human"] and made["game"]["seat"] == 1
    status, made = s.call("POST", "/api/studio/seats", {"opponent": "human", "as": 0}, key=s.key)
    assert made["seats"] == ["human", "human"] and [i["seat"] for i in made["game"]["invites"]] == [1]
    assert s.call("POST", "/api/studio/seats", {"opponent": "nonsense"}, key=s.key)[0] == 400
    assert s.call("POST", "/api/studio/seats", {"opponent": "random", "as": 5}, key=s.key)[0] == 400
    assert s.call("POST", "/api/studio/seats", {"opponent": "random"})[0] == 403


def test_every_version_played_is_kept_and_any_two_compared(studio):
    s, path = studio()
    text = path.read_text()
    for rows in ("5", "4"):
        s.call("POST", "/api/studio/check", {"text": text.replace("param rows = 6", f"param rows = {rows}")})
    s.call("POST", "/api/studio/check", {"text": text.replace("param rows = 6", "param rows = oops")})  # not played
    _, listed = s.call("GET", "/api/studio/versions")
    assert [v["n"] for v in listed["versions"]] == [1, 2, 3] and listed["versions"][0]["saved"] is True
    _, said = s.call("POST", "/api/studio/versions/diff", {"from": 1, "to": 3})
    assert said["changes"] == ["param rows: 6 -> 4"]
    _, said = s.call("POST", "/api/studio/versions/diff", {"from": 2, "to": 2})
    assert said["changes"] == []
    assert s.call("POST", "/api/studio/versions/diff", {"from": 1, "to": 9})[0] == 400


def test_the_inspector_shows_a_zone_and_plays_a_move_by_hand_in_the_page(browser, studio):
    from selenium.webdriver.common.by import By
    s, _ = studio(LOST_CITIES.read_text(), "lostcities.rules", seats=["human", "human"])
    wait = _open(browser, s)
    browser.find_element(By.ID, "tab-inspector").click()
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, '#fields tr[data-name="hand"]'))
    hands = browser.find_elements(By.CSS_SELECTOR, '#fields tr[data-name="hand"]')
    state = s.server.bench.hub.sessions[s.server.bench.game_link["id"]].state
    first = state.GAME.namespace["show_value"]("item:card", state.to_json()["zones"]["hand"][0][0])
    assert len(hands) == 2 and first in hands[0].text  # a zone's contents, card by card
    decisions = state.decisions
    buttons = browser.find_elements(By.CSS_SELECTOR, "#hand-moves button")
    assert buttons and buttons[0].text.startswith(("play", "discard"))
    buttons[0].click()  # a move made by hand, for the seat to play
    wait.until(lambda b: s.server.bench.hub.sessions[s.server.bench.game_link["id"]].state.decisions == decisions + 1)
    wait.until(lambda b: "after 1 decisions" in b.find_element(By.ID, "inspect-where").text)
    # the versions tab lists the text played
    browser.find_element(By.ID, "tab-versions").click()
    wait.until(lambda b: "v1" in b.find_element(By.ID, "version-list").text)
