"""Rules text -> engine module source: parse, check, lower, render the template, verify."""
from __future__ import annotations

import hashlib
import re
import threading
from functools import lru_cache
from pathlib import Path

import jinja2

from regle.dsl import ast

from regle.dsl import RulesError, Source, parse
from regle.dsl.errors import Diagnostic
from regle.dsl.variants import resolve

from .checker import LIMITS, Checker
from .ir import GameIR
from .lower import Lowerer, share_cell_lists
from .safety import literal, verify

_STATE_READ = re.compile(r"\bs\.([zg]_\w+)(\[me\])?")

TEMPLATES = Path(__file__).with_name("templates")


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined, autoescape=False,
    )
    env.filters["py"] = literal
    env.filters["hoist"] = hoist_reads
    env.filters["move_list"] = move_list
    env.filters["keyed_moves"] = keyed_moves
    env.filters["share"] = share_cell_lists
    env.globals["c_def"] = c_def
    env.filters["arg_ctype"] = arg_ctype
    env.filters["arities"] = lambda counts: bytes(min(c, 255) for c in counts) + b"\0"
    env.filters["ints"] = ints_text
    env.filters["int_lists"] = int_lists_text
    env.filters["words"] = words_text
    env.filters["points"] = points_text
    return env


# Data whose size grows with a board is written as one string each (decoded once when the
# engine is imported, by regle.runtime.ops), so neither the engine's source nor the C a
# native build compiles grows with the board.
def ints_text(values: list[int]) -> str:
    return "ops.ints(" + literal(" ".join(str(int(v)) for v in values)) + ")"


def int_lists_text(lists: list[list[int]]) -> str:
    if lists == [[]]:  # the one case the text cannot tell from no list at all
        return "[[]]"
    return "ops.int_lists(" + literal(";".join(" ".join(str(int(v)) for v in one) for one in lists)) + ")"


def words_text(names: list[str]) -> str:
    """Names joined by a separator none of them holds (a list literal where none is free)."""
    for sep in (" ", "|", "/", ";", "\x1f"):
        if names and all(n and sep not in n for n in names):
            return f"ops.words({literal(sep.join(names))}, {literal(sep)})"
    return literal(list(names))


def points_text(layout: tuple) -> str:
    """A grid's drawing: its cell shape and the centres, as ``(shape, ops.points("x y x y"))``."""
    shape, centres = layout
    text = " ".join(f"{float(x)!r} {float(y)!r}" for x, y in centres)
    return f"({literal(shape)}, ops.points({literal(text)}))"


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


def hoist_reads(lines: list[str]) -> list[str]:
    """A method body with each zone or grid of the state it reads twice or more
    (``s.z_hand[me]``) bound to a local once (``z_hand__me``), at the top: fewer lookups on
    every move. Safe because a zone's or grid's list never changes identity after the state is
    built (only its contents do), and ``me`` is fixed for the whole method."""
    counts: dict[str, int] = {}
    for line in lines:
        if not line.lstrip().startswith("#"):
            for m in _STATE_READ.finditer(line):
                counts[m.group()] = counts.get(m.group(), 0) + 1
    names = {text: m.group(1) + ("__me" if m.group(2) else "")  # "__": no zone name holds it
             for text in counts if counts[text] > 1 for m in [_STATE_READ.fullmatch(text)]}
    if not names:
        return lines
    replace = lambda m: names.get(m.group(), m.group())  # noqa: E731
    head = [f"{local} = {text}  # read once" for text, local in names.items()]
    return head + [line if line.lstrip().startswith("#") else _STATE_READ.sub(replace, line) for line in lines]


_SIZE = re.compile(r"\blen\(([zg]_\w+)\)")


def _hoist_sizes(lines: list[str]) -> list[str]:
    """In a move generator (which changes nothing), the size of a zone read twice or more is
    taken once, after the zones are read: ``n_z_hand__me = len(z_hand__me)``."""
    zones = {line.split(" = ")[0] for line in lines if line.endswith("# read once")}
    counts: dict[str, int] = {}
    for line in lines:
        if not line.lstrip().startswith("#"):
            for m in _SIZE.finditer(line):
                if m.group(1) in zones:  # a zone read once at the top, never a rules local
                    counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    names = [name for name, n in counts.items() if n > 1]
    if not names:
        return lines
    top = sum(1 for line in lines if line.endswith("# read once"))
    body = [line if line.lstrip().startswith("#") else
            _SIZE.sub(lambda m: f"n_{m.group(1)}" if m.group(1) in names else m.group(), line)
            for line in lines[top:]]
    return lines[:top] + [f"n_{name} = len({name})  # taken once" for name in names] + body


def keyed_moves(step) -> dict | None:
    """For the native engine: how a step fills a buffer of keys (C numbers) instead of a list of
    move tuples, so that a random playout makes only the move it picks. A step whose moves are
    one action's keys from one kernel (``K.line_move_keys(..., tag)``, ``K.tagged(tag,
    numbers)``) keeps that kernel's keys (``tag``: the action); any other whose actions take at
    most two arguments packs each move into a key (``tag`` None, see ``packed_lines``). None
    for the steps that keep their list (automatic and optional steps, shared conditions)."""
    if step.kind in ("auto", "optional") or step.shared_code:
        return None
    lines = move_list(sum((a.gen_lines for a in step.actions), []))
    code = [line for line in lines if not line.lstrip().startswith("#")]
    last = code[-1] if code else ""
    args = _call_args(last, "return K.line_move_keys(")
    if args is not None and len(args) == 6 and re.fullmatch(r"\d+", args[5]):
        fill = f"return K.line_keys_into({', '.join(args[:5])}, &s._keys, &s._keys_cap)"
        return {"tag": args[5], "lines": [fill if line is last else line for line in lines]}
    args = _call_args(last, "return K.tagged(")
    if args is not None and len(args) == 2 and re.fullmatch(r"\d+", args[0]):
        fill = f"return K.keys_into({args[1]}, &s._keys, &s._keys_cap)"
        return {"tag": args[0], "lines": [fill if line is last else line for line in lines]}
    if any(len(a.arg_names) > 2 or a.index >= KEY_TAGS or "bool" in a.arg_kinds for a in step.actions):
        return None  # a truth as an argument would come back from its key as a number
    packed = packed_lines(lines)
    return None if packed is None else {"tag": None, "lines": packed}


#: packed keys: the action in the low 8 bits, then each argument in 27 bits (from -2**26)
KEY_TAGS = 256
PAIRS_ROOM, HELD_ROOM = 128, 64  # C arrays of the pairs of a zone and the items held, in _keys_N
_PAIRS_LOOP = re.compile(r"^( *)for (\w+), (\w+) in K\.distinct_pairs\((.*)\):$")
_ADD = re.compile(r"^( *)_add\((.*)\)$")
_EXTEND = re.compile(r"^( *)_extend\((.*)\)$")
_RETURN = re.compile(r"^( *)return (.*)$")


def _distinct_of(arg: str, lines: list[str]) -> str | None:
    """The zone whose distinct values ``arg`` is: ``dict.fromkeys(Z)`` itself, or a name set to
    that once in ``lines`` (a hoisted source)."""
    m = re.fullmatch(r"dict\.fromkeys\(([\w.\[\]]+)\)", arg)
    if m:
        return m[1]
    if re.fullmatch(r"_src\d+_\d+", arg):
        for line in lines:
            m = re.fullmatch(rf" *{arg} = dict\.fromkeys\(([\w.\[\]]+)\)", line)
            if m:
                return m[1]
    return None


def packed_lines(lines: list[str]) -> list[str] | None:
    """A move generator's lines rewritten to push packed keys into the state's buffer
    (``_push(s, tag, a, b)``; the kernels that list moves go through ``_push_tagged``,
    ``_push_product``, ``_push_cells`` or ``_push_moves``). Returns how many keys, or -2 when
    an argument did not fit a key (then the engine uses the list). None when the list is used
    otherwise (then the step keeps it)."""
    out = ["s._nkeys = 0", "s._keys_wide = False"]
    decls: list[str] = []  # C arrays of the method, declared at its top
    for line in lines:
        if line.lstrip().startswith("#"):
            out.append(line)
        elif line in ("out = []", "_add = out.append", "_extend = out.extend"):
            continue
        elif _PAIRS_LOOP.match(line):
            out += _pairs_in_c(_PAIRS_LOOP.match(line), decls)
        elif _ADD.match(line):
            out.append(_pushed_move(*_ADD.match(line).groups()))
        elif _EXTEND.match(line) or (_RETURN.match(line) and line.strip() != "return out"):
            indent, moves = (_EXTEND.match(line) or _RETURN.match(line)).groups()
            pushed = _pushed_moves(indent, moves, lines, decls)
            if pushed is None:
                return None
            out += pushed
            if line.lstrip().startswith("return "):
                out.append(f"{indent}return -2 if s._keys_wide else s._nkeys")
        elif line.strip() == "return out":
            out.append(line.replace("return out", "return -2 if s._keys_wide else s._nkeys"))
        elif re.search(r"\bout\b|\b_add\b|\b_extend\b", line):
            return None  # the list used otherwise: keep it
        else:
            out.append(line)
    return decls + _drop_unread_sources(_counted_lets(out))


def _in_c_array(indent: str, decls: list[str], name: str, room: int, call: str, loop: list[str]) -> list[str]:
    """A kernel filling a C array of the method (``_{name}K``), then a loop over what it wrote;
    when it declines (-1) the step is marked wide (its list is made instead)."""
    k = len(decls)
    decls.append(f"cdef long _{name}{k}[{room}]")
    return [f"{indent}_n{name}{k} = {call.format(array=f'_{name}{k}')}",
            f"{indent}if _n{name}{k} < 0:  # not small numbers: the list, in _moves",
            f"{indent}    s._keys_wide = True",
            f"{indent}for _k{k} in range(_n{name}{k}):",
            *(f"{indent}    {step.format(array=f'_{name}{k}', k=f'_k{k}')}" for step in loop)]


def _pairs_in_c(m: re.Match, decls: list[str]) -> list[str]:
    """``for a_, b_ in K.distinct_pairs(Z):`` over a C array of pairs: the loop's body (the
    lines after it, indented deeper) runs on C numbers."""
    indent, a, b, values = m.groups()
    return _in_c_array(indent, decls, "pairs", 2 * PAIRS_ROOM,
                       f"K.distinct_pairs_into({values}, {{array}}, {PAIRS_ROOM})",
                       [f"{a}, {b} = {{array}}[2 * {{k}}], {{array}}[2 * {{k}} + 1]"])


def _pushed_move(indent: str, move: str) -> str:
    """``_add((tag, a, b))`` as a push of its key (any other move: through its tuple)."""
    args = _call_args(f"f({move[1:-1]})", "f(") if move.startswith("(") and move.endswith(")") else None
    if args and args[-1] == "":
        args = args[:-1]  # (tag,)
    if args and re.fullmatch(r"\d+", args[0]) and len(args) <= 3:
        rest = args[1:] + ["0"] * (3 - len(args))
        return f"{indent}_push(s, {args[0]}, {rest[0]}, {rest[1]})"
    return f"{indent}_push_move(s, {move})"


def _pushed_moves(indent: str, moves: str, lines: list[str], decls: list[str]) -> list[str] | None:
    """A list of moves made by a kernel (``_extend(K.tagged(...))``) as pushes of keys."""
    tagged = _call_args(moves, "K.tagged(")
    product = _call_args(moves, "K.tagged_product(")
    held = _call_args(moves, "K.holding_pairs(")
    if tagged and len(tagged) == 2 and re.fullmatch(r"\d+", tagged[0]):
        for kind in ("empty", "filled"):  # a grid's empty (filled) cells, read from its bytes
            cells = _call_args(tagged[1], f"K.{kind}_cells(")
            if cells and len(cells) == 1:
                return [f"{indent}_push_cells(s, {tagged[0]}, {cells[0]}, {int(kind == 'filled')})"]
    if held and len(held) == 5 and re.fullmatch(r"\d+", held[4]):  # the items in a C array
        return _in_c_array(indent, decls, "held", HELD_ROOM,
                           f"K.holding_into({', '.join(held[:4])}, {{array}}, {HELD_ROOM})",
                           [f"_push(s, {held[4]}, {{array}}[{{k}}], 0)"])
    if tagged and len(tagged) in (2, 3) and re.fullmatch(r"\d+", tagged[0]):
        if len(tagged) == 3 and tagged[2] not in ("True", "False"):
            return None
        distinct = "True" if len(tagged) == 3 and tagged[2] == "True" else "False"
        return [f"{indent}_push_tagged(s, {tagged[0]}, {tagged[1]}, {distinct})"]
    if product and len(product) == 3 and re.fullmatch(r"\d+", product[0]):
        firsts, seconds = (_distinct_of(arg, lines) for arg in product[1:])
        if firsts and seconds:  # two zones' distinct values: deduplicated in C
            return [f"{indent}_push_product(s, {product[0]}, {firsts}, {seconds}, True)"]
        return [f"{indent}_push_product(s, {', '.join(product)}, False)"]
    return [f"{indent}_push_moves(s, {moves})"]


def _counted_lets(out: list[str]) -> list[str]:
    """A let of flanked cells that the generator only counts (``len(x_)``) is counted in C."""
    for i, line in enumerate(out):
        m = re.fullmatch(r"( *)(\w+_) = (K\.flanked\((.*)\))", line)
        if not (m and _call_args(m[3], "K.flanked(") is not None):
            continue
        counted = re.compile(rf"\blen\({m[2]}\)")
        if not any(re.search(rf"\b{m[2]}\b", counted.sub("", other)) for other in out if other is not line):
            out = [counted.sub(m[2], other) for other in out]
            out[i] = f"{m[1]}{m[2]} = K.flanked_count({m[4]})"
    return out


def _drop_unread_sources(out: list[str]) -> list[str]:
    """Without a hoisted source the keys no longer read (a product deduplicated in C)."""
    for line in [line for line in out if re.fullmatch(r" *_src\d+_\d+ = .*", line)]:
        name = line.split("=")[0].strip()
        if not any(re.search(rf"\b{name}\b", other) for other in out if other is not line):
            out.remove(line)
    return out


def _call_args(line: str, head: str) -> list[str] | None:
    """The top-level arguments of ``head...)`` when the line is exactly that call."""
    if not line.startswith(head) or not line.endswith(")"):
        return None
    args, depth, start, inner = [], 0, 0, line[len(head):-1]
    for i, ch in enumerate(inner):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif ch in "'\"":
            return None  # strings: not worth parsing here
        elif ch == "," and depth == 0:
            args.append(inner[start:i].strip())
            start = i + 1
    return args + [inner[start:].strip()] if depth == 0 else None


def move_list(lines: list[str]) -> list[str]:
    """The body of a move generator from its actions' lines: the list they fill and return, or,
    when one unguarded list is the whole answer, that list returned as it is."""
    lines = _hoist_sizes(hoist_reads(lines))
    code = [line for line in lines if not line.lstrip().startswith("#")]
    if len(code) == 1 and code[0].startswith("_extend("):
        return ["return " + line[len("_extend("):-1] if line is code[0] else line for line in lines]
    body = "\n".join(code)
    head = ["out = []"]
    if "_add(" in body:
        head.append("_add = out.append")
    if "_extend(" in body:
        head.append("_extend = out.extend")
    return head + lines + ["return out"]


def lower(text: str, filename: str = "<rules>", name: str | None = None, native: bool = False) -> GameIR:
    """Parse, check and lower a rules text; raise RulesError with every problem found. With
    ``native``, lowered for the native engine (aggregates as methods with loops)."""
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
    checker = Checker(rules)
    sym = checker.run()
    diags = list(checker.diags)
    ir = Lowerer(rules, sym, source, diags, sources, native).build(name, rules_hash(text))
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
    """The engine module's source: Python, or with ``native`` the same engine as Cython source."""
    from regle import __version__
    return _environment().get_template("engine.py.j2").render(g=ir, version=__version__, native=native)


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
    ir = lower(text, filename, name)
    code = render(ir)
    if len(code) > LIMITS["engine_bytes"]:
        raise RulesError([Diagnostic(f"the engine of these rules would be {len(code):,} characters of Python "
                                     f"(the limit is {LIMITS['engine_bytes']:,})", 1, 1,
                                     "fewer or smaller tables, grids and defines")], Source(text, filename))
    verify(code)
    if not native:
        return code
    # the native lowering (aggregates as methods) is verified as Python too, then laid out typed
    ir = lower(text, filename, name, native=True)
    verify(render(ir))
    code, literals = mask_literals(render(ir, native=True))
    for finish in NATIVE_PASSES:
        code = finish(code)
    return unmask_literals(code, literals)


_STRING_MASK = '"\x01'
_COMMENT_MASK = "#\x02"
#: template comments the native passes read (which grids are bytearrays)
_KEPT_COMMENTS = ("# cells in a bytearray",)


def mask_literals(code: str) -> tuple[str, list[str]]:
    """The source with every string literal and comment replaced by a numbered placeholder
    (``"\\x01N\\x01"``, ``#\\x02N\\x02``), and the texts they stand for. Text from the rules file
    (notations, names, the rules lines quoted in comments) reaches generated code only as such
    literals, so the native passes, which rewrite code, can never read or change it. Neither
    sentinel can occur in generated code: literals and comments escape control characters."""
    texts: list[str] = []
    out = []
    for piece, is_code in _split_strings(code):
        if is_code or piece.startswith(_KEPT_COMMENTS):
            out.append(piece)
        else:
            mark = f"{_COMMENT_MASK}{len(texts)}\x02" if piece.startswith("#") else f"{_STRING_MASK}{len(texts)}\x01\""
            out.append(mark)
            texts.append(piece)
    return "".join(out), texts


def unmask_literals(code: str, texts: list[str]) -> str:
    """The inverse of :func:`mask_literals`."""
    for mask, close in ((_STRING_MASK, "\x01\""), (_COMMENT_MASK, "\x02")):
        pieces = code.split(mask)
        for k in range(1, len(pieces)):
            number, rest = pieces[k].split(close, 1)
            pieces[k] = texts[int(number)] + rest
        code = "".join(pieces)
    return code


_NUMBERED = re.compile(r"^(G_\w+__NUMBERED) = (?:ops\.|_ops_)Numbered\(\{((?:\d+: \d+(?:, )?)*)\}\)", re.M)


def numbered_cells(code: str) -> str:
    """In the native engine, a numbered grid's cells by number (``G_x__NUMBERED``, a dict) are
    also a typed memoryview read in C (``_cell_by_number``); a number that is not there still
    goes to the dict, for its error."""
    found = {m[1]: dict(tuple(map(int, pair.split(": "))) for pair in m[2].split(", ") if pair)
             for m in _NUMBERED.finditer(code)}
    if not found:
        return code
    for name, cells in found.items():
        table = [cells.get(i, -1) for i in range(max(cells, default=0) + 1)]
        line = re.search(rf"^{name} = .*$", code, re.M)
        code = (code[:line.end()] + f"\ncdef const long long[::1] _n_{name} = _array('q', {table!r})"
                + code[line.end():])
    out = []
    for piece, is_code in _split_strings(code):
        if is_code:
            for name in found:
                piece = _call_index(piece, name, f"_cell_by_number(_n_{name}, {name}, ")
        out.append(piece)
    code = "".join(out)
    helper = ("\n\ncdef inline long long _cell_by_number(const long long[::1] cells, object numbered, long long number) except? -1:\n"
              "    if 0 <= number < cells.shape[0] and cells[number] >= 0:\n"
              "        return cells[number]\n"
              "    return numbered[number]  # not a cell's number: the dict says so\n")
    code = _with_array_import(code)
    first = code.index("\ncdef const long long[::1] _n_G_")
    return code[:first] + helper + code[first:]


def _call_index(code: str, name: str, call: str) -> str:
    """``NAME[expr]`` -> ``call expr)``, brackets inside expr matched."""
    out, i = [], 0
    pattern = re.compile(rf"\b{name}\[")
    while True:
        m = pattern.search(code, i)
        if m is None:
            return "".join(out) + code[i:]
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"[": 1, "]": -1}.get(code[j], 0)
            j += 1
        out.append(code[i:m.start()] + call + _call_index(code[m.end():j - 1], name, call) + ")")
        i = j


_INT_COLUMN = re.compile(r"^(C_\w+) = \((-?\d+(?:, -?\d+)*),?\)$", re.M)


def typed_columns(code: str) -> str:
    """In the native engine, a table column of whole numbers (``C_card__number``) is also a
    typed memoryview of C integers (``_v_C_card__number``), which the code indexes instead:
    no dictionary lookup for the name, no Python object for the value. Bounds are checked and
    negative indices wrap, as with the tuple."""
    names = [m[1] for m in _INT_COLUMN.finditer(code)
             if all(abs(int(v)) < 2**62 for v in m[2].split(", "))]
    if not names:
        return code
    for name in names:
        line = re.search(rf"^{name} = .*$", code, re.M)
        code = (code[:line.end()] + f"\ncdef const long long[::1] _v_{name} = _array('q', {name})"
                + code[line.end():])
    uses = re.compile(r"\b(" + "|".join(names) + r")\[")
    pieces = [uses.sub(r"_v_\1[", piece) if is_code else piece for piece, is_code in _split_strings(code)]
    code = "".join(pieces)
    return _with_array_import(code)


_ALIAS_LINE = re.compile(r"^ *_(?:add|extend) = out\.(?:append|extend)\n", re.M)
_IDIOMS = [(re.compile(r"\b_add\("), "out.append("), (re.compile(r"\b_extend\("), "out.extend("),
           (re.compile(r"\bdict\.fromkeys\("), "K.distinct(")]


def native_idioms(code: str) -> str:
    """What is fastest in Python is not in Cython: a move generator appends to its list
    directly (``out.append(`` is a C call on a typed list; the bound-method alias of the Python
    engine is a Python call), and distinct values come from the ``distinct`` kernel (a list in
    the same order as ``dict.fromkeys``, which is used only to be walked)."""
    code = _ALIAS_LINE.sub("", code)
    out = []
    for piece, is_code in _split_strings(code):
        if is_code:
            for pattern, replacement in _IDIOMS:
                piece = pattern.sub(replacement, piece)
        out.append(piece)
    return "".join(out)


_MOVE_ADDED = re.compile(r"_add\(\((\d+), (\w+)(?:, (\w+))?\)\)")


def shared_moves(code: str) -> str:
    """In the native engine, a legal move of one or two arguments (``_add((2, a_, b_))``) is
    the kernels' shared tuple (``K.triple``) instead of a new one at every decision."""
    def shared(m: re.Match) -> str:
        return f"_add(K.triple({m[1]}, {m[2]}, {m[3]}))" if m[3] else f"_add(K.pair({m[1]}, {m[2]}))"
    return _MOVE_ADDED.sub(shared, code)


_RUNTIME_CALL = re.compile(r"\b(K|ops)\.(\w+)\(")


@lru_cache(maxsize=1)
def c_kernels() -> frozenset[str]:
    """The kernels a native engine calls at C level: the functions that
    ``regle/runtime/_kernels.pxd`` declares (cpdef ones are Python functions too)."""
    from importlib.resources import files
    text = files("regle.runtime").joinpath("_kernels.pxd").read_text(encoding="utf-8")
    return frozenset(re.findall(r"^c?p?def \w+\*? (\w+)\(", text, re.M))


def bind_runtime_calls(code: str) -> str:
    """In the native engine, a compiled kernel (``K.flanked(``, or ``ops.deal(`` that re-exports
    one) is called at C level through ``cimport`` (no Python call, no boxing of its numbers);
    any other runtime helper is bound once to a C global (``_ops_show_line``), which skips two
    dictionary lookups a call. Strings and comments are left alone."""
    used: dict[str, None] = {}
    direct = c_kernels()

    def bound(m: re.Match) -> str:
        if m[2] in direct:
            return f"_CK.{m[2]}("
        name = f"_{m[1]}_{m[2]}"
        used[name] = None
        return name + "("

    code = "".join(_RUNTIME_CALL.sub(bound, piece) if is_code else piece for piece, is_code in _split_strings(code))
    binds = "".join(f"cdef object {name} = {name[1:].replace('_', '.', 1)}\n" for name in used)
    at = code.index("\n", code.index("\nfrom regle.runtime import ")  + 1) + 1  # after the imports
    return (code[:at] + "from regle.runtime cimport _kernels as _CK  # the compiled kernels, called in C\n"
            + ("# the other helpers the engine calls, bound once\n" + binds if binds else "") + code[at:])


def _split_strings(code: str):
    """(text, whether it is code) pieces of Python source: string literals and comments apart."""
    i = start = 0
    n = len(code)
    while i < n:
        ch = code[i]
        if ch == "#":  # a comment, to the end of its line
            end = code.find("\n", i)
            end = n if end < 0 else end
        elif ch in "'\"":
            quote = code[i:i + 3] if code[i:i + 3] in ("'''", '"""') else ch
            end = i + len(quote)
            while end < n and not code.startswith(quote, end):
                end += 2 if code[end] == "\\" else 1
            end = min(n, end + len(quote))
        else:
            i += 1
            continue
        yield code[start:i], True
        yield code[i:end], False
        i = start = end
    yield code[start:], True


#: what the native source goes through after the template, in order: each pass rewrites what
#: is fastest in Python into what is fastest in Cython, and knows nothing of any game
_COUNTER_LIST = re.compile(r"^ +return \[s\.a_(\w+)\[i\] for i in range\(([\w.]+)\)\]$", re.M)


def closing(code: str, at: int) -> int:
    """The index of the bracket closing the one opened just before ``at``."""
    depth = 1
    for i in range(at, len(code)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced brackets in generated code")


def counter_arrays(code: str) -> str:
    """Counters per player or per member live in C arrays of the state (``a_name``, read from
    Python as the list ``c_name``): each ``s.c_name[i]`` of the engine's code becomes a C read
    or write ``s.a_name[_ix(i, n)]``, which checks the index as a list would."""
    for name, bound in _COUNTER_LIST.findall(code):
        head = f"s.c_{name}["
        at = code.find(head)
        while at >= 0:
            start = at + len(head)
            end = closing(code, start)
            inner = code[start:end]
            code = code[:at] + f"s.a_{name}[_ix({inner}, {bound})]" + code[end + 1:]
            at = code.find(head, at + 1)
    return code


_BYTE_GRID = re.compile(r"^    cdef public \w+ (g_\w+)  # cells in a bytearray( per \w+)?$", re.M)
_WRITTEN = re.compile(r"\s*[-+*/%]?=(?!=)")


def grid_cells(code: str) -> str:
    """Reads of a cell of a grid of elements (a bytearray) become ``_cell(grid, cell)``, a C
    read of a byte; writes (``grid[cell] = ...``) stay as they are."""
    for name, per in _BYTE_GRID.findall(code):
        pattern = re.compile(rf"(?<![\w.])(?:s\.)?{name}(__me)?\[")
        at = 0
        while True:
            m = pattern.search(code, at)
            if m is None:
                break
            start, open_at = m.start(), m.end()
            if per and not m.group(1):  # s.g_x[p]: the grid of seat p, then its cell
                seat_end = closing(code, open_at)
                if code[seat_end + 1:seat_end + 2] != "[":
                    at = seat_end
                    continue
                open_at = seat_end + 2
            end = closing(code, open_at)
            if _WRITTEN.match(code, end + 1):
                at = end
                continue
            grid, cell = code[start:open_at - 1], code[open_at:end]
            replaced = f"_cell({grid}, {cell})"
            code = code[:start] + replaced + code[end + 1:]
            at = start + len("_cell(")  # reads inside the cell's expression are seen next
    return code


_SHUFFLE = re.compile(r"^( *)s\.rng\.shuffle\((.+)\)$", re.M)


def rng_in_c(code: str) -> str:
    """The state's generator driven in C: ``s.rng.below(n)`` becomes ``_rng_below(s.rng, n)`` and
    a shuffle calls the kernel on the generator's state, without Rng's Python methods (the
    same numbers: SplitMix64 both ways)."""
    code = _SHUFFLE.sub(lambda m: f"{m[1]}s.rng.state = K.shuffle({m[2]}, s.rng.state)", code)
    return code.replace("s.rng.below(", "_rng_below(s.rng, ")


_ZONE_REMOVE = re.compile(r"\b((?:s\.)?z_\w+(?:\[\w+\])?)\.remove\(")


def zone_removes(code: str) -> str:
    """``zone.remove(v)`` becomes the ``remove_value`` kernel: a C call instead of a method
    lookup and call on a list."""
    return _ZONE_REMOVE.sub(lambda m: f"K.remove_value({m[1]}, ", code)


NATIVE_PASSES = (rng_in_c, zone_removes, shared_moves, native_idioms, typed_columns, numbered_cells, counter_arrays, grid_cells, bind_runtime_calls)


def _with_array_import(code: str) -> str:
    """The native source with ``array`` imported once, after the runtime's imports."""
    if "\nfrom array import array as _array\n" in code:
        return code
    at = code.index("\n", code.index("\nfrom regle.runtime import ") + 1) + 1
    return code[:at] + "from array import array as _array\n" + code[at:]
