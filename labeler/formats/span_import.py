"""Span annotations from other tools (Label Studio, doccano) placed on stored pages.

The readers (:mod:`~labeler.formats.labelstudio`, :mod:`~labeler.formats.doccano`) turn a
file into :class:`RawTask` objects; :func:`resolve_tasks` finds each task's stored page and
turns every span into exact code-point offsets on it. Nothing is guessed:

* **Page**: the task's ``doc`` field when it has one (it must exist), else the stored page
  whose text equals the task's text exactly.
* **Offsets** are read in the file's unit (``unit``: both tools count UTF-16 code units,
  JavaScript string indices; see :mod:`~labeler.formats.span_units`), whatever they cut. An
  offset inside a surrogate pair, or a span edge separating a combining mark from its base,
  is refused.
* **Offsets and text**: a span whose offsets cut something other than its ``text`` is
  refused, naming both readings, unless ``prefer`` says which to keep: ``offsets`` stores
  what they cut, ``text`` places the text at its first occurrence on the page. A task whose
  own text is not its stored page's text is placed by text only under ``prefer="text"``
  (its offsets index a text that is not stored).
* **Questions**: one per label name (``query_id`` and question text are the label), so one
  label spread over several pages gives a question with several elements; repeated spans
  are kept once. Grades are 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from labeler.anchoring import count_occurrences
from labeler.errors import InputError
from labeler.formats.span_units import (
    UNIT_NAMES,
    OffsetUnit,
    cut_problem,
    to_codepoints,
    utf16_map,
)

__all__ = ["utf16_map"]

Prefer = Literal["offsets", "text"]
How = Literal["offsets", "kept", "text"]


@dataclass(frozen=True)
class RawSpan:
    """A labelled span as the file gives it (``text`` None when the file has none;
    ``label_id`` when its label was a numeric id, read as its decimal text)."""

    label: str
    start: int
    end: int
    text: str | None
    where: str
    label_id: bool = False


@dataclass(frozen=True)
class RawTask:
    """One annotated text: ``where`` names it in messages, ``line`` is its JSONL line;
    ``skipped`` says what of it the reader left out by design (a result type other than
    spans, a cancelled annotation), for the message of an import that stores nothing."""

    where: str
    line: int | None
    text: str | None
    doc: str | None
    spans: tuple[RawSpan, ...]
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlacedSpan:
    """A span on its stored page: ``text == page[start:end]``. ``how``: ``offsets`` (its
    offsets, agreeing with its text if it has one), ``kept`` (its offsets, its differing
    text ignored: ``prefer="offsets"``), ``text`` (placed by its text: ``prefer="text"``);
    ``converted`` when UTF-16 offsets became different code-point ones."""

    doc: str
    start: int
    end: int
    text: str
    how: How
    converted: bool
    repeated: bool


@dataclass
class ImportedQuestion:
    """All spans of one label name, in file order."""

    query_id: str
    elements: list[PlacedSpan] = field(default_factory=list)


@dataclass(frozen=True)
class SpanImport:
    """The questions to create, and what the import did: spans read, UTF-16 offsets
    converted, spans placed by their text (``reanchored``) or kept at their offsets against
    their text (``kept``) as ``prefer`` asked, repeated on their page, notes for the user."""

    questions: list[ImportedQuestion]
    spans: int
    utf16: int
    reanchored: int
    kept: int
    repeated: int
    notes: list[str]


def resolve_tasks(
    path: str | Path,
    tasks: Sequence[RawTask],
    page_of: Callable[[str], str | None],
    docs_with_text: Callable[[str], list[str]],
    *,
    unit: OffsetUnit = "utf16",
    prefer: Prefer | None = None,
) -> SpanImport:
    """Place every span of ``tasks`` on its stored page; nothing is written here.

    ``page_of(doc)`` gives a stored page's text (None if absent); ``docs_with_text(text)``
    the ids of stored pages with exactly that text; ``unit`` is what the file's offsets
    count; ``prefer`` settles a span whose offsets and text disagree (see the module
    docstring). Raises :class:`InputError` naming the task (and line, for JSONL) for a
    label that is empty or only whitespace (it would be a question id no export can write
    and no import accepts), an unknown ``doc``, a text matching no stored page, offsets
    outside the text or inside a character, a span cutting a combining sequence, offsets and
    text that disagree (both readings shown) without ``prefer``, and a text not on its page.
    """
    questions: dict[str, ImportedQuestion] = {}
    seen: set[tuple[str, str, int, int]] = set()
    counts = {"spans": 0, "utf16": 0, "reanchored": 0, "kept": 0, "repeated": 0}
    ids = sorted({s.label for t in tasks for s in t.spans if s.label_id}, key=int)
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
        if not task.spans:
            continue
        doc, page = _page(path, task, page_of, docs_with_text, ambiguous)
        reader = _Reader(path, task, doc, page, unit, prefer)
        for span in task.spans:
            placed = reader.place(span)
            counts["spans"] += 1
            counts["utf16"] += placed.converted
            counts["reanchored"] += placed.how == "text"
            counts["kept"] += placed.how == "kept"
            key = (span.label, doc, placed.start, placed.end)
            if key in seen:
                continue
            seen.add(key)
            counts["repeated"] += placed.repeated
            questions.setdefault(span.label, ImportedQuestion(span.label)).elements.append(placed)
    return SpanImport(list(questions.values()), notes=_notes(ambiguous, counts, ids), **counts)


def _notes(ambiguous: list[str], counts: dict[str, int], ids: list[str]) -> list[str]:
    notes = list(ambiguous)
    if ids:
        shown = ", ".join(ids[:10]) + (", ..." if len(ids) > 10 else "")
        notes.append(
            f"labels given as numeric ids ({shown}): each id is its question's id and text "
            "(the file does not name the labels; replace the ids by names in the file to get "
            "named questions)"
        )
    if counts["utf16"]:
        notes.append(
            f"{counts['utf16']} span(s) on pages with characters outside the BMP: offsets read "
            "as UTF-16 code units (the format's unit) and converted to code points"
        )
    if counts["reanchored"]:
        notes.append(
            f"{counts['reanchored']} span(s) placed by their text at its first occurrence on "
            "the page (--prefer text), not where their offsets point"
        )
    if counts["kept"]:
        notes.append(
            f"{counts['kept']} span(s) stored at their offsets, their differing text ignored "
            "(--prefer offsets)"
        )
    return notes


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


def _shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


class _Reader:
    """Places the spans of one task on its stored page (``src``: the text its offsets
    index, the task's own text when it has one, else the page)."""

    def __init__(
        self,
        path: str | Path,
        task: RawTask,
        doc: str,
        page: str,
        unit: OffsetUnit,
        prefer: Prefer | None,
    ) -> None:
        self.path, self.task, self.doc, self.page = path, task, doc, page
        self.unit, self.prefer = unit, prefer
        self.src = task.text if task.text is not None else page
        self.units = utf16_map(self.src) if unit == "utf16" else None

    def refuse(self, span: RawSpan, message: str) -> InputError:
        return InputError(self.path, f"{self.task.where}, {span.where}: {message}", self.task.line)

    def place(self, span: RawSpan) -> PlacedSpan:
        if span.start < 0 or span.end <= span.start:
            raise self.refuse(span, f"needs 0 <= start < end, got {span.start}-{span.end}")
        read = to_codepoints(self.src, span.start, span.end, self.unit, self.units)
        if isinstance(read, str):
            raise self.refuse(span, f"offsets {span.start}-{span.end} ({self._unit()}): {read}")
        s, e = read
        converted = (s, e) != (span.start, span.end)
        cut = self.src[s:e]
        if span.text is not None and span.text != cut and self.prefer is None:
            raise self.refuse(span, self._disagree(span, cut))
        if self.src != self.page:
            if self.prefer != "text":
                raise self.refuse(
                    span,
                    f"the task's text is not the text of stored page {self.doc!r}, so its "
                    "offsets do not index the page; --prefer text places each span by its "
                    "text (first occurrence)",
                )
            return self._by_text(span, cut if span.text is None else span.text)
        if span.text is None or span.text == cut:
            return self._at(span, s, e, "offsets", converted)
        if self.prefer == "offsets":
            return self._at(span, s, e, "kept", converted)
        return self._by_text(span, span.text)

    def _unit(self) -> str:
        return UNIT_NAMES[self.unit]

    def _disagree(self, span: RawSpan, cut: str) -> str:
        assert span.text is not None
        message = (
            f"offsets {span.start}-{span.end} ({self._unit()}) cut {_shown(cut)} but its "
            f"text says {_shown(span.text)}"
        )
        other: OffsetUnit = "codepoint" if self.unit == "utf16" else "utf16"
        again = to_codepoints(self.src, span.start, span.end, other)
        if not isinstance(again, str) and self.src[again[0] : again[1]] == span.text:
            message += (
                f" (read as {UNIT_NAMES[other]} they cut exactly its text: if the file counts "
                f"{UNIT_NAMES[other]}, give --offset-unit {other})"
            )
        return (
            message + "; give --prefer offsets to store what the offsets cut, or --prefer "
            "text to place the text at its first occurrence"
        )

    def _at(self, span: RawSpan, s: int, e: int, how: How, converted: bool) -> PlacedSpan:
        problem = cut_problem(self.page, s, e)
        if problem is not None:
            raise self.refuse(
                span, f"span {s}-{e} (code points) {_shown(self.page[s:e])}: {problem}"
            )
        text = self.page[s:e]
        repeated = count_occurrences(self.page, text) > 1
        return PlacedSpan(self.doc, s, e, text, how, converted, repeated)

    def _by_text(self, span: RawSpan, text: str) -> PlacedSpan:
        if not text:
            raise self.refuse(span, "the span's text is empty")
        first = self.page.find(text)
        if first == -1:
            raise self.refuse(span, f"text {_shown(text)} is not on page {self.doc!r}")
        return self._at(span, first, first + len(text), "text", converted=False)
