"""Paired significance test for comparing two runs question by question."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_PERMUTATIONS", "PairedTest", "holm", "paired_randomization_test"]

DEFAULT_PERMUTATIONS = 10_000
_BLOCK = 2048  # permutations per numpy block


@dataclass(frozen=True, slots=True)
class PairedTest:
    """Outcome of a two-sided paired randomization (sign-flip) test.

    Attributes:
        n: number of pairs; ``n_nonzero``: pairs whose difference is not 0.
        mean_a, mean_b: the two means; ``delta`` = mean_b − mean_a.
        p_value: two-sided p-value (1.0 when every difference is 0).
        permutations: sign patterns drawn (or enumerated when ``exact``); ``seed``: RNG seed.
        exact: all 2^n_nonzero sign patterns were enumerated instead of sampled.
    """

    n: int
    n_nonzero: int
    mean_a: float
    mean_b: float
    delta: float
    p_value: float
    permutations: int
    seed: int
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "n": self.n,
            "n_nonzero": self.n_nonzero,
            "mean_a": self.mean_a,
            "mean_b": self.mean_b,
            "delta": self.delta,
            "p_value": self.p_value,
            "permutations": self.permutations,
            "seed": self.seed,
            "exact": self.exact,
        }


def _subset_tables(diffs: Sequence[float]) -> list[list[float]]:
    """For each group of 8 differences, the sum of every subset (indexed by a bit byte)."""
    tables: list[list[float]] = []
    for start in range(0, len(diffs), 8):
        group = diffs[start : start + 8]
        table = [0.0] * 256
        for mask in range(1, 256):
            low = mask & -mask
            bit = low.bit_length() - 1
            table[mask] = table[mask ^ low] + (group[bit] if bit < len(group) else 0.0)
        tables.append(table)
    return tables


def _patterns(n: int, count: int, seed: int, exact: bool) -> Iterator[bytes]:
    """Sign patterns as little-endian bit bytes (bit i set = pair i flipped)."""
    width = (n + 7) // 8
    if exact:
        for mask in range(count):
            yield mask.to_bytes(width, "little")
        return
    rng = random.Random(seed)
    for _ in range(count):
        yield rng.getrandbits(n).to_bytes(width, "little")


def _count_python(
    tables: list[list[float]], patterns: Iterator[bytes], limit: float, total: float
) -> int:
    hits = 0
    for pattern in patterns:
        flipped = sum([tables[j][byte] for j, byte in enumerate(pattern)])
        if abs(total - 2.0 * flipped) >= limit:
            hits += 1
    return hits


def _count_numpy(
    tables: list[list[float]], patterns: Iterator[bytes], limit: float, total: float, count: int
) -> int:
    import numpy as np  # lazy: numpy is optional and heavy to import

    table = np.asarray(tables, dtype=np.float64)
    columns = np.arange(len(tables))
    hits = 0
    done = 0
    while done < count:
        size = min(_BLOCK, count - done)
        block = b"".join(next(patterns) for _ in range(size))
        index = np.frombuffer(block, dtype=np.uint8).reshape(size, len(tables))
        flipped = table[columns, index].sum(axis=1)
        hits += int(np.count_nonzero(np.abs(total - 2.0 * flipped) >= limit))
        done += size
    return hits


def paired_randomization_test(
    a: Sequence[float],
    b: Sequence[float],
    *,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
    use_numpy: bool | None = None,
) -> PairedTest:
    """Two-sided paired randomization test of ``mean(b) − mean(a)``.

    Under H0 each pair's difference ``d_i = b_i − a_i`` is equally likely to have either
    sign. With ``T(s) = |Σ s_i d_i|`` and observed ``T = |Σ d_i|``, the p-value is
    ``(1 + #{s : T(s) ≥ T}) / (1 + permutations)`` over ``permutations`` random sign
    vectors (seeded, reproducible; Phipson & Smyth's unbiased estimate), or exactly
    ``#{s : T(s) ≥ T} / 2^m`` over all ``2^m`` sign vectors when ``2^m ≤ permutations``
    (``m`` = pairs with d_i ≠ 0; zero differences cannot change sign). Equality is judged
    with a relative tolerance of 1e-9 so ties among discrete metrics count. Every
    difference 0 → p = 1.

    ``use_numpy`` (default: when numpy is importable and the work is large) only changes
    speed: both paths draw the same sign vectors.

    Raises:
        ValueError: different lengths, no pairs, or ``permutations < 1``.
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} != {len(b)}")
    if not a:
        raise ValueError("paired test needs at least one pair")
    if isinstance(permutations, bool) or not isinstance(permutations, int) or permutations < 1:
        raise ValueError(f"permutations must be an integer >= 1, got {permutations!r}")
    n = len(a)
    mean_a = math.fsum(a) / n
    mean_b = math.fsum(b) / n
    diffs = [y - x for x, y in zip(a, b, strict=True) if y != x]
    m = len(diffs)
    if m == 0:
        return PairedTest(n, 0, mean_a, mean_b, mean_b - mean_a, 1.0, 0, seed, True)
    total = math.fsum(diffs)
    limit = abs(total) - 1e-9 * max(1.0, math.fsum(abs(d) for d in diffs))
    exact = m < 63 and (1 << m) <= permutations
    count = (1 << m) if exact else permutations
    tables = _subset_tables(diffs)
    patterns = _patterns(m, count, seed, exact)
    if use_numpy is None:
        use_numpy = count * len(tables) > 200_000 and _numpy_available()
    if use_numpy:
        hits = _count_numpy(tables, patterns, limit, total, count)
    else:
        hits = _count_python(tables, patterns, limit, total)
    p_value = hits / count if exact else (hits + 1) / (count + 1)
    return PairedTest(n, m, mean_a, mean_b, mean_b - mean_a, min(p_value, 1.0), count, seed, exact)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (Holm 1979), in input order.

    With the m p-values sorted ascending, p_(1) ≤ … ≤ p_(m), the adjusted value of the
    j-th is ``max_{i ≤ j} min(1, (m − i + 1) · p_(i))``: the smallest is multiplied by m,
    the next by m − 1, …, and the running maximum keeps the order. Rejecting where the
    adjusted value is ≤ α controls the family-wise error rate at α under any dependence.
    One p-value is returned as it is; ties keep their input order (the result is the same).

    Raises:
        ValueError: a p-value outside [0, 1].
    """
    for p in p_values:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p-values must be in [0, 1], got {p!r}")
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def _numpy_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("numpy") is not None
