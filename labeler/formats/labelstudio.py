"""Label Studio JSON export (span labelling) read as :class:`RawTask` objects.

The export is a JSON list of tasks::

    [{"id": 1, "data": {"text": "page text ...", "doc": "optional/page.html"},
      "annotations": [{"result": [{"type": "labels",
          "value": {"start": 7, "end": 55, "text": "...", "labels": ["q1"]}}]}]}]

Only results of type ``labels`` are read (other types are skipped and counted); cancelled
annotations (``was_cancelled``) are skipped; a result with several labels gives one span per
label. Older exports' ``completions`` are read like ``annotations``. The page is named by
``data.doc``, ``meta.doc`` or a top-level ``doc``, else matched by ``data.text``. Every
field read is type-checked, present or not in the example above. Offsets are JavaScript
string indices (:data:`OFFSET_UNIT`, UTF-16 units): see :mod:`labeler.formats.span_import`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labeler.errors import InputError
from labeler.formats.jsonlines import decode_json, open_input
from labeler.formats.jsontext import bad_text
from labeler.formats.lines import read_bounded
from labeler.formats.span_import import RawSpan, RawTask
from labeler.formats.span_units import OffsetUnit

#: what Label Studio's offsets count (the browser's string indices)
OFFSET_UNIT: OffsetUnit = "utf16"


def read_labelstudio(path: str | Path, *, allow_nul: bool = True) -> list[RawTask]:
    """Parse a Label Studio JSON export (``-``: standard input).

    :class:`InputError` names the task on problems; a string holding a lone surrogate (or,
    unless ``allow_nul``, a NUL character) is refused as in
    :func:`~labeler.formats.jsonlines.read_objects`.
    """
    with open_input(path) as handle:
        try:
            raw = read_bounded(handle, path).decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise InputError(path, f"not UTF-8 (byte {err.start + 1}: {err.reason})") from None
    data = decode_json(raw, path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise InputError(path, "expected a JSON list of tasks (a Label Studio JSON export)")
    bad = bad_text(raw, data, allow_nul=allow_nul)
    if bad is not None:  # its path starts with the task's index in the list
        raise InputError(path, f"task {int(bad.path[0]) + 1}: {bad.describe(skip=1)}")
    return [_task(path, i, item) for i, item in enumerate(data, start=1)]


def _task(path: str | Path, index: int, item: Any) -> RawTask:
    if not isinstance(item, dict):
        raise InputError(path, f"task {index}: expected an object")
    where = f"task {index}" + (f" (id {item['id']})" if "id" in item else "")
    data = item.get("data")
    if not isinstance(data, dict):
        raise InputError(path, f"{where}: missing object 'data'")
    text = _string(path, where, data, "text", "data.")
    meta = item.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise InputError(path, f"{where}: 'meta' must be an object")
    docs = [
        _string(path, where, data, "doc", "data."),
        _string(path, where, meta or {}, "doc", "meta."),
        _string(path, where, item, "doc", ""),
    ]
    doc = next((d for d in docs if d is not None), None)
    spans: list[RawSpan] = []
    skipped: list[str] = []
    key = "annotations" if "annotations" in item else "completions"
    annotations = item.get(key, [])
    if not isinstance(annotations, list):
        raise InputError(path, f"{where}: {key!r} must be a list")
    for a, ann in enumerate(annotations, start=1):
        if not isinstance(ann, dict):
            raise InputError(path, f"{where}: annotation {a} must be an object")
        cancelled = ann.get("was_cancelled", False)
        if not isinstance(cancelled, bool):
            raise InputError(path, f"{where}: annotation {a}: 'was_cancelled' must be true/false")
        if cancelled:
            skipped.append("cancelled annotation")
            continue
        results = ann.get("result", [])
        if not isinstance(results, list):
            raise InputError(path, f"{where}: annotation {a}: 'result' must be a list")
        for r, result in enumerate(results, start=1):
            sub = f"annotation {a}, result {r}"
            if not isinstance(result, dict):
                raise InputError(path, f"{where}, {sub}: expected an object")
            kind = result.get("type")
            if not isinstance(kind, str):
                raise InputError(path, f"{where}, {sub}: 'type' must be a string")
            if kind == "labels":
                got = _spans(path, where, sub, result)
                spans.extend(got)
                if not got:
                    skipped.append("'labels' result with no label")
            else:
                skipped.append(f"result of type {kind!r}")
    return RawTask(where, None, text, doc, tuple(spans), tuple(skipped))


def _string(path: str | Path, where: str, obj: dict[str, Any], key: str, prefix: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise InputError(path, f"{where}: '{prefix}{key}' must be a string")
    return value


def _spans(path: str | Path, task: str, sub: str, result: dict[str, Any]) -> list[RawSpan]:
    where = f"{task}, {sub}"
    value = result.get("value")
    if not isinstance(value, dict):
        raise InputError(path, f"{where}: missing object 'value'")
    start, end, text = (
        _offset(path, where, value, "start"),
        _offset(path, where, value, "end"),
        value.get("text"),
    )
    if text is not None and not isinstance(text, str):
        raise InputError(path, f"{where}: 'value.text' must be a string")
    labels = value.get("labels", [])
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        raise InputError(path, f"{where}: 'value.labels' must be a list of strings")
    return [RawSpan(label, start, end, text, f"{sub}, span {start}-{end}") for label in labels]


def _offset(path: str | Path, where: str, value: dict[str, Any], name: str) -> int:
    v = value.get(name)
    if not isinstance(v, int) or isinstance(v, bool):
        raise InputError(path, f"{where}: 'value.{name}' must be an integer offset")
    return v
