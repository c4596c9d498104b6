"""Scoring a stored run against the current gold set, for the scores screen.

Loads inputs through :mod:`labeler.evaluation` (the lead's loader, shared with the CLI) and
calls ``scoring``'s public API; runs in a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.evaluation import StoreSource, gc_paused, load_gold, load_run
from labeler.runs import page_keys, placements_for
from labeler.store import RunSummary, Store
from scoring import Chunk as Chunk
from scoring import (
    GoldElement,
    GoldQuestion,
    RunScore,
    aggregate,
    classify,
    score_questions,
)


@dataclass(frozen=True)
class ScoredRun:
    """A scored run plus what the drill-down needs."""

    result: RunScore
    questions: dict[str, GoldQuestion]
    chunks: dict[str, list[Chunk]]
    pages: dict[str, str]
    stale_excluded: int = 0


def score_stored_run(store: Store, gold_set: str, run: RunSummary) -> ScoredRun:
    """Score ``run`` against ``gold_set`` exactly as ``labeler score`` does (stale elements
    left out, the run's stored placements used), keeping the inputs for the drill-down."""
    with gc_paused():  # see labeler.evaluation; safe in a worker thread
        questions, pages, stale = load_gold(store, gold_set)
        chunks = load_run(store, run.name)
        stored = StoreSource(store).placements(run.name)
        known = placements_for(stored, page_keys(pages), questions)
        rows = score_questions(questions, pages, chunks, placements=known)
        result = aggregate(questions, rows, chunks, gold_set=gold_set, run_name=run.name)
    return ScoredRun(result, {q.query_id: q for q in questions}, chunks, pages, stale)


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
