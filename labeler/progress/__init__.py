"""Progress of long work: what the core reports and how the front ends show it.

The core's long verbs (ingest, gold and run imports, chunks make and audit, scoring,
retrievers in the loop, agreement, doctor) take a :data:`Progress` callable, ``progress(done,
total, item)``, defaulting to :func:`no_progress`; they know nothing of terminals and never
load rich. The front ends build the reporter: :func:`reporter` gives the CLI's (a rich bar
on a terminal, a plain line every ten seconds on any other stderr, nothing when quiet), and
the TUI shows :func:`describe`'s words in its job display.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.progress._describe import describe, left_words, rate_words
    from labeler.progress._plain import PlainLines
    from labeler.progress._reporter import INTERVAL, reporter, set_clock
    from labeler.progress._signal import Progress, Throttled, counted, no_progress

_HOMES: dict[str, str] = {
    "INTERVAL": "labeler.progress._reporter",
    "PlainLines": "labeler.progress._plain",
    "Progress": "labeler.progress._signal",
    "Throttled": "labeler.progress._signal",
    "counted": "labeler.progress._signal",
    "describe": "labeler.progress._describe",
    "left_words": "labeler.progress._describe",
    "no_progress": "labeler.progress._signal",
    "rate_words": "labeler.progress._describe",
    "reporter": "labeler.progress._reporter",
    "set_clock": "labeler.progress._reporter",
}

__all__ = [
    "INTERVAL",
    "PlainLines",
    "Progress",
    "Throttled",
    "counted",
    "describe",
    "left_words",
    "no_progress",
    "rate_words",
    "reporter",
    "set_clock",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.progress' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
