"""PostgreSQL specifics of the store: driver choice, the write lock, SQLite spellings.

``--db postgresql://user@host:port/dbname`` uses psycopg 3 (``postgresql+psycopg``) unless the
URL names another driver. Read transactions run at REPEATABLE READ: one snapshot for the whole
transaction, never blocking and never blocked, like a SQLite WAL reader. Write transactions
run at READ COMMITTED under the write lock (below).

**Writers serialise as on SQLite.** The store relies on ``BEGIN IMMEDIATE``: a write
transaction that reads (does this gold set exist? which entry is the actor's latest? which
elements does this page hold?) and then writes must not interleave with another writer.
Every write transaction therefore takes one transaction-scoped advisory lock
(``pg_advisory_xact_lock(WRITE_LOCK_KEY)``, scoped to the database) as its first statement,
and releases it at COMMIT or ROLLBACK. Since the lock is taken before anything is read,
every statement of the transaction sees every earlier writer's committed work (READ
COMMITTED takes a fresh snapshot per statement), so the transaction behaves exactly like
an immediate SQLite one: no serialization failures, no deadlocks between writers, nothing
to retry. A writer waits up to :data:`WRITE_LOCK_TIMEOUT_MS` for the lock (SQLite waits
``busy_timeout`` per attempt and retries); then :class:`~labeler.errors.StoreError` says the
database stayed busy. Raw SQL outside :meth:`Store.write` takes no lock, like raw SQL on a
SQLite connection.

**SQLite spellings.** The shared queries use two SQLite functions that PostgreSQL spells
differently; :func:`instr` compiles to ``strpos`` and a scalar (two-argument) ``max`` to
``greatest`` on PostgreSQL only. Everything else the store emits is portable SQL.

Text on PostgreSQL cannot hold U+0000 (NUL); storing such a page fails with a
:class:`~labeler.errors.StoreError` naming the problem. SQLite stores it.

**Timeouts: a server that stops answering ends the command.** Connections (the store's and
the doctor's, :func:`connect_args` and :func:`bound_replies`) get:

* ``connect_timeout`` :data:`CONNECT_TIMEOUT_S` (10 s) for establishing the connection;
* TCP keepalives (idle 30 s, then every 10 s, 3 probes) against a host that vanished;
* ``statement_timeout`` (``$LABELER_PG_STATEMENT_TIMEOUT`` seconds, default
  :data:`STATEMENT_TIMEOUT_S` = 120 s, more than the 60 s write-lock wait): the server
  cancels any one statement running longer;
* a client-side reply deadline of the statement timeout plus :data:`REPLY_GRACE_S` (10 s;
  ``$LABELER_PG_REPLY_GRACE`` seconds when it is a positive number, for the test that
  freezes a server, which would otherwise wait those 10 s out):
  when the socket shows no progress at all for that long (a frozen server: SIGSTOP, a hung
  VM; neither keepalives nor the server's own timeout can notice it, the kernel still
  acknowledges), the connection is closed and :class:`~labeler.errors.StoreError` says the
  server stopped answering. The server rolls back the unfinished transaction (a freeze
  while a COMMIT was in flight leaves its outcome to the server).

psycopg's own complaint when a pipeline (``executemany``) is torn down on a dead
connection ("error ignored terminating <psycopg.Pipeline [BAD]>") is a log record with no
handler; it is silenced (the error itself reaches the user as one message).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Generator
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql import functions
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.types import Integer

from labeler.errors import StoreError

DEFAULT_DRIVER = "psycopg"
# "labeler" in ASCII: the one advisory lock key every writer takes (per database).
WRITE_LOCK_KEY = 0x6C6162656C6572
WRITE_LOCK_TIMEOUT_MS = 60_000
CONNECT_TIMEOUT_S = 10
STATEMENT_TIMEOUT_ENV = "LABELER_PG_STATEMENT_TIMEOUT"
STATEMENT_TIMEOUT_S = 120.0
REPLY_GRACE_ENV = "LABELER_PG_REPLY_GRACE"
REPLY_GRACE_S = 10.0
_LOCK_NOT_AVAILABLE = "55P03"

# psycopg logs "error ignored terminating <psycopg.Pipeline [BAD]>" when a dead connection's
# pipeline is closed; without a handler Python prints it on stderr as a stray line.
logging.getLogger("psycopg").addHandler(logging.NullHandler())


def is_postgresql(url: URL) -> bool:
    """True when ``url`` names a PostgreSQL database."""
    return url.get_backend_name() == "postgresql"


def text_holds_nul(engine: Engine) -> bool:
    """Whether ``engine``'s database can store NUL (U+0000) in text: SQLite can, PostgreSQL
    cannot. Importers refuse NUL up front where it cannot be stored."""
    return not is_postgresql(engine.url)


def with_driver(url: URL) -> URL:
    """``url`` with psycopg 3 as its driver when it names none (``postgresql://``)."""
    if url.drivername == "postgresql":
        return url.set(drivername=f"postgresql+{DEFAULT_DRIVER}")
    return url


def busy_message(where: str) -> str:
    """What the user reads when another writer held the write lock for too long."""
    return (
        f"{where}: the database stayed busy: another process kept it locked for writing "
        f"(a long import?) for {WRITE_LOCK_TIMEOUT_MS / 1000:g} s; nothing was written, try again"
    )


def statement_timeout() -> float:
    """Seconds any one statement may run: ``$LABELER_PG_STATEMENT_TIMEOUT`` when it is a
    positive number, else :data:`STATEMENT_TIMEOUT_S`."""
    return _seconds_from(STATEMENT_TIMEOUT_ENV, STATEMENT_TIMEOUT_S)


def reply_grace() -> float:
    """Seconds the reply deadline adds to the statement timeout: ``$LABELER_PG_REPLY_GRACE``
    when it is a positive number, else :data:`REPLY_GRACE_S`."""
    return _seconds_from(REPLY_GRACE_ENV, REPLY_GRACE_S)


def _seconds_from(env: str, default: float) -> float:
    """``$env`` as seconds when it is a positive number, else ``default``."""
    try:
        seconds = float(os.environ.get(env, ""))
    except ValueError:
        return default
    return seconds if seconds > 0 else default


def connect_args(url: URL, application_name: str) -> dict[str, Any]:
    """The driver's connection arguments for ``url`` (a psycopg URL; others get none):
    connect timeout, keepalives, ``statement_timeout`` (module docstring). Options the URL
    itself passes (``?options=...``) are kept, ours appended."""
    if url.get_driver_name() not in ("psycopg", "psycopg2"):
        return {}
    own = url.query.get("options", "")
    options = f"-c statement_timeout={round(statement_timeout() * 1000)}"
    return {
        "connect_timeout": CONNECT_TIMEOUT_S,
        "application_name": application_name,
        "keepalives": 1,
        "keepalives_idle": 30,
        "keepalives_interval": 10,
        "keepalives_count": 3,
        "options": f"{own} {options}".strip() if isinstance(own, str) else options,
    }


def _deadline(
    gen: Generator[Any, Any, Any], seconds: float, stalled: Callable[[], BaseException]
) -> Generator[Any, Any, Any]:
    """Drive psycopg's wait generator ``gen``, raising ``stalled()`` when the socket shows no
    progress for ``seconds``. psycopg's wait loop wakes every fraction of a second and sends
    0 (nothing ready) into the generator; any readiness restarts the clock."""
    limit = time.monotonic() + seconds
    try:
        state = next(gen)
    except StopIteration as done:  # finished without waiting
        return done.value
    while True:
        ready = yield state
        if ready:
            limit = time.monotonic() + seconds
        elif time.monotonic() > limit:
            gen.close()
            raise stalled()
        try:
            state = gen.send(ready)
        except StopIteration as done:
            return done.value


def bound_replies(engine: Engine) -> None:
    """Make every psycopg connection of ``engine`` give up on a server that sends nothing
    for the statement timeout plus :func:`reply_grace` (module docstring); such a
    connection is closed at once so that nothing else (rollback, pipeline exit) waits on it.
    """
    if engine.dialect.driver != "psycopg":
        return
    import psycopg

    seconds = statement_timeout() + reply_grace()

    class BoundedConnection(psycopg.Connection[Any]):
        stalled = False

        def rollback(self) -> None:
            # Nothing to roll back on a connection given up on (the server rolls back when
            # it notices); failing here would replace the error that says why.
            if not self.stalled:
                super().rollback()

        def wait(self, gen: Any, *args: Any, **kwargs: Any) -> Any:
            def stalled() -> BaseException:
                self.stalled = True
                self.pgconn.finish()  # closed: later calls fail at once instead of waiting
                return psycopg.OperationalError(
                    f"the server stopped answering: nothing received for {seconds:g} s (is "
                    f"it stopped or overloaded? ${STATEMENT_TIMEOUT_ENV} sets the limit)"
                )

            return super().wait(_deadline(gen, seconds, stalled), *args, **kwargs)

    @event.listens_for(engine, "do_connect")
    def connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        return BoundedConnection.connect(*cargs, **cparams)


def write_lock_holder(engine: Engine) -> str | None:
    """Who holds the write lock of ``engine``'s database now: the backend's process id,
    the client's program name, how long its transaction has run and the start of its
    latest statement; None when nobody does (or it cannot be seen)."""
    sql = (
        "SELECT a.pid, a.application_name, "
        "extract(epoch FROM now() - a.xact_start), left(a.query, 60) "
        "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
        "AND l.classid::bigint = %(hi)s AND l.objid::bigint = %(lo)s "
        "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )
    key = {"hi": WRITE_LOCK_KEY >> 32, "lo": WRITE_LOCK_KEY & 0xFFFFFFFF}
    with engine.connect() as conn:
        row = conn.exec_driver_sql(sql, key).first()
    if row is None:
        return None
    pid, program, seconds, query = row
    running = f", in a transaction for {float(seconds):.0f} s" if seconds is not None else ""
    last = " ".join(str(query or "").split())
    return (
        f"server process {pid} ({program or 'unnamed client'}{running}; last statement: {last!r})"
    )


def create_postgres_engine(url: URL, write_option: str, *, where: str) -> Engine:
    """An engine for ``url`` whose transactions carrying ``write_option`` take the write lock.

    ``where`` names the database in messages
    (:func:`labeler.store.location.display_location`). Raises
    ``ImportError`` / :class:`sqlalchemy.exc.ArgumentError` for a missing driver or a bad
    URL (the caller turns them into :class:`StoreError`). No connection is made yet.
    """
    url = with_driver(url)
    engine = create_engine(url, connect_args=connect_args(url, "labeler"), pool_pre_ping=True)
    bound_replies(engine)

    def on_begin(conn: Connection) -> None:
        if not conn.get_execution_options().get(write_option, False):
            # One snapshot for the whole read transaction, as a SQLite WAL reader has.
            conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return
        try:
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {WRITE_LOCK_TIMEOUT_MS}")
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")
        except sa_exc.OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) == _LOCK_NOT_AVAILABLE:
                raise StoreError(busy_message(where)) from None
            raise

    event.listen(engine, "begin", on_begin)
    return engine


def driver_message(orig: BaseException) -> str | None:
    """The one-line message of a psycopg error (its DETAIL when short), else None.

    ``str()`` of a psycopg error appends DETAIL and CONTEXT lines; DETAIL of a check
    violation repeats the whole row (a page's text), so only a short one is kept.
    """
    diag = getattr(orig, "diag", None)
    primary = getattr(diag, "message_primary", None)
    if not isinstance(primary, str):
        return None
    detail = getattr(diag, "message_detail", None)
    if isinstance(detail, str) and len(detail) <= 200 and not detail.startswith("Failing row"):
        return f"{primary} ({detail})"
    return primary


class instr(functions.GenericFunction[int]):
    """SQLite's ``instr(haystack, needle)``: 1-based position of needle, 0 when absent."""

    type = Integer()
    inherit_cache = True


@compiles(instr, "postgresql")
def _instr_postgresql(element: instr, compiler: SQLCompiler, **kw: Any) -> str:
    return f"strpos{compiler.process(element.clause_expr, **kw)}"


@compiles(functions.max, "postgresql")
def _max_postgresql(element: functions.max[Any], compiler: SQLCompiler, **kw: Any) -> str:
    if len(element.clauses) > 1:  # SQLite's scalar max(a, b, ...)
        return f"greatest{compiler.process(element.clause_expr, **kw)}"
    return compiler.visit_function(element, **kw)
