"""Fitting text into a terminal's width: table columns (the review view and the adjudication
screen at 80 columns), and lines made of parts (a readout) shown whole or not at all.

A :class:`textual.widgets.DataTable` sizes every column to its widest cell and scrolls
sideways when they do not fit, so at 80 columns the last columns are cut at the pane's edge
("accepted" drawn as "ac"). These helpers measure cells in terminal cells (wide characters
count twice: :func:`rich.cells.cell_len`), cut a text to a width with an ellipsis, and wrap
a text into lines, so a screen can choose columns that fit whole and give the rest of the
width to its text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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


#: what joins the parts of a readout line
SEPARATOR = "  ·  "

#: one part of a line: its forms, longest (preferred) first
Part = str | Sequence[str]


def fit_parts(parts: Sequence[Part], width: int, separator: str = SEPARATOR) -> str:
    """The parts joined by ``separator``, each in its longest form that still fits in
    ``width`` cells, in order; the first part that fits in no form ends the line (a later,
    shorter part is not shown in its place: the order is the order of importance).

    The first part is always shown, in its shortest form when none fits; it is then the
    only thing on the line and may run past ``width``. A width of 0 or less (not laid out
    yet) fits everything in its longest form."""
    forms = [[p] if isinstance(p, str) else list(p) for p in parts]
    if not forms:
        return ""
    if width <= 0:
        return separator.join(f[0] for f in forms)
    first = next((f for f in forms[0] if cell_len(f) <= width), forms[0][-1])
    line = first
    for options in forms[1:]:
        room = width - cell_len(line) - cell_len(separator)
        chosen = next((f for f in options if cell_len(f) <= room), None)
        if chosen is None:
            break
        line += separator + chosen
    return line
