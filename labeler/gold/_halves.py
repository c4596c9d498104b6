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

import os
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Generic, TypeVar

from labeler.store import Store
from labeler.store.goldstage import GoldStage, part_file, sweep_parts
from labeler.workers import cut_point, fork_writer, stop

T = TypeVar("T")

#: files smaller than this are read in one process: forking and merging cost about 30 ms
MIN_SPLIT_BYTES = 2 << 20
#: connection pools of the parent, kept referenced (never closed) in a forked process
_INHERITED: list[object] = []


def split_point(path: str | Path, size: int) -> tuple[int, int] | None:
    """``(offset, line)`` where a forked process starts reading gold file ``path``
    (``size`` bytes); None when it is read whole (see :func:`~labeler.workers.cut_point`)."""
    return cut_point(path, size, MIN_SPLIT_BYTES)


class Part(Generic[T]):
    """A forked process staging the later lines of a gold file into ``path``."""

    def __init__(self, pid: int, pipe: int, path: Path) -> None:
        self.pid: int | None = pid
        self.pipe: int | None = pipe
        self.path = path

    def collect(self) -> T | None:
        """Wait for the process: what its job returned (its sealed part file is
        :attr:`path`, removed by :meth:`discard`), or None when it did not finish cleanly."""
        assert self.pid is not None and self.pipe is not None
        with os.fdopen(self.pipe, "rb") as pipe:
            self.pipe = None
            payload = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if os.waitstatus_to_exitcode(status) != 0 or not payload:
            return None
        result: T = pickle.loads(payload)
        return result

    def external_ids(self) -> Iterator[str]:
        """The query ids the collected process staged (see :meth:`collect`)."""
        return GoldStage.external_ids(self.path)

    def discard(self) -> None:
        """Stop the process if it still runs and remove its part file."""
        if self.pid is not None:
            stop(self.pid, self.pipe)
            self.pid = self.pipe = None
        elif self.pipe is not None:
            os.close(self.pipe)
            self.pipe = None
        self.path.unlink(missing_ok=True)


def fork_part(store: Store, job: Callable[[GoldStage, Callable[[], None]], T]) -> Part[T] | None:
    """Run ``job(stage, alive)`` in a forked process staging into a new part file; None
    when no process can be had (the caller then does the job itself). ``alive()`` ends the
    forked process once its parent is gone."""
    try:
        sweep_parts()
        path = part_file()
    except Exception:  # the caller stages it all and reports any problem
        return None
    parent = os.getpid()

    def child(pipe: int) -> int:
        # a connection pool of its own: the parent's connections are neither used nor
        # closed here (closing one could end the parent's session)
        _INHERITED.append(store.engine.pool)
        store.engine.dispose(close=False)
        return _stage_here(job, path, pipe, parent)

    forked = fork_writer(child)
    if forked is None:
        path.unlink(missing_ok=True)
        return None
    return Part(*forked, path)


def _stage_here(
    job: Callable[[GoldStage, Callable[[], None]], T], path: Path, pipe: int, parent: int
) -> int:
    def alive() -> None:
        if os.getppid() != parent:
            raise SystemExit(1)

    stage = None
    try:
        stage = GoldStage(path)
        result = job(stage, alive)
        stage.seal()
        with os.fdopen(pipe, "wb") as out:
            out.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:  # the parent stages these lines again and reports any error
        if stage is not None:
            stage.close()
        path.unlink(missing_ok=True)
        return 1
    return 0
