"""The Python API: score where the pipeline lives (a notebook, a pytest suite, a CI job).

::

    import labeler

    with labeler.open("labels.db") as db:          # or "postgresql://user@host/db"
        gold = db.gold_set("demo")
        score = gold.score({"q1": ["chunk text", ...], ...}, k=(1, 5))
        score.metrics["hit@5"], score.to_dict()
        result = gold.evaluate(my_retriever, k=(1, 5), timeout=10)

Every call goes through the functions the CLI uses: ``score`` is ``labeler score``
(:func:`labeler.evaluation.evaluate`; an in-memory run through
:func:`labeler.evaluation.evaluate_in_memory`, the same scoring without the store's
placements), ``import_run`` is ``labeler run import`` (:func:`labeler.runs.import_run_lines`)
and ``evaluate`` is ``labeler evaluate``. Each docstring says what the call reads and writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from labeler.evaluation import (
    DEFAULT_KS,
    Answers,
    Evaluation,
    Failure,
    Latency,
    Retriever,
    ScoringSource,
    StoreSource,
    call_retriever,
    evaluate,
    evaluate_in_memory,
    per_query_frame,
    run_from_mapping,
)
from labeler.store import Store, StoredElement, StoredQuestion, open_store
from scoring import DEFAULT_THRESHOLD, QueryScore

if TYPE_CHECKING:
    import pandas

    from labeler.runs import RunImportReport
    from labeler.store import GoldSetProgress, RunSummary

__all__ = ["Database", "GoldSet", "RetrieverEvaluation", "open"]

#: the run name an in-memory run is scored under unless ``name=`` says otherwise
IN_MEMORY = "in-memory"


def open(db: str | Path) -> Database:
    """Open (creating and upgrading if needed, as every command does) the database ``db``:
    a SQLite file path or a ``postgresql://`` URL. Close it with ``close()`` or a
    ``with`` block."""
    return Database(open_store(str(db)), str(db))


class Database:
    """An open labeller database (see :func:`open`); ``Database(store)`` wraps a store
    opened elsewhere (``db``: its ``--db`` value, for the fast SQLite reader)."""

    def __init__(self, store: Store, db: str | None = None) -> None:
        self.db = db
        self.store = store
        self._source: ScoringSource | None = None

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
        if self._source is not None and not isinstance(self._source, StoreSource):
            self._source.close()
        self._source = None
        self.store.close()

    def source(self) -> ScoringSource:
        """What scoring reads through: ``labeler score``'s fast reader on a SQLite file,
        else the store."""
        if self._source is None:
            from labeler.store import open_reader, sqlite_file

            path = sqlite_file(self.db) if self.db is not None else None
            reader = open_reader(path) if path is not None else None
            self._source = reader if reader is not None else StoreSource(self.store)
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

    def runs(self) -> list[RunSummary]:
        """Every stored run (``labeler run list``): name, import time, source, question and
        result counts. Reads only."""
        from labeler.store import read_run_summaries

        return read_run_summaries(self.store)

    def import_run(
        self,
        name: str,
        rows: Mapping[str, Sequence[Any]],
        *,
        replace: bool = False,
        parameters: dict[str, Any] | None = None,
    ) -> RunImportReport:
        """Store ``rows`` (query id → results best first, in any shape
        :mod:`labeler.evaluation` reads) as run ``name`` (``labeler run import``): all or
        nothing, with placements on the labelled pages. Writes run ``name`` (an existing
        one only with ``replace``); reads the labels and their pages. Raises
        :class:`~labeler.errors.InputError` naming the question of a result it cannot
        read."""
        from labeler.runs import import_run_chunks
        from labeler.store import text_holds_nul

        run = run_from_mapping(rows, allow_nul=text_holds_nul(self.store.engine))
        return import_run_chunks(
            self.store, run, name, where="rows", replace=replace, parameters=parameters
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

    def score(
        self,
        run: str | Mapping[str, Sequence[Any]],
        *,
        k: Sequence[int] = DEFAULT_KS,
        threshold: float = DEFAULT_THRESHOLD,
        name: str | None = None,
        budget: Sequence[int] = (),
        tokenizer: str | None = None,
        **options: Any,
    ) -> Evaluation:
        """Score ``run`` against this gold set: a stored run's name (``labeler score``) or
        an in-memory mapping query id → results best first (any shape of
        :mod:`labeler.evaluation`; scored as if imported as ``name``, default
        ``"in-memory"``). Reads the labels, pages and (for a stored run) the run; writes
        nothing. ``budget``: also score every metric at these token budgets
        (``labeler score --budget``), tokens counted by ``tokenizer`` (``words``, the
        default, or ``tiktoken:NAME``; given alone it adds ``tokens@k``). ``options`` go to
        scoring as they are.

        Returns the :class:`~labeler.evaluation.Evaluation`: ``metrics``, ``per_query``,
        ``to_dict()`` (the Score JSON), ``to_pandas()``.
        """
        source = self.db.source()
        options = {**options, **_token_options(budget, tokenizer)}
        if isinstance(run, str):
            return evaluate(source, self.name, run, ks=k, threshold=threshold, **options)
        chunks = run_from_mapping(run)
        return evaluate_in_memory(
            source,
            self.name,
            chunks,
            run_name=IN_MEMORY if name is None else name,
            ks=k,
            threshold=threshold,
            **options,
        )

    def evaluate(
        self,
        retriever: Retriever,
        *,
        k: Sequence[int] = DEFAULT_KS,
        threshold: float = DEFAULT_THRESHOLD,
        concurrency: int = 1,
        timeout: float | None = None,
        fail_fast: bool = False,
        store_run: str | None = None,
        replace: bool = False,
        label: str | None = None,
        parameters: dict[str, Any] | None = None,
        budget: Sequence[int] = (),
        tokenizer: str | None = None,
        **options: Any,
    ) -> RetrieverEvaluation:
        """Call ``retriever`` on every question of the gold set and score what it returns
        (``labeler evaluate``; see :mod:`labeler.evaluation` for what a retriever may be
        and return, concurrency, timeouts and failures). A failed question scores as one
        missing from the run (0, listed in ``missing_from_run`` and ``failures``).

        Reads the questions, labels and pages. Writes nothing unless ``store_run``: then
        the answers are stored as that run with placements (an existing one only with
        ``replace``; the name is checked before the retriever is called; ``parameters`` are
        recorded with it besides ``retriever`` and ``failed``). ``label`` names the
        retriever in the result (default ``module:qualname``). ``budget`` and
        ``tokenizer`` as for :meth:`score`; ``options`` go to scoring as they are.
        """
        from labeler.evaluation import retriever_label
        from labeler.store import text_holds_nul

        options = {**options, **_token_options(budget, tokenizer)}

        if store_run is not None:
            from labeler.store import check_run_name

            with self.db.store.session() as session:
                check_run_name(session, store_run, replace=replace)
        asked = [(q.query_id, q.text) for q in self.questions()]
        answers = call_retriever(
            retriever,
            asked,
            concurrency=concurrency,
            timeout=timeout,
            fail_fast=fail_fast,
            allow_nul=text_holds_nul(self.db.store.engine),
        )
        label = label or retriever_label(retriever)
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
        scored = evaluate_in_memory(
            self.db.source(),
            self.name,
            answers.run,
            run_name=store_run or label,
            ks=k,
            threshold=threshold,
            **options,
        )
        return RetrieverEvaluation(scored, answers, label)


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
    def per_query(self) -> tuple[QueryScore, ...]:
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
