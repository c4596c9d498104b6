"""Schema versions, and the steps that upgrade a database of an earlier version.

The current schema is written once, in :mod:`labeler.store.models`: an empty database is
created from the models' metadata (:func:`~labeler.store.models.create_schema`, tables,
indexes, constraints and the span triggers of each dialect) and records every version up to
:data:`SCHEMA_VERSION` at once. The steps of :data:`MIGRATIONS` are history: step *n* turns
a database of version *n - 1* into one of version *n*, and a database of an earlier version
goes through the steps above its version. Tests upgrade a stored database of every earlier
version (``tests/labeler/store/data/schema_versions``) and require the result to equal a new
database, table by table, column by column, index by index and trigger by trigger.

The schema version is the highest ``version`` in the ``schema_version`` table (one row per
version reached, with its description and time). Opening a database brings it to
:data:`SCHEMA_VERSION` in one ``BEGIN IMMEDIATE`` transaction.

* A database whose version is newer than :data:`SCHEMA_VERSION` raises
  :class:`~labeler.errors.StoreError` (an older labeller must not write to it).
* A database with tables but no ``schema_version`` table is not a labeller database and
  raises :class:`~labeler.errors.StoreError`.
* A step that fails rolls back the whole upgrade; the version stays where it was.

Each step carries its statements per dialect (:class:`DialectSQL`): SQLite and PostgreSQL
run the same steps, in the same order, recording the same versions. Where SQLite enforces an
invariant with a trigger, PostgreSQL has a PL/pgSQL trigger with the same name that accepts
and rejects the same rows. The upgrade transaction is serialised on both (``BEGIN
IMMEDIATE``; PostgreSQL's write lock, see :mod:`labeler.store.postgres`), and PostgreSQL's
DDL is transactional too.

Rules for a schema change: change the models (``models.py``), append a step with the next
version and SQL for every dialect in :data:`DIALECTS` that makes a database of the previous
version equal to what the models now create, never edit a released step, and add a stored
database of the previous version to the tests (its folder's README says how).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, insert, inspect, text

from labeler.errors import StoreError
from labeler.store import _span_triggers_v1 as v1_triggers
from labeler.store.models import (
    AUDIT_DO,
    TRIGGERS,
    AuditEntry,
    Element,
    SchemaVersion,
    UTCDateTime,
    create_schema,
    search_index,
    utcnow,
)

DIALECTS = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Migration:
    """One step: run ``apply`` on a connection inside the upgrade transaction."""

    version: int
    description: str
    apply: Callable[[Connection], None]


@dataclass(frozen=True)
class DialectSQL:
    """A step's statements for each dialect; calling it runs those of the connection's.

    ``first``, when given, runs before the statements on every dialect: data work written
    once with SQLAlchemy Core (e.g. removing rows a new constraint would refuse).
    """

    sqlite: tuple[str, ...]
    postgresql: tuple[str, ...]
    first: Callable[[Connection], None] | None = None

    def statements(self, dialect: str) -> tuple[str, ...]:
        """The statements for ``dialect``; :class:`StoreError` for a dialect not in
        :data:`DIALECTS`."""
        if dialect == "sqlite":
            return self.sqlite
        if dialect == "postgresql":
            return self.postgresql
        raise StoreError(f"no schema for {dialect!r} databases (supported: {', '.join(DIALECTS)})")

    def __call__(self, conn: Connection) -> None:
        statements = self.statements(conn.dialect.name)
        if self.first is not None:
            self.first(conn)
        for statement in statements:
            conn.exec_driver_sql(statement)


# Version 1: the first release's tables, constraints and span triggers. Frozen.
_V1_SQLITE_TABLES = (
    """CREATE TABLE schema_version (
    version INTEGER NOT NULL,
    description VARCHAR NOT NULL,
    applied_at DATETIME NOT NULL,
    PRIMARY KEY (version)
)""",
    """CREATE TABLE document (
    id VARCHAR NOT NULL,
    source_path VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    profile VARCHAR NOT NULL,
    text TEXT NOT NULL,
    ingested_at DATETIME NOT NULL,
    PRIMARY KEY (id)
)""",
    """CREATE TABLE gold_set (
    id INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    description TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (name)
)""",
    """CREATE TABLE "query" (
    id INTEGER NOT NULL,
    gold_set_id INTEGER NOT NULL,
    external_id VARCHAR NOT NULL,
    text TEXT NOT NULL,
    notes TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uq_query_gold_set_external_id UNIQUE (gold_set_id, external_id),
    FOREIGN KEY(gold_set_id) REFERENCES gold_set (id) ON DELETE CASCADE
)""",
    """CREATE TABLE element (
    id INTEGER NOT NULL,
    query_id INTEGER NOT NULL,
    document_id VARCHAR NOT NULL,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    text TEXT NOT NULL,
    grade INTEGER DEFAULT 1 NOT NULL,
    annotator VARCHAR NOT NULL,
    created_at DATETIME NOT NULL,
    status VARCHAR DEFAULT 'ok' NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT ck_element_grade CHECK (grade >= 1),
    CONSTRAINT ck_element_span CHECK (start >= 0 AND "end" > start),
    CONSTRAINT ck_element_status CHECK (status IN ('ok', 'stale')),
    FOREIGN KEY(query_id) REFERENCES "query" (id) ON DELETE CASCADE,
    FOREIGN KEY(document_id) REFERENCES document (id) ON DELETE RESTRICT
)""",
    """CREATE TABLE run (
    id INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    imported_at DATETIME NOT NULL,
    source_file VARCHAR NOT NULL,
    parameters JSON NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (name)
)""",
    """CREATE TABLE run_result (
    id INTEGER NOT NULL,
    run_id INTEGER NOT NULL,
    query_external_id VARCHAR NOT NULL,
    rank INTEGER NOT NULL,
    chunk_text TEXT NOT NULL,
    doc_id VARCHAR,
    score FLOAT,
    PRIMARY KEY (id),
    CONSTRAINT uq_run_result_rank UNIQUE (run_id, query_external_id, rank),
    CONSTRAINT ck_run_result_rank CHECK (rank >= 1),
    FOREIGN KEY(run_id) REFERENCES run (id) ON DELETE CASCADE
)""",
    """CREATE TABLE audit_entry (
    id INTEGER NOT NULL,
    actor VARCHAR NOT NULL,
    at DATETIME NOT NULL,
    action VARCHAR NOT NULL,
    entity VARCHAR NOT NULL,
    entity_id INTEGER NOT NULL,
    "before" JSON,
    "after" JSON,
    PRIMARY KEY (id),
    CONSTRAINT ck_audit_action CHECK (action IN ('add', 'change', 'remove'))
)""",
)

# The span triggers as version 1 made them (version 14 replaced the element ones).
_V1_SQLITE_TRIGGERS = v1_triggers.SQLITE

# Version 2: lookup indexes (elements of a page by status, elements of a query, audit trail
# of one entity). Ingest's change detection reads elements by page.
_V2_SQL = (
    "CREATE INDEX ix_element_document_status ON element (document_id, status)",
    "CREATE INDEX ix_element_query ON element (query_id)",
    "CREATE INDEX ix_audit_entity ON audit_entry (entity, entity_id)",
)

# Version 3: assist-mode flag on elements; undo/redo bookkeeping on audit entries.
_V3_SQLITE = (
    "ALTER TABLE element ADD COLUMN assisted BOOLEAN DEFAULT 0 NOT NULL",
    "ALTER TABLE audit_entry ADD COLUMN kind VARCHAR DEFAULT 'do' NOT NULL",
    "ALTER TABLE audit_entry ADD COLUMN reverts INTEGER",
)

# The same steps for PostgreSQL. Tables: what SQLAlchemy's create_all emitted for models.py
# at version 1 (SERIAL keys, TIMESTAMP WITH TIME ZONE).
_V1_POSTGRESQL_TABLES = (
    """CREATE TABLE schema_version (
    version INTEGER NOT NULL,
    description VARCHAR NOT NULL,
    applied_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (version)
)""",
    """CREATE TABLE document (
    id VARCHAR NOT NULL,
    source_path VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    profile VARCHAR NOT NULL,
    text TEXT NOT NULL,
    ingested_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (id)
)""",
    """CREATE TABLE gold_set (
    id SERIAL NOT NULL,
    name VARCHAR NOT NULL,
    description TEXT NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (name)
)""",
    """CREATE TABLE "query" (
    id SERIAL NOT NULL,
    gold_set_id INTEGER NOT NULL,
    external_id VARCHAR NOT NULL,
    text TEXT NOT NULL,
    notes TEXT NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uq_query_gold_set_external_id UNIQUE (gold_set_id, external_id),
    FOREIGN KEY(gold_set_id) REFERENCES gold_set (id) ON DELETE CASCADE
)""",
    """CREATE TABLE element (
    id SERIAL NOT NULL,
    query_id INTEGER NOT NULL,
    document_id VARCHAR NOT NULL,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    text TEXT NOT NULL,
    grade INTEGER DEFAULT 1 NOT NULL,
    annotator VARCHAR NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    status VARCHAR DEFAULT 'ok' NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT ck_element_grade CHECK (grade >= 1),
    CONSTRAINT ck_element_span CHECK (start >= 0 AND "end" > start),
    CONSTRAINT ck_element_status CHECK (status IN ('ok', 'stale')),
    FOREIGN KEY(query_id) REFERENCES "query" (id) ON DELETE CASCADE,
    FOREIGN KEY(document_id) REFERENCES document (id) ON DELETE RESTRICT
)""",
    """CREATE TABLE run (
    id SERIAL NOT NULL,
    name VARCHAR NOT NULL,
    imported_at TIMESTAMP WITH TIME ZONE NOT NULL,
    source_file VARCHAR NOT NULL,
    parameters JSON NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (name)
)""",
    """CREATE TABLE run_result (
    id SERIAL NOT NULL,
    run_id INTEGER NOT NULL,
    query_external_id VARCHAR NOT NULL,
    rank INTEGER NOT NULL,
    chunk_text TEXT NOT NULL,
    doc_id VARCHAR,
    score FLOAT,
    PRIMARY KEY (id),
    CONSTRAINT uq_run_result_rank UNIQUE (run_id, query_external_id, rank),
    CONSTRAINT ck_run_result_rank CHECK (rank >= 1),
    FOREIGN KEY(run_id) REFERENCES run (id) ON DELETE CASCADE
)""",
    """CREATE TABLE audit_entry (
    id SERIAL NOT NULL,
    actor VARCHAR NOT NULL,
    at TIMESTAMP WITH TIME ZONE NOT NULL,
    action VARCHAR NOT NULL,
    entity VARCHAR NOT NULL,
    entity_id INTEGER NOT NULL,
    "before" JSON,
    "after" JSON,
    PRIMARY KEY (id),
    CONSTRAINT ck_audit_action CHECK (action IN ('add', 'change', 'remove'))
)""",
)

_V1_POSTGRESQL_TRIGGERS = v1_triggers.POSTGRESQL

_V3_POSTGRESQL = (
    "ALTER TABLE element ADD COLUMN assisted BOOLEAN DEFAULT false NOT NULL",
    "ALTER TABLE audit_entry ADD COLUMN kind VARCHAR DEFAULT 'do' NOT NULL",
    "ALTER TABLE audit_entry ADD COLUMN reverts INTEGER",
)

_V4_SQL = (
    """CREATE TABLE run_placement (
    run_id INTEGER NOT NULL,
    query_external_id VARCHAR NOT NULL,
    page_sha256 VARCHAR NOT NULL,
    starts TEXT NOT NULL,
    repeated TEXT NOT NULL,
    occurrences TEXT NOT NULL,
    lengths TEXT NOT NULL,
    PRIMARY KEY (run_id, query_external_id, page_sha256),
    FOREIGN KEY(run_id) REFERENCES run (id) ON DELETE CASCADE
)""",
    "ALTER TABLE run_result ADD COLUMN located INTEGER DEFAULT 0 NOT NULL",
)

#: the audit log's actor for the duplicate elements schema version 5 removed
DEDUP_ACTOR = "labeler-migration-5"
#: the schema version whose step removes duplicate elements
DEDUP_VERSION = 5


def deduplicated(conn: Connection) -> int:
    """How many duplicate elements the schema 5 step removed (its audit entries)."""
    found = conn.execute(
        text("SELECT count(*) FROM audit_entry WHERE actor = :actor"), {"actor": DEDUP_ACTOR}
    ).scalar_one()
    return int(found)


_V5_INDEX = (
    'CREATE UNIQUE INDEX uq_element_span ON element (query_id, document_id, start, "end")',
)


def _v5_remove_duplicates(conn: Connection) -> None:
    """Remove duplicate elements (same question, page, start, end) before ``_V5_INDEX``.

    The oldest (lowest id) of each group stays. Each removed row is recorded in the audit
    log as a ``remove`` by :data:`DEDUP_ACTOR` with its full before-state, so that
    ``labeler doctor`` can report what the upgrade removed and the row can be restored by
    hand. The statement names the version-4 columns (not the current model's) so the step
    keeps working when later versions add columns.
    """
    rows = conn.execute(
        text(
            'SELECT e.id, e.query_id, e.document_id, e.start, e."end", e.text, e.grade, '
            "e.annotator, e.created_at, e.status, e.assisted FROM element AS e "
            "WHERE EXISTS (SELECT 1 FROM element AS o WHERE o.query_id = e.query_id "
            "AND o.document_id = e.document_id AND o.start = e.start "
            'AND o."end" = e."end" AND o.id < e.id) ORDER BY e.id'
        ).columns(created_at=UTCDateTime())
    ).mappings()
    removed = [dict(row) for row in rows]
    for row in removed:
        before = Element(**{**row, "assisted": bool(row["assisted"])}).model_dump(mode="json")
        conn.execute(
            insert(AuditEntry).values(
                actor=DEDUP_ACTOR,
                at=utcnow(),
                action="remove",
                entity="element",
                entity_id=row["id"],
                before=before,
                after=None,
                kind=AUDIT_DO,
            )
        )
        conn.execute(text("DELETE FROM element WHERE id = :id"), {"id": row["id"]})


# Version 6: each page's block starts (the structure chunker's boundaries), filled at ingest.
# Existing pages get NULL ("not computed yet"); re-ingesting them fills the column.
_V6_SQL = ("ALTER TABLE document ADD COLUMN blocks TEXT",)

#: the schema version that adds team gold sets (assignments, done marks, layers, adjudication)
TEAM_VERSION = 7


def _v7_tables(serial: str, stamp: str, query: str) -> tuple[str, ...]:
    return (
        f"""CREATE TABLE assignment (
    id {serial} NOT NULL,
    query_id INTEGER NOT NULL,
    annotator VARCHAR NOT NULL,
    assigned_at {stamp} NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uq_assignment_query_annotator UNIQUE (query_id, annotator),
    FOREIGN KEY(query_id) REFERENCES {query} (id) ON DELETE CASCADE
)""",
        f"""CREATE TABLE question_done (
    id {serial} NOT NULL,
    query_id INTEGER NOT NULL,
    annotator VARCHAR NOT NULL,
    done_at {stamp} NOT NULL,
    no_answer BOOLEAN NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uq_question_done_query_annotator UNIQUE (query_id, annotator),
    FOREIGN KEY(query_id) REFERENCES {query} (id) ON DELETE CASCADE
)""",
    )


# Version 7: team gold sets. Every existing element is final with provenance "single" (what
# scoring used before), so a gold set without team work scores exactly as it did.
_V7_COMMON = (
    "ALTER TABLE element ADD COLUMN layer VARCHAR DEFAULT 'final' NOT NULL",
    "ALTER TABLE element ADD COLUMN provenance VARCHAR DEFAULT 'single' NOT NULL",
    "DROP INDEX uq_element_span",
    'CREATE UNIQUE INDEX uq_element_final_span ON element (query_id, document_id, start, "end") '
    "WHERE layer = 'final'",
    "CREATE UNIQUE INDEX uq_element_layer_span ON element "
    "(query_id, document_id, start, \"end\", annotator) WHERE layer = 'annotator'",
    "ALTER TABLE query ADD COLUMN adjudicated_by VARCHAR",
)
_V7_SQLITE = (
    "ALTER TABLE gold_set ADD COLUMN team BOOLEAN DEFAULT 0 NOT NULL",
    "ALTER TABLE query ADD COLUMN adjudicated_at DATETIME",
    *_V7_COMMON,
    *_v7_tables("INTEGER", "DATETIME", '"query"'),
)
_V7_POSTGRESQL = (
    "ALTER TABLE gold_set ADD COLUMN team BOOLEAN DEFAULT false NOT NULL",
    "ALTER TABLE query ADD COLUMN adjudicated_at TIMESTAMP WITH TIME ZONE",
    *_V7_COMMON,
    *_v7_tables("SERIAL", "TIMESTAMP WITH TIME ZONE", "query"),
)

# Version 8: an element's key span (the clause a Partial chunk must hold whole), page offsets
# inside the element; both NULL for an element without one. The check is a column constraint
# of key_end (SQLite can add no table constraint to an existing table; it checks every row
# of the table when the column is added, and all hold NULL then).
#: the schema version whose step adds elements' key spans
KEYS_VERSION = 8
KEY_CHECK = (
    "(key_start IS NULL AND key_end IS NULL) OR "
    "(key_start IS NOT NULL AND key_end IS NOT NULL "
    'AND key_start >= start AND key_start < key_end AND key_end <= "end")'
)
_V8_SQL = (
    "ALTER TABLE element ADD COLUMN key_start INTEGER",
    f"ALTER TABLE element ADD COLUMN key_end INTEGER CONSTRAINT ck_element_key CHECK ({KEY_CHECK})",
)

#: the schema version whose step adds the ``annotator`` table (``labeler serve``'s links)
ANNOTATORS_VERSION = 9

# Version 9: annotators of `labeler serve`, each with the SHA-256 of their link's token.
_V9_SQLITE = (
    """CREATE TABLE annotator (
    id INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    token_hash VARCHAR NOT NULL,
    created_at DATETIME NOT NULL,
    revoked_at DATETIME,
    PRIMARY KEY (id),
    UNIQUE (name),
    UNIQUE (token_hash)
)""",
)
_V9_POSTGRESQL = (
    """CREATE TABLE annotator (
    id SERIAL NOT NULL,
    name VARCHAR NOT NULL,
    token_hash VARCHAR NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    revoked_at TIMESTAMP WITH TIME ZONE,
    PRIMARY KEY (id),
    UNIQUE (name),
    UNIQUE (token_hash)
)""",
)

#: the schema version whose step adds annotators' roles and the audit log's actor role
ROLES_VERSION = 10

# Version 10: roles. Every annotator registered before is an annotator (a lead is made one
# with `labeler annotators role NAME lead`); older audit entries have no recorded role. The
# checks are column constraints (SQLite can add no table constraint to an existing table).
_V10_SQL = (
    "ALTER TABLE annotator ADD COLUMN role VARCHAR DEFAULT 'annotator' NOT NULL "
    "CONSTRAINT ck_annotator_role CHECK (role IN ('annotator', 'lead'))",
    "ALTER TABLE audit_entry ADD COLUMN actor_role VARCHAR CONSTRAINT ck_audit_actor_role "
    "CHECK (actor_role IS NULL OR actor_role IN ('annotator', 'lead', 'owner'))",
)

#: the schema version whose step adds the full-text index of page text
SEARCH_VERSION = 11

# Version 11: the page search index (models.SEARCH_INDEX, unchanged since it was added: a
# step that changes it must first copy its old text here). SQLite's step fills the new FTS5
# table from every stored page ('rebuild' reads the external content, document); the GIN
# index on PostgreSQL is built from the rows by CREATE INDEX itself.
_V11_SQLITE = (*search_index("sqlite"), "INSERT INTO document_fts(document_fts) VALUES ('rebuild')")
_V11_POSTGRESQL = search_index("postgresql")

#: the schema version whose step adds run results' chunk offsets
OFFSETS_VERSION = 12

# Version 12: a run result's chunk offsets in its page (the check is models.OFFSETS_CHECK,
# written out here so that the step stays what it was if the model changes); both NULL for
# the results stored before, which gave none. The check is a column constraint of chunk_end.
_V12_SQL = (
    "ALTER TABLE run_result ADD COLUMN chunk_start INTEGER",
    "ALTER TABLE run_result ADD COLUMN chunk_end INTEGER CONSTRAINT ck_run_result_offsets "
    "CHECK ((chunk_start IS NULL AND chunk_end IS NULL) OR "
    "(chunk_start IS NOT NULL AND chunk_end IS NOT NULL "
    "AND chunk_start >= 0 AND chunk_start <= chunk_end))",
)

#: the schema version whose step adds not-relevant judgements (the ``not_relevant`` table)
NOT_RELEVANT_VERSION = 13


def _v13_tables(serial: str, stamp: str, query: str) -> tuple[str, ...]:
    return (
        f"""CREATE TABLE not_relevant (
    id {serial} NOT NULL,
    query_id INTEGER NOT NULL,
    document_id VARCHAR NOT NULL,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    annotator VARCHAR NOT NULL,
    layer VARCHAR NOT NULL,
    created_at {stamp} NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT ck_not_relevant_span CHECK (start >= 0 AND "end" > start),
    CONSTRAINT uq_not_relevant_span UNIQUE (query_id, document_id, start, "end", layer, annotator),
    FOREIGN KEY(query_id) REFERENCES {query} (id) ON DELETE CASCADE,
    FOREIGN KEY(document_id) REFERENCES document (id) ON DELETE RESTRICT
)""",
        "CREATE INDEX ix_not_relevant_query ON not_relevant (query_id)",
    )


# Version 13: not-relevant judgements of page regions (pooling, judged@k); a new table, so
# older databases simply have none.
_V13_SQLITE = _v13_tables("INTEGER", "DATETIME", '"query"')
_V13_POSTGRESQL = _v13_tables("SERIAL", "TIMESTAMP WITH TIME ZONE", "query")

#: the schema version whose step makes the element span triggers cheaper
SPAN_TRIGGERS_VERSION = 14

# Version 14: the element span triggers accept and reject the same rows without counting or
# searching the whole page on every insert (see models._SQLITE_SPAN_OK). They come from
# models.TRIGGERS; a later step that changes them must first copy this text here.
_V14_SQLITE = (
    "DROP TRIGGER element_span_insert",
    "DROP TRIGGER element_span_update",
    *(
        t.sql
        for t in TRIGGERS
        if t.dialect == "sqlite" and t.name in ("element_span_insert", "element_span_update")
    ),
)
_V14_POSTGRESQL = tuple(
    t.sql.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)
    for t in TRIGGERS
    if t.dialect == "postgresql" and t.name == "element_span_check"
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "initial schema",
        DialectSQL(
            sqlite=_V1_SQLITE_TABLES + _V1_SQLITE_TRIGGERS,
            postgresql=_V1_POSTGRESQL_TABLES + _V1_POSTGRESQL_TRIGGERS,
        ),
    ),
    Migration(2, "lookup indexes", DialectSQL(sqlite=_V2_SQL, postgresql=_V2_SQL)),
    Migration(
        3,
        "element assisted flag, audit undo/redo",
        DialectSQL(sqlite=_V3_SQLITE, postgresql=_V3_POSTGRESQL),
    ),
    Migration(
        4,
        "chunk placements of imported runs",
        DialectSQL(sqlite=_V4_SQL, postgresql=_V4_SQL),
    ),
    Migration(
        5,
        "one element per question, page and span",
        DialectSQL(sqlite=_V5_INDEX, postgresql=_V5_INDEX, first=_v5_remove_duplicates),
    ),
    Migration(6, "page block starts", DialectSQL(sqlite=_V6_SQL, postgresql=_V6_SQL)),
    Migration(
        TEAM_VERSION,
        "team gold sets: assignments, done marks, annotator layers, adjudication",
        DialectSQL(sqlite=_V7_SQLITE, postgresql=_V7_POSTGRESQL),
    ),
    Migration(KEYS_VERSION, "element key spans", DialectSQL(sqlite=_V8_SQL, postgresql=_V8_SQL)),
    Migration(
        ANNOTATORS_VERSION,
        "annotators and their link tokens",
        DialectSQL(sqlite=_V9_SQLITE, postgresql=_V9_POSTGRESQL),
    ),
    Migration(
        ROLES_VERSION,
        "annotator roles, the actor's role in the audit log",
        DialectSQL(sqlite=_V10_SQL, postgresql=_V10_SQL),
    ),
    Migration(
        SEARCH_VERSION,
        "full-text index of page text",
        DialectSQL(sqlite=_V11_SQLITE, postgresql=_V11_POSTGRESQL),
    ),
    Migration(
        OFFSETS_VERSION,
        "chunk offsets of run results",
        DialectSQL(sqlite=_V12_SQL, postgresql=_V12_SQL),
    ),
    Migration(
        NOT_RELEVANT_VERSION,
        "not-relevant judgements of page regions",
        DialectSQL(sqlite=_V13_SQLITE, postgresql=_V13_POSTGRESQL),
    ),
    Migration(
        SPAN_TRIGGERS_VERSION,
        "cheaper element span triggers",
        DialectSQL(sqlite=_V14_SQLITE, postgresql=_V14_POSTGRESQL),
    ),
)

SCHEMA_VERSION = MIGRATIONS[-1].version


def current_version(conn: Connection) -> int:
    """The database's schema version: 0 for an empty database.

    Raises :class:`StoreError` when the database has tables but no ``schema_version`` table.
    """
    tables = set(inspect(conn).get_table_names())
    if "schema_version" not in tables:
        if tables:
            raise StoreError("not a labeler database (it has tables but no schema_version table)")
        return 0
    value = conn.execute(text("SELECT max(version) FROM schema_version")).scalar()
    return int(value or 0)


def check_steps(steps: Sequence[Migration]) -> None:
    """Raise ``ValueError`` unless ``steps`` are numbered 1, 2, 3, ... in order."""
    for expected, step in enumerate(steps, start=1):
        if step.version != expected:
            raise ValueError(f"migration step {step.version} found where {expected} belongs")


def pending(version: int, steps: Sequence[Migration], *, where: str) -> list[Migration]:
    """The steps above ``version``; :class:`StoreError` when the database is newer."""
    known = steps[-1].version if steps else 0
    if version > known:
        raise StoreError(
            f"{where}: database schema version {version} is newer than this labeler "
            f"supports ({known}); upgrade the labeler"
        )
    return [step for step in steps if step.version > version]


def builds_current(steps: Sequence[Migration]) -> bool:
    """Whether ``steps`` are all of :data:`MIGRATIONS`: what an empty database needs to
    reach :data:`SCHEMA_VERSION`."""
    return len(steps) == len(MIGRATIONS) and all(
        a is b for a, b in zip(steps, MIGRATIONS, strict=True)
    )


def apply_steps(conn: Connection, steps: Sequence[Migration]) -> None:
    """Bring the database on ``conn`` (already inside a transaction) through ``steps``,
    recording each step's version and description.

    Every step from 1 to :data:`SCHEMA_VERSION` (an empty database made current) is one
    :func:`~labeler.store.models.create_schema` from the models; any other run of steps
    (an older database, or a test's own steps) applies each step in order.
    """
    fresh = builds_current(steps)
    if fresh:
        create_schema(conn)
    for step in steps:
        if not fresh:
            step.apply(conn)
        conn.execute(
            insert(SchemaVersion).values(
                version=step.version, description=step.description, applied_at=utcnow()
            )
        )
