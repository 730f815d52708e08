"""Text passes over the lowered Python lines of move generators and effects: reads hoisted
out of loops, keyed moves, packed keys, counted lets (to become passes over the typed IR)."""
from __future__ import annotations

import re


def keyed_moves(step) -> dict | None:
    """For the native engine: how a step fills a buffer of keys (C numbers) instead of a list of
    move tuples, so that a random playout makes only the move it picks. A step whose moves are
    one action's keys from one kernel (``K.line_move_keys(..., tag)``, ``K.tagged(tag,
    numbers)``) keeps that kernel's keys (``tag``: the action); any other whose actions take at
    most two arguments packs each move into a key (``tag`` None, see ``packed_lines``). None
    for the steps that keep their list (automatic and optional steps, shared conditions)."""
    if step.kind in ("auto", "optional") or step.shared_code:
        return None
    lines = move_list(sum((a.gen_lines for a in step.actions), list(step.read_lines)))
    code = [line for line in lines if not line.lstrip().startswith("#")]
    last = code[-1] if code else ""
    args = _call_args(last, "return K.line_move_keys(")
    if args is not None and len(args) == 6 and re.fullmatch(r"\d+", args[5]):
        fill = f"return _CK.line_keys_into({', '.join(args[:5])}, &s._keys, &s._keys_cap)"
        return {"tag": args[5], "lines": [fill if line is last else line for line in lines]}
    args = _call_args(last, "return K.tagged(")
    if args is not None and len(args) == 2 and re.fullmatch(r"\d+", args[0]):
        fill = f"return _CK.keys_into({args[1]}, &s._keys, &s._keys_cap)"
        return {"tag": args[0], "lines": [fill if line is last else line for line in lines]}
    if any(len(a.arg_names) > 2 or a.index >= KEY_TAGS or "bool" in a.arg_kinds for a in step.actions):
        return None  # a truth as an argument would come back from its key as a number
    packed = packed_lines(lines)
    return None if packed is None else {"tag": None, "lines": packed}


#: packed keys: the action in the low 8 bits, then each argument in 27 bits (from -2**26)
KEY_TAGS = 256
PAIRS_ROOM, HELD_ROOM = 128, 64  # C arrays of the pairs of a zone and the items held, in _keys_N
_PAIRS_LOOP = re.compile(r"^( *)for (\w+), (\w+) in (?:_CK|K)\.distinct_pairs\((.*)\):$")
_ADD = re.compile(r"^( *)(?:_add|out\.append)\((.*)\)$")
_EXTEND = re.compile(r"^( *)(?:_extend|out\.extend)\((.*)\)$")
_RETURN = re.compile(r"^( *)return (.*)$")


def _distinct_of(arg: str, lines: list[str]) -> str | None:
    """The zone whose distinct values ``arg`` is: ``dict.fromkeys(Z)`` itself, or a name set to
    that once in ``lines`` (a hoisted source)."""
    m = re.fullmatch(r"(?:dict\.fromkeys|_CK\.distinct)\(([\w.\[\]]+)\)", arg)
    if m:
        return m[1]
    if re.fullmatch(r"_src\d+_\d+", arg):
        for line in lines:
            m = re.fullmatch(rf" *{arg} = (?:dict\.fromkeys|_CK\.distinct)\(([\w.\[\]]+)\)", line)
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
                       f"_CK.distinct_pairs_into({values}, {{array}}, {PAIRS_ROOM})",
                       [f"{a}, {b} = {{array}}[2 * {{k}}], {{array}}[2 * {{k}} + 1]"])


def _pushed_move(indent: str, move: str) -> str:
    """``_add((tag, a, b))`` (natively ``out.append(_CK.triple(tag, a, b))``) as a push of its key
    (any other move: through its tuple)."""
    args = _call_args(move, "_CK.pair(") or _call_args(move, "_CK.triple(")
    if args is None:
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
                           f"_CK.holding_into({', '.join(held[:4])}, {{array}}, {HELD_ROOM})",
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
        m = re.fullmatch(r"( *)(\w+_) = ((?:_CK|K)\.flanked\((.*)\))", line)
        if not (m and _call_args(m[3], "K.flanked(") is not None):
            continue
        counted = re.compile(rf"\blen\({m[2]}\)")
        if not any(re.search(rf"\b{m[2]}\b", counted.sub("", other)) for other in out if other is not line):
            out = [counted.sub(m[2], other) for other in out]
            out[i] = f"{m[1]}{m[2]} = _CK.flanked_count({m[4]})"
    return out


def _drop_unread_sources(out: list[str]) -> list[str]:
    """Without a hoisted source the keys no longer read (a product deduplicated in C)."""
    for line in [line for line in out if re.fullmatch(r" *_src\d+_\d+ = .*", line)]:
        name = line.split("=")[0].strip()
        if not any(re.search(rf"\b{name}\b", other) for other in out if other is not line):
            out.remove(line)
    return out


def _call_args(line: str, head: str) -> list[str] | None:
    """The top-level arguments of ``head...)`` when the line is exactly that call (a kernel
    ``K.name(`` also as the native lowering writes it, ``_CK.name(``)."""
    if "K." in head and not line.startswith(head):
        head = head.replace("K.", "_CK.", 1)
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
    code = [line for line in lines if not line.lstrip().startswith("#")]
    for extend in ("_extend(", "out.extend("):  # natively out.extend
        if len(code) == 1 and code[0].startswith(extend):
            return ["return " + line[len(extend):-1] if line is code[0] else line for line in lines]
    body = "\n".join(code)
    head = ["out = []"]
    if "_add(" in body:
        head.append("_add = out.append")
    if "_extend(" in body:
        head.append("_extend = out.extend")
    return head + lines + ["return out"]
