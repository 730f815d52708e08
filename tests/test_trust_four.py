"""Trust, round four: checks that never stall, servers that shed slow clients, runs that never
lose a finished game, caches and saved states that are verified before they are believed, and
runtime errors that say how to reproduce them."""
from __future__ import annotations

import pytest

import regle
from regle.dsl.errors import RulesError
from regle.loader import compile_text


def chain(depth: int, nested: bool = True) -> str:
    """A rules text whose define i uses define i-1 twice (nested: ``d(d(c))``), so that writing
    each in place in the next would double the work at every level."""
    lines = ['game "Chain" {\n  players 2\n}\n', "grid board: player square 3 by 3\n", "define d0(c) = c\n"]
    for i in range(1, depth + 1):
        body = f"d{i - 1}(d{i - 1}(c))" if nested else f"d{i - 1}(c) + 0 * count(d{i - 1}(c) for x in 1..2)"
        lines.append(f"define d{i}(c) = {body}\n")
    lines.append('turn {\n  action mark(c in empty_cells(board)) "{c}" {\n    put me at c on board\n  }\n}\n')
    lines.append(f'end when d{depth}(cell(board, "a1")) == cell(board, "a1") then winner me\n')
    return "".join(lines)


# ---- the checker's budget ---------------------------------------------------------------------
def test_a_define_chain_that_doubles_at_each_level_is_refused_where_it_is_used():
    with pytest.raises(RulesError) as err:
        regle.loads(chain(20), "chain", backend="python")
    [d] = err.value.diagnostics
    assert (d.line, d.column) == (31, 10)  # the use of d20 in the end condition
    assert "this use of 'd20' expands into too much to check" in d.message
    assert "let" in d.hint


def test_the_budget_stops_the_work_not_a_clock(monkeypatch):
    """The refusal comes from counting expressions: lowering builds at most the budget."""
    from compiler.lower import exprs
    from compiler.lower.lowerer import work_budget
    from regle.dsl import parse
    built = [0]
    tree = exprs.ExpressionLowering.tree

    def counted(self, node, ctx):
        built[0] += 1
        return tree(self, node, ctx)
    monkeypatch.setattr(exprs.ExpressionLowering, "tree", counted)
    with pytest.raises(RulesError):
        compile_text(chain(20))
    assert built[0] <= work_budget(parse(chain(20))) + 1


def test_a_short_chain_still_checks_and_plays():
    game = regle.loads(chain(6), "chain6", backend="python")
    assert game.new_game(2, seed=1).legal_moves()


def test_the_budget_grows_with_the_text_so_shipped_games_are_far_below_it():
    from compiler.lower.lowerer import work_budget
    from regle.dsl import parse
    from conftest import GAMES
    text = (GAMES / "classics" / "chess.rules").read_text(encoding="utf-8")
    assert work_budget(parse(text)) >= 60_000
    compile_text(text)  # far below


# ---- simulate --out: nothing finished is lost ---------------------------------------------------
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402

from conftest import GAMES  # noqa: E402

ROOT = GAMES.parent


def _script(body: str, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run regle's command line in a fresh interpreter after ``body`` (which plants a fault)."""
    code = "import os, signal, sys\nimport regle.cli, regle.simulate\n" + textwrap.dedent(body) + \
        "\nsys.exit(regle.cli.main(sys.argv[1:]))\n"
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ, "CI": "", "NO_COLOR": "1", "PYTHONPATH": str(ROOT)})


def _seeds(path) -> list[int]:
    return [json.loads(line)["seed"] for line in path.read_text().splitlines()]


@pytest.mark.parametrize("fault", ["os.kill(os.getpid(), signal.SIGKILL)", "raise KeyboardInterrupt"])
def test_a_stop_during_the_final_write_keeps_every_game(tmp_path, fault):
    """The final sort goes through a temporary file and os.replace: a kill -9 or a Ctrl-C at
    that instant leaves the file as the games were played, every one of them."""
    out = tmp_path / "games.jsonl"
    body = f"""
    real_replace = os.replace
    def replace(source, target, *a, **k):
        if str(target).endswith("games.jsonl"):
            {fault}
        return real_replace(source, target, *a, **k)
    os.replace = replace
    """
    done = _script(body, "simulate", "tictactoe", "-n", "120", "--jobs", "2", "--out", str(out),
                   "--backend", "python")
    assert done.returncode != 0
    assert sorted(_seeds(out)) == list(range(120))


def test_the_final_write_sorts_the_games_by_seed(tmp_path):
    out = tmp_path / "games.jsonl"
    done = _script("", "simulate", "tictactoe", "-n", "120", "--jobs", "2", "--out", str(out), "--backend", "python")
    assert done.returncode == 0, done.stderr
    assert _seeds(out) == list(range(120))
    assert not list(tmp_path.glob(".*sorting"))


KILL_AT_GAME_150 = """
play_batch = regle.simulate.play_batch
def dying(rules_path, players, seed, first, count, *rest):
    if first <= 150 < first + count:
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
    return list(play_batch(rules_path, players, seed, first, count, *rest))
regle.simulate.run_batch = dying
"""


def test_a_killed_worker_ends_the_run_keeping_its_games_and_resume_completes_it(tmp_path):
    out = tmp_path / "games.jsonl"
    args = ["simulate", "tictactoe", "-n", "200", "--jobs", "2", "--agents", "random,greedy", "--backend", "python"]
    died = _script(KILL_AT_GAME_150, *args, "--out", str(out), timeout=60)
    assert died.returncode == 1, died.stderr
    assert "a worker process died" in died.stderr and "--resume" in died.stderr
    kept = _seeds(out)
    assert 0 < len(kept) < 200 and 150 not in kept and len(set(kept)) == len(kept)
    command = died.stderr.split("go on with: ")[1].split(")")[0].split()
    assert command[:2] == ["regle", "simulate"] and command[-2:] == ["--resume", str(out)]
    assert command[2] == "tictactoe"  # the game as it was named
    resumed = _script("", *command[1:], "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert _seeds(out) == list(range(200))
    whole = _script("", *args, "--out", str(tmp_path / "whole.jsonl"))
    assert whole.returncode == 0
    assert out.read_text() == (tmp_path / "whole.jsonl").read_text()  # the same games as one run
    assert json.loads(resumed.stdout)["games"] == 200


def test_resume_refuses_a_file_of_other_options_and_drops_a_cut_last_line(tmp_path):
    out = tmp_path / "games.jsonl"
    assert _script("", "simulate", "tictactoe", "-n", "30", "--out", str(out), "--backend", "python").returncode == 0
    other = _script("", "simulate", "tictactoe", "-n", "30", "--agents", "greedy", "--resume", str(out))
    assert other.returncode == 1 and "resume with the options of the first run" in other.stderr
    data = out.read_bytes()
    out.write_bytes(data[:-25])  # the last game's line cut short, as by a full disk
    report = _script("", "simulate", "--report", str(out), "--json")
    assert report.returncode == 0 and json.loads(report.stdout)["games"] == 29
    assert "last line was cut short" in report.stderr
    resumed = _script("", "simulate", "tictactoe", "-n", "30", "--resume", str(out), "--backend", "python")
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == data


def test_a_full_disk_names_the_file_and_how_to_go_on(tmp_path):
    out = tmp_path / "games.jsonl"
    body = """
    import io
    real_open = open
    def full(path, mode="r", *a, **k):
        f = real_open(path, mode, *a, **k)
        if str(path).endswith("games.jsonl") and "w" in mode:
            write = f.write
            calls = [0]
            def failing(text):
                calls[0] += 1
                if calls[0] > 5:
                    raise OSError(28, "No space left on device")
                return write(text)
            f.write = failing
        return f
    import builtins
    builtins.open = full
    """
    done = _script(body, "simulate", "tictactoe", "-n", "50", "--out", str(out), "--backend", "python")
    assert done.returncode == 1
    assert f"cannot write {out}: No space left on device" in done.stderr and "--resume" in done.stderr
    assert _seeds(out) == list(range(5))


# ---- servers that shed slow clients -------------------------------------------------------------
import resource  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from regle.web import gate  # noqa: E402
from regle.web.server import make_server  # noqa: E402


@pytest.fixture
def served():
    made = []

    def serve(name="tictactoe"):
        server = make_server(regle.load(name, backend="python"), port=0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        made.append(server)
        return server
    yield serve
    for server in made:
        server.shutdown()
        server.server_close()


def _ask(port: int, raw: bytes, timeout: float = 10) -> bytes:
    """Send raw bytes on a new connection; everything the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


def _request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    payload = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    if token:
        head += f"X-Regle-Token: {token}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
    answer = _ask(port, head.encode() + b"\r\n" + payload)
    head_text, _, rest = answer.partition(b"\r\n\r\n")
    return int(head_text.split()[1]), json.loads(rest) if rest.startswith(b"{") else {}


def test_six_hundred_half_open_connections_neither_stop_a_new_player_nor_hold_threads(served):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1500:
        pytest.skip("this system allows too few open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(4096, hard)), hard))
    server = served()
    port = server.server_address[1]
    threads_before = threading.active_count()
    slow = []
    try:
        for i in range(600):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")  # and nothing more
            slow.append(sock)
        status, made = _request(port, "POST", "/api/games", {"seed": 3})
        assert status == 200, made
        status, seen = _request(port, "GET", f"/api/games/{made['id']}", token=made["token"])
        assert status == 200 and seen["moves"]
        status, played = _request(port, "POST", f"/api/games/{made['id']}/play",
                                  {"move": seen["moves"][0]["id"], "version": seen["version"]}, made["token"])
        assert status == 200 and played["version"] > seen["version"], played
        deadline = time.monotonic() + 10
        while server.gate.count() > gate.PER_CLIENT and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.gate.count() <= gate.PER_CLIENT  # the slowest were shed
        # a thread per request being handled, never one per connection
        assert threading.active_count() - threads_before < 20
    finally:
        for sock in slow:
            sock.close()


def test_a_request_that_does_not_arrive_in_time_gets_408(served, monkeypatch):
    monkeypatch.setattr(gate, "REQUEST_SECONDS", 0.5)
    server = served()
    port = server.server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /api/game HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: the head goes on
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert sock.recv(65536) == b""  # and closed


def test_two_content_lengths_are_refused_and_the_body_is_never_a_second_request(served):
    server = served()
    port = server.server_address[1]
    smuggled = f"GET /api/game HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    for framing in (f"Content-Length: 2\r\nContent-Length: {len(smuggled) + 2}\r\n",
                    f"Content-Length: {len(smuggled) + 2}\r\nTransfer-Encoding: chunked\r\n"):
        answer = _ask(port, (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                             f"Content-Type: application/json\r\n{framing}\r\n").encode() + b"{}" + smuggled)
        assert answer.startswith(b"HTTP/1.1 400"), answer
        assert answer.count(b"HTTP/1.1 ") == 1  # one answer: the rest was not read as a request


def test_a_query_number_of_five_thousand_digits_is_a_400(served):
    server = served()
    port = server.server_address[1]
    status, made = _request(port, "POST", "/api/games", {})
    for name in ("after", "at"):
        status, answer = _request(port, "GET", f"/api/games/{made['id']}?{name}=" + "9" * 5000)
        assert status == 400, answer


def test_kept_alive_connections_serve_several_requests_in_turn(served):
    server = served()
    port = server.server_address[1]
    one = f"GET /api/game HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(one + one)  # two at once (pipelined)
        data = b""
        while data.count(b"HTTP/1.1 200") < 2:
            chunk = sock.recv(65536)
            assert chunk, data
            data += chunk
        sock.sendall(one)
        data = b""
        while b"HTTP/1.1 200" not in data:
            data += sock.recv(65536)


def test_the_studio_answers_another_pages_check_while_a_costly_text_is_refused(tmp_path):
    from regle.web.studio import make_studio
    path = tmp_path / "mine.rules"
    good = (GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8")
    path.write_text(good, encoding="utf-8")
    server = make_studio(path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    answers: dict[str, tuple] = {}

    def check(name: str, text: str) -> None:
        answers[name] = _request(port, "POST", "/api/studio/check", {"text": text})
    try:
        costly = threading.Thread(target=check, args=("costly", chain(20)))
        costly.start()
        small = good.replace("max decisions 9", "max decisions 9\n  marks \"X\", \"O\"", 0)
        check("small", small)
        costly.join(timeout=30)
        status, answer = answers["small"]
        assert status == 200 and answer["problems"] == []
        status, answer = answers["costly"]
        assert status == 200
        if not answer.get("superseded"):  # checked before the small one came: refused, positioned
            [problem] = answer["problems"]
            assert "too much to check" in problem["message"] and problem["line"] == 31
    finally:
        server.shutdown()
        server.server_close()


def test_the_studio_reports_a_game_that_fails_at_its_first_decision_as_a_problem(tmp_path):
    from regle.web.studio import make_studio
    path = tmp_path / "mine.rules"
    path.write_text((GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8"), encoding="utf-8")
    server = make_studio(path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    huge = ('game "Huge" {\n  players 2\n}\n\ncounter total = 0\n\nturn {\n'
            '  action pick(a in 1..2000, b in 1..2000) "{a} {b}" {\n    total = a + b\n  }\n}\n\n'
            "end when total > 0\n")
    try:
        status, answer = _request(port, "POST", "/api/studio/check", {"text": huge})
        assert status == 200, answer
        [problem] = answer["problems"]
        assert "more than" in problem["message"] and problem["line"] == 8
    finally:
        server.shutdown()
        server.server_close()


# ---- the native cache verifies before it loads ----------------------------------------------------
from regle import loader, native  # noqa: E402

needs_native = pytest.mark.skipif(not native.available(), reason="no C compiler or Cython here")


@needs_native
def test_a_truncated_cached_native_engine_is_rebuilt_not_mapped(tmp_path):
    rules = tmp_path / "truncated.rules"
    rules.write_text((GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8")
                     .replace('"Tic-tac-toe"', '"Tic-tac-toe (truncated cache)"'), encoding="utf-8")
    play = ("import regle, sys\ngame = regle.load(sys.argv[1], backend='native')\n"
            "state = game.new_game(2, seed=1)\nstate.play_random_playout(1)\nprint(game.backend, state.winners)\n")
    first = subprocess.run([sys.executable, "-c", play, str(rules)], capture_output=True, text=True, timeout=300,
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert first.returncode == 0, first.stderr
    text = rules.read_text(encoding="utf-8")
    _key, _module, target = loader.native_place(text, loader.canonical(str(rules)), "truncated")
    assert target.exists() and native.verified(target)
    whole = target.read_bytes()
    for damage in (whole[:len(whole) // 2], b"\0" * len(whole)):  # truncated; garbage of the same size
        target.write_bytes(damage)
        again = subprocess.run([sys.executable, "-c", play, str(rules)], capture_output=True, text=True,
                               timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert again.returncode == 0, (again.returncode, again.stderr)  # not -7 (a bus error)
        assert again.stdout == first.stdout
        assert native.verified(target)


@needs_native
def test_engines_import_cythons_helpers_from_one_module_and_a_damaged_one_is_rebuilt(tmp_path, monkeypatch):
    """Every native engine built with one toolchain imports Cython's helpers from one shared
    module beside it (built once, recorded as engines are); a shared module cut short or
    missing is built again with the engine, never mapped."""
    monkeypatch.setenv("REGLE_CACHE_DIR", str(tmp_path / "cache"))  # (the shared module of this test's own cache)
    rules = tmp_path / "shared.rules"
    rules.write_text((GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8")
                     .replace('"Tic-tac-toe"', '"Tic-tac-toe (shared helpers)"'), encoding="utf-8")
    play = ("import regle, sys\nfrom regle import native\ngame = regle.load(sys.argv[1], backend='native')\n"
            "state = game.new_game(2, seed=1)\nstate.play_random_playout(1)\n"
            "print(game.backend, state.winners, native.shared_name() in sys.modules)\n")

    def run():
        return subprocess.run([sys.executable, "-c", play, str(rules)], capture_output=True, text=True, timeout=300,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    first = run()
    assert first.returncode == 0, first.stderr
    assert first.stdout.split()[0] == "native" and first.stdout.split()[-1] == "True"
    _key, _module, target = loader.native_place(rules.read_text(encoding="utf-8"), loader.canonical(str(rules)), "shared")
    shared = native.module_path(target.parent, native.shared_name())
    assert shared.exists() and native.verified(shared)
    assert {shared, native.record_path(shared)} <= set(loader.cached_files())  # cache --clear removes it too
    whole = shared.read_bytes()
    for damage in (whole[:len(whole) // 2], None):  # cut short; gone
        if damage is None:
            native.forget(shared)
        else:
            shared.write_bytes(damage)
        again = run()
        assert again.returncode == 0, (again.returncode, again.stderr)  # not -7 (a bus error)
        assert again.stdout == first.stdout
        assert native.verified(shared) and native.verified(target)


@pytest.mark.parametrize("version, shares", [("3.0.11", False), ("3.1.0", True), ("3.3.1", True), ("4.0a1", True), ("", False)])
def test_only_a_cython_that_can_share_its_helpers_is_asked_to(monkeypatch, version, shares):
    """``--shared`` came with Cython 3.1: an older one (regle asks for 3.0 or later) builds each
    engine with its own helpers, and no engine then asks for the shared module."""
    monkeypatch.setattr(native, "toolchain", lambda: {"cython": version})
    assert native.shares_helpers() is shares


def test_clearing_a_read_only_cache_says_what_stays(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("REGLE_CACHE_DIR", str(cache))
    regle.loads((GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8"), "ro", backend="python")
    assert loader.cached_files()
    read_only = """
    import pathlib
    def unlink(self, missing_ok=False):
        raise PermissionError(13, "Permission denied")
    pathlib.Path.unlink = unlink
    """
    done = _script(read_only, "cache", "--clear")
    assert done.returncode == 1
    assert "removed 0 cached files" in done.stdout
    assert "could not be removed (Permission denied)" in done.stderr
    assert loader.cached_files()  # what it said stays, stays
    done = _script("", "cache", "--clear")
    assert done.returncode == 0 and not loader.cached_files()


def test_builds_into_a_private_folder_leave_nothing_behind(tmp_path, monkeypatch):
    """With a cache that cannot be written, a native build goes to a folder of the process,
    removed at its exit; the folder of a killed process is removed by cache --clear."""
    code = ("import os, tempfile\nfrom regle import loader\nfolder = loader._private_folder()\n"
            "(folder / 'x.so').write_bytes(b'1')\nprint(folder)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    folder = done.stdout.strip()
    assert folder and not os.path.exists(folder)
    killed = subprocess.run([sys.executable, "-c", code + "os.kill(os.getpid(), 9)\n"], capture_output=True,
                            text=True, timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    folder = killed.stdout.strip()
    assert os.path.isdir(folder)
    assert loader.stale_private_folders() and any(str(p) == folder for p in loader.stale_private_folders())
    monkeypatch.setenv("REGLE_CACHE_DIR", str(tmp_path / "cache"))  # (never the cache the other tests use)
    cleared = loader.clear_cache()
    assert not os.path.exists(folder) and cleared >= 1


# ---- runtime rules errors speak the rules' language -------------------------------------------------
FAILS_LATER = """game "Fails later" {
  players 2
}

zone pile: int = [1, 2, 3]
counter taken = 0

turn {
  action take(n in 1..3) "take {n}" {
    remove n from pile
    taken = taken + 1
  }
}

end when taken == 3
"""

SCORE_FAILS = """game "Score fails" {
  players 2
}

counter moves = 0

turn {
  action go "go" {
    moves = moves + 1
  }
}

score p {
  share: 12 // (3 - moves)
}

end when moves == 5
"""


def test_a_rules_error_in_simulate_names_the_game_and_a_replay_that_reproduces_it(tmp_path):
    rules = tmp_path / "fails.rules"
    rules.write_text(FAILS_LATER, encoding="utf-8")
    done = _script("", "simulate", str(rules), "-n", "20", "--backend", "python")
    assert done.returncode == 1
    said = done.stderr
    assert f"{rules}:10: error while playing: the item to take is not there" in said
    assert "list.remove" not in said and "Traceback" not in said  # no Python wording
    assert "in the game of seed 0, 2 players (random,random), after" in said
    command = said.split("play it again: ")[1].strip().split()
    assert command[:3] == ["regle", "play", str(rules)] and "--replay" in command
    again = _script("", *command[1:])
    assert again.returncode == 1
    assert f"{rules}:10: error while playing: the item to take is not there" in again.stderr


def test_a_score_that_fails_mid_game_is_caught_by_check_simulate_with_its_line(tmp_path):
    rules = tmp_path / "score.rules"
    rules.write_text(SCORE_FAILS, encoding="utf-8")
    done = _script("", "check", str(rules), "--simulate", "2", "--backend", "python")
    assert done.returncode == 1
    assert f"{rules}:14: error while scoring: a division by zero" in done.stderr, done.stderr
    assert "after 3 moves" in done.stderr and "--replay 0,0,0" in done.stderr


@needs_native
def test_check_simulate_plays_the_engine_backend_asks_for(tmp_path):
    probe = """
    import regle.runtime.match as match
    real = match._play_game
    def told(game, *a, **k):
        print("engine", game.backend, file=sys.stderr)
        return real(game, *a, **k)
    match._play_game = told
    """
    for how, env in ((["--backend", "native"], {}), ([], {"REGLE_BACKEND": "native"}),
                     (["--backend", "python"], {})):
        old = dict(os.environ)
        os.environ.update(env)
        try:
            done = _script(probe, "check", "tictactoe", "--simulate", "2", *how, timeout=300)
        finally:
            os.environ.clear()
            os.environ.update(old)
        assert done.returncode == 0, done.stderr
        engines = {line.split()[1] for line in done.stderr.splitlines() if line.startswith("engine ")}
        assert engines == {"python" if "python" in how else "native"}, (how, env, done.stderr)


def test_a_rules_error_in_play_gives_the_command_that_plays_it_again(tmp_path):
    rules = tmp_path / "fails.rules"
    rules.write_text(FAILS_LATER, encoding="utf-8")
    done = _script("", "play", str(rules), "--seats", "random,random", "--seed", "4", "--quiet")
    assert done.returncode == 1
    assert "the item to take is not there" in done.stderr and "--seed 4" in done.stderr
    command = done.stderr.split("play it again: ")[1].strip().split()
    again = _script("", *command[1:])
    assert again.returncode == 1 and again.stderr == done.stderr


# ---- saved states are validated -------------------------------------------------------------------
from regle.runtime import StateError  # noqa: E402


def _lost_cities_state(decisions: int = 30) -> tuple:
    game = regle.load("lostcities", backend="python")
    state = game.new_game(2, seed=3)
    while state.decisions < decisions:
        state.play_random_playout(state.decisions, limit=1)
    return game, state.to_json()


def _tampered(data: dict, change) -> dict:
    import copy
    data = copy.deepcopy(data)
    change(data["zones"])
    return data


def _empty_the_deck(z):
    z["discard"][0] += z["deck"]
    z["deck"] = []


def _expedition_falls(z):
    """Two cards of one colour from the deck laid on an expedition, the higher first."""
    game = regle.load("lostcities", backend="python")
    shown = {c: game.show("item:card", c) for c in z["deck"]}  # "Y7", "B$" ...
    numbered = sorted((s[0], int(s[1:]), c) for c, s in shown.items() if s[1:].isdigit())
    low, high = next((a, b) for a, b in zip(numbered, numbered[1:]) if a[0] == b[0] and a[1] < b[1])
    z["deck"] = [c for c in z["deck"] if c not in (low[2], high[2])]
    z["expedition"][0] += [high[2], low[2]]


def _cards_into_a_hand(z):  # 42 cards more in a hand, each still in one place
    z["hand"][0] += z["deck"][:42]
    z["deck"] = z["deck"][42:]


TAMPERED = [(_empty_the_deck, "an end condition holds after the turn of", 30),
            (_cards_into_a_hand, "invariant 'hands_of_eight'", 2),
            (_expedition_falls, "invariant 'expeditions_rise'", 30),
            (lambda z: z["deck"].pop(), "of card is nowhere", 30),
            (lambda z: z["hand"][1].append(z["hand"][0][0]), "an item lies in one place at a time", 30)]


@pytest.mark.parametrize("change, reason, decisions", TAMPERED)
def test_a_tampered_saved_state_is_refused_with_its_reason(change, reason, decisions):
    game, data = _lost_cities_state(decisions)
    game.state_from_json(data)  # the state as saved loads
    with pytest.raises(StateError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        game.state_from_json(_tampered(data, change))


@pytest.mark.parametrize("change, reason, decisions", TAMPERED[:3])
def test_serve_refuses_a_tampered_state_to_replay_with_its_reason(change, reason, decisions):
    server = make_server(regle.load("lostcities", backend="python"), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        _game, data = _lost_cities_state(decisions)
        status, answer = _request(server.server_address[1], "POST", "/api/replay",
                                  {"state": _tampered(data, change)})
        assert status == 400 and reason in answer["error"], answer
    finally:
        server.shutdown()
        server.server_close()


def test_every_state_play_reaches_loads_again_on_both_engines():
    """The checks refuse no state the rules can reach: every position of seeded games of the
    games with conserved items or end checks, saved and loaded again."""
    for name in ("lostcities", "pixies", "eclats", "tictactoe", "kuhn"):
        for backend in ("python", "native") if native.available() else ("python",):
            game = regle.load(name, backend=backend)
            for seed in range(3):
                state = game.new_game(game.players.start, seed=seed)
                while not state.over:
                    again = game.state_from_json(state.to_json())
                    assert again.to_json() == state.to_json()
                    state.play_random_playout(seed * 1000 + state.decisions, limit=1)
                game.state_from_json(state.to_json())


def test_a_rules_error_while_the_studio_simulates_is_a_positioned_422_not_a_500(tmp_path):
    from regle.web.studio import make_studio
    path = tmp_path / "mine.rules"
    path.write_text((GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8"), encoding="utf-8")
    server = make_studio(path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        status, answer = _request(server.server_address[1], "POST", "/api/studio/simulate",
                                  {"text": FAILS_LATER, "games": 5})
        assert status == 422, answer
        assert answer["line"] == 10 and "the item to take is not there" in answer["error"]
    finally:
        server.shutdown()
        server.server_close()
