"""Pages: look them up, list them, and add or replace them with change detection.

:func:`upsert_document` is the one write path for page text. When a page's text changes,
every element of the page is checked again, in the same transaction and audited
(:mod:`labeler.store.recheck`): ok ones are kept, moved or marked stale, stale ones whose
exact text is back at their offsets become ok again.

Elements are never dropped. A page is never replaced by another file's content without
being asked: an update whose bytes come from a different source file than the stored one
raises :class:`SourceConflict` unless ``replace_source`` is given.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.models import Document, utcnow
from labeler.store.pageblocks import encode_blocks
from labeler.store.recheck import (
    MovedElement,
    Recheck,
    RestoredElement,
    StaleElement,
    apply_recheck,
    recheck,
)

__all__ = [  # the element records are defined in labeler.store.recheck; named here too
    "DocumentSummary",
    "Fingerprint",
    "MovedElement",
    "RestoredElement",
    "SourceConflict",
    "StaleElement",
    "UpsertOutcome",
    "UpsertResult",
    "document_fingerprint",
    "find_document",
    "get_document",
    "list_documents",
    "same_source",
    "upsert_document",
]

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
    """What decides whether a file must be extracted again, and where it last came from."""

    sha256: str
    profile: str
    source_path: str
    has_blocks: bool = True  # block starts stored (see labeler.store.pageblocks)


class SourceConflict(IntegrityError):
    """An update would replace a page with the content of another source file."""

    def __init__(self, doc_id: str, stored: str, offered: str) -> None:
        self.doc_id = doc_id
        self.stored = stored
        self.offered = offered
        super().__init__(
            f"document id {doc_id!r} is already stored from another file, {stored}; not "
            "replaced. If this file is now that page's source (e.g. the corpus folder moved), "
            "ingest it again with --replace-source"
        )


def same_source(stored: str, offered: str) -> bool:
    """True when two source paths name the same file: equal, or equal once symbolic links
    and ``..`` are resolved (a path that no longer exists is compared as written)."""
    return stored == offered or os.path.realpath(stored) == os.path.realpath(offered)


@dataclass(frozen=True)
class UpsertResult:
    """What :func:`upsert_document` did, and which elements it moved, marked stale or
    restored (stale → ok); ``blocks_written``: an ``unchanged`` page got new block starts."""

    doc_id: str
    outcome: UpsertOutcome
    stale: tuple[StaleElement, ...] = ()
    moved: tuple[MovedElement, ...] = ()
    restored: tuple[RestoredElement, ...] = ()
    blocks_written: bool = False


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
    """sha256, profile, source path and whether block starts are stored, for ``doc_id``,
    without loading its text; None when absent."""
    row = session.exec(
        select(
            Document.sha256,
            Document.profile,
            Document.source_path,
            col(Document.blocks).is_not(None),
        ).where(Document.id == doc_id)
    ).one_or_none()
    return None if row is None else Fingerprint(row[0], row[1], row[2], bool(row[3]))


def list_documents(session: Session) -> list[DocumentSummary]:
    """Every page, ordered by id, without text."""
    # SQLModel types Document.text as str; at runtime it is the mapped attribute defer wants.
    skip_text = defer(Document.text)  # type: ignore[arg-type]
    skip_blocks = defer(Document.blocks)  # type: ignore[arg-type]
    docs = session.exec(
        select(Document).options(skip_text, skip_blocks).order_by(col(Document.id))
    ).all()
    return [DocumentSummary(d.id, d.source_path, d.sha256, d.profile, d.ingested_at) for d in docs]


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
    replace_source: bool = False,
    blocks: Sequence[int] | None = None,
) -> UpsertResult:
    """Add page ``doc_id`` or bring it up to date; flushes, the caller commits.

    * absent → ``added``;
    * stored from another source file (:func:`same_source` says no) with other bytes
      (sha256) → :class:`SourceConflict`, nothing written, unless ``replace_source``;
    * same sha256, profile and text → ``unchanged``, nothing is written at all (a different
      ``source_path`` alone is not a change, except with ``replace_source``, which records
      the new path: ``updated``);
    * otherwise → ``updated``: text, sha256, profile, source path and time are replaced, and
      when the text changed every element of the page is checked again (module docstring):
      those moved are returned in ``moved``, those marked stale in ``stale``, stale ones
      whose text is back in ``restored``, each audited under ``actor``.

    ``blocks`` are the block starts of ``text`` (:mod:`labeler.store.pageblocks`), None
    when not computed. They are stored with a new or changed text (None then stores NULL:
    the old ones were for the old text); for an ``unchanged`` page, given blocks that differ
    from the stored ones are written and nothing else (``blocks_written``), and None leaves
    the stored ones as they are.

    Raises :class:`IntegrityError` when ``doc_id`` or ``text`` cannot be stored as UTF-8, or
    ``blocks`` are not block starts of ``text`` (strictly increasing, in ``0..len - 1``).
    """
    for name, value in (("document id", doc_id), ("page text", text)):
        if not _storable(value):
            raise IntegrityError(f"{doc_id!r}: {name} holds unpaired surrogates (not UTF-8)")
    try:
        encoded = encode_blocks(blocks, len(text))
    except IntegrityError as exc:
        raise IntegrityError(f"{doc_id!r}: {exc}") from None
    existing = session.get(Document, doc_id)
    if existing is None:
        session.add(
            Document(
                id=doc_id,
                source_path=source_path,
                sha256=sha256,
                profile=profile,
                text=text,
                blocks=encoded,
            )
        )
        session.flush()
        return UpsertResult(doc_id, "added")
    elsewhere = not same_source(existing.source_path, source_path)
    if elsewhere and existing.sha256 != sha256 and not replace_source:
        raise SourceConflict(doc_id, existing.source_path, source_path)
    if (
        existing.sha256 == sha256
        and existing.profile == profile
        and existing.text == text
        and not (elsewhere and replace_source)
    ):
        if encoded is None or encoded == existing.blocks:
            return UpsertResult(doc_id, "unchanged")
        existing.blocks = encoded  # only this column: no text trigger, no re-check
        session.add(existing)
        session.flush()
        return UpsertResult(doc_id, "unchanged", blocks_written=True)
    changes = Recheck([], [], [])
    if encoded is not None or existing.text != text:
        existing.blocks = encoded  # blocks of the old text never outlive it
    if existing.text != text:
        changes = recheck(session, doc_id, existing.text, text, actor)
    session.flush()  # stale marks first: the document trigger checks the remaining ok ones
    existing.text = text
    existing.sha256 = sha256
    existing.profile = profile
    existing.source_path = source_path
    existing.ingested_at = utcnow()
    session.add(existing)
    session.flush()
    apply_recheck(session, changes, actor)
    return UpsertResult(
        doc_id,
        "updated",
        tuple(changes.stale),
        tuple(moved for _, moved, _ in changes.moved),
        tuple(back for _, back, _ in changes.restored),
    )
