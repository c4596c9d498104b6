"""Run import orchestration: stage a run file outside the write lock, then store it, all or
nothing, in one short write transaction."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from labeler.errors import InputError, input_name
from labeler.formats.jsonlines import input_size
from labeler.formats.run_jsonl import Columns, RunLine, read_run
from labeler.runs._placements import Placer
from labeler.runs._split import Staged, fork_part, split_point
from labeler.store import Store
from labeler.store.goldsets import page_texts
from labeler.store.integrity import check_early
from labeler.store.postgres import text_holds_nul
from labeler.store.run_table import (
    add_run_placements,
    check_run_name,
    clear_run_placements,
    create_run,
    get_run,
    labelled_pages,
    mark_located,
    query_ids_by_text,
    run_rows,
)
from labeler.store.runstage import PlacementRow, RunStage
from scoring import Chunk

#: results buffered before one multi-row INSERT into the staging file (kept for callers:
#: lines are now staged per batch of BATCH_LINES, which bounds memory)
BATCH_RESULTS = 20_000


@dataclass(frozen=True)
class RunImportReport:
    name: str
    questions: int
    results: int
    bytes: int
    seconds: float
    #: staging files of earlier, killed imports removed before this one staged
    orphans: tuple[str, ...] = ()
    #: results whose offsets do not hold their text on their stored page (``page[start:end]``
    #: is other text): scoring places them by their text and flags them ``offset_mismatch``
    offset_mismatch: int = 0


def import_run_file(
    store: Store,
    path: str | Path,
    name: str,
    *,
    replace: bool = False,
    parameters: dict[str, Any] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    allow_empty: bool = False,
) -> RunImportReport:
    """Import run JSONL ``path`` as a new run ``name``, all or nothing.

    The file is read, checked and placed (see :mod:`labeler.runs`) into a staging
    file first (:class:`~labeler.store.runstage.RunStage`: bounded memory, no lock held,
    however long the file or a FIFO takes); only then is the write lock taken, for one
    short transaction that checks the name again (another import may have created the run
    meanwhile) and copies the staged rows in. A Ragas line without ``query_id`` is matched
    to the one question whose text equals its ``user_input``. Any bad line raises
    :class:`InputError` naming it, before anything is written. An existing run ``name`` is
    an error unless ``replace``. ``progress(bytes_read, total_bytes, file_name)`` is
    called as lines are read. Lines that hold no result at all would store nothing: that
    is an :class:`InputError` unless ``allow_empty``.
    """
    path = Path(path)
    size = input_size(path)  # 0 for standard input
    allow_nul = text_holds_nul(store.engine)
    cut = split_point(path, size)

    def report(done: int) -> None:
        if progress is not None:
            progress(done, size, path.name)

    if cut is None:

        def lines() -> Iterator[RunLine]:
            return read_run(path, report, allow_nul=allow_nul)

        second = None
    else:
        offset, line = cut

        def scaled(done: int) -> None:  # this process reads the first part: its share, scaled
            report(min(size - 1, done * size // offset))

        def lines() -> Iterator[RunLine]:
            return read_run(path, scaled, allow_nul=allow_nul, part=(0, 1, offset))

        def second() -> Iterator[RunLine]:
            return read_run(path, allow_nul=allow_nul, part=(offset, line, None))

    result = _import_lines(
        store,
        lines,
        name,
        where=path,
        replace=replace,
        parameters=parameters,
        size=size,
        allow_empty=allow_empty,
        second=second,
        from_file=True,
    )
    report(size)
    return result


def import_run_lines(
    store: Store,
    lines: Callable[[], Iterable[RunLine]],
    name: str,
    *,
    where: str | Path,
    replace: bool = False,
    parameters: dict[str, Any] | None = None,
    size: int = 0,
    allow_empty: bool = True,
) -> RunImportReport:
    """Store the run lines ``lines()`` yields as a new run ``name``, all or nothing: the
    one path of every run import (a file, the Python API's in-memory rows, a retriever
    called in the loop).

    Reads the current labels (to place each question's chunks on the pages they cite),
    stages the lines in ``$TMPDIR``, then writes run ``name`` with its results and
    placements in one short write transaction (see :func:`import_run_file`). ``where``
    names the input in messages (a bad line raises :class:`InputError` on it, before
    anything is written). ``lines`` is called once, after the name is checked. Unless
    ``allow_empty``, lines without a single result raise :class:`InputError` before the
    write (the run would hold nothing).
    """
    return _import_lines(
        store,
        lines,
        name,
        where=where,
        replace=replace,
        parameters=parameters,
        size=size,
        allow_empty=allow_empty,
    )


def _import_lines(
    store: Store,
    lines: Callable[[], Iterable[RunLine]],
    name: str,
    *,
    where: str | Path,
    replace: bool,
    parameters: dict[str, Any] | None,
    size: int,
    allow_empty: bool,
    second: Callable[[], Iterable[RunLine]] | None = None,
    from_file: bool = False,
) -> RunImportReport:
    """:func:`import_run_lines`, the lines ``second()`` yields (the rest of the file after
    those of ``lines()``, if given) staged by a forked process meanwhile where one can be
    (:func:`labeler.runs._split.fork_part`), else here after the others. ``from_file``:
    the lines are read from a file, so the database's damage check may run in a thread
    meanwhile (:func:`~labeler.store.integrity.check_early`; other lines may come from code
    that forks)."""
    started = time.perf_counter()
    # The labels are read for each batch of questions, the pages as placing needs them,
    # each read in a short read transaction of its own: readers neither take nor wait for
    # the write lock, and memory holds one batch's labels, whatever the database holds. A label or page changed by a writer meanwhile only makes some
    # placements stale, which scoring already allows for: a placement is keyed by the
    # digest of the page text it was made on (``page_sha256``) and keeps label occurrences
    # by the digest of the label text, so scoring uses it only while the page has that
    # text and only for label texts it was made for, and works the rest out itself
    # (labeler.runs); a chunk marked located counts only when every page the
    # question's current labels cite has an applicable placement (``load_placed_run``).
    with store.session() as session:
        check_run_name(session, name, replace=replace)  # fail before reading a large file

    def load_pages(doc_ids: Sequence[str]) -> dict[str, str]:
        with store.session() as session:
            return page_texts(session, doc_ids)

    def stage_part(part: Iterable[RunLine], stage: RunStage, alive: Callable[[], None]) -> Staged:
        with _rare_collections():
            return _stage_run(store, where, part, stage, Placer({}, load_pages), alive)

    stage = RunStage()
    child = None
    checking = None
    try:
        if second is not None:
            child = fork_part(store, partial(stage_part, second()))
        elif from_file:  # the file's check has a CPU to itself: from the start
            checking = check_early(store.file_to_check, store.location)
        questions, mismatched, first = stage_part(lines(), stage, _always)
        if second is not None:
            checking = check_early(
                store.file_to_check, store.location
            )  # while the other part ends and is merged
            done = None if child is None else child.collect()
            if child is None or done is None:  # no process, or it failed: staged here
                more = stage_part(second(), stage, _always)
            else:
                more = done
                repeat = stage.merge(child.path)
                if repeat is not None:
                    qid, line = repeat
                    raise InputError(where, f"query_id {qid!r} appears twice", line)
            questions += more[0]
            mismatched += more[1]
            first = more[2] if first is None else first
        if questions and not stage.results and not allow_empty:
            raise InputError(
                where,
                f"nothing to import: {questions} question line(s), the first here, none with a "
                "result (every 'results' or 'retrieved_contexts' list is empty); --allow-empty "
                "imports it",
                first,
            )
        if checking is not None:
            checking.join()
        with store.write() as session:
            run = create_run(
                session, name, source_file=input_name(where), parameters=parameters, replace=replace
            )
            stage.copy(session, run)
        results = stage.results
    finally:
        if child is not None:
            child.discard()
        stage.close()
    return RunImportReport(
        name,
        questions,
        results,
        size,
        time.perf_counter() - started,
        tuple(str(p) for p in stage.orphans),
        mismatched,
    )


@contextmanager
def _rare_collections() -> Iterator[None]:
    """Run the ``with`` body with the cyclic garbage collector's first generation collected
    after 20,000 new objects instead of 700 (its other thresholds and its state kept).

    Staging makes several objects per result, nearly all freed at once when no longer
    referenced; a collection every 700 of them spent about a tenth of the staging time
    walking the batch still in hand (measured at 32,000 x 20: 0.43 s of 4.8 s CPU, 0.12 s
    so). Cyclic garbage waits a little longer: until 20,000 more objects were made than
    freed."""
    before = gc.get_threshold()
    gc.set_threshold(20_000, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _always() -> None:
    """The staging process runs on (it is not a forked one whose parent may be gone)."""


def import_run_chunks(
    store: Store,
    run: Mapping[str, Sequence[Chunk]],
    name: str,
    *,
    where: str,
    replace: bool = False,
    parameters: dict[str, Any] | None = None,
    allow_empty: bool = True,
) -> RunImportReport:
    """Store ``run`` (query id → chunks in rank order, in memory) as run ``name`` through
    :func:`import_run_lines`: the same checks, placements and single write as a file
    import (``allow_empty`` as there). Every chunk needs its text; a chunk's offsets
    (``start``/``end``) are kept."""

    def lines() -> Iterator[RunLine]:
        for number, (qid, chunks) in enumerate(run.items(), 1):
            ranked = Columns(
                [chunk.text or "" for chunk in chunks],
                [chunk.doc for chunk in chunks],
                [chunk.score for chunk in chunks],
                [chunk.start for chunk in chunks],
                [chunk.end for chunk in chunks],
            )
            yield RunLine(number, qid, None, ranked)

    return import_run_lines(
        store,
        lines,
        name,
        where=where,
        replace=replace,
        parameters=parameters,
        allow_empty=allow_empty,
    )


#: run lines checked and placed together (their labels read in one query)
BATCH_LINES = 1_000


def _batches(lines: Iterable[RunLine]) -> Iterator[list[RunLine]]:
    """``lines`` in lists of :data:`BATCH_LINES`. A bad line (the reader's
    :class:`InputError`) is raised only after the lines before it were yielded, so that an
    earlier line's own problem is the one reported, as when lines are taken one by one."""
    batch: list[RunLine] = []
    iterator = iter(lines)
    while True:
        try:
            line = next(iterator)
        except StopIteration:
            break
        except InputError:
            if batch:
                yield batch
            raise
        batch.append(line)
        if len(batch) >= BATCH_LINES:
            yield batch
            batch = []
    if batch:
        yield batch


def _stage_run(
    store: Store,
    path: str | Path,
    lines: Iterable[RunLine],
    stage: RunStage,
    placer: Placer,
    alive: Callable[[], None],
) -> Staged:
    """Check and place every line of ``lines`` (read from ``path``) into ``stage``, a
    batch at a time (memory: one batch); the question count, the count of results
    whose offsets miss their text, and the first question's line (None: no question).

    The first bad line is the one reported, whatever the batches (so that a file staged
    in parts reports what it does staged whole): a line whose ``user_input`` matches no
    single question, or whose query id came before. ``alive()`` is called before each
    batch (it raises to stop)."""
    first: int | None = None
    questions = 0
    mismatched = 0
    for batch in _batches(lines):
        alive()
        if first is None:
            first = batch[0].line
        inputs = [line.user_input or "" for line in batch if line.query_id is None]
        with store.session() as session:
            by_text = query_ids_by_text(session, inputs) if inputs else {}
        qids: list[str] = []
        unmatched: InputError | None = None
        for line in batch:
            qid = line.query_id
            if qid is None:
                matches = by_text.get(line.user_input or "", set())
                if len(matches) != 1:
                    why = "no question has" if not matches else f"{len(matches)} questions have"
                    unmatched = InputError(
                        path, f"{why} this line's user_input as its text", line.line
                    )
                    break  # a repeated id on an earlier line is reported first
                (qid,) = matches
            qids.append(qid)
        staged = stage.lines_of(qids)
        seen: dict[str, int] = {}
        for line, qid in zip(batch, qids, strict=False):  # those before an unmatched line
            if qid in staged or qid in seen:
                raise InputError(path, f"query_id {qid!r} appears twice", line.line)
            seen[qid] = line.line
        if unmatched is not None:
            raise unmatched
        with store.session() as session:
            placer.labels_of = labelled_pages(session, qids)
        placer.preload(doc for cited in placer.labels_of.values() for doc in cited)
        placed: list[PlacementRow] = []
        for line, qid in zip(batch, qids, strict=True):
            texts, docs, scores, starts, ends = line.results
            offsets = starts.count(None) != len(starts)
            pinned = placer.holds(texts, docs, starts, ends) if offsets else None
            if pinned is not None:
                mismatched += pinned.count(False)
            pages, located = placer.place_columns(qid, texts, docs, starts, pinned)
            for page in pages:  # every page, a line without results too
                placed.append((qid, *page))
            stage.add_ranked(qid, texts, docs, scores, located, starts, ends)
        stage.add_questions(list(seen.items()))
        stage.add_placements(placed)
        questions += len(batch)
    return questions, mismatched, first


@dataclass(frozen=True)
class PlaceReport:
    name: str
    questions: int
    placements: int
    located: int
    seconds: float


def place_run(store: Store, name: str) -> PlaceReport:
    """Work out stored run ``name``'s placements again against the labels as they are now
    (see :mod:`labeler.runs`), in one write transaction: after labels were added on
    new pages, edited or re-anchored since the import, scoring needs to locate less."""
    started = time.perf_counter()
    with store.write() as session:
        run = get_run(session, name)
        chunks = run_rows(session, run)
        clear_run_placements(session, run)
        placer = Placer(labelled_pages(session), partial(page_texts, session))
        placed: list[tuple[str, str, str, str, str, str]] = []
        located: list[tuple[str, int]] = []
        for qid, ranked in chunks.items():
            pages, everywhere = placer.place(
                qid,
                [row[0] for row in ranked],
                [row[1] for row in ranked],
                [None if row[3] is None or row[4] is None else (row[3], row[4]) for row in ranked],
            )
            placed.extend((qid, *p) for p in pages)
            located.extend((qid, r + 1) for r, found in enumerate(everywhere) if found)
        add_run_placements(session, run, placed)
        mark_located(session, run, located)
    return PlaceReport(name, len(chunks), len(placed), len(located), time.perf_counter() - started)
