"""The gold-set store: SQLModel tables in SQLite, reached only through these functions.

Open with :func:`open_store` (path or URL, resolved by :func:`resolve_db`), read inside
``store.session()``, write inside ``store.write()``. No module here imports textual.

The names below load their module on first use (PEP 562), so importing one light module
of the package (e.g. :mod:`labeler.store.fastread` for scoring) does not pull in SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.store.annotate import (
        ElementRow,
        GoldSetProgress,
        QuestionRow,
        attach_element,
        delete_query,
        gold_set_progress,
        list_questions,
        page_elements,
        question_elements,
        set_grade,
        set_key,
        span_overlaps,
        update_query,
    )
    from labeler.store.audit import (
        LastPlace,
        last_place,
        list_audit,
        record_change,
        snapshot,
    )
    from labeler.store.browse import (
        DocumentHit,
        GoldElementRow,
        RunChunk,
        RunSummary,
        count_documents,
        gold_set_elements,
        gold_set_names,
        list_runs,
        page_text,
        pages_of,
        run_chunks,
        search_documents,
    )
    from labeler.store.documents import (
        DocumentSummary,
        Fingerprint,
        UpsertResult,
        document_fingerprint,
        find_document,
        get_document,
        list_documents,
        upsert_document,
    )
    from labeler.store.history import (
        Reversal,
        UndoConflict,
        can_redo,
        can_undo,
        redo,
        undo,
    )
    from labeler.store.labels import (
        add_element,
        add_query,
        check_not_duplicate,
        create_gold_set,
        get_gold_set,
        get_query,
        list_elements,
        remove_element,
    )
    from labeler.store.location import (
        DB_ENV,
        DEFAULT_DB,
        resolve_db,
    )
    from labeler.store.migrations import (
        MIGRATIONS,
        SCHEMA_VERSION,
        Migration,
    )
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
    from labeler.store.pageblocks import page_and_blocks
    from labeler.store.recheck import StaleElement
    from labeler.store.session import (
        Store,
        open_store,
    )
    from labeler.store.settled import SettledError, check_not_settled
    from labeler.store.validation import (
        span_problem,
    )

_HOMES: dict[str, str] = {
    "AuditEntry": "labeler.store.models",
    "DB_ENV": "labeler.store.location",
    "DEFAULT_DB": "labeler.store.location",
    "Document": "labeler.store.models",
    "DocumentHit": "labeler.store.browse",
    "DocumentSummary": "labeler.store.documents",
    "ELEMENT_OK": "labeler.store.models",
    "ELEMENT_STALE": "labeler.store.models",
    "Element": "labeler.store.models",
    "ElementRow": "labeler.store.annotate",
    "Fingerprint": "labeler.store.documents",
    "GoldElementRow": "labeler.store.browse",
    "GoldSet": "labeler.store.models",
    "GoldSetProgress": "labeler.store.annotate",
    "MIGRATIONS": "labeler.store.migrations",
    "Migration": "labeler.store.migrations",
    "Query": "labeler.store.models",
    "QuestionRow": "labeler.store.annotate",
    "Reversal": "labeler.store.history",
    "Run": "labeler.store.models",
    "SettledError": "labeler.store.settled",
    "check_not_settled": "labeler.store.settled",
    "RunChunk": "labeler.store.browse",
    "RunResult": "labeler.store.models",
    "RunSummary": "labeler.store.browse",
    "SCHEMA_VERSION": "labeler.store.migrations",
    "StaleElement": "labeler.store.recheck",
    "Store": "labeler.store.session",
    "UndoConflict": "labeler.store.history",
    "UpsertResult": "labeler.store.documents",
    "add_element": "labeler.store.labels",
    "add_query": "labeler.store.labels",
    "check_not_duplicate": "labeler.store.labels",
    "span_overlaps": "labeler.store.annotate",
    "attach_element": "labeler.store.annotate",
    "can_redo": "labeler.store.history",
    "can_undo": "labeler.store.history",
    "count_documents": "labeler.store.browse",
    "create_gold_set": "labeler.store.labels",
    "delete_query": "labeler.store.annotate",
    "document_fingerprint": "labeler.store.documents",
    "find_document": "labeler.store.documents",
    "get_document": "labeler.store.documents",
    "get_gold_set": "labeler.store.labels",
    "get_query": "labeler.store.labels",
    "gold_set_elements": "labeler.store.browse",
    "gold_set_names": "labeler.store.browse",
    "gold_set_progress": "labeler.store.annotate",
    "last_place": "labeler.store.audit",
    "LastPlace": "labeler.store.audit",
    "list_audit": "labeler.store.audit",
    "list_documents": "labeler.store.documents",
    "list_elements": "labeler.store.labels",
    "list_questions": "labeler.store.annotate",
    "list_runs": "labeler.store.browse",
    "open_store": "labeler.store.session",
    "page_and_blocks": "labeler.store.pageblocks",
    "page_elements": "labeler.store.annotate",
    "page_text": "labeler.store.browse",
    "pages_of": "labeler.store.browse",
    "question_elements": "labeler.store.annotate",
    "record_change": "labeler.store.audit",
    "redo": "labeler.store.history",
    "remove_element": "labeler.store.labels",
    "resolve_db": "labeler.store.location",
    "run_chunks": "labeler.store.browse",
    "search_documents": "labeler.store.browse",
    "set_grade": "labeler.store.annotate",
    "set_key": "labeler.store.annotate",
    "snapshot": "labeler.store.audit",
    "span_problem": "labeler.store.validation",
    "undo": "labeler.store.history",
    "update_query": "labeler.store.annotate",
    "upsert_document": "labeler.store.documents",
}

__all__ = [
    "DB_ENV",
    "DEFAULT_DB",
    "ELEMENT_OK",
    "ELEMENT_STALE",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AuditEntry",
    "Document",
    "DocumentHit",
    "DocumentSummary",
    "Element",
    "ElementRow",
    "Fingerprint",
    "GoldElementRow",
    "GoldSet",
    "GoldSetProgress",
    "LastPlace",
    "Migration",
    "Query",
    "QuestionRow",
    "Reversal",
    "Run",
    "RunChunk",
    "RunResult",
    "RunSummary",
    "SettledError",
    "StaleElement",
    "Store",
    "UndoConflict",
    "UpsertResult",
    "add_element",
    "add_query",
    "attach_element",
    "can_redo",
    "can_undo",
    "check_not_duplicate",
    "check_not_settled",
    "count_documents",
    "create_gold_set",
    "delete_query",
    "document_fingerprint",
    "find_document",
    "get_document",
    "get_gold_set",
    "get_query",
    "gold_set_elements",
    "gold_set_names",
    "gold_set_progress",
    "last_place",
    "list_audit",
    "list_documents",
    "list_elements",
    "list_questions",
    "list_runs",
    "open_store",
    "page_and_blocks",
    "page_elements",
    "page_text",
    "pages_of",
    "question_elements",
    "record_change",
    "redo",
    "remove_element",
    "resolve_db",
    "run_chunks",
    "search_documents",
    "set_grade",
    "set_key",
    "snapshot",
    "span_overlaps",
    "span_problem",
    "undo",
    "update_query",
    "upsert_document",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
