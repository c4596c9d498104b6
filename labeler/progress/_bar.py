"""The rich progress bar on a terminal: counts, rate and time left, on stderr, gone when
the work is (transient). Loaded only when stderr is a terminal: rich's live display is no
part of a headless command's imports."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.text import Text

from labeler.progress._describe import BYTES, rate_words
from labeler.progress._signal import Progress as ProgressFn
from labeler.progress._signal import Throttled

#: seconds between two updates passed to rich (it redraws ten times a second anyway)
UPDATE_EVERY = 0.05


class _Rate(ProgressColumn):
    """Units per second since the start (``1,950/s``), as the plain lines say it."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        # a finished task's rate stays what it was when it finished
        elapsed = (task.finished_time if task.finished else task.elapsed) or 0.0
        return Text(
            rate_words(int(task.completed), elapsed, self.unit), style="progress.data.speed"
        )


@contextmanager
def rich_bar(
    stream: TextIO, name: str, unit: str, clock: Callable[[], float]
) -> Iterator[ProgressFn]:
    """A bar on ``stream`` (a terminal) for the block's duration."""
    counts: list[ProgressColumn]
    if unit == BYTES:
        counts = [DownloadColumn(), TransferSpeedColumn()]
    else:
        counts = [MofNCompleteColumn(), TextColumn(unit), _Rate(unit)]
    columns = [
        TextColumn(name),
        BarColumn(),
        *counts,
        TimeRemainingColumn(),
        TextColumn("{task.fields[item]}"),
    ]
    console = Console(file=stream, stderr=True)
    # stdout holds the command's data: never routed through the bar's console
    with Progress(*columns, console=console, transient=True, redirect_stdout=False) as bar:
        task = bar.add_task(name, total=None, item="")

        def update(done: int, total: int | None, item: str) -> None:
            bar.update(task, completed=done, total=total or None, item=item[-50:])

        yield Throttled(update, UPDATE_EVERY, clock)
