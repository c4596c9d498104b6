"""What a screen may rely on from the app: :class:`AppContext`.

Screens and the app's helpers never import the app class (that made the TUI one import
circle); they see the running app through this protocol. What is current lives in the
app's reactive attributes (``gold_set_id``, ``questions``, ``current_query_id``,
``assist``, ``assist_run``, ``assist_k``, ``revision``, ``data_generation``): a screen reads
them when it draws and watches them (``self.watch(self.app, "revision", ...)``) to redraw
when they change. ``revision`` also goes up when another process changed the database
(:mod:`labeler.tui.live`), so watching it keeps a screen live.
The services are the store's verbs, run through :meth:`AppContext.db`, and the app's
moves between screens (open a page, a question, the review, a mode).

:class:`labeler.tui.app.LabelerApp` implements it (checked by mypy where the app hands
itself out as one).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import Worker

from labeler.store import ElementRow, QuestionRow, RunSummary, Store

T = TypeVar("T")


class AppContext(Protocol):
    """The running app as its screens see it: reactive state, services and navigation."""

    # -- who and where (set at start-up) --------------------------------------------------

    #: the annotator labelling (audit actor, blind view)
    annotator: str
    #: their role (labeler.store.roles): ``annotator``, ``lead`` or ``owner``
    role: str
    #: the corpus to ingest on a first run (None: none given)
    corpus: Path | None
    #: the gold set asked for on the command line (None: the last one labelled)
    wanted_gold_set: str | None
    #: the name of the gold set being labelled
    gold_set_name: str
    #: the stored runs (assist mode, the palette)
    runs: list[RunSummary]

    # -- reactive state (watch these) -----------------------------------------------------

    #: the gold set being labelled
    gold_set_id: int | None
    #: its questions in creation order, with n_gold and who labelled them
    questions: tuple[QuestionRow, ...]
    #: the question every screen shows and every attach goes to
    current_query_id: int | None
    #: assist mode: a run's chunks beside the page, new elements recorded as assisted
    assist: bool
    #: bumped after every committed write, this app's or (see ``data_generation``) another
    #: process's; screens showing stored rows re-read them
    revision: int
    #: bumped when another process changed the database (:mod:`labeler.tui.live`)
    data_generation: int
    #: the run assist mode shows
    assist_run: RunSummary | None
    #: how many of its chunks assist mode shows
    assist_k: int

    @property
    def team(self) -> bool:
        """The gold set being labelled is a team gold set."""
        ...

    @property
    def may_lead(self) -> bool:
        """The annotator may do what needs the lead role (adjudicate, delete questions):
        screens offer those keys and palette entries only then."""
        ...

    @property
    def current_question(self) -> QuestionRow | None:
        """The question elements are attached to."""
        ...

    @property
    def screen(self) -> Screen[object]:
        """The screen on view."""
        ...

    @property
    def database(self) -> str:
        """The database as messages name it (its password masked), for empty states."""
        ...

    # -- services -------------------------------------------------------------------------

    def db(
        self,
        job: Callable[[Store], T],
        done: Callable[[T], None] | None = None,
        *,
        what: str,
    ) -> Worker[None]:
        """Run ``job(store)`` (one verb call) in a thread, in request order; then
        ``done(result)`` on the event loop. Errors become notifications."""
        ...

    def changed(self) -> None:
        """Call after every committed write: screens re-read their rows, counts reload."""
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

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], None] | None = ...) -> Any:
        """Show ``screen`` above the current one; ``callback`` gets its result."""
        ...

    def pop_screen(self) -> Any:
        """Close the screen on view."""
        ...

    def switch_screen(self, screen: Screen[Any]) -> Any:
        """Replace the screen on view with ``screen``."""
        ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run ``callback`` on the event loop from a worker thread."""
        ...

    # -- gold sets and questions ----------------------------------------------------------

    def select_gold_set(self, gold_set_id: int, name: str) -> None:
        """Make ``name`` the gold set being labelled and reload its questions."""
        ...

    def open_gold_set(self, name: str) -> None:
        """Switch to the gold set called ``name``."""
        ...

    def step_question(self, delta: int) -> QuestionRow | None:
        """Move to the next (``delta=1``) or previous question; returns the new one."""
        ...

    def goto_question(self, query_id: int) -> None:
        """Make ``query_id`` current and open its first element's page."""
        ...

    def open_question(self, query_id: int) -> None:
        """Open the page of ``query_id``'s first element."""
        ...

    # -- screens --------------------------------------------------------------------------

    def open_page(self, document_id: str, position: int | None = None) -> None:
        """Show ``document_id`` with the cursor at ``position``."""
        ...

    def open_element(self, element: ElementRow) -> None:
        """Show ``element`` selected on its page (the page on view when it is that page)."""
        ...

    def review_question(self) -> None:
        """Show every element of the current question on every page."""
        ...

    def show_mode(self, mode: str) -> None:
        """Show ``mode``'s own list (``questions``, ``documents``, ``scores``)."""
        ...

    # -- assist mode ----------------------------------------------------------------------

    def toggle_assist(self) -> None:
        """Turn assist mode on or off."""
        ...

    def choose_assist_run(self, run_id: int) -> None:
        """Make the stored run ``run_id`` the one assist mode shows."""
        ...

    def refresh_runs(self) -> None:
        """Re-read the stored runs."""
        ...

    # -- app-wide actions (the palette's entries) -----------------------------------------

    def action_next_unlabelled(self) -> None: ...
    def action_toggle_done(self) -> None: ...
    def action_adjudicate(self) -> None: ...
    def action_help(self) -> None: ...
    def action_undo(self) -> None: ...
    def action_redo(self) -> None: ...
