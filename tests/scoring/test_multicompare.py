"""Several runs against a baseline: Holm's correction, the randomization p-value against a
brute-force enumeration, and the bootstrap interval of each mean delta."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from _scoring_helpers import chunks, question
from scipy import stats

from scoring import Chunk, comparison_table, paired_randomization_test, score_run
from scoring.intervals import Estimate
from scoring.multicompare import compare_to_baseline
from scoring.stats import holm


def test_holm_hand_worked() -> None:
    # p = (0.01, 0.04, 0.03, 0.005), m = 4. Sorted: 0.005 (×4 = 0.02), 0.01 (×3 = 0.03),
    # 0.03 (×2 = 0.06), 0.04 (×1 = 0.04, raised to the running maximum 0.06).
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # capped at 1: 0.5 × 2 = 1.0, then 0.6 × 1 = 0.6 < 1.0 → 1.0
    assert holm([0.6, 0.5]) == [1.0, 1.0]
    assert holm([0.2]) == [0.2]  # a family of one is unchanged
    assert holm([]) == []
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        holm([0.5, 1.5])


def enumerated_p(diffs: list[float]) -> float:
    """The two-sided sign-flip p-value by brute force: the share of all 2^m sign vectors s
    with |Σ s_i d_i| ≥ |Σ d_i| (zero differences dropped; written independently of
    ``scoring.stats``: plain products, a small tolerance for float ties)."""
    nonzero = [d for d in diffs if d != 0]
    observed = abs(sum(nonzero))
    count = 0
    total = 0
    for signs in itertools.product((1, -1), repeat=len(nonzero)):
        total += 1
        if abs(sum(s * d for s, d in zip(signs, nonzero, strict=True))) >= observed - 1e-12:
            count += 1
    return count / total


def test_randomization_p_against_exact_enumeration() -> None:
    rng = random.Random(3)
    a = [rng.random() for _ in range(16)]
    b = [x + rng.gauss(0.15, 0.3) for x in a]
    a[3] = b[3]  # one zero difference: it cannot change sign and is left out
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    assert sum(1 for d in diffs if d) == 15  # 2^15 > 20,000: the test below samples
    exact = enumerated_p(diffs)
    sampled = paired_randomization_test(a, b, permutations=20_000, seed=4)
    assert not sampled.exact
    # Monte-Carlo error of a p-value from 20,000 draws: ≤ sqrt(0.25 / 20,000) ≈ 0.0035
    assert sampled.p_value == pytest.approx(exact, abs=0.015)
    # when 2^m ≤ permutations the test enumerates: exactly the brute-force value
    few_a, few_b = a[:9], b[:9]
    full = paired_randomization_test(few_a, few_b, permutations=10_000)
    assert full.exact
    assert full.p_value == pytest.approx(
        enumerated_p([y - x for x, y in zip(few_a, few_b, strict=True)])
    )


PAGE = "aaaaa 0123456789 zzzzz"
ELEMENT = "0123456789"
GOLD = [question(f"Q{i}", ("p", ELEMENT)) for i in range(8)]


def run_hitting(hits: set[int]) -> dict[str, list[Chunk]]:
    return {f"Q{i}": chunks(ELEMENT if i in hits else "zzzzz") for i in range(8)}


def test_every_run_against_the_baseline_with_holm() -> None:
    base = score_run(GOLD, {"p": PAGE}, run_hitting({0, 1}), ks=[1], run_name="base")
    better = score_run(GOLD, {"p": PAGE}, run_hitting(set(range(8))), ks=[1], run_name="all")
    same = score_run(GOLD, {"p": PAGE}, run_hitting({0, 1, 2}), ks=[1], run_name="one")
    multi = compare_to_baseline([base, better, same], permutations=10_000, seed=0, level=0.9)
    assert multi.baseline == "base"
    assert [c.run_b for c in multi.comparisons] == ["all", "one"]
    assert all(c.run_a == "base" for c in multi.comparisons)
    up, one = multi.comparisons
    # "all" vs base: six questions +1, the rest 0 → exact test over 2^6 sign vectors; only
    # all-plus and all-minus reach |Σ| = 6: p = 2/64. "one": one question +1: p = 1.
    assert up.tests["hit@1"].p_value == pytest.approx(2 / 64)
    assert one.tests["hit@1"].p_value == 1.0
    # Holm over m = 2: 2/64 × 2 = 1/16; 1 × 1 = 1
    assert up.p_holm["hit@1"] == pytest.approx(1 / 16)
    assert one.p_holm["hit@1"] == 1.0
    # the delta interval: the bootstrap of the per-question deltas (6 ones, 2 zeros)
    low, high = up.delta_ci["hit@1"]
    assert low <= 0.75 <= high and low > 0.0 and high <= 1.0
    assert up.ci_level == 0.9
    data = up.to_dict()
    assert data["metrics"]["hit@1"]["p_holm"] == pytest.approx(1 / 16)
    assert data["metrics"]["hit@1"]["delta_ci"] == [low, high]
    header, rows = comparison_table(up)
    assert header[-1] == "p_holm" and rows[0][-1] == pytest.approx(1 / 16)
    assert isinstance(rows[0][3], Estimate)
    whole = multi.to_dict(per_query=False)
    assert whole["runs"] == ["all", "one"] and len(whole["comparisons"]) == 2
    # baseline chosen by index; a lone comparison is not corrected
    lone = compare_to_baseline([better, base], baseline=1, permutations=100)
    assert lone.baseline == "base" and lone.comparisons[0].p_holm == {}
    assert lone.comparisons[0].delta_ci == {}
    with pytest.raises(ValueError, match="at least two"):
        compare_to_baseline([base])


def test_delta_interval_matches_scipy_paired_bootstrap() -> None:
    rng = random.Random(8)
    gold = [question(f"Q{i}", ("p", ELEMENT)) for i in range(200)]
    run_a = {f"Q{i}": chunks(ELEMENT if rng.random() < 0.4 else "zzzzz") for i in range(200)}
    run_b = {f"Q{i}": chunks(ELEMENT if rng.random() < 0.6 else "zzzzz") for i in range(200)}
    a = score_run(gold, {"p": PAGE}, run_a, ks=[1], run_name="a")
    b = score_run(gold, {"p": PAGE}, run_b, ks=[1], run_name="b")
    (cmp,) = compare_to_baseline([a, b], permutations=100, level=0.95, resamples=20_000).comparisons
    xa = np.array([q.values["hit@1"] for q in a.queries])
    xb = np.array([q.values["hit@1"] for q in b.queries])
    res = stats.bootstrap(
        (xa, xb),
        lambda u, v, axis: np.mean(v - u, axis=axis),
        paired=True,
        n_resamples=20_000,
        method="percentile",
        random_state=np.random.default_rng(1),
    )
    low, high = cmp.delta_ci["hit@1"]
    # 0/1 deltas in {-1, 0, 1} over 200 questions: a 1/200 lattice plus Monte-Carlo error
    assert low == pytest.approx(res.confidence_interval.low, abs=0.01)
    assert high == pytest.approx(res.confidence_interval.high, abs=0.01)
