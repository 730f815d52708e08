"""Boards as players use them, in Chromium: one click where the piece goes (a chooser where
several moves place at one cell), cells named for screen readers and moves said in a live
region, and a dark mode that follows the system's."""
from __future__ import annotations

import random

import pytest

import regle

from test_web import browser, served, waiting  # noqa: F401 - the fixtures: a server per test, one browser per module


def _open(browser, url):
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import StaleElementReferenceException
    browser.get(url + "/")
    # a redraw replaces the table: an element found just before it is stale, so look again
    wait = waiting(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
    return wait, By


def _click(browser, el) -> None:
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", el)


def _cell(browser, By, name: str):
    return browser.find_element(By.CSS_SELECTOR, f'.cell[data-name="{name}"]')


def test_one_click_on_an_empty_point_places_a_go_stone(browser, served):
    s = served("go")
    wait, By = _open(browser, s.url)
    _click(browser, _cell(browser, By, "e5"))  # one click, no button
    wait.until(lambda b: "P1: e5" in b.find_element(By.ID, "log").text)
    assert browser.find_element(By.ID, "error").text == ""
    # the stone is there, and a screen reader names the point and what stands on it
    wait.until(lambda b: _cell(b, By, "e5").get_attribute("aria-label") == "e5, black")
    # the latest move is said in the live region (the agent's reply, once it came)
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#log li")) == 2)
    said = browser.find_element(By.ID, "said").get_attribute("textContent")
    assert said.startswith("P2: ") and said == browser.find_elements(By.CSS_SELECTOR, "#log li")[-1].text


def test_hex_is_played_to_its_end_by_board_clicks_alone(browser, served):
    """On a board of 5 (a game of a dozen clicks; 11's took a minute of clicks and redraws)."""
    from test_web import _path
    text = _path("hex").read_text(encoding="utf-8")
    assert "param size = 11" in text
    s = served("hex", game=regle.loads(text.replace("param size = 11", "param size = 5"), name="hex5"))
    wait, By = _open(browser, s.url)
    rng = random.Random(5)
    clicks = 0
    for _ in range(200):
        if "Game over" in browser.find_element(By.ID, "status").text:
            break
        before = browser.find_element(By.ID, "log").text
        cells = browser.find_elements(By.CSS_SELECTOR, ".cell.pointable")
        assert cells, "an empty cell to click"
        _click(browser, rng.choice(cells))
        clicks += 1
        wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button")
                   or "Game over" in b.find_element(By.ID, "status").text)
    assert "Game over" in browser.find_element(By.ID, "status").text
    assert all(x.state.is_over for x in s.server.hub.sessions.values())
    assert clicks >= 5 and browser.find_element(By.ID, "error").text == ""


def test_several_moves_at_one_cell_are_offered_in_a_chooser_there(browser, served):
    s = served("pentago")
    wait, By = _open(browser, s.url)
    _click(browser, _cell(browser, By, "c3"))
    chooser = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#chooser"))[0]
    offered = [b.get_attribute("data-move") for b in chooser.find_elements(By.CSS_SELECTOR, "button[data-move]")]
    assert len(offered) == 8 and all(t.startswith("c3 ") for t in offered)  # the marble, then a quarter turned
    # the side list narrows to the same moves, as the second way
    assert sorted(b.get_attribute("data-move") for b in browser.find_elements(By.CSS_SELECTOR, "#moves button")) \
        == sorted(offered)
    chooser.find_elements(By.CSS_SELECTOR, "button[data-move]")[3].click()
    wait.until(lambda b: f"P1: {offered[3]}" in b.find_element(By.ID, "log").text)
    assert not browser.find_elements(By.CSS_SELECTOR, "#chooser")
    # Escape closes a chooser without playing
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#moves button"))
    empty = next(c for c in browser.find_elements(By.CSS_SELECTOR, ".cell.pointable"))
    _click(browser, empty)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#chooser"))
    browser.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))")
    assert not browser.find_elements(By.CSS_SELECTOR, "#chooser")


def test_every_cell_has_a_name_for_screen_readers(browser, served):
    s = served("tictactoe")
    wait, By = _open(browser, s.url)
    # read in one script, not element by element: the page may draw the board again between two
    # reads, and an element found before that is stale after it
    labels = dict(browser.execute_script(
        "return [...document.querySelectorAll('.cell')].map(c => [c.dataset.name, c.getAttribute('aria-label')])"))
    assert len(labels) == 9 and all(label == f"{name}, empty" for name, label in labels.items())
    assert browser.execute_script("return document.querySelector('svg.board').getAttribute('role')") == "group"
    hidden = browser.execute_script(
        "return [...document.querySelectorAll('svg .name')].map(t => t.getAttribute('aria-hidden'))")
    assert hidden and all(h == "true" for h in hidden)  # not one image read as "a1 O b1 c1..."
    _click(browser, _cell(browser, By, "b2"))
    label_of_b2 = "return document.querySelector('.cell[data-name=\"b2\"]')?.getAttribute('aria-label')"
    wait.until(lambda b: b.execute_script(label_of_b2) not in ("b2, empty", None))
    assert browser.execute_script(label_of_b2).startswith("b2, ")


def test_the_page_follows_the_systems_dark_mode(browser, served):
    s = served("tictactoe")

    def background() -> tuple[int, ...]:
        css = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
        return tuple(int(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])

    _open(browser, s.url)
    assert sum(background()) > 600  # light paper by default
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        assert sum(background()) < 150
        cell = browser.execute_script("return getComputedStyle(document.querySelector('svg .cell')).fill")
        assert "239" not in cell  # the light cell colour (#efe6d2) is not kept
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})


def _drawn_at(browser, By, name: str) -> tuple[float, float]:
    box = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
        _cell(browser, By, name))
    return box[0], box[1]


def test_each_seat_sees_the_board_from_its_side(browser, served):
    """Chess for Black is drawn turned: Black's pieces at the bottom, h8 at the bottom left, as
    a board seen from Black's chair; White's page and a spectator's keep a1 at the bottom left."""
    from selenium.webdriver.common.by import By
    s = served("chess", seats=["human", "human"])
    made = s.new({"seed": 1})
    for seat, (bottom_left, top_right) in ((0, ("a1", "h8")), (1, ("h8", "a1"))):
        browser.get("about:blank")  # (a new hash alone would not load the other seat's page)
        browser.get(f"{s.url}/?game={made['id']}#t={made['tokens'][seat]}")
        waiting(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".cell"))
        (x0, y0), (x1, y1) = _drawn_at(browser, By, bottom_left), _drawn_at(browser, By, top_right)
        assert x0 < x1 and y0 > y1, (seat, (x0, y0), (x1, y1))
        label = _cell(browser, By, "e8" if seat == 1 else "e1").get_attribute("aria-label")
        assert label == ("e8, black king" if seat == 1 else "e1, white king")


def test_the_side_a_seat_sits_at_is_the_rules_to_say():
    import re

    from regle.web.render import table_html
    from test_web import _path
    text = _path("breakthrough").read_text(encoding="utf-8").replace("seats black at north, white at south",
                                                                 "seats black at west, white at east")
    assert "at west" in text
    game = regle.loads(text, name="sideways", backend="python")
    state = game.new_game(seed=1)

    def at(viewer, name):
        found = re.search(r'<rect class="cell[^"]*"[^>]*data-name="%s"[^>]*x="([\d.]+)" y="([\d.]+)"' % name,
                          table_html(state, viewer))
        return float(found.group(1)), float(found.group(2))
    # Black, at the west side facing east, has the a-file along the bottom, a8 at its left hand
    # and a1 at its right; White, at the east side, the h-file, h1 at its left and h8 at its right
    assert at(0, "a8")[1] > at(0, "h8")[1] and at(0, "a8")[0] < at(0, "a1")[0]
    assert at(0, "a8")[1] == at(0, "a1")[1]
    assert at(1, "h1")[1] > at(1, "a1")[1] and at(1, "h1")[0] < at(1, "h8")[0]
    assert at(None, "a1")[1] > at(None, "a8")[1] and at(None, "a1")[0] < at(None, "h1")[0]  # a spectator: as written


def test_the_list_is_folded_where_the_board_is_the_way_to_choose_and_numbered_without_gaps(browser, served):
    s = served("go")
    wait, By = _open(browser, s.url)
    listed = [b.get_attribute("data-move") for b in browser.find_elements(By.CSS_SELECTOR, "#moves button[data-move]")]
    assert listed == ["pass"]  # the 81 points are chosen on the board; the pass stays listed
    browser.find_element(By.ID, "show-moves").click()
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#moves button[data-move]")) == 82)
    # Éclats groups its moves by action under headings: the moves are numbered 1, 2, 3... all the same
    s = served("eclats")
    wait, By = _open(browser, s.url)
    assert browser.find_elements(By.CSS_SELECTOR, "#moves li.action")  # headings are there
    numbers = [int(li.get_attribute("value")) for li in browser.find_elements(By.CSS_SELECTOR, "#moves li:not(.action)")]
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_game_without_scores_shows_none():
    import regle
    from regle.web.render import table_html
    from test_web import _path
    hexed = table_html(regle.load(_path("hex"), backend="python").new_game(seed=1), 0)
    eclats = table_html(regle.load(_path("eclats"), backend="python").new_game(seed=1), 0)
    assert 'class="score"' not in hexed and eclats.count('class="score"') == 2


def test_a_finished_game_is_not_taken_back(served):
    s = served("tictactoe", seats=["human", "human"])
    made = s.new({"seed": 1})
    a, b = made["tokens"][0], made["tokens"][1]
    for token, cell in ((a, "a1"), (b, "a2"), (a, "b1"), (b, "b2"), (a, "c1")):  # P1 wins along the first row
        status, page = s.play(made["id"], token, cell)
        assert status == 200, page
    assert page["over"] and page["winners"] == [0] and not page["can_undo"]
    status, refused = s.call("POST", f"/api/games/{made['id']}/undo", {}, token=a)
    assert status == 409 and "over" in refused["error"]
    assert s.page(made["id"], a)["over"]  # the finished game stays finished


def test_pause_and_pace_are_offered_only_where_agents_play_each_other(browser, served):
    from selenium.webdriver.common.by import By
    s = served("tictactoe")  # you against a random agent
    _open(browser, s.url)
    assert not browser.find_element(By.ID, "agents").is_displayed()


def test_the_end_says_what_broke_a_tie():
    import regle
    from regle.web.sessions import tie_break
    from test_web import _path

    class Ended:
        def __init__(self, scores, winners):
            self.scores, self.winners = scores, winners
    go = regle.load(_path("go"), backend="python")
    assert tie_break(go, Ended([40, 40], [1])) == "a tie goes to white"  # ties white
    assert tie_break(go, Ended([41, 40], [0])) is None  # the score alone decided
    marbles = regle.load(_path("explobilles"), backend="python")
    assert tie_break(marbles, Ended([14, 14, 3], [0])) == "most count(tray[p]), then most count(tokens[p])"
    assert tie_break(marbles, Ended([14, 14, 3], [0, 1])) is None  # shared: nothing was broken


def test_a_seats_goal_sides_are_drawn_in_its_colour_when_the_rules_name_the_seat():
    # Hex ends with connected(board, red, south, north): the seat by name, not by number
    import re

    from regle.web.render import table_html
    from test_web import _path
    drawn = table_html(regle.load(_path("hex"), backend="python").new_game(seed=1), 0)
    colours = re.findall(r'data-name="([a-z]+\d+)"[^>]*style="stroke:([^;]+);', drawn)
    by_colour = {}
    for cell, colour in colours:
        by_colour.setdefault(colour, set()).add(cell)
    assert len(by_colour) == 2  # red's sides and blue's
    assert any({"a1", "k1"} <= cells or {"a1", "a11"} <= cells for cells in by_colour.values())


def test_cards_on_a_grid_carry_their_colour():
    # Pixies' face-up cards: a table whose colour column names colour words
    import re

    import regle
    from regle.web.render import item_colour, table_html
    from test_web import _path
    game = regle.load(_path("pixies"), backend="python")
    state = game.new_game(seed=1)
    while not re.search(r'<rect class="card"', table_html(state, 0)):
        state.play(state.legal[0])
    drawn = table_html(state, 0)
    edges = re.findall(r'<rect class="card"[^>]*style="stroke:([^;]+);', drawn)
    assert edges and all(e.startswith("#") for e in edges)
    cards = range(len(game.namespace["C_card__colour"]))
    assert set(edges) <= {item_colour(game.namespace, "item:card", v) for v in cards}


def test_check_and_checkmate_are_shown_in_the_rules_words(browser, served):
    """The rules' notices on the page: a banner in the game's words, the king outlined
    (``notice "check" ...`` in games/classics/chess.rules; nothing of chess in regle/web)."""
    from selenium.webdriver.common.by import By
    s = served("chess", seats=["human", "human"])
    for moves, word, king in ((("e2e4", "f7f5", "d1h5"), "check", "e8"),
                              (("f2f3", "e7e5", "g2g4", "d8h4"), "checkmate", "e1")):
        made = s.new({"seed": 1})
        for k, move in enumerate(moves):
            status, reply = s.play(made["id"], made["tokens"][k % 2], move)
            assert status == 200, reply
        browser.get("about:blank")
        browser.get(f"{s.url}/?game={made['id']}#t={made['tokens'][len(moves) % 2]}")
        waiting(browser, 30).until(lambda b: b.find_element(By.ID, "notices").text)
        assert browser.find_element(By.ID, "notices").text == word
        outlined = browser.find_elements(By.CSS_SELECTOR, ".cell.noticed")
        assert [el.get_attribute("data-name") for el in outlined] == [king]
    # a move later the check is answered, and the banner goes
    made = s.new({"seed": 1})
    for k, move in enumerate(("e2e4", "f7f5", "d1h5", "g7g6")):
        assert s.play(made["id"], made["tokens"][k % 2], move)[0] == 200
    assert s.page(made["id"], made["tokens"][0])["notices"] == []


def test_boards_are_drawn_as_their_games_are():
    """Chess checkered with figurines, draughts' kings crowned discs, Go's stones on the
    crossings of its lines: each from the rules (checkered, on points, figure), none from regle/web."""
    import re

    from regle.web.render import table_html
    chess = table_html(regle.load("games/classics/chess.rules", backend="python").new_game(seed=0), 0)
    dark = re.findall(r'class="cell dark[^"]*"[^>]*data-name="(\w+)"', chess)
    assert len(dark) == 32 and "a1" in dark and "h1" not in dark  # a1 dark, h1 light
    assert chess.count('class="figure"') == 32 and "♚" in chess and "♞" in chess
    assert '<text class="name"' not in chess and '>a</text>' in chess  # files along the bottom
    draughts = regle.load("games/classics/draughts.rules", backend="python")
    saved = draughts.new_game(seed=0).to_json()
    html = table_html(draughts.state_from_json(saved), 0)
    assert "♛" not in html and html.count('class="piece"') == 24  # men: plain discs
    saved["zones"]["board"][0] = 1  # a1's man crowned: piece(king, white)
    html = table_html(draughts.state_from_json(saved), 0)
    assert html.count("♛") == 1 and html.count('class="piece"') == 24  # a king: a disc with a crown
    go = regle.load("games/classics/go.rules", backend="python")
    s = go.new_game(seed=0)
    s.play("e5")
    html = table_html(s, 0)
    assert html.count('class="cell crossing"') == 81
    assert html.count('class="track"') == 18 and html.count('class="piece stone"') == 1  # 9 rows, 9 columns
    othello = table_html(regle.load("games/classics/othello.rules", backend="python").new_game(seed=0), 0)
    assert othello.count('class="cell grounded"') == 64 and "--ground:#2e7d32" in othello  # its green baize
    # the stone lies under its crossing, which is drawn over it (clicked and outlined there)
    assert html.index('class="piece stone"') < html.index('data-name="e5"')


def test_drawing_options_are_checked_where_they_stand():
    from compiler.generate import engine_source
    base = 'game "G" { players 2 }\nturn { step s { action a { } } }\nend when turns > 2\n'
    for line, said in (('grid board: player hex side 3 checkered', "draw boards of squares"),
                       ('zone pile: int on points', "it is for grids"),
                       ('enum piece { man figure "abc" }', "one or two characters"),
                       ('enum piece { man figure "" }', "one or two characters"),
                       ('grid board: player square 3 by 3 on "not a colour"', "a colour word or #rrggbb"),
                       ('zone pile: int on "green"', "it is for grids")):
        with pytest.raises(regle.RulesError) as info:
            engine_source(base + line + "\n", "t.rules")
        assert any(said in d.message and d.line == 4 for d in info.value.diagnostics), info.value.diagnostics
    engine_source(base + 'enum piece { man figure "" on disc }\ngrid b: piece of player square 3 by 3 on points\n', "t.rules")


def test_a_morris_game_is_played_on_its_lines_by_clicks(browser, served):
    """Nine men's morris: its points on its drawn lines, played by clicking them (placing, moving,
    taking when a mill closes) to the end of the placing and beyond."""
    s = served("morris")
    wait, By = _open(browser, s.url)
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.board polyline.track")) >= 16
    rng = random.Random(2)
    for _ in range(24):
        if "Game over" in browser.find_element(By.ID, "status").text:
            break
        before = browser.find_element(By.ID, "log").text
        cells = browser.find_elements(By.CSS_SELECTOR, ".cell.pointable")
        assert cells and all(c.tag_name == "circle" for c in cells)  # the points of the lines
        _click(browser, rng.choice(cells))
        targets = browser.find_elements(By.CSS_SELECTOR, ".cell.target")
        if targets:  # a piece chosen (or taken at once, one click): then where it goes
            _click(browser, rng.choice(targets))
        wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, ".cell.pointable")
                   or "Game over" in b.find_element(By.ID, "status").text)
    session = next(iter(s.server.hub.sessions.values()))
    assert session.state.decisions >= 24 and browser.find_element(By.ID, "error").text == ""


def test_lost_cities_expeditions_are_five_columns(browser, served):
    """A zone laid out by its items' colour (``columns by colour``): an expedition is a column
    per colour, each card in its own colour's column, in the order played."""
    from selenium.webdriver.common.by import By
    s = served("lostcities", seats=["human", "human"])
    made = s.new({"seed": 4})
    rng = random.Random(4)
    for _ in range(24):  # a dozen turns: cards played, discarded, drawn
        seat = s.page(made["id"], made["tokens"][0])["current"]
        page = s.page(made["id"], made["tokens"][seat])
        plays = [m["text"] for m in page["moves"] if m["text"].startswith("play")]
        move = rng.choice(plays or [m["text"] for m in page["moves"]])
        assert s.play(made["id"], made["tokens"][seat], move, page["version"])[0] == 200
    browser.get("about:blank")
    browser.get(f"{s.url}/?game={made['id']}#t={made['tokens'][0]}")
    waiting(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".columns"))
    session = s.server.hub.sessions[made["id"]]
    names = s.game.namespace["T_colour__NAMES"]
    for seat, columns in enumerate(browser.find_elements(By.CSS_SELECTOR, ".seat .columns")):
        heads = [c.get_attribute("data-member") for c in columns.find_elements(By.CSS_SELECTOR, ".column")]
        assert heads == list(names)  # five columns, in the enum's order
        expedition = session.state.view(seat)["zones"]["expedition"][seat]
        for column in columns.find_elements(By.CSS_SELECTOR, ".column"):
            colour = names.index(column.get_attribute("data-member"))
            shown = [int(i.get_attribute("data-value")) for i in column.find_elements(By.CSS_SELECTOR, ".item")]
            assert shown == [v for v in expedition if s.game.namespace["C_card__colour"][v] == colour]
    assert sum(len(c.find_elements(By.CSS_SELECTOR, ".item")) for c in
               browser.find_elements(By.CSS_SELECTOR, ".seat .columns")) >= 4


def test_pattern_cards_are_drawn_and_big_pools_counted():
    from regle.web.render import table_html
    game = regle.load("games/explobilles.rules", backend="python")
    html = table_html(game.new_game(seed=0), 0)
    assert html.count('<svg class="marks"') >= 3  # the display's marble cards, drawn
    assert "×" in html and 'class="item pool"' in html  # the supply: a chip per colour, counted


def test_columns_by_is_checked_where_it_stands():
    from compiler.generate import engine_source
    base = ('game "G" { players 2 }\nturn { step s { action a { } } }\nend when turns > 2\n'
            'enum suit { red, blue }\ntable card(suit: suit, value: int) {\n  red 1\n  blue 2\n}\n')
    line = base.count("\n") + 1
    for decl, said in (("zone pile: int columns by suit", "holds a number"),
                       ("zone pile: card columns by value", "has no enum column 'value'"),
                       ("grid b: card square 2 by 2 columns by suit", "'columns by' lays out the items of a zone")):
        with pytest.raises(regle.RulesError) as info:
            engine_source(base + decl + "\n", "t.rules")
        assert any(said in d.message and d.line == line for d in info.value.diagnostics), info.value.diagnostics
    engine_source(base + "zone pile: card per player columns by suit\n", "t.rules")


def test_on_a_phone_the_moves_stay_in_reach_after_a_tap(browser, served):
    """390x844: a tap on a piece narrows the moves, and they are on the screen at once (a sheet
    along its bottom), not below the board, far below the fold."""
    s = served("chess")
    browser.set_window_size(390, 844)
    try:
        wait, By = _open(browser, s.url)
        _click(browser, _cell(browser, By, "g1"))  # the knight: two moves
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#moves button")) == 2)
        height = browser.execute_script("return window.innerHeight")
        for button in browser.find_elements(By.CSS_SELECTOR, "#moves button"):
            box = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom];",
                                         button)
            assert 0 <= box[0] and box[1] <= height, (box, height)
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        button = browser.find_elements(By.CSS_SELECTOR, "#moves button")[0]
        button.click()  # a real tap on it: nothing covers it
        wait.until(lambda b: "P1: g1" in b.find_element(By.ID, "log").get_attribute("textContent"))
    finally:
        browser.set_window_size(1400, 1000)
