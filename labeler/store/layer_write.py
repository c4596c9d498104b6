"""Writing one annotator's own labels on one question (``gold import --layer``).

The annotator's earlier annotator-layer elements on the question are removed and the new
ones added, each audited under the annotator (so undo and the audit log work as for
labelling); the question is then marked done by them (``no_answer`` when they labelled
nothing) or, when the file says it is not done, left without their done mark. On an
adjudicated question that is refused (:class:`labeler.store.settled.SettledError`) unless
it would change nothing (the same labels, grades, keys and done mark as stored).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session, select

from labeler.store.labels import add_element, add_query, remove_element
from labeler.store.models import LAYER_ANNOTATOR, Element, GoldSet, Query
from labeler.store.settled import check_not_settled
from labeler.store.team import done_mark, make_team, mark_done, own_elements, unmark_done


@dataclass(frozen=True)
class OwnSpan:
    """One of the annotator's labels: ``page[start:end] == text`` was checked by the caller."""

    doc: str
    start: int
    end: int
    grade: int
    assisted: bool
    #: key span in page offsets, or None
    key: tuple[int, int] | None = None


@dataclass(frozen=True)
class LayerWrite:
    """What writing one question did: whether the question was created, how many of the
    annotator's elements were removed and added, and whether it is marked done."""

    created: bool
    removed: int
    added: int
    done: bool


def team_gold_set(session: Session, name: str, description: str = "") -> tuple[GoldSet, bool]:
    """Gold set ``name``, created when missing, made a team gold set; True when created."""
    gs = session.exec(select(GoldSet).where(GoldSet.name == name)).first()
    created = gs is None
    if gs is None:
        from labeler.store.labels import create_gold_set

        gs = create_gold_set(session, name, description)
    make_team(session, gs)
    return gs, created


def write_own_labels(
    session: Session,
    gold_set: GoldSet,
    external_id: str,
    spans: Sequence[OwnSpan],
    *,
    annotator: str,
    done: bool,
    text: str = "",
    notes: str = "",
) -> LayerWrite:
    """Replace ``annotator``'s own labels on question ``external_id`` of ``gold_set`` (created
    with ``text`` and ``notes`` when missing) by ``spans``, and set their done mark to
    ``done`` (see the module docstring). Raises what the store raises (an unknown page, a
    span twice) with nothing of this question written... within the caller's transaction,
    which the caller then rolls back."""
    query = session.exec(
        select(Query).where(Query.gold_set_id == gold_set.id, Query.external_id == external_id)
    ).first()
    created = query is None
    if query is None:
        query = add_query(session, gold_set, external_id, text, actor=annotator, notes=notes)
    assert query.id is not None
    old = own_elements(session, query.id, annotator)
    if query.adjudicated_at is not None:
        # Settled: the same labels and done mark again change nothing and pass; anything
        # else would change the evidence it was settled on (the lock refuses it).
        same = sorted((e.document_id, e.start, e.end, e.grade, _key(e)) for e in old) == sorted(
            (s.doc, s.start, s.end, s.grade, s.key) for s in spans
        )
        if same and (done_mark(session, query.id, annotator) is not None) == done:
            return LayerWrite(False, 0, 0, done)
        check_not_settled(session, query.id, f"gold import --layer of {annotator}'s labels")
    for element in old:
        assert element.id is not None
        remove_element(session, element.id, actor=annotator)
    for span in spans:
        add_element(
            session,
            query.id,
            span.doc,
            span.start,
            span.end,
            annotator=annotator,
            grade=span.grade,
            assisted=span.assisted,
            layer=LAYER_ANNOTATOR,
            key=span.key,
        )
    unmark_done(session, query.id, annotator)
    if done:
        mark_done(session, query.id, annotator)
    return LayerWrite(created, len(old), len(spans), done)


def _key(element: Element) -> tuple[int, int] | None:
    if element.key_start is None or element.key_end is None:
        return None
    return (element.key_start, element.key_end)
