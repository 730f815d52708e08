"""The native engine as text: the Python engine's source laid out for Cython by passes over
its text (strings and comments masked first, so no rules text is ever read as code). These
passes are what the Cython emitter of the typed IR replaces, one by one."""
from __future__ import annotations

import re


_STRING_MASK = '"\x01'
_COMMENT_MASK = "#\x02"


def mask_literals(code: str) -> tuple[str, list[str]]:
    """The source with every string literal and comment replaced by a numbered placeholder
    (``"\\x01N\\x01"``, ``#\\x02N\\x02``), and the texts they stand for. Text from the rules file
    (notations, names, the rules lines quoted in comments) reaches generated code only as such
    literals, so the native passes, which rewrite code, can never read or change it. Neither
    sentinel can occur in generated code: literals and comments escape control characters."""
    texts: list[str] = []
    out = []
    for piece, is_code in _split_strings(code):
        if is_code:
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


_ALIAS_LINE = re.compile(r"^ *_(?:add|extend) = out\.(?:append|extend)\n", re.M)
_IDIOMS = [(re.compile(r"\b_add\("), "out.append("), (re.compile(r"\b_extend\("), "out.extend("),
           (re.compile(r"\bdict\.fromkeys\("), "_CK.distinct(")]


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
        return f"_add(_CK.triple({m[1]}, {m[2]}, {m[3]}))" if m[3] else f"_add(_CK.pair({m[1]}, {m[2]}))"
    return _MOVE_ADDED.sub(shared, code)


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
NATIVE_PASSES = (shared_moves, native_idioms)

