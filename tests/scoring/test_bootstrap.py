"""Percentile bootstrap intervals, cross-checked against ``scipy.stats.bootstrap``."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from _scoring_helpers import chunks, question
from scipy import stats

from scoring import RunScore, score_run
from scoring.bootstrap import bootstrap_mean_intervals, with_intervals
from scoring.intervals import Estimate, Interval
from scoring.report import metric_table_rows


def scipy_interval(values: list[float], level: float, resamples: int, seed: int) -> Interval:
    res = stats.bootstrap(
        (np.asarray(values),),
        np.mean,
        confidence_level=level,
        n_resamples=resamples,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    return Interval(float(res.confidence_interval.low), float(res.confidence_interval.high))


@pytest.mark.parametrize("level", [0.95, 0.8])
def test_agrees_with_scipy_percentile_bootstrap(level: float) -> None:
    rng = random.Random(5)
    n = 300
    columns = [
        [float(rng.random() < 0.6) for _ in range(n)],  # a hit-like 0/1 metric
        [1 / rng.randint(1, 10) if rng.random() < 0.7 else 0.0 for _ in range(n)],  # mrr-like
        [rng.betavariate(2, 5) for _ in range(n)],  # a continuous one
    ]
    ours = bootstrap_mean_intervals(columns, level=level, resamples=20_000, seed=1)
    for column, mine in zip(columns, ours, strict=True):
        theirs = scipy_interval(column, level, 20_000, 2)
        # Monte-Carlo tolerance: the endpoints' sampling error at 20,000 resamples is about
        # 0.002 here (sd of the mean ≈ 0.028; quantile error sqrt(p(1-p)/B)/density), and
        # a 0/1 column's means sit on a 1/300 lattice
        assert mine.low == pytest.approx(theirs.low, abs=0.005)
        assert mine.high == pytest.approx(theirs.high, abs=0.005)
        mean = sum(column) / n
        assert mine.low < mean < mine.high


def test_same_seed_same_interval_and_shared_draws() -> None:
    column = [float(i % 3 == 0) for i in range(40)]
    first = bootstrap_mean_intervals([column], resamples=500, seed=3)
    assert bootstrap_mean_intervals([column], resamples=500, seed=3) == first
    # one set of draws for every column: a column repeated gets the identical interval
    both = bootstrap_mean_intervals([column, column], resamples=500, seed=3)
    assert both == [first[0], first[0]]


def test_degenerate_columns() -> None:
    # a constant column's resampled means are all the constant: [c, c] exactly
    assert bootstrap_mean_intervals([[0.3] * 7], resamples=50) == [Interval(0.3, 0.3)]
    # one question: every resample is that question
    assert bootstrap_mean_intervals([[0.25]], resamples=10) == [Interval(0.25, 0.25)]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="confidence level"):
        bootstrap_mean_intervals([[1.0, 0.0]], level=1.0)
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_mean_intervals([[1.0, 0.0]], resamples=0)
    with pytest.raises(ValueError, match="differ in length"):
        bootstrap_mean_intervals([[1.0, 0.0], [1.0]])
    with pytest.raises(ValueError, match="at least one"):
        bootstrap_mean_intervals([[]])


PAGE = "aaaaa 0123456789 zzzzz"
ELEMENT = "0123456789"


def small_result() -> RunScore:
    gold = [question(f"Q{i}", ("p", ELEMENT)) for i in range(6)]
    # Q0..Q2 full hit at rank 1, Q3 at rank 2, Q4 and Q5 missed
    run = {f"Q{i}": chunks(ELEMENT) for i in range(3)}
    run["Q3"] = chunks("zzzzz", ELEMENT)
    run["Q4"] = chunks("zzzzz")
    return score_run(gold, {"p": PAGE}, run, ks=[1, 2], run_name="r")


def test_every_metric_of_a_run_gets_its_interval() -> None:
    result = small_result()
    ranged = with_intervals(result, resamples=4000, seed=0)
    assert ranged.ci is not None
    assert set(ranged.ci.intervals) == set(ranged.metrics)
    hit1 = [q.values["hit@1"] for q in ranged.queries]
    assert hit1 == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    # six values: resampled means sit on a 1/6 lattice; both land on neighbouring points
    theirs = scipy_interval(hit1, 0.95, 4000, 9)
    assert ranged.ci.intervals["hit@1"].low == pytest.approx(theirs.low, abs=1 / 6 + 1e-9)
    assert ranged.ci.intervals["hit@1"].high == pytest.approx(theirs.high, abs=1 / 6 + 1e-9)
    data = json.loads(json.dumps(ranged.to_dict()))
    assert data["ci"]["hit@1"] == list(ranged.ci.intervals["hit@1"])
    assert data["bootstrap"]["resamples"] == 4000 and data["bootstrap"]["level"] == 0.95
    assert "ci" not in result.to_dict()
    _, rows = metric_table_rows(ranged)
    hit_row = rows[0]
    assert hit_row[0] == "hit" and isinstance(hit_row[1], Estimate)
    low, high = ranged.ci.intervals["hit@1"]
    assert format(hit_row[1], ".3f") == f"0.500 [{low:.3f}, {high:.3f}]"


def test_resampling_a_large_run_holds_one_block_of_counts_as_floats() -> None:
    """At 300,000 questions a block is 8 resamples: its draws (4 bytes each) and its counts
    as the floats the product reads (8 bytes each), one resample counted at a time, peak at
    112 bytes a question; counting the whole block as integers and casting it peaked at
    224, which this bound refuses."""
    import tracemalloc

    n = 300_000
    column = np.asfortranarray(np.arange(n, dtype=np.float64).reshape(n, 1) % 3)
    tracemalloc.start()
    try:
        bootstrap_mean_intervals(column, resamples=16, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 150 * n, peak / n


@pytest.mark.parametrize("rows", [1, 2, 7, 8, 999, 2000])
@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.999])
def test_percentiles_are_numpys_to_the_last_bit(rows: int, level: float) -> None:
    """The interval ends are ``numpy.percentile``'s (linear rule) of the resampled means,
    bit for bit, on columns of ties and of distinct values, without calling it."""
    import numpy as np

    from scoring.bootstrap import _percentile

    rng = np.random.default_rng(rows)
    means = np.column_stack(
        [rng.random(rows), rng.integers(0, 4, size=rows) / 3, np.full(rows, 0.25)]
    )
    alpha = 1 - level
    for q in (100 * alpha / 2, 100 * (1 - alpha / 2)):
        expected = np.percentile(means, q, axis=0)
        assert np.array_equal(_percentile(np.sort(means, axis=0), q), expected)
