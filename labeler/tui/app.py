"""The annotator's Textual app: shared state, database jobs, modes and app-wide keys.

What is current lives in one place, reactive attributes of :class:`LabelerApp`:
``gold_set_id``, ``questions`` (with their counts), ``current_query_id``, ``assist`` and
``revision`` (bumped after every committed write). Screens never keep a copy of them: each
one watches the attributes it shows (``self.watch(app, ...)``) and redraws, or re-reads its
own rows, when they change, whether it is on screen or waiting in another mode.

Database work never runs on the event loop: :meth:`LabelerApp.db` runs a job in a thread,
in the order asked for (:mod:`labeler.tui.jobs`); every job is one call of a store verb
(the TUI opens no session or transaction itself). The app's helpers live beside it: its
keys (:mod:`~labeler.tui.app_bindings`), the gold set it opens with
(:func:`labeler.store.choose_start`), going to pages and questions
(:mod:`~labeler.tui.navigation`), undo/redo (:mod:`~labeler.tui.undo_keys`) and assist mode
(:mod:`~labeler.tui.assist_mode`).

Screens never import this class: they see the app through the protocol
:class:`labeler.tui.context.AppContext`, which this class implements.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from textual import events, on
from textual.app import App, ScreenStackError
from textual.binding import BindingType
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Input, TextArea
from textual.worker import Worker

from labeler.store import (
    ORIGIN_TUI,
    ROLE_ANNOTATOR,
    ElementRow,
    LastPlace,
    QuestionRow,
    RunSummary,
    StartChoice,
    Store,
    annotator_questions,
    choose_start,
    gold_set_id_named,
    read_role,
    redo_change,
    role_refusal,
    undo_change,
)
from labeler.tui import assist_mode, key_hold, live, navigation
from labeler.tui.app_bindings import APP_BINDINGS
from labeler.tui.assist import ASSIST_TOP_K
from labeler.tui.commands import LabelerCommands
from labeler.tui.context import AppContext
from labeler.tui.jobs import run_db_job
from labeler.tui.screens.documents import DocumentsScreen
from labeler.tui.screens.help import HelpScreen
from labeler.tui.screens.questions import QuestionsScreen
from labeler.tui.screens.scores import ScoresScreen
from labeler.tui.undo_keys import reverse
from labeler.tui.widgets.notice import NoticeLine

T = TypeVar("T")


class LabelerApp(App[int]):
    """Label exact spans of stored pages for the questions of a gold set."""

    TITLE = "labeler"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {LabelerCommands}
    MODES: ClassVar[dict[str, Any]] = {
        "questions": QuestionsScreen,
        "documents": DocumentsScreen,
        "scores": ScoresScreen,
    }
    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS

    #: the gold set being labelled
    gold_set_id: var[int | None] = var(None)
    #: its questions in creation order, with n_gold and who labelled them
    questions: var[tuple[QuestionRow, ...]] = var(())
    #: the question every screen shows and every attach goes to
    current_query_id: var[int | None] = var(None)
    #: assist mode: a run's chunks beside the page, new elements recorded as assisted
    assist: var[bool] = var(False)
    #: bumped after every committed write; screens showing stored rows re-read them
    revision: var[int] = var(0)
    #: the run assist mode shows (default: the first; the scores screen's choice after)
    assist_run: var[RunSummary | None] = var(None)
    #: how many of its chunks assist mode shows
    assist_k: var[int] = var(ASSIST_TOP_K)
    #: bumped when another process changed the database (:mod:`labeler.tui.live`); every
    #: such change bumps ``revision`` too, so screens re-read their rows
    data_generation: var[int] = var(0)

    # -- keys typed behind a key that moves the focus (labeler.tui.key_hold) -------------

    _held: list[events.Key] | None
    _hold_timer: Timer | None

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key) or event.is_forwarded:
            await super().on_event(event)
            return
        if self._held is not None:
            self._held.append(event)
            return
        target = self.focused or self.screen
        holds = self._moves_focus(event)
        await super().on_event(event)
        if holds and self._held is None:
            self._held = []
            self._hold_timer = self.set_timer(key_hold.HOLD_AT_MOST, self._release_keys)
            target.post_message(key_hold.KeyTurn())

    def _moves_focus(self, event: events.Key) -> bool:
        """Whether ``event`` runs an action of the screen or the app (which may open a
        dialog or move the focus): not a character typed into a text field, not a key of
        the focused widget's own."""
        focused = self.focused
        if isinstance(focused, Input | TextArea) and event.is_printable:
            return False
        for namespace, bindings in self.screen._modal_binding_chain:
            for binding in bindings.key_to_bindings.get(event.key, ()):
                if not binding.priority:
                    return namespace is not focused
        return False

    @on(key_hold.KeyTurn)
    def _key_turn(self) -> None:
        # The key's action ran, here, when the key came back up unhandled; what it asked
        # for (a focus, a screen) is queued behind this message: release after it.
        self.call_after_refresh(self._after_key_turn)

    async def _after_key_turn(self) -> None:
        screen = self.screen
        if isinstance(screen, key_hold.TakesEarlyKeys) and not screen.keys_ready:
            return  # the dialog's KeysReady releases them
        await self._release_keys()

    @on(key_hold.KeysReady)
    async def _keys_ready(self) -> None:
        await self._release_keys()

    async def _release_keys(self) -> None:
        """Read the held keys again, in order; one that holds again keeps the rest held."""
        held, self._held = self._held, None
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        for n, event in enumerate(held or ()):
            await self.on_event(event)
            if self._held is not None:
                self._held.extend((held or [])[n + 1 :])
                return

    def _refresh_notifications(self) -> None:
        """Notifications go to the screen's own notice line when it has one (the page
        screen: a toast there would cover the text just labelled), else to Textual's toasts."""
        try:
            lines = list(self.screen.query(NoticeLine))
        except ScreenStackError:  # no screen yet (starting, or exiting)
            lines = []
        if lines:
            self.call_later(lines[0].show, self._notifications)
            return
        super()._refresh_notifications()

    def __init__(
        self,
        store: Store,
        *,
        annotator: str,
        gold_set: str | None = None,
        corpus: Path | None = None,
        resume: bool = True,
    ) -> None:
        super().__init__()
        #: keys read while a key that may move the focus waits for its turn (key_hold)
        self._held = None
        self._hold_timer = None
        self.store = store
        self.annotator = annotator
        self.corpus = corpus
        self.wanted_gold_set = gold_set
        self.gold_set_name = ""
        self.runs: list[RunSummary] = []
        self._db_lock = asyncio.Lock()
        #: reopen the annotator's last question and page once the questions are loaded
        self.resume = resume
        self._resume_at: LastPlace | None = None
        #: whether the footer shows the team keys (D, F5) now
        self._team_keys = False
        #: the annotator's role (labeler.store.roles): read at start and with every reload
        #: of the questions; until then the footer offers nothing that needs the lead role
        self.role = ROLE_ANNOTATOR
        self.sub_title = f"{annotator}"
        store.on_wait = self._waiting  # a write held up by another process says so
        # what the app writes is audited as the TUI's: it resumes from those changes only
        store.origin = ORIGIN_TUI
        #: waits for other processes' commits (started on mount, stopped on unmount)
        self._live = live.Watcher(self, store)

    @property
    def database(self) -> str:
        """The database as messages name it (:attr:`Store.location`: password masked)."""
        return self.store.location

    def _waiting(self, message: str) -> None:
        """Show a store message about waiting for the write lock. Called from the store's
        timer thread; ``notify`` is thread-safe and does not wait for the event loop (which
        may itself be the one waiting)."""
        self.notify(message, title="database busy", severity="warning", timeout=6)

    # -- database jobs --------------------------------------------------------------------

    def db(
        self,
        job: Callable[[Store], T],
        done: Callable[[T], None] | None = None,
        *,
        what: str,
    ) -> Worker[None]:
        """Run ``job(store)`` in a thread (in request order); then ``done(result)`` here
        (see :mod:`labeler.tui.jobs`)."""
        return run_db_job(self, self.store, self._db_lock, job, done, what=what)

    # -- start-up -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.switch_mode("questions")
        self.db(self._load_start, self._started, what="open")
        self._live.start()

    def on_unmount(self) -> None:
        self._live.stop()

    # -- live updates (see labeler.tui.live) ----------------------------------------------

    def on_database_changed(self, message: live.DatabaseChanged) -> None:
        """Another process (or another window) committed: say who did what, and let every
        screen re-read what it shows. This store's own commits were redrawn already."""
        stamp = message.stamp
        if live.is_own(self.store, stamp):
            return
        if stamp.tellable_to(self.annotator):  # never another annotator's blind work
            self.notify(stamp.words(), title="changed meanwhile", timeout=3)
        self.data_generation += 1
        self.changed()
        if stamp.actor is None:  # an unaudited commit: a run import, an ingest
            self.refresh_runs()

    def on_live_failed(self, message: live.LiveFailed) -> None:
        self.notify(
            f"live updates stopped: {message.reason}; trying again every "
            f"{live.RETRY_S:g} s (screens refresh after your own changes meanwhile)",
            severity="warning",
            timeout=8,
        )

    def on_live_resumed(self, _message: live.LiveResumed) -> None:
        self.notify("live updates are back", timeout=3)
        self.data_generation += 1
        self.changed()

    def _load_start(self, store: Store) -> tuple[StartChoice, str]:
        start = choose_start(store, self.annotator, self.wanted_gold_set, self.resume)
        self._resume_at = start.resume_at
        return start, read_role(store, self.annotator)

    def _started(self, loaded: tuple[StartChoice, str]) -> None:
        start, role = loaded
        self._set_role(role)
        self.runs = start.runs
        self.assist_run = start.runs[0] if start.runs else None
        self.select_gold_set(start.gold_set_id, start.name)
        if start.n_docs == 0 and self.corpus is not None and self.corpus.is_dir():
            from labeler.tui.screens.ingest import IngestScreen

            self.push_screen(IngestScreen(self.corpus))

    def open_gold_set(self, name: str) -> None:
        """Switch to the gold set called ``name`` (looked up in a worker)."""

        def find(store: Store) -> int | None:
            return gold_set_id_named(store, name)

        def found(gold_set_id: int | None) -> None:
            if gold_set_id is None:
                self.notify(f"no gold set {name!r}", severity="warning", timeout=4)
            else:
                self.select_gold_set(gold_set_id, name)

        self.db(find, found, what="open gold set")

    def select_gold_set(self, gold_set_id: int, name: str) -> None:
        """Make ``name`` the gold set being labelled and reload its questions."""
        self.gold_set_name = name
        self.sub_title = f"{name} · {self.annotator}"
        self.questions = ()
        self.current_query_id = None
        self.gold_set_id = gold_set_id
        self.reload_questions()

    def changed(self) -> None:
        """Call after every committed write: screens re-read their rows, counts reload."""
        self.revision += 1
        self.reload_questions()

    def reload_questions(self) -> None:
        """Re-read the questions of the current gold set (counts, texts, notes)."""
        gold_set_id = self.gold_set_id
        if gold_set_id is None:
            return

        annotator = self.annotator

        def load(store: Store) -> tuple[list[QuestionRow], str]:
            # the role too: a lead may change it meanwhile (one indexed lookup)
            return annotator_questions(store, gold_set_id, annotator), read_role(store, annotator)

        def loaded(found: tuple[list[QuestionRow], str]) -> None:
            rows, role = found
            self._set_role(role)
            if gold_set_id != self.gold_set_id:
                return  # another gold set was chosen meanwhile; its own load follows
            self.questions = tuple(rows)
            ids = [q.id for q in rows]
            place, self._resume_at = self._resume_at, None
            if place is not None and place.query_id in ids:
                self.current_query_id = place.query_id
                if place.document_id is not None:
                    self.open_page(place.document_id, place.position)
            if self.current_query_id not in ids:
                self.current_query_id = ids[0] if ids else None
            if self.team != self._team_keys:  # D and F5 show in team gold sets only
                self._team_keys = self.team
                self.refresh_bindings()

        self.db(load, loaded, what="load questions")

    @property
    def team(self) -> bool:
        """The gold set being labelled is a team gold set (blind layers, done marks)."""
        return any(q.team for q in self.questions)

    @property
    def may_lead(self) -> bool:
        """The annotator may do what needs the lead role (a lead, or the owner: a name
        that is not a registered annotator); the footer and palette offer it only then."""
        return self.role != ROLE_ANNOTATOR

    def _set_role(self, role: str) -> None:
        if role != self.role:
            self.role = role
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # False hides the key from the footer (and refuses it); the core refuses again
        if action == "adjudicate":
            return self.team and self.may_lead
        if action == "toggle_done":
            return self.team
        if action == "needs_lead":  # adjudicating exists in team gold sets only
            return not self.may_lead and (self.team or parameters != ("adjudicating",))
        return True

    def action_needs_lead(self, doing: str) -> None:
        """A lead's key pressed by an annotator (hidden from their footer): say the core's
        refusal, naming the role needed, instead of doing nothing."""
        self.notify(str(role_refusal(self.annotator, doing)), severity="error", timeout=6)

    # -- questions ------------------------------------------------------------------------

    @property
    def current_question(self) -> QuestionRow | None:
        """The question elements are attached to."""
        return next((q for q in self.questions if q.id == self.current_query_id), None)

    def step_question(self, delta: int) -> QuestionRow | None:
        """Move to the next (``delta=1``) or previous question; returns the new one."""
        if not self.questions:
            return None
        ids = [q.id for q in self.questions]
        index = ids.index(self.current_query_id) if self.current_query_id in ids else -1
        self.current_query_id = ids[(index + delta) % len(ids)]
        return self.current_question

    def goto_question(self, query_id: int) -> None:
        """Make ``query_id`` the current question and open its first element's page (the
        palette's "Go to question"); without elements, show the documents to pick one."""
        self.current_query_id = query_id
        q = self.current_question
        if q is not None:
            self.notify(f"{q.external_id}: {q.text}", title="Current question", timeout=3)
        self.open_question(query_id)

    def open_question(self, query_id: int) -> None:
        """Open the page of ``query_id``'s first element (see :mod:`labeler.tui.navigation`)."""
        navigation.open_question(self, query_id)

    def open_page(self, document_id: str, position: int | None = None) -> None:
        """Show ``document_id`` with the cursor at ``position`` (moved, replaced or pushed)."""
        navigation.open_page(self, document_id, position)

    def open_element(self, element: ElementRow) -> None:
        """Show ``element`` selected on its page (see :mod:`labeler.tui.navigation`)."""
        navigation.open_element(self, element)

    def review_question(self) -> None:
        """Every element of the current question on every page (``v``, the palette)."""
        from labeler.tui.screens.review import ReviewScreen

        self.push_screen(ReviewScreen())

    def action_next_unlabelled(self) -> None:
        """Make the next question without elements the current one (in a team gold set:
        the next one in the annotator's queue)."""
        navigation.next_unlabelled(self)

    def action_toggle_done(self) -> None:
        """Mark the current question done by this annotator, or remove the mark."""
        from labeler.tui.teamwork import toggle_done_mark

        toggle_done_mark(self)

    def action_adjudicate(self) -> None:
        """Open the adjudication screen (team gold sets)."""
        from labeler.tui.screens.adjudicate import AdjudicationScreen

        if not self.may_lead:  # the key is hidden then; say why if it is reached anyway
            message = str(role_refusal(self.annotator, "adjudicating"))
            self.notify(message, severity="error", timeout=6)
            return
        if not isinstance(self.screen, AdjudicationScreen):
            self.push_screen(AdjudicationScreen())

    # -- app-wide actions -----------------------------------------------------------------

    async def action_show_mode(self, mode: str) -> None:
        """Show ``mode``'s own list (F2 questions, F3 documents, F4 scores).

        A page opened from a list is pushed onto that mode's screen stack; switching back
        to the mode would show the page again, and keys typed for the list (a search)
        would reach the page as labelling keys. So every screen above the list is popped.
        """
        await self.switch_mode(mode)
        while len(self.screen_stack) > 1:
            await self.pop_screen()

    def show_mode(self, mode: str) -> None:
        """:meth:`action_show_mode` from synchronous code (palette entries, callbacks)."""
        self.call_later(self.action_show_mode, mode)

    def action_help(self) -> None:
        """Show the key bindings."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_undo(self) -> None:
        """Undo this annotator's latest change (persisted in the audit log)."""
        reverse(self, undo_change, "undo")

    def action_redo(self) -> None:
        """Redo this annotator's latest undone change."""
        reverse(self, redo_change, "redo")

    def toggle_assist(self) -> None:
        """Turn assist mode on or off (see :mod:`labeler.tui.assist_mode`)."""
        assist_mode.toggle_assist(self)

    def choose_assist_run(self, run_id: int) -> None:
        """Make the stored run ``run_id`` the one assist mode shows."""
        assist_mode.choose_assist_run(self, run_id)

    def refresh_runs(self) -> None:
        """Re-read the stored runs (after an import in another process)."""
        assist_mode.refresh_runs(self)


def _as_context(app: LabelerApp) -> AppContext:
    """The app as its screens see it (mypy checks here that it implements the protocol)."""
    return app
