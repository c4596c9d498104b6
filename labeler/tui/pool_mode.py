"""Pool mode: walk the current question's unjudged regions, most retrieved first.

Opened from the command palette ("Pool the runs for this question"). The pool is that of
``labeler pool`` (every stored run, depth :data:`POOL_DEPTH`) for the current question
alone; each region is shown highlighted in its page's text with some context around it.
``n`` judges it not relevant (an audited, undoable verb) and the next region follows;
``right`` or ``space`` skips it; ``escape`` goes back. A relevant span inside a region is
attached on the page view as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

if TYPE_CHECKING:
    from labeler.runs import PoolReport
    from labeler.tui.context import AppContext

#: the depth pool mode pools every stored run at
POOL_DEPTH = 10
#: characters of page text shown on each side of the region
CONTEXT = 200


class PoolScreen(Screen[None]):
    """One question's pool, one region at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "not_relevant", "Not relevant"),
        Binding("right,space", "skip", "Skip"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, report: PoolReport, query_id: int) -> None:
        super().__init__()
        self.report = report
        self.query_id = query_id
        self.regions = list(report.questions[0].regions) if report.questions else []
        self.at = 0

    def compose(self) -> ComposeResult:
        yield Static(id="pool-head")
        yield Static(id="pool-region")
        yield Footer()

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
            self.at += 1
            self.show()

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
    from labeler.runs import pool_runs

    gold_set = app.gold_set_name
    app.db(
        lambda store: pool_runs(store, gold_set, runs, POOL_DEPTH, only=question.external_id),
        lambda report: app.push_screen(PoolScreen(report, question.id)),
        what="pool the runs",
    )
