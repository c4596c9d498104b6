"""Pure text helpers for selecting spans: word/sentence/block boundaries, trim, counts.

All positions are code-point offsets into the stored page text. No Textual here, so the
rules are cheap to test (including with Hypothesis).

Blocks follow the page's structure when its block starts are stored (paragraphs, list
items, headings, cells...: the structure chunker's boundaries, passed in as ``blocks``);
sentences then never run across a block boundary. Without them (pages ingested before
block starts were stored) a block is a run of text between line breaks, as before.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Final, Literal

Unit = Literal["word", "sentence", "block"]

BLOCK_BREAKS: Final = "\n\r\f\v\x1c\x1d\x1e\x85\u2028\u2029"
_BLOCK = re.compile(f"[{re.escape(BLOCK_BREAKS)}]+")
# A sentence ends after . ! ? (plus closing quotes/brackets) followed by space or the end,
# or at a block break.
_SENTENCE = re.compile(r"(?P<p>[.!?]+[\"'”’)\]]*)(?:\s+|$)|" + f"[{re.escape(BLOCK_BREAKS)}]+\\s*")
_WINDOW = 200_000  # how far back to look for a boundary (long enough for any sentence)
COUNT_CAP = 1000


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow ``[start, end)`` to whole words (a cursor inside a word selects it)."""
    while start > 0 and _is_word(text[start - 1]):
        start -= 1
    while end < len(text) and _is_word(text[end]):
        end += 1
    return start, end


Blocks = Sequence[int] | None
"""A page's block starts (sorted offsets, see :mod:`labeler.store.pageblocks`), or None when
the page has none stored: then a block is a run of text between line breaks."""


def _block_span(text: str, blocks: Sequence[int], pos: int) -> tuple[int, int]:
    """The block holding ``pos``, without the whitespace that separates it from the next
    (text before the first block counts as a block of its own)."""
    i = bisect_right(blocks, pos) - 1
    start = blocks[i] if i >= 0 else 0
    end = blocks[i + 1] if i + 1 < len(blocks) else len(text)
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_WORD_CHAR = re.compile(r"\w")
_FIRST_LOOK = 512  # how far back the first, usually sufficient, look goes


def _sentence_start(text: str, pos: int, floor: int = 0) -> int:
    """The end of the last sentence end in ``[base, pos)`` (``base``: ``pos`` less
    :data:`_WINDOW`, not before ``floor``), else ``base``.

    Looked for in windows growing back from ``pos``, each starting just after a word
    character: no match of :data:`_SENTENCE` holds one, so a scan from there finds the
    same matches as a scan from ``base`` (no match spans the start). A key costs what the
    sentence's length costs, not the 200 KB window (8 ms on a page without blocks)."""
    base = max(floor, pos - _WINDOW)
    look = _FIRST_LOOK
    while True:
        start = base
        if pos - look > base:
            word = _WORD_CHAR.search(text, pos - look, pos)
            start = word.end() if word is not None else base
        best = -1
        for m in _SENTENCE.finditer(text, start, pos):
            if m.end() <= pos:
                best = m.end()
        if best >= 0:
            return best
        if start == base:
            return base
        look *= 8


def _sentence_end(text: str, pos: int) -> int:
    for m in _SENTENCE.finditer(text, max(0, pos - 8)):
        end = m.end("p") if m.group("p") else m.start()
        if end >= pos and end > 0:
            return end
    return len(text)


def sentence_bounds(text: str, start: int, end: int, blocks: Blocks = None) -> tuple[int, int]:
    """Grow ``[start, end)`` to whole sentences.

    With ``blocks``, a sentence also ends where its block ends and starts where its block
    starts (a heading is not the first words of the paragraph after it); the selection
    itself is never cut: the result holds ``[start, end)``.
    """
    if not blocks:
        return _sentence_start(text, start), _sentence_end(text, max(end, start + 1))
    floor = _block_span(text, blocks, start)[0]
    ceiling = _block_span(text, blocks, max(end - 1, start))[1]
    sentence_end = min(_sentence_end(text, max(end, start + 1)), ceiling)
    return _sentence_start(text, start, floor), max(sentence_end, end)


def block_bounds(text: str, start: int, end: int, blocks: Blocks = None) -> tuple[int, int]:
    """Grow ``[start, end)`` to whole blocks.

    With ``blocks``: from the start of the block holding ``start`` to the end (without
    trailing whitespace) of the block holding the selection's last character; never less
    than ``[start, end)``. Without: runs of text between line breaks.
    """
    if blocks:
        first = _block_span(text, blocks, start)[0]
        last = _block_span(text, blocks, max(end - 1, start))[1]
        return first, max(last, end)
    # after the last break before ``start`` (searched in C: a page's text is often one line)
    s = max(text.rfind(ch, 0, start) for ch in BLOCK_BREAKS) + 1
    m = _BLOCK.search(text, max(end, start))
    return s, m.start() if m else len(text)


def _grow(text: str, start: int, end: int, unit: Unit, blocks: Blocks) -> tuple[int, int]:
    if unit == "word":
        return word_bounds(text, start, end)
    if unit == "sentence":
        return sentence_bounds(text, start, end, blocks)
    return block_bounds(text, start, end, blocks)


def extend(text: str, start: int, end: int, unit: Unit, blocks: Blocks = None) -> tuple[int, int]:
    """Grow the selection to ``unit`` boundaries; when it already is one, take the next.

    ``blocks`` (the page's block starts) bound sentences and define blocks; see
    :func:`sentence_bounds` and :func:`block_bounds`.
    """
    new = _grow(text, start, end, unit, blocks)
    if new == (start, end) and end < len(text):
        # Already whole: reach over the gap to the end of the next unit.
        nxt = end
        while nxt < len(text) and (text[nxt].isspace() or not _is_word(text[nxt])):
            nxt += 1
        at = min(nxt, len(text) - 1)
        new = (start, _grow(text, at, min(nxt + 1, len(text)), unit, blocks)[1])
    return new


def _unit_marks(
    text: str, start: int, end: int, unit: Unit, blocks: Blocks
) -> tuple[list[int], list[int]]:
    """Sentence/block starts and ends found in (roughly) ``[start, end]``."""
    starts, ends = [0], [len(text)]
    if blocks:
        for i in range(max(bisect_right(blocks, start) - 1, 0), bisect_right(blocks, end)):
            starts.append(blocks[i])
            ends.append(_block_span(text, blocks, blocks[i])[1])
        if unit == "block":
            return starts, ends
    pattern = _SENTENCE if unit == "sentence" else _BLOCK
    for m in pattern.finditer(text, max(0, start - 8), min(len(text), end + 8)):
        starts.append(m.end())
        ends.append(m.end("p") if unit == "sentence" and m.group("p") else m.start())
    return starts, ends


def shrink(text: str, start: int, end: int, unit: Unit, blocks: Blocks = None) -> tuple[int, int]:
    """Shrink the selection to the whole ``unit``s inside it (unchanged if there are none).

    With ``blocks``, block boundaries are sentence boundaries too, and blocks are the
    page's blocks instead of runs between line breaks.
    """
    if end <= start:
        return start, end
    if unit == "word":
        inner_start, inner_end = start, end
        if start > 0 and _is_word(text[start - 1]):
            while inner_start < end and _is_word(text[inner_start]):
                inner_start += 1
        if end < len(text) and _is_word(text[end]):
            while inner_end > inner_start and _is_word(text[inner_end - 1]):
                inner_end -= 1
    else:
        starts, ends = _unit_marks(text, start, end, unit, blocks)
        inner_start = min((s for s in starts if s >= start), default=end)
        inner_end = max((e for e in ends if e <= end), default=start)
    new = trim(text, inner_start, inner_end)
    return new if new[0] < new[1] else (start, end)


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop whitespace (Python's definition) at both ends of ``[start, end)``."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def count_occurrences(text: str, needle: str, cap: int = COUNT_CAP) -> int:
    """Occurrences of ``needle`` in ``text``, overlapping ones included, up to ``cap``."""
    if not needle:
        return 0
    n, pos = 0, text.find(needle)
    while pos >= 0 and n < cap:
        n += 1
        pos = text.find(needle, pos + 1)
    return n


def find_all(text: str, needle: str, *, whole_word: bool = False, limit: int = 10_000) -> list[int]:
    """Start offsets of ``needle`` in ``text``, overlapping ones included, at most ``limit``.

    Smart case: a needle without capitals matches any case (``the`` finds ``The`` and
    ``THE``), one capital makes the search exact. Each match is ``len(needle)`` characters
    of ``text`` (characters are compared one by one, so offsets never drift, even where
    lower-casing would change a text's length). ``whole_word``: only matches with no word
    character (letter, digit, ``_``) right before or after them."""
    if not needle:
        return []
    flags = re.IGNORECASE if needle == needle.lower() else 0
    pattern = re.escape(needle)
    if whole_word:
        pattern = rf"(?<!\w){pattern}(?!\w)"
    compiled = re.compile(pattern, flags)
    out: list[int] = []
    found = compiled.search(text)
    while found is not None and len(out) < limit:
        out.append(found.start())
        found = compiled.search(text, found.start() + 1)
    return out


def drop_last_word(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without its last word (and what follows it: punctuation, spaces),
    trimmed; unchanged when that would leave nothing. E.g. on ``"Gamma delta epsilon."``
    the whole span becomes ``"Gamma delta"``."""
    cut = end
    while cut > start and not _is_word(text[cut - 1]):
        cut -= 1
    while cut > start and _is_word(text[cut - 1]):
        cut -= 1
    new = trim(text, start, cut)
    return new if new[0] < new[1] else (start, end)
