"""The read-only page viewer: exact offsets, span highlights, selection by offsets.

A :class:`~textual.widgets.TextArea` fed the display copy of the page (see
:mod:`labeler.tui.pagemap`), so that every (row, column) maps to a stored offset without
drift. Spans are painted by overriding :meth:`TextArea.get_line` (Textual's documented hook
for extra styling); the selection is drawn on top of them.

Only what is on screen costs per key, whatever the page's size (a 1 MB page is about
15,000 rows): TextArea draws the rows on screen only, and here a row is drawn again only
when it can have changed (:meth:`PageView.render_line`), its marks are found by bisection,
the text is joined once per page (:attr:`PageView.text`) and the wrapping is done once per
width, fast (:class:`PageWrapped`). Tied to Textual 8.2's private ``_set_document``,
``_line_cache``, ``_render_line`` and WrappedDocument's tables; the tests compare
the wrapping with upstream's and check what is drawn and stored far down a long page.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual._cells import cell_len
from textual._wrap import compute_wrap_offsets
from textual.document._document import Document, DocumentBase
from textual.document._document_navigator import DocumentNavigator
from textual.document._wrapped_document import WrappedDocument
from textual.expand_tabs import get_tab_widths
from textual.strip import Strip
from textual.widgets import TextArea
from textual.widgets.text_area import Selection

from labeler.tui.pagemap import PLACEHOLDER_RE, PageMap
from labeler.tui.span_marks import word_bounds

CURRENT = Style(color="black", bgcolor="yellow", bold=True)
FOCUSED = Style(color="black", bgcolor="bright_green", bold=True)
OTHER = Style(color="grey70", bgcolor="grey23", underline=True)
STALE = Style(color="red", strike=True)
FOUND = Style(color="black", bgcolor="cyan")
#: an element's key clause: underlined over the element's own colours
KEY = Style(underline=True, bold=True)
PLACEHOLDER = Style(color="grey50", italic=True)
#: the first character of each stored block (paragraph, heading, item...): a faint tint
BLOCK_START = Style(color="cyan")


#: the tab widths of a line without tabs (upstream: one section, no tab after it)
_NO_TABS: tuple[int] = (0,)


class PageWrapped(WrappedDocument):
    """WrappedDocument made cheap for a page whose lines are already broken to the width.

    Upstream wraps every line with a Python word-chunking loop on each wrap (a 1 MB page:
    about 15,000 lines, ~0.25 s, and TextArea wraps three times while a screen opens:
    at width 0, before and after the scrollbar shows), and recomputes its height with a sum
    over all lines once per painted row. Here:

    - a wrap only notes the width; the lines are wrapped when the wrapping is first read
      (drawing, a cursor move), so a wrap asked for and replaced before anything is drawn
      costs nothing;
    - a line that fits (no tab, and its cells no more than the width: every line of the
      display copy but an over-long word) gets the "no break" entries directly, which is
      what upstream's ``compute_wrap_offsets`` returns for it (a test compares the two);
      other lines go through upstream's code; the lines that may not fit are found with
      loops in C;
    - a wrap is skipped when nothing in it can change: the same width and tab width as the
      last one, or every line fitting at both widths (the scrollbar showing takes two
      columns from a page broken to fit without them). The page is read-only; an edit's
      ``wrap_range`` drops these memos, as it drops the height.

    Tied to Textual 8.2's private ``_wrap_offsets``, ``_tab_width_cache``,
    ``_offset_to_line_info`` and ``_line_index_to_offsets`` (made properties here).
    """

    _cached_height: int | None = None
    _wrapped_for: tuple[int, int] | None = None
    _pending: tuple[int, int] | None = None

    def __init__(self, document: DocumentBase, width: int = 0, tab_width: int = 4) -> None:
        self._wraps: dict[str, list[Any]] = {}
        super().__init__(document, width, tab_width)

    def wrap(self, width: int, tab_width: int | None = None) -> None:
        self._width = width
        if tab_width:
            self._tab_width = tab_width
        wanted = (width, self._tab_width)
        self._pending = None if wanted == self._wrapped_for else wanted

    def _wrapping(self, name: str) -> list[Any]:
        if self._pending is not None:
            width, tab_width = self._pending
            self._pending = None
            self._wrap_fast(width, tab_width)
            self._wrapped_for = (width, tab_width)
        return self._wraps[name]

    @property
    def _wrap_offsets(self) -> list[list[int]]:
        return self._wrapping("wrap_offsets")

    @_wrap_offsets.setter
    def _wrap_offsets(self, value: list[list[int]]) -> None:
        self._wraps["wrap_offsets"] = value

    @property
    def _tab_width_cache(self) -> list[list[int]]:
        return self._wrapping("tab_widths")

    @_tab_width_cache.setter
    def _tab_width_cache(self, value: list[list[int]]) -> None:
        self._wraps["tab_widths"] = value

    @property
    def _offset_to_line_info(self) -> list[tuple[int, int]]:
        return self._wrapping("line_info")

    @_offset_to_line_info.setter
    def _offset_to_line_info(self, value: list[tuple[int, int]]) -> None:
        self._wraps["line_info"] = value

    @property
    def _line_index_to_offsets(self) -> list[list[int]]:
        return self._wrapping("line_offsets")

    @_line_index_to_offsets.setter
    def _line_index_to_offsets(self, value: list[list[int]]) -> None:
        self._wraps["line_offsets"] = value

    def _slow_lines(self, width: int) -> list[int]:
        """The lines that may not fit in ``width`` cells as they are (a tab, or more cells
        than that): the only ones whose wrapping depends on the width. Found with ``map``
        and ``compress`` (loops in C): ``len`` for ASCII lines, upstream's ``cell_len``
        for the others, which are few on most pages."""
        lines = self.document.lines
        if self._plain is None or self._plain[0] is not lines:
            indices = range(len(lines))
            tabs = list(compress(indices, map(str.__contains__, lines, repeat("\t"))))
            wide = list(compress(indices, map(operator.not_, map(str.isascii, lines))))
            self._plain = (lines, (tabs, wide))
        tabs, wide = self._plain[1]
        if not width:
            return tabs
        longer = compress(range(len(lines)), map(width.__lt__, map(len, lines)))
        slow = set(tabs)
        slow.update(i for i in longer if lines[i].isascii())
        slow.update(i for i in wide if cell_len(lines[i]) > width)
        return sorted(slow)

    #: the lines the last wraps saw, with those holding a tab and those not all ASCII
    _plain: tuple[list[str], tuple[list[int], list[int]]] | None = None
    #: the lines taken the slow way by the last wrap (None: no wrap done yet)
    _slow: list[int] | None = None

    def _wrap_fast(self, width: int, tab_width: int) -> None:
        lines = self.document.lines
        n = len(lines)
        slow = self._slow_lines(width)
        last = self._wrapped_for
        if not slow and self._slow == [] and last is not None and last[1] == tab_width:
            return  # every line fits at both widths: the wrapping is the same
        self._slow = slow
        # Tuples, not upstream's lists (which it only reads, and replaces whole on an edit):
        # the garbage collector stops tracking tuples of ints, so tens of thousands of
        # them do not lengthen every full collection (80-300 ms a time on a loaded machine)
        wrap_offsets: list[Sequence[int]] = []
        tab_widths: list[Sequence[int]] = []
        line_info: list[tuple[int, int]] = []
        line_offsets: list[Sequence[int]] = []
        y = first = 0
        for index in [*slow, n]:
            # lines first .. index - 1 fit: one row each, no tab (built in C, by zip)
            wrap_offsets += [()] * (index - first)
            tab_widths += [_NO_TABS if line else () for line in lines[first:index]]
            line_info += zip(range(first, index), repeat(0))
            line_offsets += zip(range(y, y + index - first))
            y += index - first
            if index == n:
                break
            line = lines[index]
            sections = get_tab_widths(line, tab_width)
            breaks = (
                compute_wrap_offsets(
                    line, width, tab_size=tab_width, precomputed_tab_sections=sections
                )
                if width
                else []
            )
            wrap_offsets.append(tuple(breaks))
            tab_widths.append(tuple(w for _, w in sections))
            line_info += [(index, section) for section in range(len(breaks) + 1)]
            line_offsets.append(tuple(range(y, y + len(breaks) + 1)))
            y += len(breaks) + 1
            first = index + 1
        self._wraps = {
            "wrap_offsets": wrap_offsets,
            "tab_widths": tab_widths,
            "line_info": line_info,
            "line_offsets": line_offsets,
        }
        self._cached_height = y

    def wrap_range(self, *args: object, **kwargs: object) -> None:
        self._wrapping("wrap_offsets")  # a wrap asked for first is done first
        self._cached_height = None
        self._wrapped_for = self._plain = None
        super().wrap_range(*args, **kwargs)  # type: ignore[arg-type]

    @property
    def height(self) -> int:
        self._wrapping("wrap_offsets")
        if self._cached_height is None:
            self._cached_height = sum(len(o) + 1 for o in self._wrap_offsets)
        return self._cached_height


@dataclass(frozen=True)
class Span:
    """A styled range of stored offsets."""

    start: int
    end: int
    style: Style


class PageView(TextArea):
    """Read-only, soft-wrapped view of one stored page."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            "",
            read_only=True,
            soft_wrap=True,
            show_line_numbers=False,
            highlight_cursor_line=False,
            id=id,
        )
        self.match_cursor_bracket = False
        self.page = PageMap("")
        self._spans: list[Span] = []
        self._by_row: dict[int, list[tuple[int, int, Style]]] = {}
        #: the stored offsets of control characters (drawn as placeholders), sorted
        self._placeholders: list[int] = []
        #: the span last brought into view (:meth:`bring_into_view`): placed again in the
        #: middle third when the pane is laid out anew while it is still the selection
        self._centred: tuple[int, int] | None = None

    def _set_document(self, text: str, language: str | None) -> None:
        # Upstream's plain-text branch, with PageWrapped in place of WrappedDocument (whose
        # construction and first wraps would walk every line with the slow code).
        if language:  # pragma: no cover - the page view never sets a language
            super()._set_document(text, language)
        else:
            self._highlight_query = None
            self.document = Document(text)
            self.wrapped_document = PageWrapped(self.document, tab_width=self.indent_width)
            self.navigator = DocumentNavigator(self.wrapped_document)
            self._build_highlight_map()
            # the width first: moving the cursor reads the wrapping (done at this width)
            self.wrapped_document.wrap(self.wrap_width, tab_width=self.indent_width)
            self.move_cursor((0, 0))
            self._rewrap_and_refresh_virtual_size()
        self._text = self.document.text

    @property
    def text(self) -> str:
        """The widget's whole text, joined once per document: TextArea reads it for every
        row it paints (to know whether to draw its placeholder), and joining a 1 MB
        page's lines each time cost a millisecond or more per row, per key."""
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self.load_text(value)

    # -- loading --------------------------------------------------------------------------

    def line_width(self) -> int | None:
        """Code points per display line that fit the pane (None before the first layout).

        The room left of a vertical scrollbar and the cursor's cell, whether the scrollbar
        shows or not, so that lines broken for it never wrap again, and a scrollbar coming
        or going does not change it (no re-break loop)."""
        width = self.content_size.width
        if width <= 0:
            return None
        return width - self.styles.scrollbar_size_vertical - 1

    def on_resize(self) -> None:
        """Break the page's lines again for the new width, keeping selection and spans; a
        span brought into view (and still selected) is placed in the middle third again,
        for the pane's new height too (a question bar wrapping to two lines, say)."""
        width = self.line_width()
        if width is None or width == self.page.width or not self.page.stored:
            if self._centred is not None and self._centred == self.offsets:
                self.call_after_refresh(self._centre)
            return
        anchor = self.page.to_offset(self.selection.start)
        cursor = self.page.to_offset(self.selection.end)
        self.show_page(PageMap(self.page.stored, self.page.blocks, width=width))
        self.selection = Selection(self.page.to_location(anchor), self.page.to_location(cursor))
        if self._centred is not None and self._centred == self.offsets:
            self.call_after_refresh(self._centre)
        else:
            self.scroll_cursor_visible()

    def show_page(self, page: PageMap) -> None:
        """Show ``page`` (its lines broken again if the pane's width is known and differs);
        raises ``AssertionError`` if the widget would not hold it exactly."""
        width = self.line_width()
        if width is not None and width != page.width and page.stored:
            page = PageMap(page.stored, page.blocks, width=width)
        self.page = page
        self.load_text(page.display)
        if self.text != page.display:  # the guard against offset drift (see pagemap)
            raise AssertionError("the page view does not hold the stored text exactly")
        # Where control characters (shown as placeholders) are: a search in C, and most
        # pages hold none. They and the block starts are styled per row as rows are drawn.
        self._placeholders = [found.start() for found in PLACEHOLDER_RE.finditer(page.stored)]
        self.set_spans(self._spans)  # rows moved: place the spans again

    def holds_exactly(self) -> bool:
        """True when the widget text maps 1:1 onto the stored page."""
        return self.text == self.page.display and len(self.text) == len(self.page.stored)

    # -- spans ----------------------------------------------------------------------------

    def set_spans(self, spans: list[Span]) -> None:
        """Paint ``spans`` (later ones win where they overlap)."""
        self._spans = list(spans)
        by_row: dict[int, list[tuple[int, int, Style]]] = {}
        n = len(self.page)
        for span in spans:
            start, end = max(0, min(span.start, n)), max(0, min(span.end, n))
            if end <= start:
                continue
            (r0, c0), (r1, c1) = self.page.to_location(start), self.page.to_location(end)
            for row in range(r0, r1 + 1):
                a = c0 if row == r0 else 0
                b = c1 if row == r1 else self.page.row_length(row)
                by_row.setdefault(row, []).append((a, b, span.style))
        self._by_row = by_row
        self._repaint()

    def _repaint(self) -> None:
        # The render cache key knows nothing about our spans: drop it.
        self._line_cache.clear()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        """Upstream's row, drawn again only when it can have changed.

        When soft-wrapping, upstream keys its row cache on the whole selection, so every
        row on screen is drawn again on every key that moves the cursor. A row of a line
        outside the selection's lines (the cursor's included) does not show the selection:
        it is cached here under upstream's key without it, in upstream's own cache (which
        upstream and :meth:`_repaint` clear whenever the text, wrapping or theme change)."""
        absolute_y = self.scroll_offset.y + y
        rows = self.wrapped_document._offset_to_line_info
        selection = self.selection
        top, bottom = sorted((selection.start[0], selection.end[0]))
        if not 0 <= absolute_y < len(rows) or top <= rows[absolute_y][0] <= bottom:
            return super().render_line(y)
        key = (
            "row outside the selection",
            self.size,
            self.scroll_offset.x,
            absolute_y,
            self.theme,
            self._matching_bracket_location,
            self.match_cursor_bracket,
            self.soft_wrap,
            self.show_line_numbers,
            self.read_only,
            self.show_cursor,
            self.suggestion,
        )
        if (cached := self._line_cache.get(key)) is not None:
            return cached
        line = self._render_line(y)
        self._line_cache[key] = line
        return line

    def get_line(self, line_index: int) -> Text:
        text = super().get_line(line_index)
        # the row's own placeholders and block starts, found by bisection: a row costs the
        # same on a 1 MB page as on a short one (the styling only: text and offsets stay)
        starts = self.page.line_starts
        if 0 <= line_index < len(starts):
            first = starts[line_index]
            # up to the next row's start: a mark on this row's line break is this row's
            after = starts[line_index + 1] if line_index + 1 < len(starts) else len(self.page) + 1
            for style, offsets in (
                (PLACEHOLDER, self._placeholders),
                (BLOCK_START, self.page.blocks or ()),
            ):
                for i in range(bisect_left(offsets, first), bisect_left(offsets, after)):
                    column = offsets[i] - first
                    text.stylize(style, column, column + 1)
        for a, b, style in self._by_row.get(line_index, ()):
            text.stylize(style, a, b)
        return text

    # -- selection in stored offsets ------------------------------------------------------

    @property
    def offsets(self) -> tuple[int, int]:
        """The selection as sorted stored offsets ``(start, end)``."""
        return self.page.span(self.selection.start, self.selection.end)

    @property
    def cursor_offset(self) -> int:
        """The cursor's stored offset."""
        return self.page.to_offset(self.selection.end)

    def select_offsets(self, start: int, end: int) -> None:
        """Select ``[start, end)`` of the stored page (cursor at ``end``)."""
        self.selection = Selection(self.page.to_location(start), self.page.to_location(end))

    # -- bringing a span into view ---------------------------------------------------------

    def bring_into_view(self, start: int, end: int) -> None:
        """Select ``[start, end)`` and scroll it into the middle third of the pane.

        The one way the TUI shows something it chose (an element on open, ``]``/``[``, a
        find match, the review's and the adjudication's span). The scroll is done after the
        next refresh, when the screen has been laid out with what the same change drew
        (a question bar wrapping to two lines at 80 columns makes the pane shorter), and
        again on every resize while the span stays selected. Near the page's start or end
        the scroll stops at the page's edge."""
        self.select_offsets(start, end)
        self._centred = self.offsets
        if self.scrollable_content_region.height > 0:
            self._centre()  # now, for the pane as it is (no frame at the edge first)
        self.call_after_refresh(self._centre)  # and for the pane as the change lays it out

    def _centre(self) -> None:
        if self._centred is None or self._centred != self.offsets:
            return  # the selection moved since: the user's move wins
        self.scroll_to(y=self.centred_scroll_y(*self._centred), animate=False, immediate=True)

    def centred_scroll_y(self, start: int, end: int) -> int:
        """The scroll position that puts ``[start, end)`` in the middle third of the pane:
        centred when it is at most a third of the pane high, else its first row at the top
        of the middle third (its start is what the reader looks for)."""
        height = self.scrollable_content_region.height
        first = self.wrapped_document.location_to_offset(self.page.to_location(start)).y
        last = self.wrapped_document.location_to_offset(self.page.to_location(end)).y
        rows = last - first + 1
        # rounded up, so that the first row is never above the third's edge (row h/3)
        above = (height - rows + 1) // 2 if rows * 3 <= height else (height + 2) // 3
        top = first - above
        return max(0, min(top, self.max_scroll_y))

    async def _on_click(self, event: events.Click) -> None:
        # Double-click selects a word (TextArea does not do this on its own).
        if event.chain != 2:
            await super()._on_click(event)
            return
        offset = self.page.to_offset(self.get_target_document_location(event))
        self.select_offsets(*word_bounds(self.page.stored, offset, offset))
