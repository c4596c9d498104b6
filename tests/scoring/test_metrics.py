"""Metric definitions (docs/metrics.md, Ranking metrics): hand-worked examples and invariants."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from _scoring_helpers import chunks, question, scoring_case
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    METRIC_NAMES,
    Chunk,
    DiagnosisKind,
    GoldElement,
    GoldQuestion,
    Judgement,
    context_precision_at,
    hit_at,
    metrics_at,
    mrr_at,
    ndcg_at,
    partial_at,
    partial_recall_at,
    precision_at,
    recall_at,
    score_json,
    score_run,
)
from scoring.metrics import metric_table
from scoring.spans import SPAN_METRIC_NAMES

LOG2 = math.log2

# Two elements with label grades 2 and 1; grades per rank (0 none, 1 partial, 2 full):
#   r1 [0, 0]  noise
#   r2 [1, 0]  e1 partial
#   r3 [0, 2]  e2 full            <- first Full hit
#   r4 [2, 0]  e1 full
#   r5 [2, 2]  both again (no new gain)
EXAMPLE = Judgement.from_grades([2, 1], [[0, 0], [1, 0], [0, 2], [2, 0], [2, 2]])
IDCG2 = 2 / LOG2(2) + 1 / LOG2(3)  # ideal: grades 2, 1 at ranks 1, 2


@pytest.mark.parametrize(
    ("metric", "k", "expected"),
    [
        (hit_at, 2, 0.0),  # no Full before r3
        (hit_at, 3, 1.0),
        (partial_at, 2, 1.0),  # r2 is partial
        (partial_at, 1, 0.0),
        (mrr_at, 4, 1 / 3),  # first Full at r3
        (mrr_at, 2, 0.0),
        (recall_at, 3, 1 / 2),  # only e2 Full by r3
        (recall_at, 4, 2 / 2),
        (partial_recall_at, 2, 1 / 2),  # e1 partial at r2
        (partial_recall_at, 3, 2 / 2),
        (precision_at, 4, 3 / 4),  # r2, r3, r4 relevant
        (precision_at, 2, 1 / 2),
        (precision_at, 6, 4 / 6),  # 5 ranks, padded to 6 with a non-relevant one
        (precision_at, 10, 4 / 10),
        # v = 0,1,1,1: (1/2 + 2/3 + 3/4) / 3
        (context_precision_at, 4, (1 / 2 + 2 / 3 + 3 / 4) / 3),
        (context_precision_at, 1, 0.0),  # no relevant rank → 0, no epsilon
        # v = 0,1,1,1,1 (+ padding): (1/2 + 2/3 + 3/4 + 4/5) / 4
        (context_precision_at, 6, (1 / 2 + 2 / 3 + 3 / 4 + 4 / 5) / 4),
        # gains: r3 → 1 (e2 first Full), r4 → 2 (e1 first Full); r5 adds nothing
        (ndcg_at, 4, (1 / LOG2(4) + 2 / LOG2(5)) / IDCG2),
        (ndcg_at, 5, (1 / LOG2(4) + 2 / LOG2(5)) / IDCG2),
        (ndcg_at, 2, 0.0),
        # k = 3: DCG = 1/log2(4); ideal still 2 + 1/log2(3)
        (ndcg_at, 3, (1 / LOG2(4)) / IDCG2),
    ],
)
def test_hand_worked_metrics(metric: object, k: int, expected: float) -> None:
    assert metric(EXAMPLE, k) == pytest.approx(expected)  # type: ignore[operator]


def test_ndcg_gain_is_highest_grade_first_full_at_rank() -> None:
    # one chunk holds both elements (grades 3 and 1) fully at r1: gain_1 = max(3, 1) = 3
    j = Judgement.from_grades([3, 1], [[2, 2]])
    assert ndcg_at(j, 1) == pytest.approx(3 / 3)
    assert ndcg_at(j, 2) == pytest.approx(3 / (3 + 1 / LOG2(3)))


def test_ndcg_is_not_monotone_below_n_gold() -> None:
    # grades [1, 1]; Full hits at r1 and r3: ndcg@1 = 1, ndcg@2 = 1/(1 + 1/log2 3) ≈ 0.61
    j = Judgement.from_grades([1, 1], [[2, 0], [0, 0], [0, 2]])
    assert ndcg_at(j, 1) == 1.0
    assert ndcg_at(j, 2) == pytest.approx(1 / (1 + 1 / LOG2(3)))
    assert ndcg_at(j, 2) < ndcg_at(j, 1)
    assert ndcg_at(j, 3) == pytest.approx((1 + 1 / LOG2(4)) / (1 + 1 / LOG2(3)))


def test_empty_run_scores_zero() -> None:
    j = Judgement.from_grades([1], [])
    assert all(v == 0.0 for v in metrics_at(j, 5).values())


# --- the three-question example of docs/metrics.md ------------------------------------------
# Each page is "aaaaa 0123456789 zzzzz"; the element is "0123456789" (10 code points).
TABLE_PAGE = "aaaaa 0123456789 zzzzz"
TABLE_ELEMENT = "0123456789"


@pytest.mark.parametrize(
    ("qid", "ranked", "coverage", "rank", "kind"),
    [
        ("Q1", ["0123456789"], 1.0, 1, DiagnosisKind.FULL),  # 100 % at rank 1
        ("Q2", ["zzzzz", "aaaaa 012345"], 0.6, 2, DiagnosisKind.CHUNKING),  # 60 % at rank 2
        ("Q3", ["zzzzz", "zzzzz", "aaaaa 01"], 0.2, 3, DiagnosisKind.RETRIEVAL),  # 20 % at r3
    ],
)
def test_three_question_rows(
    qid: str, ranked: list[str], coverage: float, rank: int, kind: DiagnosisKind
) -> None:
    result = score_run(
        [question(qid, ("p", TABLE_ELEMENT))], {"p": TABLE_PAGE}, {qid: chunks(*ranked)}, ks=[4]
    )
    diagnosis = result.queries[0].diagnoses[4]
    assert diagnosis.kind is kind
    assert diagnosis.best_coverage == pytest.approx(coverage)
    assert diagnosis.best_rank == rank


def test_three_question_table() -> None:
    gold = [question(q, (f"p{q}", TABLE_ELEMENT)) for q in ("Q1", "Q2", "Q3")]
    pages = {f"p{q}": TABLE_PAGE for q in ("Q1", "Q2", "Q3")}
    run = {
        "Q1": chunks("0123456789"),
        "Q2": chunks("zzzzz", "aaaaa 012345"),
        "Q3": chunks("zzzzz", "zzzzz", "aaaaa 01"),
    }
    result = score_run(gold, pages, run, ks=[4])
    assert result.value("hit", 4) == pytest.approx(1 / 3)
    assert result.value("partial", 4) == pytest.approx(2 / 3)
    assert result.gap(4) == pytest.approx(1 / 3)
    assert result.diagnosis_counts(4) == {"full": 1, "chunking": 1, "retrieval": 1}
    assert [q.query_id for q in result.worst_first(4)] == ["Q3", "Q2", "Q1"]
    data = result.to_dict()
    assert round(data["metrics"]["hit@4"], 2) == 0.33
    assert round(data["metrics"]["partial@4"], 2) == 0.67


# --- run bookkeeping -------------------------------------------------------------------------


def test_missing_and_unknown_and_empty_questions() -> None:
    gold = [
        question("a", ("p", "0123456789")),
        question("b", ("p", "0123456789")),
        question("c"),  # no elements: not scored
    ]
    run = {"a": chunks("0123456789"), "zz": chunks("0123456789")}
    result = score_run(gold, {"p": TABLE_PAGE}, run, ks=[1], gold_set="g", run_name="r")
    assert result.missing_from_run == ("b",)
    assert result.unknown_in_run == ("zz",)
    assert result.without_elements == ("c",)
    assert len(result.queries) == 2
    assert result.value("hit", 1) == 0.5  # the missing question scores 0
    data = result.to_dict()
    assert data["gold_set"] == "g" and data["run"] == "r" and data["threshold"] == 0.5
    assert data["queries"] == 2
    assert data["missing_from_run"] == {"count": 1, "query_ids": ["b"]}
    assert data["unknown_in_run"] == {"count": 1, "query_ids": ["zz"]}
    assert set(data["metrics"]) == {f"{n}@1" for n in (*METRIC_NAMES, *SPAN_METRIC_NAMES)}
    assert data["per_query"][1]["in_run"] is False


def test_duplicate_query_ids_rejected() -> None:
    q = question("a", ("p", "x"))
    with pytest.raises(ValueError, match="duplicate"):
        score_run([q, q], {"p": "x"}, {})


@pytest.mark.parametrize("ks", [[], [0], [2, -1], [True]])
def test_invalid_ks_rejected(ks: list[int]) -> None:
    with pytest.raises(ValueError):
        score_run([question("a", ("p", "x"))], {"p": "x"}, {}, ks=ks)


def test_flag_counts_per_question_and_run() -> None:
    page = "abc xx abc yy zz"
    gold = [question("a", ("p", "abc")), question("b", ("p", "yy"))]
    run = {"a": chunks("abc", "not here"), "b": chunks("yy", "zz", "nope")}
    result = score_run(gold, {"p": page, "other": ""}, run, ks=[3])
    a, b = result.queries
    assert (a.flags.repeated, a.flags.chunk_repeated, a.flags.fallback) == (1, 1, 1)
    assert (b.flags.repeated, b.flags.chunk_repeated, b.flags.fallback) == (0, 0, 1)
    assert result.flags.to_dict() == {
        "repeated": 1,
        "fallback": 2,
        "chunk_repeated": 1,
        "element_not_in_page": 0,
        "fallback_graded": 0,
        "offset_mismatch": 0,
        "snapped": 0,
    }


def test_unknown_page_flags_element() -> None:
    result = score_run([question("a", ("missing", "abc"))], {}, {"a": chunks("xx abc")}, ks=[1])
    assert result.flags.element_not_in_page == 1
    assert result.flags.fallback == result.flags.fallback_graded == 1
    assert result.value("hit", 1) == 1.0  # rule 3: the element is inside the chunk


def test_n_gold_groups() -> None:
    page = "one two three four five six"
    gold = [
        question("g1", ("p", "one")),
        question("g2", ("p", "two"), ("p", "three")),
        question("g3", ("p", "four"), ("p", "five"), ("p", "six")),
        question("g4", ("p", "one"), ("p", "two"), ("p", "six"), ("p", "five")),
    ]
    run = {q.query_id: chunks("one two") for q in gold}
    result = score_run(gold, {"p": page}, run, ks=[1])
    assert {g: s.queries for g, s in result.by_n_gold.items()} == {"1": 1, "2": 1, "3+": 2}
    assert result.by_n_gold["3+"].metrics["recall@1"] == pytest.approx((0 + 2 / 4) / 2)


# --- invariants (Hypothesis) -----------------------------------------------------------------

KS = [1, 2, 3, 4, 5, 6, 8]
MONOTONE = ("hit", "partial", "mrr", "recall", "partial_recall")


@settings(max_examples=250, deadline=None)
@given(scoring_case(), st.sampled_from([0.5, 0.3, 0.8, 1.0]))
def test_invariants(case: tuple[list, dict, dict], theta: float) -> None:  # type: ignore[type-arg]
    questions, pages, run = case
    result = score_run(questions, pages, run, ks=KS, threshold=theta)
    for q in result.queries:
        for k in KS:
            assert 0.0 <= q.value("hit", k) <= q.value("partial", k) <= 1.0
            for name in METRIC_NAMES:
                assert 0.0 <= q.value(name, k) <= 1.0 + 1e-12
            assert q.value("recall", k) <= q.value("partial_recall", k)
        for before, after in itertools.pairwise(KS):
            for name in MONOTONE:
                assert q.value(name, before) <= q.value(name, after)
            if before >= q.n_gold:  # nDCG is monotone once the ideal stops growing
                assert q.value("ndcg", before) <= q.value("ndcg", after) + 1e-12
        # the one-pass table equals the per-metric reference functions
        for k in KS:
            assert [q.value(name, k) for name in METRIC_NAMES] == list(
                metrics_at(q.judgement, k).values()
            )
    # the count-weighted mean of the n_gold groups equals the aggregate
    for key, value in result.metrics.items():
        weighted = sum(g.queries * g.metrics[key] for g in result.by_n_gold.values())
        assert weighted / len(result.queries) == pytest.approx(value, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(scoring_case(in_page_only=True))
def test_threshold_one_makes_partial_equal_hit(case: tuple[list, dict, dict]) -> None:  # type: ignore[type-arg]
    questions, pages, run = case
    result = score_run(questions, pages, run, ks=KS, threshold=1.0)
    for k in KS:
        assert result.value("partial", k) == result.value("hit", k)
        assert result.value("partial_recall", k) == result.value("recall", k)


@settings(max_examples=150, deadline=None)
@given(scoring_case(), st.lists(st.text(max_size=8), min_size=1, max_size=4))
def test_unknown_run_entries_change_nothing(
    case: tuple[list, dict, dict],  # type: ignore[type-arg]
    extra: list[str],
) -> None:
    questions, pages, run = case
    base = score_run(questions, pages, run, ks=KS)
    noisy = dict(run)
    for i, text in enumerate(extra):
        noisy[f"unknown-{i}"] = [Chunk(text), Chunk(next(iter(pages.values())))]
    scored = score_run(questions, pages, noisy, ks=KS)
    assert scored.metrics == base.metrics
    assert [q.values for q in scored.queries] == [q.values for q in base.queries]
    assert len(scored.unknown_in_run) == len(base.unknown_in_run) + len(extra)


@given(
    st.lists(st.lists(st.integers(0, 2), min_size=3, max_size=3), max_size=8),
    st.lists(st.integers(1, 3), min_size=3, max_size=3),
)
def test_metric_table_equals_reference(rows: list[list[int]], grades: list[int]) -> None:
    j = Judgement.from_grades(grades, rows)
    table = metric_table(j, KS)
    for x, k in enumerate(KS):
        assert [column[x] for column in table] == list(metrics_at(j, k).values())


def test_score_json_is_plain_json() -> None:
    gold = [question("a", ("p", TABLE_ELEMENT), ("p", "zzzzz"))]
    result = score_run(gold, {"p": TABLE_PAGE}, {"a": chunks("aaaaa 012345")}, ks=[1, 4])
    data = json.loads(json.dumps(score_json(result)))
    assert data["metrics"]["partial@4"] == 1.0
    assert data["partial_hit_gap"]["4"] == 1.0
    assert data["by_n_gold"]["2"]["queries"] == 1
    assert data["per_query"][0]["diagnosis"]["4"] == {
        "kind": "chunking",
        "best_coverage": 0.6,
        "rank": 1,
    }
    assert "per_query" not in score_json(result, per_query=False)


def test_input_values() -> None:
    q = GoldQuestion("a", "?", [GoldElement("p", "x")])  # type: ignore[arg-type]
    assert q.elements == (GoldElement("p", "x"),) and q.n_gold == 1
    with pytest.raises(ValueError, match="grade"):
        GoldElement("p", "x", 0)
