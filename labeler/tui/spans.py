"""Pure text helpers for selecting spans: word/sentence/block boundaries, trim, counts.

All positions are code-point offsets into the stored page text. No Textual here, so the
rules are cheap to test (including with Hypothesis).
"""

from __future__ import annotations

import re
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


def _sentence_start(text: str, pos: int) -> int:
    base = max(0, pos - _WINDOW)
    best = base
    for m in _SENTENCE.finditer(text, base, pos):
        if m.end() <= pos:
            best = m.end()
    return best


def _sentence_end(text: str, pos: int) -> int:
    for m in _SENTENCE.finditer(text, max(0, pos - 8)):
        end = m.end("p") if m.group("p") else m.start()
        if end >= pos and end > 0:
            return end
    return len(text)


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow ``[start, end)`` to whole sentences."""
    return _sentence_start(text, start), _sentence_end(text, max(end, start + 1))


def block_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow ``[start, end)`` to whole blocks (runs of text between line breaks)."""
    s = start
    while s > 0 and text[s - 1] not in BLOCK_BREAKS:
        s -= 1
    m = _BLOCK.search(text, max(end, start))
    return s, m.start() if m else len(text)


_GROW = {"word": word_bounds, "sentence": sentence_bounds, "block": block_bounds}


def extend(text: str, start: int, end: int, unit: Unit) -> tuple[int, int]:
    """Grow the selection to ``unit`` boundaries; when it already is one, take the next."""
    grow = _GROW[unit]
    new = grow(text, start, end)
    if new == (start, end) and end < len(text):
        # Already whole: reach over the gap to the end of the next unit.
        nxt = end
        while nxt < len(text) and (text[nxt].isspace() or not _is_word(text[nxt])):
            nxt += 1
        new = (start, grow(text, min(nxt, len(text) - 1), min(nxt + 1, len(text)))[1])
    return new


def _unit_marks(text: str, start: int, end: int, unit: Unit) -> tuple[list[int], list[int]]:
    """Sentence/block starts and ends found in (roughly) ``[start, end]``."""
    pattern = _SENTENCE if unit == "sentence" else _BLOCK
    starts, ends = [0], [len(text)]
    for m in pattern.finditer(text, max(0, start - 8), min(len(text), end + 8)):
        starts.append(m.end())
        ends.append(m.end("p") if unit == "sentence" and m.group("p") else m.start())
    return starts, ends


def shrink(text: str, start: int, end: int, unit: Unit) -> tuple[int, int]:
    """Shrink the selection to the whole ``unit``s inside it (unchanged if there are none)."""
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
        starts, ends = _unit_marks(text, start, end, unit)
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


def find_all(text: str, needle: str, *, limit: int = 10_000) -> list[int]:
    """Start offsets of ``needle`` in ``text`` (case-insensitive when it is lower case)."""
    if not needle:
        return []
    fold = needle == needle.lower()
    haystack = text.lower() if fold and len(text.lower()) == len(text) else text
    out: list[int] = []
    pos = haystack.find(needle)
    while pos >= 0 and len(out) < limit:
        out.append(pos)
        pos = haystack.find(needle, pos + 1)
    return out
