"""What may reach generated source, and the check that generated source has only known shapes.

A rules file is untrusted data. Its strings reach an engine module only as Python literals
(:func:`literal`, always ``repr``), and rules text quoted in ``# line N: ...`` comments only
through :func:`comment_text`, which leaves no character that could end the comment. After
rendering, :func:`verify` walks the module and refuses any name, attribute or import outside
an allow-list of what the templates produce: defence in depth, so that even a template bug
cannot turn rules text into code that reaches the interpreter's internals.
"""
from __future__ import annotations

import ast as pyast
import builtins
import inspect
from functools import lru_cache

from regle.dsl import RulesError
from regle.dsl.errors import Diagnostic


def literal(value) -> str:
    """A Python literal for data from the rules file: never spliced text, always repr."""
    if isinstance(value, (str, int, bool, bytes, type(None))):
        return repr(value)
    if isinstance(value, float) and value == value and abs(value) < 1e300:  # drawing positions
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(literal(v) for v in value)
        if isinstance(value, tuple):
            return "(" + inner + ("," if len(value) == 1 else "") + ")"
        return "[" + inner + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot emit {type(value).__name__} as a literal")


def comment_text(text: str) -> str:
    """Text that is safe inside a one-line ``#`` comment: every character that is not plainly
    printable (line and paragraph breaks, CR, NUL, escapes) is written as its escape."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


#: Built-in names generated code may read. Anything else must be bound in the module itself.
SAFE_BUILTINS = frozenset({
    "ValueError", "IndexError", "KeyError", "ZeroDivisionError", "all", "any", "abs", "bool",
    "bytearray", "bytes", "classmethod", "staticmethod", "dict", "divmod", "enumerate", "frozenset",
    "int", "isinstance", "len", "list", "max", "min", "range", "reversed", "set", "sorted", "str",
    "sum", "tuple", "zip", "True", "False", "None",
})
_BUILTIN_NAMES = frozenset(dir(builtins))
#: Dunder names the templates themselves write.
TEMPLATE_DUNDERS = frozenset({"__slots__", "__regle_engine__", "__new__"})
#: methods of the native template's compiled state that code written by the lowering calls
#: (the Python rendering of a native lowering is verified too): a trial's copy of the state
NATIVE_STATE_METHODS = frozenset({"_copy"})
#: Methods of the containers engines use that could read or run anything else.
_UNSAFE_METHODS = frozenset({"format", "format_map", "mro"})


@lru_cache(maxsize=1)
def _runtime_attributes() -> frozenset[str]:
    """Public attributes of what generated code holds: containers, and the runtime's own
    functions, classes and methods (never a module the runtime happens to import)."""
    from regle import runtime
    from regle.runtime import engine, kernel_select, ops, rng

    names: set[str] = set()
    for kind in (list, tuple, bytearray, bytes, dict, str, int, set, frozenset):
        names.update(n for n in dir(kind) if not n.startswith("_"))
    for module in (ops, kernel_select.K, runtime):
        for n, v in vars(module).items():
            if n.startswith("_") or inspect.ismodule(v):
                continue
            if callable(v) and getattr(v, "__module__", "").startswith(("regle.runtime", "_kernels")):
                names.add(n)
            elif isinstance(v, (int, str, tuple)):
                names.add(n)
    for cls in (engine.BaseState, engine.Game, engine.Move, rng.Rng):
        names.update(n for n in dir(cls) if not n.startswith("__"))
    names.update(engine.BaseState.BASE_FIELDS)
    names.update(NATIVE_STATE_METHODS)
    return frozenset(names - _UNSAFE_METHODS)


def _refuse(what: str, node: pyast.AST) -> None:
    line = getattr(node, "lineno", 1)
    raise RulesError([Diagnostic(f"internal: generated code {what} (engine line {line}); "
                                 "please report this rules file", 1, 1)])


def verify(code: str) -> None:
    """Refuse generated code outside the shapes the templates produce.

    Allowed: imports from ``regle.runtime`` only; names bound in the module or a few safe
    built-ins; attributes of the runtime's own API, of containers, of the module's own
    classes and state slots; no dunder but the template's own.
    """
    tree = pyast.parse(code)
    bound: set[str] = set()
    own_attributes: set[str] = set()
    for node in pyast.walk(tree):
        if isinstance(node, (pyast.Import, pyast.ImportFrom)):
            if not (isinstance(node, pyast.ImportFrom) and node.module == "regle.runtime" and node.level == 0):
                _refuse(f"imports {getattr(node, 'module', None) or [a.name for a in node.names]}", node)
            bound.update(a.asname or a.name for a in node.names)
        elif isinstance(node, pyast.Name) and isinstance(node.ctx, (pyast.Store, pyast.Del)):
            bound.add(node.id)
        elif isinstance(node, (pyast.FunctionDef, pyast.ClassDef)):
            bound.add(node.name)
            own_attributes.add(node.name)
        elif isinstance(node, pyast.arg):
            bound.add(node.arg)
        elif isinstance(node, (pyast.Global, pyast.Nonlocal, pyast.AsyncFunctionDef, pyast.Await,
                               pyast.Yield, pyast.YieldFrom)):
            _refuse(f"uses {type(node).__name__.lower()}", node)
        elif isinstance(node, pyast.Assign) and any(isinstance(t, pyast.Name) and t.id == "__slots__"
                                                    for t in node.targets):
            value = node.value.right if isinstance(node.value, pyast.BinOp) else node.value  # BASE + (...)
            if isinstance(value, pyast.Tuple):
                own_attributes.update(e.value for e in value.elts
                                      if isinstance(e, pyast.Constant) and isinstance(e.value, str))
    shadowed = sorted(n for n in bound if n in _BUILTIN_NAMES and n not in SAFE_BUILTINS)
    if shadowed:
        _refuse(f"binds the built-in name {shadowed[0]}", tree)
    allowed_attributes = _runtime_attributes() | own_attributes | {"__new__"}
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name):
            if node.id.startswith("__") and node.id not in TEMPLATE_DUNDERS:
                _refuse(f"names {node.id}", node)
            if isinstance(node.ctx, pyast.Load) and node.id not in bound and node.id not in SAFE_BUILTINS:
                _refuse(f"reads the name {node.id}", node)
        elif isinstance(node, pyast.Attribute):
            if node.attr.startswith("__") and node.attr not in TEMPLATE_DUNDERS:
                _refuse(f"touches {node.attr}", node)
            if node.attr not in allowed_attributes:
                _refuse(f"uses the attribute {node.attr}", node)
