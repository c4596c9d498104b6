"""Fitting the terminal (issue 11, section 5): display lines follow the page pane's width
(and its resizes) with the 1:1 offset mapping kept; the 80x24 layout.

Pilot tests on a real SQLite file (see ``tui_support``).
"""

from __future__ import annotations

from itertools import pairwise

from textual.pilot import Pilot
from tui_support import run_app, settle

from labeler.store import Store, upsert_document
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen

#: one long line (jsoup's text of a page is a single line): 60 words of 4 to 9 letters
WORDS = [("abcdefghi"[: 4 + i % 6]) for i in range(60)]
LONG = " ".join(WORDS)


async def open_long(app: LabelerApp, pilot: Pilot[int]) -> PageScreen:
    screen = PageScreen("long.txt")
    await app.push_screen(screen)
    await settle(app, pilot)
    assert screen.loaded
    return screen


def rows_of(screen: PageScreen) -> list[str]:
    return screen.view.text.split("\n")


def test_display_lines_follow_the_pane_width_and_its_resizes(store: Store) -> None:
    with store.write() as s:
        upsert_document(s, doc_id="long.txt", source_path="l", sha256="l", profile="t", text=LONG)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_long(app, pilot)
        view = screen.view
        at = LONG.index("abcdefghi", 300)
        view.select_offsets(at, at + 9)
        for size in [(120, 36), (160, 36), (80, 24), (120, 36)]:
            await pilot.resize_terminal(*size)
            await settle(app, pilot)
            # the cells a line may use: left of the scrollbar, minus the cursor's cell
            width = view.content_size.width - 2 - 1
            rows = rows_of(screen)
            # Every line fits (no soft wrap), and lines use the room: no line could have
            # taken the next row's first word.
            assert max(len(r) for r in rows) <= width <= view.wrap_width, size
            for row, following in pairwise(rows):
                assert len(row) + 1 + len(following.split(" ")[0]) > width, (size, row)
            assert view.wrapped_document.height == len(rows), size
            # The mapping is still 1:1 and the selection is the same stored span.
            assert view.text.replace("\n", " ") == LONG
            assert view.offsets == (at, at + 9)
            assert LONG[slice(*view.offsets)] == "abcdefghi"

    run_app(store, body)


def footer_keys(app: LabelerApp) -> list[str]:
    """The footer's key descriptions left to right, only those wholly on screen."""
    from textual.widgets._footer import FooterKey

    width = app.size.width
    keys = sorted(app.screen.query(FooterKey), key=lambda k: k.region.x)
    return [k.description for k in keys if k.region.width and k.region.right <= width]


def test_80x24_page_pane_is_wider_panel_shrinks_then_folds_footer_keys_first(
    store: Store,
) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        assert footer_keys(app)[:3] == ["Unlabelled", "Filter", "Add"]  # short labels
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        # the page had 34 columns next to a fixed 44-column panel; now two thirds
        assert screen.view.size.width >= 45
        side = screen.query_one("#side")
        assert side.display and side.size.width < 44
        assert footer_keys(app)[:4] == ["Attach", "Next Q", "Unlabelled", "Remove"]
        await pilot.resize_terminal(64, 24)
        await settle(app, pilot)
        assert not side.display
        assert screen.view.size.width >= 60

    run_app(store, body, size=(80, 24))
