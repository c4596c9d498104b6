"""A layer import writes its audit snapshots as JSON text built column by column
(:func:`labeler.store.layer_snapshots.json_columns`): the text must be exactly what
``json.dumps`` of the snapshot dict gives (what the audit log's JSON column stores when an
entry is written one at a time), whatever the values: non-ASCII and astral characters,
quotes, backslashes, control characters, ``%`` (the rows are formatted with ``%``), booleans
next to ints (``True == 1``), None, floats and nested values; a key of ``same`` already in
the row keeps its place, a new one goes last."""

from __future__ import annotations

import json
from typing import Any

import pytest

from labeler.store.layer_snapshots import json_texts as _json_texts

TEXTS = ["plain", "caf\u00e9 na\u00efve", "\U0001f600 astral", 'say "hi" \\ back', "tab\tnew\nline\x00",
         "100% %s %d %%", ""]  # fmt: skip


def rows(n: int) -> list[dict[str, Any]]:
    return [
        {
            "id": i,
            "text": TEXTS[i % len(TEXTS)],
            "grade": 1 + i % 3,
            "assisted": i % 2 == 0,
            "key_start": None if i % 3 else i,
            "mixed": [None, True, 1, "x", 2.5, 0, False, {"a": [1, None]}][i % 8],
            "none": None,
            "created_at": "replaced",
        }
        for i in range(n)
    ]


@pytest.mark.parametrize(
    "same",
    [
        {},
        {"created_at": "2026-01-02T03:04:05.123456Z", "_origin": "cli"},
        {"created_at": "100%", "_origin": "t%s"},
        {"id": 7},  # every key the same: one text
    ],
)
def test_json_texts_are_what_json_dumps_writes(same: dict[str, Any]) -> None:
    given = rows(40)
    assert _json_texts(given, same) == [json.dumps({**row, **same}) for row in given]


def test_no_rows_no_texts() -> None:
    assert _json_texts([], {"_origin": "cli"}) == []


def test_one_key_only_the_same_for_every_row() -> None:
    assert _json_texts([{"id": 1}, {"id": 2}], {"id": "50%"}) == ['{"id": "50%"}'] * 2
