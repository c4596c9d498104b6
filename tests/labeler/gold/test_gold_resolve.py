from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.errors import InputError
from labeler.gold import resolve_gold

PAGES = {
    "fr.html": "Intro. FR-001: The index is never the source of record. Outro.",
    "twice.html": "E | E",
}


def write(tmp_path: Path, *objs: object) -> Path:
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


def test_elements_anchored_checked_and_flagged(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {"query_id": "a", "query": "?", "elements": [{"doc": "fr.html", "text": "Outro."}]},
        {
            "query_id": "b",
            "elements": [{"doc": "fr.html", "text": "Intro.", "start": 1, "end": 7}],
        },
        {"query_id": "c", "elements": [{"doc": "twice.html", "text": "E", "start": 4, "end": 5}]},
        {"query_id": "d", "elements": []},
    )
    questions, summary = resolve_gold(path, PAGES.get)
    a, b, c, d = questions
    assert (a.elements[0].start, a.elements[0].end) == (56, 62)
    assert (b.elements[0].start, b.elements[0].reanchored) == (0, True)
    assert (c.elements[0].start, c.elements[0].repeated, c.elements[0].reanchored) == (
        4,
        True,
        False,
    )
    assert d.elements == ()
    assert (summary.questions, summary.elements, summary.reanchored, summary.repeated) == (
        4,
        3,
        1,
        1,
    )


@pytest.mark.parametrize(
    ("element", "message"),
    [
        ({"doc": "missing.html", "text": "x"}, "unknown document 'missing.html'"),
        ({"doc": "fr.html", "text": "nowhere"}, "does not occur"),
        ({"doc": "fr.html", "text": "nowhere", "start": 0, "end": 7}, "neither at offsets"),
    ],
)
def test_bad_element_names_the_line(
    tmp_path: Path, element: dict[str, object], message: str
) -> None:
    path = write(
        tmp_path,
        {"query_id": "ok", "elements": [{"doc": "fr.html", "text": "Intro."}]},
        {"query_id": "bad", "elements": [element]},
    )
    with pytest.raises(InputError, match=message) as info:
        resolve_gold(path, PAGES.get)
    assert info.value.line == 2
