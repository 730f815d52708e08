"""Kernel benchmark: calls per second of each compiled kernel and its pure-Python twin.

    python benchmarks/kernels.py [--quick]

Inputs are realistic: a 5x5 marble tray, a 3x3 card grid, hex boards of 37 and 61 cells,
filled by a fixed seed. Prints the ratio compiled / pure (aim: at least 20x).
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from regle.compiler.check.geometry import hexagon, lanes, square
from regle.runtime import kernels as pure

try:
    from regle.runtime import _kernels as compiled
except ImportError:
    compiled = None


def rate(fn, seconds: float, fresh=None) -> float:
    """Calls per second, best of three short runs. ``fresh()`` makes a new input for kernels
    that change theirs; inputs are made before the clock starts."""
    best = 0.0
    batch = 200
    for _ in range(3):
        n, spent = 0, 0.0
        while spent < seconds / 3:
            inputs = [fresh() for _ in range(batch)] if fresh else [None] * batch
            start = time.perf_counter()
            for x in inputs:
                fn(x)
            spent += time.perf_counter() - start
            n += batch
        best = max(best, n / spent)
    return best


def cases():
    rnd = random.Random(7)
    tray = lanes(5, 5)
    tray_cells = bytearray(rnd.choice([1, 2, 3, 4, 5, 0]) for _ in range(25))
    pure.settle(tray_cells, 5, 5)
    grid = square(3, 3)
    grid_cells = bytes(rnd.choice([1, 2, 3, 4, 5]) for _ in range(9))
    out = []
    for name, geo, cells in (("5x5 tray", tray, bytes(tray_cells)), ("3x3 grid", grid, grid_cells)):
        t = geo.table()
        out.append(("connected_groups", name, lambda k, x, c=cells, t=t: k.connected_groups(c, t, 4, 5, 3, 1), None))
        out.append(("largest_zone", name, lambda k, x, c=cells, t=t: k.largest_zone(c, t, 4, 5, 2, 0), None))
    unsettled = bytes(rnd.choice([0, 0, 1, 2]) for _ in range(25))
    out.append(("settle", "5x5 tray", lambda k, x: k.settle(x, 5, 5), lambda: bytearray(unsettled)))
    half = bytes(tray_cells)
    out.append(("drop", "5x5 tray", lambda k, x: k.drop(x, 5, 5, 2, 3), lambda: bytearray(half)))
    out.append(("placements", "5x5 tray, 2x2 corner",
                lambda k, x: k.placements(half, 5, 5, 2, 2, bytes([1, 1, 2, 0])), None))
    for side in (4, 5):
        geo = hexagon(side)
        cells = bytearray(geo.cells)
        spots = rnd.sample(range(geo.cells), 2 * (geo.cells // 4))
        for i, c in enumerate(spots):
            cells[c] = 1 + i % 2
        t = geo.table()
        name = f"hex {geo.cells} cells"
        out.append(("line_moves", name, lambda k, x, c=bytes(cells), t=t: k.line_moves(c, t, 6, 1, 0), None))
        out.append(("line_move_keys", name, lambda k, x, c=bytes(cells), t=t: k.line_move_keys(c, t, 6, 1, 0), None))
        push = max(pure.line_moves(bytes(cells), t, 6, 1, 0), key=lambda m: (m[3], m[2]))
        out.append(("apply_line", name, lambda k, x, t=t, m=push: k.apply_line(x, t, 6, m[0], m[1], m[2]),
                    lambda c=bytes(cells): bytearray(c)))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if compiled is None:
        print("the compiled kernels are not built: nothing to compare")
        return 1
    seconds = 0.3 if args.quick else 1.0
    print(f"{'kernel':<18}{'input':<24}{'compiled/s':>12}{'pure/s':>12}{'ratio':>8}")
    for kernel, name, call, fresh in cases():
        c = rate(lambda x: call(compiled, x), seconds, fresh)
        p = rate(lambda x: call(pure, x), seconds, fresh)
        print(f"{kernel:<18}{name:<24}{c:>12,.0f}{p:>12,.0f}{c / p:>7.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
