"""The audit trail of label changes: who changed what, when, with before/after snapshots.

Every write function that adds, changes or removes an element or a query records one
:class:`~labeler.store.models.AuditEntry` in the same transaction. ``before`` and ``after``
are complete JSON snapshots of the row (``None`` for the side that does not exist), which is
what undo (write ``before`` back) and redo (write ``after`` back) need.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, SQLModel, col, select

from labeler.store.models import AUDIT_ACTIONS, AuditEntry


def snapshot(row: SQLModel) -> dict[str, Any]:
    """All columns of ``row`` as JSON-ready values (timestamps as ISO 8601 strings)."""
    return row.model_dump(mode="json")


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
    """Add one audit entry to ``session`` (flushed with the change it describes).

    Raises ``ValueError`` for an action other than add/change/remove.
    """
    if action not in AUDIT_ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    entry = AuditEntry(
        actor=actor,
        action=action,
        entity=entity,
        entity_id=entity_id,
        before=before,
        after=after,
    )
    session.add(entry)
    return entry


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
