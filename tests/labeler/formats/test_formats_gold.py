from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.errors import InputError
from labeler.formats.gold_jsonl import gold_line_json, read_gold
from labeler.store.rows import StoredElement


def write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_reads_the_design_example(tmp_path: Path) -> None:
    line = json.dumps(
        {
            "query_id": "q1",
            "query": "Who approves a policy exception?",
            "elements": [
                {
                    "doc": "policy/exceptions.html",
                    "start": 120,
                    "end": 162,
                    "text": "Exceptions are approved by the data owner.",
                    "grade": 1,
                }
            ],
            "notes": "optional",
        }
    )
    (g,) = read_gold(write(tmp_path, line, ""))
    assert (g.line, g.query_id, g.notes) == (1, "q1", "optional")
    (e,) = g.elements
    assert (e.doc, e.start, e.end, e.grade) == ("policy/exceptions.html", 120, 162, 1)


def test_offsets_and_grade_optional_and_empty_elements_allowed(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '{"query_id": "7", "query": "a", "elements": [{"doc": "d", "text": "t"}]}',
        '{"query_id": "q2", "query": "b", "elements": []}',
    )
    first, second = read_gold(path)
    assert first.query_id == "7"
    assert (first.elements[0].start, first.elements[0].grade) == (None, 1)
    assert second.elements == ()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "broken JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"query": "x", "elements": []}', "missing field 'query_id'"),
        ('{"query_id": "q", "query": "x"}', "missing field 'elements'"),
        ('{"query_id": "q", "elements": [{"text": "t"}]}', "missing field elements\\[0\\].'doc'"),
        ('{"query_id": "q", "elements": [{"doc": "d", "text": ""}]}', "'text' is empty"),
        ('{"query_id": "q", "elements": [{"doc": "d", "text": "t", "grade": 0}]}', ">= 1"),
        ('{"query_id": "q", "elements": [{"doc": "d", "text": "t", "grade": true}]}', "integer"),
        ('{"query_id": "q", "elements": [{"doc": "d", "text": "t", "start": 3}]}', "only one"),
        ('{"query_id": "q", "elements": [{"doc": "d", "text": "t", "start": 3, "end": 3}]}', "<"),
        ('{"query_id": "q", "offset_unit": "utf16", "elements": []}', "code points"),
        ('{"query_id": "", "elements": []}', "empty"),
        # a number would be stored as text behind the file's back, unlike every other field
        (
            '{"query_id": 7, "elements": []}',
            'field \'query_id\' must be a string, got the integer 7 \\(write "query_id": "7"\\)',
        ),
        ('{"query_id": 7.5, "elements": []}', "field 'query_id' must be a string, got a number"),
        ('{"query_id": true, "elements": []}', "field 'query_id' must be a string, got true/false"),
        (
            '{"query_id": "q", "elements": [{"doc": "d", "text": "t", "status": "gone"}]}',
            "elements\\[0\\].'status' must be 'ok' or 'stale', got 'gone'",
        ),
        ('{"query_id": "q", "elements": [{"doc": "d", "text": "t", "status": 1}]}', "status"),
        (
            '{"query_id": "q", "elements": [{"doc": "d", "text": "t", "status": "stale"}]}',
            "stale but has no 'start'/'end'",
        ),
    ],
)
def test_bad_line_named_with_its_number(tmp_path: Path, bad: str, message: str) -> None:
    path = write(tmp_path, '{"query_id": "ok", "elements": []}', "", bad)
    with pytest.raises(InputError, match=message) as info:
        list(read_gold(path))
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}:3: ")


def test_duplicate_query_id_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, '{"query_id": "a", "elements": []}', '{"query_id": "a", "elements": []}')
    with pytest.raises(InputError, match="twice") as info:
        list(read_gold(path))
    assert info.value.line == 2


def test_not_utf8_named(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b'{"query_id": "a", "elements": []}\n\xff\xfe\n')
    with pytest.raises(InputError, match="not UTF-8") as info:
        list(read_gold(path))
    assert info.value.line == 2


def test_export_line_reads_back(tmp_path: Path) -> None:
    line = gold_line_json("q", "Q?", [("d.html", 3, 5, "ab", 2)], None)
    assert json.loads(line)["offset_unit"] == "codepoint"
    (g,) = read_gold(write(tmp_path, line))
    assert g.elements[0].start == 3 and g.elements[0].end == 5 and g.elements[0].grade == 2


def test_stale_elements_are_marked_and_read_back(tmp_path: Path) -> None:
    line = gold_line_json(
        "q",
        "Q?",
        [
            StoredElement("d.html", 3, 5, "ab", 1, False),
            StoredElement("d.html", 7, 9, "cd", 2, True),
        ],
        None,
    )
    assert line == (
        '{"query_id": "q", "query": "Q?", "elements": ['
        '{"doc": "d.html", "start": 3, "end": 5, "text": "ab", "grade": 1}, '
        '{"doc": "d.html", "start": 7, "end": 9, "text": "cd", "grade": 2, "status": "stale"}'
        '], "notes": null, "offset_unit": "codepoint"}'
    )
    (g,) = read_gold(write(tmp_path, line))
    assert [(e.start, e.stale) for e in g.elements] == [(3, False), (7, True)]
    (ok,) = read_gold(
        write(
            tmp_path, '{"query_id": "q", "elements": [{"doc": "d", "text": "t", "status": "ok"}]}'
        )
    )
    assert ok.elements[0].stale is False
