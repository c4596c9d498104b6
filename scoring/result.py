"""Result values of scoring a run: per-question rows, aggregates, and the Score JSON."""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, Protocol, cast

from scoring.budget import TOKENS, budget_key
from scoring.intervals import Estimate, MetricIntervals
from scoring.metrics import METRIC_NAMES, Judgement, key_lost_at
from scoring.snap import Snapped
from scoring.spans import SPAN_METRIC_NAMES

__all__ = [
    "N_GOLD_GROUPS",
    "Diagnosis",
    "DiagnosisKind",
    "Flags",
    "GroupScore",
    "LayerScore",
    "PlainQueryScore",
    "QueryScore",
    "RunScore",
    "metric_key",
    "n_gold_group",
    "score_names",
    "value_keys",
]

N_GOLD_GROUPS: tuple[str, ...] = ("1", "2", "3+")

PlainQueryScore = tuple[
    str,
    int,
    bool,
    int,
    tuple[float, ...],
    tuple[tuple[int, str, float, int | None], ...],
    tuple[int, int, int, int, int, int, int],
    tuple[
        tuple[int, ...],
        tuple[tuple[int, ...], ...],
        tuple[int | None, ...],
        tuple[int | None, ...],
        tuple[bool, ...],
        tuple[int | None, ...],
    ],
    tuple[tuple[int, str, int, int, float], ...],
]
"""``QueryScore.to_plain``: the row as nested tuples of builtins."""


def metric_key(name: str, k: int) -> str:
    """The flat key of a metric at k, e.g. ``metric_key("hit", 4) == "hit@4"``."""
    return f"{name}@{k}"


def score_names(tokens: bool = False) -> tuple[str, ...]:
    """The metric names of a score, in report order: ``METRIC_NAMES``, then
    ``SPAN_METRIC_NAMES``, then ``tokens`` when a tokenizer counted the chunks' tokens."""
    return (*METRIC_NAMES, *SPAN_METRIC_NAMES, *((TOKENS,) if tokens else ()))


def value_keys(ks: Sequence[int], budgets: Sequence[int] = (), tokens: bool = False) -> list[str]:
    """Every flat key of a score, in the order of ``QueryScore.values``: each name of
    ``score_names(tokens)`` at each k (``hit@1``, ``hit@5``, ... ``span_iou@5``), then each
    at each token budget (``hit@500t``, ...)."""
    names = score_names(tokens)
    keys = [metric_key(name, k) for name in names for k in ks]
    keys += [budget_key(name, b) for name in names for b in budgets]
    return keys


def n_gold_group(n_gold: int) -> str:
    """Breakdown group of a question by its number of elements: ``"1"``, ``"2"`` or ``"3+"``."""
    return "1" if n_gold <= 1 else "2" if n_gold == 2 else "3+"


class DiagnosisKind(StrEnum):
    """Why a question did or did not get a Full hit at k (ordered worst first below)."""

    RETRIEVAL = "retrieval"  # not even a partial hit: the retriever missed the place
    CHUNKING = "chunking"  # partial but no full hit: a chunk boundary cut the answer
    FULL = "full"  # a full hit


#: the diagnosis kinds by severity, worst first: a kind's code (its severity, and how
#: ``QueryTable`` stores it) is its index
KIND_OF_CODE = (DiagnosisKind.RETRIEVAL, DiagnosisKind.CHUNKING, DiagnosisKind.FULL)
_SEVERITY = {kind: code for code, kind in enumerate(KIND_OF_CODE)}
_KINDS = {str(kind): kind for kind in DiagnosisKind}


class Diagnosis(NamedTuple):
    """Diagnosis of one question at k, with the best coverage among ranks ≤ k and its rank.

    ``best_rank`` is the first rank reaching ``best_coverage`` (``None`` when it is 0).
    """

    kind: DiagnosisKind
    best_coverage: float
    best_rank: int | None

    @property
    def severity(self) -> int:
        """0 for retrieval, 1 for chunking, 2 for full (sort key, worst first)."""
        return _SEVERITY[self.kind]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {"kind": str(self.kind), "best_coverage": self.best_coverage, "rank": self.best_rank}


@dataclass(frozen=True, slots=True)
class Flags:
    """Flag counts. Per question: ``repeated`` = elements whose text occurs more than once in
    its page; ``fallback`` = ranks where rule 3 was used for some element (the chunk is not
    in that element's page, e.g. it comes from another page); ``fallback_graded`` = ranks
    where rule 3 gave some element Partial or Full (the grade rests on the fallback);
    ``chunk_repeated`` = ranks whose chunk occurs more than once in some element's page;
    ``element_not_in_page`` = elements whose text is not in its page (or the page is
    unknown); ``offset_mismatch`` = ranks whose chunk carries offsets into one of the
    question's cited pages (its ``doc``) where ``page[start:end]`` is not the chunk's text
    (placed by its text instead); ``snapped`` = ranks whose chunk, found on none of the
    question's cited pages, was snapped onto one (``scoring.snap``) and scored there.
    Per run: the sums over questions."""

    repeated: int = 0
    fallback: int = 0
    chunk_repeated: int = 0
    element_not_in_page: int = 0
    fallback_graded: int = 0
    offset_mismatch: int = 0
    snapped: int = 0

    def __add__(self, other: Flags) -> Flags:
        return Flags(
            self.repeated + other.repeated,
            self.fallback + other.fallback,
            self.chunk_repeated + other.chunk_repeated,
            self.element_not_in_page + other.element_not_in_page,
            self.fallback_graded + other.fallback_graded,
            self.offset_mismatch + other.offset_mismatch,
            self.snapped + other.snapped,
        )

    def to_dict(self) -> dict[str, int]:
        """Plain JSON-ready mapping."""
        return {
            "repeated": self.repeated,
            "fallback": self.fallback,
            "chunk_repeated": self.chunk_repeated,
            "element_not_in_page": self.element_not_in_page,
            "fallback_graded": self.fallback_graded,
            "offset_mismatch": self.offset_mismatch,
            "snapped": self.snapped,
        }


@dataclass(frozen=True, slots=True)
class QueryScore:
    """One scored question.

    ``values`` maps ``"<metric>@<k>"`` to the value (all zero when the question is missing
    from the run); ``diagnoses`` maps k to the diagnosis at k; ``snaps`` are the ranks
    scored at a snapped span (``scoring.snap``), in rank order.
    """

    query_id: str
    n_gold: int
    in_run: bool
    n_chunks: int
    values: Mapping[str, float]
    diagnoses: Mapping[int, Diagnosis]
    flags: Flags
    judgement: Judgement = field(repr=False, compare=False)
    snaps: tuple[Snapped, ...] = ()

    @property
    def group(self) -> str:
        """The n_gold group (``"1"``, ``"2"``, ``"3+"``)."""
        return n_gold_group(self.n_gold)

    def value(self, name: str, k: int) -> float:
        """The value of metric ``name`` at ``k`` (``KeyError`` if k was not scored)."""
        return self.values[metric_key(name, k)]

    def key_lost(self, k: int) -> bool:
        """Whether a key clause turned this question's partial@k into a miss
        (:func:`~scoring.metrics.key_lost_at`)."""
        return key_lost_at(self.judgement, k)

    def to_plain(self, keys: Sequence[str]) -> PlainQueryScore:
        """The row as nested tuples of strings, numbers and None (``marshal``-able, to pass
        rows between processes); ``keys`` fixes the order of the metric values.
        ``QueryScore.from_plain(row.to_plain(keys), keys) == row``."""
        j = self.judgement
        return (
            self.query_id,
            self.n_gold,
            self.in_run,
            self.n_chunks,
            tuple(self.values[key] for key in keys),
            tuple(
                (k, str(d.kind), d.best_coverage, d.best_rank) for k, d in self.diagnoses.items()
            ),
            (
                self.flags.repeated,
                self.flags.fallback,
                self.flags.chunk_repeated,
                self.flags.element_not_in_page,
                self.flags.fallback_graded,
                self.flags.offset_mismatch,
                self.flags.snapped,
            ),
            (
                j.element_grades,
                j.grades,
                j.first_full,
                j.first_partial,
                j.relevant,
                j.first_partial_unkeyed,
            ),
            tuple((s.rank, s.doc, s.start, s.end, s.score) for s in self.snaps),
        )

    @classmethod
    def from_plain(cls, plain: PlainQueryScore, keys: Sequence[str]) -> QueryScore:
        """Rebuild a row from ``to_plain`` output made with the same ``keys``."""
        qid, n_gold, in_run, n_chunks, values, diagnoses, flags, judgement, snaps = plain
        return cls(
            query_id=qid,
            n_gold=n_gold,
            in_run=in_run,
            n_chunks=n_chunks,
            values=dict(zip(keys, values, strict=True)),
            diagnoses={k: Diagnosis(_KINDS[kind], cov, rank) for k, kind, cov, rank in diagnoses},
            flags=Flags(*flags),
            judgement=Judgement(*judgement),
            snaps=tuple(Snapped(*s) for s in snaps),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready row."""
        return {
            "query_id": self.query_id,
            "n_gold": self.n_gold,
            "in_run": self.in_run,
            "n_chunks": self.n_chunks,
            "metrics": dict(self.values),
            "diagnosis": {str(k): d.to_dict() for k, d in self.diagnoses.items()},
            "flags": self.flags.to_dict(),
            "key_lost": [k for k in self.diagnoses if self.key_lost(k)],
            "snapped": [s.to_dict() for s in self.snaps],
        }


@dataclass(frozen=True, slots=True)
class GroupScore:
    """Aggregate of one n_gold group: number of questions and mean of every metric key."""

    queries: int
    metrics: Mapping[str, float]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {"queries": self.queries, "metrics": dict(self.metrics)}


@dataclass(frozen=True, slots=True)
class LayerScore:
    """One line of a per-layer table (``labeler score --layer each``): how many questions a
    layer scored and its aggregate metrics, without the per-question rows a
    :class:`RunScore` holds (one layer's rows per annotator would grow with the number of
    questions for figures nobody reads)."""

    questions: int
    metrics: Mapping[str, float]

    @classmethod
    def of(cls, result: RunScore) -> LayerScore:
        """``result``'s question count and metrics."""
        return cls(len(result.queries), dict(result.metrics))

    def value(self, name: str, k: int) -> float:
        """Aggregate value of metric ``name`` at ``k``."""
        return self.metrics[metric_key(name, k)]


@dataclass(frozen=True, slots=True)
class RunScore:
    """The result of scoring one run against one gold set.

    Attributes:
        gold_set, run: names, carried into the JSON.
        threshold: θ used for Partial.
        ks: the cut-offs scored, ascending.
        queries: one row per gold question with at least one element, in gold order (a
            tuple, or a ``scoring.querytable.QueryTable`` holding the same rows compactly).
        metrics: ``"<metric>@<k>"`` → mean over ``queries`` (0 when there are none).
        by_n_gold: group (``"1"``, ``"2"``, ``"3+"``) → its aggregate; groups without
            questions are omitted. The count-weighted mean of the groups equals ``metrics``.
        flags: flag counts summed over questions.
        missing_from_run: gold question ids (with elements) absent from the run; they
            score 0 and are included in ``queries``.
        unknown_in_run: run query ids that are not in the gold set; ignored.
        without_elements: gold question ids without elements; not scored.
        keys: how many scored elements carry a key span.
        ci: bootstrap intervals of ``metrics`` over ``queries`` (``scoring.bootstrap``), or
            None when none were asked for.
        budgets: token budgets scored (ascending; empty for none).
        tokenizer: name of the tokenizer that counted tokens (None: no token metrics).
    """

    gold_set: str
    run: str
    threshold: float
    ks: tuple[int, ...]
    queries: Sequence[QueryScore]
    metrics: Mapping[str, float]
    by_n_gold: Mapping[str, GroupScore]
    flags: Flags
    missing_from_run: tuple[str, ...]
    unknown_in_run: tuple[str, ...]
    without_elements: tuple[str, ...]
    keys: int = 0
    ci: MetricIntervals | None = None
    budgets: tuple[int, ...] = ()
    tokenizer: str | None = None

    def value(self, name: str, k: int) -> float:
        """Aggregate value of metric ``name`` at ``k``."""
        return self.metrics[metric_key(name, k)]

    def estimate(self, key: str) -> float | Estimate:
        """The aggregate of metric ``key``, as an ``Estimate`` with its interval when
        ``ci`` holds one, else the plain value."""
        value = self.metrics[key]
        interval = self.ci.intervals.get(key) if self.ci is not None else None
        return value if interval is None else Estimate(value, interval)

    def at_budget(self, name: str, budget: int) -> float:
        """Aggregate value of metric ``name`` at token budget ``budget``."""
        return self.metrics[budget_key(name, budget)]

    @property
    def names(self) -> tuple[str, ...]:
        """The metric names scored, in report order (``score_names``)."""
        return score_names(self.tokenizer is not None)

    def gap(self, k: int) -> float:
        """The Partial − Hit gap at k: the share of questions lost to chunking."""
        return self.value("partial", k) - self.value("hit", k)

    def diagnosis_counts(self, k: int) -> dict[str, int]:
        """Number of questions per diagnosis at k (``full``, ``chunking``, ``retrieval``)."""
        counts = {str(kind): 0 for kind in DiagnosisKind}
        table = _table(self.queries)
        if table is not None:
            kinds = table.kinds(k)
            for code, kind in enumerate(KIND_OF_CODE):
                counts[str(kind)] = kinds.count(code)
            return counts
        for q in self.queries:
            counts[str(q.diagnoses[k].kind)] += 1
        return counts

    def key_lost_count(self, k: int) -> int:
        """Questions where a key clause turned a partial@k into a miss ("key lost")."""
        table = _table(self.queries)
        if table is not None:
            return table.key_lost(k)
        return sum(q.key_lost(k) for q in self.queries)

    def worst_first(self, k: int) -> Sequence[QueryScore]:
        """Questions ordered worst first at k: retrieval, then chunking, then full; within
        a kind by ascending best coverage, then ascending recall@k, then query id."""
        table = _table(self.queries)
        if table is not None:
            kinds, cov = table.kinds(k), table.coverages(k)
            recall, ids = table.column(metric_key("recall", k)), table.ids
            order = sorted(range(len(table)), key=lambda i: (kinds[i], cov[i], recall[i], ids[i]))
            return table.order(order)
        return sorted(
            self.queries,
            key=lambda q: (
                q.diagnoses[k].severity,
                q.diagnoses[k].best_coverage,
                q.value("recall", k),
                q.query_id,
            ),
        )

    def to_dict(self, *, per_query: bool = True) -> dict[str, Any]:
        """The Score JSON (docs/formats.md) as plain dicts/lists/numbers/strings.

        Keys: ``gold_set``, ``run``, ``threshold``, ``ks``, ``queries`` (count scored),
        ``metrics`` (flat ``<name>@<k>`` map), ``partial_hit_gap`` and ``diagnosis`` (per k),
        ``by_n_gold``, ``flags``, ``missing_from_run``, ``unknown_in_run``,
        ``without_elements`` (each ``{"count", "query_ids"}``), ``keys`` (elements with a
        key span), ``key_lost`` (per k, questions a key clause turned from partial to a
        miss), ``budgets`` and ``tokenizer`` (``[]`` and null without token budgets), with
        intervals ``ci`` (metric key → ``[low, high]``) and ``bootstrap`` (how they were
        made), and, unless
        ``per_query=False``, ``per_query`` rows.
        """
        out: dict[str, Any] = {
            "format": "goldlabeler-score",
            "version": 1,
            "gold_set": self.gold_set,
            "run": self.run,
            "threshold": self.threshold,
            "ks": list(self.ks),
            "budgets": list(self.budgets),
            "tokenizer": self.tokenizer,
            "queries": len(self.queries),
            "metrics": dict(self.metrics),
            "partial_hit_gap": {str(k): self.gap(k) for k in self.ks},
            "diagnosis": {str(k): self.diagnosis_counts(k) for k in self.ks},
            "by_n_gold": {g: s.to_dict() for g, s in self.by_n_gold.items()},
            "flags": self.flags.to_dict(),
            "missing_from_run": _ids(self.missing_from_run),
            "unknown_in_run": _ids(self.unknown_in_run),
            "without_elements": _ids(self.without_elements),
            "keys": self.keys,
            "key_lost": {str(k): self.key_lost_count(k) for k in self.ks},
            "snap_lowest": self.lowest_snap,
        }
        if self.ci is not None:
            out["ci"] = self.ci.pairs()
            out["bootstrap"] = self.ci.settings()
        if per_query:
            out["per_query"] = [q.to_dict() for q in self.queries]
        return out

    @property
    def lowest_snap(self) -> float | None:
        """The lowest alignment score of a snapped chunk (None: nothing was snapped)."""
        table = _table(self.queries)
        if table is not None:  # its sparse snaps, not every row rebuilt
            return table.lowest_snap()
        return min((s.score for q in self.queries for s in q.snaps), default=None)

    def metric_keys(self) -> list[str]:
        """All flat metric keys in report order (``value_keys``: metric-major, then k,
        then the token budgets)."""
        return value_keys(self.ks, self.budgets, self.tokenizer is not None)


class _Columns(Protocol):
    """What ``RunScore`` reads of a ``scoring.querytable.QueryTable`` (by columns)."""

    ids: list[str]

    def __len__(self) -> int: ...

    def kinds(self, k: int) -> bytes: ...

    def coverages(self, k: int) -> array[float]: ...

    def column(self, key: str) -> array[float]: ...

    def key_lost(self, k: int) -> int: ...

    def lowest_snap(self) -> float | None: ...

    def order(self, positions: Sequence[int]) -> Sequence[QueryScore]: ...


def _table(queries: Sequence[QueryScore]) -> _Columns | None:
    """``queries`` when it is a ``QueryTable`` (read by columns, not row by row); told
    apart by its columns, since the table module builds on this one."""
    return cast(_Columns, queries) if hasattr(queries, "coverages") else None


def _ids(ids: tuple[str, ...]) -> dict[str, Any]:
    return {"count": len(ids), "query_ids": list(ids)}
