"""A large gold file imported by two processes: its later lines read, checked, anchored and
staged by a forked process while this one does the earlier ones.

The file is cut at the first line start past its middle
(:func:`~labeler.workers.cut_point`). The forked process stages its lines into a part file
of its own (:func:`~labeler.store.goldstage.part_file`, named by this process, which removes
it in every case), with read connections of its own to the database, and sends back what
it tallied (:class:`~labeler.gold._transfer.Tally`, pickled). This process then checks that
no query id of the part came in its own lines, and appends the part to its own stage
(:meth:`~labeler.store.goldstage.GoldStage.merge`): the same rows are staged, in the same
order, and written in one transaction, all or nothing.

A forked process that fails for any reason (a bad line, a killed process, no process to be
had), or whose lines repeat a query id of the earlier ones, costs only time: this process
then reads the later lines itself, after its own, so that any error is reported exactly as
a single process reports it (the first bad line). A forked process whose parent is gone
(killed outright) stops at its next batch of lines and removes its file.

Forking needs what run import's does (:mod:`labeler.runs._split`): ``os.fork``, two usable
CPUs, a regular file of at least :data:`MIN_SPLIT_BYTES`, and no thread but daemon ones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from labeler.store import Store
from labeler.store.goldstage import GoldStage, part_file, sweep_parts
from labeler.workers import Part, cut_point, fork_stage

T = TypeVar("T")

#: files smaller than this are read in one process: forking and merging cost about 30 ms
MIN_SPLIT_BYTES = 2 << 20


def split_point(path: str | Path, size: int) -> tuple[int, int] | None:
    """``(offset, line)`` where a forked process starts reading gold file ``path``
    (``size`` bytes); None when it is read whole (see :func:`~labeler.workers.cut_point`)."""
    return cut_point(path, size, MIN_SPLIT_BYTES)


def fork_part(store: Store, job: Callable[[GoldStage, Callable[[], None]], T]) -> Part[T] | None:
    """Run ``job(stage, alive)`` in a forked process staging into a new part file (see
    :func:`~labeler.workers.fork_stage`); None when no process can be had (the caller then
    does the job itself)."""
    try:
        sweep_parts()
        path = part_file()
    except Exception:  # the caller stages it all and reports any problem
        return None
    return fork_stage(store.engine, path, GoldStage, job)
