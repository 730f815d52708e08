"""Screenshots of every game's page at its start, mid-game and end, light and dark, on a desktop
(1200x900) and on a phone (390x844), for docs/web.md; and of ``regle studio`` on the tutorial's
game, for docs/tutorial.md.

    python docs/images/shoot.py          # needs Chromium and chromedriver (as the browser tests)
    python docs/images/shoot.py studio   # only the studio's
    python docs/images/shoot.py chess go # only these games'

Each game is served with a human at every seat; the page is shot as P1 sees it at the start,
after half a typical game, and at the end (the result panel showing). The pictures are written
as 256-colour PNGs when Pillow is installed (a quarter of the bytes), else as Chromium gives them;
pages/README.md lists them all, and pages/sheets/ holds one contact sheet per game (all twelve
pictures at a glance, for looking them over).
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


SIZES = {"desktop": (1200, 900), "phone": (390, 844)}
SCHEMES = ("light", "dark")
STAGES = ("start", "mid", "end")


def _save(png: bytes, path: Path) -> None:
    """A screenshot written small: quantized to 256 colours where Pillow is there."""
    try:
        import io

        from PIL import Image
    except ImportError:
        path.write_bytes(png)
        return
    Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(path, optimize=True)


def _shoot_page(b, url: str, path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    b.get("about:blank")
    b.get(url)
    WebDriverWait(b, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#table .shared, #table .seats"))
    time.sleep(0.7)  # the moves' animations played out
    _save(b.get_screenshot_as_png(), path)


def _sheet(name: str) -> None:
    """One picture holding a game's twelve, scaled down: rows of stages, columns of sizes and schemes."""
    try:
        from PIL import Image
    except ImportError:
        return
    cells = [[OUT / f"{name}-{stage}-{scheme}-{size}.png" for size in SIZES for scheme in SCHEMES] for stage in STAGES]
    scale = 0.3
    widths = [int(SIZES[size][0] * scale) for size in SIZES for _ in SCHEMES]
    height = int(900 * scale)
    sheet = Image.new("RGB", (sum(widths) + 10 * len(widths), (height + 10) * len(STAGES)), "white")
    for r, row in enumerate(cells):
        x = 0
        for c, path in enumerate(row):
            if path.exists():
                image = Image.open(path).convert("RGB")
                image.thumbnail((widths[c], height))
                sheet.paste(image, (x, r * (height + 10)))
            x += widths[c] + 10
    (OUT / "sheets").mkdir(exist_ok=True)
    sheet.quantize(256).save(OUT / "sheets" / f"{name}.png", optimize=True)


def _index(names: list[str]) -> None:
    lines = ["# Every game's page", "", "Taken by `python docs/images/shoot.py`: each game at its start, mid-game and end,",
             "light and dark, on a desktop (1200x900) and on a phone (390x844), as P1 sees it.", ""]
    for name in names:
        lines += [f"## {name}", "", "| | " + " | ".join(f"{size} {scheme}" for size in SIZES for scheme in SCHEMES) + " |",
                  "|---" * (1 + len(SIZES) * len(SCHEMES)) + "|"]
        for stage in STAGES:
            lines.append(f"| {stage} | " + " | ".join(f"![{name} {stage} {size} {scheme}]({name}-{stage}-{scheme}-{size}.png)"
                                                      for size in SIZES for scheme in SCHEMES) + " |")
        lines.append("")
    (OUT / "README.md").write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    if sys.argv[1:] == ["studio"]:
        studio()
        return
    import regle
    from regle import games
    from regle.web.server import make_server
    OUT.mkdir(parents=True, exist_ok=True)
    everything = [n for n in games.names() if games.kind(n) != "variant"]
    names = [n for n in sys.argv[1:] if n in everything] or everything
    b = browser()
    try:
        for name in names:
            game = regle.load(name, backend="python")
            server = make_server(game, port=0, seats=["human"] * game.players.start)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            url = f"http://127.0.0.1:{server.server_address[1]}"
            session = server.hub.create({"seed": 3})
            rng = random.Random(3)
            length = game.new_game(seed=3).play_random_playout(3).decisions
            for stage, upto in zip(STAGES, (0, length // 2, 10 ** 6)):
                with session.lock:
                    while not session.state.is_over and session.state.decisions < upto:
                        state = session.state
                        session.apply(rng.choice(state.legal_moves()), state.current_player)
                for scheme in SCHEMES:
                    b.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                      {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                    for size, (w, h) in SIZES.items():
                        b.set_window_size(w, h)
                        _shoot_page(b, f"{url}/?game={session.id}#t={session.tokens[0]}",
                                    OUT / f"{name}-{stage}-{scheme}-{size}.png")
            server.shutdown()
            server.server_close()
            _sheet(name)
            print(f"{name}: start, mid, end; light, dark; desktop, phone", file=sys.stderr)
    finally:
        b.quit()
    if names == everything:
        _index(everything)


if __name__ == "__main__":
    main()
