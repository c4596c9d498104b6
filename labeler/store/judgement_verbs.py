"""Verbs of not-relevant judgements: one transaction each (:mod:`labeler.store.judgements`
holds the rules), and the reads pooling needs.

Undo and redo of a judgement are the labelling verbs' ``undo_change`` / ``redo_change``
(the audit log's ``not_relevant`` entries are on the actor's stacks like elements).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import col, select

from labeler.errors import NotFoundError
from labeler.store.judgements import (
    JudgementRow,
    Ranges,
    add_not_relevant,
    judged_ranges,
    judgement_row,
    remove_not_relevant,
    visible_judgements,
)
from labeler.store.labels import get_gold_set
from labeler.store.models import Document, Query, Run, RunResult
from labeler.store.rows import RankedRow
from labeler.store.session import Store


def mark_not_relevant(
    store: Store, query_id: int, document_id: str, start: int, end: int, *, annotator: str
) -> JudgementRow:
    """Judge ``page[start:end]`` not relevant to ``query_id`` (see
    :func:`labeler.store.judgements.add_not_relevant`), in one audited transaction."""
    with store.write() as s:
        return judgement_row(
            add_not_relevant(s, query_id, document_id, start, end, annotator=annotator)
        )


def withdraw_not_relevant(store: Store, judgement_id: int, *, annotator: str) -> None:
    """Remove ``annotator``'s view of judgement ``judgement_id`` (audited, undoable)."""
    with store.write() as s:
        remove_not_relevant(s, judgement_id, actor=annotator)


def question_judgements(store: Store, query_id: int, annotator: str) -> list[JudgementRow]:
    """The judgements of ``query_id`` that ``annotator`` may see."""
    with store.session() as s:
        return [judgement_row(r) for r in visible_judgements(s, query_id, annotator)]


@dataclass(frozen=True)
class PoolInput:
    """What pooling a gold set needs from the store: its questions' external ids (creation
    order), the ranges judged on them, each run's results ranked ``<= depth`` per question,
    and the text of every page those results name."""

    questions: list[str]
    judged: Ranges
    runs: dict[str, dict[str, list[RankedRow]]]
    pages: dict[str, str]


def pool_input(
    store: Store, gold_set: str, runs: Sequence[str], depth: int, only: str | None = None
) -> PoolInput:
    """Read :class:`PoolInput` in one session (``only``: of that question alone).
    :class:`NotFoundError` names an unknown gold set or the unknown runs (all of them) with
    the runs stored."""
    with store.session() as s:
        gs = get_gold_set(s, gold_set)
        assert gs.id is not None
        stored = {r.name: r.id for r in s.exec(select(Run)).all()}
        unknown = [name for name in runs if name not in stored]
        if unknown:
            known = ", ".join(sorted(stored)) or "none"
            raise NotFoundError(
                f"no run named {', '.join(repr(n) for n in unknown)} (runs stored: {known})"
            )
        questions = list(
            s.exec(
                select(Query.external_id).where(Query.gold_set_id == gs.id).order_by(col(Query.id))
            ).all()
        )
        if only is not None:
            questions = [q for q in questions if q == only]
        wanted = set(questions)
        ranked: dict[str, dict[str, list[RankedRow]]] = {}
        docs: set[str] = set()
        docless: set[str] = set()
        for name in runs:
            per_q: dict[str, list[RankedRow]] = {}
            stmt = (
                select(RunResult)
                .where(RunResult.run_id == stored[name], RunResult.rank <= depth)
                .where(*([RunResult.query_external_id == only] if only is not None else []))
                .order_by(col(RunResult.query_external_id), col(RunResult.rank))
            )
            for r in s.exec(stmt).all():
                if r.query_external_id not in wanted:
                    continue
                per_q.setdefault(r.query_external_id, []).append(
                    RankedRow(r.rank, r.chunk_text, r.doc_id, r.chunk_start, r.chunk_end)
                )
                if r.doc_id is not None:
                    docs.add(r.doc_id)
                else:
                    docless.add(r.query_external_id)
            ranked[name] = per_q
        judged = judged_ranges(s, gs.id, [only] if only is not None else ())
        # a chunk naming no page is looked for on its question's judged pages
        docs.update(doc for qid in docless for doc in judged.get(qid, {}))
        pages = {
            d.id: d.text
            for d in s.exec(select(Document).where(col(Document.id).in_(sorted(docs)))).all()
        }
        return PoolInput(questions, judged, ranked, pages)
