"""``regle serve``: play, watch and replay a game in the browser, on the standard library.

One process serves one rules file; it holds any number of games (``sessions``), each with its
seats (``human`` or an agent spec). Pages are served from ``regle/web/static`` (no build step,
no CDN); the page of a seat receives the table as that seat sees it (``state.view(p)``, drawn
by ``regle.web.render``) and, when it is to play, the legal moves with what each points at on
the board and, as a preview, which cells it would change (computed on a copy in which what the
seat cannot see is dealt again, so a preview tells nothing secret).

Only this server's own pages can drive it (``guard``): a request must be addressed to a name it
serves, come from its own origin, and carry a JSON body of a checked length. A request acts as a
seat only with that seat's token (header ``X-Regle-Token``); without one it is a spectator.

JSON API (errors are ``{"error": ...}`` with a 4xx status):

- ``GET  /api/game``                       the game: title, player counts, default seats, limits
- ``POST /api/games``  ``{players, seats, seed}``   a new game: ``{id, seat, token, invites}``
- ``GET  /api/games/ID[?after=V]``         the game as the token's seat sees it (after=V: wait
  up to 20 s for a version other than V)
- ``POST /api/games/ID/play``  ``{move, version}``  a move by its notation or action id, chosen
  on version V of the game (409 when the game has moved on)
- ``POST /api/games/ID/control``  ``{paused, pace, step}``  the agents: pause, pace, one step
- ``POST /api/games/ID/again``             the same seats again: every seat's page follows
- ``POST /api/games/ID/undo``              take back to the seat's last decision (against agents;
  between people, a request the others answer with ``POST /api/games/ID/takeback {accept}``)
- ``GET  /api/games/ID?at=K``              the position after K moves (history)
- ``GET  /rules``                          the game's rulebook (HTML)
- ``POST /api/replay``  ``{record}`` or ``{state}``  replay a ``simulate --out`` record (its
  seed and agents decide the game again) or go on from a saved state
"""
from __future__ import annotations

import json
import socket
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from regle.runtime.errors import RulesRuntimeError

from .gate import Gate
from .guard import Addresses, RateLimit, Refused, check_host, check_origin, read_json_body
from .sessions import Hub, Session

STATIC = Path(__file__).with_name("static")
FILES = {"/": ("index.html", "text/html; charset=utf-8"), "/static/app.js": ("app.js", "text/javascript"),
         "/static/style.css": ("style.css", "text/css"), "/favicon.ico": ("favicon.svg", "image/svg+xml"),
         "/static/favicon.svg": ("favicon.svg", "image/svg+xml")}
MAX_BODY = 1 << 20  # bytes of one request: a saved state fits, nothing unbounded
RATE, BURST = 300, 600  # requests a second, on average and at once
TOKEN_HEADER = "X-Regle-Token"


def _small_number(text: str) -> bool:
    """Whether a query's value is a whole number of at most 18 digits (a version, a move)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _created(session: Session) -> dict:
    """What the maker of a game gets: its id, the first human seat's token for its own page, and
    the other human seats' tokens to hand out as links."""
    seats = sorted(session.tokens)
    own = seats[0] if seats else None
    return {"id": session.id, "seat": own if own is not None else -1,
            "token": session.tokens.get(own) if own is not None else None,
            "invites": [{"seat": p, "token": session.tokens[p]} for p in seats[1:]]}


def make_handler(hub: Hub, addresses: Addresses, limit: RateLimit, files: dict | None = None,
                 framed_by_self: bool = False) -> type:
    """The request handler of a server for ``hub``. ``files``: the static pages it serves by path
    (default: the game page); ``framed_by_self``: its pages may be shown in frames of its own
    pages (the studio shows the game page beside the editor), never in anyone else's."""
    served = FILES if files is None else files
    frames = "'self'" if framed_by_self else "'none'"

    class Handler(BaseHTTPRequestHandler):
        server_version = "regle"
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args) -> None:  # quiet: the terminal shows the URL only
            pass

        def do_GET(self) -> None:
            url = urlparse(self.path)
            if url.path == "/rules":  # the rulebook, beside the game
                try:
                    check_host(self.headers, addresses)
                except Refused as exc:
                    self._json(exc.status, {"error": str(exc)})
                    return
                self._send(HTTPStatus.OK, hub.rulebook().encode("utf-8"), "text/html; charset=utf-8")
                return
            if url.path in served:
                try:
                    check_host(self.headers, addresses)
                except Refused as exc:
                    self._json(exc.status, {"error": str(exc)})
                    return
                name, ctype = served[url.path]
                self._send(HTTPStatus.OK, (STATIC / name).read_bytes(), ctype)
                return
            self._api("GET", url)

        def do_POST(self) -> None:
            self._api("POST", urlparse(self.path))

        def _api(self, method: str, url) -> None:
            try:
                check_origin(self.headers, addresses)
                if not limit.take():
                    raise Refused(HTTPStatus.TOO_MANY_REQUESTS, f"more than {RATE} requests a second; slow down")
                parts = [p for p in url.path.split("/") if p]
                if parts[:1] != ["api"]:
                    raise Refused(HTTPStatus.NOT_FOUND, f"nothing at {url.path}")
                body = read_json_body(self.headers, self.rfile, MAX_BODY) if method == "POST" else {}
                result = self._route(method, parts[1:], body, parse_qs(url.query))
                self._json(HTTPStatus.OK, result)
            except Refused as exc:
                self._json(exc.status, {"error": str(exc)}, close=True)  # a body may be left unread
            except RulesRuntimeError as exc:  # a rules error while playing: the rules' problem, at its line
                self._json(HTTPStatus.UNPROCESSABLE_ENTITY, {"error": str(exc), "line": exc.line})
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
            except Exception as exc:  # noqa: BLE001 - a bug of regle: said on the terminal, not to the page
                print(f"regle serve: {type(exc).__name__}: {exc}", file=sys.stderr)
                self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "the server failed on this request"})

        def _route(self, method: str, parts: list[str], body: dict, query: dict) -> Any:
            if parts == ["game"] and method == "GET":
                return hub.info()
            if parts == ["games"] and method == "POST":
                return _created(hub.create(body))
            if parts == ["replay"] and method == "POST":
                return _created(hub.replay(body))
            if len(parts) in (2, 3) and parts[0] == "games":
                session = hub.get(parts[1])
                seat = session.seat_of(self.headers.get(TOKEN_HEADER))
                if len(parts) == 2 and method == "GET":
                    after = query.get("after", [None])[0]
                    if after is not None:
                        if not _small_number(after):
                            raise Refused(HTTPStatus.BAD_REQUEST, "'after' is a version number")
                        hub.wait(session, int(after))
                    at = query.get("at", [None])[0]
                    if at is not None and not _small_number(at):
                        raise Refused(HTTPStatus.BAD_REQUEST, "'at' is a move number")
                    with session.lock:
                        return session.payload(seat, None if at is None else int(at))
                if len(parts) == 3 and method == "POST":
                    if parts[2] == "again":
                        if seat is None and not session.agents_only:
                            raise Refused(HTTPStatus.FORBIDDEN, "only the game's players start it again")
                        return _created(hub.again(session))
                    with session.lock:
                        if parts[2] == "play":
                            hub.play(session, seat, body)
                        elif parts[2] == "control":
                            hub.control(session, seat, body)
                        elif parts[2] == "undo":
                            if seat is None:
                                raise Refused(HTTPStatus.FORBIDDEN, "only a player takes back their move")
                            session.undo(seat)
                        elif parts[2] == "takeback":
                            if seat is None:
                                raise Refused(HTTPStatus.FORBIDDEN, "only a player answers a take-back")
                            if not isinstance(body.get("accept"), bool):
                                raise Refused(HTTPStatus.BAD_REQUEST, "'accept' is true or false")
                            session.answer_takeback(seat, body["accept"])
                        else:
                            raise Refused(HTTPStatus.NOT_FOUND, f"no {method} /api/{'/'.join(parts)}")
                        return session.payload(seat)
            raise Refused(HTTPStatus.NOT_FOUND, f"no {method} /api/{'/'.join(parts)}")

        def _json(self, status: int, data: Any, close: bool = False) -> None:
            self._send(status, json.dumps(data).encode("utf-8"), "application/json", close)

        def _send(self, status: int, payload: bytes, ctype: str, close: bool = False) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "SAMEORIGIN" if framed_by_self else "DENY")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; "
                                                        f"style-src 'self' 'unsafe-inline'; frame-ancestors {frames}")
            if close:  # a body left unread must not be taken for the next request
                self.send_header("Connection", "close")
                self.close_connection = True
            try:
                self.end_headers()
                self.wfile.write(payload)
            except OSError:  # the page went away (a closed tab), or the server is stopping
                self.close_connection = True

    return Handler


class Server(HTTPServer):
    """An HTTP server whose connections wait at a gate (``gate.py``) until a request has arrived
    whole: no thread per connection, timeouts, bounds per client and in all."""

    request_queue_size = 128  # connections the system holds before this server accepts them
    hub: Hub

    def __init__(self, address, handler_class):
        super().__init__(address, handler_class)
        self.gate = Gate(self, MAX_BODY)

    def process_request(self, request, client_address) -> None:
        self.gate.add(request, client_address)

    def stop_games(self) -> None:
        self.hub.stop()

    def server_close(self) -> None:
        self.stop_games()
        self.gate.stop()
        super().server_close()


def make_server(game, host: str = "127.0.0.1", port: int = 8000, seats: list[str] | None = None,
                players: int | None = None) -> Server:
    """A server for one game (port 0: any free port; ``server.server_address`` says which)."""
    hub = Hub(game, seats, players)
    Server.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        server = Server((host, port), make_handler(hub, Addresses(host, port), RateLimit(RATE, BURST)))
    except BaseException:
        hub.stop()
        raise
    if port == 0:  # the port chosen: what Host and Origin headers will name
        server.RequestHandlerClass = make_handler(hub, Addresses(host, server.server_address[1]),
                                                  RateLimit(RATE, BURST))
    server.hub = hub
    return server
