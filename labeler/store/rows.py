"""Plain rows read out of the store (standard library only: the fast reader shares them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StoredElement:
    """A stored element as exported and scored; ``stale`` when its page changed under it."""

    doc: str
    start: int
    end: int
    text: str
    grade: int
    stale: bool


@dataclass(frozen=True)
class StoredQuestion:
    """A stored question with its elements in label order."""

    external_id: str
    text: str
    notes: str
    elements: tuple[StoredElement, ...]
