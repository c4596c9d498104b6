"""The automatic key clause rule (labeler.anchoring) on hand-worked requirements, and the
bundled requirements gold set marking exactly the keys the rule gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.anchoring import key_clause

GOLD = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs" / "gold"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # "Readers see old data. " is 22 code points, "Writers " 8 more: MUST at 30; the
        # final period is at 69 (70 code points in all), so the key is [30, 69).
        (
            "Readers see old data. Writers MUST NOT commit unless the lock is held.",
            "MUST NOT commit unless the lock is held",
        ),
        # the first condition word wins ("unless" before "except"); sentence ends at "."
        (
            "Rows are kept unless deleted. Except for temp tables, they persist.",
            "unless deleted",
        ),
        # a key at the element's start: the whole first sentence but its period
        ("Except for X, Y holds. Z follows.", "Except for X, Y holds"),
        # no sentence end: to the end of the text, trailing whitespace left out
        ("The pager shall flush the journal  ", "shall flush the journal"),
        # "e.g." is no sentence end; "?" and "!" are
        ("Use it only if e.g. the file exists? Then go.", "only if e.g. the file exists"),
        ("It SHALL be done! Really.", "SHALL be done"),
        # a decimal point is no sentence end (not followed by whitespace)
        ("It is used only if the version is 3.5 or later.", "only if the version is 3.5 or later"),
        # any letter case, any whitespace between the two words
        ("Callers must\nnot pass NULL.", "must\nnot pass NULL"),
        ("This works ONLY  IF enabled.", "ONLY  IF enabled"),
        # a key at the element's end: the condition is the last clause
        ("The value is NULL unless set", "unless set"),
    ],
)
def test_worked_examples(text: str, key: str) -> None:
    span = key_clause(text)
    assert span is not None
    assert text[span[0] : span[1]] == key


def test_worked_example_offsets() -> None:
    text = "Readers see old data. Writers MUST NOT commit unless the lock is held."
    assert key_clause(text) == (30, 69) and len(text) == 70


@pytest.mark.parametrize(
    "text",
    [
        "An exception is raised.",  # "exception" is not "except"
        "Writers must commit.",  # MUST alone is no condition
        "Shallow copies are made.",  # "Shallow" is not "shall"
        "The only way is up if you like.",  # "only" and "if" apart
        "",
    ],
)
def test_no_condition_no_key(text: str) -> None:
    assert key_clause(text) is None


def test_requirements_gold_set_marks_the_rule_keys() -> None:
    keyed = 0
    for line in (GOLD / "requirements.jsonl").read_text(encoding="utf-8").splitlines():
        (element,) = json.loads(line)["elements"]
        span = key_clause(element["text"])
        if span is None:
            assert "key" not in element
            continue
        keyed += 1
        start = element["start"]
        assert element["key"] == {"start": start + span[0], "end": start + span[1]}
        assert element["start"] <= element["key"]["start"] < element["key"]["end"] <= element["end"]
    assert keyed == 104  # the build script's summary: "key clauses: 104"
