"""Nothing silently ignored: every statement the checker accepts acts, wherever it stands.

The matrix puts each kind of statement in each place a statement may stand (setup, an action's
effects, inside if/for/while, a procedure run from an action or from setup, an automatic step,
the block of a push's ejection) and asks that it either be refused with a positioned error, or
leave code in the engine that comes from its rules line. The `ensure` of a procedure, once
silently dropped, is also tested by play on both engines.
"""
from __future__ import annotations

import attrs
import pytest

import regle
from regle import native
from regle.compiler.ir import statements as S
from regle.compiler.generate import lower
from regle.dsl.errors import RulesError

BACKENDS = ["python", "native"]

# a game that every statement below fits: zones, a square grid, lanes, a hex board, a pattern
BASE = '''game "m" {
  players 2
  max decisions 40
}
enum colour { red = "R", blue = "B" }
table card(pattern: pattern of colour) {
  "RB"
}
zone deck: int = [1, 2, 3, 4, 5, 6]
zone hand: int per player
zone market: int
zone supply: colour = [red, blue, red, blue]
counter n
counter sides_seen
grid board: player square 4 by 4
grid tray: colour lanes 3 height 3
grid hexes: player hex side 3
setup {
SETUP
}
define proc(c) {
PROC
}
turn {
  step s {
    action go(c in empty_cells(board)) "{c}" {
ACTION
    }
  }
  do tidy {
AUTO
  }
}
end when turns >= 6
'''

# each kind of statement the grammar has, as lines (the one marked `>` is the statement; the
# others make what it needs); none reads the action's parameter, so each fits every place
KINDS = {
    "shuffle": ["> shuffle deck"],
    "deal": ["> deal 1 from deck to hand[0]"],
    "move": ["> move last(deck) from deck to market"],
    "move_piece": ['> move cell(board, "a1") to cell(board, "a2") on board'],
    "add": ["> add 1 to market"],
    "remove": ["> remove 1 from market"],
    "refill": ["> refill market from deck up to 2"],
    "if": ["> if n > 0 {", "  n += 1", "}"],
    "for": ["> for x in 1..2 {", "  n += x", "}"],
    "while": ["> while n < 0 {", "  n += 1", "}"],
    "let": ["> let k = n + 1", "n = k"],
    "require": ["> require n >= 0"],
    "ensure": ["> ensure n >= 0"],
    "assign": ["> n += 1"],
    "end game": ["> end game"],
    "announce": ['> announce "hello"'],
    "end turn": ["> end turn"],
    "again": ["> again"],
    "next player": ["> next player 1"],
    "put": ['> put 1 at cell(board, "a1") on board'],
    "clear": ['> clear cell(board, "a1") on board'],
    "drop": ["> drop red into tray lane 0"],
    "settle": ["> settle tray"],
    "rotate": ['> rotate board at cell(board, "a1") size 2 by 1'],
    "reflect": ['> reflect board at cell(board, "a1") size 2'],
    "copy": ['> copy board at cell(board, "a1") size 2 to cell(board, "c3")'],
    "place": ["for p in placements(card[0].pattern, tray, supply) {",
              "> place p of card[0].pattern into tray taking from supply overflow to supply", "}"],
    "push": ["for m in line_moves(hexes, 0) {", "> push m on hexes", "}"],
    "run": ["> tally(1)"],
}

TALLY = "define tally(k) {\n  n += k\n}\n"

# where a statement may stand: the hole it fills, and how it is wrapped there
PLACES = {
    "setup": ("SETUP", None),
    "effects": ("ACTION", None),
    "effects, in if": ("ACTION", ("if n >= 0 {", "}")),
    "effects, in for": ("ACTION", ("for y in 1..1 {", "}")),
    "effects, in while": ("ACTION", ("while n < 0 {", "}")),
    "procedure run by an action": ("PROC", None),
    "procedure run by setup": ("PROC", None),
    "automatic step": ("AUTO", None),
    "ejection": ("ACTION", ("for mm in line_moves(hexes, me) {", "  push mm on hexes ejecting (who, gone) {",
                            "    sides_seen += 1", "  }", "}")),
}


def _game(kind: str, place: str) -> tuple[str, int]:
    """The rules text with the statement in its place, and the statement's line."""
    hole, wrap = PLACES[place]
    lines = [line[2:] if line.startswith("> ") else line for line in KINDS[kind]]
    marked = next(i for i, line in enumerate(KINDS[kind]) if line.startswith("> "))
    if wrap is not None:
        if place == "ejection":  # inside the ejection's block
            head, tail = list(wrap[:3]), list(wrap[3:])
            lines = head + ["    " + line for line in lines] + tail
            marked += 3
        else:
            lines = [wrap[0]] + ["  " + line for line in lines] + [wrap[1]]
            marked += 1
    fills = {"SETUP": "  n = 0", "PROC": "  n += 0", "ACTION": "      put me at c on board", "AUTO": "    n += 0"}
    indent = {"SETUP": "  ", "PROC": "  ", "ACTION": "      ", "AUTO": "    "}[hole]
    fills[hole] = "\n".join(indent + line for line in lines)
    if place == "procedure run by an action":
        fills["ACTION"] = "      put me at c on board\n      proc(c)"
    elif place == "procedure run by setup":
        fills["SETUP"] = '  proc("a1")'
    text = BASE
    for key, value in fills.items():
        text = text.replace(key, value)
    text += TALLY
    start = text.index(fills[hole])
    line = text[:start].count("\n") + 1 + marked
    return text, line


def _ir_lines(value, seen: set[int]) -> set[int]:
    """The rules lines of every statement of the engine's trees but comments."""
    found: set[int] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif attrs.has(type(v)):
            seen.add(id(v))
            if isinstance(v, S.Stmt) and not isinstance(v, S.Comment):
                found.add(v.line)
            stack.extend(getattr(v, f.name) for f in attrs.fields(type(v)))
    return found


def _outcome(kind: str, place: str) -> tuple[str, int, object]:
    text, line = _game(kind, place)
    try:
        ir = lower(text, "m.rules")
    except RulesError as err:
        return "refused", line, err
    return "compiled", line, ir


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_statement_is_valid_among_an_actions_effects_or_at_setup(kind):
    """The matrix's control: each statement's text is right where it most surely belongs, so a
    refusal elsewhere is about the place, not the text."""
    outcomes = {place: _outcome(kind, place)[0] for place in ("effects", "setup", "automatic step")}
    assert "compiled" in outcomes.values(), (kind, outcomes)


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_statement_acts_or_is_refused_where_it_stands(kind, place):
    status, line, result = _outcome(kind, place)
    if status == "refused":
        lines = {d.line for d in result.diagnostics}
        assert lines, (kind, place)
        text = _game(kind, place)[0].splitlines()
        # positioned at the statement, or at the run of the procedure that holds it
        allowed = {line} | {i + 1 for i, t in enumerate(text) if "proc(" in t and "define" not in t}
        assert lines & allowed, (kind, place, line, [str(d) for d in result.diagnostics])
    else:
        assert line in _ir_lines(result, set()), f"{kind} in {place}: line {line} left nothing in the engine"


# ---- the ensure of a procedure ---------------------------------------------------------------

ENSURE = '''game "e" {
  players 2
  max decisions 20
}
grid board: player square 3 by 3
counter placed
define go(c) {
  put me at c on board
  placed += 1
  ensure column(board, c) != 1
}
define outer(c) {
  go(c)
}
turn {
  action mark(c in empty_cells(board)) "{c}" {
    RUN
  }
}
end when count(empty_cells(board)) == 0
'''


@pytest.fixture(params=BACKENDS)
def backend(request):
    if request.param == "native" and not native.available():
        pytest.skip(native.unavailable_reason())
    return request.param


@pytest.mark.parametrize("run", ["go(c)", "outer(c)"])
def test_an_ensure_in_a_procedure_is_tested_as_the_actions_own(backend, run):
    """`define go(c) { ...; ensure ... }` run by an action makes the move legal only where the
    condition holds after the procedure's statements before it, through procedures that run
    procedures too; the trial puts back what it changed."""
    game = regle.loads(ENSURE.replace("RUN", run), name="e", backend=backend)
    s = game.new_game(seed=0)
    assert [str(m) for m in s.legal_moves()] == ["a1", "c1", "a2", "c2", "a3", "c3"]
    assert s.to_json()["counters"]["placed"] == 0  # the trials put the counter back
    with pytest.raises(regle.IllegalMove):
        s.play("b2")
    s.play("a1")
    assert s.to_json()["counters"]["placed"] == 1
    assert [str(m) for m in s.legal_moves()] == ["c1", "a2", "c2", "a3", "c3"]


def _line_of(text: str, fragment: str) -> int:
    """The number of the first line of ``text`` holding ``fragment``."""
    return next(i + 1 for i, line in enumerate(text.splitlines()) if fragment in line)


def _diagnostics(text: str) -> list[tuple[int, str]]:
    with pytest.raises(RulesError) as info:
        lower(text, "e.rules")
    return [(d.line, d.message) for d in info.value.diagnostics]


def test_a_procedure_holding_an_ensure_is_refused_where_the_actions_own_would_be():
    text = ENSURE.replace("RUN", "if true {\n      go(c)\n    }")
    assert any(line == _line_of(text, "      go(c)") and "procedure 'go' holds an 'ensure' (line 10)" in m
               for line, m in _diagnostics(text))
    text = ENSURE.replace("  go(c)\n}", "  if true {\n    go(c)\n  }\n}").replace("RUN", "outer(c)")
    assert any(line == _line_of(text, "    go(c)") and "procedure 'go' holds an 'ensure'" in m
               for line, m in _diagnostics(text))
    twice = _diagnostics(ENSURE.replace("RUN", "go(c)\n    go(c)"))
    assert any("an action has one 'ensure'" in m for _, m in twice)
    text = ENSURE.replace("  placed += 1\n", "  end turn\n").replace("RUN", "go(c)")
    assert any(line == _line_of(text, "end turn") and "may not end the turn" in m for line, m in _diagnostics(text))
    text = ENSURE.replace("  ensure column(board, c) != 1",
                          "  if true {\n    ensure column(board, c) != 1\n  }").replace("RUN", "go(c)")
    assert any(line == _line_of(text, "ensure") and "not inside if, for or while" in m
               for line, m in _diagnostics(text))
    text = ENSURE.replace("RUN", "placed += 0") + 'setup {\n  go("a1")\n}\n'
    assert any(line == _line_of(text, "ensure") and "it belongs among an action's effects" in m
               for line, m in _diagnostics(text))


# ---- a name that meets a built-in means one thing ----------------------------------------------

SHADOW = '''game "s" {
  players 2
  max decisions 20
}
grid board: player square 3 by 3
DECL
turn {
  action mark(c in empty_cells(board)) "{c}" {
    put me at c on board
    USE
  }
}
end when turns >= 3
'''


def test_a_builtin_value_cannot_be_declared_or_let():
    """`stuck` (the player whose turn just ended had no move) is the language's in every file:
    a counter or a let of that name is refused where it is declared, not silently preferred."""
    text = SHADOW.replace("DECL", "counter stuck").replace("USE", "stuck += 1")
    assert any(line == 6 and "'stuck' is a built-in name" in m for line, m in _diagnostics(text))
    text = SHADOW.replace("DECL", "counter k").replace("USE", "let stuck = 1\n    k += stuck")
    assert any(line == 10 and "'stuck' is a built-in name" in m for line, m in _diagnostics(text))


def test_a_name_meeting_an_open_builtin_is_the_users_everywhere_or_an_error():
    """A counter named like a built-in function is fine while the file never calls the
    built-in; a file that does is refused at the call. A define of that name is called
    everywhere instead of the built-in."""
    ok = SHADOW.replace("DECL", "counter column").replace("USE", "column += 1")
    lower(ok, "s.rules")
    both = SHADOW.replace("DECL", "counter column").replace("USE", "column += column(board, c)")
    assert any(line == 10 and "'column' is your counter in this file (line 6)" in m
               for line, m in _diagnostics(both))
    game = regle.loads(SHADOW.replace("DECL", "counter k\ndefine column(g, c) = 7").replace(
        "USE", "k += column(board, c)"), name="s", backend="python")
    state = game.new_game(seed=0).play("c3")
    assert state.to_json()["counters"]["k"] == 7  # the define, not the built-in (2)


# ---- put at a list of cells ---------------------------------------------------------------------

PUT = '''game "p" {
  players 2
  max decisions 20
}
grid board: player square 3 by 3
turn {
  action mark(c in empty_cells(board)) "{c}" {
    put me at [c, cell(board, "c3")] on board
    put me at cells(board, "a3") on board
  }
}
end when turns >= 3
'''


def test_put_at_a_list_of_cells_gives_each_the_value(backend):
    game = regle.loads(PUT, name="p", backend=backend)
    s = game.new_game(seed=0).play("a1")
    assert s.to_json()["zones"]["board"] == [0, -1, -1, -1, -1, -1, 0, -1, 0]
    assert [str(m) for m in s.legal_moves()] == ["b1", "c1", "a2", "b2", "c2", "b3"]


def test_put_at_something_else_than_cells_says_a_list_is_allowed():
    text = PUT.replace('[c, cell(board, "c3")]', "[1 > 0]")
    assert any("expected a cell here, or a list of cells" in m for _, m in _diagnostics(text))
