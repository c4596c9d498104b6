"""Per-question ranking metrics at a cut-off k (docs/metrics.md, Ranking metrics).

A ``Judgement`` holds, for one question, the grade of every (rank, element) pair
``g(e, r)``; every metric below is a pure function of a judgement and k. Ranks are 1-based.
A rank is *relevant* when some ``g(e, r) ≥ PARTIAL``. The character-level metrics
(``span_recall``, ``span_precision``, ``span_iou``) need positions, not grades: see
``scoring.spans``; every metric at a token budget: ``scoring.budget``.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.grades import Grade

__all__ = [
    "METRIC_NAMES",
    "Judgement",
    "check_ks",
    "context_precision_at",
    "hit_at",
    "key_lost_at",
    "metric_table",
    "metrics_at",
    "mrr_at",
    "ndcg_at",
    "partial_at",
    "partial_recall_at",
    "precision_at",
    "recall_at",
]

METRIC_NAMES: tuple[str, ...] = (
    "hit",
    "partial",
    "mrr",
    "recall",
    "partial_recall",
    "precision",
    "context_precision",
    "ndcg",
)
_FULL = int(Grade.FULL)
_PARTIAL = int(Grade.PARTIAL)


def check_ks(ks: Sequence[object]) -> tuple[int, ...]:
    """Validate cut-offs (integers ≥ 1, at least one); return them sorted without duplicates."""
    if not ks:
        raise ValueError("at least one cut-off k is required")
    out: set[int] = set()
    for k in ks:  # each k an ``object``: compiled, an ``int`` would take True as 1 unchecked
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"cut-off k must be an integer >= 1, got {k!r}")
        out.add(k)
    return tuple(sorted(out))


@dataclass(frozen=True, slots=True)
class Judgement:
    """Grades of one question's ranked chunks against its elements.

    Attributes:
        element_grades: the label grade (≥ 1) of each element, in element order.
        grades: ``grades[r-1][i]`` = ``g(e_i, r)`` as an int (0 none, 1 partial, 2 full).
        first_full: per element, the first rank holding it Full (``None`` if never).
        first_partial: per element, the first rank holding it ≥ Partial (``None`` if never).
        relevant: per rank, whether some element is held ≥ Partial.
        first_partial_unkeyed: per element, the first rank that would hold it ≥ Partial if
            key spans were ignored; empty when no element of the question has a key (then
            it equals ``first_partial``).
    """

    element_grades: tuple[int, ...]
    grades: tuple[tuple[int, ...], ...]
    first_full: tuple[int | None, ...]
    first_partial: tuple[int | None, ...]
    relevant: tuple[bool, ...]
    first_partial_unkeyed: tuple[int | None, ...] = ()

    @classmethod
    def from_grades(
        cls, element_grades: Sequence[int], grades: Sequence[Sequence[int]]
    ) -> Judgement:
        """Build a judgement from the label grades and the per-rank grade rows."""
        n = len(element_grades)
        rows = tuple(tuple(int(g) for g in row) for row in grades)
        for row in rows:
            if len(row) != n:
                raise ValueError("every rank row needs one grade per element")
        first_full: list[int | None] = [None] * n
        first_partial: list[int | None] = [None] * n
        for r, row in enumerate(rows, start=1):
            for i, g in enumerate(row):
                if g >= _PARTIAL and first_partial[i] is None:
                    first_partial[i] = r
                if g >= _FULL and first_full[i] is None:
                    first_full[i] = r
        relevant = tuple(any(g >= _PARTIAL for g in row) for row in rows)
        return cls(tuple(element_grades), rows, tuple(first_full), tuple(first_partial), relevant)

    @property
    def n_gold(self) -> int:
        """Number of elements."""
        return len(self.element_grades)


def _first(ranks: tuple[int | None, ...]) -> int | None:
    present = [r for r in ranks if r is not None]
    return min(present) if present else None


def hit_at(j: Judgement, k: int) -> float:
    """hit@k = 1 if some rank r ≤ k holds some element Full, else 0."""
    first = _first(j.first_full)
    return 1.0 if first is not None and first <= k else 0.0


def partial_at(j: Judgement, k: int) -> float:
    """partial@k = 1 if some rank r ≤ k holds some element ≥ Partial, else 0."""
    first = _first(j.first_partial)
    return 1.0 if first is not None and first <= k else 0.0


def key_lost_at(j: Judgement, k: int) -> bool:
    """Whether a key clause turned this question's partial@k into a miss: some rank ≤ k
    would hold some element ≥ Partial were key spans ignored, and none does with them."""
    if not j.first_partial_unkeyed:
        return False
    unkeyed = _first(j.first_partial_unkeyed)
    return unkeyed is not None and unkeyed <= k and partial_at(j, k) == 0.0


def mrr_at(j: Judgement, k: int) -> float:
    """mrr@k = 1 / (first rank r ≤ k holding some element Full); 0 if there is none."""
    first = _first(j.first_full)
    return 1.0 / first if first is not None and first <= k else 0.0


def recall_at(j: Judgement, k: int) -> float:
    """recall@k = |{e : some r ≤ k holds e Full}| / |E|; 0 when E is empty."""
    if not j.first_full:
        return 0.0
    return sum(1 for r in j.first_full if r is not None and r <= k) / len(j.first_full)


def partial_recall_at(j: Judgement, k: int) -> float:
    """partial_recall@k = |{e : some r ≤ k holds e ≥ Partial}| / |E|; 0 when E is empty."""
    if not j.first_partial:
        return 0.0
    return sum(1 for r in j.first_partial if r is not None and r <= k) / len(j.first_partial)


def precision_at(j: Judgement, k: int) -> float:
    """precision@k = relevant ranks among the first k ÷ k.

    The denominator is always k: a run shorter than k counts as padded with non-relevant
    chunks (the trec_eval / ranx convention).
    """
    return sum(j.relevant[:k]) / k


def context_precision_at(j: Judgement, k: int) -> float:
    """Ragas' rank-weighted context precision at k, without epsilon.

    ``Σ_{r≤k} v_r · (Σ_{i≤r} v_i / r) ÷ Σ_{r≤k} v_r`` with ``v_r`` = 1 for a relevant rank;
    0 when no rank ≤ k is relevant.
    """
    hits = 0
    total = 0.0
    for r, v in enumerate(j.relevant[:k], start=1):
        if v:
            hits += 1
            total += hits / r
    return total / hits if hits else 0.0


def ndcg_at(j: Judgement, k: int) -> float:
    """Graded nDCG@k with linear gain (ranx ``ndcg``, trec_eval ``ndcg_cut``).

    ``DCG@k = Σ_{r≤k} gain_r / log2(r+1)`` where ``gain_r`` is the highest label grade among
    the elements *first* held Full at rank r (0 if none: a later chunk holding an element
    again adds nothing). ``IDCG@k`` uses the label grades sorted descending, one per rank,
    cut at k. nDCG@k = DCG@k / IDCG@k; 0 when E is empty.

    Unlike hit or recall, nDCG is not monotone in k while k < |E| (the ideal grows too).
    """
    if not j.element_grades:
        return 0.0
    gain: dict[int, int] = {}
    for grade, r in zip(j.element_grades, j.first_full, strict=True):
        if r is not None and r <= k and grade > gain.get(r, 0):
            gain[r] = grade
    dcg = sum(g / math.log2(r + 1) for r, g in sorted(gain.items()))
    ideal = sorted(j.element_grades, reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


_FUNCS = (
    hit_at,
    partial_at,
    mrr_at,
    recall_at,
    partial_recall_at,
    precision_at,
    context_precision_at,
    ndcg_at,
)


def metrics_at(j: Judgement, k: int) -> dict[str, float]:
    """All metrics of ``METRIC_NAMES`` at k, keyed by bare name (``"hit"``, ``"ndcg"`` ...)."""
    return {name: f(j, k) for name, f in zip(METRIC_NAMES, _FUNCS, strict=True)}


def metric_table(j: Judgement, ks: Sequence[int]) -> list[list[float]]:
    """Every metric at every k in one pass: ``table[m][x]`` = ``METRIC_NAMES[m]`` at ``ks[x]``.

    Same values (same floating-point operations in the same order) as the per-metric
    functions above, via prefix sums over ranks; ``ks`` must be validated cut-offs.
    """
    n = len(j.element_grades)
    n_ranks = len(j.relevant)
    full = sorted(r for r in j.first_full if r is not None)
    part = sorted(r for r in j.first_partial if r is not None)
    first_full = full[0] if full else 0
    first_part = part[0] if part else 0
    top = max(ks)
    depth = min(top, n_ranks)
    # prefix sums over ranks 1..depth: relevant count, context-precision numerator, DCG
    rel_prefix = [0] * (depth + 1)
    cp_prefix = [0.0] * (depth + 1)
    hits = 0
    total = 0.0
    for r in range(1, depth + 1):
        if j.relevant[r - 1]:
            hits += 1
            total += hits / r
        rel_prefix[r] = hits
        cp_prefix[r] = total
    gain: dict[int, int] = {}
    for grade, at in zip(j.element_grades, j.first_full, strict=True):
        if at is not None and at <= top and grade > gain.get(at, 0):
            gain[at] = grade
    dcg_at: list[tuple[int, float]] = []  # (rank, DCG up to and including that rank)
    dcg = 0.0
    for rank, g in sorted(gain.items()):
        dcg += g / math.log2(rank + 1)
        dcg_at.append((rank, dcg))
    ideal = sorted(j.element_grades, reverse=True)[:top]
    idcg_prefix = [0.0]
    idcg = 0.0
    for i, g in enumerate(ideal):
        idcg += g / math.log2(i + 2)
        idcg_prefix.append(idcg)
    table: list[list[float]] = [[] for _ in METRIC_NAMES]
    hit_t, partial_t, mrr_t, recall_t, partial_recall_t, precision_t, cp_t, ndcg_t = table
    for k in ks:
        hit = 1.0 if first_full and first_full <= k else 0.0
        hit_t.append(hit)
        partial_t.append(1.0 if first_part and first_part <= k else 0.0)
        mrr_t.append(1.0 / first_full if hit else 0.0)
        recall_t.append(bisect_right(full, k) / n if n else 0.0)
        partial_recall_t.append(bisect_right(part, k) / n if n else 0.0)
        d = min(k, depth)
        precision_t.append(rel_prefix[d] / k)
        cp_t.append(cp_prefix[d] / rel_prefix[d] if rel_prefix[d] else 0.0)
        dcg_k = 0.0
        for r, value in dcg_at:
            if r > k:
                break
            dcg_k = value
        ideal_k = idcg_prefix[min(k, len(ideal))]
        ndcg_t.append(dcg_k / ideal_k if ideal_k > 0 else 0.0)
    return table
