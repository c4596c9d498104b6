"""The CLI's reporter: a rich bar on a terminal, plain lines elsewhere, nothing when quiet."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from labeler.progress._plain import PlainLines
from labeler.progress._signal import Progress, no_progress

#: seconds between two plain lines
INTERVAL = 10.0

_clock: Callable[[], float] = time.monotonic


def set_clock(clock: Callable[[], float]) -> Callable[[], float]:
    """Make ``clock`` (seconds, monotonic) the one reporters built from now on read;
    returns the one before. For tests, which advance time instead of waiting."""
    global _clock
    before, _clock = _clock, clock
    return before


@contextmanager
def reporter(
    name: str, unit: str, *, quiet: bool = False, stream: TextIO | None = None
) -> Iterator[Progress]:
    """The :data:`Progress` a command passes to its verb, for the block's duration.

    ``name`` starts every report (``score``), ``unit`` names what is counted
    (``questions``; ``bytes`` are shown as MB). On a terminal ``stream`` (default:
    ``sys.stderr``) a rich bar with counts, rate and time left, removed at the end; on any
    other stream a plain line (``score: 12,000/256,000 questions, 1,950/s, 2 min left``)
    at most every :data:`INTERVAL` seconds, none for shorter work; ``quiet``: nothing.
    Reports never go to stdout.
    """
    out = sys.stderr if stream is None else stream
    if quiet:
        yield no_progress
        return
    if _isatty(out):
        from labeler.progress._bar import rich_bar

        with rich_bar(out, name, unit, _clock) as bar:
            yield bar
        return
    yield PlainLines(out, name, unit, interval=INTERVAL, clock=_clock)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or foreign stream: no terminal
        return False
