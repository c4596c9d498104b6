"""Pages: look them up, list them, and add or replace them with change detection.

:func:`upsert_document` is the one write path for page text. When a page's text changes,
every ``ok`` element that no longer equals ``new_text[start:end]`` is marked ``stale`` (and
audited) *before* the text is replaced, in the same transaction; elements are never dropped
and their offsets and text are never rewritten here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.reanchor import relocate
from labeler.store.audit import record_change, snapshot
from labeler.store.models import (
    ELEMENT_OK,
    ELEMENT_STALE,
    Document,
    Element,
    GoldSet,
    Query,
    utcnow,
)
from labeler.store.validation import span_problem

UpsertOutcome = Literal["added", "updated", "unchanged"]


@dataclass(frozen=True)
class DocumentSummary:
    """A page without its text (cheap to list)."""

    id: str
    source_path: str
    sha256: str
    profile: str
    ingested_at: datetime


@dataclass(frozen=True)
class Fingerprint:
    """What decides whether a file must be extracted again."""

    sha256: str
    profile: str


@dataclass(frozen=True)
class StaleElement:
    """An element that no longer matches its page after the page changed."""

    element_id: int
    document_id: str
    gold_set: str
    query_external_id: str
    start: int
    end: int
    text: str
    reason: str

    def __str__(self) -> str:
        shown = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        return (
            f"{self.document_id} [{self.start}:{self.end}] {self.gold_set}/"
            f"{self.query_external_id}: {shown!r} ({self.reason})"
        )


@dataclass(frozen=True)
class MovedElement:
    """An element re-anchored to new offsets after its page changed (same text)."""

    element_id: int
    document_id: str
    gold_set: str
    query_external_id: str
    old_start: int
    old_end: int
    start: int
    end: int
    text: str

    def __str__(self) -> str:
        shown = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        return (
            f"{self.document_id} [{self.old_start}:{self.old_end}] → [{self.start}:{self.end}] "
            f"{self.gold_set}/{self.query_external_id}: {shown!r}"
        )


@dataclass(frozen=True)
class UpsertResult:
    """What :func:`upsert_document` did, and which elements it moved or marked stale."""

    doc_id: str
    outcome: UpsertOutcome
    stale: tuple[StaleElement, ...] = ()
    moved: tuple[MovedElement, ...] = ()


def find_document(session: Session, doc_id: str) -> Document | None:
    """The page ``doc_id``, or None."""
    return session.get(Document, doc_id)


def get_document(session: Session, doc_id: str) -> Document:
    """The page ``doc_id``; :class:`NotFoundError` when it was never ingested."""
    doc = session.get(Document, doc_id)
    if doc is None:
        raise NotFoundError(f"no document {doc_id!r} in the database")
    return doc


def document_fingerprint(session: Session, doc_id: str) -> Fingerprint | None:
    """sha256 and profile of ``doc_id`` without loading its text; None when absent."""
    row = session.exec(
        select(Document.sha256, Document.profile).where(Document.id == doc_id)
    ).one_or_none()
    return None if row is None else Fingerprint(row[0], row[1])


def list_documents(session: Session) -> list[DocumentSummary]:
    """Every page, ordered by id, without text."""
    # SQLModel types Document.text as str; at runtime it is the mapped attribute defer wants.
    skip_text = defer(Document.text)  # type: ignore[arg-type]
    docs = session.exec(select(Document).options(skip_text).order_by(col(Document.id))).all()
    return [DocumentSummary(d.id, d.source_path, d.sha256, d.profile, d.ingested_at) for d in docs]


@dataclass
class _Reanchored:
    stale: list[StaleElement]
    moved: list[tuple[Element, MovedElement, dict[str, object]]]


def _reanchor(session: Session, doc_id: str, old: str, new: str, actor: str) -> _Reanchored:
    """Relocate every ok element of ``doc_id`` from page text ``old`` to ``new``.

    Stale elements are marked and audited here. Elements to move are only *parked* (status
    stale, not audited) so that the page text can be replaced; :func:`_place_moved` puts
    them at their new offsets afterwards.
    """
    rows = session.exec(
        select(Element, Query.external_id, GoldSet.name)
        .join(Query, col(Query.id) == col(Element.query_id))
        .join(GoldSet, col(GoldSet.id) == col(Query.gold_set_id))
        .where(Element.document_id == doc_id, Element.status == ELEMENT_OK)
        .order_by(col(Element.id))
    ).all()
    done = _Reanchored([], [])
    for element, external_id, gold_set in rows:
        assert element.id is not None  # loaded from the database
        where = None
        if old[element.start : element.end] == element.text:
            where = relocate(old, new, element.start, element.end)
            if where.outcome == "kept":
                continue
            problem = where.reason
        else:  # not at its offsets even in the old text: judge by the new text alone
            problem = span_problem(new, element.start, element.end, element.text) or ""
            if not problem:
                continue
        before = snapshot(element)
        element.status = ELEMENT_STALE
        session.add(element)
        if (
            where is not None
            and where.outcome == "moved"
            and where.start is not None
            and where.end is not None
        ):
            moved = MovedElement(
                element_id=element.id,
                document_id=doc_id,
                gold_set=gold_set,
                query_external_id=external_id,
                old_start=element.start,
                old_end=element.end,
                start=where.start,
                end=where.end,
                text=element.text,
            )
            done.moved.append((element, moved, before))
            continue
        record_change(
            session,
            actor=actor,
            action="change",
            entity="element",
            entity_id=element.id,
            before=before,
            after=snapshot(element),
        )
        done.stale.append(
            StaleElement(
                element_id=element.id,
                document_id=doc_id,
                gold_set=gold_set,
                query_external_id=external_id,
                start=element.start,
                end=element.end,
                text=element.text,
                reason=problem,
            )
        )
    return done


def _place_moved(
    session: Session, moves: list[tuple[Element, MovedElement, dict[str, object]]], actor: str
) -> None:
    """Give parked elements their new offsets and status ok, one audited change each."""
    for element, moved, before in moves:
        element.start = moved.start
        element.end = moved.end
        element.status = ELEMENT_OK
        session.add(element)
        record_change(
            session,
            actor=actor,
            action="change",
            entity="element",
            entity_id=moved.element_id,
            before=before,
            after=snapshot(element),
        )
    session.flush()


def _storable(value: str) -> bool:
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def upsert_document(
    session: Session,
    *,
    doc_id: str,
    source_path: str,
    sha256: str,
    profile: str,
    text: str,
    actor: str = "ingest",
) -> UpsertResult:
    """Add page ``doc_id`` or bring it up to date; flushes, the caller commits.

    * absent → ``added``;
    * same sha256, profile and text → ``unchanged``, nothing is written at all (a different
      ``source_path`` alone is not a change);
    * otherwise → ``updated``: text, sha256, profile, source path and time are replaced, and
      when the text changed its ok elements are re-anchored (module docstring): those moved
      are returned in ``moved``, those marked stale in ``stale``, each audited under
      ``actor``.

    Raises :class:`IntegrityError` when ``doc_id`` or ``text`` cannot be stored as UTF-8.
    """
    for name, value in (("document id", doc_id), ("page text", text)):
        if not _storable(value):
            raise IntegrityError(f"{doc_id!r}: {name} holds unpaired surrogates (not UTF-8)")
    existing = session.get(Document, doc_id)
    if existing is None:
        session.add(
            Document(id=doc_id, source_path=source_path, sha256=sha256, profile=profile, text=text)
        )
        session.flush()
        return UpsertResult(doc_id, "added")
    if existing.sha256 == sha256 and existing.profile == profile and existing.text == text:
        return UpsertResult(doc_id, "unchanged")
    changes = _Reanchored([], [])
    if existing.text != text:
        changes = _reanchor(session, doc_id, existing.text, text, actor)
    session.flush()  # stale marks first: the document trigger checks the remaining ok ones
    existing.text = text
    existing.sha256 = sha256
    existing.profile = profile
    existing.source_path = source_path
    existing.ingested_at = utcnow()
    session.add(existing)
    session.flush()
    _place_moved(session, changes.moved, actor)
    return UpsertResult(
        doc_id, "updated", tuple(changes.stale), tuple(moved for _, moved, _ in changes.moved)
    )
