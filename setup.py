"""Build the optional Cython kernels.

The kernels are an accelerator, not a requirement: when Cython or a C compiler is missing the
package installs in pure-Python mode with a visible warning, and `regle --version` says so.
Set REGLE_REQUIRE_KERNELS=1 (CI does) to make a failed build an error instead.
"""
import os
import shutil
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

REQUIRE = os.environ.get("REGLE_REQUIRE_KERNELS") == "1"


class OptionalBuildExt(build_ext):
    """build_ext that degrades to pure mode unless the kernels are required."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:  # the kernels' modules compiled side by side, one per core (--parallel N says otherwise)
            self.parallel = True

    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any build failure means pure mode
            self._warn(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._warn(exc)

    def _warn(self, exc):
        if REQUIRE:
            raise exc
        sys.stderr.write(
            "\n*** regle: the compiled kernels could not be built (%s).\n"
            "*** regle will run in pure-Python mode (slower). Install a C compiler and\n"
            "*** reinstall to get the compiled kernels.\n\n" % (exc,)
        )


#: the declarations native engines cimport: the kernels, and the support every engine shares
PXDS = ("_kernels.pxd", "_support.pxd")


def pxd_layout():
    """Cython finds a module's own .pxd by its package path (regle/runtime/_kernels.pxd) while
    the sources keep it in runtime/: lay it out that way for the build. The .pxd makes the
    kernels callable at C level from native engines (regle/native.py does the same)."""
    root = os.path.join("build", "pxd")
    package = os.path.join(root, "regle", "runtime")
    os.makedirs(package, exist_ok=True)
    for init in (os.path.join(root, "regle", "__init__.pxd"), os.path.join(package, "__init__.pxd")):
        open(init, "w").close()
    for pxd in PXDS:
        shutil.copyfile(os.path.join("runtime", pxd), os.path.join(package, pxd))
    return root


def translators():
    """How many Cython runs translate the kernels side by side: one per core where processes
    fork (a process started afresh would import this file and run setup() again), else 0
    (cythonize's own: no pool, one module after another)."""
    import multiprocessing
    return (os.cpu_count() or 1) if multiprocessing.get_start_method(allow_none=False) == "fork" else 0


def extensions():
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        if REQUIRE:
            raise
        sys.stderr.write("\n*** regle: Cython is missing (%s); pure-Python mode.\n\n" % exc)
        return []
    exts = cythonize(
        [Extension("regle.runtime._kernels", ["runtime/_kernels.pyx"]),
         Extension("regle.runtime._support", ["runtime/_support.pyx"]),
         # no fused multiply-add: the search's UCB values must round as Python's do
         Extension("regle.runtime._search", ["runtime/_search.pyx"], extra_compile_args=["-ffp-contract=off"])],
        compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False},
        include_path=[pxd_layout()],
        quiet=True,
        nthreads=translators(),
    )
    for ext in exts:  # cythonize() drops optional=True: set it again
        ext.optional = not REQUIRE
        ext.extra_compile_args = [*ext.extra_compile_args, "-g0"]  # no debug information in the wheel
    return exts


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
