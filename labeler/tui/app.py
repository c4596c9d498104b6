"""The annotator's Textual app: shared state, database jobs, modes and app-wide keys.

What is current lives in one place, reactive attributes of :class:`LabelerApp`:
``gold_set_id``, ``questions`` (with their counts), ``current_query_id``, ``assist`` and
``revision`` (bumped after every committed write). Screens never keep a copy of them: each
one watches the attributes it shows (``self.watch(app, ...)``) and redraws, or re-reads its
own rows, when they change, whether it is on screen or waiting in another mode.

Database work never runs on the event loop: :meth:`LabelerApp.db` runs a job in a thread
and hands its result back on the loop. Jobs go through one FIFO lock, so they commit in the
order the user asked for them (an attach pressed before an undo is committed first), and a
write is reported as saved only after its transaction committed. Every error becomes a
notification, never a traceback.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.worker import Worker

from labeler.errors import LabelerError
from labeler.store import (
    ElementRow,
    LastPlace,
    QuestionRow,
    RunSummary,
    Store,
    count_documents,
    create_gold_set,
    gold_set_progress,
    last_place,
    list_runs,
    redo,
    undo,
)
from labeler.store.blind import questions_for, visible_question_elements
from labeler.tui.assist import ASSIST_TOP_K
from labeler.tui.commands import LabelerCommands
from labeler.tui.screens.documents import DocumentsScreen
from labeler.tui.screens.help import HelpScreen
from labeler.tui.screens.questions import QuestionsScreen
from labeler.tui.screens.scores import ScoresScreen

T = TypeVar("T")
DEFAULT_GOLD_SET = "gold"


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
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("f1,question_mark", "help", "Help", key_display="F1/?"),
        Binding("f2", "show_mode('questions')", "Questions"),
        Binding("f3", "show_mode('documents')", "Documents"),
        Binding("f4", "show_mode('scores')", "Scores"),
        Binding("u", "next_unlabelled", "Next unlabelled", key_display="u"),
        # team gold sets only (check_action hides them elsewhere)
        Binding("D", "toggle_done", "Done", key_display="D"),
        Binding("f5", "adjudicate", "Adjudicate"),
        # TextArea swallows ctrl+z / ctrl+y even read-only: take them first.
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", priority=True),
    ]

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
        self.sub_title = f"{annotator}"
        store.on_wait = self._waiting  # a write held up by another process says so

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
        """Run ``job(store)`` in a thread (in request order); then ``done(result)`` here."""

        async def run() -> None:
            async with self._db_lock:
                try:
                    result = await asyncio.to_thread(job, self.store)
                except LabelerError as err:
                    self.notify(str(err), title=f"{what} failed", severity="error", timeout=8)
                    return
                except Exception as err:  # a bug: say so, but keep the session alive
                    self.notify(
                        f"{type(err).__name__}: {err}",
                        title=f"{what} failed (internal error)",
                        severity="error",
                        timeout=10,
                    )
                    return
                if done is not None:
                    try:
                        done(result)
                    except Exception as err:
                        self.notify(f"{type(err).__name__}: {err}", severity="error")

        return self.run_worker(run(), group="db", description=what, exit_on_error=False)

    # -- start-up -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.switch_mode("questions")
        self.db(self._load_start, self._started, what="open")

    def _load_start(self, store: Store) -> tuple[int, str, int, list[RunSummary]]:
        with store.session() as s:
            sets = gold_set_progress(s)
            n_docs = count_documents(s)
            runs = list_runs(s)
            # Resume where this annotator last labelled (the audit log knows), unless a
            # different gold set was asked for.
            place = last_place(s, self.annotator) if self.resume else None
        wanted = self.wanted_gold_set
        chosen = next((g for g in sets if g.name == wanted), None) if wanted else None
        if place is not None and (chosen is None or chosen.id == place.gold_set_id):
            chosen = next((g for g in sets if g.id == place.gold_set_id), chosen)
            self._resume_at = (
                place if chosen is not None and chosen.id == place.gold_set_id else None
            )
        if chosen is None and not wanted and sets:
            chosen = sets[0]
        if chosen is not None:
            return chosen.id, chosen.name, n_docs, runs
        with store.write() as s:
            gs = create_gold_set(s, wanted or DEFAULT_GOLD_SET)
            assert gs.id is not None
            return gs.id, gs.name, n_docs, runs

    def _started(self, result: tuple[int, str, int, list[RunSummary]]) -> None:
        gold_set_id, name, n_docs, runs = result
        self.runs = runs
        self.assist_run = runs[0] if runs else None
        self.select_gold_set(gold_set_id, name)
        if n_docs == 0 and self.corpus is not None and self.corpus.is_dir():
            from labeler.tui.screens.ingest import IngestScreen

            self.push_screen(IngestScreen(self.corpus))

    def open_gold_set(self, name: str) -> None:
        """Switch to the gold set called ``name`` (looked up in a worker)."""

        def find(store: Store) -> int | None:
            with store.session() as s:
                return next((g.id for g in gold_set_progress(s) if g.name == name), None)

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

        def load(store: Store) -> list[QuestionRow]:
            with store.session() as s:
                return questions_for(s, gold_set_id, annotator)

        def loaded(rows: list[QuestionRow]) -> None:
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("toggle_done", "adjudicate"):
            return self.team
        return True

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
        """Open the page of ``query_id``'s first element (by page, then start) at its start.
        Without elements, a page on view stays; otherwise the documents list is shown."""

        annotator = self.annotator

        def load(store: Store) -> list[ElementRow]:
            with store.session() as s:
                return visible_question_elements(s, query_id, annotator)

        def open_first(rows: list[ElementRow]) -> None:
            if self.current_query_id != query_id:
                return  # another question was chosen meanwhile
            from labeler.tui.screens.page import PageScreen

            if rows:
                self.open_page(rows[0].document_id, rows[0].start)
            elif isinstance(self.screen, PageScreen):  # label it on the page on view
                self.notify("no element yet: label this page, or F3 for another", timeout=3)
            else:
                self.show_mode("documents")
                self.notify("no element yet: pick a page for this question", timeout=3)

        self.db(load, open_first, what="open question")

    def open_page(self, document_id: str, position: int | None = None) -> None:
        """Show ``document_id`` with the cursor at ``position``: the page on view moves
        its cursor if it is that page, is replaced if it is another one, else pushed."""
        from labeler.tui.screens.page import PageScreen

        screen = self.screen
        if isinstance(screen, PageScreen) and screen.document_id == document_id:
            if position is not None and screen.loaded and 0 <= position <= len(screen.page):
                screen.view.select_offsets(position, position)
            return
        page = PageScreen(document_id, position=position)
        if isinstance(screen, PageScreen):
            self.switch_screen(page)
        else:
            self.push_screen(page)

    def action_next_unlabelled(self) -> None:
        """Make the next question without elements (after the current one, wrapping
        round) the current one. In a team gold set: the next one in the annotator's queue
        (:func:`labeler.tui.teamwork.next_in_queue`)."""
        ids = [q.id for q in self.questions]
        if not ids:
            self.notify("this gold set has no questions yet", severity="warning", timeout=3)
            return
        if self.team:
            self._next_in_queue()
            return
        here = ids.index(self.current_query_id) if self.current_query_id in ids else -1
        n = len(ids)
        for step in range(1, n + 1):
            q = self.questions[(here + step) % n]
            if q.n_gold == 0:
                self.current_query_id = q.id
                self.notify(
                    f"{q.external_id}: {q.text}", title="Next unlabelled question", timeout=3
                )
                return
        self.notify("every question has elements", timeout=3)

    def _next_in_queue(self) -> None:
        from labeler.tui.teamwork import next_in_queue, queue_left

        q = next_in_queue(self.questions, self.current_query_id)
        if q is None:
            self.notify(f"your queue is empty: nothing left for {self.annotator}", timeout=4)
            return
        self.current_query_id = q.id
        self.notify(
            f"{q.external_id}: {q.text}",
            title=f"Next in your queue ({queue_left(self.questions)} left)",
            timeout=3,
        )

    def action_toggle_done(self) -> None:
        """Mark the current question done by this annotator, or remove the mark."""
        from labeler.tui.teamwork import toggle_done_mark

        toggle_done_mark(self)

    def action_adjudicate(self) -> None:
        """Open the adjudication screen (team gold sets)."""
        from labeler.tui.screens.adjudicate import AdjudicationScreen

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
        self._reverse(undo, "undo")

    def action_redo(self) -> None:
        """Redo this annotator's latest undone change."""
        self._reverse(redo, "redo")

    def _reverse(self, fn: Callable[..., Any], name: str) -> None:
        actor = self.annotator

        def job(store: Store) -> str | None:
            with store.write() as s:
                result = fn(s, actor=actor)
                return None if result is None else str(result.describe())

        def done(message: str | None) -> None:
            if message is None:
                self.notify(f"nothing to {name}", severity="warning", timeout=3)
                return
            self.notify(message, title="saved", timeout=3)
            self.changed()

        self.db(job, done, what=name)

    def toggle_assist(self) -> None:
        """Turn assist mode (retrieval results beside the page) on or off."""
        if not self.assist and self.assist_run is None:
            self.notify(
                "no run stored: import a run first to use assist mode",
                severity="warning",
                timeout=5,
            )
            return
        self.assist = not self.assist
        if self.assist:
            run = self.assist_run.name if self.assist_run else "?"
            self.notify(
                f"assist ON (run {run}): elements you add are recorded as assisted",
                severity="warning",
                timeout=4,
            )
        else:
            self.notify("assist OFF: blind labelling", timeout=3)

    def choose_assist_run(self, run_id: int) -> None:
        """Make the stored run ``run_id`` the one assist mode shows."""
        run = next((r for r in self.runs if r.id == run_id), None)
        if run is not None:
            self.assist_run = run
            self.notify(f"assist run: {run.name}", timeout=3)

    def refresh_runs(self) -> None:
        """Re-read the stored runs (after an import in another process)."""

        def load(store: Store) -> list[RunSummary]:
            with store.session() as s:
                return list_runs(s)

        def loaded(runs: list[RunSummary]) -> None:
            self.runs = runs
            if self.assist_run is None or self.assist_run.id not in {r.id for r in runs}:
                self.assist_run = runs[0] if runs else None

        self.db(load, loaded, what="load runs")
