"""The rules language front end: grammar, parser to an AST with positions, errors.

The parser (and Lark with it) is imported when first used: a program that only meets a
``RulesError`` (an adapter, an engine) does not pay for it."""
from .errors import Diagnostic, RulesError, Source

__all__ = ["Diagnostic", "RulesError", "Source", "parse", "parse_file"]


def __getattr__(name: str):
    if name in ("parse", "parse_file", "parser", "ast"):
        import importlib
        module = importlib.import_module(f"{__name__}.{'ast' if name == 'ast' else 'parser'}")
        return getattr(module, name) if name in ("parse", "parse_file") else module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
