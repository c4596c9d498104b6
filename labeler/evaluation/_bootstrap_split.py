"""The bootstrap's resampled means in two processes: the intervals of a large run cost
seconds of one CPU after every question is scored (7 s of a 41 s score at 256,000
questions), while the scoring processes have ended.

The resamples are drawn block by block from one generator (:func:`scoring.bootstrap.
resample_means`), so the two halves cannot be drawn apart: each process draws the blocks
before its own and drops them. Drawing is about a fifth of the work (the counting and the
matrix product the rest), so this process, which stops after its blocks, takes a little over
half of them (:data:`FIRST_SHARE`) and the other draws every block up to the end. Each
block's means are its own matrix product, so the rows stacked in order are those of one
process to the last bit. A worker that fails or cannot start costs only time: its blocks
are then done here.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from labeler.workers import fork_writer, may_fork
from scoring.bootstrap import MeansOf, resample_blocks, resample_means

if TYPE_CHECKING:
    import numpy

__all__ = ["FIRST_SHARE", "MIN_CELLS", "means_in_processes"]

#: the share of the blocks drawn and multiplied in this process (the worker draws the
#: blocks before its own too: with draws a fifth of a block's cost, 0.55 ends both together)
FIRST_SHARE = 0.55
#: resamples × questions from which a second process pays for its start (below, the whole
#: bootstrap takes a few hundredths of a second)
MIN_CELLS = 8_000_000


def means_in_processes(processes: int) -> MeansOf:
    """:func:`scoring.bootstrap.resample_means` (all blocks), in two processes when
    ``processes`` is 2 or more, forking is possible (:func:`labeler.workers.may_fork`) and
    the resamples × questions reach :data:`MIN_CELLS`; the same rows either way."""

    def means_of(data: numpy.ndarray, *, resamples: int, seed: int) -> numpy.ndarray:
        n = data.shape[0]
        total = resample_blocks(n, resamples)
        if processes < 2 or total < 2 or n * resamples < MIN_CELLS or not may_fork():
            return resample_means(data, resamples=resamples, seed=seed)
        cut = max(1, min(total - 1, round(total * FIRST_SHARE)))
        return _split(data, resamples, seed, cut)

    return means_of


def _split(data: numpy.ndarray, resamples: int, seed: int, cut: int) -> numpy.ndarray:
    import numpy as np

    def child(write_end: int) -> int:
        rows = resample_means(data, resamples=resamples, seed=seed, blocks=(cut, None))
        with os.fdopen(write_end, "wb") as out:
            out.write(rows.tobytes())
        return 0

    np.random.default_rng  # noqa: B018  # imported once, before the fork, not in each process
    worker = fork_writer(child)
    mine = resample_means(data, resamples=resamples, seed=seed, blocks=(0, cut))
    theirs = None if worker is None else _collect(*worker, resamples - len(mine), data.shape[1])
    if theirs is None:  # no worker, or it failed: its blocks are done here
        theirs = resample_means(data, resamples=resamples, seed=seed, blocks=(cut, None))
    return np.concatenate([mine, theirs])


def _collect(pid: int, fd: int, rows: int, columns: int) -> numpy.ndarray | None:
    """The worker's ``rows × columns`` means, or None when it did not end cleanly with
    exactly that many bytes written."""
    import numpy as np

    with os.fdopen(fd, "rb") as pipe:
        raw = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or len(raw) != rows * columns * 8:
        return None
    return np.frombuffer(raw, dtype=np.float64).reshape(rows, columns)
