"""Scoring a stored run against the current gold set, for the scores screen.

Loads inputs through :mod:`labeler.evaluate` (the lead's loader, shared with the CLI) and
calls ``scoring``'s public API; runs in a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.evaluate import StoreSource, load_gold_layer, load_run
from labeler.gcpause import gc_paused
from labeler.placements import page_keys, placements_for
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
    with gc_paused():  # see labeler.gcpause; safe in a worker thread
        load = load_gold_layer(store, gold_set)
        questions, pages, stale = load.questions, load.pages, load.stale
        chunks = load_run(store, run.name)
        stored = StoreSource(store).placements(run.name)
        known = placements_for(stored, page_keys(pages), questions)
        rows = score_questions(questions, pages, chunks, placements=known)
        run_ids = load.run_ids(chunks)  # a pending question is not "not in the gold set"
        result = aggregate(questions, rows, run_ids, gold_set=gold_set, run_name=run.name)
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
            assert chunk.text is not None  # the TUI reads runs whole (see labeler.evaluate)
            c = classify(page, e.text, chunk.text, scored.result.threshold)
            cells.append(Cell(rank, c.coverage, int(c.grade)))
        out.append((e, cells))
    return out
