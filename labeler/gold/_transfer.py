"""Gold set import and export orchestration (JSONL v1), independent of the UI.

Import is all-or-nothing: every line is parsed and every element anchored in its page
before anything is written, so a bad line leaves the database as it was. An element's key
span moves with it when it is re-anchored by its text. A stale element
(``"status": "stale"``) is stored stale as written: its offsets and text are what was
labelled on its page as it was then, so they are not anchored (its page must exist).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from dataclasses import replace as replace_summary
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.anchoring import AnchorFailure, anchor
from labeler.errors import InputError
from labeler.formats.gold_jsonl import GoldLine, read_gold

PROVENANCE_SINGLE = "single"

if TYPE_CHECKING:
    from labeler.store import Store
    from labeler.store.goldsets import Dropped


@dataclass(frozen=True)
class ResolvedElement:
    """An element placed in its page: ``text == page[start:end]`` holds unless ``stale``."""

    doc: str
    start: int
    end: int
    text: str
    grade: int
    reanchored: bool
    repeated: bool
    stale: bool = False
    #: key span, page offsets inside ``[start, end)``
    key: tuple[int, int] | None = None
    provenance: str | None = None
    annotator: str | None = None
    assisted: bool = False


@dataclass(frozen=True)
class ResolvedQuestion:
    line: int
    query_id: str
    query: str
    notes: str | None
    elements: tuple[ResolvedElement, ...]
    adjudicated: bool | None = None
    #: not-relevant judgements, checked against their pages: (doc, start, end, annotator)
    not_relevant: tuple[tuple[str, int, int, str | None], ...] = ()


@dataclass(frozen=True)
class ResolveSummary:
    """Counts of an import; ``removed`` what a replaced set lost (``--force``): elements,
    questions, notes, done marks, assignments, adjudication marks."""

    questions: int
    elements: int
    reanchored: int
    repeated: int
    stale: int = 0
    removed: tuple[Dropped, ...] = ()
    #: annotator-layer elements of the file a plain import left out (an ``--layer all``
    #: export read as a gold set: only its final layer is imported)
    layer_left_out: int = 0
    #: questions the file marks ``"adjudicated": false`` (pending where they came from)
    not_adjudicated: int = 0


def resolve_gold(
    path: str | Path, page_of: Callable[[str], str | None], *, allow_nul: bool = True
) -> tuple[list[ResolvedQuestion], ResolveSummary]:
    """Parse ``path`` and anchor each element in ``page_of(doc)``'s text (``allow_nul``: see
    :func:`~labeler.formats.gold_jsonl.read_gold`).

    ``page_of`` returns a document's stored text, or None when no such document exists.
    Elements with offsets are checked against the page and re-anchored by text when they do
    not match; elements without offsets take the text's first occurrence; stale elements
    are kept as written. Raises
    :class:`InputError` naming the line on an unknown document or a text not on its page.
    """
    lines = list(read_gold(path, allow_nul=allow_nul))
    final = [final_layer(line) for line in lines]
    questions = list(resolve_lines(final, path, page_of))
    return questions, summarize(
        questions,
        layer_left_out=sum(
            len(a.elements) - len(b.elements) for a, b in zip(lines, final, strict=True)
        ),
        not_adjudicated=sum(line.adjudicated is False for line in lines),
    )


def final_layer(line: GoldLine) -> GoldLine:
    """``line`` without its annotator-layer elements and judgements (a gold set is its
    final layer)."""
    kept = tuple(e for e in line.elements if e.layer != "annotator")
    judged = tuple(j for j in line.not_relevant if j.layer != "annotator")
    if len(kept) == len(line.elements) and len(judged) == len(line.not_relevant):
        return line
    return replace_summary(line, elements=kept, not_relevant=judged)


def summarize(
    questions: list[ResolvedQuestion], *, layer_left_out: int = 0, not_adjudicated: int = 0
) -> ResolveSummary:
    """The counts of resolved ``questions``."""
    elements = [e for q in questions for e in q.elements]
    return ResolveSummary(
        questions=len(questions),
        elements=len(elements),
        reanchored=sum(e.reanchored for e in elements),
        repeated=sum(e.repeated for e in elements),
        stale=sum(e.stale for e in elements),
        layer_left_out=layer_left_out,
        not_adjudicated=not_adjudicated,
    )


def resolve_lines(
    lines: Iterable[GoldLine], path: str | Path, page_of: Callable[[str], str | None]
) -> Iterator[ResolvedQuestion]:
    """Anchor the elements of parsed ``lines`` (see :func:`resolve_gold`).

    Refused with :class:`InputError` naming the line, before anything is written: the same
    span twice for one question (by offsets, by text anchored onto the same span, or as two
    stale copies; the store's unique index would refuse it without naming the line), and a
    key clause that re-anchoring moved outside its element (the key moves with the
    element's start, so an element whose file offsets do not span its text can carry its
    key out: :func:`labeler.store.validation.key_problem`, the schema's ``ck_element_key``).
    """
    from labeler.store.validation import key_problem

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
            if element.stale and element.start is not None and element.end is not None:
                _refuse_repeat(seen, element.doc, element.start, element.end, i, line, path)
                placed.append(
                    ResolvedElement(
                        element.doc,
                        element.start,
                        element.end,
                        element.text,
                        element.grade,
                        reanchored=False,
                        repeated=False,
                        stale=True,
                        key=element.key,
                        provenance=element.provenance,
                        annotator=element.annotator,
                        assisted=bool(element.assisted),
                    )
                )
                continue
            try:
                a = anchor(page, element.text, element.start, element.end)
            except AnchorFailure as err:
                raise InputError(
                    path, f"elements[{i}] in {element.doc!r}: {err}", line.line
                ) from None
            _refuse_repeat(seen, element.doc, a.start, a.end, i, line, path)
            key = element.key
            if key is not None and element.start is not None:
                shift = a.start - element.start  # re-anchored by text: the key moves too
                key = (key[0] + shift, key[1] + shift)
                problem = key_problem(a.start, a.end, *key)
                if problem is not None:
                    raise InputError(
                        path,
                        f"elements[{i}] in {element.doc!r}: re-anchored by its text to "
                        f"{a.start}-{a.end}, its key moves to {key[0]}-{key[1]}, outside "
                        "the element (fix the element's offsets or its key)",
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
                    key=key,
                    provenance=element.provenance,
                    annotator=element.annotator,
                    assisted=bool(element.assisted),
                )
            )
        yield ResolvedQuestion(
            line.line,
            line.query_id,
            line.query,
            line.notes,
            tuple(placed),
            line.adjudicated,
            _resolve_judged(line, path, cache, page_of),
        )


def _resolve_judged(
    line: GoldLine,
    path: str | Path,
    cache: dict[str, str | None],
    page_of: Callable[[str], str | None],
) -> tuple[tuple[str, int, int, str | None], ...]:
    """The line's ``judged_not_relevant`` regions, each on a stored page and inside its
    text, none twice for the same annotator; :class:`InputError` naming the line."""
    out: list[tuple[str, int, int, str | None]] = []
    seen: dict[tuple[str, int, int, str | None], int] = {}
    for i, j in enumerate(line.not_relevant):
        if j.doc not in cache:
            cache[j.doc] = page_of(j.doc)
        page = cache[j.doc]
        where = f"judged_not_relevant[{i}]"
        if page is None:
            raise InputError(path, f"{where}: unknown document {j.doc!r}", line.line)
        if j.end > len(page):
            raise InputError(
                path,
                f"{where}: {j.doc} {j.start}-{j.end} ends past the page's text "
                f"({len(page)} characters)",
                line.line,
            )
        first = seen.setdefault((j.doc, j.start, j.end, j.annotator), i)
        if first != i:
            raise InputError(
                path,
                f"{where} repeats judged_not_relevant[{first}]: {j.doc} {j.start}-{j.end} "
                f"twice for question {line.query_id!r}",
                line.line,
            )
        out.append((j.doc, j.start, j.end, j.annotator))
    return tuple(out)


def _refuse_repeat(
    seen: dict[tuple[str, int, int], int],
    doc: str,
    start: int,
    end: int,
    index: int,
    line: GoldLine,
    path: str | Path,
) -> None:
    """Record element ``index`` of ``line`` at ``doc`` ``[start, end)``; :class:`InputError`
    naming the line when an earlier element of the line holds that span already."""
    first = seen.setdefault((doc, start, end), index)
    if first != index:
        raise InputError(
            path,
            f"elements[{index}] repeats elements[{first}]: {doc} "
            f"{start}–{end} twice for question {line.query_id!r}",
            line.line,
        )


def import_gold_file(
    store: Store,
    path: str | Path,
    gold_set: str,
    *,
    annotator: str,
    description: str = "",
    replace: bool = False,
    force: bool = False,
    hint: str = "",
) -> tuple[list[ResolvedQuestion], ResolveSummary]:
    """Import gold JSONL ``path`` into gold set ``gold_set``, all or nothing.

    Every element is resolved against the stored pages first (:func:`resolve_gold`); only
    then is the set written, in one transaction. ``replace`` overwrites an existing set of
    that name (otherwise that is an :class:`~labeler.errors.IntegrityError`); when that
    would remove anything the file does not hold (an element of either layer, a question,
    notes, a done mark, an assignment, an adjudication mark: see
    :func:`~labeler.store.goldsets.replace_losses`),
    :class:`~labeler.store.goldsets.DropRefused` is raised (with ``hint`` appended to its
    message) and nothing is written, unless ``force`` (then the summary's ``removed``
    lists them).
    """
    from labeler.store.goldsets import (
        NewElement,
        NewJudgement,
        NewQuestion,
        import_gold_set,
        page_texts,
    )
    from labeler.store.postgres import text_holds_nul

    with store.session() as session:
        cache: dict[str, str | None] = {}

        def page_of(doc: str) -> str | None:
            if doc not in cache:
                cache[doc] = page_texts(session, [doc]).get(doc)
            return cache[doc]

        questions, summary = resolve_gold(path, page_of, allow_nul=text_holds_nul(store.engine))
    new = [
        NewQuestion(
            q.query_id,
            q.query,
            q.notes or "",
            tuple(
                NewElement(
                    e.doc,
                    e.start,
                    e.end,
                    e.text,
                    e.grade,
                    _who(e, annotator),
                    e.stale,
                    key=e.key,
                    provenance=e.provenance or PROVENANCE_SINGLE,
                    assisted=e.assisted,
                )
                for e in q.elements
            ),
            tuple(NewJudgement(d, a, b, who or annotator) for d, a, b, who in q.not_relevant),
        )
        for q in questions
    ]
    with store.write() as session:
        removed = import_gold_set(
            session,
            gold_set,
            new,
            actor=annotator,
            description=description,
            replace=replace,
            force=force,
            hint=hint,
        )
    return questions, replace_summary(summary, removed=removed)


def _who(element: ResolvedElement, importer: str) -> str:
    """Who an imported final element is by: the importer, except for an element the file
    says was made final by someone (provenance other than ``single``, with an annotator)."""
    if element.provenance not in (None, PROVENANCE_SINGLE) and element.annotator:
        return element.annotator
    return importer
