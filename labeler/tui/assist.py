"""Assist mode data: a run's top chunks for a question, with the coverage of its elements.

Kept out of the page screen so the (pure) scoring call runs in a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.store import Store, page_text, question_elements, run_chunks
from scoring import Grade, classify

ASSIST_TOP_K = 5


@dataclass(frozen=True)
class AssistChunk:
    """One of the run's chunks for the question, graded against its elements."""

    rank: int
    text: str
    doc_id: str | None
    coverage: float
    grade: Grade


def assist_chunks(
    store: Store, run_id: int, query_id: int, external_id: str, k: int = ASSIST_TOP_K
) -> list[AssistChunk]:
    """The top ``k`` chunks of run ``run_id`` for a question, best coverage per chunk."""
    with store.session() as s:
        chunks = run_chunks(s, run_id, external_id).get(external_id, [])[:k]
        elements = question_elements(s, query_id)
        pages = {e.document_id: page_text(s, e.document_id) or "" for e in elements}
    out: list[AssistChunk] = []
    for chunk in chunks:
        best_grade, best_cov = Grade.NONE, 0.0
        for e in elements:
            c = classify(pages[e.document_id], e.text, chunk.text)
            if (c.grade, c.coverage) > (best_grade, best_cov):
                best_grade, best_cov = c.grade, c.coverage
        out.append(AssistChunk(chunk.rank, chunk.text, chunk.doc_id, best_cov, best_grade))
    return out
