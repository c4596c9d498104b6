"""``gold import --snap``: element texts that are not on their page, snapped onto the span
they align with (:mod:`scoring.snap`, docs/metrics.md#snapping), or listed.

An element whose text is on its page is anchored as always. One whose text is not is
aligned to the page; at ``min_score`` or more it is stored at the span found, with that
span's text, provenance ``snapped`` and the score (in its audit entry). Below it the line
is listed: the import is refused naming every such line, or, with ``review``, the element
is left out and its text added to the question's notes for an annotator to label.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.snap import DEFAULT_SNAP_MIN, Snap, check_snap_min, snap

__all__ = ["SnapMiss", "SnapOptions", "review_note", "snap_text"]

#: what a reference the import could not place adds to its question's notes
REVIEW_PREFIX = "to label (not found on"


@dataclass(frozen=True)
class SnapOptions:
    """Snap element texts not on their page at ``min_score`` or more; ``review``: import
    the lines of those below it as questions to label instead of refusing the file."""

    min_score: float = DEFAULT_SNAP_MIN
    review: bool = False

    def __post_init__(self) -> None:
        check_snap_min(self.min_score)


@dataclass(frozen=True)
class SnapMiss:
    """An element text below the snap minimum: its line, element index, page and text."""

    line: int
    index: int
    doc: str
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: elements[{self.index}] in {self.doc!r} ({self.text[:60]!r})"


def snap_text(page: str, text: str, options: SnapOptions) -> Snap | None:
    """Where ``text`` stands on ``page`` at the options' minimum, or None."""
    return snap(text, page, options.min_score)


def review_note(notes: str | None, misses: list[SnapMiss]) -> str:
    """``notes`` with one line per reference text an annotator is to label."""
    lines = [notes] if notes else []
    lines += [f"{REVIEW_PREFIX} {m.doc}): {m.text}" for m in misses]
    return "\n".join(lines)
