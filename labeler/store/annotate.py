"""What the annotator's workplace needs from the store: progress views and audited edits.

Read functions return small frozen dataclasses (no ORM objects leave the session), so a UI
can hold them across threads. Write functions take a ``Store.write()`` session, audit every
change with a full before/after snapshot in the same flush, and leave the commit to the
caller, like :mod:`labeler.store.labels`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.audit import missing_element, record_change, snapshot
from labeler.store.labels import add_element, overlapping_elements
from labeler.store.models import (
    ELEMENT_STALE,
    PROVENANCE_SINGLE,
    PROVENANCE_SNAPPED,
    Assignment,
    Element,
    GoldSet,
    NotRelevant,
    Query,
    QuestionDone,
)
from labeler.store.settled import check_not_settled
from labeler.store.validation import key_problem


@dataclass(frozen=True)
class GoldSetProgress:
    """One gold set at a glance."""

    id: int
    name: str
    description: str
    questions: int
    without_elements: int
    elements: int
    by_annotator: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class QuestionRow:
    """One question with its labelling progress.

    In a team gold set (:func:`labeler.store.blind.questions_for`) the counts are of what
    the viewing annotator may see, and the last fields say where the question stands for
    them: ``assigned`` to them, ``done`` by them (``no_answer``: done with no element),
    ``adjudicated`` (its final layer is settled), ``pending`` (team work on it by anyone and
    not adjudicated: scoring leaves it out) and ``n_final_hidden``: final elements, not
    stale, they cannot see on it (not adjudicated), labelled before team work; they are
    scored while it is not pending (:mod:`labeler.store.final_hidden`). All False or 0
    outside team gold sets.
    """

    id: int
    external_id: str
    text: str
    notes: str
    n_gold: int
    n_stale: int
    by_annotator: dict[str, int] = field(default_factory=dict)
    team: bool = False
    assigned: bool = False
    done: bool = False
    no_answer: bool = False
    adjudicated: bool = False
    pending: bool = False
    n_final_hidden: int = 0
    #: elements stored by ``gold import --snap`` that nobody confirmed yet (provenance
    #: ``snapped``; :func:`confirm_snapped`)
    n_snapped: int = 0


@dataclass(frozen=True)
class ElementRow:
    """One expected element, detached from the session."""

    id: int
    query_id: int
    document_id: str
    start: int
    end: int
    text: str
    grade: int
    annotator: str
    status: str
    assisted: bool
    #: the key span, page offsets inside ``[start, end)``; None for both without one
    key_start: int | None = None
    key_end: int | None = None


def element_row(element: Element) -> ElementRow:
    """The detached view of ``element``."""
    assert element.id is not None
    return ElementRow(
        id=element.id,
        query_id=element.query_id,
        document_id=element.document_id,
        start=element.start,
        end=element.end,
        text=element.text,
        grade=element.grade,
        annotator=element.annotator,
        status=element.status,
        assisted=element.assisted,
        key_start=element.key_start,
        key_end=element.key_end,
    )


def _element_counts(session: Session) -> dict[int, Counter[str]]:
    """query id → elements per annotator."""
    rows = session.exec(
        select(Element.query_id, Element.annotator, func.count()).group_by(
            col(Element.query_id), col(Element.annotator)
        )
    ).all()
    counts: dict[int, Counter[str]] = {}
    for query_id, annotator, n in rows:
        counts.setdefault(query_id, Counter())[annotator] += int(n)
    return counts


def gold_set_progress(
    session: Session, counts: dict[int, Counter[str]] | None = None
) -> list[GoldSetProgress]:
    """Every gold set with question and element counts, ordered by name; ``counts``
    (question id → annotator → elements) replaces the stored elements' own counts (what
    one annotator sees of a team gold set, :func:`labeler.store.blind.progress_for`)."""
    if counts is None:
        counts = _element_counts(session)
    queries = session.exec(select(Query.id, Query.gold_set_id)).all()
    per_set: dict[int, list[int]] = {}
    for query_id, gold_set_id in queries:
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


def list_questions(session: Session, gold_set_id: int) -> list[QuestionRow]:
    """The questions of one gold set in creation order, with n_gold and who labelled them."""
    stale = dict(
        session.exec(
            select(Element.query_id, func.count())
            .where(Element.status == ELEMENT_STALE)
            .group_by(col(Element.query_id))
        ).all()
    )
    return [row for _, row in question_rows(session, gold_set_id, _element_counts(session), stale)]


def question_rows(
    session: Session,
    gold_set_id: int,
    counts: Mapping[int, Counter[str]],
    stale: Mapping[int, int],
) -> list[tuple[Query, QuestionRow]]:
    """The questions of one gold set in creation order, each with its row: ``n_gold`` and
    ``by_annotator`` from ``counts`` (question id → annotator → elements), ``n_stale`` from
    ``stale`` (question id → stale elements; a missing id is 0), the team fields False
    (:func:`labeler.store.blind.questions_for` fills them from the query)."""
    rows: list[tuple[Query, QuestionRow]] = []
    snapped = dict(
        session.exec(
            select(Element.query_id, func.count())
            .join(Query, col(Query.id) == col(Element.query_id))
            .where(Query.gold_set_id == gold_set_id, Element.provenance == PROVENANCE_SNAPPED)
            .group_by(col(Element.query_id))
        ).all()
    )
    stmt = select(Query).where(Query.gold_set_id == gold_set_id).order_by(col(Query.id))
    for q in session.exec(stmt).all():
        assert q.id is not None
        by = counts.get(q.id, Counter())
        row = QuestionRow(
            id=q.id,
            external_id=q.external_id,
            text=q.text,
            notes=q.notes,
            n_gold=sum(by.values()),
            n_stale=int(stale.get(q.id, 0)),
            by_annotator=dict(sorted(by.items())),
            n_snapped=int(snapped.get(q.id, 0)),
        )
        rows.append((q, row))
    return rows


def page_elements(session: Session, document_id: str) -> list[ElementRow]:
    """Every element on one page (all questions), ordered by start offset."""
    stmt = (
        select(Element)
        .where(Element.document_id == document_id)
        .order_by(col(Element.start), col(Element.id))
    )
    return [element_row(e) for e in session.exec(stmt).all()]


def question_elements(session: Session, query_id: int) -> list[ElementRow]:
    """The elements of one question, by page then start offset."""
    stmt = (
        select(Element)
        .where(Element.query_id == query_id)
        .order_by(col(Element.document_id), col(Element.start))
    )
    return [element_row(e) for e in session.exec(stmt).all()]


def attach_element(
    session: Session,
    query_id: int,
    document_id: str,
    start: int,
    end: int,
    *,
    annotator: str,
    grade: int = 1,
    assisted: bool = False,
) -> ElementRow:
    """Label ``page[start:end]`` for a question, recording whether assist mode was on.

    Like :func:`labeler.store.labels.add_element`: the text is taken from the page, bad
    offsets or grades raise :class:`IntegrityError`, unknown rows :class:`NotFoundError`.
    """
    element = add_element(
        session,
        query_id,
        document_id,
        start,
        end,
        annotator=annotator,
        grade=grade,
        assisted=assisted,
    )
    return element_row(element)


def span_overlaps(
    session: Session, query_id: int, document_id: str, start: int, end: int
) -> list[ElementRow]:
    """The question's elements on the page overlapping ``[start, end)`` (not equal to it).

    An overlap is allowed (two elements may share words), but an annotator should be
    asked before storing one; an exact duplicate is refused by :func:`attach_element`.
    """
    return [
        element_row(e) for e in overlapping_elements(session, query_id, document_id, start, end)
    ]


def set_grade(session: Session, element_id: int, grade: int, *, actor: str) -> ElementRow:
    """Change an element's grade (audited as ``change``); no entry when it is unchanged."""
    element = session.get(Element, element_id)
    if element is None:
        raise missing_element(session, element_id)
    if isinstance(grade, bool) or not isinstance(grade, int) or grade < 1:
        raise IntegrityError(f"element grade must be an integer >= 1, got {grade!r}")
    if element.grade == grade:
        return element_row(element)
    return change_element(session, element, actor=actor, grade=grade)


def change_element(session: Session, element: Element, *, actor: str, **values: Any) -> ElementRow:
    """Set ``values`` (column → value) on ``element`` and record one audited ``change`` with
    the full before and after snapshots (what undo and redo write back). The caller has
    checked the values; the flush runs the span validation of every ORM write. Refused on
    an adjudicated question (:func:`labeler.store.settled.check_not_settled`): a grade, a
    key clause and boundaries are evidence."""
    assert element.id is not None
    doing = "set key clause" if "key_start" in values else "change element"
    check_not_settled(session, element.query_id, doing)
    before = snapshot(element)
    for name, value in values.items():
        setattr(element, name, value)
    session.add(element)
    session.flush()
    record_change(
        session,
        actor=actor,
        action="change",
        entity="element",
        entity_id=element.id,
        before=before,
        after=snapshot(element),
    )
    session.flush()
    return element_row(element)


def confirm_snapped(session: Session, element_id: int, *, actor: str) -> ElementRow:
    """Confirm an element ``gold import --snap`` stored at the span its text aligned with:
    its provenance becomes ``single`` (an exact span someone checked), audited as a
    ``change`` by ``actor`` (who confirmed it, and when; undo brings ``snapped`` back).
    :class:`IntegrityError` for an element that is not snapped."""
    element = session.get(Element, element_id)
    if element is None:
        raise missing_element(session, element_id)
    if element.provenance != PROVENANCE_SNAPPED:
        raise IntegrityError(
            f"element {element_id} is not a snapped one (provenance {element.provenance!r})"
        )
    return change_element(session, element, actor=actor, provenance=PROVENANCE_SINGLE)


def set_key(
    session: Session, element_id: int, start: int | None, end: int | None, *, actor: str
) -> ElementRow:
    """Set an element's key span to page offsets ``[start, end)`` (None, None: clear it),
    audited as ``change`` so undo and redo bring the old one back; no entry when it is
    unchanged. :class:`IntegrityError` unless the span lies inside the element
    (``element.start <= start < end <= element.end``)."""
    element = session.get(Element, element_id)
    if element is None:
        raise missing_element(session, element_id)
    problem = key_problem(element.start, element.end, start, end)
    if problem is not None:
        raise IntegrityError(problem)
    if (element.key_start, element.key_end) == (start, end):
        return element_row(element)
    return change_element(session, element, actor=actor, key_start=start, key_end=end)


def update_query(
    session: Session,
    query_id: int,
    *,
    actor: str,
    external_id: str | None = None,
    text: str | None = None,
    notes: str | None = None,
) -> Query:
    """Change a question's id, text or notes (audited as ``change``)."""
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    before = snapshot(query)
    if external_id is not None and external_id != query.external_id:
        if not external_id.strip():
            raise IntegrityError("a question needs a non-empty id")
        taken = session.exec(
            select(Query.id).where(
                Query.gold_set_id == query.gold_set_id, Query.external_id == external_id
            )
        ).first()
        if taken is not None:
            raise IntegrityError(f"question {external_id!r} already exists in this gold set")
        query.external_id = external_id
    if text is not None:
        query.text = text
    if notes is not None:
        query.notes = notes
    after = snapshot(query)
    if after != before:
        session.add(query)
        session.flush()
        record_change(
            session,
            actor=actor,
            action="change",
            entity="query",
            entity_id=query_id,
            before=before,
            after=after,
        )
        session.flush()
    return query


def delete_query(session: Session, query_id: int, *, actor: str) -> None:
    """Delete a question and its elements as one audited ``remove``.

    The ``before`` snapshot carries the elements under ``"elements"`` so that undo brings
    the question back whole.
    """
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    elements = session.exec(
        select(Element).where(Element.query_id == query_id).order_by(col(Element.id))
    ).all()
    # Team rows go with the question and come back with it on undo (schema version 7).
    team_rows: list[Assignment | QuestionDone] = [
        *session.exec(select(Assignment).where(Assignment.query_id == query_id)).all(),
        *session.exec(select(QuestionDone).where(QuestionDone.query_id == query_id)).all(),
    ]
    # Not-relevant judgements (schema version 13) likewise.
    judged = session.exec(
        select(NotRelevant).where(NotRelevant.query_id == query_id).order_by(col(NotRelevant.id))
    ).all()
    before = snapshot(query) | {
        "elements": [snapshot(e) for e in elements],
        "assignments": [snapshot(r) for r in team_rows if isinstance(r, Assignment)],
        "done": [snapshot(r) for r in team_rows if isinstance(r, QuestionDone)],
        "not_relevant": [snapshot(r) for r in judged],
    }
    for row in [*elements, *team_rows, *judged]:
        session.delete(row)
    session.flush()
    session.delete(query)
    record_change(
        session,
        actor=actor,
        action="remove",
        entity="query",
        entity_id=query_id,
        before=before,
        after=None,
    )
    session.flush()
