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

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from labeler.report import LEAD_HEADER, LeadView, lead_rows, lead_summary, lead_view
from labeler.store import Store, read_lead_input

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


def lead_renderable(view: LeadView) -> Table:
    """The panel's table: :data:`labeler.report.LEAD_HEADER` columns, one row
    per annotator, the set's counts and the questions differing most as its caption."""
    table = Table(
        *LEAD_HEADER,
        title=f"Lead's view · {view.gold_set}",
        title_justify="left",
        expand=True,
        show_edge=False,
    )
    for row in lead_rows(view):
        table.add_row(*(str(v) for v in row))
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
        self.update(lead_renderable(view))
