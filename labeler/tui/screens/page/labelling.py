"""The page screen's edits of stored elements: grade (1-3), key clause (K), remove (x).

Each acts on the element under the cursor (or the focused one, :func:`target`), commits
in the app's job order and is audited, so ctrl+z reverses it; the saved message names
the question. Attaching a new element is :mod:`labeler.tui.attach`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.store import ElementRow, Store, grade_span, key_span, remove_span
from labeler.tui.attach import element_words, gone_as, quote, removed_words
from labeler.tui.screens.page.panels import question_name

if TYPE_CHECKING:
    from labeler.tui.screens.page.page_state import PageContext


def target(screen: PageContext) -> ElementRow | None:
    """The element an action applies to: under the cursor, else the focused one."""
    mine = screen.mine()
    cursor = screen.view.cursor_offset
    start, end = screen.view.offsets
    for e in mine:
        if e.start <= cursor <= e.end or (start, end) == (e.start, e.end):
            return e
    return next((e for e in mine if e.id == screen.focused_id), None)


def grade_target(screen: PageContext, grade: int) -> None:
    """Set the grade of the element under the cursor (or the focused one)."""
    element = target(screen)
    if element is None:
        screen.notify("put the cursor in a highlighted element first", severity="warning")
        return
    actor = screen.labeler.annotator

    def job(store: Store) -> ElementRow:
        with gone_as(element_words(element)):
            return grade_span(store, element.id, grade, actor=actor)

    def done(row: ElementRow) -> None:
        screen.focused_id = row.id
        screen.notify(
            f"{question_name(screen, row.query_id)}: {quote(row.text)} now g{row.grade}",
            title="saved",
            timeout=3,
        )
        screen.labeler.changed()

    screen.labeler.db(job, done, what="grade")


def key_target(screen: PageContext) -> None:
    """Make the selection the key clause of the current question's element holding it
    (underlined; Partial then needs it whole); with no selection, clear the key of the
    element under the cursor. Audited, so ctrl+z brings the old key back."""
    start, end = screen.view.offsets
    if start == end:
        element = target(screen)
        if element is None or element.key_start is None:
            screen.notify(
                "select the key clause inside a highlighted element, then press K",
                severity="warning",
            )
            return
        span: tuple[int | None, int | None] = (None, None)
    else:
        element = next((e for e in screen.mine() if e.start <= start and end <= e.end), None)
        if element is None:
            screen.notify(
                "a key clause lies inside one of the current question's elements: "
                "select within a highlighted element",
                severity="warning",
            )
            return
        span = (start, end)
    actor = screen.labeler.annotator

    def job(store: Store) -> ElementRow:
        with gone_as(element_words(element)):
            return key_span(store, element.id, *span, actor=actor)

    def done(row: ElementRow) -> None:
        screen.focused_id = row.id
        name = question_name(screen, row.query_id)
        if row.key_start is None or row.key_end is None:
            said = f"{name}: key clause cleared"
        else:
            clause = screen.page.stored[row.key_start : row.key_end]
            said = f"{name}: key {quote(clause)} ({row.key_start}–{row.key_end})"
        screen.notify(said, title="saved", timeout=3)
        screen.labeler.changed()

    screen.labeler.db(job, done, what="key clause")


def remove_target(screen: PageContext) -> None:
    """Remove the element under the cursor (or the focused one); ctrl+z brings it back."""
    element = target(screen)
    if element is None:
        screen.notify("put the cursor in a highlighted element first", severity="warning")
        return
    actor = screen.labeler.annotator

    def job(store: Store) -> None:
        with gone_as(element_words(element)):
            remove_span(store, element.id, actor=actor)

    def done(_: None) -> None:
        screen.focused_id = None
        screen.notify(
            removed_words(question_name(screen, element.query_id), element),
            title="saved",
            timeout=6,
        )
        screen.labeler.changed()

    screen.labeler.db(job, done, what="remove")
