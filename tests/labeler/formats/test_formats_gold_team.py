"""The team fields of gold JSONL (adjudicated, done, done_by, layer, annotator, provenance,
assisted, accepted): read back, and refused with the file and line when malformed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from labeler.errors import InputError
from labeler.formats.gold_jsonl import read_gold

E = {"doc": "p.txt", "start": 0, "end": 5, "text": "Alpha"}


def write(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_team_fields_are_read_back(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {"query_id": "q1", "elements": [E], "adjudicated": False, "done_by": ["ana", "bob"]},
        {
            "query_id": "q2",
            "done": True,
            "elements": [
                {**E, "provenance": "adjudicated", "annotator": "cleo"},
                {
                    **E,
                    "layer": "annotator",
                    "annotator": "ana",
                    "provenance": "own",
                    "assisted": True,
                    "accepted": False,
                },
            ],
        },
    )
    first, second = read_gold(path)
    assert (first.adjudicated, first.done_by, first.done) == (False, ("ana", "bob"), None)
    assert (second.adjudicated, second.done) == (None, True)
    final, own = second.elements
    assert (final.layer, final.annotator, final.provenance) == (None, "cleo", "adjudicated")
    assert (own.layer, own.annotator, own.provenance, own.assisted) == (
        "annotator",
        "ana",
        "own",
        True,
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"adjudicated": "no"}, "'adjudicated'"),
        ({"done_by": "ana"}, "'done_by'"),
        ({"done_by": ["ana", ""]}, "'done_by' must be a list of annotator names"),
        ({"elements": [{**E, "layer": "draft"}]}, "'layer' must be 'final' or 'annotator'"),
        ({"elements": [{**E, "layer": "annotator"}]}, "names no 'annotator'"),
        (
            {"elements": [{**E, "layer": "annotator", "annotator": "a", "provenance": "single"}]},
            "must be 'own'",
        ),
        ({"elements": [{**E, "provenance": "vibes"}]}, "'provenance' must be one of single"),
        ({"elements": [{**E, "assisted": "yes"}]}, "'assisted'"),
    ],
)
def test_bad_team_fields_name_the_line(tmp_path: Path, line: dict[str, Any], message: str) -> None:
    path = write(
        tmp_path, {"query_id": "q0", "elements": []}, {"query_id": "q1", "elements": [], **line}
    )
    with pytest.raises(InputError, match=message) as caught:
        list(read_gold(path))
    assert caught.value.line == 2
