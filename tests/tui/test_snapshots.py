"""Snapshot tests of the main screens at a fixed terminal size (pytest-textual-snapshot).

Update after an intended change with ``pytest tests/tui/test_snapshots.py --snapshot-update``
and review the SVGs under ``__snapshots__/``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from tui_support import PAGE, footer_recomposing, make_app, settle

from labeler.store import attach_element, open_store
from labeler.store.models import Run, RunResult
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen

SIZE = (110, 32)
SnapCompare = Callable[..., bool]


def labelled(db: Path) -> LabelerApp:
    """An app on a store with a few elements and one run (deterministic content)."""
    store = open_store(str(db))
    with store.write() as s:
        attach_element(s, 1, "policy.html", 7, 55, annotator="ana", grade=2)
        attach_element(s, 2, "policy.html", 63, 105, annotator="bob")
        run = Run(name="bm25")
        s.add(run)
        s.flush()
        assert run.id is not None
        s.add(RunResult(run_id=run.id, query_external_id="q1", rank=1, chunk_text=PAGE[:40]))
        s.add(RunResult(run_id=run.id, query_external_id="q1", rank=2, chunk_text=PAGE[:60]))
        s.add(RunResult(run_id=run.id, query_external_id="q2", rank=1, chunk_text=PAGE[60:110]))
    return make_app(store)


def prepare(then: Callable[[LabelerApp, Pilot[Any]], Awaitable[None]] | None = None) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, LabelerApp)
        await settle(app, pilot)
        if then is not None:
            await then(app, pilot)
            await settle(app, pilot)
        # A toast posted by a late job would be in the picture or not depending on timing:
        # clear until a settled app has none left.
        for _ in range(3):
            app.clear_notifications()
            await settle(app, pilot)
            if not app._notifications:
                break
        # a blinking cursor is drawn or not depending on when the picture is taken
        for widget in app.screen.query("Input, TextArea"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause()
        # On a loaded machine a table can still be sizing its columns after the refreshes
        # settle waits for: take the picture only once two renders in a row agree.
        previous = ""
        for _ in range(10):
            picture = app.export_screenshot()
            if picture == previous and not footer_recomposing(app):
                break
            previous = picture
            await settle(app, pilot)

    return run_before


def test_questions_screen(snap_compare: SnapCompare, db: Path) -> None:
    assert snap_compare(labelled(db), terminal_size=SIZE, run_before=prepare())


def test_documents_screen(snap_compare: SnapCompare, db: Path) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f3")

    assert snap_compare(labelled(db), terminal_size=SIZE, run_before=prepare(go))


def test_page_screen(snap_compare: SnapCompare, db: Path) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        start = PAGE.index("data data")
        screen.view.select_offsets(start, start + 4)  # repeated text: the warning shows

    assert snap_compare(labelled(db), terminal_size=SIZE, run_before=prepare(go))


def test_page_screen_assist(snap_compare: SnapCompare, db: Path) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        await pilot.press("A")

    assert snap_compare(labelled(db), terminal_size=SIZE, run_before=prepare(go))


def test_scores_screen(snap_compare: SnapCompare, db: Path) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f4")

    assert snap_compare(labelled(db), terminal_size=SIZE, run_before=prepare(go))


def test_help_screen(snap_compare: SnapCompare, db: Path) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f1")

    assert snap_compare(labelled(db), terminal_size=SIZE, run_before=prepare(go))


async def open_policy_page(app: LabelerApp, pilot: Pilot[Any]) -> None:
    screen = PageScreen("policy.html")
    await app.push_screen(screen)
    await settle(app, pilot)
    start = PAGE.index("FR-001")
    screen.view.select_offsets(start, start + 6)


def test_page_screen_80x24(snap_compare: SnapCompare, db: Path) -> None:
    """The page pane gets two thirds, the elements panel shrinks, footer: labelling first."""
    assert snap_compare(labelled(db), terminal_size=(80, 24), run_before=prepare(open_policy_page))


def test_page_screen_120x36(snap_compare: SnapCompare, db: Path) -> None:
    assert snap_compare(labelled(db), terminal_size=(120, 36), run_before=prepare(open_policy_page))


def test_questions_screen_80x24(snap_compare: SnapCompare, db: Path) -> None:
    assert snap_compare(labelled(db), terminal_size=(80, 24), run_before=prepare())


def test_questions_screen_120x36(snap_compare: SnapCompare, db: Path) -> None:
    assert snap_compare(labelled(db), terminal_size=(120, 36), run_before=prepare())
