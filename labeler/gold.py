"""Gold set import and export orchestration (JSONL v1), independent of the UI.

Import is all-or-nothing: every line is parsed and every element anchored in its page
before anything is written, so a bad line leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.anchor import AnchorFailure, anchor
from labeler.errors import InputError
from labeler.formats.gold_jsonl import GoldLine, read_gold

if TYPE_CHECKING:
    from labeler.store import Store


@dataclass(frozen=True)
class ResolvedElement:
    """An element placed in its page: ``text == page[start:end]`` holds."""

    doc: str
    start: int
    end: int
    text: str
    grade: int
    reanchored: bool
    repeated: bool


@dataclass(frozen=True)
class ResolvedQuestion:
    line: int
    query_id: str
    query: str
    notes: str | None
    elements: tuple[ResolvedElement, ...]


@dataclass(frozen=True)
class ResolveSummary:
    questions: int
    elements: int
    reanchored: int
    repeated: int


def resolve_gold(
    path: str | Path, page_of: Callable[[str], str | None]
) -> tuple[list[ResolvedQuestion], ResolveSummary]:
    """Parse ``path`` and anchor each element in ``page_of(doc)``'s text.

    ``page_of`` returns a document's stored text, or None when no such document exists.
    Elements with offsets are checked against the page and re-anchored by text when they do
    not match; elements without offsets take the text's first occurrence. Raises
    :class:`InputError` naming the line on an unknown document or a text not on its page.
    """
    questions = list(_resolve(read_gold(path), path, page_of))
    elements = [e for q in questions for e in q.elements]
    summary = ResolveSummary(
        questions=len(questions),
        elements=len(elements),
        reanchored=sum(e.reanchored for e in elements),
        repeated=sum(e.repeated for e in elements),
    )
    return questions, summary


def _resolve(
    lines: Iterable[GoldLine], path: str | Path, page_of: Callable[[str], str | None]
) -> Iterator[ResolvedQuestion]:
    cache: dict[str, str | None] = {}
    for line in lines:
        placed = []
        # The store holds one element per question, page and span: say so by line here
        # rather than let the all-or-nothing write fail on the unique index.
        seen: dict[tuple[str, int, int], int] = {}
        for i, element in enumerate(line.elements):
            if element.doc not in cache:
                cache[element.doc] = page_of(element.doc)
            page = cache[element.doc]
            if page is None:
                raise InputError(
                    path, f"elements[{i}]: unknown document {element.doc!r}", line.line
                )
            try:
                a = anchor(page, element.text, element.start, element.end)
            except AnchorFailure as err:
                raise InputError(
                    path, f"elements[{i}] in {element.doc!r}: {err}", line.line
                ) from None
            first = seen.setdefault((element.doc, a.start, a.end), i)
            if first != i:
                raise InputError(
                    path,
                    f"elements[{i}] repeats elements[{first}]: {element.doc} "
                    f"{a.start}–{a.end} twice for question {line.query_id!r}",
                    line.line,
                )
            placed.append(
                ResolvedElement(
                    doc=element.doc,
                    start=a.start,
                    end=a.end,
                    text=element.text,
                    grade=element.grade,
                    reanchored=element.start is not None and a.how == "text",
                    repeated=a.repeated,
                )
            )
        yield ResolvedQuestion(line.line, line.query_id, line.query, line.notes, tuple(placed))


def import_gold_file(
    store: Store,
    path: str | Path,
    gold_set: str,
    *,
    annotator: str,
    description: str = "",
    replace: bool = False,
) -> tuple[list[ResolvedQuestion], ResolveSummary]:
    """Import gold JSONL ``path`` into gold set ``gold_set``, all or nothing.

    Every element is resolved against the stored pages first (:func:`resolve_gold`); only
    then is the set written, in one transaction. ``replace`` overwrites an existing set of
    that name (otherwise that is an :class:`~labeler.errors.IntegrityError`).
    """
    from labeler.store.goldsets import NewElement, NewQuestion, import_gold_set, page_texts

    with store.session() as session:
        cache: dict[str, str | None] = {}

        def page_of(doc: str) -> str | None:
            if doc not in cache:
                cache[doc] = page_texts(session, [doc]).get(doc)
            return cache[doc]

        questions, summary = resolve_gold(path, page_of)
    new = [
        NewQuestion(
            q.query_id,
            q.query,
            q.notes or "",
            tuple(
                NewElement(e.doc, e.start, e.end, e.text, e.grade, annotator) for e in q.elements
            ),
        )
        for q in questions
    ]
    with store.write() as session:
        import_gold_set(
            session, gold_set, new, actor=annotator, description=description, replace=replace
        )
    return questions, summary
