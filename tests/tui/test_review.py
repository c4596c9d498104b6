"""Reviewing a question across all its pages (issue 11, section 3).

Pilot tests on a real SQLite file: ``v`` (or the palette) lists every element of the
current question on every page, ``enter`` opens the element's page with it selected, and
grades and removals made there are stored; a page where the question has no element says
on which pages it has them.
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from tui_support import run_app, said, settle

from labeler.store import (
    Store,
    attach_element,
    question_elements,
    remove_element,
    upsert_document,
)
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen
from labeler.tui.screens.review import ReviewScreen

FR = "FR-001: The index is never the source of record."  # PAGE[7:55]
EXC = "Exceptions are approved by the data owner."  # PAGE[63:105]
WAL = "WAL mode lets readers continue."  # OTHER_PAGE[41:72]


def seed_q1(store: Store) -> None:
    """q1 (id 1) has two elements on policy.html and one on wal.html."""
    with store.write() as s:
        attach_element(s, 1, "policy.html", 7, 55, annotator="bob")
        attach_element(s, 1, "policy.html", 63, 105, annotator="ana", grade=2, assisted=True)
        attach_element(s, 1, "wal.html", 41, 72, annotator="ana")


def q1_rows(store: Store) -> list[tuple[str, int, int, int]]:
    with store.session() as s:
        return [(e.document_id, e.start, e.end, e.grade) for e in question_elements(s, 1)]


def table_rows(app: LabelerApp) -> list[list[str]]:
    table = app.screen.query_one("#review", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def open_page(app: LabelerApp, pilot: Pilot[int], doc: str) -> PageScreen:
    screen = PageScreen(doc)
    await app.push_screen(screen)
    await settle(app, pilot)
    assert screen.loaded
    return screen


def test_review_lists_every_page_and_jumps_grades_removes(store: Store) -> None:
    seed_q1(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        page = await open_page(app, pilot, "policy.html")
        assert "Elements here (2)" in str(page.query_one("#elements", Static).render())
        await pilot.press("v")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert table_rows(app) == [
            ["policy.html", "7–55", "g1", "bob", "", "", repr(FR)],
            ["policy.html", "63–105", "g2", "ana", "assisted", "", repr(EXC)],
            ["wal.html", "41–72", "g1", "ana", "", "", repr(WAL)],
        ]
        title = str(app.screen.query_one("#review-title", Static).render())
        assert "3 element(s) on 2 page(s)" in title

        await pilot.press("down", "down", "enter")  # the element on the other page
        await settle(app, pilot)
        jumped = app.screen
        assert isinstance(jumped, PageScreen) and jumped.document_id == "wal.html"
        assert jumped.view.offsets == (41, 72)
        assert "▶ 41–72" in str(jumped.query_one("#elements", Static).render())

        await pilot.press("v")
        await settle(app, pilot)
        await pilot.press("3")  # grade the first row from the review
        await settle(app, pilot)
        assert q1_rows(store)[0] == ("policy.html", 7, 55, 3)
        assert table_rows(app)[0][2] == "g3"
        await pilot.press("down", "x")  # remove the second row
        await settle(app, pilot)
        assert q1_rows(store) == [("policy.html", 7, 55, 3), ("wal.html", 41, 72, 1)]
        assert [r[1] for r in table_rows(app)] == ["7–55", "41–72"]

        await pilot.press("escape")  # back to the wal.html page
        await settle(app, pilot)
        assert isinstance(app.screen, PageScreen) and app.screen.document_id == "wal.html"

    run_app(store, body)


def test_review_enter_on_the_page_below_selects_without_stacking(store: Store) -> None:
    seed_q1(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        page = await open_page(app, pilot, "policy.html")
        depth = len(app.screen_stack)
        await pilot.press("v")
        await settle(app, pilot)
        await pilot.press("down", "enter")  # policy.html 63–105: the page below
        await settle(app, pilot)
        assert app.screen is page and len(app.screen_stack) == depth
        assert page.view.offsets == (63, 105)

    run_app(store, body)


def test_review_from_the_palette_follows_the_current_question(store: Store) -> None:
    seed_q1(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"review question")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert len(table_rows(app)) == 3
        await pilot.press("full_stop")  # q2: no elements
        await settle(app, pilot)
        assert table_rows(app) == []
        title = str(app.screen.query_one("#review-title", Static).render())
        assert title.startswith("q2") and "0 element(s)" in title

    run_app(store, body)


def test_question_with_no_elements_says_so(store: Store) -> None:
    seed_q1(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        page = await open_page(app, pilot, "wal.html")
        await pilot.press("full_stop")  # q2: no elements anywhere
        await settle(app, pilot)
        panel = str(page.query_one("#elements", Static).render())
        assert "q2 has no elements on any page yet" in panel
        await pilot.press("full_stop")  # back to q1: one here, two elsewhere
        await settle(app, pilot)
        assert "Elements here (1)" in str(page.query_one("#elements", Static).render())

    run_app(store, body)


def test_page_without_elements_of_the_question_names_its_pages(store: Store) -> None:
    seed_q1(store)
    with store.write() as s:
        upsert_document(
            s,
            doc_id="empty.html",
            source_path="empty.html",
            sha256="c",
            profile="text",
            text="Nothing relevant here.",
        )

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        page = await open_page(app, pilot, "empty.html")
        panel = str(page.query_one("#elements", Static).render())
        assert "q1 has elements on: policy.html (2), wal.html (1)" in panel
        await pilot.press("right_square_bracket")
        await settle(app, pilot)
        warned = said(app)
        assert any("policy.html (2), wal.html (1)" in m for m in warned)

    run_app(store, body)


def test_grading_an_element_removed_meanwhile_names_it_not_its_id(store: Store) -> None:
    seed_q1(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await open_page(app, pilot, "policy.html")
        await pilot.press("v")
        await settle(app, pilot)
        with store.write() as s:  # another annotator removes the first row meanwhile
            remove_element(s, question_elements(s, 1)[0].id, actor="bob")
        await pilot.press("2")
        await settle(app, pilot)
        told = said(app)
        assert (
            "'FR-001: The index is never the source o…' (policy.html 7–55) is no longer "
            "stored: bob removed it meanwhile" in told
        )
        assert not any("id" in m.split() for m in told)

    run_app(store, body)
