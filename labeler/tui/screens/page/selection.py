"""Moving the page screen's selection: by word/sentence/block, to elements, to matches.

``w``/``s``/``b`` grow the selection to whole units and ``W``/``S``/``B`` shrink it to
the whole units inside (:mod:`labeler.tui.span_marks`, with the page's stored block starts;
a page without them goes by line breaks and says so once). ``]``/``[`` jump to the
current question's elements on this page, ``/`` searches the page and ``n``/``N`` step
through the matches (wrapping round, and saying so). The search is smart about case (a
needle in lower case matches any case, a capital makes it exact) and ``ctrl+t`` makes it
match whole words only (:func:`labeler.tui.span_marks.find_all`). Whatever is chosen here is
brought into the middle third of the pane (:meth:`PageView.bring_into_view`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.widgets import Input

from labeler.tui import span_marks
from labeler.tui.screens.page.panels import paint_spans, show_readout

if TYPE_CHECKING:
    from labeler.tui.screens.page.page_state import PageContext


def blocks(screen: PageContext, unit: str) -> list[int] | None:
    """The page's block starts for ``unit``; says once when the page has none stored."""
    if unit != "word" and screen.page.blocks is None and not screen.said_no_blocks:
        screen.said_no_blocks = True
        from labeler.extract import reports_blocks

        if screen.profile and not reports_blocks(screen.profile):
            why = f"its profile {screen.profile!r} reports no block offsets"
            fix = "ingest it with a profile that does (jsoup-1.15.3, bs4-get-text)"
        else:
            why, fix = "ingested by an older labeler", "ingest it again to store them"
        screen.notify(
            f"this page has no stored block boundaries ({why}): s and b go by line breaks; {fix}",
            severity="warning",
        )
    return screen.page.blocks


def extend(screen: PageContext, unit: str) -> None:
    """Grow the selection to word/sentence/block boundaries (the page's blocks)."""
    start, end = screen.view.offsets
    grown = span_marks.extend(
        screen.page.stored, start, end, cast("span_marks.Unit", unit), blocks(screen, unit)
    )
    screen.view.select_offsets(*grown)


def shrink(screen: PageContext, unit: str) -> None:
    """Shrink the selection to the whole words/sentences/blocks inside it."""
    start, end = screen.view.offsets
    inner = span_marks.shrink(
        screen.page.stored, start, end, cast("span_marks.Unit", unit), blocks(screen, unit)
    )
    screen.view.select_offsets(*inner)


def trim(screen: PageContext) -> None:
    """Drop surrounding whitespace from the selection."""
    screen.view.select_offsets(*span_marks.trim(screen.page.stored, *screen.view.offsets))


def step_element(screen: PageContext, delta: int) -> None:
    """Jump to the next/previous element of the current question on this page."""
    mine = screen.mine()
    if not mine:
        where = f": {screen.elsewhere}" if screen.elsewhere else ""
        screen.notify(
            f"the current question has no element on this page{where}", severity="warning"
        )
        return
    cursor = screen.view.cursor_offset
    if delta > 0:
        target = next((e for e in mine if e.start > cursor), mine[0])
    else:
        target = next((e for e in reversed(mine) if e.end < cursor), mine[-1])
    screen.show_element(target)


FIND_HINT = "find in page (lower case: any case, a capital: exact · ctrl+t: whole words {})"


def find_placeholder(whole_word: bool) -> str:
    """The find box's prompt, saying whether whole-word matching is on."""
    return FIND_HINT.format("ON" if whole_word else "off")


def toggle_whole_word(screen: PageContext) -> None:
    """``ctrl+t``: match whole words only, or any part of a word again. With the find box
    closed and a search done, the search runs again at once in the new mode."""
    screen.whole_word = not screen.whole_word
    box = screen.query_one("#find", Input)
    box.placeholder = find_placeholder(screen.whole_word)
    mode = "whole words only" if screen.whole_word else "any part of a word"
    if box.display:
        screen.notify(f"find: {mode}", timeout=2)
        return
    if screen.last_needle:
        find(screen, box, screen.last_needle)
    else:
        screen.notify(f"find: {mode}", timeout=2)


def find(screen: PageContext, box: Input, needle: str) -> None:
    """Search the page for ``needle`` (submitted in the find ``box``, which closes) and
    select the first match at or after the selection's start; none found: say so and clear the
    match colours."""
    screen.needle = screen.last_needle = needle
    screen.matches = span_marks.find_all(
        screen.page.stored, screen.needle, whole_word=screen.whole_word
    )
    box.display = False
    screen.view.focus()
    screen.match_index = -1
    if not screen.matches:
        words = " as a whole word" if screen.whole_word else ""
        screen.notify(f"{screen.needle!r} not found{words} on this page", severity="warning")
        screen.needle = ""
        paint_spans(screen)
        return
    paint_spans(screen)
    step_match(screen, 1)


def step_match(screen: PageContext, delta: int) -> None:
    """Select the next/previous match of the last search; past the last (first) one it
    wraps round to the first (last) and says so."""
    if not screen.matches:
        screen.notify("nothing to find: press / first", severity="warning", timeout=3)
        return
    n = len(screen.matches)
    screen.wrapped = ""
    if screen.match_index < 0:
        here = screen.view.offsets[0]  # a match selected stays the one (ctrl+t, say)
        after = [i for i, m in enumerate(screen.matches) if m >= here]
        screen.match_index = after[0] if after else 0
    else:
        step = screen.match_index + delta
        if step >= n:
            screen.wrapped = "wrapped to the first match"
        elif step < 0:
            screen.wrapped = "wrapped to the last match"
        screen.match_index = step % n
    if screen.wrapped:
        screen.notify(screen.wrapped, timeout=2)
    m = screen.matches[screen.match_index]
    screen.view.bring_into_view(m, m + len(screen.needle))
    show_readout(screen)


def page_edge(screen: PageContext, delta: int) -> None:
    """The cursor to the start (``delta`` < 0) or the end of the page, scrolled to it (the
    selection is dropped)."""
    view = screen.view
    if delta < 0:
        view.select_offsets(0, 0)
        view.scroll_home(animate=False, immediate=True)
    else:
        end = len(screen.page)
        view.select_offsets(end, end)
        view.scroll_end(animate=False, immediate=True)


def close_find(screen: PageContext) -> bool:
    """Hide the find box if it is open (``escape``); False when it was not."""
    box = screen.query_one("#find", Input)
    if not box.display:
        return False
    box.display = False
    screen.view.focus()
    return True
