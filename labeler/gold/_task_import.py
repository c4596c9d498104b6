"""``gold import --format labelstudio|doccano``: a Label Studio or doccano span export as a
gold set, all or nothing (one question per label, one element per span).

Every span is placed on its stored page first, in a read-only session (by its offsets, UTF-16
offsets converted, else by its text: :func:`labeler.formats.resolve_tasks`); only then is the
gold set written, in one transaction (:func:`labeler.store.import_gold_set`), so a bad task
leaves the database as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from labeler.formats.span_import import SpanImport
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
    """
    from labeler.formats import read_doccano, read_labelstudio, resolve_tasks
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
    tasks = read(path, allow_nul=text_holds_nul(store.engine))
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

        resolved = resolve_tasks(path, tasks, lambda doc: page_text(session, doc), docs_with_text)
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
