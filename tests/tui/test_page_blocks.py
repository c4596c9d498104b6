"""Pilot tests: ``b`` and ``s`` follow the page's structure (stored block starts).

The page is a real corpus page ingested for real (corpora/sqlite-docs/rowidtable.html);
expected selections are copied from its HTML by hand (jsoup turns each run of whitespace,
line breaks included, into one space):

    <h2>2.0 Quirks</h2>

    <p>Rowid tables are distinguished by the fact that they all have
    a unique, non-NULL, signed 64-bit integer <a ...>rowid</a> that is used as
    the access key for the data in the underlying <a ...>B-tree</a> storage engine.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from tui_support import run_app, said, settle

from labeler.pages import ingest_paths
from labeler.store import Store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen
from labeler.tui.widgets.page_view import BLOCK_START

CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "sqlite-docs"
DOC = "rowidtable.html"
PARAGRAPH = (
    "Rowid tables are distinguished by the fact that they all have a unique, non-NULL, "
    "signed 64-bit integer rowid that is used as the access key for the data in the "
    "underlying B-tree storage engine."
)
HEADING = "2.0 Quirks"
# what the line-break rule gave: the heading ran into the first list item's sentence
RUN_ON = (
    "2.0 Quirks The PRIMARY KEY of a rowid table (if there is one) is usually not the true "
    "primary key for the table, in the sense that it is not the unique key used by the "
    "underlying B-tree storage engine."
)
NO_BLOCKS = "no stored block boundaries"


async def open_page(app: LabelerApp, pilot: Pilot[int], doc: str) -> PageScreen:
    screen = PageScreen(doc)
    await app.push_screen(screen)
    await settle(app, pilot)
    assert screen.loaded
    return screen


def selected(screen: PageScreen) -> str:
    start, end = screen.view.offsets
    return screen.page.stored[start:end]


def warnings(app: LabelerApp) -> list[str]:
    return [m for m in said(app) if NO_BLOCKS in m]


def test_b_selects_one_paragraph_and_s_stops_at_a_heading(store: Store) -> None:
    assert ingest_paths(store, [CORPUS / DOC]).added_ids == (DOC,)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, DOC)
        text = screen.page.stored
        assert screen.page.blocks  # stored at ingest
        at = text.index("distinguished")
        screen.view.select_offsets(at, at)
        await pilot.press("b")
        assert selected(screen) == PARAGRAPH
        at = text.index("Quirks")
        screen.view.select_offsets(at, at)
        await pilot.press("s")
        assert selected(screen) == HEADING
        await pilot.press("B")  # shrink to the whole blocks inside: the heading itself
        assert selected(screen) == HEADING
        assert warnings(app) == []

    run_app(store, body)


def test_page_without_stored_blocks_falls_back_and_says_so_once(store: Store) -> None:
    ingest_paths(store, [CORPUS / DOC])
    with store.engine.connect() as conn, conn.begin():  # as if ingested before version 6
        conn.exec_driver_sql("UPDATE document SET blocks = NULL")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, DOC)
        text = screen.page.stored
        at = text.index("Quirks")
        screen.view.select_offsets(at, at)
        await pilot.press("s")
        assert selected(screen) == RUN_ON
        await pilot.press("b")
        assert selected(screen) == text  # one line: the whole page
        await pilot.press("w", "S", "s")
        assert len(warnings(app)) == 1

    run_app(store, body)


def test_block_starts_are_marked_without_touching_the_text(store: Store) -> None:
    ingest_paths(store, [CORPUS / DOC])

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, DOC)
        view, page = screen.view, screen.page
        assert view.holds_exactly()

        def styles_at(offset: int) -> list[object]:
            row, column = page.to_location(offset)
            line = view.get_line(row)
            return [s.style for s in line.spans if s.start <= column < s.end]

        for first in (HEADING, PARAGRAPH):
            assert BLOCK_START in styles_at(page.stored.index(first))
        for inside in ("Quirks", "distinguished", "storage engine."):
            assert BLOCK_START not in styles_at(page.stored.index(inside))

    run_app(store, body)


def test_a_profile_without_block_offsets_is_named(store: Store, tmp_path: Path) -> None:
    """A page of a profile that reports no block offsets (the test plugin's ``test-shout``,
    an entry point): s and b fall back to line breaks, and the notice names the profile."""
    page = tmp_path / "p.html"
    page.write_bytes(b"<p>One two.</p>\n<p>Three.</p>")
    assert ingest_paths(store, [page], profile="test-shout").added_ids == ("p.html",)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, "p.html")
        assert screen.page.blocks is None
        screen.view.select_offsets(4, 4)
        await pilot.press("b")
        assert selected(screen) == "<P>ONE TWO.</P>"  # the line
        (message,) = warnings(app)
        assert "its profile 'test-shout@1.2.0' reports no block offsets" in message
        assert "older labeler" not in message

    run_app(store, body)


def test_b_follows_the_bs4_profiles_blocks(store: Store) -> None:
    assert ingest_paths(store, [CORPUS / DOC], profile="bs4-get-text").added_ids == (DOC,)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, DOC)
        text = screen.page.stored
        assert screen.page.blocks
        at = text.index("distinguished")
        screen.view.select_offsets(at, at)
        await pilot.press("b")
        # BeautifulSoup keeps the HTML's line breaks inside the paragraph (module docstring)
        assert selected(screen) == (
            "Rowid tables are distinguished by the fact that they all have\n"
            "a unique, non-NULL, signed 64-bit integer rowid that is used as\n"
            "the access key for the data in the underlying B-tree storage engine."
        )
        assert warnings(app) == []

    run_app(store, body)
