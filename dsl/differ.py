"""A semantic diff of two rule sets (after resolving ``extend``), in the game's vocabulary.

Declarations are matched by kind and name, so their order in the file does not matter, nor do
formatting and comments. Where order has meaning (the steps of the turn, the statements of a
block, tie-breaks, enum members) a reordering is reported; where it has none (declarations,
actions of a step, scoring clauses, end conditions, table rows) it is not.
"""
from __future__ import annotations

import difflib

import attrs

from . import ast
from .printer import Printer, cell_text, expr, type_text


@attrs.frozen
class Change:
    kind: str  # added | removed | changed | reordered
    what: str  # e.g. "param turns_each", 'table contract row "small 1 2 1"'
    old: str | None = None
    new: str | None = None

    def __str__(self) -> str:
        if self.kind == "added":
            return f"{self.what}: added" + (f" ({self.new})" if self.new else "")
        if self.kind == "removed":
            return f"{self.what}: removed" + (f" (was {self.old})" if self.old else "")
        if self.kind == "reordered":
            return f"{self.what}: reordered {self.old} -> {self.new}"
        return f"{self.what}: {self.old} -> {self.new}"

    def to_json(self) -> dict:
        return attrs.asdict(self)


def _key(d) -> tuple:
    name = getattr(d, "name", None)
    kind = type(d).__name__.lower()
    if isinstance(d, ast.End):
        return ("end", expr(d.cond))
    if isinstance(d, ast.Notice):
        return ("notice", d.text)
    return (kind, name) if name is not None else (kind,)


def _label(key: tuple) -> str:
    if key[0] == "end":
        return f"end when {key[1]}"
    if key[0] == "notice":
        return f"notice {key[1]!r}"
    return " ".join(str(k) for k in key)


def _text(node) -> str:
    """A node's canonical text, on one line (for 'old -> new')."""
    p = Printer()
    if isinstance(node, list):
        for s in node:
            p.statement(s)
    elif isinstance(node, ast.Decl) or isinstance(node, ast.Step):
        if isinstance(node, ast.Step):
            p.step(node)
        else:
            p.decl(node)
    else:
        return expr(node)
    return " ".join(line.strip() for line in p.lines)


def diff(old: ast.Rules, new: ast.Rules) -> list[Change]:
    """Every change from ``old`` to ``new``, declaration by declaration."""
    changes: list[Change] = []
    a = {_key(d): d for d in old.decls if not isinstance(d, ast.Extend)}
    b = {_key(d): d for d in new.decls if not isinstance(d, ast.Extend)}
    for key in a:
        if key not in b:
            changes.append(Change("removed", _label(key)))
    for key in b:
        if key not in a:
            changes.append(Change("added", _label(key), new=_summary(b[key])))
    for key in a:
        if key in b:
            changes.extend(_decl(key, a[key], b[key]))
    return changes


def _presence(label: str, old: dict, new: dict, describe=None) -> list[Change]:
    """Entries removed from ``old`` and added in ``new`` (matched by name)."""
    out = [Change("removed", f"{label} {n}") for n in old if n not in new]
    out += [Change("added", f"{label} {n}", new=describe(new[n]) if describe else None) for n in new if n not in old]
    return out


def _summary(d) -> str:
    if isinstance(d, ast.Param):
        return expr(d.value)
    if isinstance(d, (ast.Zone, ast.Grid, ast.Counter, ast.Define, ast.Invariant, ast.Notice)):
        return _text(d)
    return ""


def _decl(key, a, b) -> list[Change]:
    label = _label(key)
    out: list[Change] = []
    if a.standin != b.standin:
        out.append(Change("changed", f"{label} stand-in", str(a.standin).lower(), str(b.standin).lower()))
    if isinstance(a, ast.Param):
        if a.value != b.value:
            out.append(Change("changed", label, expr(a.value), expr(b.value)))
    elif isinstance(a, ast.Table):
        out += _table(label, a, b)
    elif isinstance(a, ast.Enum):
        old = [m.name for m in a.members]
        new = [m.name for m in b.members]
        for m in old:
            if m not in new:
                out.append(Change("removed", f"{label} member {m}"))
        for m in new:
            if m not in old:
                out.append(Change("added", f"{label} member {m}"))
        if [m for m in old if m in new] != [m for m in new if m in old]:
            out.append(Change("reordered", f"{label} members", ", ".join(old), ", ".join(new)))
        sa = {m.name: (m.wild, m.symbol) for m in a.members}
        for m in b.members:
            if m.name in sa and sa[m.name] != (m.wild, m.symbol):
                out.append(Change("changed", f"{label} member {m.name}", _member(a, m.name), _member(b, m.name)))
    elif isinstance(a, ast.Game):
        for field, what in (("title", "title"), ("min_players", "fewest players"),
                            ("max_players", "most players")):
            if getattr(a, field) != getattr(b, field):
                out.append(Change("changed", f"game {what}", str(getattr(a, field)), str(getattr(b, field))))
        if a.first != b.first:
            out.append(Change("changed", "game first player", _opt(a.first), _opt(b.first)))
        if a.max_decisions != b.max_decisions:
            out.append(Change("changed", "game max decisions", _opt(a.max_decisions), _opt(b.max_decisions)))
        if a.marks != b.marks:
            out.append(Change("changed", "game marks", ", ".join(a.marks) or "-", ", ".join(b.marks) or "-"))
        if a.colours != b.colours:
            out.append(Change("changed", "game colours", ", ".join(a.colours) or "-", ", ".join(b.colours) or "-"))
        if a.seats != b.seats:
            out.append(Change("changed", "game seats", ", ".join(a.seats) or "-", ", ".join(b.seats) or "-"))
    elif isinstance(a, ast.Turn):
        out += _turn(a, b)
    elif isinstance(a, ast.Setup):
        out += _block("setup", a.body, b.body)
    elif isinstance(a, ast.Score):
        ca = {c.name: c for c in a.clauses}
        cb = {c.name: c for c in b.clauses}
        out += _presence("score", ca, cb, lambda c: expr(c.expr))
        for n in ca:
            if n in cb and ca[n].expr != cb[n].expr:
                out.append(Change("changed", f"score {n}", expr(ca[n].expr), expr(cb[n].expr)))
    elif isinstance(a, ast.Winner):
        ra = [("most " if r.most else "least ") + expr(r.expr) for r in a.ranks]
        rb = [("most " if r.most else "least ") + expr(r.expr) for r in b.ranks]
        if ra != rb:
            kind = "reordered" if sorted(ra) == sorted(rb) else "changed"
            out.append(Change(kind, "winner order", "; ".join(ra), "; ".join(rb)))
        if a.ties != b.ties:
            out.append(Change("changed", "winner ties", a.ties, b.ties))
    elif isinstance(a, ast.Define) and a.params == b.params:
        if a.body != b.body:
            out.append(Change("changed", label, expr(a.body), expr(b.body)))
    elif a != b:
        out.append(Change("changed", label, _bare(_text(a)), _bare(_text(b))))
    elif a.doc != b.doc:
        pass  # prose only: the rulebook changes, not the game
    return out


def _bare(text: str) -> str:
    """A declaration's text without the marks that are not rules (override, standin)."""
    for mark in ("standin ", "override "):
        if text.startswith(mark):
            text = text[len(mark):]
    return text


def _member(enum: ast.Enum, name: str) -> str:
    m = next(m for m in enum.members if m.name == name)
    return ("wild " if m.wild else "") + m.name + (f' = "{m.symbol}"' if m.symbol else "")


def _opt(e) -> str:
    return expr(e) if e is not None else "(default)"


def _row(row: ast.Row) -> str:
    return " ".join(cell_text(c) for c in row.cells)


def _table(label: str, a: ast.Table, b: ast.Table) -> list[Change]:
    out: list[Change] = []
    cols_a = [f"{c.name}: {type_text(c.type)}" for c in a.columns]
    cols_b = [f"{c.name}: {type_text(c.type)}" for c in b.columns]
    if cols_a != cols_b:
        out.append(Change("changed", f"{label} columns", ", ".join(cols_a), ", ".join(cols_b)))
        return out
    if a.show != b.show:
        out.append(Change("changed", f"{label} show", repr(a.show), repr(b.show)))
    if (a.show_if, a.show_else, a.show_elifs) != (b.show_if, b.show_else, b.show_elifs):
        def other(t):
            if t.show_if is None:
                return "-"
            middle = "".join(f" {text!r} if {expr(cond)} else" for cond, text in t.show_elifs)
            return f"if {expr(t.show_if)} else{middle} {t.show_else!r}"
        out.append(Change("changed", f"{label} show condition", other(a), other(b)))
    names = [c.name for c in a.columns]
    rows_a = [(_row(r), r.copies) for r in a.rows]
    rows_b = [(_row(r), r.copies) for r in b.rows]
    # rows have no order that matters: compare them as multisets of (text, copies)
    left = [r for r in rows_a]
    right = [r for r in rows_b]
    for r in list(left):
        if r in right:
            left.remove(r)
            right.remove(r)
    # a row whose copies changed
    for r in list(left):
        match = next((x for x in right if x[0] == r[0]), None)
        if match is not None:
            out.append(Change("changed", f'{label} row "{r[0]}" copies', str(r[1]), str(match[1])))
            left.remove(r)
            right.remove(match)
    # pair the remaining rows by similarity: one changed cell reads as a change of that column
    for r in list(left):
        best, best_score = None, 0.0
        for x in right:
            score = difflib.SequenceMatcher(None, r[0].split(), x[0].split()).ratio()
            if score > best_score:
                best, best_score = x, score
        if best is not None and best_score >= 0.5:
            old_cells, new_cells = r[0].split(), best[0].split()
            changed = [(names[i], old_cells[i], new_cells[i]) for i in range(min(len(old_cells), len(new_cells)))
                       if old_cells[i] != new_cells[i]]
            for column, o, n in changed:
                out.append(Change("changed", f'{label} row "{r[0]}": {column}', o, n))
            left.remove(r)
            right.remove(best)
    for r in left:
        out.append(Change("removed", f'{label} row "{r[0]}"' + (f" * {r[1]}" if r[1] != 1 else "")))
    for r in right:
        out.append(Change("added", f'{label} row "{r[0]}"' + (f" * {r[1]}" if r[1] != 1 else "")))
    return out


def _turn(a: ast.Turn, b: ast.Turn) -> list[Change]:
    out: list[Change] = []
    sa = {s.name: s for s in a.steps}
    sb = {s.name: s for s in b.steps}
    out += _presence("step", sa, sb)
    order_a = [s.name for s in a.steps if s.name in sb]
    order_b = [s.name for s in b.steps if s.name in sa]
    if order_a != order_b:  # the steps of a turn happen in order: this changes the game
        out.append(Change("reordered", "turn steps", ", ".join(order_a), ", ".join(order_b)))
    for n in sa:
        if n in sb:
            out += _step(sa[n], sb[n])
    return out


def _step(a: ast.Step, b: ast.Step) -> list[Change]:
    label = f"step {a.name}"
    out: list[Change] = []
    if (a.kind, a.cond) != (b.kind, b.cond):
        out.append(Change("changed", f"{label} kind", _step_head(a), _step_head(b)))
    if a.kind == "auto" or b.kind == "auto":
        return out + _block(label, a.body, b.body)
    ca = {_choice_name(c): c for c in a.choices}
    cb = {_choice_name(c): c for c in b.choices}
    out += _presence(label, ca, cb)
    for n in ca:  # actions are choices: their order in the file has no meaning
        if n in cb and ca[n] != cb[n]:
            x, y = ca[n], cb[n]
            if isinstance(x, ast.Action) and isinstance(y, ast.Action):
                if x.params != y.params:
                    out.append(Change("changed", f"{label} {n} parameters",
                                      ", ".join(_binding(p) for p in x.params), ", ".join(_binding(p) for p in y.params)))
                if x.notation != y.notation:
                    out.append(Change("changed", f"{label} {n} notation", repr(x.notation), repr(y.notation)))
                if x.forced != y.forced:
                    out.append(Change("changed", f"{label} {n}", "forced" if x.forced else "not forced",
                                      "forced" if y.forced else "not forced"))
                out += _block(f"{label} {n}", x.body, y.body)
            else:
                out.append(Change("changed", f"{label} {n}", _text_choice(x), _text_choice(y)))
    return out


def _choice_name(c) -> str:
    return f"action {c.name}" if isinstance(c, ast.Action) else "pass"


def _text_choice(c) -> str:
    return f"pass {c.notation!r}" if isinstance(c, ast.Pass) else f"action {c.name}"


def _binding(b: ast.Binding) -> str:
    from .printer import binding_text
    return binding_text(b)


def _step_head(s: ast.Step) -> str:
    if s.kind == "repeat":
        return f"repeat while {expr(s.cond)}"
    if s.cond is not None:
        return f"{s.kind} when {expr(s.cond)}"
    return s.kind


def _lines(body: list, depth: int = 0) -> list[str]:
    p = Printer()
    p.depth = depth
    for s in body:
        p.statement(s)
    return [line.strip() for line in p.lines if line.strip()]


def _block(label: str, a: list, b: list) -> list[Change]:
    """Statements happen in order: report inserted, deleted, changed and moved lines."""
    if a == b:
        return []
    la, lb = _lines(a), _lines(b)
    out: list[Change] = []
    if sorted(la) == sorted(lb):
        return [Change("reordered", label, " | ".join(la), " | ".join(lb))]
    sm = difflib.SequenceMatcher(None, la, lb)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            for x, y in zip(la[i1:i2], lb[j1:j2]):
                out.append(Change("changed", label, x, y))
        else:
            for x in la[i1:i2]:
                out.append(Change("removed", f"{label}: {x}"))
            for y in lb[j1:j2]:
                out.append(Change("added", f"{label}: {y}"))
    return out
