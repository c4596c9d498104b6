"""What one annotator sees while labelling (the TUI's blind view of team work).

One rule, :func:`labeler.store.team.view_of`, applied to every read the annotator's
workplace makes: an element of question q is visible to annotator A when

* q's gold set is not a team gold set, or q is adjudicated: the element is in the final
  layer (outside team gold sets every element is final, so everything is visible, exactly
  as before schema version 7);
* otherwise (team gold set, q not adjudicated): the element is in the annotator layer and
  its annotator is A (A's own labels; nobody else's, final ones included).

Counts, page highlights, the elements panel, the review list and the duplicate/overlap
checks of an attach all go through this module, so no view shows another annotator's span
while labelling. The page and page-count reads take the gold set being labelled and show
only its elements (the gold-set scope): another gold set's answer to the same question is
no more visible than a teammate's. The writes that go with it: :mod:`labeler.store.own_layer`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from labeler.store.annotate import (
    ElementRow,
    GoldSetProgress,
    QuestionRow,
    element_row,
    gold_set_progress,
    list_questions,
    question_rows,
)
from labeler.store.final_hidden import HiddenFinal, hidden_final
from labeler.store.labels import overlapping_elements
from labeler.store.models import (
    ELEMENT_STALE,
    LAYER_ANNOTATOR,
    LAYER_FINAL,
    Assignment,
    Element,
    GoldSet,
    Query,
    QuestionDone,
)
from labeler.store.team import (
    is_team,
    view_of,
    visible_elements,
)


@dataclass(frozen=True)
class QView:
    """How a question is seen: ``team`` gold set, ``adjudicated`` (final layer settled)."""

    team: bool
    adjudicated: bool

    def sees(self, layer: str, owner: str, annotator: str) -> bool:
        """True when ``annotator`` may see an element of ``layer`` labelled by ``owner``."""
        if not self.team or self.adjudicated:
            return layer == LAYER_FINAL
        return layer == LAYER_ANNOTATOR and owner == annotator


def question_views(session: Session, query_ids: Iterable[int] | None = None) -> dict[int, QView]:
    """Question id → :class:`QView`, for ``query_ids`` (default: every question)."""
    stmt = select(Query.id, GoldSet.team, Query.adjudicated_at).join(
        GoldSet, col(GoldSet.id) == col(Query.gold_set_id)
    )
    if query_ids is not None:
        ids = sorted(set(query_ids))
        if not ids:
            return {}
        stmt = stmt.where(col(Query.id).in_(ids))
    return {
        int(qid): QView(bool(team), adjudicated is not None)
        for qid, team, adjudicated in session.exec(stmt).all()
        if qid is not None
    }


def visible_counts(
    session: Session, annotator: str
) -> tuple[dict[int, Counter[str]], Counter[int]]:
    """Per question, the elements ``annotator`` sees by who labelled them, and how many of
    them are stale."""
    views = question_views(session)
    # Five columns: SQLModel's typed select() stops at four, so use SQLAlchemy Core here.
    rows = (
        session.connection()
        .execute(
            sa_select(
                col(Element.query_id),
                col(Element.annotator),
                col(Element.layer),
                col(Element.status),
                func.count(),
            ).group_by(
                col(Element.query_id),
                col(Element.annotator),
                col(Element.layer),
                col(Element.status),
            )
        )
        .all()
    )
    counts: dict[int, Counter[str]] = {}
    stale: Counter[int] = Counter()
    for query_id, owner, layer, status, n in rows:
        view = views.get(query_id)
        if view is None or not view.sees(layer, owner, annotator):
            continue
        counts.setdefault(query_id, Counter())[owner] += int(n)
        if status == ELEMENT_STALE:
            stale[query_id] += int(n)
    return counts, stale


def questions_for(session: Session, gold_set_id: int, annotator: str) -> list[QuestionRow]:
    """The questions of gold set ``gold_set_id`` as ``annotator`` sees them, in creation
    order: counts of visible elements only, their own state (assigned, done, no answer,
    adjudicated), whether it is pending and the final elements hidden from them
    (:func:`labeler.store.final_hidden.hidden_final`, one query for the gold set). A gold
    set without team work: :func:`list_questions`, unchanged."""
    if not is_team(session, gold_set_id):
        return list_questions(session, gold_set_id)
    counts, stale = visible_counts(session, annotator)
    mine = set(
        session.exec(
            select(Assignment.query_id)
            .join(Query, col(Query.id) == col(Assignment.query_id))
            .where(Query.gold_set_id == gold_set_id, Assignment.annotator == annotator)
        ).all()
    )
    done = dict(
        session.exec(
            select(QuestionDone.query_id, QuestionDone.no_answer)
            .join(Query, col(Query.id) == col(QuestionDone.query_id))
            .where(Query.gold_set_id == gold_set_id, QuestionDone.annotator == annotator)
        ).all()
    )
    hidden = hidden_final(session, gold_set_id)
    none = HiddenFinal(0, 0, False)
    return [
        replace(
            row,
            team=True,
            assigned=row.id in mine,
            done=row.id in done,
            no_answer=bool(done.get(row.id, False)),
            adjudicated=q.adjudicated_at is not None,
            pending=hidden.get(row.id, none).pending,
            n_final_hidden=hidden.get(row.id, none).elements,
        )
        for q, row in question_rows(session, gold_set_id, counts, stale)
    ]


def progress_for(session: Session, annotator: str) -> list[GoldSetProgress]:
    """Every gold set with question and element counts of what ``annotator`` sees, by name
    (the same figures as :func:`labeler.store.annotate.gold_set_progress` outside team
    gold sets)."""
    counts, _ = visible_counts(session, annotator)
    return gold_set_progress(session, counts)


def visible_page_elements(
    session: Session, document_id: str, annotator: str, gold_set_id: int | None = None
) -> list[ElementRow]:
    """The elements on one page that ``annotator`` sees, by start: of every question of
    gold set ``gold_set_id`` (the one being labelled; None: of every gold set). Another
    gold set's elements are never part of the view of this one: on a team question they
    would show another set's answer to the same question (the gold-set scope)."""
    stmt = select(Element).where(Element.document_id == document_id)
    if gold_set_id is not None:
        stmt = stmt.where(col(Element.query_id).in_(_questions_of(gold_set_id)))
    found = session.exec(stmt.order_by(col(Element.start), col(Element.id))).all()
    views = question_views(session, (e.query_id for e in found))
    return [
        element_row(e)
        for e in found
        if e.query_id in views and views[e.query_id].sees(e.layer, e.annotator, annotator)
    ]


def _questions_of(gold_set_id: int) -> SelectOfScalar[int | None]:
    """The ids of gold set ``gold_set_id``'s questions, as a subquery."""
    return select(col(Query.id)).where(col(Query.gold_set_id) == gold_set_id)


def visible_question_elements(session: Session, query_id: int, annotator: str) -> list[ElementRow]:
    """The elements of one question that ``annotator`` sees, by page then start."""
    return [element_row(e) for e in visible_elements(session, query_id, annotator)]


def visible_overlaps(
    session: Session, query_id: int, document_id: str, start: int, end: int, annotator: str
) -> list[ElementRow]:
    """The elements of the layer ``annotator`` labels on ``query_id`` (their own in a team
    gold set) that overlap ``[start, end)`` on the page without being that span."""
    view = view_of(session, query_id, annotator)
    return [
        element_row(e)
        for e in overlapping_elements(
            session, query_id, document_id, start, end, layer=view.layer, annotator=view.annotator
        )
    ]


def visible_page_counts(
    session: Session,
    document_ids: Iterable[str],
    annotator: str,
    gold_set_id: int | None = None,
) -> dict[str, int]:
    """Page id → how many of its elements ``annotator`` sees (pages without any: absent),
    counting only gold set ``gold_set_id``'s (None: every gold set's), as
    :func:`visible_page_elements` shows them."""
    ids = sorted(set(document_ids))
    if not ids:
        return {}
    where = [col(Element.document_id).in_(ids)]
    if gold_set_id is not None:
        where.append(col(Element.query_id).in_(_questions_of(gold_set_id)))
    rows = (
        session.connection()
        .execute(
            sa_select(
                col(Element.document_id),
                col(Element.query_id),
                col(Element.layer),
                col(Element.annotator),
                func.count(),
            )
            .where(*where)
            .group_by(
                col(Element.document_id),
                col(Element.query_id),
                col(Element.layer),
                col(Element.annotator),
            )
        )
        .all()
    )
    views = question_views(session, (r[1] for r in rows))
    out: Counter[str] = Counter()
    for doc, query_id, layer, owner, n in rows:
        view = views.get(query_id)
        if view is not None and view.sees(layer, owner, annotator):
            out[doc] += int(n)
    return dict(out)
