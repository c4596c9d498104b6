"""Plain table data for reports (a CLI renders it; nothing here prints)."""

from __future__ import annotations

from typing import Any

from scoring.budget import budget_key
from scoring.compare import RunComparison
from scoring.intervals import Estimate
from scoring.result import N_GOLD_GROUPS, RunScore, metric_key

__all__ = [
    "comparison_table",
    "gap_table",
    "group_table",
    "metric_table_rows",
    "score_json",
    "worst_table",
]

Row = list[Any]


def score_json(result: RunScore, *, per_query: bool = True) -> dict[str, Any]:
    """The Score JSON (docs/formats.md) of ``result``: ``result.to_dict(per_query=...)``."""
    return result.to_dict(per_query=per_query)


def metric_table_rows(result: RunScore) -> tuple[Row, list[Row]]:
    """Header ``["metric", "@k1", ..., "@B1t", ...]`` and one row per metric name of
    ``result.names`` (values per k, then per token budget; each an ``Estimate`` with its
    interval when ``result.ci`` holds one), plus a final ``partial−hit gap`` row."""
    header: Row = ["metric", *[f"@{k}" for k in result.ks], *[f"@{b}t" for b in result.budgets]]
    rows = [
        [
            name,
            *[result.estimate(metric_key(name, k)) for k in result.ks],
            *[result.estimate(budget_key(name, b)) for b in result.budgets],
        ]
        for name in result.names
    ]
    rows.append(
        [
            "partial−hit gap",
            *[result.gap(k) for k in result.ks],
            *[result.at_budget("partial", b) - result.at_budget("hit", b) for b in result.budgets],
        ]
    )
    return header, rows


def gap_table(result: RunScore) -> tuple[Row, list[Row]]:
    """Header and one row per k: hit, partial, the Partial − Hit gap and the diagnosis
    counts (full, chunking, retrieval); when some element carries a key span, also
    ``key lost``: questions a key clause turned from a partial into a miss at k."""
    kinds = ("full", "chunking", "retrieval")
    header: Row = ["k", "hit", "partial", "gap", *kinds]
    keyed = result.keys > 0
    if keyed:
        header.append("key lost")
    rows: list[Row] = []
    for k in result.ks:
        counts = result.diagnosis_counts(k)
        row: Row = [
            k,
            result.value("hit", k),
            result.value("partial", k),
            result.gap(k),
            *(counts[d] for d in kinds),
        ]
        if keyed:
            row.append(result.key_lost_count(k))
        rows.append(row)
    return header, rows


def group_table(result: RunScore, k: int) -> tuple[Row, list[Row]]:
    """Header and one row per n_gold group (plus ``all``) with the query count and every
    metric at ``k``."""
    names = result.names
    header: Row = ["n_gold", "queries", *[metric_key(n, k) for n in names]]
    rows: list[Row] = []
    for group in N_GOLD_GROUPS:
        score = result.by_n_gold.get(group)
        if score is not None:
            rows.append([group, score.queries, *[score.metrics[metric_key(n, k)] for n in names]])
    rows.append(["all", len(result.queries), *[result.value(n, k) for n in names]])
    return header, rows


def worst_table(result: RunScore, k: int, limit: int | None = 20) -> tuple[Row, list[Row]]:
    """Header and the worst questions at ``k`` first (``RunScore.worst_first``): id,
    n_gold, diagnosis, best coverage, its rank, recall@k, in_run and flag counts."""
    header: Row = [
        "query_id",
        "n_gold",
        "diagnosis",
        "best_coverage",
        "rank",
        f"recall@{k}",
        "in_run",
        "repeated",
        "fallback",
        "chunk_repeated",
    ]
    ordered = result.worst_first(k)
    if limit is not None:
        ordered = ordered[:limit]
    rows: list[Row] = []
    for q in ordered:
        d = q.diagnoses[k]
        rows.append(
            [
                q.query_id,
                q.n_gold,
                str(d.kind),
                d.best_coverage,
                d.best_rank,
                q.value("recall", k),
                q.in_run,
                q.flags.repeated,
                q.flags.fallback,
                q.flags.chunk_repeated,
            ]
        )
    return header, rows


def comparison_table(comparison: RunComparison) -> tuple[Row, list[Row]]:
    """Header and one row per compared key: A mean, B mean, delta (an ``Estimate`` with its
    bootstrap interval when ``delta_ci`` holds one), better, worse, p-value, and the
    Holm-corrected p-value when the comparison is one of several."""
    holm = bool(comparison.p_holm)
    header: Row = ["metric", "a", "b", "delta", "better", "worse", "p_value"]
    if holm:
        header.append("p_holm")
    rows: list[Row] = []
    for key in comparison.keys:
        test = comparison.tests.get(key)
        moved = comparison.moved[key]
        interval = comparison.delta_ci.get(key)
        delta: float | Estimate | None = None
        if test is not None:
            delta = test.delta if interval is None else Estimate(test.delta, interval)
        row: Row = [
            key,
            test.mean_a if test else None,
            test.mean_b if test else None,
            delta,
            len(moved.better),
            len(moved.worse),
            test.p_value if test else None,
        ]
        if holm:
            row.append(comparison.p_holm.get(key))
        rows.append(row)
    return header, rows
