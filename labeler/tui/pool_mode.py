"""Pool mode: walk the current question's unjudged regions, most retrieved first.

Opened from the command palette ("Pool the runs for this question"). The pool is that of
``labeler pool`` (every stored run, depth :data:`POOL_DEPTH`) for the current question
alone; each region is shown highlighted in its page's text with some context around it.

- ``n`` judges it not relevant (an audited, undoable verb) and the next region follows;
- ``enter`` opens its page with the region selected, to narrow and attach the relevant span
  as usual (``a``); back from the page (``escape``), the question is pooled again, so a
  region the new element covers is gone and the next one follows;
- ``right`` or ``space`` skips it (until pool mode is left);
- ``u`` moves to the next question (gold order, wrapping round) that still has unjudged
  regions, and makes it the current question;
- ``escape`` goes back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from labeler.tui.widgets.footer import LabelerFooter

if TYPE_CHECKING:
    from labeler.runs import PoolReport
    from labeler.store import Store
    from labeler.tui.context import AppContext

#: the depth pool mode pools every stored run at
POOL_DEPTH = 10
#: characters of page text shown on each side of the region
CONTEXT = 200


class PoolScreen(Screen[None]):
    """One question's pool, one region at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "not_relevant", "Not relevant"),
        Binding("enter", "label", "Label in page"),
        Binding("right,space", "skip", "Skip"),
        Binding("u", "next_question", "Next unjudged Q"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, report: PoolReport, query_id: int) -> None:
        super().__init__()
        self.query_id = query_id
        self.skipped: set[tuple[str, int, int]] = set()
        self.labelling = False
        self.take(report)

    def take(self, report: PoolReport) -> None:
        """Walk ``report``'s (one question's) regions from the first not skipped."""
        self.report = report
        regions = report.questions[0].regions if report.questions else []
        self.regions = [g for g in regions if (g.doc, g.start, g.end) not in self.skipped]
        self.at = 0

    def compose(self) -> ComposeResult:
        yield Static(id="pool-head")
        yield Static(id="pool-region")
        yield LabelerFooter()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the region at ``self.at``, or say the pool is judged."""
        head = self.query_one("#pool-head", Static)
        body = self.query_one("#pool-region", Static)
        qid = self.report.questions[0].query_id if self.report.questions else "?"
        if self.at >= len(self.regions):
            head.update(f"{qid}: pool of {', '.join(self.report.runs)} at {self.report.depth}")
            body.update("no unjudged region left in the runs' top chunks")
            return
        g = self.regions[self.at]
        head.update(
            f"{qid}: region {self.at + 1} of {len(self.regions)} · {g.doc} {g.start}–{g.end} · "
            f"retrieved by {', '.join(g.runs)} (best rank {g.best_rank})"
        )
        page = self.report.pages.get(g.doc, "")
        text = Text(page[max(0, g.start - CONTEXT) : g.start], style="dim")
        text.append(page[g.start : g.end], style="reverse")
        text.append(page[g.end : g.end + CONTEXT], style="dim")
        body.update(text)

    def action_skip(self) -> None:
        if self.at < len(self.regions):
            g = self.regions[self.at]
            self.skipped.add((g.doc, g.start, g.end))
            self.at += 1
            self.show()

    def action_label(self) -> None:
        """Open the region's page with the region selected (see the module docstring)."""
        if self.at >= len(self.regions):
            return
        from labeler.tui.screens.page import PageScreen

        g = self.regions[self.at]
        self.labelling = True
        self.app.push_screen(PageScreen(g.doc, position=g.start, end=g.end))

    def on_screen_resume(self) -> None:
        if not self.labelling:
            return
        self.labelling = False  # back from the page: pool this question again
        app = cast("AppContext", self.app)
        qid = self.report.questions[0].query_id if self.report.questions else None
        if qid is None:
            return

        def retake(report: PoolReport) -> None:
            self.take(report)
            self.show()

        runs, gold_set = list(self.report.runs), app.gold_set_name
        app.db(
            lambda store: pool_runs_of(store, gold_set, runs, only=qid),
            retake,
            what="pool the runs",
        )

    def action_next_question(self) -> None:
        """The next question with unjudged regions becomes current (see the module)."""
        app = cast("AppContext", self.app)
        order = [q.external_id for q in app.questions]
        ids = {q.external_id: q.id for q in app.questions}
        here = self.report.questions[0].query_id if self.report.questions else None
        runs, gold_set = list(self.report.runs), app.gold_set_name

        def go(report: PoolReport) -> None:
            open_ = {q.query_id for q in report.questions if q.regions}
            start = order.index(here) + 1 if here in order else 0
            for external_id in order[start:] + order[:start]:
                if external_id in open_ and external_id != here:
                    break
            else:
                app.notify("no other question has unjudged regions", timeout=3)
                return
            self.query_id = ids[external_id]
            app.current_query_id = self.query_id
            self.skipped.clear()
            (question,) = [q for q in report.questions if q.query_id == external_id]
            self.take(replace(report, questions=[question]))
            self.show()

        app.db(lambda store: pool_runs_of(store, gold_set, runs), go, what="pool the runs")

    def action_not_relevant(self) -> None:
        if self.at >= len(self.regions):
            return
        app = cast("AppContext", self.app)
        g = self.regions[self.at]
        from labeler.store import mark_not_relevant

        def done(_: object) -> None:
            app.changed()
            app.notify(f"not relevant: {g.doc} {g.start}–{g.end}", timeout=2)
            self.at += 1
            self.show()

        app.db(
            lambda store: mark_not_relevant(
                store, self.query_id, g.doc, g.start, g.end, annotator=app.annotator
            ),
            done,
            what="mark a region not relevant",
        )


def pool_runs_of(
    store: Store, gold_set: str, runs: list[str], only: str | None = None
) -> PoolReport:
    """The pool of ``runs`` at :data:`POOL_DEPTH` (``only``: of that question alone)."""
    from labeler.runs import pool_runs

    return pool_runs(store, gold_set, runs, POOL_DEPTH, only=only)


def open_pool(app: AppContext) -> None:
    """Read the current question's pool over every stored run and show it (a notice when
    there is no question or no run)."""
    question = app.current_question
    if question is None:
        app.notify("no question to pool: choose one first", severity="warning", timeout=3)
        return
    runs = [r.name for r in app.runs]
    if not runs:
        app.notify("no stored run to pool: labeler run import stores one", timeout=3)
        return
    gold_set = app.gold_set_name
    app.db(
        lambda store: pool_runs_of(store, gold_set, runs, only=question.external_id),
        lambda report: app.push_screen(PoolScreen(report, question.id)),
        what="pool the runs",
    )
