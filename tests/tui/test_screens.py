"""Pilot tests of the questions, documents, scores and help screens, palette and quit."""

from __future__ import annotations

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static
from tui_support import PAGE, run_app, settle

from labeler.store import (
    Store,
    attach_element,
    list_audit,
    list_questions,
    question_elements,
)
from labeler.store.models import Run, RunResult
from labeler.tui.app import LabelerApp
from labeler.tui.screens.help import HelpScreen
from labeler.tui.screens.page import PageScreen
from labeler.tui.screens.questions import QuestionsScreen
from labeler.tui.screens.scores import DrillScreen, ScoresScreen


def questions(store: Store) -> list[tuple[str, str, str]]:
    with store.session() as s:
        return [(q.external_id, q.text, q.notes) for q in list_questions(s, 1)]


def test_add_question(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        assert isinstance(app.screen, QuestionsScreen)
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*"q3", "tab", *"What is WAL?", "tab", *"see wal.html", "ctrl+s")
        await settle(app, pilot)
        assert app.current_question is not None
        assert app.current_question.external_id == "q3"
        table = app.screen.query_one("#questions", DataTable)
        assert table.row_count == 3

    run_app(store, body)
    assert questions(store)[-1] == ("q3", "What is WAL?", "see wal.html")
    with store.session() as s:
        assert list_audit(s, limit=1)[0].actor == "ana"


def test_edit_and_delete_question_then_undo(store: Store) -> None:
    with store.write() as s:
        attach_element(s, 2, "policy.html", 0, 5, annotator="ana")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("down", "e")
        await pilot.pause()
        await pilot.press("tab", "end", *" Really?", "ctrl+s")
        await settle(app, pilot)
        assert questions(store)[1][1] == "Who approves exceptions? Really?"
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await settle(app, pilot)
        assert [q[0] for q in questions(store)] == ["q1"]
        await pilot.press("ctrl+z")
        await settle(app, pilot)

    run_app(store, body)
    assert [q[0] for q in questions(store)] == ["q1", "q2"]
    with store.session() as s:
        assert [e.text for e in question_elements(s, 2)] == ["Intro"]


def test_open_question_goes_to_its_page(store: Store) -> None:
    with store.write() as s:
        attach_element(s, 1, "policy.html", 7, 13, annotator="ana")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PageScreen)
        assert app.screen.view.cursor_offset == 7
        await pilot.press("escape")
        assert isinstance(app.screen, QuestionsScreen)

    run_app(store, body)


def test_documents_search_by_id_and_full_text(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        app.screen.query_one(Input).focus()
        await pilot.press(*"wal.h")
        await settle(app, pilot)
        assert table.row_count == 1
        app.screen.query_one(Input).value = ""
        await pilot.press(*"data owner", "enter")  # enter in the box opens the first match
        await settle(app, pilot)
        assert table.row_count == 1
        assert isinstance(app.screen, PageScreen)
        assert app.screen.view.cursor_offset == PAGE.index("data owner")

    run_app(store, body)


def test_scores_screen_chart_worst_first_and_drill(store: Store) -> None:
    with store.write() as s:
        attach_element(s, 1, "policy.html", 7, 55, annotator="ana")
        attach_element(s, 2, "policy.html", 63, 105, annotator="ana")
        run = Run(name="bm25")
        s.add(run)
        s.flush()
        assert run.id is not None
        s.add(RunResult(run_id=run.id, query_external_id="q1", rank=1, chunk_text=PAGE[:40]))
        s.add(RunResult(run_id=run.id, query_external_id="q2", rank=1, chunk_text=PAGE[60:110]))

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f4")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ScoresScreen)
        assert screen.scored is not None
        assert screen.worst == ["q1", "q2"]  # q1 is only partly covered: worst first
        console = Console(width=100)
        with console.capture() as captured:
            console.print(screen.query_one("#chart", Static).content)
        chart = captured.get()
        assert "Hit" in chart and "Partial" in chart
        screen.query_one("#worst", DataTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)

    run_app(store, body)


def test_help_palette_and_quit(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "ctrl+p")
        await pilot.pause()
        await pilot.press(*"question q2")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.current_question is not None and app.current_question.external_id == "q2"
        await pilot.press("ctrl+q")
        await pilot.pause()

    app = run_app(store, body)
    assert app.return_code == 0
