"""One chunk against one reference (docs/metrics.md): the two-stage rapidfuzz match, kept fast.

The definition (stage 1 ``fuzz.ratio``, stage 2 ``fuzz.partial_ratio_alignment`` with a
coverage floor) is what ``match_pair`` decides. rapidfuzz's partial alignment compares the
shorter text (length n) with every window of the longer one, including the n − 1 shorter
windows at each edge, each an Indel computation of O(n²/64) word steps: O(n³/64) in all,
minutes for two 20 KB texts. ``match_pair`` decides by exact shortcuts first (each gives the
answer the full computation would give), then computes stage 2 with
``scoring.correctness._align.partial_alignment`` (rapidfuzz's result, edges in O(n²/64)) while
the shorter text has at most ``EXACT_LIMIT`` code points; beyond that, stage 2 alone works on
the first ``EXACT_LIMIT`` code points of both texts and the result says ``truncated``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.correctness._align import Alignment, bounded_alignment
from scoring.correctness._config import CorrectnessConfig

if TYPE_CHECKING:
    from rapidfuzz.distance import ScoreAlignment

__all__ = ["EXACT_LIMIT", "PROBE_CELLS", "PairMatch", "match_pair", "stage_two_may_pass"]

EXACT_LIMIT = 20_000
"""Longest shorter text (code points) for which stage 2 runs on the whole texts."""

PROBE_CELLS = 16_000_000_000
"""Budget of rapidfuzz's window bisection in stage 2: at most PROBE_CELLS ÷ n² full-length
windows (n the shorter length; each costs an n × n Indel computation), at least 16."""

_RAPIDFUZZ_UP_TO = 128
"""Up to this shorter length rapidfuzz's own partial alignment is the quicker (cubic but in C)."""

_MARGIN = 1e-6
"""Slack (0–100 scale) on every bound: far above rapidfuzz's float error (~1e-13), so a
bound only rules out what the float computation would also reject."""


@dataclass(frozen=True, slots=True)
class PairMatch:
    """The decision for one (chunk, reference) pair.

    ``found`` is ``(stage, score, coverage)`` or ``None``; ``truncated`` is true when stage 2
    was approximated: decided on the texts' first ``EXACT_LIMIT`` code points, or with the
    window search stopped after its ``PROBE_CELLS`` budget (see ``match_pair``).
    """

    found: tuple[int, float, float] | None
    truncated: bool = False


_NO_MATCH = PairMatch(None)


def match_pair(chunk: str, reference: str, config: CorrectnessConfig) -> PairMatch:
    """Match one chunk against one reference; empty texts never match.

    Stage 1: ``fuzz.ratio(chunk, reference) ≥ 100·t1`` → ``(1, ratio, 1.0)``.
    Stage 2: ``a = fuzz.partial_ratio_alignment(reference, chunk)``, ``a.score ≥ 100·t2`` and
    ``share = min(a.src_end − a.src_start, a.dest_end − a.dest_start) ÷ |reference| ≥
    coverage`` → ``(2, a.score, share)`` (at the edges rapidfuzz may align a whole short
    reference with a shorter piece of the chunk, hence the shorter of the two spans).

    Exact shortcuts, n ≤ m the two lengths, L = n + m, d the Indel distance, K the length of
    the longest common subsequence:

    - ratio = 100·(1 − d/L) ≤ 200·n/L (d ≥ m − n): stage 1 is skipped when that bound is
      below 100·t1; otherwise d (and K = (L − d)/2) is read back from ``fuzz.ratio``.
    - a chunk shorter than the reference covers at most |chunk| of it: no stage 2 when
      |chunk| ÷ |reference| < coverage.
    - the reference inside the chunk: stage 2 gives ``(2, 100.0, 1.0)``; the chunk inside the
      reference: ``(2, 100.0, |chunk| ÷ |reference|)``.
    - no window can score above 200·K'/(n + K') (``stage_two_may_pass``): no stage 2 when
      that is below 100·t2.

    Otherwise stage 2 is computed exactly (``partial_alignment``, rapidfuzz's own result) while
    n ≤ ``EXACT_LIMIT``. Only beyond is it approximated: it runs on ``chunk[:EXACT_LIMIT]``
    and ``reference[:EXACT_LIMIT]`` (coverage then relative to the cut reference) and the
    result is marked ``truncated``. Cost: about two Indel computations of the whole texts
    (O(n·m/64): stage 1 and the bound), then, if needed, a stage 2 whose edge windows cost
    O(n²/64) (bit-parallel passes, n ≤ ``EXACT_LIMIT``) and whose full-length windows are
    rapidfuzz's bisection, each probe O(n²/64): usually a few dozen probes, but periodic
    texts can need thousands, so it stops after ``PROBE_CELLS`` ÷ n² probes (at least 16)
    with the best window probed so far (a real window's score, at most the exact one), and
    the result is marked ``truncated`` too.
    """
    from rapidfuzz import fuzz  # lazy: keeps ``import scoring`` light
    from rapidfuzz.distance import Indel

    if not chunk or not reference:
        return _NO_MATCH
    len_c, len_r = len(chunk), len(reference)
    n, total = min(len_c, len_r), len_c + len_r
    t1, t2 = 100.0 * config.t1, 100.0 * config.t2
    common: int | None = None  # K of the whole texts, once known
    if 200.0 * n / total >= t1 - _MARGIN:
        ratio = fuzz.ratio(chunk, reference)
        if ratio >= t1:
            return PairMatch((1, ratio, 1.0))
        # ratio = 100·(1 − d/L) to a few units in the last place, so this rounds to d
        # exactly for any L below 2**40; the parity check guards the argument
        distance = round((1.0 - ratio / 100.0) * total)
        if (total - distance) % 2 or not 0 <= distance <= total:
            distance = Indel.distance(chunk, reference)
        common = (total - distance) // 2
    if len_c < len_r:
        share = len_c / len_r
        if share < config.coverage:
            return _NO_MATCH
        if chunk in reference:
            return PairMatch((2, 100.0, share))
    elif len_r < len_c and reference in chunk:
        return PairMatch((2, 100.0, 1.0))
    short, long = (chunk, reference) if len_c <= len_r else (reference, chunk)
    if not stage_two_may_pass(short, long, t2 - _MARGIN, common):
        return _NO_MATCH
    if n <= EXACT_LIMIT:
        return _stage_two(chunk, reference, config)
    found = _stage_two(chunk[:EXACT_LIMIT], reference[:EXACT_LIMIT], config).found
    return PairMatch(found, truncated=True)


def stage_two_may_pass(short: str, long: str, threshold: float, common: int | None) -> bool:
    """False when no window of rapidfuzz's partial alignment can score ``threshold`` (0–100).

    Every window w compared with the shorter text s (|s| = n) lies, if it is a piece of the
    longer text t, within one segment ``t[j·n : j·n + 2n]`` for j = 0 … (|t| − n) // n (a
    window starts at some p ≤ |t| − n and is at most n long); if it is a piece of s (equal
    lengths), it is compared with t whole. LCS(s, w) ≤ K' = the largest LCS of s with a
    segment, and ≤ |w|, so its score 200·LCS/(n + |w|) ≤ 200·K'/(n + K'). ``common`` is
    LCS(s, t), already known when |t| ≤ 2n (one segment). Stops at the first segment that
    lets the threshold be reached.
    """
    from rapidfuzz.distance import LCSseq

    n, m = len(short), len(long)
    if m <= 2 * n and common is not None:
        return 200.0 * common / (n + common) >= threshold
    for j in range((m - n) // n + 1):
        best = LCSseq.similarity(short, long[j * n : j * n + 2 * n])
        if 200.0 * best / (n + best) >= threshold:
            return True
    return False


def _stage_two(chunk: str, reference: str, config: CorrectnessConfig) -> PairMatch:
    """Stage 2 on these texts; ``truncated`` when the window search ran out of budget."""
    from rapidfuzz import fuzz

    cutoff = 100.0 * config.t2
    alignment: ScoreAlignment | Alignment | None
    n = min(len(chunk), len(reference))
    stopped = False
    if n <= _RAPIDFUZZ_UP_TO:
        alignment = fuzz.partial_ratio_alignment(reference, chunk, score_cutoff=cutoff)
    else:
        probes = max(16, PROBE_CELLS // (n * n))
        alignment, stopped = bounded_alignment(reference, chunk, cutoff, probes)
    if alignment is None:
        return PairMatch(None, stopped)
    covered = min(
        alignment.src_end - alignment.src_start, alignment.dest_end - alignment.dest_start
    )
    share = covered / len(reference)
    if alignment.score >= 100.0 * config.t2 and share >= config.coverage:
        return PairMatch((2, alignment.score, share), stopped)
    return PairMatch(None, stopped)
