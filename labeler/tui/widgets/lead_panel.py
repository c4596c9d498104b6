"""The lead's panel of the adjudication screen (``p``): per annotator of the current gold set,
what ``labeler gold progress`` reports (definitions in :mod:`labeler.report.lead`): assigned,
done, remaining, labels per hour, median seconds per question, agreement with the final
layer on settled questions, the questions that differ most and when their work is done.

Hidden until toggled. While shown it re-reads after every committed write (the app's
``revision``) and when the gold set changes; the data comes through the store verb
:func:`labeler.store.read_lead_input` in a database job, the figures from
:func:`labeler.report.lead_view` at the current time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, cast

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from labeler.report import LEAD_HEADER, LeadView, lead_rows, lead_summary, lead_view
from labeler.store import Store, read_lead_input

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


#: below this many columns the panel shows :data:`COMPACT` instead of every column (and
#: from it on too when every column would not fit whole: :func:`_fits`)
WIDE = 110

#: the narrow panel's columns: (heading, index into :data:`labeler.report.LEAD_HEADER`)
COMPACT = (
    ("who", 0),
    ("done", 2),
    ("left", 4),
    ("lab/h", 6),
    ("s/q", 7),
    ("F1", 9),
    ("α", 11),
    ("done by", 12),
)


def _short(moment: str) -> str:
    """``2026-03-02 14:05 UTC`` as ``03-02 14:05`` (the narrow panel's "done by")."""
    parts = moment.split()
    return f"{parts[0][5:]} {parts[1]}" if len(parts) == 3 and len(parts[0]) == 10 else moment


def _fits(header: list[str], rows: list[list[str]], width: int) -> bool:
    """Every cell of ``header`` and ``rows`` fits on one line in a table ``width`` cells
    wide: the widest cell of each column, plus 1 padding each side and a 1-cell rule
    between columns (no outer edge), at most ``width``."""
    widths = [max(cell_len(h), *(cell_len(row[i]) for row in rows)) for i, h in enumerate(header)]
    return sum(widths) + 3 * len(widths) - 1 <= width


def lead_renderable(view: LeadView, width: int | None = None) -> Table:
    """The panel's table: :data:`labeler.report.LEAD_HEADER` columns, one row
    per annotator, the set's counts and the questions differing most as its caption. Under
    :data:`WIDE` columns (``width``), the :data:`COMPACT` columns, so that every figure shown
    is readable at 80 columns (exact F1 as F1; the rest stays in ``gold progress``); so too
    from :data:`WIDE` on when the full table would not fit whole (headers cut).
    Under a minute of active time labels/h and s/q are "—"
    (:data:`labeler.report.lead.MIN_MEASURED_SECONDS`)."""
    rows = [[str(v) for v in row] for row in lead_rows(view)]
    narrow = width is not None and (width < WIDE or not _fits(list(LEAD_HEADER), rows, width))
    header = [h for h, _ in COMPACT] if narrow else list(LEAD_HEADER)
    table = Table(
        *header,
        title=f"Lead's view · {view.gold_set}",
        title_justify="left",
        expand=True,
        show_edge=False,
    )
    for cells in rows:
        if narrow:
            cells = [cells[i] for _, i in COMPACT]
            cells[-1] = _short(cells[-1])
        table.add_row(*cells)
    caption = Text(lead_summary(view))
    for p in view.annotators:
        if p.differs_most:
            worst = ", ".join(f"{d.query_id} ({d.exact_f1:.2f})" for d in p.differs_most)
            caption.append(f"\n{p.annotator} differs most on: {worst}")
    table.caption = caption
    table.caption_justify = "left"
    return table


class LeadPanel(Static):
    """The per-annotator summary (see the module docstring); :meth:`toggle` shows or hides
    it. ``view`` is the last one shown (None before the first load)."""

    DEFAULT_CSS = """
    LeadPanel { height: auto; max-height: 50%; border: round $secondary; padding: 0 1;
                display: none; }
    LeadPanel.shown { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.view: LeadView | None = None

    @property
    def labeler(self) -> AppContext:
        return cast("AppContext", self.app)

    def on_mount(self) -> None:
        self.watch(self.app, "revision", self._changed, init=False)
        self.watch(self.app, "gold_set_id", self._changed, init=False)

    @property
    def shown(self) -> bool:
        return self.has_class("shown")

    def toggle(self) -> None:
        """Show the panel (and load it) or hide it."""
        self.toggle_class("shown")
        if self.shown:
            self.reload()

    def _changed(self) -> None:
        if self.shown:
            self.reload()

    def reload(self) -> None:
        """Re-read the current gold set's lead's view in a database job."""
        name = self.labeler.gold_set_name
        if self.labeler.gold_set_id is None or not name:
            self.update("no gold set chosen")
            return

        def load(store: Store) -> LeadView:
            return lead_view(read_lead_input(store, name), datetime.now(UTC))

        self.labeler.db(load, self._loaded, what="lead's view")

    def _loaded(self, view: LeadView) -> None:
        self.view = view
        self._draw()

    def on_resize(self) -> None:
        if self.view is not None:
            self._draw()

    def _draw(self) -> None:
        if self.view is not None:
            self.update(lead_renderable(self.view, self.content_size.width or None))
