"""Command palette entries: go to a question, switch screens, toggle assist; in a team gold
set also done marks, the annotator's queue and, for a lead or the owner, adjudicate (an
annotator's palette offers only what their role may do)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from labeler.tui.pool_mode import open_pool

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


class LabelerCommands(Provider):
    """Questions of the current gold set plus the app's own commands."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = cast("AppContext", self.app)
        out: list[tuple[str, Callable[[], object], str]] = [
            ("Questions screen", partial(app.show_mode, "questions"), "F2"),
            ("Documents screen", partial(app.show_mode, "documents"), "F3"),
            ("Scores screen", partial(app.show_mode, "scores"), "F4"),
            ("Next unlabelled question", app.action_next_unlabelled, "u"),
            ("Review question", app.review_question, "every element of the current question"),
            ("Toggle assist mode", app.toggle_assist, "show a run's chunks while labelling"),
            ("Undo", app.action_undo, "ctrl+z"),
            ("Redo", app.action_redo, "ctrl+y"),
            ("Help", app.action_help, "F1"),
            (
                "Pool the runs for this question",
                partial(open_pool, app),
                "walk the regions the runs retrieve that nobody judged · n: not relevant",
            ),
        ]
        if app.team and app.may_lead:
            out.append(
                ("Adjudicate", app.action_adjudicate, "F5 · settle what the annotators chose")
            )
        if app.team:
            out += [
                ("Mark question done / not done", app.action_toggle_done, "D · your done mark"),
                ("Next in my queue", app.action_next_unlabelled, "u · assigned, not done"),
            ]
        for r in app.runs:
            out.append(
                (
                    f"Assist run: {r.name}",
                    partial(app.choose_assist_run, r.id),
                    f"assist mode shows this run's chunks ({r.questions} q)",
                )
            )
        for q in app.questions:
            out.append(
                (
                    f"Go to question {q.external_id}: {q.text}",
                    partial(app.goto_question, q.id),
                    f"n_gold {q.n_gold} · opens its first element's page",
                )
            )
        return out

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
