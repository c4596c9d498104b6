"""Retrieval runs: import a run file (staged outside the write lock, stored in one short
transaction) and the placements of its chunks on the labelled pages.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.runs._export import run_export_lines
    from labeler.runs._import import (
        BATCH_RESULTS,
        PlaceReport,
        RunImportReport,
        import_run_chunks,
        import_run_file,
        import_run_lines,
        place_run,
    )
    from labeler.runs._placements import (
        PageKeys,
        Placer,
        RowPlacer,
        Stored,
        StoredPlacements,
        decode,
        encode,
        load_placed_run,
        page_keys,
        place_rows,
        placements_for,
        text_key,
    )
    from labeler.runs._pool import PoolReport, QuestionPool, pool_runs

_HOMES: dict[str, str] = {
    "BATCH_RESULTS": "labeler.runs._import",
    "PageKeys": "labeler.runs._placements",
    "PlaceReport": "labeler.runs._import",
    "PoolReport": "labeler.runs._pool",
    "QuestionPool": "labeler.runs._pool",
    "place_rows": "labeler.runs._placements",
    "RowPlacer": "labeler.runs._placements",
    "pool_runs": "labeler.runs._pool",
    "Placer": "labeler.runs._placements",
    "RunImportReport": "labeler.runs._import",
    "Stored": "labeler.runs._placements",
    "StoredPlacements": "labeler.runs._placements",
    "decode": "labeler.runs._placements",
    "encode": "labeler.runs._placements",
    "import_run_chunks": "labeler.runs._import",
    "import_run_file": "labeler.runs._import",
    "import_run_lines": "labeler.runs._import",
    "load_placed_run": "labeler.runs._placements",
    "page_keys": "labeler.runs._placements",
    "place_run": "labeler.runs._import",
    "placements_for": "labeler.runs._placements",
    "run_export_lines": "labeler.runs._export",
    "text_key": "labeler.runs._placements",
}

__all__ = [
    "BATCH_RESULTS",
    "PageKeys",
    "PlaceReport",
    "Placer",
    "PoolReport",
    "QuestionPool",
    "RowPlacer",
    "RunImportReport",
    "Stored",
    "StoredPlacements",
    "decode",
    "encode",
    "import_run_chunks",
    "import_run_file",
    "import_run_lines",
    "load_placed_run",
    "page_keys",
    "place_rows",
    "place_run",
    "placements_for",
    "pool_runs",
    "run_export_lines",
    "text_key",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.runs' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
