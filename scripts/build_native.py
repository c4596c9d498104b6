"""Compile the scoring path's modules (``scoring._native.COMPILED``) with mypyc, in place.

    python scripts/build_native.py          # build the extension modules beside the sources
    python scripts/build_native.py --list   # print the sources compiled (for make)
    python scripts/build_native.py --clean  # remove the extension modules built
    python scripts/build_native.py --stamp FILE  # build; FILE gets "1" when it was attempted

``--stamp`` is make's: FILE holds ``1`` when a C compiler and mypyc were there (the build was
attempted, so the tests require the compiled modules: a failed build fails a test), empty
when not.

``make run`` and ``make test`` run it after installing the package, and again when one of
those sources changes. mypyc type-checks the sources with the project's mypy settings
(the installed packages give it their types) and translates them to C, which the system's
C compiler builds: about a minute. Where there is no C compiler, or mypyc is not installed,
it says so on stderr and exits 0: the package then runs from its sources alone, with the
same results (``scoring._native``). A failed build says why and leaves no extension module
behind, so nothing half built is used; it exits 1, or 0 with ``--stamp`` (``make run`` goes
on from the sources; ``make test`` fails in ``tests/scoring/test_native.py``).
"""

from __future__ import annotations

import importlib.machinery
import os
import runpy
import shutil
import sys
import sysconfig
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "native"
GROUP = "scoring._native"  # the shared library of the group: scoring/_native__mypyc.*.so


def sources() -> list[Path]:
    """The sources of ``scoring._native.COMPILED`` (``source_path``), read without importing
    the package."""
    native = runpy.run_path(str(ROOT / "scoring" / "_native.py"), run_name="_native_list")
    return [native["source_path"](name) for name in native["COMPILED"]]


def built() -> list[Path]:
    """Every extension module of the group found in the tree (any interpreter's)."""
    found = []
    for source in [*sources(), ROOT / "scoring" / "_native__mypyc.py"]:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            found += source.parent.glob(source.stem + suffix)
        found += source.parent.glob(source.stem + ".cpython-*.so")
    return sorted(set(found))


def clean() -> None:
    for path in built():
        path.unlink()


def compiler() -> str | None:
    """The C compiler Python's build would call, if it is installed."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def main(argv: list[str]) -> int:
    if argv == ["--list"]:
        print(" ".join(str(path.relative_to(ROOT)) for path in sources()))
        return 0
    if argv == ["--clean"]:
        clean()
        return 0
    stamp = None
    if len(argv) == 2 and argv[0] == "--stamp":
        stamp = Path(argv[1])
        stamp.write_text("", encoding="utf-8")
    elif argv:
        print(__doc__, file=sys.stderr)
        return 2
    if compiler() is None:
        print("build_native: no C compiler: the scoring path runs from source", file=sys.stderr)
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError:
        print(
            "build_native: mypyc not installed: the scoring path runs from source", file=sys.stderr
        )
        return 0
    if stamp is not None:
        stamp.write_text("1", encoding="utf-8")
    os.chdir(ROOT)  # mypy reads the project's settings from pyproject.toml here
    clean()
    paths = [str(path.relative_to(ROOT)) for path in sources()]
    try:
        extensions = mypycify(paths, opt_level="3", group_name=GROUP, target_dir=str(BUILD / "c"))
        with warnings.catch_warnings():  # setuptools' remarks on pyproject.toml's metadata
            warnings.simplefilter("ignore")
            setup(
                name="labeler-native",
                ext_modules=extensions,
                script_args=["-q", "build_ext", "--inplace", "--build-temp", str(BUILD / "temp")],
            )
    except (Exception, SystemExit) as error:  # mypy's errors end in SystemExit
        clean()
        print(f"build_native: the build failed ({error}); nothing was installed", file=sys.stderr)
        return 0 if stamp is not None else 1
    # built from the sources as they are now: dated now (setuptools copies a module it did
    # not need to rebuild with its old date, which scoring._native would take as stale)
    for path in built():
        os.utime(path, None)
    print(f"build_native: {len(paths)} modules compiled", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
