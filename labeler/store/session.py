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
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy import exc as sa_exc
from sqlmodel import Session

from labeler.errors import IntegrityError, StoreError
from labeler.store import validation as _validation  # noqa: F401  (registers ORM checks)
from labeler.store.engine import create_store_engine, is_sqlite, sqlite_error_text, write_engine
from labeler.store.migrations import (
    MIGRATIONS,
    Migration,
    apply_steps,
    check_steps,
    current_version,
    pending,
)


class ReadSession(Session):
    """A session that refuses to flush: reads only (see :meth:`Store.session`)."""


@event.listens_for(ReadSession, "before_flush")
def _refuse_flush(session: Session, _context: Any, _instances: Any) -> None:
    if session.new or session.dirty or session.deleted:
        raise StoreError("attempt to write through a read-only session; use Store.write()")


@contextmanager
def translate_errors(where: str) -> Iterator[None]:
    """Turn SQLAlchemy / driver errors raised inside the block into labeller errors."""
    try:
        yield
    except sa_exc.IntegrityError as exc:
        raise IntegrityError(f"{where}: {sqlite_error_text(exc)}") from None
    except sa_exc.DBAPIError as exc:
        raise StoreError(f"{where}: {sqlite_error_text(exc)}") from None


class Store:
    """An open database. Holds the engine; cheap to keep for the life of a process."""

    def __init__(self, engine: Engine, location: str) -> None:
        self.engine = engine
        self.location = location
        self._writer = write_engine(engine)

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

        Any exception rolls everything in the block back and propagates; database errors
        become :class:`IntegrityError` / :class:`StoreError`. Keep blocks short: the write
        lock is held until the block ends. Objects stay usable after the commit.
        """
        with (
            translate_errors(self.location),
            Session(self._writer, expire_on_commit=False) as session,
        ):
            yield session
            session.commit()

    def schema_version(self) -> int:
        """The schema version recorded in the database."""
        with translate_errors(self.location), self.engine.connect() as conn, conn.begin():
            return current_version(conn)

    def close(self) -> None:
        """Close every pooled connection (SQLite then checkpoints and removes the WAL)."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def upgrade(engine: Engine, steps: Sequence[Migration], *, where: str) -> int:
    """Bring the database to the last of ``steps``; return the version it ends at.

    Reads the version first (no lock, no write when it is current); otherwise takes the write
    lock, re-reads the version and applies the missing steps in one transaction.
    """
    check_steps(steps)
    with translate_errors(where):
        with engine.connect() as conn, conn.begin():
            todo = pending(current_version(conn), steps, where=where)
        if not todo:
            return steps[-1].version if steps else 0
        with write_engine(engine).connect() as conn, conn.begin():
            apply_steps(conn, pending(current_version(conn), steps, where=where))
    return steps[-1].version


def open_store(db: str, *, migrations: Sequence[Migration] = MIGRATIONS) -> Store:
    """Open (creating if needed) and upgrade the database ``db``, a path or a URL.

    Raises :class:`StoreError` when the location is unusable, the file is not a SQLite or
    labeller database, its schema is newer than this code, or the backend is not supported.
    ``migrations`` is for tests of the upgrade mechanism.
    """
    engine = create_store_engine(db)
    try:
        if not is_sqlite(engine.url):
            raise StoreError(
                f"{db}: only SQLite databases are supported so far "
                f"(got {engine.url.get_backend_name()!r})"
            )
        upgrade(engine, migrations, where=db)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, db)
