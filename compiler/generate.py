"""Rules text -> engine module source: parse, check, lower, render the template, verify."""
from __future__ import annotations

import hashlib
import threading
from functools import lru_cache
from pathlib import Path

import attrs
import jinja2

from regle.dsl import ast

from regle.dsl import RulesError, Source, parse
from regle.dsl.errors import Diagnostic
from regle.dsl.variants import resolve

from .check.bare_calls import call_bare_defines
from .check.checker import LIMITS, Checker
from .ir.game import GameIR
from .lower.exprs import TooMuchWork
from .lower.grids import MEMO_VALUES
from .lower.lowerer import Lowerer, work_budget
from .write.emit import runtime_call
from .write.emit_native import history_key
from .write.xray import FILL_NAMES
from .write.safety import literal, verify
from .write.written import write_game

TEMPLATES = Path(__file__).parent / "write" / "templates"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined, autoescape=False,
    )
    env.filters["py"] = literal
    env.globals["c_def"] = c_def
    env.globals["history_key"] = history_key  # natively a position's key computed in C
    env.globals["FILL_NAMES"] = FILL_NAMES  # the names a remembered walk keeps per cell passed (write/xray.py)
    env.globals["MEMO_VALUES"] = MEMO_VALUES  # the values an end condition's memo of lines remembers
    env.filters["arg_ctype"] = arg_ctype
    env.filters["arities"] = lambda counts: bytes(min(c, 255) for c in counts) + b"\0"
    env.filters["ints"] = ints_text
    env.filters["int_lists"] = int_lists_text
    env.filters["words"] = words_text
    # a numbered grid's cells by number, as a list (-1 where no cell has the number)
    env.filters["by_number"] = lambda cells: [cells.get(i, -1) for i in range(max(cells, default=0) + 1)]
    env.filters["points"] = points_text
    return env


# Data whose size grows with a board is written as one string each (decoded once when the
# engine is imported, by regle.runtime.ops), so neither the engine's source nor the C a
# native build compiles grows with the board.
# (``rt`` names a runtime helper as the engine being written calls it: see runtime_call)
def ints_text(values: list[int], rt=str) -> str:
    return rt("ops.ints") + "(" + literal(" ".join(str(int(v)) for v in values)) + ")"


def int_lists_text(lists: list[list[int]], rt=str) -> str:
    if lists == [[]]:  # the one case the text cannot tell from no list at all
        return "[[]]"
    return rt("ops.int_lists") + "(" + literal(";".join(" ".join(str(int(v)) for v in one) for one in lists)) + ")"


def words_text(names: list[str], rt=str) -> str:
    """Names joined by a separator none of them holds (a list literal where none is free)."""
    for sep in (" ", "|", "/", ";", "\x1f"):
        if names and all(n and sep not in n for n in names):
            return f"{rt('ops.words')}({literal(sep.join(names))}, {literal(sep)})"
    return literal(list(names))


def points_text(layout: tuple, rt=str) -> str:
    """A grid's drawing: its cell shape and the centres, as ``(shape, ops.points("x y x y"))``."""
    shape, centres = layout
    text = " ".join(f"{float(x)!r} {float(y)!r}" for x, y in centres)
    return f"({literal(shape)}, {rt('ops.points')}({literal(text)}))"


def arg_ctype(kind: str) -> str:
    """The C type of an action's argument in a native engine, by its display kind: a C long for
    numbers, seats, enum members, table items and cells; a Python object otherwise."""
    return "long" if kind in ("int", "player") or kind.startswith(("enum:", "item:", "cell:")) else "object"


def c_def(name: str, params: list[str], ctypes: list[str], result: str) -> str:
    """The head of a native function or method: ``long _agg_1_sum(long p_) except? -1``. A C
    result reports an error by a value that is then checked (-1: a C long can also be -1)."""
    args = ", ".join(p if t == "object" else f"{t} {p}" for p, t in zip(params, ctypes))
    if result == "long":
        return f"long {name}({args}) except? -1"
    if result == "bint":
        return f"bint {name}({args}) except -1"
    return f"{name}({args})"


def lower(text: str, filename: str = "<rules>", name: str | None = None, native: bool = False) -> GameIR:
    """Parse, check and lower a rules text; raise RulesError with every problem found. The
    trees are the same for both engines; ``native`` marks the game to be written for the native
    engine (compiler/write/written.py: aggregates as methods with C loops, C forms)."""
    source = Source(text, filename)
    try:
        rules = parse(text, filename)
    except RulesError as err:
        if err.partial is None:
            raise
        # check what did parse, to report its mistakes too, minus cascades from the rest
        rules, failed = err.partial
        diags = list(err.diagnostics)
        if not any(isinstance(d, ast.Extend) for d in rules.decls):
            found = _check(rules, source, {}, name or Path(filename).stem, text)[1]
            diags += [d for d in found if not _cascade(d, failed)]
        raise RulesError(_unique(diags), err.source) from None
    rules, sources = resolve(rules, source)
    ir, diags = _check(rules, source, sources, name or Path(filename).stem,
                       text + "".join(s.text for s in sources.values()), native)
    if diags:
        raise RulesError(_unique(diags), source, sources)
    return ir


def _check(rules, source: Source, sources: dict, name: str, text: str,
           native: bool = False) -> tuple[GameIR, list[Diagnostic]]:
    early = call_bare_defines(rules)  # `total` for `total()`: one form for every stage after
    checker = Checker(rules)
    sym = checker.run()
    diags = early + list(checker.diags)
    try:
        ir = Lowerer(rules, sym, source, diags, sources, native).build(name, rules_hash(text))
    except TooMuchWork as stop:  # refused at once, where the work multiplies
        what = (f"this use of '{stop.node.func}' expands" if isinstance(stop.node, ast.Call)
                else "this expression expands")
        diags.append(Diagnostic.at(
            f"{what} into too much to check: more than {work_budget(rules):,} expressions for a text of this size",
            stop.node.pos, "a define that uses another define several times, nested, doubles the work at "
                           "each level: compute a value once with let (define f(c) = let v = g(c) then ...)"))
        return None, diags
    return ir, diags


def _cascade(d: Diagnostic, failed: set[str]) -> bool:
    """Whether a checker finding may only come from a declaration that did not parse."""
    m = d.message
    if "declare no game" in m or "declare no turn" in m:
        return bool({"game", "turn"} & failed)
    return any(f"'{name}'" in m for name in failed)


def _unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen, out = set(), []
    for d in diags:
        key = (d.file, d.line, d.column, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def rules_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def render(ir: GameIR, native: bool = False) -> str:
    """The engine module's source: Python, or with ``native`` the same engine as Cython source
    (the lowered game's trees written first, by its own emitter: compiler/write/written.py)."""
    from regle import __version__
    if not ir.written:
        ir = write_game(ir)
    bound: dict[str, str] = {}  # the helpers the template's own code calls, natively

    def rt(qualified: str) -> str:
        return runtime_call(qualified, native, bound)

    def bound_calls() -> dict[str, str]:  # what the module's head binds: the lowering's and the template's
        return dict(sorted({**ir.bound_calls, **bound}.items())) if native else {}
    return _environment().get_template("engine.py.j2").render(g=ir, version=__version__, native=native, rt=rt,
                                                              bound_calls=bound_calls)


def engine_source(text: str, filename: str = "<rules>", name: str | None = None) -> str:
    """The engine module's Python source for a rules text."""
    return _sources(text, filename, name, native=False)


def native_source(text: str, filename: str = "<rules>", name: str | None = None) -> str:
    """The engine module's Cython source for a rules text: the same template rendered with
    typed fields and compiled methods. The Python source of the same lowering is verified first,
    and the Cython source differs from it only by the template's own fixed text."""
    return _sources(text, filename, name, native=True)


#: one generation at a time: CPython 3.11's ast module is not safe to run in two threads at
#: once ("AST constructor recursion depth mismatch"), and generation holds the GIL anyway
_GENERATING = threading.Lock()


def _sources(text: str, filename: str, name: str | None, native: bool) -> str:
    with _GENERATING:
        return _generate(text, filename, name, native)


def _generate(text: str, filename: str, name: str | None, native: bool) -> str:
    ir = lower(text, filename, name)  # the same trees for both engines
    code = render(ir)
    if len(code) > LIMITS["engine_bytes"]:
        raise RulesError([Diagnostic(f"the engine of these rules would be {len(code):,} characters of Python "
                                     f"(the limit is {LIMITS['engine_bytes']:,})", 1, 1,
                                     "fewer or smaller tables, grids and defines")], Source(text, filename))
    verify(code)
    if not native:
        return code
    # written natively (aggregates as methods, C forms), verified as Python too, then laid out typed
    ir = write_game(attrs.evolve(ir, native_lowered=True))  # once, for both layouts
    verify(render(ir))
    return render(ir, native=True)  # written natively by its emitter and the template: no pass over it
