"""Pages: ingest files and directories into page text in the store, with change detection.

:func:`ingest_paths` walks the given paths, extracts each page's text with its profile
(:mod:`labeler.extract`) and stores it; a page whose text changed has its labels re-anchored
(:mod:`labeler.anchoring`).

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.pages._ingest_files import (
        DEFAULT_MAX_BYTES,
        IngestFailure,
        IngestReport,
        ProgressFn,
        collect,
        ingest_paths,
    )

_HOMES: dict[str, str] = {
    "DEFAULT_MAX_BYTES": "labeler.pages._ingest_files",
    "IngestFailure": "labeler.pages._ingest_files",
    "IngestReport": "labeler.pages._ingest_files",
    "ProgressFn": "labeler.pages._ingest_files",
    "collect": "labeler.pages._ingest_files",
    "ingest_paths": "labeler.pages._ingest_files",
}

__all__ = [
    "DEFAULT_MAX_BYTES",
    "IngestFailure",
    "IngestReport",
    "ProgressFn",
    "collect",
    "ingest_paths",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.pages' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
