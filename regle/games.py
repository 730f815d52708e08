"""The games that ship with regle, by name: ``regle.load("connect4")``, ``regle play connect4``,
``regle list``.

The rules files are installed with the package (``regle.gamefiles``): the four main games,
their variants and the classics. A name is a file's stem (``mygame``, ``mygame-long``,
``connect4``); a path to a file that exists always wins over a name.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

PACKAGE = "regle.gamefiles"
#: where each kind of game lies in the package
KINDS = (("game", ""), ("classic", "classics"), ("variant", "variants"))


@lru_cache(maxsize=1)
def _index() -> dict[str, tuple[str, Path]]:
    root = Path(str(files(PACKAGE)))
    found: dict[str, tuple[str, Path]] = {}
    for kind, sub in KINDS:
        folder = root / sub if sub else root
        for path in sorted(folder.glob("*.rules")):
            found.setdefault(path.stem, (kind, path))
    return found


def names() -> list[str]:
    """Every packaged game's name: the main games, then the classics, then the variants."""
    order = {kind: i for i, (kind, _sub) in enumerate(KINDS)}
    return sorted(_index(), key=lambda n: (order[_index()[n][0]], n))


def path(name: str) -> Path | None:
    """The rules file of a packaged game (None: no game has that name)."""
    entry = _index().get(name)
    return entry[1] if entry else None


def kind(name: str) -> str:
    """"game", "classic" or "variant"."""
    return _index()[name][0]


def resolve(text: str) -> str:
    """A rules file to read: ``text`` itself when such a file exists or when it names no
    packaged game (the reader then says what is wrong), else the packaged game's file."""
    if Path(text).exists():
        return text
    found = path(text)
    return str(found) if found is not None else text


def summary(name: str) -> str:
    """The first sentence of what the file says of its game: the doc comment (``///``) of its
    ``game`` block, else its first comment (a variant's ``# ...`` line)."""
    lines = path(name).read_text(encoding="utf-8").splitlines()  # type: ignore[union-attr]
    said: list[str] = []
    for i, line in enumerate(lines):
        if re.match(r"\s*(standin\s+)?game\s", line):
            j = i - 1
            while j >= 0 and lines[j].lstrip().startswith("///"):
                said.insert(0, lines[j].lstrip()[3:].strip())
                j -= 1
            break
    if not said:
        said = [line.lstrip()[1:].strip() for line in lines[:1] if line.lstrip().startswith("#")]
    text = " ".join(said)
    return re.split(r"(?<=[.!?:])\s", text, maxsplit=1)[0].rstrip(":") if text else ""
