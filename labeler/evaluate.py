"""Scoring in place: read a gold set, its pages and a stored run, and score with ``scoring``.

Stale elements (their page changed under them) are left out of scoring and counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labeler.store import Store
from labeler.store.goldsets import export_gold_set, page_texts
from labeler.store.runs import get_run, run_rows
from scoring import (
    DEFAULT_THRESHOLD,
    Chunk,
    GoldElement,
    GoldQuestion,
    RunComparison,
    RunScore,
    compare_runs,
    score_run,
)


@dataclass(frozen=True)
class Evaluation:
    """A scored run plus what the store knew that scoring does not: stale elements left out."""

    result: RunScore
    stale_excluded: int


def load_gold(store: Store, gold_set: str) -> tuple[list[GoldQuestion], dict[str, str], int]:
    """Questions of ``gold_set`` (non-stale elements), the pages they cite, and the number of
    stale elements left out."""
    with store.session() as session:
        questions: list[GoldQuestion] = []
        stale = 0
        for q in export_gold_set(session, gold_set):
            stale += sum(e.stale for e in q.elements)
            questions.append(
                GoldQuestion(
                    q.external_id,
                    q.text,
                    tuple(
                        GoldElement(e.doc, e.text, e.grade, e.start, e.end)
                        for e in q.elements
                        if not e.stale
                    ),
                )
            )
        pages = page_texts(session, [e.doc for q in questions for e in q.elements])
    return questions, pages, stale


def load_run(store: Store, run: str) -> dict[str, list[Chunk]]:
    """Query id → chunks in rank order for stored run ``run``."""
    with store.session() as session:
        stored = get_run(session, run)
        return {
            qid: [Chunk(text, doc, score) for text, doc, score in rows]
            for qid, rows in run_rows(session, stored).items()
        }


def evaluate(
    store: Store,
    gold_set: str,
    run: str,
    *,
    ks: Sequence[int] = (1, 3, 5, 10),
    threshold: float = DEFAULT_THRESHOLD,
) -> Evaluation:
    """Score stored run ``run`` against gold set ``gold_set`` (DESIGN §6)."""
    questions, pages, stale = load_gold(store, gold_set)
    chunks = load_run(store, run)
    result = score_run(
        questions, pages, chunks, ks=tuple(ks), threshold=threshold, gold_set=gold_set, run_name=run
    )
    return Evaluation(result, stale)


def compare(
    store: Store,
    gold_set: str,
    run_a: str,
    run_b: str,
    *,
    ks: Sequence[int] = (1, 3, 5, 10),
    threshold: float = DEFAULT_THRESHOLD,
    permutations: int = 10_000,
    seed: int = 0,
) -> tuple[RunComparison, Evaluation, Evaluation]:
    """Score both runs on one gold set and compare them question by question."""
    questions, pages, stale = load_gold(store, gold_set)
    scored = []
    for name in (run_a, run_b):
        result = score_run(
            questions,
            pages,
            load_run(store, name),
            ks=tuple(ks),
            threshold=threshold,
            gold_set=gold_set,
            run_name=name,
        )
        scored.append(Evaluation(result, stale))
    comparison = compare_runs(
        scored[0].result, scored[1].result, permutations=permutations, seed=seed
    )
    return comparison, scored[0], scored[1]
