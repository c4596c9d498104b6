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
it has drawn whenever a measure changes a column's width, and measures what is still
unmeasured before it draws a line: a busy start-up (the first database jobs) kept the table
from being idle for seconds, and the first question list was painted meanwhile with columns
as narrow as their headers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey


class RowTable(DataTable[Any]):
    """A :class:`DataTable` of rows: ``Home``/``End`` move to the first/last row; lines
    drawn before a measure of new rows are drawn again after it; rows and cells not yet
    measured are measured before a line is drawn, so no line is drawn with stale widths."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    #: with a share, the last column gets at least that share of the width (:meth:`_fit`)
    last_column_share: float | None = None
    #: the narrowest the other columns are made to give the last one its share
    column_floor: int = 6

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        widths = [column.content_width for column in self.columns.values()]
        super()._update_dimensions(new_rows)
        if widths != [column.content_width for column in self.columns.values()]:
            self._fit()
            self._clear_caches()
            self.refresh()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """With :attr:`last_column_share`, fit the columns to the table's width so that the
        last one (a question's text, say) takes at least that share of it (padding in): the
        other columns keep their natural width (what they hold, as measured) while that
        leaves the share, else the widest of them gives up a cell at a time, down to
        :attr:`column_floor` cells (or its natural width, when smaller); the last column
        gets what is left. Cut cells end in ``…`` when they are ``Text`` with
        ``overflow="ellipsis"``. Before the table is laid out (no width yet) nothing
        changes."""
        share = self.last_column_share
        columns = list(self.columns.values())
        # the room as if the vertical scrollbar were shown: it comes and goes with the rows,
        # and a fit for the wider room would then need a horizontal one (drawn or not
        # depending on when the picture is taken)
        scrollbar = self.styles.scrollbar_size_vertical
        room = self.size.width - scrollbar - 2 * self.cell_padding * len(columns)
        if share is None or not columns or room <= 0:
            return
        natural = [c.content_width for c in columns[:-1]]
        widths = list(natural)
        # the share is of the whole table (its scrollbar too), the last column's padding in
        keep = max(1, round(self.size.width * share) - 2 * self.cell_padding)
        while sum(widths) > room - keep:
            widest = max(range(len(widths)), key=lambda i: widths[i])
            if widths[widest] <= min(self.column_floor, natural[widest]):
                break
            widths[widest] -= 1
        for column, width, was in zip(columns, widths, natural, strict=False):
            column.auto_width = width == was
            column.width = width
        last = columns[-1]
        last.auto_width = False
        last.width = max(1, room - sum(widths))
        self._clear_caches()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        self._measure_pending()
        return super().render_line(y)

    def _measure_pending(self) -> None:
        """What :meth:`DataTable._on_idle` would measure, done now (Textual 8.2's private
        ``_updated_cells``, ``_require_update_dimensions`` and ``_new_rows``); idle then
        finds nothing left to do."""
        if self._updated_cells:
            updated = self._updated_cells.copy()
            self._updated_cells.clear()
            self._update_column_widths(updated)
        if self._require_update_dimensions:
            self._require_update_dimensions = False
            new_rows = self._new_rows.copy()
            self._new_rows.clear()
            self._update_dimensions(new_rows)
