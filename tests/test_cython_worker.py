"""The warm Cython of native builds (regle/cython_worker.py): it answers as ``python -m cython``
with the same arguments would, file for file and error for error, one build after another."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compiler.generate import native_source
from regle import cython_worker, native

pytest.importorskip("Cython")
ROOT = Path(__file__).resolve().parent.parent


def _engine(folder: Path) -> list[str]:
    """A shipped game's engine written into ``folder``, and the arguments that translate it."""
    text = (ROOT / "games/classics/tictactoe.rules").read_text(encoding="utf-8")
    (folder / "engine.pyx").write_text(native_source(text, "tictactoe.rules", "engine"), encoding="utf-8")
    include = native.kernel_headers(folder / "include")
    shared = [f"--shared={native.shared_name()}"] if native.shares_helpers() else []
    return ["-3", "--fast-fail", *shared, "-I", str(include), "engine.pyx"]


def _by_command(args: list[str], folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cython", *args], capture_output=True, text=True, cwd=folder)


def test_an_engine_translated_by_the_worker_is_the_commands_file_byte_for_byte(tmp_path):
    args = _engine(tmp_path)
    assert _by_command([*args, "-o", "by_command.c"], tmp_path).returncode == 0
    cython_worker._stop_all()
    for run in range(3):  # the first build warms the worker; the next ones are served warm
        assert cython_worker.translate([*args, "-o", f"by_worker{run}.c"], str(tmp_path)) == (0, "")
        assert (tmp_path / f"by_worker{run}.c").read_bytes() == (tmp_path / "by_command.c").read_bytes()
    [worker] = cython_worker._idle  # one worker served the three, and waits for the next
    assert worker.runs == 3 and worker.proc.poll() is None


def test_an_option_of_one_build_does_not_reach_the_next(tmp_path):
    args = _engine(tmp_path)
    assert _by_command([*args, "-o", "plain.c"], tmp_path).returncode == 0
    assert cython_worker.translate([*args, "--no-docstrings", "-o", "bare.c"], str(tmp_path))[0] == 0
    assert cython_worker.translate([*args, "-o", "again.c"], str(tmp_path))[0] == 0
    assert (tmp_path / "bare.c").read_bytes() != (tmp_path / "plain.c").read_bytes()
    assert (tmp_path / "again.c").read_bytes() == (tmp_path / "plain.c").read_bytes()


def test_an_error_is_the_commands_error_and_the_worker_serves_on(tmp_path):
    (tmp_path / "broken.pyx").write_text("def f(:\n    pass\n", encoding="utf-8")
    args = ["-3", "--fast-fail", "broken.pyx", "-o", "broken.c"]
    expected = _by_command(args, tmp_path)
    status, said = cython_worker.translate(args, str(tmp_path))
    assert status == expected.returncode == 1
    assert said == expected.stderr and "broken.pyx:1:6: Expected ')'" in said
    assert cython_worker.translate(["-3", "missing.pyx"], str(tmp_path))[0] == 1
    (tmp_path / "fixed.pyx").write_text("def f():\n    return 1\n", encoding="utf-8")
    assert cython_worker.translate(["-3", "fixed.pyx", "-o", "fixed.c"], str(tmp_path)) == (0, "")
    assert (tmp_path / "fixed.c").exists()


def test_a_file_that_appears_between_two_builds_is_found_by_the_second(tmp_path):
    """Cython remembers where it looked for a cimported module; a worker forgets it between
    builds, as a new process would."""
    (tmp_path / "user.pyx").write_text("from helper cimport twice\nprint(twice(2))\n", encoding="utf-8")
    args = ["-3", "-I", str(tmp_path), "user.pyx", "-o", "user.c"]
    status, said = cython_worker.translate(args, str(tmp_path))
    assert status == 1 and "helper" in said
    (tmp_path / "helper.pxd").write_text("cdef inline int twice(int x):\n    return 2 * x\n", encoding="utf-8")
    assert cython_worker.translate(args, str(tmp_path)) == (0, "")


def test_a_worker_that_dies_is_replaced_and_the_build_still_happens(tmp_path, monkeypatch):
    (tmp_path / "small.pyx").write_text("def f():\n    return 1\n", encoding="utf-8")
    assert cython_worker.translate(["-3", "small.pyx", "-o", "first.c"], str(tmp_path))[0] == 0
    for worker in list(cython_worker._idle):
        worker.proc.kill()
        worker.proc.wait()
    assert cython_worker.translate(["-3", "small.pyx", "-o", "second.c"], str(tmp_path)) == (0, "")
    started = []
    monkeypatch.setattr(cython_worker._Worker, "ask", lambda self, args, cwd: started.append(self) or None)
    assert cython_worker.translate(["-3", "small.pyx", "-o", "third.c"], str(tmp_path))[0] == 0  # by the command
    assert started and (tmp_path / "third.c").read_bytes() == (tmp_path / "first.c").read_bytes()


def test_a_worker_is_retired_after_its_runs(tmp_path, monkeypatch):
    cython_worker._stop_all()  # from no idle worker: the count below is exact
    monkeypatch.setattr(cython_worker, "RUNS", 2)
    (tmp_path / "small.pyx").write_text("def f():\n    return 1\n", encoding="utf-8")
    seen = set()
    for run in range(5):
        worker = cython_worker._take()
        seen.add(worker.proc.pid)
        assert worker.ask(["-3", "small.pyx", "-o", f"s{run}.c"], str(tmp_path)) == (0, "")
        cython_worker._give_back(worker)
    assert len(seen) == 3  # runs 1-2, 3-4, 5
