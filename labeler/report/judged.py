"""The ``judged@k`` section of a score report (docs/metrics.md, judged@k): how much of what
a run retrieves was ever judged, overall and for the least judged questions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.pooling import JudgedCount, judged_total, lower_bound_warning

#: questions listed under the run's figures, least judged first
LISTED = 10

PerQuestion = Mapping[str, Mapping[int, JudgedCount]]
"""Question id → k → judged and all characters of the run's top k."""


def _share(count: JudgedCount) -> str:
    share = count.share
    return "-" if share is None else f"{share:.3f}"


def judged_totals(per_question: PerQuestion, ks: Sequence[int]) -> dict[int, JudgedCount]:
    """The run's judged@k at each k of ``ks``, over every question it answered."""
    return {k: judged_total(c[k] for c in per_question.values()) for k in ks}


def judged_warning(per_question: PerQuestion, ks: Sequence[int]) -> str | None:
    """The lower-bound warning at the largest k, None when the run is judged enough."""
    k = max(ks)
    return lower_bound_warning(judged_totals(per_question, [k])[k], k)


def judged_section(fmt: str, run: str, per_question: PerQuestion, ks: Sequence[int]) -> str:
    """A text or Markdown section: the run's judged@k per k, its warning when low, and the
    least judged questions at the largest k (at most :data:`LISTED`)."""
    from labeler.report.text_tables import markdown_table, text_table

    totals = judged_totals(per_question, ks)
    header = ["run", *(f"judged@{k}" for k in ks)]
    body = [[run, *(_share(totals[k]) for k in ks)]]
    k = max(ks)
    shares = {q: c[k].share for q, c in per_question.items()}
    worst = sorted(
        (q for q, x in shares.items() if x is not None and x < 1), key=lambda q: (shares[q], q)
    )[:LISTED]
    title = "Judged (share of the top-k chunks' characters inside elements or judgements)"
    lines = []
    warning = judged_warning(per_question, ks)
    table = markdown_table if fmt == "markdown" else text_table
    if fmt == "markdown":
        lines.append(f"\n## {title}\n\n{table(header, body)}\n")
    else:
        lines.append(f"\n{title}\n{'=' * len(title)}\n\n{table(header, body)}\n")
    if warning:
        lines.append(f"\n{warning}\n")
    if worst:
        rows = [[q, _share(per_question[q][k])] for q in worst]
        lines.append(f"\nleast judged at {k}:\n\n{table(['question', f'judged@{k}'], rows)}\n")
    return "".join(lines)
