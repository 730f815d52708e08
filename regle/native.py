"""Native engines: the generated engine compiled by Cython into an extension module, once per
rules text, and cached beside the Python engines.

The Cython source comes from the same lowering and template as the Python engine
(``compiler.generate.native_source``): the state's fields become typed fields of a compiled
class and its methods compiled methods, so the two backends play the same game move for move
(tests/test_native.py checks it on every game file). The cache key adds to the Python engine's
key the Cython version, the C compiler and the Python build, so that an upgrade of any of them
builds again instead of loading a stale module.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import itertools
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from regle import cython_worker

BACKENDS = ("auto", "python", "native")


class NativeUnavailable(RuntimeError):
    """No native engine can be built here (no Cython, no C compiler or no Python headers), or
    the build failed; the message says which and what to do."""


#: the compiled modules native engines cimport, and their declarations: the kernels, and the
#: support every engine shares (its state's base class, keys, the generator in C)
COMPILED = ("regle.runtime._kernels", "regle.runtime._support")
PXDS = ("_kernels.pxd", "_support.pxd")
#: how a build runs Cython (through a warm worker, which answers as this command would)
CYTHON = cython_worker.COMMAND


def default_backend() -> str:
    """The backend ``regle.load`` uses when none is named: ``REGLE_BACKEND`` if set, else auto."""
    value = os.environ.get("REGLE_BACKEND", "auto").strip().lower() or "auto"
    if value not in BACKENDS:
        raise ValueError(f"REGLE_BACKEND={value!r}: use one of {', '.join(BACKENDS)}")
    return value


@lru_cache(maxsize=1)
def compiler_command() -> list[str] | None:
    """The C compiler Python's own build used (``CC``), when it is installed here."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    parts = cc.split()
    return parts if parts and shutil.which(parts[0]) else None


@lru_cache(maxsize=1)
def toolchain() -> dict[str, str]:
    """What a native build depends on besides regle itself: Cython, the C compiler, Python."""
    try:
        import Cython
        cython = Cython.__version__
    except ImportError:
        cython = ""
    cc = compiler_command()
    version = ""
    if cc:
        try:  # a compiler that does not run (CC=/bin/false) is no compiler
            out = subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=20)
            said = (out.stdout or out.stderr).strip()
            version = (said.splitlines()[0] if said else cc[0]) if out.returncode == 0 else ""
        except (OSError, subprocess.SubprocessError):
            version = ""
    return {"cython": cython, "compiler": version, "flags": " ".join(optimise_flags()), "python": sys.version.split()[0],
            "platform": sysconfig.get_platform(), "abi": sysconfig.get_config_var("EXT_SUFFIX") or ""}


def _compiled_kernels() -> bool:
    """Whether regle.runtime._kernels and _support are built (native engines call them even
    when REGLE_PURE makes the Python engines use the pure twins)."""
    try:
        for module in COMPILED:
            importlib.import_module(module)
    except ImportError:
        return False
    return True


def unavailable_reason() -> str | None:
    """Why no native engine can be built here, or None when one can."""
    facts = toolchain()
    if not facts["cython"]:
        return "Cython is not installed (pip install cython)"
    if not facts["compiler"]:
        cc = compiler_command()
        if cc:
            return f"the C compiler {' '.join(cc)} does not run ({cc[0]} --version failed; set CC to a working one)"
        return "no C compiler was found (install gcc or clang, or set CC)"
    if not _compiled_kernels():
        return "the compiled kernels are not built (reinstall regle with a C compiler and Cython)"
    include = sysconfig.get_paths().get("include", "")
    if not include or not Path(include, "Python.h").exists():
        return f"the Python headers are missing (Python.h not in {include or 'the include path'})"
    return None


def available() -> bool:
    return unavailable_reason() is None


def native_key(python_key: str) -> str:
    """The cache key of a native engine: the Python engine's key plus the native toolchain."""
    h = hashlib.sha256(python_key.encode())
    h.update(Path(__file__).read_bytes())  # how this module builds
    for pxd in PXDS:  # the C signatures of the kernels and the support it calls
        h.update(runtime_pxd(pxd))
    for part in sorted(toolchain().items()):
        h.update(repr(part).encode())
    return h.hexdigest()[:20]


#: C compiler options of native engines: position-independent, quiet (Cython's C draws warnings
#: that are not ours), and optimised as REGLE_NATIVE_CFLAGS says (default -O2; -O0 builds in a
#: fifth of the time and runs slower: the test suite uses it)
BASE_FLAGS = ["-fPIC", "-w", "-fwrapv"]


def optimise_flags() -> list[str]:
    return os.environ.get("REGLE_NATIVE_CFLAGS", "-O2").split() + BASE_FLAGS


def link_command() -> list[str]:
    """How Python's build makes an extension module (LDSHARED: ``gcc -shared ...``), with the
    compiler found here in front."""
    ldshared = (sysconfig.get_config_var("LDSHARED") or "cc -shared").split()
    cc = compiler_command() or ["cc"]
    return [*cc, *ldshared[1:]]


def module_path(folder: Path, module_name: str) -> Path:
    return folder / (module_name + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def shared_name() -> str:
    """The module of Cython's own helpers every native engine built here imports instead of
    compiling its own copy (``cython --shared``): named after the toolchain that builds it, so
    that engines of one Cython, compiler and Python share one, and an upgrade makes another."""
    h = hashlib.sha256(b"cython shared utility")
    for part in sorted(toolchain().items()):
        h.update(repr(part).encode())
    return f"regle_cyutility_{h.hexdigest()[:16]}"


def shares_helpers() -> bool:
    """Whether this Cython can put its helpers in a module of their own (``--shared``: Cython
    3.1 and later); an older one writes them into each engine, as before."""
    digits = ["".join(itertools.takewhile(str.isdigit, part)) for part in toolchain()["cython"].split(".")[:2]]
    if len(digits) < 2 or not all(digits):
        return False
    return (int(digits[0]), int(digits[1])) >= (3, 1)  # (4.0a1: 4, 0)


def shared_module(folder: Path) -> Path:
    """The shared helpers' module in ``folder``, built there first when it is not (or not what
    was built: its record says). Written atomically, so that builds side by side are harmless.
    It holds what Cython writes into every module otherwise (memoryviews, the types of its
    functions, conversions): an engine compiles a third less C with it."""
    name = shared_name()
    target = module_path(folder, name)
    if target.exists() and verified(target):
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="regle-native-") as tmp:
        c_file, built = Path(tmp, name + ".c"), Path(tmp, target.name)
        _run([([*CYTHON, f"--generate-shared={c_file}"], c_file), _link(c_file, built)])
        _keep(built, target)
    return target


def load_shared(folder: Path) -> None:
    """Import the shared helpers' module from ``folder`` before an engine that needs it (the
    engine imports it by name: it must be in sys.modules). ImportError when it is missing or
    not the file that was built (never mapped: a file cut short would crash the process): the
    caller builds the engine again, and the module with it (replaced whole, so that a process
    beside that reads it meanwhile sees one file or the other)."""
    name = shared_name()
    if name in sys.modules or not shares_helpers():
        return
    target = module_path(folder, name)
    if not (target.exists() and verified(target)):
        raise ImportError(f"the shared module {target.name} is missing or not the file that was built")
    import_module(target, name, shared=False)


def build(source: str, module_name: str, folder: Path, say=None) -> Path:
    """Compile Cython ``source`` into the extension module ``module_name`` in ``folder`` (written
    atomically: a concurrent build of the same module is harmless). Returns the module's path.
    ``say``, when given, is told what is happening (a cold build takes seconds)."""
    reason = unavailable_reason()
    if reason:
        raise NativeUnavailable(f"cannot build a native engine: {reason}")
    target = module_path(folder, module_name)
    folder.mkdir(parents=True, exist_ok=True)
    pyx = folder / (module_name + ".pyx")  # kept: tracebacks of the module read its lines
    fd, tmp_pyx = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:  # whole or not at all: a build beside may read it
        f.write(source)
    os.replace(tmp_pyx, pyx)
    started = time.perf_counter()
    if say:
        say(f"compiling the native engine (once for these rules; cached in {folder})...")
    shared = [f"--shared={shared_name()}"] if shares_helpers() else []
    if shared:
        shared_module(folder)  # Cython's helpers, once per toolchain: the engine imports them
    with tempfile.TemporaryDirectory(prefix="regle-native-") as tmp:
        c_file, built = Path(tmp, module_name + ".c"), Path(tmp, target.name)
        include = kernel_headers(Path(tmp, "include"))
        _run([([*CYTHON, "-3", "--fast-fail", *shared, "-I", str(include), str(pyx), "-o",
                str(c_file)], c_file), _link(c_file, built)], cwd=tmp)
        _keep(built, target)
    if say:
        say(f"native engine built in {time.perf_counter() - started:.1f} s")
    return target


def _link(c_file: Path, built: Path) -> tuple[list[str], Path]:
    """The C compiler's command that makes an extension module of ``c_file``, and its output."""
    return [*link_command(), *optimise_flags(), "-I", sysconfig.get_paths()["include"], str(c_file), "-o", str(built)], built


def _run(steps: list[tuple[list[str], Path]], cwd: str | None = None) -> None:
    """Cython, then the C compiler (each a command and the file it makes): NativeUnavailable
    saying which failed and what it said."""
    for command, output in steps:
        if command[:3] == CYTHON:  # a warm Cython (regle/cython_worker.py): the same file, a second sooner
            status, printed = cython_worker.translate(command[3:], cwd)
        else:
            proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
            status, printed = proc.returncode, proc.stderr or proc.stdout
        if status != 0 or not output.exists():
            log = [line for line in printed.strip().splitlines() if "warning" not in line]
            said = "\n  ".join(log[-12:]) or f"{command[0]} exited with status {status} and said nothing"
            if command is steps[0][0]:  # Cython refused the generated code: regle's own mistake
                raise NativeUnavailable("the native engine did not build (this is a bug of regle: please report "
                                        "it with the rules file):\n  " + said)
            raise NativeUnavailable(f"the C compiler ({command[0]}) failed to build the native engine; check "
                                    "that it works (or set CC), or use backend='python':\n  " + said)


def _keep(built: Path, target: Path) -> None:
    """The module just built copied into the cache whole or not at all, and its record kept."""
    fd, tmp_target = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    os.close(fd)
    shutil.copyfile(built, tmp_target)
    os.replace(tmp_target, target)
    _record(target, built)


def _fingerprint(path: Path) -> str:
    """A module file's size and SHA-256, as its record keeps them."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return f"{size} {digest.hexdigest()}"


def record_path(target: Path) -> Path:
    """Where the size and hash of a built module are kept, beside it."""
    return target.with_name(target.name + ".sum")


def _record(target: Path, built: Path) -> None:
    """Keep the size and hash of the module just built (written whole or not at all)."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(_fingerprint(built))
    os.replace(tmp, record_path(target))


def verified(target: Path) -> bool:
    """Whether a cached module is the file that was built: its size and hash as recorded. A
    truncated file would crash the process that maps it (a bus error), and one without a
    record (an older cache, an interrupted build) is not believed either: both are rebuilt."""
    try:
        return record_path(target).read_text(encoding="ascii").strip() == _fingerprint(target)
    except (OSError, UnicodeDecodeError):
        return False


def forget(target: Path) -> None:
    """Remove a cached module and its record (a mismatch, a corrupt file)."""
    for path in (target, record_path(target)):
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass


def runtime_pxd(name: str) -> bytes:
    """The declarations of a compiled runtime module that native engines call at C level."""
    from importlib.resources import files
    return files("regle.runtime").joinpath(name).read_bytes()


def kernel_headers(folder: Path) -> Path:
    """A folder laid out as the package (regle/runtime/_kernels.pxd, _support.pxd) for Cython's
    ``cimport``: an editable install keeps the files elsewhere (runtime/), so they are copied."""
    package = folder / "regle" / "runtime"
    package.mkdir(parents=True, exist_ok=True)
    for init in (folder / "regle" / "__init__.pxd", package / "__init__.pxd"):
        init.write_text("", encoding="utf-8")
    for pxd in PXDS:
        (package / pxd).write_bytes(runtime_pxd(pxd))
    return folder


def import_module(path: Path, module_name: str, shared: bool = True):
    """Import a built native engine from its file (``shared``: the shared helpers' module beside
    it first)."""
    if shared:
        load_shared(path.parent)
    loader = importlib.machinery.ExtensionFileLoader(module_name, str(path))
    spec = importlib.util.spec_from_file_location(module_name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module
