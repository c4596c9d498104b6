"""The questions list is drawn laid out from its first paint (issue 22).

A :class:`~textual.widgets.DataTable` measures rows added to it only when it is next idle;
on a busy start-up (the first run's ingest, the first database jobs) that was seconds
during which the list was painted with columns as narrow as their headers (``id``,
``n_gold``, ``question``: 2–8 characters). The test draws the table's lines the moment new
rows arrive, before the event loop runs again, which is what any paint in that window
shows, and compares them with the lines drawn once everything has settled.
"""

from __future__ import annotations

import dataclasses

from textual.pilot import Pilot
from textual.widgets import DataTable
from tui_support import run_app, settle

from labeler.store import Store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.questions import QuestionsScreen

LONG = "Which settings does the page name for the journal mode, and what does each one do?"


def drawn(table: DataTable[object]) -> list[str]:
    """The table's visible lines as painted now."""
    return [table.render_line(y).text for y in range(table.size.height)]


def widths(table: DataTable[object]) -> list[int]:
    return [c.get_render_width(table) for c in table.ordered_columns]


def test_new_rows_are_drawn_with_their_final_column_widths(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, QuestionsScreen)
        table = screen.query_one("#questions", DataTable)
        # the data arrives: longer ids and texts than the rows drawn so far
        app.questions = tuple(
            dataclasses.replace(q, external_id=f"{q.external_id}-renamed", text=LONG)
            for q in app.questions
        )
        first = drawn(table)
        first_widths = widths(table)
        await settle(app, pilot)
        final_widths = widths(table)
        assert first_widths == final_widths
        assert any("q1-renamed" in line and LONG[:40] in line for line in first), first
        assert first == drawn(table)

    run_app(store, body)
