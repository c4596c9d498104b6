"""Score a stored run range by range, keeping only the figures per question.

A run of a quarter of a million questions × 20 results does not fit in memory as chunks,
placements and ``QueryScore`` objects all at once. The gold questions are cut into ranges of
query id (``RANGE_QUESTIONS`` each, contiguous in code-point order, the order of the run's
index); each range's chunks and placements are read, scored with
:func:`scoring.score.score_questions_into` straight into a
:class:`~scoring.querytable.QueryTable` (flat arrays: what the aggregates, intervals and
reports read) and dropped. The pages are indexed once for all ranges; the per-chunk lookups
the index caches are emptied after each range. The rows are the same as scoring all at once (a test
compares them over several range sizes).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from labeler.errors import StoreError
from labeler.runs import PageKeys, load_placed_run, placements_for
from labeler.store.fastread import SqliteReader
from scoring import Chunk, GoldQuestion, Pages, Placements, QuestionOutline
from scoring.budget import Tokenizer, check_budgets
from scoring.metrics import check_ks
from scoring.querytable import QueryTable
from scoring.result import value_keys
from scoring.score import PageCache, score_questions_into

__all__ = [
    "RANGE_QUESTIONS",
    "TEXT_RANGE_QUESTIONS",
    "Expand",
    "RangeReader",
    "RunIds",
    "range_ids",
    "range_reader",
    "score_ranges",
]

RANGE_QUESTIONS = 1000
"""Questions scored per range: large enough that a range's queries cost little, small
enough that its working set (chunks, placements, rows: about 7 KB a question at 20
results) is a few megabytes."""

TEXT_RANGE_QUESTIONS = 250
"""Questions per range when every chunk's text is read (token budgets, a drill-down): a
range of 1,000 questions × 20 results of 800 characters held about 37 MB while it was
scored, a range of 250 about 16 MB."""

RangeReader = Callable[
    [Sequence[GoldQuestion], str | None, str | None], tuple[dict[str, list[Chunk]], Placements]
]
"""``(questions, since, until)`` → the run's chunks with query ids in ``[since, until)``
(open where None), in ascending id order, and scoring's placements for ``questions``."""

OnRange = Callable[[int, int], None]
"""Called after each range with (questions scored so far, questions in all)."""

Expand = Callable[[str | None, str | None], Mapping[str, GoldQuestion]]
"""``(since, until)`` → the gold questions with ids in ``[since, until)`` (open where None),
whole, by id: how a range of questions given in outline is read."""

RunIds = Callable[[str | None, str | None], list[str]]
"""``(since, until)`` → the run's query ids in ``[since, until)`` (open where None),
ascending, without reading its results (``SqliteReader.run_query_ids``)."""

Judge = Callable[
    [Sequence[GoldQuestion | QuestionOutline], dict[str, list[Chunk]], Placements], None
]
"""Called with each range's questions (ascending ids; whole or in outline: only their ids
are read), the chunks and the placements read for them, before they are dropped (judged@k
is counted so: ``RangeJudging``)."""


def range_reader(source: object, run: str, keyed: PageKeys, *, lean: bool) -> RangeReader:
    """How ranges of ``run`` are read from ``source``: with ``lean`` (the fast SQLite reader,
    no tokenizer, nothing kept) only the texts scoring needs; else every chunk's text."""
    if isinstance(source, SqliteReader):
        reader = source
        if lean:
            return lambda mine, since, until: load_placed_run(
                reader, run, mine, keyed, since=since, until=until
            )

        def full(
            mine: Sequence[GoldQuestion], since: str | None, until: str | None
        ) -> tuple[dict[str, list[Chunk]], Placements]:
            rows = reader.run_rows(run, since=since, until=until)
            chunks = {qid: [Chunk(*row) for row in ranked] for qid, ranked in rows.items()}
            stored = reader.placements(run, since=since, until=until)
            return chunks, placements_for(stored, keyed, mine)

        return full
    raise TypeError("range_reader needs the SQLite reader")


def range_ids(source: SqliteReader, run: str) -> RunIds:
    """How the query ids of ranges of ``run`` are listed from ``source``."""
    return lambda since, until: source.run_query_ids(run, since=since, until=until)


def score_ranges(
    questions: Sequence[GoldQuestion | QuestionOutline],
    pages: Pages,
    read: RangeReader,
    *,
    ks: Sequence[int],
    threshold: object,
    budgets: Sequence[int] = (),
    tokenizer: Tokenizer | None = None,
    since: str | None = None,
    until: str | None = None,
    size: int = RANGE_QUESTIONS,
    kept: dict[str, list[Chunk]] | None = None,
    on_range: OnRange | None = None,
    snap_min: object = None,
    judge: Judge | None = None,
    expand: Expand | None = None,
    run_ids: RunIds | None = None,
) -> tuple[QueryTable, list[str]]:
    """Score ``questions`` with elements (others are left out) in ranges of ``size`` by query id, reading
    each range with ``read``; the run is read over ``[since, until)`` (open where None).

    Returns the table of rows in the order of those questions and every query id of the run
    in that span, in the order read (ascending). ``kept``, when given, receives every
    chunk read (for a drill-down). ``on_range`` is told the progress after each range.
    ``snap_min``: as :func:`scoring.score_questions` (None: no snapping). ``judge`` is
    given each range as read (:data:`Judge`). With ``run_ids`` (:data:`RunIds`), a range's
    results are read only between its first and last question's ids, and the run's ids in
    the rest of the range are listed with ``run_ids``: a run's questions that the gold
    layer does not hold (all of them, when its questions are all pending) are never read
    whole. Questions given in outline
    (:class:`scoring.QuestionOutline`) are read whole range by range with ``expand``, so
    that a gold set is never held whole.

    Raises:
        ValueError: what :func:`scoring.score_questions` raises (checked before reading).
    """
    if size < 1:
        raise ValueError(f"questions per range must be at least 1, got {size}")
    questions = [q for q in questions if q.n_gold]
    cutoffs = check_ks(ks)
    keys = value_keys(cutoffs, check_budgets(budgets), tokenizer is not None)
    table = QueryTable(keys, cutoffs, len(questions))
    # a flat array, not a list: 256,000 positions as int objects are 9 MB
    order = array("l", sorted(range(len(questions)), key=lambda i: questions[i].query_id))
    cache = PageCache(pages)
    ids: list[str] = []
    done = 0
    for at in range(0, max(len(order), 1), size):
        chosen = order[at : at + size]
        low = since if at == 0 else questions[chosen[0]].query_id
        high = until if at + size >= len(order) else questions[order[at + size]].query_id
        given = [questions[i] for i in chosen]
        mine = _whole(given, expand, low, high)
        if run_ids is None:
            chunks, known = read(mine, low, high)
            span_ids: list[str] = list(chunks)
        else:
            span_ids = run_ids(low, high)
            if given:  # the smallest string after the last id ends the span read
                chunks, known = read(mine, given[0].query_id, given[-1].query_id + "\0")
            else:
                chunks, known = {}, {}
        put = score_questions_into(
            table,
            chosen,
            mine,
            pages,
            chunks,
            threshold=threshold,
            placements=known,
            budgets=budgets,
            tokenizer=tokenizer,
            cache=cache,
            snap_min=snap_min,
        )
        if put != len(chosen):  # a question's elements went stale since the outline was read
            raise StoreError("the gold set changed while it was scored: score again")
        # the ids kept are the strings of ``questions``: a range's own copies, read with its
        # questions and its run, are dropped with it (15 MB at 256,000 questions, each)
        shared = {q.query_id: q.query_id for q in given}
        for i in chosen:
            table.ids[i] = questions[i].query_id
        if judge is not None:
            judge(given, chunks, known)
        ids += [shared.get(qid, qid) for qid in span_ids]
        if kept is not None:
            kept.update(chunks)
        del chunks, known, span_ids
        cache.forget_lookups()
        done += len(mine)
        if on_range is not None:
            on_range(done, len(questions))
    return table, ids


def _whole(
    chosen: Sequence[GoldQuestion | QuestionOutline],
    expand: Expand | None,
    since: str | None,
    until: str | None,
) -> list[GoldQuestion]:
    """``chosen`` as whole questions: those given in outline read with ``expand``."""
    if all(isinstance(q, GoldQuestion) for q in chosen):
        return cast(list[GoldQuestion], list(chosen))
    if expand is None:
        raise TypeError("questions given in outline need expand")
    found = expand(since, until)
    missing = [q.query_id for q in chosen if q.query_id not in found]
    if missing:
        raise StoreError(
            f"the gold set changed while it was scored (question {missing[0]!r} is gone): "
            "score again"
        )
    return [found[q.query_id] for q in chosen]
