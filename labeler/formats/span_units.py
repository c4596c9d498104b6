"""Offsets of imported spans: the unit a file counts in, and where a span may not begin or end.

JavaScript tools (Label Studio, doccano) count string indices in UTF-16 code units: a
character outside the BMP (an emoji) is two units, one code point. The store counts code
points. An import reads offsets in the file's declared unit (never guessed from what they
cut) and converts them here; an offset between the two units of one character, or a span
edge that separates a combining mark from its base, is a problem to report, not to fix.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

OffsetUnit = Literal["codepoint", "utf16"]
OFFSET_UNITS: tuple[OffsetUnit, ...] = ("codepoint", "utf16")
UNIT_NAMES = {"codepoint": "code points", "utf16": "UTF-16 code units"}


def utf16_map(text: str) -> dict[int, int]:
    """UTF-16 code unit index → code point index, at every code point boundary (the index
    after the last character included); an index inside a surrogate pair is absent."""
    mapping: dict[int, int] = {}
    unit = 0
    for i, ch in enumerate(text):
        mapping[unit] = i
        unit += 2 if ord(ch) > 0xFFFF else 1
    mapping[unit] = len(text)
    return mapping


def _character(ch: str) -> str:
    return f"U+{ord(ch):04X} {ch!r}"


def to_codepoints(
    text: str, start: int, end: int, unit: OffsetUnit, units: dict[int, int] | None = None
) -> tuple[int, int] | str:
    """``[start, end)`` counted in ``unit`` on ``text`` as code point offsets, or a sentence
    saying why they cannot be: past the end of the text, or (UTF-16) inside a surrogate pair,
    which would cut a character in two. ``units`` is :func:`utf16_map` of ``text`` when the
    caller has it. Needs ``0 <= start < end``."""
    if unit == "codepoint":
        if end > len(text):
            return f"end {end} is past the end of the text ({len(text)} code points)"
        return start, end
    mapping = utf16_map(text) if units is None else units
    total = max(mapping)
    if end > total:
        return f"end {end} is past the end of the text ({total} UTF-16 code units)"
    for name, at in (("start", start), ("end", end)):
        if at not in mapping:
            cp = mapping[at - 1]
            return (
                f"{name} {at} falls between the two UTF-16 units of {_character(text[cp])} "
                f"(units {at - 1}-{at + 1}): it would cut the character in two"
            )
    return mapping[start], mapping[end]


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def cut_problem(page: str, start: int, end: int) -> str | None:
    """Why the span ``page[start:end]`` cuts a combining sequence, or None.

    A combining mark (Unicode category M: accents, variation selectors, vowel signs)
    belongs to the character before it; a span that starts at one (after its base) or ends
    just before one separates them, and its text would render differently from the page.
    """
    if 0 < start < len(page) and _is_mark(page[start]):
        return (
            f"it starts at the combining mark {_character(page[start])}, cutting it from "
            f"its base character {page[start - 1]!r}"
        )
    if 0 < end < len(page) and _is_mark(page[end]):
        return (
            f"it ends just before the combining mark {_character(page[end])}, cutting it "
            f"from its base character {page[end - 1]!r}"
        )
    return None
