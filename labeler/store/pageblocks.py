"""Each page's block starts, stored beside its text (schema version 6).

A *block* is a run of page text the page's structure makes one unit: a paragraph, list
item, heading, table cell, ``pre``... (:func:`labeler.extract.blocks.block_starts` says
exactly which). Ingest stores where each block begins, so the TUI's ``b``/``s`` keys, the
structure chunker and anything else that needs the page's structure read one definition
without the source file.

Stored in ``document.blocks`` as sorted, distinct offsets joined by commas (``"0,15,40"``);
``""`` means the page has no block (no visible text) and NULL that they were never
computed (pages ingested before version 6, or whose profile reports no blocks). The store
does not compute them (it knows nothing of extraction); it keeps what ingest gives it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import update
from sqlmodel import Session, col, select

from labeler.errors import IntegrityError
from labeler.store.models import Document


def encode_blocks(blocks: Sequence[int] | None, length: int) -> str | None:
    """The column value for block starts ``blocks`` of a page of ``length`` code points.

    None stays None (not computed). Raises :class:`IntegrityError` unless the offsets are
    strictly increasing and each lies in ``0..length - 1`` (a block starts at a character).
    """
    if blocks is None:
        return None
    previous = -1
    for offset in blocks:
        if not previous < offset < length:
            raise IntegrityError(
                f"block starts must increase strictly within 0..{length - 1}; got {offset} "
                f"after {previous}"
            )
        previous = offset
    return ",".join(map(str, blocks))


def decode_blocks(value: str | None, length: int) -> list[int] | None:
    """The block starts a column value holds, or None when it holds none usable.

    None for NULL and for a value that is not what :func:`encode_blocks` writes for a page
    of ``length`` code points (written by hand, or for another text): callers then fall back
    to what they did without stored blocks, rather than cut at wrong offsets.
    """
    if value is None:
        return None
    if not value:
        return []
    try:
        blocks = [int(part) for part in value.split(",")]
    except ValueError:
        return None
    try:
        encode_blocks(blocks, length)
    except IntegrityError:
        return None
    return blocks


def page_and_blocks(session: Session, doc_id: str) -> tuple[str, list[int] | None] | None:
    """The text of page ``doc_id`` and its block starts (None: not stored, or not usable
    for this text); None when the page is absent. One read."""
    row = session.exec(
        select(Document.text, Document.blocks).where(Document.id == doc_id)
    ).one_or_none()
    if row is None:
        return None
    text, value = row
    return text, decode_blocks(value, len(text))


def fill_blocks(
    session: Session, doc_id: str, *, sha256: str, profile: str, blocks: Sequence[int], length: int
) -> bool:
    """Store block starts for page ``doc_id`` if it has none yet; True when written.

    Only the ``blocks`` column is written (text, time and labels are untouched, so no
    trigger runs), and only while the page still has the ``sha256`` and ``profile`` the
    blocks were computed for and no blocks: a page changed or filled meanwhile is left
    alone. ``length`` is the length of the text they were computed for. Raises
    :class:`IntegrityError` for offsets that cannot be block starts of such a text.
    """
    value = encode_blocks(blocks, length)
    result = session.connection().execute(
        update(Document)
        .where(
            col(Document.id) == doc_id,
            col(Document.sha256) == sha256,
            col(Document.profile) == profile,
            col(Document.blocks).is_(None),
        )
        .values(blocks=value)
    )
    return bool(result.rowcount)
