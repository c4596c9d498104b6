from __future__ import annotations

from pathlib import Path

import pytest

from labeler.errors import InputError
from labeler.formats.run_jsonl import read_run


def write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "run.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_native_line_in_file_order(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '{"query_id": "q1", "results": [{"text": "a", "doc": "d", "score": 2}, {"text": "b"}]}',
    )
    (line,) = read_run(path)
    assert line.query_id == "q1"
    assert [(c.rank, c.text, c.doc, c.score) for c in line.chunks] == [
        (1, "a", "d", 2.0),
        (2, "b", None, None),
    ]


def test_rank_field_orders_results(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '{"query_id": "q", "results": [{"text": "c", "rank": 3}, {"text": "a", "rank": 1},'
        ' {"text": "b", "rank": 2}]}',
    )
    (line,) = read_run(path)
    assert [c.text for c in line.chunks] == ["a", "b", "c"]
    assert [c.rank for c in line.chunks] == [1, 2, 3]


def test_ragas_line(tmp_path: Path) -> None:
    path = write(tmp_path, '{"user_input": "Who?", "retrieved_contexts": ["x", "y"]}')
    (line,) = read_run(path)
    assert (line.query_id, line.user_input) == (None, "Who?")
    assert [c.text for c in line.chunks] == ["x", "y"]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('{"query_id": "q"}', "neither 'results'"),
        ('{"results": []}', "missing field 'query_id'"),
        ('{"query_id": "q", "results": [{"doc": "d"}]}', "missing field results\\[0\\].'text'"),
        ('{"query_id": "q", "results": [{"text": "a", "rank": 1}, {"text": "b"}]}', "some"),
        (
            '{"query_id": "q", "results": [{"text": "a", "rank": 1}, {"text": "b", "rank": 1}]}',
            "same",
        ),
        ('{"query_id": "q", "results": [{"text": "a", "score": "high"}]}', "number"),
        ('{"retrieved_contexts": ["x"]}', "user_input"),
        ('{"user_input": "u", "retrieved_contexts": [1]}', "must be a string"),
    ],
)
def test_bad_lines_named(tmp_path: Path, bad: str, message: str) -> None:
    path = write(tmp_path, '{"query_id": "ok", "results": []}', bad)
    with pytest.raises(InputError, match=message) as info:
        list(read_run(path))
    assert info.value.line == 2


def test_utf8_bom_and_blank_lines_accepted(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"query_id": "q", "results": []}\n\n{"query_id": "r", "results": []}'
    )
    lines = list(read_run(path))
    assert [(x.line, x.query_id) for x in lines] == [(1, "q"), (3, "r")]


# --- chunk offsets ----------------------------------------------------------------------

OFFSET_FORMS = [
    '{"text": "one two", "doc": "d", "start": 4, "end": 11}',
    '{"text": "one two", "doc": "d", "start_char_idx": 4, "end_char_idx": 11}',
    '{"text": "one two", "doc": "d", "metadata": {"start_index": 4}}',
    '{"text": "one two", "metadata": {"source": "d", "start_index": 4}}',
]


@pytest.mark.parametrize("result", OFFSET_FORMS)
def test_every_offset_form_reads_the_same(tmp_path: Path, result: str) -> None:
    # LangChain's start_index gives the end as start + len(text): 4 + 7
    path = write(tmp_path, f'{{"query_id": "q", "results": [{result}, {{"text": "x"}}]}}')
    (line,) = read_run(path)
    assert [(c.text, c.doc, c.start, c.end) for c in line.chunks] == [
        ("one two", "d", 4, 11),
        ("x", None, None, None),
    ]


def test_metadata_source_gives_the_doc_without_offsets(tmp_path: Path) -> None:
    path = write(
        tmp_path, '{"query_id": "q", "results": [{"text": "a", "metadata": {"source": 7}}]}'
    )
    (line,) = read_run(path)
    assert (line.chunks[0].doc, line.chunks[0].start) == ("7", None)


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ('{"text": "a", "start": 0, "end": 1}', r"results\[1\] gives offsets but no 'doc'"),
        ('{"text": "a", "metadata": {"start_index": 3}}', r"results\[1\] gives offsets but no"),
        ('{"text": "a", "doc": "d", "start": 0}', r"results\[1\]: 'start' is given without 'end'"),
        ('{"text": "a", "doc": "d", "start": "0", "end": 1}', r"results\[1\]: 'start' must be an"),
        ('{"text": "a", "doc": "d", "start": 2, "end": 1}', r"results\[1\]: 'end' 1 is before"),
        ('{"text": "a", "doc": "d", "start": true, "end": 1}', r"'start' must be an integer"),
        ('{"text": "a", "doc": "d", "start": -1, "end": 1}', r"'start' must be 0 or more"),
        (
            '{"text": "a", "doc": "d", "metadata": {"start_index": 1.5}}',
            r"'metadata.start_index' must be an integer",
        ),
        ('{"text": "a", "metadata": ["d"]}', r"field results\[1\].'metadata' must be an object"),
        (
            '{"text": "a", "metadata": {"source": ["d"]}}',
            r"field results\[1\].metadata.'source' must be",
        ),
    ],
)
def test_bad_offsets_named_by_line_and_result(tmp_path: Path, result: str, message: str) -> None:
    path = write(
        tmp_path,
        '{"query_id": "ok", "results": []}',
        f'{{"query_id": "q", "results": [{{"text": "fine"}}, {result}]}}',
    )
    with pytest.raises(InputError, match=message) as info:
        list(read_run(path))
    assert info.value.line == 2
    assert str(path) in str(info.value)
