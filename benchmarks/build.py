"""Cold native builds: CPU seconds and peak memory of Cython and the C compiler, per rules file.

    python benchmarks/build.py                  # every file in games/, and boards made larger
    python benchmarks/build.py games/classics/hex.rules --flags -O0

Each build runs in a fresh cache folder (Cython's shared helpers built there first and not counted,
as a cache holds them once for every engine); the figures are those of the child processes (Cython,
then the C compiler), read from ``resource.getrusage(RUSAGE_CHILDREN)`` in a subprocess of its
own, so that one build's numbers never include another's. Larger boards are the classics with
their size params changed (Hex 19x19, Connect Four 15x13) and a 15x15 five-in-a-row game, to see
whether build cost grows with the board.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GOMOKU = '''game "Five in a row" {
  players 2
  marks "X", "O"
}

grid board: player square 15 by 15 with diagonals

turn {
  step place {
    action place(c in empty_cells(board)) "{c}" {
      put me at c on board
    }
  }
}

end when in_a_row(board, me, 5) then winner me
end when count(empty_cells(board)) == 0
'''

#: (label, rules file, replacements in its text)
LARGER = [
    ("Hex 7x7", "games/classics/hex.rules", [("param size = 11", "param size = 7")]),
    ("Hex 19x19", "games/classics/hex.rules", [("param size = 11", "param size = 19")]),
    ("Connect Four 15x13", "games/classics/connect4.rules", [("param columns = 7", "param columns = 15"),
                                                             ("param rows = 6", "param rows = 13")]),
]

PROBE = r"""
import json, resource, sys, time
from pathlib import Path
from regle import native
from regle.compiler.generate import native_source
text = Path(sys.argv[1]).read_text(encoding="utf-8")
native.shared_module(Path(sys.argv[2]))  # Cython's shared helpers, built once per toolchain as in a cache: not counted
before = resource.getrusage(resource.RUSAGE_CHILDREN)
started = time.perf_counter()
source = native_source(text, sys.argv[1], "bench")
generated = time.perf_counter() - started
native.build(source, "regle_native_bench_build", Path(sys.argv[2]))
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"generate_s": generated,
                  "cpu_s": children.ru_utime + children.ru_stime - before.ru_utime - before.ru_stime,
                  "peak_mib": children.ru_maxrss / 1024, "pyx_kib": len(source) / 1024,
                  "wall_s": time.perf_counter() - started}))
"""


def measure(path: Path, flags: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="regle-build-") as folder:
        out = subprocess.run([sys.executable, "-c", PROBE, str(path), folder], capture_output=True, text=True,
                             env={**os.environ, "REGLE_NATIVE_CFLAGS": flags}, timeout=3600)
        if out.returncode != 0:
            raise SystemExit(f"{path}: the build failed:\n{out.stderr[-2000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="rules files (default: every file in games/ and larger boards)")
    parser.add_argument("--flags", default=os.environ.get("REGLE_NATIVE_CFLAGS", "-O2"),
                        help="C compiler optimisation flags (default -O2, as regle builds)")
    parser.add_argument("--no-larger", action="store_true", help="skip the larger boards")
    args = parser.parse_args()
    cases: list[tuple[str, Path]] = []
    tmp = Path(tempfile.mkdtemp(prefix="regle-build-cases-"))
    if args.files:
        cases = [(f, Path(f)) for f in args.files]
    else:
        cases = [(str(p.relative_to(ROOT)), p) for p in sorted((ROOT / "games").rglob("*.rules"))]
        if not args.no_larger:
            for label, file, changes in LARGER:
                text = (ROOT / file).read_text(encoding="utf-8")
                for old, new in changes:
                    assert old in text, (file, old)
                    text = text.replace(old, new)
                target = (ROOT / file).with_name(f"_bench_{label.replace(' ', '_')}.rules")
                cases.append((label, target))
                target.write_text(text, encoding="utf-8")  # beside the original: its extends resolve
            gomoku = tmp / "gomoku.rules"
            gomoku.write_text(GOMOKU, encoding="utf-8")
            cases.append(("Five in a row 15x15", gomoku))
    # stopped by a signal (kill, a CI timeout) as by Ctrl-C: the finally below removes the larger
    # boards written beside the classics, which the test suite would otherwise find as games
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    print(f"cold native builds ({args.flags}); CPU seconds and peak memory of Cython + the C compiler")
    print(f"{'rules':<42} {'CPU s':>7} {'peak MiB':>9} {'.pyx KiB':>9} {'generate s':>11}")
    try:
        for label, path in cases:
            r = measure(path, args.flags)
            print(f"{label:<42} {r['cpu_s']:>7.1f} {r['peak_mib']:>9.0f} {r['pyx_kib']:>9.0f} {r['generate_s']:>11.2f}",
                  flush=True)
    finally:
        for _label, path in cases:
            if path.name.startswith("_bench_"):
                path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
