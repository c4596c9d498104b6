"""Notifications in a line of their own, for screens where a toast would cover the text
being labelled (the page screen): the newest one, with how many more are waiting."""

from __future__ import annotations

from typing import ClassVar

from textual.content import Content
from textual.notifications import Notification, Notifications
from textual.timer import Timer
from textual.widgets import Static

#: severity → the CSS class the line takes
SEVERITY_CLASS = {"information": "-information", "warning": "-warning", "error": "-error"}


def notice_text(live: list[Notification]) -> Content:
    """The line for the live notifications, newest last: ``title: message`` of the newest
    (title bold), and ``(+N more)`` when others are still live. The message is read as
    Textual's content markup as a toast reads it (text in brackets that is no style, such
    as ``[grades 3, 2 tie]``, stays text)."""
    newest = live[-1]
    message = Content.from_markup(newest.message) if newest.markup else Content(newest.message)
    parts: list[Content | tuple[str, str]] = []
    if newest.title:
        parts.append((f"{newest.title}: ", "bold"))
    parts.append(message)
    if len(live) > 1:
        parts.append((f"  (+{len(live) - 1} more)", "dim"))
    return Content.assemble(*parts)


class NoticeLine(Static):
    """Shown (one to three rows, the text above it reflows rather than being covered) while
    a notification is live; hidden otherwise. The app routes notifications here instead of
    to the toast rack on a screen that has one (``LabelerApp._refresh_notifications``)."""

    DEFAULT_CSS: ClassVar[str] = """
    NoticeLine {
        display: none;
        height: auto;
        max-height: 3;
        padding: 0 1;
        background: $boost;
    }
    NoticeLine.-warning { background: $warning 40%; }
    NoticeLine.-error { background: $error 40%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._timer: Timer | None = None

    def show(self, notifications: Notifications) -> None:
        """Draw the live ``notifications`` (iterating them drops the expired ones) and come
        back when the first of them expires."""
        live = list(notifications)
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.display = bool(live)
        if not live:
            return
        newest = live[-1]
        for severity, css in SEVERITY_CLASS.items():
            self.set_class(newest.severity == severity, css)
        self.update(notice_text(live))
        wait = min(n.time_left for n in live)
        self._timer = self.set_timer(max(wait, 0.0) + 0.05, self._expired)

    def _expired(self) -> None:
        self._timer = None
        self.show(self.app._notifications)
