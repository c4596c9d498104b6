"""Schema version recording, upgrades from older databases, refusal of newer ones."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, create_engine, inspect
from sqlmodel import SQLModel

import labeler.store.models  # noqa: F401  (fills SQLModel.metadata)
from labeler.errors import StoreError
from labeler.store import MIGRATIONS, SCHEMA_VERSION, Migration, get_document, open_store
from labeler.store.engine import create_store_engine
from labeler.store.session import upgrade


def versions(path: Path) -> list[tuple[int, str]]:
    rows = sql(path, "SELECT version, description FROM schema_version ORDER BY version")
    return [(int(v), str(d)) for v, d in rows]


def sql(path: Path, statement: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on a plain sqlite3 connection (committed, closed)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(statement, params).fetchall()
        conn.commit()
        return rows
    finally:
        conn.close()


def index_names(path: Path) -> set[str]:
    return {r[0] for r in sql(path, "SELECT name FROM sqlite_master WHERE type='index'")}


def schema_of(url: str) -> dict[str, Any]:
    """A comparable description of tables, columns, keys, indexes and checks."""
    engine = create_engine(url)
    try:
        insp = inspect(engine)
        out: dict[str, Any] = {}
        for table in sorted(insp.get_table_names()):
            out[table] = {
                "columns": [
                    (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                    for c in insp.get_columns(table)
                ],
                "pk": insp.get_pk_constraint(table)["constrained_columns"],
                "fks": sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"], str(f.get("options")))
                    for f in insp.get_foreign_keys(table)
                ),
                "indexes": sorted(
                    (i["name"], tuple(str(c) for c in i["column_names"]), bool(i["unique"]))
                    for i in insp.get_indexes(table)
                ),
                "uniques": sorted(
                    tuple(u["column_names"]) for u in insp.get_unique_constraints(table)
                ),
                "checks": sorted(
                    " ".join(c["sqltext"].split()) for c in insp.get_check_constraints(table)
                ),
            }
        return out
    finally:
        engine.dispose()


def test_fresh_database_records_every_step(db_path: Path) -> None:
    with open_store(str(db_path)) as store:
        assert store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    assert versions(db_path) == [(m.version, m.description) for m in MIGRATIONS]


def test_migrated_schema_matches_models(db_path: Path, tmp_path: Path) -> None:
    """The steps and models.py describe the same schema (a new step must update both)."""
    open_store(str(db_path)).close()
    reference = tmp_path / "reference.db"
    engine = create_engine(f"sqlite:///{reference}")
    SQLModel.metadata.create_all(engine)
    engine.dispose()
    assert schema_of(f"sqlite:///{db_path}") == schema_of(f"sqlite:///{reference}")


def test_upgrade_from_version_1_keeps_data(db_path: Path) -> None:
    engine = create_store_engine(str(db_path))
    assert upgrade(engine, MIGRATIONS[:1], where="test") == 1
    with engine.connect() as conn, conn.begin():
        conn.exec_driver_sql(
            "INSERT INTO document VALUES ('a.html', 'a.html', 'x', 'text', 'kept', "
            "'2024-01-01 00:00:00.000000')"
        )
    engine.dispose()
    assert versions(db_path) == [(1, "initial schema")]
    assert "ix_element_document_status" not in index_names(db_path)

    with open_store(str(db_path)) as store:
        assert store.schema_version() == SCHEMA_VERSION
        with store.session() as s:
            assert get_document(s, "a.html").text == "kept"
    assert {"ix_element_document_status", "ix_element_query", "ix_audit_entity"} <= index_names(
        db_path
    )
    assert [v for v, _ in versions(db_path)] == list(range(1, SCHEMA_VERSION + 1))


def test_newer_database_is_refused(db_path: Path) -> None:
    open_store(str(db_path)).close()
    sql(
        db_path,
        "INSERT INTO schema_version VALUES (?, 'from the future', '2099-01-01')",
        (SCHEMA_VERSION + 1,),
    )
    with pytest.raises(StoreError, match=rf"version {SCHEMA_VERSION + 1} is newer"):
        open_store(str(db_path))


def _fail(conn: Connection) -> None:
    conn.exec_driver_sql("CREATE TABLE half_done (x)")
    raise RuntimeError("step failed")


def test_failed_step_rolls_back_the_upgrade(db_path: Path) -> None:
    open_store(str(db_path)).close()
    broken = (*MIGRATIONS, Migration(SCHEMA_VERSION + 1, "broken", _fail))
    with pytest.raises(RuntimeError, match="step failed"):
        open_store(str(db_path), migrations=broken)
    assert [v for v, _ in versions(db_path)] == list(range(1, SCHEMA_VERSION + 1))
    assert not sql(db_path, "SELECT name FROM sqlite_master WHERE name = 'half_done'")


def test_mechanism_applies_only_missing_steps(db_path: Path) -> None:
    calls: list[int] = []

    def step(n: int) -> Migration:
        def apply(conn: Connection) -> None:
            calls.append(n)
            if n == 1:
                conn.exec_driver_sql(
                    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                    "description VARCHAR, applied_at DATETIME)"
                )
            conn.exec_driver_sql(f"CREATE TABLE t{n} (x)")

        return Migration(n, f"step {n}", apply)

    engine = create_store_engine(str(db_path))
    try:
        assert upgrade(engine, [step(1), step(2)], where="t") == 2
        assert upgrade(engine, [step(1), step(2)], where="t") == 2  # nothing to do
        assert upgrade(engine, [step(1), step(2), step(3)], where="t") == 3
    finally:
        engine.dispose()
    assert calls == [1, 2, 3]
    assert [v for v, _ in versions(db_path)] == [1, 2, 3]


def test_misnumbered_steps_rejected(db_path: Path) -> None:
    with pytest.raises(ValueError, match="step 3 found where 2 belongs"):
        open_store(str(db_path), migrations=(MIGRATIONS[0], Migration(3, "gap", _fail)))


def test_opening_current_database_writes_nothing(db_path: Path) -> None:
    open_store(str(db_path)).close()
    before = db_path.read_bytes()
    with open_store(str(db_path)) as store:
        assert store.schema_version() == SCHEMA_VERSION
    assert db_path.read_bytes() == before


def test_fast_reader_knows_the_current_schema() -> None:
    from labeler.store.fastread import READS_SCHEMA

    assert READS_SCHEMA == SCHEMA_VERSION
