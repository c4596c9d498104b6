"""Documents: every stored page, searchable by id and by full text; open one to label."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from labeler.store import DocumentHit, Store, search_documents

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp


class DocumentsScreen(Screen[None]):
    """Search pages; enter opens the page view at the first match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search", key_display="/"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[DocumentHit] = []
        self.out_of_date = False

    @property
    def labeler(self) -> LabelerApp:
        return cast("LabelerApp", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="search document ids and page text", id="search")
        yield Static("", id="doc-count")
        yield DataTable(id="documents", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("document", "chars", "elements", "match")
        # Element counts change with every write, whichever screen made it. A search
        # reads every page (~0.1 s on the demo corpus), so a screen not on view only
        # notes that it is out of date and searches again when it is shown.
        self.watch(self.labeler, "revision", self._data_changed, init=False)
        self.reload()

    def _data_changed(self) -> None:
        if self.is_current:
            self.reload()
        else:
            self.out_of_date = True

    def on_screen_resume(self) -> None:
        if self.out_of_date:
            self.reload()

    def reload(self) -> None:
        self.out_of_date = False
        self._search(self.query_one("#search", Input).value)

    def _search(self, needle: str) -> None:
        def load(store: Store) -> list[DocumentHit]:
            with store.session() as s:
                return search_documents(s, needle)

        self.labeler.db(load, self._show, what="search")

    def _show(self, hits: list[DocumentHit]) -> None:
        self.hits = hits
        table = self.query_one(DataTable)
        table.clear()
        for h in hits:
            table.add_row(h.id, f"{h.length:,}", str(h.elements), h.snippet, key=h.id)
        needle = self.query_one("#search", Input).value
        what = f" matching {needle!r}" if needle else ""
        self.query_one("#doc-count", Static).update(f"{len(hits)} document(s){what}")

    def on_input_changed(self, event: Input.Changed) -> None:
        self._search(event.value)

    def on_input_submitted(self) -> None:
        self.query_one(DataTable).focus()

    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        from labeler.tui.screens.page import PageScreen

        hit = self.hits[event.cursor_row]
        self.app.push_screen(
            PageScreen(hit.id, position=hit.position if hit.position >= 0 else None)
        )
