"""Gold set JSONL, version 1 (docs/formats.md, Gold set JSONL v1): one question per line.

```json
{"query_id": "q1", "query": "Who approves a policy exception?",
 "elements": [{"doc": "policy/exceptions.html", "start": 120, "end": 188,
               "text": "Exceptions are approved by the data owner.", "grade": 1}],
 "notes": "optional"}
```

An element may carry ``"status": "stale"``: its page changed under it, and ``start``/``end``
and ``text`` are what was labelled on the page as it was then (the text need not be on the
page now). Export writes it only for stale elements; ``"ok"`` is the default.

An element may carry a key span, ``"key": {"start": s, "end": e}``: page offsets (code
points, like the element's) of the clause a chunk must hold whole to count as Partial
(see :mod:`scoring.classify`), inside the element: ``start <= s < e <= end``. It needs the
element's own ``start``/``end``; when the importer re-anchors the element by its text, the
key moves with it. Export writes it only for elements that have one.
Team gold sets (see :mod:`labeler.store.team`) add optional fields, all read back on import:

* on a question: ``"adjudicated"`` (bool; ``false`` on a question scoring leaves out because
  its final layer is not settled), ``"adjudicated_by"``, ``"done_by"`` (the annotators who
  marked it done) and ``"done"`` (bool: in a one-annotator export, whether they did);
* on an element: ``"provenance"`` (``single``, ``unanimous``, ``majority``, ``adjudicated``, ``snapped``,
  or ``own`` for an annotator's label; export writes it when it is not ``single``),
  ``"annotator"``, ``"layer"`` (``final`` or ``annotator``), ``"assisted"`` (bool) and
  ``"accepted"`` (bool: an annotator's span that is in the final layer too).

A question may carry ``"judged_not_relevant"``: page regions someone read for it and found
to hold no answer (pooling, ``judged@k``), each ``{"doc": ..., "start": s, "end": e,
"annotator": ...}`` with ``0 <= s < e`` code-point offsets (the page's length is the
importer's check) and, in an ``--layer all`` export, ``"layer"``. Export writes the field
only on a question that has such judgements.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from labeler.errors import InputError
from labeler.formats.jsonlines import optional, read_objects, require

OFFSET_UNIT = "codepoint"
STATUSES = ("ok", "stale")
#: element layers and provenances of team gold sets (the store's LAYERS and PROVENANCES)
LAYERS = ("final", "annotator")
FINAL_PROVENANCES = ("single", "unanimous", "majority", "adjudicated", "snapped")
OWN = "own"
#: the largest grade: PostgreSQL's INTEGER column is 32-bit (SQLite's 64), the smaller bounds
MAX_GRADE = 2**31 - 1


@dataclass(frozen=True)
class GoldElementLine:
    """One expected element as written in the file (offsets optional on import, required
    for a stale one)."""

    doc: str
    text: str
    start: int | None
    end: int | None
    grade: int
    stale: bool = False
    #: key span, page offsets inside ``[start, end)`` as written in the file
    key: tuple[int, int] | None = None
    layer: str | None = None
    annotator: str | None = None
    provenance: str | None = None
    assisted: bool | None = None


@dataclass(frozen=True)
class NotRelevantLine:
    """One ``judged_not_relevant`` entry as written in the file."""

    doc: str
    start: int
    end: int
    annotator: str | None = None
    layer: str | None = None


@dataclass(frozen=True)
class GoldLine:
    """One question of a gold set file, with the line it came from."""

    line: int
    query_id: str
    query: str
    elements: tuple[GoldElementLine, ...]
    notes: str | None
    adjudicated: bool | None = None
    done_by: tuple[str, ...] | None = None
    done: bool | None = None
    not_relevant: tuple[NotRelevantLine, ...] = ()


def read_gold(
    path: str | Path,
    *,
    allow_nul: bool = True,
    part: tuple[int, int, int | None] | None = None,
    seen: set[str] | None = None,
) -> Iterator[GoldLine]:
    """Parse a gold JSONL file line by line (``-``: standard input; ``part``: only some of
    its lines, as :func:`~labeler.formats.jsonlines.read_objects` says; ``seen``: the query
    ids of the lines read before, to which those read here are added).

    Checks shape only (fields, types: ``query_id`` a string, never a number; 1 ≤ grade ≤
    :data:`MAX_GRADE`, offsets paired and ordered, unique ``query_id``, ``status`` ``ok`` or
    ``stale``, offsets present on a stale element, a ``key`` object inside its element's
    offsets, storable text: see :func:`~labeler.formats.jsonlines.read_objects` for
    ``allow_nul``); whether documents exist and texts are on their pages is the importer's
    job. Raises :class:`InputError` with the line number on the first problem.
    """
    seen = set() if seen is None else seen
    for number, obj in read_objects(path, allow_nul=allow_nul, part=part):
        raw_id = obj.get("query_id")
        if isinstance(raw_id, int) and not isinstance(raw_id, bool):
            # a number is not stored as text behind the file's back: say what to write
            raise InputError(
                path,
                f"field 'query_id' must be a string, got the integer {raw_id} (write "
                f'"query_id": "{raw_id}")',
                number,
            )
        qid = require(obj, "query_id", str, path, number)
        if not qid.strip():
            raise InputError(path, "field 'query_id' is empty", number)
        if qid in seen:
            raise InputError(path, f"query_id {qid!r} appears twice", number)
        seen.add(qid)
        query = optional(obj, "query", str, path, number) or ""
        unit = obj.get("offset_unit", OFFSET_UNIT)
        if unit != OFFSET_UNIT:
            raise InputError(
                path, f"offset_unit {unit!r} is not supported; version 1 counts code points", number
            )
        notes = optional(obj, "notes", str, path, number)
        raw_elements = require(obj, "elements", list, path, number)
        elements = tuple(_element(item, i, path, number) for i, item in enumerate(raw_elements))
        adjudicated = optional(obj, "adjudicated", bool, path, number)
        optional(obj, "adjudicated_by", str, path, number)
        done = optional(obj, "done", bool, path, number)
        done_by = optional(obj, "done_by", list, path, number)
        if done_by is not None:
            if not all(isinstance(name, str) and name.strip() for name in done_by):
                raise InputError(path, "field 'done_by' must be a list of annotator names", number)
            done_by = tuple(done_by)
        raw_judged = optional(obj, "judged_not_relevant", list, path, number) or []
        judged = tuple(_judged(item, i, path, number) for i, item in enumerate(raw_judged))
        yield GoldLine(
            number, qid, query, elements, notes, adjudicated, done_by, done, not_relevant=judged
        )


def _judged(item: Any, index: int, path: str | Path, line: int) -> NotRelevantLine:
    """One ``judged_not_relevant`` entry, its types and offsets checked; the same region
    twice for the same annotator and layer is refused (the store keeps one)."""
    where = f"judged_not_relevant[{index}]."
    if not isinstance(item, dict):
        raise InputError(path, f"judged_not_relevant[{index}] must be an object", line)
    unknown = sorted(set(item) - {"doc", "start", "end", "annotator", "layer"})
    if unknown:
        raise InputError(
            path, f"{where[:-1]} has unknown field(s) {', '.join(map(repr, unknown))}", line
        )
    doc = require(item, "doc", str, path, line, where)
    start = require(item, "start", int, path, line, where)
    end = require(item, "end", int, path, line, where)
    if not 0 <= start < end:
        raise InputError(path, f"{where[:-1]} needs 0 <= start < end, got {start}-{end}", line)
    annotator = optional(item, "annotator", str, path, line, where)
    if annotator is not None and not annotator.strip():
        raise InputError(path, f"field {where}'annotator' is empty", line)
    layer = optional(item, "layer", str, path, line, where)
    if layer is not None and layer not in LAYERS:
        raise InputError(
            path, f"field {where}'layer' must be 'final' or 'annotator', got {layer!r}", line
        )
    if layer == "annotator" and annotator is None:
        raise InputError(
            path, f"{where[:-1]} is in the annotator layer but names no 'annotator'", line
        )
    return NotRelevantLine(doc, start, end, annotator, layer)


#: the element fields the shortcut reads (an element with any other field takes the full way)
_PLAIN_ELEMENT = frozenset({"doc", "text", "start", "end", "grade"})


def _plain_element(item: Any) -> GoldElementLine | None:
    """The element ``item`` holds when it is of the common plain shape (a non-empty text
    and a doc, both strings; both offsets, ``0 <= start < end``, or neither; a grade in
    range or none): what :func:`_full_element` gives it, at a fraction of its cost. None
    for any other shape, or a wrong one: the full reading then names what is wrong."""
    if type(item) is not dict or not item.keys() <= _PLAIN_ELEMENT:
        return None
    doc = item.get("doc")
    text = item.get("text")
    if type(doc) is not str or type(text) is not str or not text:
        return None
    start = item.get("start")
    end = item.get("end")
    if not (
        (start is None and end is None)
        or (type(start) is int and type(end) is int and 0 <= start < end)
    ):
        return None
    grade = item.get("grade", 1)
    if type(grade) is not int or not 1 <= grade <= MAX_GRADE:
        return None
    return GoldElementLine(doc, text, start, end, grade)


def _element(item: Any, index: int, path: str | Path, line: int) -> GoldElementLine:
    plain = _plain_element(item)
    return plain if plain is not None else _full_element(item, index, path, line)


def _full_element(item: Any, index: int, path: str | Path, line: int) -> GoldElementLine:
    """Element ``index`` of line ``line``, every field read and checked."""
    where = f"elements[{index}]."
    if not isinstance(item, dict):
        raise InputError(path, f"elements[{index}] must be an object", line)
    doc = require(item, "doc", str, path, line, where)
    text = require(item, "text", str, path, line, where)
    if not text:
        raise InputError(path, f"field {where}'text' is empty", line)
    start = optional(item, "start", int, path, line, where)
    end = optional(item, "end", int, path, line, where)
    if (start is None) != (end is None):
        raise InputError(path, f"{where[:-1]} has only one of 'start' and 'end'", line)
    if start is not None and end is not None and not 0 <= start < end:
        raise InputError(path, f"{where[:-1]} needs 0 <= start < end, got {start}-{end}", line)
    grade = optional(item, "grade", int, path, line, where)
    grade = 1 if grade is None else grade
    if not 1 <= grade <= MAX_GRADE:
        shown = grade if abs(grade) < 10**12 else f"an integer of {len(str(abs(grade)))} digits"
        bound = ">= 1" if grade < 1 else f"<= {MAX_GRADE:,} (a database integer)"
        raise InputError(path, f"field {where}'grade' must be {bound}, got {shown}", line)
    unit = item.get("offset_unit", OFFSET_UNIT)
    if unit != OFFSET_UNIT:
        raise InputError(
            path, f"{where[:-1]} has offset_unit {unit!r}; version 1 counts code points", line
        )
    status = optional(item, "status", str, path, line, where)
    status = "ok" if status is None else status
    if status not in STATUSES:
        raise InputError(
            path, f"field {where}'status' must be 'ok' or 'stale', got {status!r}", line
        )
    stale = status == "stale"
    if stale and start is None:
        raise InputError(
            path,
            f"{where[:-1]} is stale but has no 'start'/'end' (the offsets it was labelled at)",
            line,
        )
    key = _key(item, where, start, end, path, line)
    layer = optional(item, "layer", str, path, line, where)
    annotator = optional(item, "annotator", str, path, line, where)
    provenance = optional(item, "provenance", str, path, line, where)
    assisted = optional(item, "assisted", bool, path, line, where)
    optional(item, "accepted", bool, path, line, where)
    _check_team_fields(layer, annotator, provenance, path, line, where)
    return GoldElementLine(
        doc,
        text,
        start,
        end,
        grade,
        stale,
        key=key,
        layer=layer,
        annotator=annotator,
        provenance=provenance,
        assisted=assisted,
    )


def _check_team_fields(
    layer: str | None,
    annotator: str | None,
    provenance: str | None,
    path: str | Path,
    line: int,
    where: str,
) -> None:
    """The team fields of one element agree: a known layer; an annotator-layer element names
    its annotator and has provenance ``own`` (or none); a final one a final provenance."""
    if layer is not None and layer not in LAYERS:
        raise InputError(
            path, f"field {where}'layer' must be 'final' or 'annotator', got {layer!r}", line
        )
    if annotator is not None and not annotator.strip():
        raise InputError(path, f"field {where}'annotator' is empty", line)
    if layer == "annotator":
        if annotator is None:
            raise InputError(
                path, f"{where[:-1]} is in the annotator layer but names no 'annotator'", line
            )
        if provenance not in (None, OWN):
            raise InputError(
                path, f"field {where}'provenance' of an annotator-layer element must be 'own'", line
            )
    elif provenance is not None and provenance not in FINAL_PROVENANCES:
        allowed = ", ".join(FINAL_PROVENANCES)
        raise InputError(
            path, f"field {where}'provenance' must be one of {allowed}, got {provenance!r}", line
        )


def _key(
    item: dict[str, Any],
    where: str,
    start: int | None,
    end: int | None,
    path: str | Path,
    line: int,
) -> tuple[int, int] | None:
    """The element's ``key`` span (None when absent or null), checked to be an object of
    two integer page offsets with ``start <= s < e <= end``."""
    raw = item.get("key")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InputError(
            path, f'field {where}\'key\' must be an object {{"start": s, "end": e}}', line
        )
    s = require(raw, "start", int, path, line, f"{where}key.")
    e = require(raw, "end", int, path, line, f"{where}key.")
    if start is None or end is None:
        raise InputError(
            path,
            f"{where[:-1]} has a 'key' but no 'start'/'end' (the key's offsets are page "
            "offsets inside the element)",
            line,
        )
    if not start <= s < e <= end:
        raise InputError(
            path,
            f"{where[:-1]}: key {s}-{e} is not inside the element {start}-{end} "
            "(needs start <= key.start < key.end <= end)",
            line,
        )
    return s, e


class ExportElement(Protocol):
    """An element as the store gives it to the writers (``labeler.store``'s stored rows):
    ``stale`` when its page changed under it; ``key_start``/``key_end`` its key span in page
    offsets (both None without one)."""

    @property
    def doc(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def grade(self) -> int: ...
    @property
    def stale(self) -> bool: ...
    @property
    def key_start(self) -> int | None: ...
    @property
    def key_end(self) -> int | None: ...


class LayerElement(ExportElement, Protocol):
    """An element of ``gold export --layer``: its layer, annotator, provenance, whether it
    was assisted, and (annotator layer) whether it was ``accepted`` into the final layer."""

    @property
    def layer(self) -> str: ...
    @property
    def annotator(self) -> str: ...
    @property
    def provenance(self) -> str: ...
    @property
    def assisted(self) -> bool: ...
    @property
    def accepted(self) -> bool | None: ...


class LayerQuestion(Protocol):
    """A question of ``gold export --layer`` with its elements and team state."""

    @property
    def external_id(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def notes(self) -> str: ...
    @property
    def elements(self) -> Sequence[LayerElement]: ...
    @property
    def pending(self) -> bool: ...
    @property
    def adjudicated(self) -> bool: ...
    @property
    def adjudicated_by(self) -> str | None: ...
    @property
    def done_by(self) -> Sequence[str]: ...


def gold_line_json(
    query_id: str,
    query: str,
    elements: Iterable[tuple[str, int, int, str, int] | ExportElement],
    notes: str | None,
) -> str:
    """One export line: every field, offsets in code points, ``"offset_unit": "codepoint"``.

    ``elements`` are ``(doc, start, end, text, grade)`` or stored elements, in the order to
    write them; a stale stored element gets ``"status": "stale"`` (ok ones no status), one
    with a key span ``"key": {"start": s, "end": e}`` (page offsets).
    """
    written: list[dict[str, Any]] = []
    for element in elements:
        if isinstance(element, tuple) and len(element) == 5:  # a plain (doc, start, end, ...)
            doc, start, end, text, grade = element
            item: dict[str, Any] = {"doc": doc, "start": start, "end": end, "text": text}
            item["grade"] = grade
        else:
            stored = element
            item = {"doc": stored.doc, "start": stored.start, "end": stored.end}
            item["text"] = stored.text
            item["grade"] = stored.grade
            if stored.stale:
                item["status"] = "stale"
            if stored.key_start is not None:
                item["key"] = {"start": stored.key_start, "end": stored.key_end}
        written.append(item)
    obj: dict[str, Any] = {
        "query_id": query_id,
        "query": query,
        "elements": written,
        "notes": notes,
        "offset_unit": OFFSET_UNIT,
    }
    return json.dumps(obj, ensure_ascii=False)


class ExportJudgement(Protocol):
    """A not-relevant judgement as export writes it."""

    @property
    def document_id(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def annotator(self) -> str: ...
    @property
    def layer(self) -> str: ...


def layer_line_json(
    question: LayerQuestion,
    kind: str,
    annotator: str | None = None,
    judged: Sequence[ExportJudgement] = (),
) -> str:
    """One export line of ``gold export --layer``: ``kind`` ``final``, ``all`` or
    ``annotator`` (see :mod:`labeler.store.team_export` and the module docstring).

    ``final``: the v1 line, plus ``"provenance"`` (and the ``"annotator"`` who made the
    element final) on an element that is not ``single``, and ``"adjudicated": false`` on a
    pending question; a gold set without team work exports exactly as before. ``all``: every
    element with its ``layer``, ``annotator``, ``assisted`` and ``provenance`` (annotator
    layer: ``accepted``), the question with ``adjudicated``, ``adjudicated_by`` and
    ``done_by``. ``annotator``: ``annotator``'s elements with ``annotator`` and
    ``assisted``, the question with ``done`` (whether ``annotator`` marked it done).
    ``judged``: the question's not-relevant judgements of the exported layer, written as
    ``"judged_not_relevant"`` (with each one's ``layer`` for ``all``) when there are any.
    """
    written: list[dict[str, Any]] = []
    for e in question.elements:
        item: dict[str, Any] = {"doc": e.doc, "start": e.start, "end": e.end, "text": e.text}
        item["grade"] = e.grade
        if e.stale:
            item["status"] = "stale"
        if e.key_start is not None:
            item["key"] = {"start": e.key_start, "end": e.key_end}
        if kind == "all":
            item["layer"] = e.layer
            item["annotator"] = e.annotator
            item["assisted"] = e.assisted
            item["provenance"] = e.provenance
            if e.accepted is not None:
                item["accepted"] = e.accepted
        elif kind == "annotator":
            item["annotator"] = e.annotator
            item["assisted"] = e.assisted
        elif e.provenance != "single":
            item["provenance"] = e.provenance
            item["annotator"] = e.annotator
        written.append(item)
    obj: dict[str, Any] = {
        "query_id": question.external_id,
        "query": question.text,
        "elements": written,
        "notes": question.notes,
        "offset_unit": OFFSET_UNIT,
    }
    if kind == "all":
        obj["adjudicated"] = question.adjudicated
        obj["adjudicated_by"] = question.adjudicated_by
        obj["done_by"] = list(question.done_by)
    elif kind == "annotator":
        obj["done"] = annotator in question.done_by
    elif question.pending:
        obj["adjudicated"] = False
    if judged:
        obj["judged_not_relevant"] = [
            {"doc": j.document_id, "start": j.start, "end": j.end, "annotator": j.annotator}
            | ({"layer": j.layer} if kind == "all" else {})
            for j in judged
        ]
    return json.dumps(obj, ensure_ascii=False)


def write_lines(out: IO[str], lines: Iterable[str]) -> int:
    """Write JSONL lines, each followed by ``\\n``; returns how many were written."""
    count = 0
    for line in lines:
        out.write(line)
        out.write("\n")
        count += 1
    return count
