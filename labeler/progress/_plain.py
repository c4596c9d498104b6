"""Plain progress lines for a stderr that is not a terminal (a log, a CI job, a pipe).

A line is written when at least ``interval`` seconds passed since the start or the last
line, so a command shorter than that writes none and its stderr is as it always was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from labeler.progress._describe import describe


class PlainLines:
    """A :data:`~labeler.progress.Progress` writing ``NAME: DESCRIPTION`` lines to
    ``stream`` (see :func:`~labeler.progress.describe`), at most one per ``interval`` of
    ``clock``; ``unit`` names what is counted."""

    def __init__(
        self,
        stream: TextIO,
        name: str,
        unit: str,
        *,
        interval: float,
        clock: Callable[[], float],
    ) -> None:
        self.stream = stream
        self.name = name
        self.unit = unit
        self.interval = interval
        self.clock = clock
        self.started = clock()
        self.last = self.started

    def __call__(self, done: int, total: int | None, item: str) -> None:
        now = self.clock()
        if now - self.last < self.interval:
            return
        self.last = now
        words = describe(done, total, now - self.started, self.unit)
        self.stream.write(f"{self.name}: {words}\n")
        self.stream.flush()
