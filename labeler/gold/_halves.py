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

:func:`stage_halves` does all this for ``gold import`` and ``gold import --layer`` alike,
each staging its lines its own way.

Forking needs what run import's does (:mod:`labeler.runs._split`): ``os.fork``, two usable
CPUs, a regular file of at least :data:`MIN_SPLIT_BYTES`, and no thread but daemon ones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from labeler.formats.jsonlines import input_size
from labeler.store import Store
from labeler.store.goldstage import GoldStage, part_file, sweep_parts
from labeler.workers import Part, cut_point, fork_stage

T = TypeVar("T")

#: which lines of a file a process reads: ``(offset, first line, end offset or None)``, as
#: :func:`~labeler.formats.jsonlines.read_objects` takes it; None: the whole file
Lines = tuple[int, int, int | None] | None

#: files smaller than this are read in one process: forking and merging cost about 30 ms
MIN_SPLIT_BYTES = 2 << 20


def split_point(path: str | Path, size: int, share: float = 0.5) -> tuple[int, int] | None:
    """``(offset, line)`` where a forked process starts reading gold file ``path``
    (``size`` bytes), ``share`` of it (in bytes) read here before; None when it is read
    whole (see :func:`~labeler.workers.cut_point`)."""
    return cut_point(path, size, MIN_SPLIT_BYTES, share)


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


def stage_halves(
    store: Store,
    path: str | Path,
    stage: GoldStage,
    seen: set[str],
    here: Callable[[Lines, Lines], object],
    forked: Callable[[Lines, GoldStage, Callable[[], None]], T],
    add: Callable[[T], None],
    *,
    split: bool = True,
    share: float = 0.5,
    meanwhile: Callable[[], object] | None = None,
) -> Part[T] | None:
    """Stage gold file ``path`` into ``stage``: ``here(lines, after)`` stages lines in this
    process (into ``stage``, tallying as the caller does, the query ids read added to
    ``seen``; ``after``: the lines that follow them in the file, None when they end it);
    ``forked(lines, part_stage, alive)`` does the same in a forked process for the later
    half, into a stage of its own, and returns its tally, which ``add`` takes once that
    stage is merged. ``split`` false (or a file too small, standard input, no fork to be
    had: :func:`split_point`): the whole file here. ``share``: the part of the file (in
    bytes) staged here, the rest by the forked process. ``meanwhile()`` is called once the
    lines here are staged, while the forked process may still be staging its own (only
    when there is one), and must not raise; it may set ``seen`` aside in ``stage``
    (:meth:`~labeler.store.goldstage.GoldStage.set_aside`), where the forked process's
    query ids are then looked up (taken back only when the later lines are read here).

    When the forked process fails, or read a query id read here, the later lines are staged
    here after the earlier ones, so that any error is the one a single process reports.
    Returns the forked process (None when there was none), which the caller discards
    (:meth:`~labeler.workers.Part.discard`) once ``stage`` is written or dropped; on any
    error it is discarded here."""
    cut = split_point(path, input_size(path), share) if split else None
    if cut is None:
        here(None, None)
        return None
    offset, line = cut
    later = (offset, line, None)
    child = fork_part(store, lambda part_stage, alive: forked(later, part_stage, alive))
    try:
        here((0, 1, offset), later)
        if child is not None and meanwhile is not None:
            meanwhile()
        more = None if child is None else child.collect()
        if child is None or more is None or stage.repeats(child.path, seen):
            # no process, it failed, or it read a query id read here already: the later
            # lines read here, so that any error is the one a single process reports
            stage.take_back(seen)  # the ids meanwhile() may have set aside
            here(later, None)
        else:
            stage.merge(child.path)
            add(more)
    except BaseException:
        if child is not None:
            child.discard()
        raise
    return child
