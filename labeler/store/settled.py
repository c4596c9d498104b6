"""The adjudicated lock: the evidence of a settled question does not change.

A question is *settled* once it is adjudicated (``query.adjudicated_at`` set, by
:func:`labeler.store.team.set_adjudicated`). Its evidence is what it was settled on: its
elements of both layers (spans, grades, key clauses) and its done marks. Every write verb
that changes evidence calls :func:`check_not_settled` first, so the lock holds whichever
front end or path asks (attach, grade, key, remove, adjust, accept, done/undone, undo and
redo of any of those, ``gold import --layer``):

* :func:`labeler.store.labels.add_element` and :func:`~labeler.store.labels.remove_element`,
* :func:`labeler.store.annotate.change_element` (grade, key clause, adjusted boundaries),
* :func:`labeler.store.team.mark_done` and :func:`~labeler.store.team.unmark_done`,
* :func:`labeler.store.history.undo` / :func:`~labeler.store.history.redo` of an element
  or done-mark entry.

Not evidence, so not locked: the question's text, id and notes, its assignments, and its
adjudication mark itself (reopening is undoing the adjudication: the adjudicator's ctrl+z).
Ingest marking an element stale is not a write verb either: the page changed under it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.models import Query


class SettledError(IntegrityError):
    """A write would change the evidence of an adjudicated question."""


def settled_words(query: Query, doing: str) -> str:
    """The refusal, naming the question, who settled it, what was refused and the way out:
    ``q1 is adjudicated (settled by lead): set key clause refused, it would change the
    evidence q1 was settled on; to change it, lead reopens q1 first (ctrl+z of the
    adjudication)``."""
    by = query.adjudicated_by or "the adjudicator"
    return (
        f"{query.external_id} is adjudicated (settled by {by}): {doing} refused, it would "
        f"change the evidence {query.external_id} was settled on; to change it, {by} "
        f"reopens {query.external_id} first (ctrl+z of the adjudication)"
    )


def check_not_settled(session: Session, query_id: int, doing: str) -> None:
    """Raise :class:`SettledError` when question ``query_id`` is adjudicated; ``doing`` names
    the refused write in the message (``"attach"``, ``"undo of add element of q1 …"``).
    :class:`NotFoundError` for an unknown question."""
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    if query.adjudicated_at is not None:
        raise SettledError(settled_words(query, doing))


def settled_among(session: Session, query_ids: Iterable[int]) -> list[Query]:
    """The adjudicated questions among ``query_ids``, by id (for a refusal naming all)."""
    ids = sorted(set(query_ids))
    if not ids:
        return []
    stmt = (
        select(Query)
        .where(col(Query.id).in_(ids), col(Query.adjudicated_at).is_not(None))
        .order_by(col(Query.id))
    )
    return list(session.exec(stmt).all())
