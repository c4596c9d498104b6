"""The review view's table laid out for a width (:mod:`labeler.tui.screens.review`).

Columns, in a table of ``width`` cells (less :data:`labeler.tui.fit.SCROLLBAR`):

* at least :data:`WIDE` cells: page, offsets, grade, annotator, assisted, key clause, text;
* narrower: "element" (the page over its offsets) and "grade · by" (grade and annotator
  over "assisted"), key clause, text: each row two lines or more anyway, since the texts
  wrap.

The fixed columns are as wide as their widest cell. What is left goes to the two texts: the
key clause a third of it (at least :data:`MIN_KEY` cells, at most its longest clause), the
element's text the rest (at least :data:`MIN_TEXT`). Both are shown as ``repr`` (quotes,
line breaks as ``\\n``) and wrapped at word boundaries; a row is as tall as its tallest
cell. A row taller than the ``lines`` the table shows is cut to them, its last line saying
so and that ``enter`` opens the page at it (a row taller than the pane could
not be read whole from here: the cursor moves by rows).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from labeler.store import ElementRow
from labeler.tui.fit import SCROLLBAR, cells_width, columns_width, wrapped

#: from this table width on, every figure has a column of its own
WIDE = 100
#: the narrowest the key clause and text columns get
MIN_KEY, MIN_TEXT = 10, 24
KEY_HEADER, TEXT_HEADER = "key clause", "text"
#: the last line of a text cut to the table's height
CUT = "… (cut; enter opens it)"


@dataclass(frozen=True)
class ReviewLayout:
    """The table's ``columns`` (header, width in cells) and per element its cells and row
    height, in the order given; ``wide``: the layout with a column per figure."""

    wide: bool
    columns: list[tuple[str, int]]
    rows: list[tuple[list[str | Text], int]]


def key_clause(e: ElementRow) -> str:
    """The element's key clause text (``page[key_start:key_end]``, a slice of its own
    text); empty without one."""
    if e.key_start is None or e.key_end is None:
        return ""
    return e.text[e.key_start - e.start : e.key_end - e.start]


def _fixed(e: ElementRow, wide: bool) -> list[str]:
    offsets, grade = f"{e.start}–{e.end}", f"g{e.grade}"
    assisted = "assisted" if e.assisted else ""
    if wide:
        return [e.document_id, offsets, grade, e.annotator, assisted]
    return [
        f"{e.document_id}\n{offsets}",
        f"{grade} {e.annotator}" + (f"\n{assisted}" if assisted else ""),
    ]


def _cut(text: Text, lines: list[Text], lines_max: int) -> Text:
    """``text`` (the table wraps it into ``lines``, as here); more than ``lines_max`` lines:
    the first ``lines_max - 1`` and a line saying the rest is cut."""
    if len(lines) <= lines_max:
        return text
    more = Text(CUT, style="dim italic")
    return Text("\n").join([*lines[: lines_max - 1], more])


def review_layout(rows: list[ElementRow], width: int, lines: int, console: Console) -> ReviewLayout:
    """The table of ``rows`` for a table ``width`` cells wide showing ``lines`` lines under
    its header (module docstring)."""
    room = width - SCROLLBAR
    wide = room >= WIDE
    headers = (
        ["page", "offsets", "grade", "annotator", "assisted"] if wide else ["element", "grade · by"]
    )
    fixed = [_fixed(e, wide) for e in rows]
    widths = [cells_width(h, [cells[i] for cells in fixed]) for i, h in enumerate(headers)]
    rest = room - columns_width(widths) - columns_width([0, 0])
    keys = [key_clause(e) for e in rows]
    longest = cells_width(KEY_HEADER, [repr(k) for k in keys if k])
    key_w = max(MIN_KEY, min(longest, rest // 3))
    text_w = max(MIN_TEXT, rest - key_w)
    laid: list[tuple[list[str | Text], int]] = []
    for e, cells, clause in zip(rows, fixed, keys, strict=True):
        stale = e.status == "stale"
        text = Text(repr(e.text) + ("  STALE" if stale else ""), style="red" if stale else "")
        text_lines = wrapped(text, text_w, console)
        key = Text(repr(clause) if clause else "")
        key_lines = wrapped(key, key_w, console)
        tall = max(len(text_lines), len(key_lines), *(c.count("\n") + 1 for c in cells))
        height = min(tall, lines)
        row: list[str | Text] = [
            *cells,
            _cut(key, key_lines, height),
            _cut(text, text_lines, height),
        ]
        laid.append((row, height))
    columns = [*zip(headers, widths, strict=True), (KEY_HEADER, key_w), (TEXT_HEADER, text_w)]
    return ReviewLayout(wide, columns, laid)
