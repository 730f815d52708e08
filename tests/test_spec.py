"""``game.spec`` (issue 57): what the rules declare, read through the public API alone and held
to the rules text itself (parsed here), on every game that ships with regle: params, enums,
tables, boards and their geometry, steps and actions; ``regle rules --format json``."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import regle
from regle import games, native
from regle.dsl import ast
from regle.dsl.parser import parse
from regle.dsl.variants import resolve
from regle.dsl.files import read_source

#: the steps a board of each shape takes, by direction name, as (columns, rows)
SQUARE_STEPS = {"e": (1, 0), "w": (-1, 0), "n": (0, 1), "s": (0, -1),
                "ne": (1, 1), "sw": (-1, -1), "nw": (-1, 1), "se": (1, -1)}
RHOMBUS_STEPS = {"e": (1, 0), "w": (-1, 0), "ne": (0, 1), "sw": (0, -1), "nw": (-1, 1), "se": (1, -1)}


def _rules(name: str) -> ast.Rules:
    source = read_source(games.path(name))
    rules, _ = resolve(parse(source.text, str(games.path(name))), source)
    return rules


def _decls(rules: ast.Rules, kind: type) -> list:
    return [d for d in rules.decls if isinstance(d, kind)]


def _place(name: str) -> tuple[int, int]:
    """A square board's cell name as (column, row) from 0: b3 -> (1, 2)."""
    letters, digits = re.fullmatch(r"([a-z]+)(\d+)", name).groups()
    column = 0
    for ch in letters:
        column = column * 26 + ord(ch) - 96
    return column - 1, int(digits) - 1


@pytest.mark.parametrize("name", games.names())
def test_the_spec_is_what_the_rules_text_declares(name):
    rules = _rules(name)
    spec = regle.load(name, backend="python").spec
    params = {p.name: p.value.value for p in _decls(rules, ast.Param) if isinstance(p.value, ast.Int)}
    assert {k: v for k, v in spec.params.items() if k in params} == params
    assert set(spec.params) == {p.name for p in _decls(rules, ast.Param)}
    assert spec.enums == {e.name: [m.name for m in e.members] for e in _decls(rules, ast.Enum)}
    for table in _decls(rules, ast.Table):
        items = spec.tables[table.name]
        assert items and all(list(item) == [c.name for c in table.columns] for item in items)
        for column in table.columns:  # an enum column holds that enum's members, by name
            if column.type.name in spec.enums and not column.type.pattern:
                assert {item[column.name] for item in items} <= set(spec.enums[column.type.name]) | {None}  # none
            elif column.type.name in spec.enums:  # a pattern: rows of members (or none)
                members = set(spec.enums[column.type.name]) | {None}
                assert all(set(sum(item[column.name], [])) <= members for item in items)
    assert set(spec.grids) == {g.name for g in _decls(rules, ast.Grid)}
    turn = next(iter(_decls(rules, ast.Turn)), None)
    declared = [] if turn is None else [a.name for step in turn.steps for a in step.choices
                                        if isinstance(a, ast.Action)]
    listed = [a["name"] for step in spec.steps for a in step["actions"]]
    assert [a for a in listed if a in declared] == declared  # (and a step's own pass or stop)
    json.dumps(spec.to_dict())  # plain data


@pytest.mark.parametrize("name", games.names())
def test_each_board_s_geometry_is_its_shape_s(name):
    """Neighbours rebuilt from the cell names alone: on squares and rhombi of hexagons each
    direction is a fixed step of column and row; on every board, neighbours are mutual and each
    side's cells lie on the edge."""
    spec = regle.load(name, backend="python").spec
    for grid in spec.grids.values():
        if grid.shape in ("square", "rhombus", "triangle") and not grid.cells[0].isdigit():
            steps = SQUARE_STEPS if grid.shape == "square" else RHOMBUS_STEPS
            at = {_place(c): c for c in grid.cells}
            for cell in grid.cells:
                x, y = _place(cell)
                want = {d: at[(x + steps[d][0], y + steps[d][1])] for d in grid.directions
                        if (x + steps[d][0], y + steps[d][1]) in at}
                assert grid.neighbours(cell) == want, (grid.name, cell)
                assert (grid.columns.get(cell, x), grid.rows[cell]) == (x, y)
        for cell in grid.cells:
            for d, other in grid.neighbours(cell).items():
                assert cell in grid.neighbours(other).values(), (grid.name, cell, d)
        for side, cells in grid.sides.items():
            assert cells and all(any(grid.exits(c, d) for d in grid.directions) for c in cells), (grid.name, side)


def test_named_sides_and_exits():
    board = regle.load("hex").spec.grids["board"]
    assert list(board.sides) == ["south", "west", "north", "east"]  # the rules' edges enum names them
    assert board.neighbour("a1", "w") is None and board.exits("a1", "w") == ["west"]
    assert board.neighbour("a1", "e") == "b1" and board.exits("a1", "e") == []
    with pytest.raises(KeyError, match="no cell 'z9'"):
        board.neighbours("z9")
    with pytest.raises(KeyError, match="no direction 'up'"):
        board.neighbour("a1", "up")
    havannah = regle.load("havannah").spec.grids["board"]
    corners = [c for c in havannah.cells if len(havannah.neighbours(c)) == 3]
    assert len(havannah.cells) == 169 and len(corners) == 6 and len(havannah.sides) == 6


def test_tables_keep_every_column_and_copies():
    cards = regle.load("lostcities").spec.tables["card"]
    assert len(cards) == 60 and cards[0] == {"colour": "yellow", "value": 0}
    assert sum(1 for c in cards if c["value"] == 0) == 15  # three wagers of each of five colours
    assert regle.load("leduc").spec.tables["card"][:3] == [
        {"rank": "jack", "suit": 0}, {"rank": "jack", "suit": 1}, {"rank": "queen", "suit": 0}]


@pytest.mark.skipif(not native.available(), reason="no C compiler here")
@pytest.mark.parametrize("name", ["leduc", "chess", "pixies"])
def test_both_engines_give_the_same_spec(name):
    assert regle.load(name, backend="native").spec.to_dict() == regle.load(name, backend="python").spec.to_dict()


def test_the_rulebook_as_json_holds_the_rules_and_the_spec():
    out = subprocess.run([sys.executable, "-m", "regle.cli", "rules", "leduc", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    book = json.loads(out)
    assert book["format"] == "regle-rulebook/1" and book["title"] == "Leduc poker"
    assert {"kind": "heading", "level": 2, "text": "Setup"} in book["blocks"]
    assert book["spec"]["enums"]["rank"] == ["jack", "queen", "king"]
    assert [a["name"] for a in book["spec"]["steps"][0]["actions"]] == ["fold", "call", "raise"]
