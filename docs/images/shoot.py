"""Screenshots of every game's page at its start, mid-game and end, for docs/web.md, and of
``regle studio`` on the tutorial's game, for docs/tutorial.md.

    python docs/images/shoot.py          # needs Chromium and chromedriver (as the browser tests)
    python docs/images/shoot.py studio   # only the studio's

Each game is served with a human first seat against random agents; the page is shot as P1 sees
it at the start, after half a typical game, and at the end (the result panel showing).
"""
from __future__ import annotations

import random
import shutil
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "pages"


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=options)


def studio() -> None:
    """The tutorial's Pebbles in the studio: a mistake shown in the text, then a change of rule
    with what changed and the quick simulation."""
    import re
    import tempfile

    from regle.web.studio import make_studio
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
    rules = "\n".join(body for lang, body in blocks if not lang and not body.startswith("pebbles.rules:"))
    folder = Path(tempfile.mkdtemp(prefix="regle-shoot-"))
    (folder / "pebbles.rules").write_text(rules, encoding="utf-8")
    server = make_studio(folder / "pebbles.rules", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    b = browser()
    b.set_window_size(1400, 1200)
    try:
        b.get(f"http://127.0.0.1:{server.server_address[1]}/#k={server.bench.key}")
        time.sleep(2.0)
        edit = "const cm = document.querySelector('.CodeMirror').CodeMirror; "
        b.execute_script(edit + "cm.setValue(cm.getValue().replace('require count(pile) > 0', 'require count(pil) > 0'));"
                         "cm.scrollIntoView({line: 30, ch: 0}, 200);")
        time.sleep(2.0)
        b.save_screenshot(str(Path(__file__).with_name("studio-mistake.png")))
        b.execute_script(edit + "cm.setValue(cm.getValue().replace('require count(pil) > 0', 'require count(pile) > 0')"
                                ".replace('require stolen[me] == 0', 'require stolen[me] < 2')"
                                ".replace('stolen[me] = 1', 'stolen[me] = stolen[me] + 1'));"
                                "cm.scrollIntoView({line: 38, ch: 0}, 200);")
        time.sleep(4.0)
        b.save_screenshot(str(Path(__file__).with_name("studio-change.png")))
        print("studio: a mistake, a change", file=sys.stderr)
    finally:
        b.quit()
        server.shutdown()
        server.server_close()


def main() -> None:
    if sys.argv[1:] == ["studio"]:
        studio()
        return
    import regle
    from regle import games
    from regle.web.server import make_server
    OUT.mkdir(parents=True, exist_ok=True)
    b = browser()
    try:
        for name in [n for n in games.names() if games.kind(n) != "variant"]:
            game = regle.load(name, backend="python")
            server = make_server(game, port=0, seats=["human"] * game.players.start)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            url = f"http://127.0.0.1:{server.server_address[1]}"
            session = server.hub.create({"seed": 3})
            b.get(f"{url}/?game={session.id}#t={session.tokens[0]}")
            time.sleep(1.0)
            b.save_screenshot(str(OUT / f"{name}-start.png"))
            rng = random.Random(3)
            length = game.new_game(seed=3).play_random_playout(3).decisions
            for stage, upto in (("mid", length // 2), ("end", 10 ** 6)):
                with session.lock:
                    while not session.state.is_over and session.state.decisions < upto:
                        state = session.state
                        session.apply(rng.choice(state.legal_moves()), state.current_player)
                b.get("about:blank")
                b.get(f"{url}/?game={session.id}#t={session.tokens[0]}")
                time.sleep(1.0)
                b.save_screenshot(str(OUT / f"{name}-{stage}.png"))
            server.shutdown()
            server.server_close()
            print(f"{name}: start, mid, end", file=sys.stderr)
    finally:
        b.quit()


if __name__ == "__main__":
    main()
