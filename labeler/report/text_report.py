"""The score and comparison reports as text or Markdown sections."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from labeler.report.text_tables import markdown_table, markdown_text, text_table
from labeler.report.wording import plural
from scoring import (
    LayerScore,
    RunComparison,
    RunScore,
    comparison_table,
    gap_table,
    group_table,
    metric_table_rows,
    worst_table,
)
from scoring.multicompare import MultiComparison

#: one line per flag for readers of the report (the scoring package documents the rules)
FLAG_MEANINGS = {
    "repeated": "elements whose text occurs more than once on its page",
    "fallback": "ranks with a chunk not found on an element's page (judged by containment)",
    "chunk_repeated": "ranks whose chunk occurs more than once on an element's page",
    "element_not_in_page": "elements whose text is not on its stored page",
    "fallback_graded": "ranks where such a chunk still held an element (Partial or Full)",
    "offset_mismatch": "ranks whose chunk's offsets do not point at its text (placed by text)",
    "snapped": "ranks whose chunk was on no page as it is, scored at the page span it aligned with",
}


def flag_rows(result: RunScore) -> tuple[list[str], list[list[Any]]]:
    """The flags table: header and one ``[flag, count, meaning]`` row per flag; the
    ``snapped`` row names the lowest alignment score."""
    lowest = result.lowest_snap
    rows: list[list[Any]] = []
    for k, v in result.flags.to_dict().items():
        meaning = FLAG_MEANINGS.get(k, "")
        if k == "snapped" and lowest is not None:
            meaning += f" (lowest score {lowest:.3f})"
        rows.append([k, v, meaning])
    return ["flag", "count", "meaning"], rows


def ci_note(result: RunScore) -> str:
    """What the bracketed intervals of the metrics table are."""
    ci = result.ci
    assert ci is not None
    return (
        f"[low, high]: {ci.level:.0%} percentile bootstrap interval over the questions "
        f"({ci.resamples} resamples, seed {ci.seed})"
    )


Table = Callable[[Sequence[Any], Sequence[Sequence[Any]]], str]


def _renderer(fmt: str) -> tuple[Table, Callable[[str], str]]:
    if fmt == "markdown":
        return markdown_table, lambda title: f"## {markdown_text(title)}"
    return text_table, lambda title: f"{title}\n{'=' * len(title)}"


#: the metrics ``score --layer each`` shows per layer (at the largest k)
HEADLINE = ("hit", "partial", "mrr", "recall", "ndcg")


def layer_rows(
    layers: Sequence[tuple[str, LayerScore]], k: int
) -> tuple[list[str], list[list[Any]]]:
    """The ``--layer each`` table: one row per (layer name, result): questions scored and the
    :data:`HEADLINE` metrics at ``k``."""
    header = ["layer", "questions", *[f"{name}@{k}" for name in HEADLINE]]
    rows = [
        [name, result.questions, *[result.value(metric, k) for metric in HEADLINE]]
        for name, result in layers
    ]
    return header, rows


def pending_note(pending: Sequence[str], shown: int = 10) -> str:
    """One line naming the pending questions left out (the first ``shown``)."""
    ids = ", ".join(pending[:shown]) + (", ..." if len(pending) > shown else "")
    return (
        f"{len(pending)} question(s) pending adjudication, not scored "
        f"(labeler adjudicate, or the TUI's review): {ids}"
    )


def score_report(
    result: RunScore,
    *,
    fmt: str = "table",
    stale_excluded: int = 0,
    worst: int = 20,
    pending: Sequence[str] = (),
    layer: str = "final",
) -> str:
    """Metrics per k, the Partial−Hit gap with diagnosis counts, the n_gold breakdown at
    the largest k, flag counts and the worst questions first. A team gold set's pending
    questions (left out) are named; a layer other than ``final`` is named in the title."""
    table, heading = _renderer(fmt)
    k_max = result.ks[-1]
    title = f"{result.run} on {result.gold_set}"
    parts = [
        heading(title if layer == "final" else f"{title} ({layer})"),
        f"{plural(len(result.queries), 'question')} scored, threshold {result.threshold}"
        + (f", {plural(stale_excluded, 'stale element')} left out" if stale_excluded else "")
        + (f"\n{pending_note(pending)}" if pending else ""),
        table(*metric_table_rows(result)),
        *([ci_note(result)] if result.ci is not None else []),
        heading("Partial − Hit gap"),
        table(*gap_table(result)),
        "chunking: the retriever found the place but a chunk boundary cut the answer; "
        "retrieval: not even half of an element came back"
        + (
            f"; key lost: questions where a chunk held enough of an element but not its key "
            f"clause ({result.keys} element(s) have one), counted under retrieval."
            if result.keys
            else "."
        ),
        heading(f"By number of expected elements (k = {k_max})"),
        table(*group_table(result, k_max)),
        heading("Flags"),
        table(*flag_rows(result)),
        f"missing from run (scored 0): {len(result.missing_from_run)}; "
        f"unknown in run (ignored): {len(result.unknown_in_run)}; "
        f"questions without elements (not scored): {len(result.without_elements)}",
        heading(f"Worst questions first (k = {k_max})"),
        table(*worst_table(result, k_max, limit=worst)),
    ]
    return "\n\n".join(parts) + "\n"


def comparison_note(comparison: RunComparison) -> str:
    """What the comparison table's columns are."""
    note = f"{plural(len(comparison.questions), 'question')}; delta = b − a; two-sided paired randomization test"
    if comparison.delta_ci:
        note += (
            f"; [low, high]: {comparison.ci_level:.0%} percentile bootstrap interval of the "
            "mean delta over the questions"
        )
    if comparison.p_holm:
        note += "; p_holm: p-value with Holm's correction across the runs compared"
    return note


#: the columns of ``budget_report``: what a budget buys
BUDGET_COLUMNS = ("hit", "partial", "span_recall", "span_precision", "span_iou", "tokens")


def budget_report(results: Sequence[RunScore], *, fmt: str = "table") -> str:
    """Runs side by side at each token budget they were all scored at: one row per
    (budget, run) with ``BUDGET_COLUMNS``; ``tokens`` (mean tokens in the budget's prefix)
    shows how much of the budget each run spent."""
    table, heading = _renderer(fmt)
    budgets = [b for b in results[0].budgets if all(b in r.budgets for r in results)]
    rows = [
        [f"{b}t", r.run, *[r.at_budget(name, b) for name in BUDGET_COLUMNS]]
        for b in budgets
        for r in results
    ]
    tokenizer = results[0].tokenizer
    return (
        "\n\n".join(
            [
                heading(f"At equal token budgets ({tokenizer} tokens)"),
                "each run's ranking cut at its longest prefix within the budget; tokens = "
                "mean tokens that prefix holds",
                table(["budget", "run", *BUDGET_COLUMNS], rows),
            ]
        )
        + "\n"
    )


def comparison_report(comparison: RunComparison, *, fmt: str = "table") -> str:
    """Per-metric means, deltas, moved questions and p-values; diagnosis changes per k."""
    table, heading = _renderer(fmt)
    parts = [
        heading(f"{comparison.run_b} vs {comparison.run_a} on {comparison.gold_set}"),
        comparison_note(comparison),
        table(*comparison_table(comparison)),
    ]
    for k, changes in comparison.diagnosis_changes.items():
        if changes:
            parts.append(heading(f"Diagnosis changes at k = {k}"))
            parts.append(table(["change", "questions"], sorted(changes.items())))
    return "\n\n".join(parts) + "\n"


def comparisons_report(multi: MultiComparison, *, fmt: str = "table") -> str:
    """One ``comparison_report`` per run compared with the baseline, in order."""
    return "\n".join(comparison_report(c, fmt=fmt) for c in multi.comparisons)
