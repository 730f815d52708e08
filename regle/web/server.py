"""``regle serve``: play, watch and replay a game in the browser, on the standard library.

One process serves one rules file; it holds any number of games (sessions), each with its seats
(``human`` or an agent spec). Pages are served from ``regle/web/static`` (no build step, no CDN);
the page for seat p receives the table as p sees it (``state.view(p)``, drawn by
``regle.web.render``) and, when p is to play, the legal moves with what each points at on the
board and, as a preview, which cells it would change (computed on a copy in which what p cannot
see is dealt again, so a preview tells nothing secret).

JSON API (all answers are JSON; errors are ``{"error": ...}`` with a 4xx status):

- ``GET  /api/game``                       the game: title, player counts, default seats
- ``POST /api/games``  ``{players, seats, seed}``   a new game: ``{"id": ...}``
- ``GET  /api/games/ID?seat=N``            the game as seat N sees it (``seat=-1``: a spectator)
- ``POST /api/games/ID/play``  ``{seat, move}``  a move by its notation or action id
- ``POST /api/games/ID/step``              let the agent to play make one decision
- ``POST /api/replay``  ``{record}`` or ``{state}``  replay a ``simulate --out`` record (its
  seed and agents decide the game again) or go on from a saved state
"""
from __future__ import annotations

import json
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from regle.runtime.agents import agent_seed, make_agent
from regle.runtime.engine import Game, IllegalMove

from .render import seat_name, table_html

STATIC = Path(__file__).with_name("static")
FILES = {"/": ("index.html", "text/html; charset=utf-8"), "/static/app.js": ("app.js", "text/javascript"),
         "/static/style.css": ("style.css", "text/css")}
MAX_BODY = 1 << 20  # bytes of one request: a saved state fits, nothing unbounded
MAX_GAMES = 500


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Session:
    """One game on the server: its state, who sits where, and what happened last."""

    def __init__(self, game: Game, players: int, seats: list[str], seed: int, state=None):
        self.game = game
        self.seats = seats
        self.seed = seed
        self.state = state if state is not None else game.new_game(players, seed=seed)
        self.agents = {p: make_agent(spec, agent_seed(seed, p)) for p, spec in enumerate(seats) if spec != "human"}
        self.log: list[str] = []  # notations of the moves played, with their seat
        self.last: dict | None = None
        self.lock = threading.Lock()

    # -- playing ------------------------------------------------------------------------------
    def apply(self, move, seat: int) -> None:
        before = self.state.view(None)
        text = self.state.notation(move)
        self.state.play(move)
        self.log.append(f"P{seat + 1}: {text}")
        after = self.state.view(None)
        self.last = {"seat": seat, "text": text, "cells": _changed_cells(self.game, before, after)}

    def play_agents(self, limit: int = 1000) -> None:
        """Let agents move until a human is to play or the game is over."""
        while limit and not self.state.is_over and self.state.current_player in self.agents:
            self.step()
            limit -= 1

    def step(self) -> None:
        seat = self.state.current_player
        agent = self.agents.get(seat)
        if agent is None:
            raise ApiError(HTTPStatus.CONFLICT, f"P{seat + 1} is a human seat: it waits for a move")
        self.apply(agent.choose(self.state), seat)

    # -- what a seat sees ---------------------------------------------------------------------
    def payload(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        viewer = seat if seat is not None and 0 <= seat < state.n else None
        current = state.current_player
        data = {
            "title": self.game.title, "turn": state.turns + 1, "over": state.is_over,
            "current": current, "winners": state.winners if state.is_over else [],
            "viewer": viewer, "seats": [{"seat": p, "name": seat_name(self.game, p), "kind": s}
                                        for p, s in enumerate(self.seats)],
            "html": table_html(state, viewer), "last": self.last, "log": self.log[-12:],
            "moves": [], "step": state.step_name if not state.is_over else None,
            "agent_to_play": not state.is_over and current in self.agents,
        }
        if viewer is not None and not state.is_over and current == viewer and viewer not in self.agents:
            data["moves"] = _moves(self.game, state, viewer)
        return data


def _changed_cells(game: Game, before: dict, after: dict) -> list[list]:
    """[grid, instance, cell] of every cell whose drawn content changed (as a spectator sees)."""
    out = []
    for name, _attr, per, *_ in game.grids:
        a, b = before["zones"][name], after["zones"][name]
        if isinstance(a, dict) or isinstance(b, dict):
            continue
        places = list(zip(a, b)) if per else [(a, b)]
        for i, (x, y) in enumerate(places):
            if isinstance(x, dict) or isinstance(y, dict):
                continue
            out += [[name, i, c] for c, (u, v) in enumerate(zip(x, y)) if u != v]
    return out


def _moves(game: Game, state, seat: int) -> list[dict]:
    """The legal moves of ``seat``: notation, id, what each argument points at (cells, values),
    and the cells it would change (on a copy re-dealt from seat's knowledge)."""
    kinds = game.namespace["Move"].KINDS
    texts = state.notations()
    try:
        ids = state.legal_action_ids()
    except ValueError:  # a game without action ids: moves are still played by notation
        ids = [None] * len(texts)
    seen = state.resample(seat, 0) if game.has_hidden_information else state
    before = seen.view(seat)
    out = []
    for move, text, move_id in zip(state.legal, texts, ids):
        cells, values = [], []
        for value, kind in zip(move[1:], kinds[move[0]]):
            if kind.startswith("cell:"):
                cells.append([kind[5:], None, value])
            else:
                values.append([kind, value])
        try:
            after = seen.copy().advance(move).view(seat)
            preview = _changed_cells(game, before, after)
        except Exception:  # noqa: BLE001 - a preview is a courtesy; the move itself is checked when played
            preview = []
        out.append({"text": text, "id": move_id, "cells": cells, "values": values, "preview": preview})
    return out


class Hub:
    """The games of one server."""

    def __init__(self, game: Game, seats: list[str] | None = None, players: int | None = None):
        self.game = game
        self.players = players or game.players.start
        self.seats = seats or ["human"] + ["random"] * (self.players - 1)
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()

    def info(self) -> dict:
        g = self.game
        return {"title": g.title, "name": g.name, "players": [g.players.start, g.players.stop - 1],
                "default_players": self.players, "default_seats": self.seats}

    def create(self, body: dict) -> Session:
        players = _int(body.get("players", self.players), "players")
        if players not in self.game.players:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"{self.game.title} is for {self.game.players.start} to "
                                                   f"{self.game.players.stop - 1} players, not {players}")
        seats = body.get("seats") or (self.seats if players == self.players else ["human"] * players)
        if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
            raise ApiError(HTTPStatus.BAD_REQUEST, f"'seats' must list {players} seats (human or an agent)")
        seed = _int(body.get("seed", secrets.randbelow(1 << 30)), "seed")
        try:
            session = Session(self.game, players, seats, seed)
        except ValueError as exc:  # an unknown agent
            raise ApiError(HTTPStatus.BAD_REQUEST, str(exc)) from None
        session.play_agents()
        return self._keep(session)

    def replay(self, body: dict) -> Session:
        if "record" in body:
            record = body["record"]
            if not isinstance(record, dict):
                raise ApiError(HTTPStatus.BAD_REQUEST, "'record' is one line of `regle simulate --out`")
            players = _int(record.get("players"), "players")
            agents = record.get("agents")
            if not isinstance(agents, list) or len(agents) != players:
                raise ApiError(HTTPStatus.BAD_REQUEST, "the record names no agents for its seats")
            seed = _int(record.get("seed"), "seed")
            try:
                session = Session(self.game, players, [str(a) for a in agents], seed)
            except ValueError as exc:
                raise ApiError(HTTPStatus.BAD_REQUEST, str(exc)) from None
            return self._keep(session)  # the page steps through it: the same agents, the same seed
        if "state" in body:
            try:
                state = self.game.state_from_json(body["state"])
            except Exception as exc:  # noqa: BLE001 - a saved state that does not fit
                raise ApiError(HTTPStatus.BAD_REQUEST, f"not a saved state of this game: {exc}") from None
            seats = body.get("seats") or ["human"] * state.n
            return self._keep(Session(self.game, state.n, seats, state.seed, state))
        raise ApiError(HTTPStatus.BAD_REQUEST, "give a 'record' (from simulate --out) or a 'state' (to_json)")

    def _keep(self, session: Session) -> Session:
        with self.lock:
            if len(self.sessions) >= MAX_GAMES:  # the oldest goes
                self.sessions.pop(next(iter(self.sessions)))
            sid = secrets.token_hex(6)
            self.sessions[sid] = session
            session.id = sid
        return session

    def get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise ApiError(HTTPStatus.NOT_FOUND, f"no game {sid!r} on this server")
        return session

    def play(self, session: Session, body: dict) -> None:
        seat = _int(body.get("seat"), "seat")
        move = body.get("move")
        state = session.state
        if state.is_over:
            raise ApiError(HTTPStatus.CONFLICT, "the game is over")
        if seat != state.current_player:
            raise ApiError(HTTPStatus.CONFLICT, f"it is P{state.current_player + 1}'s turn, not P{seat + 1}'s")
        if seat in session.agents:
            raise ApiError(HTTPStatus.CONFLICT, f"P{seat + 1} is played by an agent")
        try:
            if isinstance(move, int) and not isinstance(move, bool):
                chosen = state._move_of_id(move)
            elif isinstance(move, str):
                chosen = state.move_from_text(move)
            else:
                raise ApiError(HTTPStatus.BAD_REQUEST, "'move' is a notation (text) or an action id (number)")
        except (IllegalMove, ValueError) as exc:
            raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, str(exc)) from None
        session.apply(chosen, seat)
        session.play_agents()


def _int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(HTTPStatus.BAD_REQUEST, f"'{name}' must be a whole number")
    return value


def make_handler(hub: Hub) -> type:
    class Handler(BaseHTTPRequestHandler):
        server_version = "regle"

        def log_message(self, format: str, *args) -> None:  # quiet: the terminal shows the URL only
            pass

        def do_GET(self) -> None:
            url = urlparse(self.path)
            if url.path in FILES:
                name, ctype = FILES[url.path]
                self._send(HTTPStatus.OK, (STATIC / name).read_bytes(), ctype)
                return
            self._api("GET", url)

        def do_POST(self) -> None:
            self._api("POST", urlparse(self.path))

        def _api(self, method: str, url) -> None:
            try:
                parts = [p for p in url.path.split("/") if p]
                if parts[:1] != ["api"]:
                    raise ApiError(HTTPStatus.NOT_FOUND, f"nothing at {url.path}")
                body = self._body() if method == "POST" else {}
                result = self._route(method, parts[1:], body, parse_qs(url.query))
                self._json(HTTPStatus.OK, result)
            except ApiError as exc:
                self._json(exc.status, {"error": str(exc)})
            except Exception as exc:  # noqa: BLE001 - a rules error while playing, reported, the server goes on
                self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"{type(exc).__name__}: {exc}"})

        def _route(self, method: str, parts: list[str], body: dict, query: dict) -> Any:
            if parts == ["game"] and method == "GET":
                return hub.info()
            if parts == ["games"] and method == "POST":
                return {"id": hub.create(body).id}
            if parts == ["replay"] and method == "POST":
                return {"id": hub.replay(body).id}
            if len(parts) >= 2 and parts[0] == "games":
                session = hub.get(parts[1])
                with session.lock:
                    if len(parts) == 2 and method == "GET":
                        seat = query.get("seat", ["-1"])[0]
                        try:
                            viewer = int(seat)
                        except ValueError:
                            raise ApiError(HTTPStatus.BAD_REQUEST, "'seat' must be a whole number") from None
                        return session.payload(viewer)
                    if parts[2:] == ["play"] and method == "POST":
                        hub.play(session, body)
                        return session.payload(body.get("seat"))
                    if parts[2:] == ["step"] and method == "POST":
                        if session.state.is_over:
                            raise ApiError(HTTPStatus.CONFLICT, "the game is over")
                        session.step()
                        viewer = body.get("seat", -1)
                        return session.payload(viewer if isinstance(viewer, int) else -1)
            raise ApiError(HTTPStatus.NOT_FOUND, f"no {method} /api/{'/'.join(parts)}")

        def _body(self) -> dict:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                raise ApiError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"requests are at most {MAX_BODY:,} bytes")
            raw = self.rfile.read(length) if length else b"{}"
            try:
                body = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise ApiError(HTTPStatus.BAD_REQUEST, "the request body is not JSON") from None
            if not isinstance(body, dict):
                raise ApiError(HTTPStatus.BAD_REQUEST, "the request body is a JSON object")
            return body

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data).encode("utf-8"), "application/json")

        def _send(self, status: int, payload: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(payload)

    return Handler


def make_server(game: Game, host: str = "127.0.0.1", port: int = 8000, seats: list[str] | None = None,
                players: int | None = None) -> ThreadingHTTPServer:
    """A server for one game (port 0: any free port; ``server.server_address`` says which)."""
    hub = Hub(game, seats, players)
    server = ThreadingHTTPServer((host, port), make_handler(hub))
    server.daemon_threads = True
    server.hub = hub  # type: ignore[attr-defined]
    return server
