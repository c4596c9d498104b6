"""Team gold sets: assignments, done marks, annotator layers and adjudication (schema 7).

A gold set becomes a *team* gold set with its first assignment or annotator-layer import
(:func:`make_team`; it stays one). From then on:

* an annotator labelling a question that is not adjudicated writes into their own
  *annotator layer* (``element.layer = 'annotator'``, ``element.annotator`` = who) and sees
  only their own labels there (:func:`view_of`), so labelling is blind;
* scoring and ``gold export`` read the *final* layer (``element.layer = 'final'``) and leave
  out *pending* questions: those with team work on them (an assignment, a done mark or an
  annotator-layer label) that are not adjudicated yet (``query.adjudicated_at`` is NULL);
  see :data:`labeler.store.rows.PENDING_SQL`;
* adjudication copies chosen spans into the final layer (:func:`accept_span`, with a
  provenance) and marks the question adjudicated (:func:`set_adjudicated`).

In a gold set without team work every element is final with provenance ``single`` and every
question is scored, exactly as before schema 7.

Every change here is audited (entities ``assignment``, ``question_done``, ``query``,
``element``) and can be undone per actor like labelling (:mod:`labeler.store.history`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.audit import add_audited, record_change, remove_audited, snapshot
from labeler.store.labels import add_element, get_gold_set
from labeler.store.models import (
    LAYER_ANNOTATOR,
    LAYER_FINAL,
    PROVENANCES,
    Assignment,
    Element,
    GoldSet,
    Query,
    QuestionDone,
    utcnow,
)
from labeler.store.settled import SettledError, check_not_settled


@dataclass(frozen=True)
class LayerView:
    """Which elements of a question an annotator sees and writes.

    ``layer`` is ``final`` (``annotator`` None: everyone's final elements) or ``annotator``
    (only ``annotator``'s own labels). ``adjudicated``: the question's final layer is settled.
    """

    layer: str
    annotator: str | None
    team: bool
    adjudicated: bool


def _query(session: Session, query_id: int) -> Query:
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    return query


def is_team(session: Session, gold_set_id: int) -> bool:
    """True when gold set ``gold_set_id`` is a team gold set."""
    gold_set = session.get(GoldSet, gold_set_id)
    return bool(gold_set is not None and gold_set.team)


def make_team(session: Session, gold_set: GoldSet) -> bool:
    """Turn ``gold_set`` into a team gold set; True when it was not one already.

    Its existing elements stay final (provenance ``single``) and its questions without team
    work keep being scored; there is no way back (a gold set that had blind labels must
    not start showing them to everyone).
    """
    if gold_set.team:
        return False
    gold_set.team = True
    session.add(gold_set)
    session.flush()
    return True


def view_of(session: Session, query_id: int, annotator: str) -> LayerView:
    """The layer ``annotator`` labels on question ``query_id``.

    Team gold set, question not adjudicated: the annotator layer, own labels only. Otherwise
    (no team, or adjudicated): the final layer.
    """
    query = _query(session, query_id)
    team = is_team(session, query.gold_set_id)
    adjudicated = query.adjudicated_at is not None
    if team and not adjudicated:
        return LayerView(LAYER_ANNOTATOR, annotator, True, False)
    return LayerView(LAYER_FINAL, None, team, adjudicated)


def visible_elements(session: Session, query_id: int, annotator: str) -> list[Element]:
    """The elements of question ``query_id`` that ``annotator`` may see (see :func:`view_of`),
    by page then start."""
    view = view_of(session, query_id, annotator)
    stmt = select(Element).where(Element.query_id == query_id, Element.layer == view.layer)
    if view.annotator is not None:
        stmt = stmt.where(Element.annotator == view.annotator)
    return list(session.exec(stmt.order_by(col(Element.document_id), col(Element.start))).all())


def add_assignment(session: Session, query_id: int, annotator: str, *, actor: str) -> bool:
    """Assign question ``query_id`` to ``annotator`` (audited); False when it already was.

    Makes the question's gold set a team gold set.
    """
    query = _query(session, query_id)
    if not annotator.strip():
        raise IntegrityError("an assignment needs an annotator name")
    existing = session.exec(
        select(Assignment).where(Assignment.query_id == query_id, Assignment.annotator == annotator)
    ).first()
    if existing is not None:
        return False
    gold_set = session.get(GoldSet, query.gold_set_id)
    assert gold_set is not None
    make_team(session, gold_set)
    add_audited(
        session,
        Assignment(query_id=query_id, annotator=annotator),
        actor=actor,
        entity="assignment",
    )
    return True


def own_elements(session: Session, query_id: int, annotator: str) -> list[Element]:
    """``annotator``'s annotator-layer elements on question ``query_id``, by page and start."""
    stmt = (
        select(Element)
        .where(
            Element.query_id == query_id,
            Element.layer == LAYER_ANNOTATOR,
            Element.annotator == annotator,
        )
        .order_by(col(Element.document_id), col(Element.start))
    )
    return list(session.exec(stmt).all())


def done_mark(session: Session, query_id: int, annotator: str) -> QuestionDone | None:
    """``annotator``'s done mark on question ``query_id``, or None."""
    return session.exec(
        select(QuestionDone).where(
            QuestionDone.query_id == query_id, QuestionDone.annotator == annotator
        )
    ).first()


def mark_done(session: Session, query_id: int, annotator: str) -> QuestionDone:
    """Mark question ``query_id`` done by ``annotator`` (audited ``add`` of a
    ``question_done`` row, undoable); ``no_answer`` when they labelled nothing on it.

    :class:`IntegrityError` when it is marked done by them already or the question is
    adjudicated (:func:`labeler.store.settled.check_not_settled`). The gold set becomes a
    team gold set (a done mark is team work).
    """
    query = _query(session, query_id)
    check_not_settled(session, query_id, f"done mark by {annotator}")
    if done_mark(session, query_id, annotator) is not None:
        raise IntegrityError(f"{query.external_id} is already marked done by {annotator}")
    gold_set = session.get(GoldSet, query.gold_set_id)
    assert gold_set is not None
    make_team(session, gold_set)
    row = QuestionDone(
        query_id=query_id,
        annotator=annotator,
        no_answer=not own_elements(session, query_id, annotator),
    )
    add_audited(session, row, actor=annotator, entity="question_done")
    return row


def unmark_done(session: Session, query_id: int, annotator: str) -> bool:
    """Remove ``annotator``'s done mark on question ``query_id`` (audited); False when there
    was none. Refused on an adjudicated question (its done marks are evidence)."""
    row = done_mark(session, query_id, annotator)
    if row is None:
        return False
    check_not_settled(session, query_id, f"removing the done mark by {annotator}")
    remove_audited(session, row, actor=annotator, entity="question_done")
    return True


def set_adjudicated(session: Session, query_id: int, *, by: str, adjudicated: bool = True) -> Query:
    """Mark question ``query_id`` adjudicated by ``by`` (or, with ``adjudicated=False``,
    reopen it, ``by`` the one reopening: :func:`reopen_settled` checks it first): audited
    as a ``change`` of the question, undoable by ``by``.

    Adjudicated with no final element means "no answer on these pages". Settling a
    question that is settled already (by another process meanwhile, or twice) is refused
    with :class:`~labeler.store.settled.SettledError` naming who settled it and when: it
    would silently replace that adjudicator's name and time.
    """
    query = _query(session, query_id)
    if adjudicated and query.adjudicated_at is not None:
        raise SettledError(
            f"{query.external_id} is settled already (settled by "
            f"{query.adjudicated_by or 'the adjudicator'} {query.adjudicated_at:%Y-%m-%d %H:%M}"
            " UTC): nothing to settle"
        )
    before = snapshot(query)
    query.adjudicated_at = utcnow() if adjudicated else None
    query.adjudicated_by = by if adjudicated else None
    session.add(query)
    session.flush()
    record_change(
        session,
        actor=by,
        action="change",
        entity="query",
        entity_id=query_id,
        before=before,
        after=snapshot(query),
    )
    session.flush()
    return query


@dataclass(frozen=True)
class Reopened:
    """A question reopened: who had settled it and when (what undo of the reopen puts back)."""

    query_id: int
    external_id: str
    settled_by: str | None
    settled_at: datetime | None


def reopen_settled(
    session: Session, gold_set: str, external_ids: Sequence[str], *, actor: str
) -> list[Reopened]:
    """Reopen the settled questions ``external_ids`` of gold set ``gold_set``: each becomes
    pending again (not adjudicated: left out of scores, back in the adjudication queue when
    two or more annotators marked it done) with its final layer, done marks and annotator
    labels kept, so the adjudicator can change them and settle it again.

    One audited ``change`` of the question per id, under ``actor``; its snapshot holds who
    settled it and when, so undo settles it again with the same ``adjudicated_by`` and
    ``adjudicated_at`` and redo reopens it again. All or nothing: an id that is not a
    question of the set, or a question that is not settled, is refused
    (:class:`NotFoundError` / :class:`IntegrityError`, naming every such id) before
    anything is written. An id given twice is reopened once. Returns the reopened
    questions in the order given.
    """
    gs = get_gold_set(session, gold_set)
    wanted = list(dict.fromkeys(external_ids))
    if not wanted:
        raise IntegrityError("name at least one question to reopen")
    found = {
        q.external_id: q
        for q in session.exec(
            select(Query).where(Query.gold_set_id == gs.id, col(Query.external_id).in_(wanted))
        ).all()
    }
    unknown = [x for x in wanted if x not in found]
    if unknown:
        raise NotFoundError(
            f"cannot reopen: no question {', '.join(repr(x) for x in unknown)} in gold set "
            f"{gold_set!r}; nothing reopened"
        )
    open_ = [x for x in wanted if found[x].adjudicated_at is None]
    if open_:
        raise IntegrityError(
            f"cannot reopen {', '.join(open_)}: not settled (not adjudicated, nothing to "
            "reopen); nothing reopened"
        )
    out: list[Reopened] = []
    for external_id in wanted:
        query = found[external_id]
        assert query.id is not None
        out.append(Reopened(query.id, external_id, query.adjudicated_by, query.adjudicated_at))
        set_adjudicated(session, query.id, by=actor, adjudicated=False)
    return out


def accept_span(
    session: Session,
    query_id: int,
    document_id: str,
    start: int,
    end: int,
    *,
    provenance: str,
    actor: str,
    grade: int = 1,
    key: tuple[int, int] | None = None,
) -> Element:
    """Put ``page[start:end]`` into question ``query_id``'s final layer with ``provenance``
    (``unanimous``, ``majority``, ``adjudicated``; the element's annotator is ``actor``) and
    key span ``key`` (page offsets inside the span; callers copying an annotator's span pass
    :attr:`labeler.store.adjudication.SpanGroup.key`, so the annotators' key clause is kept).

    Audited ``add`` like any label (the snapshot holds the key, so undo and redo bring it
    back with the element); a span already final is refused (:class:`IntegrityError`).
    """
    if provenance not in PROVENANCES:
        raise IntegrityError(f"unknown provenance {provenance!r} ({', '.join(PROVENANCES)})")
    return add_element(
        session,
        query_id,
        document_id,
        start,
        end,
        annotator=actor,
        grade=grade,
        layer=LAYER_FINAL,
        provenance=provenance,
        key=key,
    )


def assignments(session: Session, gold_set_id: int) -> dict[int, list[str]]:
    """Question id → its annotators (in assignment order) for gold set ``gold_set_id``."""
    rows = session.exec(
        select(Assignment.query_id, Assignment.annotator)
        .join(Query, col(Query.id) == col(Assignment.query_id))
        .where(Query.gold_set_id == gold_set_id)
        .order_by(col(Assignment.id))
    ).all()
    out: dict[int, list[str]] = {}
    for query_id, annotator in rows:
        out.setdefault(query_id, []).append(annotator)
    return out


def done_marks(session: Session, gold_set_id: int) -> dict[int, dict[str, QuestionDone]]:
    """Question id → annotator → done mark, for gold set ``gold_set_id``."""
    rows = session.exec(
        select(QuestionDone)
        .join(Query, col(Query.id) == col(QuestionDone.query_id))
        .where(Query.gold_set_id == gold_set_id)
        .order_by(col(QuestionDone.id))
    ).all()
    out: dict[int, dict[str, QuestionDone]] = {}
    for row in rows:
        out.setdefault(row.query_id, {})[row.annotator] = row
    return out


def layer_elements(session: Session, gold_set_id: int) -> dict[int, dict[str, list[Element]]]:
    """Question id → annotator → their annotator-layer elements (by page, start), for every
    question of gold set ``gold_set_id`` that has any."""
    rows = session.exec(
        select(Element)
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(Query.gold_set_id == gold_set_id, Element.layer == LAYER_ANNOTATOR)
        .order_by(col(Element.query_id), col(Element.document_id), col(Element.start))
    ).all()
    out: dict[int, dict[str, list[Element]]] = {}
    for element in rows:
        out.setdefault(element.query_id, {}).setdefault(element.annotator, []).append(element)
    return out
