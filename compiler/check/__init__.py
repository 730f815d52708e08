"""Checking: the declarations, names, types, geometry and facts read off the rules (AST in, symbols out)."""
