"""The page view on a long page: what is drawn, selected and attached far down is the page.

The view wraps and draws only what is asked for (see ``PageWrapped``): these tests catch a
wrapping, a line index or a row drawn out of step with the page. Expected values come from
the generated page text itself (``str.index``), never from the view's own mapping.
"""

from __future__ import annotations

import pytest
from textual.document._document import Document
from textual.document._wrapped_document import WrappedDocument
from textual.geometry import Offset
from textual.pilot import Pilot
from textual.strip import Strip
from tui_support import run_app, settle

from labeler.store import Store, attach_element, page_elements, upsert_document
from labeler.tui.app import LabelerApp
from labeler.tui.pagemap import to_display
from labeler.tui.screens.page import PageScreen
from labeler.tui.widgets.page_view import (
    BLOCK_START,
    CURRENT,
    PLACEHOLDER,
    PageView,
    PageWrapped,
)

DOC = "long.html"


def sentence(i: int) -> str:
    return f"Requirement R{i}: the system shall log event {i} within {i % 7 + 1} seconds."


def long_page() -> str:
    """About 440 KB: paragraphs of 400 sentences; near the end a paragraph with tabs, wide
    characters and a word longer than any pane (the lines the slow wrapping path takes)."""
    paragraphs = [" ".join(sentence(i) for i in range(p, p + 400)) for p in range(0, 6000, 400)]
    odd = "Tabs\there\tand wide 漢字漢字 text, then " + "x" * 300 + " and a short end."
    paragraphs.insert(-1, odd)
    return "\n".join(paragraphs) + "\n"


LONG = long_page()


def seed_long(store: Store) -> None:
    with store.write() as s:
        upsert_document(s, doc_id=DOC, source_path=DOC, sha256="long", profile="text", text=LONG)


@pytest.mark.parametrize(("width", "tabs"), [(0, 4), (12, 4), (40, 8), (73, 4), (75, 4), (150, 2)])
def test_page_wrapping_is_upstreams_wrapping(width: int, tabs: int) -> None:
    """PageWrapped's line index, row index, breaks, tab widths and height are Textual's
    own WrappedDocument's, on the long page broken for a pane 73 columns wide (and its
    odd lines: tabs, wide characters, a word longer than the width)."""
    document = Document(to_display(LONG, 73))
    upstream = WrappedDocument(document, width, tabs)
    ours = PageWrapped(document, 0, tabs)
    ours.wrap(width, tabs)
    assert [list(o) for o in ours._wrap_offsets] == upstream._wrap_offsets
    assert [list(o) for o in ours._tab_width_cache] == upstream._tab_width_cache
    assert ours._offset_to_line_info == upstream._offset_to_line_info
    assert [list(o) for o in ours._line_index_to_offsets] == upstream._line_index_to_offsets
    assert ours.height == upstream.height
    for y in (0, upstream.height // 2, upstream.height - 1):
        location = upstream.offset_to_location(Offset(5, y))
        assert ours.offset_to_location(Offset(5, y)) == location
        assert ours.location_to_offset(location) == upstream.location_to_offset(location)


async def open_long(app: LabelerApp, pilot: Pilot[int], position: int | None = None) -> PageScreen:
    screen = PageScreen(DOC, position=position)
    await app.push_screen(screen)
    await settle(app, pilot)
    assert screen.loaded
    return screen


def drawn_rows(view: PageView) -> list[Strip]:
    return [view.render_line(y) for y in range(view.scrollable_content_region.height)]


def test_far_down_a_sentence_found_and_attached_is_the_page_slice(store: Store) -> None:
    seed_long(store)
    wanted = sentence(5871)
    start = LONG.index(wanted)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_long(app, pilot)
        await pilot.press("slash", *"R5871:", "enter")
        await settle(app, pilot)
        assert screen.view.offsets == (LONG.index("R5871:"), LONG.index("R5871:") + 6)
        await pilot.press("s")
        assert screen.view.offsets == (start, start + len(wanted))
        await pilot.press("a")
        await settle(app, pilot)

    run_app(store, body)
    with store.session() as s:
        stored = [(e.start, e.end, e.text) for e in page_elements(s, DOC)]
    assert stored == [(start, start + len(wanted), wanted)]


def test_at_the_page_end_the_drawn_rows_are_the_page_text_and_keys_select_it(
    store: Store,
) -> None:
    seed_long(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_long(app, pilot)
        await pilot.press("ctrl+end")
        await settle(app, pilot)
        view = screen.view
        texts = [strip.text.rstrip() for strip in drawn_rows(view)]
        shown = [t for t in texts if t]
        # every drawn row is the page's text, in order, each row right after the last
        # (a line break, a space shown as one, or a wrap inside the over-long word)
        position = len(LONG) - 1 - len(LONG[:-1].rstrip().split("\n")[-1])
        position = LONG.index(shown[0], max(0, position - 20_000))
        for text in shown:
            found = LONG.index(text, position)
            assert found - position <= 1, (text, LONG[position : found + 10])
            position = found + len(text)
        assert position == len(LONG) - 1  # the last row drawn is the page's last line
        await pilot.press(*["shift+left"] * 25)
        assert view.offsets == (len(LONG) - 25, len(LONG))
        await pilot.press("a")
        await settle(app, pilot)

    run_app(store, body)
    with store.session() as s:
        stored = [(e.start, e.end, e.text) for e in page_elements(s, DOC)]
    assert stored == [(len(LONG) - 25, len(LONG), LONG[-25:])]


def test_an_element_far_down_is_drawn_highlighted_exactly(store: Store) -> None:
    seed_long(store)
    wanted = sentence(5500)
    start = LONG.index(wanted)
    with store.write() as s:
        attach_element(s, 1, DOC, start, start + len(wanted), annotator="ana")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        # the cursor two characters before the element: no selection drawn over it
        screen = await open_long(app, pilot, position=start - 2)
        assert screen.view.cursor_offset == start - 2
        rows = []
        for strip in drawn_rows(screen.view):
            marked = "".join(
                seg.text
                for seg in strip
                if seg.style is not None and seg.style.bgcolor == CURRENT.bgcolor
            )
            if marked:
                rows.append(marked)
        # a space the view shows as a line break is not drawn: rows meet at one space
        assert " ".join(rows) == wanted

    run_app(store, body)


def test_the_odd_lines_far_down_are_drawn_and_selected_exactly(store: Store) -> None:
    seed_long(store)
    word = "x" * 300
    start = LONG.index(word)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_long(app, pilot, position=LONG.index("Tabs\there"))
        view = screen.view
        strips = drawn_rows(view)
        width = view.scrollable_content_region.width
        assert all(strip.cell_length <= width for strip in strips)
        rows = [strip.text.rstrip() for strip in strips]
        # the over-long word is folded into rows of the pane's width, all of it drawn
        folded = [row for row in rows if set(row) == {"x"}]
        assert len(folded) == -(-300 // len(folded[0])) > 1
        assert sum(len(row) for row in folded) == 300
        # tabs expanded to the next multiple of 4 cells, wide characters drawn whole
        assert any(row.startswith("Tabs    here    and wide 漢字漢字") for row in rows)
        view.select_offsets(start, start)
        await pilot.press("w")
        assert view.offsets == (start, start + 300)
        await pilot.press("a")
        await settle(app, pilot)

    run_app(store, body, size=(80, 24))
    with store.session() as s:
        assert [(e.start, e.end, e.text) for e in page_elements(s, DOC)] == [
            (start, start + 300, word)
        ]


def test_block_starts_and_control_characters_far_down_are_marked(store: Store) -> None:
    """The marks are found per drawn row (by bisection): far down the page they are still
    on the block's first character and on the control character's placeholder."""
    block = LONG.index(sentence(5950))
    feed = LONG.index(sentence(5951)) - 1  # the space before it becomes a form feed
    text = LONG[:feed] + "\x0c" + LONG[feed + 1 :]
    blocks = [text.index(sentence(i)) for i in range(0, 6000, 50)]
    with store.write() as s:
        upsert_document(
            s, doc_id=DOC, source_path=DOC, sha256="b", profile="text", text=text, blocks=blocks
        )

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_long(app, pilot, position=block + 5)
        cells = [  # every drawn character with its style, row after row
            (char, seg.style)
            for strip in drawn_rows(screen.view)
            for seg in strip
            for char in seg.text
        ]
        drawn = "".join(char for char, _ in cells)
        assert drawn.count("Requirement R5950:") == 1
        first = drawn.index("Requirement R5950:")
        marked = [
            i for i, (_, style) in enumerate(cells) if style and style.color == BLOCK_START.color
        ]
        assert marked == [first]  # the one block start on screen, and nothing else
        assert drawn.count("\u240c") == 1
        style = cells[drawn.index("\u240c")][1]
        assert style is not None and style.italic and style.color == PLACEHOLDER.color
        italic = [i for i, (_, style) in enumerate(cells) if style and style.italic]
        assert italic == [drawn.index("\u240c")]

    run_app(store, body)
