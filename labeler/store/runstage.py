"""Staging a run import outside the write lock, then copying it in one short transaction.

A run file can hold a million lines, or come from a FIFO that stays open for as long as the
producer likes. Parsing, validating and placing it (see :mod:`labeler.runs`) under the
write lock would make every other writer (annotators in the TUI included) wait for all of
that. So :class:`RunStage` spills the parsed rows into a private SQLite file of its own
(in ``$TMPDIR``: bounded memory, nothing of the database locked), and :meth:`RunStage.copy`,
called inside :meth:`Store.write`, moves them into the run's tables: on SQLite by attaching
the staging file and ``INSERT ... SELECT`` (no row passes through Python), on PostgreSQL
by reading the file in batches into the driver's ``executemany``.

The staging file is removed by :meth:`RunStage.close` (also on errors and Ctrl-C). A process
killed outright cannot remove it, so its name carries the host and process id
(``labeler-run-stage-HOST-PID-*.sqlite``) and the next import on that host removes the files of
processes that no longer run (:func:`sweep_orphans`). No import ever reads another's file, and
the database never saw it.
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from itertools import count, groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlmodel import Session

from labeler.errors import StoreError
from labeler.store.models import Run
from labeler.store.run_table import PLACEMENT_COLUMNS, RESULT_COLUMNS, insert_rows
from labeler.store.session import is_busy, is_full

ALIAS = "labeler_run_stage"
_ATTACHED = "labeler_run_stage_attached"  # marks a pooled connection that has the stage
BATCH = 20_000  # staged rows per executemany on PostgreSQL
#: the order placements are copied in (the key of ``run_placement``)
_PLACEMENT_ORDER = "query_external_id, page_sha256"

PREFIX = "labeler-run-stage-"

#: results inserted by one statement of :meth:`RunStage.add_ranked` (at most 6 values each)
GROUP = 32
_NONE, _SAME, _EACH = 0, 1, 2  # a question's docs: all None, all one document, others


@lru_cache(maxsize=512)
def _ranked_sql(size: int, doc: int, scores: bool, offsets: bool) -> str:
    """The statement staging ``size`` results of a question (see
    :meth:`RunStage.add_ranked`): ``?1`` its query id, ``?2`` the rank before the first
    (each row's rank is ``?2 + i``), ``?3`` the document all share (when ``doc`` is
    ``_SAME``), then each row's own values in the order ``add_ranked`` lists them."""
    marks = count(4)

    def take() -> str:
        return f"?{next(marks)}"

    rows = []
    for i in range(1, size + 1):
        text = take()
        at = take() if doc == _EACH else "?3" if doc == _SAME else "NULL"
        score = take() if scores else "NULL"
        located = take()
        start, end = (take(), take()) if offsets else ("NULL", "NULL")
        rows.append(f"(?1, ?2 + {i}, {text}, {at}, {score}, {located}, {start}, {end})")
    columns = ", ".join(RESULT_COLUMNS[1:])
    return f"INSERT INTO result ({columns}) VALUES {', '.join(rows)}"


def _results_in_order(db: str = "", lead: str = "") -> str:
    """A query of the staged results (of staging file ``db``, an attached database's alias
    with its dot, or the main one; each row led by the values ``lead``, with its comma) in
    the order they are copied in, the key of ``run_result``: query id, then rank.

    Each question's results are one span of consecutive rowids in rank order (see
    :meth:`RunStage.add_ranked`), so the rows are read span by span in the order of the
    span table's unique, non-null query id (its own index: no sort, and no index over the
    results to build), each span by rowid."""
    columns = ", ".join(f"r.{c}" for c in RESULT_COLUMNS[1:])
    return (
        f"SELECT {lead}{columns} FROM {db}span AS s "
        f"JOIN {db}result AS r ON r.rowid BETWEEN s.first AND s.last "
        "ORDER BY s.query_id, r.rowid"
    )


ResultRow = tuple[str, int, str, str | None, float | None, bool, int | None, int | None]
PlacementRow = tuple[str, str, str, str, str, str]


def stage_file(prefix: str = PREFIX) -> Path:
    """A new empty staging file of this process, named as :class:`RunStage` names its own
    (``prefix`` ``labeler-gold-part-``: a gold import's part, see
    :mod:`labeler.store.goldstage`), so that :func:`sweep_orphans` finds it once this
    process is gone.

    Raises :class:`StoreError` when the temporary directory is unusable."""
    what = "the run" if prefix == PREFIX else "the gold set"
    try:
        fd, name = tempfile.mkstemp(prefix=_own_prefix(prefix), suffix=".sqlite")
    except OSError as err:
        raise StoreError(f"cannot create a staging file for {what}: {err}") from None
    os.close(fd)
    return Path(name)


class RunStage:
    """A private SQLite file collecting a run's result and placement rows before the write.

    ``add_results`` / ``add_placements`` take the rows of :func:`add_run_results` /
    :func:`add_run_placements` without the run id (the run does not exist yet). Raises
    :class:`StoreError` when the temporary directory is unusable (full, read-only).
    ``orphans`` lists the files of killed imports removed on the way (:func:`sweep_orphans`).
    ``path``: stage into that file (from :func:`stage_file`, made by the process that
    forked this one to stage part of a run: see :meth:`seal` and :meth:`merge`) and sweep
    nothing.
    """

    def __init__(self, path: Path | None = None) -> None:
        #: the rowid of the last result staged (see :meth:`add_ranked`)
        self._rowid = 0
        if path is None:
            self.orphans = sweep_orphans(Path(tempfile.gettempdir()))
            path = stage_file()
        else:
            self.orphans = []
        self.path = path
        self.results = 0
        self.placements = 0
        #: ``(query id, first rowid, last rowid)`` of the questions' results not yet in the
        #: span table (written a batch at a time)
        self._spans: list[tuple[str, int, int]] = []
        self._conn: sqlite3.Connection | None = sqlite3.connect(path, isolation_level=None)
        try:
            # a throwaway file: no journal, no fsync; one transaction for the whole staging
            self._conn.execute("PRAGMA journal_mode = OFF")
            self._conn.execute("PRAGMA synchronous = OFF")
            self._conn.execute(f"CREATE TABLE result ({', '.join(RESULT_COLUMNS[1:])})")
            self._conn.execute(f"CREATE TABLE placement ({', '.join(PLACEMENT_COLUMNS[1:])})")
            # the run's question ids with their lines: a repeat is found here, not in memory
            self._conn.execute("CREATE TABLE question (query_id TEXT PRIMARY KEY, line INTEGER)")
            # each question's results: the rowids of their rows, in rank order
            self._conn.execute(
                "CREATE TABLE span (query_id TEXT NOT NULL PRIMARY KEY, "
                "first INTEGER NOT NULL, last INTEGER NOT NULL)"
            )
            self._conn.execute("BEGIN")
        except sqlite3.Error as err:
            self.close()
            raise StoreError(f"{self.path}: cannot stage the run: {err}") from None

    def _insert(self, table: str, width: int, rows: Sequence[tuple[Any, ...]]) -> None:
        assert self._conn is not None, "staging already finished"
        marks = ", ".join("?" * width)
        try:
            self._conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        except sqlite3.Error as err:  # e.g. the temporary directory's disk is full
            raise StoreError(f"{self.path}: cannot stage the run: {err}") from None

    def lines_of(self, query_ids: Sequence[str]) -> dict[str, int]:
        """Query id → the line it was staged from, for those of ``query_ids`` staged."""
        assert self._conn is not None, "staging already finished"
        found: dict[str, int] = {}
        for i in range(0, len(query_ids), 500):  # under SQLite's bound-parameter limit
            part = list(query_ids[i : i + 500])
            marks = ", ".join("?" * len(part))
            found.update(
                self._conn.execute(
                    f"SELECT query_id, line FROM question WHERE query_id IN ({marks})", part
                ).fetchall()
            )
        return found

    def add_questions(self, rows: Sequence[tuple[str, int]]) -> None:
        """Stage ``(query_id, line)`` rows (ids not staged before: see :meth:`lines_of`)."""
        self._insert("question", 2, rows)
        self._flush_spans()

    def _flush_spans(self) -> None:
        if self._spans:
            self._insert("span", 3, self._spans)
            self._spans = []

    def add_results(self, rows: Sequence[ResultRow]) -> None:
        """Stage ``(query_id, rank, text, doc, score, located, start, end)`` rows, every
        result of a question in the one call (in any order: they are staged in rank order)."""
        ordered = sorted(rows, key=itemgetter(0, 1))
        self._insert("result", len(RESULT_COLUMNS) - 1, ordered)
        at = self._rowid
        for qid, group in groupby(ordered, key=itemgetter(0)):
            n = sum(1 for _ in group)
            self._spans.append((qid, at + 1, at + n))
            at += n
        self._rowid = at
        self.results += len(ordered)

    def add_ranked(
        self,
        query_id: str,
        texts: Sequence[str],
        docs: Sequence[str | None],
        scores: Sequence[float | None],
        located: Sequence[int],
        starts: Sequence[int | None],
        ends: Sequence[int | None],
    ) -> None:
        """Stage one question's results, rank ``i + 1`` at index ``i`` of each column (as
        :meth:`add_results` would the rows zipped from them), their first and last rowid
        noted as the question's span: SQLite gives a row without one one past the table's
        highest, so these are numbered on from the last staged, in rank order (checked
        before the file is read: :meth:`_check_rowids`).

        A statement inserts up to :data:`GROUP` results: the query id, the first rank and a
        document all the results share are bound once, and a column the question leaves
        empty (every doc, score or offset None) is not bound at all, where inserting row
        by row binds all eight values of each (a NULL costs the driver more than a value).
        """
        assert self._conn is not None, "staging already finished"
        n = len(texts)
        doc = docs[0] if n else None
        doc_mode = _EACH if docs.count(doc) != n else _NONE if doc is None else _SAME
        with_scores = scores.count(None) != n
        with_offsets = starts.count(None) != n or ends.count(None) != n
        per_row: list[Sequence[Any]] = [texts]
        if doc_mode == _EACH:
            per_row.append(docs)
        if with_scores:
            per_row.append(scores)
        per_row.append(located)
        if with_offsets:
            per_row += (starts, ends)
        execute = self._conn.execute
        first = self._rowid
        width = len(per_row)
        try:
            for base in range(0, n, GROUP):
                size = min(GROUP, n - base)
                sql = _ranked_sql(size, doc_mode, with_scores, with_offsets)
                # each row's values one after another: column j of row i at 3 + i*width + j,
                # a column filled by one slice assignment (no tuple made per row)
                params: list[Any] = [None] * (3 + width * size)
                params[:3] = query_id, base, doc
                for j, column in enumerate(per_row):
                    params[3 + j :: width] = column if size == n else column[base : base + size]
                execute(sql, params)
        except sqlite3.Error as err:  # e.g. the temporary directory's disk is full
            raise StoreError(f"{self.path}: cannot stage the run: {err}") from None
        if n:
            self._spans.append((query_id, first + 1, first + n))
            self._rowid = first + n
        self.results += n

    def add_placements(self, rows: Sequence[PlacementRow]) -> None:
        """Stage ``(query_id, page key, starts, repeated, occurrences, lengths)`` rows."""
        self._insert("placement", len(PLACEMENT_COLUMNS) - 1, rows)
        self.placements += len(rows)

    def _check_rowids(self) -> None:
        """Raise :class:`StoreError` unless the staged results' highest rowid is the one
        noted, their count (the spans rely on rows numbered from 1, one after another)."""
        assert self._conn is not None, "staging already finished"
        self._flush_spans()
        (highest,) = self._conn.execute("SELECT max(rowid) FROM result").fetchone()
        if (highest or 0) != self._rowid or self._rowid != self.results:
            raise StoreError(
                f"{self.path}: staged results numbered to {highest}, not {self._rowid}"
            )

    def seal(self) -> None:
        """End staging without indexing: commit the file and close it, leaving it for
        another process's :meth:`merge` (which then owns it)."""
        if self._conn is not None:
            self._check_rowids()
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: cannot stage the run: {err}") from None
            self._conn.close()
            self._conn = None

    def merge(self, part: Path) -> tuple[str, int] | None:
        """Add the rows of sealed staging file ``part`` (a later part of the same run file,
        staged by another process) to this stage's. When one of its questions is staged
        here already, nothing is added: that question id and its line in ``part`` are
        returned instead, the earliest such line (the run file's first repeated id there,
        the part holding no repeat of its own)."""
        assert self._conn is not None, "staging already finished"
        self._check_rowids()
        execute = self._conn.execute
        try:
            # attached inside the staging transaction; detached as the connection closes
            execute("ATTACH DATABASE ? AS part", (str(part),))
            repeat = execute(
                "SELECT p.query_id, p.line FROM part.question AS p "
                "JOIN question AS q ON q.query_id = p.query_id ORDER BY p.line LIMIT 1"
            ).fetchone()
            if repeat is not None:
                return str(repeat[0]), int(repeat[1])
            # The part's results (rowids 1 to m there: see seal) are copied whole, so that
            # SQLite copies their records as they are, in rowid order, each numbered one
            # past this table's highest: rowid r there is before + r here, and so are the
            # ends of the part's spans (checked below, and before the file is read).
            before = self._rowid
            added = {}
            for table in ("question", "result", "placement"):
                cursor = execute(f"INSERT INTO {table} SELECT * FROM part.{table}")
                added[table] = cursor.rowcount
            execute(
                "INSERT INTO span SELECT query_id, first + ?, last + ? FROM part.span",
                (before, before),
            )
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot stage the run: {err}") from None
        self.results += added["result"]
        self.placements += added["placement"]
        self._rowid = before + added["result"]
        self._check_rowids()
        return None

    def finish(self) -> None:
        """End staging: index the placements in the order of their table's key and commit
        the file, so that :meth:`copy` can read it. (Rows arriving in key order append to
        the database's unique indexes instead of landing all over them: the write is
        shorter. The results need no index for that: see :func:`_results_in_order`.)
        """
        if self._conn is not None:
            self._check_rowids()
            try:
                self._conn.execute(
                    f"CREATE INDEX placement_order ON placement ({_PLACEMENT_ORDER})"
                )
                self._conn.execute("COMMIT")
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: cannot stage the run: {err}") from None
            self._conn.close()
            self._conn = None

    def copy(self, session: Session, run: Run) -> None:
        """Insert the staged rows as ``run``'s, inside ``session``'s write transaction."""
        self.finish()
        bind = session.get_bind()
        if bind.dialect.name == "sqlite":
            self._copy_attached(session, run)
        else:
            self._copy_batches(session, run)

    def _copy_attached(self, session: Session, run: Run) -> None:
        record = session.connection().connection
        dbapi = record.dbapi_connection
        assert dbapi is not None
        engine = session.get_bind()
        assert isinstance(engine, Engine)
        _detach_on_checkin(engine)
        try:
            # SQLite (>= 3.21) attaches inside a transaction; it detaches only outside one,
            # so the pool's checkin does that once the transaction has ended.
            dbapi.execute(f"ATTACH DATABASE ? AS {ALIAS}", (str(self.path),))
            record.info[_ATTACHED] = True
            dbapi.execute(
                f"INSERT INTO run_result ({', '.join(RESULT_COLUMNS)}) "
                + _results_in_order(f"{ALIAS}.", "?, "),
                (run.id,),
            )
            dbapi.execute(
                f"INSERT INTO run_placement ({', '.join(PLACEMENT_COLUMNS)}) "
                f"SELECT ?, {', '.join(PLACEMENT_COLUMNS[1:])} "
                f"FROM {ALIAS}.placement ORDER BY {_PLACEMENT_ORDER}",
                (run.id,),
            )
        except sqlite3.Error as err:  # the driver's own error: SQLAlchemy never saw it
            if is_full(err) or is_busy(err):
                raise  # the database's disk or lock: Store.write says so, naming the database
            raise StoreError(f"cannot copy the staged run from {self.path}: {err}") from None

    def _copy_batches(self, session: Session, run: Run) -> None:
        reader = sqlite3.connect(self.path)
        try:
            for table, query, columns in (
                ("run_result", _results_in_order(), RESULT_COLUMNS),
                (
                    "run_placement",
                    f"SELECT * FROM placement ORDER BY {_PLACEMENT_ORDER}",
                    PLACEMENT_COLUMNS,
                ),
            ):
                cursor = reader.execute(query)
                while batch := cursor.fetchmany(BATCH):
                    insert_rows(session, table, columns, [(run.id, *row) for row in batch])
        finally:
            reader.close()

    def close(self) -> None:
        """Drop the staging file (safe to call more than once)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.path.unlink(missing_ok=True)


def _host() -> str:
    """This machine's name, reduced to what is safe in a file name."""
    return re.sub(r"[^A-Za-z0-9.]", "_", socket.gethostname()) or "host"


def _own_prefix(prefix: str = PREFIX) -> str:
    return f"{prefix}{_host()}-{os.getpid()}-"


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    return True


def sweep_orphans(directory: Path, prefix: str = PREFIX) -> list[Path]:
    """Remove the staging files in ``directory`` left by imports killed on this host.

    A file is an orphan when its name is this host's ``labeler-run-stage-HOST-PID-*.sqlite``
    (``prefix`` in place of ``labeler-run-stage-``: see :func:`stage_file`) and process PID
    no longer runs. Files of other hosts (a shared temporary directory), of
    running processes, or named the way older versions named them are left alone, as is a
    file that cannot be removed (another user's). Returns the files removed.
    """
    pattern = re.compile(rf"{re.escape(prefix)}{re.escape(_host())}-(\d+)-[^/]*\.sqlite")
    removed: list[Path] = []
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return removed
    for name in names:
        match = pattern.fullmatch(name)
        if match is None or _running(int(match.group(1))):
            continue
        path = directory / name
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


def _detach(dbapi: Any, record: Any) -> None:
    if record.info.pop(_ATTACHED, False):
        dbapi.execute(f"DETACH DATABASE {ALIAS}")


def _detach_on_checkin(engine: Engine) -> None:
    """Have ``engine``'s pool detach the staging file from a connection handed back to it
    (after its commit or rollback), so that the file can go and the alias be used again."""
    if not event.contains(engine.pool, "checkin", _detach):
        event.listen(engine.pool, "checkin", _detach)
