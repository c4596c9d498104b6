"""Plain input values for scoring: gold questions, pages and runs (docs/formats.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

__all__ = [
    "Chunk",
    "GoldElement",
    "GoldQuestion",
    "Pages",
    "Placement",
    "Placements",
    "Run",
    "gold_index",
]


@dataclass(frozen=True, slots=True)
class GoldElement:
    """One expected element: an exact span of a page's text.

    Attributes:
        doc: the document id whose page text holds the element.
        text: the element text ``t`` (equal to ``page[start:end]`` when offsets are known).
        grade: relevance grade ≥ 1 (used as the nDCG gain).
        start, end: optional code-point offsets; informational, scoring uses ``text``.
        key: optional key span ``(s, e)``, code-point offsets into ``text`` (not the page),
            ``0 <= s < e <= len(text)``: the clause a Partial chunk must hold whole (see
            :mod:`scoring.classify`). A key stored at page offsets ``[ks, ke)`` of an element
            at ``[start, end)`` is ``(ks − start, ke − start)`` here.
    """

    doc: str
    text: str
    grade: int = 1
    start: int | None = None
    end: int | None = None
    key: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.grade, bool) or not isinstance(self.grade, int) or self.grade < 1:
            raise ValueError(f"element grade must be an integer >= 1, got {self.grade!r}")
        if self.key is not None:
            s, e = self.key
            if any(isinstance(v, bool) or not isinstance(v, int) for v in (s, e)) or not (
                0 <= s < e <= len(self.text)
            ):
                raise ValueError(
                    f"element key span {self.key!r} is not inside its text "
                    f"(0 <= s < e <= {len(self.text)})"
                )


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    """A gold-set question: external id, text and its expected elements."""

    query_id: str
    text: str
    elements: tuple[GoldElement, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.elements, tuple):
            object.__setattr__(self, "elements", tuple(self.elements))

    @property
    def n_gold(self) -> int:
        """Number of expected elements."""
        return len(self.elements)


class QuestionOutline(NamedTuple):
    """What :func:`scoring.aggregate` reads of a gold question besides its row: its id, its
    number of elements and how many of them carry a key clause. A gold set of a quarter of
    a million questions is aggregated from outlines while its questions are read and scored
    range by range, never all held at once."""

    query_id: str
    n_gold: int
    keys: int


class Chunk(NamedTuple):
    """One retrieved chunk: its text, and optionally its document id and retriever score.

    A named tuple rather than a dataclass: runs hold hundreds of thousands of them and a
    tuple is built several times faster. ``text`` may be None (not read) only for a chunk
    that placements with lengths put on every page its question's elements cite (see
    ``Placement``): scoring then needs its length alone.

    ``start`` and ``end``, when the retriever or chunker knew them, are the chunk's
    code-point offsets in the stored text of page ``doc`` (both or neither). Where
    ``page[start:end]`` equals the text the chunk is placed there, whatever other copies the
    page holds; where it does not, the chunk is placed by its text and flagged
    ``offset_mismatch``.
    """

    text: str | None
    doc: str | None = None
    score: float | None = None
    start: int | None = None
    end: int | None = None


class Placement(NamedTuple):
    """Where each chunk of one question sits on one page, known before scoring.

    ``starts[r]`` is the first offset of the chunk at rank index ``r`` (0-based) in the
    page, or −1 when it is not there; ``repeated[r]`` is non-zero when it occurs there more
    than once: what ``PageIndex.locate`` gives. Entries for empty chunks are not read. A
    placement must cover at least the ranks scored, and be for the page's current text.
    ``occurrences`` may give, for element texts, every start offset on the page (what
    ``PageIndex.occurrences`` gives); texts not in it are searched for. ``lengths[r]``, when
    given, is the length of chunk ``r``, so that a chunk found on the page may come without
    its text.
    """

    starts: Sequence[int]
    repeated: Sequence[int]
    occurrences: Mapping[str, tuple[int, ...]] = {}
    lengths: Sequence[int] = ()


Placements = Mapping[str, Mapping[str, Placement]]
"""Query id → document id → placement of that question's chunks on that page."""

Pages = Mapping[str, str]
"""Document id → stored page text."""

Run = Mapping[str, Sequence[Chunk]]
"""Query id → retrieved chunks in rank order (rank 1 first)."""


Q = TypeVar("Q", bound="GoldQuestion | QuestionOutline")


def gold_index(questions: Iterable[Q]) -> dict[str, Q]:
    """Map query id → question (or outline), keeping order; raise ``ValueError`` on a
    duplicate id."""
    index: dict[str, Q] = {}
    for question in questions:
        if question.query_id in index:
            raise ValueError(f"duplicate query_id in gold set: {question.query_id!r}")
        index[question.query_id] = question
    return index
