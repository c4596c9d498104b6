"""Moving the page screen's selection: by word/sentence/block, to elements, to matches.

``w``/``s``/``b`` grow the selection to whole units and ``W``/``S``/``B`` shrink it to
the whole units inside (:mod:`labeler.tui.span_marks`, with the page's stored block starts;
a page without them goes by line breaks and says so once). ``]``/``[`` jump to the
current question's elements on this page, ``/`` searches the page and ``n``/``N`` step
through the matches (wrapping round).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.widgets import Input, Static

from labeler.tui import span_marks
from labeler.tui.screens.page.panels import paint_spans

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


def find(screen: PageContext, box: Input, needle: str) -> None:
    """Search the page for ``needle`` (submitted in the find ``box``, which closes) and
    select the first match at or after the cursor; none found: say so and clear the
    match colours."""
    screen.needle = needle
    screen.matches = span_marks.find_all(screen.page.stored, screen.needle)
    box.display = False
    screen.view.focus()
    screen.match_index = -1
    if not screen.matches:
        screen.notify(f"{screen.needle!r} not found on this page", severity="warning")
        screen.needle = ""
        paint_spans(screen)
        return
    paint_spans(screen)
    step_match(screen, 1)


def step_match(screen: PageContext, delta: int) -> None:
    """Select the next/previous match of the last search."""
    if not screen.matches:
        screen.notify("nothing to find: press / first", severity="warning", timeout=3)
        return
    if screen.match_index < 0:
        cursor = screen.view.cursor_offset
        after = [i for i, m in enumerate(screen.matches) if m >= cursor]
        screen.match_index = after[0] if after else 0
    else:
        screen.match_index = (screen.match_index + delta) % len(screen.matches)
    m = screen.matches[screen.match_index]
    screen.view.select_offsets(m, m + len(screen.needle))
    screen.query_one("#readout", Static).update(
        f"match {screen.match_index + 1}/{len(screen.matches)} of {screen.needle!r} at {m}"
    )


def close_find(screen: PageContext) -> bool:
    """Hide the find box if it is open (``escape``); False when it was not."""
    box = screen.query_one("#find", Input)
    if not box.display:
        return False
    box.display = False
    screen.view.focus()
    return True
