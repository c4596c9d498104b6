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
adjudication mark itself. The way out is reopening (:func:`labeler.store.team.reopen_settled`:
``labeler adjudicate --reopen``, ``r`` on the adjudication screen's settled list): the
question is pending again and its evidence can change until it is settled again. Every
refusal says where to do that (:func:`settled_words`).
Ingest marking an element stale is not a write verb either: the page changed under it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.models import GoldSet, Query


class SettledError(IntegrityError):
    """A write would change the evidence of an adjudicated question."""


#: where a settled question is reopened, on the adjudication screen and the command line
#: (named in every refusal that the lock gives, so that it never leads to a dead end)
REOPEN_KEYS = "on the adjudication screen (F5) s lists settled questions and r reopens one"


def reopen_words(external_id: str, gold_set: str | None) -> str:
    """How to reopen question ``external_id``: the screen's keys and the command
    (``labeler adjudicate --gold-set demo --reopen q1``)."""
    command = (
        f"labeler adjudicate --gold-set {gold_set} --reopen {external_id}"
        if gold_set is not None
        else f"labeler adjudicate --gold-set NAME --reopen {external_id}"
    )
    return f"{REOPEN_KEYS}, or {command}"


def settled_words(query: Query, doing: str, gold_set: str | None = None) -> str:
    """The refusal, naming the question, who settled it, what was refused and the way out
    (a lead's step, on the screen or the command line): ``q1 is adjudicated (settled by
    lead): set key clause refused, it would change the evidence q1 was settled on; to change
    it, a lead reopens q1 first: on the adjudication screen (F5) s lists settled questions
    and r reopens one, or labeler adjudicate --gold-set demo --reopen q1``."""
    by = query.adjudicated_by or "the adjudicator"
    return (
        f"{query.external_id} is adjudicated (settled by {by}): {doing} refused, it would "
        f"change the evidence {query.external_id} was settled on; to change it, a lead "
        f"reopens {query.external_id} first: {reopen_words(query.external_id, gold_set)}"
    )


def check_not_settled(session: Session, query_id: int, doing: str) -> None:
    """Raise :class:`SettledError` when question ``query_id`` is adjudicated; ``doing`` names
    the refused write in the message (``"attach"``, ``"undo of add element of q1 …"``).
    :class:`NotFoundError` for an unknown question."""
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    if query.adjudicated_at is not None:
        gold_set = session.get(GoldSet, query.gold_set_id)
        name = gold_set.name if gold_set is not None else None
        raise SettledError(settled_words(query, doing, name))


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
