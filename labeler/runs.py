"""Run import orchestration: stream a run file into the store, all or nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from labeler.errors import InputError, input_name
from labeler.formats.jsonlines import input_size
from labeler.formats.run_jsonl import read_run
from labeler.placements import Placer
from labeler.store import Store
from labeler.store.goldsets import page_texts
from labeler.store.postgres import text_holds_nul
from labeler.store.runs import (
    add_run_placements,
    add_run_results,
    clear_run_placements,
    create_run,
    get_run,
    labelled_pages,
    mark_located,
    query_ids_by_text,
    run_rows,
)

#: results buffered before one multi-row INSERT; bounds memory on million-line runs
BATCH_RESULTS = 20_000


@dataclass(frozen=True)
class RunImportReport:
    name: str
    questions: int
    results: int
    bytes: int
    seconds: float


def import_run_file(
    store: Store,
    path: str | Path,
    name: str,
    *,
    replace: bool = False,
    parameters: dict[str, Any] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> RunImportReport:
    """Stream run JSONL ``path`` into a new run ``name`` in one write transaction.

    Memory stays bounded (results are inserted in batches of :data:`BATCH_RESULTS`). A Ragas
    line without ``query_id`` is matched to the one question whose text equals its
    ``user_input``. Any bad line raises :class:`InputError` naming it and rolls the whole
    import back. ``progress(bytes_read, total_bytes, file_name)`` is called as lines are read.
    """
    started = time.perf_counter()
    path = Path(path)
    size = input_size(path)  # 0 for standard input
    seen: set[str] = set()
    results = 0
    by_text: dict[str, set[str]] | None = None

    def report(done: int) -> None:
        if progress is not None:
            progress(done, size, path.name)

    with store.write() as session:
        run = create_run(
            session, name, source_file=input_name(path), parameters=parameters, replace=replace
        )
        placer = Placer(labelled_pages(session), partial(page_texts, session))
        rows: list[tuple[str, int, str, str | None, float | None, bool]] = []
        placed: list[tuple[str, str, str, str, str, str]] = []
        for line in read_run(path, report, allow_nul=text_holds_nul(store.engine)):
            qid = line.query_id
            if qid is None:
                if by_text is None:
                    by_text = query_ids_by_text(session)
                matches = by_text.get(line.user_input or "", set())
                if len(matches) != 1:
                    why = "no question has" if not matches else f"{len(matches)} questions have"
                    raise InputError(path, f"{why} this line's user_input as its text", line.line)
                (qid,) = matches
            if qid in seen:
                raise InputError(path, f"query_id {qid!r} appears twice", line.line)
            seen.add(qid)
            ranked = sorted(line.chunks, key=lambda c: c.rank)
            pages, everywhere = placer.place(qid, [c.text for c in ranked])
            placed.extend((qid, *p) for p in pages)
            rows.extend(
                (qid, c.rank, c.text, c.doc, c.score, found)
                for c, found in zip(ranked, everywhere, strict=True)
            )
            if len(rows) >= BATCH_RESULTS:
                results += add_run_results(session, run, rows)
                add_run_placements(session, run, placed)
                rows, placed = [], []
        results += add_run_results(session, run, rows)
        add_run_placements(session, run, placed)
    report(size)
    return RunImportReport(name, len(seen), results, size, time.perf_counter() - started)


@dataclass(frozen=True)
class PlaceReport:
    name: str
    questions: int
    placements: int
    located: int
    seconds: float


def place_run(store: Store, name: str) -> PlaceReport:
    """Work out stored run ``name``'s placements again against the labels as they are now
    (see :mod:`labeler.placements`), in one write transaction: after labels were added on
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
            pages, everywhere = placer.place(qid, [text for text, _, _ in ranked])
            placed.extend((qid, *p) for p in pages)
            located.extend((qid, r + 1) for r, found in enumerate(everywhere) if found)
        add_run_placements(session, run, placed)
        mark_located(session, run, located)
    return PlaceReport(name, len(chunks), len(placed), len(located), time.perf_counter() - started)
