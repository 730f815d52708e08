"""Rules text -> AST.

The Lark LALR tables are built once and cached on disk (keyed by the grammar's hash), so a
warm ``regle check`` does not pay the table build. Syntax errors are translated into author
language; when the first parse fails, each top-level declaration is parsed on its own so that
one file reports every broken declaration at once.
"""
from __future__ import annotations

import hashlib
import os
import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast
from .errors import Diagnostic, RulesError, Source
from .files import MAX_SOURCE_BYTES

GRAMMAR_PATH = Path(__file__).with_name("rules.lark")

#: Words that start a top-level declaration (used to resynchronise after a syntax error).
DECL_KEYWORDS = (
    "game", "extend", "param", "enum", "table", "zone", "grid", "counter", "setup", "turn",
    "end", "score", "winner", "invariant", "notice", "standin", "override", "///",
)


def cache_dir() -> Path:
    """Where regle keeps parser tables and generated engines (``regle cache --clear`` empties it)."""
    env = os.environ.get("REGLE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "regle"


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    digest = hashlib.sha256(grammar.encode()).hexdigest()[:16]
    options = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)
    try:
        directory = cache_dir()
        directory.mkdir(parents=True, exist_ok=True)
        return Lark(grammar, cache=str(directory / f"grammar-{digest}.lark.cache"), **options)
    except OSError:  # read-only home: build the tables every time, still correct
        return Lark(grammar, **options)


# ---- tree -> AST -------------------------------------------------------------------------
def _pos(meta_or_token) -> tuple[int, int]:
    line = getattr(meta_or_token, "line", None)
    col = getattr(meta_or_token, "column", None)
    return (line or 0, col or 0)


def _unquote(token: Token) -> str:
    body = str(token)[1:-1]
    return re.sub(r'\\(["\\n])', lambda m: "\n" if m.group(1) == "n" else m.group(1), body)


#: Characters a text of the rules may not hold: C0/C1 controls but tab (terminal escapes, CR,
#: NUL), line and paragraph separators, and the bidirectional overrides that reorder text.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _plain_name(name: str) -> str:
    return re.sub("_+", "_", name).strip("_") or "name"


def _doc(docs) -> str | None:
    if docs is None:
        return None
    return "\n".join(d.strip() for d in docs)


@v_args(meta=True)
class ToAst(Transformer):
    """Builds :mod:`regle.dsl.ast` nodes from the parse tree."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__()
        self.diagnostics = diagnostics
        self.bad_names: set[str] = set()  # reported once each

    def __default_token__(self, token: Token) -> Token:
        if token.type in ("STRING", "DOC"):
            bad = CONTROL.search(str(token))
            if bad:
                self.diagnostics.append(Diagnostic(
                    f"this text holds the control character U+{ord(bad.group()):04X}",
                    token.line, token.column + bad.start(), "texts are shown to players as they are: "
                    "write visible characters only (\\n for a line break)"))
        if token.type == "NAME" and (token.startswith("_") or token.endswith("_") or "__" in token) \
                and token not in self.bad_names:
            self.bad_names.add(str(token))
            self.diagnostics.append(Diagnostic(
                f"'{token}' cannot be a name: names may not start or end with '_' or hold '__'",
                token.line, token.column, "those are kept for the engine's own names; "
                f"try '{_plain_name(str(token))}'"))
        return token

    # -- top level
    def start(self, meta, decls):
        return ast.Rules(decls=list(decls))

    def docs(self, meta, items):
        return [str(t)[3:].rstrip() for t in items]

    def decl(self, meta, items):
        docs, standin, override, node = items
        node.doc = _doc(docs)
        node.standin = standin is not None
        if override is not None:
            node.override = True
        return node

    def game(self, meta, items):
        title, *opts = items
        node = ast.Game(title=_unquote(title), pos=_pos(meta))
        for kind, value, at in opts:
            if kind == "players":
                node.min_players, node.max_players = value
                node.players_pos = at
            elif kind == "marks":
                node.marks = value
            elif kind == "colours":
                node.colours, node.colours_pos = value, at
            elif kind == "seats":
                node.seats = [name for name, _pos_, _side in value]
                node.seats_pos = [where for _name, where, _side in value]
                node.seat_sides = [side and side[0] for _n, _w, side in value]
                node.seat_sides_pos = [side and side[1] for _n, _w, side in value]
            elif kind == "max_decisions":
                node.max_decisions = value
            else:
                node.first = value
        if node.seats and not node.players_pos[0]:  # seats black, white: two players
            node.min_players = node.max_players = len(node.seats)
        return node

    def players(self, meta, items):
        lo, hi = items
        lo = int(lo)
        return ("players", (lo, int(hi) if hi is not None else lo), _pos(meta))

    def max_decisions(self, meta, items):
        return ("max_decisions", items[0], _pos(meta))

    def marks(self, meta, items):
        return ("marks", [_unquote(t) for t in items], _pos(meta))

    def colours(self, meta, items):
        return ("colours", [_unquote(t) for t in items], _pos(meta))

    def seats(self, meta, items):
        return ("seats", items, _pos(meta))

    def seat(self, meta, items):
        name, side = items
        return (str(name), _pos(name), None if side is None else (str(side), _pos(side)))

    def first_player(self, meta, items):
        return ("first", items[0], _pos(meta))

    def extend(self, meta, items):
        return ast.Extend(path=_unquote(items[0]), pos=_pos(meta))

    def param(self, meta, items):
        return ast.Param(name=str(items[0]), value=items[1], pos=_pos(meta), name_pos=_pos(items[0]))

    def enum(self, meta, items):
        return ast.Enum(name=str(items[0]), members=list(items[1:]), pos=_pos(meta), name_pos=_pos(items[0]))

    def enum_member(self, meta, items):
        wild, name, symbol, figure, disc = items
        return ast.EnumMember(name=str(name), wild=wild is not None, pos=_pos(name),
                              symbol=_unquote(symbol) if symbol is not None else None,
                              figure=_unquote(figure) if figure is not None else None, on_disc=disc is not None)

    def on_disc(self, meta, items):
        return True

    def table(self, meta, items):
        name = items[0]
        columns = [i for i in items[1:] if isinstance(i, ast.Column)]
        show = next((i for i in items[1:] if isinstance(i, tuple) and i[0] == "show"), None)
        show_if = show[2] if show else None
        show_else = show[3] if show else None
        detail = next((i for i in items[1:] if isinstance(i, tuple) and i[0] == "detail"), None)
        cells = [i for i in items[1:] if isinstance(i, ast.Cell)]
        node = ast.Table(name=str(name), columns=columns, show=show[1] if show else None, pos=_pos(meta),
                         name_pos=_pos(name), detail=detail[1] if detail else None,
                         show_if=show_if, show_else=show_else, show_elifs=show[4] if show else [])
        node.rows = self._rows(cells, len(columns))
        return node

    def _rows(self, cells: list[ast.Cell], width: int) -> list[ast.Row]:
        """Group cells into rows: one row per source line, ``* N`` repeating it."""
        rows: list[ast.Row] = []
        by_line: dict[int, list[ast.Cell]] = {}
        for cell in cells:
            by_line.setdefault(cell.pos[0], []).append(cell)
        for line in sorted(by_line):
            values = by_line[line]
            copies = 1
            if values and values[-1].kind == "copies":
                copies = values.pop().value
            for extra in values:
                if extra.kind == "copies":
                    self.diagnostics.append(Diagnostic(
                        "'* N' (copies) may only end a row", *extra.pos,
                        hint="write the number of copies last, e.g. `1 2 3 * 4`"))
            values = [c for c in values if c.kind != "copies"]
            if not values:
                continue
            rows.append(ast.Row(cells=values, copies=copies, pos=values[0].pos))
        return rows

    def column(self, meta, items):
        return ast.Column(name=str(items[0]), type=items[1], pos=_pos(meta))

    def show(self, meta, items):
        """``show A if c1 else B if c2 else C``: A, c1, C and the middle branches [(c2, B)]."""
        text, rest = items[0], items[1:]
        conds, texts = rest[0::2], [_unquote(t) for t in rest[1::2]]
        elifs = [(conds[i + 1], texts[i]) for i in range(len(conds) - 1)]
        return ("show", _unquote(text), conds[0] if conds else None, texts[-1] if texts else None, elifs)

    def detail(self, meta, items):
        return ("detail", _unquote(items[0]))

    def cell_range(self, meta, items):
        return ast.Cell(kind="range", value=(int(items[0]), int(items[1])), pos=_pos(items[0]))

    def cell_name(self, meta, items):
        return ast.Cell(kind="name", value=str(items[0]), pos=_pos(items[0]))

    def cell_int(self, meta, items):
        return ast.Cell(kind="int", value=int(items[0]), pos=_pos(items[0]))

    def cell_str(self, meta, items):
        return ast.Cell(kind="str", value=_unquote(items[0]), pos=_pos(items[0]))

    def cell_none(self, meta, items):
        return ast.Cell(kind="none", value=None, pos=_pos(meta))

    def cell_copies(self, meta, items):
        return ast.Cell(kind="copies", value=int(items[0]), pos=_pos(meta))

    def type(self, meta, items):
        return ast.TypeRef(name=str(items[0]), pos=_pos(meta))

    def type_int(self, meta, items):
        return ast.TypeRef(name="int", pos=_pos(meta))

    def type_bool(self, meta, items):
        return ast.TypeRef(name="bool", pos=_pos(meta))

    def type_player(self, meta, items):
        return ast.TypeRef(name="player", pos=_pos(meta))

    def type_pattern(self, meta, items):
        return ast.TypeRef(name=str(items[0]), pattern=True, pos=_pos(meta))

    def type_piece(self, meta, items):
        return ast.TypeRef(name=str(items[0]), piece=True, pos=_pos(meta))

    def type_cell(self, meta, items):
        return ast.TypeRef(name=str(items[0]), cell=True, pos=_pos(meta))

    def per_player(self, meta, items):
        return ("per", "player")

    def per_turn(self, meta, items):  # a counter set back to its first value as each turn begins
        return ("per", "turn")

    def per_step(self, meta, items):  # emptied (set back) as each step of a turn begins
        return ("per", "step")

    def per_enum(self, meta, items):
        return ("per", str(items[0]))

    def shape_square(self, meta, items):
        return ("shape", ("square", list(items)))

    def shape_lanes(self, meta, items):
        return ("shape", ("lanes", list(items)))

    def shape_hex(self, meta, items):
        return ("shape", ("hex", list(items)))

    def shape_star(self, meta, items):
        return ("shape", ("star", list(items)))

    def shape_triangle(self, meta, items):
        return ("shape", ("triangle", list(items)))

    def shape_rhombus(self, meta, items):
        return ("shape", ("rhombus", list(items)))

    def shape_mancala(self, meta, items):
        return ("shape", ("mancala", list(items)))

    def shape_lines(self, meta, items):
        return ("shape", ("lines", [ast.Str(value=_unquote(t), pos=_pos(t)) for t in items]))

    def shape_walls(self, meta, items):
        return ("shape", ("walls", [ast.Name(id=str(items[0]), pos=_pos(items[0]))]))

    def diagonals(self, meta, items):
        return ("diagonals", "only" if items[0] is not None else True)

    def numbered(self, meta, items):
        return ("numbered", True)

    def edges(self, meta, items):
        return ("edges", str(items[0]))

    def under(self, meta, items):
        return ("under", str(items[0]))

    def grid(self, meta, items):
        node = ast.Grid(name=str(items[0]), elem=items[1], pos=_pos(meta), name_pos=_pos(items[0]))
        for item in items[2:]:
            if item is None:
                continue
            key, value = item
            if key == "shape":
                node.shape, node.size = value
            else:
                setattr(node, key, value)
        return node

    def track(self, meta, items):
        name, grid, *rest = items
        texts = [ast.Str(value=_unquote(t), pos=_pos(t)) for t in rest if t is not None and t.type == "STRING"]
        loop = any(t is not None and t.type == "LOOP" for t in rest)
        return ast.Track(name=str(name), grid=str(grid), cells=texts, loop=loop, pos=_pos(meta), name_pos=_pos(name))

    def hidden(self, meta, items):
        return ("hidden", True)

    def private(self, meta, items):
        return ("private", True)

    def quiet(self, meta, items):
        return ("quiet", True)

    def unordered(self, meta, items):
        return ("unordered", True)

    def shown_at_end(self, meta, items):
        return ("shown_at_end", True)

    def checkered(self, meta, items):  # how a page draws the board: no meaning in play
        return ("look", "checkered")

    def on_points(self, meta, items):
        return ("look", "points")

    def on_ground(self, meta, items):
        return ("ground", _unquote(items[0]))

    def columns_by(self, meta, items):
        return ("columns", str(items[0]))

    def capacity(self, meta, items):
        return ("capacity", items[0])

    def values_(self, meta, items):
        return ("values", items[0])

    def zone(self, meta, items):
        node = ast.Zone(name=str(items[0]), elem=items[1], pos=_pos(meta), name_pos=_pos(items[0]))
        for item in items[2:]:
            if isinstance(item, tuple):
                setattr(node, item[0], item[1])
            elif item is not None:
                node.init = item
        return node

    def counter(self, meta, items):
        name, type_, per, per2, quiet, private, init = items
        return ast.Counter(name=str(name), pos=_pos(meta), name_pos=_pos(name), per=per[1] if per else None,
                           per2=per2[1] if per2 else None, quiet=quiet is not None, private=private is not None,
                           init=init, type=type_)

    def setup(self, meta, items):
        return ast.Setup(body=items[0], pos=_pos(meta))

    def turn(self, meta, items):
        return ast.Turn(steps=list(items), pos=_pos(meta))

    def turn_choices(self, meta, items):
        """``turn { action ... }``: a turn of one decision, its step named ``move``."""
        step = ast.Step(kind="decision", name="move", choices=list(items), implicit=True, pos=_pos(meta))
        return ast.Turn(steps=[step], pos=_pos(meta))

    def end(self, meta, items):
        return ast.End(cond=items[0], winner=items[1], pos=_pos(meta))

    def end_draw(self, meta, items):
        return ast.End(cond=items[0], draw=True, pos=_pos(meta))

    def score(self, meta, items):
        return ast.Score(var=str(items[0]), clauses=list(items[1:]), pos=_pos(meta))

    def clause(self, meta, items):
        docs, name, expr = items
        return ast.Clause(name=str(name), expr=expr, doc=_doc(docs), pos=_pos(name))

    def winner(self, meta, items):
        var, *ranks, ties = items
        return ast.Winner(var=str(var), ranks=ranks, ties=ties, pos=_pos(meta))

    def rank_most(self, meta, items):
        return ast.Rank(most=True, expr=items[0], pos=_pos(meta))

    def rank_least(self, meta, items):
        return ast.Rank(most=False, expr=items[0], pos=_pos(meta))

    def ties(self, meta, items):
        return str(items[0])

    def ties_seat(self, meta, items):  # ties white: a tie goes to that seat
        return str(items[0])

    def define(self, meta, items):
        name, opened, *params, body = items
        lets = [p for p in params if isinstance(p, ast.Let)]
        params = [p for p in params if not isinstance(p, ast.Let)]
        if lets:
            body = ast.LetIn(lets=lets, value=body, pos=lets[0].pos)
        return ast.Define(name=str(name), params=[str(p) for p in params if p is not None], body=body,
                          pos=_pos(meta), name_pos=_pos(name), bare=opened is None)

    def procedure(self, meta, items):
        name, *params, block = items
        return ast.Define(name=str(name), params=[str(p) for p in params if p is not None], block=block,
                          pos=_pos(meta), name_pos=_pos(name))

    def ensure(self, meta, items):
        return ast.Ensure(cond=items[0], pos=_pos(meta))

    def run(self, meta, items):
        name, *args = items
        return ast.Run(name=str(name), args=[a for a in args if a is not None], pos=_pos(name))

    def invariant(self, meta, items):
        return ast.Invariant(name=str(items[0]), expr=items[1], pos=_pos(meta))

    def notice(self, meta, items):
        text, cond, at, each = items
        var, source, where = each if each is not None else (None, None, None)
        return ast.Notice(text=_unquote(text), cond=cond, at=at, var=var, source=source, where=where, pos=_pos(meta))

    def notice_for(self, meta, items):
        return (str(items[0]), items[1], items[2])

    # -- the turn
    def step(self, meta, items):
        docs, standin, node = items
        node.doc = _doc(docs)
        node.standin = standin is not None
        return node

    def decision_step(self, meta, items):
        return ast.Step(kind="decision", name=str(items[0]), cond=items[1], choices=list(items[2:]),
                        pos=_pos(meta))

    def optional_step(self, meta, items):
        return ast.Step(kind="optional", name=str(items[0]), choices=list(items[1:]), pos=_pos(meta))

    def repeat_step(self, meta, items):
        return ast.Step(kind="repeat", name=str(items[0]), cond=items[1], choices=list(items[2:]),
                        pos=_pos(meta))

    def unordered_repeat_step(self, meta, items):
        return ast.Step(kind="repeat", name=str(items[0]), cond=items[1], choices=list(items[2:]),
                        pos=_pos(meta), unordered=True)

    def optional_repeat_step(self, meta, items):
        return ast.Step(kind="repeat", name=str(items[0]), cond=items[1], choices=list(items[2:]),
                        pos=_pos(meta), optional=True)

    def auto_step(self, meta, items):
        return ast.Step(kind="auto", name=str(items[0]), body=items[1], pos=_pos(meta))

    def choice(self, meta, items):
        docs, standin, node = items
        node.doc = _doc(docs)
        node.standin = standin is not None
        return node

    def action(self, meta, items):
        forced, name = items[0] is not None, items[1]
        params = [i for i in items[2:] if isinstance(i, ast.Binding)]
        notation = next((_unquote(i) for i in items[2:] if isinstance(i, Token)), None)
        secret = next((i[1] for i in items[2:] if isinstance(i, tuple) and i[0] == "secret"), None)
        ids_of = next((i[1] for i in items[2:] if isinstance(i, tuple) and i[0] == "ids"), None)
        return ast.Action(name=str(name), params=params, notation=notation, body=items[-1], forced=forced,
                          secret=secret, ids_of=ids_of, pos=_pos(meta))

    def secret(self, meta, items):
        return ("secret", _unquote(items[0]) if items and items[0] is not None else "")

    def ids_as(self, meta, items):
        return ("ids", str(items[0]))

    def pass_(self, meta, items):
        return ast.Pass(notation=_unquote(items[0]) if items and items[0] is not None else None,
                        pos=_pos(meta))

    def bind_each(self, meta, items):
        source = items[1]
        if isinstance(source, ast.Range):  # n in lo..hi: each whole number of the range
            return ast.Binding(names=[str(items[0])], kind="range", source=source.lo, upper=source.hi,
                               pos=_pos(meta))
        return ast.Binding(names=[str(items[0])], kind="each", source=source, pos=_pos(meta))

    def bind_pair(self, meta, items):
        return ast.Binding(names=[str(items[0]), str(items[1])], kind="pair", source=items[2],
                           pos=_pos(meta))

    def bind_subset(self, meta, items):
        return ast.Binding(names=[str(items[0])], kind="subset", source=items[1], pos=_pos(meta))

    # -- statements
    def block(self, meta, items):
        return list(items)

    def block_item(self, meta, items):
        docs, standin, stmt = items
        if docs is not None:
            stmt.doc = _doc(docs)
        stmt.standin = standin is not None
        return stmt

    def shuffle(self, meta, items):
        return ast.Shuffle(zone=items[0], pos=_pos(meta))

    def count_all(self, meta, items):
        return None

    def deal(self, meta, items):
        count, at_random, src, dst, where = items
        return ast.Deal(count=count, src=src, dst=dst, where=where, random=at_random is not None, pos=_pos(meta))

    def at_random(self, meta, items):
        return True

    def move(self, meta, items):
        return ast.Move(item=items[0], src=items[1], dst=items[2], pos=_pos(meta))

    def add(self, meta, items):
        return ast.Add(item=items[0], dst=items[1], pos=_pos(meta))

    def remove(self, meta, items):
        return ast.Remove(item=items[0], src=items[1], pos=_pos(meta))

    def refill(self, meta, items):
        return ast.Refill(dst=items[0], src=items[1], size=items[2], pos=_pos(meta))

    def if_(self, meta, items):
        cond, body, *rest = items
        node = ast.If(branches=[(cond, body)], pos=_pos(meta))
        for item in rest:
            if item is None:
                continue
            if item[0] == "elif":
                node.branches.append((item[1], item[2]))
            else:
                node.orelse = item[1]
        return node

    def elif_(self, meta, items):
        return ("elif", items[0], items[1])

    def else_(self, meta, items):
        return ("else", items[0])

    def for_(self, meta, items):
        var, source, where, body = items
        return ast.For(var=str(var), source=source, body=body, where=where, pos=_pos(meta))

    def while_(self, meta, items):
        return ast.While(cond=items[0], body=items[1], pos=_pos(meta))

    def let(self, meta, items):
        return ast.Let(name=str(items[0]), value=items[1], pos=_pos(meta))

    define_let = let

    def require(self, meta, items):
        cond, message = items
        return ast.Require(cond=cond, message=_unquote(message) if message is not None else None,
                           pos=_pos(meta))

    def target(self, meta, items):
        return (str(items[0]), items[1], items[2], _pos(meta))

    def assign(self, meta, items):
        (name, index, index2, at), op, value = items
        return ast.Assign(name=name, index=index, index2=index2, op=str(op), value=value, pos=at)

    def group(self, meta, items):
        """``(e)``: e itself, marked as written in parentheses (the formatter keeps those that
        group and/or and conditionals)."""
        node = items[0]
        if isinstance(node, ast.Node):
            node.grouped = True
        return node

    def announce(self, meta, items):
        return ast.Announce(text=_unquote(items[0]), pos=_pos(meta))

    def reveal(self, meta, items):
        return ast.Reveal(place=items[0], pos=_pos(meta))

    def end_game(self, meta, items):
        return ast.EndGame(pos=_pos(meta))

    def end_turn(self, meta, items):
        return ast.EndTurn(pos=_pos(meta))

    def again(self, meta, items):
        pins = [p for p in items if p is not None]
        return ast.Again(pins=[(name, value) for name, value, _at in pins], pins_pos=[at for *_, at in pins],
                         pos=_pos(meta))

    def pin(self, meta, items):
        return (str(items[0]), items[1], _pos(items[0]))

    def next_player(self, meta, items):
        return ast.NextPlayer(value=items[0], pos=_pos(meta))

    def put(self, meta, items):
        return ast.Put(value=items[0], cell=items[1], grid=items[2], pos=_pos(meta))

    def move_piece(self, meta, items):
        return ast.MovePiece(cell=items[0], to=items[1], grid=items[2], pos=_pos(meta))

    def clear(self, meta, items):
        return ast.Clear(what=items[0], grid=items[1], to=items[2], pos=_pos(meta))

    def taking(self, meta, items):
        return items[0]

    def overflow(self, meta, items):
        return items[0]

    def ejecting(self, meta, items):
        return (str(items[0]), str(items[1]), items[2])

    def drop(self, meta, items):
        value, grid, lane, taking, overflow = items
        return ast.Drop(value=value, grid=grid, lane=lane, taking=taking, overflow=overflow, pos=_pos(meta))

    def settle(self, meta, items):
        return ast.Settle(grid=items[0], pos=_pos(meta))

    def rotate(self, meta, items):
        grid, corner, size, turns = items
        return ast.Rotate(grid=grid, corner=corner, size=size, turns=turns, pos=_pos(meta))

    def reflect(self, meta, items):
        grid, corner, size = items
        return ast.Rotate(grid=grid, corner=corner, size=size, turns=None, pos=_pos(meta))

    def copy_block(self, meta, items):
        grid, corner, size, to = items
        return ast.Rotate(grid=grid, corner=corner, size=size, turns=None, to=to, pos=_pos(meta))

    def place(self, meta, items):
        placement, pattern, grid, taking, overflow = items
        return ast.Place(placement=placement, pattern=pattern, grid=grid, taking=taking,
                         overflow=overflow, pos=_pos(meta))

    def push(self, meta, items):
        move, grid, ejecting = items
        node = ast.Push(move=move, grid=grid, pos=_pos(meta))
        if ejecting is not None:
            node.who, node.sides, node.body = ejecting
        return node

    # -- expressions
    def cond_expr(self, meta, items):
        return ast.Cond(test=items[0], then=items[1], orelse=items[2], pos=_pos(meta))

    def range_(self, meta, items):
        return ast.Range(lo=items[0], hi=items[1], pos=_pos(meta))

    def string_(self, meta, items):
        return ast.Str(value=_unquote(items[0]), pos=_pos(items[0]))

    def or_(self, meta, items):
        return ast.BinOp(op="or", left=items[0], right=items[1], pos=_pos(meta))

    def and_(self, meta, items):
        return ast.BinOp(op="and", left=items[0], right=items[1], pos=_pos(meta))

    def not_(self, meta, items):
        return ast.Not(operand=items[0], pos=_pos(meta))

    def compare(self, meta, items):
        return ast.BinOp(op=str(items[1]), left=items[0], right=items[2], pos=_pos(meta))

    def member(self, meta, items):
        return ast.BinOp(op="in", left=items[0], right=items[1], pos=_pos(meta))

    def not_member(self, meta, items):
        return ast.BinOp(op="not in", left=items[0], right=items[1], pos=_pos(meta))

    def binop(self, meta, items):
        return ast.BinOp(op=str(items[1]), left=items[0], right=items[2], pos=_pos(meta))

    def neg(self, meta, items):
        operand = items[0]
        if isinstance(operand, ast.Int):
            return ast.Int(value=-operand.value, pos=_pos(meta))
        return ast.Neg(operand=operand, pos=_pos(meta))

    def attr(self, meta, items):
        return ast.Attr(obj=items[0], name=str(items[1]), pos=_pos(items[1]))

    def index(self, meta, items):
        return ast.Index(obj=items[0], index=items[1], pos=_pos(meta))

    def int_(self, meta, items):
        return ast.Int(value=int(items[0]), pos=_pos(items[0]))

    def true(self, meta, items):
        return ast.Bool(value=True, pos=_pos(meta))

    def false(self, meta, items):
        return ast.Bool(value=False, pos=_pos(meta))

    def players_all(self, meta, items):
        return ast.Players(pos=_pos(meta))

    def name(self, meta, items):
        return ast.Name(id=str(items[0]), pos=_pos(items[0]))

    def call(self, meta, items):
        name, *args = items
        return ast.Call(func=str(name), args=[a for a in args if a is not None], pos=_pos(name))

    def comp(self, meta, items):
        func, elem, var, source, cond = items
        return ast.Comp(func=str(func), elem=elem, var=str(var), source=source, cond=cond, pos=_pos(func))

    def list_(self, meta, items):
        return ast.ListExpr(items=[i for i in items if i is not None], pos=_pos(meta))


# ---- errors in author language ----------------------------------------------------------
_WORDS = {
    "NAME": "a name", "INT": "a number", "NEGINT": "a number", "STRING": 'a quoted string',
    "DOC": "a doc comment (///)", "CMP_OP": "a comparison", "ASSIGN_OP": "an assignment (=, +=, -=)",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'",
    "TIE_KIND": "'draw' or 'shared'", "STANDIN": "'standin'", "WILD": "'wild'", "PARAMS_OPEN": "'('",
    "$END": "the end of the file",
}


_ASSIGN = "an assignment (=, +=, -=)"


def _describe(lark: Lark, names: set[str]) -> list[str]:
    by_name = {t.name: t for t in lark.terminals}
    out = []
    for name in sorted(names):
        if name in _WORDS:
            out.append(_WORDS[name])
            continue
        term = by_name.get(name)
        if term is not None and term.pattern.type == "str":
            out.append(f"'{term.pattern.value}'")
        else:
            out.append(name.lower())
    return sorted(set(out))


def _token_words(token: Token) -> str:
    if token.type == "$END":
        return "the end of the file"
    text = str(token)
    if len(text) > 30:
        text = text[:27] + "..."
    return f"'{text}'"


def _diagnose(lark: Lark, err: UnexpectedInput, source: Source, chunk: bool = False) -> Diagnostic:
    if isinstance(err, UnexpectedCharacters):
        ch = source.text[err.pos_in_stream] if err.pos_in_stream < len(source.text) else "?"
        hint = None
        if ch == "'":
            hint = 'strings use double quotes: "like this"'
        elif ch in ";":
            hint = "statements need no ';' (one per line is the style)"
        elif ord(ch) > 127:
            hint = "names use plain ASCII letters, digits and '_'; put other text in \"quotes\""
        elif ch == '"':
            hint = "a string must close on the same line with '\"'"
        return Diagnostic(f"unexpected character {ch!r}", err.line, err.column, hint)
    expected = set(getattr(err, "expected", None) or ())
    token = getattr(err, "token", None)
    if isinstance(err, UnexpectedEOF) or (token is not None and token.type == "$END"):
        opened = _unclosed(source.text)
        if opened:
            (line, col), ch = opened
            closer = {"{": "}", "(": ")", "[": "]"}[ch]
            return Diagnostic(f"this '{ch}' is never closed", line, col, f"add the missing '{closer}'")
        words = _join(_describe(lark, expected))
        line, col = _last_token_end(source.text)
        if chunk:
            return Diagnostic(f"this declaration is not finished; expected {words}", line, col)
        return Diagnostic(f"unexpected end of file; expected {words}", line, col)
    words = _describe(lark, expected)
    decl_words = [w for w in words if w.strip("'") in DECL_KEYWORDS]
    hint = None
    if len(decl_words) >= 6:
        words = [w for w in words if w not in decl_words] + [
            "a declaration (game, param, enum, table, zone, counter, setup, turn, end, score, winner, invariant, "
            "notice)"]
    text = str(token) if token is not None else ""
    previous = _previous_line(err)
    before = source.line_text(err.line)[:max(err.column - 1, 0)].rstrip()
    if text == "if" and before.endswith("else") and "'{'" in words:
        hint = "among statements the next test is 'elif COND { ... }' ('else if' is the spelling of expressions)"
    elif text == "when" and re.match(r"\s*(standin\s+)?(optional|repeat)\s+step\b", source.line_text(err.line)):
        hint = ("only a plain step takes a condition (step NAME when COND { ... }); a choice that may go on while "
                "a condition holds is 'optional repeat step NAME while COND { ... }' (stop is offered beside "
                "its actions), and an optional step's actions are guarded with require")
    elif "'then'" in words and re.search(r"\blet\b(?!.*\bif\b)", before or _line_above(source, err.line)):
        hint = "in a define, each let is followed by 'then' and the next let or the value: " \
               "define f(c) = let a = ... then a + 1"
    elif "a name" in words and re.fullmatch(r"[A-Za-z_]\w*", text):
        hint = f"'{text}' is a word of the rules language here; choose another name"
    elif text == "=" and "'='" not in words:
        hint = "'=' sets a counter; to compare use '=='"
    elif text == "}" and "'}'" not in words:
        hint = "something is missing before this '}'"
    elif any(w in words for w in ("')'", "']'")) and previous not in (None, err.line):
        closer = "')'" if "')'" in words else "']'"
        hint = f"is a {closer} missing at the end of line {previous}?"
    elif _ASSIGN in words and _in_procedure(source, err.line):
        hint = ("a procedure's statements act and give no value; a define that gives a value is written "
                "define f(c) = let a = ... then a + 1")
    elif _ASSIGN in words and text == "(":
        hint = "a statement is an effect (move, add, deal, ...) or sets a counter (name += value)"
    return Diagnostic(f"unexpected {_token_words(token)}; expected {_join(words)}", err.line, err.column, hint)


def _join(words: list[str]) -> str:
    if len(words) > 8:
        return ", ".join(words[:8]) + ", ..."
    if len(words) <= 2:
        return " or ".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _in_procedure(source: Source, line: int) -> bool:
    """Whether ``line`` stands in the block of a procedure (``define NAME(...) {``), as far as
    the lines above it show: the nearest declaration above it, at the left margin, is one."""
    for n in range(line, 0, -1):
        text = source.line_text(n)
        if text[:1].isalpha():
            return re.match(r"(standin\s+|override\s+)*define\b[^=]*\{", text) is not None
    return False


def _line_above(source: Source, line: int) -> str:
    """The nearest line above ``line`` that holds something (comments and blanks skipped)."""
    for n in range(line - 1, 0, -1):
        text = source.line_text(n).split("#")[0].strip()
        if text:
            return text
    return ""


def _previous_line(err: UnexpectedInput) -> int | None:
    history = getattr(err, "token_history", None)
    if history:
        last = history[-1]
        return getattr(last, "end_line", None) or getattr(last, "line", None)
    return None


def _last_token_end(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank, non-comment character."""
    lines = text.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        code = re.sub(r"#.*|///.*", "", lines[i]).rstrip()
        if code:
            return i + 1, len(code) + 1
    return 1, 1


def _unclosed(text: str) -> tuple[tuple[int, int], str] | None:
    """The last '{', '(' or '[' left open (strings and comments ignored), with its position."""
    stack: list[tuple[int, str]] = []
    pairs = {"}": "{", ")": "(", "]": "["}
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|/{3}[^\n]*|[{}()\[\]]', text):
        g = m.group()
        if g in "{([":
            stack.append((m.start(), g))
        elif g in pairs and stack and stack[-1][1] == pairs[g]:
            stack.pop()
    if not stack:
        return None
    start, ch = stack[-1]
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return (line, col), ch


def _chunks(text: str) -> list[str]:
    """Split a file into top-level declarations, each padded to keep its line numbers."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines)
              if line[:1].isalpha() or line.startswith("///")]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    chunks = []
    # keep doc comments with the declaration they precede
    merged: list[int] = []
    prev = -2
    for i in starts:
        glued = prev >= 0 and lines[prev].startswith("///") and i == prev + 1
        prev = i
        if not glued:
            merged.append(i)
    for a, b in zip(merged, merged[1:] + [len(lines)]):
        chunks.append("\n" * a + "\n".join(lines[a:b]))
    return chunks


# ---- entry points ---------------------------------------------------------------------
def _decode(data: bytes | str, filename: str) -> Source:
    if isinstance(data, bytes):
        if len(data) > MAX_SOURCE_BYTES:
            raise RulesError([Diagnostic(
                f"the file is too large ({len(data):,} bytes; the limit is {MAX_SOURCE_BYTES:,})",
                1, 1, "a rules file is a text of a few hundred lines")], Source("", filename))
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            raise RulesError([Diagnostic("the file is not valid UTF-8 text", line, col,
                                         "save the rules file as UTF-8")], Source("", filename))
    if len(data) > MAX_SOURCE_BYTES:
        raise RulesError([Diagnostic(
            f"the text is too large ({len(data):,} characters; the limit is {MAX_SOURCE_BYTES:,})",
            1, 1)], Source("", filename))
    if "\x00" in data:
        line = data.count("\n", 0, data.index("\x00")) + 1
        raise RulesError([Diagnostic("the file contains a NUL byte: is it a binary file?", line, 1)],
                         Source("", filename))
    return Source(data, filename)


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _as_name(err: UnexpectedInput) -> bool:
    """A word of the language (``quiet``, ``hidden``...) where the parser expects a name is a
    name: LALR merges states, so the lexer may offer a keyword where only a name fits."""
    if not isinstance(err, UnexpectedToken) or err.token.type == "NAME" or not _WORD.fullmatch(str(err.token)):
        return False
    parser = err.interactive_parser
    if "NAME" not in parser.accepts():
        return False
    parser.feed_token(Token.new_borrow_pos("NAME", str(err.token), err.token))
    return True


def _parse_tree(lark: Lark, text: str):
    return lark.parse(text, on_error=_as_name)


def parse(text: str | bytes, filename: str = "<rules>") -> ast.Rules:
    """Parse rules text into an AST; raise :class:`RulesError` listing every syntax error.

    On a syntax error the raised error carries ``partial``: the AST of the declarations that
    did parse and the names declared by those that did not, so the checker can still report
    its own findings on the rest without cascading.
    """
    source = _decode(text, filename)
    lark = _lark()
    diagnostics: list[Diagnostic] = []
    try:
        tree = _parse_tree(lark, source.text)
    except UnexpectedInput as first:
        decls, failed = [], set()
        for chunk in _chunks(source.text):
            try:
                decls.extend(ToAst(diagnostics).transform(_parse_tree(lark, chunk)).decls)
            except UnexpectedInput as err:
                diagnostics.append(_diagnose(lark, err, Source(chunk, filename), chunk=True))
                failed.update(re.findall(r"^(?:standin\s+)?(?:override\s+)?(?:param|enum|table|zone|grid|counter|define)\s+(\w+)",
                                         chunk, re.M))
                failed.update(w for w in ("game", "turn", "winner")
                              if re.search(rf"^(?:standin\s+)?{w}\b", chunk, re.M))
            except RecursionError:
                break
        if not diagnostics:
            diagnostics.append(_diagnose(lark, first, source))
        error = RulesError(_dedupe(diagnostics), source)
        error.partial = (ast.Rules(decls=decls, filename=filename, pos=(1, 1)), failed)
        raise error from None
    except RecursionError:
        raise RulesError([Diagnostic("the rules are nested too deeply to read", 1, 1,
                                     "split deeply nested expressions into 'let' steps")], source) from None
    try:
        rules = ToAst(diagnostics).transform(tree)
    except RecursionError:
        raise RulesError([Diagnostic("the rules are nested too deeply to read", 1, 1)], source) from None
    if diagnostics:
        raise RulesError(diagnostics, source)
    rules.filename = filename
    rules.pos = (1, 1)
    return rules


def _dedupe(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen, out = set(), []
    for d in diagnostics:
        if (d.line, d.column) not in seen:
            seen.add((d.line, d.column))
            out.append(d)
    return out


def parse_file(path: str | os.PathLike) -> tuple[ast.Rules, Source]:
    """Read and parse a rules file; errors name the file."""
    from .files import read_source  # local: files imports this module
    path = Path(path)
    source = read_source(path)
    return parse(source.text, str(path)), source
