"""The rows a gold set import writes, as values: questions with their elements and
not-relevant judgements, checked by the caller against the stored pages (shared by the
staging file, :mod:`labeler.store.goldstage`, and the write, :mod:`labeler.store.goldsets`)."""

from __future__ import annotations

from dataclasses import dataclass

from labeler.store.models import PROVENANCE_SINGLE

__all__ = ["NewElement", "NewJudgement", "NewQuestion"]


@dataclass(frozen=True)
class NewElement:
    """An element ready to store: ``text == page[start:end]`` was checked by the caller,
    unless ``stale`` (offsets and text as labelled on the page as it was then)."""

    doc: str
    start: int
    end: int
    text: str
    grade: int
    annotator: str
    stale: bool = False
    #: the key span in page offsets, inside ``[start, end)`` (checked by the caller)
    key: tuple[int, int] | None = None
    provenance: str = PROVENANCE_SINGLE
    assisted: bool = False
    #: the alignment score of an element snapped onto its page (kept in its audit entry)
    snap_score: float | None = None


@dataclass(frozen=True)
class NewJudgement:
    """A not-relevant judgement ready to store (final layer): its region was checked to lie
    on its page by the caller."""

    doc: str
    start: int
    end: int
    annotator: str


@dataclass(frozen=True)
class NewQuestion:
    """A question ready to store, with its elements and not-relevant judgements; ``line``:
    its line in the file read (0: none), named by a refusal at the write; ``done``: for a
    layer import (:mod:`labeler.store.layer_write`), whether the importing annotator did
    the question (None for a gold set import, which writes no done mark)."""

    external_id: str
    text: str
    notes: str
    elements: tuple[NewElement, ...]
    not_relevant: tuple[NewJudgement, ...] = ()
    line: int = 0
    done: bool | None = None
