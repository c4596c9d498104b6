"""``chunks make``: the stored pages cut into a chunk JSONL file, every chunk an exact slice
of its page's stored text.

:func:`write_chunk_file` reads the pages in one read-only session and writes the chunks as it
goes (one page in memory at a time).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from labeler.errors import ExtractError, InputError, UsageError
from labeler.progress import Progress, no_progress

if TYPE_CHECKING:
    from labeler.chunks.slices import Chunk
    from labeler.store import Store


@dataclass(frozen=True)
class ChunkFileMade:
    """What :func:`write_chunk_file` wrote: chunks, from how many documents."""

    chunks: int
    documents: int


def write_chunk_file(
    store: Store,
    out: TextIO,
    *,
    chunker: str,
    docs: str = "*",
    size: int = 800,
    overlap: int = 0,
    max_chars: int = 2000,
    progress: Progress = no_progress,
) -> ChunkFileMade:
    """Write the chunks of every stored page whose id matches the glob ``docs`` (by id) to
    ``out``, one chunk JSONL line each.

    ``chunker`` ``fixed``: windows of ``size`` tokens sharing ``overlap``
    (:func:`~labeler.chunks.fixed_token_chunks`); ``structure``: cut at the page's block
    starts (:func:`~labeler.chunks.structure_chunks`, at most ``max_chars`` a chunk). A page
    stored without block starts has them worked out again from its source file, which must
    be the one ingested (same SHA-256).

    :class:`~labeler.errors.UsageError` when no stored document matches ``docs``;
    :class:`~labeler.errors.InputError` naming the source file when it cannot be read, has
    changed since ingest, or cannot be extracted. The caller validates ``size``/``overlap``/
    ``max_chars`` first (the chunkers raise :class:`ValueError` for bad ones).
    ``progress(pages_done, pages, doc_id)`` after each page.
    """
    from labeler.chunks._chunkers import iter_fixed_token_chunks, structure_chunks
    from labeler.extract import block_starts
    from labeler.formats import write_chunks
    from labeler.store import list_documents, page_and_blocks

    documents = 0
    written = 0
    with store.session() as session:
        summaries = [d for d in list_documents(session) if fnmatchcase(d.id, docs)]
        if not summaries:
            raise UsageError(f"no stored document matches {docs!r}")
        for d in summaries:
            text, blocks = page_and_blocks(session, d.id) or ("", None)
            chunks: Iterable[Chunk]
            if chunker == "fixed":  # made as written: memory holds the page, not its tokens
                chunks = iter_fixed_token_chunks(d.id, text, size=size, overlap=overlap)
            else:
                if blocks is None:  # stored before ingest kept block starts, or none found
                    data = _source_bytes(d.id, d.source_path, d.sha256)
                    try:
                        blocks = block_starts(data, d.profile, text=text)
                    except ExtractError as err:
                        raise InputError(d.source_path, f"document {d.id!r}: {err}") from None
                chunks = structure_chunks(d.id, text, blocks, max_chars=max_chars)
            written += write_chunks(out, chunks)
            documents += 1
            progress(documents, len(summaries), d.id)
    return ChunkFileMade(written, documents)


def _source_bytes(doc_id: str, source_path: str, sha256: str) -> bytes:
    """The document's source file, checked to be the one that was ingested."""
    try:
        data = Path(source_path).read_bytes()
    except OSError as err:
        raise InputError(
            source_path, f"document {doc_id!r}: cannot read its source file: {err.strerror}"
        ) from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise InputError(
            source_path,
            f"document {doc_id!r}: the source file changed since it was ingested (sha256 "
            "differs); re-ingest it before structure chunking",
        )
    return data
