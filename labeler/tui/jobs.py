"""Database jobs of the TUI: run in a thread, one at a time, in the order asked for.

Database work never runs on the event loop: :func:`run_db_job` runs ``job(store)`` in a
thread and hands its result to ``done`` back on the loop. Jobs go through one FIFO lock
(:class:`asyncio.Lock` wakes its waiters in order), so they commit in the order the user
asked for them (an attach pressed before an undo is committed first), and a write is
reported as saved only after its transaction committed. Every error becomes a
notification, never a traceback: a :class:`~labeler.errors.LabelerError` as itself, any
other exception (a bug) as "internal error"; the session stays alive.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App
from textual.worker import Worker

from labeler.errors import LabelerError
from labeler.store import Store

T = TypeVar("T")


def run_db_job(
    app: App[Any],
    store: Store,
    lock: asyncio.Lock,
    job: Callable[[Store], T],
    done: Callable[[T], None] | None,
    *,
    what: str,
) -> Worker[None]:
    """Run ``job(store)`` in a thread once ``lock`` is free; then ``done(result)`` on
    ``app``'s event loop. ``what`` names the job in error notifications."""

    async def run() -> None:
        async with lock:
            try:
                result = await asyncio.to_thread(job, store)
            except LabelerError as err:
                app.notify(str(err), title=f"{what} failed", severity="error", timeout=8)
                return
            except Exception as err:  # a bug: say so, but keep the session alive
                app.notify(
                    f"{type(err).__name__}: {err}",
                    title=f"{what} failed (internal error)",
                    severity="error",
                    timeout=10,
                )
                return
            if done is not None:
                try:
                    done(result)
                except Exception as err:
                    app.notify(f"{type(err).__name__}: {err}", severity="error")

    return app.run_worker(run(), group="db", description=what, exit_on_error=False)
