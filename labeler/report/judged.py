"""The ``judged@k`` section of a score report (docs/metrics.md, judged@k): how much of what
a run retrieves was ever judged, overall and for the least judged questions."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.pooling import JudgedCount, lower_bound_warning

#: questions listed under the run's figures, least judged first
LISTED = 10


def _share(count: JudgedCount | float | None) -> str:
    share = count.share if isinstance(count, JudgedCount) else count
    return "-" if share is None else f"{share:.3f}"


def judged_section(
    fmt: str,
    run: str,
    totals: Mapping[int, JudgedCount],
    shares: Mapping[str, float | None],
) -> str:
    """A text or Markdown section: the run's judged@k per k (``totals``, k → the run's
    counts), its warning when low, and the least judged questions at the largest k
    (``shares``: question id → its judged@k there, None when it retrieved nothing; at most
    :data:`LISTED`)."""
    from labeler.report.text_tables import markdown_table, text_table

    ks = sorted(totals)
    header = ["run", *(f"judged@{k}" for k in ks)]
    body = [[run, *(_share(totals[k]) for k in ks)]]
    k = max(ks)
    worst = sorted(
        (q for q, x in shares.items() if x is not None and x < 1), key=lambda q: (shares[q], q)
    )[:LISTED]
    title = "Judged (share of the top-k chunks' characters inside elements or judgements)"
    lines = []
    warning = lower_bound_warning(totals[k], k)
    table = markdown_table if fmt == "markdown" else text_table
    if fmt == "markdown":
        lines.append(f"\n## {title}\n\n{table(header, body)}\n")
    else:
        lines.append(f"\n{title}\n{'=' * len(title)}\n\n{table(header, body)}\n")
    if warning:
        lines.append(f"\n{warning}\n")
    if worst:
        rows = [[q, _share(shares[q])] for q in worst]
        lines.append(f"\nleast judged at {k}:\n\n{table(['question', f'judged@{k}'], rows)}\n")
    return "".join(lines)
