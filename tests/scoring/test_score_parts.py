"""score_questions + aggregate: scoring questions in parts and joining them is score_run."""

from __future__ import annotations

import random

import pytest
from _scoring_helpers import question, scoring_case, thresholds
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    Chunk,
    GoldQuestion,
    Placement,
    QueryScore,
    aggregate,
    score_questions,
    score_run,
)
from scoring.result import value_keys

KS = (1, 2, 5)


@settings(max_examples=200)
@given(scoring_case(max_questions=6), thresholds, st.integers(1, 4), st.randoms())
def test_parts_joined_equal_score_run(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]],
    theta: float,
    parts: int,
    rnd: random.Random,
) -> None:
    questions, pages, run = case
    run = {**run, "not-in-gold": [Chunk("x")]}
    whole = score_run(questions, pages, run, ks=KS, threshold=theta)
    shuffled = list(questions)
    rnd.shuffle(shuffled)
    rows: list[QueryScore] = []
    for i in range(parts):
        rows += score_questions(shuffled[i::parts], pages, run, ks=KS, threshold=theta)
    rnd.shuffle(rows)
    assert aggregate(questions, rows, run, ks=KS, threshold=theta) == whole
    assert whole.unknown_in_run == ("not-in-gold",)


@settings(max_examples=100)
@given(scoring_case(max_questions=5), thresholds)
def test_plain_rows_round_trip(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]], theta: float
) -> None:
    questions, pages, run = case
    keys = value_keys(KS)
    for row in score_questions(questions, pages, run, ks=KS, threshold=theta):
        back = QueryScore.from_plain(row.to_plain(keys), keys)
        assert back == row
        assert back.judgement == row.judgement  # not part of ==, compared on its own
        assert back.diagnoses == row.diagnoses


def test_aggregate_rejects_rows_that_do_not_match_the_gold_set() -> None:
    q1 = question("q1", ("p", "abc"))
    q2 = question("q2", ("p", "abc"))
    pages = {"p": "xx abc yy"}
    rows = score_questions([q1, q2], pages, {}, ks=KS)
    with pytest.raises(ValueError, match="no scored row for gold question 'q2'"):
        aggregate([q1, q2], rows[:1], [], ks=KS)
    with pytest.raises(ValueError, match="not in the gold set"):
        aggregate([q1], rows, [], ks=KS)


def naive_placement(page: str, texts: list[str], extra: int, labels: list[str]) -> Placement:
    """Where each text is on ``page`` by plain ``str.find``, plus ``extra`` unread ranks,
    and every occurrence of each of ``labels``."""
    starts, repeated = [], []
    for t in texts:
        at = page.find(t) if t else -1
        starts.append(at)
        repeated.append(int(bool(t) and at >= 0 and page.find(t, at + 1) >= 0))
    every = {
        label: tuple(i for i in range(len(page)) if page.startswith(label, i))
        for label in labels
        if label
    }
    return Placement(starts + [-1] * extra, repeated + [0] * extra, every)


@settings(max_examples=200)
@given(scoring_case(max_questions=5), thresholds, st.data())
def test_placements_give_the_same_scores(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]],
    theta: float,
    data: st.DataObject,
) -> None:
    questions, pages, run = case
    expected = score_questions(questions, pages, run, ks=KS, threshold=theta)
    placements: dict[str, dict[str, Placement]] = {}
    for q in questions:
        texts = [c.text for c in run.get(q.query_id, [])]
        for doc in {e.doc for e in q.elements}:
            if data.draw(st.booleans(), label=f"place {q.query_id} on {doc}"):
                extra = data.draw(st.integers(0, 2), label="extra ranks")
                on_doc = [e.text for e in q.elements if e.doc == doc]
                labels = data.draw(st.lists(st.sampled_from(on_doc)), label="labels given")
                placements.setdefault(q.query_id, {})[doc] = naive_placement(
                    pages[doc], texts, extra, labels
                )
    got = score_questions(questions, pages, run, ks=KS, threshold=theta, placements=placements)
    assert got == expected
    assert [g.judgement for g in got] == [e.judgement for e in expected]


def test_a_placement_shorter_than_the_ranks_scored_is_not_used() -> None:
    q = question("q", ("p", "abc"))
    pages = {"p": "xx abc yy"}
    run = {"q": [Chunk("xx abc"), Chunk("abc yy")]}
    wrong = Placement([-1], [0])  # covers rank 1 only (and says "absent")
    scored = score_questions([q], pages, run, ks=(2,), placements={"q": {"p": wrong}})
    assert scored == score_questions([q], pages, run, ks=(2,))
    assert scored[0].value("hit", 2) == 1.0


@settings(max_examples=200)
@given(scoring_case(max_questions=5), thresholds, st.data())
def test_chunks_placed_on_every_page_need_no_text(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]],
    theta: float,
    data: st.DataObject,
) -> None:
    # Placements with lengths on every page of a question; the texts of chunks found on all
    # of them are dropped (None), as the lean read does: the scores do not change.
    questions, pages, run = case
    expected = score_questions(questions, pages, run, ks=KS, threshold=theta)
    placements: dict[str, dict[str, Placement]] = {}
    lean: dict[str, list[Chunk]] = {}
    for q in questions:
        ranked = run.get(q.query_id)
        if ranked is None:
            continue
        texts = [c.text or "" for c in ranked]
        docs = sorted({e.doc for e in q.elements})
        mine = {}
        for doc in docs:
            placed = naive_placement(pages[doc], texts, 0, [])
            mine[doc] = placed._replace(lengths=[len(t) for t in texts])
        placements[q.query_id] = mine
        lean[q.query_id] = [
            Chunk(None)
            if t and data.draw(st.booleans()) and all(mine[d].starts[r] >= 0 for d in docs)
            else c
            for r, (t, c) in enumerate(zip(texts, ranked, strict=True))
        ]
    got = score_questions(questions, pages, lean, ks=KS, threshold=theta, placements=placements)
    assert got == expected


def test_a_chunk_without_text_where_it_is_needed_is_an_error() -> None:
    q = question("q", ("p", "abc"), ("r", "xyz"))
    pages = {"p": "xx abc yy", "r": "xyz"}
    run = {"q": [Chunk(None)]}
    on_p = Placement([0], [0], {}, [6])
    with pytest.raises(ValueError, match="q: rank 1 needs its chunk text"):  # page r: no placement
        score_questions([q], pages, run, ks=(1,), placements={"q": {"p": on_p}})
    absent = Placement([-1], [0], {}, [6])
    with pytest.raises(ValueError, match="rank 1 needs its chunk text"):  # rule 3 needs it
        score_questions([q], pages, run, ks=(1,), placements={"q": {"p": on_p, "r": absent}})
    on_r = Placement([0], [0], {}, [3])
    scored = score_questions([q], pages, run, ks=(1,), placements={"q": {"p": on_p, "r": on_r}})
    assert scored[0].value("hit", 1) == 1.0  # the chunk is p[0:6] = "xx abc": "abc" whole


@settings(max_examples=150)
@given(scoring_case(max_questions=6), thresholds, st.booleans(), st.randoms())
def test_rows_put_straight_into_a_table_are_the_rows_scored(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]],
    theta: float,
    snapping: bool,
    rnd: random.Random,
) -> None:
    """``score_questions_into`` puts in the table, at the positions given, the very rows
    ``score_questions`` returns (every value, diagnosis, flag, judgement and snap), and
    leaves the other rows as they were; a table of other keys is refused."""
    from scoring.querytable import QueryTable
    from scoring.score import score_questions_into

    questions, pages, run = case
    snap = 0.8 if snapping else None
    rows = score_questions(questions, pages, run, ks=KS, threshold=theta, snap_min=snap)
    size = len(rows) + 3
    positions = rnd.sample(range(size), len(rows))
    table = QueryTable(value_keys(KS), KS, size)
    put = score_questions_into(
        table, positions, questions, pages, run, threshold=theta, snap_min=snap
    )
    assert put == len(rows)
    expected = QueryTable(value_keys(KS), KS, size)
    for i, row in zip(positions, rows, strict=True):
        expected.put(i, row)
    assert table.values == expected.values  # the rows not put among them, still zeros
    for i in positions:
        assert table.row(i) == expected.row(i)
        assert table.row(i).judgement == expected.row(i).judgement
        assert table.row(i).diagnoses == expected.row(i).diagnoses
        assert table.row(i).snaps == expected.row(i).snaps
    tokens = QueryTable(value_keys(KS, (), True), KS, size)  # tokens@k: no tokenizer here
    with pytest.raises(ValueError, match="keys"):
        score_questions_into(tokens, positions, questions, pages, run)
