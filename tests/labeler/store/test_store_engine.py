"""Connection setup: WAL, busy timeout, foreign keys, BEGIN IMMEDIATE, db resolution, bad dbs."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import event

from labeler.errors import StoreError
from labeler.store import DB_ENV, Store, get_document, open_store, resolve_db, upsert_document
from labeler.store.engine import BUSY_TIMEOUT_MS


def test_wal_mode_is_persistent(store: Store, db_path: Path) -> None:
    with store.write() as s:
        upsert_document(s, doc_id="a", source_path="a", sha256="0", profile="text", text="x")
    fresh = sqlite3.connect(db_path)  # no pragmas of ours
    try:
        assert fresh.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        fresh.close()


def test_every_connection_gets_pragmas(store: Store) -> None:
    conns = [store.engine.connect() for _ in range(3)]  # distinct pooled connections
    try:
        for conn in conns:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        for conn in conns:
            conn.close()


def test_write_transactions_begin_immediate_and_reads_deferred(store: Store) -> None:
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    with store.write() as s:
        upsert_document(s, doc_id="a", source_path="a", sha256="0", profile="text", text="x")
    begins = [x for x in statements if x.startswith("BEGIN")]
    assert begins == ["BEGIN IMMEDIATE"]
    statements.clear()
    with store.session() as s:
        get_document(s, "a")
    assert [x for x in statements if x.startswith("BEGIN")] == ["BEGIN"]


def test_writer_holds_lock_readers_still_read(store: Store, db_path: Path) -> None:
    """WAL: while one store writes, a second store reads the last committed state."""
    with store.write() as s:
        upsert_document(s, doc_id="a", source_path="a", sha256="0", profile="text", text="old")
    other = open_store(str(db_path))
    try:
        with store.write() as s:
            doc = get_document(s, "a")
            doc.text, doc.sha256 = "new", "1"
            s.add(doc)
            s.flush()
            with other.session() as r:
                assert get_document(r, "a").text == "old"
            # a second writer cannot get the lock meanwhile (short timeout for the test)
            probe = sqlite3.connect(db_path, timeout=0.1, isolation_level=None)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                probe.execute("BEGIN IMMEDIATE")
            probe.close()
        with other.session() as r:
            assert get_document(r, "a").text == "new"
    finally:
        other.close()


def test_second_writer_waits_instead_of_failing(store: Store, db_path: Path) -> None:
    other = open_store(str(db_path))
    done = threading.Event()

    def write_later() -> None:
        with other.write() as s:
            upsert_document(s, doc_id="b", source_path="b", sha256="0", profile="text", text="b")
        done.set()

    try:
        with store.write() as s:
            upsert_document(s, doc_id="a", source_path="a", sha256="0", profile="text", text="a")
            thread = threading.Thread(target=write_later)
            thread.start()
            assert not done.wait(0.3)  # blocked on our lock, waiting (busy_timeout)
        thread.join(5)
        assert done.is_set()
    finally:
        other.close()


def test_resolve_db_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DB_ENV, "/env/labels.db")
    assert resolve_db("flag.db") == "flag.db"
    assert resolve_db(None) == "/env/labels.db"
    monkeypatch.setenv(DB_ENV, "")
    assert resolve_db(None) == "labels.db"
    monkeypatch.delenv(DB_ENV)
    assert resolve_db(None) == "labels.db"


def test_url_and_path_forms_open_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    with open_store(str(path)) as a, a.write() as s:
        upsert_document(s, doc_id="a", source_path="a", sha256="0", profile="text", text="x")
    with open_store(f"sqlite:///{path}") as b, b.session() as s:
        assert get_document(s, "a").text == "x"


def test_directory_as_database_rejected(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        open_store(str(tmp_path))


def test_missing_parent_directory_rejected(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        open_store(str(tmp_path / "missing-dir" / "labels.db"))


def test_random_bytes_file_rejected(tmp_path: Path) -> None:
    path = tmp_path / "labels.db"
    path.write_bytes(b"\x8a\x01 not a database at all " * 100)
    with pytest.raises(StoreError, match="not a database"):
        open_store(str(path))
    assert path.read_bytes() == b"\x8a\x01 not a database at all " * 100


def test_foreign_sqlite_database_rejected(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a labeler database"):
        open_store(str(path))


@pytest.mark.parametrize("db", ["", "   ", "postgresql+nodriver://", "sqlite+://x"])
def test_bad_db_values(db: str) -> None:
    with pytest.raises(StoreError):
        open_store(db)
