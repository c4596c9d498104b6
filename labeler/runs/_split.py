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

from collections.abc import Callable
from pathlib import Path

from labeler.store import Store
from labeler.store.runstage import RunStage, stage_file
from labeler.workers import Part, cut_point, fork_stage

Staged = tuple[int, int, int | None]
"""What staging some lines gives: question lines, results whose offsets miss their text,
the first question's line (None: no question)."""

#: files smaller than this are read in one process: forking and merging cost about 20 ms
MIN_SPLIT_BYTES = 4 << 20


def split_point(path: str | Path, size: int) -> tuple[int, int] | None:
    """``(offset, line)``: the byte offset of the first line start past the middle of run
    file ``path`` (``size`` bytes) and that line's number, where the second half should be
    read by another process; None when the file is read whole (see the module's text and
    :func:`~labeler.workers.cut_point`)."""
    return cut_point(path, size, MIN_SPLIT_BYTES)


def fork_part(
    store: Store, job: Callable[[RunStage, Callable[[], None]], Staged]
) -> Part[Staged] | None:
    """Run ``job(stage, alive)`` in a forked process staging into a new file (see
    :func:`~labeler.workers.fork_stage`); None when no process can be had (the caller then
    does the job itself)."""
    try:
        path = stage_file()
    except Exception:  # the caller stages it all and reports any problem
        return None
    return fork_stage(store.engine, path, RunStage, job)
