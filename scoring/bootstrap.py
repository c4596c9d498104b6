"""Percentile bootstrap intervals of means over questions (numpy, vectorised).

One resample draws ``n`` questions with replacement; every column (metric) is averaged
over the same draw, so all intervals of a run come from one set of resamples. For the
4,000 × 40 metric means of a large run, 2,000 resamples cost a few tenths of a second:
the draws are turned into per-question counts ``W`` (resamples × n) and the resampled
means are one matrix product ``W · X / n``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from scoring.intervals import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    Interval,
    MetricIntervals,
    check_confidence,
    check_resamples,
)
from scoring.querytable import QueryTable
from scoring.result import RunScore

if TYPE_CHECKING:
    import numpy

__all__ = [
    "MeansOf",
    "bootstrap_mean_intervals",
    "intervals_of",
    "resample_blocks",
    "resample_means",
    "with_intervals",
]


class MeansOf(Protocol):
    """What computes the resampled means: :func:`resample_means`'s signature, all blocks."""

    def __call__(self, data: numpy.ndarray, *, resamples: int, seed: int) -> numpy.ndarray: ...


_BLOCK = 256  # resamples per block at most: a block's counts are _BLOCK × n
_BLOCK_CELLS = 2**18  # ... and about this many counts (5 MB of draws and counts) ...
_MIN_BLOCK = 8  # ... but at least 8 resamples: BLAS sums blocks of fewer rows in another
# order (measured: 1 to 5 rows differ in the last bits, 8 and more give the same means)


def bootstrap_mean_intervals(
    columns: Sequence[Sequence[float]] | numpy.ndarray,
    *,
    level: float = DEFAULT_CONFIDENCE,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    means_of: MeansOf | None = None,
) -> list[Interval]:
    """Percentile bootstrap interval of the mean of each column (all of length n).

    For b = 1..B, draw n indices uniformly with replacement (numpy's PCG64 generator
    seeded with ``seed``; the same draws for every column) and take each column's mean over
    them, θ*_b. The interval is the α/2 and 1 − α/2 percentiles of θ*_1..θ*_B (α = 1 −
    ``level``; linear interpolation, as ``numpy.percentile`` and
    ``scipy.stats.bootstrap(method="percentile")`` take them). Intervals are clipped to
    the column's range (a constant column gets ``[c, c]`` exactly, not c ± rounding).

    ``means_of`` computes the resampled means (:func:`resample_means`, the default, or
    one that must give the same rows, e.g. split over processes).

    Raises:
        ValueError: no columns or no rows, columns of different lengths, a level outside
            (0, 1) or resamples < 1.
    """
    import numpy as np  # lazy: only paid when intervals are asked for

    level = check_confidence(level)
    resamples = check_resamples(resamples)
    if isinstance(columns, np.ndarray):
        # column-major, as the lists' transpose below is: the matrix product then sums in
        # the same order and the intervals are the same to the last bit
        data = np.asfortranarray(columns, dtype=np.float64)
        if data.ndim != 2 or not data.size:
            raise ValueError("the bootstrap needs at least one column of at least one value")
        n = data.shape[0]
    else:
        if not columns or not columns[0]:
            raise ValueError("the bootstrap needs at least one column of at least one value")
        n = len(columns[0])
        if any(len(c) != n for c in columns):
            raise ValueError("bootstrap columns differ in length")
        data = np.asarray(columns, dtype=np.float64).T  # n × m
    means = resample_means if means_of is None else means_of
    found = means(data, resamples=resamples, seed=seed)
    return intervals_of(found, data, level)


def resample_blocks(n: int, resamples: int) -> int:
    """How many blocks :func:`resample_means` draws ``resamples`` resamples of ``n``
    questions in (each block's draws come from the generator after the blocks before)."""
    return -(-resamples // _block_size(n))


def _block_size(n: int) -> int:
    return max(_MIN_BLOCK, min(_BLOCK, _BLOCK_CELLS // n) // _MIN_BLOCK * _MIN_BLOCK)


def resample_means(
    data: numpy.ndarray,
    *,
    resamples: int,
    seed: int,
    blocks: tuple[int, int | None] = (0, None),
) -> numpy.ndarray:
    """The resampled means θ*_b of every column of ``data`` (an n × m float array): one
    row per resample, for the resamples of blocks ``[first, last)`` of ``blocks`` (all by
    default; ``last`` None is the end).

    The draws are made block by block from one generator seeded with ``seed``, so a block's
    draws are the same whichever blocks are asked for (the blocks before it are drawn and
    dropped), and the rows of a split into consecutive block ranges, stacked in order, are
    the rows of the whole, to the last bit: each block's means are its own matrix product.
    """
    import numpy as np

    n = data.shape[0]
    block = _block_size(n)
    first, last = blocks
    total = resample_blocks(n, resamples)
    last = total if last is None else min(last, total)
    rows = max(0, min(resamples, last * block) - first * block)
    means = np.empty((rows, data.shape[1]), dtype=np.float64)
    if not rows:
        return means
    rng = np.random.default_rng(seed)
    counts = np.empty((block, n), dtype=np.float64)
    dtype = np.int32 if n < 2**31 else np.int64
    for b in range(last):
        start = b * block
        size = min(block, resamples - start)
        draws = rng.integers(0, n, size=(size, n), dtype=dtype)
        if b < first:
            continue  # drawn only to bring the generator to the blocks asked for
        # one resample's counts at a time, straight into the float rows the product reads
        # (the whole block counted at once, then cast, peaked at twice that: 57 MB at 256,000
        # questions instead of 29); the counts are the same integers either way
        for r in range(size):
            counts[r] = np.bincount(draws[r], minlength=n)
        del draws
        at = start - first * block
        means[at : at + size] = counts[:size] @ data
    means /= n
    return means


def intervals_of(means: numpy.ndarray, data: numpy.ndarray, level: float) -> list[Interval]:
    """Each column's percentile interval at ``level`` from its resampled means (rows of
    ``means``), clipped to the column's range in ``data``."""
    import numpy as np

    alpha = 1.0 - level
    ordered = np.sort(means, axis=0)
    low, high = (_percentile(ordered, q) for q in (100 * alpha / 2, 100 * (1 - alpha / 2)))
    low = np.clip(low, data.min(axis=0), data.max(axis=0))
    high = np.clip(high, data.min(axis=0), data.max(axis=0))
    return [Interval(float(lo), float(hi)) for lo, hi in zip(low, high, strict=True)]


def _percentile(ordered: numpy.ndarray, q: float) -> numpy.ndarray:
    """The ``q``-th percentile of each column of ``ordered`` (sorted down each column), by
    ``numpy.percentile``'s default ("linear") rule and its very operations, so the values
    are its own to the last bit: virtual index ``h = (B − 1)·q/100``, ``i = ⌊h⌋`` (both
    neighbours the last row from ``h ≥ B − 1``), ``γ = h − i`` and, with ``d = x[i+1] −
    x[i]``, ``x[i] + d·γ``, or ``x[i+1] − d·(1 − γ)`` when ``γ ≥ 0.5``. (``numpy.percentile``
    itself imports ``numpy.ma`` on first use, 30 ms of every interval's command.)"""
    import numpy as np

    rows = ordered.shape[0]
    virtual = (rows - 1) * np.true_divide(q, 100)
    if virtual >= rows - 1:
        below = above = -1
    elif virtual < 0:
        below = above = 0
    else:
        below = int(np.floor(virtual))
        above = below + 1
    gamma = virtual - below
    a, b = ordered[below], ordered[above]
    step = b - a
    if gamma >= 0.5:
        return b - step * (1 - gamma)  # type: ignore[no-any-return]
    return a + step * gamma  # type: ignore[no-any-return]


def with_intervals(
    result: RunScore,
    *,
    level: float = DEFAULT_CONFIDENCE,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    means_of: MeansOf | None = None,
) -> RunScore:
    """``result`` with a percentile bootstrap interval (over its questions) for every key of
    ``result.metrics`` that is a mean of per-question values (``bootstrap_mean_intervals``).
    A result without questions gets settings but no intervals (nothing to resample).
    ``means_of``: as for :func:`bootstrap_mean_intervals`.

    Raises:
        ValueError: a level outside (0, 1) or resamples < 1.
    """
    level = check_confidence(level)
    resamples = check_resamples(resamples)
    intervals: dict[str, Interval] = {}
    keys = [key for key in result.metrics if result.queries and key in result.queries[0].values]
    if keys:
        columns = _columns(result, keys)
        found = bootstrap_mean_intervals(
            columns, level=level, resamples=resamples, seed=seed, means_of=means_of
        )
        intervals = dict(zip(keys, found, strict=True))
    ci = MetricIntervals(level, resamples, seed, intervals)
    return dataclasses.replace(result, ci=ci)


def _columns(result: RunScore, keys: Sequence[str]) -> Sequence[Sequence[float]] | numpy.ndarray:
    """The per-question values of ``keys``: for a ``QueryTable`` an n × m view of its
    values (no copy when ``keys`` are all of them, in order), else lists."""
    queries = result.queries
    if isinstance(queries, QueryTable):
        import numpy as np

        m = len(queries.keys)
        # column-major: the n × m Fortran array the bootstrap sums over, not copied
        whole = np.frombuffer(queries.values, dtype=np.float64).reshape(m, len(queries)).T
        if tuple(keys) == queries.keys:
            return whole
        return whole[:, [queries.keys.index(key) for key in keys]]
    return [[q.values[key] for q in queries] for key in keys]
