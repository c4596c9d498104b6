"""RowTable draws its columns as wide as what they hold, whenever its lines were drawn.

Textual's DataTable measures new rows when it is next idle and caches drawn lines under keys
that leave out the column widths; a line drawn in between stayed as narrow as the headers
(the questions snapshot caught it, once in a few hundred pictures on a loaded machine).
The test draws a line at exactly that moment instead of waiting for a loaded machine:
RowTable measures the new rows before it draws it, so the line is whole from the start.
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult

from labeler.tui.widgets.row_table import RowTable

QUESTION = "Is the index the source of record?"


class TableApp(App[None]):
    # a fixed height, as on the questions screen: rows added do not resize the table (a
    # resize would redraw every line anyway)
    CSS = "RowTable { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield RowTable(id="t", cursor_type="row")


def test_a_line_drawn_before_the_table_is_idle_is_drawn_measured() -> None:
    async def main() -> tuple[str, str]:
        app = TableApp()
        async with app.run_test(size=(80, 10)) as pilot:
            table = app.query_one(RowTable)
            table.add_columns("id", "question")
            await pilot.pause()
            table.add_row("▶ q1", QUESTION)
            # drawn now, before the table is idle and measures the new row
            early = table.render_line(1).text
            await pilot.pause()
            await app.screen.wait_for_refresh()
            return early, table.render_line(1).text

    early, late = asyncio.run(main())
    assert early.split() == ["▶", "q1", *QUESTION.split()]
    assert late.split() == early.split()
