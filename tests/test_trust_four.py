"""Trust, round four: checks that never stall, servers that shed slow clients, runs that never
lose a finished game, caches and saved states that are verified before they are believed, and
runtime errors that say how to reproduce them."""
from __future__ import annotations

import pytest

import regle
from regle.dsl.errors import RulesError
from regle.loader import compile_text


def chain(depth: int, nested: bool = True) -> str:
    """A rules text whose define i uses define i-1 twice (nested: ``d(d(c))``), so that writing
    each in place in the next would double the work at every level."""
    lines = ['game "Chain" {\n  players 2\n}\n', "grid board: player square 3 by 3\n", "define d0(c) = c\n"]
    for i in range(1, depth + 1):
        body = f"d{i - 1}(d{i - 1}(c))" if nested else f"d{i - 1}(c) + 0 * count(d{i - 1}(c) for x in 1..2)"
        lines.append(f"define d{i}(c) = {body}\n")
    lines.append('turn {\n  action mark(c in empty_cells(board)) "{c}" {\n    put me at c on board\n  }\n}\n')
    lines.append(f'end when d{depth}(cell(board, "a1")) == cell(board, "a1") then winner me\n')
    return "".join(lines)


# ---- the checker's budget ---------------------------------------------------------------------
def test_a_define_chain_that_doubles_at_each_level_is_refused_where_it_is_used():
    with pytest.raises(RulesError) as err:
        regle.loads(chain(20), "chain", backend="python")
    [d] = err.value.diagnostics
    assert (d.line, d.column) == (31, 10)  # the use of d20 in the end condition
    assert "this use of 'd20' expands into too much to check" in d.message
    assert "let" in d.hint


def test_the_budget_stops_the_work_not_a_clock(monkeypatch):
    """The refusal comes from counting expressions: lowering builds at most the budget."""
    from compiler.lower import exprs
    from compiler.lower.lowerer import work_budget
    from regle.dsl import parse
    built = [0]
    tree = exprs.ExpressionLowering.tree

    def counted(self, node, ctx):
        built[0] += 1
        return tree(self, node, ctx)
    monkeypatch.setattr(exprs.ExpressionLowering, "tree", counted)
    with pytest.raises(RulesError):
        compile_text(chain(20))
    assert built[0] <= work_budget(parse(chain(20))) + 1


def test_a_short_chain_still_checks_and_plays():
    game = regle.loads(chain(6), "chain6", backend="python")
    assert game.new_game(2, seed=1).legal_moves()


def test_the_budget_grows_with_the_text_so_shipped_games_are_far_below_it():
    from compiler.lower.lowerer import work_budget
    from regle.dsl import parse
    from conftest import GAMES
    text = (GAMES / "classics" / "chess.rules").read_text(encoding="utf-8")
    assert work_budget(parse(text)) >= 60_000
    compile_text(text)  # far below
