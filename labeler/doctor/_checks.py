"""``labeler doctor``: check a database's invariants and list what needs fixing.

The database is opened **read-only**: a SQLite file through the standard ``sqlite3`` driver
(``mode=ro``), a PostgreSQL database in one ``REPEATABLE READ, READ ONLY`` transaction (one
snapshot for every check). The doctor never writes, never upgrades and never creates a file
or a database. Checks, in order:

* ``integrity``: ``PRAGMA integrity_check`` says ``ok`` (else nothing further is trusted
  and the remaining checks are skipped). SQLite only: on PostgreSQL the check is
  ``skipped`` (the server keeps its own storage consistent);
* ``schema``: the schema version is the one this labeller writes (older: an error that any
  other command fixes by upgrading; newer or not a labeller database: an error, and the
  remaining checks are skipped because the tables may differ);
* ``foreign_keys``: on SQLite, ``PRAGMA foreign_key_check`` finds no dangling reference. On
  PostgreSQL the server enforces every foreign key on every write, so the check only
  confirms that each constraint is validated (one added ``NOT VALID`` never checked the rows
  that were already there: an error naming it);
* ``spans``: every ``ok`` element's text equals its page's ``text[start:end]``;
* ``duplicates`` (error), ``overlaps`` (warning), ``dedup`` (warning: what the schema 5
  upgrade removed): elements of one question against each other, see
  :mod:`labeler.doctor`;
* ``stale``: no element is stale (each is listed: gold set, question, page, offsets,
  text); stale labels are left out of scores, so they count as something to fix;
* ``run_questions``: run results whose question is in no gold set, counted per run. A
  **warning** only: a run may hold questions a gold set does not have yet.

:attr:`DoctorReport.ok` is false when any check is an error; warnings do not count.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from sqlalchemy import Connection, create_engine
from sqlalchemy import exc as sa_exc
from sqlalchemy import text as sql_text
from sqlalchemy.pool import NullPool

from labeler.doctor import _span_checks as doctor_spans
from labeler.errors import StoreError
from labeler.progress import Progress, no_progress
from labeler.store.engine import (
    database_url,
    display_location,
    refuse_keyword_string,
    sqlite_error_text,
)
from labeler.store.location import sqlite_file
from labeler.store.migrations import SCHEMA_VERSION
from labeler.store.postgres import bound_replies, connect_args, with_driver
from labeler.store.session import missing_database
from labeler.store.validation import span_problem

Status = Literal["ok", "warning", "error", "skipped"]

#: checks of elements against each other (see :mod:`labeler.doctor`)
_SPAN_CHECKS = (
    ("duplicates", doctor_spans.duplicates),
    ("overlaps", doctor_spans.overlaps),
    ("dedup", doctor_spans.dedup),
)

#: examples listed per failing check (stale labels are always listed in full)
MAX_DETAILS = 50


@dataclass(frozen=True)
class Check:
    """One check's verdict; ``details`` are JSON-ready examples of what is wrong."""

    name: str
    status: Status
    summary: str
    details: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class StaleLabel:
    """A stale element: its page changed and its text could not be re-anchored."""

    element_id: int
    gold_set: str
    query: str
    doc: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class DoctorReport:
    """Every check's verdict and the stale labels, for one database."""

    database: str
    schema_version: int | None
    checks: tuple[Check, ...]
    stale: tuple[StaleLabel, ...] = ()
    unknown_run_questions: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when no check is an error (warnings allowed)."""
        return all(c.status != "error" for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready object."""
        return {
            "database": self.database,
            "ok": self.ok,
            "schema_version": self.schema_version,
            "expected_schema_version": SCHEMA_VERSION,
            "checks": [
                {"name": c.name, "status": c.status, "summary": c.summary, "details": c.details}
                for c in self.checks
            ],
            "stale": [asdict(s) for s in self.stale],
            "unknown_run_questions": self.unknown_run_questions,
        }


class _Database:
    """One read-only transaction on the database being checked, whichever the backend.

    Statements are shared SQL with ``:name`` parameters (both ``sqlite3`` and SQLAlchemy's
    ``text()`` take them); the few backend-specific checks ask :attr:`backend`.
    """

    backend: Literal["sqlite", "postgresql"]

    def rows(self, sql: str, **params: Any) -> Iterable[Sequence[Any]]:
        raise NotImplementedError

    def has_table(self, name: str) -> bool:
        raise NotImplementedError


class _SqliteDatabase(_Database):
    backend = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def rows(self, sql: str, **params: Any) -> Iterable[Sequence[Any]]:
        return self.conn.execute(sql, params)

    def has_table(self, name: str) -> bool:
        sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :name"
        return self.conn.execute(sql, {"name": name}).fetchone() is not None


class _PostgresDatabase(_Database):
    backend = "postgresql"

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def rows(self, sql: str, **params: Any) -> Iterable[Sequence[Any]]:
        return self.conn.execute(sql_text(sql), params)

    def has_table(self, name: str) -> bool:
        sql = (
            "SELECT 1 FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name = :name"
        )
        return any(True for _ in self.rows(sql, name=name))


def _connect(db: str) -> tuple[Path, sqlite3.Connection]:
    path = sqlite_file(db)
    where = display_location(db)
    if path is None:
        raise StoreError(f"{where}: not a SQLite database file")
    if not path.is_file():
        raise missing_database(where)
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
        conn.execute("PRAGMA busy_timeout = 10000")
    except sqlite3.Error as err:
        raise StoreError(f"{where}: cannot open: {err}") from None
    return path, conn


def _is_postgresql(db: str) -> bool:
    scheme, sep, _ = db.partition("://")
    return bool(sep) and scheme.split("+")[0] == "postgresql"


@contextmanager
def postgresql_snapshot(db: str) -> Iterator[Connection]:
    """A connection to PostgreSQL database ``db`` inside one ``REPEATABLE READ, READ ONLY``
    transaction, rolled back at the end: every statement sees the same snapshot and the
    server refuses any write.

    Raises :class:`StoreError` when the database cannot be reached (it is never created) or
    a statement fails.
    """
    where = display_location(db)
    url = with_driver(database_url(db))
    try:
        engine = create_engine(
            url, poolclass=NullPool, connect_args=connect_args(url, "labeler doctor")
        )
    except (sa_exc.ArgumentError, ImportError) as exc:
        raise StoreError(f"{where}: cannot use this database: {exc}") from None
    bound_replies(engine)
    try:
        try:
            conn = engine.connect()
        except sa_exc.DBAPIError as exc:
            message = sqlite_error_text(exc).strip().partition("\n")[0]
            raise StoreError(f"{where}: cannot open: {message}") from None
        with conn:  # closing the connection rolls the transaction back
            try:
                conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield conn
            except sa_exc.DBAPIError as exc:
                raise StoreError(f"{where}: cannot read: {sqlite_error_text(exc)}") from None
    finally:
        engine.dispose()


def diagnose(db: str, *, progress: Progress = no_progress) -> DoctorReport:
    """Run every check on database ``db``: a SQLite path or ``sqlite:///`` URL, or a
    ``postgresql://`` URL. ``progress(checks_done, checks, name)`` after each check.

    Raises :class:`StoreError` when ``db`` is not a SQLite file that exists or a PostgreSQL
    database that can be reached, or cannot be opened at all; a SQLite file that opens but
    is damaged is reported, not raised.
    """
    refuse_keyword_string(db)
    if _is_postgresql(db):
        with postgresql_snapshot(db) as pg:
            return _diagnose(display_location(db), _PostgresDatabase(pg), progress)
    if sqlite_file(db) is None:
        raise StoreError(
            f"{display_location(db)}: the doctor checks SQLite database files and "
            "PostgreSQL databases only"
        )
    path, conn = _connect(db)
    with closing(conn):
        try:
            return _diagnose(str(path), _SqliteDatabase(conn), progress)
        except sqlite3.DatabaseError as err:
            failed = Check("integrity", "error", f"cannot read the database: {err}")
            return DoctorReport(str(path), None, (failed,))


def _diagnose(where: str, db: _Database, progress: Progress) -> DoctorReport:
    total = 6 + len(_SPAN_CHECKS)  # integrity, schema, stale, runs, foreign keys, spans
    done = 0

    def ran(name: str) -> None:
        nonlocal done
        done += 1
        progress(done, total, name)

    integrity = _integrity(db)
    ran("integrity")
    if integrity.status == "error":
        return DoctorReport(where, None, (integrity,))
    version, schema = _schema(db)
    ran("schema")
    if schema.status == "error" and (version is None or version > SCHEMA_VERSION):
        return DoctorReport(where, version, (integrity, schema))
    stale = _stale(db)
    ran("stale")
    unknown = _unknown_run_questions(db)
    ran("runs")
    foreign = _foreign_keys(db)
    ran("foreign keys")
    spans = _spans(db)
    ran("spans")
    more = []
    for name, check in _SPAN_CHECKS:
        more.append(Check(name, *check(db)))
        ran(name)
    checks = (
        integrity,
        schema,
        foreign,
        spans,
        *more,
        _stale_check(stale),
        _run_check(unknown),
    )
    return DoctorReport(where, version, checks, stale, unknown)


def _integrity(db: _Database) -> Check:
    if db.backend == "postgresql":
        return Check(
            "integrity",
            "skipped",
            "no integrity_check on PostgreSQL: the server keeps its own storage consistent",
        )
    rows = [str(r[0]) for r in db.rows("PRAGMA integrity_check")]
    if rows == ["ok"]:
        return Check("integrity", "ok", "integrity_check: ok")
    details = tuple({"message": r} for r in rows[:MAX_DETAILS])
    return Check("integrity", "error", f"integrity_check reports {len(rows)} problem(s)", details)


def _schema(db: _Database) -> tuple[int | None, Check]:
    if not db.has_table("schema_version"):
        return None, Check("schema", "error", "not a labeler database (no schema_version table)")
    version = int(next(iter(db.rows("SELECT max(version) FROM schema_version")))[0] or 0)
    if version == SCHEMA_VERSION:
        return version, Check("schema", "ok", f"schema version {version}")
    if version > SCHEMA_VERSION:
        summary = f"schema version {version} is newer than this labeler ({SCHEMA_VERSION})"
    else:
        summary = (
            f"schema version {version} is older than {SCHEMA_VERSION}; any other labeler "
            "command upgrades it"
        )
    return version, Check("schema", "error", summary)


def _foreign_keys(db: _Database) -> Check:
    if db.backend == "postgresql":
        return _foreign_keys_postgresql(db)
    rows = list(db.rows("PRAGMA foreign_key_check"))
    if not rows:
        return Check("foreign_keys", "ok", "foreign_key_check: ok")
    details = tuple(
        {"table": t, "rowid": rowid, "references": parent} for t, rowid, parent, _ in rows
    )
    return Check(
        "foreign_keys",
        "error",
        f"{len(rows)} row(s) refer to rows that do not exist",
        details[:MAX_DETAILS],
    )


def _foreign_keys_postgresql(db: _Database) -> Check:
    rows = list(
        db.rows(
            "SELECT c.conrelid::regclass::text, c.conname, c.convalidated FROM pg_constraint AS c "
            "JOIN pg_namespace AS n ON n.oid = c.connamespace "
            "WHERE c.contype = 'f' AND n.nspname = current_schema() "
            "ORDER BY 1, 2"
        )
    )
    unchecked = [{"table": t, "constraint": name} for t, name, valid in rows if not valid]
    if not unchecked:
        return Check(
            "foreign_keys",
            "ok",
            f"{len(rows)} foreign key constraint(s), enforced by the server",
        )
    return Check(
        "foreign_keys",
        "error",
        f"{len(unchecked)} foreign key constraint(s) NOT VALID: rows older than the "
        "constraint were never checked",
        tuple(unchecked[:MAX_DETAILS]),
    )


def _spans(db: _Database) -> Check:
    """Every ok element against its page, one page text in memory at a time."""
    bad: list[dict[str, Any]] = []
    checked = 0
    page_id: str | None = None
    page = ""
    rows = db.rows(
        "SELECT id, document_id, start, \"end\", text FROM element WHERE status = 'ok' "
        "ORDER BY document_id, id"
    )
    for element_id, doc, start, end, text in rows:
        checked += 1
        if doc != page_id:
            found = list(db.rows("SELECT text FROM document WHERE id = :doc", doc=doc))
            page_id, page = doc, ("" if not found else str(found[0][0]))
        problem = span_problem(page, start, end, text)
        if problem is not None:
            bad.append(
                {
                    "element_id": element_id,
                    "doc": doc,
                    "start": start,
                    "end": end,
                    "problem": problem,
                }
            )
    if not bad:
        return Check("spans", "ok", f"{checked} ok element(s) equal their page slice")
    return Check(
        "spans",
        "error",
        f"{len(bad)} of {checked} ok element(s) differ from their page slice",
        tuple(bad[:MAX_DETAILS]),
    )


def _stale(db: _Database) -> tuple[StaleLabel, ...]:
    rows = db.rows(
        'SELECT e.id, g.name, q.external_id, e.document_id, e.start, e."end", e.text '
        'FROM element AS e JOIN "query" AS q ON q.id = e.query_id '
        "JOIN gold_set AS g ON g.id = q.gold_set_id "
        "WHERE e.status = 'stale' ORDER BY g.name, q.id, e.document_id, e.start, e.id"
    )
    return tuple(StaleLabel(*row) for row in rows)


def _stale_check(stale: tuple[StaleLabel, ...]) -> Check:
    if not stale:
        return Check("stale", "ok", "no stale labels")
    sets = len({s.gold_set for s in stale})
    return Check(
        "stale",
        "error",
        f"{len(stale)} stale label(s) in {sets} gold set(s): their page changed and the text "
        "could not be re-anchored; they are left out of scores until relabelled",
    )


def _unknown_run_questions(db: _Database) -> dict[str, int]:
    rows = db.rows(
        "SELECT r.name, count(DISTINCT rr.query_external_id) FROM run_result AS rr "
        "JOIN run AS r ON r.id = rr.run_id "
        'WHERE rr.query_external_id NOT IN (SELECT external_id FROM "query") '
        "GROUP BY r.name ORDER BY r.name"
    )
    return {str(name): int(count) for name, count in rows}


def _run_check(unknown: dict[str, int]) -> Check:
    if not unknown:
        return Check("run_questions", "ok", "every run question is in some gold set")
    total = sum(unknown.values())
    return Check(
        "run_questions",
        "warning",
        f"{total} run question(s) in {len(unknown)} run(s) are in no gold set (ignored by scoring)",
        tuple({"run": name, "questions": n} for name, n in unknown.items()),
    )
