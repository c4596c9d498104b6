"""Agreement as text: a plain table, Markdown, one self-contained HTML page, or JSON.

Table formats list pairs and questions lowest agreement first (:meth:`Agreement.worst_pairs`,
:meth:`Agreement.worst_questions`); JSON is :meth:`Agreement.to_dict` in input order. Floats
show 3 decimals, an undefined α a dash. Nothing here prints.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence
from html import escape
from typing import Any, Literal

from scoring.agreement._figures import Agreement

__all__ = ["AGREEMENT_FORMATS", "AgreementFormat", "agreement_tables", "render_agreement"]

AgreementFormat = Literal["table", "markdown", "html", "json"]
AGREEMENT_FORMATS: tuple[AgreementFormat, ...] = ("table", "markdown", "html", "json")

Row = list[Any]
Table = tuple[str, Row, list[Row]]

_LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_NOTE = (
    "char_alpha: Krippendorff's alpha (nominal) on the characters of the cited pages; "
    "– where undefined (no character has two coders, or all coded it alike: no disagreement). "
    "Pair questions: identical span sets, nested (one side inside the other: boundaries "
    "differ), overlapping, disjoint (no character in common, one side empty included)."
)


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _title(ag: Agreement) -> str:
    who = ", ".join(ag.annotators) or "none"
    return (
        f"Agreement on gold set {ag.gold_set!r}: {ag.questions} questions done by two or "
        f"more of {len(ag.annotators)} annotators ({who})"
    )


def agreement_tables(ag: Agreement, *, worst: int | None = 20) -> list[Table]:
    """(caption, header, rows) of the overall figures, every pair and the ``worst``
    questions (all with None), lowest agreement first."""
    overall: Table = (
        "Overall (F1: every pair's counts summed; alpha: all annotators at once)",
        ["questions", "char_alpha", "exact_f1", "partial_f1"],
        [
            [
                ag.questions,
                ag.overall.char_alpha,
                ag.overall.exact_f1,
                ag.overall.partial_f1,
            ]
        ],
    )
    pair_header: Row = ["a", "b", "questions", "char_alpha", "exact_f1", "partial_f1"]
    pair_header += ["identical", "nested", "overlapping", "disjoint"]
    pairs: Table = (
        "Pairs, lowest agreement first",
        pair_header,
        [
            [p.a, p.b, p.questions, p.char_alpha, p.exact_f1, p.partial_f1, *p.relations()]
            for p in ag.worst_pairs()
        ],
    )
    ordered = ag.worst_questions()
    shown = ordered if worst is None else ordered[:worst]
    questions: Table = (
        f"Questions, lowest agreement first ({len(shown)} of {len(ordered)})",
        ["query_id", "annotators", "char_alpha", "exact_f1", "partial_f1"],
        [
            [q.query_id, ", ".join(q.annotators), q.char_alpha, q.exact_f1, q.partial_f1]
            for q in shown
        ],
    )
    return [overall, pairs, questions]


def _text_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    cells = [[_cell(v) for v in header], *[[_cell(v) for v in row] for row in rows]]
    # one line per row: a line break inside a name (a query id) is shown escaped
    cells = [
        [c.encode("unicode_escape").decode("ascii") if _LINE_BREAK.search(c) else c for c in r]
        for r in cells
    ]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    text_cols = {i for i, h in enumerate(header) if h in ("a", "b", "query_id", "annotators")}
    lines = []
    for n, r in enumerate(cells):
        parts = [
            c.ljust(w) if i in text_cols else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _md(text: str) -> str:
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = out.replace("\\", "\\\\").replace("|", "\\|")
    return _LINE_BREAK.sub("<br>", out)


def _md_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    out = ["| " + " | ".join(_md(_cell(h)) for h in header) + " |"]
    out.append("|" + "|".join("---" for _ in header) + "|")
    out += ["| " + " | ".join(_md(_cell(v)) for v in row) + " |" for row in rows]
    return "\n".join(out)


def _html_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(_cell(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(_cell(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_STYLE = (
    "body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:64rem;color:#222}"
    "table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{padding:.2rem .6rem;"
    "border-bottom:1px solid #ddd;text-align:right}th:first-child,td:first-child,"
    "td:nth-child(2){text-align:left}h1{font-size:1.4rem}h2{font-size:1.1rem}.note{color:#555}"
)


def render_agreement(
    ag: Agreement, fmt: AgreementFormat = "table", *, worst: int | None = 20
) -> str:
    """``ag`` in ``fmt`` (:data:`AGREEMENT_FORMATS`), ending with a newline.

    ``table``/``markdown``/``html``: a title, the overall figures, every pair (with its
    identical / nested / overlapping / disjoint question counts) and the ``worst`` questions
    (None: all), lowest agreement first, and a note on the figures; HTML is one page with
    inline style, every value escaped. ``json``: :meth:`Agreement.to_dict` (undefined α as
    null, every question, input order).
    """
    if fmt == "json":
        return json.dumps(ag.to_dict(), ensure_ascii=False) + "\n"
    tables = agreement_tables(ag, worst=worst)
    if fmt == "table":
        parts = [_title(ag)]
        parts += [f"{caption}\n{_text_table(h, rows)}" for caption, h, rows in tables]
        return "\n\n".join([*parts, textwrap.fill(_NOTE, 100)]) + "\n"
    if fmt == "markdown":
        parts = [f"# {_md(_title(ag))}"]
        parts += [f"## {_md(caption)}\n\n{_md_table(h, rows)}" for caption, h, rows in tables]
        return "\n\n".join([*parts, _md(_NOTE)]) + "\n"
    if fmt == "html":
        body = "".join(f"<h2>{escape(c)}</h2>{_html_table(h, rows)}" for c, h, rows in tables)
        title = escape(_title(ag))
        return (
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{title}</title><style>{_STYLE}</style></head><body>"
            f'<h1>{title}</h1>{body}<p class="note">{escape(_NOTE)}</p></body></html>\n'
        )
    raise ValueError(f"unknown agreement format {fmt!r}; expected one of {AGREEMENT_FORMATS}")
