"""Score a large run in several processes, each reading and scoring a share of it.

The gold questions are split into contiguous ranges of query id; a forked process per range
opens its own read-only connection to the SQLite file, reads the run's rows in that range
(an index range scan) in ranges, scores those questions with :func:`scoring.score_questions`
and sends the table of rows back through a pipe, a column at a time (``QueryTable.parts``,
one ``marshal`` record each), which the parent merges as it reads. The parent scores the
first range itself and joins the rest, so the result is the same as scoring in one process,
row for row (a test compares them).

A process that fails (it was killed, or raised) or cannot be started costs nothing but time:
its range is scored in the parent, where an error surfaces exactly as it would without
processes.
Forking needs ``os.fork`` (POSIX) and a parent without threads; the CLI is such a parent,
the TUI is not and scores in one process.
"""

from __future__ import annotations

import marshal
import os
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, BinaryIO

from labeler.evaluation._judged_at_k import RangeJudging
from labeler.evaluation._ranges import Expand, range_ids, range_reader, score_ranges
from labeler.progress import Progress, no_progress
from labeler.runs import PageKeys, page_keys
from labeler.store.fastread import SqliteReader
from labeler.workers import fork_writer, stop, usable_cpus
from scoring import GoldQuestion, Pages, QuestionOutline
from scoring.metrics import check_ks
from scoring.querytable import QueryTable
from scoring.result import value_keys

__all__ = ["MIN_QUESTIONS_PER_PROCESS", "plan_processes", "score_in_processes"]

MIN_QUESTIONS_PER_PROCESS = 500
"""Automatic process counts give each process at least this many questions: below that
the fork and the hand-over cost more than they save."""

Shard = tuple[str | None, str | None]
"""A query id range: ids ``>= since`` (no lower bound if None) and ``< until``."""

ShardResult = tuple[QueryTable, list[str]]
"""Scored rows of one range, and the run's query ids in that range (ascending)."""


def plan_processes(jobs: int | None, questions: int) -> int:
    """How many processes to score ``questions`` questions with.

    ``jobs=None`` (automatic): one per usable CPU, but no more than one per
    ``MIN_QUESTIONS_PER_PROCESS`` questions. An explicit ``jobs`` is taken as given, capped
    at one process per question. Always 1 where ``os.fork`` does not exist.
    """
    if not hasattr(os, "fork") or questions < 2:
        return 1
    if jobs is None:
        return max(1, min(usable_cpus(), questions // MIN_QUESTIONS_PER_PROCESS))
    return max(1, min(jobs, questions))


def split_ids(ids: Sequence[str], parts: int) -> list[Shard]:
    """``parts`` contiguous ranges covering every id, with about as many of ``ids`` each."""
    ordered = sorted(set(ids))
    cuts = sorted({ordered[i] for j in range(1, parts) if (i := len(ordered) * j // parts)})
    bounds: list[str | None] = [None, *cuts, None]
    return [(bounds[j], bounds[j + 1]) for j in range(len(bounds) - 1)]


def _positions(ids: Sequence[str], shards: Sequence[Shard]) -> list[array[int]]:
    """For each shard of ``shards`` (contiguous, ascending, covering every id: as
    :func:`split_ids` makes them), the positions in ``ids`` of the ids it holds, in order
    (flat arrays: 256,000 positions as int objects are 9 MB)."""
    # the lower bounds of all but the first shard, which has none
    starts = [since for since, _ in shards[1:] if since is not None]
    out = [array("l") for _ in shards]
    for i, qid in enumerate(ids):
        out[bisect_right(starts, qid)].append(i)
    return out


def score_in_processes(
    reader: SqliteReader,
    questions: Sequence[GoldQuestion | QuestionOutline],
    pages: Pages,
    run: str,
    *,
    ks: Sequence[int],
    threshold: float,
    processes: int,
    keyed_pages: PageKeys | None = None,
    progress: Progress = no_progress,
    snap_min: float | None = None,
    judging: RangeJudging | None = None,
    expander: Callable[[SqliteReader], Expand] | None = None,
) -> ShardResult:
    """The table of rows of ``questions`` with elements, in their order, and the
    run's query ids in ascending order, scored in ``processes`` processes, each scoring
    its share in ranges (:func:`~labeler.evaluation._ranges.score_ranges`).

    The rows and ids are what :func:`scoring.aggregate` takes; ``reader`` must be open on
    a SQLite file (the other processes open their own connection to it). ``keyed_pages``
    are the pages' keys (``labeler.runs.page_keys``), worked out here when not given, and
    once for every process. ``progress`` counts this process's shard scaled to all the
    questions (the shards are of equal size, so it is close to the overall count).
    ``judging``, when given, counts judged@k over every shard, in id order (each process
    counts its own share on its own connection, as it scores it). ``expander(reader)``
    reads questions given in outline range by range (``score_ranges``'s ``expand``), on each
    process's own connection.
    """
    reader.run_id(run)  # an unknown run fails here, before any process starts
    if snap_min is not None:
        # snapping's bitmaps of long pages need numpy (and the bootstrap after it, when
        # intervals are asked for): imported once here, not again in every process forked
        import numpy  # noqa: F401
    keyed = page_keys(pages) if keyed_pages is None else keyed_pages
    cutoffs = check_ks(ks)
    questions = [q for q in questions if q.n_gold]
    shards = split_ids([q.query_id for q in questions], processes)

    # each shard's question positions, worked out once here (the forked processes inherit
    # them): a pass over 256,000 questions per shard and use took a second of this process
    owned = _positions([q.query_id for q in questions], shards)

    def mine(shard: Shard) -> array[int]:
        return owned[shards.index(shard)]

    def work(
        source: SqliteReader,
        shard: Shard,
        report: Progress = no_progress,
        judge: RangeJudging | None = judging,
    ) -> ShardResult:
        since, until = shard
        chosen = [questions[i] for i in mine(shard)]
        share = len(questions) / max(len(chosen), 1)  # this process's share, scaled

        def scaled(done: int, _total: int) -> None:
            report(round(done * share), len(questions), "")

        return score_ranges(
            chosen,
            pages,
            range_reader(source, run, keyed, lean=True),
            ks=cutoffs,
            threshold=threshold,
            since=since,
            until=until,
            on_range=None if report is no_progress else scaled,
            snap_min=snap_min,
            judge=judge,
            expand=None if expander is None else expander(source),
            run_ids=range_ids(source, run),
        )

    def in_child(shard: Shard) -> Iterator[Any]:
        source = SqliteReader(reader.path)
        judge = None if judging is None else judging.on(source)
        try:
            table, ids = work(source, shard, judge=judge)
        finally:
            source.close()
        yield from table.parts()
        yield ids
        yield None if judge is None else judge.to_plain()

    children = [_fork(partial(in_child, shard)) for shard in shards[1:]]
    table = QueryTable(value_keys(cutoffs), cutoffs, len(questions))
    ids: list[str] = []
    try:
        first, ids = work(reader, shards[0], progress)
    except BaseException:
        for child in children:
            if child is not None:
                stop(*child)
        raise
    _merge(table, first, mine(shards[0]))
    del first
    for child, shard in zip(children, shards[1:], strict=True):
        positions = mine(shard)
        sent = None if child is None else _collect(*child, table, positions)
        if sent is None:  # rows merged from a stream cut short are put again here
            more, more_ids = work(reader, shard)
            _merge(table, more, positions)
            del more
        else:
            more_ids, counted = sent
            shared = {questions[i].query_id: questions[i].query_id for i in positions}
            for i in positions:  # the parent's strings, not the copies sent
                table.ids[i] = questions[i].query_id
            more_ids = [shared.get(qid, qid) for qid in more_ids]
            if judging is not None:
                judging.extend(counted, shared)
        ids += more_ids
    return table, ids


def _merge(table: QueryTable, part: QueryTable, positions: Sequence[int]) -> None:
    """Put row j of ``part`` at row ``positions[j]`` of ``table`` (a column at a time: a
    row at a time took 3 s for this process's 128,000 rows of a 256,000-question run)."""
    table.merge_table(part, positions)


def _fork(job: Callable[[], Iterator[Any]]) -> tuple[int, int] | None:
    """Run ``job`` in a forked process writing each part it yields to a pipe (one
    ``marshal`` record each: neither side holds them all at once): (pid, read end); None
    when the system will not start another process (its share is then done here)."""

    def child(write_end: int) -> int:
        with os.fdopen(write_end, "wb") as out:
            for part in job():
                marshal.dump(part, out)
        return 0

    return fork_writer(child)


def _records(pipe: BinaryIO) -> Iterator[Any]:
    """The ``marshal`` records on ``pipe``, one at a time."""
    while True:
        yield marshal.load(pipe)


def _collect(
    pid: int, fd: int, table: QueryTable, positions: Sequence[int]
) -> tuple[list[str], Any] | None:
    """Merge the child's rows into ``table`` at ``positions`` as they come; then its run
    ids and judged@k counts. None when it did not finish cleanly (it died, or what it wrote
    is cut short or does not fit): the rows merged so far are then put again by the
    caller."""
    sent: tuple[list[str], Any] | None = None
    with os.fdopen(fd, "rb") as pipe:
        records = _records(pipe)
        try:
            table.merge_parts(records, positions)
            sent = next(records), next(records)
        except (EOFError, ValueError, TypeError):  # cut short or garbled: redone here
            sent = None
        while pipe.read(1 << 20):  # to the end, a megabyte at a time: the child's write
            pass  # never blocks on a pipe left unread
    _, status = os.waitpid(pid, 0)
    return sent if os.waitstatus_to_exitcode(status) == 0 else None
