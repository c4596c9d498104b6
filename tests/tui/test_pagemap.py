"""Offsets never drift: PageMap against the stored text and against Textual's own TextArea."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult

from labeler.tui.pagemap import PageMap, to_display
from labeler.tui.span_marks import extend, shrink, trim
from labeler.tui.widgets.page_view import PageView

NASTY = "a\r\nb\rc\u2028d\x0ce\x85f\u2029g\vh\ni\r\n\r\nj\x00k\x1bl\x7fm\t\u00e9\U0001f600\u2028"
SEPARATORS = ["\r\n", "\r", "\n", "\u2028", "\u2029", "\x0c", "\x85", "\x0b", "\x1c", "\t"]


class ViewApp(App[None]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.page_text = text

    def compose(self) -> ComposeResult:
        yield PageView(id="page")

    def on_mount(self) -> None:
        self.query_one(PageView).show_page(PageMap(self.page_text))


def test_display_copy_has_same_length_and_only_newline_breaks() -> None:
    display = to_display(NASTY)
    assert len(display) == len(NASTY)
    assert display.splitlines() == display.split("\n")
    assert "\r" not in display and "\u2028" not in display


def test_every_offset_round_trips_on_a_page_with_every_line_ending() -> None:
    page = PageMap(NASTY)
    for offset in range(len(NASTY) + 1):
        assert page.to_offset(page.to_location(offset)) == offset


def test_textarea_holds_the_page_exactly_and_agrees_on_locations() -> None:
    """The widget (Textual's own document) maps every offset like PageMap does."""

    async def body() -> None:
        app = ViewApp(NASTY)
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            view = app.query_one(PageView)
            assert view.holds_exactly()
            doc = view.document
            for offset in range(len(NASTY) + 1):
                loc = view.page.to_location(offset)
                assert doc.get_location_from_index(offset) == loc
                assert doc.get_index_from_location(loc) == offset
            for a in range(0, len(NASTY), 3):
                for b in range(a, len(NASTY) + 1, 4):
                    view.select_offsets(a, b)
                    assert view.offsets == (a, b)
                    assert NASTY[a:b] == view.page.stored[a:b]
                    assert view.selected_text == view.page.display[a:b]

    asyncio.run(body())


pages = st.lists(
    st.one_of(st.sampled_from(SEPARATORS), st.text(min_size=0, max_size=8)), max_size=30
).map("".join)


@settings(max_examples=200, deadline=None)
@given(pages, st.data())
def test_selection_to_offsets_always_slices_the_stored_page(text: str, data: st.DataObject) -> None:
    """Any two locations give offsets whose page slice is what an element would store."""
    page = PageMap(text)
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(0, len(text)))
    start, end = page.span(page.to_location(a), page.to_location(b))
    assert (start, end) == (min(a, b), max(a, b))
    assert page.display[start:end] == to_display(text[start:end])
    for unit in ("word", "sentence", "block"):
        for fn in (extend, shrink):
            s, e = fn(text, start, end, unit)  # type: ignore[arg-type]
            assert 0 <= s <= e <= len(text)
    s, e = trim(text, start, end)
    assert text[s:e] == text[start:end].strip() or not text[start:end].strip()


@settings(max_examples=100, deadline=None)
@given(pages)
def test_rows_match_textual_document_rows(text: str) -> None:
    from textual.document._document import Document

    page = PageMap(text)
    doc = Document(page.display)
    assert doc.text == page.display
    assert doc.line_count == page.rows
    for row in range(page.rows):
        assert len(doc[row]) == page.row_length(row)


def test_one_line_pages_are_shown_in_short_lines_without_moving_offsets() -> None:
    # jsoup's page text is a single line; the display breaks it at sentence ends (space →
    # newline, same length) so the TextArea never soft-wraps a megabyte-long line.
    sentence = "The index is never the source of record. "
    stored = sentence * 30_000 + "x" * 400 + " end"
    pagemap = PageMap(stored)
    assert len(pagemap.display) == len(stored)
    assert {(a, b) for a, b in zip(stored, pagemap.display, strict=True) if a != b} == {(" ", "\n")}
    lines = pagemap.display.split("\n")
    assert max(len(line) for line in lines[:-2]) <= 76
    assert all(line.endswith(".") for line in lines[:-2])
    offset = stored.index("x")
    assert pagemap.to_offset(pagemap.to_location(offset)) == offset


@given(st.text(alphabet=st.sampled_from("ab .?!\n\r\u2028"), max_size=600))
def test_display_copy_differs_only_by_placeholders_and_breaks(stored: str) -> None:
    pagemap = PageMap(stored)
    assert len(pagemap.display) == len(stored)
    for a, b in zip(stored, pagemap.display, strict=True):
        assert a == b or (a == " " and b == "\n") or b == to_display(a)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab .?!\n"), max_size=400), st.integers(10, 120))
def test_any_width_keeps_offsets_and_lines_fit_where_spaces_allow(stored: str, width: int) -> None:
    """Lines broken for any pane width: same length, only spaces become breaks, offsets
    round-trip, and a line longer than ``width`` has no space within its first ``width``."""
    pagemap = PageMap(stored, width=width)
    assert len(pagemap.display) == len(stored)
    for a, b in zip(stored, pagemap.display, strict=True):
        assert a == b or (a == " " and b == "\n")
    for offset in range(len(stored) + 1):
        assert pagemap.to_offset(pagemap.to_location(offset)) == offset
    for line in pagemap.display.split("\n"):
        assert len(line) <= width or " " not in line[1 : width + 1]
