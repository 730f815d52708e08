"""Rules texts drawn from the Lark grammar itself (dsl/rules.lark), for hypothesis: every
sentence is one the parser's grammar allows, so the checker, the lowering, the writers, the
formatter and the loader all see shapes no test thought of. Names are drawn from a few words
that mean something to the checker (built-ins, ``me``, ``board``) so that checks go deep.

Used by tests/test_fuzz.py; ``sentences()`` is the strategy.
"""
from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

#: samples for the grammar's terminals given by a pattern, not a fixed string
SAMPLES = {
    "NAME": ["a", "b", "c", "p", "x", "n", "board", "pile", "hand", "f", "me", "count", "cells", "empty_cells",
             "sum", "max", "neighbour", "in_a_row", "number", "card", "colour", "value", "first", "total"],
    "INT": ["0", "1", "2", "3", "7", "10"],
    "NEGINT": ["-1", "-3"],
    "STRING": ['"a"', '"X"', '"{c}"', '"a1"', '"n"', '""'],
    "DOC": ["/// a doc comment\n"],
    "COMMENT": ["# a comment\n"],
    "CMP_OP": ["==", "!=", "<=", ">=", "<", ">"],
    "ASSIGN_OP": ["=", "+=", "-="],
    "ADD_OP": ["+", "-"],
    "MUL_OP": ["*", "//", "%"],
    "TIE_KIND": ["draw", "shared"],
}
MAX_DEPTH = 7  # past it, every choice is the shortest way to finish
MAX_TOKENS = 300


@lru_cache(maxsize=1)
def _grammar():
    """(expansions by rule name, the string of each fixed terminal, the shortest depth of each
    rule) of the parser's own grammar."""
    from regle.dsl.parser import _lark
    lark = _lark()
    rules: dict[str, list[list[tuple[str, bool]]]] = {}
    for rule in lark.rules:
        rules.setdefault(rule.origin.name, []).append([(s.name, s.is_term) for s in rule.expansion])
    fixed = {t.name: t.pattern.value for t in lark.terminals if t.pattern.type == "str"}
    depth: dict[str, float] = {name: float("inf") for name in rules}
    changed = True
    while changed:  # shortest depth to finish each rule: a fixpoint
        changed = False
        for name, options in rules.items():
            best = min(1 + max([depth[s] if not term else 0 for s, term in option] + [0]) for option in options)
            if best < depth[name]:
                depth[name], changed = best, True
    return rules, fixed, depth


def _terminal(draw, name: str, fixed: dict) -> str:
    if name in SAMPLES:
        return draw(st.sampled_from(SAMPLES[name]))
    if name in fixed:
        return fixed[name]
    raise KeyError(f"no sample for the terminal {name}: add one to SAMPLES")


@st.composite
def sentences(draw, start: str = "start") -> str:
    """A rules text the grammar allows (not one that checks: most do not)."""
    rules, fixed, depth = _grammar()
    tokens: list[str] = []

    def expand(name: str, level: int) -> None:
        options = rules[name]
        if level >= MAX_DEPTH or len(tokens) > MAX_TOKENS:
            shortest = min(1 + max([depth[s] if not t else 0 for s, t in o] + [0]) for o in options)
            options = [o for o in options if 1 + max([depth[s] if not t else 0 for s, t in o] + [0]) == shortest]
        option = options[draw(st.integers(0, len(options) - 1))] if len(options) > 1 else options[0]
        for symbol, is_term in option:
            if is_term:
                tokens.append(_terminal(draw, symbol, fixed))
            else:
                expand(symbol, level + 1)

    expand(start, 0)
    out = []
    for token in tokens:  # a doc comment or a comment runs to the end of its line
        out.append(token if token.endswith("\n") else token + " ")
        if token in ("{", "}"):
            out.append("\n")
    return "".join(out)


#: a small game that checks: declarations drawn from the grammar are added to it, so that the
#: checker, the lowering and the writers see them beside a board, a zone, a counter and a turn
SKELETON = """game "Fuzz" {
  players 2
}

grid board: player square 3 by 3
zone pile: int = [1, 2, 3]
counter total = 0

turn {
  action mark(c in empty_cells(board)) "{c}" {
    put me at c on board
    total += 1
  }
}

end when count(empty_cells(board)) == 0
"""


@st.composite
def games(draw) -> str:
    """A sentence of the grammar, alone or as declarations added to a game that checks."""
    if draw(st.booleans()):
        return draw(sentences())
    extra = draw(st.lists(sentences("decl"), min_size=1, max_size=3))
    return SKELETON + "\n" + "\n".join(extra) + "\n"
