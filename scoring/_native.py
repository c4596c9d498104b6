"""Which modules of the scoring path run compiled, and when their sources run instead.

``make`` compiles the modules of :data:`COMPILED` with mypyc (``scripts/build_native.py``)
from the same sources, into extension modules beside them (one group: a call from one to
another is a C call). Python prefers an extension module to the source beside it, so a
compiled module older than its source would run code that is no longer there. Before any
of them is imported (importing this module does it: ``scoring`` and ``labeler`` import it
first), :func:`install` checks every one: when one has no extension
for this interpreter, when a source was changed after its extension was built, or when
:data:`PURE_ENV` is set, *all* of them are imported from their sources (a compiled module
calls the compiled code of the others directly, so a mix would still run the old code).
The results are the same either way (a test scores one database both ways and compares the
output byte for byte); only the time differs.

This module is never compiled itself, and imports only the standard library.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

__all__ = ["COMPILED", "PURE_ENV", "NativeState", "install", "source_path", "state"]

COMPILED: tuple[str, ...] = (
    "scoring.budget",
    "scoring.classify",
    "scoring.grades",
    "scoring.metrics",
    "scoring.pooling",
    "scoring.result",
    "scoring.score",
    "scoring.snap",
    "scoring.spans",
    "labeler.evaluation._judged_at_k",
    "labeler.evaluation._ranges",
    "labeler.runs._placements",
    "labeler.store.rows",
)
"""The modules compiled, by name: the hot path of ``labeler score`` (judging, snapping,
figures, judged@k, reading a range and grouping its rows). Each must run the same compiled or not: a value that
is checked at run time is annotated ``object``, since compiled code checks annotations
itself (a ``bool`` given for an ``int`` would be taken as 0 or 1 before the check ran)."""

PURE_ENV = "LABELER_PURE_PYTHON"
"""Set (to anything but an empty string) in the environment: import every module of
:data:`COMPILED` from its source."""

_ROOT = Path(__file__).resolve().parent.parent


class NativeState(NamedTuple):
    """Whether the compiled modules are in use, and why not when they are not."""

    in_use: bool
    reason: str


_STATE: NativeState | None = None


def source_path(name: str) -> Path:
    """The ``.py`` source of module ``name`` of :data:`COMPILED`."""
    return _ROOT.joinpath(*name.split(".")).with_suffix(".py")


def _extension(name: str) -> Path | None:
    """The extension module built for this interpreter beside ``name``'s source, if any."""
    source = source_path(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        built = source.with_suffix(suffix)
        if built.exists():
            return built
    return None


def _why_not() -> str | None:
    """Why the compiled modules must not be used (None: they may)."""
    if os.environ.get(PURE_ENV):
        return f"{PURE_ENV} is set"
    for name in COMPILED:
        built = _extension(name)
        if built is None:
            return "not built (make builds them)"
        if source_path(name).stat().st_mtime > built.stat().st_mtime:
            return f"{source_path(name).relative_to(_ROOT)} changed since it was compiled"
    return None


class _FromSource:
    """Finds the modules of :data:`COMPILED` as their ``.py`` sources, ahead of the
    extension modules that the path finder would prefer (a meta path finder: only
    ``find_spec`` is asked for; ``importlib.abc`` is not imported for it, which would cost
    15 ms of every command's start)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def install() -> NativeState:
    """Decide once per process whether the compiled modules are used (see the module's
    docstring); when not, put the finder of their sources first. Returns the decision."""
    global _STATE
    if _STATE is None:
        reason = _why_not()
        if reason is not None:
            sys.meta_path.insert(0, _FromSource())
            _STATE = NativeState(False, reason)
        else:
            _STATE = NativeState(True, "compiled with mypyc")
    return _STATE


def state() -> NativeState:
    """Whether the compiled modules are in use in this process (:func:`install`)."""
    return install()


install()
