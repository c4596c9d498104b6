"""Human-readable score and comparison reports: text tables, Markdown, self-contained HTML.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.report.html import (
        comparisons_html,
        score_html,
    )
    from labeler.report.judged import judged_section
    from labeler.report.lead import (
        IDLE_MINUTES,
        AnnotatorLead,
        LeadView,
        QuestionDiff,
        lead_view,
    )
    from labeler.report.lead_render import (
        LEAD_HEADER,
        lead_html,
        lead_json,
        lead_rows,
        lead_summary,
        lead_table,
    )
    from labeler.report.text_report import (
        budget_report,
        comparison_report,
        comparisons_report,
        layer_rows,
        score_report,
    )
    from labeler.report.text_tables import (
        markdown_table,
        markdown_text,
        text_table,
    )
    from labeler.report.wording import (
        plural,
    )

_HOMES: dict[str, str] = {
    "judged_section": "labeler.report.judged",
    "IDLE_MINUTES": "labeler.report.lead",
    "AnnotatorLead": "labeler.report.lead",
    "LeadView": "labeler.report.lead",
    "QuestionDiff": "labeler.report.lead",
    "lead_view": "labeler.report.lead",
    "LEAD_HEADER": "labeler.report.lead_render",
    "lead_html": "labeler.report.lead_render",
    "lead_rows": "labeler.report.lead_render",
    "lead_summary": "labeler.report.lead_render",
    "lead_json": "labeler.report.lead_render",
    "lead_table": "labeler.report.lead_render",
    "budget_report": "labeler.report.text_report",
    "comparison_report": "labeler.report.text_report",
    "comparisons_html": "labeler.report.html",
    "comparisons_report": "labeler.report.text_report",
    "layer_rows": "labeler.report.text_report",
    "markdown_table": "labeler.report.text_tables",
    "markdown_text": "labeler.report.text_tables",
    "plural": "labeler.report.wording",
    "score_html": "labeler.report.html",
    "score_report": "labeler.report.text_report",
    "text_table": "labeler.report.text_tables",
}

__all__ = [
    "IDLE_MINUTES",
    "LEAD_HEADER",
    "AnnotatorLead",
    "LeadView",
    "QuestionDiff",
    "budget_report",
    "comparison_report",
    "comparisons_html",
    "comparisons_report",
    "judged_section",
    "layer_rows",
    "lead_html",
    "lead_json",
    "lead_rows",
    "lead_summary",
    "lead_table",
    "lead_view",
    "markdown_table",
    "markdown_text",
    "plural",
    "score_html",
    "score_report",
    "text_table",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.report' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
