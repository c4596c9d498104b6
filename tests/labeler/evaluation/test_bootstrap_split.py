"""The bootstrap's resampled means split over two processes are those of one process."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import labeler.evaluation._bootstrap_split as split
from labeler.evaluation._bootstrap_split import MIN_CELLS, means_in_processes
from labeler.workers import fork_writer
from scoring.bootstrap import resample_blocks, resample_means


def _data(n: int, m: int = 6) -> np.ndarray:
    rng = np.random.default_rng(n)
    columns = [rng.random(n), rng.integers(0, 2, size=n).astype(float), np.full(n, 0.5)]
    return np.asfortranarray(np.column_stack(columns * (m // 3)))


def test_blocks_asked_for_stack_to_the_whole() -> None:
    """``resample_means`` of consecutive block ranges, stacked, is the whole, to the bit."""
    data = _data(3000)
    whole = resample_means(data, resamples=500, seed=4)
    total = resample_blocks(3000, 500)
    assert total > 3
    parts = [
        resample_means(data, resamples=500, seed=4, blocks=(a, b))
        for a, b in ((0, 1), (1, total - 2), (total - 2, None))
    ]
    assert np.array_equal(np.concatenate(parts), whole)
    assert resample_means(data, resamples=500, seed=4, blocks=(total, None)).shape == (0, 6)


def test_two_processes_give_the_rows_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Large enough (resamples × questions ≥ ``MIN_CELLS``), the means are worked out in a
    forked process and this one, and equal one process's to the last bit."""
    n, resamples = 4100, 2000
    assert n * resamples >= MIN_CELLS
    data = _data(n)
    forks: list[Any] = []

    def counted(child: Any) -> Any:
        forks.append(child)
        return fork_writer(child)

    monkeypatch.setattr(split, "fork_writer", counted)
    got = means_in_processes(2)(data, resamples=resamples, seed=9)
    assert len(forks) == 1
    assert np.array_equal(got, resample_means(data, resamples=resamples, seed=9))
    assert np.array_equal(means_in_processes(1)(data, resamples=resamples, seed=9), got)
    assert len(forks) == 1  # one process asked for: no fork


def test_a_worker_that_fails_costs_only_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies before writing its rows: its blocks are worked out here."""
    n, resamples = 4100, 2000
    data = _data(n)

    died: list[int] = []

    def dying(child: Any) -> Any:
        def dies(write_end: int) -> int:
            raise SystemExit(1)

        died.append(1)
        return fork_writer(dies)

    monkeypatch.setattr(split, "fork_writer", dying)
    got = means_in_processes(2)(data, resamples=resamples, seed=3)
    assert died == [1]
    assert np.array_equal(got, resample_means(data, resamples=resamples, seed=3))
