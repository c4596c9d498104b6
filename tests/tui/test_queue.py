"""Working through a queue (issue 11, section 4): F2/F3/F4 show their own lists, the
documents search, next unlabelled question, go to question, the questions filter, resume.

Pilot tests on a real SQLite file (see ``tui_support``).
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import DataTable, Input
from tui_support import run_app, settle

from labeler.store import (
    Store,
    add_query,
    attach_element,
    get_gold_set,
    list_questions,
    question_elements,
    upsert_document,
)
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
        await pilot.press(*"b.html", "enter", "enter")  # a new search, not keys for a page
        await settle(app, pilot)
        assert isinstance(app.screen, DocumentsScreen)
        assert app.screen.query_one(Input).value == "b.html"
        assert n_elements(store) == 0
        app.screen.query_one(Input).value = ""
        await pilot.press(*"wal", "enter")  # opens wal.html; escape comes back to the list
        await settle(app, pilot)
        await pilot.press("escape", *"policy")
        await settle(app, pilot)
        assert isinstance(app.screen, DocumentsScreen)
        assert app.screen.query_one(Input).value == "policy"
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


def test_next_unlabelled_question_key_and_palette(store: Store) -> None:
    """q1 has an element, q2 and q3 none: from q1, ``u`` goes to q2, then q3, then back
    round (past labelled q1) to q2; the palette entry does the same."""
    with store.write() as s:
        attach_element(s, 1, "policy.html", 0, 5, annotator="bob")
        add_query(s, get_gold_set(s, "demo"), "q3", "What is WAL?", actor="seed")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        def current() -> str:
            q = app.current_question
            return q.external_id if q is not None else "-"

        assert current() == "q1"
        await pilot.press("u")
        await settle(app, pilot)
        assert current() == "q2"
        await pilot.press("u")
        await settle(app, pilot)
        assert current() == "q3"
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"next unlabelled")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(app, pilot)
        assert current() == "q2"

    run_app(store, body)


def test_palette_go_to_question_opens_its_first_elements_page(store: Store) -> None:
    with store.write() as s:
        attach_element(s, 2, "wal.html", 41, 72, annotator="bob")
        attach_element(s, 2, "wal.html", 0, 10, annotator="bob")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"go to question q2")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, PageScreen) and screen.document_id == "wal.html"
        assert screen.view.cursor_offset == 0
        assert app.current_question is not None and app.current_question.external_id == "q2"

    run_app(store, body)


def test_resume_at_the_last_question_and_page_after_a_restart(store: Store) -> None:
    """A first session labels q2 on wal.html; a restart (new app, same file) opens q2 and
    that page at the element; another annotator starts at q1 on the questions list."""

    async def label(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("down")  # q2
        await pilot.press("f3")
        await settle(app, pilot)
        await pilot.press(*"readers", "enter")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, PageScreen)
        screen.view.select_offsets(41, 72)
        await pilot.press("a")
        await settle(app, pilot)
        assert n_elements(store) == 1

    run_app(store, label, resume=True)

    async def resumed(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PageScreen) and screen.document_id == "wal.html"
        assert screen.view.cursor_offset == 41
        assert app.current_question is not None and app.current_question.external_id == "q2"

    run_app(store, resumed, resume=True)

    async def other(app: LabelerApp, pilot: Pilot[int]) -> None:
        assert isinstance(app.screen, QuestionsScreen)
        assert app.current_question is not None and app.current_question.external_id == "q1"

    run_app(store, other, resume=True, annotator="cy")


def test_questions_filter_by_id_text_labelled_unlabelled_mine(store: Store) -> None:
    """q1 labelled by ana (the annotator), q2 by bob, q3 by nobody."""
    with store.write() as s:
        attach_element(s, 1, "policy.html", 0, 5, annotator="ana")
        attach_element(s, 2, "policy.html", 7, 13, annotator="bob")
        add_query(s, get_gold_set(s, "demo"), "q3", "What is WAL?", actor="seed")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, QuestionsScreen)
        table = screen.query_one("#questions", DataTable)

        async def rows(typed: str) -> list[str]:
            await pilot.press("slash")
            box = screen.query_one("#qfilter", Input)
            box.value = ""
            await pilot.press(*typed, "enter")
            await settle(app, pilot)
            return [str(table.get_row_at(i)[0]).lstrip("▶ ") for i in range(table.row_count)]

        assert await rows("") == ["q1", "q2", "q3"]
        assert await rows("Q2") == ["q2"]  # id, any case
        assert await rows("approves") == ["q2"]  # text
        assert await rows("is:labelled") == ["q1", "q2"]
        assert await rows("is:unlabelled") == ["q3"]
        assert await rows("is:mine") == ["q1"]
        assert await rows("is:labelled the") == ["q1"]  # and: a word and a flag
        await pilot.press("escape")
        await settle(app, pilot)
        assert table.row_count == 3

    run_app(store, body)
