"""Attaching a page selection to the current question (the page view's ``a``).

The target question is fixed when the key is pressed and named in every message. The
same span twice for one question is refused (the store refuses it too); a span that
overlaps another element of the question is stored only after a y/n confirmation. In a
team gold set the element goes into the annotator's own layer and both checks look only
at their own labels (:mod:`labeler.store.blind`); an adjudicated question is refused. The
first label on a question scored from final elements made before team work says that it
is now left out of scores until adjudicated (:func:`labeler.tui.teamwork.now_pending`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from labeler.errors import NotFoundError, RemovedError
from labeler.store import (
    AttachCheck,
    Attached,
    ElementRow,
    QuestionRow,
    Store,
    attach_span,
    check_attach,
    settled_message,
)
from labeler.tui import span_marks
from labeler.tui.screens.forms import ConfirmDialog
from labeler.tui.teamwork import now_pending

if TYPE_CHECKING:
    from labeler.tui.screens.page.page_state import PageContext


def attach_selection(screen: PageContext) -> None:
    """Attach the selection to the current question (committed at once).

    The target is fixed when the key is pressed and named in every message. The same
    span twice is refused; a span overlapping another element of the question is
    stored only after a y/n confirmation.
    """
    app = screen.labeler
    q = app.current_question
    start, end = screen.view.offsets
    if q is None:
        screen.notify("no current question: add one first (F2, a)", severity="warning")
        return
    if start == end:
        screen.notify("select some text first", severity="warning", timeout=3)
        return
    if q.team and q.adjudicated:
        screen.notify(settled_message(q.external_id), title="not attached", severity="warning")
        return
    document_id, annotator = screen.document_id, app.annotator

    def check(store: Store) -> AttachCheck:
        # Duplicates and overlaps within the layer this annotator labels (their own in a
        # team gold set): another annotator's label of the same span is no concern of theirs.
        return check_attach(store, q.id, document_id, start, end, annotator)

    def checked(result: AttachCheck) -> None:
        duplicate, overlaps = result.duplicate, result.overlaps
        if duplicate is not None:
            _refuse_duplicate(screen, q, duplicate)
            return
        if not overlaps:
            _store_element(screen, q, start, end)
            return
        spans_text = ", ".join(f"{e.start}–{e.end}" for e in overlaps)

        def confirmed(yes: bool | None) -> None:
            if yes:
                _store_element(screen, q, start, end)
            else:
                screen.notify(f"not attached to {q.external_id}", timeout=3)

        app.push_screen(
            ConfirmDialog(
                f"{start}–{end} overlaps {q.external_id}'s element(s) {spans_text} on "
                f"{document_id}. Attach to {q.external_id} anyway?"
            ),
            confirmed,
        )

    app.db(check, checked, what="attach")


def _refuse_duplicate(screen: PageContext, q: QuestionRow, same: ElementRow) -> None:
    stale = " (stale: its page changed; remove it with x first)" if same.status == "stale" else ""
    screen.notify(
        f"{q.external_id} already has {same.document_id} {same.start}–{same.end}{stale}: "
        "not stored again",
        title="not attached",
        severity="warning",
        timeout=5,
    )


def _store_element(screen: PageContext, q: QuestionRow, start: int, end: int) -> None:
    app = screen.labeler
    document_id, actor, assisted = screen.document_id, app.annotator, app.assist

    def job(store: Store) -> Attached:
        with gone_as(f"question {q.external_id}"):
            return attach_span(
                store, q.id, document_id, start, end, annotator=actor, assisted=assisted
            )

    def done(result: Attached) -> None:
        row, screen.elements = result.element, result.page_elements
        screen.focused_id = row.id
        repeated = span_marks.count_occurrences(screen.page.stored, row.text) > 1
        note = " (assisted)" if row.assisted else ""
        pending = now_pending(q)  # first team work on a question with solo final labels
        screen.notify(
            f"attached to {q.external_id}: {quote(row.text)} g{row.grade}{note}  "
            f"({row.start}–{row.end})"
            + ("  ⚠ text occurs more than once" if repeated else "")
            + (f"  ·  ⚠ {pending}" if pending else ""),
            title="saved",
            severity="warning" if repeated or pending else "information",
            timeout=10 if pending else 3,
        )
        screen.refresh_all()
        app.changed()

    app.db(job, done, what=f"attach to {q.external_id}")


def quote(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters with an ellipsis."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)


@contextmanager
def gone_as(what: str) -> Iterator[None]:
    """Reword the store's "no element with id 86" (the row was removed meanwhile, by
    another annotator or an undo) in the annotator's words: ``what`` names it, and who
    removed it when the store knows (:class:`~labeler.errors.RemovedError`)."""
    try:
        yield
    except RemovedError as err:
        raise NotFoundError(
            f"{what} is no longer stored: {err.removed_by} removed it meanwhile"
        ) from err
    except NotFoundError as err:
        raise NotFoundError(f"{what} is no longer stored (removed meanwhile)") from err


def element_words(e: ElementRow) -> str:
    """An element as the annotator knows it: quoted text, page and offsets."""
    return f"{quote(e.text)} ({e.document_id} {e.start}–{e.end})"


def removed_words(question: str, e: ElementRow) -> str:
    """What a removal says: the question, the element as the annotator knows it, and how to
    get it back."""
    return (
        f"removed from {question}: {quote(e.text)} g{e.grade} "
        f"({e.document_id} {e.start}–{e.end})  ·  ctrl+z: undo"
    )
