"""Assist mode data: a run's top chunks for a question, with the coverage of its elements.

Kept out of the page screen so the (pure) scoring call runs in a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.store import Store, assist_inputs
from scoring import Grade, classify

ASSIST_TOP_K = 5
#: the numbers of chunks ``+`` and ``-`` step through
ASSIST_KS = (1, 3, 5, 10, 20, 50)


@dataclass(frozen=True)
class AssistChunk:
    """One of the run's chunks for the question, graded against its elements."""

    rank: int
    text: str
    doc_id: str | None
    coverage: float
    grade: Grade
    #: where the chunk's text first occurs on the page shown (start, end), if it does
    at: tuple[int, int] | None = None


def step_k(k: int, delta: int) -> int:
    """The next (``delta`` > 0) or previous number of chunks in :data:`ASSIST_KS`,
    staying at the ends."""
    larger = [n for n in ASSIST_KS if n > k]
    smaller = [n for n in ASSIST_KS if n < k]
    if delta > 0:
        return larger[0] if larger else k
    return smaller[-1] if smaller else k


def assist_chunks(
    store: Store,
    run_id: int,
    query_id: int,
    external_id: str,
    k: int = ASSIST_TOP_K,
    page: str | None = None,
    *,
    annotator: str | None = None,
) -> list[AssistChunk]:
    """The top ``k`` chunks of run ``run_id`` for a question, best coverage per chunk;
    with ``page`` (the text shown), where each chunk's text occurs on it (exact match,
    first occurrence; None for a chunk of another page or a reworded one). With
    ``annotator``, coverage is against the elements they may see (their own in a team gold
    set: assist must not reveal another annotator's spans)."""
    inputs = assist_inputs(store, run_id, query_id, external_id, k, annotator=annotator)
    elements, pages = inputs.elements, inputs.pages
    out: list[AssistChunk] = []
    for chunk in inputs.chunks:
        best_grade, best_cov = Grade.NONE, 0.0
        for e in elements:
            c = classify(pages[e.document_id], e.text, chunk.text)
            if (c.grade, c.coverage) > (best_grade, best_cov):
                best_grade, best_cov = c.grade, c.coverage
        at = None
        found = page.find(chunk.text) if page is not None and chunk.text else -1
        if found >= 0:
            at = (found, found + len(chunk.text))
        out.append(AssistChunk(chunk.rank, chunk.text, chunk.doc_id, best_cov, best_grade, at))
    return out
