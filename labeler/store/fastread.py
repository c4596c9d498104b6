"""Read-only access for scoring through the standard ``sqlite3`` driver.

Scoring reads whole gold sets, their pages and every row of a run; the process is timed
against trec_eval-based tools, so this path imports neither SQLAlchemy nor SQLModel. It
reads only databases already at the current schema version (others go through
:func:`labeler.store.open_store`, which upgrades them, first).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from urllib.parse import quote

from labeler.errors import StoreError, not_found
from labeler.store.rows import (
    JUDGED_RANGES_SQL,
    LAYER_ANNOTATORS_SQL,
    LAYER_ELEMENTS_SQL,
    LAYER_QUESTIONS_SQL,
    LEAN_TEXT,
    PENDING_SQL,
    RANKED_ROWS_SQL,
    RUN_ROWS_SQL,
    LeanRunRows,
    RankedRows,
    RunRows,
    StoredElement,
    StoredQuestion,
    group_ranges,
    group_run_rows,
    layer_questions,
    layer_sql,
)
from scoring.inputs import QuestionOutline


@dataclass
class GoldOutline:
    """A gold set's layer (final, or an annotator's) as scoring aggregates it, without its elements: the
    questions that are not pending, in the order added (:class:`scoring.QuestionOutline`:
    id, elements that are not stale, those with a key clause), the pending questions' ids,
    the number of stale elements left out and the pages the elements cite."""

    questions: list[QuestionOutline]
    pending: list[str]
    stale: int
    docs: list[str]


#: the schema version this reader understands; equal to ``migrations.SCHEMA_VERSION``
# (version 13 only added the not_relevant table, which scoring does not read; version 14
# only changed the element span triggers)
READS_SCHEMA = 14


class SqliteReader:
    """A read-only connection to one SQLite store file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
            self.conn.execute("PRAGMA busy_timeout = 10000")
            # No memory-mapped reads: every page of the file the run's read touched stayed
            # in the process's resident memory (823 MB scoring 32,000 questions, 152 MB
            # without), and measured with the lean reads, mapping saved no time.
        except sqlite3.Error as err:
            raise StoreError(f"{path}: cannot open: {err}") from None

    def schema_version(self) -> int:
        """The recorded schema version; 0 when the file has no schema_version table."""
        try:
            row = self.conn.execute("SELECT max(version) FROM schema_version").fetchone()
        except sqlite3.DatabaseError:
            return 0
        return int(row[0] or 0)

    def close(self) -> None:
        self.conn.close()

    def _gold_set_id(self, gold_set: str) -> int:
        row = self.conn.execute("SELECT id FROM gold_set WHERE name = ?", (gold_set,)).fetchone()
        if row is None:
            names = [n for (n,) in self.conn.execute("SELECT name FROM gold_set ORDER BY name")]
            raise not_found("gold set", gold_set, names)
        return int(row[0])

    def layer_questions(
        self,
        gold_set: str,
        annotator: str,
        *,
        since: str | None = None,
        until: str | None = None,
    ) -> list[StoredQuestion]:
        """``annotator``'s layer of ``gold_set``: the questions they marked done, with their
        own labels (see :func:`labeler.store.rows.layer_questions`); only external ids
        ``>= since`` and ``< until`` where those are given (an index range)."""
        params: dict[str, object] = {"g": self._gold_set_id(gold_set), "a": annotator}
        where = ""
        if since is not None:
            where += " AND q.external_id >= :since"
            params["since"] = since
        if until is not None:
            where += " AND q.external_id < :until"
            params["until"] = until
        questions, elements = (
            layer_sql(where) if where else (LAYER_QUESTIONS_SQL, LAYER_ELEMENTS_SQL)
        )
        return layer_questions(
            self.conn.execute(questions, params), self.conn.execute(elements, params)
        )

    def layer_outline(self, gold_set: str, annotator: str) -> GoldOutline:
        """``annotator``'s layer of ``gold_set`` in outline, as :meth:`gold_outline` gives the
        final layer: the questions they marked done (none is pending: the layer is their own
        word), summed over their own labels by the database, and the pages those cite."""
        set_id = self._gold_set_id(gold_set)
        outline = GoldOutline([], [], 0, [])
        for external_id, ok, stale, keys in self.conn.execute(
            "SELECT q.external_id, coalesce(sum(e.status = 'ok'), 0), "
            "coalesce(sum(e.status != 'ok'), 0), "
            "coalesce(sum(e.status = 'ok' AND e.key_start IS NOT NULL "
            "AND e.key_end IS NOT NULL), 0) "
            "FROM query q JOIN question_done d ON d.query_id = q.id AND d.annotator = ? "
            "LEFT JOIN element e ON e.query_id = q.id AND e.layer = 'annotator' "
            "AND e.annotator = ? WHERE q.gold_set_id = ? GROUP BY q.id ORDER BY q.id",
            (annotator, annotator, set_id),
        ):
            outline.stale += stale
            outline.questions.append(QuestionOutline(external_id, ok, keys))
        outline.docs.extend(
            doc
            for (doc,) in self.conn.execute(
                "SELECT DISTINCT e.document_id FROM element e JOIN query q ON q.id = e.query_id "
                "JOIN question_done d ON d.query_id = q.id AND d.annotator = ? "
                "WHERE q.gold_set_id = ? AND e.layer = 'annotator' AND e.annotator = ? "
                "AND e.status = 'ok'",
                (annotator, set_id, annotator),
            )
        )
        return outline

    def layer_annotators(self, gold_set: str) -> list[str]:
        """The annotators who marked a question of ``gold_set`` done, by name."""
        rows = self.conn.execute(LAYER_ANNOTATORS_SQL, {"g": self._gold_set_id(gold_set)})
        return [name for (name,) in rows]

    def gold_questions(
        self, gold_set: str, *, since: str | None = None, until: str | None = None
    ) -> Iterator[StoredQuestion]:
        """Questions of ``gold_set`` in the order added, elements in label order; only
        external ids ``>= since`` and ``< until`` where those are given (an index range)."""
        set_id = self._gold_set_id(gold_set)
        where, bounds = _id_range(since, until, column="q.external_id")
        elements: dict[int, list[StoredElement]] = {}
        # one string per page id, not one per element: scoring keeps the whole layer
        docs: dict[str, str] = {}
        for qid, doc, start, end, text, grade, status, key_start, key_end in self.conn.execute(
            'SELECT e.query_id, e.document_id, e.start, e."end", e.text, e.grade, e.status, '
            "e.key_start, e.key_end "
            f"FROM element e JOIN query q ON q.id = e.query_id WHERE q.gold_set_id = ?{where} "
            "AND e.layer = 'final' ORDER BY e.query_id, e.id",
            (set_id, *bounds),
        ):
            doc = docs.setdefault(doc, doc)
            elements.setdefault(qid, []).append(
                StoredElement(doc, start, end, text, grade, status != "ok", key_start, key_end)
            )
        for qid, external_id, text, notes, pending in self.conn.execute(
            f"SELECT q.id, q.external_id, q.text, q.notes, {PENDING_SQL} FROM query q "
            f"JOIN gold_set g ON g.id = q.gold_set_id WHERE q.gold_set_id = ?{where} "
            "ORDER BY q.id",
            (set_id, *bounds),
        ):
            yield StoredQuestion(
                external_id, text, notes, tuple(elements.get(qid, ())), bool(pending)
            )

    def gold_outline(self, gold_set: str) -> GoldOutline:
        """The final layer of ``gold_set`` in outline (:class:`GoldOutline`), summed by the
        database: nothing per element is read."""
        set_id = self._gold_set_id(gold_set)
        outline = GoldOutline([], [], 0, [])
        for external_id, pending, ok, stale, keys in self.conn.execute(
            f"SELECT q.external_id, {PENDING_SQL}, "
            "coalesce(sum(e.status = 'ok'), 0), coalesce(sum(e.status != 'ok'), 0), "
            "coalesce(sum(e.status = 'ok' AND e.key_start IS NOT NULL "
            "AND e.key_end IS NOT NULL), 0) "
            "FROM query q JOIN gold_set g ON g.id = q.gold_set_id "
            "LEFT JOIN element e ON e.query_id = q.id AND e.layer = 'final' "
            "WHERE q.gold_set_id = ? GROUP BY q.id ORDER BY q.id",
            (set_id,),
        ):
            if pending:
                outline.pending.append(external_id)
                continue
            outline.stale += stale
            outline.questions.append(QuestionOutline(external_id, ok, keys))
        outline.docs.extend(
            doc
            for (doc,) in self.conn.execute(
                "SELECT DISTINCT e.document_id FROM element e JOIN query q ON q.id = e.query_id "
                "JOIN gold_set g ON g.id = q.gold_set_id WHERE q.gold_set_id = ? "
                f"AND e.layer = 'final' AND e.status = 'ok' AND NOT ({PENDING_SQL})",
                (set_id,),
            )
        )
        return outline

    def page_texts(self, doc_ids: Sequence[str]) -> dict[str, str]:
        """Stored text of each existing document among ``doc_ids``."""
        found: dict[str, str] = {}
        for marks, part in _batches(doc_ids):
            found.update(
                self.conn.execute(f"SELECT id, text FROM document WHERE id IN ({marks})", part)
            )
        return found

    def run_id(self, run: str) -> int:
        """The row id of run ``run``; ``NotFoundError`` naming the known runs if absent."""
        row = self.conn.execute("SELECT id FROM run WHERE name = ?", (run,)).fetchone()
        if row is None:
            names = [n for (n,) in self.conn.execute("SELECT name FROM run ORDER BY name")]
            raise not_found("run", run, names, none_yet="no runs imported yet")
        return int(row[0])

    def run_rows(self, run: str, *, since: str | None = None, until: str | None = None) -> RunRows:
        """Query id → ``(chunk text, doc, score, start, end)`` in rank order for run ``run``, query ids
        in ascending order; only ids ``>= since`` and ``< until`` where those are given."""
        return cast(RunRows, self._run_rows(run, since, until, lean=False))

    def lean_run_rows(
        self, run: str, *, since: str | None = None, until: str | None = None
    ) -> LeanRunRows:
        """:meth:`run_rows` without the text of chunks found at import on every page their
        question's labels cited (None instead: scoring takes their places and lengths from
        the stored placements, and reading 64 MB of text is most of a large run's read)."""
        return self._run_rows(run, since, until, lean=True)

    def _run_rows(
        self, run: str, since: str | None, until: str | None, *, lean: bool
    ) -> LeanRunRows:
        sql = RUN_ROWS_SQL.format(mark="?")
        if lean:
            sql = sql.replace("chunk_text", LEAN_TEXT, 1)
        where, bounds = _id_range(since, until)
        sql = sql.replace(" ORDER BY ", f"{where} ORDER BY ", 1)
        with closing(self.conn.cursor()) as cursor:
            cursor.execute(sql, [self.run_id(run), *bounds])
            return group_run_rows(cursor.fetchall())

    def run_query_ids(
        self, run: str, *, since: str | None = None, until: str | None = None
    ) -> list[str]:
        """The query ids of run ``run`` in ascending order, bounded as in :meth:`run_rows`
        (read from the run's unique index alone: no result is read)."""
        where, bounds = _id_range(since, until)
        sql = (
            "SELECT DISTINCT query_external_id FROM run_result "
            f"WHERE run_id = ?{where} ORDER BY query_external_id"
        )
        return [qid for (qid,) in self.conn.execute(sql, [self.run_id(run), *bounds])]

    def ranked_rows(self, run: str, depth: int) -> RankedRows:
        """Run ``run``'s results ranked ``<= depth``, streamed by query id in rank order
        (:data:`~labeler.store.rows.RankedRows`)."""
        sql = RANKED_ROWS_SQL.format(run="?", depth="?")
        cursor = self.conn.execute(sql, (self.run_id(run), depth))
        while batch := cursor.fetchmany(4096):
            yield from batch

    def judged_ranges(
        self, gold_set: str, query_ids: Sequence[str]
    ) -> dict[str, dict[str, list[tuple[int, int]]]]:
        """Query id → doc → every range judged on the questions ``query_ids`` (at most
        :data:`~labeler.store.rows.JUDGED_BATCH`) of gold set ``gold_set``
        (:data:`~labeler.store.rows.JUDGED_RANGES_SQL`)."""
        ids = list(query_ids)
        marks = "(" + ",".join("?" * len(ids)) + ")" if ids else "(NULL)"
        sql = JUDGED_RANGES_SQL.format(gold_set="?", ok="?", ids=marks)
        gid = self._gold_set_id(gold_set)
        return group_ranges(self.conn.execute(sql, (gid, "ok", *ids, gid, *ids)))

    def chunk_texts(self, run: str, qids: Sequence[str]) -> dict[str, list[str]]:
        """Query id → chunk texts in rank order, for the questions ``qids`` of run ``run``."""
        run_id = self.run_id(run)
        found: dict[str, list[str]] = {}
        for marks, part in _batches(qids):
            rows = self.conn.execute(
                "SELECT query_external_id, chunk_text FROM run_result WHERE run_id = ? "
                f"AND query_external_id IN ({marks}) ORDER BY query_external_id, rank",
                [run_id, *part],
            )
            for qid, text in rows:
                found.setdefault(qid, []).append(text)
        return found

    def placements(
        self, run: str, *, since: str | None = None, until: str | None = None
    ) -> dict[str, dict[str, tuple[str, str, str, str]]]:
        """Query id → page key → the ``(starts, repeated, occurrences, lengths)`` placement
        stored for run ``run`` at import (see :mod:`labeler.runs`); ids bounded as in
        :meth:`run_rows`."""
        where, bounds = _id_range(since, until)
        sql = "SELECT query_external_id, page_sha256, starts, repeated, occurrences, lengths"
        sql += f" FROM run_placement WHERE run_id = ?{where}"
        found: dict[str, dict[str, tuple[str, str, str, str]]] = {}
        rows = self.conn.execute(sql, [self.run_id(run), *bounds])
        for qid, key, starts, repeated, occurrences, lengths in rows:
            found.setdefault(qid, {})[key] = (starts, repeated, occurrences, lengths)
        return found


def _id_range(
    since: str | None, until: str | None, column: str = "query_external_id"
) -> tuple[str, list[str]]:
    """SQL conditions (each starting " AND ") bounding ``column`` to ``[since, until)`` (an
    absent bound is open), and their parameters."""
    where, params = "", []
    if since is not None:
        where += f" AND {column} >= ?"
        params.append(since)
    if until is not None:
        where += f" AND {column} < ?"
        params.append(until)
    return where, params


def _batches(ids: Sequence[str]) -> Iterator[tuple[str, list[str]]]:
    """The distinct ``ids`` in sorted batches of 500 (under SQLite's bound-parameter
    limit), each with its ``?,?,...`` placeholders."""
    ordered = sorted(set(ids))
    for i in range(0, len(ordered), 500):
        part = ordered[i : i + 500]
        yield ",".join("?" * len(part)), part


def open_reader(path: Path) -> SqliteReader | None:
    """A reader for the store file ``path`` when it exists and is at :data:`READS_SCHEMA`;
    None otherwise (the caller then opens the store the usual way, upgrading it)."""
    if not path.is_file():
        return None
    reader = SqliteReader(path)
    if reader.schema_version() != READS_SCHEMA:
        reader.close()
        return None
    return reader
