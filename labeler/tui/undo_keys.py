"""Undo and redo in the TUI (ctrl+z, ctrl+y): the annotator's own changes, from the
audit log (:func:`labeler.store.undo_change`, :func:`labeler.store.redo_change`), so they
survive a restart. Each runs as one write job; the message says what was reversed, or that
there was nothing to reverse."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from labeler.store import Store

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


def reverse(app: AppContext, verb: Callable[..., str | None], name: str) -> None:
    """Run ``verb`` (:func:`~labeler.store.undo_change` or
    :func:`~labeler.store.redo_change`) for the app's annotator; ``name`` is said if nothing
    was there to reverse."""
    actor = app.annotator

    def job(store: Store) -> str | None:
        return verb(store, actor=actor)

    def done(message: str | None) -> None:
        if message is None:
            app.notify(f"nothing to {name}", severity="warning", timeout=3)
            return
        app.notify(message, title="saved", timeout=3)
        app.changed()

    app.db(job, done, what=name)
