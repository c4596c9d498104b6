"""Roles: what the person acting may do, decided in the core for every front end.

Who acts is a name (the audit log's actor): ``labeler serve``'s link, the TUI's
``--annotator``, a command's ``--actor``, by default the login name. Its role:

* a registered annotator (``labeler annotators add``) has the role stored with them:
  ``annotator`` (labels in their own layer, marks their own questions done, undoes their own
  changes) or ``lead`` (also assigns questions, adjudicates, deletes questions, imports and
  marks done for others);
* a registered annotator whose link is revoked is an ``annotator`` whatever their stored
  role: revoking someone never gives them more powers, and a revoked lead is not a lead;
* any other name is the ``owner``, who may do everything: whoever holds the SQLite file or
  the database URL can edit the data anyway, so for them roles are a guard rail, not a
  boundary. In ``labeler serve`` every session's name comes from its annotator's secret
  link, so there the roles are a security boundary.

:func:`require_lead` is the one check every lead-only verb calls, inside its write
transaction, before writing anything; its refusal is :class:`~labeler.errors.RoleError`.
:func:`role_of` is also what :func:`labeler.store.audit.record_change` records as the actor's
role. Roles are read once per session and actor (cached in ``session.info``); a role change
in the same session clears the cache.
"""

from __future__ import annotations

from sqlmodel import Session, select

from labeler.errors import RoleError
from labeler.store.models import ROLE_ANNOTATOR, ROLE_LEAD, ROLE_OWNER, Annotator

_CACHE = "labeler_roles"


def role_of(session: Session, actor: str) -> str:
    """``actor``'s role: ``annotator`` or ``lead`` for a registered annotator (``annotator``
    while their link is revoked), ``owner`` for a name that is not registered."""
    cache: dict[str, str] = session.info.setdefault(_CACHE, {})
    role = cache.get(actor)
    if role is None:
        # no autoflush: the audit log asks in the middle of a change it has not flushed yet
        with session.no_autoflush:
            found = session.exec(
                select(Annotator.role, Annotator.revoked_at).where(Annotator.name == actor)
            ).first()
        if found is None:
            role = ROLE_OWNER
        else:
            stored, revoked_at = found
            role = ROLE_ANNOTATOR if revoked_at is not None else stored
        cache[actor] = role
    return role


def forget_roles(session: Session) -> None:
    """Drop the roles :func:`role_of` read in ``session`` (after a role changed in it)."""
    session.info.pop(_CACHE, None)


def may_lead(session: Session, actor: str) -> bool:
    """Whether ``actor`` may do what needs the lead role (a lead or the owner)."""
    return role_of(session, actor) != ROLE_ANNOTATOR


def role_refusal(actor: str, doing: str) -> RoleError:
    """The refusal of ``doing`` (a phrase: ``settling a question``) by annotator ``actor``,
    naming the role needed and the command that gives it."""
    return RoleError(
        f"{doing} refused: {actor} is an annotator; {doing} needs the {ROLE_LEAD} role "
        f"(labeler annotators role {actor} {ROLE_LEAD})"
    )


def require_lead(session: Session, actor: str, doing: str) -> str:
    """Refuse ``doing`` (:class:`~labeler.errors.RoleError`, see :func:`role_refusal`) unless
    ``actor`` is a lead or the owner; returns the role. Call it before any write."""
    role = role_of(session, actor)
    if role == ROLE_ANNOTATOR:
        raise role_refusal(actor, doing)
    return role


def require_self_or_lead(session: Session, actor: str, person: str, doing: str) -> str:
    """Refuse ``doing`` for ``person`` unless ``actor`` is ``person`` or may lead: an
    annotator acts only for themself (their layer, their done marks). Returns the role."""
    if actor == person:
        return role_of(session, actor)
    return require_lead(session, actor, f"{doing} for {person}")
