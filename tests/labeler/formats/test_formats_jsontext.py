"""Finding text the database cannot store in decoded JSON (labeler.formats.jsontext).

The scan of the JSON source that decides whether to walk the decoded value must never miss
a lone surrogate or a NUL, whatever the backslashes around the escapes; the property test
compares it with the decoded strings themselves.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from labeler.formats.jsontext import BadText, bad_text, field_path, finite_problem

# pieces of a JSON string body: surrogate-half escapes, NUL, escaped backslashes (which
# make a following "u..." plain text), other escapes and plain characters
PIECES = [
    "\\ud83d", "\\ude00", "\\uD800", "\\uDFFF", "\\udbff", "\\udc00", "\\u0000", "\\u0041",
    "\\\\", "\\n", "\\\"", "u", "d83d", "de00", "a", "😀", "é",
    "\\\\ud83d", "\\\\\\ud83d",  # a high half's text after an escaped backslash, and a real one
]  # fmt: skip
LONE = re.compile("[\ud800-\udfff]")


def decoded_strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *decoded_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in decoded_strings(v)]
    return []


@settings(max_examples=1000, deadline=None)
@example(key=[], body=["\\\\ud83d", "\\ude00"], allow_nul=True)  # fake high, real low
@example(key=["\\\\\\ud83d"], body=["\\\\", "\\udc00"], allow_nul=True)  # real high alone
@example(key=[], body=["\\\\", "u0000"], allow_nul=False)  # "\\u0000" is no NUL
@given(
    key=st.lists(st.sampled_from(PIECES), max_size=4),
    body=st.lists(st.sampled_from(PIECES), max_size=12),
    allow_nul=st.booleans(),
)
def test_scan_never_misses_a_lone_surrogate_or_nul(
    key: list[str], body: list[str], allow_nul: bool
) -> None:
    source = '{"' + "".join(key) + '": ["x", "' + "".join(body) + '"]}'
    value = json.loads(source)
    strings = decoded_strings(value)
    expected = any(LONE.search(s) for s in strings) or (
        not allow_nul and any("\x00" in s for s in strings)
    )
    assert (bad_text(source, value, allow_nul=allow_nul) is not None) == expected, source


@pytest.mark.parametrize(
    ("source", "found"),
    [
        # a valid pair is one astral character, in either hex case
        ('{"q": "\\ud83d\\ude00"}', None),
        ('{"q": "\\uD83D\\uDE00"}', None),
        # a high half before a non-low escape, or at the end
        ('{"q": "ab\\ud83d\\u0041"}', BadText(("q",), False, "\ud83d", 2)),
        # an escaped backslash makes "\\ud83d" plain text: the low half is alone (character 7)
        ('{"q": "\\\\ud83d\\ude00"}', BadText(("q",), False, "\ude00", 6)),
        # two highs then a low: the first is alone, the second pairs
        ('{"q": "\\ud800\\ud83d\\ude00"}', BadText(("q",), False, "\ud800", 0)),
        # in a field name, and deep in a list
        ('{"a": [1, {"b\\udc00": 2}]}', BadText(("a", 1), True, "\udc00", 1)),
        ('{"a": [[["x", "\\udfff"]]]}', BadText(("a", 0, 0, 1), False, "\udfff", 0)),
        # NUL is storable unless refused (next test)
        ('{"q": "\\u0000"}', None),
    ],
)
def test_first_bad_text_located(source: str, found: BadText | None) -> None:
    assert bad_text(source, json.loads(source)) == found


def test_nul_refused_only_when_asked() -> None:
    source = '{"results": [{"text": "ok"}, {"text": "a\\u0000b"}]}'
    bad = bad_text(source, json.loads(source), allow_nul=False)
    assert bad == BadText(("results", 1, "text"), False, "\x00", 1)
    assert bad.describe() == (
        "field 'results[1].text': NUL character (\\u0000) at character 2; "
        "PostgreSQL text cannot hold it"
    )


def test_a_lone_surrogate_deeper_than_recursion_allows_a_walk() -> None:
    depth = 900  # the decoder's limit is near 1,000; the walk must not recurse at all
    source = "[" * depth + '"\\ud800"' + "]" * depth
    bad = bad_text(source, json.loads(source))
    assert bad is not None and bad.path == (0,) * depth


def test_field_path_and_finite_problem() -> None:
    assert field_path(("elements", 0, "text")) == "elements[0].text"
    assert field_path(("label", 0, 2)) == "label[0][2]"
    assert finite_problem(1.5) is None and finite_problem(10**308) is None
    assert finite_problem(float("nan")) == "NaN"
    assert finite_problem(10**400) == "an integer of 401 digits, too large for a float"
    assert finite_problem(-(10**400)) == "an integer of 401 digits, too large for a float"
