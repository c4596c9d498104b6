"""The change signal: a cheap way for an open screen to learn that another process wrote.

An open TUI shows what it read; other processes (another annotator's TUI, the lead's
adjudication, ``labeler gold done``, ``gold assign``, ``gold import``) keep writing. A
:class:`ChangeFeed` tells it when the database changed, without polling any table:

* **SQLite**: ``PRAGMA data_version`` on one long-lived connection of the feed's own. Its
  value changes whenever *another* connection commits (every write of this process goes
  through the store's pool, so it counts too: see "own writes" below) and it costs no read
  of the database file, only of the shared WAL index. :meth:`ChangeFeed.wait` reads it every
  :data:`SQLITE_POLL_S` seconds.
* **PostgreSQL**: ``LISTEN`` on a dedicated psycopg connection. Every write transaction
  sends ``pg_notify('labeler_change', '')`` just before its commit
  (:meth:`labeler.store.session.Store.write`, which every write of the store goes through,
  bulk imports past the ORM included); the server delivers it at the commit, and never for
  a transaction rolled back. :meth:`ChangeFeed.wait` blocks on the socket until a
  notification arrives or its timeout passes: no polling at all.

On a change the feed reads the newest audit entry (``ORDER BY id DESC LIMIT 1``, the primary
key) and returns a :class:`ChangeStamp`: a counter, the newest audit id, who made that change
and what it was (``lead settled q3``), so a screen can say who changed what.

**Own writes.** The feed cannot tell this process's commits from another's on either backend
(both come from other connections than the feed's). A front end treats a stamp whose newest
entry is its own actor's as nothing new to say (it has redrawn after its own write already)
and redraws for any other: a redraw re-reads only what the screen shows, so one too many is
cheap, one too few would leave it stale. A commit that writes no audit entry (a page ingest, a
run import) changes the counter but not the audit id: the stamp's ``actor`` is None.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Any, cast

from sqlmodel import Session, col, select

from labeler.errors import StoreError
from labeler.store.engine import is_sqlite, sqlite_error_text
from labeler.store.models import AuditEntry, Query
from labeler.store.session import Store

#: the PostgreSQL notification channel every write transaction notifies
CHANNEL = "labeler_change"
#: how often (seconds) a SQLite feed reads ``PRAGMA data_version``
SQLITE_POLL_S = 0.25


@dataclass(frozen=True)
class ChangeStamp:
    """What the database's latest change was, as far as a feed can tell cheaply.

    ``version`` counts the changes the feed has seen (0 when read outside a feed);
    ``audit_id`` is the newest audit entry's id (0: none yet); ``actor`` who wrote it and
    ``what`` it did in a few words (``settled q3``, ``marked q1 done``); both None/empty for a
    database without audit entries. What a viewer may be told: :meth:`tellable_to`.
    """

    version: int
    audit_id: int
    actor: str | None
    what: str
    #: the audited table (``element``, ``question_done``, ``assignment``, ``query``)
    entity: str | None = None
    #: the annotator the changed row belongs to (an element's, a mark's, an assignee)
    about: str | None = None

    def tellable_to(self, viewer: str) -> bool:
        """Whether ``viewer`` may be told of this change in words (the blind view): their own
        (another window of theirs), one about them (their assignment), or one about a
        question itself (settled, reopened, edited). Another annotator's labels and done
        marks stay unsaid: a team question is blind until adjudicated."""
        if self.actor is None:
            return False
        return self.actor == viewer or self.about == viewer or self.entity == "query"

    def words(self) -> str:
        """``lead settled q3``; ``the database changed`` when unaudited."""
        if self.actor is None:
            return "the database changed"
        return f"{self.actor} {self.what}".strip()


def describe(session: Session | None, entry: AuditEntry) -> str:
    """An audit entry in a few words: ``settled q3``, ``reopened q3``, ``marked q1 done``,
    ``removed an element of q2``, ``assigned q4 to ana``; ``session`` (None: none) looks up
    the question an element or mark belongs to."""
    data = entry.after or entry.before or {}
    qid = entry.entity_id if entry.entity == "query" else data.get("query_id")
    name = data.get("external_id") if entry.entity == "query" else None
    if name is None and isinstance(qid, int) and session is not None:
        query = session.get(Query, qid)
        name = query.external_id if query is not None else None
    q = str(name) if name is not None else "a question"
    verb = {"add": "added", "change": "changed", "remove": "removed"}.get(entry.action, "changed")
    if entry.entity == "query" and entry.action == "change":
        was = (entry.before or {}).get("adjudicated_at")
        now = (entry.after or {}).get("adjudicated_at")
        if now and not was:
            return f"settled {q}"
        if was and not now:
            return f"reopened {q}"
        return f"changed {q}"
    if entry.entity == "query":
        return f"{verb} {q}"
    if entry.entity == "element":
        return f"{verb} an element of {q}"
    if entry.entity == "question_done":
        return f"marked {q} done" if entry.action == "add" else f"removed a done mark of {q}"
    if entry.entity == "assignment":
        who = data.get("annotator", "")
        return f"assigned {q} to {who}" if entry.action == "add" else f"unassigned {who} on {q}"
    return f"{verb} a {entry.entity.replace('_', ' ')}"


def newest_change(session: Session, version: int = 0) -> ChangeStamp:
    """The stamp of the newest audit entry (its primary key: one index probe)."""
    entry = session.exec(select(AuditEntry).order_by(col(AuditEntry.id).desc()).limit(1)).first()
    if entry is None or entry.id is None:
        return ChangeStamp(version, 0, None, "")
    data = entry.after or entry.before or {}
    about = data.get("annotator") if entry.entity != "query" else None
    return ChangeStamp(
        version,
        entry.id,
        entry.actor,
        describe(session, entry),
        entry.entity,
        about if isinstance(about, str) else None,
    )


def change_stamp(store: Store) -> ChangeStamp:
    """The database's latest change now (a read; ``version`` 0)."""
    with store.session() as s:
        return newest_change(s)


class ChangeFeed:
    """Waits for other connections' commits (module docstring); one per watching screen set.

    Not thread-safe: create, :meth:`wait` on and :meth:`close` it from one thread (the one
    that waits). :meth:`stop` may be called from any thread: the next :meth:`wait` returns
    None at once (a SQLite wait also wakes early).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sqlite = is_sqlite(store.engine.url)
        self.version = 0
        self._stopped = threading.Event()
        #: an in-memory SQLite database: nobody else can write it, nothing to wait for
        self._alone = self.sqlite and store.engine.url.database in (None, "", ":memory:")
        if self._alone:
            self._conn: Any = None
            self.last = self._stamp()
            return
        try:
            # A connection of its own, outside the pool: held for the feed's life.
            raw = store.engine.raw_connection()
            raw.detach()
            self._conn = cast(Any, raw.dbapi_connection)
            if self.sqlite:
                self._data_version = self._read_version()
            else:
                self._conn.rollback()  # the pool's ping may have opened a transaction
                self._conn.autocommit = True
                self._conn.execute(f"LISTEN {CHANNEL}")
            self.last = self._stamp()
        except Exception as exc:
            raise self._error(exc) from None

    def _error(self, exc: Exception) -> StoreError:
        if isinstance(exc, StoreError):
            return exc
        return StoreError(f"{self.store.location}: live updates: {sqlite_error_text(exc)}")

    def _read_version(self) -> int:
        cursor = self._conn.cursor()
        try:
            cursor.execute("PRAGMA data_version")
            return int(cursor.fetchone()[0])
        finally:
            cursor.close()

    def _stamp(self) -> ChangeStamp:
        """The newest audit entry (a read session of the store: one index probe, and the
        question it is about)."""
        with self.store.session() as s:
            return newest_change(s, self.version)

    def stop(self) -> None:
        """Make the current and every later :meth:`wait` return None soon."""
        self._stopped.set()

    def wait(self, timeout: float) -> ChangeStamp | None:
        """Block up to ``timeout`` seconds for a commit by another connection; its stamp,
        or None when nothing was committed (or the feed was stopped).
        :class:`StoreError` when the database connection failed."""
        try:
            changed = self._wait_sqlite(timeout) if self.sqlite else self._wait_pg(timeout)
            if not changed or self._stopped.is_set():
                return None
            self.version += 1
            self.last = self._stamp()
            return self.last
        except Exception as exc:
            raise self._error(exc) from None

    def _wait_sqlite(self, timeout: float) -> bool:
        if self._alone:
            self._stopped.wait(timeout)
            return False
        waited = 0.0
        while not self._stopped.is_set():
            version = self._read_version()
            if version != self._data_version:
                self._data_version = version
                return True
            if waited >= timeout:
                return False
            step = min(SQLITE_POLL_S, timeout - waited)
            self._stopped.wait(step)
            waited += step
        return False

    def _wait_pg(self, timeout: float) -> bool:
        if self._stopped.is_set():
            return False
        got = False
        for _ in self._conn.notifies(timeout=timeout, stop_after=1):
            got = True
        if got:
            # one transaction sends one notification; those queued meanwhile (a burst of
            # commits) are one change here: drained without waiting
            for _ in self._conn.notifies(timeout=0.0):
                pass
        return got

    def close(self) -> None:
        """Close the feed's connection (its LISTEN ends with it)."""
        self._stopped.set()
        if self._conn is None:
            return
        with contextlib.suppress(Exception):  # a dead connection is closed enough
            self._conn.close()


def change_feed(store: Store) -> ChangeFeed:
    """A :class:`ChangeFeed` on ``store``'s database (opens its own connection).
    :class:`StoreError` when it cannot connect."""
    return ChangeFeed(store)
