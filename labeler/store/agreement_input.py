"""Read what each annotator chose on the questions of a team gold set, for agreement.

Only questions some annotator marked done count, and on each question only the annotators
who marked it done (done with nothing: an empty set, "no answer on these pages"). Their
annotator-layer elements are read with their page's length (characters, as Python counts
them: SQLite's ``length`` and PostgreSQL's ``char_length`` count code points). Stale labels
(their page changed under them) are left out and counted: their offsets refer to a text that
is gone.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from labeler.store.labels import get_gold_set
from labeler.store.models import (
    ELEMENT_OK,
    LAYER_ANNOTATOR,
    Document,
    Element,
    GoldSet,
    Query,
    QuestionDone,
)
from scoring.agreement import Span


@dataclass(frozen=True)
class DoneLabels:
    """Per question id (external), per annotator who marked it done, their spans
    ``(page, start, end)``; each cited page's length; how many stale labels were left out."""

    questions: dict[str, dict[str, frozenset[Span]]]
    page_lengths: dict[str, int]
    stale_left_out: int


def done_labels(session: Session, gold_set_name: str) -> DoneLabels:
    """The done annotators' labels of gold set ``gold_set_name`` (see the module docstring);
    :class:`~labeler.errors.NotFoundError` naming the known sets for an unknown name."""
    return done_labels_of(session, get_gold_set(session, gold_set_name))


def done_labels_of(session: Session, gold_set: GoldSet) -> DoneLabels:
    """:func:`done_labels` of a gold set already read."""
    marks = session.execute(
        sa_select(col(Query.id), col(Query.external_id), col(QuestionDone.annotator))
        .join(QuestionDone, col(QuestionDone.query_id) == col(Query.id))
        .where(col(Query.gold_set_id) == gold_set.id)
        .order_by(col(Query.id), col(QuestionDone.annotator))
    ).all()
    spans: dict[int, dict[str, set[Span]]] = {}
    names: dict[int, str] = {}
    for query_id, external_id, annotator in marks:
        names[query_id] = external_id
        spans.setdefault(query_id, {})[annotator] = set()
    rows = session.execute(
        sa_select(
            col(Element.query_id),
            col(Element.annotator),
            col(Element.document_id),
            col(Element.start),
            col(Element.end),
            col(Element.status),
        )
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(col(Query.gold_set_id) == gold_set.id, col(Element.layer) == LAYER_ANNOTATOR)
    ).all()
    stale = 0
    pages: set[str] = set()
    for query_id, annotator, page, start, end, status in rows:
        chosen = spans.get(query_id, {}).get(annotator)
        if chosen is None:
            continue  # not marked done by this annotator: not counted yet
        if status != ELEMENT_OK:
            stale += 1
            continue
        chosen.add(Span(page, start, end))
        pages.add(page)
    lengths: dict[str, int] = {}
    if pages:
        lengths = {
            doc_id: int(length)
            for doc_id, length in session.execute(
                sa_select(col(Document.id), func.char_length(col(Document.text))).where(
                    col(Document.id).in_(sorted(pages))
                )
            ).all()
        }
    return DoneLabels(
        {
            names[qid]: {who: frozenset(found) for who, found in by.items()}
            for qid, by in spans.items()
        },
        lengths,
        stale,
    )
