"""One self-contained HTML page per report: tables and an inline SVG chart of Hit@k and
Partial@k over k (no scripts, nothing fetched), so the chunking gap can be seen and shared."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any, NamedTuple

from labeler.report.text_report import (
    ci_note,
    comparison_note,
    flag_rows,
    layer_rows,
    pending_note,
)
from labeler.report.text_tables import cell
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

if TYPE_CHECKING:
    from scoring.multicompare import MultiComparison

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:64rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{padding:.2rem .6rem;
border-bottom:1px solid #ddd;text-align:right}th:first-child,td:first-child{text-align:left}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}.note{color:#555}
"""


def html_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(cell(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Series(NamedTuple):
    """One line of the chart: ``metric`` (``Hit``) at each k, of run ``run`` when the chart
    shows several runs."""

    metric: str
    colour: str
    values: Sequence[float]
    run: str = ""

    def label(self, k: int | str) -> str:
        """``Hit@k`` (the legend) or ``Hit@4`` (a point), followed by the run if any."""
        return f"{self.metric}@{k}" + (f" {self.run}" if self.run else "")


def gap_chart(series: Sequence[Series], ks: Sequence[int]) -> str:
    """An SVG line chart, y from 0 to 1, one polyline per :class:`Series`, each point with
    its tooltip (``Hit@4 = 0.500``); the band between the first two series (Hit and
    Partial) is shaded: that is the chunking gap."""
    width, height, left, bottom, top, right = 560, 260, 44, 30, 14, 120
    plot_w, plot_h = width - left - right, height - top - bottom
    n = len(ks)

    def x(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h * (1 - v)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="Hit@k and Partial@k over k">'
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#e5e5e5"/><text x="{left - 6}" y="{y(tick) + 4:.1f}" font-size="11" '
            f'text-anchor="end">{tick:g}</text>'
        )
    for i, k in enumerate(ks):
        parts.append(
            f'<text x="{x(i):.1f}" y="{height - 10}" font-size="11" text-anchor="middle">'
            f"k={k}</text>"
        )
    if len(series) >= 2:
        low, high = series[0].values, series[1].values
        outline = [(x(i), y(v)) for i, v in enumerate(high)]
        outline += [(x(i), y(v)) for i, v in reversed(list(enumerate(low)))]
        points = " ".join(f"{a:.1f},{b:.1f}" for a, b in outline)
        parts.append(f'<polygon points="{points}" fill="#f4a261" fill-opacity="0.25"/>')
    for row, line in enumerate(series):
        colour, values = line.colour, line.values
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>'
        )
        for i, v in enumerate(values):
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}">'
                f"<title>{escape(line.label(ks[i]))} = {v:.3f}</title></circle>"
            )
        ly = top + 16 * row + 8
        parts.append(
            f'<line x1="{width - right + 12}" x2="{width - right + 30}" y1="{ly}" y2="{ly}" '
            f'stroke="{colour}" stroke-width="2"/><text x="{width - right + 36}" y="{ly + 4}" '
            f'font-size="12">{escape(line.label("k"))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>{body}</body></html>\n"
    )


def score_html(
    result: RunScore,
    *,
    stale_excluded: int = 0,
    worst: int = 20,
    pending: Sequence[str] = (),
    layers: Sequence[tuple[str, LayerScore]] = (),
) -> str:
    """The score report as one HTML page (``pending``: questions left out, pending
    adjudication; ``layers``: the ``--layer each`` table)."""
    k_max = result.ks[-1]
    chart = gap_chart(
        [
            Series("Hit", "#1d3557", [result.value("hit", k) for k in result.ks]),
            Series("Partial", "#e76f51", [result.value("partial", k) for k in result.ks]),
        ],
        result.ks,
    )
    stale = f", {plural(stale_excluded, 'stale element')} left out" if stale_excluded else ""
    if pending:
        stale += f". {pending_note(pending)}"
    by_layer = (
        f"<h2>By layer (k = {k_max})</h2>" + html_table(*layer_rows(layers, k_max))
        if layers
        else ""
    )
    body = (
        f'<p class="note">{plural(len(result.queries), "question")} scored, threshold '
        f"{escape(str(result.threshold))}{escape(stale)}. The shaded band is Partial@k − Hit@k: answers the "
        "retriever found but a chunk boundary cut.</p>"
        f"{chart}<h2>Metrics</h2>{html_table(*metric_table_rows(result))}"
        + (f'<p class="note">{escape(ci_note(result))}</p>' if result.ci is not None else "")
        + "<h2>Partial − Hit gap</h2>"
        + html_table(*gap_table(result))
        + f"<h2>By number of expected elements (k = {k_max})</h2>"
        + html_table(*group_table(result, k_max))
        + "<h2>Flags</h2>"
        + html_table(*flag_rows(result))
        + by_layer
        + f"<h2>Worst questions first (k = {k_max})</h2>"
        + html_table(*worst_table(result, k_max, limit=worst))
    )
    return _page(f"{result.run} on {result.gold_set}", body)


def comparison_html(comparison: RunComparison, a: RunScore, b: RunScore) -> str:
    """The comparison report as one HTML page, with both runs' Hit@k and Partial@k."""
    title = f"{comparison.run_b} vs {comparison.run_a} on {comparison.gold_set}"
    return _page(title, _comparison_body(comparison, a, b))


def comparisons_html(multi: MultiComparison, results: Mapping[str, RunScore]) -> str:
    """Every comparison with the baseline on one HTML page (``results``: run → score);
    one comparison gives ``comparison_html``'s page."""
    if len(multi.comparisons) == 1:
        c = multi.comparisons[0]
        return comparison_html(c, results[c.run_a], results[c.run_b])
    body = "".join(
        f"<h2>{escape(c.run_b)} vs {escape(c.run_a)}</h2>"
        + _comparison_body(c, results[c.run_a], results[c.run_b])
        for c in multi.comparisons
    )
    others = ", ".join(c.run_b for c in multi.comparisons)
    return _page(f"{others} vs {multi.baseline} on {multi.gold_set}", body)


def _comparison_body(comparison: RunComparison, a: RunScore, b: RunScore) -> str:
    chart = gap_chart(
        [
            Series("Hit", "#1d3557", [a.value("hit", k) for k in a.ks], a.run),
            Series("Partial", "#e76f51", [a.value("partial", k) for k in a.ks], a.run),
            Series("Hit", "#2a9d8f", [b.value("hit", k) for k in b.ks], b.run),
            Series("Partial", "#e9c46a", [b.value("partial", k) for k in b.ks], b.run),
        ],
        a.ks,
    )
    changes = "".join(
        f"<h2>Diagnosis changes at k = {k}</h2>"
        + html_table(["change", "questions"], sorted(c.items()))
        for k, c in comparison.diagnosis_changes.items()
        if c
    )
    return (
        f'<p class="note">{escape(comparison_note(comparison))}.</p>'
        f"{chart}<h2>Metrics</h2>{html_table(*comparison_table(comparison))}{changes}"
    )
