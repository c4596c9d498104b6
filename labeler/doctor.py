"""``labeler doctor``: check a database's invariants and list what needs fixing.

The database is opened **read-only** through the standard ``sqlite3`` driver; the doctor
never writes, never upgrades and never creates a file. Checks, in order:

* ``integrity``: ``PRAGMA integrity_check`` says ``ok`` (else nothing further is trusted
  and the remaining checks are skipped);
* ``schema``: the schema version is the one this labeller writes (older: an error that any
  other command fixes by upgrading; newer or not a labeller database: an error, and the
  remaining checks are skipped because the tables may differ);
* ``foreign_keys``: ``PRAGMA foreign_key_check`` finds no dangling reference;
* ``spans``: every ``ok`` element's text equals its page's ``text[start:end]``;
* ``stale``: no element is stale (each is listed: gold set, question, page, offsets,
  text); stale labels are left out of scores, so they count as something to fix;
* ``run_questions``: run results whose question is in no gold set, counted per run. A
  **warning** only: a run may hold questions a gold set does not have yet.

:attr:`DoctorReport.ok` is false when any check is an error; warnings do not count.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from labeler.errors import StoreError
from labeler.store.location import sqlite_file
from labeler.store.migrations import SCHEMA_VERSION
from labeler.store.validation import span_problem

Status = Literal["ok", "warning", "error", "skipped"]

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


def _connect(db: str) -> tuple[Path, sqlite3.Connection]:
    path = sqlite_file(db)
    if path is None:
        raise StoreError(f"{db}: the doctor checks SQLite database files only")
    if not path.is_file():
        raise StoreError(f"{db}: no such database file")
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
        conn.execute("PRAGMA busy_timeout = 10000")
    except sqlite3.Error as err:
        raise StoreError(f"{db}: cannot open: {err}") from None
    return path, conn


def diagnose(db: str) -> DoctorReport:
    """Run every check on database ``db`` (a path or a ``sqlite:///`` URL).

    Raises :class:`StoreError` when ``db`` is not a SQLite file that exists or cannot be
    opened at all; a file that opens but is damaged is reported, not raised.
    """
    path, conn = _connect(db)
    with closing(conn):
        try:
            return _diagnose(str(path), conn)
        except sqlite3.DatabaseError as err:
            failed = Check("integrity", "error", f"cannot read the database: {err}")
            return DoctorReport(str(path), None, (failed,))


def _diagnose(where: str, conn: sqlite3.Connection) -> DoctorReport:
    integrity = _integrity(conn)
    if integrity.status != "ok":
        return DoctorReport(where, None, (integrity,))
    version, schema = _schema(conn)
    if schema.status == "error" and (version is None or version > SCHEMA_VERSION):
        return DoctorReport(where, version, (integrity, schema))
    stale = _stale(conn)
    unknown = _unknown_run_questions(conn)
    checks = (
        integrity,
        schema,
        _foreign_keys(conn),
        _spans(conn),
        _stale_check(stale),
        _run_check(unknown),
    )
    return DoctorReport(where, version, checks, stale, unknown)


def _integrity(conn: sqlite3.Connection) -> Check:
    rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
    if rows == ["ok"]:
        return Check("integrity", "ok", "integrity_check: ok")
    details = tuple({"message": r} for r in rows[:MAX_DETAILS])
    return Check("integrity", "error", f"integrity_check reports {len(rows)} problem(s)", details)


def _schema(conn: sqlite3.Connection) -> tuple[int | None, Check]:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" not in tables:
        return None, Check("schema", "error", "not a labeler database (no schema_version table)")
    version = int(conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0)
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


def _foreign_keys(conn: sqlite3.Connection) -> Check:
    rows = conn.execute("PRAGMA foreign_key_check").fetchall()
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


def _spans(conn: sqlite3.Connection) -> Check:
    """Every ok element against its page, one page text in memory at a time."""
    bad: list[dict[str, Any]] = []
    checked = 0
    page_id: str | None = None
    page = ""
    rows = conn.execute(
        "SELECT id, document_id, start, \"end\", text FROM element WHERE status = 'ok' "
        "ORDER BY document_id, id"
    )
    for element_id, doc, start, end, text in rows:
        checked += 1
        if doc != page_id:
            found = conn.execute("SELECT text FROM document WHERE id = ?", (doc,)).fetchone()
            page_id, page = doc, ("" if found is None else str(found[0]))
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


def _stale(conn: sqlite3.Connection) -> tuple[StaleLabel, ...]:
    rows = conn.execute(
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


def _unknown_run_questions(conn: sqlite3.Connection) -> dict[str, int]:
    rows = conn.execute(
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
