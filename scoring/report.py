"""Plain table data for reports (a CLI renders it; nothing here prints)."""

from __future__ import annotations

from typing import Any

from scoring.compare import RunComparison
from scoring.result import N_GOLD_GROUPS, RunScore, metric_key

__all__ = ["comparison_table", "group_table", "metric_table_rows", "score_json", "worst_table"]

Row = list[Any]


def score_json(result: RunScore, *, per_query: bool = True) -> dict[str, Any]:
    """The Score JSON (DESIGN §5) of ``result``: ``result.to_dict(per_query=...)``."""
    return result.to_dict(per_query=per_query)


def metric_table_rows(result: RunScore) -> tuple[Row, list[Row]]:
    """Header ``["metric", "@k1", ..., "@B1t", ...]`` and one row per metric name of
    ``result.names`` (values per k, then per token budget), plus a final
    ``partial−hit gap`` row."""
    header: Row = ["metric", *[f"@{k}" for k in result.ks], *[f"@{b}t" for b in result.budgets]]
    rows = [
        [
            name,
            *[result.value(name, k) for k in result.ks],
            *[result.at_budget(name, b) for b in result.budgets],
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
    """Header and one row per compared key: A mean, B mean, delta, better, worse, p-value."""
    header: Row = ["metric", "a", "b", "delta", "better", "worse", "p_value"]
    rows: list[Row] = []
    for key in comparison.keys:
        test = comparison.tests.get(key)
        moved = comparison.moved[key]
        rows.append(
            [
                key,
                test.mean_a if test else None,
                test.mean_b if test else None,
                test.delta if test else None,
                len(moved.better),
                len(moved.worse),
                test.p_value if test else None,
            ]
        )
    return header, rows
