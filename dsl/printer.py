"""Print an AST back as rules text, in one canonical layout (``regle fmt``).

The same printer renders expressions and statements for ``regle diff`` and the rulebook.
Comments are not in the AST; :func:`format_text` collects them from the source and puts each
back before the declaration, step or statement that follows it.
"""
from __future__ import annotations

import re

from . import ast

INDENT = "  "
_PREC = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4, "not in": 4,
         "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# ---- expressions --------------------------------------------------------------------------
def expr(node: ast.Node) -> str:
    return _expr(node)[0]


def _expr(node) -> tuple[str, int]:
    if isinstance(node, ast.Int):
        return str(node.value), 8 if node.value >= 0 else 7
    if isinstance(node, ast.Bool):
        return ("true" if node.value else "false"), 8
    if isinstance(node, ast.Name):
        return node.id, 8
    if isinstance(node, ast.Players):
        return "players", 8
    if isinstance(node, ast.Attr):
        return f"{_wrap(node.obj, 8)}.{node.name}", 8
    if isinstance(node, ast.Index):
        return f"{_wrap(node.obj, 8)}[{_wrap(node.index, 0)}]", 8
    if isinstance(node, ast.Call):
        return f"{node.func}({', '.join(_wrap(a, 0) for a in node.args)})", 8
    if isinstance(node, ast.Comp):
        where = f" where {_wrap(node.cond, 0)}" if node.cond is not None else ""
        return f"{node.func}({_wrap(node.elem, 0)} for {node.var} in {_wrap(node.source, 0)}{where})", 8
    if isinstance(node, ast.ListExpr):
        return "[" + ", ".join(_wrap(i, 0) for i in node.items) + "]", 8
    if isinstance(node, ast.Not):
        return f"not {_wrap(node.operand, 3)}", 3
    if isinstance(node, ast.Neg):
        return f"-{_wrap(node.operand, 7)}", 7
    if isinstance(node, ast.Str):
        return quote(node.value), 8
    if isinstance(node, ast.Range):
        return f"{_wrap(node.lo, 5)}..{_wrap(node.hi, 5)}", 4
    if isinstance(node, ast.Cond):
        return f"if {_wrap(node.test, 0)} then {_wrap(node.then, 0)} else {_wrap(node.orelse, 0)}", 0
    if isinstance(node, ast.LetIn):
        lets = "".join(f"let {let.name} = {_wrap(let.value, 0)} then " for let in node.lets)
        return lets + _wrap(node.value, 0), 0
    if isinstance(node, ast.BinOp):
        prec = _PREC[node.op]
        if node.op in ("in", "not in"):  # the right side may be a range
            return f"{_wrap(node.left, 5)} {node.op} {_wrap(node.right, 4 if isinstance(node.right, ast.Range) else 5)}", 4
        if prec == 4:  # comparisons do not chain
            return f"{_wrap(node.left, 5)} {node.op} {_wrap(node.right, 5)}", 4
        return f"{_wrap(node.left, prec)} {node.op} {_wrap(node.right, prec + 1)}", prec
    raise TypeError(f"cannot print {type(node).__name__}")


def _define_head(d) -> str:
    """``name(a, b)``, or the name alone for a define written without parentheses."""
    return d.name if d.bare else f"{d.name}({', '.join(d.params)})"


def _wrap(node, need: int) -> str:
    text, prec = _expr(node)
    return f"({text})" if _grouped(node, prec, need) else text


def _grouped(node, prec: int, need: int) -> bool:
    """Parenthesised: where the grammar needs it, and where the author grouped and/or, not or
    a conditional inside another expression (``(a and b) or c`` reads better than without)."""
    return prec < need or (need >= 0 and getattr(node, "grouped", False) and prec <= 3)


# ---- laying out long expressions ---------------------------------------------------------------
WIDTH = 100  # the formatter breaks a longer line where the expression allows it
CONTINUE = "    "  # lines that continue an expression are indented this much more


def expr_lines(node, first: int, rest: int) -> list[str]:
    """``node`` printed in lines that fit where the expression can break (between and/or
    operands, between terms, before a comparison, around then/else, inside brackets):
    ``first`` characters for the first line, ``rest`` for each line after it. Lines after
    the first carry their own extra indentation (CONTINUE per level of nesting)."""
    return _lines(node, first, rest, -1)  # -1: a whole expression needs no parentheses


def _lines(node, first: int, rest: int, need: int) -> list[str]:
    text, prec = _expr(node)
    parens = _grouped(node, prec, need)
    flat = f"({text})" if parens else text
    if len(flat) <= first:
        return [flat]
    if not parens:
        return _broken(node, prec, first, rest)
    # too long inside its parentheses: they open a block of their own
    room = rest - len(CONTINUE)
    return ["("] + [CONTINUE + line for line in _broken(node, prec, room, room)] + [")"]


def _chain(node, ops: tuple, top: bool = True) -> list:
    """The operands and operators of a left-leaning chain of the same precedence (an operand
    the author grouped in parentheses stays one operand)."""
    if isinstance(node, ast.BinOp) and node.op in ops and (top or not getattr(node, "grouped", False)):
        return _chain(node.left, ops, False) + [node.op, node.right]
    return [node]


_CHAINS = {"and": ("and",), "or": ("or",), "+": ("+", "-"), "-": ("+", "-"), "*": ("*", "//", "%"),
           "//": ("*", "//", "%"), "%": ("*", "//", "%")}


def _broken(node, prec: int, first: int, rest: int) -> list[str]:
    inside = rest - len(CONTINUE)
    if isinstance(node, ast.BinOp) and node.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in"):
        right = 4 if isinstance(node.right, ast.Range) else 5
        sub = _lines(node.right, rest - len(node.op) - 1, rest, right)
        return _lines(node.left, first, rest, 5) + [f"{node.op} {sub[0]}"] + sub[1:]
    if isinstance(node, ast.BinOp) and node.op in _CHAINS:
        parts = _chain(node, _CHAINS[node.op])
        out = _lines(parts[0], first, rest, prec)
        for op, operand in zip(parts[1::2], parts[2::2]):
            sub = _lines(operand, rest - len(op) - 1, rest, prec + 1)
            out += [f"{op} {sub[0]}"] + sub[1:]
        return out
    if isinstance(node, ast.Cond):  # lines after a part's first are one level deeper
        test = _lines(node.test, first - 3, inside, 0)
        out = ["if " + test[0]] + [CONTINUE + line for line in test[1:]]
        for word, branch in (("then ", node.then), ("else ", node.orelse)):
            sub = _lines(branch, rest - len(word), inside, 0)
            out += [word + sub[0]] + [CONTINUE + line for line in sub[1:]]
        return out
    if isinstance(node, (ast.Call, ast.ListExpr)) and (node.args if isinstance(node, ast.Call) else node.items):
        items = node.args if isinstance(node, ast.Call) else node.items
        head, close = (f"{node.func}(", ")") if isinstance(node, ast.Call) else ("[", "]")
        out = [head]
        for i, item in enumerate(items):
            sub = _lines(item, inside - 1, inside, 0)
            sub[-1] += "," if i < len(items) - 1 else ""
            out += [CONTINUE + line for line in sub]
        return out + [close]
    if isinstance(node, ast.Comp):
        whole = _expr(node)[0][len(node.func) + 1:-1]
        if len(whole) <= inside:  # all of it on one line of its own
            return [f"{node.func}(", CONTINUE + whole, ")"]
        out = [f"{node.func}("] + [CONTINUE + line for line in _lines(node.elem, inside, inside, 0)]
        for word, part in ((f"for {node.var} in ", node.source), ("where ", node.cond)):
            if part is not None:
                sub = _lines(part, inside - len(word), inside - len(CONTINUE), 0)
                out += [CONTINUE + word + sub[0]] + [CONTINUE * 2 + line for line in sub[1:]]
        return out + [")"]
    if isinstance(node, (ast.Not, ast.Neg)):
        word, need = ("not ", 3) if isinstance(node, ast.Not) else ("-", 7)
        sub = _lines(node.operand, first - len(word), rest, need)
        return [word + sub[0]] + sub[1:]
    if isinstance(node, ast.Index):
        obj = _lines(node.obj, first, rest, 8)
        sub = _lines(node.index, inside, inside, 0)
        return obj[:-1] + [obj[-1] + "["] + [CONTINUE + line for line in sub] + ["]"]
    if isinstance(node, ast.Attr):
        obj = _lines(node.obj, first, rest, 8)
        return obj[:-1] + [obj[-1] + "." + node.name]
    if isinstance(node, ast.Range):
        sub = _lines(node.hi, rest - 2, rest, 5)
        return _lines(node.lo, first, rest, 5) + [".." + sub[0]] + sub[1:]
    return [_expr(node)[0]]  # no place to break


# ---- statements -----------------------------------------------------------------------------
def stmt_head(node) -> str:
    """One statement's first line (blocks open with '{')."""
    if isinstance(node, ast.Shuffle):
        return f"shuffle {expr(node.zone)}"
    if isinstance(node, ast.Deal):
        count = "all" if node.count is None else expr(node.count)
        where = f" where {expr(node.where)}" if node.where is not None else ""
        drawn = " at random" if node.random else ""
        return f"deal {count}{drawn} from {expr(node.src)} to {expr(node.dst)}{where}"
    if isinstance(node, ast.Move):
        return f"move {expr(node.item)} from {expr(node.src)} to {expr(node.dst)}"
    if isinstance(node, ast.Add):
        return f"add {expr(node.item)} to {expr(node.dst)}"
    if isinstance(node, ast.Remove):
        return f"remove {expr(node.item)} from {expr(node.src)}"
    if isinstance(node, ast.Refill):
        return f"refill {expr(node.dst)} from {expr(node.src)} up to {expr(node.size)}"
    if isinstance(node, ast.Let):
        return f"let {node.name} = {expr(node.value)}"
    if isinstance(node, ast.Require):
        tail = f" else {quote(node.message)}" if node.message is not None else ""
        return f"require {expr(node.cond)}{tail}"
    if isinstance(node, ast.Assign):
        target = node.name + "".join(f"[{expr(i)}]" for i in (node.index, node.index2) if i is not None)
        return f"{target} {node.op} {expr(node.value)}"
    if isinstance(node, ast.EndGame):
        return "end game"
    if isinstance(node, ast.Announce):
        return f"announce {quote(node.text)}"
    if isinstance(node, ast.Reveal):
        return f"reveal {expr(node.place)}"
    if isinstance(node, ast.EndTurn):
        return "end turn"
    if isinstance(node, ast.Again):
        return "again" + (" with " + ", ".join(f"{n} = {expr(e)}" for n, e in node.pins) if node.pins else "")
    if isinstance(node, ast.NextPlayer):
        return f"next player {expr(node.value)}"
    if isinstance(node, ast.Put):
        return f"put {expr(node.value)} at {expr(node.cell)} on {expr(node.grid)}"
    if isinstance(node, ast.MovePiece):
        return f"move {expr(node.cell)} to {expr(node.to)} on {expr(node.grid)}"
    if isinstance(node, ast.Run):
        return f"{node.name}({', '.join(expr(a) for a in node.args)})"
    if isinstance(node, ast.Ensure):
        return f"ensure {expr(node.cond)}"
    if isinstance(node, ast.Clear):
        to = f" to {expr(node.to)}" if node.to is not None else ""
        return f"clear {expr(node.what)} on {expr(node.grid)}{to}"
    if isinstance(node, ast.Drop):
        return (f"drop {expr(node.value)} into {expr(node.grid)} lane {expr(node.lane)}"
                + _tail(node.taking, node.overflow))
    if isinstance(node, ast.Settle):
        return f"settle {expr(node.grid)}"
    if isinstance(node, ast.Rotate) and node.to is not None:
        return f"copy {expr(node.grid)} at {expr(node.corner)} size {expr(node.size)} to {expr(node.to)}"
    if isinstance(node, ast.Rotate):
        head = "reflect" if node.turns is None else "rotate"
        tail = "" if node.turns is None else f" by {expr(node.turns)}"
        return f"{head} {expr(node.grid)} at {expr(node.corner)} size {expr(node.size)}{tail}"
    if isinstance(node, ast.Place):
        return (f"place {expr(node.placement)} of {expr(node.pattern)} into {expr(node.grid)}"
                + _tail(node.taking, node.overflow))
    if isinstance(node, ast.Push):
        head = f"push {expr(node.move)} on {expr(node.grid)}"
        if node.body is not None:
            head += f" ejecting ({node.who}, {node.sides})"
        return head
    if isinstance(node, ast.For):
        where = "" if node.where is None else f" where {expr(node.where)}"
        return f"for {node.var} in {expr(node.source)}{where}"
    if isinstance(node, ast.While):
        return f"while {expr(node.cond)}"
    raise TypeError(f"cannot print {type(node).__name__}")


def _expression_of(node) -> tuple[str, object, str] | None:
    """A statement as (text before, its main expression, text after), for breaking a long one."""
    if isinstance(node, ast.Let):
        return f"let {node.name} = ", node.value, ""
    if isinstance(node, ast.Require):
        return "require ", node.cond, (f" else {quote(node.message)}" if node.message is not None else "")
    if isinstance(node, ast.Ensure):
        return "ensure ", node.cond, ""
    if isinstance(node, ast.Assign):
        target = node.name + "".join(f"[{expr(i)}]" for i in (node.index, node.index2) if i is not None)
        return f"{target} {node.op} ", node.value, ""
    if isinstance(node, ast.While):
        return "while ", node.cond, ""
    if isinstance(node, ast.For):
        if node.where is not None:  # the condition is usually the long part
            return f"for {node.var} in {expr(node.source)} where ", node.where, ""
        return f"for {node.var} in ", node.source, ""
    if isinstance(node, ast.NextPlayer):
        return "next player ", node.value, ""
    return None


def _tail(taking, overflow) -> str:
    out = ""
    if taking is not None:
        out += f" taking from {expr(taking)}"
    if overflow is not None:
        out += f" overflow to {expr(overflow)}"
    return out


class Printer:
    """Builds the canonical text, putting comments back before what followed them."""

    def __init__(self, comments: list[tuple[int, str]] | None = None,
                 trailing: dict[int, str] | None = None):
        self.lines: list[str] = []
        self.comments = sorted(comments or [])
        self.trailing = dict(trailing or {})  # line -> a comment written after code on that line
        self.pending: str | None = None  # the trailing comment of the node being printed
        self.node_start = 0  # where the lines of the node being printed begin in ``lines``
        self.depth = 0

    def line_expr(self, prefix: str, node, suffix: str = "") -> None:
        """A line holding an expression, broken into continuation lines (CONTINUE deeper)
        when it is longer than WIDTH and the expression allows it."""
        base = WIDTH - len(INDENT * self.depth) - len(suffix)
        lines = expr_lines(node, base - len(prefix), base - len(CONTINUE))
        if len(lines) == 1:
            self.line(prefix + lines[0] + suffix)
            return
        self.line(prefix + lines[0])
        # one bracketed block (``f(`` ... ``)``): its lines carry their indentation, the closer none
        block = lines[0].endswith(("(", "[")) and lines[-1] in (")", "]") and \
            all(line.startswith(CONTINUE) for line in lines[1:-1])
        more = "" if block else CONTINUE
        for i, line in enumerate(lines[1:], 1):
            self.line(more + line + (suffix if i == len(lines) - 1 else ""))

    def line(self, text: str = "") -> None:
        if text and self.pending is not None and not text.startswith("///"):
            comment, self.pending = self.pending, None
            if len(INDENT * self.depth + text) + 2 + len(comment) <= WIDTH:
                text = f"{text}  {comment}"  # back at the end of its line
            else:  # too long there: on lines of its own, above the node (and its doc comment)
                at = min(self.node_start, len(self.lines))
                self.lines[at:at] = self.broken(comment)
        self.lines.append((INDENT * self.depth + text) if text else "")

    def comment_lines(self, text: str) -> None:
        self.lines.extend(self.broken(text))

    def broken(self, text: str) -> list[str]:
        """A comment (``# ...`` or a doc line ``/// ...``) on as many lines as it needs to stay
        within WIDTH, broken between words (a word longer than a line stays whole)."""
        out = []
        mark = re.match(r"(///|#+)\s*", text)
        if mark is None:  # (every comment starts so; anything else is kept as it is)
            return [INDENT * self.depth + text]
        head, words = text[:mark.end()], text[mark.end():].split(" ")
        if head.strip() != head:
            head = head.rstrip() + " "
        room = WIDTH - len(INDENT * self.depth)
        current = text[:mark.end()] + words[0]
        for word in words[1:]:
            if len(current) + 1 + len(word) > room and current.strip() != head.strip():
                out.append(INDENT * self.depth + current.rstrip())
                current = head + word
            else:
                current += " " + word
        return out + [INDENT * self.depth + current.rstrip()]

    def comments_before(self, line: int, start: int | None = None) -> None:
        """Emit the comments above ``line``; a blank line follows them when the source had a
        gap before ``start`` (where the node's doc comment begins). A comment written after
        code on ``line`` goes back at the end of the node's first line; one after code on a line
        no node starts on (a closing brace) comes above the next node, as before."""
        if self.pending is not None:  # its node printed no line of its own
            pending, self.pending = self.pending, None
            self.comment_lines(pending)
        for early in sorted(n for n in self.trailing if line and n < line):
            self.comments.append((early, self.trailing.pop(early)))
        self.comments.sort()
        last = None
        while self.comments and line and self.comments[0][0] < line:
            last, text = self.comments.pop(0)
            self.comment_lines(text)
        if last is not None and start is not None and last < start - 1:
            self.line()
        self.node_start = len(self.lines)  # where the node's own lines begin (its doc comment first)
        self.pending = self.trailing.pop(line, None) if line else None

    def docs(self, node) -> None:
        if node.doc:  # a paragraph: a line too long is broken between words
            for text in node.doc.split("\n"):
                self.comment_lines(("/// " + text).rstrip())

    def mark(self, node) -> str:
        return "standin " if getattr(node, "standin", False) else ""

    def block(self, body: list) -> None:
        self.depth += 1
        for node in body:
            self.statement(node)
        self.depth -= 1

    def statement(self, node) -> None:
        self.comments_before(node.pos[0])
        self.docs(node)
        prefix = self.mark(node)
        if isinstance(node, ast.If):
            for i, (cond, body) in enumerate(node.branches):
                self.line_expr(f"{prefix}if " if i == 0 else "} elif ", cond, " {")
                self.block(body)
            if node.orelse is not None:
                self.line("} else {")
                self.block(node.orelse)
            self.line("}")
            return
        head = prefix + stmt_head(node)
        body = node.body if isinstance(node, (ast.For, ast.While, ast.Push)) else None
        parts = _expression_of(node)
        if parts is not None and len(INDENT * self.depth + head) + (2 if body is not None else 0) > WIDTH:
            before, value, after = parts
            self.line_expr(prefix + before, value, after + (" {" if body is not None else ""))
        elif body is None:
            self.line(head)
            return
        else:
            self.line(head + " {")
        if body is None:
            return
        self.block(body)
        self.line("}")

    # -- declarations
    def rules(self, rules: ast.Rules) -> str:
        previous = ""  # the kind of the previous one-line declaration, None after a block
        for i, decl in enumerate(rules.decls):
            kind = type(decl).__name__
            one_line = kind in ("Param", "Zone", "Grid", "Counter", "End", "Invariant", "Notice", "Define", "Extend") \
                and not (kind == "Define" and decl.block is not None)  # a procedure is a block
            if i and not (one_line and previous == kind and not decl.doc):
                self.line()
            doc_lines = decl.doc.count("\n") + 1 if decl.doc else 0
            self.comments_before(decl.pos[0], decl.pos[0] - doc_lines)
            self.docs(decl)
            self.decl(decl)
            previous = kind if one_line else None
        if self.pending is not None:
            if len(self.lines[-1]) + 2 + len(self.pending) <= WIDTH:
                self.lines[-1] += "  " + self.pending
            else:
                self.comment_lines(self.pending)
            self.pending = None
        for _, text in sorted(self.comments + list(self.trailing.items())):
            self.comment_lines(text)
        self.comments, self.trailing = [], {}
        return "\n".join(self.lines).rstrip() + "\n"

    def decl(self, d) -> None:
        mark = self.mark(d) + ("override " if getattr(d, "override", False) else "")
        if isinstance(d, ast.Game):
            self.line(f"{mark}game {quote(d.title)} {{")
            players = str(d.min_players) if d.min_players == d.max_players else f"{d.min_players}..{d.max_players}"
            if not d.seats or (d.min_players, d.max_players) != (len(d.seats), len(d.seats)):
                self.line(f"{INDENT}players {players}")  # else the seats say it
            if d.first is not None:
                self.line(f"{INDENT}first player {expr(d.first)}")
            if d.marks:
                self.line(f"{INDENT}marks {', '.join(quote(m) for m in d.marks)}")
            if d.colours:
                self.line(f"{INDENT}colours {', '.join(quote(c) for c in d.colours)}")
            if d.seats:
                sides = d.seat_sides or [None] * len(d.seats)
                self.line(f"{INDENT}seats " + ", ".join(s + (f" at {side}" if side else "") for s, side in zip(d.seats, sides)))
            if d.max_decisions is not None:
                self.line(f"{INDENT}max decisions {expr(d.max_decisions)}")
            self.line("}")
        elif isinstance(d, ast.Extend):
            self.line(f"{mark}extend {quote(d.path)}")
        elif isinstance(d, ast.Param):
            self.line(f"{mark}param {d.name} = {expr(d.value)}")
        elif isinstance(d, ast.Enum):
            members = [("wild " if m.wild else "") + m.name + (f" = {quote(m.symbol)}" if m.symbol is not None else "")
                       + (f" figure {quote(m.figure)}" if m.figure is not None else "")
                       + (" on disc" if m.on_disc else "")
                       for m in d.members]
            one = f"{mark}enum {d.name} {{ {', '.join(members)} }}"
            if len(INDENT * self.depth + one) <= WIDTH:
                self.line(one)
            else:  # its members inside the braces, as many to a line as fit
                self.line(f"{mark}enum {d.name} {{")
                self.depth += 1
                row: list[str] = []
                for i, text in enumerate(members):
                    piece = text + ("" if i == len(members) - 1 else ",")
                    if row and len(INDENT * self.depth + " ".join(row + [piece])) > WIDTH:
                        self.line(" ".join(row))
                        row = []
                    row.append(piece)
                self.line(" ".join(row))
                self.depth -= 1
                self.line("}")
        elif isinstance(d, ast.Table):
            self.table(d, mark)
        elif isinstance(d, ast.Zone):
            self.line(f"{mark}zone {d.name}: {type_text(d.elem)}{_per(d.per)}{_opts(d)}"
                      + (f" = {expr(d.init)}" if d.init is not None else ""))
        elif isinstance(d, ast.Grid):
            edges = ((" with diagonals" + (" only" if d.diagonals == "only" else "") if d.diagonals else "") + (" numbered" if d.numbered else "")
                     + (f" edges {d.edges}" if d.edges else "")) + (f" under {d.under}" if d.under else "")
            head = f"{mark}grid {d.name}: {type_text(d.elem)}{_per(d.per)}"
            if d.shape == "lines":
                self.lines_grid(f"{head} lines", [quote(s.value) for s in d.size], f"{edges}{_opts(d)}")
            else:
                size = {"square": "square {} by {}", "lanes": "lanes {} height {}", "hex": "hex side {}",
                        "rhombus": "hex {} by {}", "triangle": "hex triangle {}", "star": "star {}", "mancala": "mancala {}", "walls": "walls of {}"}[d.shape]
                self.line(f"{head} {size.format(*(expr(e) for e in d.size))}{edges}{_opts(d)}")
        elif isinstance(d, ast.Track):
            self.lines_grid(f"{mark}track {d.name} on {d.grid}:", [quote(s.value) for s in d.cells],
                            " loop" if d.loop else "")
        elif isinstance(d, ast.Counter):
            kind = f": {type_text(d.type)}" if d.type is not None else ""
            self.line(f"{mark}counter {d.name}{kind}{_per(d.per)}{_per(d.per2)}" + (" quiet" if d.quiet else "")
                      + (" private" if d.private else "") + (f" = {expr(d.init)}" if d.init is not None else ""))
        elif isinstance(d, ast.Define) and d.block is not None:
            self.line(f"{mark}define {d.name}({', '.join(d.params)}) {{")
            self.block(d.block)
            self.line("}")
        elif isinstance(d, ast.Define) and isinstance(d.body, ast.LetIn):  # a let on each line
            self.line(f"{mark}define {_define_head(d)} =")
            self.depth += 1
            for i, let in enumerate(d.body.lets):
                self.line_expr(("then " if i else "") + f"let {let.name} = ", let.value)
            self.line_expr("then ", d.body.value)
            self.depth -= 1
        elif isinstance(d, ast.Define):
            self.line_expr(f"{mark}define {_define_head(d)} = ", d.body)
        elif isinstance(d, ast.Setup):
            self.line(f"{mark}setup {{")
            self.block(d.body)
            self.line("}")
        elif isinstance(d, ast.Turn):
            self.line(f"{mark}turn {{")
            self.depth += 1
            for i, step in enumerate(d.steps):
                if step.implicit:  # turn { action ... }: the actions alone
                    self.choices(step)
                    continue
                self.comments_before(step.pos[0])
                self.docs(step)
                self.step(step)
            self.depth -= 1
            self.line("}")
        elif isinstance(d, ast.Step):
            self.step(d, mark)
        elif isinstance(d, ast.End):
            winner = f" then winner {expr(d.winner)}" if d.winner is not None else " then draw" if d.draw else ""
            self.line_expr(f"{mark}end when ", d.cond, winner)
        elif isinstance(d, ast.Score):
            self.line(f"{mark}score {d.var} {{")
            self.depth += 1
            for clause in d.clauses:
                self.comments_before(clause.pos[0])
                self.docs(clause)
                self.line_expr(f"{clause.name}: ", clause.expr)
            self.depth -= 1
            self.line("}")
        elif isinstance(d, ast.Winner):
            self.line(f"{mark}winner {d.var} {{")
            for rank in d.ranks:
                self.line(f"{INDENT}{'most' if rank.most else 'least'} {expr(rank.expr)}")
            self.line(f"{INDENT}ties {d.ties}")
            self.line("}")
        elif isinstance(d, ast.Invariant):
            self.line_expr(f"{mark}invariant {d.name}: ", d.expr)
        elif isinstance(d, ast.Notice):
            self.notice(d, mark)
        else:
            raise TypeError(type(d).__name__)

    def notice(self, d: ast.Notice, mark: str) -> None:
        """``notice "text" when COND at CELLS``: on one line if it fits, else its ``at`` part on
        a line of its own, deeper."""
        at = ""
        if d.at is not None:
            at = f"at {expr(d.at)}"
            if d.var is not None:
                at += f" for {d.var} in {expr(d.source)}" + (f" where {expr(d.where)}" if d.where is not None else "")
        head = f"{mark}notice {quote(d.text)}"
        if d.cond is None:
            fits = len(INDENT * self.depth + f"{head} {at}") <= WIDTH
            self.line(f"{head} {at}" if fits else head)
            if not fits:
                self.line(CONTINUE + at)
        elif not at or len(INDENT * self.depth + f"{head} when {expr(d.cond)} {at}") <= WIDTH:
            self.line_expr(f"{head} when ", d.cond, f" {at}" if at else "")
        else:
            self.line_expr(f"{head} when ", d.cond)
            self.line(CONTINUE + at)

    def lines_grid(self, head: str, lines: list[str], tail: str) -> None:
        """A board of points and lines (or a track's cells): on one line if it fits, else its
        texts follow the head, as many to a line as fit."""
        one = f"{head} {', '.join(lines)}{tail}"
        if len(INDENT * self.depth + one) <= WIDTH:
            self.line(one)
            return
        self.line(head)
        self.depth += 2
        row: list[str] = []
        for i, text in enumerate(lines):
            last = i == len(lines) - 1
            piece = text + ("" if last else ",")
            if row and len(INDENT * self.depth + " ".join(row + [piece])) > WIDTH:
                self.line(" ".join(row))
                row = []
            row.append(piece)
        self.line(" ".join(row) + tail)
        self.depth -= 2

    def table(self, d: ast.Table, mark: str) -> None:
        columns = ", ".join(f"{c.name}: {type_text(c.type)}" for c in d.columns)
        show = f" {_show_text(d)}" if d.show is not None else ""
        show += f" detail {quote(d.detail)}" if d.detail is not None else ""
        if len(INDENT * self.depth + f"{mark}table {d.name}({columns}){show} {{") <= WIDTH:
            self.line(f"{mark}table {d.name}({columns}){show} {{")
        else:  # its display texts on lines of their own
            self.line(f"{mark}table {d.name}({columns})")
            parts = [_show_text(d)] if d.show is not None else []
            parts += [f"detail {quote(d.detail)}"] if d.detail is not None else []
            for i, part in enumerate(parts):
                self.line(CONTINUE + part + (" {" if i == len(parts) - 1 else ""))
            if not parts:
                self.line("{")
        texts = [[cell_text(c) for c in row.cells] for row in d.rows]
        widths = [max((len(t[i]) for t in texts if i < len(t)), default=0) for i in range(len(d.columns))]
        for row, cells in zip(d.rows, texts):
            self.comments_before(row.pos[0])
            body = " ".join(c.ljust(widths[i]) if i < len(widths) else c for i, c in enumerate(cells)).rstrip()
            if row.copies != 1:
                body += f" * {row.copies}"
            self.line(INDENT + body)
        self.line("}")

    def step(self, step: ast.Step, mark: str = "") -> None:
        mark = mark or self.mark(step)
        if step.kind == "auto":
            self.line(f"{mark}do {step.name} {{")
            self.block(step.body)
            self.line("}")
            return
        if step.kind == "optional":
            head = f"optional step {step.name}"
        elif step.kind == "repeat":
            head = ("optional " if step.optional else "unordered " if step.unordered else "") \
                + f"repeat step {step.name} while {expr(step.cond)}"
        else:
            head = f"step {step.name}" + (f" when {expr(step.cond)}" if step.cond is not None else "")
        if step.cond is not None and len(INDENT * self.depth + f"{mark}{head} {{") > WIDTH:
            word = "while" if step.kind == "repeat" else "when"
            self.line_expr(f"{mark}{head.split(f' {word} ')[0]} {word} ", step.cond, " {")
        else:
            self.line(f"{mark}{head} {{")
        self.depth += 1
        self.choices(step)
        self.depth -= 1
        self.line("}")

    def choices(self, step: ast.Step) -> None:
        for choice in step.choices:
            self.comments_before(choice.pos[0])
            self.docs(choice)
            if isinstance(choice, ast.Pass):
                self.line(f"{self.mark(choice)}pass" + (f" {quote(choice.notation)}" if choice.notation is not None else ""))
                continue
            params = ", ".join(binding_text(b) for b in choice.params)
            opener = f"{self.mark(choice)}{'forced ' if choice.forced else ''}action {choice.name}"
            head = opener + (f"({params})" if params else "")
            secret = "" if choice.secret is None else " secret" + (f" {quote(choice.secret)}" if choice.secret else "")
            secret += f" ids as {choice.ids_of}" if choice.ids_of else ""
            if choice.notation is not None:
                head += f" {quote(choice.notation)}"
            head += secret
            if len(INDENT * self.depth + head) + 2 > WIDTH and choice.params:  # a binding a line
                self.line(opener + "(")
                for i, b in enumerate(choice.params):
                    self.line(CONTINUE + binding_text(b) + ("," if i < len(choice.params) - 1 else ""))
                head = ")" + (f" {quote(choice.notation)}" if choice.notation is not None else "") + secret
            self.line(head + " {")
            self.block(choice.body)
            self.line("}")


def _show_text(d: ast.Table) -> str:
    """``show A if c1 else B if c2 else C``."""
    out = f"show {quote(d.show)}"
    if d.show_if is not None:
        out += f" if {expr(d.show_if)} else"
        for cond, text in d.show_elifs:
            out += f" {quote(text)} if {expr(cond)} else"
        out += f" {quote(d.show_else)}"
    return out


def type_text(t: ast.TypeRef) -> str:
    if t.piece:
        return f"{t.name} of player"
    return f"pattern of {t.name}" if t.pattern else f"cell of {t.name}" if t.cell else t.name


def binding_text(b: ast.Binding) -> str:
    if b.kind == "range":
        return f"{b.names[0]} in {expr(b.source)}..{expr(b.upper)}"
    if b.kind == "pair":
        return f"{b.names[0]}, {b.names[1]} in pair {expr(b.source)}"
    if b.kind == "subset":
        return f"{b.names[0]} in subset {expr(b.source)}"
    return f"{b.names[0]} in {expr(b.source)}"


def cell_text(c: ast.Cell) -> str:
    if c.kind == "none":
        return "-"
    if c.kind == "str":
        return quote(c.value)
    if c.kind == "range":
        return f"{c.value[0]}..{c.value[1]}"
    return str(c.value)


def _per(per: str | None) -> str:
    return f" per {per}" if per else ""


def _opts(d) -> str:
    out = ""
    if d.hidden:
        out += " hidden"
    if d.private:
        out += " private"
    if getattr(d, "capacity", None) is not None:
        out += f" capacity {expr(d.capacity)}"
    if getattr(d, "values", None) is not None:
        out += f" values {expr(d.values)}"
    if getattr(d, "quiet", False):
        out += " quiet"
    if getattr(d, "unordered", False):
        out += " unordered"
    if getattr(d, "shown_at_end", False):
        out += " shown at end"
    if getattr(d, "look", None):
        out += " checkered" if d.look == "checkered" else " on points"
    if getattr(d, "ground", None):
        out += f" on {quote(d.ground)}"
    if getattr(d, "columns", None):
        out += f" columns by {d.columns}"
    return out


_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|(///[^\n]*)|(#[^\n]*)')


def _comments(text: str) -> list[tuple[int, str, bool]]:
    """(line, comment, whether code stands before it on its line) for every ``# ...`` of a
    source (strings and doc comments skipped)."""
    out = []
    for m in _COMMENT.finditer(text):
        if m.group(2):
            start = text.rfind("\n", 0, m.start()) + 1
            out.append((text.count("\n", 0, m.start()) + 1, m.group(2).rstrip(),
                        bool(text[start:m.start()].strip())))
    return out


def format_rules(rules: ast.Rules, source_text: str = "") -> str:
    found = _comments(source_text)
    return Printer([(n, c) for n, c, after in found if not after],
                   {n: c for n, c, after in found if after}).rules(rules)


def format_text(text: str, filename: str = "<rules>") -> str:
    """The canonical layout of a rules text (RulesError if it does not parse)."""
    from .parser import parse
    return format_rules(parse(text, filename), text)
