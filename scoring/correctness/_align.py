"""rapidfuzz's ``fuzz.partial_ratio_alignment``, same result, without its cubic edge cost.

rapidfuzz (rapidfuzz-cpp 3.x, ``fuzz_detail::partial_ratio_impl``) compares the shorter text
s (length n) with windows of the longer text t (length m):

1. the m − n full-length windows ``t[p : p+n]``, p < m − n, searched by bisection: the Indel
   distance of neighbouring windows differs by at most 2, which bounds what a range between
   two computed windows can hold, and ranges that cannot beat the best are dropped;
2. the prefixes ``t[:i]``, i = 1 … n − 1, in that order;
3. the suffixes ``t[i:]``, i = m − n … m − 1, in that order;
4. for m = n, the same once more with the roles of s and t swapped, kept if strictly better.

A window replaces the best one only with a strictly higher score 100·(1 − d/(n + |w|)), d
the Indel distance, and only at or above the cutoff. Steps 2 and 3 cost rapidfuzz one
O(n·i/64) Indel computation per window: O(n³/64) in all, minutes at 20,000 code points.
Here they cost one bit-parallel pass each (Hyyrö's LCS, Python integers as bit vectors):
after reading t[:i] it holds LCS(s, t[:i]) for every i at once, in O(n²/64) word steps
together; a pass is skipped when a cheap bound shows no window in it can win. Step 1 is
rapidfuzz's own bisection, ported statement for statement, on rapidfuzz's Indel distance.
Scores are computed with the same floating-point operations, so results are identical,
ties included (tests compare the two on random texts).
"""

from __future__ import annotations

import math
from typing import NamedTuple

__all__ = ["Alignment", "partial_alignment"]

_MARGIN = 1e-6  # slack on skip bounds (0–100 scale): a pass is skipped only when surely useless


class Alignment(NamedTuple):
    """As rapidfuzz's ``ScoreAlignment``: score (0–100) and the aligned spans of both texts."""

    score: float
    src_start: int
    src_end: int
    dest_start: int
    dest_end: int


def partial_alignment(s1: str, s2: str, score_cutoff: float) -> Alignment | None:
    """``fuzz.partial_ratio_alignment(s1, s2, score_cutoff=score_cutoff)``, same result.

    ``None`` when the best score is below ``score_cutoff`` (0–100), as rapidfuzz. Spans
    refer to ``s1`` (src) and ``s2`` (dest) whichever is shorter.
    """
    return bounded_alignment(s1, s2, score_cutoff, math.inf)[0]


def bounded_alignment(
    s1: str, s2: str, score_cutoff: float, max_probes: float
) -> tuple[Alignment | None, bool]:
    """``partial_alignment`` with at most ``max_probes`` full-length windows computed.

    The bisection over full-length windows (step 1) needs few probes when one window stands
    out, but many for periodic texts (thousands for 10,000 code points of a repeated
    sentence in 100,000). Once ``max_probes`` are spent it stops and keeps the best window
    probed so far; the edges are still exact. Returns the alignment and whether the budget
    ran out (the score is then a real window's score, at most the exact one).
    """
    probes = _Probes(max_probes)
    len1, len2 = len(s1), len(s2)
    if len1 > len2:
        found = _alignment(s2, s1, score_cutoff, probes)
        found = Alignment(
            found.score, found.dest_start, found.dest_end, found.src_start, found.src_end
        )
    else:
        found = _alignment(s1, s2, score_cutoff, probes)
    return (found if found.score >= score_cutoff else None), probes.exhausted


class _Probes:
    """What is left of a bisection's probe budget, and whether it ran out."""

    def __init__(self, left: float) -> None:
        self.left = left
        self.exhausted = False


def _alignment(s1: str, s2: str, cutoff: float, probes: _Probes) -> Alignment:
    len1, len2 = len(s1), len(s2)
    if cutoff > 100:
        return Alignment(0.0, 0, len1, 0, len1)
    if not len1 or not len2:
        return Alignment(100.0 if len1 == len2 else 0.0, 0, len1, 0, len1)
    found = _impl(s1, s2, cutoff, probes)
    if found.score != 100 and len1 == len2:
        other = _impl(s2, s1, max(cutoff, found.score), probes)
        if other.score > found.score:
            return Alignment(
                other.score, other.dest_start, other.dest_end, other.src_start, other.src_end
            )
    return found


def _impl(s: str, t: str, cutoff: float, probes: _Probes) -> Alignment:
    """rapidfuzz's ``partial_ratio_impl`` for |s| ≤ |t| (src is always the whole of s)."""
    from rapidfuzz.distance import Indel

    n, m = len(s), len(t)
    score, start, end = 0.0, 0, n
    first_window: int | None = None  # Indel distance of t[:n], when known
    if m > n:
        best, start, first_window = _middle(s, t, cutoff, probes)
        end = start + n
        if best == 0:
            return Alignment(100.0, 0, n, start, end)
        if best is not None:
            middle_score = (1.0 - best / (2 * n)) * 100
            if middle_score >= cutoff:
                cutoff = score = middle_score
    chars = set(s)
    # prefixes t[:i], i < n: LCS ≤ LCS(s, t[:n]), so no score above 200·K/(n + K)
    head = Indel.distance(s, t[:n]) if first_window is None else first_window
    if _may_beat(n, (2 * n - head) // 2, max(score, cutoff)):
        lcs = _prefix_lcs(s, t[: n - 1])
        for i in range(1, n):
            if t[i - 1] not in chars:
                continue
            norm = 1.0 - (n + i - 2 * lcs[i]) / (n + i)
            if norm >= cutoff / 100 and norm * 100 > score:
                cutoff = score = norm * 100
                start, end = 0, i
    # suffixes t[i:], i ≥ m − n: LCS ≤ LCS(s, t[m − n:])
    tail = head if m == n else Indel.distance(s, t[m - n :])
    if _may_beat(n, (2 * n - tail) // 2, max(score, cutoff)):
        lcs = _prefix_lcs(s[::-1], t[::-1][:n])
        for i in range(m - n, m):
            if t[i] not in chars:
                continue
            length = m - i
            norm = 1.0 - (n + length - 2 * lcs[length]) / (n + length)
            if norm >= cutoff / 100 and norm * 100 > score:
                cutoff = score = norm * 100
                start, end = i, m
                if score == 100.0:
                    break
    return Alignment(score, 0, n, start, end)


def _middle(s: str, t: str, cutoff: float, probes: _Probes) -> tuple[int | None, int, int]:
    """rapidfuzz's bisection over the full-length windows t[p : p+n], p < m − n.

    Returns the best Indel distance (``None`` when no window got below the cutoff's
    distance), its window's start, and the distance of the first window t[:n]. Stops early,
    with the best probed so far, when ``probes`` runs out.
    """
    from rapidfuzz.distance import Indel

    n, m = len(s), len(t)
    maximum = 2 * n
    cutoff_dist = math.ceil(maximum * min(1.0, 1.0 - cutoff / 100 + 0.00001))
    best: int | None = None
    start = 0
    scores: dict[int, int] = {}

    def distance(p: int) -> int:
        return int(Indel.distance(s, t[p : p + n]))

    windows = [(0, m - n - 1)]
    while windows:
        following: list[tuple[int, int]] = []
        for first, second in windows:
            for p in (first, second):
                if p not in scores:
                    if probes.left <= 0 and scores:
                        probes.exhausted = True
                        return best, start, scores[0]
                    probes.left -= 1
                    scores[p] = distance(p)
                    if scores[p] < cutoff_dist:
                        cutoff_dist = best = scores[p]
                        start = p
                        if best == 0:
                            return best, start, scores[0]
            cell_diff = second - first
            if cell_diff == 1:
                continue
            known_edits = abs(scores[first] - scores[second])
            max_improvement = (cell_diff - known_edits // 2) // 2 * 2
            if min(scores[first], scores[second]) - max_improvement < cutoff_dist:
                center = cell_diff // 2
                following.append((first, first + center))
                following.append((first + center, second))
        windows = following
    return best, start, scores[0]


def _may_beat(n: int, common: int, threshold: float) -> bool:
    """Can a window whose LCS with s is at most ``common`` score above ``threshold``?"""
    return 200.0 * common / (n + common) >= threshold - _MARGIN


def _prefix_lcs(pattern: str, text: str) -> list[int]:
    """``[LCS(pattern, text[:i]) for i in 0 … len(text)]`` in one bit-parallel pass.

    Hyyrö's algorithm: bit j of V is cleared when pattern[j] ends a match of the current
    longest common subsequence; per character c of text, U = V & mask(c), V = (V + U) |
    (V − U). The LCS grows by one exactly when V + U carries out of the top bit.
    """
    n = len(pattern)
    masks: dict[str, int] = {}
    for j, char in enumerate(pattern):
        masks[char] = masks.get(char, 0) | (1 << j)
    top = 1 << n
    vector = top - 1
    common = 0
    out = [0]
    get = masks.get
    append = out.append
    for char in text:
        mask = get(char)
        if mask:
            matched = vector & mask
            total = vector + matched
            if total >> n:
                total ^= top
                common += 1
            vector = total | (vector - matched)
        append(common)
    return out
