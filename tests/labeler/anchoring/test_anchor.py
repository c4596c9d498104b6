from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labeler.anchoring import AnchorFailure, anchor, count_occurrences

PAGE = "Intro. FR-001: The index is never the source of record. Outro."
ELEMENT = "FR-001: The index is never the source of record."


def test_offsets_that_match_are_kept() -> None:
    a = anchor(PAGE, ELEMENT, 7, 7 + len(ELEMENT))
    assert (a.start, a.end, a.how, a.repeated) == (7, 55, "offsets", False)


def test_missing_offsets_take_first_occurrence() -> None:
    page = "E. x E."
    a = anchor(page, "E.")
    assert (a.start, a.end, a.how, a.occurrences) == (0, 2, "text", 2)
    assert a.repeated


def test_wrong_offsets_reanchor_by_text() -> None:
    a = anchor(PAGE, ELEMENT, 0, 10)
    assert (a.start, a.end, a.how) == (7, 55, "text")


def test_later_copy_kept_when_offsets_point_at_it() -> None:
    page = "E | E"
    a = anchor(page, "E", 4, 5)
    assert (a.start, a.how, a.occurrences) == (4, "offsets", 2)


@pytest.mark.parametrize(
    ("text", "start", "end", "message"),
    [
        ("", None, None, "empty"),
        ("not there", None, None, "does not occur"),
        ("not there", 0, 9, "neither at offsets 0-9"),
        (ELEMENT, 7, None, "both start and end"),
    ],
)
def test_failures_say_why(text: str, start: int | None, end: int | None, message: str) -> None:
    with pytest.raises(AnchorFailure, match=message):
        anchor(PAGE, text, start, end)


@pytest.mark.parametrize(
    ("page", "text", "count"), [("aaaa", "aa", 3), ("abc", "d", 0), ("abab", "ab", 2), ("x", "", 0)]
)
def test_count_includes_overlaps(page: str, text: str, count: int) -> None:
    assert count_occurrences(page, text) == count


@given(st.text(min_size=1, max_size=40), st.data())
def test_anchored_text_is_the_page_slice(page: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(page) - 1))
    end = data.draw(st.integers(start + 1, len(page)))
    text = page[start:end]
    a = anchor(page, text)
    assert page[a.start : a.end] == text
    assert a.start <= start
