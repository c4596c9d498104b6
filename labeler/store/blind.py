"""What one annotator sees and writes while labelling (the TUI's blind view of team work).

One rule, :func:`labeler.store.team.view_of`, applied to every read the annotator's
workplace makes: an element of question q is visible to annotator A when

* q's gold set is not a team gold set, or q is adjudicated: the element is in the final
  layer (outside team gold sets every element is final, so everything is visible, exactly
  as before schema version 7);
* otherwise (team gold set, q not adjudicated): the element is in the annotator layer and
  its annotator is A (A's own labels; nobody else's, final ones included).

Counts, page highlights, the elements panel, the review list and the duplicate/overlap
checks of an attach all go through this module, so no view shows another annotator's span
while labelling. Writes: an attach goes into A's own layer (:func:`attach_visible`); a
question adjudicated already refuses plain attach, grade and removal (the adjudication
screen changes its final layer); done marks (:func:`toggle_done`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.annotate import (
    ElementRow,
    GoldSetProgress,
    QuestionRow,
    element_row,
    list_questions,
)
from labeler.store.labels import add_element, overlapping_elements
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
    done_mark,
    is_team,
    mark_done,
    unmark_done,
    view_of,
    visible_elements,
)

#: the key that opens the adjudication screen, named in refusals
ADJUDICATION_KEY = "F5"


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
    order: counts of visible elements only, and their own state (assigned, done, no answer,
    adjudicated). A gold set without team work: :func:`list_questions`, unchanged."""
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
    rows: list[QuestionRow] = []
    stmt = select(Query).where(Query.gold_set_id == gold_set_id).order_by(col(Query.id))
    for q in session.exec(stmt).all():
        assert q.id is not None
        by = counts.get(q.id, Counter())
        rows.append(
            QuestionRow(
                id=q.id,
                external_id=q.external_id,
                text=q.text,
                notes=q.notes,
                n_gold=sum(by.values()),
                n_stale=stale[q.id],
                by_annotator=dict(sorted(by.items())),
                team=True,
                assigned=q.id in mine,
                done=q.id in done,
                no_answer=bool(done.get(q.id, False)),
                adjudicated=q.adjudicated_at is not None,
            )
        )
    return rows


def progress_for(session: Session, annotator: str) -> list[GoldSetProgress]:
    """Every gold set with question and element counts of what ``annotator`` sees, by name
    (the same figures as :func:`labeler.store.annotate.gold_set_progress` outside team
    gold sets)."""
    counts, _ = visible_counts(session, annotator)
    per_set: dict[int, list[int]] = {}
    for query_id, gold_set_id in session.exec(select(Query.id, Query.gold_set_id)).all():
        assert query_id is not None
        per_set.setdefault(gold_set_id, []).append(query_id)
    out: list[GoldSetProgress] = []
    for gs in session.exec(select(GoldSet).order_by(col(GoldSet.name))).all():
        assert gs.id is not None
        ids = per_set.get(gs.id, [])
        by: Counter[str] = Counter()
        for query_id in ids:
            by.update(counts.get(query_id, Counter()))
        out.append(
            GoldSetProgress(
                id=gs.id,
                name=gs.name,
                description=gs.description,
                questions=len(ids),
                without_elements=sum(1 for q in ids if not counts.get(q)),
                elements=sum(by.values()),
                by_annotator=dict(sorted(by.items())),
            )
        )
    return out


def visible_page_elements(session: Session, document_id: str, annotator: str) -> list[ElementRow]:
    """The elements on one page (all questions) that ``annotator`` sees, by start."""
    found = session.exec(
        select(Element)
        .where(Element.document_id == document_id)
        .order_by(col(Element.start), col(Element.id))
    ).all()
    views = question_views(session, (e.query_id for e in found))
    return [
        element_row(e)
        for e in found
        if e.query_id in views and views[e.query_id].sees(e.layer, e.annotator, annotator)
    ]


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


def settled_message(external_id: str) -> str:
    """What a refused plain edit of an adjudicated question says."""
    return (
        f"{external_id} is adjudicated: its final layer is settled; change it in the "
        f"adjudication screen ({ADJUDICATION_KEY})"
    )


def attach_visible(
    session: Session,
    query_id: int,
    document_id: str,
    start: int,
    end: int,
    *,
    annotator: str,
    assisted: bool = False,
) -> ElementRow:
    """Label ``page[start:end]`` for ``query_id`` in the layer ``annotator`` labels: their
    own annotator layer in a team gold set (duplicates refused among their own labels),
    the final layer otherwise. A team question adjudicated already is refused
    (:class:`IntegrityError`, see :func:`settled_message`)."""
    view = view_of(session, query_id, annotator)
    if view.team and view.adjudicated:
        query = session.get(Query, query_id)
        raise IntegrityError(settled_message(query.external_id if query else str(query_id)))
    element = add_element(
        session,
        query_id,
        document_id,
        start,
        end,
        annotator=annotator,
        assisted=assisted,
        layer=view.layer,
    )
    return element_row(element)


def check_editable(session: Session, element_id: int, annotator: str) -> None:
    """Refuse a plain grade change or removal of element ``element_id`` by ``annotator``
    when they may not see it (:class:`NotFoundError`, as if it were gone) or it is in the
    settled final layer of an adjudicated team question (:class:`IntegrityError`)."""
    element = session.get(Element, element_id)
    if element is None:
        raise NotFoundError(f"no element with id {element_id} in the database")
    view = question_views(session, [element.query_id]).get(element.query_id)
    if view is None or not view.sees(element.layer, element.annotator, annotator):
        raise NotFoundError(f"no element with id {element_id} in the database")
    if view.team and view.adjudicated:
        query = session.get(Query, element.query_id)
        raise IntegrityError(settled_message(query.external_id if query else "the question"))


@dataclass(frozen=True)
class DoneChange:
    """What :func:`toggle_done` did: ``marked`` (True: now done; False: mark removed),
    ``no_answer`` (done with no element of their own) and ``elements`` (their count)."""

    external_id: str
    marked: bool
    no_answer: bool
    elements: int


def toggle_done(session: Session, query_id: int, annotator: str) -> DoneChange:
    """Mark question ``query_id`` done by ``annotator``, or remove their mark when it is
    done already (each an audited, undoable change of ``question_done``).

    Only in a team gold set (a done mark in a gold set without team work would turn it
    into one: assign questions first) and before the question is adjudicated.
    """
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    view = view_of(session, query_id, annotator)
    if not view.team:
        raise IntegrityError(
            f"{query.external_id}: done marks are for team gold sets (assign questions first: "
            "labeler gold assign)"
        )
    if view.adjudicated:
        raise IntegrityError(f"{query.external_id} is adjudicated already")
    own = len(visible_elements(session, query_id, annotator))
    if done_mark(session, query_id, annotator) is not None:
        unmark_done(session, query_id, annotator)
        return DoneChange(query.external_id, False, own == 0, own)
    row = mark_done(session, query_id, annotator)
    return DoneChange(query.external_id, True, row.no_answer, own)


def visible_page_counts(
    session: Session, document_ids: Iterable[str], annotator: str
) -> dict[str, int]:
    """Page id → how many of its elements ``annotator`` sees (pages without any: absent)."""
    ids = sorted(set(document_ids))
    if not ids:
        return {}
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
            .where(col(Element.document_id).in_(ids))
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
