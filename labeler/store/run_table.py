"""Retrieval runs: streamed bulk import of ranked chunks, listing, and reading back."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, func, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, not_found
from labeler.store.models import (
    ELEMENT_OK,
    Element,
    Query,
    Run,
    RunPlacement,
    RunResult,
)
from labeler.store.rows import RUN_ROWS_SQL, RunRows, group_run_rows


@dataclass(frozen=True)
class RunListing:
    name: str
    imported_at: datetime
    source_file: str
    queries: int
    results: int


def create_run(
    session: Session,
    name: str,
    *,
    source_file: str = "",
    parameters: dict[str, Any] | None = None,
    replace: bool = False,
) -> Run:
    """A new, empty run ``name``; an existing one is an error unless ``replace`` (then it
    is deleted with its results and placements)."""
    existing = check_run_name(session, name, replace=replace)
    if existing is not None:
        session.execute(delete(RunResult).where(col(RunResult.run_id) == existing.id))
        session.execute(delete(RunPlacement).where(col(RunPlacement.run_id) == existing.id))
        session.delete(existing)
        session.flush()
    run = Run(name=name, source_file=source_file, parameters=parameters or {})
    session.add(run)
    session.flush()
    return run


def check_run_name(session: Session, name: str, *, replace: bool = False) -> Run | None:
    """The run that importing a run ``name`` would replace (None: no such run yet).

    Raises :class:`IntegrityError` for an empty name, and for an existing run unless
    ``replace``.
    """
    if not name.strip():
        raise IntegrityError("a run needs a non-empty name")
    existing = session.exec(select(Run).where(col(Run.name) == name)).first()
    if existing is not None and not replace:
        raise IntegrityError(f"run {name!r} already exists (use --replace to overwrite it)")
    return existing


@contextmanager
def driver_cursor(session: Session) -> Iterator[tuple[Any, str]]:
    """A cursor of the driver's connection inside the session's transaction, and the
    driver's parameter mark (``?`` or ``%s``).

    Run imports write and scoring reads hundreds of thousands of rows; SQLAlchemy's per-row
    parameter and result processing would cost as much as the work itself (the ORM has
    nothing to track here).
    """
    dbapi = session.connection().connection.dbapi_connection
    assert dbapi is not None
    mark = "?" if session.get_bind().dialect.paramstyle == "qmark" else "%s"
    cursor = dbapi.cursor()
    try:
        yield cursor, mark
    finally:
        cursor.close()


#: the columns of ``run_result`` and ``run_placement`` an import fills, run id first
RESULT_COLUMNS = (
    "run_id",
    "query_external_id",
    "rank",
    "chunk_text",
    "doc_id",
    "score",
    "located",
    "chunk_start",
    "chunk_end",
)
PLACEMENT_COLUMNS = (
    "run_id",
    "query_external_id",
    "page_sha256",
    "starts",
    "repeated",
    "occurrences",
    "lengths",
)


def insert_rows(
    session: Session, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]
) -> None:
    """Insert ``rows`` (values for ``columns``) into ``table`` inside ``session``'s
    transaction: through the driver's ``executemany`` on SQLite, through ``COPY ... FROM
    STDIN`` on PostgreSQL (each value sent as the text the server parses for its column,
    as a statement's parameter is; executemany's one round of parsing, planning and
    answering per row made a 32,000 × 20 run import spend 22 of its 28 s there)."""
    if not rows:
        return
    with driver_cursor(session) as (cursor, mark):
        if mark == "%s":
            with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                write = copy.write_row
                for row in rows:
                    write(row)
            return
        marks = ", ".join([mark] * len(columns))
        cursor.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


def insert_dicts(session: Session, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (column name → value, every row the same columns) into ``table``
    through the driver's ``executemany``, each value stored as SQLAlchemy stores it (the
    column type's own bind processor: a datetime's text on SQLite, a JSON column's
    serialised text), without SQLAlchemy's per-row statement machinery, which cost more
    than the insert itself on a large gold import."""
    if rows:
        insert_rows(session, *bound_rows(session, table, rows))


def bound_rows(
    session: Session, table: Table, rows: list[dict[str, Any]]
) -> tuple[str, tuple[str, ...], list[tuple[Any, ...]]]:
    """``table``'s name and the columns of ``rows`` (not empty; every row the same columns,
    in the same order), quoted as the dialect needs, and each row's values as SQLAlchemy
    binds them (the column type's own bind processor), for an insert through the driver.
    The session's pending rows are flushed first: the driver's cursor bypasses it."""
    session.flush()
    dialect = session.get_bind().dialect
    names = list(rows[0])
    columns: list[list[Any]] = []
    for name in names:  # column by column: per-value calls cost more than the insert
        values = [row[name] for row in rows]
        process = table.c[name].type._cached_bind_processor(dialect)
        if process is not None:  # (a JSON column's None is stored as JSON null, as there)
            values = _processed(process, values)
        columns.append(values)
    quote = dialect.identifier_preparer.quote  # "end" is a keyword on PostgreSQL
    return quote(table.name), tuple(quote(name) for name in names), list(zip(*columns, strict=True))


def _processed(process: Callable[[Any], Any], values: list[Any]) -> list[Any]:
    """``process`` applied to each of ``values``, once for a run of the same object (an
    import's one timestamp)."""
    out: list[Any] = []
    last: Any = out  # a sentinel no value is
    done: Any = None
    for value in values:
        if value is not last:
            last, done = value, process(value)
        out.append(done)
    return out


def add_run_results(
    session: Session,
    run: Run,
    rows: Iterable[tuple[str, int, str, str | None, float | None, bool, int | None, int | None]],
) -> int:
    """Insert ``(query_id, rank, text, doc, score, located, start, end)`` rows for ``run``;
    returns the count. ``located``: the chunk was found on every page its question's labels
    cite; ``start``/``end``: the chunk's offsets in its page (both None when unknown)."""
    batch = [(run.id, q, r, t, d, s, int(found), a, b) for q, r, t, d, s, found, a, b in rows]
    insert_rows(session, "run_result", RESULT_COLUMNS, batch)
    return len(batch)


def add_run_placements(
    session: Session, run: Run, rows: Iterable[tuple[str, str, str, str, str, str]]
) -> int:
    """Insert ``(query_id, page key, starts, repeated, occurrences, lengths)`` placements
    for ``run`` (see :mod:`labeler.runs`); returns the count."""
    batch = [(run.id, *row) for row in rows]
    insert_rows(session, "run_placement", PLACEMENT_COLUMNS, batch)
    return len(batch)


def clear_run_placements(session: Session, run: Run) -> None:
    """Delete ``run``'s placements and mark none of its chunks as located."""
    session.execute(delete(RunPlacement).where(col(RunPlacement.run_id) == run.id))
    session.execute(update(RunResult).where(col(RunResult.run_id) == run.id).values(located=0))


def mark_located(session: Session, run: Run, rows: Iterable[tuple[str, int]]) -> None:
    """Mark the ``(query_id, rank)`` chunks of ``run`` as located (see ``add_run_results``)."""
    batch = [(run.id, q, r) for q, r in rows]
    if not batch:
        return
    with driver_cursor(session) as (cursor, mark):
        cursor.executemany(
            f"UPDATE run_result SET located = 1 WHERE run_id = {mark} "
            f"AND query_external_id = {mark} AND rank = {mark}",
            batch,
        )


def run_placements(session: Session, run: Run) -> dict[str, dict[str, tuple[str, str, str, str]]]:
    """Query id → page key → the ``(starts, repeated, occurrences, lengths)`` stored for
    ``run``."""
    found: dict[str, dict[str, tuple[str, str, str, str]]] = {}
    rows = session.execute(
        sa_select(
            col(RunPlacement.query_external_id),
            col(RunPlacement.page_sha256),
            col(RunPlacement.starts),
            col(RunPlacement.repeated),
            col(RunPlacement.occurrences),
            col(RunPlacement.lengths),
        ).where(col(RunPlacement.run_id) == run.id)
    )
    for qid, key, starts, repeated, occurrences, lengths in rows:
        found.setdefault(qid, {})[key] = (starts, repeated, occurrences, lengths)
    return found


def labelled_pages(
    session: Session, external_ids: Sequence[str] | None = None
) -> dict[str, dict[str, set[str]]]:
    """Query external id → document → the texts of the current labels on it, over every
    gold set; only for ``external_ids`` when given (a run import reads them a batch of
    questions at a time, so its memory does not grow with the database)."""
    pages: dict[str, dict[str, set[str]]] = {}
    if external_ids is None:
        statement = (
            sa_select(col(Query.external_id), col(Element.document_id), col(Element.text))
            .join(Element, col(Element.query_id) == col(Query.id))
            .where(col(Element.status) == ELEMENT_OK)
        )
        for external_id, doc, text in session.execute(statement):
            pages.setdefault(external_id, {}).setdefault(doc, set()).add(text)
        return pages
    # Through the driver's cursor: an import asks for every batch of its questions, and
    # SQLAlchemy's statement and row handling cost twice the query itself. By the gold sets
    # too: the unique index on (gold set, external id) then finds each question, where a
    # lookup by external id alone scanned every element per part.
    with driver_cursor(session) as (cursor, mark):
        for part in _parts(sorted(set(external_ids))):
            cursor.execute(
                "SELECT query.external_id, element.document_id, element.text FROM query "
                "JOIN element ON element.query_id = query.id "
                f"WHERE element.status = {mark} "
                "AND query.gold_set_id IN (SELECT gold_set.id FROM gold_set) "
                f"AND query.external_id IN ({', '.join([mark] * len(part))})",
                (ELEMENT_OK, *part),
            )
            for external_id, doc, text in cursor.fetchall():
                pages.setdefault(external_id, {}).setdefault(doc, set()).add(text)
    return pages


def _parts(values: list[str], size: int = 500) -> list[list[str]]:
    """``values`` in pieces of ``size``: under SQLite's bound-parameter limit."""
    return [values[i : i + size] for i in range(0, len(values), size)]


def get_run(session: Session, name: str) -> Run:
    """Run ``name``; :class:`NotFoundError` naming the runs there are when absent."""
    run = session.exec(select(Run).where(col(Run.name) == name)).first()
    if run is None:
        names = list(session.exec(select(Run.name).order_by(col(Run.name))).all())
        raise not_found("run", name, names, none_yet="no runs imported yet")
    return run


def run_listings(session: Session) -> list[RunListing]:
    """Every run with its question and result counts, by name."""
    counts = (
        sa_select(
            col(RunResult.run_id),
            func.count(func.distinct(col(RunResult.query_external_id))),
            func.count(),
        )
        .group_by(col(RunResult.run_id))
        .subquery()
    )
    rows = session.execute(
        sa_select(Run, counts.c[1], counts.c[2])
        .outerjoin(counts, counts.c.run_id == col(Run.id))
        .order_by(col(Run.name))
    )
    return [
        RunListing(run.name, run.imported_at, run.source_file, queries or 0, results or 0)
        for run, queries, results in rows
    ]


def run_rows(session: Session, run: Run) -> RunRows:
    """Query id → ``(chunk text, doc, score, start, end)`` in rank order, for every question
    of ``run``.

    Reads through the driver's cursor: scoring reads every row of a run, and SQLAlchemy's
    per-row processing would cost more than the scoring itself.
    """
    with driver_cursor(session) as (cursor, mark):
        cursor.execute(RUN_ROWS_SQL.format(mark=mark), (run.id,))
        return cast(RunRows, group_run_rows(cursor.fetchall()))


def query_ids_by_text(session: Session, texts: Sequence[str] | None = None) -> dict[str, set[str]]:
    """Question text → external ids with that text (to match Ragas run lines); only for
    ``texts`` when given."""
    index: dict[str, set[str]] = {}
    statement = sa_select(col(Query.external_id), col(Query.text))
    parts = [None] if texts is None else _parts(sorted(set(texts)))
    for part in parts:
        chosen = statement if part is None else statement.where(col(Query.text).in_(part))
        for external_id, text in session.execute(chosen):
            index.setdefault(text, set()).add(external_id)
    return index
