"""Service verbs of team work: annotators and their links, assignments, progress, done marks,
the agreement input and automatic adjudication.

Each verb takes the :class:`~labeler.store.Store`, opens its own transaction
(:meth:`Store.write` for a change, :meth:`Store.session` for a read) and calls the
session-level functions that hold the rules (:mod:`labeler.store.annotators`,
:mod:`labeler.store.assign`, :mod:`labeler.store.team`, :mod:`labeler.store.autoadjudicate`,
:mod:`labeler.store.agreement_input`). An error raised inside a change rolls all of it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labeler.store.agreement_input import DoneLabels, done_labels
from labeler.store.annotators import (
    AnnotatorRow,
    active_hashes,
    add_annotator,
    annotator_for_token,
    list_annotators,
    revoke,
    rotate_token,
    set_role,
)
from labeler.store.assign import AssignPlan, TeamProgress, assign_questions, team_progress
from labeler.store.autoadjudicate import AutoResult, auto_adjudicate
from labeler.store.labels import get_gold_set, get_query
from labeler.store.lead_view import LeadInput, lead_input
from labeler.store.models import ROLE_ANNOTATOR
from labeler.store.roles import require_lead, require_self_or_lead, role_of
from labeler.store.session import Store
from labeler.store.team import mark_done, unmark_done


def create_annotator(store: Store, name: str, role: str = ROLE_ANNOTATOR, *, actor: str) -> str:
    """Create annotator ``name`` with ``role`` (``annotator`` or ``lead``; ``labeler
    annotators add``); returns their token, the only time it is seen (the database keeps its
    hash). Audited under ``actor``, who needs the lead role (or is the owner).

    Refuses (:class:`~labeler.errors.UsageError`) an invalid name or role, or a name that
    exists, revoked or not; :class:`~labeler.errors.RoleError` for an annotator ``actor``.
    """
    with store.write() as s:
        return add_annotator(s, name, role, actor=actor)


def set_annotator_role(store: Store, name: str, role: str, *, actor: str) -> bool:
    """Give annotator ``name`` the role ``role`` (``labeler annotators role``); False when
    they had it already. Audited under ``actor``, who needs the lead role (or is the owner).
    :class:`~labeler.errors.NotFoundError` for an unknown name, :class:`~labeler.errors.
    UsageError` for an unknown role, :class:`~labeler.errors.RoleError` for an annotator."""
    with store.write() as s:
        return set_role(s, name, role, actor=actor)


def read_role(store: Store, actor: str) -> str:
    """``actor``'s role: ``annotator`` or ``lead`` for a registered annotator (``annotator``
    while revoked), ``owner`` for any other name (:func:`labeler.store.roles.role_of`). The
    TUI reads it at start to show only what the role may do."""
    with store.session() as s:
        return role_of(s, actor)


def rotate_annotator_token(store: Store, name: str) -> str:
    """Give annotator ``name`` a new token (``labeler annotators rotate``) and return it: the
    old one stops working, a revoked annotator is active again.

    :class:`~labeler.errors.NotFoundError` naming the annotators there are for an unknown name.
    """
    with store.write() as s:
        return rotate_token(s, name)


def revoke_annotator(store: Store, name: str) -> bool:
    """Revoke annotator ``name``'s token (``labeler annotators revoke``); False when it was
    revoked already. :class:`~labeler.errors.NotFoundError` for an unknown name."""
    with store.write() as s:
        return revoke(s, name)


def read_annotators(store: Store, *, active_only: bool = False) -> list[AnnotatorRow]:
    """Every annotator by name (never a token); with ``active_only`` those whose link works."""
    with store.session() as s:
        rows = list_annotators(s)
    return [r for r in rows if r.active] if active_only else rows


def read_annotator_for_token(store: Store, token: str) -> str | None:
    """The name of the active annotator whose token is ``token``; None for an empty,
    unknown, rotated or revoked token."""
    with store.session() as s:
        return annotator_for_token(s, token)


def read_active_hashes(store: Store) -> dict[str, str]:
    """``token_hash -> name`` of every active annotator (one query: the server's periodic
    check of its open sessions)."""
    with store.session() as s:
        return active_hashes(s)


@dataclass(frozen=True)
class TeamAssignment:
    """What :func:`assign_team_questions` did (``plan``: the assignments added, the questions
    chosen, those that had their annotators already) and the gold set's progress after it."""

    plan: AssignPlan
    progress: TeamProgress


def assign_team_questions(
    store: Store,
    gold_set: str,
    annotators: Sequence[str],
    *,
    per_question: int,
    sample: int | None = None,
    seed: int = 0,
    actor: str,
) -> TeamAssignment:
    """Assign questions of gold set ``gold_set`` to ``annotators`` (``labeler gold assign``):
    each chosen question gets ``per_question`` of them, the least loaded first, in the order
    ``seed`` fixes; existing assignments are never moved (:func:`labeler.store.assign.
    assign_questions`). Each assignment is audited under ``actor``; the set becomes a team
    gold set. Then reads the set's progress (a second, read-only transaction).

    :class:`~labeler.errors.NotFoundError` for an unknown gold set,
    :class:`~labeler.errors.UsageError` for a plan that cannot be made,
    :class:`~labeler.errors.RoleError` when ``actor`` is an annotator (assigning needs the
    lead role); nothing is written then.
    """
    with store.write() as s:
        require_lead(s, actor, "assigning questions")
        plan = assign_questions(
            s,
            gold_set,
            annotators,
            per_question=per_question,
            sample=sample,
            seed=seed,
            actor=actor,
        )
    with store.session() as s:
        progress = team_progress(s, gold_set)
    return TeamAssignment(plan, progress)


def read_team_progress(store: Store, gold_set: str) -> TeamProgress:
    """Per annotator of gold set ``gold_set``: questions assigned, done, done with no answer,
    remaining; the questions adjudicated and pending (``labeler gold progress``).
    :class:`~labeler.errors.NotFoundError` for an unknown gold set."""
    with store.session() as s:
        return team_progress(s, gold_set)


def read_lead_input(store: Store, gold_set: str) -> LeadInput:
    """What the lead's view of gold set ``gold_set`` is computed from (``labeler gold
    progress``, the adjudication screen's panel): its progress, each annotator's work events
    from the audit log, their done questions and every settled question's final and own
    spans, read in one transaction (:func:`labeler.store.lead_view.lead_input`; computed by
    :func:`labeler.report.lead_view`). :class:`~labeler.errors.NotFoundError` for an unknown
    gold set."""
    with store.session() as s:
        return lead_input(s, gold_set)


def mark_questions_done(
    store: Store,
    gold_set: str,
    query_ids: Sequence[str],
    annotator: str,
    *,
    undo: bool = False,
    actor: str | None = None,
) -> int:
    """Mark the questions ``query_ids`` (external ids) of gold set ``gold_set`` done by
    ``annotator`` (``labeler gold done``), or with ``undo`` remove their done marks, in one
    transaction; each change audited by :func:`labeler.store.team.mark_done` /
    :func:`~labeler.store.team.unmark_done`.

    Returns how many questions changed: every one when marking (a mark already there is kept),
    those that had a mark when undoing. An unknown gold set or question
    (:class:`~labeler.errors.NotFoundError`) changes nothing. ``actor`` (default: the
    annotator themself) marks for someone else only with the lead role
    (:func:`labeler.store.roles.require_self_or_lead`; :class:`~labeler.errors.RoleError`).
    """
    changed = 0
    with store.write() as s:
        doing = "removing done marks" if undo else "marking questions done"
        require_self_or_lead(s, annotator if actor is None else actor, annotator, doing)
        gs = get_gold_set(s, gold_set)
        for external_id in query_ids:
            query = get_query(s, gs, external_id)
            assert query.id is not None
            if undo:
                changed += unmark_done(s, query.id, annotator)
            else:
                mark_done(s, query.id, annotator)
                changed += 1
    return changed


def read_done_labels(store: Store, gold_set: str) -> DoneLabels:
    """What ``labeler agreement`` compares: per question of gold set ``gold_set``, each done
    annotator's own non-stale spans, the cited pages' lengths and the stale labels left out
    (:func:`labeler.store.agreement_input.done_labels`).
    :class:`~labeler.errors.NotFoundError` for an unknown gold set."""
    with store.session() as s:
        return done_labels(s, gold_set)


def adjudicate_auto(
    store: Store, gold_set: str, rule: str, *, actor: str, dry_run: bool = False
) -> AutoResult:
    """``labeler adjudicate --auto RULE``: accept the spans the done annotators agree on
    (``unanimous`` or ``majority``) into the final layer of each question two or more of them
    marked done and not adjudicated yet, and mark adjudicated those left with no span in
    dispute (:func:`labeler.store.autoadjudicate.auto_adjudicate`; every step audited under
    ``actor``).

    With ``dry_run`` it reads only (a read-only session, rolled back): the result says what
    would happen. :class:`~labeler.errors.UsageError` for a gold set that is not a team gold
    set, :class:`~labeler.errors.NotFoundError` for an unknown one,
    :class:`~labeler.errors.RoleError` when ``actor`` is an annotator (even a dry run:
    adjudicating needs the lead role); nothing is written then.
    """
    opened = store.session() if dry_run else store.write()
    with opened as s:
        require_lead(s, actor, "adjudicating")
        result = auto_adjudicate(s, gold_set, rule, actor=actor, dry_run=dry_run)
        if dry_run:
            s.rollback()
    return result
