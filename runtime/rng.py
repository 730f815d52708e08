"""A small, portable, seedable random generator whose whole state is one integer.

States copy by value and serialise to JSON, and the same seed gives the same numbers on every
machine and Python version (SplitMix64, which ``random.Random`` does not promise across versions).
"""
from __future__ import annotations

from .kernel_select import K

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(seed: int) -> int:
    """Scramble a seed into a well-spread 64-bit state (used to derive independent streams)."""
    z = (seed * GOLDEN + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64. ``Rng(seed)``; ``below(n)``, ``shuffle(list)``, ``choice(seq)``."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, state: int | None = None):
        self.state = mix(seed) if state is None else state & MASK

    def next64(self) -> int:
        self.state = z = (self.state + GOLDEN) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (n >= 1), without modulo bias."""
        if n <= 1:
            return 0
        limit = MASK - (MASK + 1) % n
        while True:
            r = self.next64()
            if r <= limit:
                return r % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates with ``below`` (done by a kernel: the same numbers, faster)."""
        self.state = K.shuffle(items, self.state)

    def choice(self, items):
        return items[self.below(len(items))]

    def copy(self) -> "Rng":
        return Rng(state=self.state)
