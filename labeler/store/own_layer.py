"""What an annotator writes while labelling a team gold set: into their own layer, done marks.

The reads these checks rely on are :mod:`labeler.store.blind`'s (one visibility rule). An
attach goes into the layer the annotator labels (:func:`attach_visible`: their own in a team
gold set, checked for duplicates among their own labels); a question adjudicated already
refuses every change of its evidence (:mod:`labeler.store.settled`, checked by the write
verbs themselves). Done marks: :func:`toggle_done`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.annotate import ElementRow, element_row
from labeler.store.audit import missing_element
from labeler.store.blind import question_views
from labeler.store.labels import add_element
from labeler.store.models import AuditEntry, Element, Query
from labeler.store.settled import check_not_settled
from labeler.store.team import (
    done_mark,
    mark_done,
    unmark_done,
    view_of,
    visible_elements,
)

#: the key that opens the adjudication screen, named in refusals
ADJUDICATION_KEY = "F5"


def settled_message(external_id: str) -> str:
    """What a refused plain edit of an adjudicated question says: where it can be changed
    (the adjudication screen lists settled questions after ``s``; ``r`` reopens one)."""
    return (
        f"{external_id} is adjudicated: its final layer is settled; to change it, a lead "
        f"reopens it in the adjudication screen ({ADJUDICATION_KEY}: s lists settled "
        "questions, r reopens one)"
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
    # the adjudicated lock is add_element's (labeler.store.settled), as for every writer
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
        raise missing_element(session, element_id)
    # Settled first: an annotator whose screen still shows their own label on a question
    # settled meanwhile (their layer hidden since) learns that and who settled it, not that
    # the label is gone; everyone sees a settled question's state anyway.
    check_not_settled(session, element.query_id, "a plain edit")
    view = question_views(session, [element.query_id]).get(element.query_id)
    if view is None or not view.sees(element.layer, element.annotator, annotator):
        raise NotFoundError(f"no element with id {element_id} in the database")


@dataclass(frozen=True)
class DoneChange:
    """What :func:`toggle_done` did: ``marked`` (True: now done; False: mark removed),
    ``no_answer`` (done with no element of their own) and ``elements`` (their count)."""

    external_id: str
    marked: bool
    no_answer: bool
    elements: int


def toggle_done(
    session: Session, query_id: int, annotator: str, *, expect_done: bool | None = None
) -> DoneChange:
    """Mark question ``query_id`` done by ``annotator``, or remove their mark when it is
    done already (each an audited, undoable change of ``question_done``).

    Only in a team gold set (a done mark in a gold set without team work would turn it
    into one: assign questions first) and before the question is adjudicated (the lock
    of :func:`labeler.store.team.mark_done` and ``unmark_done``).

    ``expect_done`` (None: no check) is the state the caller showed: when the mark was
    flipped meanwhile (another window, ``gold done``), :class:`IntegrityError` says so and
    who flipped it (:func:`flipped_words`) instead of flipping it back.
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
    own = len(visible_elements(session, query_id, annotator))
    is_done = done_mark(session, query_id, annotator) is not None
    if expect_done is not None and is_done != expect_done:
        raise IntegrityError(flipped_words(session, query, annotator, is_done))
    if is_done:
        unmark_done(session, query_id, annotator)
        return DoneChange(query.external_id, False, own == 0, own)
    row = mark_done(session, query_id, annotator)
    return DoneChange(query.external_id, True, row.no_answer, own)


def flipped_words(session: Session, query: Query, annotator: str, is_done: bool) -> str:
    """``q1 was marked done by ana meanwhile (by ana); nothing changed (...)``:
    the refusal of a done-mark flip whose mark changed underneath, naming who changed it
    (the newest audit entry of the question's done marks)."""
    entries = session.exec(
        select(AuditEntry)
        .where(AuditEntry.entity == "question_done")
        .order_by(col(AuditEntry.id).desc())
        .limit(200)  # the flip is recent: among the newest done-mark entries
    )
    who = ""
    for entry in entries:
        data = entry.after or entry.before or {}
        if data.get("query_id") == query.id and data.get("annotator") == annotator:
            who = f" (by {entry.actor})"
            break
    if is_done:
        return (
            f"{query.external_id} was marked done by {annotator} meanwhile{who}; nothing "
            "changed (press D again to remove the mark)"
        )
    return (
        f"{query.external_id}: the done mark of {annotator} was removed meanwhile{who}; "
        "nothing changed (press D again to mark it done)"
    )
