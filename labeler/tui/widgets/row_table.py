"""A row-cursor table where ``Home`` and ``End`` go to the first and last row, and whose
columns are never drawn narrower than what they hold.

Textual's :class:`DataTable` binds ``home``/``end`` to the leftmost/rightmost *column*
(only ``ctrl+home``/``ctrl+end`` reach the first/last row); in a list of questions or
elements, where the cursor is a whole row, an annotator pressing ``End`` means the last
row.

It also measures new rows only when it is next idle, and caches each drawn line under a key
that leaves out the column widths (clearing that cache on measuring only for rows of
automatic height). A line drawn between adding a row and measuring it therefore stays as
narrow as the headers until something else changes the table: a question list would show
``▶ `` without its id and questions cut to the header's width. :class:`RowTable` drops what
it has drawn whenever a measure changes a column's width.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey


class RowTable(DataTable[Any]):
    """A :class:`DataTable` of rows: ``Home``/``End`` move to the first/last row; lines
    drawn before a measure of new rows are drawn again after it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        widths = [column.content_width for column in self.columns.values()]
        super()._update_dimensions(new_rows)
        if widths != [column.content_width for column in self.columns.values()]:
            self._clear_caches()
            self.refresh()
