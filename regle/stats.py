"""Comparing two simulation summaries: intervals and significance tests, standard library only."""
from __future__ import annotations

import math
import statistics

from regle.simulate import wilson


def _phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value that two proportions are equal (pooled z-test)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0 if k1 / n1 == k2 / n2 else 0.0
    z = (k1 / n1 - k2 / n2) / se
    return 2 * (1 - _phi(abs(z)))


def two_means(a: list[float], b: list[float]) -> float:
    """Two-sided p-value that two means are equal (Welch, normal approximation)."""
    if len(a) < 2 or len(b) < 2:
        return 1.0
    va, vb = statistics.variance(a), statistics.variance(b)
    se = math.sqrt(va / len(a) + vb / len(b))
    diff = statistics.fmean(a) - statistics.fmean(b)
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return 2 * (1 - _phi(abs(diff / se)))


def _mean_text(values: list[float]) -> str:
    if not values:
        return "-"
    m = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{m:.2f} [{m - half:.2f}, {m + half:.2f}]"


def _rate_text(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.1%} [{lo:.1%}, {hi:.1%}]" if n else "-"


def compare(old: tuple[list[dict], dict], new: tuple[list[dict], dict], alpha: float = 0.05) -> dict:
    """Rows comparing two (records, summary) pairs, each marked significant or not."""
    (ra, sa), (rb, sb) = old, new
    rows = []
    na, nb = sa["games"], sb["games"]
    da = [r["decisions"] for r in ra]
    db = [r["decisions"] for r in rb]
    p = two_means(da, db)
    rows.append({"label": "decisions", "old": _mean_text(da), "new": _mean_text(db), "p": p, "significant": p < alpha})
    for seat in range(max(sa["players"], sb["players"])):
        ka = sa["wins"][seat] if seat < sa["players"] else 0
        kb = sb["wins"][seat] if seat < sb["players"] else 0
        p = two_proportions(ka, na, kb, nb)
        rows.append({"label": f"P{seat + 1} win rate", "old": _rate_text(ka, na), "new": _rate_text(kb, nb),
                     "p": p, "significant": p < alpha})
    p = two_proportions(sa["draws"], na, sb["draws"], nb)
    rows.append({"label": "draw rate", "old": _rate_text(sa["draws"], na), "new": _rate_text(sb["draws"], nb),
                 "p": p, "significant": p < alpha})
    for seat in range(max(sa["players"], sb["players"])):
        xa = [r["scores"][seat] for r in ra if seat < len(r["scores"])]
        xb = [r["scores"][seat] for r in rb if seat < len(r["scores"])]
        p = two_means(xa, xb)
        rows.append({"label": f"P{seat + 1} score", "old": _mean_text(xa), "new": _mean_text(xb),
                     "p": p, "significant": p < alpha})
    return {"rows": rows, "old": sa, "new": sb}
