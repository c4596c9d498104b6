"""Gold sets in and out: JSONL import (all or nothing) and export, ``gold import --layer``
(a file as one annotator's own labels), Label Studio / doccano span import, and a gold set
read as scoring reads it (alone, or with a chunk file placed on the pages). Each verb takes
the store and opens its own session or transaction.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.gold._exports import (
        ElementKeys,
        LayerExport,
        ScoredGold,
        export_gold_layer,
        read_scored_gold,
    )
    from labeler.gold._layer_import import (
        LayerImport,
        import_layer_file,
        own_part,
    )
    from labeler.gold._snapping import SnapOptions
    from labeler.gold._task_import import (
        SpanFileImport,
        import_span_file,
    )
    from labeler.gold._transfer import (
        PROVENANCE_SINGLE,
        ResolvedElement,
        ResolvedQuestion,
        ResolveSummary,
        final_layer,
        import_gold_file,
        resolve_gold,
        resolve_lines,
        summarize,
    )

_HOMES: dict[str, str] = {
    "ElementKeys": "labeler.gold._exports",
    "LayerExport": "labeler.gold._exports",
    "LayerImport": "labeler.gold._layer_import",
    "PROVENANCE_SINGLE": "labeler.gold._transfer",
    "ResolveSummary": "labeler.gold._transfer",
    "ResolvedElement": "labeler.gold._transfer",
    "ResolvedQuestion": "labeler.gold._transfer",
    "ScoredGold": "labeler.gold._exports",
    "SnapOptions": "labeler.gold._snapping",
    "SpanFileImport": "labeler.gold._task_import",
    "export_gold_layer": "labeler.gold._exports",
    "final_layer": "labeler.gold._transfer",
    "import_gold_file": "labeler.gold._transfer",
    "import_layer_file": "labeler.gold._layer_import",
    "import_span_file": "labeler.gold._task_import",
    "own_part": "labeler.gold._layer_import",
    "read_scored_gold": "labeler.gold._exports",
    "resolve_gold": "labeler.gold._transfer",
    "resolve_lines": "labeler.gold._transfer",
    "summarize": "labeler.gold._transfer",
}

__all__ = [
    "PROVENANCE_SINGLE",
    "ElementKeys",
    "LayerExport",
    "LayerImport",
    "ResolveSummary",
    "ResolvedElement",
    "ResolvedQuestion",
    "ScoredGold",
    "SnapOptions",
    "SpanFileImport",
    "export_gold_layer",
    "final_layer",
    "import_gold_file",
    "import_layer_file",
    "import_span_file",
    "own_part",
    "read_scored_gold",
    "resolve_gold",
    "resolve_lines",
    "summarize",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.gold' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
