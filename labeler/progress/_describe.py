"""The words of a progress report: counts, rate and time left, as a plain line says them
(``score: 12,000/256,000 questions, 1,950/s, 2 min left``) and the TUI shows them."""

from __future__ import annotations

import math

#: the unit whose counts are shown as megabytes
BYTES = "bytes"
_MB = 1_000_000


def _amount(value: float, unit: str) -> str:
    return f"{value / _MB:,.1f}" if unit == BYTES else f"{value:,.0f}"


def rate_words(done: int, elapsed: float, unit: str) -> str:
    """``1,950/s``, ``2.5/s`` under ten a second (``3.1 MB/s`` for bytes); empty when
    nothing is done or no time passed."""
    if done <= 0 or elapsed <= 0:
        return ""
    rate = done / elapsed
    if unit == BYTES:
        return f"{rate / _MB:,.1f} MB/s"
    return f"{rate:.1f}/s" if rate < 10 else f"{rate:,.0f}/s"


def left_words(done: int, total: int | None, elapsed: float) -> str:
    """Time left at the mean rate so far: ``40 s left``, ``2 min left``, ``1 h 5 min
    left``; empty when the total is unknown, nothing is done yet or all is done. Seconds,
    minutes and hours are rounded up (a report never promises less than it is)."""
    if total is None or done <= 0 or elapsed <= 0 or done >= total:
        return ""
    seconds = max(total - done, 0) * elapsed / done
    if seconds < 60:
        return f"{math.ceil(seconds)} s left"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return f"{minutes} min left"
    return f"{minutes // 60} h {minutes % 60} min left"


def describe(done: int, total: int | None, elapsed: float, unit: str) -> str:
    """``12,000/256,000 questions, 1,950/s, 2 min left`` (``12,000 questions, 1,950/s``
    without a total; ``12.0/250.0 MB, 3.1 MB/s, 1 min left`` for bytes), after ``elapsed``
    seconds. A total of 0 (standard input's size) counts as unknown."""
    known = total if total else None
    shown = "MB" if unit == BYTES else unit
    count = _amount(done, unit) + (f"/{_amount(known, unit)}" if known is not None else "")
    parts = [f"{count} {shown}"]
    parts += [w for w in (rate_words(done, elapsed, unit), left_words(done, known, elapsed)) if w]
    return ", ".join(parts)
