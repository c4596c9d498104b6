"""Chunk JSONL: one chunk per line, ``{"doc": ..., "text": ..., "start": ..., "end": ...}``.

``start``/``end`` (code points into the stored page text) are written always and optional on
read: a chunk file made by another tool may hold only ``doc`` and ``text``; such chunks are
placed on their page by text (:func:`place_chunks`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from labeler.chunks.slices import Chunk
from labeler.errors import InputError
from labeler.formats.jsonlines import optional, read_objects, require


@dataclass(frozen=True)
class ChunkLine:
    """One chunk as written in the file, with its 1-based line number."""

    line: int
    doc: str
    text: str
    start: int | None
    end: int | None


@dataclass(frozen=True)
class PlacedChunk:
    """A chunk of the file located on its page, or not (``chunk`` is None then).

    ``how`` is ``"offsets"`` when the file's offsets were right, ``"text"`` when the chunk was
    found by its text (no offsets, or offsets that did not match), ``"missing"`` when its text
    is nowhere on the page.
    """

    line: ChunkLine
    chunk: Chunk | None
    how: Literal["offsets", "text", "missing"]


def chunk_line_json(chunk: Chunk) -> str:
    """One chunk file line (keys ``doc``, ``text``, ``start``, ``end``)."""
    obj = {"doc": chunk.doc, "text": chunk.text, "start": chunk.start, "end": chunk.end}
    return json.dumps(obj, ensure_ascii=False)


def write_chunks(out: IO[str], chunks: Iterable[Chunk]) -> int:
    """Write ``chunks`` as JSONL; returns how many lines were written."""
    count = 0
    for chunk in chunks:
        out.write(chunk_line_json(chunk))
        out.write("\n")
        count += 1
    return count


def read_chunks(
    path: str | Path,
    *,
    allow_nul: bool = True,
    on_progress: Callable[[int], None] | None = None,
) -> Iterator[ChunkLine]:
    """Parse a chunk JSONL file line by line (streaming; ``-``: standard input).

    Raises :class:`InputError` naming the line for broken JSON, a missing or mistyped
    ``doc``/``text``, an empty text, only one of ``start``/``end``, ``start >= end``, or
    text that cannot be stored (see :func:`~labeler.formats.jsonlines.read_objects` for
    ``allow_nul``; ``on_progress``: bytes read so far, every 1,000 lines).
    """
    for number, obj in read_objects(path, on_progress, allow_nul=allow_nul):
        doc = str(require(obj, "doc", (str, int), path, number))
        text = require(obj, "text", str, path, number)
        if not text:
            raise InputError(path, "field 'text' is empty", number)
        start = optional(obj, "start", int, path, number)
        end = optional(obj, "end", int, path, number)
        if (start is None) != (end is None):
            raise InputError(path, "give both 'start' and 'end', or neither", number)
        if start is not None and end is not None and not 0 <= start < end:
            raise InputError(path, f"needs 0 <= start < end, got {start}-{end}", number)
        yield ChunkLine(number, doc, text, start, end)


def place_chunks(
    path: str | Path, lines: Iterable[ChunkLine], page_of: Callable[[str], str | None]
) -> list[PlacedChunk]:
    """Locate every chunk of ``lines`` on its page (``page_of(doc)``: stored text or None).

    Offsets are used when ``text == page[start:end]``. Otherwise the chunk is found by text:
    first at or after the previous chunk of the same page (chunk files list a page's chunks
    in order, so a repeated text lands on the right copy), else the first occurrence on the
    page; a text not on the page gives ``how == "missing"``. A document not in the database
    raises :class:`InputError` naming the line.
    """
    pages: dict[str, str | None] = {}
    cursor: dict[str, int] = {}
    placed: list[PlacedChunk] = []
    for line in lines:
        if line.doc not in pages:
            pages[line.doc] = page_of(line.doc)
        page = pages[line.doc]
        if page is None:
            raise InputError(path, f"unknown document {line.doc!r}", line.line)
        start = line.start
        how: Literal["offsets", "text", "missing"] = "offsets"
        if start is None or page[start : line.end] != line.text:
            how = "text"
            start = page.find(line.text, cursor.get(line.doc, 0))
            if start == -1:
                start = page.find(line.text)
        if start == -1:
            placed.append(PlacedChunk(line, None, "missing"))
            continue
        end = start + len(line.text)
        cursor[line.doc] = start
        placed.append(PlacedChunk(line, Chunk(line.doc, start, end, line.text), how))
    return placed
