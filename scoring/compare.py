"""Compare two scored runs on the same gold set, question by question."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from scoring.intervals import DEFAULT_RESAMPLES, Interval, check_confidence
from scoring.result import N_GOLD_GROUPS, RunScore, n_gold_group
from scoring.stats import DEFAULT_PERMUTATIONS, PairedTest, paired_randomization_test

__all__ = ["GroupMovement", "Movement", "QueryDelta", "RunComparison", "compare_runs"]


@dataclass(frozen=True, slots=True)
class QueryDelta:
    """One question in both runs: ``deltas[key]`` = value in B − value in A, and the
    diagnosis kind in each run per k (``"retrieval"``, ``"chunking"``, ``"full"``)."""

    query_id: str
    n_gold: int
    deltas: Mapping[str, float]
    diagnosis_a: Mapping[int, str]
    diagnosis_b: Mapping[int, str]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "query_id": self.query_id,
            "n_gold": self.n_gold,
            "deltas": dict(self.deltas),
            "diagnosis": {
                str(k): {"a": self.diagnosis_a[k], "b": self.diagnosis_b[k]}
                for k in self.diagnosis_a
            },
        }


@dataclass(frozen=True, slots=True)
class Movement:
    """Questions that moved on one metric key: better (B > A) and worse (B < A)."""

    better: tuple[str, ...]
    worse: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {"better": list(self.better), "worse": list(self.worse)}


@dataclass(frozen=True, slots=True)
class GroupMovement:
    """One n_gold group on one metric key: counts moved and the mean delta."""

    queries: int
    better: int
    worse: int
    mean_delta: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "queries": self.queries,
            "better": self.better,
            "worse": self.worse,
            "mean_delta": self.mean_delta,
        }


@dataclass(frozen=True, slots=True)
class RunComparison:
    """Run B compared with run A (deltas are B − A).

    Attributes:
        keys: compared metric keys (``"hit@4"`` ...), those scored in both runs.
        questions: one ``QueryDelta`` per question, in gold order.
        moved: key → questions that got better / worse.
        by_n_gold: group → key → ``GroupMovement``.
        diagnosis_changes: k → ``"chunking→full"``-style transition → number of questions
            (unchanged diagnoses are not listed).
        tests: key → paired randomization test.
        delta_ci: key → percentile bootstrap interval of the mean delta (paired: questions
            are resampled, each keeping its two values), at level ``ci_level``; empty
            when no interval was asked for.
        p_holm: key → the test's p-value after Holm's correction across the comparisons
            it was made with (``scoring.multicompare``); empty for a lone comparison.
    """

    gold_set: str
    run_a: str
    run_b: str
    keys: tuple[str, ...]
    questions: tuple[QueryDelta, ...]
    moved: Mapping[str, Movement]
    by_n_gold: Mapping[str, Mapping[str, GroupMovement]]
    diagnosis_changes: Mapping[int, Mapping[str, int]]
    tests: Mapping[str, PairedTest]
    delta_ci: Mapping[str, Interval] = field(default_factory=dict)
    ci_level: float = 0.0
    p_holm: Mapping[str, float] = field(default_factory=dict)

    def to_dict(self, *, per_query: bool = True) -> dict[str, Any]:
        """Plain JSON-ready mapping of the whole comparison."""
        out: dict[str, Any] = {
            "gold_set": self.gold_set,
            "run_a": self.run_a,
            "run_b": self.run_b,
            "queries": len(self.questions),
            "metrics": {key: self._metric_dict(key) for key in self.keys},
            "by_n_gold": {
                group: {key: m.to_dict() for key, m in per_key.items()}
                for group, per_key in self.by_n_gold.items()
            },
            "diagnosis_changes": {str(k): dict(v) for k, v in self.diagnosis_changes.items()},
        }
        if self.delta_ci:
            out["ci_level"] = self.ci_level
        if per_query:
            out["per_query"] = [q.to_dict() for q in self.questions]
        return out

    def _metric_dict(self, key: str) -> dict[str, Any]:
        out = self.tests[key].to_dict() if key in self.tests else {}
        if key in self.p_holm:
            out["p_holm"] = self.p_holm[key]
        if key in self.delta_ci:
            out["delta_ci"] = list(self.delta_ci[key])
        out.update(self.moved[key].to_dict())
        return out


def compare_runs(
    a: RunScore,
    b: RunScore,
    *,
    keys: Sequence[str] | None = None,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
    level: float = 0.0,
    resamples: int = DEFAULT_RESAMPLES,
) -> RunComparison:
    """Compare run B against run A, both scored on the same gold set.

    Per question and metric key the delta is ``B − A``; a question *moved* on a key when
    its delta is not 0. Moves are also counted per n_gold group, diagnosis transitions are
    counted per k (e.g. ``"chunking→full"``), and each key gets a two-sided paired
    randomization test (``paired_randomization_test``, seeded, ``permutations`` sign
    vectors). With ``level`` > 0 each key's mean delta also gets its percentile bootstrap
    interval (``scoring.bootstrap``, ``resamples`` draws of questions seeded with ``seed``).

    Args:
        keys: metric keys to compare; default every key scored in both runs.
        level: confidence level of the delta intervals in (0, 1); 0 = none.

    Raises:
        ValueError: the two results do not hold the same scored questions, a requested key
            is missing from one run, ``permutations < 1``, a level outside [0, 1) or
            ``resamples < 1``.
    """
    if level:
        check_confidence(level)
    ids_a = [q.query_id for q in a.queries]
    ids_b = [q.query_id for q in b.queries]
    if ids_a != ids_b:
        only_a = sorted(set(ids_a) - set(ids_b))
        only_b = sorted(set(ids_b) - set(ids_a))
        raise ValueError(
            "runs were not scored on the same questions "
            f"(only in A: {only_a[:5]}, only in B: {only_b[:5]})"
        )
    common = [key for key in a.metrics if key in b.metrics]
    chosen = list(keys) if keys is not None else common
    for key in chosen:
        if key not in a.metrics or key not in b.metrics:
            raise ValueError(f"metric key {key!r} is not scored in both runs")
    shared_ks = [k for k in a.ks if k in b.ks]
    questions: list[QueryDelta] = []
    changes: dict[int, dict[str, int]] = {k: {} for k in shared_ks}
    for qa, qb in zip(a.queries, b.queries, strict=True):
        deltas = {key: qb.values[key] - qa.values[key] for key in chosen}
        diag_a = {k: str(qa.diagnoses[k].kind) for k in shared_ks}
        diag_b = {k: str(qb.diagnoses[k].kind) for k in shared_ks}
        for k in shared_ks:
            if diag_a[k] != diag_b[k]:
                label = f"{diag_a[k]}→{diag_b[k]}"
                changes[k][label] = changes[k].get(label, 0) + 1
        questions.append(QueryDelta(qa.query_id, qa.n_gold, deltas, diag_a, diag_b))
    moved = {
        key: Movement(
            tuple(q.query_id for q in questions if q.deltas[key] > 0),
            tuple(q.query_id for q in questions if q.deltas[key] < 0),
        )
        for key in chosen
    }
    by_group: dict[str, dict[str, GroupMovement]] = {}
    for group in N_GOLD_GROUPS:
        members = [q for q in questions if n_gold_group(q.n_gold) == group]
        if members:
            by_group[group] = {
                key: GroupMovement(
                    len(members),
                    sum(1 for q in members if q.deltas[key] > 0),
                    sum(1 for q in members if q.deltas[key] < 0),
                    math.fsum(q.deltas[key] for q in members) / len(members),
                )
                for key in chosen
            }
    tests = (
        {
            key: paired_randomization_test(
                _values(a, key),
                _values(b, key),
                permutations=permutations,
                seed=seed,
            )
            for key in chosen
        }
        if questions
        else {}
    )
    delta_ci: dict[str, Interval] = {}
    if level and questions and chosen:
        from scoring.bootstrap import bootstrap_mean_intervals

        columns = [[q.deltas[key] for q in questions] for key in chosen]
        found = bootstrap_mean_intervals(columns, level=level, resamples=resamples, seed=seed)
        delta_ci = dict(zip(chosen, found, strict=True))
    return RunComparison(
        gold_set=a.gold_set,
        run_a=a.run,
        run_b=b.run,
        keys=tuple(chosen),
        questions=tuple(questions),
        moved=moved,
        by_n_gold=by_group,
        diagnosis_changes=changes,
        tests=tests,
        delta_ci=delta_ci,
        ci_level=level if delta_ci else 0.0,
    )


def _values(result: RunScore, key: str) -> Sequence[float]:
    """Every question's value of ``key``: a table's column, or read row by row."""
    column = getattr(result.queries, "column", None)
    if column is not None:  # a scoring.querytable.QueryTable: no row rebuilt per key
        return cast("Sequence[float]", column(key))
    return [q.values[key] for q in result.queries]
