"""Where the database is and how connections to it are set up.

``--db`` takes a file path or a SQLAlchemy URL. For SQLite every new connection gets, in
SQLAlchemy's ``connect`` event (outside any transaction, where the pragmas take effect):

* ``PRAGMA busy_timeout`` (:data:`BUSY_TIMEOUT_MS`): wait for a lock instead of failing;
* ``PRAGMA foreign_keys = ON``: SQLite leaves foreign keys off per connection;
* ``PRAGMA journal_mode = WAL`` and ``synchronous = NORMAL``: readers never block the
  writer, and short per-document commits stay cheap.

The driver's own transaction handling is switched off (``isolation_level = None``) and the
``begin`` event emits ``BEGIN``, or ``BEGIN IMMEDIATE`` on connections carrying the
:data:`WRITE_OPTION` execution option. A deferred transaction that reads and then writes can
fail with SQLITE_BUSY despite the timeout; an immediate one takes the write lock up front and
waits for it (docs/architecture.md, The store).

A ``postgresql://`` URL gets none of the above: transactions carrying :data:`WRITE_OPTION`
take the database's one write lock instead (see :mod:`labeler.store.postgres`), so writers
serialise exactly as they do on SQLite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from labeler.errors import StoreError
from labeler.store.integrity import note_wal
from labeler.store.location import (
    DB_ENV,
    DEFAULT_DB,
    display_location,
    is_keyword_string,
    resolve_db,
)
from labeler.store.postgres import create_postgres_engine, driver_message, is_postgresql

# re-exported: they lived here first
__all__ = ["DB_ENV", "DEFAULT_DB", "display_location", "resolve_db"]

BUSY_TIMEOUT_MS = 10_000
WRITE_OPTION = "labeler_write"


def database_url(db: str) -> URL:
    """Turn a ``--db`` value into a URL: anything with ``://`` is a URL, the rest a path.

    Raises :class:`StoreError` for an empty value, a libpq keyword/value string
    (:func:`refuse_keyword_string`) or a malformed URL (one that does not parse, or whose
    port is not a number); the message shows every password masked.
    """
    if not db.strip():
        raise StoreError("no database given (empty --db / $LABELER_DB)")
    refuse_keyword_string(db)
    if "://" in db:
        scheme, _, rest = db.partition("://")
        if scheme.split("+")[0] != "sqlite" and "@" in rest.rpartition("@")[0]:
            # SQLAlchemy splits at the first "@" after the password's ":" and would hand
            # the rest of the password to the driver as a host name, which its error
            # message then shows; display_location masks up to the last "@", so any "@"
            # before that one (in the password, or a query value) is refused
            raise StoreError(
                f"{display_location(db)}: not a valid database URL (more than one '@': "
                "write an '@' in the user name, password or query as %40)"
            )
        try:
            return make_url(db)
        except ArgumentError:
            problem = "expected scheme://user:password@host:port/database"
        except ValueError:  # SQLAlchemy's int() of the port
            problem = "the port is not a number"
        raise StoreError(f"{display_location(db)}: not a valid database URL ({problem})")
    return URL.create("sqlite+pysqlite", database=str(Path(db).expanduser()))


def refuse_keyword_string(db: str) -> None:
    """:class:`StoreError` when ``db`` is a libpq keyword/value string
    (:func:`~labeler.store.location.is_keyword_string`): it would otherwise name a SQLite
    file called ``host=... password=...``. The message shows it masked and names the URL
    form to write instead."""
    if is_keyword_string(db):
        raise StoreError(
            f"{display_location(db)}: a PostgreSQL keyword/value string is not a --db "
            "value; write it as a URL: postgresql://USER:PASSWORD@HOST:PORT/DBNAME"
        )


def is_sqlite(url: URL) -> bool:
    """True when ``url`` names a SQLite database."""
    return url.get_backend_name() == "sqlite"


SUPPORTED_BACKENDS = ("sqlite", "postgresql")


def is_supported(url: URL) -> bool:
    """True when ``url`` names a backend the store runs on (:data:`SUPPORTED_BACKENDS`)."""
    return is_sqlite(url) or is_postgresql(url)


def _check_sqlite_path(url: URL, where: str) -> None:
    path = url.database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    target = Path(path)
    if target.is_dir():
        raise StoreError(f"{where}: is a directory, not a database file")
    if not target.parent.is_dir():
        raise StoreError(f"{where}: directory {str(target.parent)!r} does not exist")


def _on_connect(dbapi_connection: Any, record: Any) -> None:
    # Take BEGIN away from the sqlite3 driver; _on_begin emits it (SQLAlchemy's recipe).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()
    note_wal(dbapi_connection, record.info)  # see labeler.store.integrity


def _on_begin(conn: Connection) -> None:
    immediate = conn.get_execution_options().get(WRITE_OPTION, False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def create_store_engine(db: str) -> Engine:
    """An engine for ``db`` (path or URL) with the connection setup described above.

    No connection is made yet. Raises :class:`StoreError` for an unusable location (empty,
    bad URL, a backend other than SQLite and PostgreSQL, a missing driver, a directory, a
    missing parent directory).
    """
    url = database_url(db)
    where = display_location(db)
    if not is_supported(url):
        raise StoreError(
            f"{where}: unsupported database {url.get_backend_name()!r} "
            "(supported: SQLite, PostgreSQL)"
        )
    try:
        if is_postgresql(url):
            return create_postgres_engine(url, WRITE_OPTION, where=where)
        _check_sqlite_path(url, where)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
    except (ArgumentError, ImportError) as exc:
        raise StoreError(f"{where}: cannot use this database: {exc}") from None
    event.listen(engine, "connect", _on_connect)
    event.listen(engine, "begin", _on_begin)
    return engine


def write_engine(engine: Engine) -> Engine:
    """``engine`` with :data:`WRITE_OPTION` set: its transactions begin ``IMMEDIATE``
    (on PostgreSQL: take the write lock first).

    It shares the pool and the event listeners of ``engine``.
    """
    return engine.execution_options(**{WRITE_OPTION: True})


def sqlite_error_text(exc: BaseException) -> str:
    """The driver's message of a DB-API error (wrapped by SQLAlchemy or raised by a driver
    cursor), without SQLAlchemy's SQL echo.

    Any driver's, always on one line: for PostgreSQL the primary message (and a short
    DETAIL); libpq's multi-line connection failures ("...refused" + a hint line) joined.
    """
    orig = getattr(exc, "orig", None) or exc  # a SQLAlchemy error wraps the driver's
    text = driver_message(orig) or str(orig)
    return " ".join(line.strip() for line in text.splitlines() if line.strip())
