"""``regle studio FILE``: a rules playground in the browser, for the author of one rules file.

The page (``static/studio.html``) holds the rules text in an editor (CodeMirror 5, served from
``static/vendor``, no CDN) and, beside it, the game as ``regle serve`` draws it, in a frame of
the same server. As the author types, the page sends the text to ``/api/studio/check``:

- mistakes come back positioned (line, column, message, hint) and are drawn in the text;
- a text that checks and differs from the one being played is loaded on the Python engine
  (no build to wait for) and the game starts again from the same seed, with the same seats;
- the changes since the file was last saved (``regle diff``'s structural diff) come back too,
  and the page asks ``/api/studio/simulate`` for a quick comparison of both versions (a few
  hundred games between random agents, with confidence intervals, as ``diff --simulate``).

``/api/studio/save`` writes the text to the one file served: the request names no path, so no
page can write anything else, and it needs the studio's key, which travels in the fragment of
the address the command prints (``#k=...``) and so only reaches the page opened from it.
Everything else is ``regle serve``'s: the game API, the guard on hosts and origins, the limits.
"""
from __future__ import annotations

import os
import secrets
import tempfile
import threading
import time
from http import HTTPStatus
from pathlib import Path

from regle.dsl import RulesError
from regle.dsl.errors import Source
from regle.runtime.agents import make_agent
from regle.runtime.errors import RulesRuntimeError

from .guard import Addresses, RateLimit, Refused
from .server import BURST, FILES, RATE, Server, _created, make_handler
from .sessions import Hub, check_agent

STUDIO_FILES = {**FILES, "/": ("studio.html", "text/html; charset=utf-8"),
                "/play": ("index.html", "text/html; charset=utf-8"),
                "/static/studio.js": ("studio.js", "text/javascript"),
                "/static/studio.css": ("studio.css", "text/css"),
                "/static/vendor/codemirror.js": ("vendor/codemirror/codemirror.js", "text/javascript"),
                "/static/vendor/codemirror.css": ("vendor/codemirror/codemirror.css", "text/css"),
                "/static/vendor/simple.js": ("vendor/codemirror/simple.js", "text/javascript"),
                "/static/vendor/lint.js": ("vendor/codemirror/lint.js", "text/javascript"),
                "/static/vendor/lint.css": ("vendor/codemirror/lint.css", "text/css")}
KEY_HEADER = "X-Regle-Studio"
MAX_TEXT = 1 << 20  # characters of a rules text sent by the page (a request body is at most 1 MiB)
SIM_GAMES = 200  # games of each version in the quick comparison, unless the page asks otherwise
SIM_MAX_GAMES = 2000
MAX_VERSIONS = 100  # versions of the text kept to compare, the latest
SIM_SECONDS = 10.0  # wall time of one comparison at most: it stops early, with as many games of each


class Workbench:
    """The file being edited, the text being played, and the server's games of it."""

    def __init__(self, path: Path, seats: list[str] | None = None, players: int | None = None, seed: int = 1):
        self.path = path
        self.name = path.stem
        self.seats, self.players, self.seed = seats, players, seed
        self.key = secrets.token_urlsafe(18)
        self.lock = threading.Lock()  # one text loaded at a time
        #: checks asked for so far: one that waited while a newer text came is not checked (the
        #: newer edit cancels it), so a burst of keystrokes costs one check, not one each
        self.asked = 0
        self.asking = threading.Lock()
        self.saved = self._read()
        self.text: str | None = None  # the text the game plays (None: no text has checked yet)
        self.hub: Hub | None = None
        self.game_link: dict | None = None
        self.problems: list[dict] = []
        self.notes: list[str] = []
        #: every text played since the studio opened, oldest first: the versions to compare
        self.versions: list[dict] = []
        self.load(self.saved)

    # -- the file -----------------------------------------------------------------------------
    def _read(self) -> str:
        from regle.dsl.files import read_source
        try:
            return read_source(self.path).text
        except RulesError as err:
            raise SystemExit(f"regle: {self.path}: {err.diagnostics[0].message}") from None

    def save(self, text: str, key: str | None) -> dict:
        """Write ``text`` to the file served (only that file), atomically."""
        if not key or not secrets.compare_digest(key.encode("utf-8", "replace"), self.key.encode()):
            raise Refused(HTTPStatus.FORBIDDEN, "only the studio page opened from the address regle printed "
                                                "saves the file (its key is in that address)")
        data = text.encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            if self.path.exists():
                os.chmod(tmp, self.path.stat().st_mode & 0o7777)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.saved = text
        return {"saved": True, "path": str(self.path), "bytes": len(data)}

    # -- checking and loading -----------------------------------------------------------------
    def check(self, text: str) -> dict:
        """The text's problems; when it has none and is new, the game restarts on it. The text
        being played checks clean: asked again (a check answered late, a mistake typed then
        removed), the game goes on; the mistakes were another text's."""
        with self.asking:
            self.asked += 1
            mine = self.asked
        with self.lock:
            if mine != self.asked:  # a newer text came while this one waited: its answer counts
                return {**self.state(), "superseded": True}
            if text == self.text:
                self.problems = []
            else:
                self.load(text)
            return self.state()

    def restart(self) -> dict:
        """The text being played, in a new game from the same seed."""
        with self.lock:
            if self.hub is None:
                raise Refused(HTTPStatus.CONFLICT, "the rules have mistakes: there is no game to restart")
            self.game_link = _created(self.hub.create({"seed": self.seed}))
            return self.state()

    def state(self) -> dict:
        return {"problems": self.problems, "notes": self.notes, "game": self.game_link,
                "playing": self.text, "unsaved": self.text != self.saved, "title": self._title(),
                "seats_count": self._count() if self.hub else None,
                "seats": list(self.hub.seats) if self.hub else None}

    def _title(self) -> str:
        return self.hub.game.title if self.hub else self.name

    def load(self, text: str) -> None:
        import regle
        try:  # the same checks as `regle check`: a RulesError holds every mistake, positioned
            game = regle.loads(text, self.name, str(self.path), backend="python")
        except RulesError as err:
            self.problems = [_problem(d, self.path) for d in err.diagnostics]
            return
        except RulesRuntimeError as err:  # a setup that fails while being played
            self.problems = [_runtime_problem(err)]
            return
        players = self.players if self.players in game.players else None
        count = players or game.players.start
        seats = self.seats if self.seats and len(self.seats) == count else None
        # unsaid, you against a searching opponent (Monte Carlo, half a second a move): a rules
        # change that makes a game easy or hard shows against it, where random play hides it
        hub = Hub(game, seats or ["human"] + [STUDIO_OPPONENT] * (count - 1), players)
        try:
            session = hub.create({"seed": self.seed})
        except (Refused, RulesRuntimeError) as exc:  # the game fails as it starts: a problem, not a 500
            hub.stop()
            self.problems = [_runtime_problem(exc)]
            return
        from regle.rulebook import rulebook
        try:
            hub._rulebook = rulebook(self.path, "html", text=text)
        except Exception as exc:  # noqa: BLE001 - the preview is a courtesy; the game still plays
            hub._rulebook = f"<!doctype html><title>No rulebook</title><p>No rulebook: {exc}</p>"
        old, self.hub = self.hub, hub
        if old is not None:
            old.stop()
        self.text, self.problems = text, []
        self.notes = list(game.namespace.get("NOTES", ()))
        self.game_link = _created(session)
        if not self.versions or self.versions[-1]["text"] != text:
            self.versions.append({"n": len(self.versions) + 1, "at": time.strftime("%H:%M:%S"), "text": text,
                                  "saved": text == self.saved})
            del self.versions[:-MAX_VERSIONS]

    # -- the author's tools: who plays, the position, a move by hand ---------------------------
    def key_ok(self, key: str | None) -> None:
        if not key or not secrets.compare_digest(key.encode("utf-8", "replace"), self.key.encode()):
            raise Refused(HTTPStatus.FORBIDDEN, "only the studio page opened from the address regle printed "
                                                "may do this (its key is in that address)")

    def seat_plan(self, opponent: str, seat: int) -> dict:
        """Who plays: you at ``seat``, the others ``opponent`` (an agent, or "human": you play
        every seat, each from its own link); the text being played starts again."""
        with self.lock:
            if self.hub is None:
                raise Refused(HTTPStatus.CONFLICT, "the rules have mistakes: there is no game to seat")
            count = self._count()
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
                raise Refused(HTTPStatus.BAD_REQUEST, f"'as' is a seat from 0 to {count - 1}")
            if opponent != "human":
                try:
                    make_agent(opponent, 0)  # a name and options an agent takes
                    check_agent(opponent)
                except (ValueError, TypeError) as exc:
                    raise Refused(HTTPStatus.BAD_REQUEST, f"no such opponent {opponent!r}: {exc}") from None
            self.seats = ["human" if p == seat or opponent == "human" else opponent for p in range(count)]
            self.load(self.text)  # the same text, a new game seated so
            return {**self.state(), "seats": self.seats}

    def _count(self) -> int:
        game = self.hub.game
        return self.players if self.players in game.players else game.players.start

    def session(self, sid: str | None):
        if self.hub is None:
            raise Refused(HTTPStatus.CONFLICT, "the rules have mistakes: no game is being played")
        return self.hub.get(sid or self.game_link["id"])

    def inspect(self, sid: str | None, seat: str | None, after: str | None = None) -> dict:
        """The position of game ``sid`` whole (seat "all") or as a seat sees it, with the legal
        moves of the seat to play; only its version when that is still ``after`` (the page asks
        every second while the inspector shows)."""
        from .inspect import inspect
        session = self.session(sid)
        with session.lock:
            if after is not None and after == str(session.version):
                return {"version": session.version, "game": session.id, "unchanged": True}
            state = session.state
            if seat in (None, "", "all"):
                viewer = None
            elif seat.isdigit() and int(seat) < state.n:
                viewer = int(seat)
            else:
                raise Refused(HTTPStatus.BAD_REQUEST, f"'seat' is 'all' or a seat from 0 to {state.n - 1}")
            moves = [] if state.is_over else state.notations()
            return {**inspect(state, viewer), "moves": moves, "version": session.version, "game": session.id}

    def hand_move(self, sid: str | None, move, version) -> dict:
        """Any legal move, made by hand for the seat to play (whoever plays it: an agent's seat
        too), as the author tries a line of play."""
        session = self.session(sid)
        with session.lock:
            self.hub.play(session, session.state.current_player if not session.state.is_over else None,
                          {"move": move, "version": version})
        return {"version": session.version}

    def compare_versions(self, first: int, second: int) -> dict:
        """What changed from version ``first`` to version ``second`` (numbers as listed)."""
        texts = {v["n"]: v["text"] for v in self.versions}
        if first not in texts or second not in texts:
            raise Refused(HTTPStatus.BAD_REQUEST, f"versions are numbered {min(texts)} to {max(texts)}")
        from regle.dsl.differ import diff
        return {"changes": [str(c) for c in diff(self._rules(texts[first]), self._rules(texts[second]))]}

    # -- what changed -------------------------------------------------------------------------
    def changes(self, text: str) -> dict:
        """The structural diff from the saved text to ``text`` (both must check)."""
        from regle.dsl.differ import diff
        try:
            old = self._rules(self.saved)
        except RulesError:
            return {"changes": None, "why": "the saved file does not check, so there is nothing to compare with"}
        try:
            new = self._rules(text)
        except RulesError:
            return {"changes": None, "why": "the text has mistakes: fix them to see what changed"}
        return {"changes": [str(c) for c in diff(old, new)], "why": None}

    def _rules(self, text: str):
        from regle.compiler.generate import lower
        from regle.dsl.parser import parse
        from regle.dsl.variants import resolve
        lower(text, str(self.path), self.name)  # a diff of rules that do not check would mislead
        rules, _ = resolve(parse(text, str(self.path)), Source(text, str(self.path)))
        return rules

    def simulate(self, text: str, games: int) -> dict:
        """Both versions played ``games`` times between random agents, compared as
        ``regle diff --simulate`` compares them (fewer games if it takes over SIM_SECONDS)."""
        import regle
        from regle.runtime.match import play_game
        from regle.simulate import summarise
        from regle.stats import compare
        try:
            versions = [regle.loads(t, self.name, str(self.path), backend="python") for t in (self.saved, text)]
        except RulesError:
            raise Refused(HTTPStatus.CONFLICT, "both versions must check to be compared") from None
        players = [self.players if self.players in g.players else g.players.start for g in versions]
        records: list[list[dict]] = [[], []]
        start = time.perf_counter()
        for i in range(games):
            for side, game in enumerate(versions):
                records[side].append(play_game(game, players[side], i, ["random"] * players[side]).to_json())
            if time.perf_counter() - start > SIM_SECONDS:
                break
        seconds = time.perf_counter() - start
        result = compare((records[0], summarise(records[0])), (records[1], summarise(records[1])))
        return {"games": len(records[0]), "asked": games, "seconds": round(seconds, 2),
                "rows": [{k: row[k] for k in ("label", "old", "new", "significant")} | {"p": round(row["p"], 4)}
                         for row in result["rows"]]}


def _runtime_problem(err: Exception) -> dict:
    """A failure while the game starts (its setup, its first decision) as a problem of the
    rules line it names (line 1 when it names none)."""
    line = getattr(err, "line", None)
    return {"line": line if isinstance(line, int) and line > 0 else 1, "column": 1, "severity": "error",
            "message": str(err), "hint": getattr(err, "hint", None), "elsewhere": None}


def _problem(d, path: Path) -> dict:
    elsewhere = None
    if d.file and Path(d.file).resolve() != path.resolve():
        elsewhere = f"{Path(d.file).name}:{d.line}:{d.column}"  # in a file this one extends
    return {"line": 1 if elsewhere else d.line, "column": 1 if elsewhere else d.column, "severity": d.severity,
            "message": d.message, "hint": d.hint, "elsewhere": elsewhere}


class _CurrentHub:
    """The hub of the text being played, whichever it is now (the game API follows it)."""

    def __init__(self, bench: Workbench):
        self._bench = bench

    def __getattr__(self, name: str):
        return getattr(self._bench.hub, name)


def _int_of(body: dict, name: str) -> int:
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(HTTPStatus.BAD_REQUEST, f"'{name}' is a version's number")
    return value


def _text(body: dict) -> str:
    text = body.get("text")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Refused(HTTPStatus.BAD_REQUEST, f"'text' is the rules text (at most {MAX_TEXT} characters)")
    return text


def make_studio_handler(bench: Workbench, addresses: Addresses, limit: RateLimit) -> type:
    base = make_handler(_CurrentHub(bench), addresses, limit, STUDIO_FILES, framed_by_self=True)

    class StudioHandler(base):
        def _route(self, method: str, parts: list[str], body: dict, query: dict):
            if parts[:1] != ["studio"]:
                if bench.hub is None:
                    raise Refused(HTTPStatus.CONFLICT, "the rules have mistakes: no game is being played")
                return super()._route(method, parts, body, query)
            what = parts[1:]
            if what == ["source"] and method == "GET":
                with bench.lock:
                    return {"text": bench.saved, "file": bench.path.name, "path": str(bench.path),
                            **bench.state(), "grammar": grammar()}
            if what == ["check"] and method == "POST":
                return bench.check(_text(body))
            if what == ["restart"] and method == "POST":
                return bench.restart()
            if what == ["changes"] and method == "POST":
                return bench.changes(_text(body))
            if what == ["simulate"] and method == "POST":
                games = body.get("games", SIM_GAMES)
                if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= SIM_MAX_GAMES:
                    raise Refused(HTTPStatus.BAD_REQUEST, f"'games' is a whole number from 1 to {SIM_MAX_GAMES}")
                return bench.simulate(_text(body), games)
            if what == ["versions"] and method == "GET":
                return {"versions": [{k: v[k] for k in ("n", "at", "saved")} | {"lines": v["text"].count("\n") + 1}
                                     for v in bench.versions]}
            if what == ["versions", "diff"] and method == "POST":
                return bench.compare_versions(_int_of(body, "from"), _int_of(body, "to"))
            if what and what[0] in ("inspect", "move", "seats"):  # the author's tools: the key only
                bench.key_ok(self.headers.get(KEY_HEADER))
            if what == ["inspect"] and method == "GET":
                return bench.inspect(query.get("game", [None])[0], query.get("seat", ["all"])[0],
                                     query.get("after", [None])[0])
            if what == ["move"] and method == "POST":
                return bench.hand_move(body.get("game"), body.get("move"), body.get("version"))
            if what == ["seats"] and method == "POST":
                opponent = body.get("opponent", STUDIO_OPPONENT)
                if not isinstance(opponent, str):
                    raise Refused(HTTPStatus.BAD_REQUEST, "'opponent' is an agent (mcts, random...) or 'human'")
                return bench.seat_plan(opponent, body.get("as", 0))
            if what == ["save"] and method == "POST":
                extra = sorted(set(body) - {"text"})
                if extra:
                    raise Refused(HTTPStatus.BAD_REQUEST, f"the studio saves only {bench.path.name}: a save takes "
                                                          f"nothing but 'text' (not {', '.join(map(repr, extra))})")
                return bench.save(_text(body), self.headers.get(KEY_HEADER))
            raise Refused(HTTPStatus.NOT_FOUND, f"no {method} /api/{'/'.join(parts)}")

    return StudioHandler


def grammar() -> dict:
    """The words the editor colours, from the same lists as the Pygments lexer."""
    from regle.highlight import BUILTINS, CONSTANTS, KEYWORDS
    return {"keywords": sorted(KEYWORDS), "builtins": sorted(BUILTINS), "constants": sorted(CONSTANTS)}


class StudioServer(Server):
    bench: Workbench

    def stop_games(self) -> None:
        if self.bench.hub is not None:
            self.bench.hub.stop()


#: who plays the other seats of the studio's game when --seats does not say
STUDIO_OPPONENT = "mcts:time=0.5"


def make_studio(path: str | Path, host: str = "127.0.0.1", port: int = 8000, seats: list[str] | None = None,
                players: int | None = None, seed: int = 1) -> StudioServer:
    """A studio server for one rules file (port 0: any free port)."""
    import socket
    bench = Workbench(Path(path).resolve(), seats, players, seed)
    StudioServer.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        server = StudioServer((host, port), make_studio_handler(bench, Addresses(host, port), RateLimit(RATE, BURST)))
    except BaseException:
        if bench.hub is not None:
            bench.hub.stop()
        raise
    if port == 0:
        server.RequestHandlerClass = make_studio_handler(bench, Addresses(host, server.server_address[1]),
                                                         RateLimit(RATE, BURST))
    server.bench = bench
    server.hub = bench.hub  # type: ignore[assignment]
    return server


__all__ = ["make_studio", "Workbench"]
