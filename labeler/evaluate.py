"""Scoring in place: read a gold set, its pages and a stored run, and score with ``scoring``.

Reads go through a :class:`ScoringSource`: for SQLite files the standard-library reader of
:mod:`labeler.store.fastread` (scoring is a hot, timed path), otherwise the SQLAlchemy store.
Stale elements (their page changed under them) are left out of scoring and counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from labeler.gcpause import gc_paused
from labeler.placements import PageKeys, load_placed_run, page_keys, placements_for
from labeler.shards import plan_processes, score_in_processes
from labeler.store.fastread import SqliteReader, open_reader
from labeler.store.location import sqlite_file
from labeler.store.rows import RunRows, StoredQuestion
from scoring import (
    DEFAULT_THRESHOLD,
    Chunk,
    GoldElement,
    GoldQuestion,
    RunScore,
    aggregate,
    score_questions,
)
from scoring.budget import Tokenizer, check_budgets
from scoring.classify import check_threshold
from scoring.metrics import check_ks

if TYPE_CHECKING:
    from labeler.store import Store
    from scoring import RunComparison

DEFAULT_KS: tuple[int, ...] = (1, 3, 5, 10)


class ScoringSource(Protocol):
    """What scoring reads from a database."""

    def gold_questions(self, gold_set: str) -> Iterable[StoredQuestion]: ...

    def page_texts(self, doc_ids: Sequence[str]) -> dict[str, str]: ...

    def run_rows(self, run: str) -> RunRows: ...

    def placements(self, run: str) -> dict[str, dict[str, tuple[str, str, str, str]]]: ...

    def close(self) -> None: ...


class StoreSource:
    """:class:`ScoringSource` over an open :class:`~labeler.store.Store` (any backend)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def gold_questions(self, gold_set: str) -> list[StoredQuestion]:
        from labeler.store.goldsets import export_gold_set

        with self.store.session() as session:
            return list(export_gold_set(session, gold_set))

    def page_texts(self, doc_ids: Sequence[str]) -> dict[str, str]:
        from labeler.store.goldsets import page_texts

        with self.store.session() as session:
            return page_texts(session, doc_ids)

    def run_rows(self, run: str) -> RunRows:
        from labeler.store.runs import get_run, run_rows

        with self.store.session() as session:
            return run_rows(session, get_run(session, run))

    def placements(self, run: str) -> dict[str, dict[str, tuple[str, str, str, str]]]:
        from labeler.store.runs import get_run, run_placements

        with self.store.session() as session:
            return run_placements(session, get_run(session, run))

    def close(self) -> None:
        self.store.close()


def open_source(db: str) -> ScoringSource:
    """The fastest reader for ``--db`` value ``db``: the stdlib SQLite reader when the file
    exists at the current schema (a database at an older version is upgraded first), else
    the store itself."""
    path = sqlite_file(db)
    if path is not None:
        reader = open_reader(path)
        if reader is not None:
            return reader
    from labeler.store import open_store

    store = open_store(db)
    if path is not None:
        reader = open_reader(path)
        if reader is not None:
            store.close()
            return reader
    return StoreSource(store)


def _source(source: ScoringSource | Store) -> ScoringSource:
    if isinstance(source, SqliteReader | StoreSource):
        return source
    from labeler.store import Store

    if isinstance(source, Store):
        return StoreSource(source)
    return source


@dataclass(frozen=True)
class Evaluation:
    """A scored run plus what the store knew that scoring does not: stale elements left out."""

    result: RunScore
    stale_excluded: int


def load_gold(
    source: ScoringSource | Store, gold_set: str
) -> tuple[list[GoldQuestion], dict[str, str], int]:
    """Questions of ``gold_set`` (non-stale elements), the pages they cite, and the number of
    stale elements left out."""
    src = _source(source)
    questions: list[GoldQuestion] = []
    stale = 0
    for q in src.gold_questions(gold_set):
        stale += sum(e.stale for e in q.elements)
        elements = tuple(
            GoldElement(e.doc, e.text, e.grade, e.start, e.end) for e in q.elements if not e.stale
        )
        questions.append(GoldQuestion(q.external_id, q.text, elements))
    pages = src.page_texts([e.doc for q in questions for e in q.elements])
    return questions, pages, stale


def load_run(source: ScoringSource | Store, run: str) -> dict[str, list[Chunk]]:
    """Query id → chunks in rank order for stored run ``run``."""
    return {
        qid: [Chunk(text, doc, score) for text, doc, score in rows]
        for qid, rows in _source(source).run_rows(run).items()
    }


def _score(
    source: ScoringSource | Store,
    questions: list[GoldQuestion],
    pages: dict[str, str],
    keyed: PageKeys,
    gold_set: str,
    run: str,
    ks: Sequence[int],
    threshold: float,
    jobs: int | None,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
) -> RunScore:
    """Score one stored run, in several processes when ``jobs`` allows and it pays, with
    the placements stored at import (``keyed``: the pages' keys, see ``page_keys``).
    Counting tokens (``tokenizer``) reads every chunk's text, in this process."""
    src = _source(source)
    processes = 1
    if tokenizer is None and isinstance(src, SqliteReader) and jobs != 1:
        check_threshold(threshold)  # bad arguments fail here, before any process starts
        check_ks(ks)
        processes = plan_processes(jobs, sum(1 for q in questions if q.elements))
    if processes > 1:
        assert isinstance(src, SqliteReader)
        rows, run_ids = score_in_processes(
            src,
            questions,
            pages,
            run,
            ks=ks,
            threshold=threshold,
            processes=processes,
            keyed_pages=keyed,
        )
    else:
        if isinstance(src, SqliteReader) and tokenizer is None:  # leaves out unneeded texts
            chunks, known = load_placed_run(src, run, questions, keyed)
        else:
            chunks = load_run(src, run)
            known = placements_for(src.placements(run), keyed, questions)
        rows = score_questions(
            questions,
            pages,
            chunks,
            ks=ks,
            threshold=threshold,
            placements=known,
            budgets=budgets,
            tokenizer=tokenizer,
        )
        run_ids = list(chunks)
    return aggregate(
        questions,
        rows,
        run_ids,
        ks=ks,
        threshold=threshold,
        gold_set=gold_set,
        run_name=run,
        budgets=budgets,
        tokenizer=tokenizer.name if tokenizer is not None else None,
    )


def evaluate(
    source: ScoringSource | Store,
    gold_set: str,
    run: str,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: float = DEFAULT_THRESHOLD,
    jobs: int | None = 1,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
) -> Evaluation:
    """Score stored run ``run`` against gold set ``gold_set`` (DESIGN §6).

    ``jobs`` is the number of processes (None: automatic, see
    :func:`labeler.shards.plan_processes`); more than one needs a SQLite file and a caller
    without threads (the CLI, not the TUI). The result is the same whatever ``jobs`` is.
    With a ``tokenizer`` (:mod:`labeler.tokenizers`) ``tokens@k`` is scored and every
    metric at each of ``budgets`` tokens (:mod:`scoring.budget`), in one process.
    """
    check_budgets(budgets)
    with gc_paused():
        questions, pages, stale = load_gold(source, gold_set)
        keyed = page_keys(pages)
        result = _score(
            source, questions, pages, keyed, gold_set, run, ks, threshold, jobs, budgets, tokenizer
        )
    return Evaluation(result, stale)


def compare(
    source: ScoringSource | Store,
    gold_set: str,
    run_a: str,
    run_b: str,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: float = DEFAULT_THRESHOLD,
    permutations: int = 10_000,
    seed: int = 0,
    jobs: int | None = 1,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
) -> tuple[RunComparison, Evaluation, Evaluation]:
    """Score both runs on one gold set and compare them question by question (``jobs``,
    ``budgets`` and ``tokenizer`` as for :func:`evaluate`)."""
    with gc_paused():
        questions, pages, stale = load_gold(source, gold_set)
        keyed = page_keys(pages)  # once for both runs
        scored = [
            Evaluation(
                _score(
                    source,
                    questions,
                    pages,
                    keyed,
                    gold_set,
                    name,
                    ks,
                    threshold,
                    jobs,
                    budgets,
                    tokenizer,
                ),
                stale,
            )
            for name in (run_a, run_b)
        ]
    from scoring import compare_runs  # off the path of `labeler score`

    comparison = compare_runs(
        scored[0].result, scored[1].result, permutations=permutations, seed=seed
    )
    return comparison, scored[0], scored[1]
