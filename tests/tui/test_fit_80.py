"""The page screen at 80x24 and 120x36 (issue 22, "80 columns"): the footer keeps the
labelling keys and esc with no key cut, the readout never cuts a hint mid-word, and a
notification gets a line of its own instead of covering the page text.

Pilot tests on a real SQLite file (see ``tui_support``).
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey
from tui_support import PAGE, run_app, settle

from labeler.store import Store
from labeler.tui.app import LabelerApp
from labeler.tui.fit import fit_parts
from labeler.tui.screens.page import PageScreen
from labeler.tui.widgets.row_table import RowTable

FR = "FR-001: The index is never the source of record."


async def open_policy(app: LabelerApp, pilot: Pilot[int]) -> PageScreen:
    await pilot.press("f2")
    await settle(app, pilot)
    screen = PageScreen("policy.html")
    await app.push_screen(screen)
    await settle(app, pilot)
    return screen


def footer(app: LabelerApp) -> tuple[list[str], list[FooterKey]]:
    """The descriptions of the footer's keys left to right, and the keys cut by the edge
    (drawn only in part)."""
    width = app.size.width
    keys = sorted(app.screen.query(FooterKey), key=lambda k: k.region.x)
    shown = [k for k in keys if k.display and k.region.width]
    cut = [k for k in shown if k.region.right > width]
    return [k.description for k in shown], cut


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_page_footer_keeps_labelling_keys_and_esc_whole(
    store: Store, size: tuple[int, int]
) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await open_policy(app, pilot)
        names, cut = footer(app)
        assert not cut, [k.description for k in cut]
        assert names[:4] == [
            "Attach",
            "Next Q",
            "Unlabelled" if size[0] < 110 else "Next unlabelled",
            "Remove",
        ]
        for wanted in ("Grade", "Find", "Back"):
            assert wanted in names, names
        assert ("Elem" if size[0] < 110 else "Next element") in names
        # no two keys overlap, and the palette key is whole at the right edge
        keys = sorted(app.screen.query(FooterKey), key=lambda k: k.region.x)
        drawn = [k for k in keys if k.display and k.region.width]
        for left, right in pairwise(drawn):
            assert left.region.right <= right.region.x
        assert drawn[-1].has_class("-command-palette") and drawn[-1].region.right <= size[0]

    run_app(store, body, size=size)


def test_other_screens_footer_never_cuts_a_key(store: Store) -> None:
    """The questions list at 120 columns used to end in ``f2 Ques▏``."""

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        for width in (80, 100, 120, 160):
            await pilot.resize_terminal(width, 30)
            await settle(app, pilot)
            names, cut = footer(app)
            assert not cut, (width, [k.description for k in cut])
            assert names, width

    run_app(store, body, size=(120, 36))


def readout(app: LabelerApp) -> str:
    return str(app.screen.query_one("#readout", Static).render())


def test_readout_at_80_columns_keeps_whole_hints(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_policy(app, pilot)
        width = screen.query_one("#readout").size.width - 2  # its padding
        # the cursor: where it is, then as much of the selection hint as fits whole
        screen.view.select_offsets(3, 3)
        await settle(app, pilot)
        line = readout(app)
        assert len(line) <= width, line
        assert line == f"cursor 3 of {len(PAGE)}  ·  select: shift+arrows, w/s/b, W/S/B, t"
        # an element under the cursor: its grade in words, the legend shortened
        start = PAGE.index(FR)
        screen.view.select_offsets(start, start + len(FR))
        await pilot.press("a")
        await settle(app, pilot)
        screen.view.select_offsets(start + 3, start + 3)
        await settle(app, pilot)
        line = readout(app)
        assert len(line) <= width, line
        assert line.startswith(f"{start}–{start + len(FR)}  ·  g1 relevant")
        # every part is whole: each one is one of the forms the readout offers
        for part in line.split("  ·  "):
            assert part in {
                f"{start}–{start + len(FR)}",
                "g1 relevant: supports or completes the answer",
                "g1 relevant",
                "1-3: grade",
                "1-3: 1 relevant · 2 important · 3 essential",
                "K: key clause",
                "K on a selection inside: key clause",
            }, part
        # wider: the long forms come back
        await pilot.resize_terminal(160, 36)
        await settle(app, pilot)
        assert "1-3: 1 relevant · 2 important · 3 essential" in readout(app)

    run_app(store, body, size=(80, 24))


def test_a_notification_on_the_page_has_a_line_of_its_own(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_policy(app, pilot)
        start = PAGE.index(FR)
        screen.view.select_offsets(start, start + len(FR))
        await pilot.press("a")
        await settle(app, pilot)
        notice = screen.query_one("#notice")
        assert notice.display and "saved" in str(notice.render())
        # under the page, above the readout: the page's region ends where it begins
        page = screen.view.region
        assert notice.region.y >= page.bottom
        assert notice.region.bottom <= screen.query_one("#readout").region.y
        # no toast anywhere on this screen
        assert not list(screen.query("Toast"))
        app.clear_notifications()
        await settle(app, pilot)
        assert not notice.display

    run_app(store, body, size=(80, 24))


def test_fit_parts_drops_whole_parts_in_order() -> None:
    parts = ["12–40", ["g2 important: a main part", "g2 important"], "tail"]
    assert fit_parts(parts, 80) == "12–40  ·  g2 important: a main part  ·  tail"
    # 5 + 5 + 12 = 22: the short form, and "tail" no longer fits (22 + 5 + 4 = 31 > 25)
    assert fit_parts(parts, 25) == "12–40  ·  g2 important"
    assert fit_parts(parts, 8) == "12–40"
    # the first part alone, in its shortest form, even when it is too long
    assert fit_parts([["abcdefgh", "abcd"]], 2) == "abcd"
    assert fit_parts(parts, 0) == "12–40  ·  g2 important: a main part  ·  tail"


@pytest.mark.parametrize("width", [80, 120])
def test_questions_list_gives_the_question_text_half_the_width(store: Store, width: int) -> None:
    """Long ids and many annotators used to squeeze the question to ~28 of 80 columns."""
    from labeler.store import add_query, attach_element, get_gold_set

    long_text = "What does the register say about who approves [exceptions] to the policy?"
    with store.write() as s:
        gs = get_gold_set(s, "demo")
        add_query(s, gs, "a-rather-long-question-id-42", long_text, actor="seed")
        for n, name in enumerate(("ana", "bob", "carmen", "dmitri")):
            attach_element(s, 1, "policy.html", 7 + n, 55, annotator=name)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        table = app.screen.query_one("#questions", RowTable)
        question = list(table.columns.values())[-1]
        assert question.get_render_width(table) >= width // 2
        # every column still fits the table: nothing runs off its right edge
        total = sum(c.get_render_width(table) for c in table.columns.values())
        assert total <= table.scrollable_content_region.width
        # a cut cell ends in … ; the text is never read as markup ([exceptions] stays)
        row = [str(c) for c in table.get_row(str(3))]
        assert row[-1] == long_text
        lines = app.export_screenshot()
        assert "a-rather-" in lines and "…" in lines

    run_app(store, body, size=(width, 24))


def test_the_adjudication_screen_shows_notifications_under_its_page_pane(store: Store) -> None:
    """The lead's page pane is text being judged too: no toast over it."""
    from tui_support import make_team

    make_team(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        screen = app.screen
        notice = screen.query_one("#adj-notice")
        app.notify("q1 settled", title="saved")
        await settle(app, pilot)
        assert notice.display and str(notice.render()) == "saved: q1 settled"
        assert notice.region.y >= screen.query_one("#adj-page").region.bottom
        assert not list(screen.query("Toast"))

    run_app(store, body, annotator="lead", size=(80, 24))


def test_the_first_run_dialog_wraps_a_long_corpus_path(tmp_path: Path) -> None:
    """At 80 columns ``ingesting /a/long/path …`` was cut at the dialog's edge."""
    import asyncio

    from textual.widgets import Label

    from labeler.store import open_store
    from labeler.tui.screens.ingest import IngestScreen

    corpus = tmp_path / ("a-rather-long-folder-name-for-a-corpus-of-pages-" * 2)
    corpus.mkdir()
    app = LabelerApp(open_store(str(tmp_path / "e.db")), annotator="ana", resume=False)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await app._db_lock.acquire()  # the ingest waits: the dialog stays up
            await app.push_screen(IngestScreen(corpus))
            await pilot.pause()
            label = app.screen.query(Label).first()
            shown = app.export_screenshot()
            assert label.size.height >= 2
            # the last part of the path, whole, is on screen
            assert "for-a-corpus-of-pages-" in shown.replace("&#160;", " ")
            assert str(label.render()).endswith(f"{corpus} …")

    asyncio.run(main())


def test_a_notice_with_brackets_that_are_no_style_shows_them(store: Store) -> None:
    """An accept's message holds ``[grades 3, 2 tie: ...]``: read as Rich markup it raised
    in the notice line and the app stopped answering; it is text, as in a toast."""

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_policy(app, pilot)
        app.notify("accepted 7–55 g2 [grades 3, 2 tie: final 2] into q1", title="saved")
        await settle(app, pilot)
        notice = screen.query_one("#notice")
        assert str(notice.render()) == "saved: accepted 7–55 g2 [grades 3, 2 tie: final 2] into q1"
        await pilot.press("f2")  # the app still answers
        await settle(app, pilot)
        assert not isinstance(app.screen, PageScreen)

    run_app(store, body, size=(80, 24))
