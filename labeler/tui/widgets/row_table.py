"""A row-cursor table where ``Home`` and ``End`` go to the first and last row.

Textual's :class:`DataTable` binds ``home``/``end`` to the leftmost/rightmost *column*
(only ``ctrl+home``/``ctrl+end`` reach the first/last row); in a list of questions or
elements, where the cursor is a whole row, an annotator pressing ``End`` means the last
row.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable


class RowTable(DataTable[Any]):
    """A :class:`DataTable` of rows: ``Home``/``End`` move to the first/last row."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]
