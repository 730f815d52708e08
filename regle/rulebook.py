"""The rulebook of a rules file, rendered from its AST: Markdown or one self-contained HTML page.

Everything it says comes from the rules text: the structure (components, setup, steps, actions,
scoring, end, winner) is put into sentences by generic phrases, and the authors' doc comments
(``///``) carry the prose. Stand-ins are listed in their own section and marked where used.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

import attrs

from regle.dsl import ast
from regle.dsl.errors import Source
from regle.dsl.files import read_source
from regle.dsl.parser import parse
from regle.dsl.printer import binding_text, cell_text, expr, quote, type_text
from regle.dsl.variants import resolve

MARK = "‡"  # stand-in marker


# ---- a small document model -----------------------------------------------------------------
@attrs.define
class Block:
    kind: str  # h | p | ul | table | patterns | grid
    data: object
    level: int = 2


@attrs.define
class Doc:
    title: str
    blocks: list = attrs.Factory(list)
    standins: list = attrs.Factory(list)  # (what, where)

    def h(self, text: str, level: int = 2) -> None:
        self.blocks.append(Block("h", text, level))

    def p(self, text: str) -> None:
        if text:
            self.blocks.append(Block("p", text))

    def ul(self, items: list) -> None:
        if items:
            self.blocks.append(Block("ul", items))


def code(node) -> str:
    return f"`{expr(node)}`" if isinstance(node, ast.Node) else f"`{node}`"


_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least", "in": "is in", "not in": "is not in"}


def said(node) -> str:
    """A condition in words where the language allows it (counts, sums, any/all, comparisons,
    and/or/not), its parts in code; ``code(node)`` where no plain phrase says it as exactly."""
    text = _said(node)
    return text if text is not None else code(node)


def _said(node) -> str | None:
    if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
        a, b = _said(node.left), _said(node.right)
        if a is None or b is None:
            return None
        if node.op == "or" and isinstance(node.right, ast.BinOp) and node.right.op == "and":
            b = f"({b})"
        return f"{a} {node.op} {b}"
    if isinstance(node, ast.Not):
        inner = _said(node.operand)
        if isinstance(node.operand, ast.Call) and node.operand.func == "is_empty" and len(node.operand.args) == 2:
            g, c = node.operand.args
            return f"cell {code(c)} of {code(g)} is not empty"
        return None if inner is None else f"not ({inner})"
    if isinstance(node, ast.Call) and node.func == "is_empty" and len(node.args) == 2:
        return f"cell {code(node.args[1])} of {code(node.args[0])} is empty"
    if isinstance(node, ast.Comp) and node.func in ("any", "all") and node.cond is None:
        inner = _said(node.elem)
        if inner is None:
            return None
        some = "some" if node.func == "any" else "every"
        return f"for {some} `{node.var}` in {_value(node.source)}, {inner}"
    if isinstance(node, ast.BinOp) and node.op in _COMPARE:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.left, ast.Call) and node.left.func == "count" and len(node.left.args) == 1 \
                and isinstance(node.right, ast.Int) and node.right.value == 0 and node.op in ("==", ">", "!="):
            return f"{code(node.left.args[0])} is {'empty' if node.op == '==' else 'not empty'}"
        return f"{left} {_COMPARE[node.op]} {right}"
    return None


def _value(node) -> str:
    """A value in words: the number of ..., the sum of ..., else code."""
    if isinstance(node, ast.Call) and node.func == "count" and len(node.args) == 1:
        return f"the number of elements in {code(node.args[0])}"
    if isinstance(node, ast.Call) and node.func == "count" and len(node.args) == 2:
        return f"the number of {code(node.args[1])} in {code(node.args[0])}"
    if isinstance(node, ast.Call) and node.func == "sum" and len(node.args) == 1:
        return f"the sum of {code(node.args[0])}"
    if isinstance(node, ast.Comp) and node.func == "count":
        where = f" where {said(node.cond)}" if node.cond is not None else ""
        return f"the number of `{node.var}` in {code(node.source)}{where}"
    if isinstance(node, ast.Comp) and node.func == "sum" and node.cond is None:
        return f"the sum of {code(node.elem)} for each `{node.var}` in {code(node.source)}"
    return code(node)


def _name(text: str) -> str:
    return text.replace("_", " ")


def prose(text: str | None) -> str:
    """A doc comment as one paragraph."""
    return " ".join((text or "").split())


class Writer:
    """Walks the rules and fills a :class:`Doc`."""

    def __init__(self, rules: ast.Rules, name: str):
        self.rules = rules
        decls = rules.decls
        self.game = next((d for d in decls if isinstance(d, ast.Game)), None)
        self.doc = Doc(self.game.title if self.game else name)
        self.by_kind: dict[type, list] = {}
        for d in decls:
            self.by_kind.setdefault(type(d), []).append(d)

    def of(self, kind: type) -> list:
        return self.by_kind.get(kind, [])

    def standin(self, node, what: str) -> str:
        """Record a stand-in; returns the mark to put where it is used."""
        if getattr(node, "standin", False):
            self.doc.standins.append((what, prose(node.doc)))
            return f" {MARK}"
        return ""

    def write(self) -> Doc:
        doc = self.doc
        g = self.game
        mark = self.standin(g, "the game's set-up of players") if g else ""
        doc.p(prose(g.doc) if g else "")
        if g:
            players = (f"{g.min_players} players" if g.min_players == g.max_players
                       else f"{g.min_players} to {g.max_players} players")
            first = f"; {self.first_player(g.first)} starts" if g.first is not None else ""
            seats = ("; the seats are " + ", ".join(f"**{_name(n)}** (P{i + 1})" for i, n in enumerate(g.seats))
                     if g and g.seats else "")
            doc.p(f"**{players}**{first}{seats}.{mark}")
        self.components()
        self.setup()
        self.turn()
        self.scoring()
        self.ending()
        self.invariants()
        self.notices()
        self.standins_section()
        return doc

    def first_player(self, e) -> str:
        if isinstance(e, ast.Int):
            return f"player {e.value + 1}"
        return f"the player given by {code(e)} (seats count from 0)"

    # -- components
    def components(self) -> None:
        doc = self.doc
        doc.h("Components")
        for e in self.of(ast.Enum):
            members = ", ".join(("(wild) " if m.wild else "") + f"**{m.name}**" + (f" `{m.symbol}`" if m.symbol else "")
                                for m in e.members)
            doc.p(f"**{_name(e.name).capitalize()}**: {members}." + self.standin(e, f"enum {e.name}")
                  + (" " + prose(e.doc) if e.doc else ""))
        for t in self.of(ast.Table):
            self.table(t)
        params = self.of(ast.Param)
        if params:
            doc.h("Numbers", 3)
            items = [f"{_name(p.name)}: **{expr(p.value)}**" + self.standin(p, f"param {p.name}")
                     + (f" — {prose(p.doc)}" if p.doc else "") for p in params]
            doc.ul(items)
        places = [*self.of(ast.Zone), *self.of(ast.Grid)]
        if places:
            doc.h("Where things are", 3)
            items = []
            for z in places:
                owner = ("shared" if z.per is None else "one per player" if z.per == "player"
                         else f"one per {_name(z.per)}")
                seen = "hidden from everyone" if z.hidden else ("seen by its owner only" if z.private else "open")
                if isinstance(z, ast.Grid):
                    size = {"square": "a {} by {} grid", "lanes": "{} lanes of {}", "hex": "a hexagonal board of side {}",
                            "rhombus": "a {} by {} rhombus of hexagons",
                            "triangle": "a triangle of hexagons of side {}",
                            "star": "a six-pointed star of hexagons, points of {} rows",
                            "mancala": "a mancala board of two rows of {} houses and a store at each end",
                            "lines": "a board of {} points joined by {} lines",
                            "walls": "the places between two cells of `{}` that share a side (walls)"}[z.shape]
                    held = (f"pieces ({_name(z.elem.name)}, each with an owner)" if z.elem.piece
                            else type_text(z.elem))
                    if z.shape == "lines":
                        named = {p for s in z.size for p in s.value.split()}
                        lines = ", ".join(s.value.replace(" ", "-") for s in z.size)
                        what = size.format(len(named), len(z.size)) + f", of {held}; the lines: {lines}"
                    elif z.shape == "walls":
                        what = size.format(z.size[0].id) + f", each holding {held} or nothing"
                    else:
                        what = size.format(*(expr(e) for e in z.size)) + f" of {held}"
                    if z.diagonals == "only":
                        what += ", joined by their diagonals only"
                    elif z.diagonals:
                        what += ", diagonal neighbours included"
                else:
                    what = f"{type_text(z.elem)}" + (f", at most {expr(z.capacity)}" if z.capacity is not None else "")
                    if z.init is not None:
                        what += f", starting with {code(z.init)}"
                items.append(f"**{_name(z.name)}** ({what}; {owner}; {seen})"
                             + self.standin(z, f"{type(z).__name__.lower()} {z.name}")
                             + (f": {prose(z.doc)}" if z.doc else ""))
            doc.ul(items)
        tracks = self.of(ast.Track)
        if tracks:
            doc.ul([f"track **{_name(t.name)}** on {_name(t.grid)}: "
                    + " → ".join(word for text in t.cells for word in text.value.split())
                    + (" → back to the start (a loop)" if t.loop else "") + self.standin(t, f"track {t.name}")
                    + (f": {prose(t.doc)}" if t.doc else "") for t in tracks])
        counters = self.of(ast.Counter)
        if counters:
            doc.ul([f"counter **{_name(c.name)}**" + (f" (one per {c.per} and {c.per2})" if c.per2 else
                                                      " (one per player)" if c.per == "player" else
                                                      f" (set back as each {c.per} begins)" if c.per in ("turn", "step") else "")
                    + (f", holding {_counter_kind(c.type)}" if c.type is not None else "")
                    + (f", starting at {code(c.init)}" if c.init is not None else "")
                    + (f": {prose(c.doc)}" if c.doc else "") for c in counters])
        defines = self.of(ast.Define)
        if defines:
            doc.h("Definitions", 3)
            items: list = []
            for d in defines:
                said = f" = {code(d.body)}" if d.block is None else ", a procedure"
                head = f"**{_name(d.name)}**" + ("" if d.bare else f"({', '.join(d.params)})")
                items.append(head + said + self.standin(d, f"define {d.name}")
                             + (f" — {prose(d.doc)}" if d.doc else ""))
                if d.block is not None:  # its statements, as an action's
                    items.append(self.statements(d.block))
            doc.ul(items)

    def table(self, t: ast.Table) -> None:
        doc = self.doc
        mark = self.standin(t, f"table {t.name}")
        enums = {e.name: len(e.members) for e in self.of(ast.Enum)}

        def spans(col, c) -> tuple[str, int | None]:
            """A cell's text and how many rows it stands for: a range one per value, the
            column's enum named one per member (every combination of a row's)."""
            if c.kind == "range" and all(isinstance(v, int) for v in c.value):
                return f"{c.value[0]} to {c.value[1]}", max(0, c.value[1] - c.value[0] + 1)
            if c.kind == "name" and c.value == col.type.name and c.value in enums:
                return f"every {_name(c.value)}", enums[c.value]
            return cell_text(c).strip('"'), 1

        rows, count = [], 0
        for r in t.rows:
            cells = [spans(col, c) for col, c in zip(t.columns, r.cells)]
            many = r.copies
            for _text, n in cells:
                many *= n
            count += many
            rows.append([text for text, _n in cells] + [str(r.copies)])
        doc.h(f"{_name(t.name).capitalize()} ({count}){mark}", 3)
        doc.p(prose(t.doc))
        header = [_name(c.name) for c in t.columns] + ["copies"]
        self.doc.blocks.append(Block("table", (header, rows)))
        pattern_cols = [i for i, c in enumerate(t.columns) if c.type.pattern]
        if pattern_cols:
            shapes = [r.cells[i].value for r in t.rows for i in pattern_cols if r.cells[i].kind in ("str", "name")]
            self.doc.blocks.append(Block("patterns", [str(s) for s in shapes]))

    # -- setup and turn
    def setup(self) -> None:
        setups = self.of(ast.Setup)
        if not setups:
            return
        self.doc.h("Setup")
        self.doc.ul([item for s in setups for item in self.statements(s.body)])

    def turn(self) -> None:
        turns = self.of(ast.Turn)
        if not turns:
            return
        doc = self.doc
        doc.h("A turn")
        steps = turns[0].steps
        doc.p("Players take turns in seat order. A turn has "
              + (f"{len(steps)} steps, in this order" if len(steps) > 1 else "one step") + ".")
        for i, step in enumerate(steps, 1):
            mark = self.standin(step, f"step {step.name}")
            kind = {
                "decision": "the player chooses one of the actions below",
                "optional": "the player may choose one of the actions below, or skip",
                "repeat": f"while {code(step.cond)}, the player chooses one of the actions below, again and again",
                "auto": "this happens by itself",
            }[step.kind]
            if step.kind == "decision" and step.cond is not None:
                kind = f"only when {said(step.cond)}: the player chooses one of the actions below"
            if step.optional:
                kind = (f"while {code(step.cond)}, the player may choose one of the actions below again and "
                        "again, or stop (stopping is offered only while an action is possible)")
            doc.h(f"{i}. {_name(step.name).capitalize()}{mark}", 3)
            doc.p(prose(step.doc))
            doc.p(f"*{kind[0].upper() + kind[1:]}.*")
            if step.kind == "auto":
                doc.ul(self.statements(step.body))
                continue
            items = []
            for choice in step.choices:
                if isinstance(choice, ast.Pass):
                    items.append(f"**pass** (written `{choice.notation or 'pass'}`)"
                                 + self.standin(choice, f"pass in step {step.name}") + ": "
                                 + (prose(choice.doc) if choice.doc else "only when no action is possible."))
                    continue
                items += self.action(choice, step)
            doc.ul(items)

    def action(self, a: ast.Action, step: ast.Step) -> list:
        mark = self.standin(a, f"action {a.name} in step {step.name}")
        head = f"**{_name(a.name)}**" + mark
        if a.params:
            head += " — choose " + "; ".join(code(binding_text(b)) for b in a.params)
        if a.notation:
            head += f" (written `{a.notation}`)"
        if a.forced:
            head += ". **Forced**: while it has a legal move, no other action of this step may be taken"
        if a.doc:
            head += ". " + prose(a.doc)
        # the guards in their order: each let before the conditions that use it, then the effects
        guards, rest = [], list(a.body)
        while rest and isinstance(rest[0], (ast.Let, ast.Require)):
            guards.append(rest.pop(0))
        lines, conditions = [], []

        def flush() -> None:
            if conditions:
                lines.append("Allowed " + ", and ".join(conditions) + ".")
                conditions.clear()
        for s in guards:
            if isinstance(s, ast.Require):
                conditions.append(f"only if {said(s.cond)}" + self.standin(s, f"'{_brief(s)}'")
                                  + (f" ({prose(s.doc)})" if s.doc else ""))
            else:
                flush()
                lines += self.statements([s])
        flush()
        return [head, lines + self.statements(rest)]

    def seat_or_code(self, value, grid) -> str:
        """A value put on a grid of players reads as a seat (P1, or "the player's piece")."""
        name = grid.id if isinstance(grid, ast.Name) else grid.obj.id if isinstance(grid, ast.Index) \
            and isinstance(grid.obj, ast.Name) else None
        decl = next((d for d in self.rules.decls if isinstance(d, ast.Grid) and d.name == name), None)
        if decl is not None and decl.elem.name == "player":
            if isinstance(value, ast.Name) and value.id == "me":
                return "a piece of the player's colour"
            seat = _seat(value, self.game.seats if self.game else ())
            if seat:
                return f"a piece of {seat}"
        return code(value)

    def statements(self, body: list) -> list:
        out: list = []
        for s in body:
            mark = self.standin(s, f"'{_brief(s)}'")
            text = self.sentence(s) + mark
            if s.doc:
                text = prose(s.doc) + " — " + text
            if isinstance(s, ast.If):
                out.append(text)
                out.extend(self.if_branches(s))
            elif isinstance(s, (ast.For, ast.While, ast.Push)) and getattr(s, "body", None):
                out.append(text)
                out.append(self.statements(s.body))
            else:
                out.append(text)
        return out

    def if_branches(self, s: ast.If) -> list:
        """The branches' statements, each list nested under its line ("If ...:", "Otherwise:")."""
        items: list = []
        for i, (cond, body) in enumerate(s.branches):
            if i:
                items.append(f"Otherwise, if {said(cond)}:")
            items.append(self.statements(body))
        if s.orelse is not None:
            items.append("Otherwise:")
            items.append(self.statements(s.orelse))
        return items

    def sentence(self, s) -> str:
        if isinstance(s, ast.Shuffle):
            return f"Shuffle {code(s.zone)}."
        if isinstance(s, ast.Deal):
            n = "all the elements" if s.count is None else code(s.count)
            where = f" (only those where {code(s.where)}, `it` being each candidate)" if s.where is not None else ""
            if s.random:
                return f"Deal {n} from {code(s.src)} to {code(s.dst)}, each drawn at random among those left."
            return f"Deal {n} from the front of {code(s.src)} to {code(s.dst)}{where}."
        if isinstance(s, ast.Move):
            return f"Move {code(s.item)} from {code(s.src)} to {code(s.dst)}."
        if isinstance(s, ast.Add):
            return f"Add {code(s.item)} to {code(s.dst)}."
        if isinstance(s, ast.Remove):
            return f"Remove {code(s.item)} from {code(s.src)}."
        if isinstance(s, ast.Refill):
            return f"Refill {code(s.dst)} from the front of {code(s.src)} up to {code(s.size)}."
        if isinstance(s, ast.Let):
            return f"Let `{s.name}` be {code(s.value)}."
        if isinstance(s, ast.Require):
            return f"It must be that {code(s.cond)}."
        if isinstance(s, ast.Assign):
            target = code(s.name + "".join(f"[{expr(i)}]" for i in (s.index, s.index2) if i is not None))
            return {"=": f"Set {target} to {code(s.value)}.", "+=": f"Add {code(s.value)} to {target}.",
                    "-=": f"Take {code(s.value)} from {target}."}[s.op]
        if isinstance(s, ast.If):
            return f"If {said(s.branches[0][0])}:"
        if isinstance(s, ast.For):
            where = "" if s.where is None else f" such that {said(s.where)}"
            return f"For each `{s.var}` in {code(s.source)}{where}:"
        if isinstance(s, ast.While):
            return f"As long as {code(s.cond)}:"
        if isinstance(s, ast.EndGame):
            return "The game ends at once."
        if isinstance(s, ast.Announce):
            return f"Everyone is told {code(quote(s.text))}."
        if isinstance(s, ast.Reveal):
            return f"Everyone sees {code(s.place)} from now on."
        if isinstance(s, ast.EndTurn):
            return "The turn ends at once."
        if isinstance(s, ast.Again):
            kept = ", ".join(f"{code(n)} being {code(e)}" for n, e in s.pins)
            return ("The same player then plays this action again" + (f", {kept}" if kept else "")
                    + ", before the turn goes on; meanwhile no other action of the step may be taken, and "
                      "when it has no legal move so, the turn goes on.")
        if isinstance(s, ast.NextPlayer):
            return f"The next turn is played by {_seat(s.value) or code(s.value)}."
        if isinstance(s, ast.Ensure):
            return f"The move is allowed only if, once this is done, {said(s.cond)}."
        if isinstance(s, ast.Run):
            return f"Do {code(s.name + '(' + ', '.join(expr(a) for a in s.args) + ')')} (see its definition)."
        if isinstance(s, ast.Put):
            return f"Put {self.seat_or_code(s.value, s.grid)} at cell {code(s.cell)} of {code(s.grid)}."
        if isinstance(s, ast.MovePiece):
            return (f"Move what cell {code(s.cell)} of {code(s.grid)} holds to cell {code(s.to)} (replacing what "
                    f"was there), leaving {code(s.cell)} empty.")
        if isinstance(s, ast.Clear):
            to = f", into {code(s.to)}" if s.to is not None else ""
            return f"Empty {code(s.what)} of {code(s.grid)}{to}."
        if isinstance(s, ast.Drop):
            return (f"Drop {code(s.value)} into lane {code(s.lane)} of {code(s.grid)}"
                    + (f", taken from {code(s.taking)}" if s.taking is not None else "")
                    + (f"; if the lane is full it goes to {code(s.overflow)}" if s.overflow is not None else "") + ".")
        if isinstance(s, ast.Settle):
            return f"Everything in {code(s.grid)} falls as far as it can."
        if isinstance(s, ast.Rotate):
            block = f"the {code(s.size)} by {code(s.size)} block of {code(s.grid)} from {code(s.corner)} (its south-west corner)"
            if s.to is not None:
                return f"Copy {block} to the block whose south-west corner is {code(s.to)}."
            if s.turns is None:
                return f"Mirror {block}, west to east."
            return f"Turn {block} by {code(s.turns)} quarter turns clockwise (negative: anticlockwise)."
        if isinstance(s, ast.Place):
            return (f"Drop pattern {code(s.pattern)} into {code(s.grid)} as placement {code(s.placement)} says"
                    + (f", taking its elements from {code(s.taking)}" if s.taking is not None else "")
                    + (f"; what finds its lane full goes to {code(s.overflow)}" if s.overflow is not None else "") + ".")
        if isinstance(s, ast.Push):
            tail = (f" If a piece leaves the board, with `{s.who}` its owner and `{s.sides}` the sides it crossed:"
                    if s.body is not None else "")
            return f"Play the line move {code(s.move)} on {code(s.grid)}.{tail}"
        return code(_brief(s))

    # -- scoring, end, winner
    def scoring(self) -> None:
        scores = self.of(ast.Score)
        if not scores:
            return
        self.doc.h("Scoring")
        self.doc.p("A player's score is the sum of:")
        self.doc.ul([f"**{_name(c.name)}**: {code(c.expr)}" + (f" — {prose(c.doc)}" if c.doc else "")
                     for s in scores for c in s.clauses])

    def ending(self) -> None:
        doc = self.doc
        doc.h("End of the game and winner")
        ends = self.of(ast.End)
        doc.ul([f"The game ends at the end of a turn when {said(e.cond)}"
                + (f", and {_seat(e.winner, self.game.seats if self.game else ()) or code(e.winner)} wins." if e.winner is not None
                   else ", in a draw." if e.draw else ".")
                + self.standin(e, "an end condition") + (f" {prose(e.doc)}" if e.doc else "") for e in ends])
        winners = self.of(ast.Winner)
        named = any(e.winner is not None or e.draw for e in ends)
        if named and not winners:
            doc.p("When an end without a named winner ends the game, the winner has the highest score; "
                  "a tie is a draw.")
        elif winners:
            w = winners[0]
            order = "; then ".join(("most " if r.most else "least ") + code(r.expr) for r in w.ranks)
            ties = ("a tie on all of these is a draw" if w.ties == "draw"
                    else "players tied on all of these share the win" if w.ties == "shared"
                    else f"a tie on all of these goes to **{_name(w.ties)}**")
            doc.p(f"The winner has {order}; {ties}." + self.standin(w, "the winner"))
        else:
            doc.p("The winner has the highest score; a tie is a draw.")

    def invariants(self) -> None:
        inv = self.of(ast.Invariant)
        if inv:
            self.doc.h("Always true")
            self.doc.ul([f"**{_name(i.name)}**: {code(i.expr)}" + (f" — {prose(i.doc)}" if i.doc else "") for i in inv])

    def notices(self) -> None:
        notes = self.of(ast.Notice)
        if notes:
            self.doc.h("Pointed out to players")
            self.doc.ul([f"**{n.text}**" + (f" when {said(n.cond)}" if n.cond is not None else "")
                         + (f", at {code(n.at)}" if n.at is not None and n.var is None else "")
                         + (f", at each {code(n.at)} of {code(n.source)}" if n.var is not None else "")
                         + (f" where {said(n.where)}" if n.where is not None else "")
                         + (f" — {prose(n.doc)}" if n.doc else "") for n in notes])

    def standins_section(self) -> None:
        doc = self.doc
        doc.h("Stand-ins")
        if not doc.standins:
            doc.p("None: every rule and number here comes from the original rules.")
            return
        doc.p(f"The original rules leave these open; the project chose them, and they are marked {MARK} above. "
              "Each can be corrected in one place in the rules file.")
        doc.ul([f"{what}" + (f": {why}" if why else "") for what, why in doc.standins])


def _seat(node, seats: list | tuple = ()) -> str | None:
    """A seat written as a number in the rules (0, 1...) or by its name (``seats``), as people
    name it: P1, P2..., or its name with its number."""
    if isinstance(node, ast.Int) and node.value >= 0:
        return f"**P{node.value + 1}**"
    if isinstance(node, ast.Name) and node.id in seats:
        return f"**{_name(node.id)}** (P{list(seats).index(node.id) + 1})"
    if isinstance(node, ast.Name) and node.id == "me":
        return "the player"
    return None


def _brief(s) -> str:
    from regle.dsl.printer import stmt_head
    if isinstance(s, ast.If):
        return f"if {expr(s.branches[0][0])}"
    try:
        return stmt_head(s)
    except TypeError:
        return type(s).__name__.lower()


# ---- renderers ---------------------------------------------------------------------------------
def to_markdown(doc: Doc) -> str:
    out = [f"# {doc.title}", "", "*This rulebook is generated from the rules file by `regle rules`; "
           "edit the rules, not this page.*", ""]
    for b in doc.blocks:
        if b.kind == "h":
            out += ["#" * b.level + " " + b.data, ""]
        elif b.kind == "p":
            out += [b.data, ""]
        elif b.kind == "ul":
            out += _md_list(b.data, 0) + [""]
        elif b.kind == "table":
            header, rows = b.data
            out.append("| " + " | ".join(header) + " |")
            out.append("|" + "|".join(" --- " for _ in header) + "|")
            out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
            out.append("")
        elif b.kind == "patterns":
            out += ["Patterns, drawn rows top first (`.` is an empty place):", "", "```"]
            drawn = [s.split("/") for s in b.data]
            for i in range(0, len(drawn), 8):
                group = drawn[i:i + 8]
                height = max(len(d) for d in group)
                width = [max(len(r) for r in d) for d in group]
                for row in range(height):
                    cells = []
                    for d, w in zip(group, width):
                        offset = height - len(d)
                        text = d[row - offset] if row >= offset else ""
                        cells.append(" ".join(text).ljust(2 * w + 1))
                    out.append("  ".join(cells).rstrip())
                out.append("")
            out[-1:] = ["```", ""]
    fenced = False
    for i, line in enumerate(out):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            out[i] = _md_escape(line)
    return "\n".join(out).rstrip() + "\n"


_TAG_LIKE = re.compile(r"<[A-Za-z/!?]|&")


def _md_escape(line: str) -> str:
    """Rules text in Markdown: HTML special characters escaped outside code spans, and a code
    span holding what looks like a tag written as an HTML ``<code>`` element with its text
    escaped (``a <= b`` stays a code span), so a
    title, doc or notation can carry no tag or script into any renderer. Code spans are found
    as CommonMark finds them: a run of backticks closes at the next run of the same length."""
    out, at, i = [], 0, 0
    while i < len(line):
        if line[i] != "`":
            i += 1
            continue
        opening = "`" * (len(line[i:]) - len(line[i:].lstrip("`")))
        j = _closing_run(line, i + len(opening), len(opening))
        if j < 0:  # no closing run: the backticks are text
            i += len(opening)
            continue
        out.append(html.escape(line[at:i], quote=False))
        content = line[i + len(opening):j]
        if _TAG_LIKE.search(content):  # safe in a code span, but no tag-like text leaves regle
            inner = content[1:-1] if len(content) > 2 and content[0] == content[-1] == " " else content
            out.append("<code>" + html.escape(inner, quote=False) + "</code>")
        else:
            out.append(line[i:j + len(opening)])
        i = at = j + len(opening)
    out.append(html.escape(line[at:], quote=False))
    return "".join(out)


def _closing_run(line: str, start: int, length: int) -> int:
    """Where the next run of exactly ``length`` backticks starts, from ``start`` (-1: none)."""
    i = start
    while i < len(line):
        if line[i] == "`":
            run = len(line[i:]) - len(line[i:].lstrip("`"))
            if run == length:
                return i
            i += run
        else:
            i += 1
    return -1


def _md_list(items: list, depth: int) -> list[str]:
    out = []
    for item in items:
        if isinstance(item, list):
            out += _md_list(item, depth + 1)
        else:
            out.append("  " * depth + "- " + item)
    return out


def _inline(text: str) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]*)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"(?<![*\w])\*([^*]+)\*(?![*\w])", r"<em>\1</em>", text)


CSS = """
body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2rem; border-bottom: 1px solid #ccc; }
code { background: #f3f3f3; padding: 0 .25em; border-radius: 3px; font-size: .92em; }
table { border-collapse: collapse; margin: .5rem 0 1rem; } td, th { border: 1px solid #ccc; padding: .15rem .6rem; }
th { background: #f0f0f0; } .note { color: #666; font-style: italic; }
.patterns { display: flex; flex-wrap: wrap; gap: .8rem; margin: .5rem 0 1rem; }
.pattern { display: grid; gap: 2px; } .pattern span { width: 1.4rem; height: 1.4rem; border-radius: 50%;
  display: flex; align-items: center; justify-content: center; font-size: .7rem; font-weight: bold; color: #fff; }
.pattern span.empty { background: transparent; border: 1px dashed #bbb; }
.table .shared, .table .seats { display: flex; flex-wrap: wrap; gap: 1em; margin: .5em 0; }
.table .seat { border: 1px solid #ccc; border-radius: 8px; padding: .4em .7em; }
.table .seat h3 { margin: 0 0 .3em; font-size: 1em; display: flex; justify-content: space-between; gap: 1em; }
.table .label { display: inline-block; min-width: 6em; color: #666; font-size: .85em; }
.table .item { display: inline-block; border: 1px solid #bbb; border-radius: 4px; padding: 0 .3em; margin: 1px; }
.table .hidden, .table .empty { color: #888; font-style: italic; }
svg.board .cell { fill: #efe6d2; stroke: #b9b2a5; } svg.board .name { font-size: 9px; fill: #a39a89; }
svg.board .piece { stroke: #555; } svg.board .piece.unseen { fill: #cfc8ba; }
svg.board .symbol, svg.board .number, svg.board .cardtext { font-size: 14px; text-anchor: middle; font-weight: 600; }
svg.board .card { fill: #fff; stroke: #555; } svg.board .cardtext { font-size: 12px; }
.highlight pre { padding: .8em; border-radius: 6px; overflow: auto; font-size: .85em; }
"""
PALETTE = ["#3b6fd6", "#d6a93b", "#d64b3b", "#8a3bd6", "#3bab5b", "#777777", "#d63b9a", "#3bb7c9"]


def to_html(doc: Doc) -> str:
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(doc.title)} — rules</title><style>{CSS}</style></head><body>",
             f"<h1>{html.escape(doc.title)}</h1>",
             '<p class="note">This rulebook is generated from the rules file by <code>regle rules</code>.</p>']
    symbols: dict[str, str] = {}
    for b in doc.blocks:
        if b.kind == "h":
            parts.append(f"<h{b.level}>{_inline(b.data)}</h{b.level}>")
        elif b.kind == "p":
            parts.append(f"<p>{_inline(b.data)}</p>")
        elif b.kind == "ul":
            parts.append(_html_list(b.data))
        elif b.kind == "table":
            header, rows = b.data
            parts.append("<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"
                         + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
                         + "</table>")
        elif b.kind == "raw":  # already HTML: the board picture, the highlighted rules text
            parts.append(b.data)
        elif b.kind == "patterns":
            cells = []
            for shape in b.data:
                rows = shape.split("/")
                width = max(len(r) for r in rows)
                spans = []
                for r in rows:
                    for ch in r.ljust(width, "."):
                        if ch == ".":
                            spans.append('<span class="empty"></span>')
                        else:
                            colour = symbols.setdefault(ch, PALETTE[len(symbols) % len(PALETTE)])
                            spans.append(f'<span style="background:{colour}">{html.escape(ch)}</span>')
                cells.append(f'<div class="pattern" title="{html.escape(shape)}" '
                             f'style="grid-template-columns: repeat({width}, 1.4rem)">{"".join(spans)}</div>')
            parts.append('<div class="patterns">' + "".join(cells) + "</div>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _html_list(items: list) -> str:
    out = ["<ul>"]
    for item in items:
        if isinstance(item, list):
            out.append(_html_list(item))
        else:
            out.append(f"<li>{_inline(item)}</li>")
    out.append("</ul>")
    return "".join(out)


def rulebook(path: str | Path, fmt: str = "md", text: str | None = None) -> str:
    """The rulebook of a rules file (its extends resolved) as Markdown, HTML or JSON. The HTML one
    also shows the start position, drawn as ``regle serve`` draws it, and the rules text with
    its syntax highlighted. ``text``: the file's text as it is being edited (not as saved)."""
    path = Path(path)
    source = read_source(path) if text is None else Source(text, str(path))
    rules, _ = resolve(parse(source.text, str(path)), source)
    doc = Writer(rules, path.stem).write()
    if fmt == "json":
        return to_json(doc, path, source.text, edited=text is not None)
    if fmt != "html":
        return to_markdown(doc)
    _pictures(doc, path, source.text, edited=text is not None)
    return to_html(doc)


def to_json(doc: Doc, path: Path, text: str, edited: bool = False) -> str:
    """The rulebook as data: its sections as blocks (a heading, a paragraph, a list whose items
    are texts or lists), its stand-ins, and what the rules declare (``game.spec``: params,
    enums, tables, zones, counters, boards and their geometry, steps and actions)."""
    import json
    import regle
    game = regle.loads(text, path.stem, str(path), backend="python") if edited else regle.load(path, backend="python")

    def block(b: Block) -> dict:
        if b.kind == "h":
            return {"kind": "heading", "level": b.level, "text": b.data}
        if b.kind == "ul":
            return {"kind": "list", "items": b.data}
        if b.kind == "p":
            return {"kind": "paragraph", "text": b.data}
        return {"kind": b.kind, "data": b.data}  # a table of components, patterns, a board
    data = {"format": "regle-rulebook/1", "title": doc.title, "blocks": [block(b) for b in doc.blocks],
            "standins": [{"what": what, "why": why} for what, why in doc.standins], "spec": game.spec.to_dict()}
    return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"


def _pictures(doc: Doc, path: Path, text: str, edited: bool = False) -> None:
    """Add the start position (after the components) and the highlighted rules text (last)."""
    import regle
    from regle.highlight import highlight_html
    from regle.web.render import table_html
    game = regle.loads(text, path.stem, str(path), backend="python") if edited else regle.load(path)
    n = game.players.start
    state = game.new_game(n, seed=0)
    at = next((i for i, b in enumerate(doc.blocks) if b.kind == "h" and b.level == 2 and i > 0
               and b.data not in ("Components",)), len(doc.blocks))
    picture = [Block("h", "The start position", 3),
               Block("p", f"For {n} players, as the game of seed 0 begins (what everyone sees; hidden places "
                          "show how many elements they hold)."),
               Block("raw", f'<div class="table">{table_html(state, None)}</div>')]
    doc.blocks[at:at] = picture
    doc.blocks.append(Block("h", "The rules text", 2))
    doc.blocks.append(Block("raw", highlight_html(text)))


def _counter_kind(ref) -> str:
    """What a counter declared with a type holds, in words."""
    if ref.cell:
        return f"a cell of {_name(ref.name)} (or none)"
    if ref.piece:
        return f"a piece ({_name(ref.name)} and owner, or none)"
    return {"bool": "yes or no", "player": "a player (or none)"}.get(ref.name, f"a {_name(ref.name)} (or none)")
