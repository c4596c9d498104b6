"""classify (docs/metrics.md, rules 1–3): worked examples, flags, fast index equivalence."""

from __future__ import annotations

from functools import partial

import pytest
from _scoring_helpers import element_or_chunk, pages_text, question, thresholds
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Chunk, Grade, PageIndex, classify, score_run
from scoring.classify import best_overlap, fallback_split, occurrences
from scoring.score import PageCache, judge_question

PAGE = "Intro. FR-001: The index is never the source of record. Outro."
ELEMENT = "FR-001: The index is never the source of record."
PARTIAL_CHUNK = "Intro. FR-001: The index is never the"
TWICE = f"{ELEMENT} | {ELEMENT}"


@pytest.mark.parametrize(
    ("page", "chunk", "grade"),
    [
        pytest.param(PAGE, PAGE, Grade.FULL, id="whole-page-full"),
        pytest.param(PAGE, PARTIAL_CHUNK, Grade.PARTIAL, id="more-than-half-partial"),
        pytest.param(PAGE, "Intro. FR-001: The", Grade.NONE, id="less-than-half-none"),
        pytest.param(PAGE, ELEMENT, Grade.FULL, id="exact-element-full"),
        pytest.param(PAGE, "Outro.", Grade.NONE, id="no-overlap-none"),
        pytest.param(TWICE, f" | {ELEMENT}", Grade.FULL, id="second-copy-full"),
        pytest.param(TWICE, ELEMENT, Grade.FULL, id="first-copy-full"),
        pytest.param(PAGE, "", Grade.NONE, id="empty-chunk"),
    ],
)
def test_fr001_worked_cases(page: str, chunk: str, grade: Grade) -> None:
    assert classify(page, ELEMENT, chunk).grade is grade


def test_repeated_element_judged_by_best_occurrence() -> None:
    # The chunk is the second copy only: its first occurrence is at offset len(E) + 3,
    # which overlaps the second occurrence fully and the first not at all.
    second = TWICE[len(ELEMENT) + 1 :]  # "| FR-001: ..." occurs once
    result = classify(TWICE, ELEMENT, second)
    assert result.grade is Grade.FULL
    assert result.repeated and not result.chunk_repeated and not result.fallback


def test_best_grade_over_top_k_list_is_full() -> None:
    q = question("q", ("p", ELEMENT))
    run = {"q": [Chunk("Outro."), Chunk(PARTIAL_CHUNK), Chunk(PAGE)]}
    grades = [classify(PAGE, ELEMENT, c.text).grade for c in run["q"]]
    assert grades == [Grade.NONE, Grade.PARTIAL, Grade.FULL]
    assert max(grades) is Grade.FULL
    result = score_run([q], {"p": PAGE}, run, ks=[3])
    assert result.value("hit", 3) == 1.0
    assert result.queries[0].diagnoses[3].best_rank == 3


def test_coverage_is_best_overlap_share() -> None:
    # "Intro. FR-001: The index is never the" holds "FR-001: The index is never the"
    assert classify(PAGE, ELEMENT, PARTIAL_CHUNK).coverage == pytest.approx(30 / 48)
    assert classify(PAGE, ELEMENT, "Intro. FR-001: The").coverage == pytest.approx(11 / 48)


@pytest.mark.parametrize(
    ("element", "chunk", "grade", "coverage"),
    [
        pytest.param("abcdef", "xx abcdef yy", Grade.FULL, 1.0, id="inside"),
        pytest.param("abcdef", "xx abc", Grade.PARTIAL, 0.5, id="head"),
        pytest.param("abcdefg", "defg yy", Grade.PARTIAL, 4 / 7, id="tail-odd"),
        pytest.param("abcdef", "cdx", Grade.NONE, 0.0, id="neither"),
        pytest.param("a", "bbb", Grade.NONE, 0.0, id="one-char-no-tail"),
        pytest.param("a", "bab", Grade.FULL, 1.0, id="one-char-inside"),
    ],
)
def test_fallback_rule(element: str, chunk: str, grade: Grade, coverage: float) -> None:
    result = classify("unrelated page text", element, chunk)
    assert result.fallback
    assert result.grade is grade
    assert result.coverage == pytest.approx(coverage)


def test_fallback_ignores_threshold() -> None:
    assert classify("zzz", "abcdef", "abc", threshold=1.0).grade is Grade.PARTIAL


def test_flags() -> None:
    page = "xx abc yy abc zz"
    assert classify(page, "abc", "abc").chunk_repeated
    assert classify(page, "abc", "abc").repeated
    assert not classify(page, "yy", "yy abc").repeated
    assert classify(page, "yy", "nope").fallback


def test_overlapping_occurrences_count() -> None:
    assert occurrences("aaaa", "aa") == (0, 1, 2)
    # "aa" occurs in "aaab" at 0 and, overlapping, at 1. The chunk "ab" is [2, 4): it
    # overlaps [1, 3) by one code point (1/2 ≥ θ) but [0, 2) not at all, so only the
    # overlapping occurrence makes it Partial.
    assert classify("aaab", "aa", "ab").grade is Grade.PARTIAL
    # "aab" occurs at 0 and 3 in "aabaab"; "baa" is [2, 5): overlaps are 1 and 2 of 3.
    assert classify("aabaab", "aab", "baa").coverage == pytest.approx(2 / 3)


def test_threshold_compared_as_ratio() -> None:
    # 7 of 10 code points with θ = 0.7: 0.7 * 10 == 7.000000000000001 in floating point.
    page = "0123456789tail"
    assert classify(page, "0123456789", "3456789tail", threshold=0.7).grade is Grade.PARTIAL


def test_empty_element_is_none() -> None:
    assert classify(PAGE, "", PAGE).grade is Grade.NONE


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.5, float("nan"), True, "0.5"])
def test_invalid_threshold_rejected(bad: object) -> None:
    with pytest.raises(ValueError, match="threshold"):
        classify(PAGE, ELEMENT, PAGE, threshold=bad)  # type: ignore[arg-type]


def test_fallback_split() -> None:
    assert fallback_split("abcde") == ("ab", "cde")
    assert fallback_split("a") == ("a", "")
    assert fallback_split("ab") == ("a", "b")


# Index settings for the equivalence tests: the defaults (the anchors never occur in the
# tiny alphabet, so every lookup scans) and anchors from the alphabet with short keys and a
# low candidate cap, so that hits, misses, several candidates and the cap all occur.
INDEXES = [
    pytest.param(PageIndex, id="default"),
    pytest.param(partial(PageIndex, anchors=("c", " a"), key=2, max_candidates=2), id="anchored"),
    pytest.param(partial(PageIndex, anchors=("b",), key=1, max_candidates=1), id="one-char-key"),
]


@pytest.mark.parametrize("make_index", INDEXES)
@settings(max_examples=400)
@given(st.data(), pages_text, thresholds)
def test_page_index_equals_plain_classify(
    make_index: type[PageIndex], data: st.DataObject, page: str, theta: float
) -> None:
    index = make_index(page)  # reused across pairs: exercises the caches
    for _ in range(4):
        element = data.draw(element_or_chunk(page), label="element")
        chunk = data.draw(element_or_chunk(page), label="chunk")
        assert index.classify(element, chunk, theta) == classify(page, element, chunk, theta)


@pytest.mark.parametrize("make_index", INDEXES)
@settings(max_examples=300)
@given(st.data(), pages_text, thresholds)
def test_scoring_hot_loop_equals_plain_classify(
    make_index: type[PageIndex], data: st.DataObject, page: str, theta: float
) -> None:
    elements = data.draw(st.lists(element_or_chunk(page), min_size=1, max_size=3))
    texts = data.draw(st.lists(element_or_chunk(page), max_size=6))
    q = question("q", *[("p", e) for e in elements])
    judgement, best_cov, flags = judge_question(
        q, [Chunk(t) for t in texts], PageCache({"p": page}, make_index), theta
    )
    fallback = graded = repeated = 0
    for r, chunk in enumerate(texts):
        plain = [classify(page, e, chunk, theta) for e in elements]
        assert judgement.grades[r] == tuple(int(c.grade) for c in plain)
        assert best_cov[r] == max(c.coverage for c in plain)
        fallback += any(c.fallback for c in plain)
        graded += any(c.fallback and c.grade for c in plain)
        repeated += any(c.chunk_repeated for c in plain)
    assert (flags.fallback, flags.fallback_graded, flags.chunk_repeated) == (
        fallback,
        graded,
        repeated,
    )


@given(
    st.lists(st.integers(0, 30), unique=True).map(sorted),
    st.integers(1, 8),
    st.integers(0, 30),
    st.integers(1, 10),
)
def test_best_overlap_equals_scan(starts: list[int], size: int, c0: int, width: int) -> None:
    c1 = c0 + width
    scan = max([max(0, min(e + size, c1) - max(e, c0)) for e in starts], default=0)
    assert best_overlap(tuple(starts), size, c0, c1) == scan


ANCHOR_ALPHABET = "ab. c,\n"


@pytest.mark.parametrize("make_index", INDEXES[1:])
@settings(max_examples=400)
@given(
    st.text(alphabet=ANCHOR_ALPHABET, max_size=60),
    st.lists(st.text(alphabet=ANCHOR_ALPHABET, min_size=1, max_size=12), max_size=6),
    st.data(),
)
def test_anchor_lookup_finds_exactly_the_occurrences(
    make_index: type[PageIndex], page: str, free: list[str], data: st.DataObject
) -> None:
    index = make_index(page)
    needles = list(free)
    # substrings of the page too, so that most needles occur (some several times)
    for _ in range(6 if page else 0):
        start = data.draw(st.integers(0, len(page) - 1))
        end = data.draw(st.integers(start + 1, len(page)))
        needles.append(page[start:end])
    for needle in needles:
        expected = occurrences(page, needle)
        assert index.occurrences(needle) == expected
        assert index.locate(needle) == (
            (expected[0], len(expected) > 1) if expected else (-1, False)
        )


def test_default_anchor_index_on_prose() -> None:
    # Sentence ends key the default index: a chunk holding one is found by lookup, twice
    # when the page repeats it, and proved absent when its key is not on the page.
    sentence = "It never moves. The key after the period is long enough here."
    page = f"Intro. {sentence} Middle part. {sentence} End."
    index = PageIndex(page)
    chunk = "moves. The key after the period is long"
    assert index.locate(chunk) == (page.find(chunk), True)
    assert index.occurrences(chunk) == occurrences(page, chunk)
    assert index.locate("moves. The key after the period is short") == (-1, False)
    once = "Middle part. It never moves. The key after"
    assert index.locate(once) == (page.find(once), False)
    assert index.locate("no anchor in this needle at all") == (-1, False)


def test_keys_with_too_many_positions_fall_back_to_the_scan() -> None:
    page = "x. aaaa " * 40 + "x. aaaa tail"
    index = PageIndex(page, key=4, max_candidates=3)
    assert index.locate("x. aaaa tail") == (page.find("x. aaaa tail"), False)
    assert index.occurrences("x. aaaa x") == occurrences(page, "x. aaaa x")


def test_bad_anchor_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="anchor"):
        PageIndex("page", anchors=("",))
    with pytest.raises(ValueError, match="anchor"):
        PageIndex("page", anchors=(". ",), key=1)
    with pytest.raises(ValueError, match="anchor"):
        PageIndex("page", max_candidates=0)
