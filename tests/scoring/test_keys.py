"""Key clauses: Partial needs the key span whole in the same piece; Full is unchanged.

Hand-worked page (offsets counted by hand below)::

    Intro. Writers MUST NOT commit unless the lock is held. Outro.
           ^7 element starts here, 48 code points, ends at 55

Element t = "Writers MUST NOT commit unless the lock is held." with the words at element
offsets Writers 0–7, MUST 8–12, NOT 13–16, commit 17–23, unless 24–30, the 31–34,
lock 35–39, is 40–42, held. 43–48. Keys: at the start "Writers MUST NOT" = (0, 16);
at the end "unless the lock is held" = (24, 47).
"""

from __future__ import annotations

import pytest
from _scoring_helpers import scoring_case, thresholds
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    Chunk,
    GoldElement,
    GoldQuestion,
    Grade,
    PageIndex,
    QueryScore,
    classify,
    gap_table,
    score_run,
)
from scoring.score import PageCache, judge_question

PAGE = "Intro. Writers MUST NOT commit unless the lock is held. Outro."
T = "Writers MUST NOT commit unless the lock is held."
KEY_START = (0, 16)
KEY_END = (24, 47)
# page[0:46]: "Intro. " + t[0:39] ("... the lock"): a 39/48 = 0.8125 piece, element start
HEAD_CHUNK = "Intro. Writers MUST NOT commit unless the lock"
# t[17:48] + " Outro.": a 31/48 = 0.646 piece, element end
TAIL_CHUNK = "commit unless the lock is held. Outro."


def test_worked_offsets() -> None:
    assert PAGE.find(T) == 7 and len(T) == 48
    assert T[slice(*KEY_START)] == "Writers MUST NOT"
    assert T[slice(*KEY_END)] == "unless the lock is held"
    assert PAGE[0:46] == HEAD_CHUNK and PAGE[24:] == TAIL_CHUNK


@pytest.mark.parametrize(
    ("chunk", "key", "grade", "lost"),
    [
        # without a key both pieces pass θ = 0.5
        pytest.param(HEAD_CHUNK, None, Grade.PARTIAL, False, id="head-no-key"),
        pytest.param(TAIL_CHUNK, None, Grade.PARTIAL, False, id="tail-no-key"),
        # key at the start: the head piece [0, 39) holds [0, 16); the tail piece [17, 48) not
        pytest.param(HEAD_CHUNK, KEY_START, Grade.PARTIAL, False, id="head-key-start"),
        pytest.param(TAIL_CHUNK, KEY_START, Grade.NONE, True, id="tail-key-start-lost"),
        # key at the end: [24, 47) is not inside [0, 39) but is inside [17, 48)
        pytest.param(HEAD_CHUNK, KEY_END, Grade.NONE, True, id="head-key-end-lost"),
        pytest.param(TAIL_CHUNK, KEY_END, Grade.PARTIAL, False, id="tail-key-end"),
        # Full is unchanged by a key
        pytest.param(PAGE, KEY_END, Grade.FULL, False, id="page-full"),
        pytest.param(T, KEY_START, Grade.FULL, False, id="element-full"),
        # the key alone (23 of 48 < θ) is no Partial, and nothing is lost
        pytest.param("unless the lock is held", KEY_END, Grade.NONE, False, id="key-only"),
        # a chunk ending exactly at the key's end: [0, 47) holds [24, 47)
        pytest.param(PAGE[:54], KEY_END, Grade.PARTIAL, False, id="ends-at-key-end"),
        # one code point short of the key's end: [0, 46)
        pytest.param(PAGE[:53], KEY_END, Grade.NONE, True, id="one-short-of-key-end"),
        # starting exactly at the key's start (element offset 0 = page 7)
        pytest.param(PAGE[7:40], KEY_START, Grade.PARTIAL, False, id="starts-at-key-start"),
        pytest.param(PAGE[8:40], KEY_START, Grade.NONE, True, id="one-past-key-start"),
    ],
)
def test_rule2_worked(chunk: str, key: tuple[int, int] | None, grade: Grade, lost: bool) -> None:
    plain = classify(PAGE, T, chunk, 0.5, key)
    fast = PageIndex(PAGE).classify(T, chunk, 0.5, key)
    assert plain == fast
    assert plain.grade is grade and plain.key_lost is lost and not plain.fallback
    # coverage is reported as without the key
    assert plain.coverage == classify(PAGE, T, chunk).coverage


# The element twice: E = "abcdefghij" at 0 and 11; key "ab" = (0, 2).
TWICE = "abcdefghij|abcdefghij"


def test_key_and_threshold_must_be_in_the_same_piece() -> None:
    # page[3:14] = "defghij|abc": first copy's piece [3, 10) = 7/10 ≥ θ but without its
    # key [0, 2); second copy's piece [11, 14) = 3/10 < θ holds its key [11, 13).
    chunk = TWICE[3:14]
    assert TWICE.count(chunk) == 1
    assert classify(TWICE, "abcdefghij", chunk).grade is Grade.PARTIAL
    result = classify(TWICE, "abcdefghij", chunk, 0.5, (0, 2))
    assert result.grade is Grade.NONE and result.key_lost and result.repeated
    # page[3:17] = "defghij|abcdef": second piece [11, 17) = 6/10 ≥ θ holds [11, 13)
    result = classify(TWICE, "abcdefghij", TWICE[3:17], 0.5, (0, 2))
    assert result.grade is Grade.PARTIAL and not result.key_lost
    assert result.coverage == pytest.approx(0.7)  # the best piece, the first copy's
    for chunk in (TWICE[3:14], TWICE[3:17]):
        assert PageIndex(TWICE).classify("abcdefghij", chunk, 0.5, (0, 2)) == classify(
            TWICE, "abcdefghij", chunk, 0.5, (0, 2)
        )


@pytest.mark.parametrize(
    ("chunk", "key", "grade", "lost"),
    [
        # not on the page; holds the head "Writers MUST NOT commit " (t[:24]) only
        pytest.param("xx Writers MUST NOT commit yy", KEY_START, Grade.PARTIAL, False),
        pytest.param("xx Writers MUST NOT commit yy", KEY_END, Grade.NONE, True),
        # holds the tail t[24:] = "unless the lock is held." and so the key at the end
        pytest.param("so: unless the lock is held.", KEY_END, Grade.PARTIAL, False),
        pytest.param("so: unless the lock is held.", KEY_START, Grade.NONE, True),
        # the whole element inside: Full whatever the key
        pytest.param(f"[{T}]", KEY_END, Grade.FULL, False),
    ],
)
def test_fallback_needs_key_text(
    chunk: str, key: tuple[int, int], grade: Grade, lost: bool
) -> None:
    result = classify(PAGE, T, chunk, 0.5, key)
    assert result.fallback
    assert (result.grade, result.key_lost) == (grade, lost)
    assert PageIndex(PAGE).classify(T, chunk, 0.5, key) == result


@pytest.mark.parametrize("key", [(0, 0), (5, 3), (-1, 4), (0, 49), (True, 3)])
def test_bad_key_rejected(key: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="key"):
        classify(PAGE, T, PAGE, 0.5, key)
    with pytest.raises(ValueError, match="key"):
        GoldElement("p", T, key=key)


def _gold(key: tuple[int, int] | None) -> list[GoldQuestion]:
    return [
        GoldQuestion("q1", "?", (GoldElement("p", T, key=key),)),
        GoldQuestion("q2", "?", (GoldElement("p", "Outro.", key=None),)),
    ]


def test_key_lost_counted_in_report_and_json() -> None:
    # q1: rank 1 the head chunk (key at the end lost), rank 2 the whole page (Full).
    # q2: "Outro." at rank 1 is Full.
    run = {"q1": [Chunk(HEAD_CHUNK), Chunk(PAGE)], "q2": [Chunk("Outro.")]}
    plain = score_run(_gold(None), {"p": PAGE}, run, ks=[1, 2])
    keyed = score_run(_gold(KEY_END), {"p": PAGE}, run, ks=[1, 2])
    assert plain.value("partial", 1) == 1.0 and keyed.value("partial", 1) == 0.5
    assert keyed.value("hit", 2) == plain.value("hit", 2) == 1.0
    assert keyed.keys == 1 and plain.keys == 0
    assert [keyed.key_lost_count(k) for k in (1, 2)] == [1, 0]  # Full at rank 2
    out = keyed.to_dict()
    assert out["keys"] == 1 and out["key_lost"] == {"1": 1, "2": 0}
    assert out["per_query"][0]["key_lost"] == [1]
    assert out["per_query"][1]["key_lost"] == []
    assert plain.to_dict()["key_lost"] == {"1": 0, "2": 0}
    header, rows = gap_table(keyed)
    assert header[-1] == "key lost" and [r[-1] for r in rows] == [1, 0]
    assert "key lost" not in gap_table(plain)[0]
    # the key-lost question is diagnosed as a retrieval loss at k = 1
    assert str(keyed.queries[0].diagnoses[1].kind) == "retrieval"
    # rows survive the process boundary with what key_lost needs
    keys = keyed.metric_keys()
    row = keyed.queries[0]
    back = QueryScore.from_plain(row.to_plain(keys), keys)
    assert back == row and back.key_lost(1) and not back.key_lost(2)


def _with_keys(
    data: st.DataObject, questions: list[GoldQuestion]
) -> tuple[list[GoldQuestion], int]:
    keyed: list[GoldQuestion] = []
    n = 0
    for q in questions:
        elements = []
        for e in q.elements:
            key = None
            if data.draw(st.booleans()):
                s = data.draw(st.integers(0, len(e.text) - 1))
                key = (s, data.draw(st.integers(s + 1, len(e.text))))
                n += 1
            elements.append(GoldElement(e.doc, e.text, e.grade, key=key))
        keyed.append(GoldQuestion(q.query_id, q.text, tuple(elements)))
    return keyed, n


@settings(max_examples=300, deadline=None)
@given(case=scoring_case(), theta=thresholds, data=st.data())
def test_keys_never_raise_partial(case, theta, data) -> None:  # type: ignore[no-untyped-def]
    questions, pages, run = case
    keyed, n = _with_keys(data, questions)
    ks = [1, 2, 3, 5, 8]
    plain = score_run(questions, pages, run, ks=ks, threshold=theta)
    with_keys = score_run(keyed, pages, run, ks=ks, threshold=theta)
    assert with_keys.keys == n
    for a, b in zip(plain.queries, with_keys.queries, strict=True):
        for k in ks:
            assert b.value("partial", k) <= a.value("partial", k)
            assert b.value("partial_recall", k) <= a.value("partial_recall", k)
            assert b.value("hit", k) == a.value("hit", k)  # Full unchanged
            assert b.value("recall", k) == a.value("recall", k)
            lost = a.value("partial", k) == 1.0 and b.value("partial", k) == 0.0
            assert b.key_lost(k) is lost
    for k in ks:
        assert with_keys.value("partial", k) <= plain.value("partial", k)


@settings(max_examples=300, deadline=None)
@given(case=scoring_case(), theta=thresholds, data=st.data())
def test_hot_loop_equals_plain_classify_with_keys(case, theta, data) -> None:  # type: ignore[no-untyped-def]
    questions, pages, run = case
    keyed, _ = _with_keys(data, questions)
    cache = PageCache(pages)
    for q in keyed:
        chunks = run.get(q.query_id, [])
        judgement, _, _ = judge_question(q, chunks, cache, theta)
        for r, chunk in enumerate(chunks):
            for i, e in enumerate(q.elements):
                expected = classify(pages.get(e.doc, ""), e.text, chunk.text or "", theta, e.key)
                assert judgement.grades[r][i] == int(expected.grade)
