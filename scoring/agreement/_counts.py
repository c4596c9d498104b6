"""Span arithmetic behind annotator agreement: coverage sweeps, coincidence counts for
Krippendorff's α on characters, and the per-pair element counts of the F1 figures.

Everything here works on span boundaries, never on one value per character: a page of a
megabyte costs what its spans cost (sorting their boundaries), not what its characters cost.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import zip_longest
from typing import Literal, NamedTuple

__all__ = [
    "Coincidences",
    "PairCounts",
    "Relation",
    "Span",
    "coverage_histogram",
    "intersection_length",
    "merged",
    "partially_matched",
    "relation",
]

Interval = tuple[int, int]
Relation = Literal["identical", "nested", "overlapping", "disjoint"]


class Span(NamedTuple):
    """One element as agreement sees it: ``page[start:end]`` of page ``page``, code points."""

    page: str
    start: int
    end: int


def merged(intervals: Iterable[Interval]) -> list[Interval]:
    """The characters covered by ``intervals`` as sorted, disjoint, non-touching intervals
    (``[(0, 5), (5, 9), (2, 3)]`` → ``[(0, 9)]``)."""
    out: list[Interval] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def coverage_histogram(layers: Sequence[Sequence[Interval]], length: int) -> list[int]:
    """``hist[c]`` = the number of characters of ``[0, length)`` inside exactly ``c`` of the
    ``layers`` (each layer already :func:`merged`, so ``c`` ≤ ``len(layers)``); the
    counts add up to ``length``. One sweep over the sorted boundaries."""
    events = sorted(
        (pos, delta) for layer in layers for s, e in layer for pos, delta in ((s, 1), (e, -1))
    )
    hist = [0] * (len(layers) + 1)
    level = prev = 0
    for pos, delta in events:
        hist[level] += pos - prev
        level += delta
        prev = pos
    hist[0] += length - prev
    return hist


def intersection_length(a: Sequence[Interval], b: Sequence[Interval]) -> int:
    """Characters covered by both merged interval lists (two-pointer walk)."""
    i = j = total = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


@dataclass(frozen=True, slots=True)
class Coincidences:
    """Totals of the coincidence matrix of a binary nominal coding (0 = outside every span of
    the coder, 1 = inside one): ``n0`` = o₀₀ + o₀₁ and ``n1`` = o₁₁ + o₁₀ (pairable values of
    each kind), and o₀₁ = o₁₀ = Σ_m ``mismatch[m − 2]``/(m − 1).

    A unit (character) coded by ``m`` ≥ 2 coders, ``c`` of them 1, adds ``m − c`` to ``n0``,
    ``c`` to ``n1`` and ``c·(m − c)`` to ``mismatch[m − 2]``, i.e. ``c·(m − c)/(m − 1)`` to
    o₀₁ (Krippendorff's coincidences); units with fewer than two coders add nothing.
    Integers throughout, so sums and α are exact up to the final division.
    """

    n0: int = 0
    n1: int = 0
    mismatch: tuple[int, ...] = ()

    @classmethod
    def from_histogram(cls, hist: Sequence[int], coders: int) -> Coincidences:
        """Counts of the units of a :func:`coverage_histogram` over ``coders`` layers."""
        if coders < 2:
            return cls()
        n1 = n0 = mismatch = 0
        for c, count in enumerate(hist):
            n1 += count * c
            n0 += count * (coders - c)
            mismatch += count * c * (coders - c)
        return cls(n0, n1, (0,) * (coders - 2) + (mismatch,))

    def __add__(self, other: Coincidences) -> Coincidences:
        mismatch = tuple(x + y for x, y in zip_longest(self.mismatch, other.mismatch, fillvalue=0))
        return Coincidences(self.n0 + other.n0, self.n1 + other.n1, mismatch)

    @property
    def o01(self) -> Fraction:
        """o₀₁ = o₁₀, the coincidences of a 0 with a 1."""
        return sum((Fraction(x, i + 1) for i, x in enumerate(self.mismatch) if x), Fraction(0))

    @property
    def alpha(self) -> float | None:
        """Krippendorff's α (nominal) = 1 − D_o/D_e = 1 − (n − 1)·o₀₁ / (n₀·n₁), n = n₀ + n₁.

        None when undefined: no pairable value (n = 0; the ``krippendorff`` package raises)
        or only one value among them (n₀·n₁ = 0, so D_e = 0; the package returns nan). In
        both cases no two coders disagree on any character.
        """
        if self.n0 == 0 or self.n1 == 0:
            return None
        return float(1 - (self.n0 + self.n1 - 1) * self.o01 / (self.n0 * self.n1))


def partially_matched(xs: Iterable[Span], ys: Iterable[Span]) -> int:
    """How many of ``xs`` overlap ONE element of ``ys`` on the same page by at least half
    their own length: ``2·overlap ≥ end − start`` (docs/metrics.md's Partial, θ = 0.5;
    overlaps with several ``ys`` are not added up)."""
    by_page: dict[str, list[Interval]] = {}
    for y in ys:
        by_page.setdefault(y.page, []).append((y.start, y.end))
    starts: dict[str, list[int]] = {}
    for page, intervals in by_page.items():
        intervals.sort()
        starts[page] = [s for s, _ in intervals]
    count = 0
    for x in xs:
        candidates = by_page.get(x.page)
        if candidates is None:
            continue
        need = x.end - x.start
        # only ys starting before x ends can overlap it
        for s, e in candidates[: bisect_left(starts[x.page], x.end)]:
            if 2 * (min(x.end, e) - max(x.start, s)) >= need:
                count += 1
                break
    return count


def relation(a: Mapping[str, Sequence[Interval]], b: Mapping[str, Sequence[Interval]]) -> Relation:
    """How two coders' merged coverage (page → :func:`merged` intervals) relate, for span
    sets already known to differ: ``disjoint`` when no character is in both (one side empty
    included), ``nested`` when every character of one is covered by the other (a boundary
    disagreement, equal coverage split differently included), else ``overlapping``."""
    size_a = sum(e - s for spans in a.values() for s, e in spans)
    size_b = sum(e - s for spans in b.values() for s, e in spans)
    common = sum(intersection_length(spans, b[page]) for page, spans in a.items() if page in b)
    if common == 0:
        return "disjoint"
    if common in (size_a, size_b):
        return "nested"
    return "overlapping"


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Element counts of annotators a and b over some questions (summable with ``+``).

    ``common`` = Σ|E_a ∩ E_b|, ``total_a``/``total_b`` = Σ|E_a|, Σ|E_b|, ``matched_a`` =
    a's elements partially matched by one of b's (:func:`partially_matched`), ``matched_b``
    the same from b's side.
    """

    common: int = 0
    total_a: int = 0
    total_b: int = 0
    matched_a: int = 0
    matched_b: int = 0

    @classmethod
    def of(cls, a: frozenset[Span], b: frozenset[Span]) -> PairCounts:
        """The counts of one question."""
        return cls(len(a & b), len(a), len(b), partially_matched(a, b), partially_matched(b, a))

    def __add__(self, other: PairCounts) -> PairCounts:
        return PairCounts(
            self.common + other.common,
            self.total_a + other.total_a,
            self.total_b + other.total_b,
            self.matched_a + other.matched_a,
            self.matched_b + other.matched_b,
        )

    @property
    def exact_f1(self) -> float:
        """2·common / (total_a + total_b); 1 when both totals are 0 (both found nothing)."""
        if self.total_a + self.total_b == 0:
            return 1.0
        return 2 * self.common / (self.total_a + self.total_b)

    @property
    def partial_f1(self) -> float:
        """2PR/(P + R), P = matched_a/total_a, R = matched_b/total_b (a share over no
        elements is 0); 1 when both totals are 0 (as ``exact_f1``), 0 when P + R = 0."""
        if self.total_a + self.total_b == 0:
            return 1.0
        if self.matched_a == 0 or self.matched_b == 0:
            return 0.0  # P = 0 or R = 0 (a share over no elements is 0)
        # 2PR/(P + R) with P = ma/ta, R = mb/tb, multiplied out: 2·ma·mb/(ma·tb + mb·ta)
        numerator = 2 * self.matched_a * self.matched_b
        return numerator / (self.matched_a * self.total_b + self.matched_b * self.total_a)
