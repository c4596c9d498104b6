"""Snapshots of the screens not pictured elsewhere, at 80x24 and 120x36 (issue 22: every
screen usable at 80 columns): the help, the add-question dialog, the page with find in
page open on a match, and a team member's questions list and page.

Update after an intended change with ``pytest tests/tui/test_snapshots_sizes.py
--snapshot-update`` and review the SVGs under ``__snapshots__/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_snapshots import SnapCompare, labelled, prepare
from textual.pilot import Pilot
from tui_support import make_app, make_team, settle

from labeler.store import attach_element, open_store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f1")

    assert snap_compare(labelled(db), terminal_size=size, run_before=prepare(go))


@pytest.mark.parametrize("size", SIZES)
def test_add_question_dialog(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        await pilot.press("a", *"q9", "tab", *"Who names the owner?")

    assert snap_compare(labelled(db), terminal_size=size, run_before=prepare(go))


@pytest.mark.parametrize("size", SIZES)
def test_page_find(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    """``/data`` then enter: the first of the matches selected, the count in the readout."""

    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await app.push_screen(PageScreen("policy.html"))
        await settle(app, pilot)
        await pilot.press("slash", *"data", "enter")

    assert snap_compare(labelled(db), terminal_size=size, run_before=prepare(go))


def team(db: Path) -> LabelerApp:
    store = open_store(str(db))
    make_team(store)
    with store.write() as s:
        attach_element(s, 1, "policy.html", 7, 55, annotator="ana", grade=2)
    return make_app(store, "ana")


@pytest.mark.parametrize("size", SIZES)
def test_team_questions(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    assert snap_compare(team(db), terminal_size=size, run_before=prepare())


@pytest.mark.parametrize("size", SIZES)
def test_team_page(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    """ana's page in a team gold set: her element under the cursor, D in the footer."""

    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        screen.view.select_offsets(20, 20)

    assert snap_compare(team(db), terminal_size=size, run_before=prepare(go))


@pytest.mark.parametrize("size", SIZES)
def test_documents_search(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    """F3 and a query: the ranked list with each snippet cut around its match."""

    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        await pilot.press(*"owner")
        await pilot.pause(0.3)  # the search runs once typing pauses

    assert snap_compare(labelled(db), terminal_size=size, run_before=prepare(go))


@pytest.mark.parametrize("size", SIZES)
def test_scores_drill_in(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    """enter on the worst question: its elements against the top chunks."""
    from textual.widgets import DataTable

    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f4")
        await settle(app, pilot)
        app.screen.query_one("#worst", DataTable).focus()
        await pilot.press("enter")

    assert snap_compare(labelled(db), terminal_size=size, run_before=prepare(go))


@pytest.mark.parametrize("size", SIZES)
def test_delete_confirmation(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        await pilot.press("x")

    assert snap_compare(labelled(db), terminal_size=size, run_before=prepare(go))


@pytest.mark.parametrize("size", SIZES)
def test_first_run_ingest(
    snap_compare: SnapCompare,
    tmp_path: Path,
    size: tuple[int, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first run's ingest screen, frozen at 3 of 7 pages 2 s after it opened (its clock
    reads 0, then 2): files done, rate (3 in 2 s: 1.5/s) and time left (4 files at
    1.5/s: 2.7 s, shown as 3 s). The database jobs wait for the lock the test holds (the
    ingest would otherwise be over before the picture)."""
    from labeler.tui.screens.ingest import IngestScreen

    monkeypatch.chdir(tmp_path)  # the paths shown are the same on every run
    corpus = Path("corpus")
    corpus.mkdir()
    store = open_store("empty.db")
    app = LabelerApp(store, annotator="ana", corpus=corpus, resume=False)

    async def go(pilot: Pilot[Any]) -> None:
        await app._db_lock.acquire()  # released when the app exits with the test
        readings = iter((0.0, 2.0))
        screen = IngestScreen(corpus, clock=lambda: next(readings, 2.0))
        await app.push_screen(screen)
        await pilot.pause()
        screen._progress(3, 7, "corpus/lang_transaction.html")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=go)
