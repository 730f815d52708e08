"""``regle lsp``: a language server for rules files (pygls, the ``lsp`` extra).

What an editor gets, on any file it opens:

- diagnostics as you type: every mistake the checker finds, at its position, with its hint;
- hover: what a declared name is (its declaration and doc comment) or what a built-in does;
- completion: keywords, built-in functions and declared names; inside quotes after a grid, the
  grid's cell names and directions;
- go to definition, find references and rename of declared names, across the file and the
  files it extends (a rename also changes `{name}` placeholders in texts);
- the outline (document symbols) and formatting (``regle fmt``).

Everything is computed from the text with the front end and the checker; no engine is run.
"""
from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from regle.dsl import RulesError, ast, parse
from regle.dsl.printer import binding_text, expr, format_text
from regle.highlight import BUILTINS, CONSTANTS, KEYWORDS

server = LanguageServer("regle", "1")

#: a short description of each built-in function (the language reference, docs/language.md,
#: says more)
BUILTIN_DOCS = {
    "count": "count(Z) how many elements; count(Z, v) how many equal v; count(x for x in Z where c)",
    "sum": "sum(Z) or sum(e for x in Z where c): the total (0 when empty)",
    "max": "max(a, b), max(Z) or max(e for x in Z): the largest (0 when empty)",
    "min": "min(a, b), min(Z) or min(e for x in Z): the smallest (0 when empty)",
    "any": "any(c for x in Z): some element satisfies c",
    "all": "all(c for x in Z): every element satisfies c",
    "argmin": "argmin(key for x in L where c): the first x with the smallest key (none when none)",
    "argmax": "argmax(key for x in L where c): the first x with the largest key (none when none)",
    "abs": "abs(x): x without its sign",
    "number": "number(c): a condition as 1 or 0; an enum member as its number; a player as its seat",
    "first": "first(Z): the first element of a zone (none when empty)",
    "last": "last(Z): the last element, the top of a pile (none when empty)",
    "has": "has(Z, v) or has(Z, [a, b]): Z holds v, or a and b as different elements",
    "random": "random(n): a number from 0 to n - 1 (in setup and effects)",
    "die": "die(n): the face of a die of n faces, 1 to n (in setup and effects; logged as the face)",
    # grids: cells and geometry
    "cells": "cells(G): every cell of grid G; cells(G, \"d1\", c): the cells listed, by name or value",
    "empty_cells": "empty_cells(G): the cells of G that hold nothing",
    "filled_cells": "filled_cells(G[, v]): the cells of G that hold something (or v: a seat, a kind, a piece)",
    "is_empty": "is_empty(G, c): cell c of G holds nothing",
    "content": "content(G, c): what cell c of G holds (none when empty)",
    "cell": "cell(G, \"d4\") or cell(G, x, y): a cell by name, or by column and row from 0 (none off the board)",
    "column": "column(G, c): a cell's column, from the west, from 0",
    "row": "row(G, c): a cell's row, from the south, from 0",
    "lane": "lane(G, c): the lane of a cell (a board of lanes), from 0",
    "lanes": "lanes(G): the lanes of a board of lanes, as values (shown from 1)",
    "lane_count": "lane_count(G, l): how many elements lane l holds",
    "directions": "directions(G): the grid's directions, as values (shown by name)",
    "opposite": "opposite(G, d): the direction opposite d; opposite(G, c) on a mancala board: the house across",
    "neighbour": "neighbour(G, c, d[, n]): the next cell from c in direction d (or n steps on), none off the board",
    "neighbours": "neighbours(G, c[, F]): the cells next to c (that no wall of F separates from c)",
    "ray": "ray(G, c, d): the cells from c (not included) in direction d, up to the edge",
    "line": "line(G, c, d): the whole line through c along d, in order, c included",
    "slide": "slide(G, c, d): the empty cells from c in direction d up to the first filled one or the edge",
    "reach": "reach(G, c, d): slide(G, c, d) and then the first filled cell met, if any",
    "blocker": "blocker(G, c, d): the first filled cell from c in direction d (none at the edge)",
    "leaps": "leaps(G, c, m, n): the cells an (m, n) leaper reaches from c (a knight: 1, 2)",
    "edge_cells": "edge_cells(G, side): the cells along a side of the board (a member of its edges enum)",
    "sides": "sides(G, cells): the sides of the board along which some of the cells lie",
    "shade": "shade(G, c): on a square board, 0 for a1's shade of a chequering, 1 for the other",
    "lines": "lines(G[, c]): a board of points and lines: every line (or those through c), each a list of cells",
    # grids: what the pieces make
    "in_a_row": "in_a_row(G, v, n): n cells in a line hold v",
    "in_a_row_exactly": "in_a_row_exactly(G, v, n): a run of exactly n cells of v (an overline does not count)",
    "connected": "connected(G, v, A, B): a chain of cells holding v joins A to B (each a side or a list of cells)",
    "flanked": "flanked(G, c, v[, d]): the cells a piece v placed at c would outflank (in every direction, or d)",
    "chain": "chain(G, c): the cells joined to c through neighbours holding what c holds (a flood fill)",
    "liberties": "liberties(G, c): the empty cells next to c's chain",
    "ring": "ring(G, c): on hexagons, a loop of what c holds through c that never turns sharply (it surrounds a cell)",
    "along": "along(T, c, k): the cell k places further along track T from c (none past an end; round a loop)",
    "position": "position(T, c): where cell c lies on track T, from 0 (-1 off it)",
    "around": "around(G, cells): the cells next to some of the cells and not among them (a region's border)",
    "groups": "groups(G, min, wild[, real]): the groups of one member (or the wild one) of at least min cells",
    "largest_zone": "largest_zone(G, min, wild): the size of the largest such group",
    "placements": "placements(PAT, G, Z): where pattern PAT can drop into the lanes of G, turned and shifted",
    "line_moves": "line_moves(G, who[, max]): the line moves and pushes of who's pieces (Abalone-like)",
    "houses": "houses(G, p): seat p's houses on a mancala board",
    "store": "store(G, p): seat p's store on a mancala board",
    # walls between cells
    "wall": "wall(F, a, b): the place of walls F between cells a and b (none when they share no side)",
    "beside": "beside(F, w): the two cells wall place w stands between, the lower first",
    "distance": "distance(G, a, b, F): the fewest steps from a to b crossing no wall of F (-1: walled off)",
    "reachable": "reachable(G, a, b, F): some way leads from a to b crossing no wall of F",
    # the game's history
    "repeated": "repeated(places..., [me]): how many times before this position was reached (end conditions)",
    "since": "since(A): the turns gone by since one in which action A was played",
}
KIND_WORDS = {"Param": "param", "Enum": "enum", "Table": "table", "Zone": "zone", "Grid": "grid",
              "Counter": "counter", "Define": "define", "Step": "step", "Action": "action"}
SYMBOL_KINDS = {"Param": lsp.SymbolKind.Constant, "Enum": lsp.SymbolKind.Enum, "Table": lsp.SymbolKind.Struct,
                "Zone": lsp.SymbolKind.Array, "Grid": lsp.SymbolKind.Array, "Counter": lsp.SymbolKind.Variable,
                "Define": lsp.SymbolKind.Function, "Step": lsp.SymbolKind.Event, "Action": lsp.SymbolKind.Method,
                "Turn": lsp.SymbolKind.Namespace, "Setup": lsp.SymbolKind.Constructor, "Score": lsp.SymbolKind.Object,
                "Winner": lsp.SymbolKind.Object, "End": lsp.SymbolKind.Event, "Invariant": lsp.SymbolKind.Boolean,
                "Notice": lsp.SymbolKind.String,
                "Game": lsp.SymbolKind.Module}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


# ---- what a text declares -------------------------------------------------------------------
class Declared:
    """A declared name: its kind, where its name is written (0-based line and column), its
    doc comment and a one-line summary of the declaration."""

    def __init__(self, name: str, kind: str, uri: str, line: int, column: int, doc: str | None, summary: str):
        self.name, self.kind, self.uri, self.line, self.column = name, kind, uri, line, column
        self.doc, self.summary = doc, summary


def declarations(uri: str, text: str) -> dict[str, Declared]:
    """The names a file declares (and those of the files it extends, under their own uris)."""
    try:
        rules = parse(text, str(path_of(uri)))
    except RulesError as err:
        if err.partial is None:
            return {}
        rules = err.partial[0]
    out: dict[str, Declared] = {}
    lines = text.splitlines()
    for decl in rules.decls:
        if isinstance(decl, ast.Extend):
            base = (path_of(uri).parent / decl.path)
            if base.is_file() and base != path_of(uri):
                inner = declarations(base.as_uri(), base.read_text(encoding="utf-8"))
                out.update({k: v for k, v in inner.items() if k not in out})
        kind = type(decl).__name__
        if kind in KIND_WORDS and getattr(decl, "name", ""):
            out[decl.name] = _declared(decl, kind, uri, lines)
        if isinstance(decl, ast.Game):  # seat names: what hover and go-to-definition find
            for i, (name, where) in enumerate(zip(decl.seats, decl.seats_pos)):
                seat = SimpleNamespace(name=name, pos=where, doc=None)
                out.setdefault(name, _declared(seat, "Seat", uri, lines, f"seat {name} (P{i + 1})"))
        if isinstance(decl, ast.Enum):
            for member in decl.members:
                out.setdefault(member.name, _declared(member, "Member", uri, lines, f"member of enum {decl.name}"))
        if isinstance(decl, ast.Turn):
            for step in decl.steps:
                out[step.name] = _declared(step, "Step", uri, lines)
                for choice in getattr(step, "choices", []):
                    if isinstance(choice, ast.Action):
                        out[choice.name] = _declared(choice, "Action", uri, lines)
    return out


def _declared(node, kind: str, uri: str, lines: list[str], summary: str | None = None) -> Declared:
    line, column = node.pos[0] - 1, node.pos[1] - 1
    text = lines[line] if 0 <= line < len(lines) else ""
    found = re.compile(rf"\b{re.escape(node.name)}\b").search(text, max(column, 0))
    if found:
        column = found.start()
    if summary is None:
        summary = text.strip()
        if kind == "Define" and node.block is not None:
            summary = f"define {node.name}({', '.join(node.params)}) {{ ... }}"
        elif kind == "Define":
            head = node.name if node.bare else f"{node.name}({', '.join(node.params)})"
            summary = f"define {head} = {expr(node.body)}"
        elif kind == "Action":
            summary = f"action {node.name}(" + ", ".join(binding_text(b) for b in node.params) + ")"
    return Declared(node.name, kind, uri, line, column, getattr(node, "doc", None), summary)


# ---- where a name is used --------------------------------------------------------------------
def occurrences(text: str, name: str) -> list[tuple[int, int]]:
    """(line, column), 0-based, of each use of ``name`` as a name: not in comments, and in texts
    only as a ``{name}`` placeholder (or ``{name.column}``, ``{name:symbol}``)."""
    out = []
    word = re.compile(rf"\b{re.escape(name)}\b")
    for i, line in enumerate(text.splitlines()):
        if line.lstrip().startswith("///"):
            continue
        for part, in_string, start in _segments(line):
            if in_string:
                for m in re.finditer(r"\{([^{}]*)\}", part):
                    head = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", m.group(1))
                    if head and head.group(1) == name:
                        out.append((i, start + m.start(1) + head.start(1)))
            else:
                out += [(i, start + m.start()) for m in word.finditer(part)]
    return out


def _segments(line: str):
    """(text, is inside a string, column) pieces of a line, up to a comment."""
    i, start, in_string = 0, 0, False
    while i < len(line):
        c = line[i]
        if in_string and c == "\\":
            i += 2
            continue
        if c == '"':
            yield line[start:i], in_string, start
            in_string, start = not in_string, i + 1
        elif c == "#" and not in_string:
            yield line[start:i], False, start
            return
        i += 1
    yield line[start:], in_string, start


def word_at(text: str, line: int, character: int) -> str | None:
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    for m in _NAME.finditer(lines[line]):
        if m.start() <= character <= m.end():
            return m.group()
    return None


# ---- diagnostics ---------------------------------------------------------------------------
def diagnostics(uri: str, text: str) -> list[lsp.Diagnostic]:
    from regle.compiler.generate import lower
    path = path_of(uri)
    out: list[lsp.Diagnostic] = []
    try:
        lower(text, str(path), path.stem or "rules")
        found = []
    except RulesError as err:
        found = err.diagnostics
    except Exception as exc:  # noqa: BLE001 - an editor must never lose its server
        return [lsp.Diagnostic(range=_range(0, 0, 1), message=f"regle could not check this file: {exc}",
                               severity=lsp.DiagnosticSeverity.Error, source="regle")]
    lines = text.splitlines()
    for d in found:
        if d.file and Path(d.file).resolve() != path.resolve():
            where = f"{Path(d.file).name}:{d.line}:{d.column}: "  # in a file this one extends
            line, column = 0, 0
        else:
            where, line, column = "", max(d.line - 1, 0), max(d.column - 1, 0)
        width = len(m.group()) if (line < len(lines) and (m := _NAME.match(lines[line], column))) else 1
        severity = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}.get(
            d.severity, lsp.DiagnosticSeverity.Information)
        message = where + d.message + (f"\n{d.hint}" if d.hint else "")
        out.append(lsp.Diagnostic(range=_range(line, column, width), message=message, severity=severity,
                                  source="regle"))
    return out


def _range(line: int, column: int, width: int) -> lsp.Range:
    return lsp.Range(start=lsp.Position(line=line, character=column),
                     end=lsp.Position(line=line, character=column + width))


#: checks run on one thread of their own, so that the server answers hovers and completions
#: meanwhile; per document, only the newest text asked for is checked and published
_CHECKS = ThreadPoolExecutor(1, thread_name_prefix="regle-check")
_asked: dict[str, object] = {}


async def _publish(ls: LanguageServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    text, version = document.source, document.version
    _asked[uri] = ticket = object()  # a newer edit replaces it: this check is then skipped or dropped

    def check() -> list[lsp.Diagnostic] | None:
        return diagnostics(uri, text) if _asked.get(uri) is ticket else None
    found = await asyncio.get_running_loop().run_in_executor(_CHECKS, check)
    if found is None or _asked.get(uri) is not ticket:
        return
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=found))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    await _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    await _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    await _publish(ls, params.text_document.uri)


# ---- hover, definition, references, rename ---------------------------------------------------
@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    document = ls.workspace.get_text_document(params.text_document.uri)
    name = word_at(document.source, params.position.line, params.position.character)
    if name is None:
        return None
    declared = declarations(document.uri, document.source).get(name)
    if declared is not None:
        head = f"**{KIND_WORDS.get(declared.kind, 'enum member')}** `{name}`"
        body = f"```regle\n{declared.summary}\n```" + (f"\n\n{declared.doc}" if declared.doc else "")
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=f"{head}\n\n{body}"))
    if name in BUILTIN_DOCS or name in BUILTINS:
        text = BUILTIN_DOCS.get(name, f"{name}(...): a built-in function (see docs/language.md)")
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=f"**built-in** `{text}`"))
    if name in KEYWORDS or name in CONSTANTS:
        from regle.words import CONSTANT_DOCS, KEYWORD_DOCS
        what, text = ("keyword", KEYWORD_DOCS.get(name)) if name in KEYWORDS else ("value", CONSTANT_DOCS.get(name))
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown,
                                                    value=f"**{what}** `{name}`: {text or 'see docs/language.md'}"))
    return None


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: LanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    document = ls.workspace.get_text_document(params.text_document.uri)
    name = word_at(document.source, params.position.line, params.position.character)
    declared = declarations(document.uri, document.source).get(name or "")
    if declared is None:
        return None
    return lsp.Location(uri=declared.uri, range=_range(declared.line, declared.column, len(name)))


def _files(ls: LanguageServer, uri: str) -> dict[str, str]:
    """The text of a file and of the files it extends (open documents as the editor has them)."""
    out: dict[str, str] = {}

    def add(u: str) -> None:
        if u in out:
            return
        document = ls.workspace.get_text_document(u)
        try:
            text = document.source
        except Exception:  # noqa: BLE001 - a file the editor has not opened
            text = path_of(u).read_text(encoding="utf-8")
        out[u] = text
        for extended in re.findall(r'^\s*extend\s+"([^"]+)"', text, re.M):
            base = path_of(u).parent / extended
            if base.is_file():
                add(base.resolve().as_uri())
    add(uri)
    return out


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: LanguageServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    document = ls.workspace.get_text_document(params.text_document.uri)
    name = word_at(document.source, params.position.line, params.position.character)
    if name is None or name not in declarations(document.uri, document.source):
        return []
    return [lsp.Location(uri=u, range=_range(line, column, len(name)))
            for u, text in _files(ls, document.uri).items() for line, column in occurrences(text, name)]


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: LanguageServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    document = ls.workspace.get_text_document(params.text_document.uri)
    name = word_at(document.source, params.position.line, params.position.character)
    if name is None or name not in declarations(document.uri, document.source):
        return None
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", params.new_name) or params.new_name in KEYWORDS:
        raise ValueError(f"{params.new_name!r} cannot name anything in the rules language")
    changes = {u: [lsp.TextEdit(range=_range(line, column, len(name)), new_text=params.new_name)
                   for line, column in occurrences(text, name)]
               for u, text in _files(ls, document.uri).items()}
    return lsp.WorkspaceEdit(changes={u: edits for u, edits in changes.items() if edits})


# ---- completion, outline, formatting ---------------------------------------------------------
@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"', "(", " "]))
def completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    document = ls.workspace.get_text_document(params.text_document.uri)
    lines = document.source.splitlines()
    line = lines[params.position.line] if params.position.line < len(lines) else ""
    before = line[:params.position.character]
    if before.count('"') % 2 == 1:  # inside a text: the cells and directions of the grid named before it
        return lsp.CompletionList(is_incomplete=False, items=_cells(document, before))
    items = [lsp.CompletionItem(label=k, kind=lsp.CompletionItemKind.Keyword) for k in KEYWORDS]
    items += [lsp.CompletionItem(label=c, kind=lsp.CompletionItemKind.Constant) for c in CONSTANTS]
    items += [lsp.CompletionItem(label=b, kind=lsp.CompletionItemKind.Function, detail=BUILTIN_DOCS.get(b))
              for b in BUILTINS]
    for name, d in declarations(document.uri, document.source).items():
        items.append(lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Variable,
                                        detail=d.summary, documentation=d.doc))
    return lsp.CompletionList(is_incomplete=False, items=items)


def _cells(document, before: str) -> list[lsp.CompletionItem]:
    """The cells and directions of the grid named last before the cursor, from the checked
    declarations (the file is being typed: the rest of it need not be right)."""
    from regle.compiler.check.checker import Checker
    from regle.dsl.errors import Source
    from regle.dsl.variants import resolve
    path = path_of(document.uri)
    try:
        rules = parse(document.source, str(path))
    except RulesError as err:
        if err.partial is None:
            return []
        rules = err.partial[0]
    try:
        rules, _ = resolve(rules, Source(document.source, str(path)))
        grids = Checker(rules).run().grids
    except (RulesError, OSError):
        return []
    named = [n for n in _NAME.findall(before) if n in grids]
    if not named:
        return []
    grid = grids[named[-1]]
    return ([lsp.CompletionItem(label=n, kind=lsp.CompletionItemKind.Value, detail=f"a cell of {grid.name}")
             for n in grid.geo.cell_names()]
            + [lsp.CompletionItem(label=d, kind=lsp.CompletionItemKind.EnumMember, detail="a direction")
               for d in grid.geo.dirs])


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def symbols(ls: LanguageServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    document = ls.workspace.get_text_document(params.text_document.uri)
    try:
        rules = parse(document.source, str(path_of(document.uri)))
    except RulesError as err:
        if err.partial is None:
            return []
        rules = err.partial[0]
    count = len(document.source.splitlines())

    def symbol(node, name: str, children=()) -> lsp.DocumentSymbol:
        line = node.pos[0] - 1
        where = _range(line, 0, 1)
        return lsp.DocumentSymbol(name=name, kind=SYMBOL_KINDS.get(type(node).__name__, lsp.SymbolKind.Object),
                                  range=lsp.Range(start=where.start, end=lsp.Position(line=min(line + 1, count), character=0)),
                                  selection_range=where, children=list(children) or None)
    out = []
    for decl in rules.decls:
        kind = type(decl).__name__
        if isinstance(decl, ast.Turn):
            steps = [symbol(s, f"step {s.name}", [symbol(c, f"action {c.name}") for c in getattr(s, "choices", [])
                                                  if isinstance(c, ast.Action)]) for s in decl.steps]
            out.append(symbol(decl, "turn", steps))
        elif getattr(decl, "name", ""):
            out.append(symbol(decl, f"{KIND_WORDS.get(kind, kind.lower())} {decl.name}"))
        elif kind in SYMBOL_KINDS:
            label = f'notice "{decl.text}"' if isinstance(decl, ast.Notice) else kind.lower()
            out.append(symbol(decl, {"End": "end when", "Game": "game"}.get(kind, label)))
    return out


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: LanguageServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    document = ls.workspace.get_text_document(params.text_document.uri)
    try:
        formatted = format_text(document.source, str(path_of(document.uri)))
    except RulesError:
        return []  # a file that does not parse is left as it is (its diagnostics say why)
    if formatted == document.source:
        return []
    lines = document.source.splitlines()
    end = lsp.Position(line=len(lines), character=0)
    return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=formatted)]


def main() -> None:
    server.start_io()
