"""The adjudication screen's two tables, laid out for the left pane's width
(:mod:`labeler.tui.screens.adjudicate`).

From :data:`WIDE` terminal columns on, every figure in a column of its own, as always:

* queue: question, done by, α, exact F1, settled (who and when);
* span groups: page, offsets, chosen by (with the key and a grade tie in words), accepted
  (the grade and the accepted key's offsets), the text (up to 60 characters, in what width
  the other columns leave, cut with "…").

Narrower (half of 80 columns for the left pane), columns that fit whole:

* queue: question, α, F1 (exact), and ✓ for a settled one while ``s`` lists them (who and
  when are in the question's legend; who marked it done, coloured, too);
* span groups: span (offsets; over the page when the question's spans lie on more than
  one page, the page cut to the column, at least :data:`MIN_PAGE` cells), by (``1/2 bob``, then ``key`` for an agreed key,
  ``keys≠`` when they differ, ``tie`` for a grade tie: the accept message says it in
  full), final (``✓ g2``, ``key`` with a key), and the text in what width is left (at
  least :data:`MIN_TEXT` cells, else no text column: the page pane shows it).
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.store import QuestionForAdjudication, SpanGroup, WaitingQuestion
from labeler.tui.fit import PADDING, SCROLLBAR, cells_width, columns_width, elide
from labeler.tui.screens.adjudicate_edits import settled_words

#: from this many terminal columns on, the wide layout (module docstring)
WIDE = 100
#: the narrowest text column of the narrow span groups table
MIN_TEXT = 8
#: the span column of the narrow layout shows this much of a page id (more: cut with "…")
MIN_PAGE = 16
#: the longest text shown in the wide span groups table
WIDE_TEXT = 60


@dataclass(frozen=True)
class TableLayout:
    """A table's ``columns`` (header, width in cells; None: as wide as its cells) and
    ``rows`` (cells, height in lines), in order."""

    columns: list[tuple[str, int | None]]
    rows: list[tuple[list[str], int]]


def _alpha(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def queue_layout(queue: list[WaitingQuestion], wide: bool, settled: bool) -> TableLayout:
    """The queue table (module docstring); ``settled``: ``s`` lists settled questions."""
    if wide:
        header = ["question", "done by", "α", "exact F1", "settled"]
        rows = [
            [
                w.external_id,
                ", ".join(w.done_by),
                _alpha(w.char_alpha),
                _alpha(w.exact_f1),
                settled_words(w).removeprefix("settled by ") if w.settled else "",
            ]
            for w in queue
        ]
    else:
        header = ["question", "α", "F1"] + (["✓"] if settled else [])
        rows = [
            [w.external_id, _alpha(w.char_alpha), _alpha(w.exact_f1)]
            + (["✓" if w.settled else ""] if settled else [])
            for w in queue
        ]
    return TableLayout([(h, None) for h in header], [(r, 1) for r in rows])


def _chosen(group: SpanGroup, n: int, wide: bool) -> str:
    chosen = f"{len(group.annotators)}/{n} {', '.join(group.annotators)}".strip()
    if group.key_conflict():
        chosen += " · keys differ" if wide else " keys≠"
    elif group.key is not None:
        chosen += f" · key {group.key[0]}–{group.key[1]}" if wide else " key"
    if group.tie_words():
        chosen += f" · {group.tie_words()}" if wide else " tie"
    return chosen


def _accepted(group: SpanGroup, state: QuestionForAdjudication, wide: bool) -> str:
    final = state.final_of(group)
    if final is None:
        return ""
    accepted = f"✓ g{final.grade}"
    if final.key_start is not None:
        accepted += f" key {final.key_start}–{final.key_end}" if wide else " key"
    return accepted


def groups_layout(state: QuestionForAdjudication, wide: bool, width: int) -> TableLayout:
    """The span groups table of ``state`` in a table ``width`` cells wide (module
    docstring)."""
    n = len(state.spans.done_by)
    groups = state.spans.groups
    if wide:
        rows = [
            [g.document_id, f"{g.start}–{g.end}", _chosen(g, n, wide), _accepted(g, state, wide)]
            for g in groups
        ]
        header = ["page", "offsets", "chosen by", "accepted"]
        return _with_text(header, rows, groups, width, WIDE_TEXT)
    pages = len({g.document_id for g in groups}) > 1
    spans = [f"{g.start}–{g.end}" for g in groups]
    span_w = cells_width("span", spans)
    if pages:  # the page under the offsets, up to MIN_PAGE cells of it even if wider
        span_w = max(span_w, min(cells_width("", [g.document_id for g in groups]), MIN_PAGE))
    cells = [
        [
            span + (f"\n{elide(g.document_id, span_w)}" if pages else ""),
            _chosen(g, n, wide),
            _accepted(g, state, wide),
        ]
        for g, span in zip(groups, spans, strict=True)
    ]
    layout = _with_text(["span", "by", "final"], cells, groups, width, None, span_w)
    return TableLayout(layout.columns, [(row, 2 if pages else 1) for row, _ in layout.rows])


def _with_text(
    header: list[str],
    rows: list[list[str]],
    groups: tuple[SpanGroup, ...],
    width: int,
    longest: int | None,
    first: int | None = None,
) -> TableLayout:
    """Columns ``header`` as wide as their cells (the first ``first`` wide when given), and
    the groups' text (``repr``, at most ``longest`` characters of it) in the width left of
    ``width``, cut with "…"; no text column with less than :data:`MIN_TEXT` cells left."""
    widths = [cells_width(h, [row[i] for row in rows]) for i, h in enumerate(header)]
    if first is not None:
        widths[0] = first
    columns: list[tuple[str, int | None]] = list(zip(header, widths, strict=True))
    text_w = width - SCROLLBAR - columns_width(widths) - PADDING
    if longest is not None:
        text_w = min(text_w, longest + 2)  # the quotes of repr
    if text_w >= MIN_TEXT:
        columns.append(("text", text_w))
        for row, g in zip(rows, groups, strict=True):
            row.append(elide(repr(g.text), text_w))
    return TableLayout(columns, [(row, 1) for row in rows])
