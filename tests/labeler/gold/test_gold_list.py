"""``labeler gold list``: one row per gold set (name, questions, elements, distinct
annotators, last change) as a table or JSON lines, on both backends, from hand-made sets
whose audit times are set by hand:

* ``alpha``: questions q1, q2; elements by ana, bob (on q1) and ana (on q2), added on
  1-5 January; then, on 20 January, ana regrades an element (an edit, no new row): 2
  questions, 3 elements, 2 annotators, last change 2026-01-20 09:00.
* ``beta``: created empty on 24 December 2025, nothing since: last change is its creation.
* ``gamma``: one question with one element, added 1-2 February, the element removed on
  3 February: 1 question, 0 elements, 0 annotators, last change the removal (whose row is
  gone), 2026-02-03 08:15.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from sqlmodel import Session, col, update

from labeler.cli import main
from labeler.store import (
    AuditEntry,
    GoldSet,
    Store,
    add_element,
    add_query,
    create_gold_set,
    remove_element,
    set_grade,
    upsert_document,
)

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Alpha one. Beta two. Gamma three."
REAL_TIMES = datetime(2026, 6, 1, tzinfo=UTC)  # every real timestamp is after this


def at(month: int, day: int, hour: int = 9, minute: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def stamp(store: Store, when: datetime) -> None:
    """Date the audit entries written since the last stamp (those after REAL_TIMES)."""
    with store.write() as session:
        session.execute(update(AuditEntry).where(col(AuditEntry.at) > REAL_TIMES).values(at=when))


def created(session: Session, name: str, when: datetime) -> GoldSet:
    gold_set = create_gold_set(session, name)
    gold_set.created_at = when
    return gold_set


@pytest.fixture
def listed(store: Store, db_url: str) -> str:
    with store.write() as session:
        upsert_document(
            session, doc_id="p.txt", source_path="p.txt", sha256="0", profile="text", text=PAGE
        )
        created(session, "beta", at(12, 24, 10, year=2025))
        gamma = created(session, "gamma", at(12, 2, year=2025))
        alpha = created(session, "alpha", at(12, 1, year=2025))
        q1 = add_query(session, alpha, "q1", "Which alpha?", actor="ana")
        q2 = add_query(session, alpha, "q2", "Which beta?", actor="ana")
    stamp(store, at(1, 1))
    with store.write() as session:
        first = add_element(session, q1, "p.txt", 0, 10, annotator="ana")  # "Alpha one."
        add_element(session, q1, "p.txt", 6, 9, annotator="bob")  # "one"
        add_element(session, q2, "p.txt", 11, 20, annotator="ana")  # "Beta two."
        first_id = first.id
    stamp(store, at(1, 5))
    with store.write() as session:
        g1 = add_query(session, gamma, "g1", "Which gamma?", actor="cy")
    stamp(store, at(2, 1))
    with store.write() as session:
        gone = add_element(session, g1, "p.txt", 21, 26, annotator="cy")  # "Gamma"
        gone_id = gone.id
    stamp(store, at(2, 2))
    with store.write() as session:
        assert gone_id is not None
        remove_element(session, gone_id, actor="cy")
    stamp(store, at(2, 3, 8, 15))
    with store.write() as session:
        assert first_id is not None
        set_grade(session, first_id, 2, actor="ana")
    stamp(store, at(1, 20))
    return db_url


def test_table(listed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gold", "list", "--db", listed]) == 0
    out = capsys.readouterr().out
    assert out == (
        "name   questions  elements  annotators  last change (UTC)\n"
        "-----  ---------  --------  ----------  -------------------\n"
        "alpha          2         3           2  2026-01-20 09:00:00\n"
        "beta           0         0           0  2025-12-24 10:00:00\n"
        "gamma          1         0           0  2026-02-03 08:15:00\n"
    )


def test_json_lines(listed: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", "--db", listed, "gold", "list", "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()] == [
        {
            "name": "alpha",
            "questions": 2,
            "elements": 3,
            "annotators": ["ana", "bob"],
            "last_change": "2026-01-20T09:00:00+00:00",
        },
        {
            "name": "beta",
            "questions": 0,
            "elements": 0,
            "annotators": [],
            "last_change": "2025-12-24T10:00:00+00:00",
        },
        {
            "name": "gamma",
            "questions": 1,
            "elements": 0,
            "annotators": [],
            "last_change": "2026-02-03T08:15:00+00:00",
        },
    ]
    assert proc.stderr == ""


def test_no_gold_sets(store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("table", "json"):
        assert main(["gold", "list", "--format", fmt, "--db", db_url]) == 0
        captured = capsys.readouterr()
        assert captured.out == ""
        assert "no gold sets yet" in captured.err
