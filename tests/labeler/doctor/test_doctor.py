"""``labeler doctor``: each invariant it checks, broken on purpose in a real database.

The shared checks run on SQLite and PostgreSQL; ``integrity_check``, ``foreign_key_check``
and the damaged file are SQLite's, the read-only snapshot and ``NOT VALID`` foreign keys
PostgreSQL's.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine
from sqlalchemy import exc as sa_exc
from sqlalchemy import text as sql_text
from sqlalchemy.engine import make_url

from labeler.cli import main
from labeler.doctor import diagnose, postgresql_snapshot
from labeler.pages import ingest_paths
from labeler.store import (
    SCHEMA_VERSION,
    add_element,
    add_query,
    create_gold_set,
    open_store,
)
from labeler.store.engine import create_store_engine
from labeler.store.run_table import add_run_results, create_run

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Intro. FR-001: The index is never the source of record. Outro."
ELEMENT = "FR-001: The index is never the source of record."


def build(db: str, tmp_path: Path) -> str:
    """A database with one page, one gold set, one question with one element."""
    page = tmp_path / "policy.txt"
    page.write_text(PAGE, encoding="utf-8")
    with open_store(db) as store:
        ingest_paths(store, [page])
        with store.write() as s:
            gold = create_gold_set(s, "gold")
            query = add_query(s, gold, "q1", "Is the index the source?", actor="ana")
            start = PAGE.index(ELEMENT)
            add_element(s, query, "policy.txt", start, start + len(ELEMENT), annotator="ana")
    return db


@contextmanager
def raw(db: str) -> Iterator[Connection]:
    """One committed transaction of raw SQL on ``db``, past the store's API."""
    engine = create_store_engine(db)
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        engine.dispose()


def doctor(db: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["doctor", "--db", db, *extra])
    return code, capsys.readouterr().out


def statuses(db: str) -> dict[str, str]:
    return {c.name: c.status for c in diagnose(db).checks}


def test_healthy_database_passes_and_is_not_written(
    backend: str, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build(db_url, tmp_path)
    file = Path(db)
    before = hashlib.sha256(file.read_bytes()).hexdigest() if backend == "sqlite" else ""
    code, out = doctor(db, capsys)
    assert code == 0
    assert out.rstrip().endswith("all checks passed")
    if backend == "sqlite":
        assert set(statuses(db).values()) == {"ok"}
        assert hashlib.sha256(file.read_bytes()).hexdigest() == before
    else:
        assert statuses(db) == {
            "integrity": "skipped",
            "schema": "ok",
            "foreign_keys": "ok",
            "spans": "ok",
            "duplicates": "ok",
            "overlaps": "ok",
            "dedup": "ok",
            "stale": "ok",
            "run_questions": "ok",
        }
        # element→query, element→document, query→gold_set, run_result→run, run_placement→run,
        # assignment→query, question_done→query, not_relevant→query, not_relevant→document
        assert "9 foreign key constraint(s), enforced by the server" in out


@pytest.mark.backends("postgresql")
def test_postgresql_is_read_in_one_read_only_snapshot(db_url: str, tmp_path: Path) -> None:
    db = build(db_url, tmp_path)
    with postgresql_snapshot(db) as conn:
        assert conn.exec_driver_sql("SHOW transaction_read_only").scalar() == "on"
        assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "repeatable read"
        with pytest.raises(sa_exc.InternalError, match="read-only transaction"):
            conn.exec_driver_sql("DELETE FROM element")
    with raw(db) as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM element").scalar() == 1


def test_stale_labels_are_listed_and_fail(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build(db_url, tmp_path)
    (tmp_path / "policy.txt").write_text(PAGE.replace("never", "not"), encoding="utf-8")
    with open_store(db) as store:
        assert len(ingest_paths(store, [tmp_path / "policy.txt"]).stale) == 1
    code, out = doctor(db, capsys)
    assert code == 1
    assert "1 stale label(s) in 1 gold set(s)" in out
    assert f"gold\tq1\tpolicy.txt\t7-55\t{ELEMENT!r}" in out
    assert "1 check(s) failed" in out
    code, out = doctor(db, capsys, "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False
    assert report["stale"] == [
        {
            "element_id": 1,
            "gold_set": "gold",
            "query": "q1",
            "doc": "policy.txt",
            "start": 7,
            "end": 55,
            "text": ELEMENT,
        }
    ]


def test_run_questions_in_no_gold_set_are_a_warning_counted_per_run(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build(db_url, tmp_path)
    with open_store(db) as store, store.write() as s:
        a = create_run(s, "bm25")
        add_run_results(
            s,
            a,
            [
                ("q1", 1, "x", None, None, False, None, None),
                ("q9", 1, "y", None, None, False, None, None),
            ],
        )
        b = create_run(s, "dense")
        add_run_results(
            s,
            b,
            [
                ("q7", 1, "x", None, None, False, None, None),
                ("q8", 2, "y", None, None, False, None, None),
            ],
        )
    code, out = doctor(db, capsys, "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True
    assert report["unknown_run_questions"] == {"bm25": 1, "dense": 2}
    check = next(c for c in report["checks"] if c["name"] == "run_questions")
    assert check["status"] == "warning"
    code, out = doctor(db, capsys)
    assert code == 0
    assert "all checks passed (1 warning(s))" in out


def test_element_differing_from_its_page_is_an_error(
    backend: str, db_url: str, tmp_path: Path
) -> None:
    db = build(db_url, tmp_path)
    with raw(db) as conn:  # get past the triggers that guard the invariant
        on_table = " ON element" if backend == "postgresql" else ""
        conn.exec_driver_sql(f"DROP TRIGGER element_span_update{on_table}")
        conn.exec_driver_sql("UPDATE element SET text = 'FR-002' WHERE id = 1")
    report = diagnose(db)
    spans = next(c for c in report.checks if c.name == "spans")
    assert spans.status == "error" and not report.ok
    assert spans.details[0]["element_id"] == 1
    assert "differs from the page text" in spans.details[0]["problem"]


@pytest.mark.backends("sqlite")
def test_dangling_foreign_key_is_an_error(db_url: str, tmp_path: Path) -> None:
    db = build(db_url, tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("UPDATE element SET query_id = 999 WHERE id = 1")
    conn.commit()
    conn.close()
    report = diagnose(db)
    fk = next(c for c in report.checks if c.name == "foreign_keys")
    assert fk.status == "error"
    assert fk.details[0] == {"table": "element", "rowid": 1, "references": "query"}


@pytest.mark.backends("postgresql")
def test_foreign_key_added_not_valid_is_an_error(db_url: str, tmp_path: Path) -> None:
    """The server checks every write against a foreign key, but a constraint dropped and
    added back ``NOT VALID`` never checked the rows already there."""
    db = build(db_url, tmp_path)
    with raw(db) as conn:
        conn.exec_driver_sql("ALTER TABLE element DROP CONSTRAINT element_query_id_fkey")
        conn.exec_driver_sql("UPDATE element SET query_id = 999 WHERE id = 1")
        conn.exec_driver_sql(
            "ALTER TABLE element ADD CONSTRAINT element_query_id_fkey FOREIGN KEY (query_id) "
            'REFERENCES "query" (id) ON DELETE CASCADE NOT VALID'
        )
    report = diagnose(db)
    fk = next(c for c in report.checks if c.name == "foreign_keys")
    assert fk.status == "error" and not report.ok
    assert "NOT VALID" in fk.summary
    assert fk.details == ({"table": "element", "constraint": "element_query_id_fkey"},)


def test_newer_schema_is_an_error_and_stops_the_checks(db_url: str, tmp_path: Path) -> None:
    db = build(db_url, tmp_path)
    with raw(db) as conn:
        conn.execute(
            sql_text("INSERT INTO schema_version VALUES (:v, 'from the future', '2030-01-01')"),
            {"v": SCHEMA_VERSION + 1},
        )
    report = diagnose(db)
    assert [c.name for c in report.checks] == ["integrity", "schema"]
    assert report.checks[1].status == "error" and "newer" in report.checks[1].summary


@pytest.mark.backends("sqlite")
def test_damaged_file_is_reported_without_traceback(db_url: str, tmp_path: Path) -> None:
    db = Path(build(db_url, tmp_path))
    data = bytearray(db.read_bytes())
    data[100 : len(data)] = b"\xa5" * (len(data) - 100)  # keep the header, wreck the pages
    db.write_bytes(bytes(data))
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", "doctor", "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert "FAIL  integrity" in proc.stdout
    assert "Traceback" not in proc.stderr


@pytest.mark.backends("sqlite")
def test_missing_database_is_an_error_and_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "nothing.db"
    assert main(["doctor", "--db", str(db)]) == 1
    assert f"no database at {db} (create one with labeler ingest" in capsys.readouterr().err
    assert not db.exists()


@pytest.mark.backends("postgresql")
def test_missing_postgresql_database_is_an_error_and_is_not_created(
    backend: str, pg_admin: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    name = f"labeler_t_missing_{uuid.uuid4().hex[:12]}"
    url = make_url(os.environ["LABELER_TEST_PG_URL"].strip()).set(database=name)
    assert main(["doctor", "--db", url.render_as_string(hide_password=False)]) == 1
    err = capsys.readouterr().err
    assert "cannot open" in err and f'database "{name}" does not exist' in err
    with pg_admin.connect() as conn:
        found = conn.execute(
            sql_text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
        ).first()
    assert found is None
