"""What the page screen's parts rely on from the screen: :class:`PageContext`.

The page view's drawing (``panels``), selection moves (``selection``), edits
(``labelling``, :mod:`labeler.tui.attach`) and assist side (``assist_panel``) are
functions of the screen's state. They see :class:`~labeler.tui.screens.page.PageScreen`
through this protocol instead of importing it (the screen imports them), so the page
package has no import circle.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from textual.notifications import SeverityLevel
from textual.widget import Widget

from labeler.store import ElementRow
from labeler.tui.assist import AssistChunk
from labeler.tui.context import AppContext
from labeler.tui.pagemap import PageMap
from labeler.tui.widgets.page_view import PageView

W = TypeVar("W", bound=Widget)


class PageContext(Protocol):
    """The page screen's state and the few screen methods its parts call."""

    #: the page shown
    document_id: str
    #: its text broken into display lines, with its block starts
    page: PageMap
    #: the elements on it the annotator may see
    elements: list[ElementRow]
    #: the element the last action applied to (None: none)
    focused_id: int | None
    #: where the current question has elements when it has none on this page
    elsewhere: str
    #: the assist panel's chunks, with where each is on this page
    chunks: list[AssistChunk]
    chunk_index: int
    #: the last search's needle and where it occurs
    needle: str
    matches: list[int]
    match_index: int
    #: the last needle searched for (kept when nothing was found), whole words only or
    #: not (``ctrl+t``), and the wrap-round message of the last step ("" when none)
    last_needle: str
    whole_word: bool
    wrapped: str
    #: the page has been read and drawn
    loaded: bool
    #: the "no stored block boundaries" warning was given
    said_no_blocks: bool
    #: the page's extraction profile, as stored
    profile: str

    @property
    def labeler(self) -> AppContext:
        """The running app."""
        ...

    @property
    def view(self) -> PageView:
        """The page's text widget."""
        ...

    def mine(self) -> list[ElementRow]:
        """The current question's elements on this page, by start."""
        ...

    def refresh_all(self) -> None:
        """Redraw spans, question bar, panels and readout."""
        ...

    def show_element(self, element: ElementRow) -> None:
        """Select ``element`` and focus it."""
        ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
    ) -> None:
        """Show a notification."""
        ...

    def query_one(self, selector: str, expect_type: type[W]) -> W:
        """The child widget matching ``selector``, of type ``expect_type``."""
        ...
