"""The element span invariant, grades, foreign keys and the audit trail, on real databases.

Every guard is attacked twice: through the ORM / write functions (Python checks) and with
raw SQL (SQLite triggers and constraints, PostgreSQL's PL/pgSQL triggers and constraints),
so removing either layer fails a test. Every test runs on both backends unless marked.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection, CursorResult
from sqlalchemy.exc import IntegrityError as DBIntegrityError

from labeler.errors import IntegrityError, NotFoundError, StoreError
from labeler.store import (
    ELEMENT_OK,
    ELEMENT_STALE,
    Element,
    Store,
    add_element,
    add_query,
    create_gold_set,
    get_document,
    get_gold_set,
    list_audit,
    list_documents,
    list_elements,
    open_store,
    postgres,
    remove_element,
    span_problem,
    upsert_document,
)

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Intro. FR-001: The index is never the source of record. Outro."
SPAN = (7, 55)  # "FR-001: The index is never the source of record."


def put_page(store: Store, doc_id: str = "a.html", text: str = PAGE, sha: str = "0" * 64) -> None:
    with store.write() as s:
        upsert_document(s, doc_id=doc_id, source_path=doc_id, sha256=sha, profile="text", text=text)


def make_query(store: Store, gold: str = "g", qid: str = "q1") -> int:
    with store.write() as s:
        gold_set = create_gold_set(s, gold)
        query = add_query(s, gold_set, qid, "Where is the source of record?", actor="ana")
        assert query.id is not None
        return query.id


@pytest.fixture
def labelled(store: Store) -> tuple[Store, int, int]:
    """A store with one page, one question and one element on SPAN: (store, query, element)."""
    put_page(store)
    query_id = make_query(store)
    with store.write() as s:
        element = add_element(s, query_id, "a.html", *SPAN, annotator="ana", grade=2)
        assert element.id is not None
    return store, query_id, element.id


def raw(store: Store) -> Connection:
    """A connection of the store's engine (pragmas applied), for raw SQL."""
    return store.engine.connect()


def execute(conn: Connection, statement: str, params: tuple[object, ...] = ()) -> CursorResult[Any]:
    """Raw SQL with ``?`` placeholders, on any backend (``%s`` for PostgreSQL's driver)."""
    if conn.dialect.paramstyle != "qmark":
        statement = statement.replace("?", "%s")
    return conn.exec_driver_sql(statement, params)


def violates(store: Store, kind: str, name: str = "") -> str:
    """The driver's message pattern for a violated CHECK / FOREIGN KEY constraint."""
    if store.engine.dialect.name == "postgresql":
        return rf'violates {kind.lower()} constraint "?{name}'
    return f"{kind} constraint failed: {name}" if name else kind


def test_add_element_takes_text_from_page(labelled: tuple[Store, int, int]) -> None:
    store, _, element_id = labelled
    with store.session() as s:
        element = s.get(Element, element_id)
        assert element is not None
        assert element.text == PAGE[SPAN[0] : SPAN[1]]
        assert element.text == "FR-001: The index is never the source of record."
        assert (element.grade, element.status, element.annotator) == (2, ELEMENT_OK, "ana")


@pytest.mark.parametrize(
    ("start", "end"), [(-1, 5), (5, 5), (6, 5), (0, len(PAGE) + 1), (len(PAGE), len(PAGE) + 1)]
)
def test_add_element_rejects_offsets_outside_page(
    labelled: tuple[Store, int, int], start: int, end: int
) -> None:
    store, query_id, _ = labelled
    with pytest.raises(IntegrityError, match="not within the page"), store.write() as s:
        add_element(s, query_id, "a.html", start, end, annotator="ana")
    with store.session() as s:
        assert len(list_elements(s)) == 1


def test_orm_write_with_wrong_text_is_rejected(labelled: tuple[Store, int, int]) -> None:
    store, query_id, _ = labelled
    bad = Element(
        query_id=query_id, document_id="a.html", start=0, end=5, text="Outro", annotator="x"
    )
    with pytest.raises(IntegrityError, match="differs from the page"), store.write() as s:
        s.add(bad)
    with store.session() as s:
        assert len(list_elements(s)) == 1


def test_orm_update_breaking_span_is_rejected(labelled: tuple[Store, int, int]) -> None:
    store, _, element_id = labelled
    with pytest.raises(IntegrityError), store.write() as s:
        element = s.get(Element, element_id)
        assert element is not None
        element.start += 1
        s.add(element)
    with store.session() as s:
        element = s.get(Element, element_id)
        assert element is not None and element.start == SPAN[0]


@pytest.mark.parametrize(
    ("start", "end", "text"),
    [
        (0, 5, "Outro"),  # wrong text
        (7, 13, "FR-001 "),  # text one character longer than the span
        (59, 70, "Outro."),  # end beyond the page, text equals the available tail
        (-1, 3, "Int"),  # negative start (CHECK)
        (5, 5, ""),  # empty span (CHECK)
    ],
)
def test_raw_sql_insert_with_wrong_span_is_rejected(
    labelled: tuple[Store, int, int], start: int, end: int, text: str
) -> None:
    store, query_id, _ = labelled
    with raw(store) as conn, pytest.raises(DBIntegrityError, match=r"element|CHECK"), conn.begin():
        execute(
            conn,
            'INSERT INTO element (query_id, document_id, start, "end", text, annotator, '
            "created_at) VALUES (?, 'a.html', ?, ?, ?, 'x', '2024-01-01')",
            (query_id, start, end, text),
        )


def test_raw_sql_insert_with_right_span_is_accepted(labelled: tuple[Store, int, int]) -> None:
    store, query_id, _ = labelled
    with raw(store) as conn, conn.begin():
        execute(
            conn,
            'INSERT INTO element (query_id, document_id, start, "end", text, annotator, '
            "created_at) VALUES (?, 'a.html', 0, 6, 'Intro.', 'x', '2024-01-01')",
            (query_id,),
        )
    with store.session() as s:
        assert [e.text for e in list_elements(s)] == [PAGE[7:55], "Intro."]


def test_raw_sql_in_a_store_write_raises_labeler_integrity_error(
    labelled: tuple[Store, int, int],
) -> None:
    store, _, element_id = labelled
    message = "element text must equal page text"
    with pytest.raises(IntegrityError, match=message), store.write() as s:
        execute(s.connection(), "UPDATE element SET text = 'nope' WHERE id = ?", (element_id,))


@pytest.mark.backends("sqlite")
def test_triggers_hold_without_the_store_connection_setup(
    labelled: tuple[Store, int, int], db_path: Path
) -> None:
    """A plain sqlite3 connection (no pragmas, e.g. the sqlite3 shell) still cannot break it."""
    store, _, element_id = labelled
    store.close()
    conn = sqlite3.connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="page text"):
            conn.execute('UPDATE element SET "end" = "end" - 1 WHERE id = ?', (element_id,))
        with pytest.raises(sqlite3.IntegrityError, match="page text"):
            conn.execute("UPDATE element SET text = 'changed' WHERE id = ?", (element_id,))
        with pytest.raises(sqlite3.IntegrityError, match="breaks elements"):
            conn.execute("UPDATE document SET text = 'something else entirely' WHERE id='a.html'")
    finally:
        conn.close()


def test_stale_element_is_exempt_and_cannot_be_revived_wrongly(
    labelled: tuple[Store, int, int],
) -> None:
    store, _, element_id = labelled
    with raw(store) as conn, conn.begin():
        execute(conn, "UPDATE element SET status = 'stale' WHERE id = ?", (element_id,))
        # a stale element's page may change under it
        execute(conn, "UPDATE document SET text = 'short' WHERE id = 'a.html'")
    with raw(store) as conn, pytest.raises(DBIntegrityError, match="page text"), conn.begin():
        execute(conn, "UPDATE element SET status = 'ok' WHERE id = ?", (element_id,))
    with pytest.raises(IntegrityError), store.write() as s:
        element = s.get(Element, element_id)
        assert element is not None
        element.status = ELEMENT_OK
        s.add(element)


def test_multilingual_offsets_are_code_points(store: Store) -> None:
    page = "Größe 😀 naïve — 日本語 end"
    put_page(store, text=page)
    query_id = make_query(store)
    start = page.index("日本語")
    with store.write() as s:
        element = add_element(s, query_id, "a.html", start, start + 3, annotator="ana")
    assert element.text == "日本語"
    with raw(store) as conn, pytest.raises(DBIntegrityError, match="page text"), conn.begin():
        # one code point off: what UTF-16 offsets (one more for the emoji) would give
        execute(
            conn,
            'INSERT INTO element (query_id, document_id, start, "end", text, annotator, '
            "created_at) VALUES (?, 'a.html', ?, ?, '日本語', 'x', '2024-01-01')",
            (query_id, start + 1, start + 4),
        )


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page=st.text(min_size=1, max_size=40), data=st.data())
def test_python_and_sql_agree_on_spans(store: Store, page: str, data: st.DataObject) -> None:
    """For any page and span, the trigger accepts exactly what span_problem accepts."""
    page = page.replace("\x00", "")  # SQLite text functions stop at NUL (tested separately)
    start = data.draw(st.integers(-1, len(page) + 1))
    end = data.draw(st.integers(-1, len(page) + 2))
    text = data.draw(st.sampled_from([page[max(start, 0) : max(end, 0)], page[:1], "x"]))
    with raw(store) as conn, conn.begin():
        execute(conn, "DELETE FROM element")
        execute(conn, "DELETE FROM document")
        execute(conn, "DELETE FROM gold_set")
        execute(
            conn,
            "INSERT INTO document (id, source_path, sha256, profile, text, ingested_at) "
            "VALUES ('d', 'd', 'x', 'text', ?, '2024-01-01')",
            (page,),
        )
        execute(
            conn,
            "INSERT INTO gold_set (id, name, description, created_at) "
            "VALUES (1, 'g', '', '2024-01-01')",
        )
        execute(
            conn,
            "INSERT INTO query (id, gold_set_id, external_id, text, notes, created_at) "
            "VALUES (1, 1, 'q', 'q', '', '2024-01-01')",
        )
    expected_ok = span_problem(page, start, end, text) is None
    try:
        with raw(store) as conn, conn.begin():
            execute(
                conn,
                'INSERT INTO element (query_id, document_id, start, "end", text, annotator, '
                "created_at) VALUES (1, 'd', ?, ?, ?, 'x', '2024-01-01')",
                (start, end, text),
            )
        accepted = True
    except DBIntegrityError:
        accepted = False
    assert accepted == expected_ok


@pytest.mark.backends("sqlite")
def test_page_with_nul_is_checked_in_python(store: Store) -> None:
    page = "head\x00 middle tail"
    put_page(store, text=page)
    query_id = make_query(store)
    start = page.index("tail")
    with store.write() as s:
        element = add_element(s, query_id, "a.html", start, start + 4, annotator="ana")
    assert element.text == "tail"
    with pytest.raises(IntegrityError), store.write() as s:
        s.add(
            Element(
                query_id=query_id, document_id="a.html", start=0, end=4, text="tail", annotator="x"
            )
        )
    with store.session() as s:
        assert get_document(s, "a.html").text == page


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize(
    ("start", "end", "text", "accepted"),
    [
        (0, 4, "head", True),
        (0, 4, "tail", False),  # wrong text: refused, though the page holds a NUL
        (5, 11, "middle", True),
        (5, 11, "middle!", False),  # one character longer than the span
    ],
)
def test_a_nul_beyond_the_span_does_not_exempt_it(
    store: Store, start: int, end: int, text: str, accepted: bool
) -> None:
    """The trigger checks a span whose first ``end`` characters hold no NUL even when the
    page holds one further on (the NUL here is past the first 4 * end bytes)."""
    put_page(store, text="head middle tail" + "." * 60 + "\x00 after")
    query_id = make_query(store)
    sql = (
        'INSERT INTO element (query_id, document_id, start, "end", text, annotator, '
        "created_at) VALUES (?, 'a.html', ?, ?, ?, 'x', '2024-01-01')"
    )
    if accepted:
        with raw(store) as conn, conn.begin():
            execute(conn, sql, (query_id, start, end, text))
    else:
        with raw(store) as conn, pytest.raises(DBIntegrityError, match="element"), conn.begin():
            execute(conn, sql, (query_id, start, end, text))


@pytest.mark.backends("postgresql")
def test_page_with_nul_is_refused_on_postgresql(store: Store) -> None:
    """PostgreSQL text cannot hold U+0000: a clear StoreError, and nothing is stored."""
    with pytest.raises(StoreError, match="cannot contain NUL"):
        put_page(store, text="head\x00 middle tail")
    with pytest.raises(NotFoundError), store.session() as s:
        get_document(s, "a.html")


def test_grade_below_one_rejected_by_python_and_check(labelled: tuple[Store, int, int]) -> None:
    store, query_id, element_id = labelled
    with pytest.raises(IntegrityError, match="grade"), store.write() as s:
        add_element(s, query_id, "a.html", 0, 6, annotator="ana", grade=0)
    with (
        raw(store) as conn,
        pytest.raises(DBIntegrityError, match=violates(store, "CHECK", "ck_element_grade")),
        conn.begin(),
    ):
        execute(conn, "UPDATE element SET grade = 0 WHERE id = ?", (element_id,))


def test_status_must_be_known(labelled: tuple[Store, int, int]) -> None:
    store, _, element_id = labelled
    check = violates(store, "CHECK")
    with raw(store) as conn, pytest.raises(DBIntegrityError, match=check), conn.begin():
        execute(conn, "UPDATE element SET status = 'gone' WHERE id = ?", (element_id,))


def test_foreign_keys_enforced(labelled: tuple[Store, int, int]) -> None:
    store, query_id, _ = labelled
    fk = violates(store, "FOREIGN KEY")
    with raw(store) as conn, pytest.raises(DBIntegrityError, match=fk), conn.begin():
        execute(
            conn,
            'INSERT INTO element (query_id, document_id, start, "end", text, annotator, '
            "created_at) VALUES (?, 'no-such-page.html', 0, 1, 'x', 'x', '2024-01-01')",
            (query_id,),
        )
    with raw(store) as conn, pytest.raises(DBIntegrityError, match=fk), conn.begin():
        execute(conn, "DELETE FROM document WHERE id = 'a.html'")


def test_unknown_document_or_query(labelled: tuple[Store, int, int]) -> None:
    store, query_id, _ = labelled
    with pytest.raises(NotFoundError, match=r"nope\.html"), store.write() as s:
        add_element(s, query_id, "nope.html", 0, 1, annotator="ana")
    with pytest.raises(NotFoundError), store.write() as s:
        add_element(s, 9999, "a.html", 0, 1, annotator="ana")


def test_duplicates_rejected_with_clear_message(labelled: tuple[Store, int, int]) -> None:
    store, _, _ = labelled
    with pytest.raises(IntegrityError, match="already exists"), store.write() as s:
        create_gold_set(s, "g")
    with pytest.raises(IntegrityError, match="already exists"), store.write() as s:
        from labeler.store import get_gold_set

        add_query(s, get_gold_set(s, "g"), "q1", "again", actor="ana")


def test_audit_trail_records_add_and_remove(labelled: tuple[Store, int, int]) -> None:
    store, _, element_id = labelled
    with store.write() as s:
        remove_element(s, element_id, actor="bob")
    with store.session() as s:
        entries = list_audit(s, entity="element", entity_id=element_id)
        assert [e.action for e in entries] == ["remove", "add"]
        removed, added = entries
        assert removed.actor == "bob" and removed.after is None
        assert removed.before is not None and removed.before["text"] == PAGE[7:55]
        assert added.before is None and added.after == removed.before
        assert [e.action for e in list_audit(s, entity="query")] == ["add"]
        assert list_elements(s) == []


def test_failed_write_rolls_back_whole_block(labelled: tuple[Store, int, int]) -> None:
    store, query_id, _ = labelled
    with pytest.raises(IntegrityError), store.write() as s:
        add_element(s, query_id, "a.html", 0, 6, annotator="ana")
        add_element(s, query_id, "a.html", 0, 999, annotator="ana")
    with store.session() as s:
        assert len(list_elements(s)) == 1
        assert len(list_audit(s, entity="element")) == 1


def test_read_session_refuses_writes(store: Store) -> None:
    put_page(store)
    with pytest.raises(StoreError, match="read-only"), store.session() as s:
        doc = get_document(s, "a.html")
        doc.text = "changed"
        s.add(doc)
        s.flush()


def test_changed_page_marks_only_broken_elements_stale(labelled: tuple[Store, int, int]) -> None:
    store, query_id, element_id = labelled
    with store.write() as s:
        keep = add_element(s, query_id, "a.html", 0, 6, annotator="ana")  # "Intro."
    new_page = "Intro. FR-001: The index is sometimes the source of record. Outro."
    with store.write() as s:
        result = upsert_document(
            s, doc_id="a.html", source_path="a.html", sha256="1" * 64, profile="text", text=new_page
        )
    assert result.outcome == "updated"
    assert [x.element_id for x in result.stale] == [element_id]
    assert result.stale[0].query_external_id == "q1" and result.stale[0].gold_set == "g"
    with store.session() as s:
        by_id = {e.id: e for e in list_elements(s)}
        assert by_id[element_id].status == ELEMENT_STALE
        assert by_id[element_id].text == PAGE[7:55]  # never rewritten
        assert by_id[keep.id].status == ELEMENT_OK
        assert get_document(s, "a.html").text == new_page
        assert list_audit(s, entity="element", entity_id=element_id)[0].actor == "ingest"


def test_writers_serialise_and_see_each_others_work(store: Store, db_url: str) -> None:
    """A write transaction waits for the running one, then reads what it committed (SQLite:
    BEGIN IMMEDIATE; PostgreSQL: the write lock), so read-then-write code stays correct."""
    other = open_store(db_url)
    seen: list[str] = []
    done = threading.Event()

    def second_writer() -> None:
        with other.write() as s:
            seen.append(get_gold_set(s, "first").name)
            create_gold_set(s, "second")
        done.set()

    try:
        with store.write() as s:
            create_gold_set(s, "first")
            thread = threading.Thread(target=second_writer)
            thread.start()
            assert not done.wait(0.3)  # blocked on our write lock, waiting
        thread.join(10)
        assert done.is_set() and seen == ["first"]
    finally:
        other.close()


@pytest.mark.backends("postgresql")
def test_writer_kept_waiting_too_long_gets_a_clear_error(
    store: Store, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "WRITE_LOCK_TIMEOUT_MS", 200)
    other = open_store(db_url)
    ran = False
    try:
        with store.write() as s:
            create_gold_set(s, "first")
            with pytest.raises(StoreError, match=r"stayed busy.*0\.2 s"), other.write() as s2:
                ran = True
        assert not ran
        with other.write() as s2:  # the lock is free again
            create_gold_set(s2, "second")
    finally:
        other.close()


def test_read_session_sees_one_snapshot(store: Store, db_url: str) -> None:
    """A read transaction keeps the state of its first read while another store writes."""
    put_page(store)
    other = open_store(db_url)
    try:
        with store.session() as s:
            assert [d.id for d in list_documents(s)] == ["a.html"]
            put_page(other, doc_id="b.html")  # committed by another connection
            assert [d.id for d in list_documents(s)] == ["a.html"]
        with store.session() as s:
            assert [d.id for d in list_documents(s)] == ["a.html", "b.html"]
    finally:
        other.close()
