"""Run export: a stored run written back as run JSONL v1, offsets included where known."""

from __future__ import annotations

import json
from collections.abc import Iterator

from labeler.store import Store
from labeler.store.run_table import get_run, run_rows

__all__ = ["run_export_lines"]


def run_export_lines(store: Store, name: str) -> Iterator[str]:
    """Run JSONL v1 lines of stored run ``name``, one per question (query ids ascending),
    results in rank order: ``{"query_id", "results": [{"text", "doc", "score", "start",
    "end"}]}``, each of ``doc``, ``score`` and the offsets only when stored. Importing the
    lines again stores the same results.

    Raises :class:`~labeler.errors.NotFoundError` for an unknown run (before any line).
    """
    with store.session() as session:
        rows = run_rows(session, get_run(session, name))
    for qid, ranked in rows.items():
        results = []
        for text, doc, score, start, end in ranked:
            result: dict[str, object] = {"text": text}
            if doc is not None:
                result["doc"] = doc
            if score is not None:
                result["score"] = score
            if start is not None and end is not None:
                result["start"], result["end"] = start, end
            results.append(result)
        yield json.dumps({"query_id": qid, "results": results}, ensure_ascii=False)
