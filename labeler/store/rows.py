"""Plain rows read out of the store (standard library only: the fast reader shares them)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


class StoredElement(NamedTuple):
    """A stored element as exported and scored; ``stale`` when its page changed under it;
    ``key_start``/``key_end`` its key span in page offsets (both None without one)."""

    doc: str
    start: int
    end: int
    text: str
    grade: int
    stale: bool
    key_start: int | None = None
    key_end: int | None = None

    @property
    def key(self) -> tuple[int, int] | None:
        """The key span as offsets into the element text (``scoring.GoldElement.key``)."""
        if self.key_start is None or self.key_end is None:
            return None
        return self.key_start - self.start, self.key_end - self.start


class StoredQuestion(NamedTuple):
    """A stored question with its final-layer elements in label order.

    ``pending``: a question of a team gold set that has team work on it (an assignment, a
    done mark or an annotator's label) and is not adjudicated yet; scoring reports it and
    leaves it out (see :mod:`labeler.store.team`).
    """

    external_id: str
    text: str
    notes: str
    elements: tuple[StoredElement, ...]
    pending: bool = False


PENDING_SQL = (
    "CASE WHEN g.team AND q.adjudicated_at IS NULL AND ("
    "EXISTS (SELECT 1 FROM assignment a WHERE a.query_id = q.id) "
    "OR EXISTS (SELECT 1 FROM question_done d WHERE d.query_id = q.id) "
    "OR EXISTS (SELECT 1 FROM element x WHERE x.query_id = q.id AND x.layer = 'annotator')"
    ") THEN 1 ELSE 0 END"
)
"""1 when question ``q`` of gold set ``g`` is pending (see :class:`StoredQuestion`)."""


def layer_sql(where: str = "") -> tuple[str, str]:
    """The two queries of annotator ``:a``'s layer of gold set ``:g`` (named parameters: the
    same text runs on sqlite3 and through SQLAlchemy): the questions they marked done, and
    their own labels by question then label order; ``where`` adds conditions on the
    question ``q`` (each starting " AND ", named parameters too)."""
    questions = (
        "SELECT q.id, q.external_id, q.text, q.notes FROM query q "
        "JOIN question_done d ON d.query_id = q.id "
        f"WHERE q.gold_set_id = :g AND d.annotator = :a{where} ORDER BY q.id"
    )
    elements = (
        'SELECT e.query_id, e.document_id, e.start, e."end", e.text, e.grade, e.status, '
        "e.key_start, e.key_end "
        f"FROM element e JOIN query q ON q.id = e.query_id WHERE q.gold_set_id = :g{where} "
        "AND e.layer = 'annotator' AND e.annotator = :a ORDER BY e.query_id, e.id"
    )
    return questions, elements


LAYER_QUESTIONS_SQL, LAYER_ELEMENTS_SQL = layer_sql()
"""The questions of gold set ``:g`` annotator ``:a`` marked done, and ``:a``'s own labels in
gold set ``:g``, by question then label order (:func:`layer_sql`)."""

LAYER_ANNOTATORS_SQL = (
    "SELECT DISTINCT d.annotator FROM question_done d JOIN query q ON q.id = d.query_id "
    "WHERE q.gold_set_id = :g ORDER BY d.annotator"
)
"""The annotators who marked a question of gold set ``:g`` done, by name."""


def layer_questions(
    questions: Iterable[Sequence[Any]],
    elements: Iterable[Sequence[Any]],
) -> list[StoredQuestion]:
    """An annotator's layer as scoring reads a gold set: the rows of
    :data:`LAYER_QUESTIONS_SQL` with their elements from :data:`LAYER_ELEMENTS_SQL` (none
    pending: the annotator's own word on each). The rows are tuples or a driver's row
    objects (this module runs compiled, where a parameter typed as tuples refuses
    SQLAlchemy's rows)."""
    by_query: dict[int, list[StoredElement]] = {}
    for qid, doc, start, end, text, grade, status, key_start, key_end in elements:
        by_query.setdefault(qid, []).append(
            StoredElement(doc, start, end, text, grade, status != "ok", key_start, key_end)
        )
    return [
        StoredQuestion(external_id, text, notes, tuple(by_query.get(qid, ())))
        for qid, external_id, text, notes in questions
    ]


RunRows = dict[str, list[tuple[str, str | None, float | None, int | None, int | None]]]
"""Query id → ``(chunk text, doc, score, start, end)`` in rank order (``start``/``end``: the
chunk's offsets in its page, None when the run did not give them)."""

LeanRunRows = dict[str, list[tuple[str | None, str | None, float | None, int | None, int | None]]]
"""``RunRows`` where a chunk found at import on every page its question's labels cited has
no text (None): see :mod:`labeler.runs`."""

LEAN_TEXT = "CASE WHEN located = 1 THEN NULL ELSE chunk_text END"
"""The text column of a lean read."""

RUN_ROWS_SQL = (
    "SELECT query_external_id, chunk_text, doc_id, score, chunk_start, chunk_end FROM run_result "
    "WHERE run_id = {mark} ORDER BY query_external_id, rank"
)
"""The run's results in scoring order; ``{mark}`` is the driver's placeholder."""


@dataclass(frozen=True)
class RankedRow:
    """One stored run result within a depth: what pooling and judged@k place on a page."""

    rank: int
    text: str
    doc_id: str | None
    start: int | None
    end: int | None


RANKED_ROWS_SQL = (
    "SELECT query_external_id, rank, chunk_text, doc_id, chunk_start, chunk_end FROM run_result "
    "WHERE run_id = {run} AND rank <= {depth} ORDER BY query_external_id, rank"
)
"""The run's results ranked at most a depth, grouped by query id in rank order (judged@k);
``{run}`` and ``{depth}`` are the driver's placeholders."""

RankedRows = Iterable[tuple[str, int, str, str | None, int | None, int | None]]
"""``(query id, rank, chunk text, doc, start, end)`` rows grouped by query id, in rank
order within a question (:data:`RANKED_ROWS_SQL`)."""

JUDGED_RANGES_SQL = (
    'SELECT q.external_id, e.document_id, e.start, e."end" FROM element e '
    "JOIN query q ON q.id = e.query_id WHERE q.gold_set_id = {gold_set} AND e.status = {ok} "
    "AND q.external_id IN {ids} "
    'UNION ALL SELECT q.external_id, n.document_id, n.start, n."end" FROM not_relevant n '
    "JOIN query q ON q.id = n.query_id WHERE q.gold_set_id = {gold_set} AND q.external_id IN {ids}"
)
"""Every range judged on some questions of a gold set: the spans of their elements of every
layer that are not stale, and their not-relevant judgements of every layer (what
:func:`labeler.store.judgements.judged_ranges` reads); ``{gold_set}``, ``{ok}`` and ``{ids}``
(a parenthesised list of query ids) are the driver's placeholders."""

#: query ids per :data:`JUDGED_RANGES_SQL` (twice each: under SQLite's 999 parameters)
JUDGED_BATCH = 400


def group_ranges(
    rows: Iterable[Sequence[Any]],
) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """``(query id, doc, start, end)`` rows as query id → doc → ranges (unsorted)."""
    out: dict[str, dict[str, list[tuple[int, int]]]] = {}
    for qid, doc, start, end in rows:
        out.setdefault(qid, {}).setdefault(doc, []).append((start, end))
    return out


def group_run_rows(
    rows: Iterable[tuple[str, str | None, str | None, float | None, int | None, int | None]],
) -> LeanRunRows:
    """Group ``(query id, text, doc, score, start, end)`` rows, already in rank order, by
    query id."""
    grouped: LeanRunRows = {}
    for qid, text, doc, score, start, end in rows:
        chunks = grouped.get(qid)
        if chunks is None:
            chunks = grouped[qid] = []
        chunks.append((text, doc, score, start, end))
    return grouped
