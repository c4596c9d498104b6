"""The lead's panel of the adjudication screen (``p``), on both backends: it shows, per
annotator, the figures ``gold progress`` reports (the team gold set and hand-worked values
of ``_lead_support``), hides again on ``p``, and follows a change made while it is open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from _lead_support import seed_lead
from rich.console import Console
from textual.pilot import Pilot
from tui_support import SIZE, settle

from labeler.store import Store, attach_span, open_store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.tui.widgets.lead_panel import LeadPanel, lead_renderable


@pytest.fixture
def lead_store(any_db: str) -> Iterator[Store]:
    opened = open_store(any_db)
    try:
        yield opened
    finally:
        opened.close()


def shown_text(panel: LeadPanel) -> str:
    assert panel.view is not None
    console = Console(width=200, record=True, color_system=None)
    console.print(lead_renderable(panel.view))
    return console.export_text()


def test_the_panel_shows_each_annotators_figures(lead_store: Store) -> None:
    ids = seed_lead(lead_store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        panel = screen.query_one("#adj-lead", LeadPanel)
        assert not panel.display  # hidden until asked for
        await pilot.press("p")
        await settle(app, pilot)
        assert panel.display and panel.view is not None
        rows = [[c for c in line.split() if c != "│"] for line in shown_text(panel).splitlines()]
        lines = {row[0]: row for row in rows if len(row) > 1 and row[1].isdigit()}
        # ana: 3 assigned, 2 done, 0 no answer, 1 left, 5 labels, 42.9/h, median 150 s,
        # 2 settled, exact and partial F1 0.80, α 0.73; bob: 6.0/h, 300 s, 0.67, 0.67, 0.74
        assert lines["ana"][:12] == [
            "ana",
            "3",
            "2",
            "0",
            "1",
            "5",
            "42.9",
            "150",
            "2",
            "0.80",
            "0.80",
            "0.73",
        ]
        assert lines["bob"][:12] == [
            "bob",
            "3",
            "2",
            "1",
            "1",
            "1",
            "6.0",
            "300",
            "2",
            "0.67",
            "0.67",
            "0.74",
        ]
        text = shown_text(panel)
        assert "ana differs most on: q1 (0.67)" in text
        assert "bob differs most on: q2 (0.00)" in text
        # a label by bob on q3 (another writer) reaches the panel on the next reload
        attach_span(lead_store, ids["q3"], "w.html", 0, 11, annotator="bob")
        app.changed()
        await settle(app, pilot)
        bob = next(p for p in panel.view.annotators if p.annotator == "bob")
        assert bob.labels == 2
        await pilot.press("p")
        await settle(app, pilot)
        assert not panel.display

    app = LabelerApp(lead_store, annotator="lea", gold_set="gold", resume=False)

    async def main() -> None:
        async with app.run_test(size=SIZE, notifications=False) as pilot:
            await settle(app, pilot)
            await body(app, pilot)

    asyncio.run(main())


def test_at_80_columns_the_panel_shows_whole_figures(lead_store: Store) -> None:
    """At 80x24 the panel keeps the figures a lead reads first, each whole (no "…"): who,
    done, left, labels/h, s/q, exact F1, α and when the work is done (hand-worked values of
    ``_lead_support``: ana 2 done, 1 left, 42.9/h, 150 s, 0.80, 0.73)."""
    seed_lead(lead_store)
    app = LabelerApp(lead_store, annotator="lea", gold_set="gold", resume=False)

    async def main() -> None:
        async with app.run_test(size=(80, 24), notifications=False) as pilot:
            await settle(app, pilot)
            await pilot.press("f5")
            await settle(app, pilot)
            await pilot.press("p")
            await settle(app, pilot)
            panel = app.screen.query_one("#adj-lead", LeadPanel)
            width = panel.content_size.width
            assert 0 < width < 80
            # what the widget draws, line by line, as the terminal gets it
            drawn = "\n".join(panel.render_line(y).text for y in range(panel.size.height))
            assert "…" not in drawn, drawn
            rows = [[c for c in line.split() if c != "│"] for line in drawn.splitlines()]
            ana = next(row for row in rows if row and row[0] == "ana")
            assert ana[:7] == ["ana", "2", "1", "42.9", "150", "0.80", "0.73"]

    asyncio.run(main())
