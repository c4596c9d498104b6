"""The gold-set store: SQLModel tables in SQLite, reached only through these functions.

Open with :func:`open_store` (path or URL, resolved by :func:`resolve_db`), read inside
``store.session()``, write inside ``store.write()``. No module here imports textual.
"""

from __future__ import annotations

from labeler.store.audit import list_audit, record_change, snapshot
from labeler.store.documents import (
    DocumentSummary,
    Fingerprint,
    StaleElement,
    UpsertResult,
    document_fingerprint,
    find_document,
    get_document,
    list_documents,
    upsert_document,
)
from labeler.store.engine import DB_ENV, DEFAULT_DB, resolve_db
from labeler.store.labels import (
    add_element,
    add_query,
    create_gold_set,
    get_gold_set,
    get_query,
    list_elements,
    remove_element,
)
from labeler.store.migrations import MIGRATIONS, SCHEMA_VERSION, Migration
from labeler.store.models import (
    ELEMENT_OK,
    ELEMENT_STALE,
    AuditEntry,
    Document,
    Element,
    GoldSet,
    Query,
    Run,
    RunResult,
)
from labeler.store.session import Store, open_store
from labeler.store.validation import span_problem

__all__ = [
    "DB_ENV",
    "DEFAULT_DB",
    "ELEMENT_OK",
    "ELEMENT_STALE",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AuditEntry",
    "Document",
    "DocumentSummary",
    "Element",
    "Fingerprint",
    "GoldSet",
    "Migration",
    "Query",
    "Run",
    "RunResult",
    "StaleElement",
    "Store",
    "UpsertResult",
    "add_element",
    "add_query",
    "create_gold_set",
    "document_fingerprint",
    "find_document",
    "get_document",
    "get_gold_set",
    "get_query",
    "list_audit",
    "list_documents",
    "list_elements",
    "open_store",
    "record_change",
    "remove_element",
    "resolve_db",
    "snapshot",
    "span_problem",
    "upsert_document",
]
