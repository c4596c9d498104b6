"""Pooling stored runs for judging: place their chunks on their pages, then
:func:`scoring.pooling.pool_question` per question.

Chunks are placed by :func:`labeler.runs.place_rows`: on the page the result names (at its
own offsets where they hold its text, else at the first occurrence of its text there); a
chunk naming no page on the first of its question's judged pages that holds its text; a
chunk placed nowhere stays unplaced (its characters unjudged).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from labeler.errors import UsageError
from labeler.runs._placements import RowPlacer, place_rows
from labeler.store.judgement_verbs import pool_input
from labeler.store.session import Store
from scoring.pooling import (
    PoolRegion,
    RunPoolCounts,
    pool_question,
    total_counts,
)

__all__ = ["PoolReport", "QuestionPool", "pool_runs"]


@dataclass(frozen=True)
class QuestionPool:
    """One question's pool (most retrieved first) and each run's counts on it."""

    query_id: str
    regions: list[PoolRegion]
    counts: list[RunPoolCounts]


@dataclass(frozen=True)
class PoolReport:
    """The pool of a gold set over runs at a depth: per question, and per run in total."""

    gold_set: str
    runs: list[str]
    depth: int
    questions: list[QuestionPool]
    totals: list[RunPoolCounts]
    #: the text of every page a region is on
    pages: Mapping[str, str]

    def text_of(self, region: PoolRegion) -> str:
        """The page text of ``region``."""
        return self.pages.get(region.doc, "")[region.start : region.end]


def pool_runs(
    store: Store, gold_set: str, runs: Sequence[str], depth: int, *, only: str | None = None
) -> PoolReport:
    """The pool of ``gold_set`` over the stored ``runs`` at ``depth`` (``only``: of that
    question alone, as the TUI's pool mode reads it).

    :class:`UsageError` for a depth below 1, no run or a run named twice;
    :class:`~labeler.errors.NotFoundError` for an unknown gold set or run.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise UsageError(f"--depth must be a whole number of at least 1, got {depth!r}")
    if not runs:
        raise UsageError("pooling needs at least one run (--run NAME)")
    twice = sorted({r for r in runs if list(runs).count(r) > 1})
    if twice:
        raise UsageError(f"run named more than once: {', '.join(twice)}")
    data = pool_input(store, gold_set, runs, depth, only)
    placer = RowPlacer(data.pages)  # each page indexed once for the whole pool
    questions: list[QuestionPool] = []
    for qid in data.questions:
        anywhere = sorted(data.judged.get(qid, {}))
        placed = {
            name: place_rows(data.runs[name].get(qid, []), data.pages, anywhere, placer)
            for name in runs
        }
        regions, counts = pool_question(placed, data.judged.get(qid, {}), depth)
        questions.append(QuestionPool(qid, regions, counts))
    totals = [total_counts((q.counts[i] for q in questions), name) for i, name in enumerate(runs)]
    shown = {g.doc for q in questions for g in q.regions}
    pages = {doc: text for doc, text in data.pages.items() if doc in shown}
    return PoolReport(gold_set, list(runs), depth, questions, totals, pages)
