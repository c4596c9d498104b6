"""The :class:`Store` handle: open a database, read in sessions, write in short transactions.

Typical use::

    store = open_store(resolve_db(args.db))
    with store.write() as session:       # BEGIN IMMEDIATE ... COMMIT
        add_element(session, query, doc, 10, 42, annotator="ana")
    with store.session() as session:     # BEGIN (deferred) ... ROLLBACK; no writes
        docs = list_documents(session)
    store.close()

Database errors leave as :class:`~labeler.errors.StoreError` (or its subclass
:class:`~labeler.errors.IntegrityError` for constraint and trigger violations) carrying the
driver's message, never as SQLAlchemy tracebacks.

Several processes may write to one SQLite file. Every connection waits up to
``busy_timeout`` (10 s) for a lock; :meth:`Store.write` additionally retries taking the
write lock a bounded number of times with growing, jittered pauses (:class:`BusyRetry`)
when SQLite still reports the database busy or locked, so a long writer elsewhere (a big
run import) delays an annotator's change instead of failing it. Only when every attempt
fails does a :class:`StoreError` say the database stayed busy; SQLite's raw
"database is locked" never reaches the user.
"""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from sqlalchemy import Engine, event
from sqlalchemy import exc as sa_exc
from sqlmodel import Session

from labeler.errors import IntegrityError, StoreError
from labeler.store import validation as _validation  # noqa: F401  (registers ORM checks)
from labeler.store.engine import (
    create_store_engine,
    database_url,
    display_location,
    is_sqlite,
    sqlite_error_text,
    write_engine,
)
from labeler.store.integrity import (
    confirm_wal,
    damaged_message,
    is_damage,
    quick_check,
    remember_checked,
    store_file,
)
from labeler.store.location import sqlite_file
from labeler.store.migrations import (
    DEDUP_VERSION,
    MIGRATIONS,
    Migration,
    apply_steps,
    check_steps,
    current_version,
    deduplicated,
    pending,
)
from labeler.store.models import AuditEntry
from labeler.store.origin import SESSION_ORIGIN, default_origin
from labeler.store.postgres import write_lock_holder
from labeler.store.waiting import Notice, announced_wait, process_notice


class ReadSession(Session):
    """A session that refuses to flush: reads only (see :meth:`Store.session`)."""


@event.listens_for(ReadSession, "before_flush")
def _refuse_flush(session: Session, _context: Any, _instances: Any) -> None:
    if session.new or session.dirty or session.deleted:
        raise StoreError("attempt to write through a read-only session; use Store.write()")


@event.listens_for(Session, "pending_to_persistent")
def _note_audit_entry(session: Session, instance: object) -> None:
    # The audit entries a write transaction inserted (Store.last_own_audit_id).
    if isinstance(instance, AuditEntry) and instance.id is not None:
        session.info["audit_id"] = max(instance.id, session.info.get("audit_id", 0))


T = TypeVar("T")

#: sent by every PostgreSQL write transaction before it commits (see labeler.store.change_signal)
NOTIFY_CHANGE = "SELECT pg_notify('labeler_change', '')"

_BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED (low byte of extended codes)
_FULL_CODE = 13  # SQLITE_FULL
_BUSY_TEXTS = ("database is locked", "database is busy", "database table is locked")


def is_busy(exc: BaseException) -> bool:
    """True when ``exc`` (a SQLAlchemy or sqlite3 error) is SQLite's busy / locked error."""
    orig = getattr(exc, "orig", exc)
    if not isinstance(orig, sqlite3.OperationalError):
        return False
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _BUSY_CODES:
        return True
    return any(text in str(orig) for text in _BUSY_TEXTS)


def busy_message(where: str) -> str:
    """What the user reads when the database stayed busy despite waiting and retrying."""
    return (
        f"{where}: the database stayed busy: another process kept it locked for writing "
        "(a long import?) through every retry; nothing was written, try again"
    )


@contextmanager
def translate_errors(where: str) -> Iterator[None]:
    """Turn SQLAlchemy / driver errors raised inside the block into labeller errors.

    Errors a driver cursor raises unwrapped (the bulk run inserts) count too. Constraint
    and trigger violations become :class:`IntegrityError`; a busy / locked error
    :class:`StoreError` with :func:`busy_message`; SQLite's "database or disk is full"
    ``no space left on device: <where>`` (the transaction is rolled back: nothing of it was
    written); a damaged file's error one that points at ``labeler doctor``.
    """
    try:
        yield
    except Exception as exc:
        if not isinstance(exc, (sa_exc.DBAPIError, *_driver_errors("Error"))):
            raise
        if isinstance(exc, (sa_exc.IntegrityError, *_driver_errors("IntegrityError"))):
            raise IntegrityError(f"{where}: {sqlite_error_text(exc)}") from None
        if is_busy(exc):
            raise StoreError(busy_message(where)) from None
        if is_full(exc):
            raise StoreError(
                f"no space left on device: {where} (the database's disk is full; "
                "nothing of this change was written)"
            ) from None
        if is_damage(exc):
            raise StoreError(damaged_message(where, sqlite_error_text(exc))) from None
        raise StoreError(f"{where}: {sqlite_error_text(exc)}") from None


def _driver_errors(name: str) -> tuple[type[Exception], ...]:
    """The drivers' DB-API exception class ``name`` (psycopg's only once it is loaded)."""
    drivers = [sqlite3, sys.modules.get("psycopg")]
    return tuple(getattr(driver, name) for driver in drivers if driver is not None)


def is_full(exc: BaseException) -> bool:
    """True when ``exc`` (a SQLAlchemy or sqlite3 error) is SQLite's SQLITE_FULL."""
    orig = getattr(exc, "orig", exc)
    if not isinstance(orig, sqlite3.OperationalError):
        return False
    code = getattr(orig, "sqlite_errorcode", None)
    return (isinstance(code, int) and code & 0xFF == _FULL_CODE) or (
        "database or disk is full" in str(orig)
    )


@dataclass(frozen=True)
class BusyRetry:
    """How often and how patiently a write transaction retries taking the write lock.

    Each attempt already waits up to the connection's ``busy_timeout``; between attempts
    the pause starts at ``first_delay`` seconds and doubles up to ``max_delay``, each pause
    jittered to 50–150 % so that writers that collided do not collide again in step.
    ``on_busy(attempt, pause)`` is called before each pause (attempt counts from 1); it is
    for progress messages and tests. ``attempts`` is at least 1.
    """

    attempts: int = 6
    first_delay: float = 0.05
    max_delay: float = 2.0
    on_busy: Callable[[int, float], None] | None = None

    def pause(self, attempt: int) -> float:
        """The jittered pause after failed attempt ``attempt`` (1-based)."""
        base = min(self.max_delay, self.first_delay * 2.0 ** (attempt - 1))
        return base * (0.5 + random.random())


DEFAULT_RETRY = BusyRetry()


def retry_busy(action: Callable[[], T], policy: BusyRetry, *, where: str) -> T:
    """Run ``action`` until it does not fail busy, at most ``policy.attempts`` times.

    ``action`` must be safe to repeat: it runs before anything of the transaction is
    written (taking the lock) or rolls its own work back when it fails. Errors other than
    busy / locked propagate at once; the last busy error becomes :class:`StoreError`.
    """
    attempts = max(1, policy.attempts)
    for attempt in range(1, attempts + 1):
        try:
            return action()
        except sa_exc.OperationalError as exc:
            if not is_busy(exc):
                raise
            if attempt == attempts:
                raise StoreError(busy_message(where)) from None
            pause = policy.pause(attempt)
            if policy.on_busy is not None:
                policy.on_busy(attempt, pause)
            time.sleep(pause)
    raise AssertionError("unreachable")  # pragma: no cover


class Store:
    """An open database. Holds the engine; cheap to keep for the life of a process."""

    def __init__(
        self,
        engine: Engine,
        location: str,
        retry: BusyRetry = DEFAULT_RETRY,
        on_wait: Notice | None = None,
        origin: str | None = None,
    ) -> None:
        self.engine = engine
        self.location = location
        self.retry = retry
        #: receives "waiting for the database ..." messages (see labeler.store.waiting);
        #: None: the process-wide receiver (the CLI's stderr), if any
        self.on_wait = on_wait
        #: the front end writing through this store (``tui``, ``cli``, ``api``; None: not
        #: said), recorded in each audit entry's snapshots (:mod:`labeler.store.origin`);
        #: default: the process's (``set_default_origin``). The TUI sets ``tui`` on the
        #: store it is given, so that it resumes from its own changes only.
        self.origin = origin if origin is not None else default_origin()
        self._writer = write_engine(engine)
        # the SQLite file, checked (quick_check) before this store's first write
        self._file = store_file(engine) if is_sqlite(engine.url) else None
        self._checked = False
        self._notify = not is_sqlite(engine.url)  # PostgreSQL: NOTIFY_CHANGE at each commit
        #: the newest audit entry a write of this store committed (0: none yet); a change
        #: signal whose newest entry is this one is this store's own (labeler.store.change_signal)
        self.last_own_audit_id = 0
        #: the newest audit entry of each write transaction of this store (see :meth:`write`)
        self.own_audit_ids: set[int] = set()

    @property
    def file_to_check(self) -> Path | None:
        """The SQLite file this store's next write checks for damage first, unless it is as
        its last passing check left it (see :meth:`write`); None: none (PostgreSQL, a
        store that wrote already)."""
        return None if self._checked else self._file

    def _lock_holder(self) -> str | None:
        """Who holds the write lock, when the database can tell (PostgreSQL only)."""
        if is_sqlite(self.engine.url):
            return None  # SQLite records no lock owner
        return write_lock_holder(self.engine)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A read-only session in one deferred transaction, rolled back at the end.

        Objects stay usable (loaded attributes) after the block. Flushing changes raises
        :class:`StoreError`.
        """
        with translate_errors(self.location), ReadSession(self.engine) as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction (``BEGIN IMMEDIATE``) committed when the block ends.

        The write lock is taken before the block runs, retried per :attr:`retry` while
        SQLite reports the database busy; when it stays busy, :class:`StoreError` is raised
        and the block never runs. A wait longer than a second is announced through
        :attr:`on_wait` (see :mod:`labeler.store.waiting`). Any exception in the block
        rolls everything in it back and propagates; database errors become :class:`IntegrityError` / :class:`StoreError`.
        Keep blocks short: the write lock is held until the block ends. Objects stay usable
        after the commit.

        On PostgreSQL it notifies ``labeler_change`` in the same transaction, so every open
        screen hears of the commit (:mod:`labeler.store.change_signal`); on SQLite the others see
        ``PRAGMA data_version`` change.

        On SQLite the store's first write checks the file for damage first, and every commit
        confirms that its WAL is still the database's (:mod:`labeler.store.integrity`):
        :class:`StoreError` rather than a write into a damaged file or a lost commit.
        """
        with (
            translate_errors(self.location),
            Session(self._writer, expire_on_commit=False) as session,
        ):
            if self.origin is not None:
                session.info[SESSION_ORIGIN] = self.origin  # read by record_change

            def take_lock() -> None:
                try:
                    session.connection()  # emits BEGIN IMMEDIATE: waits for the lock
                except BaseException:
                    session.rollback()  # forget the failed BEGIN; the next try starts clean
                    raise

            notice = self.on_wait or process_notice()
            with announced_wait(self.location, self._lock_holder, notice):
                retry_busy(take_lock, self.retry, where=self.location)
            fairy = session.connection().connection
            if self._file is not None:
                if not self._checked:
                    quick_check(fairy.dbapi_connection, self._file, self.location)
                    self._checked = True
                confirm_wal(fairy.info, self.location, committed=False)
            yield session
            if self._file is not None:
                confirm_wal(fairy.info, self.location, committed=False)
            if self._notify:
                # The change signal (labeler.store.change_signal): delivered to every listener at
                # the commit, never for a transaction rolled back.
                session.connection().exec_driver_sql(NOTIFY_CHANGE)
            # Known as this store's own before the commit: a listener may hear of the commit
            # (and ask whose it was) before commit() returns (labeler.tui.live.is_own).
            written = session.info.get("audit_id", 0)
            if written:
                self.own_audit_ids.add(written)
            try:
                session.commit()
            except BaseException:
                self.own_audit_ids.discard(written)  # never committed: an id others may reuse
                raise
            self.last_own_audit_id = max(self.last_own_audit_id, written)
            if self._file is not None:
                confirm_wal(fairy.info, self.location, committed=True)

    def schema_version(self) -> int:
        """The schema version recorded in the database."""
        with translate_errors(self.location), self.engine.connect() as conn, conn.begin():
            return current_version(conn)

    def close(self) -> None:
        """Close every pooled connection (SQLite then checkpoints and removes the WAL); a
        file this store checked is recorded as checked as it is now."""
        self.engine.dispose()
        if self._file is not None and self._checked:
            remember_checked(self._file)

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def missing_database(where: str) -> StoreError:
    """The error of a command that needs an existing database when there is none at
    ``where`` (already masked by :func:`display_location`): no SQLite file, an empty one,
    or a PostgreSQL database without the labeller's tables."""
    return StoreError(
        f"no database at {where} (create one with labeler ingest PATH..., or labeler demo)"
    )


def refuse_missing_file(db: str, where: str) -> None:
    """:func:`missing_database` when ``db`` names a SQLite file that does not exist or is
    empty (0 bytes: SQLite would make it a database at the first write). Checked before any
    connection, because SQLite creates a missing file as it connects. Other locations
    (PostgreSQL, in-memory) are checked by their schema version instead (see :func:`upgrade`).
    """
    path = sqlite_file(db)
    if path is None:
        return
    try:
        empty = path.stat().st_size == 0
    except FileNotFoundError:
        raise missing_database(where) from None
    except OSError:
        return  # e.g. a directory on the way that cannot be read: create_store_engine says so
    if empty:
        raise missing_database(where)


def upgrade(
    engine: Engine,
    steps: Sequence[Migration],
    *,
    where: str,
    retry: BusyRetry = DEFAULT_RETRY,
    notice: Notice | None = None,
    create: bool = True,
) -> int:
    """Bring the database to the last of ``steps``; return the version it ends at.

    Reads the version first (no lock, no write when it is current); otherwise takes the write
    lock, re-reads the version and applies the missing steps in one transaction (repeated
    per ``retry`` when the database is busy, e.g. several processes creating it at once).
    When the upgrade removed duplicate elements (schema 5), ``notice`` is told how many.
    With ``create=False`` an empty database (version 0: no labeller tables) is refused with
    :func:`missing_database` before anything is written; an older schema is still upgraded.
    """
    check_steps(steps)

    def read_pending() -> list[Migration]:
        with engine.connect() as conn, conn.begin():
            version = current_version(conn)
            if version == 0 and not create:
                raise missing_database(where)
            return pending(version, steps, where=where)

    def apply_pending() -> None:
        with write_engine(engine).connect() as conn, conn.begin():
            todo = pending(current_version(conn), steps, where=where)
            apply_steps(conn, todo)
            if notice is not None and any(step.version == DEDUP_VERSION for step in todo):
                removed = deduplicated(conn)
                if removed:
                    said.append(
                        f"{where}: schema upgraded: removed {removed} duplicate element(s) "
                        "(same question, page and span; the oldest of each kept); "
                        "`labeler doctor` lists them, the audit log holds each one"
                    )

    said: list[str] = []
    with translate_errors(where):
        if not retry_busy(read_pending, retry, where=where):
            return steps[-1].version if steps else 0
        retry_busy(apply_pending, retry, where=where)
    if notice is not None:
        for message in said[-1:]:  # the attempt that committed
            notice(message)
    return steps[-1].version


def open_store(
    db: str,
    *,
    migrations: Sequence[Migration] = MIGRATIONS,
    retry: BusyRetry = DEFAULT_RETRY,
    on_wait: Notice | None = None,
    create: bool = True,
    origin: str | None = None,
) -> Store:
    """Open (creating if needed) and upgrade the database ``db``, a path or a URL.

    ``create=False`` is for commands that only read, or that need data already stored (a
    gold set, a run, an annotator): when there is no database at ``db`` (no SQLite file, an
    empty file, a PostgreSQL database without the labeller's tables) they get
    :func:`missing_database`, ``no database at PATH (create one with labeler ingest ...)``,
    and no file is created. ``origin`` names the front end writing (see :attr:`Store.origin`).

    Raises :class:`StoreError` when the location is unusable, the file is not a SQLite or
    labeller database, its schema is newer than this code, or the backend is not supported.
    ``migrations`` is for tests of the upgrade mechanism; ``retry`` sets how write
    transactions ride out a busy database (see :class:`BusyRetry`); ``on_wait`` receives
    the messages of a writer waiting for the lock (see :attr:`Store.on_wait`).
    """
    where = display_location(db)  # never a password in a message
    if not create:
        database_url(db)  # a malformed value is refused as such, not as a missing file
        refuse_missing_file(db, where)
    engine = create_store_engine(db)
    try:
        if not (is_sqlite(engine.url) or engine.url.get_backend_name() == "postgresql"):
            raise StoreError(
                f"{where}: unsupported database {engine.url.get_backend_name()!r} "
                "(supported: SQLite, PostgreSQL)"
            )
        upgrade(
            engine,
            migrations,
            where=where,
            retry=retry,
            notice=on_wait or process_notice(),
            create=create,
        )
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, where, retry, on_wait, origin)
