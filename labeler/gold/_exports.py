"""Reading a gold set out: ``gold export --format jsonl`` (one layer, streamed), and the gold
set as scoring reads it (final layer, pending questions and stale elements left out), alone
(``gold export --format ragas``) or with a chunk file placed on the stored pages
(``gold export --format trec|beir``, ``chunks audit``).

Each verb takes the :class:`~labeler.store.Store` and reads in one read-only session, so what
it returns is one consistent state of the database. Notes about what was left out or how
chunks were placed go to the caller's ``note`` as they arise (a front end prints them), in
the order the reads make them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from labeler.errors import input_name
from labeler.progress import Progress, no_progress

if TYPE_CHECKING:
    from sqlmodel import Session

    from labeler.formats import PlacedChunk, Question
    from labeler.store import Store
    from labeler.store.models import NotRelevant

#: (question id, page, element start) → key span (page offsets)
ElementKeys = dict[tuple[str, str, int], tuple[int, int]]


@dataclass(frozen=True)
class LayerExport:
    """What :func:`export_gold_layer` wrote: questions, elements written stale, and questions
    pending adjudication (team work a score leaves out)."""

    questions: int
    stale: int
    pending: int


def export_gold_layer(store: Store, out: TextIO, gold_set: str, layer: str) -> LayerExport:
    """Write gold set ``gold_set``'s layer ``layer`` (``final``, ``all`` or
    ``annotator:NAME``, see :mod:`labeler.store.team_export`) to ``out`` as gold JSONL v1,
    one line per question in the order added, streamed from one read-only session.

    :class:`~labeler.errors.UsageError` for a bad ``layer``,
    :class:`~labeler.errors.NotFoundError` for an unknown gold set (before any line is
    written).
    """
    from labeler.formats import layer_line_json
    from labeler.store import export_layers, get_gold_set, parse_layer
    from labeler.store.judgements import gold_set_judgements

    kind, who = parse_layer(layer)
    questions = stale = pending = 0
    with store.session() as session:
        judged: dict[str, list[NotRelevant]] | None = None
        for q in export_layers(session, gold_set, layer):
            if judged is None:  # the gold set exists: export_layers said so
                gs_id = get_gold_set(session, gold_set).id
                assert gs_id is not None
                judged = gold_set_judgements(session, gs_id)
            mine = [j for j in judged.get(q.external_id, []) if _in_layer(j, kind, who)]
            questions += 1
            stale += sum(e.stale for e in q.elements)
            pending += q.pending
            out.write(layer_line_json(q, kind, who, mine))
            out.write("\n")
    return LayerExport(questions, stale, pending)


def _in_layer(judgement: NotRelevant, kind: str, who: str | None) -> bool:
    """Whether a judgement belongs to the exported layer: ``final``, ``all``, or one
    annotator's own (``annotator:NAME``)."""
    if kind == "all":
        return True
    if kind == "annotator":
        return judgement.layer == "annotator" and judgement.annotator == who
    return judgement.layer == "final"


@dataclass(frozen=True)
class ScoredGold:
    """A gold set as scoring reads it: its questions with their non-stale final elements
    (``questions``, in the order added; a team gold set's pending questions left out), the
    stale elements left out (``stale``); with a chunk file, its chunks placed on the stored
    pages (``placed``, in file order; a chunk whose text is not on its page has ``chunk``
    None); with ``keys``, each element's key span (:data:`ElementKeys`); with a run, its
    chunk texts by question id in rank order (``contexts``)."""

    questions: list[Question]
    stale: int
    placed: list[PlacedChunk] | None = None
    keys: ElementKeys | None = None
    contexts: dict[str, list[str]] | None = None


def read_scored_gold(
    store: Store,
    gold_set: str,
    *,
    note: Callable[[str], None],
    chunk_file: str | None = None,
    keys: bool = False,
    run: str | None = None,
    progress: Progress = no_progress,
) -> ScoredGold:
    """Gold set ``gold_set`` as scoring reads it; with ``keys`` its elements' key spans too;
    with ``chunk_file`` (a chunk JSONL path, ``-`` for standard input) that file's chunks
    placed on the stored pages: by their offsets when the text there is theirs, else by their
    text; with ``run``, that stored run's chunk texts per question in rank order (for
    ``gold export --format ragas --run``). All in one read-only session.

    ``note`` receives, in this order: how many pending questions were left out (with the
    first ten ids), how many chunks were placed by text although they had offsets, and how
    many chunks are not on their page (with the first ten line numbers); nothing when there
    are none.

    :class:`~labeler.errors.NotFoundError` for an unknown gold set or run (naming the runs
    there are), :class:`~labeler.errors.InputError` naming the line for a bad chunk file.
    ``progress(bytes_read, file_size, "")`` as the chunk file is read and placed (size 0:
    standard input).
    """
    with store.session() as session:
        contexts = _run_contexts(session, run) if run is not None else None
        questions, stale = _scored_questions(session, gold_set, note)
        element_keys = _element_keys(session, gold_set) if keys else None
        placed = (
            _placed_chunks(session, chunk_file, note, progress) if chunk_file is not None else None
        )
    return ScoredGold(questions, stale, placed, element_keys, contexts)


def _run_contexts(session: Session, name: str) -> dict[str, list[str]]:
    """Stored run ``name``'s chunk texts by question id, in rank order."""
    from labeler.store.run_table import get_run, run_rows

    return {
        qid: [row[0] for row in ranked]
        for qid, ranked in run_rows(session, get_run(session, name)).items()
    }


def _scored_questions(
    session: Session, name: str, note: Callable[[str], None]
) -> tuple[list[Question], int]:
    from labeler.formats import Question, Span
    from labeler.store import export_gold_set

    questions: list[Question] = []
    stale = 0
    pending: list[str] = []
    for q in export_gold_set(session, name):
        if q.pending:
            pending.append(q.external_id)
            continue
        stale += sum(e.stale for e in q.elements)
        spans = tuple(
            Span(e.doc, e.start, e.end, e.text, e.grade) for e in q.elements if not e.stale
        )
        questions.append(Question(q.external_id, q.text, spans))
    if pending:
        shown = ", ".join(pending[:10]) + (", ..." if len(pending) > 10 else "")
        note(
            f"{len(pending)} question(s) pending adjudication left out, as scoring "
            f"leaves them out ({shown})"
        )
    return questions, stale


def _element_keys(session: Session, name: str) -> ElementKeys:
    from labeler.store import export_gold_set

    return {
        (q.external_id, e.doc, e.start): (e.key_start, e.key_end)
        for q in export_gold_set(session, name)
        for e in q.elements
        if not e.stale and e.key_start is not None and e.key_end is not None
    }


def _placed_chunks(
    session: Session, path: str, note: Callable[[str], None], progress: Progress
) -> list[PlacedChunk]:
    from labeler.formats import place_chunks, read_chunks
    from labeler.formats.jsonlines import input_size
    from labeler.store import page_text, text_holds_nul

    size = input_size(path)
    chunk_lines = read_chunks(
        path,
        allow_nul=text_holds_nul(session.get_bind().engine),
        on_progress=lambda done: progress(done, size, ""),
    )
    placed = place_chunks(path, chunk_lines, lambda doc: page_text(session, doc))
    progress(size, size, "")
    shown = input_name(path)
    missing = [p for p in placed if p.chunk is None]
    moved = sum(p.how == "text" and p.line.start is not None for p in placed)
    if moved:
        note(f"{shown}: {moved} chunk(s) had offsets that do not match their page; placed by text")
    if missing:
        lines = ", ".join(str(p.line.line) for p in missing[:10])
        note(
            f"{shown}: {len(missing)} chunk(s) whose text is not on their page "
            f"(lines {lines}{', ...' if len(missing) > 10 else ''})"
        )
    return placed
