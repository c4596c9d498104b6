"""Chunkers whose chunks are exact slices of the stored page text.

Every :class:`Chunk` satisfies ``chunk.text == page[chunk.start:chunk.end]`` (Python
code-point offsets, as everywhere in the labeller), so a chunk can be placed on its page by
position and compared with the gold elements without any text matching.

Two chunkers:

* :func:`fixed_token_chunks`: fixed windows of ``size`` tokens, consecutive windows sharing
  ``overlap`` tokens, like LangChain's ``TokenTextSplitter`` but with the simple tokenizer
  :func:`token_spans` instead of tiktoken;
* :func:`structure_chunks`: cuts at the page's block boundaries (see
  :func:`labeler.extract.blocks.block_starts`), inside a too-long block at sentence ends, then
  at whitespace; adjacent small blocks are packed together up to ``max_chars``.

Pure: no database, no I/O.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import pairwise

from labeler.chunks.slices import Chunk

#: One token: a run of word characters (letters, digits, ``_``) or a run of other
#: non-space characters (punctuation, symbols). Whitespace is never part of a token.
TOKEN = re.compile(r"\w+|[^\w\s]+")
# A sentence ends at . ! ? (optionally followed by closing quotes/brackets) before whitespace.
_SENTENCE_END = re.compile(r"[.!?][\"'’”)\]]*(?=\s)")
_SPACE = re.compile(r"\s+")


def token_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every token of ``text`` (see :data:`TOKEN`), in order.

    ``"Hello, world!"`` has four tokens: ``Hello``, ``,``, ``world``, ``!``.
    """
    return [m.span() for m in TOKEN.finditer(text)]


def fixed_token_chunks(doc_id: str, text: str, *, size: int = 800, overlap: int = 0) -> list[Chunk]:
    """Windows of ``size`` tokens; each starts ``size - overlap`` tokens after the previous.

    A window is the page slice from its first token's start to its last token's end
    (whitespace inside is kept as it is, whitespace around is not). The last window ends at
    the last token and may be shorter; as in LangChain's ``TokenTextSplitter``, no window is
    started once one has reached the last token. A page without tokens gives ``[]``. Raises
    :class:`ValueError` unless ``size > 0`` and ``0 <= overlap < size``.
    """
    return list(iter_fixed_token_chunks(doc_id, text, size=size, overlap=overlap))


def iter_fixed_token_chunks(
    doc_id: str, text: str, *, size: int = 800, overlap: int = 0
) -> Iterator[Chunk]:
    """The chunks of :func:`fixed_token_chunks`, made as the tokens are read: memory holds
    the windows open at a token (at most ``size / (size - overlap)`` + 1), never the page's
    tokens (a list of them costs about 20 times the text)."""
    if size <= 0:
        raise ValueError(f"size must be > 0 tokens, got {size}")
    if not 0 <= overlap < size:
        raise ValueError(f"overlap must be >= 0 and < size ({size}), got {overlap}")
    step = size - overlap
    open_windows: deque[tuple[int, int]] = deque()  # (first token, its start), in order
    closed_at = -1  # the token the last window given ended at
    index = -1
    end = 0
    for index, match in enumerate(TOKEN.finditer(text)):
        start, end = match.span()
        if index % step == 0:
            open_windows.append((index, start))
        while open_windows and open_windows[0][0] + size - 1 == index:
            _, begin = open_windows.popleft()
            closed_at = index
            yield Chunk(doc_id, begin, end, text[begin:end])
    # the page's last token is ``index``: unless a window ended there already, the first
    # window still open ends there (the later ones are never started)
    if open_windows and closed_at != index:
        _, begin = open_windows[0]
        yield Chunk(doc_id, begin, end, text[begin:end])


def structure_chunks(
    doc_id: str, text: str, blocks: Iterable[int], *, max_chars: int = 2000
) -> list[Chunk]:
    """Chunks cut at block boundaries, packed up to ``max_chars`` code points each.

    ``blocks`` are offsets in ``text`` where a block begins (any order, duplicates allowed;
    0 and ``len(text)`` are implied). The text between two consecutive boundaries is a
    block; whitespace at either end of a chunk is left out, whitespace-only blocks vanish.

    * Consecutive blocks are packed into one chunk while the chunk (from its first block's
      start to its last block's end) stays within ``max_chars``.
    * A block longer than ``max_chars`` becomes chunks of its own: cut after sentence ends
      (``.``, ``!``, ``?`` before whitespace), sentences packed up to ``max_chars``; a
      sentence still too long is cut at the last whitespace that fits, and a run of
      ``max_chars`` non-space characters is cut where it must (the only cut inside a word).

    So every chunk holds at most ``max_chars`` code points, and chunks never overlap.
    Raises :class:`ValueError` for ``max_chars <= 0`` or an offset outside ``0..len(text)``.
    """
    if max_chars <= 0:
        raise ValueError(f"max_chars must be > 0, got {max_chars}")
    cuts = {0, len(text)}
    for offset in blocks:
        if not 0 <= offset <= len(text):
            raise ValueError(f"block offset {offset} is outside the page (0..{len(text)})")
        cuts.add(offset)
    bounds = sorted(cuts)
    spans: list[tuple[int, int]] = []
    group: list[tuple[int, int]] = []  # consecutive small blocks waiting to be packed
    for a, b in pairwise(bounds):
        block = _trim(text, a, b)
        if block is None:
            continue
        if block[1] - block[0] <= max_chars:
            group.append(block)
            continue
        spans.extend(_pack(group, max_chars))
        group = []
        spans.extend(_pack(_split_long(text, *block, max_chars), max_chars))
    spans.extend(_pack(group, max_chars))
    return [Chunk(doc_id, s, e, text[s:e]) for s, e in spans]


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``[start, end)`` without surrounding whitespace, or None if nothing is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _pack(pieces: list[tuple[int, int]], max_chars: int) -> list[tuple[int, int]]:
    """Greedily merge consecutive pieces while the merged span fits in ``max_chars``."""
    out: list[tuple[int, int]] = []
    for start, end in pieces:
        if out and end - out[-1][0] <= max_chars:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _split_long(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Pieces of ``text[start:end]`` of at most ``max_chars``: sentences, then words."""
    pieces: list[tuple[int, int]] = []
    pos = start
    ends = [m.end() for m in _SENTENCE_END.finditer(text, start, end)] + [end]
    for stop in ends:
        piece = _trim(text, pos, stop)
        pos = stop
        if piece is None:
            continue
        if piece[1] - piece[0] <= max_chars:
            pieces.append(piece)
        else:
            pieces.extend(_split_words(text, *piece, max_chars))
    return pieces


def _split_words(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` at the last whitespace run that keeps each piece in size."""
    gaps = [m.span() for m in _SPACE.finditer(text, start, end)]
    gap_starts = [g[0] for g in gaps]
    pieces: list[tuple[int, int]] = []
    pos = start
    while end - pos > max_chars:
        limit = pos + max_chars
        # the last gap starting in (pos, limit]: the piece ends where that gap starts
        i = bisect_right(gap_starts, limit) - 1
        if i >= 0 and gaps[i][0] > pos:
            pieces.append((pos, gaps[i][0]))
            pos = gaps[i][1]
        else:
            pieces.append((pos, limit))  # no whitespace to cut at: cut inside the word
            pos = limit
            j = bisect_left(gap_starts, pos)
            if j < len(gaps) and gaps[j][0] == pos:
                pos = gaps[j][1]
    if pos < end:
        pieces.append((pos, end))
    return pieces
