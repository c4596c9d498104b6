"""Fitting table columns into a terminal's width (the review view and the adjudication screen
at 80 columns).

A :class:`textual.widgets.DataTable` sizes every column to its widest cell and scrolls
sideways when they do not fit, so at 80 columns the last columns are cut at the pane's edge
("accepted" drawn as "ac"). These helpers measure cells in terminal cells (wide characters
count twice: :func:`rich.cells.cell_len`), cut a text to a width with an ellipsis, and wrap
a text into lines, so a screen can choose columns that fit whole and give the rest of the
width to its text.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.text import Text

#: the blank a DataTable draws each side of a cell (its default ``cell_padding`` of 1)
PADDING = 2
#: room kept for a vertical scrollbar (Textual's default ``scrollbar-size-vertical``)
SCROLLBAR = 2


def cells_width(header: str, cells: Iterable[str | Text]) -> int:
    """The widest of ``header`` and ``cells`` in terminal cells (a multi-line cell: its
    widest line)."""
    widest = cell_len(header)
    for cell in cells:
        plain = cell.plain if isinstance(cell, Text) else cell
        for line in plain.split("\n"):
            widest = max(widest, cell_len(line))
    return widest


def elide(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, its last cell an ellipsis when cut (``width`` < 1:
    empty)."""
    if width < 1:
        return ""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1) + "…"


def wrapped(text: Text, width: int, console: Console) -> list[Text]:
    """``text`` broken into lines of at most ``width`` cells (words kept whole where they
    fit, as a table cell of that width draws it)."""
    return list(text.wrap(console, max(width, 1)))


def columns_width(widths: Iterable[int]) -> int:
    """What columns of these content widths take, padding included."""
    return sum(w + PADDING for w in widths)
