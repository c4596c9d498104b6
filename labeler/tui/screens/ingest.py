"""First run: ingest the bundled corpus in a worker, with a progress bar, and load the
corpus's demo gold set (``gold/demo.jsonl``) so there are questions to look at."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar

from labeler.progress import Throttled, describe
from labeler.report import plural
from labeler.store import Store, has_gold_set

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


DEMO_GOLD_SET = "demo"

#: seconds between two progress updates a job's thread posts to the screen
JOB_UPDATE_EVERY = 0.1


class IngestScreen(ModalScreen[None]):
    """Ingest ``corpus`` because the database has no pages yet, showing the files done,
    the rate and the time left (as ``labeler ingest`` does; ``clock`` times them)."""

    def __init__(self, corpus: Path, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.corpus = corpus
        self.clock = clock
        self.started = clock()

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"The database has no pages yet: ingesting {self.corpus} …")
            yield ProgressBar(id="ingest-progress", show_eta=False)
            yield Label("", id="ingest-count")
            yield Label("", id="ingest-file")

    def on_mount(self) -> None:
        app = cast("AppContext", self.app)
        corpus = self.corpus

        def report(done: int, total: int | None, path: str) -> None:
            app.call_from_thread(self._progress, done, total, path)

        progress = Throttled(report, JOB_UPDATE_EVERY)  # the loop redraws; spare it

        def job(store: Store) -> tuple[str, str | None]:
            from labeler.pages import ingest_paths

            report = ingest_paths(store, [corpus], progress=progress)
            message = f"ingested {report.added} page(s), {len(report.failed)} failed"
            return message, self._load_demo(store)

        def done(result: tuple[str, str | None]) -> None:
            message, demo = result
            self.notify(message, title="saved", timeout=5)
            if demo is not None:
                self.notify(demo, timeout=8)
            self.dismiss()
            if demo is not None and app.wanted_gold_set is None:
                app.open_gold_set(DEMO_GOLD_SET)
            else:
                app.changed()

        app.db(job, done, what="ingest")

    def _load_demo(self, store: Store) -> str | None:
        """Import ``gold/demo.jsonl`` of the corpus as gold set ``demo`` when the database has
        none of that name; a message for the user, or None when there was nothing to do."""
        from labeler.errors import LabelerError
        from labeler.gold import import_gold_file

        demo = self.corpus / "gold" / "demo.jsonl"
        if not demo.is_file():
            return None
        if has_gold_set(store, DEMO_GOLD_SET):
            return None  # already there: never overwrite it
        try:
            questions, _ = import_gold_file(
                store,
                demo,
                DEMO_GOLD_SET,
                annotator="bundled",
                description="questions shipped with the corpus (labeler demo)",
            )
        except LabelerError as err:
            return f"demo gold set not loaded: {err}"
        return f"loaded gold set {DEMO_GOLD_SET!r} ({plural(len(questions), 'question')}); g: next gold set"

    def _progress(self, done: int, total: int | None, path: str) -> None:
        self.query_one(ProgressBar).update(total=total, progress=done)
        elapsed = self.clock() - self.started
        self.query_one("#ingest-count", Label).update(describe(done, total, elapsed, "files"))
        self.query_one("#ingest-file", Label).update(path[-70:])
