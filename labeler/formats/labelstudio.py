"""Label Studio JSON export (span labelling) read as :class:`RawTask` objects.

The export is a JSON list of tasks::

    [{"id": 1, "data": {"text": "page text ...", "doc": "optional/page.html"},
      "annotations": [{"result": [{"type": "labels",
          "value": {"start": 7, "end": 55, "text": "...", "labels": ["q1"]}}]}]}]

Only results of type ``labels`` are read (other types are skipped); cancelled annotations
(``was_cancelled``) are skipped; a result with several labels gives one span per label.
Older exports' ``completions`` are read like ``annotations``. The page is named by
``data.doc``, ``meta.doc`` or a top-level ``doc``, else matched by ``data.text``. Offsets are
JavaScript string indices (UTF-16 units): see :mod:`labeler.formats.span_import`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labeler.errors import InputError
from labeler.formats.jsonlines import decode_json, open_input
from labeler.formats.jsontext import bad_text
from labeler.formats.span_import import RawSpan, RawTask


def read_labelstudio(path: str | Path, *, allow_nul: bool = True) -> list[RawTask]:
    """Parse a Label Studio JSON export (``-``: standard input).

    :class:`InputError` names the task on problems; a string holding a lone surrogate (or,
    unless ``allow_nul``, a NUL character) is refused as in
    :func:`~labeler.formats.jsonlines.read_objects`.
    """
    with open_input(path) as handle:
        try:
            raw = handle.read().decode("utf-8-sig")
        except OSError as err:
            raise InputError(path, f"cannot read: {err.strerror or err}") from None
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
    text = data.get("text")
    if text is not None and not isinstance(text, str):
        raise InputError(path, f"{where}: 'data.text' must be a string")
    meta = item["meta"] if isinstance(item.get("meta"), dict) else {}
    doc = data.get("doc") or meta.get("doc") or item.get("doc")
    if doc is not None and not isinstance(doc, str):
        raise InputError(path, f"{where}: the 'doc' field must be a string")
    spans: list[RawSpan] = []
    annotations = item.get("annotations", item.get("completions", []))
    if not isinstance(annotations, list):
        raise InputError(path, f"{where}: 'annotations' must be a list")
    for a, ann in enumerate(annotations, start=1):
        if not isinstance(ann, dict) or ann.get("was_cancelled"):
            continue
        results = ann.get("result", [])
        if not isinstance(results, list):
            raise InputError(path, f"{where}: annotation {a}: 'result' must be a list")
        for r, result in enumerate(results, start=1):
            if isinstance(result, dict) and result.get("type") == "labels":
                spans.extend(_spans(path, where, f"annotation {a}, result {r}", result))
    return RawTask(where, None, text, doc, tuple(spans))


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
