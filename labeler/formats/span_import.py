"""Span annotations from other tools (Label Studio, doccano) placed on stored pages.

The readers (:mod:`~labeler.formats.labelstudio`, :mod:`~labeler.formats.doccano`) turn a
file into :class:`RawTask` objects; :func:`resolve_tasks` finds each task's stored page and
turns every span into exact code-point offsets on it.

* **Page**: the task's ``doc`` field when it has one (it must exist), else the stored page
  whose text equals the task's text exactly.
* **Offsets**: JavaScript tools count string indices in UTF-16 code units, so on a page with
  characters outside the BMP (emoji) their offsets run ahead of Python's. A span whose
  offsets do not match its text as code points but do as UTF-16 units is converted. A span
  without text (doccano) on such a page is read as UTF-16 unless only the code-point reading
  is possible, or it alone keeps the span's edges on word boundaries.
* **Re-anchoring**: a span whose offsets match under neither reading is placed by its text
  (first occurrence), as ``labeler gold import`` does.
* **Questions**: one per label name (``query_id`` and question text are the label), so one
  label spread over several pages gives a question with several elements; repeated spans
  are kept once. Grades are 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from labeler.anchoring import count_occurrences
from labeler.errors import InputError

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
Unit = Literal["codepoint", "utf16", "text"]


@dataclass(frozen=True)
class RawSpan:
    """A labelled span as the file gives it (``text`` None when the file has none)."""

    label: str
    start: int
    end: int
    text: str | None
    where: str


@dataclass(frozen=True)
class RawTask:
    """One annotated text: ``where`` names it in messages, ``line`` is its JSONL line."""

    where: str
    line: int | None
    text: str | None
    doc: str | None
    spans: tuple[RawSpan, ...]


@dataclass(frozen=True)
class PlacedSpan:
    """A span on its stored page: ``text == page[start:end]``; ``unit`` says how."""

    doc: str
    start: int
    end: int
    text: str
    unit: Unit
    repeated: bool


@dataclass
class ImportedQuestion:
    """All spans of one label name, in file order."""

    query_id: str
    elements: list[PlacedSpan] = field(default_factory=list)


@dataclass(frozen=True)
class SpanImport:
    """The questions to create, and what the import had to work out."""

    questions: list[ImportedQuestion]
    spans: int
    utf16: int
    reanchored: int
    repeated: int
    notes: list[str]


def utf16_map(text: str) -> dict[int, int]:
    """UTF-16 code unit index → code point index, at every code point boundary."""
    mapping: dict[int, int] = {}
    unit = 0
    for i, ch in enumerate(text):
        mapping[unit] = i
        unit += 2 if ord(ch) > 0xFFFF else 1
    mapping[unit] = len(text)
    return mapping


def _word_edges(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` neither starts nor ends inside a word."""

    def inside(i: int) -> bool:
        return 0 < i < len(text) and text[i - 1].isalnum() and text[i].isalnum()

    return not inside(start) and not inside(end)


def _reading(src: str, span: RawSpan) -> tuple[int, int, Unit] | None:
    """Code-point offsets of ``span`` in ``src``, or None when its offsets fit no reading."""
    s, e = span.start, span.end
    cp_ok = 0 <= s < e <= len(src)
    if _ASTRAL.search(src) is None:
        if cp_ok and (span.text is None or src[s:e] == span.text):
            return s, e, "codepoint"
        return None
    units = utf16_map(src)
    u16 = (units[s], units[e]) if s in units and e in units and s < e else None
    if span.text is not None:
        if cp_ok and src[s:e] == span.text:
            return s, e, "codepoint"
        if u16 is not None and src[u16[0] : u16[1]] == span.text:
            return u16[0], u16[1], "utf16"
        return None
    if u16 is None or (cp_ok and _word_edges(src, s, e) and not _word_edges(src, *u16)):
        return (s, e, "codepoint") if cp_ok else None
    return u16[0], u16[1], "utf16"


def resolve_tasks(
    path: str | Path,
    tasks: Sequence[RawTask],
    page_of: Callable[[str], str | None],
    docs_with_text: Callable[[str], list[str]],
) -> SpanImport:
    """Place every span of ``tasks`` on its stored page; nothing is written here.

    ``page_of(doc)`` gives a stored page's text (None if absent); ``docs_with_text(text)``
    the ids of stored pages with exactly that text. Raises :class:`InputError` naming the
    task (and line, for JSONL) for a label that is empty or only whitespace (it would be a
    question id no export can write and no import accepts), an unknown ``doc``, a text
    matching no stored page, or a span that can be placed neither by offsets nor by text.
    """
    questions: dict[str, ImportedQuestion] = {}
    seen: set[tuple[str, str, int, int]] = set()
    counts = {"spans": 0, "utf16": 0, "reanchored": 0, "repeated": 0}
    ambiguous: list[str] = []
    for task in tasks:
        for span in task.spans:
            if not span.label.strip():
                raise InputError(
                    path,
                    f"{task.where}, {span.where}: label {span.label!r} is empty or only "
                    "whitespace (a label is the question's id)",
                    task.line,
                )
        doc, page = _page(path, task, page_of, docs_with_text, ambiguous)
        src = task.text if task.text is not None else page
        for span in task.spans:
            placed = _place(path, task, span, src, doc, page)
            counts["spans"] += 1
            counts["utf16"] += placed.unit == "utf16"
            counts["reanchored"] += placed.unit == "text"
            key = (span.label, doc, placed.start, placed.end)
            if key in seen:
                continue
            seen.add(key)
            counts["repeated"] += placed.repeated
            questions.setdefault(span.label, ImportedQuestion(span.label)).elements.append(placed)
    notes = list(ambiguous)
    if counts["utf16"]:
        notes.append(
            f"{counts['utf16']} span(s) count offsets in UTF-16 code units (JavaScript string "
            "indices) on pages with characters outside the BMP; converted to code points"
        )
    if counts["reanchored"]:
        notes.append(
            f"{counts['reanchored']} span(s) had offsets matching neither code points nor "
            "UTF-16 units; re-anchored by their text (first occurrence)"
        )
    return SpanImport(list(questions.values()), notes=notes, **counts)


def _page(
    path: str | Path,
    task: RawTask,
    page_of: Callable[[str], str | None],
    docs_with_text: Callable[[str], list[str]],
    notes: list[str],
) -> tuple[str, str]:
    if task.doc is not None:
        page = page_of(task.doc)
        if page is None:
            raise InputError(path, f"{task.where}: unknown document {task.doc!r}", task.line)
        return task.doc, page
    if task.text is None:
        raise InputError(path, f"{task.where}: neither a text nor a 'doc' field", task.line)
    docs = docs_with_text(task.text)
    if not docs:
        raise InputError(
            path,
            f"{task.where}: its text equals no stored page (ingest the page, or name it in a "
            "'doc' field)",
            task.line,
        )
    if len(docs) > 1:
        notes.append(f"{task.where}: {len(docs)} stored pages have its text; using {docs[0]!r}")
    page = page_of(docs[0])
    assert page is not None
    return docs[0], page


def _place(
    path: str | Path, task: RawTask, span: RawSpan, src: str, doc: str, page: str
) -> PlacedSpan:
    where = f"{task.where}, {span.where}"
    if span.start < 0 or span.end <= span.start:
        raise InputError(
            path, f"{where}: needs 0 <= start < end, got {span.start}-{span.end}", task.line
        )
    reading = _reading(src, span)
    if reading is not None:
        s, e, unit = reading
        text = src[s:e]
        if src is page or page[s:e] == text:
            return PlacedSpan(doc, s, e, text, unit, count_occurrences(page, text) > 1)
        unit = "text"  # the task's text is not the stored page: place the span by its text
    else:
        if span.text is None:
            raise InputError(
                path, f"{where}: offsets {span.start}-{span.end} are outside the text", task.line
            )
        text, unit = span.text, "text"
    if not text:
        raise InputError(path, f"{where}: the span's text is empty", task.line)
    first = page.find(text)
    if first == -1:
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise InputError(path, f"{where}: text {shown!r} is not on page {doc!r}", task.line)
    return PlacedSpan(doc, first, first + len(text), text, unit, count_occurrences(page, text) > 1)
