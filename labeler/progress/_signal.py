"""The callable the core reports progress through, and helpers to call it.

A :data:`Progress` is ``progress(done, total, item)``: ``done`` units of ``total`` are
finished (``total`` None when unknown, e.g. bytes of standard input), ``item`` names what
was just done (a file, a page; may be empty). What a unit is (a file, a question, a byte)
is the verb's to document and the front end's to say. Calls must be cheap for the caller:
a reporter that draws does its own throttling (:class:`Throttled`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

Progress = Callable[[int, int | None, str], None]

T = TypeVar("T")


def no_progress(done: int, total: int | None, item: str) -> None:
    """The default reporter: reports nothing."""


def counted(
    items: Iterable[T], progress: Progress, total: int | None, *, every: int = 1
) -> Iterator[T]:
    """``items`` unchanged, calling ``progress(n, total, "")`` after every ``every``-th item
    and after the last (n counted from 1); with :func:`no_progress` the items pass through
    untouched. The count is of items taken: a consumer that stops early reports no more."""
    if progress is no_progress:
        yield from items
        return
    done = 0
    for item in items:
        yield item
        done += 1
        if done % every == 0:
            progress(done, total, "")
    if done % every:
        progress(done, total, "")


class Throttled:
    """A :data:`Progress` that passes a call on to ``inner`` at most once every
    ``interval`` seconds of ``clock``, and always the first call and the one that reaches
    ``total``; the others are dropped (only the newest state matters to a display)."""

    def __init__(
        self,
        inner: Progress,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner = inner
        self.interval = interval
        self.clock = clock
        self.last: float | None = None

    def __call__(self, done: int, total: int | None, item: str) -> None:
        now = self.clock()
        final = total is not None and done >= total
        if self.last is not None and now - self.last < self.interval and not final:
            return
        self.last = now
        self.inner(done, total, item)
