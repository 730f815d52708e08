"""Screenshots of every game's page at its start, mid-game and end, for docs/web.md.

    python docs/images/shoot.py          # needs Chromium and chromedriver (as the browser tests)

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


def main() -> None:
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
