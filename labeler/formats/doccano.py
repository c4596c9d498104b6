"""doccano JSONL export (sequence labelling) read as :class:`RawTask` objects.

One text per line, in any of the forms doccano has written::

    {"text": "page text ...", "label": [[7, 55, "q1"]], "doc": "optional/page.html"}
    {"text": "...", "entities": [{"id": 5, "start_offset": 7, "end_offset": 55, "label": "q1"}]}
    {"id": 15, "text": "...", "annotations": [{"label": 7, "start_offset": 7,
                                                "end_offset": 55, "user": 1}], "meta": {}}

Spans are the items of ``label``, ``labels``, ``entities`` or ``annotations`` (the first of
these a line has), each ``[start, end, label]`` or ``{"start_offset": ..., "end_offset": ...,
"label": ...}``. A label is a name or, in older exports (the ``annotations`` form), the
project's numeric label id: an id is read as its decimal text, so label 7 becomes question
``"7"`` (the file does not say the name; map ids to names in the file first to get named
questions). Spans carry no text: each span's text is the slice of the line's ``text``. The
page is named by ``doc`` or ``meta.doc``, else matched by ``text``. Offsets count
:data:`OFFSET_UNIT` (UTF-16 units, the browser's string indices): see
:mod:`labeler.formats.span_import`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labeler.errors import InputError
from labeler.formats.jsonlines import optional, read_objects
from labeler.formats.span_import import RawSpan, RawTask
from labeler.formats.span_units import OffsetUnit

_SPAN_KEYS = ("label", "labels", "entities", "annotations")
#: what doccano's offsets count (the browser's string indices)
OFFSET_UNIT: OffsetUnit = "utf16"


def read_doccano(path: str | Path, *, allow_nul: bool = True) -> list[RawTask]:
    """Parse a doccano JSONL export (``-``: standard input); :class:`InputError` names the
    line on problems (see :func:`~labeler.formats.jsonlines.read_objects` for ``allow_nul``).
    A line with none of the span fields is read as a text without spans (recorded in its
    task's ``skipped``)."""
    tasks: list[RawTask] = []
    for number, obj in read_objects(path, allow_nul=allow_nul):
        text = optional(obj, "text", str, path, number)
        meta = optional(obj, "meta", dict, path, number) or {}
        doc = optional(obj, "doc", str, path, number)
        meta_doc = optional(meta, "doc", str, path, number, "meta.")
        doc = meta_doc if doc is None else doc
        key = next((k for k in _SPAN_KEYS if k in obj), None)
        items = obj.get(key, []) if key else []
        if not isinstance(items, list):
            raise InputError(path, f"field {key!r} must be a list", number)
        spans = tuple(_span(path, number, key or "label", i, item) for i, item in enumerate(items))
        skipped = () if key else ("line without a span field",)
        tasks.append(RawTask(f"line {number}", number, text, doc, spans, skipped))
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
    label_id = isinstance(label, int) and not isinstance(label, bool)
    if label_id:
        label = str(label)  # a label id of an older export: see the module docstring
    if not isinstance(label, str) or not label:
        raise InputError(path, f"{where}: label must be a non-empty string", line)
    return RawSpan(label, start, end, None, where, label_id=label_id)
