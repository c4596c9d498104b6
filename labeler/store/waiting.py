"""Nobody waits for the write lock in silence.

A writer that has waited :data:`NOTICE_AFTER` seconds for the database's write lock (another
process is writing: an import, an ingest, another annotator) says so, from a timer thread,
through a *notice* callback: the CLI prints it on stderr (installed process-wide with
:func:`set_wait_notice`), the TUI shows a notification (``Store.on_wait``). The message
names the holder when the database can tell (PostgreSQL: the holding backend's process,
program and statement; SQLite keeps no record of which process holds its lock). When the
lock comes free after a notice, a second notice says so; when the writer finally gives up,
its :class:`~labeler.errors.StoreError` names the holder seen while waiting.

This module imports nothing heavy: the CLI installs its notice before any command runs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from labeler.errors import StoreError

#: seconds a writer waits for the write lock before saying so
NOTICE_AFTER = 1.0

Notice = Callable[[str], None]

_process_notice: Notice | None = None


def set_wait_notice(notice: Notice | None) -> None:
    """Make ``notice`` the process-wide receiver of waiting messages for every store whose
    own ``on_wait`` is None (the CLI: stderr). None: keep quiet."""
    global _process_notice
    _process_notice = notice


def process_notice() -> Notice | None:
    """The receiver set by :func:`set_wait_notice`, if any."""
    return _process_notice


@contextmanager
def announced_wait(
    where: str,
    holder: Callable[[], str | None],
    notice: Notice | None,
    *,
    after: float = NOTICE_AFTER,
) -> Iterator[None]:
    """Run the block (taking the write lock); if it lasts ``after`` seconds, call
    ``notice`` with what it is waiting for, from a timer thread.

    ``holder()`` describes who holds the lock (None: unknown); it runs in the timer thread
    and any error in it or in ``notice`` is swallowed (a message must never break a write).
    A :class:`StoreError` leaving the block (the writer gave up) gets the holder added.
    """
    seen: list[str] = []
    spoke = threading.Event()

    def speak() -> None:
        try:
            who = holder()
        except Exception:
            who = None
        if who:
            seen.append(who)
        held = f"{who} holds the write lock" if who else "another process holds the write lock"
        if notice is not None:
            with suppress(Exception):
                notice(f"waiting for the database {where}: {held}; writing as soon as it is free")
        spoke.set()

    started = time.monotonic()
    timer = threading.Timer(after, speak)
    timer.daemon = True
    timer.start()
    try:
        yield
    except StoreError as err:
        timer.cancel()
        timer.join()
        if seen and "stayed busy" in str(err):
            raise StoreError(f"{err} (the write lock was held by {seen[-1]})") from None
        raise
    finally:
        timer.cancel()
    timer.join()  # a notice being given ends before the write goes on
    if spoke.is_set() and notice is not None:
        with suppress(Exception):
            notice(f"the database is free again after {time.monotonic() - started:.1f} s; writing")
