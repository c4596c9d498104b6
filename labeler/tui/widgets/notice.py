"""Notifications in a line of their own, for screens where a toast would cover the text
being labelled (the page screen): the newest one, with how many more are waiting."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.notifications import Notification, Notifications
from textual.timer import Timer
from textual.widgets import Static

#: severity → the CSS class the line takes
SEVERITY_CLASS = {"information": "-information", "warning": "-warning", "error": "-error"}


def notice_text(live: list[Notification]) -> Text:
    """The line for the live notifications, newest last: ``title: message`` of the newest
    (title bold), and ``(+N more)`` when others are still live."""
    newest = live[-1]
    line = Text()
    if newest.title:
        line.append(f"{newest.title}: ", style="bold")
    message = newest.message
    line.append_text(Text.from_markup(message) if newest.markup else Text(message))
    if len(live) > 1:
        line.append(f"  (+{len(live) - 1} more)", style="dim")
    return line


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
