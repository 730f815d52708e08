"""The rules language front end: grammar, parser to an AST with positions, errors."""
from .errors import Diagnostic, RulesError, Source
from .parser import parse, parse_file

__all__ = ["Diagnostic", "RulesError", "Source", "parse", "parse_file"]
