"""The footer every screen shows: Textual's, fitted to the terminal's width.

Textual's footer lays its keys out in one row and lets the last ones run off the edge, cut
mid-word (``f2 Ques▏`` at 120 columns, no ``esc`` at 80). This one keeps the screen's
order (most important first, :mod:`labeler.tui.keys`) and shows only keys that fit whole:
compact spacing below :data:`COMPACT_BELOW` columns, short labels below
:data:`SHORT_BELOW`; what is left out is in F1 and the command palette (ctrl+p).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: below this many columns keys are drawn without padding (one space between keys)
COMPACT_BELOW = 140
#: below this many columns the labels of :data:`SHORT_LABELS` are used
SHORT_BELOW = 110

#: a footer label → its short form for narrow terminals (the F1 help has the long one)
SHORT_LABELS: dict[str, str] = {
    "Next unlabelled": "Unlabelled",
    "Next in queue": "Queue",
    "Next element": "Elem",
    "+Sentence": "+Sent",
    "Add question": "Add",
    "Accept unanimous": "Agreed",
    "Questions": "Qs",
    "Documents": "Docs",
    "palette": "",
}


def key_width(key_display: str, description: str, *, compact: bool) -> int:
    """Cells one key takes in a row of the footer, its spacing included: Textual draws a
    compact key as ``key description`` and one space of margin, a padded one as
    `` key description `` with none."""
    text = cell_len(key_display) + (cell_len(description) + 1 if description else 0)
    return text + (1 if compact else 2 + (1 if description else 0))


def fitting(widths: Iterable[int], room: int) -> int:
    """How many of the keys (their widths, in order) fit whole in ``room`` cells, taken
    in order: the first key that does not fit ends the row, so the footer never shows a
    less important key in place of a more important one."""
    used = n = 0
    for width in widths:
        if used + width > room:
            break
        used += width
        n += 1
    return n


class LabelerFooter(Footer):
    """Textual's footer, fitted to the width (see the module's docstring)."""

    COMPACT_BELOW: ClassVar[int] = COMPACT_BELOW
    SHORT_BELOW: ClassVar[int] = SHORT_BELOW

    def __init__(self) -> None:
        super().__init__()
        self._laid_out_for = -1
        #: what the keys now drawn were composed from (:meth:`_signature`)
        self._composed: tuple[object, ...] | None = None
        #: a recompose is asked for and not done (the footer may be drawn empty meanwhile)
        self.recomposing = False

    def _signature(self) -> tuple[object, ...]:
        """The width and the screen's keys as the footer would show them."""
        keys = tuple(
            (key, b.binding.action, b.binding.description, b.binding.show, b.enabled, b.tooltip)
            for key, b in self.screen.active_bindings.items()
        )
        return (self._width(), keys)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Textual recomposes the footer whenever any binding may have changed (a focus
        move, a ``refresh_bindings`` after a database job): drop the keys and mount them
        again, a picture taken in between showing an empty footer. Recompose only when the
        keys to show, or the width, really changed."""
        if self._bindings_ready and self._composed == self._signature():
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.recomposing = True  # Textual's footer recomposes after the next refresh
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        """Compose again; :attr:`recomposing` is true from the moment one is asked for until
        the new keys are mounted (tests wait for it before taking a picture)."""
        try:
            await super().recompose()
        finally:
            self.recomposing = False

    def _width(self) -> int:
        return self.size.width or self.app.size.width

    def compose(self) -> ComposeResult:
        width = self._width()
        self._laid_out_for = width
        if self._bindings_ready:
            self._composed = self._signature()
        compact = width < self.COMPACT_BELOW
        self.set_reactive(Footer.compact, compact)
        self.set_class(compact, "-compact")
        short = width < self.SHORT_BELOW
        keys: list[FooterKey] = []
        palette: list[FooterKey] = []
        others: list[Widget] = []
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                if short:
                    widget.description = SHORT_LABELS.get(widget.description, widget.description)
                (palette if widget.has_class("-command-palette") else keys).append(widget)
            else:
                others.append(widget)
        room = width
        for key in palette:  # docked right behind a one-cell border
            room -= 1 + key_width(key.key_display, key.description, compact=compact)
        widths = [key_width(k.key_display, k.description, compact=compact) for k in keys]
        yield from others
        yield from keys[: fitting(widths, room)]
        yield from palette

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._laid_out_for:
            self.recomposing = True
            self.call_after_refresh(self.recompose)
