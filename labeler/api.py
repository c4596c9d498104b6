"""The Python API: score where the pipeline lives (a notebook, a pytest suite, a CI job).

::

    import labeler

    with labeler.open("labels.db") as db:          # or "postgresql://user@host/db"
        gold = db.gold_set("demo")
        score = gold.score({"q1": ["chunk text", ...], ...}, k=(1, 5))
        score.metrics["hit@5"], score.to_dict()
        result = gold.evaluate(my_retriever, k=(1, 5), timeout=10)

Every call goes through the functions the CLI uses: ``score`` is ``labeler score``,
``compare`` is ``labeler compare`` and ``evaluate`` is ``labeler evaluate``, all three one
:class:`labeler.evaluation.ScoreRequest` given to :func:`labeler.evaluation.score` (an
in-memory run is scored the same way without the store's placements); ``import_run`` is
``labeler run import`` (:func:`labeler.runs.import_run_lines`) and ``pool`` is ``labeler
pool`` (:func:`labeler.runs.pool_runs`). Each docstring says what the call reads and
writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from labeler.evaluation import (
    DEFAULT_KS,
    IN_MEMORY,
    Answers,
    Evaluation,
    Failure,
    Intervals,
    Latency,
    QualityGateError,
    Retriever,
    Scored,
    ScoreRequest,
    ScoringSource,
    call_retriever,
    per_query_frame,
    reading,
    run_from_mapping,
    score,
)
from labeler.store import ORIGIN_API, Store, StoredElement, StoredQuestion, open_store
from scoring import DEFAULT_THRESHOLD, QueryScore
from scoring.snap import DEFAULT_SNAP_MIN

if TYPE_CHECKING:
    import pandas

    from labeler.progress import Progress
    from labeler.runs import PoolReport, RunImportReport
    from labeler.store import GoldSetProgress, RunListing

__all__ = ["Database", "GoldSet", "RetrieverEvaluation", "open"]

#: the bootstrap resamples of ``ci=`` unless ``bootstrap=`` says otherwise (as the CLI's)
DEFAULT_BOOTSTRAP = 2000


def open(db: str | Path, *, create: bool = True) -> Database:
    """Open (creating and upgrading if needed) the database ``db``: a SQLite file path or a
    ``postgresql://`` URL. Close it with ``close()`` or a ``with`` block.

    ``create=False``: when there is no database at ``db`` (no file, an empty one, a
    PostgreSQL database without the labeller's tables), raise
    :class:`~labeler.errors.StoreError` ``no database at ...`` and create nothing."""
    return Database(open_store(str(db), create=create, origin=ORIGIN_API), str(db))


class Database:
    """An open labeller database (see :func:`open`); ``Database(store)`` wraps a store
    opened elsewhere (``db``: its ``--db`` value, kept for display)."""

    def __init__(self, store: Store, db: str | None = None) -> None:
        self.db = db
        self.store = store
        self._source: ScoringSource | None = None
        self._reader = ExitStack()

    def __enter__(self) -> Database:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<labeler database {self.store.location}>"

    def close(self) -> None:
        """Release the database connections."""
        self._reader.close()
        self._source = None
        self.store.close()

    def source(self) -> ScoringSource:
        """What scoring reads through, chosen once per database by
        :func:`labeler.evaluation.reading` (the rule of every front end: the fast reader on
        a SQLite file at the current schema, else the store) and kept until :meth:`close`."""
        if self._source is None:
            self._source = self._reader.enter_context(reading(self.store))
        return self._source

    def gold_sets(self) -> list[GoldSetProgress]:
        """Every gold set (``labeler gold list``): name, description, questions, questions
        without elements, elements, elements per annotator. Reads only."""
        from labeler.store import read_gold_set_progress

        return read_gold_set_progress(self.store)

    def gold_set(self, name: str) -> GoldSet:
        """Gold set ``name``; :class:`~labeler.errors.NotFoundError` listing the gold sets
        there are when it is absent. Reads only."""
        from labeler.store import check_gold_set

        check_gold_set(self.store, name)
        return GoldSet(self, name)

    def runs(self) -> list[RunListing]:
        """Every stored run (``labeler run list``): name, import time, source, question and
        result counts. Reads only."""
        from labeler.store import read_run_listings

        return read_run_listings(self.store)

    def import_run(
        self,
        name: str,
        rows: Mapping[str, Sequence[Any]],
        *,
        replace: bool = False,
        parameters: dict[str, Any] | None = None,
        allow_empty: bool = False,
    ) -> RunImportReport:
        """Store ``rows`` (query id → results best first, in any shape
        :mod:`labeler.evaluation` reads) as run ``name`` (``labeler run import``): all or
        nothing, with placements on the labelled pages. Writes run ``name`` (an existing
        one only with ``replace``); reads the labels and their pages. Raises
        :class:`~labeler.errors.InputError` naming the question of a result it cannot
        read, and (unless ``allow_empty``) for questions without a single result."""
        from labeler.runs import import_run_chunks
        from labeler.store import text_holds_nul

        run = run_from_mapping(rows, allow_nul=text_holds_nul(self.store.engine))
        return import_run_chunks(
            self.store,
            run,
            name,
            where="rows",
            replace=replace,
            parameters=parameters,
            allow_empty=allow_empty,
        )


@dataclass(frozen=True)
class Question:
    """A gold question: id, text, notes, and its elements (doc, start, end, text, grade,
    stale) in label order."""

    query_id: str
    text: str
    notes: str
    elements: tuple[StoredElement, ...]

    @classmethod
    def of(cls, q: StoredQuestion) -> Question:
        return cls(q.external_id, q.text, q.notes, q.elements)


class GoldSet:
    """One gold set of an open :class:`Database` (``db.gold_set(name)``)."""

    def __init__(self, db: Database, name: str) -> None:
        self.db = db
        self.name = name

    def __repr__(self) -> str:
        return f"<gold set {self.name!r} in {self.db.store.location}>"

    def questions(self) -> list[Question]:
        """The questions in id order with their elements (stale ones included, marked).
        Reads only."""
        return [Question.of(q) for q in self.db.source().gold_questions(self.name)]

    def pool(self, runs: Sequence[str], *, depth: int) -> PoolReport:
        """Pool the stored ``runs`` at ``depth`` for judging (``labeler pool``): per question,
        the page regions in any run's top ``depth`` chunks that no element of any layer and
        no not-relevant judgement covers, most retrieved first, and each run's counts of
        unjudged chunks and characters. Reads only.

        Raises :class:`~labeler.errors.UsageError` for a depth below 1, no run or a run
        named twice, and :class:`~labeler.errors.NotFoundError` for an unknown run.
        """
        from labeler.runs import pool_runs

        return pool_runs(self.db.store, self.name, list(runs), depth)

    def score(
        self,
        run: str | Mapping[str, Sequence[Any]],
        *,
        k: Sequence[int] = DEFAULT_KS,
        threshold: float = DEFAULT_THRESHOLD,
        snap_min: float | None = DEFAULT_SNAP_MIN,
        name: str | None = None,
        budget: Sequence[int] = (),
        tokenizer: str | None = None,
        layer: str = "final",
        ci: float = 0.0,
        bootstrap: int = DEFAULT_BOOTSTRAP,
        seed: int = 0,
        fail_under: Mapping[str, float] | None = None,
        jobs: int | None = 1,
    ) -> Evaluation:
        """Score ``run`` against this gold set (``labeler score``): a stored run's name or
        an in-memory mapping query id → results best first (any shape of
        :mod:`labeler.evaluation`; scored as if imported as ``name``, default
        ``"in-memory"``). Reads the labels, pages and (for a stored run) the run; writes
        nothing.

        - ``budget``: also score every metric at these token budgets (``--budget``), tokens
          counted by ``tokenizer`` (``words``, the default, or ``tiktoken:NAME``; given
          alone it adds ``tokens@k``).
        - ``layer``: ``final`` (the default), ``annotator:NAME`` (NAME's own labels on the
          questions NAME marked done) or ``each`` (the final figures plus the headline
          metrics once per annotator, in ``Evaluation.layers``), as ``--layer``.
        - ``ci``: a confidence level in (0, 1) adds a percentile bootstrap interval of
          every mean metric (``bootstrap`` resamples, seeded with ``seed``), as ``--ci``;
          the default 0 adds none (``labeler score``'s default is 0.95).
        - ``fail_under``: the quality gate, metric key → bar, as ``--fail-under``. A key
          that is not a metric of the score raises
          :class:`~labeler.evaluation.UnknownMetricError` (a
          :class:`~labeler.errors.UsageError`) once the run is scored, before intervals
          and layers are added (``--fail-under`` refuses so, before any report). When a
          metric is strictly below its bar, :class:`~labeler.evaluation.QualityGateError`
          is raised after scoring (where ``labeler score`` prints its report and exits 3):
          its ``failures`` list each metric, value and bar, and its ``result`` is the
          Evaluation (whose ``below`` holds the same failures). A metric equal to its bar
          passes.
        - ``jobs``: processes to score a stored run in (None: automatic, as ``--jobs``).
        - ``snap_min``: a chunk found on none of its question's cited pages is snapped
          onto one at this alignment score or more and scored there (``--snap-min``,
          docs/metrics.md); None scores it by the fallback rule (``--no-snap``).

        Returns the :class:`~labeler.evaluation.Evaluation`: ``metrics``, ``per_query``,
        ``layers``, ``to_dict()`` (the Score JSON), ``to_pandas()``.
        """
        chunks: str | Mapping[str, Sequence[Any]] = (
            run if isinstance(run, str) else run_from_mapping(run)
        )
        request = ScoreRequest(
            self.name,
            chunks,
            run_name=IN_MEMORY if name is None else name,
            layer=layer,
            ks=tuple(k),
            threshold=threshold,
            snap_min=snap_min,
            intervals=Intervals(ci, bootstrap) if ci else None,
            seed=seed,
            fail_under=tuple((fail_under or {}).items()),
            processes=jobs,
            **_token_options(budget, tokenizer),
        )
        evaluation = score(self.db.source(), request).evaluation
        if evaluation.below:
            raise QualityGateError(evaluation.below, evaluation)
        return evaluation

    def compare(
        self,
        runs: Sequence[str],
        *,
        baseline: str | None = None,
        k: Sequence[int] = DEFAULT_KS,
        threshold: float = DEFAULT_THRESHOLD,
        snap_min: float | None = DEFAULT_SNAP_MIN,
        permutations: int = 10_000,
        seed: int = 0,
        ci: float = 0.0,
        bootstrap: int = DEFAULT_BOOTSTRAP,
        budget: Sequence[int] = (),
        tokenizer: str | None = None,
        jobs: int | None = 1,
    ) -> Scored:
        """Score two or more stored runs on this gold set and compare each with
        ``baseline`` (one of ``runs``; default the first), as ``labeler compare``: paired
        randomization tests (``permutations`` sign vectors seeded with ``seed``; Holm's
        correction when there are several comparisons) and, with ``ci`` in (0, 1), a
        bootstrap interval of each mean delta. ``k``, ``threshold``, ``snap_min``, ``budget``,
        ``tokenizer`` and ``jobs`` as for :meth:`score`. Reads the labels, pages and runs;
        writes nothing. A run given twice or a ``baseline`` not among ``runs`` raises
        :class:`~labeler.errors.UsageError`.

        Returns :class:`~labeler.evaluation.Scored`: ``evaluations`` (one per run, in the
        order of ``runs``) and ``comparison`` (``comparisons`` per other run, ``to_dict()``).
        """
        from labeler.errors import UsageError

        names = tuple(runs)
        if baseline is not None and baseline not in names:
            raise UsageError(
                f"compare: baseline {baseline!r} is not one of the runs ({', '.join(names)})"
            )
        request = ScoreRequest(
            self.name,
            runs=names,
            baseline=names.index(baseline) if baseline is not None else 0,
            permutations=permutations,
            ks=tuple(k),
            threshold=threshold,
            snap_min=snap_min,
            intervals=Intervals(ci, bootstrap),
            seed=seed,
            processes=jobs,
            **_token_options(budget, tokenizer),
        )
        return score(self.db.source(), request)

    def evaluate(
        self,
        retriever: Retriever,
        *,
        k: Sequence[int] = DEFAULT_KS,
        threshold: float = DEFAULT_THRESHOLD,
        snap_min: float | None = DEFAULT_SNAP_MIN,
        concurrency: int = 1,
        timeout: float | None = None,
        fail_fast: bool = False,
        max_results: int = 1000,
        store_run: str | None = None,
        replace: bool = False,
        label: str | None = None,
        parameters: dict[str, Any] | None = None,
        budget: Sequence[int] = (),
        tokenizer: str | None = None,
        layer: str = "final",
        ci: float = 0.0,
        bootstrap: int = DEFAULT_BOOTSTRAP,
        seed: int = 0,
        fail_under: Mapping[str, float] | None = None,
        progress: Progress | None = None,
    ) -> RetrieverEvaluation:
        """Call ``retriever`` on every question of the gold set and score what it returns
        (``labeler evaluate``; see :mod:`labeler.evaluation` for what a retriever may be
        and return, concurrency, timeouts and failures). A failed question scores as one
        missing from the run (0, listed in ``missing_from_run`` and ``failures``); so does
        one answered with more than ``max_results`` results. A vector store is asked for
        ``max(k)`` results. Anything that is no retriever raises
        :class:`~labeler.errors.UsageError` before any question is asked.

        Reads the questions, labels and pages. Writes nothing unless ``store_run``: then
        the answers are stored as that run with placements (an existing one only with
        ``replace``; the name is checked before the retriever is called; ``parameters`` are
        recorded with it besides ``retriever`` and ``failed``). ``label`` names the
        retriever in the result (default ``module:qualname``). ``snap_min``, ``budget``, ``tokenizer``,
        ``layer``, ``ci``, ``bootstrap``, ``seed`` and ``fail_under`` as for :meth:`score`;
        a gate failure raises :class:`~labeler.evaluation.QualityGateError` whose
        ``result`` is the :class:`RetrieverEvaluation` (the run is stored first when
        ``store_run`` asks). ``progress(settled, total, query_id)`` is called after each
        question's answer or failure (:data:`labeler.progress.Progress`).
        """
        from labeler.evaluation import retriever_label
        from labeler.progress import no_progress
        from labeler.store import text_holds_nul

        if store_run is not None:
            from labeler.store import check_new_run_name

            check_new_run_name(self.db.store, store_run, replace=replace)
        label = label or retriever_label(retriever)
        asked = [(q.query_id, q.text) for q in self.questions()]
        answers = call_retriever(
            retriever,
            asked,
            concurrency=concurrency,
            timeout=timeout,
            fail_fast=fail_fast,
            allow_nul=text_holds_nul(self.db.store.engine),
            max_results=max_results,
            depth=max(k, default=10),
            where=f"retriever {label}",
            progress=progress or no_progress,
        )
        if store_run is not None:
            from labeler.runs import import_run_chunks

            import_run_chunks(
                self.db.store,
                answers.run,
                store_run,
                where=f"retriever {label}",
                replace=replace,
                parameters={
                    **(parameters or {}),
                    "retriever": label,
                    "failed": len(answers.failures),
                },
            )
        request = ScoreRequest(
            self.name,
            answers.run,
            run_name=store_run or label,
            layer=layer,
            ks=tuple(k),
            threshold=threshold,
            snap_min=snap_min,
            intervals=Intervals(ci, bootstrap) if ci else None,
            seed=seed,
            fail_under=tuple((fail_under or {}).items()),
            **_token_options(budget, tokenizer),
        )
        result = RetrieverEvaluation(score(self.db.source(), request).evaluation, answers, label)
        if result.evaluation.below:
            raise QualityGateError(result.evaluation.below, result)
        return result


def _token_options(budget: Sequence[int], tokenizer: str | None) -> dict[str, Any]:
    """Scoring's ``budgets``/``tokenizer`` for the API's ``budget``/``tokenizer`` (none
    when neither is given)."""
    from labeler.chunks import tokenizer_for

    counter = tokenizer_for(budget, tokenizer)
    if counter is None:
        return {}
    return {"budgets": tuple(sorted(set(budget))), "tokenizer": counter}


@dataclass(frozen=True)
class RetrieverEvaluation:
    """A retriever's answers scored: the :class:`~labeler.evaluation.Evaluation` plus the
    failed questions and the latencies."""

    evaluation: Evaluation
    answers: Answers
    retriever: str

    @property
    def metrics(self) -> Mapping[str, float]:
        return self.evaluation.metrics

    @property
    def per_query(self) -> Sequence[QueryScore]:
        return self.evaluation.per_query

    @property
    def failures(self) -> tuple[Failure, ...]:
        return self.answers.failures

    @property
    def latency(self) -> Latency:
        return self.answers.latency

    def to_dict(self, *, per_query: bool = True) -> dict[str, Any]:
        """The Score JSON of ``labeler score`` plus ``retriever``, ``failures`` (query id,
        error, seconds) and ``latency`` (questions, p50, p95, max, mean seconds)."""
        data = self.evaluation.to_dict(per_query=per_query)
        data["retriever"] = self.retriever
        data["failures"] = [f.to_dict() for f in self.failures]
        data["latency"] = self.latency.to_dict()
        return data

    def to_pandas(self) -> pandas.DataFrame:
        """Per-question rows (see :meth:`Evaluation.to_pandas`) plus ``seconds`` (None for
        a failed question) and ``error`` (None unless it failed)."""
        frame = per_query_frame(self.evaluation.result)
        errors = {f.query_id: f.error for f in self.failures}
        frame["seconds"] = [self.answers.seconds.get(q) for q in frame["query_id"]]
        frame["error"] = [errors.get(q) for q in frame["query_id"]]
        return frame
