"""One element per question, page and span (schema version 5), on both backends.

The store refuses an exact duplicate for every writer (the API with a readable message,
raw SQL through the unique index); the upgrade from version 4 keeps the oldest of each
duplicate group and records the rest in the audit log; the doctor reports duplicates of a
database not yet upgraded, overlaps, and what the upgrade removed; a gold import file with
the same span twice for one question is refused naming its line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text as sql_text

from labeler.cli import main
from labeler.doctor import diagnose
from labeler.errors import IntegrityError
from labeler.store import (
    MIGRATIONS,
    Store,
    UndoConflict,
    add_query,
    attach_element,
    create_gold_set,
    list_audit,
    open_store,
    page_elements,
    remove_element,
    span_overlaps,
    undo,
    upsert_document,
)
from labeler.store.engine import create_store_engine
from labeler.store.migrations import DEDUP_ACTOR
from labeler.store.session import upgrade

pytestmark = pytest.mark.backends("sqlite", "postgresql")

#         0         1         2         3         4
#         0123456789012345678901234567890123456789012345
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."


def seed(store: Store) -> int:
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        q = add_query(s, create_gold_set(s, "gold"), "q1", "Which?", actor="ana")
        assert q.id is not None
        return q.id


def spans_of(store: Store) -> list[tuple[int, str, int, int]]:
    with store.session() as s:
        return [(e.query_id, e.document_id, e.start, e.end) for e in page_elements(s, "w.html")]


def test_same_span_twice_is_refused_with_a_readable_message(store: Store) -> None:
    q1 = seed(store)
    with store.write() as s:
        attach_element(s, q1, "w.html", 12, 32, annotator="ana")
    with (
        pytest.raises(IntegrityError, match=r"^q1 already has w\.html 12–32$"),
        store.write() as s,
    ):
        attach_element(s, q1, "w.html", 12, 32, annotator="bob")
    assert spans_of(store) == [(q1, "w.html", 12, 32)]


def test_raw_sql_duplicate_is_refused_by_the_index(store: Store) -> None:
    q1 = seed(store)
    with store.write() as s:
        attach_element(s, q1, "w.html", 0, 11, annotator="ana")
    insert = (
        'INSERT INTO element (query_id, document_id, start, "end", text, grade, annotator, '
        "created_at, status, assisted) VALUES (:q, 'w.html', 0, 11, 'Alpha beta.', 1, 'raw', "
        "'2025-01-01 00:00:00', 'ok', false)"
    )
    with pytest.raises(IntegrityError, match=r"uq_element_final_span|UNIQUE"), store.write() as s:
        s.connection().execute(sql_text(insert), {"q": q1})
    assert spans_of(store) == [(q1, "w.html", 0, 11)]


def test_overlaps_are_allowed_and_listed(store: Store) -> None:
    q1 = seed(store)
    with store.write() as s:
        attach_element(s, q1, "w.html", 12, 32, annotator="ana")  # "Gamma delta epsilon."
        attach_element(s, q1, "w.html", 0, 11, annotator="ana")  # "Alpha beta."
    with store.session() as s:
        # "delta epsilon. Zeta" (18–37) overlaps 12–32 only; 12–32 itself is no overlap.
        assert [(e.start, e.end) for e in span_overlaps(s, q1, "w.html", 18, 37)] == [(12, 32)]
        assert span_overlaps(s, q1, "w.html", 12, 32) == []
        # touching (11–12) is not overlapping
        assert span_overlaps(s, q1, "w.html", 11, 12) == []
    with store.write() as s:
        attach_element(s, q1, "w.html", 18, 37, annotator="ana")
    assert spans_of(store) == [
        (q1, "w.html", 0, 11),
        (q1, "w.html", 12, 32),
        (q1, "w.html", 18, 37),
    ]


def test_upgrade_keeps_the_oldest_and_records_the_rest(db_url: str) -> None:
    engine = create_store_engine(db_url)
    assert upgrade(engine, MIGRATIONS[:4], where="test") == 4
    values = (
        "(1, 'w.html', 12, 32, 'Gamma delta epsilon.', 1, 'ana', '2025-01-01 00:00:00', 'ok', "
        "false), "
        "(1, 'w.html', 12, 32, 'Gamma delta epsilon.', 2, 'bob', '2025-01-02 00:00:00', 'ok', "
        "false), "
        "(1, 'w.html', 0, 11, 'Alpha beta.', 1, 'ana', '2025-01-03 00:00:00', 'ok', false), "
        "(1, 'w.html', 12, 32, 'Gamma delta epsilon.', 3, 'cy', '2025-01-04 00:00:00', 'ok', "
        "true), "
        "(1, 'w.html', 18, 37, 'delta epsilon. Zeta', 1, 'ana', '2025-01-05 00:00:00', 'ok', "
        "false)"
    )
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO document VALUES ('w.html', 'w.html', 'x', 't', "
            f"'{PAGE}', '2024-01-01 00:00:00')"
        )
        conn.exec_driver_sql(
            "INSERT INTO gold_set (id, name, description, created_at) "
            "VALUES (1, 'gold', '', '2024-01-01 00:00:00')"
        )
        conn.exec_driver_sql(
            'INSERT INTO "query" (id, gold_set_id, external_id, text, notes, created_at) '
            "VALUES (1, 1, 'q1', 'Which?', '', '2024-01-01 00:00:00')"
        )
        conn.exec_driver_sql(
            'INSERT INTO element (query_id, document_id, start, "end", text, grade, annotator, '
            f"created_at, status, assisted) VALUES {values}"
        )
    engine.dispose()

    before = {c.name: c for c in diagnose(db_url).checks}
    assert before["duplicates"].status == "error"
    assert [(d["start"], d["end"], d["copies"]) for d in before["duplicates"].details] == [
        (12, 32, 3)
    ]

    said: list[str] = []
    with open_store(db_url, on_wait=said.append) as store, store.session() as s:
        kept = [(e.id, e.start, e.end, e.annotator) for e in page_elements(s, "w.html")]
        entries = list_audit(s, entity="element")
    assert len(said) == 1 and "schema upgraded: removed 2 duplicate element(s)" in said[0]
    with open_store(db_url, on_wait=said.append):
        pass  # already upgraded: nothing more to say
    assert len(said) == 1
    # ids 1..5 in insertion order: 2 (bob) and 4 (cy) repeat 1's span and go.
    assert kept == [(3, 0, 11, "ana"), (1, 12, 32, "ana"), (5, 18, 37, "ana")]
    removed = sorted((e.entity_id, e.actor, e.action, e.after) for e in entries)
    assert removed == [(2, DEDUP_ACTOR, "remove", None), (4, DEDUP_ACTOR, "remove", None)]
    by_id = {e.entity_id: e.before for e in entries}
    assert by_id[2] is not None and by_id[4] is not None
    assert (by_id[2]["annotator"], by_id[2]["grade"], by_id[2]["start"], by_id[2]["end"]) == (
        "bob",
        2,
        12,
        32,
    )
    assert (by_id[4]["annotator"], by_id[4]["assisted"], by_id[4]["text"]) == (
        "cy",
        True,
        "Gamma delta epsilon.",
    )
    assert str(by_id[2]["created_at"]).startswith("2025-01-02T00:00:00")

    after = {c.name: c for c in diagnose(db_url).checks}
    assert after["duplicates"].status == "ok"
    assert after["dedup"].status == "warning"
    assert "removed 2 duplicate element(s)" in after["dedup"].summary
    assert [d["element_id"] for d in after["dedup"].details] == [2, 4]
    assert after["overlaps"].status == "warning"
    assert [(d["span"], d["overlaps_span"]) for d in after["overlaps"].details] == [
        ([12, 32], [18, 37])
    ]


def test_gold_import_with_the_same_span_twice_names_the_line(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store(db_url) as store:
        seed(store)
    gold = tmp_path / "gold.jsonl"
    lines = [
        {"query_id": "a", "elements": [{"doc": "w.html", "text": "Alpha beta."}]},
        {
            "query_id": "b",
            "elements": [
                {"doc": "w.html", "text": "Zeta eta."},
                # the same span again, once with offsets, once found by its text
                {"doc": "w.html", "text": "Gamma delta epsilon.", "start": 12, "end": 32},
                {"doc": "w.html", "text": "Gamma delta epsilon."},
            ],
        },
    ]
    gold.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    code = main(["gold", "import", str(gold), "--gold-set", "new", "--db", db_url])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{gold}:2" in err
    assert "elements[2] repeats elements[1]: w.html 12–32 twice for question 'b'" in err
    assert "Traceback" not in err
    with open_store(db_url) as store, store.session() as s:
        names = [r[0] for r in s.connection().execute(sql_text("SELECT name FROM gold_set"))]
    assert names == ["gold"]


def test_undo_of_a_removal_refuses_a_second_copy(store: Store) -> None:
    q1 = seed(store)
    with store.write() as s:
        first = attach_element(s, q1, "w.html", 0, 11, annotator="ana")
        attach_element(s, q1, "w.html", 33, 42, annotator="ana")  # keeps ids from reuse
        remove_element(s, first.id, actor="ana")
    with store.write() as s:  # bob labels the same span again meanwhile
        attach_element(s, q1, "w.html", 0, 11, annotator="bob")
    with (
        pytest.raises(UndoConflict, match=r"w\.html 0–11 was labelled again since"),
        store.write() as s,
    ):
        undo(s, actor="ana")
    assert spans_of(store) == [(q1, "w.html", 0, 11), (q1, "w.html", 33, 42)]


def test_a_stale_element_on_the_same_span_is_named_stale(store: Store) -> None:
    q1 = seed(store)
    with store.write() as s:
        attach_element(s, q1, "w.html", 0, 11, annotator="ana")
        s.connection().execute(sql_text("UPDATE element SET status = 'stale'"))
    with (
        pytest.raises(IntegrityError, match=r"^q1 already has w\.html 0–11 \(stale: its page"),
        store.write() as s,
    ):
        attach_element(s, q1, "w.html", 0, 11, annotator="ana")
