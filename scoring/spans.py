"""Character-level coverage of a question's gold spans by its top-k chunks.

Chroma's chunking evaluation (``chunking_evaluation``, ``base_evaluation.py``) measures a
chunker by position: the gold *highlights* against the characters of the retrieved chunks.
The same three formulas are applied here to any stored run, per question and at each k:

Let G be the union of the question's element spans (per page), R_k the spans of the top-k
chunks placed on those pages as scoring places them (at a chunk's own offsets on its page
when ``page[start:end]`` is its text, else its text's first occurrence), and
C = G ∩ ⋃R_k. A chunk not found on any cited page adds its length to the denominators and
nothing to C.

* ``span_recall@k`` = |C| / |G| (Chroma's recall);
* ``span_precision@k`` = |C| / Σ_{r ∈ R_k} |r| (Chroma's precision: each top-k chunk counted
  with its own length, overlapping chunks twice);
* ``span_iou@k`` = |C| / (Σ_{r ∈ R_k} |r| + |G \\ ⋃R_k|) (Chroma's IoU).

Each is 0 when its denominator is 0. Edge cases, fixed here:

* An element span is its stored ``[start, end)`` when that slice of the page is the
  element's text, else the text's first occurrence; an element whose text is not on its
  page adds its length to |G| and can never be covered.
* A chunk found on several cited pages is placed on one only (so that
  0 ≤ span_iou ≤ min(span_recall, span_precision) ≤ 1 holds): its ``doc`` when that is one
  of them, else the first of them in element order.
* The fallback rule of ``classify`` (a chunk not on the page judged by containment) plays no
  part: a chunk that is not on a cited page covers nothing.
* Precision is not padded: a run shorter than k has the same values at k as at its length.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from scoring.classify import PageIndex
    from scoring.inputs import Chunk, GoldQuestion, Placement

__all__ = [
    "SPAN_METRIC_NAMES",
    "SpanPrefix",
    "Spot",
    "element_span",
    "intersection_length",
    "merge_intervals",
    "question_prefix",
    "span_prefix",
    "span_ratios",
]

SPAN_METRIC_NAMES: tuple[str, ...] = ("span_recall", "span_precision", "span_iou")

Spot = tuple[int, str | None, int, bool, int]
"""A placed chunk as scoring has it: (rank index, text, first offset or −1, repeated, length)."""


def merge_intervals(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Disjoint sorted ``[start, end)`` intervals covering the same code points as
    ``spans``; empty spans are dropped, touching ones joined."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def intersection_length(xs: Sequence[tuple[int, int]], ys: Sequence[tuple[int, int]]) -> int:
    """Code points shared by two lists of disjoint sorted intervals (``merge_intervals``)."""
    total = i = j = 0
    while i < len(xs) and j < len(ys):
        a, b = xs[i]
        c, d = ys[j]
        lo = a if a > c else c
        hi = b if b < d else d
        if hi > lo:
            total += hi - lo
        if b < d:
            i += 1
        else:
            j += 1
    return total


def element_span(
    page: str, text: str, start: int | None, end: int | None, starts: Sequence[int]
) -> tuple[int, int] | None:
    """The element's span on ``page``: the stored ``[start, end)`` when ``page[start:end]``
    is ``text``, else the first of ``starts`` (the text's occurrences), else None."""
    if (
        start is not None
        and end is not None
        and start >= 0
        and end - start == len(text)
        and page.startswith(text, start)
    ):
        return start, end
    if starts:
        return starts[0], starts[0] + len(text)
    return None


class SpanPrefix(NamedTuple):
    """Running totals of one question over its ranks, from which every cut-off is read.

    ``gold`` = |G|; ``sizes[d]`` = Σ|r| over the first d ranks (length ranks + 1, from 0);
    ``ranks`` = the rank indices (0-based, ascending) whose chunk covers code points of G no
    earlier chunk covered, and ``covered[i]`` = |C| once ``ranks[i]`` is counted.
    """

    gold: int
    sizes: list[int]
    ranks: list[int]
    covered: list[int]

    def at(self, depth: int) -> tuple[float, float, float]:
        """(span_recall, span_precision, span_iou) over the first ``depth`` ranks (capped
        at the ranks there are)."""
        d = min(depth, len(self.sizes) - 1)
        i = bisect_left(self.ranks, d)
        return span_ratios(self.covered[i - 1] if i else 0, self.sizes[d], self.gold)

    def columns(self, depths: Sequence[int]) -> tuple[list[float], list[float], list[float]]:
        """span_recall, span_precision and span_iou, each at every depth of ``depths``
        (``at`` inlined: this runs for every question)."""
        gold, sizes, ranks, covered = self
        last = len(sizes) - 1
        first = ranks[0] if ranks else last + 1
        recall: list[float] = []
        precision: list[float] = []
        iou: list[float] = []
        for depth in depths:
            d = depth if depth < last else last
            c = covered[bisect_left(ranks, d) - 1] if first < d else 0
            size = sizes[d]
            union = size + gold - c
            recall.append(c / gold if gold else 0.0)
            precision.append(c / size if size else 0.0)
            iou.append(c / union if union else 0.0)
        return recall, precision, iou


def span_ratios(covered: int, size: int, gold: int) -> tuple[float, float, float]:
    """(|C|/|G|, |C|/Σ|r|, |C|/(Σ|r| + |G| − |C|)), each 0 when its denominator is 0."""
    union = size + gold - covered
    return (
        covered / gold if gold else 0.0,
        covered / size if size else 0.0,
        covered / union if union else 0.0,
    )


def _add(covered: list[tuple[int, int]], a: int, b: int) -> int:
    """Add ``[a, b)`` to the disjoint sorted intervals ``covered`` (in place); return how
    many of its code points were not covered before."""
    new = b - a
    for x, y in covered:
        lo = a if a > x else x
        hi = b if b < y else y
        if hi > lo:
            new -= hi - lo
    if new:
        covered.append((a, b))
        covered[:] = merge_intervals(covered)
    return new


def span_prefix(
    sizes: Sequence[int],
    gold: Mapping[str, Sequence[tuple[int, int]]],
    lost: int,
    placed: Mapping[str, Sequence[Spot]],
    docs: Sequence[str | None],
) -> SpanPrefix:
    """The running totals of one question.

    Args:
        sizes: length of each rank's chunk (0 for an empty chunk), one per rank scored.
        gold: page → merged element spans on it (``merge_intervals``).
        lost: total length of elements not found on their page (in |G|, never covered).
        placed: page → the question's chunks placed on it, in rank order (every cited
            page with a non-empty element).
        docs: each rank's chunk ``doc`` (or None), to choose among several cited pages
            (read only when ``placed`` holds several).
    """
    total = lost
    for page_spans in gold.values():
        for a, b in page_spans:
            total += b - a
    size_prefix = [0, *accumulate(sizes)]
    ranks: list[int] = []
    covered: list[int] = []
    if not total:
        return SpanPrefix(total, size_prefix, ranks, covered)
    # chunks meeting the bounding interval of G on their page: (rank, page, start, end)
    near: list[tuple[int, str, int, int]]
    if len(placed) == 1:  # the usual case, in one comprehension
        ((doc, spots),) = placed.items()
        spans = gold.get(doc)
        if not spans:
            return SpanPrefix(total, size_prefix, ranks, covered)
        lo, hi = spans[0][0], spans[-1][1]
        near = [(r, doc, c0, c0 + n) for r, _, c0, _, n in spots if hi > c0 >= 0 and c0 + n > lo]
    else:
        where: dict[int, tuple[str, int, int]] = {}  # rank → (page, start, end)
        for doc, spots in placed.items():
            for r, _, c0, _, n in spots:
                if c0 >= 0 and (r not in where or docs[r] == doc != where[r][0]):
                    where[r] = (doc, c0, c0 + n)
        near = []
        for r in sorted(where):
            doc, c0, c1 = where[r]
            spans = gold.get(doc)
            if spans and c0 < spans[-1][1] and c1 > spans[0][0]:
                near.append((r, doc, c0, c1))
    cover: dict[str, list[tuple[int, int]]] = {}
    count = 0
    for r, doc, c0, c1 in near:
        new = 0
        for g0, g1 in gold[doc]:
            if c0 < g1 and g0 < c1:
                new += _add(cover.setdefault(doc, []), c0 if c0 > g0 else g0, c1 if c1 < g1 else g1)
        if new:
            count += new
            ranks.append(r)
            covered.append(count)
    return SpanPrefix(total, size_prefix, ranks, covered)


def question_prefix(
    question: GoldQuestion,
    ranked: Sequence[Chunk],
    placed: Mapping[str, Sequence[Spot]],
    page: Callable[[str], PageIndex],
    placements: Mapping[str, Placement] | None,
) -> SpanPrefix:
    """The running character coverage of one question's ranks: gold spans from its
    elements (stored offsets, else first occurrence), chunks as ``placed`` (page → spots,
    from ``judge_question``); ``page`` gives a document's ``PageIndex``."""
    gold: dict[str, list[tuple[int, int]]] = {}
    lost = 0
    for e in question.elements:
        text = e.text
        if not text:
            continue
        index = page(e.doc)
        text_of_page = index.text
        start = e.start
        if (
            start is not None
            and start >= 0
            and e.end == start + len(text)
            and text_of_page.startswith(text, start)
        ):
            span: tuple[int, int] | None = (start, e.end)
        else:
            known = placements.get(e.doc) if placements else None
            starts = known.occurrences.get(text) if known is not None else None
            if starts is None:
                starts = index.occurrences(text)
            span = element_span(text_of_page, text, None, None, starts)
        if span is None:
            lost += len(text)
        else:
            gold.setdefault(e.doc, []).append(span)
    merged = {
        doc: merge_intervals(spans) if len(spans) > 1 else spans for doc, spans in gold.items()
    }
    spots = next(iter(placed.values())) if placed else ()
    if len(spots) == len(ranked):  # every chunk non-empty and placed: lengths known
        sizes = list(map(itemgetter(4), spots))
    else:  # a chunk without text has its placed length
        sizes = [len(c.text) if c.text is not None else 0 for c in ranked]
        for r, chunk, _, _, length in spots:
            if chunk is None:
                sizes[r] = length
    docs = [c.doc for c in ranked] if len(placed) > 1 else ()
    return span_prefix(sizes, merged, lost, placed, docs)
