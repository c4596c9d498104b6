"""Grades and per-pair classification values (``classify``; docs/metrics.md)."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

__all__ = ["Classification", "Grade"]


class Grade(IntEnum):
    """How much of an expected element one chunk holds: ``NONE < PARTIAL < FULL``."""

    NONE = 0
    PARTIAL = 1
    FULL = 2


class Classification(NamedTuple):
    """The outcome of classifying one element text against one chunk.

    Attributes:
        grade: ``Grade.NONE``, ``Grade.PARTIAL`` or ``Grade.FULL``.
        coverage: best overlap ÷ |t| in [0, 1] when the chunk occurs in the page. In the
            fallback case (chunk not in the page) it is 1.0 when the chunk contains the whole
            element text, else the longer of head/tail that the chunk contains ÷ |t|, else 0.0.
            Empty element or chunk: 0.0.
        repeated: the element text occurs more than once in the page (overlaps counted).
        fallback: rule 3 was used (the chunk does not occur in the page).
        chunk_repeated: the chunk occurs more than once in the page, so its position
            (its first occurrence is used) is ambiguous.
        key_lost: the element has a key span and the chunk would have held it Partial
            without one, but not the key clause with it (so the grade is ``NONE``).
    """

    grade: Grade
    coverage: float
    repeated: bool
    fallback: bool
    chunk_repeated: bool
    key_lost: bool = False
