"""Databases of every earlier schema version upgrade; a new database is what the models say.

The stored databases (``data/schema_versions``, made once with the code of each version; its
README says how) are loaded, opened with the current code and so upgraded to
:data:`SCHEMA_VERSION`. Each must keep its rows (the values below are worked out by hand from
what ``generate.py`` wrote, not read back from the code under test) and end with exactly the
schema of a new database: the same tables, columns in the same order with the same types,
defaults and nullability, keys, foreign keys, unique and check constraints, indexes (with
their partial conditions) and triggers, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import inspect as pyinspect
import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import CheckConstraint, Engine, create_engine
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlmodel import SQLModel

from labeler.store import SCHEMA_VERSION, open_store
from labeler.store import models as store_models
from labeler.store.migrations import DEDUP_ACTOR
from labeler.store.models import (
    PG_SEARCH_COLUMN,
    SEARCH_INDEX,
    SQLITE_FTS_SHADOW_TABLES,
    STORE_MODELS,
    TRIGGERS,
    store_tables,
)
from labeler.store.postgres import with_driver

DATA = Path(__file__).parent / "data" / "schema_versions"
#: PostgreSQL support arrived while the schema was at version 3
FIRST_POSTGRESQL = 3
SQLITE_VERSIONS = list(range(1, SCHEMA_VERSION))
POSTGRESQL_VERSIONS = list(range(FIRST_POSTGRESQL, SCHEMA_VERSION))

ALPHA = "Backups run nightly at 02:00. Restores need a ticket. The data owner approves exceptions."
BETA = "Passwords rotate every 90 days. Admins reset locked accounts."


# --- loading and reading ------------------------------------------------------------------


def url_of(db: str) -> str:
    return db if "://" in db else f"sqlite:///{db}"


@contextmanager
def plain(db: str) -> Iterator[Engine]:
    """A plain engine on ``db``: none of the store's connection setup."""
    engine = create_engine(with_driver(make_url(url_of(db))))
    try:
        yield engine
    finally:
        engine.dispose()


def load(backend: str, version: int, db: str) -> None:
    """Load the stored dump of ``version`` into the empty database ``db``."""
    dump = (DATA / f"v{version}.{backend}.sql").read_text(encoding="utf-8")
    if backend == "sqlite":
        conn = sqlite3.connect(db)
        try:
            conn.executescript(dump)
        finally:
            conn.close()
        return
    with plain(db) as engine:
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute(dump)  # many statements, no parameters: one simple query
            cursor.close()
            raw.commit()
        finally:
            raw.close()


def rows(db: str, sql: str) -> list[tuple[Any, ...]]:
    with plain(db) as engine, engine.connect() as conn:
        return [tuple(r) for r in conn.exec_driver_sql(sql)]


def recorded_version(db: str) -> int:
    return int(rows(db, "SELECT max(version) FROM schema_version")[0][0])


# --- schema descriptions ------------------------------------------------------------------


def _ws(text: str) -> str:
    return " ".join(text.split())


def _checks(table_sql: str) -> list[str]:
    """Every CHECK constraint of a SQLite table's stored SQL, named or not, as
    ``name: expression`` (SQLite keeps them only in the text: a column added by ALTER TABLE
    carries its check inline, a created table at the end)."""
    found = []
    for match in re.finditer(r"(?:CONSTRAINT\s+(\w+)\s+)?CHECK\s*\(", table_sql):
        depth, i = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(table_sql[i], 0)
            i += 1
        found.append(f"{match.group(1)}: {_ws(table_sql[match.end() : i - 1])}")
    return sorted(found)


def sqlite_schema(db: str) -> dict[str, Any]:
    """Tables (columns in order, keys, checks, indexes with their partial condition) and
    triggers of a SQLite database, independent of how the SQL text was laid out."""
    conn = sqlite3.connect(db)
    try:
        out: dict[str, Any] = {}
        master = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master "
            "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        ).fetchall()
        for kind, name, table, sql in master:
            if kind == "table":
                indexes = []
                for _, iname, unique, origin, partial in conn.execute(
                    f'PRAGMA index_list("{name}")'
                ):
                    columns = tuple(c[2] for c in conn.execute(f'PRAGMA index_info("{iname}")'))
                    # an index behind a UNIQUE constraint gets a generated name
                    label = iname if origin == "c" else f"<{origin}>"
                    indexes.append((label, columns, unique, partial))
                out[f"table {name}"] = {
                    "columns": [
                        (c[1], c[2], c[3], c[4], c[5])
                        for c in conn.execute(f'PRAGMA table_xinfo("{name}")')
                    ],
                    "foreign keys": sorted(
                        (f[2], f[3], f[4], f[5], f[6])
                        for f in conn.execute(f'PRAGMA foreign_key_list("{name}")')
                    ),
                    "checks": _checks(sql),
                    "indexes": sorted(indexes),
                }
            elif kind == "index" and sql is not None:
                where = sql.partition(" WHERE ")[2]
                out[f"index {name}"] = (table, _ws(where))
            elif kind == "trigger":
                out[f"trigger {name}"] = (table, _ws(sql))
            else:
                out[f"{kind} {name}"] = (table, _ws(sql or ""))
        return out
    finally:
        conn.close()


_PG_QUERIES = {
    "columns": (
        "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, "
        "column_default FROM information_schema.columns WHERE table_schema = current_schema() "
        "ORDER BY table_name, ordinal_position"
    ),
    "constraints": (
        "SELECT c.conrelid::regclass::text, c.conname, c.contype, pg_get_constraintdef(c.oid) "
        "FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
        "WHERE n.nspname = current_schema() ORDER BY 1, 2"
    ),
    "indexes": (
        "SELECT tablename, indexname, indexdef FROM pg_indexes "
        "WHERE schemaname = current_schema() ORDER BY 1, 2"
    ),
    "triggers": (
        "SELECT t.tgrelid::regclass::text, t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t "
        "JOIN pg_class r ON r.oid = t.tgrelid JOIN pg_namespace n ON n.oid = r.relnamespace "
        "WHERE NOT t.tgisinternal AND n.nspname = current_schema() ORDER BY 1, 2"
    ),
    "functions": (
        "SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p "
        "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() "
        "ORDER BY 1"
    ),
    "sequences": (
        "SELECT sequence_name, data_type, increment FROM information_schema.sequences "
        "WHERE sequence_schema = current_schema() ORDER BY 1"
    ),
}


def _check_expression(definition: str) -> str:
    """A check constraint's definition without casts and parentheses. ``pg_dump`` writes an
    ``IN`` list as ``ANY ((ARRAY['a'::character varying])::text[])``, which the server reads
    back as ``ANY (ARRAY[('a'::character varying)::text])``: the same check, deparsed with
    the casts in other places (the stored PostgreSQL databases went through that round trip)."""
    return re.sub(r"::[a-z ]+(\[\])?|[()\s]", "", definition)


def postgresql_schema(db: str) -> dict[str, Any]:
    """The same description of a PostgreSQL database, from its catalogs (which deparse
    every definition, so the way it was written does not matter)."""
    out = {
        part: [tuple(_ws(str(v)) for v in row) for row in rows(db, sql)]
        for part, sql in _PG_QUERIES.items()
    }
    out["constraints"] = [
        (table, name, kind, _check_expression(d) if kind == "c" else d)
        for table, name, kind, d in out["constraints"]
    ]
    return out


def schema(backend: str, db: str) -> dict[str, Any]:
    return sqlite_schema(db) if backend == "sqlite" else postgresql_schema(db)


def new_database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A database as the current code creates it."""
    if backend == "sqlite":
        db = str(tmp_path / "new.db")
    else:
        db = request.getfixturevalue("pg_databases")()
    open_store(db).close()
    return db


# --- what the stored databases hold, worked out from generate.py --------------------------

#: (question, page, start, end, text, grade, annotator) of gold set demo after the upgrade
DEMO_V1 = [
    ("q1", "alpha.txt", 0, 29, "Backups run nightly at 02:00.", 2, "ana"),
    ("q1", "alpha.txt", 30, 53, "Restores need a ticket.", 1, "bob"),
    ("q2", "alpha.txt", 54, 89, "The data owner approves exceptions.", 1, "ana"),
    ("q2", "beta.html", 32, 61, "Admins reset locked accounts.", 1, "ana"),
]
#: from version 3 on bob's removal of this element was undone
UNDONE = ("q2", "beta.html", 0, 31, "Passwords rotate every 90 days.", 1, "bob")


def demo_elements(version: int) -> list[tuple[Any, ...]]:
    return sorted(DEMO_V1 + ([UNDONE] if version >= 3 else []))


def audit_entries(version: int) -> int:
    """2 questions and 3 elements imported, bob's add, add and remove (8); bob's undo from
    version 3 (9); the removal of carl's duplicate by the version 5 step (version 4 only);
    from version 7 the team work: 2 questions, 3 assignments, 3 own elements, 2 done marks,
    the accepted element and the adjudication (12); from version 8 two key changes; from
    version 10 the registration of ana and bob (audited from then on)."""
    n = 8 + (version >= 3) + (version == 4)
    n += 12 if version >= 7 else 0
    return n + (2 if version >= 8 else 0) + (2 if version >= 10 else 0)


#: (question, page, start, end, annotator, layer, provenance, key_start, key_end)
TEAM_ELEMENTS_V7 = [
    ("t1", "beta.html", 0, 31, "ana", "annotator", "own", None, None),
    ("t1", "beta.html", 0, 31, "bob", "annotator", "own", None, None),
    ("t1", "beta.html", 0, 31, "lead", "final", "unanimous", None, None),
    ("t2", "beta.html", 32, 61, "ana", "annotator", "own", None, None),
]
TEAM_ELEMENTS_V8 = [
    ("t1", "beta.html", 0, 31, "ana", "annotator", "own", None, None),
    ("t1", "beta.html", 0, 31, "bob", "annotator", "own", None, None),
    ("t1", "beta.html", 0, 31, "lead", "final", "unanimous", 10, 30),  # rotate every 90 days
    ("t2", "beta.html", 32, 61, "ana", "annotator", "own", 39, 60),  # reset locked accounts
]

_ELEMENTS = (
    'SELECT q.external_id, e.document_id, e.start, e."end", {cols} FROM element e '
    "JOIN query q ON q.id = e.query_id JOIN gold_set g ON g.id = q.gold_set_id "
    "WHERE g.name = '{gold_set}' ORDER BY 1, 2, 3, 4, 5"
)


def check_rows(db: str, version: int) -> None:
    """Every row ``generate.py`` wrote at ``version``, as the upgraded database holds it."""
    assert rows(db, "SELECT id, text, blocks FROM document ORDER BY id") == [
        ("alpha.txt", ALPHA, "0" if version >= 6 else None),
        ("beta.html", BETA, "0,32" if version >= 6 else None),
    ]
    assert rows(db, "SELECT name, description, team FROM gold_set ORDER BY name") == [
        ("demo", "", False),
        *([("team", "two annotators", True)] if version >= 7 else []),
    ]
    questions = (
        "SELECT q.external_id, q.text, q.notes, q.adjudicated_by, q.adjudicated_at IS NOT NULL "
        "FROM query q ORDER BY q.external_id"
    )
    assert rows(db, questions) == [
        ("q1", "When do backups run?", "nightly only", None, False),
        ("q2", "Who approves exceptions?", "", None, False),
        *(
            [
                ("t1", "How often do passwords rotate?", "", "lead", True),
                ("t2", "Who resets accounts?", "", None, False),
            ]
            if version >= 7
            else []
        ),
    ]
    demo = rows(db, _ELEMENTS.format(cols="e.text, e.grade, e.annotator", gold_set="demo"))
    assert sorted(demo) == demo_elements(version)
    # columns later versions added hold their defaults on older elements
    assert rows(
        db,
        _ELEMENTS.format(
            cols="e.status, e.assisted, e.layer, e.provenance, e.key_start, e.key_end",
            gold_set="demo",
        ),
    ) == [(*e[:4], "ok", False, "final", "single", None, None) for e in demo_elements(version)]
    team = rows(
        db,
        _ELEMENTS.format(
            cols="e.annotator, e.layer, e.provenance, e.key_start, e.key_end", gold_set="team"
        ),
    )
    assert team == (
        (TEAM_ELEMENTS_V8 if version >= 8 else TEAM_ELEMENTS_V7) if version >= 7 else []
    )
    assignments = (
        "SELECT q.external_id, a.annotator FROM assignment a JOIN query q ON q.id = a.query_id "
        "ORDER BY 1, 2"
    )
    done = (
        "SELECT q.external_id, d.annotator, d.no_answer FROM question_done d "
        "JOIN query q ON q.id = d.query_id ORDER BY 1, 2"
    )
    if version >= 7:
        assert rows(db, assignments) == [("t1", "ana"), ("t1", "bob"), ("t2", "ana")]
        assert rows(db, done) == [("t1", "ana", False), ("t1", "bob", False)]
    else:
        assert rows(db, assignments) == rows(db, done) == []

    ((name, parameters),) = rows(db, "SELECT name, parameters FROM run")
    # SQLite hands JSON back as text, PostgreSQL's driver decoded
    assert (name, json.loads(parameters) if isinstance(parameters, str) else parameters) == (
        "bm25",
        {"k1": "0.9"},
    )
    # located (version 4): found on every page the question's labels cited at import
    # (q1: alpha.txt only; q2: alpha.txt and beta.html, where "Admins..." is not on alpha)
    located = [1, 1, 0] if version >= 4 else [0, 0, 0]
    # chunk offsets (version 12): no earlier run gave any, so both columns are NULL
    assert rows(
        db,
        "SELECT query_external_id, rank, chunk_text, doc_id, score, located, chunk_start, "
        "chunk_end FROM run_result ORDER BY query_external_id, rank",
    ) == [
        ("q1", 1, "Backups run nightly at 02:00.", "alpha.txt", 3.5, located[0], None, None),
        ("q1", 2, "Restores need a ticket.", "alpha.txt", 1.25, located[1], None, None),
        ("q2", 1, "Admins reset locked accounts.", "beta.html", 2.0, located[2], None, None),
    ]
    placements = "SELECT query_external_id, starts FROM run_placement ORDER BY 1, page_sha256"
    # one placement per question and cited page; q1's chunks start at 0 and 30 on alpha
    assert len(rows(db, placements)) == (3 if version >= 4 else 0)
    if version >= 4:
        assert ("q1", "0,30") in rows(db, placements)

    assert rows(db, "SELECT count(*) FROM audit_entry") == [(audit_entries(version),)]
    undo = "SELECT actor, action, kind FROM audit_entry WHERE reverts IS NOT NULL"
    assert rows(db, undo) == ([("bob", "add", "undo")] if version >= 3 else [])
    dedup = f"SELECT entity, action FROM audit_entry WHERE actor = '{DEDUP_ACTOR}'"
    assert rows(db, dedup) == ([("element", "remove")] if version == 4 else [])
    # roles (version 10): every annotator registered before is an annotator; no older audit
    # entry has a recorded role. A version 10 database records one on every entry: each
    # actor acted as the owner (ana and bob were registered last, by lead, a name never
    # registered)
    assert rows(db, "SELECT name, role, revoked_at IS NOT NULL FROM annotator ORDER BY 1") == (
        [("ana", "annotator", False), ("bob", "annotator", True)] if version >= 9 else []
    )
    assert rows(db, "SELECT actor_role, count(*) FROM audit_entry GROUP BY 1") == (
        [("owner", 25)] if version >= 10 else [(None, audit_entries(version))]
    )
    # the search index (version 11) is built from the pages already stored
    assert search_hits(db, "locked accounts") == ["beta.html"]
    assert search_hits(db, "ticket") == ["alpha.txt"]
    # not-relevant judgements (version 13): a new table, empty in every older database
    assert rows(db, "SELECT count(*) FROM not_relevant") == [(0,)]
    assert [v for (v,) in rows(db, "SELECT version FROM schema_version ORDER BY 1")] == list(
        range(1, SCHEMA_VERSION + 1)
    )


def search_hits(db: str, words: str) -> list[str]:
    """The pages whose text holds the phrase ``words``, found through the search index
    alone (FTS5's MATCH, PostgreSQL's @@ on the indexed expression)."""
    if db.startswith("postgresql"):
        sql = (
            "SELECT id FROM document WHERE search @@ "
            f"phraseto_tsquery('simple', '{words}') ORDER BY id"
        )
    else:
        sql = (
            "SELECT d.id FROM document_fts f JOIN document d ON d.rowid = f.rowid "
            f"WHERE document_fts MATCH '\"{words}\"' ORDER BY d.id"
        )
    return [doc_id for (doc_id,) in rows(db, sql)]


def check_upgrade(
    backend: str, version: int, db: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    load(backend, version, db)
    assert recorded_version(db) == version
    before = schema(backend, db)
    with open_store(db) as store:
        assert store.schema_version() == SCHEMA_VERSION
    check_rows(db, version)
    after = schema(backend, db)
    assert after != before
    assert after == schema(backend, new_database(backend, tmp_path, request))


# --- tests --------------------------------------------------------------------------------


def _version_of(path: Path) -> int:
    """The version of a stored file's name (``v10.sqlite.sql``: 10), to sort 9 before 10."""
    return int(path.name.split(".")[0][1:])


def test_a_stored_database_of_every_earlier_version() -> None:
    """A schema change must add the stored database of the version it leaves behind."""
    assert sorted(DATA.glob("v*.sqlite.sql"), key=_version_of) == [
        DATA / f"v{n}.sqlite.sql" for n in SQLITE_VERSIONS
    ]
    assert sorted(DATA.glob("v*.postgresql.sql"), key=_version_of) == [
        DATA / f"v{n}.postgresql.sql" for n in POSTGRESQL_VERSIONS
    ]


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("version", SQLITE_VERSIONS)
def test_sqlite_database_of_version_upgrades(
    version: int, backend: str, db_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    check_upgrade(backend, version, db_url, tmp_path, request)


@pytest.mark.backends("postgresql")
@pytest.mark.parametrize("version", POSTGRESQL_VERSIONS)
def test_postgresql_database_of_version_upgrades(
    version: int, backend: str, db_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    check_upgrade(backend, version, db_url, tmp_path, request)


@pytest.mark.backends("sqlite", "postgresql")
def test_upgraded_database_still_enforces_the_span_triggers(backend: str, db_url: str) -> None:
    """The triggers of the oldest stored version work after every step: an element whose
    text is not the page's text at its offsets is refused ("Backups" is at 0..7)."""
    load(backend, 1 if backend == "sqlite" else FIRST_POSTGRESQL, db_url)
    open_store(db_url).close()
    refused = pytest.raises(sa_exc.IntegrityError, match="element text must equal")
    with refused, plain(db_url) as engine, engine.begin() as conn:
        conn.exec_driver_sql(
            'INSERT INTO element (query_id, document_id, start, "end", text, grade, '
            "annotator, created_at, status, assisted, layer, provenance) VALUES "
            "(1, 'alpha.txt', 0, 7, 'Restore', 1, 'x', '2026-01-01', 'ok', false, "
            "'final', 'single')"
        )
    assert rows(db_url, "SELECT count(*) FROM element WHERE annotator = 'x'") == [(0,)]


def test_every_model_is_a_store_table() -> None:
    """A new table model must be in STORE_MODELS, or new databases would lack it."""
    declared = {
        obj
        for _, obj in pyinspect.getmembers(store_models, pyinspect.isclass)
        if issubclass(obj, SQLModel) and hasattr(obj, "__table__")
    }
    assert declared == set(STORE_MODELS)
    assert {t.name for t in store_tables()} <= set(SQLModel.metadata.tables)


@pytest.mark.backends("sqlite")
def test_new_sqlite_database_is_the_models_ddl(backend: str, db_url: str) -> None:
    """A new database's stored SQL is, statement for statement, what the models' metadata
    compiles to for SQLite, plus the named triggers: no other description of the schema."""
    open_store(db_url).close()
    dialect = sqlite.dialect()
    expected = {}
    for table in store_tables():
        expected[("table", table.name)] = _ws(str(CreateTable(table).compile(dialect=dialect)))
        for index in table.indexes:
            expected[("index", str(index.name))] = _ws(
                str(CreateIndex(index).compile(dialect=dialect))
            )
    for trigger in TRIGGERS:
        if trigger.dialect == "sqlite":
            expected[("trigger", trigger.name)] = _ws(trigger.sql)
    for statement in SEARCH_INDEX:
        if statement.dialect == "sqlite":
            kind = "trigger" if statement.sql.startswith("CREATE TRIGGER") else "table"
            expected[(kind, statement.name)] = _ws(statement.sql)
    conn = sqlite3.connect(db_url)
    try:
        stored = {
            (kind, name): _ws(sql)
            for kind, name, sql in conn.execute(
                "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL"
            )
        }
    finally:
        conn.close()
    # FTS5 makes its own tables behind the virtual table; their SQL is FTS5's, not ours
    shadow = {key for key in stored if key[1] in SQLITE_FTS_SHADOW_TABLES}
    assert {name for _, name in shadow} == set(SQLITE_FTS_SHADOW_TABLES)
    assert {k: v for k, v in stored.items() if k not in shadow} == expected


@pytest.mark.backends("postgresql")
def test_new_postgresql_database_is_the_models_ddl(
    backend: str, db_url: str, request: pytest.FixtureRequest
) -> None:
    """The PostgreSQL counterpart: a new database has exactly the catalog entries of a plain
    ``create_all`` of the models (whose metadata carries the triggers), and those are the
    tables, columns, indexes, checks and triggers the models name."""
    open_store(db_url).close()
    reference = request.getfixturevalue("pg_databases")()
    with plain(reference) as engine, engine.begin() as conn:
        SQLModel.metadata.create_all(conn, tables=store_tables())
    assert postgresql_schema(db_url) == postgresql_schema(reference)

    tables = {t.name: t for t in store_tables()}
    columns: dict[str, list[str]] = {}
    for table, _, column, *_ in rows(db_url, _PG_QUERIES["columns"]):
        columns.setdefault(table, []).append(column)
    # the search vector is the one column no model declares (a tsvector, PostgreSQL only)
    assert columns.pop("document")[-1] == PG_SEARCH_COLUMN
    assert columns == {
        name: [c.name for c in t.columns] for name, t in tables.items() if name != "document"
    }
    indexes = {name: d for _, name, d in rows(db_url, _PG_QUERIES["indexes"])}
    for table in tables.values():
        for index in table.indexes:
            partial = index.dialect_options["postgresql"]["where"] is not None
            assert (" WHERE " in indexes[str(index.name)]) == partial, index.name
    # the search index (on the generated column) is one the models' Index objects do not
    # describe
    assert "USING gin (search)" in indexes["ix_document_search"]
    named_checks = {
        str(c.name)
        for t in tables.values()
        for c in t.constraints
        if isinstance(c, CheckConstraint) and c.name is not None
    }
    constraints = rows(db_url, _PG_QUERIES["constraints"])
    assert {name for _, name, kind, _ in constraints if kind == "c"} == named_checks
    triggers = {name for _, name, _ in rows(db_url, _PG_QUERIES["triggers"])}
    functions = {name for name, _ in rows(db_url, _PG_QUERIES["functions"])}
    assert triggers | functions == {t.name for t in TRIGGERS if t.dialect == "postgresql"}
