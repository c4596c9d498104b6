"""The audit trail of label changes: who changed what, when, with before/after snapshots.

Every write function that adds, changes or removes an element or a query records one
:class:`~labeler.store.models.AuditEntry` in the same transaction. ``before`` and ``after``
are complete JSON snapshots of the row (``None`` for the side that does not exist), which is
what undo (write ``before`` back) and redo (write ``after`` back) need.

Each entry's snapshots also say which front end wrote it (:mod:`labeler.store.origin`):
:func:`last_place` reads that, so the TUI resumes from the TUI's own changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Integer, func, or_
from sqlalchemy import select as sa_select
from sqlmodel import Session, SQLModel, col, select

from labeler.errors import NotFoundError, RemovedError
from labeler.store.models import AUDIT_ACTIONS, AuditEntry, Document, GoldSet, Query
from labeler.store.origin import ORIGIN_KEY, ORIGIN_TUI, SESSION_ORIGIN
from labeler.store.roles import role_of


def snapshot(row: SQLModel) -> dict[str, Any]:
    """All columns of ``row`` as JSON-ready values (timestamps as ISO 8601 strings)."""
    return row.model_dump(mode="json")


def mark_origin(session: Session, data: dict[str, Any] | None) -> dict[str, Any] | None:
    """``data`` (an audit snapshot) marked with the front end of ``session``'s store
    (:data:`ORIGIN_KEY`), a copy: the caller's dict may be compared again (undo). A mark
    ``data`` carried already (a snapshot copied from an older entry) is replaced, or removed
    when the store has no origin. None stays None."""
    if data is None:
        return None
    origin = session.info.get(SESSION_ORIGIN)
    rest = {k: v for k, v in data.items() if k != ORIGIN_KEY} if ORIGIN_KEY in data else data
    return {**rest, ORIGIN_KEY: origin} if isinstance(origin, str) else dict(rest)


def record_change(
    session: Session,
    *,
    actor: str,
    action: str,
    entity: str,
    entity_id: int,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> AuditEntry:
    """Add one audit entry to ``session`` (flushed with the change it describes), with the
    actor's role at that moment (:func:`labeler.store.roles.role_of`: ``owner`` for a name
    that is not a registered annotator).

    The snapshots get the session's front end (:data:`ORIGIN_KEY`) when its store has one.
    Raises ``ValueError`` for an action other than add/change/remove.
    """
    if action not in AUDIT_ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    before, after = mark_origin(session, before), mark_origin(session, after)
    entry = AuditEntry(
        actor=actor,
        actor_role=role_of(session, actor),
        action=action,
        entity=entity,
        entity_id=entity_id,
        before=before,
        after=after,
    )
    session.add(entry)
    return entry


def add_audited(session: Session, row: SQLModel, *, actor: str, entity: str) -> int:
    """Insert ``row`` (a table with an integer ``id``) and audit it as an ``add`` of
    ``entity`` with its snapshot as ``after``; both flushed. Returns the new id."""
    session.add(row)
    session.flush()
    row_id = getattr(row, "id", None)
    assert isinstance(row_id, int), f"{entity} row has no id after flush"
    record_change(
        session,
        actor=actor,
        action="add",
        entity=entity,
        entity_id=row_id,
        before=None,
        after=snapshot(row),
    )
    session.flush()
    return row_id


def remove_audited(session: Session, row: SQLModel, *, actor: str, entity: str) -> None:
    """Delete ``row`` (a stored table row with an integer ``id``) and audit it as a
    ``remove`` of ``entity`` with its snapshot as ``before``; flushed."""
    row_id = getattr(row, "id", None)
    assert isinstance(row_id, int), f"{entity} row has no id"
    before = snapshot(row)
    session.delete(row)
    record_change(
        session,
        actor=actor,
        action="remove",
        entity=entity,
        entity_id=row_id,
        before=before,
        after=None,
    )
    session.flush()


def list_audit(
    session: Session,
    *,
    entity: str | None = None,
    entity_id: int | None = None,
    limit: int | None = None,
) -> list[AuditEntry]:
    """Audit entries, newest first, optionally for one entity (table) or one row of it."""
    stmt = select(AuditEntry)
    if entity is not None:
        stmt = stmt.where(AuditEntry.entity == entity)
    if entity_id is not None:
        stmt = stmt.where(AuditEntry.entity_id == entity_id)
    stmt = stmt.order_by(col(AuditEntry.id).desc())
    if limit is not None:
        stmt = stmt.limit(limit)
    return list(session.exec(stmt).all())


def _snapshot_int(key: str) -> ColumnElement[int]:
    """Integer ``key`` of an entry's ``after`` snapshot, else of its ``before`` one (a
    removal has no ``after``)."""
    return func.coalesce(
        col(AuditEntry.after)[key].as_integer(), col(AuditEntry.before)[key].as_integer()
    ).cast(Integer)


def gold_set_last_changes(session: Session) -> dict[int, datetime]:
    """Gold set id → when it last changed, for every gold set: the newest audit entry about
    one of its questions or elements (added, edited, removed, undone, marked stale), read
    from the entries' snapshots so that removed rows still count; a set no entry is about
    (created empty): its creation time."""
    latest: dict[int, datetime] = {
        gs_id: created
        for gs_id, created in session.execute(sa_select(col(GoldSet.id), col(GoldSet.created_at)))
    }
    query_set = _snapshot_int("gold_set_id")
    by_query = sa_select(query_set, func.max(col(AuditEntry.at))).where(
        col(AuditEntry.entity) == "query"
    )
    # an element's set is its question's; a question removed with its elements has a
    # removal entry of its own, at least as recent as theirs
    by_element = (
        sa_select(col(Query.gold_set_id), func.max(col(AuditEntry.at)))
        .join(Query, col(Query.id) == _snapshot_int("query_id"))
        .where(col(AuditEntry.entity) == "element")
        .group_by(col(Query.gold_set_id))
    )
    for gs_id, at in [*session.execute(by_query.group_by(query_set)), *session.execute(by_element)]:
        if gs_id in latest and at is not None:
            latest[gs_id] = max(latest[gs_id], at)
    return latest


@dataclass(frozen=True)
class LastPlace:
    """Where an annotator last changed something: gold set, question and (for an element)
    the page and the element's start offset."""

    gold_set_id: int
    query_id: int
    document_id: str | None
    position: int | None


def last_place(
    session: Session, actor: str, *, origin: str = ORIGIN_TUI, scan: int = 200
) -> LastPlace | None:
    """The gold set, question and page of ``actor``'s latest change that still exist, made
    through front end ``origin`` (the TUI by default).

    Read from the audit log (newest first, at most ``scan`` entries of ``actor`` from that
    front end): an element change gives its question, page and start; a question change its
    question. Entries another front end wrote under the same name (``labeler gold import
    --annotator``, ``adjudicate --auto --actor``, a script through :func:`labeler.open`) are
    passed over, so they never move the TUI's resume point; entries with no origin (written
    before front ends were told apart, or by a store opened without one) count. Entries
    whose question (or page) has since been deleted are skipped. None when the actor has
    changed nothing that still exists.
    """
    written_by = func.coalesce(
        col(AuditEntry.after)[ORIGIN_KEY].as_string(),
        col(AuditEntry.before)[ORIGIN_KEY].as_string(),
    )
    stmt = (
        select(AuditEntry)
        .where(AuditEntry.actor == actor)
        .where(col(AuditEntry.entity).in_(("element", "query")))
        .where(or_(written_by.is_(None), written_by == origin))
        .order_by(col(AuditEntry.id).desc())
        .limit(scan)
    )
    for entry in session.exec(stmt):
        data = entry.after or entry.before or {}
        query_id = data.get("query_id") if entry.entity == "element" else entry.entity_id
        if not isinstance(query_id, int):
            continue
        query = session.get(Query, query_id)
        if query is None:
            continue
        assert query.id is not None
        document_id, position = None, None
        if entry.entity == "element":
            doc = data.get("document_id")
            if isinstance(doc, str) and session.get(Document, doc) is not None:
                document_id = doc
                start = data.get("start")
                position = start if isinstance(start, int) else None
        return LastPlace(query.gold_set_id, query.id, document_id, position)
    return None


def missing_element(session: Session, element_id: int) -> NotFoundError:
    """The error for element ``element_id`` that is not stored (any more): when the audit
    log holds its removal, :class:`~labeler.errors.RemovedError` naming the element (its
    question, page and offsets) and who removed it (``element 12 (q1, policy.html 7–55) was
    removed by bob``), so an action on a screen that still showed it says what changed and
    who changed it; otherwise ``no element with id 12 in the database``. One index probe
    (``ix_audit_entity``)."""
    entry = session.exec(
        select(AuditEntry)
        .where(AuditEntry.entity == "element", AuditEntry.entity_id == element_id)
        .order_by(col(AuditEntry.id).desc())
        .limit(1)
    ).first()
    if entry is None or entry.action != "remove" or not entry.before:
        return NotFoundError(f"no element with id {element_id} in the database")
    was = entry.before
    query = session.get(Query, was.get("query_id"))
    question = f"{query.external_id}, " if query is not None else ""
    place = f"{was.get('document_id')} {was.get('start')}–{was.get('end')}"
    return RemovedError(
        f"element {element_id} ({question}{place}) was removed by {entry.actor}",
        removed_by=entry.actor,
    )
