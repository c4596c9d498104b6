"""Agreement between annotators: hand-worked examples (the working is in the comments).

Notation: page ``p`` of length L; ``[s, e)`` a span; per character, 1 = inside one of the
coder's spans. For nominal binary α with m coders per unit (character), c of them coding 1:
n1 = Σ c, n0 = Σ (m − c), o01 = Σ c·(m − c)/(m − 1), n = n0 + n1,
α = 1 − (n − 1)·o01 / (n0·n1)  (Krippendorff 2011, "Computing Krippendorff's alpha").
The cross-check against the ``krippendorff`` package is in test_agreement_crosscheck.py.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from scoring import AgreementInput, AgreementInputError, Span, render_agreement
from scoring.agreement import Agreement, agreement

P = "p"


def s(start: int, end: int, page: str = P) -> Span:
    return Span(page, start, end)


def data(
    questions: Mapping[str, Mapping[str, set[Span]]], lengths: Mapping[str, int] | None = None
) -> AgreementInput:
    frozen = {
        q: {a: frozenset(spans) for a, spans in layers.items()} for q, layers in questions.items()
    }
    return AgreementInput(frozen, lengths or {P: 20})


def pair_of(questions: Mapping[str, Mapping[str, set[Span]]], **kw: int) -> Agreement:
    return agreement(data(questions, kw or None), gold_set="g")


def test_identical() -> None:
    # a = b = {[2,8)} on a page of 20: exact 2·1/(1+1) = 1, partial 1.
    # α: 6 chars both 1, 14 both 0 → o01 = 0 → α = 1 − 0 = 1.
    ag = pair_of({"q": {"a": {s(2, 8)}, "b": {s(2, 8)}}})
    (pair,) = ag.pairs
    assert (pair.exact_f1, pair.partial_f1, pair.char_alpha) == (1.0, 1.0, 1.0)
    assert pair.relations() == (1, 0, 0, 0)
    assert ag.overall.exact_f1 == ag.overall.partial_f1 == ag.overall.char_alpha == 1.0


def test_disjoint() -> None:
    # a = {[0,5)}, b = {[10,15)}, L = 20: exact 0, partial 0.
    # α: 10 mismatching chars (1 + 1 = 2 values each), 10 chars both 0.
    # n1 = 10, n0 = 10 + 20 = 30, o01 = 10·1·1/1 = 10, n = 40.
    # α = 1 − 39·10/(10·30) = 1 − 1.3 = −0.3
    (pair,) = pair_of({"q": {"a": {s(0, 5)}, "b": {s(10, 15)}}}).pairs
    assert (pair.exact_f1, pair.partial_f1) == (0.0, 0.0)
    assert pair.char_alpha == pytest.approx(-0.3)
    assert pair.relations() == (0, 0, 0, 1)


def test_nested() -> None:
    # a = {[0,10)}, b = {[2,6)}, L = 20. exact 0.
    # partial: a's element (10 chars) overlaps b's by 4, 2·4 < 10 → P = 0/1; b's element
    # (4 chars) overlaps a's by 4 ≥ 2 → R = 1/1; F1 = 2·0·1/(0 + 1) = 0.
    # α: chars 0–1 and 6–9 mismatch (6), 2–5 both 1 (4), 10–19 both 0 (10).
    # n1 = 6 + 8 = 14, n0 = 6 + 20 = 26, o01 = 6, n = 40; α = 1 − 39·6/(14·26) = 130/364.
    (pair,) = pair_of({"q": {"a": {s(0, 10)}, "b": {s(2, 6)}}}).pairs
    assert (pair.exact_f1, pair.partial_f1) == (0.0, 0.0)
    assert pair.char_alpha == pytest.approx(130 / 364)
    assert pair.relations() == (0, 1, 0, 0)


def test_nested_boundary_disagreement_counts_as_partial() -> None:
    # a = {[0,10)}, b = {[0,6)}: overlap 6, 2·6 ≥ 10 → P = 1; b inside a → R = 1 → F1 = 1.
    (pair,) = pair_of({"q": {"a": {s(0, 10)}, "b": {s(0, 6)}}}).pairs
    assert (pair.exact_f1, pair.partial_f1) == (0.0, 1.0)
    assert pair.nested == 1


def test_partial_threshold_is_at_least_half() -> None:
    # exactly half: a [0,10) vs b [0,5): 2·5 = 10 ≥ 10 → matched (P = 1), R = 1 → 1.
    (half,) = pair_of({"q": {"a": {s(0, 10)}, "b": {s(0, 5)}}}).pairs
    assert half.partial_f1 == 1.0
    # just under: a [0,11) vs b [0,5): 2·5 = 10 < 11 → P = 0, R = 1 → F1 = 0.
    (under,) = pair_of({"q": {"a": {s(0, 11)}, "b": {s(0, 5)}}}).pairs
    assert under.partial_f1 == 0.0


def test_partial_needs_one_element_not_the_sum() -> None:
    # a [0,10) vs b {[0,3), [5,8)}: overlaps 3 and 3 (6 together), but ONE element must give
    # 2·overlap ≥ 10: 6 < 10 → P = 0/1. Each b element lies inside a → R = 2/2.
    # F1 = 2·0·1/(0 + 1) = 0. Coverage: b inside a → nested.
    (pair,) = pair_of({"q": {"a": {s(0, 10)}, "b": {s(0, 3), s(5, 8)}}}).pairs
    assert pair.partial_f1 == 0.0
    assert pair.nested == 1


def test_partial_only_on_the_same_page() -> None:
    # a [0,10) on p, b [0,10) on page r: same offsets, other page → P = R = 0.
    (pair,) = pair_of({"q": {"a": {s(0, 10)}, "b": {s(0, 10, "r")}}}, p=20, r=20).pairs
    assert (pair.exact_f1, pair.partial_f1) == (0.0, 0.0)
    assert pair.disjoint == 1
    # α over both pages (40 units): 20 mismatching chars, 20 both 0:
    # n1 = 20, n0 = 20 + 40 = 60, o01 = 20, n = 80 → α = 1 − 79·20/(20·60) = −19/60.
    assert pair.char_alpha == pytest.approx(-19 / 60)


def test_one_annotator_empty() -> None:
    # a done with no element ("no answer on these pages"), b = {[0,4)}, L = 20.
    # exact = 2·0/(0 + 1) = 0; partial: P over no element = 0, R = 0/1 → 0.
    # α: units = page p (cited by b): 4 mismatching chars, 16 both 0.
    # n1 = 4, n0 = 4 + 32 = 36, o01 = 4, n = 40 → α = 1 − 39·4/(4·36) = −1/12.
    (pair,) = pair_of({"q": {"a": set(), "b": {s(0, 4)}}}).pairs
    assert (pair.exact_f1, pair.partial_f1) == (0.0, 0.0)
    assert pair.char_alpha == pytest.approx(-1 / 12)
    assert pair.relations() == (0, 0, 0, 1)


def test_both_empty_agree_but_alpha_is_undefined() -> None:
    # both "no answer": exact and partial 1 (both sums 0); no page cited → no unit → α
    # undefined (None; the krippendorff package raises on it).
    ag = pair_of({"q": {"a": set(), "b": set()}})
    (pair,) = ag.pairs
    assert (pair.exact_f1, pair.partial_f1, pair.char_alpha) == (1.0, 1.0, None)
    assert pair.identical == 1
    assert ag.overall.char_alpha is None
    assert ag.to_dict()["overall"]["char_alpha"] is None


def test_whole_page_chosen_by_both_has_no_expected_disagreement() -> None:
    # a = b = the whole page: every value is 1 → n0 = 0 → D_e = 0 → α undefined (None; the
    # package gives nan), F1 1.
    (pair,) = pair_of({"q": {"a": {s(0, 20)}, "b": {s(0, 20)}}}).pairs
    assert (pair.exact_f1, pair.char_alpha) == (1.0, None)


def test_repeated_text_at_two_offsets_is_two_spans() -> None:
    # page "The rule. The rule." (19 chars) holds "The rule." at 0 and at 10.
    # a picks [0,9), b picks [10,19): same text, different spans → exact 0, partial 0.
    # α: 18 mismatching chars, char 9 both 0: n1 = 18, n0 = 18 + 2 = 20, o01 = 18, n = 38
    # → α = 1 − 37·18/(18·20) = −0.85.
    page = "The rule. The rule."
    assert page[0:9] == page[10:19]
    (pair,) = pair_of({"q": {"a": {s(0, 9)}, "b": {s(10, 19)}}}, p=len(page)).pairs
    assert (pair.exact_f1, pair.partial_f1) == (0.0, 0.0)
    assert pair.char_alpha == pytest.approx(-0.85)
    assert pair.disjoint == 1


def test_overlapping() -> None:
    # a [0,10), b [5,15), L = 20: neither inside the other → overlapping.
    # α: 10 mismatching chars, 5 both 1, 5 both 0: n1 = 10 + 10 = 20, n0 = 10 + 10 = 20,
    # o01 = 10, n = 40 → α = 1 − 39·10/400 = 0.025. partial: overlap 5, 2·5 ≥ 10 both ways → 1.
    (pair,) = pair_of({"q": {"a": {s(0, 10)}, "b": {s(5, 15)}}}).pairs
    assert pair.char_alpha == pytest.approx(0.025)
    assert (pair.partial_f1, pair.overlapping) == (1.0, 1)


def test_sums_over_questions_not_mean() -> None:
    # q1: a = b = {x} → common 1, sizes 1 + 1. q2: a = {x, y}, b = {x} → common 1, sizes 2 + 1.
    # exact = 2·(1 + 1)/(2 + 3) = 0.8 (the mean of the per-question F1s would be (1 + 2/3)/2).
    x, y = s(0, 4), s(10, 14)
    ag = pair_of({"q1": {"a": {x}, "b": {x}}, "q2": {"a": {x, y}, "b": {x}}})
    (pair,) = ag.pairs
    assert pair.questions == 2
    assert pair.exact_f1 == pytest.approx(0.8)
    # q2 is nested (b's x inside a's coverage); q1 identical.
    assert pair.relations() == (1, 1, 0, 0)
    assert [q.exact_f1 for q in ag.per_question] == [1.0, pytest.approx(2 / 3)]


def test_three_annotators_and_missing_ones() -> None:
    # L = 4. q1: a = b = {[0,2)}, c = {[0,3)}; q2: only a done → left out; q3: a, c done
    # (b missing), identical {[1,2)}.
    # q1 α (m = 3): chars 0,1 all three 1 → n1 += 6; char 2: one 1, two 0 → n1 += 1,
    # n0 += 2, o01 += 1·2/2 = 1; char 3 all 0 → n0 += 3. n1 = 7, n0 = 5, n = 12
    # → α = 1 − 11·1/(7·5) = 24/35.
    # q1 pairs: (a,b) exact 1, (a,c) 0, (b,c) 0 → mean 1/3; partial: a/b [0,2) vs [0,3):
    # overlap 2 (≥ 1 and 2·2 ≥ 3) → every pair 1.
    # overall exact: pairs' counts summed: common 1 (a,b on q1) + 1 (a,c on q3) = 2;
    # sizes: q1 three pairs × 2 = 6, q3 one pair × 2 = 2 → 2·2/8 = 0.5.
    layers = {
        "q1": {"a": {s(0, 2)}, "b": {s(0, 2)}, "c": {s(0, 3)}},
        "q2": {"a": {s(0, 1)}},
        "q3": {"a": {s(1, 2)}, "c": {s(1, 2)}},
    }
    ag = agreement(data(layers, {P: 4}), gold_set="g")
    assert ag.questions == 2
    q1, q3 = ag.per_question
    assert (q1.query_id, q1.annotators) == ("q1", ("a", "b", "c"))
    assert q1.char_alpha == pytest.approx(24 / 35)
    assert (q1.exact_f1, q1.partial_f1) == (pytest.approx(1 / 3), 1.0)
    assert (q3.annotators, q3.char_alpha) == (("a", "c"), 1.0)
    assert ag.overall.exact_f1 == pytest.approx(0.5)
    assert [(p.a, p.b, p.questions) for p in ag.pairs] == [
        ("a", "b", 1),
        ("a", "c", 2),
        ("b", "c", 1),
    ]
    # restricting to a, b: only q1 has two of them
    ab = agreement(data(layers, {P: 4}), ["a", "b"])
    assert [q.query_id for q in ab.per_question] == ["q1"]
    assert ab.overall.char_alpha == ab.pairs[0].char_alpha == 1.0


def test_pair_figures_equal_the_pair_alone() -> None:
    layers = {
        "q1": {"a": {s(0, 5)}, "b": {s(3, 9)}, "c": {s(12, 18, "r")}},
        "q2": {"a": {s(2, 4)}, "b": {s(2, 4), s(6, 8)}},
    }
    d = data(layers, {P: 20, "r": 30})
    everyone = agreement(d)
    for pair in everyone.pairs:
        alone = agreement(d, [pair.a, pair.b]).overall
        # the pair's units are the pages a or b cited (c's page r is not one of them for a, b)
        assert (alone.exact_f1, alone.partial_f1, alone.char_alpha) == (
            pair.exact_f1,
            pair.partial_f1,
            pair.char_alpha,
        )


def test_no_question_done_by_two() -> None:
    ag = agreement(data({"q": {"a": {s(0, 3)}}}), ["a", "b"], gold_set="g")
    assert (ag.questions, ag.pairs) == (0, ())
    assert ag.to_dict()["overall"] == {"exact_f1": None, "partial_f1": None, "char_alpha": None}


def test_a_megabyte_page_costs_its_spans() -> None:
    # L = 10⁶; a [0, 500000), b [250000, 750000): 500000 mismatching chars, 250000 both 1,
    # 250000 both 0 → n1 = n0 = 1000000, o01 = 500000, n = 2·10⁶
    # α = 1 − (2·10⁶ − 1)·5·10⁵/10¹² = 1 − 0.9999995 = 5e-7.
    (pair,) = pair_of({"q": {"a": {s(0, 500_000)}, "b": {s(250_000, 750_000)}}}, p=10**6).pairs
    assert pair.char_alpha == pytest.approx(5e-7, rel=1e-9)


@pytest.mark.parametrize(
    ("span", "message"),
    [
        (Span("p", 5, 5), "needs 0 <= start < end <= 20"),
        (Span("p", 6, 5), "needs 0 <= start < end <= 20"),
        (Span("p", -1, 5), "needs 0 <= start < end <= 20"),
        (Span("p", 10, 21), "needs 0 <= start < end <= 20"),
        (Span("nowhere", 0, 1), "no length for page 'nowhere'"),
    ],
)
def test_bad_input_names_question_and_annotator(span: Span, message: str) -> None:
    with pytest.raises(AgreementInputError, match=message) as err:
        data({"q7": {"ann": {span}}})
    assert "question 'q7', annotator 'ann'" in str(err.value)


def test_json_shape() -> None:
    ag = pair_of({"q1": {"a": {s(0, 5)}, "b": {s(0, 5)}}, "q2": {"a": {s(0, 5)}, "b": {s(9, 12)}}})
    out = json.loads(render_agreement(ag, "json"))
    assert out == ag.to_dict()
    assert list(out) == ["gold_set", "annotators", "questions", "overall", "pairs", "per_question"]
    assert (out["gold_set"], out["annotators"], out["questions"]) == ("g", ["a", "b"], 2)
    assert list(out["overall"]) == ["exact_f1", "partial_f1", "char_alpha"]
    assert list(out["pairs"][0])[:6] == [
        "a",
        "b",
        "questions",
        "exact_f1",
        "partial_f1",
        "char_alpha",
    ]
    assert list(out["per_question"][0]) == [
        "query_id",
        "annotators",
        "exact_f1",
        "partial_f1",
        "char_alpha",
    ]
    assert [q["query_id"] for q in out["per_question"]] == ["q1", "q2"]  # input order


def _ordered_data() -> Agreement:
    return pair_of(
        {
            "agree": {"a": {s(0, 5)}, "b": {s(0, 5)}, "c": {s(0, 5)}},
            "clash": {"a": {s(0, 5)}, "b": {s(9, 12)}},
            "none": {"a": set(), "c": set()},
        }
    )


def test_tables_list_lowest_agreement_first() -> None:
    ag = _ordered_data()
    # clash has α < 0; agree has α = 1; none has α undefined (no disagreement): last
    assert [q.query_id for q in ag.worst_questions()] == ["clash", "agree", "none"]
    text = render_agreement(ag, "table")
    rows = text[text.index("Questions") :]
    assert rows.index("\nclash ") < rows.index("\nagree ") < rows.index("\nnone ")
    # pair (a,b) disagrees on clash: listed before (a,c) and (b,c)
    pairs = text[text.index("Pairs") : text.index("Questions")]
    lines = [line.split() for line in pairs.splitlines()[3:] if line.strip()]
    assert [line[:2] for line in lines] == [["a", "b"], ["a", "c"], ["b", "c"]]
    # a, b: questions 2, identical 1 (agree), disjoint 1 (clash)
    assert lines[0][2] == "2" and lines[0][6:] == ["1", "0", "0", "1"]
    assert "–" in text  # the undefined α of "none"


def test_worst_limits_the_question_list() -> None:
    text = render_agreement(_ordered_data(), "table", worst=1)
    assert "(1 of 3)" in text and "clash" in text and "none" not in text.split("(1 of 3)")[1]


def test_markdown_and_html_escape_names() -> None:
    name = "<b>q|1</b>\nnext"
    ag = pair_of({name: {"a&b": {s(0, 5)}, "z": {s(0, 4)}}})
    md = render_agreement(ag, "markdown")
    assert "&lt;b&gt;q\\|1&lt;/b&gt;<br>next" in md and "a&amp;b" in md
    assert "<b>" not in md
    html = render_agreement(ag, "html")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "&lt;b&gt;q|1&lt;/b&gt;" in html and "<b>" not in html and "a&amp;b" in html
    assert "<script" not in html and "http" not in html  # self-contained
    table = render_agreement(ag, "table")
    assert "q|1</b>\\nnext" in table  # one line per row


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown agreement format"):
        render_agreement(_ordered_data(), "csv")  # type: ignore[arg-type]


def test_input_is_a_copy_and_takes_plain_tuples() -> None:
    layers = {"q": {"a": {("p", 0, 5)}, "b": {("p", 0, 5)}}}
    lengths = {P: 20}
    d = AgreementInput(layers, lengths)  # type: ignore[arg-type]
    layers["q"]["c"] = {("p", 9, 10)}
    lengths[P] = 1
    assert d.questions == {"q": {"a": frozenset({s(0, 5)}), "b": frozenset({s(0, 5)})}}
    assert agreement(d).overall.exact_f1 == 1.0
