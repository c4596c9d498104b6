"""Schema version recording, upgrades from older databases, refusal of newer ones."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, create_engine, inspect
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

import labeler.store.models  # noqa: F401  (fills SQLModel.metadata)
from labeler.errors import StoreError
from labeler.store import MIGRATIONS, SCHEMA_VERSION, Migration, get_document, open_store
from labeler.store.engine import create_store_engine
from labeler.store.migrations import DIALECTS, DialectSQL
from labeler.store.models import store_tables
from labeler.store.postgres import with_driver
from labeler.store.session import upgrade

pytestmark = pytest.mark.backends("sqlite", "postgresql")


@contextmanager
def plain(db: str) -> Iterator[Engine]:
    """A plain engine on ``db`` (a path or URL): none of the store's connection setup."""
    url = with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}"
    engine = create_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def versions(db: str) -> list[tuple[int, str]]:
    rows = sql(db, "SELECT version, description FROM schema_version ORDER BY version")
    return [(int(v), str(d)) for v, d in rows]


def sql(db: str, statement: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement (``?`` placeholders) on a plain connection (committed, closed)."""
    with plain(db) as engine, engine.begin() as conn:
        if conn.dialect.paramstyle != "qmark":
            statement = statement.replace("?", "%s")
        result = conn.exec_driver_sql(statement, params)
        return [tuple(row) for row in result] if result.returns_rows else []


def index_names(db: str) -> set[str]:
    with plain(db) as engine:
        insp = inspect(engine)
        return {str(i["name"]) for t in insp.get_table_names() for i in insp.get_indexes(t)}


def table_names(db: str) -> set[str]:
    with plain(db) as engine:
        return set(inspect(engine).get_table_names())


def schema_of(url: str) -> dict[str, Any]:
    """A comparable description of tables, columns, keys, indexes and checks."""
    engine = create_engine(with_driver(make_url(url)))
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


def test_fresh_database_records_every_step(db_url: str) -> None:
    """A new database is created at the current version and records every version at once."""
    with open_store(db_url) as store:
        assert store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    assert versions(db_url) == [(m.version, m.description) for m in MIGRATIONS]


def test_steps_from_version_1_build_what_the_models_create(
    db_url: str, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Every step applied from version 1 ends where a new database (the models' metadata)
    starts; so does ``create_all`` of the models alone (plus the triggers)."""
    engine = create_store_engine(db_url)
    assert upgrade(engine, MIGRATIONS[:1], where="test") == 1
    engine.dispose()
    open_store(db_url).close()  # steps 2 to SCHEMA_VERSION
    if backend == "postgresql":
        new_database: Callable[[], str] = request.getfixturevalue("pg_databases")
        fresh, reference = new_database(), new_database()
    else:
        fresh = str(tmp_path / "fresh.db")
        reference = f"sqlite:///{tmp_path / 'reference.db'}"
    open_store(fresh).close()
    engine = create_engine(with_driver(make_url(reference)))
    SQLModel.metadata.create_all(engine, tables=store_tables())
    engine.dispose()
    migrated = schema_of(db_url if "://" in db_url else f"sqlite:///{db_url}")
    assert migrated == schema_of(fresh if "://" in fresh else f"sqlite:///{fresh}")
    assert migrated == schema_of(reference)


def test_every_step_has_sql_for_every_dialect() -> None:
    for step in MIGRATIONS:
        assert isinstance(step.apply, DialectSQL), step.version
        assert all(step.apply.statements(dialect) for dialect in DIALECTS), step.version
    with pytest.raises(StoreError, match="no schema for 'mysql'"):
        MIGRATIONS[0].apply.statements("mysql")  # type: ignore[attr-defined]


def test_upgrade_from_version_1_keeps_data(db_url: str) -> None:
    engine = create_store_engine(db_url)
    assert upgrade(engine, MIGRATIONS[:1], where="test") == 1
    with engine.connect() as conn, conn.begin():
        conn.exec_driver_sql(
            "INSERT INTO document VALUES ('a.html', 'a.html', 'x', 'text', 'kept', "
            "'2024-01-01 00:00:00.000000')"
        )
    engine.dispose()
    assert versions(db_url) == [(1, "initial schema")]
    assert "ix_element_document_status" not in index_names(db_url)

    with open_store(db_url) as store:
        assert store.schema_version() == SCHEMA_VERSION
        with store.session() as s:
            assert get_document(s, "a.html").text == "kept"
    assert {"ix_element_document_status", "ix_element_query", "ix_audit_entity"} <= index_names(
        db_url
    )
    assert [v for v, _ in versions(db_url)] == list(range(1, SCHEMA_VERSION + 1))


def test_newer_database_is_refused(db_url: str) -> None:
    open_store(db_url).close()
    sql(
        db_url,
        "INSERT INTO schema_version VALUES (?, 'from the future', '2099-01-01')",
        (SCHEMA_VERSION + 1,),
    )
    with pytest.raises(StoreError, match=rf"version {SCHEMA_VERSION + 1} is newer"):
        open_store(db_url)


def _fail(conn: Connection) -> None:
    conn.exec_driver_sql("CREATE TABLE half_done (x INTEGER)")
    raise RuntimeError("step failed")


def test_failed_step_rolls_back_the_upgrade(db_url: str) -> None:
    open_store(db_url).close()
    broken = (*MIGRATIONS, Migration(SCHEMA_VERSION + 1, "broken", _fail))
    with pytest.raises(RuntimeError, match="step failed"):
        open_store(db_url, migrations=broken)
    assert [v for v, _ in versions(db_url)] == list(range(1, SCHEMA_VERSION + 1))
    assert "half_done" not in table_names(db_url)


def test_mechanism_applies_only_missing_steps(db_url: str) -> None:
    calls: list[int] = []

    def step(n: int) -> Migration:
        def apply(conn: Connection) -> None:
            calls.append(n)
            if n == 1:
                conn.exec_driver_sql(
                    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                    "description VARCHAR, applied_at TIMESTAMP)"
                )
            conn.exec_driver_sql(f"CREATE TABLE t{n} (x INTEGER)")

        return Migration(n, f"step {n}", apply)

    engine = create_store_engine(db_url)
    try:
        assert upgrade(engine, [step(1), step(2)], where="t") == 2
        assert upgrade(engine, [step(1), step(2)], where="t") == 2  # nothing to do
        assert upgrade(engine, [step(1), step(2), step(3)], where="t") == 3
    finally:
        engine.dispose()
    assert calls == [1, 2, 3]
    assert [v for v, _ in versions(db_url)] == [1, 2, 3]


def test_misnumbered_steps_rejected(db_url: str) -> None:
    with pytest.raises(ValueError, match="step 3 found where 2 belongs"):
        open_store(db_url, migrations=(MIGRATIONS[0], Migration(3, "gap", _fail)))


@pytest.mark.backends("sqlite")
def test_opening_current_database_writes_nothing(db_path: Path) -> None:
    open_store(str(db_path)).close()
    before = db_path.read_bytes()
    with open_store(str(db_path)) as store:
        assert store.schema_version() == SCHEMA_VERSION
    assert db_path.read_bytes() == before


def test_fast_reader_knows_the_current_schema() -> None:
    from labeler.store.fastread import READS_SCHEMA

    assert READS_SCHEMA == SCHEMA_VERSION
