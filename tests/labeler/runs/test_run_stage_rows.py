"""A question's results staged at once (``RunStage.add_ranked``, a few multi-row statements
that bind shared values once and leave empty columns out) are the rows staged one by one
(``RunStage.add_results``, every value of every row bound), value and storage type alike:
Hypothesis over the shapes a line can have (no results, more than one statement's worth,
docs all None, all one page or mixed, scores and offsets on none, some or all results)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.store.runstage import GROUP, RunStage


def staged(stage: RunStage) -> list[tuple[Any, ...]]:
    """Every staged result with the storage class of each value, in key order."""
    stage.seal()
    with closing(sqlite3.connect(stage.path)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(result)")]
        typed = ", ".join(f"{c}, typeof({c})" for c in columns)
        return conn.execute(
            f"SELECT {typed} FROM result ORDER BY query_external_id, rank"
        ).fetchall()


@st.composite
def question(draw: st.DrawFn) -> tuple[list[Any], ...]:
    n = draw(st.sampled_from([0, 1, 2, GROUP - 1, GROUP, GROUP + 1, 2 * GROUP + 5]))
    texts = [draw(st.sampled_from(["", "a", "chunk é", "x" * 50])) for _ in range(n)]
    docs: list[str | None]
    shape = draw(st.sampled_from(["none", "same", "mixed"]))
    if shape == "none":
        docs = [None] * n
    elif shape == "same":
        docs = ["p.txt"] * n
    else:
        docs = [draw(st.sampled_from([None, "p.txt", "q.txt"])) for _ in range(n)]
    scores = [draw(st.sampled_from([None, 0.1, 1 / 3, -2.5e300, 0.0])) for _ in range(n)]
    if draw(st.booleans()):
        scores = [None] * n
    located = [draw(st.sampled_from([0, 1])) for _ in range(n)]
    offsets = [draw(st.sampled_from([None, (0, 1), (5, 5), (2**40, 2**40 + 3)])) for _ in range(n)]
    if draw(st.booleans()):
        offsets = [None] * n
    starts = [None if at is None else at[0] for at in offsets]
    ends = [None if at is None else at[1] for at in offsets]
    return texts, docs, scores, located, starts, ends


@settings(max_examples=150, deadline=None)
@given(st.lists(question(), min_size=1, max_size=3))
def test_a_question_staged_at_once_is_its_rows_staged_one_by_one(
    questions: list[tuple[list[Any], ...]],
) -> None:
    at_once, by_row = RunStage(), RunStage()
    try:
        for number, (texts, docs, scores, located, starts, ends) in enumerate(questions):
            qid = f"q{number}"
            at_once.add_ranked(qid, texts, docs, scores, located, starts, ends)
            by_row.add_results(
                [
                    (qid, rank, text, doc, score, found, start, end)
                    for rank, (text, doc, score, found, start, end) in enumerate(
                        zip(texts, docs, scores, located, starts, ends, strict=True), 1
                    )
                ]
            )
        assert at_once.results == by_row.results == sum(len(q[0]) for q in questions)
        assert staged(at_once) == staged(by_row)
    finally:
        at_once.close()
        by_row.close()
        assert not Path(at_once.path).exists()
