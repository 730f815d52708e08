"""Many seeded games between agents, on every core, summarised with confidence intervals.

Games are numbered: game i is played with seed ``seed + i``, so a batch is a seed range and
results never depend on how many workers played them or in which order they finished.
"""
from __future__ import annotations

import math
import os
import signal
import statistics
import sys
import threading
import time
from contextlib import contextmanager
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterable, Iterator, Sequence

from regle.runtime.match import play_game


def seats_for(game_index: int, agents: Sequence[str], players: int, rotate: bool) -> list[str]:
    """The agent of each seat in game ``game_index`` (rotating shifts them one seat per game)."""
    specs = [agents[i % len(agents)] for i in range(players)]
    if rotate:
        k = game_index % players
        specs = specs[-k:] + specs[:-k] if k else specs
    return specs


def run_batch(rules_path: str, players: int, seed: int, first: int, count: int,
              agents: Sequence[str], rotate: bool, check: bool = False, backend: str | None = None) -> list[dict]:
    """Play games first..first+count-1 (a worker's unit of work); returns their records. Both
    backends play the same games: ``backend`` only decides how fast."""
    return list(play_batch(rules_path, players, seed, first, count, agents, rotate, check, backend))


def play_batch(rules_path: str, players: int, seed: int, first: int, count: int,
               agents: Sequence[str], rotate: bool, check: bool = False,
               backend: str | None = None) -> Iterator[dict]:
    """The records of games first..first+count-1, one at a time as each game ends."""
    import regle
    game = regle.load(rules_path, backend=backend)
    for i in range(first, first + count):
        yield play_game(game, players, seed + i, seats_for(i, agents, players, rotate), check).to_json()


def batches(n: int, jobs: int, done: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, int]]:
    """Split games 0..n-1 (less those ``done``) into seed ranges: a few per worker, for balance,
    progress and a prompt stop (a batch is what a stopped worker loses)."""
    size = max(1, min(50, math.ceil((n - len(done)) / max(1, jobs * 4))))
    out: list[tuple[int, int]] = []
    first = None
    for i in range(n + 1):
        if i < n and i not in done and (first is None or i - first < size):
            first = i if first is None else first
            continue
        if first is not None:
            out.append((first, i - first))
            first = None
        if i < n and i not in done:
            first = i
    return out


def worker_count(jobs: int, work: int, scheduler: bool = False) -> int:
    """How many worker processes to start: never more than the batches, and never more than
    this machine's CPUs unless a scheduler (a cluster) runs them."""
    cap = work if scheduler else min(work, os.cpu_count() or 1)
    return max(1, min(jobs, cap))


class WorkerDied(RuntimeError):
    """A worker process ended without finishing its games (killed, or out of memory):
    ``records`` are the games that had finished (every one handed to ``on_records``)."""

    def __init__(self, records: list[dict], seconds: float, why: str):
        super().__init__(why)
        self.records = records
        self.seconds = seconds


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run: ``records`` are the games that had finished (every one already
    handed to ``on_records``), ``seconds`` the time played."""

    def __init__(self, records: list[dict], seconds: float):
        super().__init__(f"interrupted after {len(records)} games")
        self.records = records
        self.seconds = seconds


@contextmanager
def _ctrl_c_held():
    """Ctrl-C waits until the block is done (then stops the run as usual), so that what the
    summary counts and what ``--out`` holds are the same games."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        raise KeyboardInterrupt


def _worker_start() -> None:
    """In each worker: Ctrl-C is the parent's to handle (it stops the workers), and a worker
    dies with its parent even when the parent is killed (Linux: PR_SET_PDEATHSIG)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


def _run_batch_args(args: tuple) -> list[dict]:
    return run_batch(*args)


def simulate(rules_path: str, n: int, players: int, agents: Sequence[str], seed: int = 0,
             jobs: int = 1, rotate: bool = True, executor: Executor | None = None,
             progress=None, check: bool = False, backend: str | None = None,
             on_records: Callable[[list[dict]], None] | None = None,
             done: frozenset[int] | set[int] = frozenset()) -> tuple[list[dict], float]:
    """Play n games (less the game numbers in ``done``, played before: ``--resume``); returns
    (the records played, sorted by seed; wall seconds).

    ``on_records`` is handed each game's record (a list of them) as soon as it is known, so a
    caller can save them before the run ends. Ctrl-C stops the workers within seconds and
    raises :class:`Interrupted` with the games that finished; a worker that dies (killed, out
    of memory) stops the run at once with :class:`WorkerDied`, never a hang."""
    start = time.perf_counter()
    work = batches(n, jobs, done)
    records: list[dict] = []

    def take(found: list[dict]) -> None:
        with _ctrl_c_held():  # a game is kept and saved whole, or not at all
            records.extend(found)
            if on_records:
                on_records(found)
        if progress:
            progress(len(records) + len(done), n)

    try:
        if executor is None and jobs <= 1:
            for first, count in work:
                for record in play_batch(rules_path, players, seed, first, count, agents, rotate, check, backend):
                    take([record])
        elif executor is not None:
            _run_on(executor, [(rules_path, players, seed, first, count, list(agents), rotate, check, backend)
                               for first, count in work], take)
        else:
            _run_in_pool(worker_count(jobs, len(work)),
                         [(rules_path, players, seed, first, count, list(agents), rotate, check, backend)
                          for first, count in work], take)
    except KeyboardInterrupt:
        records.sort(key=lambda r: r["seed"])
        raise Interrupted(records, time.perf_counter() - start) from None
    except BrokenProcessPool:
        records.sort(key=lambda r: r["seed"])
        raise WorkerDied(records, time.perf_counter() - start,
                         "a worker process died before finishing its games (killed by a signal, or by the "
                         "system when memory ran out)") from None
    records.sort(key=lambda r: r["seed"])
    return records, time.perf_counter() - start


def _run_in_pool(workers: int, tasks: list[tuple], take: Callable[[list[dict]], None]) -> None:
    """Batches on ``workers`` processes. A worker that dies breaks the pool at once
    (BrokenProcessPool: a pool that replaced it would wait for its batch forever); on any way
    out (Ctrl-C included) the workers are killed, not waited for, so none outlives the run."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(), initializer=_worker_start)
    try:
        pending = {pool.submit(_run_batch_args, task) for task in tasks}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                take(fut.result())
    except BaseException:
        # the executor keeps its processes in a private field: the only handle to kill them by
        workers = list((getattr(pool, "_processes", None) or {}).values())
        for proc in workers:
            if proc.is_alive():
                proc.kill()
        for proc in workers:  # reaped here: none is left behind, even as a zombie
            proc.join(timeout=5)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _run_on(executor: Executor, tasks: list[tuple], take: Callable[[list[dict]], None]) -> None:
    """Batches on a given executor (a Dask cluster); Ctrl-C cancels what has not started."""
    from concurrent.futures import as_completed
    futures = [executor.submit(run_batch, *task) for task in tasks]
    try:
        for fut in as_completed(futures):
            take(fut.result())
    except BaseException:
        for fut in futures:
            fut.cancel()
        raise


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion k/n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(records: list[dict], seconds: float | None = None) -> dict:
    """The summary printed by ``regle simulate`` (and its --json object)."""
    n = len(records)
    players = records[0]["players"] if records else 0
    wins = [0] * players
    draws = shared = 0
    scores: list[list[int]] = [[] for _ in range(players)]
    agent_wins: dict[str, list[int]] = {}
    for r in records:
        if not r["winners"]:
            draws += 1
        elif len(r["winners"]) > 1:
            shared += 1
        for p in r["winners"]:
            wins[p] += 1
        for p, v in enumerate(r["scores"]):
            scores[p].append(v)
        for p, spec in enumerate(r["agents"]):
            tally = agent_wins.setdefault(spec, [0, 0])
            tally[1] += 1
            tally[0] += p in r["winners"]
    decisions = [r["decisions"] for r in records]
    total_decisions = sum(decisions)
    agents_by_seat = sorted({tuple(r["agents"]) for r in records})
    summary = {
        "games": n,
        "players": players,
        "agents": list(agents_by_seat[0]) if len(agents_by_seat) == 1 else sorted(agent_wins),
        "wins": wins,
        "win_rate": [w / n if n else 0.0 for w in wins],
        "win_rate_ci95": [list(wilson(w, n)) for w in wins],
        "draws": draws,
        "shared_wins": shared,  # games won by several seats at once (each counts it as a win)
        "draw_rate": draws / n if n else 0.0,
        "mean_decisions": statistics.fmean(decisions) if decisions else 0.0,
        "median_decisions": statistics.median(decisions) if decisions else 0,
        "mean_scores": [statistics.fmean(s) if s else 0.0 for s in scores],
        "score_stdev": [statistics.pstdev(s) if len(s) > 1 else 0.0 for s in scores],
        "agent_wins": {spec: {"games": t[1], "wins": t[0], "win_rate": t[0] / t[1],
                              "win_rate_ci95": list(wilson(t[0], t[1]))}
                       for spec, t in sorted(agent_wins.items())},
    }
    if seconds is not None:
        summary["seconds"] = seconds
        summary["decisions_per_second"] = total_decisions / seconds if seconds > 0 else 0.0
    return summary


def progress_bar(stream=sys.stderr):
    """A one-line progress bar for terminals (None when stream is not a terminal)."""
    if not stream.isatty():
        return None
    start = time.perf_counter()

    def update(done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        elapsed = time.perf_counter() - start
        rate = done / elapsed if elapsed > 0 else 0
        eta = (total - done) / rate if rate > 0 else 0
        stream.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"
                     f"  {rate:,.0f}/s  eta {eta:4.0f}s ")
        if done >= total:
            stream.write("\r" + " " * 70 + "\r")
        stream.flush()

    return update


def dask_executor(address: str, jobs: int):
    """A concurrent.futures Executor on a Dask cluster: ``local`` starts a LocalCluster of
    ``jobs`` worker processes; anything else is a scheduler address (tcp://host:8786)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SystemExit("regle: --scheduler needs Dask: pip install 'regle[dask]'") from None
    if address == "local":
        cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        cluster = None
        try:
            client = Client(address, timeout="3s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise SystemExit(f"regle: cannot reach the Dask scheduler at {address}: {exc}") from None
    return client, cluster


def read_jsonl(path: str, cut: list[str] | None = None) -> Iterable[dict]:
    """The game records of a file written by ``simulate --out``; a ValueError naming the line
    for anything else (not JSON, or not a game record). A last line without its end (a run
    stopped while writing it: killed, a full disk) is left out, and said in ``cut``."""
    import json
    from regle.dsl.files import UnreadableFile, read_limited
    try:
        data = read_limited(path, 1 << 30)
    except UnreadableFile as exc:
        raise ValueError(f"{path}: cannot read the file: {exc}") from None
    players = None
    lines = data.decode("utf-8", errors="replace").split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            if number == len(lines) and cut is not None:  # no newline after it: a line cut short
                cut.append(f"{path}:{number}: its last line was cut short ({len(line.encode()):,} bytes, "
                           "a run stopped while writing it); it is left out")
                return
            raise ValueError(f"{path}:{number}: not a line of JSON (is this a file from simulate --out?)") from None
        problem = _record_problem(record)
        if problem is None and players is not None and record["players"] != players:
            problem = "a different number of players than the lines before"
        if problem:
            raise ValueError(f"{path}:{number}: not a game record of simulate --out: {problem}")
        players = record["players"]
        yield record


def _record_problem(r) -> str | None:
    """What makes ``r`` not a game record (None when it is one)."""
    if not isinstance(r, dict):
        return "not a JSON object"
    n = r.get("players")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 64:
        return "no 'players' count"
    if not isinstance(r.get("decisions"), int):
        return "no 'decisions' count"
    for key, kind in (("winners", int), ("scores", (int, float)), ("agents", str)):
        value = r.get(key)
        if not isinstance(value, list) or not all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
            return f"no '{key}' list"
    if len(r["scores"]) != n or len(r["agents"]) != n or not all(0 <= w < n for w in r["winners"]):
        return "lists that do not match the number of players"
    return None
