"""Anchoring an element's text in its page: offsets checked, or found by text.

Offsets are Python string indices (code points) into the stored page text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


class AnchorFailure(ValueError):
    """The text cannot be placed in the page; the message says why."""


@dataclass(frozen=True)
class Anchor:
    """Where an element sits in its page.

    ``how`` is ``"offsets"`` when the given offsets were right, ``"text"`` when the element
    was found by its text (no offsets given, or they did not match). ``occurrences`` counts
    the text's occurrences in the page, overlapping ones included; more than one is the
    *repeated* case scoring flags.
    """

    start: int
    end: int
    how: Literal["offsets", "text"]
    occurrences: int

    @property
    def repeated(self) -> bool:
        return self.occurrences > 1


def count_occurrences(page: str, text: str) -> int:
    """Occurrences of ``text`` in ``page``, overlapping ones included (0 for empty text)."""
    if not text:
        return 0
    count, pos = 0, page.find(text)
    while pos != -1:
        count += 1
        pos = page.find(text, pos + 1)
    return count


def anchor(page: str, text: str, start: int | None = None, end: int | None = None) -> Anchor:
    """Place ``text`` in ``page``.

    With both offsets, ``page[start:end]`` must equal ``text``; if it does not, the element
    is re-anchored by its text (first occurrence). Without offsets, the first occurrence is
    taken. Raises :class:`AnchorFailure` for empty text, a text not in the page, or only one
    of the two offsets.
    """
    if not text:
        raise AnchorFailure("element text is empty")
    if (start is None) != (end is None):
        raise AnchorFailure("give both start and end, or neither")
    occurrences = count_occurrences(page, text)
    if start is not None and end is not None and page[start:end] == text and 0 <= start < end:
        return Anchor(start, end, "offsets", occurrences)
    first = page.find(text)
    if first == -1:
        shown = text if len(text) <= 60 else text[:57] + "..."
        if start is not None:
            raise AnchorFailure(
                f"text {shown!r} is neither at offsets {start}-{end} nor anywhere in the page"
            )
        raise AnchorFailure(f"text {shown!r} does not occur in the page")
    return Anchor(first, first + len(text), "text", occurrences)
