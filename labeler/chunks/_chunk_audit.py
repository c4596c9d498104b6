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

The character-level ceilings follow Chroma's chunking evaluation (``chunking_evaluation``,
``base_evaluation.py``, the figure its report prints as Precision_Ω). Per question, G is the
union of its element spans; R is every chunk of the file that overlaps *or touches* one of
its elements (shares a code point with it, or ends where it starts, or starts where it
ends: Chroma's test is ``max(starts) <= min(ends)``), each chunk once; U = ⋃R, the union of
their ranges, and C = G ∩ U:

* ``iou_omega`` = |C| / |G ∪ U| = |C| / (|U| + |G ∖ U|): what Chroma's code reports as
  Precision_Ω, per question (it is an IoU of the question's highlights against the chunks);
* ``precision_omega`` = |C| / |U|: the share of the chunks' text that is gold. It equals
  ``iou_omega`` unless some code point of G lies outside every chunk (G ∖ U non-empty);
* ``precision_omega_paid`` = |C| / Σ_{r ∈ R} |r|: the same chunks with each counted at its
  own length, overlapping windows twice, as a generator handed all of them reads them (and
  as ``span_precision`` counts a run's chunks). It is at most ``precision_omega``.

A touching chunk brings no gold and only widens U, so it lowers the ratios; it is counted
because Chroma's code counts it. Each value is 0 for a question no chunk overlaps (0/0
included), and each is averaged over the questions.
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
class OmegaCeilings:
    """The three character-level ceilings of one question (see the module docstring)."""

    #: |C| / |U|
    precision: float
    #: |C| / |G ∪ U| (Chroma's Precision_Ω)
    iou: float
    #: |C| / Σ_{r ∈ R} |r|
    paid: float


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
    precision_omega_paid: float = 0.0
    #: per question id, in gold-set order
    omega_by_question: dict[str, OmegaCeilings] = field(default_factory=dict)

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
            "precision_omega_paid": self.precision_omega_paid,
            "omega_by_question": {
                qid: {
                    "precision_omega": o.precision,
                    "iou_omega": o.iou,
                    "precision_omega_paid": o.paid,
                }
                for qid, o in self.omega_by_question.items()
            },
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

    def touching(self, start: int, end: int) -> list[Chunk]:
        """Chunks overlapping ``[start, end)`` or meeting it at one of its ends
        (``c.start <= end`` and ``start <= c.end``)."""
        lo = bisect_left(self.starts, start - self.longest)
        hi = bisect_right(self.starts, end)
        return [c for c in self.chunks[lo:hi] if c.end >= start]


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


def omega(elements: Sequence[AuditElement], touching: Iterable[Chunk]) -> OmegaCeilings:
    """The Ω ceilings of one question: its ``elements`` and the chunks that overlap or touch
    one of them (a chunk given twice, same page and range, counts once); see the module
    docstring for the formulas. Each ratio is 0 when its denominator is."""
    gold: dict[str, list[tuple[int, int]]] = {}
    for e in elements:
        gold.setdefault(e.doc, []).append((e.start, e.end))
    chunks = {(c.doc, c.start, c.end) for c in touching}
    spans: dict[str, list[tuple[int, int]]] = {}
    for doc, start, end in chunks:
        spans.setdefault(doc, []).append((start, end))
    paid = sum(end - start for _, start, end in chunks)
    union = sum(b - a for s in spans.values() for a, b in merge_intervals(s))
    total = covered = 0
    for doc, g in gold.items():
        merged = merge_intervals(g)
        total += sum(b - a for a, b in merged)
        covered += intersection_length(merged, merge_intervals(spans.get(doc, ())))
    _, precision, iou = span_ratios(covered, union, total)
    return OmegaCeilings(precision, iou, covered / paid if paid else 0.0)


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
        seen.extend(index.get(e.doc, empty).touching(e.start, e.end))
        fate = element_fate(e, near, threshold)
        fates.append(fate)
        overall.add(fate)
        by_doc.setdefault(e.doc, Tally()).add(fate)
        hit[e.query_id] = hit.get(e.query_id, False) or fate.whole
        partial[e.query_id] = partial.get(e.query_id, False) or fate.kept
    questions = len(hit)
    omegas = {qid: omega(own, seen) for qid, (own, seen) in mine.items()}

    def mean(values: Iterable[float]) -> float:
        return sum(values) / questions if questions else 0.0

    return AuditReport(
        threshold=threshold,
        chunks=count,
        questions=questions,
        hit_ceiling=sum(hit.values()) / questions if questions else 0.0,
        partial_ceiling=sum(partial.values()) / questions if questions else 0.0,
        overall=overall,
        by_doc=by_doc,
        fates=fates,
        precision_omega=mean(o.precision for o in omegas.values()),
        iou_omega=mean(o.iou for o in omegas.values()),
        precision_omega_paid=mean(o.paid for o in omegas.values()),
        omega_by_question=omegas,
    )
