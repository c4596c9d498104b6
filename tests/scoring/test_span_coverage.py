"""Character-level coverage: span_recall@k, span_precision@k, span_iou@k (Chroma's
chunking_evaluation definitions applied to stored runs)."""

from __future__ import annotations

import pytest
from _scoring_helpers import ALPHABET, scoring_case, substring_of
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Chunk, GoldElement, GoldQuestion, Placement, score_run
from scoring.spans import SPAN_METRIC_NAMES, merge_intervals

# 20 distinct letters: every slice occurs once, so "first occurrence" is unambiguous
P = "abcdefghijklmnopqrst"
KS = (1, 2, 3)


def spans_at(
    questions: list[GoldQuestion], pages: dict[str, str], run: dict[str, list[Chunk]], k: int
) -> dict[str, tuple[float, float, float]]:
    result = score_run(questions, pages, run, ks=(k,))
    return {
        q.query_id: tuple(q.value(name, k) for name in SPAN_METRIC_NAMES)  # type: ignore[misc]
        for q in result.queries
    }


def one(elements: list[GoldElement], chunks: list[str], k: int) -> tuple[float, float, float]:
    q = GoldQuestion("q", "?", tuple(elements))
    pages = {"p": P, "o": "0123456789"}
    return spans_at([q], pages, {"q": [Chunk(c) for c in chunks]}, k)["q"]


def test_overlapping_chunks() -> None:
    # G = [5, 10) "fghij", |G| = 5. r1 = [3, 7) "defg" covers [5, 7): 2 new;
    # r2 = [4, 8) "efgh" overlaps r1, adds [7, 8): 1 new; r3 = [8, 12) "ijkl" adds [8, 10): 2.
    chunks = [P[3:7], P[4:8], P[8:12]]
    e = [GoldElement("p", P[5:10])]
    # k=1: C 2, Σ|r| 4, G \ R = 3 → recall 2/5, precision 2/4, IoU 2/(4+3)
    assert one(e, chunks, 1) == pytest.approx((2 / 5, 2 / 4, 2 / 7))
    # k=2: C 3, Σ|r| 8 (overlap counted twice), G \ R = 2 → 3/5, 3/8, 3/(8+2)
    assert one(e, chunks, 2) == pytest.approx((3 / 5, 3 / 8, 3 / 10))
    # k=3: C 5, Σ|r| 12, G \ R = 0 → 1, 5/12, 5/12
    assert one(e, chunks, 3) == pytest.approx((1.0, 5 / 12, 5 / 12))


def test_chunks_on_other_pages_count_in_the_denominators_only() -> None:
    e = [GoldElement("p", P[5:10])]
    # r1 "ZZZZZZ" is on no page: 6 code points in Σ|r|, nothing covered;
    # r2 = [5, 12) holds G whole. k=1: 0, 0/6, 0/(6+5); k=2: C 5, Σ|r| 13 → 1, 5/13, 5/13
    chunks = ["ZZZZZZ", P[5:12]]
    assert one(e, chunks, 1) == (0.0, 0.0, 0.0)
    assert one(e, chunks, 2) == pytest.approx((1.0, 5 / 13, 5 / 13))
    # a chunk of another page ("o") is the same: 10 code points, nothing covered
    assert one(e, ["0123456789", P[5:10]], 2) == pytest.approx((1.0, 5 / 15, 5 / 15))


def test_a_fallback_hit_covers_no_characters() -> None:
    # the chunk is not on the page but holds the element's text: hit@1 by rule 3, yet no
    # character of the page is retrieved (Chroma measures positions)
    q = GoldQuestion("q", "?", (GoldElement("p", P[5:10]),))
    result = score_run([q], {"p": P}, {"q": [Chunk("xx " + P[5:10] + " xx")]}, ks=(1,))
    assert result.value("hit", 1) == 1.0
    assert [result.value(n, 1) for n in SPAN_METRIC_NAMES] == [0.0, 0.0, 0.0]


def test_two_elements_on_one_page() -> None:
    # e1 = [2, 6), e2 = [4, 9) overlap: G = [2, 9), |G| = 7 (not 4 + 5).
    # r1 = [0, 5) covers [2, 5): C 3, Σ|r| 5, G \ R = 4 → 3/7, 3/5, 3/(5+4)
    e = [GoldElement("p", P[2:6]), GoldElement("p", P[4:9])]
    assert one(e, [P[0:5]], 1) == pytest.approx((3 / 7, 3 / 5, 3 / 9))
    # two disjoint elements: e1 = [0, 2), e2 = [10, 14); r1 = [1, 11) covers 1 + 1.
    # C 2, |G| 6, Σ|r| 10 → 2/6, 2/10, 2/(10+4)
    e = [GoldElement("p", P[0:2]), GoldElement("p", P[10:14])]
    assert one(e, [P[1:11]], 1) == pytest.approx((2 / 6, 2 / 10, 2 / 14))


def test_elements_on_two_pages() -> None:
    # G = [5, 10) on p plus [0, 4) on o: |G| = 9. r1 = "0123" covers o whole, r2 = [5, 8)
    # covers 3 of p. k=1: 4/9, 4/4, 4/(4+5); k=2: 7/9, 7/7, 7/(7+2)
    e = [GoldElement("p", P[5:10]), GoldElement("o", "0123")]
    assert one(e, ["0123", P[5:8]], 1) == pytest.approx((4 / 9, 1.0, 4 / 9))
    assert one(e, ["0123", P[5:8]], 2) == pytest.approx((7 / 9, 1.0, 7 / 9))


def test_stored_offsets_are_the_gold_span() -> None:
    # "ab" occurs at 0 and 3; the annotator picked the second copy. The chunk "ab cd" sits
    # at [3, 8) and covers it: recall 1, precision 2/5. Without offsets the span is the
    # first occurrence [0, 2), which the chunk does not touch.
    page = "ab ab cd"
    run = {"q": [Chunk("ab cd")]}
    stored = GoldQuestion("q", "?", (GoldElement("p", "ab", 1, 3, 5),))
    assert spans_at([stored], {"p": page}, run, 1)["q"] == pytest.approx((1.0, 2 / 5, 2 / 5))
    bare = GoldQuestion("q", "?", (GoldElement("p", "ab"),))
    assert spans_at([bare], {"p": page}, run, 1)["q"] == (0.0, 0.0, 0.0)
    # offsets that do not hold the text are not trusted: the first occurrence is used
    wrong = GoldQuestion("q", "?", (GoldElement("p", "ab", 1, 5, 7),))
    assert spans_at([wrong], {"p": page}, run, 1)["q"] == (0.0, 0.0, 0.0)


def test_an_element_not_on_its_page_stays_in_the_gold_size() -> None:
    # "QQ" is not on p: |G| = 5 + 2, only [5, 10) can be covered → recall 5/7, IoU 5/(5+2)
    e = [GoldElement("p", P[5:10]), GoldElement("p", "QQ")]
    assert one(e, [P[5:10]], 1) == pytest.approx((5 / 7, 1.0, 5 / 7))


def test_a_chunk_on_two_cited_pages_counts_once_on_its_own_page() -> None:
    # the chunk "xy" is on both pages; it is placed on its doc "b" (else on "a", the first
    # cited page): C 2 either way here, never 4 (precision would exceed 1)
    pages = {"a": "xy..", "b": "..xy"}
    q = GoldQuestion("q", "?", (GoldElement("a", "xy", 1, 0, 2), GoldElement("b", "xy", 1, 2, 4)))
    for doc in ("b", None):
        got = spans_at([q], pages, {"q": [Chunk("xy", doc)]}, 1)["q"]
        assert got == pytest.approx((2 / 4, 1.0, 2 / 4))
    # when only b's copy is gold, the doc decides whether the chunk covers it
    q = GoldQuestion("q", "?", (GoldElement("a", "..", 1, 2, 4), GoldElement("b", "xy", 1, 2, 4)))
    assert spans_at([q], pages, {"q": [Chunk("xy", "b")]}, 1)["q"] == pytest.approx(
        (2 / 4, 1.0, 2 / 4)
    )
    assert spans_at([q], pages, {"q": [Chunk("xy", "a")]}, 1)["q"] == (0.0, 0.0, 0.0)


def test_a_short_run_is_not_padded() -> None:
    e = [GoldElement("p", P[5:10])]
    assert one(e, [P[5:10]], 3) == (1.0, 1.0, 1.0)


def test_chunks_without_text_use_their_placed_length() -> None:
    # r1 comes without its text: placed at 3 with length 4 on p ([3, 7): 2 of G), as a
    # stored placement gives it. Same values as with the text.
    q = GoldQuestion("q", "?", (GoldElement("p", P[5:10]),))
    placements = {"q": {"p": Placement([3], [0], {}, [4])}}
    from scoring import aggregate, score_questions

    rows = score_questions([q], {"p": P}, {"q": [Chunk(None)]}, ks=(1,), placements=placements)
    result = aggregate([q], rows, ["q"], ks=(1,))
    assert [result.value(n, 1) for n in SPAN_METRIC_NAMES] == pytest.approx([2 / 5, 2 / 4, 2 / 7])


def test_merge_intervals() -> None:
    assert merge_intervals([(5, 7), (0, 2), (2, 3), (6, 9), (4, 4)]) == [(0, 3), (5, 9)]


# --- properties ---------------------------------------------------------------------


@settings(max_examples=300)
@given(scoring_case(max_questions=4), st.lists(st.integers(1, 8), min_size=1, max_size=4))
def test_bounds_and_recall_never_falls_as_k_grows(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]], ks: list[int]
) -> None:
    questions, pages, run = case
    result = score_run(questions, pages, run, ks=ks)
    for q in result.queries:
        before = 0.0
        for k in result.ks:
            recall, precision, iou = (q.value(n, k) for n in SPAN_METRIC_NAMES)
            assert 0.0 <= iou <= min(recall, precision) + 1e-12
            assert min(recall, precision) <= max(recall, precision) <= 1.0
            assert recall >= before
            before = recall


def plain_spans(
    question: GoldQuestion, pages: dict[str, str], chunks: list[Chunk], k: int
) -> tuple[float, float, float]:
    """The three formulas over sets of (page, position), written without intervals."""
    gold: set[tuple[str, int]] = set()
    lost = 0
    cited: list[str] = []
    for e in question.elements:
        if not e.text:
            continue
        page = pages.get(e.doc, "")
        if e.doc not in cited:
            cited.append(e.doc)
        stored = e.start is not None and page[e.start : e.end] == e.text
        at = e.start if stored and e.start is not None else page.find(e.text)
        if at < 0:
            lost += len(e.text)
        else:
            gold |= {(e.doc, i) for i in range(at, at + len(e.text))}
    retrieved: set[tuple[str, int]] = set()
    size = 0
    for c in chunks[:k]:
        text = c.text or ""
        size += len(text)
        on = [d for d in cited if text and text in pages.get(d, "")]
        if not on:
            continue
        doc = c.doc if c.doc in on else on[0]
        at = pages[doc].find(text)
        retrieved |= {(doc, i) for i in range(at, at + len(text))}
    both = len(gold & retrieved)
    whole = len(gold) + lost
    union = size + whole - both
    return (
        both / whole if whole else 0.0,
        both / size if size else 0.0,
        both / union if union else 0.0,
    )


@st.composite
def located_case(
    draw: st.DrawFn,
) -> tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]]:
    """``scoring_case`` plus stored offsets on some elements (right or wrong) and a doc on
    some chunks."""
    questions, pages, run = draw(scoring_case(max_questions=3))
    docs = sorted(pages)
    out = []
    for q in questions:
        elements = []
        for e in q.elements:
            page = pages[e.doc]
            how = draw(st.sampled_from(["none", "right", "wrong"]))
            if how == "right":
                starts = [i for i in range(len(page)) if page.startswith(e.text, i)]
                at = draw(st.sampled_from(starts))
                e = GoldElement(e.doc, e.text, e.grade, at, at + len(e.text))
            elif how == "wrong":
                at = draw(st.integers(0, len(page)))
                e = GoldElement(e.doc, e.text, e.grade, at, at + len(e.text))
            elements.append(e)
        if draw(st.booleans()):  # an element whose text is nowhere on its page
            elements.append(GoldElement(docs[0], draw(st.text(alphabet="xyz", min_size=1))))
        out.append(GoldQuestion(q.query_id, q.text, tuple(elements)))
    for qid, chunks in run.items():
        run[qid] = [Chunk(c.text, draw(st.sampled_from([None, *docs]))) for c in chunks]
    return out, pages, run


@settings(max_examples=400)
@given(located_case(), st.integers(1, 8))
def test_equals_the_plain_set_implementation(
    case: tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]], k: int
) -> None:
    questions, pages, run = case
    result = score_run(questions, pages, run, ks=(k,))
    by_id = {q.query_id: q for q in questions}
    for row in result.queries:
        want = plain_spans(by_id[row.query_id], pages, run.get(row.query_id, []), k)
        assert tuple(row.value(n, k) for n in SPAN_METRIC_NAMES) == pytest.approx(want)


@settings(max_examples=100)
@given(st.text(alphabet=ALPHABET, min_size=1, max_size=30), st.data())
def test_a_chunk_holding_the_gold_span_exactly_scores_one(page: str, data: st.DataObject) -> None:
    text = data.draw(substring_of(page, min_size=1))
    at = page.find(text)
    q = GoldQuestion("q", "?", (GoldElement("p", text, 1, at, at + len(text)),))
    got = spans_at([q], {"p": page}, {"q": [Chunk(text)]}, 1)["q"]
    assert got == (1.0, 1.0, 1.0)
