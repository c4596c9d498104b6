"""SQLModel tables of the gold-set store: the one place where the current schema is written.

A new database is created from these classes' metadata (:func:`create_schema`, on every
dialect); what the models cannot express, the span triggers, are the named per-dialect
statements of :data:`TRIGGERS`, and the page search index, the statements of
:data:`SEARCH_INDEX`, attached to the metadata here. :mod:`labeler.store.migrations`
holds the steps that bring a database of an earlier schema version up to this one; a test
upgrades a stored database of every earlier version and checks that it ends equal to a new one.

Invariants kept here and, independently, by the triggers (see :data:`TRIGGERS`):

* a non-stale :class:`Element`'s ``text`` equals ``document.text[start:end]`` (Python
  code-point indices) with ``0 <= start < end <= len(document.text)``;
* ``grade >= 1``; ``status`` is ``"ok"`` or ``"stale"``;
* ``key_start``/``key_end`` (the element's key span, page offsets) are both NULL, or
  ``start <= key_start < key_end <= end``.

An element whose page changed under it is marked ``stale`` (never dropped, never rewritten);
its offsets and text keep what the annotator labelled until it is re-anchored.

``table=True`` models do not run Pydantic validation (docs/architecture.md): the write functions in
:mod:`labeler.store.labels` and :mod:`labeler.store.document_table` validate, and an ORM event in
:mod:`labeler.store.validation` checks every Element flush.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    DDL,
    JSON,
    CheckConstraint,
    Connection,
    Dialect,
    Index,
    Table,
    Text,
    UniqueConstraint,
    event,
    false,
)
from sqlalchemy import text as sql_text
from sqlalchemy.types import DateTime, TypeDecorator
from sqlmodel import Field, SQLModel

ELEMENT_OK = "ok"
ELEMENT_STALE = "stale"
ELEMENT_STATUSES = (ELEMENT_OK, ELEMENT_STALE)

#: element layers (schema version 7): ``final`` is what scoring and export use; ``annotator``
#: holds one annotator's own labels in a team gold set (blind until adjudicated)
LAYER_FINAL = "final"
LAYER_ANNOTATOR = "annotator"
LAYERS = (LAYER_FINAL, LAYER_ANNOTATOR)
#: how a final element came to be: one annotator's label in a gold set without a team
#: workflow (``single``), chosen exactly by every annotator (``unanimous``) or by most of them
#: (``majority``) and accepted, or accepted by a person in review (``adjudicated``; the
#: element's ``annotator`` is then the adjudicator). Annotator-layer elements have ``own``.
PROVENANCE_OWN = "own"
PROVENANCE_SINGLE = "single"
PROVENANCE_UNANIMOUS = "unanimous"
PROVENANCE_MAJORITY = "majority"
PROVENANCE_ADJUDICATED = "adjudicated"
#: a final element whose imported text was not on its page, snapped onto the span it
#: aligned with (``gold import --snap``)
PROVENANCE_SNAPPED = "snapped"
PROVENANCES = (
    PROVENANCE_SINGLE,
    PROVENANCE_UNANIMOUS,
    PROVENANCE_MAJORITY,
    PROVENANCE_ADJUDICATED,
    PROVENANCE_SNAPPED,
)

AUDIT_ACTIONS = ("add", "change", "remove")
AUDIT_DO = "do"
AUDIT_UNDO = "undo"
AUDIT_REDO = "redo"
AUDIT_KINDS = (AUDIT_DO, AUDIT_UNDO, AUDIT_REDO)

#: roles of a registered annotator (schema version 10, see labeler.store.roles): an
#: ``annotator`` labels in their own layer; a ``lead`` also assigns, adjudicates and deletes
ROLE_ANNOTATOR = "annotator"
ROLE_LEAD = "lead"
ROLES = (ROLE_ANNOTATOR, ROLE_LEAD)
#: the role of a name that is not a registered annotator: whoever holds the database
ROLE_OWNER = "owner"
#: what the audit log records as the actor's role when the change was made
ACTOR_ROLES = (ROLE_ANNOTATOR, ROLE_LEAD, ROLE_OWNER)


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (UTC).

    Naive datetimes are taken to be UTC already. SQLite keeps no zone, so the value is stored
    as naive UTC text there; other databases get ``TIMESTAMP WITH TIME ZONE``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Document(SQLModel, table=True):
    """One ingested page: its text exactly as the extraction profile produced it."""

    __tablename__ = "document"

    id: str = Field(primary_key=True, description="corpus-relative path with '/'")
    source_path: str = Field(description="file the text was last extracted from")
    sha256: str = Field(description="hex sha256 of the file's bytes")
    profile: str = Field(description="extraction profile, e.g. 'jsoup-1.15.3'")
    text: str = Field(sa_type=Text)
    ingested_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # Added by schema version 6 (see labeler.store.pageblocks): where each block of the text
    # begins, as sorted comma-separated offsets ("" for none); NULL until ingest computes them.
    blocks: str | None = Field(default=None, sa_type=Text)


class GoldSet(SQLModel, table=True):
    """A named collection of questions with their expected elements."""

    __tablename__ = "gold_set"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    description: str = Field(default="", sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # Added by schema version 7: set by the first assignment or annotator-layer import, after
    # which scoring and export use the final layer of adjudicated questions (labeler.store.team).
    # false() is spelt 0 on SQLite and false on PostgreSQL (whose booleans refuse 0).
    team: bool = Field(default=False, sa_column_kwargs={"server_default": false()})


class Query(SQLModel, table=True):
    """A question of a gold set; ``external_id`` is unique within its set."""

    __tablename__ = "query"
    __table_args__ = (
        UniqueConstraint("gold_set_id", "external_id", name="uq_query_gold_set_external_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    gold_set_id: int = Field(foreign_key="gold_set.id", ondelete="CASCADE")
    external_id: str
    text: str = Field(sa_type=Text)
    notes: str = Field(default="", sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # Added by schema version 7: when and by whom the final layer of this question was settled
    # (a team gold set scores only adjudicated questions it has team work on).
    adjudicated_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    adjudicated_by: str | None = Field(default=None)


class Element(SQLModel, table=True):
    """An expected element: an exact span of a page that answers a query."""

    __tablename__ = "element"
    __table_args__ = (
        CheckConstraint("grade >= 1", name="ck_element_grade"),
        CheckConstraint('start >= 0 AND "end" > start', name="ck_element_span"),
        CheckConstraint("status IN ('ok', 'stale')", name="ck_element_status"),
        # Added by schema version 2.
        Index("ix_element_document_status", "document_id", "status"),
        Index("ix_element_query", "query_id"),
        # Schema version 5 made (question, page, span) unique; version 7 narrowed that to the
        # final layer and added the same per annotator in the annotator layer.
        Index(
            "uq_element_final_span",
            "query_id",
            "document_id",
            "start",
            "end",
            unique=True,
            sqlite_where=sql_text("layer = 'final'"),
            postgresql_where=sql_text("layer = 'final'"),
        ),
        Index(
            "uq_element_layer_span",
            "query_id",
            "document_id",
            "start",
            "end",
            "annotator",
            unique=True,
            sqlite_where=sql_text("layer = 'annotator'"),
            postgresql_where=sql_text("layer = 'annotator'"),
        ),
        # Added by schema version 8 (as a column constraint of key_end there).
        CheckConstraint(
            "(key_start IS NULL AND key_end IS NULL) OR "
            "(key_start IS NOT NULL AND key_end IS NOT NULL "
            'AND key_start >= start AND key_start < key_end AND key_end <= "end")',
            name="ck_element_key",
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    query_id: int = Field(foreign_key="query.id", ondelete="CASCADE")
    document_id: str = Field(foreign_key="document.id", ondelete="RESTRICT")
    start: int
    end: int
    text: str = Field(sa_type=Text)
    grade: int = Field(default=1, sa_column_kwargs={"server_default": sql_text("1")})
    annotator: str
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    status: str = Field(default=ELEMENT_OK, sa_column_kwargs={"server_default": ELEMENT_OK})
    # Added by schema version 3: the annotator had retrieval results on screen (assist mode).
    assisted: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # Added by schema version 7 (see LAYERS and PROVENANCES above).
    layer: str = Field(default=LAYER_FINAL, sa_column_kwargs={"server_default": LAYER_FINAL})
    provenance: str = Field(
        default=PROVENANCE_SINGLE, sa_column_kwargs={"server_default": PROVENANCE_SINGLE}
    )
    # Added by schema version 8: the key span (the clause a Partial chunk must hold whole),
    # page offsets inside [start, end); both None for an element without one.
    key_start: int | None = Field(default=None)
    key_end: int | None = Field(default=None)


class NotRelevant(SQLModel, table=True):
    """A judgement that a page region is not relevant to a question (schema version 13).

    ``document.text[start:end]`` was read by ``annotator`` for the question and holds no
    answer: pooling (:mod:`labeler.runs.pooling`) stops offering it and ``judged@k`` counts
    it as judged. ``layer`` is that of the annotator's labels (:data:`LAYERS`): their own
    ``annotator`` layer in a team gold set (blind until adjudicated), ``final`` otherwise.
    Unlike an element it keeps no text: a region is only ever shown, never scored.
    """

    __tablename__ = "not_relevant"
    __table_args__ = (
        CheckConstraint('start >= 0 AND "end" > start', name="ck_not_relevant_span"),
        UniqueConstraint(
            "query_id",
            "document_id",
            "start",
            "end",
            "layer",
            "annotator",
            name="uq_not_relevant_span",
        ),
        Index("ix_not_relevant_query", "query_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    query_id: int = Field(foreign_key="query.id", ondelete="CASCADE")
    document_id: str = Field(foreign_key="document.id", ondelete="RESTRICT")
    start: int
    end: int
    annotator: str
    layer: str = Field(default=LAYER_FINAL)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Assignment(SQLModel, table=True):
    """A question of a team gold set given to one annotator to label (schema version 7)."""

    __tablename__ = "assignment"
    __table_args__ = (
        UniqueConstraint("query_id", "annotator", name="uq_assignment_query_annotator"),
    )

    id: int | None = Field(default=None, primary_key=True)
    query_id: int = Field(foreign_key="query.id", ondelete="CASCADE")
    annotator: str
    assigned_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class QuestionDone(SQLModel, table=True):
    """An annotator's mark that a question is done (schema version 7).

    ``no_answer``: marked done with no element of the annotator's on it ("no answer on these
    pages"), as opposed to not labelled yet.
    """

    __tablename__ = "question_done"
    __table_args__ = (
        UniqueConstraint("query_id", "annotator", name="uq_question_done_query_annotator"),
    )

    id: int | None = Field(default=None, primary_key=True)
    query_id: int = Field(foreign_key="query.id", ondelete="CASCADE")
    annotator: str
    done_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    no_answer: bool = False


class Run(SQLModel, table=True):
    """An imported retrieval run (ranked chunks per question)."""

    __tablename__ = "run"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    imported_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    source_file: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)


OFFSETS_CHECK = (
    "(chunk_start IS NULL AND chunk_end IS NULL) OR "
    "(chunk_start IS NOT NULL AND chunk_end IS NOT NULL "
    "AND chunk_start >= 0 AND chunk_start <= chunk_end)"
)
"""A run result's offsets: both NULL, or ``0 <= chunk_start <= chunk_end``."""


class RunResult(SQLModel, table=True):
    """One ranked chunk of a run for one question (matched by the query's external id)."""

    __tablename__ = "run_result"
    __table_args__ = (
        UniqueConstraint("run_id", "query_external_id", "rank", name="uq_run_result_rank"),
        CheckConstraint("rank >= 1", name="ck_run_result_rank"),
        # Added by schema version 12 (as a column constraint of chunk_end there).
        CheckConstraint(OFFSETS_CHECK, name="ck_run_result_offsets"),
    )

    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="run.id", ondelete="CASCADE")
    query_external_id: str
    rank: int
    chunk_text: str = Field(sa_type=Text)
    doc_id: str | None = None
    score: float | None = None
    located: int = Field(
        default=0,
        sa_column_kwargs={"server_default": sql_text("0")},
        description="1: found on every page its question's labels cited at import",
    )
    # Added by schema version 12: the chunk's code-point offsets in its page's stored text,
    # as the run gave them (both None when it did not).
    chunk_start: int | None = Field(default=None)
    chunk_end: int | None = Field(default=None)


class RunPlacement(SQLModel, table=True):
    """Where every chunk of one question of a run sits on one page, worked out at import.

    For the question's results in rank order, ``starts`` lists each chunk's first offset in
    the page whose text has sha256 ``page_sha256`` (−1: not on that page), comma-separated,
    and ``repeated`` holds ``1`` where the chunk occurs there more than once, else ``0``;
    ``occurrences`` maps (JSON) the key of each label text on that page to its offsets there;
    ``lengths`` lists the chunks' lengths (so a chunk found on every page needs no text).
    Keyed by the page's content, so a re-ingested page simply has no placement any more and
    scoring locates the chunks itself, as it does for pages no label named at import.
    """

    __tablename__ = "run_placement"

    run_id: int = Field(foreign_key="run.id", ondelete="CASCADE", primary_key=True)
    query_external_id: str = Field(primary_key=True)
    page_sha256: str = Field(primary_key=True)
    starts: str = Field(sa_type=Text)
    repeated: str = Field(sa_type=Text)
    occurrences: str = Field(sa_type=Text)
    lengths: str = Field(sa_type=Text)


class AuditEntry(SQLModel, table=True):
    """One label change, with full before/after snapshots so it can be undone or redone.

    ``action`` is ``add`` (before is NULL), ``remove`` (after is NULL) or ``change``;
    ``entity`` names the table (``element``, ``query``) and ``entity_id`` its row.
    """

    __tablename__ = "audit_entry"
    __table_args__ = (
        CheckConstraint("action IN ('add', 'change', 'remove')", name="ck_audit_action"),
        # Added by schema version 2.
        Index("ix_audit_entity", "entity", "entity_id"),
        # Added by schema version 10 (as a column constraint of actor_role there).
        CheckConstraint(
            "actor_role IS NULL OR actor_role IN ('annotator', 'lead', 'owner')",
            name="ck_audit_actor_role",
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    actor: str
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    action: str
    entity: str
    entity_id: int
    before: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    after: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    # Added by schema version 3 (see labeler.store.history): ``do`` for an ordinary change,
    # ``undo``/``redo`` for an entry that reverses the entry ``reverts`` points at.
    kind: str = Field(default=AUDIT_DO, sa_column_kwargs={"server_default": AUDIT_DO})
    reverts: int | None = Field(default=None)
    # Added by schema version 10 (see labeler.store.roles): the actor's role when the change
    # was made (annotator, lead, or owner: a name not registered); NULL for older entries.
    actor_role: str | None = Field(default=None)


class Annotator(SQLModel, table=True):
    """Someone who labels through ``labeler serve``: a name and the hash of their secret link.

    Added by schema version 9 (see :mod:`labeler.store.annotators`). ``token_hash`` is the
    hex SHA-256 of the link's token (the token itself is never stored); ``revoked_at`` is set
    by ``labeler annotators revoke`` (NULL: the link works). ``role`` (schema version 10) is
    ``annotator`` or ``lead`` (:mod:`labeler.store.roles` says what each may do).
    """

    __tablename__ = "annotator"
    __table_args__ = (
        # Added by schema version 10 (as a column constraint of role there).
        CheckConstraint("role IN ('annotator', 'lead')", name="ck_annotator_role"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    token_hash: str = Field(unique=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    role: str = Field(default=ROLE_ANNOTATOR, sa_column_kwargs={"server_default": ROLE_ANNOTATOR})


class SchemaVersion(SQLModel, table=True):
    """One row per applied migration step; the schema version is the highest ``version``."""

    __tablename__ = "schema_version"

    version: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    description: str
    applied_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


#: every table model of the store (create_all orders them by their foreign keys itself)
STORE_MODELS: tuple[type[SQLModel], ...] = (
    SchemaVersion,
    Document,
    GoldSet,
    Query,
    Element,
    NotRelevant,
    Assignment,
    QuestionDone,
    Run,
    RunResult,
    RunPlacement,
    AuditEntry,
    Annotator,
)


def store_tables() -> list[Table]:
    """The :class:`~sqlalchemy.Table` of every model in :data:`STORE_MODELS`."""
    tables: list[Table] = []
    for model in STORE_MODELS:
        # table=True sets __table__, which SQLModel's type does not declare
        table = model.__table__  # type: ignore[attr-defined]
        assert isinstance(table, Table)
        tables.append(table)
    return tables


@dataclass(frozen=True)
class SchemaStatement:
    """One named statement of the schema the models cannot express, for one dialect."""

    name: str
    dialect: str
    sql: str


# The span invariant in SQLite. substr() and length() count characters (= Python code
# points), so substr(text, start + 1, end - start) is text[start:end] when the page holds
# end characters; it is shorter otherwise, so its equality with a text of end - start
# characters also says end <= length, without counting the page. SQLite's text functions
# stop at a NUL character, so a span whose page holds U+0000 within its first end
# characters is checked by the Python layer only: instr finds the NUL byte in the BLOB form
# of the first 4 * end bytes (which hold those characters), and only for a row the span
# test refused, so that an accepted row never has its page searched. (Version 1's triggers
# searched the whole page for a NUL, and counted it, on every insert: a third of a 32,000
# question gold import's time.) A missing document is left to the foreign key.
_SQLITE_SPAN_OK = """(NEW.start >= 0 AND NEW."end" > NEW.start
         AND length(NEW.text) = NEW."end" - NEW.start
         AND substr(d.text, NEW.start + 1, NEW."end" - NEW.start) = NEW.text)"""

_SQLITE_ELEMENT_TRIGGER = """CREATE TRIGGER {name} BEFORE {event} ON element
WHEN NEW.status = 'ok'
BEGIN
    SELECT RAISE(ABORT, 'element text must equal page text[start:end], 0 <= start < end <= length')
    FROM document AS d
    WHERE d.id = NEW.document_id
      AND NOT {span_ok}
      AND instr(substr(CAST(d.text AS BLOB), 1, 4 * NEW."end"), x'00') = 0;
END"""

# The same invariant in PL/pgSQL. PostgreSQL's substr() and char_length() count characters
# (code points in a UTF-8 database). The bounds are tested before substr() runs (it rejects
# a negative length); as in SQLite, the label's length stands for the page's, which is not
# counted. PostgreSQL text cannot hold NUL, so there is no NUL exception. Errors
# are SQLSTATE 23000, an IntegrityError for the driver. The triggers carry SQLite's names
# and accept and reject the same rows.
#: the statements creating the span triggers (and PostgreSQL's trigger functions), per
#: dialect in execution order; run after the ``element`` table is created
TRIGGERS: tuple[SchemaStatement, ...] = (
    SchemaStatement(
        "element_span_insert",
        "sqlite",
        _SQLITE_ELEMENT_TRIGGER.format(
            name="element_span_insert", event="INSERT", span_ok=_SQLITE_SPAN_OK
        ),
    ),
    SchemaStatement(
        "element_span_update",
        "sqlite",
        _SQLITE_ELEMENT_TRIGGER.format(
            name="element_span_update", event="UPDATE", span_ok=_SQLITE_SPAN_OK
        ),
    ),
    SchemaStatement(
        "document_text_update",
        "sqlite",
        """CREATE TRIGGER document_text_update AFTER UPDATE OF text ON document
WHEN instr(CAST(NEW.text AS BLOB), x'00') = 0
BEGIN
    SELECT RAISE(ABORT, 'new page text breaks elements labelled on it; mark them stale first')
    WHERE EXISTS (
        SELECT 1 FROM element AS e
        WHERE e.document_id = NEW.id AND e.status = 'ok'
          AND NOT (substr(NEW.text, e."end", 1) <> ''
                   AND substr(NEW.text, e.start + 1, e."end" - e.start) = e.text)
    );
END""",
    ),
    SchemaStatement(
        "element_span_check",
        "postgresql",
        """CREATE FUNCTION element_span_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    page TEXT;
BEGIN
    SELECT d.text INTO page FROM document AS d WHERE d.id = NEW.document_id;
    IF NOT FOUND THEN
        RETURN NEW;
    END IF;
    IF NEW.start >= 0 AND NEW."end" > NEW.start
            AND char_length(NEW.text) = NEW."end" - NEW.start THEN
        IF substr(page, NEW.start + 1, NEW."end" - NEW.start) = NEW.text THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'element text must equal page text[start:end], 0 <= start < end <= length'
        USING ERRCODE = 'integrity_constraint_violation';
END
$$""",
    ),
    SchemaStatement(
        "element_span_insert",
        "postgresql",
        """CREATE TRIGGER element_span_insert BEFORE INSERT ON element
FOR EACH ROW WHEN (NEW.status = 'ok') EXECUTE FUNCTION element_span_check()""",
    ),
    SchemaStatement(
        "element_span_update",
        "postgresql",
        """CREATE TRIGGER element_span_update BEFORE UPDATE ON element
FOR EACH ROW WHEN (NEW.status = 'ok') EXECUTE FUNCTION element_span_check()""",
    ),
    SchemaStatement(
        "document_text_check",
        "postgresql",
        """CREATE FUNCTION document_text_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM element AS e
        WHERE e.document_id = NEW.id AND e.status = 'ok'
          AND NOT (CASE WHEN e.start >= 0 AND e."end" > e.start
                             AND e."end" <= char_length(NEW.text)
                        THEN substr(NEW.text, e.start + 1, e."end" - e.start) = e.text
                        ELSE false END)
    ) THEN
        RAISE EXCEPTION 'new page text breaks elements labelled on it; mark them stale first'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END
$$""",
    ),
    SchemaStatement(
        "document_text_update",
        "postgresql",
        """CREATE TRIGGER document_text_update AFTER UPDATE OF text ON document
FOR EACH ROW EXECUTE FUNCTION document_text_check()""",
    ),
)


def triggers(dialect: str) -> tuple[str, ...]:
    """The statements of :data:`TRIGGERS` for ``dialect``, in order (none for another)."""
    return tuple(t.sql for t in TRIGGERS if t.dialect == dialect)


# The document trigger reads element too, so every trigger is created once element exists.
for _statement in TRIGGERS:
    event.listen(
        Element.__table__,  # type: ignore[attr-defined]
        "after_create",
        DDL(_statement.sql).execute_if(dialect=_statement.dialect),  # type: ignore[no-untyped-call]
    )


#: the text search configuration of PostgreSQL's page index: no stemming and no stop words,
#: so a word matches as it is written (case-folded), as SQLite's ``unicode61`` tokenizer does
PG_SEARCH_CONFIG = "simple"

#: what PostgreSQL indexes and searches: the id's words weighted A, then the text's; in
#: both the characters of PG_SEARCH_SEPARATORS are made spaces first, since PostgreSQL's
#: parser would read ``pragma.html``, ``3.40.1`` or ``www.sqlite.org`` as one word each
#: where SQLite's tokenizer (and a reader) sees two or three
#: the PostgreSQL-only generated column of ``document`` holding :data:`PG_SEARCH_VECTOR`
PG_SEARCH_COLUMN = "search"
PG_SEARCH_SEPARATORS = "/._-:@#=+"
PG_SEARCH_VECTOR = (
    f"setweight(to_tsvector('{PG_SEARCH_CONFIG}', translate(id, '{PG_SEARCH_SEPARATORS}', "
    f"'{' ' * len(PG_SEARCH_SEPARATORS)}')), 'A') || "
    f"to_tsvector('{PG_SEARCH_CONFIG}', translate(text, '{PG_SEARCH_SEPARATORS}', "
    f"'{' ' * len(PG_SEARCH_SEPARATORS)}'))"
)

# The full-text index of page text and ids (schema version 11), kept in step with ``document`` by
# the database itself, so every write of a page (ingest's upsert_document, a re-ingest, a
# restore) updates it inside the same transaction. SQLite: an FTS5 table whose content is
# ``document`` (external content: the text is stored once; the id is indexed too, so a
# page named for a word of the query ranks higher), keyed by document's rowid and
# maintained by three triggers. A text-keyed table's rowids stay put through VACUUM in
# the SQLite this project runs on (tested); `INSERT INTO document_fts(document_fts)
# VALUES('rebuild')` rebuilds the index from the pages should they ever drift.
# PostgreSQL: a generated column (PG_SEARCH_COLUMN, stored: ranking reads it instead of
# parsing every matched page again; the server computes it on every write of the row, and
# ORM statements never name it) with a GIN index. It is the one column no model declares:
# SQLite has no tsvector. A tsvector keeps word positions up to 16383 only, so a phrase
# further down a long page is confirmed on the text itself (labeler.store.browse).
#: the statements of the page search index, per dialect in execution order; run after the
#: ``document`` table is created
SEARCH_INDEX: tuple[SchemaStatement, ...] = (
    SchemaStatement(
        "document_fts",
        "sqlite",
        "CREATE VIRTUAL TABLE document_fts USING fts5("
        "id, text, content='document', content_rowid='rowid', tokenize='unicode61')",
    ),
    SchemaStatement(
        "document_fts_insert",
        "sqlite",
        """CREATE TRIGGER document_fts_insert AFTER INSERT ON document
BEGIN
    INSERT INTO document_fts(rowid, id, text) VALUES (NEW.rowid, NEW.id, NEW.text);
END""",
    ),
    SchemaStatement(
        "document_fts_delete",
        "sqlite",
        """CREATE TRIGGER document_fts_delete AFTER DELETE ON document
BEGIN
    INSERT INTO document_fts(document_fts, rowid, id, text)
    VALUES ('delete', OLD.rowid, OLD.id, OLD.text);
END""",
    ),
    SchemaStatement(
        "document_fts_update",
        "sqlite",
        """CREATE TRIGGER document_fts_update AFTER UPDATE OF id, text ON document
BEGIN
    INSERT INTO document_fts(document_fts, rowid, id, text)
    VALUES ('delete', OLD.rowid, OLD.id, OLD.text);
    INSERT INTO document_fts(rowid, id, text) VALUES (NEW.rowid, NEW.id, NEW.text);
END""",
    ),
    SchemaStatement(
        "search",
        "postgresql",
        f"ALTER TABLE document ADD COLUMN {PG_SEARCH_COLUMN} tsvector "
        f"GENERATED ALWAYS AS ({PG_SEARCH_VECTOR}) STORED",
    ),
    SchemaStatement(
        "ix_document_search",
        "postgresql",
        f"CREATE INDEX ix_document_search ON document USING gin ({PG_SEARCH_COLUMN})",
    ),
)

#: FTS5's own tables behind ``document_fts`` (SQLite creates them with the virtual table)
SQLITE_FTS_SHADOW_TABLES = (
    "document_fts_config",
    "document_fts_data",
    "document_fts_docsize",
    "document_fts_idx",
)


def search_index(dialect: str) -> tuple[str, ...]:
    """The statements of :data:`SEARCH_INDEX` for ``dialect``, in order (none for another)."""
    return tuple(t.sql for t in SEARCH_INDEX if t.dialect == dialect)


for _statement in SEARCH_INDEX:
    event.listen(
        Document.__table__,  # type: ignore[attr-defined]
        "after_create",
        DDL(_statement.sql).execute_if(dialect=_statement.dialect),  # type: ignore[no-untyped-call]
    )


def create_schema(conn: Connection) -> None:
    """Create every table, index, constraint and trigger of the current schema on ``conn``
    (an empty database, inside the caller's transaction), from the models' metadata."""
    SQLModel.metadata.create_all(conn, tables=store_tables(), checkfirst=False)
