"""Scoring a stored run against the current gold set, for the scores screen.

Scores through :func:`labeler.evaluation.score`, the entry point ``labeler score`` uses
(its reader chosen there), keeping the inputs for the drill-down; runs in a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.evaluation import ScoreRequest, score
from labeler.progress import Progress, no_progress
from labeler.store import RunSummary, Store
from scoring import Chunk as Chunk
from scoring import GoldElement, GoldQuestion, RunScore, classify


@dataclass(frozen=True)
class ScoredRun:
    """A scored run plus what the drill-down needs."""

    result: RunScore
    questions: dict[str, GoldQuestion]
    chunks: dict[str, list[Chunk]]
    pages: dict[str, str]
    stale_excluded: int = 0


def score_stored_run(
    store: Store, gold_set: str, run: RunSummary, progress: Progress = no_progress
) -> ScoredRun:
    """Score ``run`` against ``gold_set`` exactly as ``labeler score`` does with its
    defaults (the same request: stale elements left out, the run's stored placements used,
    in this thread), keeping the inputs for the drill-down; ``progress`` as
    :func:`labeler.evaluation.score` reports it."""
    request = ScoreRequest(gold_set, run.name, keep_inputs=True)
    scored = score(store, request, progress=progress)
    inputs = scored.inputs
    assert inputs is not None  # keep_inputs
    ev = scored.evaluation
    return ScoredRun(ev.result, inputs.questions, inputs.chunks, inputs.pages, ev.stale_excluded)


@dataclass(frozen=True)
class Cell:
    """One element against one chunk."""

    rank: int
    coverage: float
    grade: int


def element_matrix(
    scored: ScoredRun, query_id: str, k: int
) -> list[tuple[GoldElement, list[Cell]]]:
    """For each element of a question, its coverage by each of the top-``k`` chunks."""
    question = scored.questions[query_id]
    chunks = scored.chunks.get(query_id, [])[:k]
    out: list[tuple[GoldElement, list[Cell]]] = []
    for e in question.elements:
        page = scored.pages.get(e.doc, "")
        cells = []
        for rank, chunk in enumerate(chunks, start=1):
            assert chunk.text is not None  # the TUI reads runs whole (see labeler.evaluation)
            c = classify(page, e.text, chunk.text, scored.result.threshold)
            cells.append(Cell(rank, c.coverage, int(c.grade)))
        out.append((e, cells))
    return out
