"""The documents list (F3) keeps each result's matched word in view at 80 columns: the
snippet is cut around its first match to the room the other columns leave, and cut again
when the terminal is resized (issue 22: at 80x24 the query ``journal`` showed
``ibed separately. 1.0 File Lockin`` with no 'journal' in view)."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import DataTable, Input
from tui_support import run_app, settle

from labeler.store import Store, upsert_document
from labeler.tui.app import LabelerApp

#: long words before the match, so that the store's snippet (three words before the first
#: match on) holds about 45 characters ahead of 'journal'; ids as long as the issue's
PAGES = {
    "releaselog/3_5_6_a.html": "Internationalization Considerations Documentation "
    "Consequences journal mode settings are explained here in full with many more words.",
    "releaselog/3_5_6_b.html": "Recommendations Implementation Characteristics "
    "Administration journal files are kept beside the database in the same folder.",
}


def visible_rows(app: LabelerApp) -> list[str]:
    """The list's rows as the terminal shows them (the table's drawn lines under its
    header), one per result."""
    table = app.screen.query_one(DataTable)
    return [table.render_line(y).text for y in range(1, 1 + table.row_count)]


def test_the_match_stays_in_view_at_80_columns_and_after_a_resize(store: Store) -> None:
    with store.write() as s:
        for doc_id, text in PAGES.items():
            upsert_document(
                s, doc_id=doc_id, source_path=doc_id, sha256=doc_id, profile="t", text=text
            )

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        app.screen.query_one(Input).focus()
        for key in "journal":
            await pilot.press(key)
        await settle(app, pilot)
        rows = visible_rows(app)
        assert len(rows) == 2
        for row in rows:
            assert "journal" in row, row
            # cut at both ends: the words just before the match and after it show
            assert "\u2026" in row and row.rstrip().endswith("\u2026"), row
        # worked by hand: 80 columns less the id (23 + 2 padding), chars (5 + 2), elements
        # (8 + 2), the snippet's padding (2) and a scrollbar (2) leave 34; 'journal' (7)
        # with a third of the other 27 (9) before it, '…' at both cuts
        assert "\u2026tration journal files are kept b\u2026" in rows[0] + rows[1]
        # wider: cut again to the new room, so more of each page shows
        await pilot.resize_terminal(120, 30)
        await settle(app, pilot)
        wide = visible_rows(app)
        for before, after in zip(rows, wide, strict=True):
            assert "journal" in after
            assert len(after.strip()) > len(before.strip()) + 30
        # and back to 80 columns: the match is in view again (not the wider cut's start)
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert all("journal" in row for row in visible_rows(app))

    run_app(store, body, size=(80, 24))
