"""Live screens: other people's changes reach an open TUI without a key press.

One daemon thread per app waits on the store's change signal
(:func:`labeler.store.change_feed`: ``PRAGMA data_version`` read every quarter second on
SQLite, ``LISTEN``/``NOTIFY`` on PostgreSQL, which blocks without polling) and posts
:class:`DatabaseChanged` to the app for each commit it hears of. The app
(:meth:`labeler.tui.app.LabelerApp.on_database_changed`) drops the commits of its own store
(it redrew after those already) and, for any other, bumps ``data_generation`` and does what
it does after its own writes: ``revision`` goes up and the questions reload, so every screen
re-reads what it shows (page header and your state, the questions list and its counts, the
spans on the page, the queue, the adjudication queue), keeping its cursor, selection and
scroll, its focus and any dialog open above it.

It is a plain thread, not a Textual worker: tests and the app wait for "every worker done"
after each database job, which a watcher that never ends would block.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual.message import Message

from labeler.errors import LabelerError
from labeler.store import ChangeFeed, ChangeStamp, Store, change_feed

if TYPE_CHECKING:
    from textual.app import App

#: how long one wait of the watcher blocks before it looks whether the app still runs
WAIT_S = 0.5
#: the least time between two refreshes the watcher asks for
MIN_GAP_S = 0.2
#: after the feed's connection failed (a server restart), seconds between tries to reconnect
RETRY_S = 2.0


class DatabaseChanged(Message):
    """Another connection committed; ``stamp`` says who did what (see
    :class:`labeler.store.ChangeStamp`)."""

    def __init__(self, stamp: ChangeStamp) -> None:
        super().__init__()
        self.stamp = stamp


class LiveFailed(Message):
    """The watcher stopped: the database connection failed (``reason`` says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class LiveResumed(Message):
    """The watcher is connected again after a failure: changes meanwhile were not heard."""


class Watcher:
    """The thread waiting on a :class:`~labeler.store.ChangeFeed` for ``app``.

    When the feed's connection fails (a PostgreSQL server restarted, the connection was
    terminated), the app is told once (:class:`LiveFailed`) and the thread tries again every
    :data:`RETRY_S` seconds; once connected again, :class:`LiveResumed` makes every screen
    re-read what it shows, since what changed in between was not heard."""

    def __init__(self, app: App[int], store: Store) -> None:
        self.app = app
        self.store = store
        self._stop = threading.Event()
        self._feed: ChangeFeed | None = None
        self.thread = threading.Thread(target=self._run, name="labeler-live", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self, join: float = 2.0) -> None:
        """End the thread and wait up to ``join`` seconds for it to close its connection
        (within one :data:`WAIT_S` on PostgreSQL, at once on SQLite): the store closes next,
        and on SQLite the last connection to close checkpoints and removes the WAL."""
        self._stop.set()
        feed = self._feed
        if feed is not None:
            feed.stop()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(join)

    def _post(self, message: Message) -> None:
        try:
            self.app.post_message(message)
        except RuntimeError:  # the app's loop has closed: nobody to tell
            self._stop.set()

    def _run(self) -> None:
        failed = False
        while not self._stop.is_set():
            try:
                feed = change_feed(self.store)
            except LabelerError as exc:
                if not failed:
                    self._post(LiveFailed(str(exc)))
                failed = True
                self._stop.wait(RETRY_S)
                continue
            self._feed = feed
            if self._stop.is_set():  # stopped while connecting: stop() saw no feed to stop
                feed.stop()
            if failed:  # back after a failure: what changed meanwhile was not heard
                self._post(LiveResumed())
                failed = False
            try:
                while not self._stop.is_set():
                    stamp = feed.wait(WAIT_S)
                    if stamp is not None and not self._stop.is_set():
                        self._post(DatabaseChanged(stamp))
                        # a burst of commits (a script writing row by row) becomes a few
                        # refreshes a second, not one per commit: what arrives meanwhile
                        # is one change at the next wait
                        self._stop.wait(MIN_GAP_S)
            except LabelerError as exc:
                if not self._stop.is_set():
                    self._post(LiveFailed(str(exc)))
                    failed = True
            finally:
                self._feed = None
                feed.close()
            self._stop.wait(RETRY_S)


def is_own(store: Store, stamp: ChangeStamp) -> bool:
    """True when the stamp's newest entry was written by ``store`` itself (this app's own
    write, after which it redrew already). Another window of the same annotator is another
    store: its changes are not own."""
    return stamp.audit_id != 0 and stamp.audit_id in store.own_audit_ids
