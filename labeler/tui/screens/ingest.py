"""First run: ingest the bundled corpus in a worker, with a progress bar."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar

from labeler.store import Store

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp


class IngestScreen(ModalScreen[None]):
    """Ingest ``corpus`` because the database has no pages yet."""

    def __init__(self, corpus: Path) -> None:
        super().__init__()
        self.corpus = corpus

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"The database has no pages yet: ingesting {self.corpus} …")
            yield ProgressBar(id="ingest-progress", show_eta=False)
            yield Label("", id="ingest-file")

    def on_mount(self) -> None:
        app = cast("LabelerApp", self.app)
        corpus = self.corpus

        def progress(done: int, total: int, path: str) -> None:
            app.call_from_thread(self._progress, done, total, path)

        def job(store: Store) -> str:
            from labeler.ingest import ingest_paths

            report = ingest_paths(store, [corpus], progress=progress)
            return f"ingested {report.added} page(s), {len(report.failed)} failed"

        def done(message: str) -> None:
            self.notify(message, title="saved", timeout=5)
            self.dismiss()
            app.reload_screen()

        app.db(job, done, what="ingest")

    def _progress(self, done: int, total: int, path: str) -> None:
        self.query_one(ProgressBar).update(total=total, progress=done)
        self.query_one("#ingest-file", Label).update(path[-70:])
