"""Gold sets, questions and expected elements: the labels themselves.

All functions take an open :class:`~sqlmodel.Session` (use ``Store.write()`` for the ones
that change something), flush their changes so ids are assigned, and leave the commit to the
caller. Additions and removals of queries and elements are audited in the same flush.
"""

from __future__ import annotations

from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError, not_found
from labeler.store.audit import add_audited, missing_element, remove_audited
from labeler.store.browse import gold_set_names
from labeler.store.document_table import get_document
from labeler.store.models import (
    ELEMENT_STALE,
    LAYER_ANNOTATOR,
    LAYER_FINAL,
    PROVENANCE_OWN,
    PROVENANCE_SINGLE,
    Document,
    Element,
    GoldSet,
    Query,
)
from labeler.store.settled import check_not_settled
from labeler.store.validation import check_element_fields, check_element_span


def create_gold_set(session: Session, name: str, description: str = "") -> GoldSet:
    """A new gold set; :class:`IntegrityError` when ``name`` is empty or already taken."""
    if not name.strip():
        raise IntegrityError("a gold set needs a non-empty name")
    if session.exec(select(GoldSet.id).where(GoldSet.name == name)).first() is not None:
        raise IntegrityError(f"gold set {name!r} already exists")
    gold_set = GoldSet(name=name, description=description)
    session.add(gold_set)
    session.flush()
    return gold_set


def get_gold_set(session: Session, name: str) -> GoldSet:
    """The gold set ``name``; :class:`NotFoundError` naming the sets there are when absent."""
    gold_set = session.exec(select(GoldSet).where(GoldSet.name == name)).first()
    if gold_set is None:
        raise not_found("gold set", name, gold_set_names(session))
    return gold_set


def add_query(
    session: Session,
    gold_set: GoldSet,
    external_id: str,
    text: str,
    *,
    actor: str,
    notes: str = "",
) -> Query:
    """A new question in ``gold_set``; :class:`IntegrityError` when the id is taken or empty."""
    if not external_id.strip():
        raise IntegrityError("a question needs a non-empty id")
    taken = session.exec(
        select(Query.id).where(Query.gold_set_id == gold_set.id, Query.external_id == external_id)
    ).first()
    if taken is not None:
        raise IntegrityError(f"question {external_id!r} already exists in {gold_set.name!r}")
    assert gold_set.id is not None, "gold set must be flushed first"
    query = Query(gold_set_id=gold_set.id, external_id=external_id, text=text, notes=notes)
    add_audited(session, query, actor=actor, entity="query")
    return query


def get_query(session: Session, gold_set: GoldSet, external_id: str) -> Query:
    """Question ``external_id`` of ``gold_set``; :class:`NotFoundError` when absent."""
    query = session.exec(
        select(Query).where(Query.gold_set_id == gold_set.id, Query.external_id == external_id)
    ).first()
    if query is None:
        raise NotFoundError(f"no question {external_id!r} in gold set {gold_set.name!r}")
    return query


def add_element(
    session: Session,
    query: Query | int,
    document: Document | str,
    start: int,
    end: int,
    *,
    annotator: str,
    grade: int = 1,
    assisted: bool = False,
    layer: str = LAYER_FINAL,
    provenance: str = PROVENANCE_SINGLE,
    key: tuple[int, int] | None = None,
) -> Element:
    """Label ``document.text[start:end]`` as an expected element of ``query``.

    The element text is taken from the page, so it is right by construction; offsets out of
    range (``0 <= start < end <= len(text)`` fails), a grade below 1, or an unknown query or
    document raise :class:`IntegrityError` / :class:`NotFoundError`. Audited as ``add``.
    ``assisted`` records that the annotator had retrieval results on screen (assist mode).
    ``layer``: ``final`` (with a ``provenance``) or ``annotator`` (the annotator's own label
    in a team gold set; ``provenance`` is then ignored and stored as ``own``). ``key``: the
    element's key span in page offsets (``start <= s < e <= end``; checked). An adjudicated
    question refuses it (:func:`labeler.store.settled.check_not_settled`).
    """
    doc = get_document(session, document) if isinstance(document, str) else document
    query_id = query if isinstance(query, int) else query.id
    question = None if query_id is None else session.get(Query, query_id)
    if query_id is None or question is None:
        raise NotFoundError(f"no question with id {query_id!r} in the database")
    check_not_settled(session, query_id, "attach")
    if layer == LAYER_ANNOTATOR:
        provenance = PROVENANCE_OWN
        # An annotator's own label is team work: the gold set is a team gold set from now on.
        gold_set = session.get(GoldSet, question.gold_set_id)
        if gold_set is not None and not gold_set.team:
            gold_set.team = True
            session.add(gold_set)
    check_not_duplicate(session, question, doc.id, start, end, layer=layer, annotator=annotator)
    in_range = isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(doc.text)
    element = Element(
        query_id=query_id,
        document_id=doc.id,
        start=start,
        end=end,
        text=doc.text[start:end] if in_range else "",
        grade=grade,
        annotator=annotator,
        assisted=assisted,
        layer=layer,
        provenance=provenance,
        key_start=None if key is None else key[0],
        key_end=None if key is None else key[1],
    )
    check_element_fields(element)
    check_element_span(doc.text, element)
    add_audited(session, element, actor=annotator, entity="element")
    return element


def duplicate_message(external_id: str, document_id: str, start: int, end: int) -> str:
    """What a refused duplicate says, e.g. ``q1 already has wal.html 120–162``."""
    return f"{external_id} already has {document_id} {start}–{end}"


def check_not_duplicate(
    session: Session,
    question: Query,
    document_id: str,
    start: int,
    end: int,
    *,
    layer: str = LAYER_FINAL,
    annotator: str | None = None,
) -> None:
    """:class:`IntegrityError` when ``question`` already has this exact span of the page in
    ``layer`` (in the annotator layer: among ``annotator``'s own labels).

    The unique indexes ``uq_element_final_span`` and ``uq_element_layer_span`` (schema
    version 7) refuse it for every writer; this check only gives the refusal a readable
    message.
    """
    stmt = select(Element.status).where(
        Element.query_id == question.id,
        Element.document_id == document_id,
        Element.start == start,
        Element.end == end,
        Element.layer == layer,
    )
    if layer == LAYER_ANNOTATOR:
        stmt = stmt.where(Element.annotator == annotator)
    same = session.exec(stmt).first()
    if same is not None:
        message = duplicate_message(question.external_id, document_id, start, end)
        if same == ELEMENT_STALE:
            message += " (stale: its page changed; remove that element first, x in the TUI)"
        raise IntegrityError(message)


def overlapping_elements(
    session: Session,
    query_id: int,
    document_id: str,
    start: int,
    end: int,
    *,
    layer: str = LAYER_FINAL,
    annotator: str | None = None,
) -> list[Element]:
    """The elements of ``query_id`` in ``layer`` (the annotator layer: ``annotator``'s own)
    on the page that overlap ``[start, end)`` without being that exact span, ordered by
    start (what an annotator is asked to confirm)."""
    stmt = (
        select(Element)
        .where(
            Element.query_id == query_id,
            Element.document_id == document_id,
            Element.start < end,
            Element.end > start,
            Element.layer == layer,
        )
        .order_by(col(Element.start), col(Element.id))
    )
    if layer == LAYER_ANNOTATOR:
        stmt = stmt.where(Element.annotator == annotator)
    return [e for e in session.exec(stmt).all() if (e.start, e.end) != (start, end)]


def remove_element(session: Session, element_id: int, *, actor: str) -> None:
    """Delete one element (audited as ``remove`` with its full snapshot); refused on an
    adjudicated question (:func:`labeler.store.settled.check_not_settled`)."""
    element = session.get(Element, element_id)
    if element is None:
        raise missing_element(session, element_id)
    check_not_settled(session, element.query_id, "remove")
    remove_audited(session, element, actor=actor, entity="element")


def list_elements(
    session: Session,
    *,
    document_id: str | None = None,
    query_id: int | None = None,
    status: str | None = None,
) -> list[Element]:
    """Elements, ordered by id, optionally only of one page, one question, one status."""
    stmt = select(Element)
    if document_id is not None:
        stmt = stmt.where(Element.document_id == document_id)
    if query_id is not None:
        stmt = stmt.where(Element.query_id == query_id)
    if status is not None:
        stmt = stmt.where(Element.status == status)
    return list(session.exec(stmt.order_by(col(Element.id))).all())
