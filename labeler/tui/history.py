"""Undo and redo in the TUI (ctrl+z, ctrl+y): the annotator's own changes, from the
audit log (:func:`labeler.store.undo`, :func:`labeler.store.redo`), so they survive a
restart. Each runs as one write job; the message says what was reversed, or that there
was nothing to reverse."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from labeler.store import Store

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp


def reverse(app: LabelerApp, fn: Callable[..., Any], name: str) -> None:
    """Run ``fn`` (undo or redo) for the app's annotator; ``name`` is said if nothing
    was there to reverse."""
    actor = app.annotator

    def job(store: Store) -> str | None:
        with store.write() as s:
            result = fn(s, actor=actor)
            return None if result is None else str(result.describe())

    def done(message: str | None) -> None:
        if message is None:
            app.notify(f"nothing to {name}", severity="warning", timeout=3)
            return
        app.notify(message, title="saved", timeout=3)
        app.changed()

    app.db(job, done, what=name)
