"""regle serve is driven only by its own pages: requests to other names or from other sites are
refused, bodies are JSON of a checked length, a seat acts and sees only with its token, a stale
move plays nothing, the games kept are bounded without dropping one in play, and agents play on
a worker while the server keeps answering."""
from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

import regle
from regle.runtime.hidden import determinize
from regle.runtime.rng import Rng
from regle.web import sessions
from regle.web.server import make_server

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "X-Regle-Token"


class Raw:
    """A served game spoken to over a plain socket, so that every header is ours to choose."""

    def __init__(self, path: Path, seats=None):
        self.game = regle.load(path)
        self.server = make_server(self.game, port=0, seats=seats)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
             timeout: float = 10) -> tuple[int, dict]:
        head = {"Host": f"127.0.0.1:{self.port}", "Connection": "close"}
        if body is not None:
            head.update({"Content-Type": "application/json", "Content-Length": str(len(body))})
        head.update(headers or {})
        lines = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in head.items() if v is not None]
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b""))
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        head_text, _, payload = data.partition(b"\r\n\r\n")
        status = int(head_text.split()[1])
        return status, json.loads(payload) if payload.startswith(b"{") else {}

    def json(self, method: str, path: str, body=None, **headers) -> tuple[int, dict]:
        return self.send(method, path, json.dumps(body if body is not None else {}).encode()
                         if method == "POST" else None, headers)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def raw():
    made = []

    def serve(name, seats=None):
        path = ROOT / "games" / f"{name}.rules"
        if not path.exists():
            path = ROOT / "games" / "classics" / f"{name}.rules"
        r = Raw(path, seats)
        made.append(r)
        return r
    yield serve
    for r in made:
        r.close()


def _game(r: Raw, body=None) -> dict:
    status, made = r.json("POST", "/api/games", body or {})
    assert status == 200, made
    return made


def test_foreign_hosts_and_origins_are_refused_on_every_route(raw):
    r = raw("lostcities", seats=["human", "human"])
    made = _game(r, {"seed": 1})
    sid, token = made["id"], made["token"]
    version = r.json("GET", f"/api/games/{sid}", **{TOKEN: token})[1]["version"]
    routes = [("GET", "/api/game", None), ("GET", f"/api/games/{sid}", None),
              ("POST", "/api/games", {}), ("POST", f"/api/games/{sid}/play", {"move": "draw", "version": version}),
              ("POST", f"/api/games/{sid}/control", {"paused": True}), ("POST", f"/api/games/{sid}/again", {}),
              ("POST", "/api/replay", {"state": {}})]
    foreign = [{"Host": "evil.example"}, {"Host": f"evil.example:{r.port}"}, {"Host": f"127.0.0.1:{r.port + 1}"},
               {"Host": None}, {"Origin": "http://evil.example"}, {"Origin": f"http://localhost:{r.port}"},
               {"Origin": "null"}, {"Origin": f"https://127.0.0.1:{r.port}"}, {"Sec-Fetch-Site": "cross-site"},
               {"Sec-Fetch-Site": "same-site"}]
    for method, path, body in routes:
        for headers in foreign:
            status, answer = r.json(method, path, body, **{TOKEN: token}, **headers)
            assert status == 403, (method, path, headers, answer)
    # the pages themselves are not served to a foreign name either (DNS rebinding)
    assert r.send("GET", "/", headers={"Host": "evil.example"})[0] == 403
    # what the server's own page sends passes
    own = {"Origin": f"http://127.0.0.1:{r.port}", "Sec-Fetch-Site": "same-origin", TOKEN: token}
    assert r.json("GET", f"/api/games/{sid}", **own)[0] == 200
    assert r.json("GET", f"/api/games/{sid}", Host=f"localhost:{r.port}")[0] == 200
    assert r.send("GET", "/")[0] == 200
    assert r.server.hub.get(sid).version == version  # nothing was played


def test_bodies_are_json_of_a_checked_length_read_only_after_the_checks(raw):
    r = raw("tictactoe", seats=["human", "human"])
    before = len(r.server.hub.sessions)
    body = b"{}"
    assert r.send("POST", "/api/games", body, {"Content-Type": "text/plain"})[0] == 415
    assert r.send("POST", "/api/games", body, {"Content-Type": "application/x-www-form-urlencoded"})[0] == 415
    assert r.send("POST", "/api/games", body, {"Content-Type": "multipart/form-data; boundary=x"})[0] == 415
    for length in ("-1", "abc", str(2 * 1024 ** 3), "1e3", " 12x", "+5"):
        started = time.monotonic()
        # no body follows: a server that tried to read it would wait for the socket's timeout
        status, answer = r.send("POST", "/api/games", None, {"Content-Type": "application/json",
                                                             "Content-Length": length})
        assert status in (400, 413), (length, answer)
        assert time.monotonic() - started < 3, "refused before reading"
    # a Transfer-Encoding beside a Content-Length: which one frames the body? neither is believed
    assert r.send("POST", "/api/games", body, {"Transfer-Encoding": "chunked"})[0] == 400
    assert r.send("POST", "/api/games", None, {"Transfer-Encoding": "chunked", "Content-Type": "application/json"})[0] == 411
    deep = b"[" * 100_000 + b"]" * 100_000
    assert r.send("POST", "/api/games", deep)[0] in (400, 413)
    deep = b'{"a":' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    status, answer = r.send("POST", "/api/games", deep)
    assert status == 400 and "JSON" in answer["error"]
    assert len(r.server.hub.sessions) == before  # nothing was made


def test_without_a_token_a_request_sees_nothing_private_and_a_token_only_its_seat(raw):
    r = raw("lostcities", seats=["human", "human"])
    made = _game(r, {"seed": 5})
    sid, tokens = made["id"], {made["seat"]: made["token"], **{i["seat"]: i["token"] for i in made["invites"]}}
    session = r.server.hub.get(sid)
    rng = __import__("random").Random(3)
    compared = 0
    for _ in range(12):
        state = session.state
        for p in range(state.n):
            other = determinize(state, p, Rng(compared + 1))
            for viewer, token in ((None, None), *((q, tokens[q]) for q in range(state.n) if q == p)):
                status, seen = r.json("GET", f"/api/games/{sid}", **({TOKEN: token} if token else {}))
                with session.lock:
                    session.state = other
                status2, seen_other = r.json("GET", f"/api/games/{sid}", **({TOKEN: token} if token else {}))
                with session.lock:
                    session.state = state
                assert status == status2 == 200
                for key in ("html", "moves", "log", "current"):
                    assert seen[key] == seen_other[key], (viewer, key)
                compared += 1
        if state.is_over:
            break
        with session.lock:
            state.play(rng.choice(state.legal_moves()))
            session.version += 1
    assert compared >= 24
    # and a seat's token shows its own hand, which a spectator does not see
    hand = [r.game.namespace["show_value"]("item:card", v) for v in session.state.z_hand[0]]
    mine = r.json("GET", f"/api/games/{sid}", **{TOKEN: tokens[0]})[1]["html"]
    spectator = r.json("GET", f"/api/games/{sid}")[1]["html"]
    assert all(f">{c}<" in mine for c in hand) and not any(f">{c}<" in spectator for c in hand)
    assert r.json("GET", f"/api/games/{sid}", **{TOKEN: "not-a-token"})[0] == 403


def test_a_replayed_move_request_is_refused_and_plays_nothing(raw):
    r = raw("tictactoe", seats=["human", "human"])
    made = _game(r, {"seed": 1})
    sid, p1, p2 = made["id"], made["token"], made["invites"][0]["token"]
    page = r.json("GET", f"/api/games/{sid}", **{TOKEN: p1})[1]
    request = {"move": page["moves"][0]["text"], "version": page["version"]}
    assert r.json("POST", f"/api/games/{sid}/play", request, **{TOKEN: p1})[0] == 200
    # the same request again (a double click): the game has moved on
    status, answer = r.json("POST", f"/api/games/{sid}/play", request, **{TOKEN: p1})
    assert status == 409 and "moved on" in answer["error"]
    page2 = r.json("GET", f"/api/games/{sid}", **{TOKEN: p2})[1]
    stale = {"move": page2["moves"][0]["text"], "version": page["version"]}
    assert r.json("POST", f"/api/games/{sid}/play", stale, **{TOKEN: p2})[0] == 409
    assert r.server.hub.get(sid).state.decisions == 1 and len(page2["log"]) == 1
    # a spectator is told it holds no seat, not whose turn it is
    status, answer = r.json("POST", f"/api/games/{sid}/play", {"move": page2["moves"][0]["text"],
                                                                "version": page2["version"]})
    assert status == 403 and "spectator" in answer["error"]


def test_creating_many_games_never_drops_one_played_in_the_last_hour(raw, monkeypatch):
    r = raw("tictactoe", seats=["human", "human"])
    r.server.hub.max_games = 50  # the same rule as at 500, sooner
    made = _game(r, {"seed": 1})
    sid, token = made["id"], made["token"]
    page = r.json("GET", f"/api/games/{sid}", **{TOKEN: token})[1]
    assert r.json("POST", f"/api/games/{sid}/play", {"move": page["moves"][0]["text"], "version": 0},
                  **{TOKEN: token})[0] == 200
    def patient(method: str, path: str, body=None, **headers) -> tuple:
        """A request, waiting while the request rate bound answers 429 (the thousand games
        below spend it, and it bounds every request of the API, reads too)."""
        while True:
            status, answer = r.json(method, path, body, **headers)
            if status != 429:
                return status, answer
            time.sleep(0.5)

    def create(body: dict) -> tuple:
        return patient("POST", "/api/games", body)

    for i in range(1000):
        status, answer = create({"seed": i})
        assert status == 200, answer
    hub = r.server.hub
    assert len(hub.sessions) <= 50 and sid in hub.sessions
    status, page = patient("GET", f"/api/games/{sid}", **{TOKEN: token})
    assert status == 200 and page["version"] == 1
    # when every game was moved in the last hour, a new one is refused, saying why
    for s in list(hub.sessions.values()):
        s.moved_at = time.monotonic()
    status, answer = create({})
    assert status == 503 and "last hour" in answer["error"]
    # a game idle for more than an hour may go
    hub.sessions[sid].touched -= sessions.IDLE_KEPT + 1
    assert create({})[0] == 200 and sid not in hub.sessions


def test_an_agent_game_answers_at_once_and_the_server_stays_responsive(raw):
    r = raw("eclats", seats=["mcts:time=0.5", "mcts:time=0.5"])
    started = time.monotonic()
    status, made = r.json("POST", "/api/games", {"seed": 3})
    assert status == 200 and time.monotonic() - started < 1.0
    sid = made["id"]
    assert made["token"] is None and made["invites"] == []  # agents only: no seat to hold
    time.sleep(0.2)  # the worker is thinking now
    for _ in range(5):
        started = time.monotonic()
        assert r.json("GET", f"/api/games/{sid}")[0] == 200
        assert r.json("GET", "/api/game")[0] == 200
        assert time.monotonic() - started < 1.0
    deadline = time.monotonic() + 20
    while r.server.hub.get(sid).version < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert r.server.hub.get(sid).version >= 2, "the agents play on the worker"
    # the page can pause them; a dropped game is no longer played
    assert r.json("POST", f"/api/games/{sid}/control", {"paused": True})[0] == 200
    time.sleep(1.2)
    version = r.server.hub.get(sid).version
    time.sleep(1.0)
    assert r.server.hub.get(sid).version == version
    # agents that would think longer than a server allows are refused, saying the bound
    status, answer = r.json("POST", "/api/games", {"seats": ["mcts:time=3600", "random"]})
    assert status == 400 and "at most" in answer["error"]


def test_every_seat_of_a_game_started_again_follows_with_its_own_token(raw):
    r = raw("tictactoe", seats=["human", "human"])
    made = _game(r, {"seed": 1})
    sid, p1, p2 = made["id"], made["token"], made["invites"][0]["token"]
    again = r.json("POST", f"/api/games/{sid}/again", {}, **{TOKEN: p1})[1]
    seen_by_2 = r.json("GET", f"/api/games/{sid}", **{TOKEN: p2})[1]["next"]
    seen_by_1 = r.json("GET", f"/api/games/{sid}", **{TOKEN: p1})[1]["next"]
    watcher = r.json("GET", f"/api/games/{sid}")[1]["next"]
    assert seen_by_1["id"] == seen_by_2["id"] == watcher["id"] == again["id"]
    assert seen_by_1["token"] == again["token"] and seen_by_2["token"] == again["invites"][0]["token"]
    assert watcher["token"] is None and seen_by_1["token"] != seen_by_2["token"]
    assert r.json("POST", f"/api/games/{sid}/again", {})[0] == 403  # a spectator cannot
