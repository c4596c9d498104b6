"""Documents: every stored page, searchable by id and by full text; open one to label."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from labeler.store import DocumentHit, Store, find_documents
from labeler.tui.widgets.row_table import RowTable

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


class DocumentsScreen(Screen[None]):
    """Search pages (best match first); enter opens the page view at the first match.

    In the search box, enter opens the first result once the search for what was typed
    has come back, and down moves into the results.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search", key_display="/"),
        Binding("down", "into_results", "Results", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[DocumentHit] = []
        #: the needle ``hits`` were found for (searches run in order, the last one wins)
        self.hits_for: str | None = None
        #: enter was pressed in the box before the search for its text came back
        self.open_when_found = False
        self.out_of_date = False

    @property
    def labeler(self) -> AppContext:
        """The running app, as screens see it (:mod:`labeler.tui.context`)."""
        return cast("AppContext", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="search document ids and page text", id="search")
        yield Static("", id="doc-count")
        yield RowTable(id="documents", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("document", "chars", "elements", "match")
        # Element counts change with every write, whichever screen made it. A search
        # reads every page (~0.1 s on the demo corpus), so a screen not on view only
        # notes that it is out of date and searches again when it is shown.
        self.watch(self.app, "revision", self._data_changed, init=False)
        self.reload()

    def _data_changed(self) -> None:
        if self.is_current:
            self.reload()
        else:
            self.out_of_date = True

    def on_screen_resume(self) -> None:
        # Back from a page (escape) or shown by F3: typing starts a new search.
        self.start_here()
        if self.out_of_date:
            self.reload()

    def reload(self) -> None:
        self.out_of_date = False
        self._search(self.query_one("#search", Input).value)

    def _search(self, needle: str) -> None:
        annotator, gold_set_id = self.labeler.annotator, self.labeler.gold_set_id

        def load(store: Store) -> list[DocumentHit]:
            # counts only the elements this annotator may see (blind team labelling)
            return find_documents(store, needle, annotator, gold_set_id)

        self.labeler.db(load, lambda hits: self._show(needle, hits), what="search")

    def _show(self, needle_searched: str, hits: list[DocumentHit]) -> None:
        refresh = needle_searched == self.hits_for
        self.hits = hits
        self.hits_for = needle_searched
        table = self.query_one(DataTable)
        # the same search again (after a write, or another process's: labeler.tui.live)
        # keeps the cursor on its page; a new search starts at the top
        was = None
        if refresh and table.row_count and table.cursor_row >= 0:
            was = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        table.clear()
        for h in hits:
            table.add_row(h.id, f"{h.length:,}", str(h.elements), h.snippet, key=h.id)
        ids = [h.id for h in hits]
        if was in ids:
            table.move_cursor(row=ids.index(was))
        needle = self.query_one("#search", Input).value
        what = f" matching {needle!r}" if needle else ""
        count = f"{len(hits)} document(s){what}"
        if not hits and not needle:  # the empty state names the command that fills it
            count = f"no pages in {self.labeler.database} yet: labeler ingest PATH... stores them"
        self.query_one("#doc-count", Static).update(Text(count))
        if self.open_when_found and needle_searched == needle:
            self.open_when_found = False
            self._open_first()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._search(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Open the best match; if the search for this text is still running, when it ends."""
        if self.hits_for == event.value:
            self._open_first()
        else:
            self.open_when_found = True

    def _open_first(self) -> None:
        table = self.query_one(DataTable)
        if not self.hits:
            self.notify("no document matches", severity="warning", timeout=3)
            return
        table.focus()
        table.move_cursor(row=0)
        self._open(self.hits[0])

    def start_here(self) -> None:
        """Shown (F3, or back from a page): the search box has focus with its text
        selected, so what is typed next is a new search (never keys for the results)."""
        box = self.query_one("#search", Input)
        box.focus()
        box.select_all()

    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_into_results(self) -> None:
        """Down in the search box moves into the results."""
        table = self.query_one(DataTable)
        if self.query_one("#search", Input).has_focus and table.row_count:
            table.focus()
            table.move_cursor(row=0)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._open(self.hits[event.cursor_row])

    def _open(self, hit: DocumentHit) -> None:
        self.labeler.open_page(hit.id, hit.position if hit.position >= 0 else None)
