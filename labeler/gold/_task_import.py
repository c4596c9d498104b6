"""``gold import --format labelstudio|doccano``: a Label Studio or doccano span export as a
gold set, all or nothing (one question per label, one element per span).

Every span is placed on its stored page first, in a read-only session (by its offsets read
in the format's unit, or as ``prefer`` says when they disagree with its text:
:func:`labeler.formats.resolve_tasks`); only then is the gold set written, in one
transaction (:func:`labeler.store.import_gold_set`), so a bad task leaves the database as
it was. A file with tasks but no span to store is refused unless ``allow_empty``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.errors import InputError

if TYPE_CHECKING:
    from labeler.formats.span_import import Prefer, RawTask, SpanImport
    from labeler.formats.span_units import OffsetUnit
    from labeler.store import Dropped, Store


@dataclass(frozen=True)
class SpanFileImport:
    """What :func:`import_span_file` did: the spans as placed (``resolved``: its questions,
    counts of spans, UTF-16 offsets converted, re-anchored and repeated spans, and notes for
    the user) and the elements a forced ``replace`` removed (``removed``)."""

    resolved: SpanImport
    removed: tuple[Dropped, ...]


def import_span_file(
    store: Store,
    path: str | Path,
    fmt: str,
    gold_set: str,
    *,
    annotator: str,
    description: str = "",
    replace: bool = False,
    force: bool = False,
    hint: str = "",
    unit: OffsetUnit | None = None,
    prefer: Prefer | None = None,
    allow_empty: bool = False,
) -> SpanFileImport:
    """Import the ``fmt`` (``labelstudio`` or ``doccano``) file ``path`` (``-``: standard
    input) as gold set ``gold_set``: each label becomes a question (id and text the label),
    each span an element of grade 1 made by ``annotator``, who is the actor of the audit
    entries.

    A task without a ``doc`` field is matched to the stored page with exactly its text (the
    pages are read once, only then). Refusals as :func:`labeler.store.import_gold_set`: an
    existing set only with ``replace``; a replace that would remove elements the file does not
    hold raises :class:`~labeler.store.goldsets.DropRefused` (``hint`` appended) unless
    ``force``. :class:`~labeler.errors.InputError` names the task (and line) of a span that
    cannot be placed. Nothing is written on any error.

    ``unit`` is what the file's offsets count (default: the format's own,
    :data:`labeler.formats.labelstudio.OFFSET_UNIT` / :data:`labeler.formats.doccano.OFFSET_UNIT`);
    ``prefer`` settles spans whose offsets and text disagree (refused without it). A file
    holding tasks (lines) of which no span is stored raises :class:`InputError` saying what
    was read and skipped, unless ``allow_empty`` (then an empty gold set is made).
    """
    from labeler.formats import read_doccano, read_labelstudio, resolve_tasks
    from labeler.formats.doccano import OFFSET_UNIT as DOCCANO_UNIT
    from labeler.formats.labelstudio import OFFSET_UNIT as LABELSTUDIO_UNIT
    from labeler.store import (
        NewElement,
        NewQuestion,
        import_gold_set,
        list_documents,
        page_text,
        page_texts,
        text_holds_nul,
    )

    read = read_labelstudio if fmt == "labelstudio" else read_doccano
    own = LABELSTUDIO_UNIT if fmt == "labelstudio" else DOCCANO_UNIT
    tasks = read(path, allow_nul=text_holds_nul(store.engine))
    if tasks and not allow_empty and not any(t.spans for t in tasks):
        raise InputError(path, _nothing_stored(fmt, tasks))
    with store.session() as session:
        by_text: dict[str, list[str]] | None = None

        def docs_with_text(text: str) -> list[str]:
            nonlocal by_text
            if by_text is None:  # read every page once, only when a task has no doc field
                ids = [d.id for d in list_documents(session)]
                by_text = {}
                for doc_id, page in sorted(page_texts(session, ids).items()):
                    by_text.setdefault(page, []).append(doc_id)
            return by_text.get(text, [])

        resolved = resolve_tasks(
            path,
            tasks,
            lambda doc: page_text(session, doc),
            docs_with_text,
            unit=own if unit is None else unit,
            prefer=prefer,
        )
    new = [
        NewQuestion(
            q.query_id,
            q.query_id,
            "",
            tuple(NewElement(e.doc, e.start, e.end, e.text, 1, annotator) for e in q.elements),
        )
        for q in resolved.questions
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
    return SpanFileImport(resolved, removed)


def _nothing_stored(fmt: str, tasks: list[RawTask]) -> str:
    """Why a file of ``tasks`` gives no element: what each task held that is not a span."""
    from collections import Counter

    what = "task" if fmt == "labelstudio" else "line"
    skipped = Counter(reason for t in tasks for reason in t.skipped)
    if fmt == "labelstudio":
        wanted = "no result of type 'labels' with a label"
    else:
        wanted = "no span under 'label', 'labels', 'entities' or 'annotations'"
    seen = "; read and skipped: " + ", ".join(f"{n} {r}" for r, n in sorted(skipped.items()))
    return (
        f"nothing to import: {len(tasks)} {what}(s), {wanted}"
        + (seen if skipped else "")
        + " (--allow-empty imports an empty gold set)"
    )
