"""The lead's view (:mod:`labeler.report.lead`) as JSON, a text table and one self-contained
HTML page (inline style, no script, nothing fetched): ``labeler gold progress --format
json|table|html``.

Times are UTC: ``2026-03-02 14:05 UTC`` in the table and the page, ISO 8601 in JSON. Figures
that are not defined (no pace yet, no settled question) are ``null`` in JSON and "—" in the
table and the page; "done" stands for a finish time when nothing assigned remains.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from typing import Any

from labeler.report.html import STYLE, html_table
from labeler.report.lead import AnnotatorLead, LeadView
from labeler.report.text_tables import text_table
from labeler.report.wording import plural

__all__ = [
    "LEAD_HEADER",
    "lead_html",
    "lead_json",
    "lead_rows",
    "lead_summary",
    "lead_table",
    "when",
]

#: the columns of the table and the page
LEAD_HEADER = (
    "annotator",
    "assigned",
    "done",
    "no answer",
    "remaining",
    "labels",
    "labels/h",
    "median s/q",
    "settled",
    "exact F1",
    "partial F1",
    "α",
    "done by",
)

DASH = "—"


def when(moment: datetime | None) -> str:
    """``2026-03-02 14:05 UTC`` (minutes), or "—" for None."""
    if moment is None:
        return DASH
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _num(value: float | None, digits: int) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def finish_words(person: AnnotatorLead) -> str:
    """The "done by" cell: "done" with nothing left, the finish time, or "—" with no pace."""
    if person.remaining == 0:
        return "done"
    return when(person.finish)


def lead_rows(view: LeadView) -> list[list[str | int]]:
    """One row per annotator under :data:`LEAD_HEADER` (rates to 1 decimal, F1 and α to 2)."""
    return [
        [
            p.annotator,
            p.assigned,
            p.done,
            p.no_answer,
            p.remaining,
            p.labels,
            _num(p.labels_per_hour, 1),
            _num(p.median_seconds, 0),
            p.settled,
            _num(p.exact_f1, 2),
            _num(p.partial_f1, 2),
            _num(p.char_alpha, 2),
            finish_words(p),
        ]
        for p in view.annotators
    ]


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def lead_json(view: LeadView) -> dict[str, Any]:
    """The JSON of ``gold progress --format json``: the set's counts and, per annotator,
    every figure unrounded (``null`` where undefined)."""
    return {
        "gold_set": view.gold_set,
        "team": view.team,
        "as_of": _iso(view.now),
        "idle_minutes": view.idle_minutes,
        "questions": view.questions,
        "adjudicated": view.adjudicated,
        "pending": view.pending,
        "final_scored": view.final_scored,
        "final_pending": view.final_pending,
        "annotators": [
            {
                "annotator": p.annotator,
                "assigned": p.assigned,
                "done": p.done,
                "no_answer": p.no_answer,
                "remaining": p.remaining,
                "labels": p.labels,
                "active_seconds": p.active_seconds,
                "labels_per_hour": p.labels_per_hour,
                "median_seconds_per_question": p.median_seconds,
                "timed_questions": p.timed,
                "settled": p.settled,
                "exact_f1": p.exact_f1,
                "partial_f1": p.partial_f1,
                "char_alpha": p.char_alpha,
                "differs_most": [
                    {
                        "query_id": d.query_id,
                        "exact_f1": d.exact_f1,
                        "partial_f1": d.partial_f1,
                        "char_alpha": d.char_alpha,
                    }
                    for d in p.differs_most
                ],
                "pace_per_hour": p.pace,
                "done_by": _iso(p.finish),
            }
            for p in view.annotators
        ],
    }


def differs_lines(view: LeadView) -> list[str]:
    """Per annotator with any, the questions differing most from the final layer:
    ``  ana: q3 (exact 0.00, partial 0.50, α 0.12), q1 (...)``."""
    lines = []
    for p in view.annotators:
        if p.differs_most:
            shown = ", ".join(
                f"{d.query_id} (exact {d.exact_f1:.2f}, partial {d.partial_f1:.2f}, "
                f"α {_num(d.char_alpha, 2)})"
                for d in p.differs_most
            )
            lines.append(f"  {p.annotator}: {shown}")
    return lines


def lead_summary(view: LeadView) -> str:
    """``4 questions: 2 adjudicated, 1 pending (not scored until adjudicated)``."""
    return (
        f"{plural(view.questions, 'question')}: {view.adjudicated} adjudicated, "
        f"{view.pending} pending (not scored until adjudicated)"
    )


def lead_table(view: LeadView) -> str:
    """The text table, the set's counts, and the questions differing most."""
    out = [text_table(LEAD_HEADER, lead_rows(view)), "", lead_summary(view)]
    differs = differs_lines(view)
    if differs:
        out.append("differs most from the final layer (settled questions, lowest F1 first):")
        out += differs
    out.append(
        f"as of {when(view.now)}; labels/h and median s/q count working time only (gaps "
        f"over {view.idle_minutes:g} min left out); done by: remaining at the pace so far"
    )
    return "\n".join(out)


def lead_html(view: LeadView) -> str:
    """One self-contained HTML page: the table, the set's counts, the questions differing
    most per annotator and what each figure means."""
    title = f"Gold set {view.gold_set}: the lead's view"
    parts = [
        f'<p class="note">As of {escape(when(view.now))}. {escape(lead_summary(view))}.</p>',
        html_table(LEAD_HEADER, lead_rows(view)),
    ]
    for p in view.annotators:
        if not p.differs_most:
            continue
        parts.append(f"<h2>{escape(p.annotator)}: differs most from the final layer</h2>")
        parts.append(
            html_table(
                ("question", "exact F1", "partial F1", "α"),
                [
                    [d.query_id, f"{d.exact_f1:.2f}", f"{d.partial_f1:.2f}", _num(d.char_alpha, 2)]
                    for d in p.differs_most
                ],
            )
        )
    parts.append(
        '<p class="note">labels: additions to the annotator\'s own layer. labels/h and median '
        f"s/q count working time only: gaps between two of their changes over "
        f"{view.idle_minutes:g} minutes are breaks. settled: adjudicated questions they marked "
        "done, on which exact F1, partial F1 and α (on characters) compare their spans with "
        "the final layer. done by: now + remaining ÷ pace, pace = questions done per hour "
        "since their first change, breaks included.</p>"
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>{''.join(parts)}</body></html>\n"
    )
