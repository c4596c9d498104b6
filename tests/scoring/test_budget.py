"""Token budgets: every metric on the longest prefix of the ranking within B tokens."""

from __future__ import annotations

import pytest
from _scoring_helpers import scoring_case
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Chunk, GoldElement, GoldQuestion, score_run
from scoring.budget import Tokenizer, budget_key, check_budgets, prefix_within
from scoring.result import score_names

# one token per whitespace-separated word
WORDS = Tokenizer("words", lambda text: len(text.split()))
PAGE = "one two three. four five six seven. eight nine ten eleven twelve."


def test_prefix_within() -> None:
    # cumulative tokens 3, 7, 12
    assert [prefix_within([3, 4, 5], b) for b in (2, 3, 6, 7, 11, 12, 100)] == [
        0,
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    assert prefix_within([], 5) == 0
    assert prefix_within([0, 0, 9], 1) == 2  # empty chunks cost nothing


def test_check_budgets() -> None:
    assert check_budgets([2000, 500, 500]) == (500, 2000)
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="budget"):
            check_budgets([bad])  # type: ignore[list-item]


def test_budgets_need_a_tokenizer() -> None:
    with pytest.raises(ValueError, match="tokenizer"):
        score_run([], {}, {}, budgets=[500])


def test_hand_worked_budgets() -> None:
    # chunks: r1 "one two three." (3 tokens, no element), r2 "four five six seven." (4,
    # holds the element whole), r3 "eight nine ten eleven twelve." (5). Cumulative 3, 7, 12.
    element = "four five six seven."
    q = GoldQuestion("q", "?", (GoldElement("p", element),))
    run = {"q": [Chunk("one two three."), Chunk(element), Chunk("eight nine ten eleven twelve.")]}
    result = score_run([q], {"p": PAGE}, run, ks=(1,), budgets=[2, 6, 7, 12], tokenizer=WORDS)
    assert result.budgets == (2, 6, 7, 12)
    assert result.tokenizer == "words"
    # 2 tokens: no chunk fits; 6: r1 only; 7: r1+r2 (hit at rank 2); 12: all three
    assert [result.at_budget("hit", b) for b in (2, 6, 7, 12)] == [0.0, 0.0, 1.0, 1.0]
    assert [result.at_budget("mrr", b) for b in (2, 6, 7, 12)] == [0.0, 0.0, 0.5, 0.5]
    assert [result.at_budget("precision", b) for b in (2, 6, 7, 12)] == [0.0, 0.0, 0.5, 1 / 3]
    assert [result.at_budget("tokens", b) for b in (2, 6, 7, 12)] == [0.0, 3.0, 7.0, 12.0]
    # span metrics at 7 tokens: |G| 20, chunks 14 + 20 code points, C 20
    assert result.at_budget("span_recall", 7) == 1.0
    assert result.at_budget("span_precision", 7) == pytest.approx(20 / 34)
    # the budget reads past max(ks) = 1: hit@1 is 0 while hit@12t is 1
    assert result.value("hit", 1) == 0.0
    assert result.value("tokens", 1) == 3.0
    assert budget_key("hit", 12) in result.to_dict()["metrics"]


def test_tokens_at_k_without_budgets() -> None:
    q = GoldQuestion("q", "?", (GoldElement("p", "one two three."),))
    run = {"q": [Chunk("one two three."), Chunk("four five")]}
    missing = GoldQuestion("m", "?", (GoldElement("p", "one"),))
    result = score_run([q, missing], {"p": PAGE}, run, ks=(1, 2, 5), tokenizer=WORDS)
    # q: 3, 5, 5 tokens; m is not in the run: 0 → means 1.5, 2.5, 2.5
    assert [result.value("tokens", k) for k in (1, 2, 5)] == [1.5, 2.5, 2.5]
    assert result.budgets == ()
    assert "tokens" in result.names


def test_without_a_tokenizer_there_are_no_token_keys() -> None:
    q = GoldQuestion("q", "?", (GoldElement("p", "one"),))
    result = score_run([q], {"p": PAGE}, {"q": [Chunk("one")]}, ks=(1,))
    assert not any(key.startswith("tokens") for key in result.metrics)
    assert result.tokenizer is None


@settings(max_examples=200)
@given(
    scoring_case(max_questions=4),
    st.lists(st.integers(1, 12), min_size=1, max_size=3),
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
)
def test_a_budget_is_the_fixed_cutoff_of_its_prefix(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]],
    budgets: list[int],
    ks: list[int],
) -> None:
    """Each metric at budget B equals the same metric at k = (the prefix's length, counted
    here with a plain loop), or 0 when no chunk fits."""
    questions, pages, run = case
    chars = Tokenizer("chars", len)  # one token per code point
    result = score_run(questions, pages, run, ks=ks, budgets=budgets, tokenizer=chars)
    for row in result.queries:
        chunks = run.get(row.query_id, [])
        for b in budgets:
            depth = total = 0
            for c in chunks:
                total += len(c.text or "")
                if total > b:
                    break
                depth += 1
            q = next(x for x in questions if x.query_id == row.query_id)
            if depth:
                alone = score_run([q], pages, run, ks=(depth,), tokenizer=chars).queries[0]
            for name in score_names(tokens=True):
                got = row.values[budget_key(name, b)]
                assert got == (alone.value(name, depth) if depth else 0.0), (name, b, depth)


@settings(max_examples=150)
@given(scoring_case(max_questions=4), st.lists(st.integers(1, 40), min_size=1, max_size=3))
def test_budgets_leave_the_fixed_cutoffs_unchanged(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]],
    budgets: list[int],
) -> None:
    """Scoring reads past max(ks) for a large budget; the values at each k stay the same."""
    questions, pages, run = case
    plain = score_run(questions, pages, run, ks=(1, 2))
    chars = Tokenizer("chars", len)
    budgeted = score_run(questions, pages, run, ks=(1, 2), budgets=budgets, tokenizer=chars)
    for key, value in plain.metrics.items():
        assert budgeted.metrics[key] == value, key
    for a, b in zip(plain.queries, budgeted.queries, strict=True):
        assert a.diagnoses == b.diagnoses
