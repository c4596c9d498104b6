"""Documents: every stored page, searchable by id and by full text; open one to label."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, Static

from labeler.store import MATCH_END, MATCH_START, DocumentHit, SearchPage, Store, find_documents
from labeler.tui.widgets.footer import LabelerFooter
from labeler.tui.widgets.row_table import RowTable

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


#: the narrowest a snippet is cut to, however little room the other columns leave
MIN_SNIPPET = 16
#: the columns of the list; the snippet is the last, cut to the room the others leave
COLUMNS = ("document", "chars", "elements", "match")


def fit_snippet(snippet: str, width: int) -> Text:
    """``snippet`` (the store's, its matched words between the match marks) cut to
    ``width`` characters around its first matched word, the matched words in bold.

    Fits already: as it is. Else a window of ``width`` characters holding the first match
    with about a third of the room left over before it (less at the snippet's start, and
    ending at most at its end); ``…`` replaces the window's first character where it cuts
    the snippet's start and its last where it cuts the end. A match longer than the window
    starts it. No match (a page listed without a query: its start): as it is, the table's
    edge cutting it. Widths count characters (the text is mostly one cell a character)."""
    parts = snippet.replace(MATCH_END, MATCH_START).split(MATCH_START)
    plain = "".join(parts)
    spans, at = [], 0
    for i, part in enumerate(parts):
        if i % 2 and part:
            spans.append((at, at + len(part)))
        at += len(part)
    if not spans:
        return Text(plain)
    start = 0
    if len(plain) > width:
        first, end = spans[0]
        room = width - (end - first)
        start = first if room < 0 else max(0, min(first - room // 3, len(plain) - width))
    stop = min(len(plain), start + width)
    out = Text(plain[start:stop])
    for a, b in spans:
        if a < stop and b > start:
            out.stylize("bold reverse", max(a, start) - start, min(b, stop) - start)
    if start > 0 and len(out) > 1:
        out = Text("\u2026").append_text(out[1:])
    if stop < len(plain) and len(out) > 1:
        out = out[:-1].append("\u2026")
    return out


class DocumentsScreen(Screen[None]):
    """Search pages (best match first); enter opens the page view at the first match.

    In the search box, enter opens the first result once the search for what was typed
    has come back, and down moves into the results.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search", key_display="/"),
        Binding("down", "into_results", "Results", show=False),
    ]

    #: results read at a time; the next page is read on reaching the end of the list
    PAGE: ClassVar[int] = 100

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[DocumentHit] = []
        #: the query ``hits`` were found for: the label and the rows always belong to it
        self.hits_for: str | None = None
        #: how many pages match ``hits_for`` in all (``hits`` holds the first of them)
        self.total = 0
        #: whether ``total`` is exact (False: at least that many; PostgreSQL counts up to a cap)
        self.exact = True
        #: how many text matches were ranked when not all were (None: all)
        self.ranked: int | None = None
        #: the query asked for last; a search for any other is stale and never shown
        self.wanted: str | None = None
        #: enter was pressed in the box before the search for its text came back
        self.open_when_found = False
        self.out_of_date = False
        #: a next page of results is being read
        self.loading_more = False

    @property
    def labeler(self) -> AppContext:
        """The running app, as screens see it (:mod:`labeler.tui.context`)."""
        return cast("AppContext", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="search document ids and page text", id="search")
        yield Static("", id="doc-count")
        yield RowTable(id="documents", cursor_type="row", zebra_stripes=True)
        yield LabelerFooter()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*COLUMNS)
        #: the width the listed snippets are cut to (0: none listed yet)
        self.fitted_to = 0
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

    def _search(self, needle: str, offset: int = 0) -> None:
        """Search for ``needle`` (from result ``offset`` on: the next page of the list).

        Searches run in order; one whose query is no longer what the box holds is skipped
        before it reads (so typing fast queues no work) and discarded if it ends late."""
        annotator, gold_set_id = self.labeler.annotator, self.labeler.gold_set_id
        if offset == 0:
            self.wanted = needle

        def load(store: Store) -> SearchPage | None:
            if needle != self.wanted:
                return None  # stale: a newer query was typed since
            # counts only the elements this annotator may see (blind team labelling)
            return find_documents(
                store, needle, annotator, gold_set_id, offset=offset, limit=self.PAGE
            )

        self.labeler.db(load, self._show, what="search")

    def _show(self, found: SearchPage | None) -> None:
        if found is None or found.query != self.wanted:
            return  # results of a query the box no longer holds are never shown
        table = self.query_one(DataTable)
        if found.offset:
            self.loading_more = False
            if found.query != self.hits_for or found.offset != len(self.hits):
                return  # a page for a list that was replaced meanwhile
            self._add_rows(found.hits)
            self.hits.extend(found.hits)
            # a later page may count what the first could only bound ("at least")
            self.total, self.exact, self.ranked = found.total, found.exact, found.ranked
            self._count()
            return
        refresh = found.query == self.hits_for
        self.hits = list(found.hits)
        self.hits_for = found.query
        self.total, self.exact, self.ranked = found.total, found.exact, found.ranked
        # the same search again (after a write, or another process's: labeler.tui.live)
        # keeps the cursor on its page; a new search starts at the top
        was = None
        if refresh and table.row_count and table.cursor_row >= 0:
            was = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        table.clear()
        self._add_rows(found.hits)
        ids = [h.id for h in found.hits]
        if was in ids:
            table.move_cursor(row=ids.index(was))
        self._count()
        if self.open_when_found:
            self.open_when_found = False
            self._open_first()

    def _add_rows(self, hits: list[DocumentHit]) -> None:
        table = self.query_one(DataTable)
        if table.row_count and self._snippet_width(hits) != self.fitted_to:
            self._refit(hits)  # the new rows widen another column: every snippet is cut anew
        width = self._snippet_width(hits)
        for h in hits:
            snippet = fit_snippet(h.snippet, width)
            table.add_row(h.id, f"{h.length:,}", str(h.elements), snippet, key=h.id)
        self.fitted_to = width

    def _snippet_width(self, more: list[DocumentHit]) -> int:
        """The room the snippet has: the table's width less the other columns' (each as
        wide as its header or its widest cell, ``more`` included, with the cell padding on
        both sides), the snippet's own padding and a vertical scrollbar's width, at least
        :data:`MIN_SNIPPET`."""
        table = self.query_one(DataTable)
        listed = [*self.hits, *more]  # (a hit in both counts once: widths are maxima)
        cells = [
            [len(COLUMNS[0]), *(len(h.id) for h in listed)],
            [len(COLUMNS[1]), *(len(f"{h.length:,}") for h in listed)],
            [len(COLUMNS[2]), *(len(str(h.elements)) for h in listed)],
        ]
        pad = 2 * table.cell_padding
        others = sum(max(c) + pad for c in cells)
        bar = table.styles.scrollbar_size_vertical
        return max(MIN_SNIPPET, (table.size.width or self.app.size.width) - others - pad - bar)

    def _refit(self, more: list[DocumentHit] | None = None) -> None:
        """Cut every listed snippet to the room there is now (after a resize, or when new
        rows, ``more``, widen another column). The rows are listed anew, the cursor kept on
        its row: the table caches its drawn lines at the old widths."""
        table = self.query_one(DataTable)
        width = self._snippet_width(more or [])
        if width == self.fitted_to or not table.row_count:
            return
        self.fitted_to = width
        row = table.cursor_row
        table.clear()
        for h in self.hits:
            snippet = fit_snippet(h.snippet, width)
            table.add_row(h.id, f"{h.length:,}", str(h.elements), snippet, key=h.id)
        if 0 <= row < table.row_count:
            table.move_cursor(row=row, animate=False)

    def on_resize(self) -> None:
        # the table takes its new size in this layout pass: cut the snippets after it
        self.call_after_refresh(self._refit)

    def _count(self) -> None:
        """The label names the query the rows were found for, and how many of its results
        are listed when not all of them are (the rest load on reaching the end)."""
        query = self.hits_for or ""
        what = f" matching {query!r}" if query else ""
        shown = f" ({len(self.hits)} listed; more below)" if len(self.hits) < self.total else ""
        many = f"{self.total}" if self.exact else f"at least {self.total}"
        ranked = f"; best of the first {self.ranked} ranked" if self.ranked is not None else ""
        count = f"{many} document(s){what}{shown}{ranked}"
        if not self.total and not query:  # the empty state names the command that fills it
            count = f"no pages in {self.labeler.database} yet: labeler ingest PATH... stores them"
        self.query_one("#doc-count", Static).update(Text(count))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Reaching the last listed row reads the next page of results, if there is one."""
        if (
            event.cursor_row >= len(self.hits) - 1
            and len(self.hits) < self.total
            and not self.loading_more
            and self.hits_for is not None
        ):
            self.loading_more = True
            self._search(self.hits_for, offset=len(self.hits))

    def on_input_changed(self, event: Input.Changed) -> None:
        self._search(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Open the best match; if the search for this text is still running, when it ends."""
        if self.hits_for == event.value and self.wanted == event.value:
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
