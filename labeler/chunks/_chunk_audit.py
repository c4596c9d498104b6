"""Chunk audit: what a chunking does to a gold set's elements before any retrieval happens.

For each expected element, the chunks of its page are compared with it by position:

* **whole**: some chunk holds the element entirely (``chunk.start <= start`` and
  ``end <= chunk.end``);
* **cut**: no chunk holds it whole but some overlap it; ``pieces`` is the number of chunks
  overlapping it (overlapping windows count each), ``best_share`` the largest share of its
  code points inside one chunk;
* **uncovered**: no chunk overlaps it at all (the page has no chunks, or they skip it).

An element is **kept** when ``best_share >= threshold`` (a whole element always is); an
element with a key span is kept only by a chunk that holds at least the threshold share of
it *and* the whole key (the Partial rule of :mod:`scoring.classify`). Over
the questions with at least one element, the share that has an element whole is the
ceiling on Hit@k any retriever can reach with these chunks (chunks judged by position, as
scoring does), and the share with an element kept the ceiling on Partial@k.

The character-level ceilings are Chroma's (chunking_evaluation, ``base_evaluation.py``;
its report's Precision_Ω): per question, G is the union of its element spans and R every
chunk of the file that overlaps G, C = G ∩ ⋃R;

* ``precision_omega`` = |C| / Σ_{r ∈ R} |r|: the ``span_precision`` of a retriever that
  brings back exactly the chunks holding some of G (all of G these chunks can give, and no
  chunk without any of it);
* ``iou_omega`` = |C| / (Σ_{r ∈ R} |r| + |G ∖ ⋃R|): the same for ``span_iou``. (Chroma's
  code reports this ratio, with the chunks' union for their sum, under the name
  Precision_Ω; for chunks that do not overlap each other the two agree.)

Each is 0 for a question no chunk overlaps, and both are averaged over the questions.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from labeler.chunks.slices import Chunk
from scoring.spans import intersection_length, merge_intervals, span_ratios


@dataclass(frozen=True)
class AuditElement:
    """A stored (non-stale) element of the audited gold set."""

    query_id: str
    doc: str
    start: int
    end: int
    text: str
    grade: int
    #: key span, page offsets inside ``[start, end)`` (None: no key)
    key: tuple[int, int] | None = None


@dataclass(frozen=True)
class ElementFate:
    """What the chunks do to one element."""

    element: AuditElement
    pieces: int
    best_share: float
    whole: bool
    kept: bool

    @property
    def status(self) -> str:
        """``whole``, ``cut`` or ``uncovered``."""
        if self.whole:
            return "whole"
        return "cut" if self.pieces else "uncovered"


@dataclass
class Tally:
    """Element counts for one page or overall."""

    elements: int = 0
    whole: int = 0
    cut: int = 0
    uncovered: int = 0
    kept: int = 0

    def add(self, fate: ElementFate) -> None:
        self.elements += 1
        self.whole += fate.whole
        self.cut += fate.status == "cut"
        self.uncovered += fate.status == "uncovered"
        self.kept += fate.kept


@dataclass
class AuditReport:
    """The audit of one chunk set against one gold set."""

    threshold: float
    chunks: int
    questions: int
    hit_ceiling: float
    partial_ceiling: float
    overall: Tally
    by_doc: dict[str, Tally]
    fates: list[ElementFate] = field(default_factory=list)
    precision_omega: float = 0.0
    iou_omega: float = 0.0

    @property
    def cut(self) -> list[ElementFate]:
        """Elements no chunk holds whole, in gold-set order."""
        return [f for f in self.fates if not f.whole]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary: counts, ceilings, per-document tallies and cut elements."""
        return {
            "threshold": self.threshold,
            "chunks": self.chunks,
            "questions": self.questions,
            "hit_ceiling": self.hit_ceiling,
            "partial_ceiling": self.partial_ceiling,
            "precision_omega": self.precision_omega,
            "iou_omega": self.iou_omega,
            "elements": asdict(self.overall),
            "by_doc": {doc: asdict(t) for doc, t in sorted(self.by_doc.items())},
            "cut_elements": [
                {
                    "query_id": f.element.query_id,
                    "doc": f.element.doc,
                    "start": f.element.start,
                    "end": f.element.end,
                    "text": f.element.text,
                    "status": f.status,
                    "pieces": f.pieces,
                    "best_share": round(f.best_share, 4),
                    "kept": f.kept,
                }
                for f in self.cut
            ],
        }


class _PageChunks:
    """A page's chunks sorted by start, for overlap look-ups."""

    def __init__(self, chunks: Iterable[Chunk]) -> None:
        ordered = sorted(chunks, key=lambda c: (c.start, c.end))
        self.starts = [c.start for c in ordered]
        self.chunks = ordered
        self.longest = max((c.end - c.start for c in ordered), default=0)

    def overlapping(self, start: int, end: int) -> list[Chunk]:
        """Chunks sharing at least one code point with ``[start, end)``."""
        lo = bisect_left(self.starts, start - self.longest)
        hi = bisect_right(self.starts, end - 1)
        return [c for c in self.chunks[lo:hi] if c.end > start]


def element_fate(element: AuditElement, chunks: Sequence[Chunk], threshold: float) -> ElementFate:
    """The fate of ``element`` given the chunks of its page that overlap it."""
    length = element.end - element.start
    best = keyed = 0
    key = element.key
    for c in chunks:
        piece = min(c.end, element.end) - max(c.start, element.start)
        best = max(best, piece)
        if key is not None and c.start <= key[0] and key[1] <= c.end:
            keyed = max(keyed, piece)
    share = best / length if length else 0.0
    whole = best >= length > 0
    # with a key, only a piece that holds the whole key counts
    kept = share >= threshold if key is None else length > 0 and keyed / length >= threshold
    return ElementFate(element, len(chunks), share, whole, whole or kept)


def omega(elements: Sequence[AuditElement], overlapping: Sequence[Chunk]) -> tuple[float, float]:
    """(precision_Ω, IoU_Ω) of one question: its ``elements`` and every chunk that overlaps
    one of them (each chunk once); see the module docstring."""
    gold: dict[str, list[tuple[int, int]]] = {}
    for e in elements:
        gold.setdefault(e.doc, []).append((e.start, e.end))
    chunks = {(c.doc, c.start, c.end) for c in overlapping}
    spans: dict[str, list[tuple[int, int]]] = {}
    for doc, start, end in chunks:
        spans.setdefault(doc, []).append((start, end))
    size = sum(end - start for _, start, end in chunks)
    total = covered = 0
    for doc, g in gold.items():
        merged = merge_intervals(g)
        total += sum(b - a for a, b in merged)
        covered += intersection_length(merged, merge_intervals(spans.get(doc, ())))
    _, precision, iou = span_ratios(covered, size, total)
    return precision, iou


def audit_chunks(
    chunks: Iterable[Chunk],
    elements: Sequence[AuditElement],
    *,
    threshold: float = 0.5,
) -> AuditReport:
    """Audit ``chunks`` (already placed on their pages) against ``elements``.

    Questions are those with at least one element in ``elements``; ceilings are 0.0 when
    there are none. Raises :class:`ValueError` unless ``0 < threshold <= 1``.
    """
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    by_page: dict[str, list[Chunk]] = {}
    count = 0
    for c in chunks:
        by_page.setdefault(c.doc, []).append(c)
        count += 1
    index = {doc: _PageChunks(cs) for doc, cs in by_page.items()}
    empty = _PageChunks(())
    overall = Tally()
    by_doc: dict[str, Tally] = {}
    fates: list[ElementFate] = []
    hit: dict[str, bool] = {}
    partial: dict[str, bool] = {}
    mine: dict[str, tuple[list[AuditElement], list[Chunk]]] = {}
    for e in elements:
        near = index.get(e.doc, empty).overlapping(e.start, e.end)
        own, seen = mine.setdefault(e.query_id, ([], []))
        own.append(e)
        seen.extend(near)
        fate = element_fate(e, near, threshold)
        fates.append(fate)
        overall.add(fate)
        by_doc.setdefault(e.doc, Tally()).add(fate)
        hit[e.query_id] = hit.get(e.query_id, False) or fate.whole
        partial[e.query_id] = partial.get(e.query_id, False) or fate.kept
    questions = len(hit)
    omegas = [omega(own, seen) for own, seen in mine.values()]
    return AuditReport(
        threshold=threshold,
        chunks=count,
        questions=questions,
        hit_ceiling=sum(hit.values()) / questions if questions else 0.0,
        partial_ceiling=sum(partial.values()) / questions if questions else 0.0,
        overall=overall,
        by_doc=by_doc,
        fates=fates,
        precision_omega=sum(p for p, _ in omegas) / questions if questions else 0.0,
        iou_omega=sum(i for _, i in omegas) / questions if questions else 0.0,
    )
