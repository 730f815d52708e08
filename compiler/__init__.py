"""The compiler, laid out as its pipeline (docs/compiler.md, "The rooms"):

- ``check``: the declarations checked into symbols, and facts read off the rules' AST;
- ``lower``: the checked rules lowered to the typed IR, the same for both engines;
- ``ir``: the typed IR itself (expression and statement trees, ``GameIR``, types, the evaluator);
- ``passes``: optimizations over the IR, those both engines share and each engine's own;
- ``write``: the IR written as each engine's code (emitters, templates, the safety check);
- ``generate``: the driver, from rules text to an engine module's source.
"""
