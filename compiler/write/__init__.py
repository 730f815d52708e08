"""Writing: the IR as each engine's code (Python, Cython), the templates, and the check of the code written."""
