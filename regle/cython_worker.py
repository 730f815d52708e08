"""Cython kept warm: a process that translates one native engine after another.

``python -m cython`` spends about a second before it reads a line of an engine: it imports its
compiler, builds its lexer's tables and its scope of built-ins. A native build pays that once
per engine, and builds in one process come in runs (a test suite, a script that loads variants
with ``backend="native"``; a background build has a process of its own and gains nothing). So
the Cython step of ``regle.native`` goes to a worker process that has paid it
once: it reads requests (Cython's command-line arguments and a folder) one per line, and
answers each with Cython's exit status and what it printed, exactly as ``python -m cython``
with those arguments would. Its output is the same file byte for byte
(tests/test_cython_worker.py compares them).

Each request starts from the same Cython: its options and debugging flags as they were when the
worker began (a flag given to one build, ``--no-docstrings`` say, would stay set: Cython's
command line sets only the options it is given), and its caches of where files are found
emptied. A worker is
retired after ``RUNS`` builds, so that what Cython keeps between runs cannot grow without
bound. Workers are separate processes: a build never holds the caller's interpreter, and
builds side by side take a worker each. When a worker cannot start or dies, the build runs
``python -m cython`` as before; nothing a worker does can change what is built.
"""
from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import subprocess
import sys
import threading

#: how Cython is run without a worker (and what a worker answers as)
COMMAND = [sys.executable, "-m", "cython"]
#: builds a worker serves before it is retired (a fresh one starts with the next build)
RUNS = 64
#: idle workers kept for the next builds (more are started while builds run side by side)
IDLE = 2

_idle: list["_Worker"] = []
_lock = threading.Lock()


def translate(args: list[str], cwd: str | None = None) -> tuple[int, str]:
    """Cython run with ``args`` (its command line, without ``python -m cython``) in folder
    ``cwd``: its exit status and what it printed."""
    worker = _take()
    if worker is not None:
        answer = worker.ask(args, cwd)
        if answer is not None:
            _give_back(worker)
            return answer
    done = subprocess.run([*COMMAND, *args], capture_output=True, text=True, cwd=cwd)
    return done.returncode, done.stderr or done.stdout


class _Worker:
    """One warm Cython process and the pipe to it."""

    def __init__(self) -> None:
        self.runs = 0
        # -P: the folder it works in is not where it imports from (a build's folder holds a regle/ of .pxd files)
        self.proc = subprocess.Popen([sys.executable, "-P", "-c", "from regle.cython_worker import serve; serve()"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, encoding="utf-8", bufsize=1)

    def ask(self, args: list[str], cwd: str | None) -> tuple[int, str] | None:
        """The worker's answer, or None when it could not give one (it is then stopped)."""
        try:
            self.proc.stdin.write(json.dumps({"args": args, "cwd": cwd}) + "\n")  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]
            line = self.proc.stdout.readline()  # type: ignore[union-attr]
            answer = json.loads(line)
            self.runs += 1
            return int(answer["status"]), str(answer["said"])
        except (OSError, ValueError, KeyError, TypeError):
            self.stop()
            return None

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):
            self.proc.stdout.close()  # type: ignore[union-attr]


def _take() -> _Worker | None:
    with _lock:
        while _idle:
            worker = _idle.pop()
            if worker.proc.poll() is None:
                return worker
    try:
        return _Worker()
    except OSError:
        return None


def _give_back(worker: _Worker) -> None:
    with _lock:
        if worker.runs < RUNS and len(_idle) < IDLE:
            _idle.append(worker)
            return
    worker.stop()


@atexit.register
def _stop_all() -> None:
    with _lock:
        workers, _idle[:] = list(_idle), []
    for worker in workers:
        worker.stop()


# ---- the worker's side ---------------------------------------------------------------------------
def serve() -> None:
    """Answer requests from standard input until it ends (the caller exited or retired us)."""
    from Cython import Utils
    from Cython.Compiler import DebugFlags, Errors, Main, Options  # paid once: the point of a worker
    pristine = [(module, _settings(module)) for module in (Options, DebugFlags)]
    channel = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        for module, settings in pristine:  # a flag given to one build is not given to the next
            for name, value in settings.items():
                setattr(module, name, value)
        Utils.clear_function_caches()  # where files were found: a folder may have changed since
        said = io.StringIO()
        status = 0
        here = os.getcwd()
        sys.argv = ["cython", *request["args"]]
        try:
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                if request["cwd"]:
                    os.chdir(request["cwd"])
                Errors.reset()  # the warnings seen once, the errors counted: none yet
                Main.main(command_line=1)
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 1
        except Exception as error:  # a crash of Cython's is an answer, not the worker's end
            status = 1
            said.write(f"{type(error).__name__}: {error}\n")
        finally:
            os.chdir(here)
        channel.write(json.dumps({"status": status, "said": said.getvalue()}) + "\n")
        channel.flush()


def _settings(module) -> dict:
    """A module's flags as they are now: its names bound to plain values (true or false, a
    number, a string, nothing), what Cython's command line sets. Its tables are left alone:
    the command line does not change them, and Cython holds on to their objects."""
    return {name: value for name, value in vars(module).items()
            if not name.startswith("_") and (value is None or type(value) in (bool, int, float, str))}
