"""Move generators as records: what each line of a step's legal-move method is (a guard, a loop,
one move added, moves made by a kernel), and the two ways of writing them. The lowering makes
the records (lower_actions.py); ``move_lines`` writes the method that returns a list of moves,
``keyed_moves`` the native method that fills the state's buffer of keys (C numbers) instead, so
that a random playout makes only the move it picks. Both read the records' fields, never the
text of a line.
"""
from __future__ import annotations

import attrs

#: packed keys: the action in the low 8 bits, then each argument in 27 bits (from -2**26)
KEY_TAGS = 256
PAIRS_ROOM, HELD_ROOM = 128, 64  # C arrays of the pairs of a zone and the items held, in _keys_N


@attrs.frozen
class Line:
    """A line as the lowering wrote it: a comment, a guard, a loop, a let, a hoisted source."""
    depth: int
    text: str
    opens: bool = False  # a guard (``if ...:``): the lines after it are inside
    source: str | None = None  # a hoisted loop source: the name it binds
    reads_list: bool = False  # reads the list of moves itself (the check of its size)
    comment: bool = False  # a comment (the rules line a part comes from)


@attrs.frozen
class Add:
    """One move: ``(tag, args...)`` added to the list."""
    depth: int
    text: str  # as written for this engine (``_add((0, c_))``, natively ``out.append(...)``)
    tag: int
    args: tuple[str, ...]


@attrs.frozen
class Extend:
    """Moves made all at once: by a kernel (``kernel`` with ``args``) or a list comprehension."""
    depth: int
    call: str  # the list of moves, as written for this engine
    text: str  # the line that adds them (``_extend(...)``, natively ``out.extend(...)``)
    kernel: str = ""  # K.tagged, K.tagged_product, K.holding_pairs, K.line_move_keys; "" for a comprehension
    args: tuple[str, ...] = ()
    cells: tuple | None = None  # K.tagged over a grid's empty (filled) cells: (the grid, filled)
    zones: tuple | None = None  # K.tagged_product of two zones' distinct values: the two zones
    sources: tuple[str, ...] = ()  # the hoisted sources it reads (not read when made from the zones)


@attrs.frozen
class Pairs:
    """``for a_, b_ in K.distinct_pairs(values):``: the distinct pairs of a zone's values."""
    depth: int
    text: str
    a: str
    b: str
    values: str


def _indent(record) -> str:
    return "    " * record.depth + record.text


def move_lines(records: list, native: bool) -> list[str]:
    """The body of a step's move generator (after ``me = s.cur``): the list it fills and
    returns, or, when one unguarded kernel call is the whole answer, that list returned."""
    code = [r for r in records if not (isinstance(r, Line) and r.comment)]
    if len(code) == 1 and isinstance(code[0], Extend) and code[0].depth == 0:
        return ["return " + code[0].call if r is code[0] else _indent(r) for r in records]
    head = ["out = []"]
    if not native and any(isinstance(r, Add) for r in records):
        head.append("_add = out.append")
    if not native and any(isinstance(r, Extend) for r in records):
        head.append("_extend = out.extend")
    return head + [_indent(r) for r in records] + ["return out"]


def keyed_moves(records: list, actions: list, kind: str, shared: bool) -> dict | None:
    """For the native engine: how a step fills a buffer of keys instead of a list of move
    tuples. A step whose moves are one action's keys from one kernel (``K.line_move_keys(...,
    tag)``, ``K.tagged(tag, numbers)``) keeps that kernel's keys (``tag``: the action); any other
    whose actions take at most two arguments packs each move into a key (``tag`` None). None for
    the steps that keep their list (automatic and optional steps, a value shared with the
    condition, a list read as it is made)."""
    if kind in ("auto", "optional") or shared:
        return None
    code = [r for r in records if not (isinstance(r, Line) and r.comment)]
    only = code[0] if len(code) == 1 and isinstance(code[0], Extend) and code[0].depth == 0 else None
    if only is not None and only.kernel == "K.line_move_keys" and len(only.args) == 6:
        fill = f"return _CK.line_keys_into({', '.join(only.args[:5])}, &s._keys, &s._keys_cap)"
        return {"tag": only.args[5], "lines": [fill if r is only else _indent(r) for r in records]}
    if only is not None and only.kernel == "K.tagged" and only.cells is not None:  # from the grid's bytes
        grid, filled = only.cells
        fill = f"return _CK.cells_keys_into({grid}, {filled}, &s._keys, &s._keys_cap)"
        return {"tag": only.args[0], "lines": [fill if r is only else _indent(r) for r in records]}
    if only is not None and only.kernel == "K.tagged" and len(only.args) == 2:
        fill = f"return _CK.keys_into({only.args[1]}, &s._keys, &s._keys_cap)"
        return {"tag": only.args[0], "lines": [fill if r is only else _indent(r) for r in records]}
    if any(len(a.arg_names) > 2 or a.index >= KEY_TAGS or "bool" in a.arg_kinds for a in actions):
        return None  # a truth as an argument would come back from its key as a number
    packed = packed_lines(records)
    return None if packed is None else {"tag": None, "lines": packed}


def packed_lines(records: list) -> list[str] | None:
    """A move generator that pushes packed keys into the state's buffer (``_push(s, tag, a,
    b)``; the kernels that list moves go through ``_push_tagged``, ``_push_product``,
    ``_push_cells`` or ``_push_moves``), returning how many keys, or -2 when an argument did
    not fit a key (then the engine uses the list). None when the list is read as it is made."""
    out: list[tuple[str | None, str]] = [(None, "s._nkeys = 0"), (None, "s._keys_wide = False")]
    decls: list[str] = []  # C arrays of the method, declared at its top
    unread: set[str] = set()  # hoisted sources no key reads
    for r in records:
        pad = "    " * r.depth
        if isinstance(r, Line) and r.reads_list:
            return None
        if isinstance(r, Pairs):
            lines = _in_c_array(pad, decls, "pairs", 2 * PAIRS_ROOM,
                                f"_CK.distinct_pairs_into({r.values}, {{array}}, {PAIRS_ROOM})",
                                [f"{r.a}, {r.b} = {{array}}[2 * {{k}}], {{array}}[2 * {{k}} + 1]"])
        elif isinstance(r, Add):
            rest = list(r.args) + ["0"] * (2 - len(r.args))
            lines = [f"{pad}_push(s, {r.tag}, {rest[0]}, {rest[1]})"]
        elif isinstance(r, Extend):
            lines = _pushed(pad, r, decls, unread)
        else:
            out.append((r.source, _indent(r)))
            continue
        out += [(None, line) for line in lines]
    out.append((None, "return -2 if s._keys_wide else s._nkeys"))
    return decls + [line for source, line in out if source is None or source not in unread]


def _in_c_array(pad: str, decls: list[str], name: str, room: int, call: str, loop: list[str]) -> list[str]:
    """A kernel filling a C array of the method (``_{name}K``), then a loop over what it wrote;
    when it declines (-1) the step is marked wide (its list is made instead)."""
    k = len(decls)
    decls.append(f"cdef long _{name}{k}[{room}]")
    return [f"{pad}_n{name}{k} = {call.format(array=f'_{name}{k}')}",
            f"{pad}if _n{name}{k} < 0:  # not small numbers: the list, in _moves",
            f"{pad}    s._keys_wide = True",
            f"{pad}for _k{k} in range(_n{name}{k}):",
            *(f"{pad}    {step.format(array=f'_{name}{k}', k=f'_k{k}')}" for step in loop)]


def _pushed(pad: str, r: Extend, decls: list[str], unread: set[str]) -> list[str]:
    """Moves made by a kernel (or a comprehension) pushed as keys."""
    if r.kernel == "K.tagged" and r.cells is not None:  # a grid's empty (filled) cells, read from its bytes
        grid, filled = r.cells
        return [f"{pad}_push_cells(s, {r.args[0]}, {grid}, {int(filled)})"]
    if r.kernel == "K.holding_pairs":  # the items in a C array
        return _in_c_array(pad, decls, "held", HELD_ROOM,
                           f"_CK.holding_into({', '.join(r.args[:4])}, {{array}}, {HELD_ROOM})",
                           [f"_push(s, {r.args[4]}, {{array}}[{{k}}], 0)"])
    if r.kernel == "K.tagged":
        distinct = "True" if len(r.args) == 3 and r.args[2] == "True" else "False"
        return [f"{pad}_push_tagged(s, {r.args[0]}, {r.args[1]}, {distinct})"]
    if r.kernel == "K.tagged_product":
        if r.zones is not None:  # two zones' distinct values: deduplicated in C
            unread.update(r.sources)
            return [f"{pad}_push_product(s, {r.args[0]}, {r.zones[0]}, {r.zones[1]}, True)"]
        return [f"{pad}_push_product(s, {', '.join(r.args)}, False)"]
    return [f"{pad}_push_moves(s, {r.call})"]
