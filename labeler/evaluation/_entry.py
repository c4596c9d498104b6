"""The one scoring entry point: a :class:`ScoreRequest` and :func:`score`.

Every way of scoring goes through :func:`score`: ``labeler score``, ``labeler compare``,
``labeler evaluate``, the TUI's scores screen and the Python API (``GoldSet.score``,
``GoldSet.evaluate``, ``GoldSet.compare``); :func:`evaluate`, :func:`evaluate_in_memory`,
:func:`compare` and :func:`compare_many` are shorthands for requests. The reader scoring
reads through (:class:`~labeler.evaluation.ScoringSource`) is chosen in one place,
:func:`reading`:

- a ``--db`` value (a path or URL): the standard-library SQLite reader when it names a
  SQLite file at the current schema, else the store opened from it (upgrading it; a file
  upgraded so becomes readable by the fast reader, which is then used); closed at the end;
- an open :class:`~labeler.store.Store`: the fast reader on its SQLite file when that file
  is at the current schema, else the store itself; the store is left open;
- an open :class:`~labeler.evaluation.ScoringSource` (one :func:`reading` chose earlier and
  the caller keeps, as the Python API does): used as it is, left open.

The result is the same whichever reader is used (tested on both backends).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from labeler.errors import LabelerError, UsageError
from labeler.evaluation._evaluate import (
    DEFAULT_KS,
    Evaluation,
    GateFailure,
    GoldLoad,
    OutlinedLoad,
    ScoringSource,
    StoreSource,
    _score,
    load_gold_layer,
    load_outline,
)
from labeler.evaluation._gcpause import gc_paused
from labeler.evaluation._judged_at_k import JudgedAtK, RangeJudging, judged_of
from labeler.progress import Progress, counted, no_progress
from labeler.runs import PageKeys, page_keys
from labeler.store.fastread import SqliteReader, open_reader
from labeler.store.location import sqlite_file
from scoring import (
    DEFAULT_THRESHOLD,
    Chunk,
    GoldQuestion,
    LayerScore,
    RunScore,
    aggregate,
    score_questions,
)
from scoring.budget import Tokenizer, check_budgets
from scoring.querytable import QueryTable
from scoring.snap import DEFAULT_SNAP_MIN

if TYPE_CHECKING:
    from labeler.store import RunSummary, Store
    from scoring import RunComparison
    from scoring.multicompare import MultiComparison

#: the layers a request may name besides ``annotator:NAME``
FINAL = "final"
EACH = "each"
ANNOTATOR = "annotator:"

#: the bootstrap's defaults (``labeler score --ci`` / ``--bootstrap``)
DEFAULT_LEVEL = 0.95
DEFAULT_RESAMPLES = 2000

#: ``GoldSet.compare``'s and ``labeler compare``'s number of sign permutations
DEFAULT_PERMUTATIONS = 10_000


@dataclass(frozen=True)
class Intervals:
    """Percentile bootstrap intervals over the questions (:mod:`scoring.bootstrap`):
    confidence ``level`` in [0, 1) (0: none) and ``resamples`` draws (at least 1), seeded
    with the request's ``seed``. On one run every metric that is a mean of per-question
    values gets an interval; on a comparison each mean delta does."""

    level: float = DEFAULT_LEVEL
    resamples: int = DEFAULT_RESAMPLES


@dataclass(frozen=True)
class ScoreRequest:
    """What to score, and how: everything ``labeler score`` and ``labeler compare`` accept.

    - ``gold_set``: the gold set's name.
    - ``run``: a stored run's name, or in-memory answers (query id → chunks in rank order;
      nothing is stored) scored as if imported as ``run_name`` (default ``"in-memory"``).
      Scoring an in-memory run uses no stored placements; the result is the same.
    - ``runs``: instead of ``run``, two or more stored runs to compare: each is scored and
      compared with ``runs[baseline]`` question by question (paired randomization tests
      with ``permutations`` sign vectors, Holm-corrected when there are several, and an
      interval of each mean delta when ``intervals`` has a level).
    - ``layer``: ``final`` (the gold set; in a team gold set its adjudicated final layer,
      pending questions left out and listed), ``annotator:NAME`` (NAME's own labels on the
      questions NAME marked done; NAME must have marked one) or ``each`` (the final figures
      plus the same ``ks``/``threshold`` scoring once per such annotator, without budgets;
      one run only).
    - ``ks``, ``threshold``: cut-offs and the Partial share (:mod:`scoring`).
    - ``snap_min``: a chunk found on none of its question's cited pages is snapped onto
      one when it aligns at this score or more, and scored there (:mod:`scoring.snap`,
      docs/metrics.md); None scores it by the fallback rule.
    - ``budgets``, ``tokenizer``: token budgets and how tokens are counted
      (:mod:`scoring.budget`; a tokenizer alone adds ``tokens@k``).
    - ``intervals``: bootstrap settings (None or level 0: no intervals); ``seed`` seeds the
      bootstrap and the randomization tests.
    - ``fail_under``: the quality gate, ``(metric key, bar)`` pairs: each key must be a
      metric of the result (else :class:`UnknownMetricError`, before anything else is
      done with the result); a value strictly below its bar is a :class:`GateFailure` in
      ``Evaluation.below``. :func:`score` reports, it does not raise; one run only.
    - ``processes``: processes to score a stored run in (None: automatic, see
      :func:`labeler.evaluation.plan_processes`); more than one needs the fast reader and
      a caller without threads. The result does not depend on it.
    - ``keep_inputs``: also return the gold questions, pages and the run read whole
      (:class:`ScoreInputs`, for a drill-down); one run only, in this process.
    """

    gold_set: str
    run: str | Mapping[str, Sequence[Chunk]] | None = None
    run_name: str | None = None
    runs: tuple[str, ...] = ()
    baseline: int = 0
    permutations: int = DEFAULT_PERMUTATIONS
    layer: str = FINAL
    ks: tuple[int, ...] = DEFAULT_KS
    threshold: float = DEFAULT_THRESHOLD
    snap_min: float | None = DEFAULT_SNAP_MIN
    budgets: tuple[int, ...] = ()
    tokenizer: Tokenizer | None = None
    intervals: Intervals | None = None
    seed: int = 0
    fail_under: tuple[tuple[str, float], ...] = ()
    processes: int | None = 1
    keep_inputs: bool = False

    @property
    def annotator(self) -> str | None:
        """The annotator of an ``annotator:NAME`` layer; None for ``final`` and ``each``."""
        return self.layer[len(ANNOTATOR) :] if self.layer.startswith(ANNOTATOR) else None

    @property
    def level(self) -> float:
        """The intervals' confidence level; 0 when there are none."""
        return self.intervals.level if self.intervals is not None else 0.0


@dataclass(frozen=True)
class ScoreInputs:
    """What a drill-down needs besides the score: the questions scored (id → question),
    the pages they cite and the run's chunks, texts included, in rank order."""

    questions: dict[str, GoldQuestion]
    pages: dict[str, str]
    chunks: dict[str, list[Chunk]]


@dataclass(frozen=True)
class Scored:
    """What :func:`score` returns: one :class:`~labeler.evaluation.Evaluation` per run
    (``evaluation``: the first, the only one unless comparing), the comparison of
    ``runs`` (None for one run) and, with ``keep_inputs``, the inputs."""

    evaluations: tuple[Evaluation, ...]
    comparison: MultiComparison | None = None
    inputs: ScoreInputs | None = None

    @property
    def evaluation(self) -> Evaluation:
        return self.evaluations[0]


class UnknownMetricError(UsageError):
    """A quality gate names a key the score does not have; ``unknown`` are those keys (each
    with a close match when there is one), ``known`` the score's metric keys."""

    def __init__(self, unknown: Sequence[str], known: Sequence[str]) -> None:
        import difflib

        self.unknown = tuple(unknown)
        self.known = tuple(known)
        parts = []
        for key in unknown:
            close = difflib.get_close_matches(key, known, n=1)
            parts.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        #: the message without the name of the setting (``fail_under``, ``--fail-under``)
        self.detail = (
            f"no metric {', '.join(parts)} in this score; the metrics are {', '.join(known)}"
        )
        super().__init__(f"fail_under: {self.detail}")


class QualityGateError(LabelerError):
    """Raised by the Python API (``GoldSet.score(..., fail_under=...)``) when a metric is
    below its bar, after scoring: ``failures`` are the metrics below their bars and
    ``result`` is what the call would have returned. ``labeler score --fail-under``
    reports the same failures and exits with :data:`exit_code` instead."""

    exit_code = 3

    def __init__(self, failures: Sequence[GateFailure], result: object) -> None:
        self.failures = tuple(failures)
        self.result = result
        super().__init__("quality gate failed: " + "; ".join(str(f) for f in failures))


def check_request(request: ScoreRequest) -> None:
    """Refuse a request that asks for nothing or for what cannot go together, with a
    :class:`~labeler.errors.UsageError` naming it: neither or both of ``run`` and
    ``runs``; fewer than two ``runs`` or a baseline not among them; a layer other than
    ``final``, ``each`` or ``annotator:NAME``; ``each``, ``fail_under`` or ``keep_inputs``
    with ``runs``; an interval level outside [0, 1) or fewer than one resample."""
    if (request.run is None) == (not request.runs):
        raise UsageError("score: give either run (one run) or runs (runs to compare)")
    if request.runs:
        if len(request.runs) < 2:
            raise UsageError(f"compare takes two or more runs, got {len(request.runs)}")
        if not 0 <= request.baseline < len(request.runs):
            raise UsageError(
                f"compare: baseline index {request.baseline} is not one of the "
                f"{len(request.runs)} runs"
            )
        for what, given in (
            ("layer 'each'", request.layer == EACH),
            ("fail_under", bool(request.fail_under)),
            ("keep_inputs", request.keep_inputs),
        ):
            if given:
                raise UsageError(f"{what} applies to one run, not to a comparison")
    layer = request.layer
    if layer not in (FINAL, EACH) and not (
        layer.startswith(ANNOTATOR) and layer[len(ANNOTATOR) :].strip()
    ):
        raise UsageError(f"layer: expected final, each or annotator:NAME, got {layer!r}")
    if request.intervals is not None:
        if not 0 <= request.intervals.level < 1:
            raise UsageError(
                "intervals: the confidence level must be in [0, 1) (0 = no intervals), "
                f"got {request.intervals.level}"
            )
        if request.intervals.resamples < 1:
            raise UsageError(
                f"intervals: resamples must be at least 1, got {request.intervals.resamples}"
            )


@contextmanager
def reading(where: Store | str | ScoringSource) -> Iterator[ScoringSource]:
    """The reader scoring reads ``where`` through: the one place it is chosen (see this
    module's docstring for the rule). What is opened here is closed when the block ends."""
    if isinstance(where, str):
        source = open_source(where)
        try:
            yield source
        finally:
            source.close()
        return
    # imported here, not above: a --db value naming a current SQLite file is scored
    # without loading SQLAlchemy (the path timed against pytrec_eval)
    from labeler.store import Store

    if isinstance(where, Store):
        reader = _store_reader(where)
        try:
            yield reader if reader is not None else StoreSource(where)
        finally:
            if reader is not None:
                reader.close()
    else:
        yield where


def _store_reader(store: Store) -> SqliteReader | None:
    """The fast reader on ``store``'s SQLite file when it is at the current schema."""
    from labeler.store.engine import is_sqlite
    from labeler.store.integrity import store_file

    path = store_file(store.engine) if is_sqlite(store.engine.url) else None
    return open_reader(path) if path is not None else None


def open_source(db: str) -> ScoringSource:
    """The reader for ``--db`` value ``db`` (:func:`reading`'s rule for a ``--db`` value):
    the stdlib SQLite reader when the file exists at the current schema (a database at an
    older version is upgraded first), else the store itself. The caller closes it. No
    database at ``db`` is :class:`~labeler.errors.StoreError` ``no database at ...``; none
    is created."""
    path = sqlite_file(db)
    if path is not None:
        reader = open_reader(path)
        if reader is not None:
            return reader
    from labeler.store import open_store

    store = open_store(db, create=False)  # scoring reads only: never a new database
    if path is not None:
        reader = open_reader(path)
        if reader is not None:
            store.close()
            return reader
    return StoreSource(store)


def score(
    where: Store | str | ScoringSource,
    request: ScoreRequest,
    *,
    progress: Progress = no_progress,
) -> Scored:
    """Score ``request`` against the database ``where`` (see the module docstring for how
    its reader is chosen). Reads only. ``progress(done, total, run)`` counts the gold
    questions scored, over every run of a comparison and every layer of ``each`` (``total``
    grows as the annotators' layers are read).

    Order of work (each step's errors before the next begins): the request is checked
    (:func:`check_request`); for an ``annotator:NAME`` layer NAME must have marked a
    question of the gold set done (else :class:`~labeler.errors.UsageError` listing who
    did); the gold set and run are read and scored; the gate's keys are checked
    (:class:`UnknownMetricError`); intervals are added; for ``each`` every annotator's
    layer is scored; the gate is applied (``Evaluation.below``). A missing gold set or run
    raises :class:`~labeler.errors.NotFoundError`.
    """
    check_request(request)
    check_budgets(request.budgets)
    if request.level:
        single_threaded_blas()
    with reading(where) as source, gc_paused():
        if request.runs:
            return _compare(source, request, progress)
        return _one(source, request, progress)


def _layer_load(source: ScoringSource, request: ScoreRequest) -> GoldLoad | OutlinedLoad:
    """The gold layer ``request`` scores (see :func:`_read_layer`)."""
    annotator = request.annotator
    if annotator is not None:
        known = source.layer_annotators(request.gold_set)
        if annotator not in known:
            raise UsageError(
                f"{annotator!r} marked no question of gold set {request.gold_set!r} done "
                f"(annotators who did: {', '.join(known) or 'none'})"
            )
    return _read_layer(source, request, annotator)


def _read_layer(
    source: ScoringSource, request: ScoreRequest, annotator: str | None
) -> GoldLoad | OutlinedLoad:
    """The final layer (``annotator`` None) or ``annotator``'s: in outline (read whole range
    by range as it is scored, so that it is never held at once) when stored runs are scored
    from a SQLite file without their inputs kept; else whole."""
    stored = request.runs or isinstance(request.run, str)
    if isinstance(source, SqliteReader) and stored and not request.keep_inputs:
        return load_outline(source, request.gold_set, annotator)
    return load_gold_layer(source, request.gold_set, annotator)


def _scored(
    source: ScoringSource,
    request: ScoreRequest,
    load: GoldLoad | OutlinedLoad,
    run: str | Mapping[str, Sequence[Chunk]],
    *,
    ks: Sequence[int],
    budgets: Sequence[int],
    tokenizer: Tokenizer | None,
    keyed: PageKeys | None = None,
    whole: bool = False,
    progress: Progress = no_progress,
    judging: RangeJudging | None = None,
) -> tuple[RunScore, dict[str, list[Chunk]] | None]:
    """``run`` (stored or in memory) scored on ``load``; with ``whole``, the run too;
    ``progress`` counts ``load``'s questions; ``judging`` counts a stored run's judged@k
    as it is read, where the reader allows (see ``_score``)."""
    if isinstance(run, str):
        return _score(
            source,
            load.questions,
            load.pages,
            page_keys(load.pages) if keyed is None else keyed,
            request.gold_set,
            run,
            ks,
            request.threshold,
            request.processes,
            budgets,
            tokenizer,
            whole,
            load,
            progress,
            snap_min=request.snap_min,
            judging=judging,
        )
    assert isinstance(load, GoldLoad)  # in-memory answers are scored on a whole layer
    rows = score_questions(
        counted(load.questions, progress, len(load.questions), every=EVERY),
        load.pages,
        run,
        ks=ks,
        threshold=request.threshold,
        budgets=budgets,
        tokenizer=tokenizer,
        snap_min=request.snap_min,
    )
    result = aggregate(
        load.questions,
        rows,
        load.run_ids(sorted(run)),  # the order a stored run is read in, pending ones left out
        ks=ks,
        threshold=request.threshold,
        gold_set=request.gold_set,
        run_name=request.run_name or IN_MEMORY,
        budgets=budgets,
        tokenizer=tokenizer.name if tokenizer is not None else None,
    )
    return result, ({q: list(c) for q, c in run.items()} if whole else None)


#: the run name of in-memory answers unless the request names them
IN_MEMORY = "in-memory"

#: questions between two progress reports (a report per question would cost more than
#: it tells)
EVERY = 64


class _Passes:
    """One count over several scoring passes (runs of a comparison, layers of ``each``):
    ``pass_(n, name)`` gives the :data:`Progress` of the next pass of ``n`` questions."""

    def __init__(self, progress: Progress, total: int) -> None:
        self.progress = progress
        self.total = total
        self.base = 0

    def pass_(self, size: int, name: str) -> Progress:
        base = self.base
        self.base += size
        self.total = max(self.total, self.base)
        if self.progress is no_progress:
            return no_progress
        outer, total = self.progress, self.total

        def report(done: int, _total: int | None, _item: str) -> None:
            outer(base + done, total, name)

        return report


def _one(source: ScoringSource, request: ScoreRequest, progress: Progress) -> Scored:
    assert request.run is not None  # check_request
    load = _layer_load(source, request)
    run_name = request.run if isinstance(request.run, str) else request.run_name or IN_MEMORY
    passes = _Passes(progress, len(load.questions))
    judging = _judging(source, request.gold_set, request.run, request.ks)
    result, chunks = _scored(
        source,
        request,
        load,
        request.run,
        ks=request.ks,
        budgets=request.budgets,
        tokenizer=request.tokenizer,
        whole=request.keep_inputs,
        progress=passes.pass_(len(load.questions), run_name),
        judging=judging,
    )
    unknown = [key for key, _ in request.fail_under if key not in result.metrics]
    if unknown:
        raise UnknownMetricError(unknown, list(result.metrics))
    if request.level and request.intervals is not None:
        from labeler.evaluation._bootstrap_split import means_in_processes
        from labeler.evaluation._shards import plan_processes
        from scoring.bootstrap import with_intervals

        result = with_intervals(
            result,
            level=request.level,
            resamples=request.intervals.resamples,
            seed=request.seed,
            means_of=means_in_processes(plan_processes(request.processes, len(result.queries))),
        )
    layers: list[tuple[str, LayerScore]] = []
    if request.layer == EACH:
        layers.append((FINAL, LayerScore.of(result)))
        for name in source.layer_annotators(request.gold_set):
            each = _read_layer(source, request, name)
            # the headline figures only: as `labeler score --layer each` has always scored
            scored, _ = _scored(
                source,
                request,
                each,
                request.run,
                ks=request.ks,
                budgets=(),
                tokenizer=None,
                progress=passes.pass_(len(each.questions), f"{ANNOTATOR}{name}"),
            )
            # its line only: its rows are dropped before the next layer is scored
            layers.append((f"{ANNOTATOR}{name}", LayerScore.of(scored)))
            del scored
    below = tuple(
        GateFailure(key, result.metrics[key], bar)
        for key, bar in request.fail_under
        if result.metrics[key] < bar
    )
    layer = FINAL if request.annotator is None else request.layer
    judged = _judged(source, request.gold_set, request.run, request.ks, result, judging)
    evaluation = Evaluation(
        result, load.stale, load.pending, layer, tuple(layers), below, judged=judged
    )
    inputs = None
    if request.keep_inputs:
        assert chunks is not None and isinstance(load, GoldLoad)
        inputs = ScoreInputs({q.query_id: q for q in load.questions}, load.pages, chunks)
    return Scored((evaluation,), inputs=inputs)


def _judging(
    source: ScoringSource, gold_set: str, run: str | object, ks: Sequence[int]
) -> RangeJudging | None:
    """A count of judged@k to run alongside the scoring of stored run ``run`` when it is
    read through the SQLite reader (its ranges carry what judged@k needs); else None."""
    if isinstance(source, SqliteReader) and isinstance(run, str):
        return RangeJudging(source, gold_set, run, ks)
    return None


def _judged(
    source: ScoringSource,
    gold_set: str,
    run: str | Mapping[str, Sequence[Chunk]],
    ks: Sequence[int],
    result: RunScore,
    judging: RangeJudging | None,
) -> JudgedAtK:
    """judged@k of ``run``: as counted alongside its scoring when it was, else read
    afresh (:func:`judged_of`) for the questions ``result`` answered."""
    if judging is not None and judging.ranges:
        return judging.result()
    return judged_of(source, gold_set, run, ks, answered(result))


def answered(result: RunScore) -> list[str]:
    """The ids of ``result``'s questions the run answered (``in_run``), in gold order."""
    rows = result.queries
    if isinstance(rows, QueryTable):  # read by columns, no row rebuilt
        return [qid for qid, in_run in zip(rows.ids, rows.in_run, strict=True) if in_run]
    return [q.query_id for q in rows if q.in_run]


def _compare(source: ScoringSource, request: ScoreRequest, progress: Progress) -> Scored:
    load = _layer_load(source, request)
    keyed = page_keys(load.pages)  # the gold set read and its pages keyed once for all runs
    layer = FINAL if request.annotator is None else request.layer
    passes = _Passes(progress, len(load.questions) * len(request.runs))
    evaluations = []
    for name in request.runs:
        judging = _judging(source, request.gold_set, name, request.ks)
        result, _ = _scored(
            source,
            request,
            load,
            name,
            ks=request.ks,
            budgets=request.budgets,
            tokenizer=request.tokenizer,
            keyed=keyed,
            progress=passes.pass_(len(load.questions), name),
            judging=judging,
        )
        judged = _judged(source, request.gold_set, name, request.ks, result, judging)
        evaluations.append(Evaluation(result, load.stale, load.pending, layer, judged=judged))
    from scoring.multicompare import compare_to_baseline  # off the path of `labeler score`

    comparison = compare_to_baseline(
        [ev.result for ev in evaluations],
        baseline=request.baseline,
        permutations=request.permutations,
        seed=request.seed,
        level=request.level,
        resamples=(
            request.intervals.resamples if request.intervals is not None else DEFAULT_RESAMPLES
        ),
    )
    return Scored(tuple(evaluations), comparison)


def runs_to_score(store: Store) -> list[RunSummary]:
    """Every stored run of ``store`` that a request may name, by name, with its question
    and result counts (what the scores screen offers). Reads only, in one transaction."""
    from labeler.store.browse import list_runs

    with store.session() as session:
        return list_runs(session)


def single_threaded_blas() -> None:
    """Ask numpy's BLAS for one thread, unless numpy is loaded already or the user chose.

    The bootstrap's matrix products are small (256 × n by n × metrics); OpenBLAS's threads
    cost more than they save, and on a busy machine several times more (2,000 resamples of
    4,000 × 40: 0.15–0.3 s on one thread, 0.9 s on two, at a load of 10 on 2 CPUs)."""
    if "numpy" not in sys.modules:
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(name, "1")


# Shorthands: each builds a request and calls score(), so they score exactly as it does.


def evaluate(
    source: Store | str | ScoringSource,
    gold_set: str,
    run: str,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: float = DEFAULT_THRESHOLD,
    jobs: int | None = 1,
    annotator: str | None = None,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
) -> Evaluation:
    """Stored run ``run`` scored against gold set ``gold_set``'s final layer or, with
    ``annotator``, that annotator's layer (the metrics: docs/metrics.md): :func:`score` of
    the matching request (``jobs`` is its ``processes``)."""
    layer = FINAL if annotator is None else f"{ANNOTATOR}{annotator}"
    request = ScoreRequest(
        gold_set,
        run,
        layer=layer,
        ks=tuple(ks),
        threshold=threshold,
        budgets=tuple(budgets),
        tokenizer=tokenizer,
        processes=jobs,
    )
    return score(source, request).evaluation


def evaluate_in_memory(
    source: Store | str | ScoringSource,
    gold_set: str,
    run: Mapping[str, Sequence[Chunk]],
    *,
    run_name: str,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: float = DEFAULT_THRESHOLD,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
) -> Evaluation:
    """``run`` (query id → chunks in rank order, held in memory, nothing stored) scored
    against gold set ``gold_set``: :func:`score` of the matching request. The result
    equals importing ``run`` as ``run_name`` and scoring it, to the byte in ``to_dict()``:
    query ids not in the gold set are listed in ``unknown_in_run`` sorted by code point,
    the order a stored run is read in."""
    request = ScoreRequest(
        gold_set,
        run,
        run_name=run_name,
        ks=tuple(ks),
        threshold=threshold,
        budgets=tuple(budgets),
        tokenizer=tokenizer,
    )
    return score(source, request).evaluation


def compare(
    source: Store | str | ScoringSource,
    gold_set: str,
    run_a: str,
    run_b: str,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: float = DEFAULT_THRESHOLD,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
    jobs: int | None = 1,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
) -> tuple[RunComparison, Evaluation, Evaluation]:
    """Both runs scored on one gold set and compared question by question (B − A): the
    one comparison of :func:`score` of ``runs=(run_a, run_b)``."""
    request = ScoreRequest(
        gold_set,
        runs=(run_a, run_b),
        permutations=permutations,
        seed=seed,
        ks=tuple(ks),
        threshold=threshold,
        budgets=tuple(budgets),
        tokenizer=tokenizer,
        processes=jobs,
    )
    scored = score(source, request)
    assert scored.comparison is not None
    a, b = scored.evaluations
    return scored.comparison.comparisons[0], a, b


def compare_many(
    source: Store | str | ScoringSource,
    gold_set: str,
    runs: Sequence[str],
    *,
    baseline: int = 0,
    ks: Sequence[int] = DEFAULT_KS,
    threshold: float = DEFAULT_THRESHOLD,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
    level: float = 0.0,
    resamples: int = DEFAULT_RESAMPLES,
    jobs: int | None = 1,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
) -> tuple[MultiComparison, list[Evaluation]]:
    """Every run of ``runs`` scored on one gold set and compared with ``runs[baseline]``:
    :func:`score` of the matching request; the evaluations are in the order of ``runs``."""
    request = ScoreRequest(
        gold_set,
        runs=tuple(runs),
        baseline=baseline,
        permutations=permutations,
        seed=seed,
        intervals=Intervals(level, resamples),
        ks=tuple(ks),
        threshold=threshold,
        budgets=tuple(budgets),
        tokenizer=tokenizer,
        processes=jobs,
    )
    scored = score(source, request)
    assert scored.comparison is not None
    return scored.comparison, list(scored.evaluations)
