"""Annotators of ``labeler serve`` and the secret tokens of their personal links.

A token is :data:`TOKEN_BYTES` random bytes (256 bits) from :mod:`secrets`, written
URL-safe base64 (43 characters). It is returned once, by :func:`add_annotator` or
:func:`rotate_token`, and only its SHA-256 (hex) is stored: with 256 random bits a fast hash
is enough, nobody can search that space. :func:`annotator_for_token` looks a token up by its
hash; a revoked annotator's token, or an old one after a rotation, finds nobody.

Names are what the annotator's elements and audit entries carry (the TUI's ``--annotator``):
1 to :data:`MAX_NAME` characters, no control characters, no leading or trailing spaces.

Each annotator has a role (:data:`~labeler.store.models.ROLES`, :mod:`labeler.store.roles`
says what each may do). Registering someone and changing a role need the lead role (or the
owner: a name not registered); both are audited as entity ``annotator`` with a snapshot of
the name and role only (never the token's hash). Undo does not reverse them: a role is set
back with ``labeler annotators role``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from labeler.errors import StoreError, UsageError, not_found
from labeler.store.audit import record_change
from labeler.store.models import ROLES, Annotator, utcnow
from labeler.store.roles import forget_roles, require_lead

#: random bytes in a token (256 bits; the issue asks for at least 128)
TOKEN_BYTES = 32
#: longest annotator name accepted
MAX_NAME = 100


@dataclass(frozen=True)
class AnnotatorRow:
    """One annotator as listed: never the token, which is not stored."""

    name: str
    created_at: datetime
    revoked_at: datetime | None
    #: ``annotator`` or ``lead`` (as stored: a revoked lead acts as an annotator)
    role: str

    @property
    def active(self) -> bool:
        """True while the annotator's link works."""
        return self.revoked_at is None


def token_hash(token: str) -> str:
    """The stored form of ``token``: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh random token, URL-safe (``A-Z a-z 0-9 - _``), :data:`TOKEN_BYTES` bytes."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def check_name(name: str) -> str:
    """``name`` when it is a valid annotator name, else :class:`InputError` saying why."""
    if not name or name != name.strip():
        raise UsageError(f"annotator name {name!r}: empty, or leading/trailing spaces")
    if len(name) > MAX_NAME:
        raise UsageError(f"annotator name {name[:20]!r}...: longer than {MAX_NAME} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise UsageError(f"annotator name {name!r}: control characters are not allowed")
    return name


def _find(s: Session, name: str) -> Annotator:
    row = s.exec(select(Annotator).where(Annotator.name == name)).first()
    if row is None:
        names = s.exec(select(Annotator.name).order_by(col(Annotator.name))).all()
        raise not_found("annotator", name, names)
    return row


def check_role(role: str) -> str:
    """``role`` when it is one of :data:`~labeler.store.models.ROLES`, else
    :class:`~labeler.errors.UsageError` naming them."""
    if role not in ROLES:
        raise UsageError(f"role {role!r}: expected one of {', '.join(ROLES)}")
    return role


def _role_snapshot(row: Annotator) -> dict[str, object]:
    # name and role only: the token's hash stays out of the audit log
    return {"id": row.id, "name": row.name, "role": row.role}


def add_annotator(s: Session, name: str, role: str = ROLES[0], *, actor: str) -> str:
    """Create annotator ``name`` with ``role``; returns their token (the only time it is
    seen). ``actor`` needs the lead role (:func:`labeler.store.roles.require_lead`); audited.

    An existing name (revoked or not) is refused: ``rotate`` gives a new link instead.
    """
    check_name(name)
    check_role(role)
    require_lead(s, actor, "registering an annotator")
    if s.exec(select(Annotator.id).where(Annotator.name == name)).first() is not None:
        raise StoreError(
            f"annotator {name!r} exists already (`labeler annotators rotate {name}` "
            "prints a new link)"
        )
    token = new_token()
    row = Annotator(name=name, token_hash=token_hash(token), role=role)
    s.add(row)
    s.flush()
    assert row.id is not None
    record_change(
        s,
        actor=actor,
        action="add",
        entity="annotator",
        entity_id=row.id,
        before=None,
        after=_role_snapshot(row),
    )
    forget_roles(s)
    s.flush()
    return token


def set_role(s: Session, name: str, role: str, *, actor: str) -> bool:
    """Give annotator ``name`` the role ``role``; False when they had it already (nothing
    written). ``actor`` needs the lead role; the change is audited."""
    check_role(role)
    row = _find(s, name)
    require_lead(s, actor, "changing an annotator's role")
    if row.role == role:
        return False
    before = _role_snapshot(row)
    row.role = role
    s.add(row)
    s.flush()
    assert row.id is not None
    record_change(
        s,
        actor=actor,
        action="change",
        entity="annotator",
        entity_id=row.id,
        before=before,
        after=_role_snapshot(row),
    )
    forget_roles(s)
    s.flush()
    return True


def rotate_token(s: Session, name: str) -> str:
    """Give ``name`` a new token (returned); the old one stops working. A revoked
    annotator is active again with the new token."""
    row = _find(s, name)
    token = new_token()
    row.token_hash = token_hash(token)
    row.revoked_at = None
    s.add(row)
    s.flush()
    return token


def revoke(s: Session, name: str) -> bool:
    """Revoke ``name``'s link; False when it was revoked already (nothing changes)."""
    row = _find(s, name)
    if row.revoked_at is not None:
        return False
    row.revoked_at = utcnow()
    s.add(row)
    s.flush()
    return True


def list_annotators(s: Session) -> list[AnnotatorRow]:
    """Every annotator, by name."""
    rows = s.exec(select(Annotator).order_by(col(Annotator.name))).all()
    return [AnnotatorRow(r.name, r.created_at, r.revoked_at, r.role) for r in rows]


def annotator_for_token(s: Session, token: str) -> str | None:
    """The name of the active annotator whose token is ``token``, else None."""
    if not token:
        return None
    found = s.exec(
        select(Annotator.name).where(
            Annotator.token_hash == token_hash(token), col(Annotator.revoked_at).is_(None)
        )
    ).first()
    return found


def active_hashes(s: Session) -> dict[str, str]:
    """``token_hash -> name`` of every active annotator (one query, for the server's
    periodic check of its open sessions)."""
    rows = s.exec(
        select(Annotator.token_hash, Annotator.name).where(col(Annotator.revoked_at).is_(None))
    ).all()
    return {h: n for h, n in rows}
