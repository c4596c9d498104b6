"""Pilot tests of finding on a page and of what the TUI brings into view (issue 22).

* Find in page (``/``) is smart about case, has a whole-word toggle (``ctrl+t``), says
  which match of how many is selected, and ``n``/``N`` wrap round saying so.
* ``ctrl+home`` / ``ctrl+end`` go to the page's start and end.
* Whatever the TUI brings into view (an element on open from the palette and the questions
  list, ``]``/``[``, a find match, the review's ``enter``, the adjudication screen's span)
  lies in the middle third of the pane, at 80x24 (where the question bar wraps to two
  lines) and at 120x36.

The pages are written here by hand, so every expected offset is counted from the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select
from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_support import make_team, run_app, settle

from labeler.store import Store, add_query, create_gold_set, open_store, upsert_document
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, Document, Query
from labeler.store.team import mark_done
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen
from labeler.tui.widgets.page_view import PageView

# "The default page size" once with a capital, twice in lower case; "size" also inside
# "sizes" (not a whole word) and once as "SIZE".
FIND_PAGE = (
    "The default page size is 4096 bytes.\n"
    "Applications may change it: the default page size is only a default.\n"
    "Page sizes are powers of two; the default page size suits most disks.\n"
    "PAGE SIZE in capitals.\n"
)
PHRASE_LOWER = [
    FIND_PAGE.index("the default page size"),
    FIND_PAGE.index("the default page size", FIND_PAGE.index("the default page size") + 1),
]
assert FIND_PAGE.count("the default page size") == 2 and FIND_PAGE.count("The default") == 1

#: a long page: numbered lines, the element in the middle (line 120 of 240)
LINES = [f"Line {i:03d} of the long page, with some words to wrap on." for i in range(240)]
LONG_PAGE = "\n".join(LINES) + "\n"
ELEMENT = "Line 120 of the long page"
ELEMENT_START = LONG_PAGE.index(ELEMENT)
ELEMENT_END = ELEMENT_START + len(ELEMENT)
SECOND = "Line 200 of the long page"
SECOND_START = LONG_PAGE.index(SECOND)
#: long enough to wrap the question bar to two lines at 80 columns
LONG_QUESTION = "Where does the long page say which line is the one in the middle of it, and why?"
SIZES = [(80, 24), (120, 36)]


def add_page(store: Store, doc_id: str, text: str) -> None:
    with store.write() as s:
        upsert_document(
            s, doc_id=doc_id, source_path=doc_id, sha256=doc_id, profile="text", text=text
        )


def seed_long(store: Store) -> None:
    """long.html; q1 (its text made long) has ana's elements at lines 120 and 200."""
    add_page(store, "long.html", LONG_PAGE)
    with store.write() as s:
        q1 = s.exec(select(Query).where(Query.external_id == "q1")).one()
        q1.text = LONG_QUESTION
        s.add(q1)
        assert q1.id is not None
        add_element(s, q1.id, "long.html", ELEMENT_START, ELEMENT_END, annotator="ana")
        add_element(
            s, q1.id, "long.html", SECOND_START, SECOND_START + len(SECOND), annotator="ana"
        )


def readout(app: LabelerApp) -> str:
    return str(app.screen.query_one("#readout", Static).render())


async def open_page(app: LabelerApp, pilot: Pilot[int], doc: str) -> PageScreen:
    app.open_page(doc)
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, PageScreen) and screen.loaded
    return screen


def shown_rows(view: PageView) -> list[str]:
    """The pane's visible rows as drawn now (the text of each rendered line)."""
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


def assert_in_middle_third(view: PageView, text: str) -> None:
    """``text`` is drawn on a row in the middle third of the pane's visible rows (read
    off the rendered lines, not from the scroll arithmetic under test)."""
    rows = shown_rows(view)
    where = [y for y, line in enumerate(rows) if text in line]
    assert where, f"{text!r} is not in view: {rows[0]!r} … {rows[-1]!r}"
    assert len(rows) / 3 <= where[0] < len(rows) * 2 / 3, (where[0], len(rows))


# -- find in page ---------------------------------------------------------------------------


def test_find_smart_case_count_and_wrap(store: Store) -> None:
    add_page(store, "size.html", FIND_PAGE)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, "size.html")
        view = screen.view
        # lower case: any case, so the capitalised one at 0 is the first of three
        await pilot.press("slash", *"the default page size", "enter")
        await settle(app, pilot)
        assert view.offsets == (0, 21)
        assert readout(app).startswith("match 1/3 of 'the default page size' at 0")
        await pilot.press("n")
        await settle(app, pilot)
        assert view.offsets == (PHRASE_LOWER[0], PHRASE_LOWER[0] + 21)
        assert readout(app).startswith(f"match 2/3 of 'the default page size' at {PHRASE_LOWER[0]}")
        await pilot.press("n")
        await settle(app, pilot)
        assert readout(app).startswith("match 3/3")
        await pilot.press("n")  # past the last: back to the first, and said
        await settle(app, pilot)
        assert view.offsets == (0, 21)
        assert "match 1/3" in readout(app) and "wrapped to the first match" in readout(app)
        await pilot.press("N")  # before the first: the last
        await settle(app, pilot)
        assert view.offsets == (PHRASE_LOWER[1], PHRASE_LOWER[1] + 21)
        assert "match 3/3" in readout(app) and "wrapped to the last match" in readout(app)
        assert "wrapped to the last match" in app_said(app)
        # a capital makes it exact: only the one at 0
        await pilot.press("slash", *"The default page size", "enter")
        await settle(app, pilot)
        assert screen.matches == [0]
        assert readout(app).startswith("match 1/1 of 'The default page size' at 0")

    run_app(store, body)


def app_said(app: LabelerApp) -> list[str]:
    from tui_support import said

    return said(app)


def test_find_whole_words_toggle(store: Store) -> None:
    add_page(store, "size.html", FIND_PAGE)
    size_any = [i for i in range(len(FIND_PAGE)) if FIND_PAGE[i : i + 4].lower() == "size"]
    # "sizes" at "Page sizes" is not the whole word "size"
    sizes = FIND_PAGE.index("sizes")
    assert sizes in size_any and len(size_any) == 5

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, "size.html")
        await pilot.press("slash", *"size", "enter")
        await settle(app, pilot)
        assert screen.matches == size_any
        assert readout(app).startswith("match 1/5 of 'size'")
        await pilot.press("ctrl+t")  # whole words: the search runs again
        await settle(app, pilot)
        assert screen.matches == [m for m in size_any if m != sizes]
        assert readout(app).startswith("match 1/4 of 'size'") and "(whole words)" in readout(app)
        # the toggle works in the open box too, and says so in its prompt
        await pilot.press("ctrl+t", "slash")
        assert "whole words off" in screen.query_one("#find", Input).placeholder
        await pilot.press("ctrl+t")  # in the open box: the box stays, its prompt says so
        box = screen.query_one("#find", Input)
        assert box.display and box.has_focus and "whole words ON" in box.placeholder
        await pilot.press(*"size", "enter")
        await settle(app, pilot)
        assert len(screen.matches) == 4

    run_app(store, body)


# -- ctrl+home / ctrl+end ---------------------------------------------------------------


def test_ctrl_home_and_ctrl_end_on_a_long_page(store: Store) -> None:
    add_page(store, "long.html", LONG_PAGE)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, "long.html")
        view = screen.view
        assert view.max_scroll_y > 100
        await pilot.press("ctrl+end")
        await settle(app, pilot)
        assert view.cursor_offset == len(LONG_PAGE) and view.offsets[0] == len(LONG_PAGE)
        assert view.scroll_y == view.max_scroll_y
        await pilot.press("ctrl+home")
        await settle(app, pilot)
        assert view.offsets == (0, 0)
        assert view.scroll_y == 0

    run_app(store, body)


# -- brought into view: the middle third ----------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_palette_go_to_question_centres_the_element(store: Store, size: tuple[int, int]) -> None:
    seed_long(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"go to question q1")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, PageScreen) and screen.document_id == "long.html"
        assert screen.view.offsets == (ELEMENT_START, ELEMENT_START)
        if size[0] == 80:  # the question bar wraps: the pane is shorter than at one line
            assert screen.query_one("#question-bar").size.height == 2
        assert_in_middle_third(screen.view, ELEMENT)

    run_app(store, body, size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_enter_in_questions_list_then_brackets_centre(store: Store, size: tuple[int, int]) -> None:
    seed_long(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        await pilot.press("enter")  # q1, the first row
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, PageScreen) and screen.document_id == "long.html"
        assert_in_middle_third(screen.view, ELEMENT)
        await pilot.press("right_square_bracket")
        await settle(app, pilot)
        assert screen.view.offsets == (SECOND_START, SECOND_START + len(SECOND))
        assert_in_middle_third(screen.view, SECOND)
        await pilot.press("left_square_bracket")
        await settle(app, pilot)
        assert screen.view.offsets == (ELEMENT_START, ELEMENT_END)
        assert_in_middle_third(screen.view, ELEMENT)

    run_app(store, body, size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_find_match_is_centred(store: Store, size: tuple[int, int]) -> None:
    add_page(store, "long.html", LONG_PAGE)
    target = LONG_PAGE.index("Line 150")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, "long.html")
        await pilot.press("slash", *"line 150", "enter")
        await settle(app, pilot)
        assert screen.view.offsets == (target, target + 8)
        assert_in_middle_third(screen.view, "Line 150")

    run_app(store, body, size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_review_enter_centres_the_element(store: Store, size: tuple[int, int]) -> None:
    seed_long(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        app.review_question()
        await settle(app, pilot)
        await pilot.press("enter")  # the first element: long.html, line 120
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, PageScreen) and screen.document_id == "long.html"
        assert screen.view.offsets == (ELEMENT_START, ELEMENT_END)
        assert_in_middle_third(screen.view, ELEMENT)

    run_app(store, body, size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_adjudication_span_is_centred(store: Store, size: tuple[int, int]) -> None:
    make_team(store)
    add_page(store, "long.html", LONG_PAGE)
    # eight lines: more than a third of the pane at 80x24, where its start is what shows
    end = LONG_PAGE.index("Line 128") - 1
    with store.write() as s:
        for who in ("ana", "bob"):
            add_element(s, 1, "long.html", ELEMENT_START, end, annotator=who, layer=LAYER_ANNOTATOR)
            mark_done(s, 1, who)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        from labeler.tui.screens.adjudicate import AdjudicationScreen

        await pilot.press("f5")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        view = screen.view
        assert view.offsets == (ELEMENT_START, end)
        assert_in_middle_third(view, ELEMENT)

    run_app(store, body, annotator="lead", size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_go_to_question_on_the_page_on_view_centres(store: Store, size: tuple[int, int]) -> None:
    """The page already on view only moves its cursor: to the middle third too."""
    seed_long(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, "long.html")
        assert screen.view.scroll_y == 0
        app.goto_question(1)
        await settle(app, pilot)
        assert app.screen is screen and screen.view.offsets == (ELEMENT_START, ELEMENT_START)
        assert_in_middle_third(screen.view, ELEMENT)

    run_app(store, body, size=size)


def test_a_resize_keeps_the_element_in_the_middle_third(store: Store) -> None:
    """Opened at 120x36, the terminal shrunk to 80x24 (lines broken again, the question bar
    on two lines): the element selected is placed in the middle third again."""
    seed_long(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        app.review_question()
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, PageScreen)
        assert_in_middle_third(screen.view, ELEMENT)
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert screen.query_one("#question-bar").size.height == 2
        assert_in_middle_third(screen.view, ELEMENT)

    run_app(store, body, size=(120, 36))


#: the issue's reproduction: the demo gold set's wal-checkpoint element on the bundled page
WAL_ELEMENT = (
    "By default, SQLite does a checkpoint automatically when the WAL file reaches a "
    "threshold size of 1000 pages."
)


def test_the_bundled_wal_page_element_is_in_view_at_80x24(tmp_path: Path) -> None:
    """At 80x24 the palette's "Go to question" left wal.html 5196–5304 entirely out of
    view (the question bar on two lines): it is now in the middle third."""
    from labeler.pages import ingest_paths

    corpus = Path(__file__).resolve().parents[2] / "corpora" / "sqlite-docs"
    with open_store(str(tmp_path / "labels.db")) as wal_store:
        ingest_paths(wal_store, [corpus / "wal.html"])
        with wal_store.write() as s:
            gs = create_gold_set(s, "demo", "demo")
            add_query(s, gs, "wal-checkpoint", LONG_QUESTION, actor="seed")
            query = s.exec(select(Query).where(Query.external_id == "wal-checkpoint")).one()
            assert query.id is not None
            doc = s.exec(select(Document)).one()
            assert doc.text[5196:5304] == WAL_ELEMENT
            add_element(s, query.id, doc.id, 5196, 5304, annotator="ana")

        async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press(*"go to question wal-checkpoint")
            await pilot.pause(0.5)
            await pilot.press("enter")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, PageScreen) and screen.view.offsets == (5196, 5196)
            assert screen.query_one("#question-bar").size.height == 2
            view = screen.view
            row, _ = view.page.to_location(5196)  # the display line the element starts on
            line = view.page.display.split("\n")[row].rstrip()
            assert_in_middle_third(view, line)

        run_app(wal_store, body, size=(80, 24))
