"""Variants: a rules file that ``extend``s another and ``override``s some of its declarations.

``resolve`` turns such a file into one rule set: the base's declarations, in the base's order,
with overridden ones replaced in place and new ones added at the end. Nodes that come from a
base file keep their file in their position (``(line, column, file)``) so that messages point
into the right file.
"""
from __future__ import annotations

import os
from pathlib import Path

import attrs

from . import ast
from .errors import Diagnostic, RulesError, Source
from .files import SEARCH_PATH_VARIABLE, UnreadableFile, extend_target, read_limited

MAX_DEPTH = 8


def resolve(rules: ast.Rules, source: Source, _seen: tuple = (), _top: str | None = None
            ) -> tuple[ast.Rules, dict[str, Source]]:
    """Merge ``rules`` with the files it extends; returns (rules, sources of the other files).
    Extended files are found relative to the extending file and must lie inside the project
    of the top file (see :mod:`regle.dsl.files`)."""
    from .parser import _decode, parse  # local: parser imports this module's users
    top = source.filename if _top is None else _top

    extends = [d for d in rules.decls if isinstance(d, ast.Extend)]
    if not extends:
        stray = [d for d in rules.decls if getattr(d, "override", False)]
        if stray:
            raise RulesError([Diagnostic.at("'override' changes a declaration of the file this one extends, "
                                            "but this file extends none", stray[0].pos,
                                            'add extend "base.rules" at the top, or remove override')], source)
        return rules, {}
    diags: list[Diagnostic] = []
    for extra in extends[1:]:
        diags.append(Diagnostic.at("a rules file may extend one other file", extra.pos))
    ext = extends[0]
    try:
        path = extend_target(ext.path, source.filename, top)
    except UnreadableFile as exc:
        raise RulesError([Diagnostic.at(f"cannot extend: {exc}", ext.pos, f"keep base files inside the project "
                                        f"folder, or list their folder in {SEARCH_PATH_VARIABLE}")], source) from None
    key = str(path)
    if key in _seen:
        raise RulesError([Diagnostic.at(f"'{ext.path}' extends this file again: a circle of extends", ext.pos)],
                         source)
    if len(_seen) >= MAX_DEPTH:
        raise RulesError([Diagnostic.at(f"more than {MAX_DEPTH} files extend one another", ext.pos)], source)
    shown = _shown_path(path, source.filename, ext.path)
    try:
        data = read_limited(path)
    except UnreadableFile as exc:
        raise RulesError([Diagnostic.at(f"cannot read '{ext.path}': {exc}", ext.pos,
                                        "the path is relative to this file's folder")], source) from None
    base_source = _decode(data, shown)
    base = parse(base_source.text, shown)
    base, sources = resolve(base, base_source, _seen + (key,), top)
    _tag(base, shown)
    sources[shown] = base_source
    merged = merge(base.decls, [d for d in rules.decls if not isinstance(d, ast.Extend)], shown, diags)
    if diags:
        raise RulesError(diags, source, sources)
    return ast.Rules(decls=merged, filename=rules.filename, pos=rules.pos), sources


def _shown_path(path: Path, filename: str, written: str) -> str:
    """How messages name a base file: as the extending file's folder joined with what was
    written (``variants/../base.rules`` as ``base.rules``), which is how authors find it."""
    here = Path(filename).parent if not filename.startswith("<") else Path(".")
    return os.path.normpath(str(here / written))


def _key(decl: ast.Node):
    if isinstance(decl, (ast.Param, ast.Enum, ast.Table, ast.Zone, ast.Grid, ast.Counter, ast.Invariant,
                         ast.Define)):
        return (type(decl).__name__, decl.name)
    if isinstance(decl, (ast.Game, ast.Setup, ast.Turn, ast.Score, ast.Winner)):
        return (type(decl).__name__,)
    if isinstance(decl, ast.Notice):  # a notice is named by its words
        return ("Notice", decl.text)
    return None


def _what(decl: ast.Node) -> str:
    kind = type(decl).__name__.lower()
    name = getattr(decl, "name", "")
    return f"{kind} {name}".strip()


def merge(base: list, child: list, base_name: str, diags: list[Diagnostic]) -> list:
    """The base's declarations with the child's overrides applied and additions appended."""
    out = list(base)
    index = {_key(d): i for i, d in enumerate(out) if _key(d) is not None}
    ends_replaced = False
    for decl in child:
        key = _key(decl)
        at = decl.name_pos if getattr(decl, "name_pos", (0,))[0] else decl.pos
        if isinstance(decl, ast.Step):
            if not decl.override:
                diags.append(Diagnostic.at("a step belongs in the turn", decl.pos,
                                           f"to replace the step of {base_name}, write override step {decl.name} ..."))
                continue
            if not _replace_step(out, decl):
                diags.append(Diagnostic.at(f"{base_name} has no step '{decl.name}' to override", decl.pos))
            continue
        if isinstance(decl, ast.End):
            if decl.override and not ends_replaced:
                out = [d for d in out if not isinstance(d, ast.End)]
                ends_replaced = True
            out.append(decl)
            continue
        if decl.override:
            if key not in index:
                diags.append(Diagnostic.at(f"{base_name} has no {_what(decl)} to override", at,
                                           "check the name, or remove 'override' to add a new declaration"))
                continue
            old = out[index[key]]
            decl.doc = decl.doc if decl.doc is not None else old.doc
            out[index[key]] = decl
            continue
        if key is not None and key in index:
            old = out[index[key]]
            line = old.pos[0]
            diags.append(Diagnostic.at(f"{_what(decl)} is already declared in {base_name} (line {line})", at,
                                       f"write 'override {_what(decl).split()[0]} ...' to change it"))
            continue
        out.append(decl)
        if key is not None:
            index[key] = len(out) - 1
    return out


def _replace_step(decls: list, step: ast.Step) -> bool:
    for decl in decls:
        if isinstance(decl, ast.Turn):
            for i, old in enumerate(decl.steps):
                if old.name == step.name:
                    if step.doc is None:
                        step.doc = old.doc
                    decl.steps[i] = step
                    return True
    return False


def _tag(node, file: str) -> None:
    """Record ``file`` in the position of every node of a base file (once: deeper bases keep theirs)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not isinstance(n, ast.Node):
            continue
        for field in ("pos", "name_pos", "players_pos"):
            value = getattr(n, field, None)
            if value and len(value) == 2 and value[0]:
                setattr(n, field, (value[0], value[1], file))
        for f in attrs.fields(type(n)):
            v = getattr(n, f.name)
            if isinstance(v, (ast.Node, list, tuple)):
                stack.append(v)
