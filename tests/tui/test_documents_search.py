"""Pilot tests of the documents list (F3): results belong to the query they are labelled
with, and the list pages past 500."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static
from tui_support import run_app, settle

from labeler.store import DocumentHit, SearchPage, Store, upsert_document
from labeler.tui.app import LabelerApp
from labeler.tui.screens.documents import DocumentsScreen

#: pages that hold journal_mode (two of them) and ones holding only a prefix of it
PAGES = {
    "a.txt": "Set the journal_mode to WAL.",
    "b.txt": "A journal is kept; its mode is fixed.",
    "c.txt": "The journal_mode pragma returns the mode.",
    "d.txt": "Every journey starts with a jour fixe.",
}


def add_pages(store: Store, pages: dict[str, str]) -> None:
    with store.write() as s:
        for doc_id, text in pages.items():
            upsert_document(
                s, doc_id=doc_id, source_path=doc_id, sha256=doc_id, profile="t", text=text
            )


def shown(app: LabelerApp) -> tuple[str, list[str]]:
    screen = app.screen
    assert isinstance(screen, DocumentsScreen)
    table = screen.query_one(DataTable)
    rows = [str(table.coordinate_to_cell_key((r, 0)).row_key.value) for r in range(table.row_count)]
    return str(screen.query_one("#doc-count", Static).content), rows


def test_a_result_list_always_belongs_to_the_query_it_is_labelled_with(store: Store) -> None:
    """Typing journal_mode key by key without waiting: whenever the list is drawn, its label
    names the query its rows were found for; at the end, the full query's pages (worked out
    by hand from PAGES) under the full query's label. A result of an older query that
    comes back late is dropped."""
    add_pages(store, PAGES)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, DocumentsScreen)
        screen.query_one(Input).focus()
        for key in "journal_mode":
            await pilot.press(key)
            await pilot.pause()
            label, rows = shown(app)
            assert screen.hits_for is not None
            assert f"matching {screen.hits_for!r}" in label or not screen.hits_for
            assert rows == [h.id for h in screen.hits]
        await settle(app, pilot)
        label, rows = shown(app)
        assert label == "2 document(s) matching 'journal_mode'"
        assert sorted(rows) == ["a.txt", "c.txt"]
        # a search for an earlier text that ends now is never shown
        late = SearchPage("jour", 0, [DocumentHit("d.txt", 40, 0, 30, "jour")], 1)
        screen._show(late)
        await pilot.pause()
        assert shown(app) == (label, rows)

    run_app(store, body)


def test_the_list_pages_past_500(store: Store) -> None:
    """650 pages more: the list shows the first 100 and says how many there are; reaching
    the last row reads the next 100, until every one of the 652 is listed, in id order."""
    many = {f"n{i:04d}.txt": f"page number {i}" for i in range(650)}
    add_pages(store, many)
    every = sorted([*many, "policy.html", "wal.html"])

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        label, rows = shown(app)
        assert label == "652 document(s) (100 listed; more below)"
        assert rows == every[:100]
        table = app.screen.query_one(DataTable)
        table.focus()
        for _ in range(10):
            table.move_cursor(row=table.row_count - 1)
            await settle(app, pilot)
        label, rows = shown(app)
        assert rows == every
        assert label == "652 document(s)"

    run_app(store, body)
