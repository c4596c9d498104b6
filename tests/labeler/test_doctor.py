"""``labeler doctor``: each invariant it checks, broken on purpose in a real SQLite file."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.doctor import diagnose
from labeler.ingest import ingest_paths
from labeler.store import (
    SCHEMA_VERSION,
    add_element,
    add_query,
    create_gold_set,
    open_store,
)
from labeler.store.runs import add_run_results, create_run

PAGE = "Intro. FR-001: The index is never the source of record. Outro."
ELEMENT = "FR-001: The index is never the source of record."


def build(tmp_path: Path) -> Path:
    """A database with one page, one gold set, one question with one element."""
    db = tmp_path / "labels.db"
    page = tmp_path / "policy.txt"
    page.write_text(PAGE, encoding="utf-8")
    with open_store(str(db)) as store:
        ingest_paths(store, [page])
        with store.write() as s:
            gold = create_gold_set(s, "gold")
            query = add_query(s, gold, "q1", "Is the index the source?", actor="ana")
            start = PAGE.index(ELEMENT)
            add_element(s, query, "policy.txt", start, start + len(ELEMENT), annotator="ana")
    return db


def doctor(db: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["doctor", "--db", str(db), *extra])
    return code, capsys.readouterr().out


def statuses(db: Path) -> dict[str, str]:
    return {c.name: c.status for c in diagnose(str(db)).checks}


def test_healthy_database_passes_and_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build(tmp_path)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    code, out = doctor(db, capsys)
    assert code == 0
    assert out.rstrip().endswith("all checks passed")
    assert set(statuses(db).values()) == {"ok"}
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_stale_labels_are_listed_and_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build(tmp_path)
    (tmp_path / "policy.txt").write_text(PAGE.replace("never", "not"), encoding="utf-8")
    with open_store(str(db)) as store:
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
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build(tmp_path)
    with open_store(str(db)) as store, store.write() as s:
        a = create_run(s, "bm25")
        add_run_results(s, a, [("q1", 1, "x", None, None), ("q9", 1, "y", None, None)])
        b = create_run(s, "dense")
        add_run_results(s, b, [("q7", 1, "x", None, None), ("q8", 2, "y", None, None)])
    code, out = doctor(db, capsys, "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True
    assert report["unknown_run_questions"] == {"bm25": 1, "dense": 2}
    check = next(c for c in report["checks"] if c["name"] == "run_questions")
    assert check["status"] == "warning"
    code, out = doctor(db, capsys)
    assert code == 0
    assert "all checks passed (1 warning(s))" in out


def test_element_differing_from_its_page_is_an_error(tmp_path: Path) -> None:
    db = build(tmp_path)
    with sqlite3.connect(db) as conn:  # get past the triggers that guard the invariant
        conn.execute("DROP TRIGGER element_span_update")
        conn.execute("UPDATE element SET text = 'FR-002' WHERE id = 1")
    report = diagnose(str(db))
    spans = next(c for c in report.checks if c.name == "spans")
    assert spans.status == "error" and not report.ok
    assert spans.details[0]["element_id"] == 1
    assert "differs from the page text" in spans.details[0]["problem"]


def test_dangling_foreign_key_is_an_error(tmp_path: Path) -> None:
    db = build(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("UPDATE element SET query_id = 999 WHERE id = 1")
    conn.commit()
    conn.close()
    report = diagnose(str(db))
    fk = next(c for c in report.checks if c.name == "foreign_keys")
    assert fk.status == "error"
    assert fk.details[0] == {"table": "element", "rowid": 1, "references": "query"}


def test_newer_schema_is_an_error_and_stops_the_checks(tmp_path: Path) -> None:
    db = build(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO schema_version VALUES (?, 'from the future', '2030-01-01')",
            (SCHEMA_VERSION + 1,),
        )
    report = diagnose(str(db))
    assert [c.name for c in report.checks] == ["integrity", "schema"]
    assert report.checks[1].status == "error" and "newer" in report.checks[1].summary


def test_damaged_file_is_reported_without_traceback(tmp_path: Path) -> None:
    db = build(tmp_path)
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


def test_missing_database_is_an_error_and_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "nothing.db"
    assert main(["doctor", "--db", str(db)]) == 1
    assert "no such database file" in capsys.readouterr().err
    assert not db.exists()
