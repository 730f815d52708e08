"""The native engine as text: the Python engine's source laid out for Cython by passes over
its text (strings and comments masked first, so no rules text is ever read as code). These
passes are what the Cython emitter of the typed IR replaces, one by one."""
from __future__ import annotations

import re
from functools import lru_cache


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


NATIVE_PASSES = (shared_moves, native_idioms, typed_columns, numbered_cells, counter_arrays, grid_cells, bind_runtime_calls)


def _with_array_import(code: str) -> str:
    """The native source with ``array`` imported once, after the runtime's imports."""
    if "\nfrom array import array as _array\n" in code:
        return code
    at = code.index("\n", code.index("\nfrom regle.runtime import ") + 1) + 1
    return code[:at] + "from array import array as _array\n" + code[at:]
