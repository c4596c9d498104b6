"""Interchange formats: streaming readers that name the line of every problem, and writers.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.formats.beir import (
        write_beir,
    )
    from labeler.formats.chunks_jsonl import (
        PlacedChunk,
        place_chunks,
        read_chunks,
        write_chunks,
    )
    from labeler.formats.doccano import (
        read_doccano,
    )
    from labeler.formats.files import (
        create_beside,
    )
    from labeler.formats.gold_jsonl import (
        layer_line_json,
        read_gold,
        write_lines,
    )
    from labeler.formats.jsonlines import (
        read_objects,
    )
    from labeler.formats.labelstudio import (
        read_labelstudio,
    )
    from labeler.formats.lines import MAX_LINE_BYTES, line_limit, read_bounded, read_lines
    from labeler.formats.qrels import (
        Question,
        Span,
        corpus_chunks,
        project,
        write_trec_qrels,
    )
    from labeler.formats.ragas import (
        ragas_lines,
        read_ragas,
    )
    from labeler.formats.span_import import (
        resolve_tasks,
    )

_HOMES: dict[str, str] = {
    "PlacedChunk": "labeler.formats.chunks_jsonl",
    "Question": "labeler.formats.qrels",
    "Span": "labeler.formats.qrels",
    "corpus_chunks": "labeler.formats.qrels",
    "create_beside": "labeler.formats.files",
    "layer_line_json": "labeler.formats.gold_jsonl",
    "place_chunks": "labeler.formats.chunks_jsonl",
    "project": "labeler.formats.qrels",
    "ragas_lines": "labeler.formats.ragas",
    "read_ragas": "labeler.formats.ragas",
    "read_chunks": "labeler.formats.chunks_jsonl",
    "read_doccano": "labeler.formats.doccano",
    "read_gold": "labeler.formats.gold_jsonl",
    "read_labelstudio": "labeler.formats.labelstudio",
    "read_objects": "labeler.formats.jsonlines",
    "MAX_LINE_BYTES": "labeler.formats.lines",
    "line_limit": "labeler.formats.lines",
    "read_bounded": "labeler.formats.lines",
    "read_lines": "labeler.formats.lines",
    "resolve_tasks": "labeler.formats.span_import",
    "write_beir": "labeler.formats.beir",
    "write_chunks": "labeler.formats.chunks_jsonl",
    "write_lines": "labeler.formats.gold_jsonl",
    "write_trec_qrels": "labeler.formats.qrels",
}

__all__ = [
    "MAX_LINE_BYTES",
    "PlacedChunk",
    "Question",
    "Span",
    "corpus_chunks",
    "create_beside",
    "layer_line_json",
    "line_limit",
    "place_chunks",
    "project",
    "ragas_lines",
    "read_bounded",
    "read_chunks",
    "read_doccano",
    "read_gold",
    "read_labelstudio",
    "read_lines",
    "read_objects",
    "read_ragas",
    "resolve_tasks",
    "write_beir",
    "write_chunks",
    "write_lines",
    "write_trec_qrels",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.formats' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
