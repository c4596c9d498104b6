"""Going to a question's page and to the next question to label.

A question opens at the page of its first element (by page, then start); without any,
the page on view stays, else the documents list is shown to pick one. A page opened while
the same page is on view only moves the cursor; while another page is on view, it
replaces it (the back key returns to the list, not to the previous page). ``u`` goes to
the next question without elements, wrapping round; in a team gold set to the next one
in the annotator's queue (:func:`labeler.tui.teamwork.next_in_queue`). An element chosen
in the review opens its page with the element selected (:func:`open_element`).

This is the one module that opens page screens; the others ask the app (:mod:`labeler.tui.context`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.store import ElementRow, Store, seen_question_elements

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


def open_question(app: AppContext, query_id: int) -> None:
    """Open the page of ``query_id``'s first element (by page, then start) at its start.
    Without elements, a page on view stays; otherwise the documents list is shown."""

    annotator = app.annotator

    def load(store: Store) -> list[ElementRow]:
        return seen_question_elements(store, query_id, annotator)

    def open_first(rows: list[ElementRow]) -> None:
        if app.current_query_id != query_id:
            return  # another question was chosen meanwhile
        from labeler.tui.screens.page import PageScreen

        if rows:
            open_page(app, rows[0].document_id, rows[0].start)
        elif isinstance(app.screen, PageScreen):  # label it on the page on view
            app.notify("no element yet: label this page, or F3 for another", timeout=3)
        else:
            app.show_mode("documents")
            app.notify("no element yet: pick a page for this question", timeout=3)

    app.db(load, open_first, what="open question")


def open_page(app: AppContext, document_id: str, position: int | None = None) -> None:
    """Show ``document_id`` with the cursor at ``position``: the page on view moves
    its cursor if it is that page, is replaced if it is another one, else pushed."""
    from labeler.tui.screens.page import PageScreen

    screen = app.screen
    if isinstance(screen, PageScreen) and screen.document_id == document_id:
        if position is not None and screen.loaded and 0 <= position <= len(screen.page):
            screen.view.bring_into_view(position, position)
        return
    page = PageScreen(document_id, position=position)
    if isinstance(screen, PageScreen):
        app.switch_screen(page)
    else:
        app.push_screen(page)


def open_element(app: AppContext, element: ElementRow) -> None:
    """Show ``element`` selected on its page: the page on view focuses it if it is that
    page, else a page view opens with the element selected."""
    from labeler.tui.screens.page import PageScreen

    below = app.screen
    if isinstance(below, PageScreen) and below.document_id == element.document_id:
        below.show_element(element)
    else:
        app.push_screen(PageScreen(element.document_id, position=element.start, end=element.end))


def next_unlabelled(app: AppContext) -> None:
    """Make the next question without elements (after the current one, wrapping
    round) the current one. In a team gold set: the next one in the annotator's queue
    (:func:`labeler.tui.teamwork.next_in_queue`)."""
    ids = [q.id for q in app.questions]
    if not ids:
        app.notify("this gold set has no questions yet", severity="warning", timeout=3)
        return
    if app.team:
        _next_in_queue(app)
        return
    here = ids.index(app.current_query_id) if app.current_query_id in ids else -1
    n = len(ids)
    for step in range(1, n + 1):
        q = app.questions[(here + step) % n]
        if q.n_gold == 0:
            app.current_query_id = q.id
            app.notify(f"{q.external_id}: {q.text}", title="Next unlabelled question", timeout=3)
            return
    app.notify("every question has elements", timeout=3)


def _next_in_queue(app: AppContext) -> None:
    from labeler.tui.teamwork import next_in_queue, queue_left

    q = next_in_queue(app.questions, app.current_query_id)
    if q is None:
        app.notify(f"your queue is empty: nothing left for {app.annotator}", timeout=4)
        return
    app.current_query_id = q.id
    app.notify(
        f"{q.external_id}: {q.text}",
        title=f"Next in your queue ({queue_left(app.questions)} left)",
        timeout=3,
    )
