"""A large run file imported by two processes: the second half of its lines read, checked,
placed and staged by a forked process while this one does the first half.

The file is cut at the first line start past its middle (:func:`split_point`). The forked
process stages its lines into a staging file of its own (:class:`~labeler.store.runstage.
RunStage`, named by this process, which removes it in every case), with read connections of
its own to the database; this process then merges that file into its own stage, after
checking that no query id of the second half came in the first (the earliest such line is
the error, as reading the file whole would report it). Nothing else changes: the same rows
are staged and copied in one write transaction, all or nothing.

A forked process that fails for any reason (a bad line, a killed process, no process to be
had) costs only time: this process then stages the second half itself, after the first, so
that any error is reported exactly as a single process reports it (the first bad line by
line number: see ``_stage_run``). A forked process whose parent is gone (killed outright)
stops at its next batch of lines and removes its file.

Forking needs ``os.fork`` (POSIX), at least two usable CPUs, a regular file of at least
:data:`MIN_SPLIT_BYTES`, and no thread but daemon ones besides the main thread, which must
be the caller (the CLI, with or without its progress bar); elsewhere the file is read in
one process, as before.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable
from pathlib import Path

from labeler.store import Store
from labeler.store.runstage import RunStage, stage_file
from labeler.workers import cut_point, fork_writer, stop

Staged = tuple[int, int, int | None]
"""What staging some lines gives: question lines, results whose offsets miss their text,
the first question's line (None: no question)."""

#: files smaller than this are read in one process: forking and merging cost about 20 ms
MIN_SPLIT_BYTES = 4 << 20
#: connection pools of the parent, kept referenced (never closed) in a forked process
_INHERITED: list[object] = []


def split_point(path: str | Path, size: int) -> tuple[int, int] | None:
    """``(offset, line)``: the byte offset of the first line start past the middle of run
    file ``path`` (``size`` bytes) and that line's number, where the second half should be
    read by another process; None when the file is read whole (see the module's text and
    :func:`~labeler.workers.cut_point`)."""
    return cut_point(path, size, MIN_SPLIT_BYTES)


class Part:
    """A forked process staging part of a run into ``path``."""

    def __init__(self, pid: int, pipe: int, path: Path) -> None:
        self.pid: int | None = pid
        self.pipe: int | None = pipe
        self.path = path

    def collect(self) -> tuple[Staged, Path] | None:
        """Wait for the process: what it staged and its sealed staging file (the caller
        merges it; :meth:`discard` removes it), or None when it did not finish cleanly."""
        assert self.pid is not None and self.pipe is not None
        with os.fdopen(self.pipe, "rb") as pipe:
            self.pipe = None
            payload = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if os.waitstatus_to_exitcode(status) != 0 or not payload:
            return None
        questions, mismatched, first = marshal.loads(payload)
        return (int(questions), int(mismatched), None if first is None else int(first)), self.path

    def discard(self) -> None:
        """Stop the process if it still runs and remove its staging file."""
        if self.pid is not None:
            stop(self.pid, self.pipe)
            self.pid = self.pipe = None
        elif self.pipe is not None:
            os.close(self.pipe)
            self.pipe = None
        self.path.unlink(missing_ok=True)


def fork_part(store: Store, job: Callable[[RunStage, Callable[[], None]], Staged]) -> Part | None:
    """Run ``job(stage, alive)`` in a forked process staging into a new file; None when no
    process can be had (the caller then does the job itself). ``alive()`` ends the forked
    process once its parent is gone."""
    try:
        path = stage_file()
    except Exception:  # the caller stages it all and reports any problem
        return None
    parent = os.getpid()

    def child(pipe: int) -> int:
        _forget_connections(store)
        return _stage_here(job, path, pipe, parent)

    forked = fork_writer(child)
    if forked is None:
        path.unlink(missing_ok=True)
        return None
    return Part(*forked, path)


def _stage_here(
    job: Callable[[RunStage, Callable[[], None]], Staged], path: Path, pipe: int, parent: int
) -> int:
    def alive() -> None:
        if os.getppid() != parent:
            raise SystemExit(1)

    stage = None
    try:
        stage = RunStage(path)
        staged = job(stage, alive)
        stage.seal()
        with os.fdopen(pipe, "wb") as out:
            out.write(marshal.dumps(staged))
    except BaseException:  # the parent stages this part again and reports any error
        if stage is not None:
            stage.close()
        return 1
    return 0


def _forget_connections(store: Store) -> None:
    """Give the forked process a connection pool of its own: the parent's connections
    (inherited, still the parent's) are neither used nor closed here (closing one could
    end the parent's session)."""
    _INHERITED.append(store.engine.pool)
    store.engine.dispose(close=False)
