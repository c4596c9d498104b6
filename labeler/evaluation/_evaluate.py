"""Scoring in place: read a gold set, its pages and a stored run, and score with ``scoring``.

Reads go through a :class:`ScoringSource`: for SQLite files the standard-library reader of
:mod:`labeler.store.fastread` (scoring is a hot, timed path), otherwise the SQLAlchemy store;
which one is chosen in one place, :func:`labeler.evaluation.score` (see its module).
Stale elements (their page changed under them) are left out of scoring and counted.

In a team gold set (see :mod:`labeler.store.team`) scoring reads the final layer and leaves
out *pending* questions (team work on them, not adjudicated yet), listing them; or, with an
annotator named, that annotator's own labels on the questions they marked done.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TextIO, cast

from labeler.evaluation._judged_at_k import JudgedAtK, RangeJudging
from labeler.evaluation._ranges import (
    RANGE_QUESTIONS,
    TEXT_RANGE_QUESTIONS,
    Expand,
    range_ids,
    range_reader,
    score_ranges,
)
from labeler.evaluation._shards import plan_processes, score_in_processes
from labeler.progress import Progress, no_progress
from labeler.runs import PageKeys, placements_for
from labeler.store.fastread import SqliteReader
from labeler.store.rows import RankedRows, RunRows, StoredQuestion
from scoring import (
    Chunk,
    GoldElement,
    GoldQuestion,
    LayerScore,
    QueryScore,
    QuestionOutline,
    RunScore,
    aggregate,
)
from scoring.budget import Tokenizer
from scoring.classify import check_threshold
from scoring.metrics import check_ks

if TYPE_CHECKING:
    import pandas

    from labeler.store import Store

DEFAULT_KS: tuple[int, ...] = (1, 3, 5, 10)


class ScoringSource(Protocol):
    """What scoring reads from a database."""

    def gold_questions(self, gold_set: str) -> Iterable[StoredQuestion]: ...

    def page_texts(self, doc_ids: Sequence[str]) -> dict[str, str]: ...

    def run_rows(self, run: str) -> RunRows: ...

    def placements(self, run: str) -> dict[str, dict[str, tuple[str, str, str, str]]]: ...

    def layer_questions(self, gold_set: str, annotator: str) -> list[StoredQuestion]: ...

    def layer_annotators(self, gold_set: str) -> list[str]: ...

    def ranked_rows(self, run: str, depth: int) -> RankedRows: ...

    def judged_ranges(
        self, gold_set: str, query_ids: Sequence[str]
    ) -> dict[str, dict[str, list[tuple[int, int]]]]: ...

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
        from labeler.store.run_table import get_run, run_rows

        with self.store.session() as session:
            return run_rows(session, get_run(session, run))

    def placements(self, run: str) -> dict[str, dict[str, tuple[str, str, str, str]]]:
        from labeler.store.run_table import get_run, run_placements

        with self.store.session() as session:
            return run_placements(session, get_run(session, run))

    def layer_questions(self, gold_set: str, annotator: str) -> list[StoredQuestion]:
        from sqlalchemy import text as sql_text

        from labeler.store.labels import get_gold_set
        from labeler.store.rows import LAYER_ELEMENTS_SQL, LAYER_QUESTIONS_SQL, layer_questions

        with self.store.session() as session:
            params = {"g": get_gold_set(session, gold_set).id, "a": annotator}
            questions = session.execute(sql_text(LAYER_QUESTIONS_SQL), params).all()
            elements = session.execute(sql_text(LAYER_ELEMENTS_SQL), params).all()
            return layer_questions(
                cast("list[tuple[int, str, str, str]]", questions),
                cast(
                    "list[tuple[int, str, int, int, str, int, str, int | None, int | None]]",
                    elements,
                ),
            )

    def layer_annotators(self, gold_set: str) -> list[str]:
        from sqlalchemy import text as sql_text

        from labeler.store.labels import get_gold_set
        from labeler.store.rows import LAYER_ANNOTATORS_SQL

        with self.store.session() as session:
            params = {"g": get_gold_set(session, gold_set).id}
            return list(session.execute(sql_text(LAYER_ANNOTATORS_SQL), params).scalars())

    def ranked_rows(self, run: str, depth: int) -> RankedRows:
        from sqlalchemy import text as sql_text

        from labeler.store.rows import RANKED_ROWS_SQL
        from labeler.store.run_table import get_run

        sql = sql_text(RANKED_ROWS_SQL.format(run=":run", depth=":depth"))
        with self.store.session() as session:
            params = {"run": get_run(session, run).id, "depth": depth}
            result = session.execute(sql.execution_options(stream_results=True), params)
            for row in result.yield_per(4096):
                yield cast("tuple[str, int, str, str | None, int | None, int | None]", tuple(row))

    def judged_ranges(
        self, gold_set: str, query_ids: Sequence[str]
    ) -> dict[str, dict[str, list[tuple[int, int]]]]:
        from labeler.store.judgements import judged_ranges
        from labeler.store.labels import get_gold_set

        with self.store.session() as session:
            gid = get_gold_set(session, gold_set).id
            assert gid is not None
            return judged_ranges(session, gid, query_ids)

    def close(self) -> None:
        self.store.close()


def _source(source: ScoringSource | Store) -> ScoringSource:
    if isinstance(source, SqliteReader | StoreSource):
        return source
    from labeler.store import Store

    if isinstance(source, Store):
        return StoreSource(source)
    return source


@dataclass(frozen=True)
class GateFailure:
    """A metric of a quality gate (``fail_under``) below its bar: ``value < bar``."""

    metric: str
    value: float
    bar: float

    def __str__(self) -> str:
        """``hit@5 = 0.5000 is below 0.8``: the line ``labeler score --fail-under`` prints."""
        return f"{self.metric} = {self.value:.4f} is below {self.bar:g}"


@dataclass(frozen=True)
class Evaluation:
    """A scored run plus what the store knew that scoring does not: stale elements left out,
    pending questions left out (team gold sets, in gold order) and the layer scored
    (``final`` or ``annotator:NAME``).

    ``result`` is the scoring package's :class:`~scoring.RunScore` (with bootstrap
    intervals when they were asked for); ``metrics`` and ``per_query`` are its aggregates
    and rows, ``to_dict()`` the Score JSON of ``labeler score --format json``.
    ``layers`` is the ``--layer each`` table: ``("final", line)`` then
    ``("annotator:NAME", line)`` per annotator who marked a question done (empty for any
    other layer), each line a :class:`~scoring.LayerScore` (questions scored and metrics;
    the final layer's rows are ``result``'s); ``below`` the quality gate's metrics under their bars, in the gate's
    order (empty: the gate passed, or there was none); ``judged`` the run's judged@k at
    every k (:class:`~labeler.evaluation.JudgedAtK`; None where it was not worked out).
    """

    result: RunScore
    stale_excluded: int
    pending: tuple[str, ...] = ()
    layer: str = "final"
    layers: tuple[tuple[str, LayerScore], ...] = ()
    below: tuple[GateFailure, ...] = ()
    judged: JudgedAtK | None = None

    @property
    def passed(self) -> bool:
        """True when no metric of the quality gate is below its bar (and when no gate was
        set)."""
        return not self.below

    @property
    def metrics(self) -> Mapping[str, float]:
        """``"<metric>@<k>"`` → mean over the scored questions (``hit@4``, ``mrr@10``, ...)."""
        return self.result.metrics

    @property
    def per_query(self) -> Sequence[QueryScore]:
        """One row per scored question (gold order): ``query_id``, ``values``, ``diagnoses``..."""
        return self.result.queries

    def to_dict(self, *, per_query: bool = True) -> dict[str, Any]:
        """The Score JSON (docs/formats.md, Score JSON): :meth:`scoring.RunScore.to_dict` plus
        ``stale_excluded``, ``layer``, ``pending`` (``{"count", "query_ids"}``) and, for
        ``layer="each"``, ``layers`` (``{"layer", "queries", "metrics"}`` per layer) and,
        last, ``judged_at_k`` (:meth:`JudgedAtK.to_dict`) when it was worked out; exactly
        what ``labeler score --format json`` prints."""
        return self._tree(per_query, None)

    def write_json(self, out: TextIO) -> None:
        """Write :meth:`to_dict` as JSON to ``out``, the bytes ``json.dumps(self.to_dict(),
        ensure_ascii=False)`` gives, without that tree in memory: its two per-question
        parts (``per_query`` and ``judged_at_k.per_query``, a row or an entry per question,
        which at 256,000 questions took gigabytes) are written one question at a time."""
        hole = f"\x00{os.urandom(16).hex()}\x00"  # a string no stored text holds
        text = _dumps(self._tree(True, hole))
        parts = text.split(_dumps(hole))
        out.write(parts[0])
        _write_list(out, (q.to_dict() for q in self.result.queries))
        if self.judged is not None:
            out.write(parts[1])
            _write_object(out, self.judged.per_query_items())
        out.write(parts[-1])

    def _tree(self, per_query: bool, hole: str | None) -> dict[str, Any]:
        """The Score JSON's tree; with ``hole``, its per-question parts are that string."""
        data = self.result.to_dict(per_query=per_query and hole is None)
        if hole is not None:
            data["per_query"] = hole
        data["stale_excluded"] = self.stale_excluded
        data["layer"] = self.layer
        data["pending"] = {"count": len(self.pending), "query_ids": list(self.pending)}
        if self.layers:
            data["layers"] = [
                {"layer": name, "queries": r.questions, "metrics": dict(r.metrics)}
                for name, r in self.layers
            ]
        if self.judged is not None:
            data["judged_at_k"] = self.judged.to_dict(per_query=hole is None)
            if hole is not None:
                data["judged_at_k"]["per_query"] = hole
        return data

    def to_pandas(self) -> pandas.DataFrame:
        """The per-question rows as a :class:`pandas.DataFrame` (needs the optional
        ``pandas`` extra; imported only here): ``query_id``, ``n_gold``, ``in_run``,
        ``n_chunks``, one column per metric key and one ``diagnosis@<k>`` per k."""
        return per_query_frame(self.result)


def per_query_frame(result: RunScore) -> pandas.DataFrame:
    """``result``'s per-question rows as a DataFrame (see :meth:`Evaluation.to_pandas`).
    Raises :class:`~labeler.errors.UsageError` when pandas is not installed."""
    try:
        import pandas
    except ImportError:
        from labeler.errors import UsageError

        raise UsageError("to_pandas() needs pandas: pip install 'goldlabeler[pandas]'") from None
    keys = result.metric_keys()
    rows = [
        {
            "query_id": q.query_id,
            "n_gold": q.n_gold,
            "in_run": q.in_run,
            "n_chunks": q.n_chunks,
            **{key: q.values[key] for key in keys},
            **{f"diagnosis@{k}": str(q.diagnoses[k].kind) for k in result.ks},
        }
        for q in result.queries
    ]
    columns = ["query_id", "n_gold", "in_run", "n_chunks", *keys]
    columns += [f"diagnosis@{k}" for k in result.ks]
    return pandas.DataFrame(rows, columns=columns)


@dataclass(frozen=True)
class GoldLoad:
    """What scoring reads of a gold set: its questions to score (non-stale elements), the
    pages they cite, stale elements left out and pending questions left out (their ids)."""

    questions: list[GoldQuestion]
    pages: dict[str, str]
    stale: int
    pending: tuple[str, ...]

    def run_ids(self, run_ids: Iterable[str]) -> list[str]:
        """``run_ids`` (a run's query ids, in run order) without the pending questions': a
        pending question is left out of scoring and reported once, as pending, never also
        as a run question not in the gold set (``unknown_in_run``). Every scoring path
        passes its run ids through here before :func:`scoring.aggregate`."""
        return without_pending(run_ids, self.pending)


def without_pending(run_ids: Iterable[str], pending: Iterable[str]) -> list[str]:
    """``run_ids`` in their order, less the ``pending`` ones."""
    left_out = set(pending)
    return [qid for qid in run_ids if qid not in left_out]


def load_gold_layer(
    source: ScoringSource | Store, gold_set: str, annotator: str | None = None
) -> GoldLoad:
    """Gold set ``gold_set`` as scoring reads it: the final layer without its pending
    questions, or (``annotator`` given) that annotator's own labels on the questions they
    marked done."""
    src = _source(source)
    stored = (
        src.gold_questions(gold_set)
        if annotator is None
        else src.layer_questions(gold_set, annotator)
    )
    questions, pending, stale = gold_questions(stored)
    pages = src.page_texts([e.doc for q in questions for e in q.elements])
    return GoldLoad(questions, pages, stale, tuple(pending))


def gold_questions(
    stored: Iterable[StoredQuestion],
) -> tuple[list[GoldQuestion], list[str], int]:
    """Stored questions as scoring takes them: the questions that are not pending, each
    with its elements that are not stale; the pending ones' ids; the stale elements left
    out."""
    questions: list[GoldQuestion] = []
    pending: list[str] = []
    stale = 0
    for q in stored:
        if q.pending:
            pending.append(q.external_id)
            continue
        stale += sum(e.stale for e in q.elements)
        elements = tuple(
            GoldElement(e.doc, e.text, e.grade, e.start, e.end, e.key)
            for e in q.elements
            if not e.stale
        )
        questions.append(GoldQuestion(q.external_id, q.text, elements))
    return questions, pending, stale


@dataclass(frozen=True)
class OutlinedLoad:
    """A gold set's layer (its final layer, or ``annotator``'s own) read in outline, for
    scoring a stored run through the SQLite reader range by range (see
    :class:`~labeler.store.fastread.GoldOutline`): the questions' outlines, the pages they
    cite, stale elements and pending questions left out, as in :class:`GoldLoad`;
    :meth:`expander` reads ranges of questions whole."""

    gold_set: str
    questions: list[QuestionOutline]
    pages: dict[str, str]
    stale: int
    pending: tuple[str, ...]
    annotator: str | None = None

    def run_ids(self, run_ids: Iterable[str]) -> list[str]:
        """As :meth:`GoldLoad.run_ids`."""
        return without_pending(run_ids, self.pending)

    def expander(self, reader: SqliteReader) -> Expand:
        """Reads, through ``reader``, the questions (as :func:`load_gold_layer` gives them)
        with ids in ``[since, until)``, by id."""
        gold_set, annotator = self.gold_set, self.annotator

        def expand(since: str | None, until: str | None) -> dict[str, GoldQuestion]:
            stored = (
                reader.gold_questions(gold_set, since=since, until=until)
                if annotator is None
                else reader.layer_questions(gold_set, annotator, since=since, until=until)
            )
            questions, _, _ = gold_questions(stored)
            return {q.query_id: q for q in questions}

        return expand


def load_outline(reader: SqliteReader, gold_set: str, annotator: str | None = None) -> OutlinedLoad:
    """Gold set ``gold_set``'s final layer (or, ``annotator`` given, that annotator's own
    labels on the questions they marked done) in outline, with the pages it cites."""
    outline = (
        reader.gold_outline(gold_set)
        if annotator is None
        else reader.layer_outline(gold_set, annotator)
    )
    pages = reader.page_texts(outline.docs)
    return OutlinedLoad(
        gold_set, outline.questions, pages, outline.stale, tuple(outline.pending), annotator
    )


def load_gold(
    source: ScoringSource | Store, gold_set: str
) -> tuple[list[GoldQuestion], dict[str, str], int]:
    """Questions of ``gold_set`` to score (non-stale elements; pending questions left out),
    the pages they cite, and the number of stale elements left out."""
    load = load_gold_layer(source, gold_set)
    return load.questions, load.pages, load.stale


def load_run(source: ScoringSource | Store, run: str) -> dict[str, list[Chunk]]:
    """Query id → chunks in rank order for stored run ``run``."""
    return {
        qid: [Chunk(*row) for row in rows] for qid, rows in _source(source).run_rows(run).items()
    }


def _score(
    source: ScoringSource | Store,
    questions: Sequence[GoldQuestion | QuestionOutline],
    pages: dict[str, str],
    keyed: PageKeys,
    gold_set: str,
    run: str,
    ks: Sequence[int],
    threshold: float,
    jobs: int | None,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
    whole: bool = False,
    load: GoldLoad | OutlinedLoad | None = None,
    progress: Progress = no_progress,
    *,
    snap_min: float | None = None,
    judging: RangeJudging | None = None,
) -> tuple[RunScore, dict[str, list[Chunk]] | None]:
    """Score one stored run, in several processes when ``jobs`` allows and it pays, with
    the placements stored at import (``keyed``: the pages' keys, see ``page_keys``).
    Counting tokens (``tokenizer``) reads every chunk's text, in this process.

    ``whole``: read the run whole (every chunk's text), in this process, and return it with
    the score (for a drill-down); otherwise the second value is None. ``load``: the gold set
    as read, whose pending questions' run ids are left out (:meth:`GoldLoad.run_ids`).
    ``progress(done, len(questions), "")`` as questions are scored (in several processes:
    this process's share, scaled). ``judging``: counts judged@k as the run is read, on
    the SQLite reader's paths (``judging.ranges`` stays 0 on the others). A ``load`` in
    outline (:class:`OutlinedLoad`, whose outlines ``questions`` then are) is read range by
    range through the SQLite reader."""
    src = _source(source)
    expander = load.expander if isinstance(load, OutlinedLoad) else None
    processes = 1
    n = len(questions)
    reported = [0]  # the last count reported: the end is reported once, whatever the path

    def tracked(done: int, total: int | None, item: str) -> None:
        reported[0] = done
        progress(done, total, item)

    def on_range(done: int, _scored: int) -> None:
        tracked(done, n, "")

    kept: dict[str, list[Chunk]] | None = {} if whole else None
    scored = [q for q in questions if q.n_gold]
    if not whole and tokenizer is None and isinstance(src, SqliteReader) and jobs != 1:
        check_threshold(threshold)  # bad arguments fail here, before any process starts
        check_ks(ks)
        processes = plan_processes(jobs, len(scored))
    if processes > 1:
        assert isinstance(src, SqliteReader)
        table, run_ids = score_in_processes(
            src,
            scored,
            pages,
            run,
            ks=ks,
            threshold=threshold,
            processes=processes,
            keyed_pages=keyed,
            progress=tracked,
            snap_min=snap_min,
            judging=judging,
            expander=expander,
        )
    elif isinstance(src, SqliteReader):
        # in ranges of query id; lean: leaves out the texts scoring does not need
        lean = tokenizer is None and not whole
        table, run_ids = score_ranges(
            scored,
            pages,
            range_reader(src, run, keyed, lean=lean),
            ks=ks,
            threshold=threshold,
            budgets=budgets,
            tokenizer=tokenizer,
            kept=kept,
            on_range=on_range,
            snap_min=snap_min,
            judge=judging,
            expand=None if expander is None else expander(src),
            run_ids=None if whole else range_ids(src, run),
            size=RANGE_QUESTIONS if lean else TEXT_RANGE_QUESTIONS,
        )
    else:
        # the store reads a run whole (one range)
        chunks = load_run(src, run)
        full = cast(list[GoldQuestion], questions)  # only the SQLite reader reads outlines
        known = placements_for(src.placements(run), keyed, full)
        table, run_ids = score_ranges(
            scored,
            pages,
            lambda mine, since, until: (chunks, known),
            ks=ks,
            threshold=threshold,
            budgets=budgets,
            tokenizer=tokenizer,
            size=max(1, len(scored)),
            kept=kept,
            on_range=on_range,
            snap_min=snap_min,
        )
        del chunks, known
    if reported[0] != n:
        progress(n, n, "")
    if load is not None:
        run_ids = load.run_ids(run_ids)
    result = aggregate(
        questions,
        table,
        run_ids,
        ks=ks,
        threshold=threshold,
        gold_set=gold_set,
        run_name=run,
        budgets=budgets,
        tokenizer=tokenizer.name if tokenizer is not None else None,
    )
    return result, kept


def _dumps(value: Any) -> str:
    # json.dumps, not json.dump: only the one-shot path uses the C encoder; the data is a
    # fresh tree, so the encoder's cycle check is work for nothing
    return json.dumps(value, ensure_ascii=False, check_circular=False)


def _write_list(out: TextIO, items: Iterable[Any]) -> None:
    """``items`` as a JSON array, written as ``json.dumps`` writes one (``", "`` between)."""
    out.write("[")
    for n, item in enumerate(items):
        out.write(", " + _dumps(item) if n else _dumps(item))
    out.write("]")


def _write_object(out: TextIO, items: Iterable[tuple[str, Any]]) -> None:
    """``(key, value)`` pairs as a JSON object, written as ``json.dumps`` writes one."""
    out.write("{")
    for n, (key, value) in enumerate(items):
        out.write(f"{', ' if n else ''}{_dumps(key)}: {_dumps(value)}")
    out.write("}")
