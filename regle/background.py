"""Native engines built in the background, so that nobody waits for a C compiler.

With the ``auto`` backend, a rules text whose native engine is not built yet plays at once on
the Python engine, and a separate process builds the native one into the cache; the next load
(a later run, or the next batch of ``simulate``) finds it and uses it. One build per rules text
runs at a time across processes (a lock file beside the module), and at most one background
build at a time on the machine (they queue), at a lower priority than the games being played.
A build that fails leaves a note beside the module, so it is not tried again until the cache is
cleared; ``auto`` then says why in one line and plays on the Python engine.

``REGLE_NATIVE_BUILD=wait`` makes ``auto`` build in the foreground instead (the old way).
Run as ``python -m regle.background JOBFILE`` by :func:`start`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on this system: builds happen in the foreground
    fcntl = None  # type: ignore[assignment]

QUEUE_LOCK = "background.lock"


def enabled() -> bool:
    """Whether ``auto`` builds in the background (REGLE_NATIVE_BUILD=wait: in the foreground)."""
    return fcntl is not None and os.environ.get("REGLE_NATIVE_BUILD", "background").strip().lower() != "wait"


def failure(target: Path) -> str | None:
    """Why the last background build of this module failed (None: it did not, or never ran)."""
    note = target.with_name(target.name.split(".")[0] + ".failed")
    try:
        return note.read_text(encoding="utf-8").strip() or "the native build failed"
    except OSError:
        return None


@contextmanager
def _locked(path: Path, wait: bool):
    """An exclusive lock on ``path`` (True inside when held; False when another holds it and
    ``wait`` is off)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _lock_path(target: Path) -> Path:
    return target.with_name(target.name.split(".")[0] + ".lock")


def building(target: Path) -> bool:
    """Whether some process is building this module now."""
    with _locked(_lock_path(target), wait=False) as free:
        return not free


def start(text: str, filename: str, name: str, target: Path) -> bool:
    """Start building the native engine of a rules text in a process of its own (unless one is
    under way); True when one was started."""
    if building(target):
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, job = tempfile.mkstemp(dir=target.parent, prefix="tmp", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"text": text, "filename": filename, "name": name, "target": str(target)}, f)
    try:
        subprocess.Popen([sys.executable, "-m", "regle.background", job], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                         close_fds=True, cwd=str(target.parent))
    except OSError:
        os.unlink(job)
        return False
    return True


def run(job_file: str) -> int:
    """The background process: take the job, wait for the machine's build queue, then build
    unless another process did it meanwhile."""
    from regle import loader, native
    from regle.dsl.errors import RulesError
    try:
        with open(job_file, encoding="utf-8") as f:
            job = json.load(f)
    finally:
        try:
            os.unlink(job_file)
        except OSError:
            pass
    target = Path(job["target"])
    try:
        os.nice(10)  # the games being played come first
    except OSError:
        pass
    with _locked(_lock_path(target), wait=False) as mine:
        if not mine:
            return 0  # another process builds it
        with _locked(target.parent / QUEUE_LOCK, wait=True):
            if target.exists():
                return 0
            try:
                loader.build_native(job["text"], job["filename"], job["name"])
            except (native.NativeUnavailable, RulesError) as exc:
                note = target.with_name(target.name.split(".")[0] + ".failed")
                note.write_text(str(exc).splitlines()[0] if str(exc) else "the native build failed",
                                encoding="utf-8")
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1]))
