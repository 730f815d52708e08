"""Reading rules files safely: regular files only, never more than the size limit, and
``extend`` kept inside the project the top file belongs to.

A rules file is untrusted: it may name ``/dev/zero``, a FIFO nobody writes, ``/etc/passwd``
or a file one symlink away from anywhere. Every read of a rules file goes through
:func:`read_source`, and every ``extend`` path through :func:`extend_target`.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import Diagnostic, RulesError, Source

#: The largest rules text regle reads (bytes); one byte more is read to tell it is too large.
MAX_SOURCE_BYTES = 2_000_000
#: Files that make a folder the root of a project (extend stays below it).
PROJECT_MARKERS = (".git", "pyproject.toml", "setup.py", "regle.toml")
#: Extra folders that ``extend`` may reach, separated by os.pathsep.
SEARCH_PATH_VARIABLE = "REGLE_PATH"


class UnreadableFile(Exception):
    """Why a path cannot be read as a rules file (a sentence for the author)."""


def read_limited(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a regular file, at most ``limit + 1`` of them; never blocks on a FIFO or
    device (opened non-blocking and refused unless it is a regular file)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UnreadableFile(exc.strerror or str(exc)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnreadableFile("not a regular file (a folder, device or pipe)")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def read_source(path: str | os.PathLike, name: str | None = None) -> Source:
    """A rules file as a :class:`Source`; a RulesError at 1:1 when it cannot be read."""
    from .parser import _decode  # local: the parser imports this module
    name = str(path) if name is None else name
    try:
        data = read_limited(path)
    except UnreadableFile as exc:
        raise RulesError([Diagnostic(f"cannot read the file: {exc}", 1, 1)], Source("", name)) from None
    return _decode(data, name)


def project_root(filename: str) -> Path:
    """The folder ``extend`` may not leave: the nearest folder at or above the top rules file
    holding a project marker (.git, pyproject.toml, setup.py, regle.toml), else its own folder.
    For a text with no file, the current folder stands for it."""
    here = (Path(filename).parent if not filename.startswith("<") else Path(".")).resolve()
    for folder in (here, *here.parents):
        if any((folder / marker).exists() for marker in PROJECT_MARKERS):
            return folder
    return here


def search_roots(top_filename: str) -> list[Path]:
    roots = [project_root(top_filename)]
    for entry in os.environ.get(SEARCH_PATH_VARIABLE, "").split(os.pathsep):
        if entry.strip():
            roots.append(Path(entry).resolve())
    return roots


def extend_target(path_text: str, filename: str, top_filename: str) -> Path:
    """Where ``extend "path_text"`` in ``filename`` points (relative to that file's folder),
    or UnreadableFile saying why it may not be read."""
    here = Path(filename).parent if not filename.startswith("<") else Path(".")
    target = (here / path_text).resolve()
    roots = search_roots(top_filename)
    if not any(root in target.parents for root in roots):
        raise UnreadableFile(f"'{path_text}' is outside the project folder {roots[0]}")
    if target.suffix != ".rules":
        raise UnreadableFile(f"'{path_text}' is not a rules file (extend reads only files ending in .rules)")
    return target
