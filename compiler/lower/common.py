"""What every part of the lowering shares: the context of an expression (each name in scope
standing for a tree), the precedences of the generated Python, C types of the native engine,
and small helpers over the rules' AST (names read, defines reached, what fits in action ids)."""
from __future__ import annotations

from collections import Counter

from regle.dsl import ast

from ..ir import nodes as N
from ..ir import types as T
from ..check.symbols import LIMITS

# operator precedences of the generated Python
from ..ir.nodes import is_int as _is_int  # noqa: F401 - shared
from ..write.emit_native import c_type  # noqa: F401 - shared
from ..ir.nodes import P_OR, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM  # noqa: F401 - shared


def pyname(name: str) -> str:
    """A rules name as a Python local: always with a trailing ``_``, which no name of the
    engine's own has and no declared name may end with, so it is never a keyword, a builtin
    or a helper of the template (``score p`` reads as ``p_``)."""
    return name + "_"


class Ctx:
    """What an expression may refer to where it stands."""

    def __init__(self, where: str, scope: dict | None = None, has_me: bool = False,
                 random_ok: bool = False):
        self.where = where
        #: what each name means here, as a tree: a local of the method (a let, a parameter, a
        #: loop variable), or, in a define written in place, the argument's own tree
        self.scope: dict[str, N.Expr] = dict(scope or {})
        self.has_me = has_me
        self.random_ok = random_ok
        self.lets: set[str] = set()  # names bound by let here: assignments may change them
        #: the locals of the function being written (lets, loop variables) -> whether each
        #: always holds a whole number (then, natively, it is a C number); shared by children
        self.locals: dict[str, bool] = {}
        #: what the code written here uses, counted, shared by children: names of the scope
        #: and ``me`` as they are read, ``fn:NAME`` for each call of a define's function,
        #: ``span`` for a range of bounds known when played (so that helpers and defines
        #: know their parameters from the lowering, never by searching the code it wrote)
        self.uses: Counter[str] = Counter()
        #: the names of the engine a scope entry's code needs besides itself (the winner's
        #: ``score`` is ``_sc[p_]``), shared by children
        self.needs: dict[str, tuple[str, ...]] = {}
        #: inside a procedure's statements: the prefix of the locals they bind (lets, loop
        #: variables), so that they never meet the names of the block that runs it
        self.prefix = ""

    def local(self, name: str) -> str:
        """The engine's local for a name bound here by ``let`` or ``for``."""
        return f"_{self.prefix}{name}" if self.prefix else pyname(name)

    def bind(self, name: str, var: str, ty: T.Type) -> N.Local:
        """``name`` now means the engine's local ``var``, of type ``ty``."""
        self.scope[name] = N.Local(ty, 0, var)
        return self.scope[name]

    def child(self, **extra: N.Expr) -> "Ctx":
        c = Ctx(self.where, self.scope, self.has_me, self.random_ok)
        c.prefix = self.prefix
        c.lets = set(self.lets) - set(extra)
        c.scope.update(extra)
        c.locals = self.locals
        c.uses = self.uses
        c.needs = self.needs
        return c

    def engine_names(self, used: Counter, exclude: str = "") -> set[str]:
        """The engine's names (locals, ``me``, ``_sc``) that code using ``used`` reads."""
        out: set[str] = set()
        for name in used:
            if name == "me":
                out.add("me")
            elif name in self.needs:
                out.update(self.needs[name])
            elif isinstance(self.scope.get(name), N.Local):  # not a define's argument
                out.add(self.scope[name].name)
        out.discard(exclude)
        return out

    def note_local(self, var: str, ty: T.Type) -> None:
        """``var`` is bound here to a value of type ``ty`` (a local of a C number only if every
        binding of it is a whole number: what ``c_type`` keeps in a C long)."""
        self.locals[var] = self.locals.get(var, True) and c_type(ty) == "long"

    def c_numbers(self, exclude=()) -> list[str]:
        """The locals that are C numbers in a native engine, in a stable order."""
        return sorted(v for v, whole in self.locals.items() if whole and v not in exclude)


def decides_in_parts(node, defines: dict) -> bool:
    """Whether a condition may skip a part of itself (and, or, if, a ``where``), itself or
    through a define it uses: computing one of its parts first could change what runs."""
    seen: set[str] = set()
    stack = [node]
    while stack:
        for n in ast_nodes(stack.pop()):
            if (isinstance(n, ast.BinOp) and n.op in ("and", "or")) or isinstance(n, ast.Cond) \
                    or (isinstance(n, ast.Comp) and n.cond is not None):
                return True
            if isinstance(n, ast.Call) and n.func in defines and n.func not in seen:
                seen.add(n.func)
                stack.append(defines[n.func].body)
    return False


def _hex_places(geo) -> list[int]:
    """The column of each cell of a hexagon: its place in its row, from the west."""
    out, count = [], {}
    for row in geo.rows:
        out.append(count.get(row, 0))
        count[row] = out[-1] + 1
    return out


def _path_word(path: str) -> str:
    """A file path as one word of a comment (run-time errors read it back from there)."""
    return "".join("_" if c.isspace() else c for c in path)


def _const(name: str) -> str:
    """Prefix of a table's or enum's constants (``T_colour__NAMES``): case kept, and the
    ``__`` no declared name can hold keeps every rules name apart from the engine's own."""
    return f"T_{name}_"


def column_const(table: str, column: str) -> str:
    """The tuple of one table column's values, one per item."""
    return f"C_{table}__{column}"


def is_c_column(values: tuple) -> bool:
    """A column the native engine also holds as a C array of ``long long``: whole numbers (not
    truths), at least one, each well within 64 bits."""
    return bool(values) and all(type(v) is int and abs(v) < 2**62 for v in values)


def cells_const(table: str, column: str) -> str:
    """The translate table of a grid of items seen through one column."""
    return f"CELLS_{table}__{column}"


def _zone_name(node: ast.Node) -> str:
    if isinstance(node, ast.Index):
        node = node.obj
    return node.id if isinstance(node, ast.Name) else "?"


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def ast_nodes(node):
    """Every AST node inside ``node`` (itself included), in no particular order."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.Node):
            yield n
            for field in n.__attrs_attrs__:
                v = getattr(n, field.name)
                if isinstance(v, (ast.Node, list, tuple)):
                    stack.append(v)


def nodes_through_defines(node, defines: dict):
    """Every AST node inside ``node``, and inside the body (or block) of each define it calls,
    each define once: what evaluating it may read or do."""
    seen: set[str] = set()
    stack = [node]
    while stack:
        for inner in ast_nodes(stack.pop()):
            yield inner
            name = inner.func if isinstance(inner, ast.Call) else inner.name if isinstance(inner, ast.Run) else None
            d = defines.get(name) if name is not None else None
            if d is not None and name not in seen:
                seen.add(name)
                stack.append(d.block if d.block is not None else d.body)


def _names_in(node) -> set[str]:
    """Every bare name used inside an AST node."""
    return {n.id for n in ast_nodes(node) if isinstance(n, ast.Name)}


#: built-in functions whose value is small whatever their arguments (a cell, a count, a truth)
_BOUNDED = frozenset({"count", "number", "first", "last", "has", "any", "all", "row", "column", "cell", "lane",
                      "distance", "neighbour", "blocker", "store", "opposite", "lane_count", "in_a_row",
                      "connected", "is_empty", "content", "repeated", "shade"})


def has_product(node, defines: dict) -> bool:
    """Whether the value of an expression comes from a multiplication, itself or through a
    define it uses: it can grow past the language's bound, so where it is stored it is checked
    (``ops.number``). A product that only picks a cell or decides a condition
    (``cell(board, x, 7 * p)``, ``if 2 * a > b then 1 else 0``) does not make the value large."""
    seen: set[str] = set()

    def value(n) -> bool:
        if isinstance(n, (ast.Int, ast.Bool, ast.Name, ast.Str, ast.Not)):
            return False
        if isinstance(n, ast.BinOp):
            if n.op == "*":
                return True
            return n.op in ("+", "-", "//", "%") and (value(n.left) or value(n.right))  # else a truth
        if isinstance(n, ast.Neg):
            return value(n.operand)
        if isinstance(n, ast.Cond):
            return value(n.then) or value(n.orelse)
        if isinstance(n, ast.Call) and n.func in defines:
            if n.func in seen or defines[n.func].body is None:
                return False
            seen.add(n.func)
            return value(defines[n.func].body)
        if isinstance(n, ast.Call) and n.func in _BOUNDED:
            return False
        # anything else (sums, lists, indexes...): any product inside, as far as defines go
        for inner in ast_nodes(n):
            if isinstance(inner, ast.BinOp) and inner.op == "*":
                return True
            if isinstance(inner, ast.Call) and inner.func in defines and inner.func not in seen:
                seen.add(inner.func)
                if defines[inner.func].body is not None and value(defines[inner.func].body):
                    return True
        return False
    return value(node)


def _moves_fit(domains: list[tuple]) -> bool:
    """Whether an action's parameters, by what action ids know of their values, can never offer
    more moves than one decision may hold (unknown values: they might)."""
    total = 1
    for d in domains:
        if d[0] == "value":
            total *= max(d[1], 1)
        elif d[0] == "players":
            total *= LIMITS["players"]
        elif d[0] == "group":
            total *= d[1] * d[2]
        elif d[0] == "line":
            total *= d[1] * d[2] * d[3]
        else:
            return False
    return total <= LIMITS["moves"]


def item_list(src: N.Expr) -> bool:
    """Whether a loop's source is a short list written out of whole numbers (``[home(2),
    home(6)]``): natively its items are computed into C locals and walked by a C loop
    (compiler/write/moves.py ``ItemScan``), which costs less than a list made once and its
    items read back as Python numbers at each turn of an outer loop."""
    return isinstance(src, N.ListOf) and 1 <= len(src.items) <= 8 and c_type(src.type.elem or T.ANY) == "long"
