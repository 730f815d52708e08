"""Every example of README.md and docs/*.md, found and run as a user runs it from an installed
wheel, outside the clone (tests/test_library.py runs them all; tests/test_docs_examples.py keeps
the finding honest).

An example is a line of a ```sh block, or a whole ```python block. Each runs in one empty folder
shared by all, in the order the files and their examples come (README.md first), with the
wheel's environment first on PATH and a home folder of its own. What a run changes, so that it
ends and says something, is listed in WHAT_CHANGES; examples that need the clone itself are in
FROM_THE_CLONE with the place that runs them instead.
"""
from __future__ import annotations

import queue
import re
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]

#: the rules files a tutorial builds block by block, written before its commands run (its
#: unlabelled blocks put together, as tests/test_project.py reads them)
TUTORIAL_FILES = {"docs/tutorial.md": "pebbles.rules", "docs/tutorial-classic.md": "othello.rules"}

#: examples that need the clone, and what runs them instead
FROM_THE_CLONE = {
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/regle play": ".ci/run and the README check",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]'": ".ci/run itself",
    "cd editors/vscode": "tests/test_vscode.py",
    "cp ../../regle/editors/regle.tmLanguage.json": "tests/test_vscode.py",
    "npm install": "tests/test_vscode.py",
    "npx @vscode/vsce package": "tests/test_vscode.py",
    "code --install-extension": "tests/test_vscode.py (VS Code itself is not here)",
}

#: how a run differs from the line as written, and why
WHAT_CHANGES = """\
- `-n N` and `--simulate N` play 3 games (the command and its output are the same; 2,000 games
  of Monte Carlo search would take the suite's whole time);
- `regle perft ... --depth N` counts to depth 3 (the examples run on the Python engine: chess's
  depth 5 is 4.9 million positions, most of a minute);
- `pip install 'regle[X]'` installs the wheel with that extra (`regle` is not on PyPI yet);
- `regle serve` and `regle studio` listen on any free port (`--port 0`), run until they print
  their address, and are then stopped;
- a human seat's question is answered by the end of input: the game is left at once;
- `regle lsp` reads the end of input and stops;
- `regle diff` exits 1 when the two rule sets differ, as `diff` does: that is its answer, not a
  failure.
"""


@dataclass(frozen=True)
class Example:
    file: str
    line: int
    kind: str  # "sh" (one command line) or "python" (a block)
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text.splitlines()[0][:90]}"


def examples() -> list[Example]:
    """Every example, in order: README.md, then docs/*.md by name."""
    found: list[Example] = []
    for name in FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        for block in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
            kind, body = block.group(1), block.group(2)
            first = text.count("\n", 0, block.start(2)) + 1
            if kind == "python":
                found.append(Example(name, first, "python", body))
            elif kind == "sh":
                for i, line in enumerate(body.splitlines()):
                    command = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
                    if command:
                        found.append(Example(name, first + i, "sh", command))
    return found


def from_the_clone(example: Example) -> str | None:
    """What runs an example that needs the clone, or None."""
    for start, where in FROM_THE_CLONE.items():
        if example.text.startswith(start):
            return where
    return None


def as_run(command: str, wheel: Path) -> str:
    """The command as the test runs it (WHAT_CHANGES)."""
    command = re.sub(r"(-n|--simulate) \d+", r"\1 3", command)
    if command.startswith("regle perft "):
        command = re.sub(r"--depth \d+", "--depth 3", command)
    command = re.sub(r"'regle\[(\w+)\]'", lambda m: f"'{wheel}[{m.group(1)}]'", command)
    if re.match(r"regle (serve|studio)\b", command):
        command = re.sub(r" --port \d+", "", command) + " --port 0"
    return command


def tutorial_rules(name: str) -> str:
    """The rules file a tutorial builds, its unlabelled blocks put together (not its errors)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
    return "\n".join(body for lang, body in blocks if not lang and not re.match(r"\w+\.rules:\d", body))


def run(example: Example, python: Path, folder: Path, env: dict, wheel: Path) -> tuple[int, str]:
    """Run one example; (exit status, what it printed)."""
    if example.kind == "python":
        done = subprocess.run([str(python), "-c", example.text], capture_output=True, text=True, cwd=folder, env=env,
                              stdin=subprocess.DEVNULL, timeout=900)
        return done.returncode, done.stdout + done.stderr
    command = as_run(example.text, wheel)
    if re.match(r"regle (serve|studio)\b", command):
        return _until_listening(command, folder, env)
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=folder, env=env,
                          stdin=subprocess.DEVNULL, timeout=900)
    differ = command.startswith("regle diff ") and done.returncode == 1 and "change" in done.stdout
    return 0 if differ else done.returncode, done.stdout + done.stderr


def _until_listening(command: str, folder: Path, env: dict) -> tuple[int, str]:
    """A server: started, read until it prints its address (0), or until it ends (its status)."""
    server = subprocess.Popen(["bash", "-c", f"exec {command}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, cwd=folder, env=env, text=True)
    lines: queue.Queue = queue.Queue()  # read beside, so that a server that says nothing cannot hang the test

    def read() -> None:
        for line in server.stdout:  # type: ignore[union-attr]
            lines.put(line)
    threading.Thread(target=read, daemon=True).start()
    said: list[str] = []
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                if server.poll() is not None and lines.empty():  # it ended without an address
                    return server.returncode or 1, "".join(said)
                continue
            said.append(line)
            if "http://" in line:
                return 0, "".join(said)
        return 1, "".join(said) + "\n(no address printed in 300 s)"
    finally:
        server.kill()
        server.wait(timeout=10)
