"""regle serve: the JSON API in-process (moves, refusals, concurrent games, replays, what each
seat may see) and the page in a real browser (headless Chromium from the system packages,
driven by Selenium): each game loads, moves are played by clicking, a hidden zone stays hidden
from the other seat, and a screenshot of each game's page is left in artifacts/screenshots/."""
from __future__ import annotations

import json
import re
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import regle
from regle.web.server import make_server

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "artifacts" / "screenshots"
MAIN = ["eclats", "cibles", "explobilles", "pixies"]
CLASSICS = sorted(p.stem for p in (ROOT / "games" / "classics").glob("*.rules"))


def _path(name: str) -> Path:
    main = ROOT / "games" / f"{name}.rules"
    return main if main.exists() else ROOT / "games" / "classics" / f"{name}.rules"


class Served:
    def __init__(self, name: str, seats=None, players=None, game=None):
        self.game = game if game is not None else regle.load(_path(name))
        self.server = make_server(self.game, port=0, seats=seats, players=players)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def call(self, method: str, path: str, body=None, raw: bytes | None = None, token: str | None = None,
             headers: dict | None = None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        sent = {"Content-Type": "application/json"}
        if token:
            sent["X-Regle-Token"] = token
        sent.update(headers or {})
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def new(self, body=None) -> dict:
        """A new game: its id and a token per human seat ({seat: token})."""
        status, made = self.call("POST", "/api/games", body or {})
        assert status == 200, made
        tokens = {i["seat"]: i["token"] for i in made["invites"]}
        if made["token"]:
            tokens[made["seat"]] = made["token"]
        return {"id": made["id"], "tokens": tokens}

    def page(self, sid: str, token: str | None = None, after: int | None = None) -> dict:
        status, page = self.call("GET", f"/api/games/{sid}" + (f"?after={after}" if after is not None else ""),
                                 token=token)
        assert status == 200, page
        return page

    def play(self, sid: str, token: str | None, move, version: int | None = None):
        if version is None:
            version = self.page(sid, token)["version"]
        return self.call("POST", f"/api/games/{sid}/play", {"move": move, "version": version}, token=token)

    def settled(self, sid: str, token: str | None = None, timeout: float = 30) -> dict:
        """The game once no agent is to play (they play on the server's worker)."""
        import time
        end = time.monotonic() + timeout
        page = self.page(sid, token)
        while page["agent_to_play"] and not page["paused"] and time.monotonic() < end:
            page = self.page(sid, token, after=page["version"])
        return page

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def served():
    made = []

    def serve(name, **kw):
        s = Served(name, **kw)
        made.append(s)
        return s
    yield serve
    for s in made:
        s.close()


def test_api_plays_refuses_and_keeps_games_apart(served):
    s = served("cibles", seats=["human", "human"])
    status, info = s.call("GET", "/api/game")
    assert status == 200 and info["title"] == "Cibles"
    a = s.new({"seed": 1})
    b = s.new({"seed": 2})
    ida, p1, p2 = a["id"], a["tokens"][0], a["tokens"][1]
    page = s.page(ida, p1)
    assert page["current"] == 0 and page["viewer"] == 0 and page["moves"] and "<svg" in page["html"]
    first = page["moves"][0]
    assert first["preview"], "a line move previews the cells it changes"
    status, after = s.play(ida, p1, first["text"], page["version"])
    assert status == 200 and after["current"] == 1 and after["last"]["text"] == first["text"]
    assert after["version"] == page["version"] + 1
    assert s.page(b["id"], b["tokens"][0])["turn"] == 1  # the other game did not move
    # refusals leave the state as it was
    before = s.page(ida, p2)
    assert s.play(ida, p1, "b1-ne")[0] == 409  # not P1's turn
    assert s.play(ida, p2, "nonsense")[0] == 422
    assert s.play(ida, p2, [1])[0] == 400
    assert s.call("POST", f"/api/games/{ida}/play", raw=b"{not json", token=p2)[0] == 400
    assert s.call("POST", f"/api/games/{ida}/play", {"move": "x"}, token=p2)[0] == 400  # no version
    assert s.play(ida, None, before["moves"][0]["text"])[0] == 403  # a spectator cannot play
    assert s.play(ida, b["tokens"][1], before["moves"][0]["text"], before["version"])[0] == 403  # another game's
    assert s.call("GET", "/api/games/unknown")[0] == 404
    assert s.call("GET", "/api/nothing")[0] == 404
    assert s.call("POST", "/api/games", {"players": 7})[0] == 400
    assert s.call("POST", "/api/games", {"seats": ["human", "wizard"]})[0] == 400
    assert s.page(ida, p2)["html"] == before["html"]
    # a move by its action id
    move = before["moves"][0]
    assert s.play(ida, p2, move["id"], before["version"])[1]["last"]["text"] == move["text"]


def test_agents_answer_and_a_page_for_a_seat_shows_only_its_view(served):
    s = served("lostcities")  # human P1, random P2
    made = s.new({"seed": 3})
    sid, mine_token = made["id"], made["tokens"][0]
    assert list(made["tokens"]) == [0]  # the agent's seat has no token
    mine = s.page(sid, mine_token)
    theirs = s.page(sid)  # a spectator
    state = s.server.hub.get(sid).state
    hand = [s.game.namespace["show_value"]("item:card", v) for v in state.z_hand[0]]
    assert all(f">{card}<" in mine["html"] for card in hand)
    assert not any(f">{card}<" in theirs["html"] for card in hand) and not theirs["moves"]
    assert "deck" in mine["html"] and "44 hidden" in mine["html"]
    move = next(m for m in mine["moves"] if m["text"].startswith("discard"))
    s.play(sid, mine_token, move["text"])
    s.play(sid, mine_token, "draw")
    after = s.settled(sid, mine_token)
    assert after["current"] == 0 and len(after["log"]) == 4  # the random agent answered (play, draw)


def test_replays_of_a_simulated_game_and_of_a_saved_state(served, tmp_path):
    from regle.simulate import simulate
    s = served("eclats")
    records, _seconds = simulate(str(_path("eclats")), 1, 2, ["greedy", "random"], seed=4, jobs=1)
    record = records[0] if isinstance(records, list) else records
    sid = s.call("POST", "/api/replay", {"record": record})[1]["id"]
    page = s.page(sid)
    assert page["paused"] and page["agents_only"]
    while not page["over"]:  # a spectator steps through a game of agents, one decision at a time
        version = page["version"]
        assert s.call("POST", f"/api/games/{sid}/control", {"step": True})[0] == 200
        page = s.page(sid, after=version)
    assert page["winners"] == record["winners"]
    state = s.game.new_game(seed=9)
    state.play(state.legal_moves()[0])
    made = s.call("POST", "/api/replay", {"state": state.to_json()})[1]
    assert s.page(made["id"], made["token"])["current"] == state.current_player
    assert s.call("POST", "/api/replay", {"state": {"format": "nope"}})[0] == 400


def test_every_game_draws_for_every_seat(served):
    for name in MAIN + CLASSICS:
        s = served(name, seats=["human"] * regle.load(_path(name)).players.start)
        made = s.new({"seed": 1})
        for token in [None, *made["tokens"].values()]:
            page = s.page(made["id"], token)
            assert page["html"] and page["title"] == s.game.title


# ---- a real browser ------------------------------------------------------------------------------
def _browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra has it)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip("headless Chromium is not installed: apt-get install chromium chromium-driver "
                    "(.ci/run installs them)")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def waiting(browser, seconds: float = 30, **options):
    """A Selenium wait that looks every 0.1 s: at Selenium's 0.5 s, a wait that the page meets at
    once still slept half a second, and a game played by clicks waits twice a move (the browser
    tests here, in test_web_boards.py and in test_studio.py wait with it)."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(browser, seconds, poll_frequency=0.1, **options)


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for this module's tests (their waits: :func:`waiting`)."""
    b = _browser()
    yield b
    b.quit()


def _click_a_move(browser, By):
    """Click a cell or an item that narrows the moves, when there is one, then the first move.
    A click on an empty cell where one move places plays it at once: that move is returned."""
    pointable = browser.find_elements(By.CSS_SELECTOR, ".cell.pointable, .item.pointable")
    if pointable:
        browser.execute_script("document.body.dataset.played = ''")
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", pointable[0])
        played = browser.execute_script("return document.body.dataset.played || ''")
        if played:
            return played
    buttons = browser.find_elements(By.CSS_SELECTOR, "#moves button")
    assert buttons, "a legal move to click"
    text = buttons[0].get_attribute("data-move")  # the move's notation (a label may merge copies)
    buttons[0].click()
    return text


@pytest.mark.parametrize("name", MAIN + CLASSICS)
def test_the_page_plays_by_clicks(browser, served, name):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    s = served(name)
    browser.get(s.url + "/")
    wait = waiting(browser, 30)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#moves button")))
    for _ in range(3):
        if browser.find_elements(By.CSS_SELECTOR, "#status") and "Game over" in browser.find_element(By.ID, "status").text:
            break
        before = browser.find_element(By.ID, "log").text
        played = _click_a_move(browser, By)
        wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before)
        # the move clicked was played; the log shows copies alike without their count, as the
        # move buttons do ("play Y$ #1" reads "play Y$")
        shown = re.sub(r" #\d+$", "", played)
        assert f"P1: {shown}" in browser.find_element(By.ID, "log").text
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button")
                   or "Game over" in b.find_element(By.ID, "status").text)
    assert browser.find_element(By.ID, "error").text == ""
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("name", ["pixies", "lostcities"])
def test_the_other_seats_page_keeps_a_hand_hidden(browser, served, name):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    s = served(name, seats=["human"] * regle.load(_path(name)).players.start)
    made = s.new({"seed": 2})
    sid, link = made["id"], f"{s.url}/?game={made['id']}#t={made['tokens'][1]}"
    browser.get(link)
    waiting(browser, 30).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".seat")))
    first_seat = browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"]').get_attribute("innerHTML")
    state = s.server.hub.get(sid).state
    import random as _random
    rng = _random.Random(1)

    def secrets_of_first_seat() -> int:
        view = state.view(0)["zones"]
        zones = sum(len(view[z[0]][0]) for z in s.game.zones if z[4])
        grids = sum(1 for g in s.game.grids if g[4] for v in view[g[0]][0] if v >= 0)
        return zones + grids
    for _ in range(200):  # play on until the first seat holds something private
        if secrets_of_first_seat() or state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    assert secrets_of_first_seat()
    browser.get("about:blank")
    browser.get(link)
    waiting(browser, 30).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".seat")))
    first_seat = browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="0"]').get_attribute("innerHTML")
    truth = state.view(0)["zones"]  # what P1 sees of their own places
    checked = 0
    for zone, _attr, per, _hidden, private, kind, *_ in s.game.zones:
        if private:
            for v in truth[zone][0]:
                assert f">{s.game.namespace['show_value'](kind, v)}<" not in first_seat
                checked += 1
    for grid, _attr, per, _hidden, private, kind, *_ in s.game.grids:
        if private:
            filled = sum(1 for v in truth[grid][0] if v >= 0)
            assert first_seat.count("piece unseen") >= filled
            checked += filled
    assert checked and ("hidden" in first_seat or "unseen" in first_seat)


def test_the_rules_lexer_knows_every_game_and_the_html_rulebook_shows_board_and_text():
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    from pygments.token import Error, Keyword, String

    from regle.rulebook import rulebook
    lexer = get_lexer_for_filename("x.rules")
    assert lexer.name == "regle" and get_lexer_by_name("regle").name == "regle"  # the entry point
    for path in (ROOT / "games").rglob("*.rules"):
        tokens = list(lexer.get_tokens(path.read_text(encoding="utf-8")))
        assert not [t for t in tokens if t[0] is Error], path
    tokens = list(lexer.get_tokens('/// doc\ngame "x" {\n  players 2\n}\n'))
    assert (String.Doc, "/// doc") in tokens and (Keyword, "game") in tokens
    page = rulebook(ROOT / "games" / "cibles.rules", "html")
    assert "The start position" in page and page.count("<svg") == 1 and 'data-cell="36"' in page
    assert "The rules text" in page and 'style="color' in page  # highlighted inline
    assert "<script" not in page


def test_the_rulebook_reads_seats_as_people_name_them_and_lets_first():
    text = (ROOT / "docs" / "rules" / "othello.md").read_text(encoding="utf-8")
    assert "a piece of **white** (P2)" in text and "Put `white`" not in text
    hex_text = (ROOT / "docs" / "rules" / "hex.md").read_text(encoding="utf-8")
    assert "and **red** (P1) wins" in hex_text
    tictactoe = (ROOT / "docs" / "rules" / "tictactoe.md").read_text(encoding="utf-8")
    assert "and the player wins" in tictactoe
    pixies = (ROOT / "docs" / "rules" / "pixies.md").read_text(encoding="utf-8")
    assert pixies.index("Let `spot` be") < pixies.index("Allowed only if cell `spot` of `face_up[me]` is empty")


@pytest.mark.parametrize("name", ["tictactoe", "kalah"])
def test_a_whole_game_is_played_by_clicks_only(browser, served, name):
    """Click a tinted cell, then the move it leaves (or the first), until the game is over."""
    from selenium.webdriver.common.by import By
    s = served(name)
    browser.get(s.url + "/")
    wait = waiting(browser, 30)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
    for _ in range(200):
        if "Game over" in browser.find_element(By.ID, "status").text:
            break
        before = browser.find_element(By.ID, "log").text
        _click_a_move(browser, By)
        wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button")
                   or "Game over" in b.find_element(By.ID, "status").text)
    assert "Game over" in browser.find_element(By.ID, "status").text
    assert s.server.hub.sessions and all(x.state.is_over for x in s.server.hub.sessions.values())


def test_rulebook_conditions_read_as_words():
    from regle.dsl.parser import parse
    from regle.rulebook import said

    def cond(text):
        return said(parse(f'game "x" {{\n  players 2\n}}\nend when {text}\n', "x.rules").decls[-1].cond)
    assert cond("count(pile) == 0") == "`pile` is empty"
    assert cond("count(pile) >= 3 and not is_empty(board, c)") == \
        "the number of elements in `pile` is at least `3` and cell `c` of `board` is not empty"
    assert cond("any(points[p] >= 6 for p in players)") == "for some `p` in `players`, `points[p]` is at least `6`"
    assert cond("max(pile) > 2") == "`max(pile)` is more than `2`"
    assert cond("has(pile, 3)") == "`has(pile, 3)`"  # no plain phrase as exact: the code


def test_two_people_play_from_two_pages(served):
    """P1 and P2 in two browser windows: each page sees the other's move without reloading."""
    from selenium.webdriver.common.by import By
    b1 = _browser()
    b2 = _browser()
    try:
        s = served("tictactoe", seats=["human", "human"])
        made = s.new({"seed": 1})
        b1.get(f"{s.url}/?game={made['id']}#t={made['tokens'][0]}")
        b2.get(f"{s.url}/?game={made['id']}#t={made['tokens'][1]}")
        waiting(b1, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
        _click_a_move(b1, By)
        waiting(b2, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
        assert "P1:" in b2.find_element(By.ID, "log").text
    finally:
        b1.quit()
        b2.quit()


def test_a_cibles_push_is_played_by_clicking_the_marble_then_its_target(browser, served):
    """A click on a piece lists every move from it (named after it), its targets are tinted, and a
    click on a target that one move reaches plays that move."""
    from selenium.webdriver.common.by import By
    s = served("cibles", seats=["human", "human"])
    made = s.new({"seed": 1})
    browser.get(f"{s.url}/?game={made['id']}#t={made['tokens'][0]}")
    wait = waiting(browser, 30)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
    page = s.page(made["id"], made["tokens"][0])
    names = s.game.cell_names("board")
    first = page["moves"][0]["text"]  # e.g. "b1-ne": the marble at b1 pushed north-east
    head = first.split("-")[0]
    cell = names.index(head)
    tinted = browser.find_elements(By.CSS_SELECTOR, ".cell.pointable")
    starts = {int(el.get_attribute("data-cell")) for el in tinted}
    assert cell in starts
    # only where a move starts is tinted: no cell a push merely changes
    assert starts == {names.index(m["text"].split("-")[0]) for m in page["moves"]}
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                           browser.find_element(By.CSS_SELECTOR, f'.cell[data-cell="{cell}"]'))
    listed = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#moves button")]
    expected = [m["text"] for m in page["moves"] if m["text"].split("-")[0] == head]
    assert listed == expected and any(" x" in t for t in listed) or listed == expected
    targets = browser.find_elements(By.CSS_SELECTOR, ".cell.target")
    assert targets
    # the target that exactly one of the listed moves reaches
    one = None
    for el in targets:
        c = int(el.get_attribute("data-cell"))
        reaching = [m for m in page["moves"] if m["text"] in expected
                    and any(p[2] == c for p in m["preview"] + m["cells"])]
        if len(reaching) == 1:
            one, move = el, reaching[0]
            break
    assert one is not None
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", one)
    wait.until(lambda b: f"P1: {move['text']}" in b.find_element(By.ID, "log").text)


def test_the_game_over_panel_shows_the_winner_and_the_scores(browser, served):
    from selenium.webdriver.common.by import By
    s = served("pixies", seats=["random", "random"])
    sid = s.call("POST", "/api/games", {"seed": 4})[1]["id"]
    session = s.server.hub.get(sid)
    with session.lock:
        session.pace = 0.0
    page = s.page(sid)
    while not page["over"]:
        page = s.page(sid, after=page["version"])
    browser.get(f"{s.url}/?game={sid}")
    waiting(browser, 30).until(lambda b: b.find_element(By.ID, "result").is_displayed())
    panel = browser.find_element(By.ID, "result").text
    winners = " and ".join(f"P{w + 1}" for w in page["winners"]) + " won" if page["winners"] else "A draw"
    assert winners in panel
    for p, score in enumerate(page["result"]["scores"]):
        assert f"P{p + 1} {score}" in panel
    assert page["result"]["parts"][0], "the scoring clauses' parts"
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "pixies-over.png"))


def test_an_all_agent_game_is_watched_to_its_end_through_the_page(browser, served):
    from selenium.webdriver.common.by import By
    s = served("connect4", seats=["random", "random"])
    browser.get(s.url + "/")
    wait = waiting(browser, 30)
    wait.until(lambda b: "Turn" in b.find_element(By.ID, "status").text or "Game over" in b.find_element(By.ID, "status").text)
    sid = next(iter(s.server.hub.sessions))
    assert s.page(sid)["agents_only"] and s.page(sid)["pace"] > 0  # at a pace people can follow
    # pause, step one move, then let them play on
    browser.find_element(By.ID, "pause").click()
    wait.until(lambda b: b.find_element(By.ID, "step-one").is_displayed())
    version = s.page(sid)["version"]
    browser.find_element(By.ID, "step-one").click()
    wait.until(lambda b: s.page(sid)["version"] == version + 1)
    with s.server.hub.get(sid).lock:
        s.server.hub.get(sid).pace = 0.05
    browser.find_element(By.ID, "pause").click()
    waiting(browser, 60).until(lambda b: "Game over" in b.find_element(By.ID, "status").text)
    assert browser.find_element(By.ID, "result").is_displayed()
    log = browser.find_element(By.ID, "log").text
    assert log.count("P1:") + log.count("P2:") >= 1


def test_undo_against_an_agent_and_history_of_past_positions(served):
    s = served("tictactoe", seats=["human", "random"])
    made = s.new({"seed": 5})
    sid, me = made["id"], made["tokens"][0]
    first = s.page(sid, me)
    assert not first["can_undo"]
    s.play(sid, me, "b2", first["version"])
    after = s.settled(sid, me)
    assert len(after["log"]) == 2 and after["can_undo"]
    # the position after the first move, as it was: the agent's reply not yet there
    past = s.call("GET", f"/api/games/{sid}?at=1", token=me)[1]
    assert past["past"] and past["at"] == 1 and not past["moves"] and past["log"] == after["log"]
    assert s.call("GET", f"/api/games/{sid}?at=9", token=me)[0] == 400
    status, back = s.call("POST", f"/api/games/{sid}/undo", {}, token=me)
    assert status == 200 and back["log"] == [] and back["current"] == 0 and back["moves"]
    assert s.call("POST", f"/api/games/{sid}/undo", {})[0] == 403  # a spectator takes nothing back
    # between two people, a take-back is a request the other accepts or declines
    t = served("tictactoe", seats=["human", "human"])
    both = t.new({"seed": 1})
    gid, a, b = both["id"], both["tokens"][0], both["tokens"][1]
    t.play(gid, a, "a1")
    status, asked = t.call("POST", f"/api/games/{gid}/undo", {}, token=a)
    assert status == 200 and asked["takeback"] == {"by": 0} and asked["log"] == ["P1: a1"]
    assert t.call("POST", f"/api/games/{gid}/takeback", {"accept": True}, token=a)[0] == 409  # not the asker
    declined = t.call("POST", f"/api/games/{gid}/takeback", {"accept": False}, token=b)[1]
    assert declined["takeback"] is None and declined["log"] == ["P1: a1"]
    t.call("POST", f"/api/games/{gid}/undo", {}, token=a)
    accepted = t.call("POST", f"/api/games/{gid}/takeback", {"accept": True}, token=b)[1]
    assert accepted["log"] == [] and accepted["current"] == 0
    t.play(gid, a, "b2")
    t.call("POST", f"/api/games/{gid}/undo", {}, token=a)
    t.play(gid, b, "a1")  # a move answers the request: it lapses
    assert t.page(gid, a)["takeback"] is None and len(t.page(gid, a)["log"]) == 2


def test_the_rulebook_is_served_beside_the_game(served):
    s = served("connect4")
    with urllib.request.urlopen(s.url + "/rules", timeout=30) as response:
        page = response.read().decode()
    assert "Connect Four" in page and "<svg" in page


ARRIVAL_WATCH = """
window.arrived = false;
if (window.arrivalWatch) window.arrivalWatch.disconnect();
window.arrivalWatch = new MutationObserver(records => {
  for (const r of records) {
    const el = r.target;
    if (el.classList && el.classList.contains("token") && el.classList.contains("arrive")) window.arrived = true;
  }
});
window.arrivalWatch.observe(document.body, {subtree: true, attributes: true, attributeFilter: ["class"]});
"""


def test_a_whole_tictactoe_game_is_played_with_the_keyboard(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    s = served("tictactoe", seats=["human", "human"])
    made = s.new({"seed": 1})
    browser.get(f"{s.url}/?game={made['id']}#t={made['tokens'][0]}")
    wait = waiting(browser, 30)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
    other = made["tokens"][1]
    cell = browser.find_element(By.CSS_SELECTOR, '.cell[tabindex="0"]')
    assert cell.get_attribute("data-name") == "a1"  # the first cell where a move starts
    browser.execute_script("arguments[0].focus()", cell)
    active = browser.switch_to.active_element
    active.send_keys(Keys.ARROW_RIGHT)  # a1 -> b1
    assert browser.switch_to.active_element.get_attribute("data-name") == "b1"
    browser.switch_to.active_element.send_keys(Keys.ARROW_UP)  # b1 -> b2 (rows go up the board)
    assert browser.switch_to.active_element.get_attribute("data-name") == "b2"
    plays = 0
    while "Game over" not in browser.find_element(By.ID, "status").text and plays < 5:
        version = s.page(made["id"], other)["version"]
        focused = browser.switch_to.active_element
        if "cell" not in (focused.get_attribute("class") or "") or "pointable" not in focused.get_attribute("class"):
            focused = browser.find_element(By.CSS_SELECTOR, ".cell.pointable")
            browser.execute_script("arguments[0].focus()", focused)
            focused = browser.switch_to.active_element
        played = focused.get_attribute("data-name")
        # the new mark arrives: a redraw may replace the animated token at once, so a watcher
        # set before the move remembers whether any token was ever marked as arriving
        browser.execute_script(ARRIVAL_WATCH)
        focused.send_keys(Keys.ENTER)  # the one move that places there is played, as a click plays it
        wait.until(lambda b: s.page(made["id"], other)["version"] == version + 1)
        assert s.page(made["id"], other)["log"][-1] == f"P1: {played}"
        wait.until(lambda b: b.execute_script("return window.arrived === true"))
        plays += 1
        page = s.page(made["id"], other)
        if page["over"]:
            break
        s.play(made["id"], other, page["moves"][-1]["text"], page["version"])  # the other seat answers
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button")
                   or "Game over" in b.find_element(By.ID, "status").text)
        # the focus is back on the board, on the cell played
        wait.until(lambda b: b.switch_to.active_element.get_attribute("data-name") == played)
    assert plays >= 3 and s.page(made["id"])["log"]


def test_the_hex_page_fits_a_phone_without_sideways_scrolling(browser, served):
    from selenium.webdriver.common.by import By
    s = served("hex")
    browser.set_window_size(390, 844)
    try:
        browser.get(s.url + "/")
        waiting(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "svg.board"))
        inner = browser.execute_script("return window.innerWidth")
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        assert wide <= inner, (wide, inner)
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "hex-phone.png"))
    finally:
        browser.set_window_size(1400, 1000)


def test_the_end_outlines_the_winning_line_or_chain(served):
    from regle.web.highlight import deciding_cells
    c4 = regle.load(_path("connect4"))
    state = c4.new_game(seed=1)
    for column in "1 2 1 2 1 2 1".split():  # P1 drops four in the first column
        state.play(column)
    assert state.is_over and state.winners == [0]
    cells = deciding_cells(c4, state)
    names = c4.cell_names("board")
    assert sorted(names[c] for _g, _i, c in cells) == ["a1", "a2", "a3", "a4"]
    hexgame = regle.load(_path("hex"))
    state = hexgame.new_game(seed=1)
    names = hexgame.cell_names("board")
    for row in range(1, 12):  # P1 fills column a (south to north); P2 answers on column k
        state.play(f"a{row}")
        if not state.is_over:
            state.play(f"k{row}" if row != 1 else "k1")
    assert state.winners == [0]
    chain = sorted(names[c] for _g, _i, c in deciding_cells(hexgame, state))
    assert chain == sorted(f"a{r}" for r in range(1, 12))
    s = served("tictactoe", seats=["human", "human"])
    made = s.new({"seed": 1})
    p1, p2 = made["tokens"][0], made["tokens"][1]
    for who, cell in ((p1, "a1"), (p2, "a2"), (p1, "b1"), (p2, "b2"), (p1, "c1")):
        assert s.play(made["id"], who, cell)[0] == 200
    over = s.page(made["id"])
    ttt = s.game.cell_names("board")
    assert over["over"] and sorted(ttt[c] for _g, _i, c in over["result"]["cells"]) == ["a1", "b1", "c1"]


def test_new_game_in_one_window_moves_both_windows(served):
    """Two windows of Lost Cities: Play again in one, and the other follows to the new game with
    its own seat (each page asks for changes by a long poll, as the page script does)."""
    from selenium.webdriver.common.by import By
    b1, b2 = _browser(), _browser()
    try:
        s = served("lostcities", seats=["human", "human"])
        made = s.new({"seed": 1})
        b1.get(f"{s.url}/?game={made['id']}#t={made['tokens'][0]}")
        b2.get(f"{s.url}/?game={made['id']}#t={made['tokens'][1]}")
        for b in (b1, b2):
            waiting(b, 30).until(lambda x: "You are" in x.find_element(By.ID, "you").text)
        b1.find_element(By.ID, "again").click()
        waiting(b1, 30).until(lambda x: made["id"] not in x.current_url)
        new_id = b1.current_url.split("game=")[1].split("#")[0]
        waiting(b2, 30).until(lambda x: f"game={new_id}" in x.current_url)
        assert "You are P2" in b2.find_element(By.ID, "you").text
        assert b1.current_url.split("#t=")[1] != b2.current_url.split("#t=")[1]  # each its own seat
    finally:
        b1.quit()
        b2.quit()


def test_a_file_of_simulated_games_offers_each_game_to_watch_at_a_chosen_pace(browser, served, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    from regle.simulate import simulate
    s = served("tictactoe")
    records, _ = simulate(str(_path("tictactoe")), 3, 2, ["random", "random"], seed=7, jobs=1)
    games_file = tmp_path / "games.jsonl"
    games_file.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    browser.get(s.url + "/")
    wait = waiting(browser, 30)
    wait.until(lambda b: "Turn" in b.find_element(By.ID, "status").text)
    browser.find_element(By.ID, "replay").send_keys(str(games_file))
    wait.until(lambda b: b.find_element(By.ID, "replay-choice").is_displayed())
    options = [o.text for o in Select(browser.find_element(By.ID, "replay-pick")).options]
    assert len(options) == 3 and options[2].startswith(f"seed {records[2]['seed']}")
    Select(browser.find_element(By.ID, "replay-pick")).select_by_index(2)
    browser.find_element(By.ID, "replay-go").click()
    wait.until(lambda b: b.find_element(By.ID, "pause").is_displayed())
    sid = browser.current_url.split("game=")[1].split("#")[0]
    assert s.server.hub.get(sid).seed == records[2]["seed"] and s.server.hub.get(sid).paused
    Select(browser.find_element(By.ID, "pace")).select_by_value("0.1")
    wait.until(lambda b: s.server.hub.get(sid).pace == 0.1)
    browser.find_element(By.ID, "pause").click()  # play: the recorded game, to its end
    waiting(browser, 60).until(lambda b: "Game over" in b.find_element(By.ID, "status").text)
    assert s.server.hub.get(sid).state.winners == records[2]["winners"]


def test_connect_four_page_outlines_the_winning_line_and_numbers_its_lanes(browser, served):
    from selenium.webdriver.common.by import By
    s = served("connect4", seats=["human", "human"])
    made = s.new({"seed": 1})
    for k, column in enumerate("1 2 1 2 1 2 1".split()):
        assert s.play(made["id"], made["tokens"][k % 2], column)[0] == 200
    browser.get(f"{s.url}/?game={made['id']}#t={made['tokens'][0]}")
    waiting(browser, 30).until(lambda b: b.find_element(By.ID, "result").is_displayed())
    won = browser.find_elements(By.CSS_SELECTOR, ".cell.won")
    assert sorted(el.get_attribute("data-name") for el in won) == ["a1", "a2", "a3", "a4"]
    assert [t.text for t in browser.find_elements(By.CSS_SELECTOR, "svg text.lane")] == [str(i) for i in range(1, 8)]
    assert "P1 (X) won" in browser.find_element(By.ID, "result").text


def test_copies_alike_are_one_choice_said_so(browser, served):
    """Lost Cities' wager cards of one colour are alike in every way the rules read: the engine
    tells their moves apart by a count, and the page offers them as one choice."""
    from selenium.webdriver.common.by import By
    s = served("lostcities", seats=["human", "human"])
    for seed in range(40):
        made = s.new({"seed": seed})
        moves = s.page(made["id"], made["tokens"][0])["moves"]
        if any(m["text"].endswith(" #2") for m in moves):
            break
    else:
        pytest.skip("no deal of two alike cards in 40 seeds")
    browser.get(f"{s.url}/?game={made['id']}#t={made['tokens'][0]}")
    waiting(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
    labels = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#moves button")]
    assert any(label.endswith("alike)") for label in labels) and not any(" #" in label for label in labels)
    merged = next(b for b in browser.find_elements(By.CSS_SELECTOR, "#moves button") if b.text.endswith("alike)"))
    played = merged.get_attribute("data-move")
    merged.click()
    plain = played.rsplit(" #", 1)[0]  # the history names it without the count too
    waiting(browser, 30).until(lambda b: f"P1: {plain}" in b.find_element(By.ID, "log").text)
    assert " #" not in browser.find_element(By.ID, "log").text


def test_a_round_ending_shows_a_summary_with_the_scores_then(browser, served):
    """Pixies announces each round's end: the page shows what was said with the scores just
    after it (as this seat saw them), lists it in the history, and puts it away on Continue."""
    from selenium.webdriver.common.by import By
    s = served("pixies")  # a human and a random agent
    made = s.new({"seed": 5})
    sid, token = made["id"], made["tokens"][0]
    page = s.settled(sid, token)
    while "announced" not in page:
        assert not page["over"] and page["moves"], "a round ends before the game does"
        status, page = s.play(sid, token, page["moves"][0]["id"], page["version"])
        assert status == 200, page
        page = s.settled(sid, token)
    at, text = page["announced"][0]
    assert text == "Round 1 of 3 ends" and page["standing"]["at"] == at
    then = s.server.hub.get(sid).states[at]  # said during move number `at`
    assert page["standing"]["scores"] == then.scores_seen_by(0)
    assert [name for name, _ in page["standing"]["parts"][0]] == ["banked", "this_round"]
    browser.get(f"{s.url}/?game={sid}#t={token}")
    wait = waiting(browser, 30)
    wait.until(lambda b: b.find_element(By.ID, "summary").is_displayed())
    panel = browser.find_element(By.ID, "summary").text
    assert "Round 1 of 3 ends" in panel
    for p, score in enumerate(page["standing"]["scores"]):
        assert f"P{p + 1} {score}" in panel
    assert "banked" in panel
    assert "Round 1 of 3 ends" in browser.find_element(By.ID, "log").text  # in the history too
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "pixies-round.png"))
    browser.find_element(By.ID, "summary-close").click()
    wait.until(lambda b: not b.find_element(By.ID, "summary").is_displayed())


@pytest.mark.parametrize("name, how", [("connect4", "fall"), ("othello", "turn"), ("cibles", "slide")])
def test_moves_are_animated_as_they_happen(browser, served, name, how):
    """A disc falls down its lane, discs flanked turn over, a marble stepping to a free cell
    slides there: told by what the move changed, shown once by the page."""
    from selenium.webdriver.common.by import By
    from regle.web.sessions import _motion
    s = served(name, seats=["human", "human"])
    made = s.new({"seed": 1})
    sid, me = made["id"], made["tokens"][0]
    state = s.server.hub.get(sid).state
    kinds = {"fall": lambda m: m[3] == "in" and m[5], "turn": lambda m: m[3] == "turn",
             "slide": lambda m: m[3] == "in" and m[4] is not None}
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        motion = _motion(s.game, state.view(None), after.view(None))
        if any(kinds[how](m) for m in motion):
            break
    else:
        pytest.fail(f"no first move of {name} that shows '{how}'")
    status, page = s.play(sid, me, state.notation(move))
    assert status == 200 and page["last"]["motion"] == motion
    browser.get(f"{s.url}/?game={sid}#t={me}")
    # the token animated, or (a redraw may replace it at once) the kinds the page last showed
    waiting(browser, 30).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, f"svg g.token.{how}") or how in (
            b.find_element(By.TAG_NAME, "body").get_attribute("data-animated") or "").split())


def test_take_back_against_an_agent_and_step_through_the_history_in_the_page(browser, served):
    from selenium.webdriver.common.by import By
    s = served("tictactoe", seats=["human", "random"])
    made = s.new({"seed": 2})
    sid, me = made["id"], made["tokens"][0]
    s.play(sid, me, "b2")
    page = s.settled(sid, me)
    s.play(sid, me, page["moves"][0]["id"], page["version"])
    page = s.settled(sid, me)
    assert len(page["log"]) == 4
    from selenium.common.exceptions import StaleElementReferenceException
    browser.get(f"{s.url}/?game={sid}#t={me}")
    # the page draws its log again on each answer: a read that meets an element just replaced
    # is tried again
    wait = waiting(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    log = lambda b: [li.text for li in b.find_elements(By.CSS_SELECTOR, "#log li")]  # noqa: E731
    wait.until(lambda b: len(log(b)) == 4)
    # back through the history, one position at a time, and forward to the game as it is
    browser.find_element(By.ID, "back").click()
    wait.until(lambda b: b.find_element(By.ID, "history-bar").is_displayed())
    assert "After move 3 of 4" in browser.find_element(By.ID, "history-where").text
    assert browser.find_element(By.CSS_SELECTOR, "#log button.current").text == page["log"][2]
    browser.find_element(By.ID, "back").click()
    wait.until(lambda b: "After move 2 of 4" in b.find_element(By.ID, "history-where").text)
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()
    wait.until(lambda b: not b.find_element(By.ID, "history-bar").is_displayed())
    # take back: to this seat's last decision, the agent's reply undone with it
    browser.find_element(By.ID, "undo").click()
    wait.until(lambda b: len(log(b)) == 2)
    assert s.page(sid, me)["log"] == page["log"][:2] and s.page(sid, me)["current"] == 0
    wait.until(lambda b: "your move" in b.find_element(By.ID, "status").text)


def test_board_sides_are_labelled_with_what_lies_beyond_them():
    """Cibles' targets are drawn beyond the sides they belong to, with their values; Hex's
    sides are named; the targets are not drawn again above the board."""
    from regle.web.render import table_html
    game = regle.load(_path("cibles"), backend="python")
    state = game.new_game(seed=1)
    html = table_html(state, None)
    assert html.count('class="side"') == 6 and "north east · target value 2" in html
    assert 'data-zone="target"' not in html and "target empty" in html
    marble = state.copy()
    marble.z_target[3] = [1]  # a marble of P2 lodged in the north target
    drawn = table_html(marble, None)
    assert drawn.count('class="side-piece"') == 1 and drawn.count("target empty") == 5
    hexed = table_html(regle.load(_path("hex"), backend="python").new_game(), None)
    assert hexed.count('class="side"') == 4 and ">north<" in hexed


def test_a_wall_is_built_by_clicking_its_place_on_the_board(browser, tmp_path):
    """A grid of walls is drawn on its board: the places an action may take are pointed at, a
    click on one builds its wall (the one move there), and the wall built is drawn standing."""
    from selenium.webdriver.common.by import By
    from test_walls import RACE
    rules = tmp_path / "race.rules"
    rules.write_text(RACE, encoding="utf-8")
    server = make_server(regle.load(rules, backend="python"), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        wait = waiting(browser, 30)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
        place = browser.find_element(By.CSS_SELECTOR, '.cell.wall.pointable[data-grid="fence"][data-name="c2|c3"]')
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", place)
        wait.until(lambda b: "P1: c2|c3" in b.find_element(By.ID, "log").text)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, '.cell.wall.up[data-grid="fence"][data-name="c2|c3"]'))
        assert browser.find_element(By.ID, "error").text == ""
    finally:
        server.shutdown()
        server.server_close()
