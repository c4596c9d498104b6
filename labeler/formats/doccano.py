"""doccano JSONL export (sequence labelling) read as :class:`RawTask` objects.

One text per line::

    {"text": "page text ...", "label": [[7, 55, "q1"]], "doc": "optional/page.html"}

Spans are ``label`` (or ``labels``/``entities``) items, each ``[start, end, label]`` or
``{"start_offset": ..., "end_offset": ..., "label": ...}``. They carry no text: each span's
text is the slice of the line's ``text``. The page is named by ``doc`` or ``meta.doc``, else
matched by ``text``. Offsets may be UTF-16 units: see :mod:`labeler.formats.span_import`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labeler.errors import InputError
from labeler.formats.jsonlines import optional, read_objects
from labeler.formats.span_import import RawSpan, RawTask

_SPAN_KEYS = ("label", "labels", "entities")


def read_doccano(path: str | Path, *, allow_nul: bool = True) -> list[RawTask]:
    """Parse a doccano JSONL export (``-``: standard input); :class:`InputError` names the
    line on problems (see :func:`~labeler.formats.jsonlines.read_objects` for ``allow_nul``)."""
    tasks: list[RawTask] = []
    for number, obj in read_objects(path, allow_nul=allow_nul):
        text = optional(obj, "text", str, path, number)
        meta = obj["meta"] if isinstance(obj.get("meta"), dict) else {}
        doc = obj.get("doc") or meta.get("doc")
        if doc is not None and not isinstance(doc, str):
            raise InputError(path, "the 'doc' field must be a string", number)
        key = next((k for k in _SPAN_KEYS if k in obj), None)
        items = obj.get(key, []) if key else []
        if not isinstance(items, list):
            raise InputError(path, f"field {key!r} must be a list", number)
        spans = tuple(_span(path, number, key or "label", i, item) for i, item in enumerate(items))
        tasks.append(RawTask(f"line {number}", number, text, doc, spans))
    return tasks


def _span(path: str | Path, line: int, key: str, index: int, item: Any) -> RawSpan:
    where = f"{key}[{index}]"
    if isinstance(item, list) and len(item) == 3:
        start, end, label = item
    elif isinstance(item, dict):
        start, end, label = item.get("start_offset"), item.get("end_offset"), item.get("label")
    else:
        raise InputError(
            path, f"{where} must be [start, end, label] or an object with start_offset", line
        )
    for name, v in (("start", start), ("end", end)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise InputError(path, f"{where}: {name} must be an integer offset", line)
    if isinstance(label, int) and not isinstance(label, bool):
        label = str(label)
    if not isinstance(label, str) or not label:
        raise InputError(path, f"{where}: label must be a non-empty string", line)
    return RawSpan(label, start, end, None, where)
