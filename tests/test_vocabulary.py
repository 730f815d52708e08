"""The general board vocabulary and the composing parts of the language, each on its own:
geometry (directions, neighbour, ray, distance, cells by name and coordinates, sides), grids of
numbers, defines compiled to functions, while, ranges, if-then-else, number(), enum members from
numbers, generated table rows, a show text chosen by the item, seat marks and end ... then winner."""
from __future__ import annotations

import pytest

import regle
from regle.compiler.generate import engine_source
from regle.dsl.printer import format_text

HEAD = 'game "t" {\n  players 2\n}\n'
PASS_TURN = 'turn {\n  step s {\n    action go "go" {\n      {body}\n    }\n  }\n}\nend when turns >= 1\n'


def _errors(text: str) -> list[str]:
    with pytest.raises(regle.RulesError) as info:
        engine_source(text, "t.rules")
    return [f"{d.line}:{d.column} {d.message} | {d.hint or ''}" for d in info.value.diagnostics]


def _after(decls: str, body: str, players: int = 2):
    """The state after one turn whose only move runs ``body``."""
    game = regle.loads(HEAD + decls + "\n" + PASS_TURN.replace("{body}", body))
    state = game.new_game(players)
    return state.play("go")


def _roundtrip(text: str) -> None:
    once = format_text(text)
    assert format_text(once) == once


def test_square_with_diagonals_neighbour_ray_distance_and_names():
    s = _after("grid board: player square 4 by 3 with diagonals\ncounter a\ncounter b\ncounter c\ncounter d",
               'a = number(neighbour(board, "b2", "ne"))\n'
               '      b = count(ray(board, "a1", "ne"))\n'
               '      c = distance(board, "a1", "d3")\n'
               '      d = column(board, cell(board, 3, 2)) * 10 + row(board, cell(board, "c2"))')
    assert (s.c_a, s.c_b, s.c_c, s.c_d) == (2 * 4 + 2, 2, 3, 31)  # c3; b2, c3; 3 king steps
    orthogonal = _after("grid board: player square 4 by 3\ncounter c", 'c = distance(board, "a1", "d3")')
    assert orthogonal.c_c == 5  # without diagonals: 3 + 2 steps


def test_off_the_board_is_none_and_directions_are_values():
    s = _after("grid board: player square 3 by 3\ncounter a\ncounter b\ncounter c",
               'a = number(neighbour(board, "a1", "w"))\n'
               '      b = count(directions(board))\n'
               '      c = number(cell(board, 5, 0))')
    assert (s.c_a, s.c_b, s.c_c) == (-1, 4, -1)
    hexagon = _after("grid board: player hex side 2\ncounter n", "n = count(directions(board))")
    assert hexagon.c_n == 6


def test_hex_rhombus_sides_and_connection():
    s = _after("enum side { south, west, north, east }\ngrid board: player hex 3 by 3 edges side\ncounter n",
               'for c in edge_cells(board, west) {\n        put 0 at c on board\n      }\n'
               "      n = number(connected(board, 0, south, north)) * 10 + number(connected(board, 0, west, east))")
    assert s.c_n == 10  # the west column joins south and north, not west and east
    assert [n for n, v in zip(s.GAME.cell_names("board"), s.g_board) if v] == ["a1", "a2", "a3"]


def test_in_a_row_and_flanked_on_a_board():
    s = _after("grid board: player square 5 by 1 with diagonals\ncounter n\ncounter f",
               'put 1 at "b1" on board\n      put 1 at "c1" on board\n      put 0 at "d1" on board\n'
               '      f = count(flanked(board, "a1", 0))\n'
               "      n = number(in_a_row(board, 1, 2)) + number(in_a_row(board, 1, 3))")
    assert (s.c_f, s.c_n) == (2, 1)


def test_grid_of_numbers_and_mancala_board():
    s = _after("grid pits: int mancala 3\ncounter a\ncounter b",
               "for h in houses(pits, 1) {\n        pits[h] += 2\n      }\n"
               "      pits[store(pits, 0)] = 7\n"
               "      a = sum(pits[h] for h in cells(pits))\n"
               '      b = number(opposite(pits, "a1")) * 100 + number(neighbour(pits, store(pits, 1), "ccw"))')
    assert s.to_json()["zones"]["pits"] == [0, 0, 0, 7, 2, 2, 2, 0]
    assert (s.c_a, s.c_b) == (13, 600)  # a1 faces a2 (cell 6); after the last store comes a1 (0)
    assert "'b' holds pieces" in " ".join(_errors(HEAD + "grid b: player square 2 by 2\n"
                                                    + PASS_TURN.replace("{body}", 'b["a1"] = 1')))


def test_while_let_and_ranges():
    s = _after("counter n\ncounter total", "let k = 1\n      while k < 100 {\n        k = k * 2\n      }\n"
               "      n = k\n      for i in 1..4 {\n        total += i\n      }")
    assert (s.c_n, s.c_total) == (128, 10)
    runaway = regle.loads(HEAD + "counter n\n" + PASS_TURN.replace("{body}", "while n >= 0 {\n        n += 1\n      }"))
    with pytest.raises(regle.RulesRuntimeError, match="walked more than 1,000,000 elements in loops"):
        runaway.new_game().play("go")


def test_a_let_changes_only_by_its_own_kind():
    found = _errors(HEAD + "grid b: player square 2 by 2\n"
                    + PASS_TURN.replace("{body}", 'let c = cell(b, "a1")\n      c = true'))
    assert any("'c' holds a cell, not true/false" in m for m in found)
    found = _errors(HEAD + PASS_TURN.replace("{body}", "turns = 3"))
    assert any("only counters, grids of numbers and let values can be set" in m for m in found)


def test_if_then_else_number_and_enum_members_from_numbers():
    s = _after("enum colour { red, green, blue }\ncounter a\ncounter b\ncounter c",
               "a = if turns == 0 then 5 else 6\n"
               "      b = number(colour(2)) + number(true) + number(1 > 2)\n"
               "      c = number(last([red, blue])) * 10 + number(first([green]))")
    assert (s.c_a, s.c_b, s.c_c) == (5, 3, 21)
    found = _errors(HEAD + "enum colour { red }\ncounter a\n" + PASS_TURN.replace("{body}", "a = number(colour(4))"))
    assert any("enum 'colour' has no member number 4" in m for m in found)


def test_generated_table_rows_and_a_show_chosen_by_the_item():
    text = (HEAD + 'enum colour { red = "R", blue = "B" }\n'
            'table card(colour: colour, value: int) show "{colour:symbol}{value}" if value > 0 else "{colour:symbol}$" {\n'
            "  colour 0 * 2\n  colour 2..4\n}\n"
            "zone pile: card = card\n" + PASS_TURN.replace("{body}", "shuffle pile"))
    game = regle.loads(text)
    shows = [game.show("item:card", i) for i in range(10)]
    assert shows == ["R$", "R$", "B$", "B$", "R2", "R3", "R4", "B2", "B3", "B4"]
    _roundtrip(text)
    assert any("range of numbers is only allowed in a number column" in m for m in _errors(
        HEAD + "enum colour { red }\ntable t(c: colour) {\n  1..3\n}\n" + PASS_TURN.replace("{body}", "")))


def test_defines_are_functions_of_the_engine():
    text = (HEAD + "counter n\ndefine twice(x) = x + x + x - x + 0 * x + 0 * x + 0 * x + 0 * x + 0 * x + 0 * x + 0 * x + 0 * x + 0 * x + 0 * x + 0\n"
            "define quad(x) = twice(twice(x))\n" + PASS_TURN.replace("{body}", "n = quad(3) + quad(turns)"))
    code = engine_source(text, "t.rules")
    assert "def fn__twice(s, x_):" in code and "def fn__quad(s, x_):" in code
    assert code.count("x_ + x_ + x_") == 1  # written once, called, not pasted where used
    assert regle.loads(text).new_game().play("go").c_n == 12


def test_marks_draw_the_seats_and_end_then_winner_names_the_winner():
    from regle import display
    text = (HEAD.replace("players 2", 'players 2\n  marks "X", "O"') + "grid board: player square 2 by 1\n"
            + 'turn {\n  step s {\n    action put(c in empty_cells(board)) "{c}" {\n      put me at c on board\n    }\n  }\n}\n'
            + "end when count(filled_cells(board)) == 2 then winner me\nscore p {\n  first: 10 - p\n}\n")
    state = regle.loads(text).new_game().play("a1").play("b1")
    assert state.winners == [1]  # the seat that moved last, though P1 scores more
    assert "X O" in display.render(state)
    _roundtrip(text)


def test_quoted_names_are_checked_against_the_grid():
    found = _errors(HEAD + "grid b: player square 2 by 2\ncounter n\n"
                    + PASS_TURN.replace("{body}", 'put 0 at "z9" on b\n      n = count(ray(b, "a1", "up"))\n      n = "a1"'))
    text = " ".join(found)
    assert "grid 'b' has no cell \"z9\"" in text and "grid 'b' has no direction \"up\"" in text
    assert "names a cell or a direction" in text


def test_a_chain_its_sides_and_a_groups_first_cell():
    s = _after("enum side { south, west, north, east }\ngrid board: player square 3 by 3 edges side\n"
               "counter n\ncounter k\ncounter f",
               'put 0 at "a1" on board\n      put 0 at "a2" on board\n      put 1 at "b2" on board\n'
               '      n = count(chain(board, "a2"))\n'
               '      k = sum(number(x) for x in sides(board, chain(board, "a1")))\n'
               "      f = number(first(groups(board, 2)).cell)")
    assert (s.c_n, s.c_k, s.c_f) == (2, 0 + 1, 0)  # a1-a2; south and west; the group starts at a1


def test_a_numbered_grid_names_its_cells_as_read():
    s = _after("grid slots: player square 3 by 2 numbered\ncounter a",
               "put 0 at cell(slots, 1) on slots\n      put 1 at \"6\" on slots\n"
               "      a = number(cell(slots, 4))")
    names = tuple(s.GAME.cell_names("slots"))
    assert names == ("4", "5", "6", "1", "2", "3")  # cell 0 is the south-west corner: number 4
    assert s.c_a == 0 and s.g_slots[3] == 1 and s.g_slots[2] == 2
    with pytest.raises(regle.RulesRuntimeError, match="no cell numbered 7"):
        _after("grid slots: player square 3 by 2 numbered", "put 0 at cell(slots, 7) on slots")


def test_max_decisions_bounds_a_game():
    text = (HEAD.replace("players 2", "players 2\n  max decisions 3") + "counter n\n"
            + 'turn {\n  step s {\n    action go "go" {\n      n += 1\n    }\n  }\n}\nend when n >= 10\n')
    game = regle.loads(text)
    assert game.max_decisions() == 3
    state = game.new_game()
    for _ in range(3):
        state.play("go")
    with pytest.raises(regle.RulesRuntimeError, match="after 3 decisions.*max decisions"):
        state.play("go")
    _roundtrip(text)
    assert any("impossible bound 0" in m for m in _errors(text.replace("max decisions 3", "max decisions 0")))


# ---- hex triangle S: a triangle of hexagons (the board of Y) ---------------------------------------------
def test_a_triangle_of_hexagons_has_its_cells_neighbours_and_three_sides():
    from regle.compiler.check.geometry import triangle
    geo = triangle(4)
    assert geo.cells == 10 and geo.sides == ("s", "w", "ne")
    names = geo.cell_names()
    assert names[:4] == ("a1", "b1", "c1", "d1") and names[-1] == "a4"  # the south row first, the apex last
    at = {name: i for i, name in enumerate(names)}
    around = {name: sorted(names[j] for j in geo.adj[i * 6:(i + 1) * 6] if j >= 0) for name, i in at.items()}
    assert around["a1"] == ["a2", "b1"]  # a corner: two neighbours
    assert around["c2"] == ["b2", "b3", "c1", "d1"]  # on the long side (x + y == 3): four
    assert around["b2"] == ["a2", "a3", "b1", "b3", "c1", "c2"]  # inside: six
    assert around["b1"] == ["a1", "a2", "b2", "c1"]
    for i in range(geo.cells):  # neighbours are mutual
        for j in geo.adj[i * 6:(i + 1) * 6]:
            assert j < 0 or i in geo.adj[j * 6:(j + 1) * 6]
    south, west, long_side = ({names[c] for c in side} for side in geo.side_cells())
    assert south == {"a1", "b1", "c1", "d1"} and west == {"a1", "a2", "a3", "a4"}
    assert long_side == {"d1", "c2", "b3", "a4"}  # a corner lies on two sides


def test_a_chain_across_the_triangle_touches_its_three_sides():
    s = _after("enum side { south, west, long_side }\ngrid board: player hex triangle 3 edges side\ncounter n\n"
               "counter m",
               'for c in edge_cells(board, west) {\n        put 0 at c on board\n      }\n'
               '      m = count(sides(board, chain(board, "a1")))\n'
               '      put 0 at "b1" on board\n'
               '      n = count(sides(board, chain(board, "a1"))) * 10 + number(connected(board, 0, south, long_side))')
    assert s.c_m == 3  # the west side runs from a corner on the south to one on the long side
    assert s.c_n == 31
    assert [n for n, v in zip(s.GAME.cell_names("board"), s.g_board) if v] == ["a1", "b1", "a2", "a3"]


def test_a_triangle_is_refused_what_it_cannot_do():
    errors = _errors(HEAD + "enum side { a, b, c, d }\ngrid board: player hex triangle 3 edges side\n"
                     + PASS_TURN.replace("{body}", 'put 0 at cell(board, 1, 1) on board'))
    assert any("has 3 sides" in e for e in errors), errors
    assert any("cell(G, x, y) is for square boards" in e for e in errors), errors
    _roundtrip(HEAD + "grid board: player hex triangle 5\n" + PASS_TURN.replace("{body}", 'put 0 at "a1" on board'))


def test_ring_is_a_loop_of_stones_around_a_cell_on_hexagons():
    s = _after("grid board: player hex side 3\ncounter a\ncounter b",
               'for c in neighbours(board, "c3") {\n        put 0 at c on board\n      }\n'
               '      a = number(ring(board, "b2"))\n'
               '      b = number(ring(board, "c3"))')
    assert (s.c_a, s.c_b) == (1, 0)  # the six around c3 are a ring; the empty centre closes none
    errors = _errors(HEAD + "grid board: player square 3 by 3\ncounter a\n"
                     + PASS_TURN.replace("{body}", 'a = number(ring(board, "b2"))'))
    assert any("ring() is for boards of hexagons" in e for e in errors), errors


# ---- star N: the six-pointed star of Chinese checkers --------------------------------------------------
def test_the_star_has_121_holes_six_points_and_no_edges():
    from regle.compiler.check.geometry import star
    geo = star(4)
    assert geo.cells == 121 and geo.sides == ()
    names = geo.cell_names()
    degree = [sum(1 for j in geo.adj[i * 6:(i + 1) * 6] if j >= 0) for i in range(geo.cells)]
    assert sorted(degree).count(2) == 6  # the six tips
    assert [names[i] for i in range(geo.cells) if geo.rows[i] == 0] == ["a1"]  # the south tip
    assert [sum(1 for r in geo.rows if r == row) for row in range(17)] == [1, 2, 3, 4, 13, 12, 11, 10, 9,
                                                                           10, 11, 12, 13, 4, 3, 2, 1]
    for i in range(geo.cells):
        for j in geo.adj[i * 6:(i + 1) * 6]:
            assert j < 0 or i in geo.adj[j * 6:(j + 1) * 6]
    assert star(2).cells == 6 * 2 * 3 + 1
    s = _after("grid board: player star 2\ncounter n",
               'n = count(neighbours(board, "a1")) * 10 + count(cells(board))')
    assert s.c_n == 2 * 10 + 37
    errors = _errors(HEAD + "enum side { a, b, c, d, e, f }\ngrid board: player star 2 edges side\n"
                     + PASS_TURN.replace("{body}", 'put 0 at "a1" on board'))
    assert any("a star's points are found by rows" in e for e in errors), errors
    _roundtrip(HEAD + "grid board: player star 3\n" + PASS_TURN.replace("{body}", 'put 0 at "a1" on board'))
