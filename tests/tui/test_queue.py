"""Working through a queue (issue 11, section 4): F2/F3/F4 show their own lists, the
documents search, next unlabelled question, go to question, the questions filter, resume.

Pilot tests on a real SQLite file (see ``tui_support``).
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import DataTable, Input
from tui_support import run_app, settle

from labeler.store import Store, list_questions, question_elements, upsert_document
from labeler.tui.app import LabelerApp
from labeler.tui.screens.documents import DocumentsScreen
from labeler.tui.screens.page import PageScreen
from labeler.tui.screens.questions import QuestionsScreen


def n_elements(store: Store) -> int:
    with store.session() as s:
        return sum(len(question_elements(s, q.id)) for q in list_questions(s, 1))


def test_f3_on_a_page_opened_from_documents_shows_the_list(store: Store) -> None:
    """The bug of the issue: F3 on such a page showed the page again, and a search typed
    next (``b.html`` enter) selected a block, stepped the question and attached it."""

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        await pilot.press(*"wal", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PageScreen)
        for key in ("f3", "f2", "f4"):
            await pilot.press(key)
            await settle(app, pilot)
            assert not isinstance(app.screen, PageScreen), key
        await pilot.press("f3")
        await settle(app, pilot)
        assert isinstance(app.screen, DocumentsScreen)
        await pilot.press("slash", *"b.html", "enter", "enter")
        await settle(app, pilot)
        assert n_elements(store) == 0
        await pilot.press("f2")
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)
        assert app.current_question is not None and app.current_question.external_id == "q1"

    run_app(store, body)


def test_documents_search_ranks_and_enter_opens_the_first_match(store: Store) -> None:
    """Ranked by match, not alphabetically: a page whose id is the needle comes before a
    page (alphabetically first) that only mentions it; enter in the box opens it."""
    with store.write() as s:
        upsert_document(
            s, doc_id="a-notes.html", source_path="n", sha256="n", profile="t", text="see wal.html"
        )

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        await pilot.press(*"wal.html")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, DocumentsScreen)
        assert [h.id for h in screen.hits] == ["wal.html", "a-notes.html"]
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PageScreen) and app.screen.document_id == "wal.html"

    run_app(store, body)


def test_documents_down_arrow_moves_into_the_results(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, DocumentsScreen)
        screen.query_one(Input).focus()
        await pilot.press("down", "down")
        await pilot.pause()
        table = screen.query_one(DataTable)
        assert table.has_focus and table.cursor_row == 1
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PageScreen) and app.screen.document_id == "wal.html"

    run_app(store, body)
