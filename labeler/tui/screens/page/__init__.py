"""The page view: select exact spans of one stored page and attach them to questions.

:class:`PageScreen` (``screen``) holds the page, its elements and the keys; what it draws
is ``panels`` (span colours, question bar, elements panel, readout), ``selection`` moves
the selection (units, elements, find), ``labelling`` grades, keys and removes elements,
and ``assist_panel`` is the assist side.
"""

from __future__ import annotations

from labeler.tui.screens.page.screen import PageScreen

__all__ = ["PageScreen"]
