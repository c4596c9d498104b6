"""Pooling and judged@k: which parts of what runs retrieve were never judged (pure).

A gold set is complete only where its annotators read. TREC's answer is *pooling*: judge the
union of the runs' top ``k``. Here a judgement is at the character level: a page region is
*judged* for a question when an element of the question covers it (relevant) or a
not-relevant judgement does. Every function takes chunks already placed on their page
(``PlacedChunk``: the caller places them by their offsets or their text) and the question's
judged ranges per page, and works in code-point offsets.

* :func:`pool_question` — the question's pool: the page regions in any run's top ``depth``
  that nothing judged (overlapping or touching chunk ranges of every run merged per page,
  the judged ranges cut out), each with the runs that retrieved part of it and their best
  rank; ordered by how many runs retrieved it (most first), then how high (best rank
  first), then page and offset. Also, per run, how many of its top-``depth`` characters and
  chunks are unjudged.
* :func:`judged_at_k` — a run's judged characters and all characters in its top ``k``
  for one question; ``judged@k`` is their quotient (:func:`judged_at_ks`: at several k in
  one pass).

A chunk that could not be placed on a page (no page named, or its text not on it) counts
its characters as unjudged: nothing says what it holds.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from scoring.spans import intersection_length, merge_intervals

__all__ = [
    "LOW_JUDGED",
    "JudgedCount",
    "PlacedChunk",
    "PoolRegion",
    "RunPoolCounts",
    "counts_at_ks",
    "judged_at_k",
    "judged_at_ks",
    "judged_ranges",
    "judged_total",
    "lower_bound_warning",
    "pool_question",
    "total_counts",
]

Ranges = Mapping[str, Sequence[tuple[int, int]]]
"""Page id → judged ``[start, end)`` ranges there (any order, may overlap)."""


@dataclass(frozen=True, slots=True)
class PlacedChunk:
    """One retrieved chunk of one run for one question, placed on its page.

    ``rank`` is 1-based; ``start``/``end`` are its offsets on page ``doc``, both None when it
    could not be placed (``length`` then says how many characters it has).
    """

    rank: int
    doc: str | None
    start: int | None
    end: int | None
    length: int

    @property
    def placed(self) -> bool:
        """Whether the chunk sits at known offsets of a page."""
        return self.doc is not None and self.start is not None and self.end is not None


@dataclass(frozen=True, slots=True)
class PoolRegion:
    """An unjudged page region of a question's pool: ``runs`` retrieved part of it within
    the depth, ``best_rank`` is the best rank of any chunk overlapping it."""

    doc: str
    start: int
    end: int
    runs: tuple[str, ...]
    best_rank: int

    @property
    def n_runs(self) -> int:
        """How many runs retrieved part of the region."""
        return len(self.runs)


@dataclass(frozen=True, slots=True)
class RunPoolCounts:
    """One run's top-``depth`` for one question (or summed over questions): its chunks and
    characters, and how many of each are unjudged (a chunk is unjudged when any of its
    characters is); ``unplaced``: chunks not placed on any page (all unjudged)."""

    run: str
    chunks: int
    unjudged_chunks: int
    chars: int
    unjudged_chars: int
    unplaced: int = 0

    def __add__(self, other: RunPoolCounts) -> RunPoolCounts:
        return RunPoolCounts(
            self.run,
            self.chunks + other.chunks,
            self.unjudged_chunks + other.unjudged_chunks,
            self.chars + other.chars,
            self.unjudged_chars + other.unjudged_chars,
            self.unplaced + other.unplaced,
        )


@dataclass(frozen=True, slots=True)
class JudgedCount:
    """A run's top ``k`` for one question: characters judged and all characters.

    ``share`` is ``judged / chars``, None for no characters (nothing retrieved: judged@k is
    not defined, and such a question is left out of a run's total).
    """

    judged: int
    chars: int

    @property
    def share(self) -> float | None:
        """``judged@k``: the share of the top-k chunks' characters judged."""
        return None if self.chars == 0 else self.judged / self.chars


#: below this judged@k a run's scores are called a lower bound (more than a tenth of what
#: it retrieves was never judged, so relevant text there would be scored as a miss)
LOW_JUDGED = 0.9


def judged_total(counts: Iterable[JudgedCount]) -> JudgedCount:
    """A run's judged@k over questions: judged characters over all characters, summed over
    ``counts`` (one per question), so a question counts by what the run retrieved for it."""
    judged = chars = 0
    for c in counts:
        judged += c.judged
        chars += c.chars
    return JudgedCount(judged, chars)


def lower_bound_warning(count: JudgedCount, k: int) -> str | None:
    """The warning for a run whose judged@k is below :data:`LOW_JUDGED`, else None:
    ``"12.5 % of what this run retrieves at 10 was never judged: its scores are a lower
    bound"``."""
    share = count.share
    if share is None or share >= LOW_JUDGED:
        return None
    return (
        f"{100 * (1 - share):.1f} % of what this run retrieves at {k} was never judged: "
        "its scores are a lower bound"
    )


def judged_ranges(ranges: Ranges) -> dict[str, list[tuple[int, int]]]:
    """``ranges`` merged per page (disjoint, sorted; touching ranges joined)."""
    return {doc: merge_intervals(spans) for doc, spans in ranges.items()}


def _judged_chars(chunk: PlacedChunk, merged: Mapping[str, Sequence[tuple[int, int]]]) -> int:
    if not chunk.placed:
        return 0
    assert chunk.doc is not None and chunk.start is not None and chunk.end is not None
    return intersection_length([(chunk.start, chunk.end)], merged.get(chunk.doc, ()))


def _length(chunk: PlacedChunk) -> int:
    if chunk.placed:
        assert chunk.start is not None and chunk.end is not None
        return chunk.end - chunk.start
    return chunk.length


def judged_at_k(chunks: Sequence[PlacedChunk], judged: Ranges, k: int) -> JudgedCount:
    """Characters of the chunks ranked ``<= k`` that lie inside ``judged`` ranges of their
    page, and all their characters (a chunk's characters count once per chunk, so two
    overlapping chunks count the shared part twice, as both were retrieved). Raises
    ``ValueError`` for ``k < 1``."""
    return judged_at_ks(chunks, judged, (k,))[0]


def judged_at_ks(
    chunks: Sequence[PlacedChunk], judged: Ranges, ks: Sequence[int]
) -> list[JudgedCount]:
    """:func:`judged_at_k` at every k of ``ks`` (in that order), in one pass over the
    chunks: each chunk's judged and all characters are worked out once and summed over the
    ranks ``<= k``. Raises ``ValueError`` for a k below 1."""
    for k in ks:
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
    merged = judged_ranges(judged) if judged else {}
    counted = [(c.rank, _judged_chars(c, merged) if merged else 0, _length(c)) for c in chunks]
    return counts_at_ks(counted, ks)


def counts_at_ks(counted: Sequence[tuple[int, int, int]], ks: Sequence[int]) -> list[JudgedCount]:
    """``(rank, judged characters, characters)`` of each chunk summed over the ranks ``<= k``,
    at every k of ``ks`` (in that order)."""
    ordered = sorted(counted) if any(a[0] > b[0] for a, b in pairwise(counted)) else counted
    ranks = [rank for rank, _, _ in ordered]
    judged_prefix = [0, *accumulate(inside for _, inside, _ in ordered)]
    chars_prefix = [0, *accumulate(length for _, _, length in ordered)]
    out = []
    for k in ks:  # the rows ranked <= k are the first bisect_right(ranks, k) in rank order
        at = bisect_right(ranks, k)
        out.append(JudgedCount(judged_prefix[at], chars_prefix[at]))
    return out


def _subtract(
    spans: Sequence[tuple[int, int]], cut: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Disjoint sorted ``spans`` minus disjoint sorted ``cut``."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        pos = a
        for c, d in cut:
            if d <= pos or c >= b:
                continue
            if c > pos:
                out.append((pos, c))
            pos = max(pos, d)
        if pos < b:
            out.append((pos, b))
    return out


def pool_question(
    runs: Mapping[str, Sequence[PlacedChunk]], judged: Ranges, depth: int
) -> tuple[list[PoolRegion], list[RunPoolCounts]]:
    """The pool of one question over ``runs`` (run name → its placed chunks) at ``depth``,
    and each run's counts (in the order of ``runs``).

    Regions: for each page, the union of the placed chunks ranked ``<= depth`` of every run
    (overlapping and touching ranges merged) minus the ``judged`` ranges; a merged range
    that a judged range splits gives one region per unjudged piece. Raises ``ValueError``
    for ``depth < 1``.
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    merged = judged_ranges(judged)
    top = {name: [c for c in chunks if c.rank <= depth] for name, chunks in runs.items()}
    per_page: dict[str, list[tuple[int, int, str, int]]] = {}
    counts: list[RunPoolCounts] = []
    for name, chunks in top.items():
        unjudged_chunks = unjudged_chars = unplaced = 0
        for c in chunks:
            length = _length(c)
            missing = length - _judged_chars(c, merged)
            unjudged_chars += missing
            unjudged_chunks += missing > 0
            if not c.placed:
                unplaced += 1
                continue
            assert c.doc is not None and c.start is not None and c.end is not None
            if c.end > c.start:
                per_page.setdefault(c.doc, []).append((c.start, c.end, name, c.rank))
        total = sum(_length(c) for c in chunks)
        counts.append(
            RunPoolCounts(name, len(chunks), unjudged_chunks, total, unjudged_chars, unplaced)
        )
    regions: list[PoolRegion] = []
    for doc, spans in per_page.items():
        pieces = _subtract(merge_intervals((a, b) for a, b, _, _ in spans), merged.get(doc, ()))
        for a, b in pieces:
            hits = [(name, rank) for s, e, name, rank in spans if s < b and e > a]
            names = tuple(n for n in runs if any(h[0] == n for h in hits))
            regions.append(PoolRegion(doc, a, b, names, min(r for _, r in hits)))
    regions.sort(key=lambda g: (-g.n_runs, g.best_rank, g.doc, g.start))
    return regions, counts


def total_counts(rows: Iterable[RunPoolCounts], run: str) -> RunPoolCounts:
    """The sum of ``rows`` (one run's counts over questions)."""
    out = RunPoolCounts(run, 0, 0, 0, 0, 0)
    for row in rows:
        out = out + row
    return out
