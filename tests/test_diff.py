"""regle diff: the exact entries for one change at a time, and the exit codes."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import GAMES

BASE = (GAMES / "eclats.rules").read_text(encoding="utf-8")
STEPS = '''game "Steps" { players 2 }
zone bag: int = [1, 2, 3]
zone hand: int per player
turn {
  step draw { action take(v in bag) { move v from bag to hand[me] } }
  optional step boost { action boost { add 1 to hand[me] } }
}
end when turns >= 4
'''


def run_diff(tmp_path, old: str, new: str, *extra):
    a, b = tmp_path / "old.rules", tmp_path / "new.rules"
    a.write_text(old, encoding="utf-8")
    b.write_text(new, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "regle.cli", "diff", str(a), str(b), "--json", *extra],
                       capture_output=True, text=True)
    data = json.loads(r.stdout) if r.stdout.strip().startswith("{") else None
    entries = [_entry(c) for c in data["changes"]] if data else None
    return r.returncode, entries, r


def _entry(c: dict) -> str:
    if c["kind"] in ("changed", "reordered"):
        return f"{c['what']}: {c['old']} -> {c['new']}"
    return f"{c['what']}: {c['kind']}"


CASES = [
    ("a number", BASE, BASE.replace("param turns_each = 20", "param turns_each = 27"),
     1, ["param turns_each: 20 -> 27"]),
    ("a table cell", BASE, BASE.replace("  medium    2 5 3\n", "  medium    2 5 4\n"),
     1, ['table contract row "medium 2 5 3": points: 3 -> 4']),
    ("a row added", BASE, BASE.replace("  ambitious 7 9 8\n", "  ambitious 7 9 8\n  ambitious 8 9 9\n"),
     1, ['table contract row "ambitious 8 9 9": added']),
    ("a row removed", BASE, BASE.replace("  small     2 2 1\n", ""),
     1, ['table contract row "small 2 2 1": removed']),
    ("steps reordered where order matters", STEPS,
     STEPS.replace("  step draw { action take(v in bag) { move v from bag to hand[me] } }\n"
                   "  optional step boost { action boost { add 1 to hand[me] } }",
                   "  optional step boost { action boost { add 1 to hand[me] } }\n"
                   "  step draw { action take(v in bag) { move v from bag to hand[me] } }"),
     1, ["turn steps: draw, boost -> boost, draw"]),
    ("actions reordered where order does not matter", BASE, None, 0, []),
    ("declarations reordered", BASE,
     BASE.replace("param places = 4\n", "").replace("param market_size = 4\n", "param market_size = 4\n\nparam places = 4\n"),
     0, []),
    ("comments only", BASE, BASE.replace("# Éclats:", "# A changed comment.\n# Éclats:"), 0, []),
    ("formatting only", BASE, BASE.replace("  players 2\n  first player 0\n", " players   2 first  player 0 "), 0, []),
    ("an action's effect", BASE, BASE.replace("      refill market from reserve up to market_size\n    }\n    /// With all",
                                               "    }\n    /// With all", 1),
     1, ["step act action take: refill market from reserve up to market_size: removed"]),
]


def _merge_moved_last(text: str) -> str:
    """The merge action moved after the deliver action: the same choices, in another order."""
    merge = text[text.index("    /// Merge two"):text.index("    /// Spend two")]
    text = text.replace(merge, "")
    return text.replace("    /// Only when", merge + "    /// Only when")


@pytest.mark.parametrize("name, old, new, code, expected", CASES, ids=[c[0] for c in CASES])
def test_one_change_at_a_time(tmp_path, name, old, new, code, expected):
    if new is None:
        new = _merge_moved_last(old)
    assert old != new
    status, entries, r = run_diff(tmp_path, old, new)
    assert status == code, r.stderr
    assert entries == expected


def test_errors_exit_2_with_positions(tmp_path):
    status, entries, r = run_diff(tmp_path, BASE, BASE.replace("from market to", "from markt to", 1))
    assert status == 2 and "new.rules:" in r.stderr and "unknown name 'markt'" in r.stderr


def test_a_variant_is_diffed_after_resolving_extend():
    r = subprocess.run([sys.executable, "-m", "regle.cli", "diff", str(GAMES / "cibles.rules"),
                        str(GAMES / "variants" / "cibles-side5.rules")], capture_output=True, text=True)
    assert r.returncode == 1
    assert "param board_side: 4 -> 5" in r.stdout and "param pieces: 9 -> 11" in r.stdout


def test_diff_with_simulation_marks_significant_differences(tmp_path):
    status, entries, r = run_diff(tmp_path, BASE, BASE.replace("param turns_each = 20", "param turns_each = 30"),
                                  "--simulate", "60", "--agents", "random")
    data = json.loads(r.stdout)
    rows = {row["label"]: row for row in data["simulation"]["rows"]}
    assert rows["decisions"]["significant"]  # 40 against 60 decisions
    assert set(rows) >= {"P1 win rate", "P2 win rate", "draw rate", "P1 score", "P2 score"}
