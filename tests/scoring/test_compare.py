"""Comparing two runs and the paired randomization test."""

from __future__ import annotations

import random

import pytest
from _scoring_helpers import chunks, question
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    compare_runs,
    comparison_table,
    group_table,
    metric_table_rows,
    paired_randomization_test,
    score_run,
    worst_table,
)

PAGE = "aaaaa 0123456789 zzzzz"
ELEMENT = "0123456789"
GOLD = [
    question("Q1", ("p", ELEMENT)),
    question("Q2", ("p", ELEMENT)),
    question("Q3", ("p", ELEMENT), ("p", "zzzzz")),
]
RUN_A = {
    "Q1": chunks(ELEMENT),
    "Q2": chunks("zzzzz", "aaaaa 012345"),  # chunking loss at k=4
    "Q3": chunks("aaaaa 01"),
}
RUN_B = {
    "Q1": chunks("zzzzz", ELEMENT),  # worse: full hit moves from rank 1 to rank 2
    "Q2": chunks(ELEMENT),  # chunking → full
    "Q3": chunks("aaaaa 01"),
}


def test_compare_runs() -> None:
    a = score_run(GOLD, {"p": PAGE}, RUN_A, ks=[1, 4], run_name="a")
    b = score_run(GOLD, {"p": PAGE}, RUN_B, ks=[1, 4], run_name="b")
    cmp = compare_runs(a, b, permutations=200, seed=1)
    assert cmp.moved["hit@4"].better == ("Q2",)
    assert cmp.moved["hit@4"].worse == ()
    assert cmp.moved["mrr@4"].better == ("Q2",)
    assert cmp.moved["mrr@4"].worse == ("Q1",)  # 1 → 1/2
    assert cmp.questions[0].deltas["mrr@4"] == pytest.approx(-0.5)
    assert cmp.diagnosis_changes[4] == {"chunking→full": 1}
    assert cmp.diagnosis_changes[1] == {"full→retrieval": 1, "retrieval→full": 1}
    assert cmp.by_n_gold["1"]["hit@4"].better == 1
    assert "3+" not in cmp.by_n_gold  # empty groups are omitted
    assert cmp.by_n_gold["2"]["hit@4"].queries == 1
    test = cmp.tests["hit@4"]
    assert test.delta == pytest.approx(1 / 3)
    assert test.exact and test.p_value == 1.0  # one non-zero pair: both signs tie
    data = cmp.to_dict()
    assert data["metrics"]["hit@4"]["better"] == ["Q2"]
    assert data["diagnosis_changes"]["4"] == {"chunking→full": 1}
    header, rows = comparison_table(cmp)
    assert header[0] == "metric" and len(rows) == len(cmp.keys)


def test_compare_requires_same_questions() -> None:
    a = score_run(GOLD, {"p": PAGE}, RUN_A, ks=[4])
    b = score_run(GOLD[:2], {"p": PAGE}, RUN_B, ks=[4])
    with pytest.raises(ValueError, match="same questions"):
        compare_runs(a, b)


def test_report_tables() -> None:
    result = score_run(GOLD, {"p": PAGE}, RUN_A, ks=[1, 4])
    header, rows = metric_table_rows(result)
    assert header == ["metric", "@1", "@4"]
    assert rows[-1][0] == "partial−hit gap"
    header, rows = group_table(result, 4)
    assert [r[0] for r in rows] == ["1", "2", "all"]
    header, rows = worst_table(result, 4)
    assert [r[0] for r in rows] == ["Q3", "Q2", "Q1"]


# --- paired randomization test ------------------------------------------------------------


def test_exact_enumeration() -> None:
    # four pairs all +1: only the all-plus and all-minus sign vectors reach |Σ| = 4 → 2/16
    test = paired_randomization_test([0, 0, 0, 0], [1, 1, 1, 1], permutations=1000)
    assert test.exact and test.permutations == 16
    assert test.p_value == pytest.approx(2 / 16)


def test_all_equal_gives_one() -> None:
    test = paired_randomization_test([0.5, 1.0], [0.5, 1.0])
    assert test.p_value == 1.0 and test.n_nonzero == 0


def test_sampled_is_seeded_and_bounded() -> None:
    rng = random.Random(5)
    a = [rng.random() for _ in range(200)]
    b = [x + rng.gauss(0.05, 0.2) for x in a]
    first = paired_randomization_test(a, b, permutations=999, seed=3)
    again = paired_randomization_test(a, b, permutations=999, seed=3)
    assert first == again and not first.exact
    assert 1 / 1000 <= first.p_value <= 1.0
    assert first.p_value < 0.05  # a clear shift


def test_numpy_and_python_paths_agree() -> None:
    rng = random.Random(9)
    a = [float(rng.random() < 0.5) for _ in range(150)]
    b = [float(rng.random() < 0.55) for _ in range(150)]
    fast = paired_randomization_test(a, b, permutations=3000, seed=2, use_numpy=True)
    slow = paired_randomization_test(a, b, permutations=3000, seed=2, use_numpy=False)
    assert fast == slow


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=1,
        max_size=12,
    )
)
def test_symmetric_in_the_runs(pairs: list[tuple[float, float]]) -> None:
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    forward = paired_randomization_test(a, b, permutations=500, seed=4)
    backward = paired_randomization_test(b, a, permutations=500, seed=4)
    assert forward.p_value == backward.p_value
    assert 0.0 < forward.p_value <= 1.0


@pytest.mark.parametrize(
    ("a", "b", "permutations"),
    [([1.0], [1.0, 2.0], 10), ([], [], 10), ([1.0], [2.0], 0)],
)
def test_invalid_input(a: list[float], b: list[float], permutations: int) -> None:
    with pytest.raises(ValueError):
        paired_randomization_test(a, b, permutations=permutations)
