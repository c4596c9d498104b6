"""What a layer import's write (:mod:`labeler.store.layer_write`) does to each staged
question, read before the question is written: its stored id, the annotator's elements and
done mark on it that the write replaces (with their audit snapshots), and whether the
adjudicated lock refuses it; a staged element on a page no longer stored is refused here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from labeler.errors import IntegrityError
from labeler.store.goldrows import NewQuestion
from labeler.store.goldsets import table_of
from labeler.store.layer_snapshots import Old, chunks, marks, old_rows
from labeler.store.models import Document, Element, Query, QuestionDone
from labeler.store.run_table import driver_cursor


class LineRefused(IntegrityError):
    """A staged question cannot be written; ``line`` is its line in the file."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Plan:
    """What writing one question does: its stored id (None: it is created), the annotator's
    elements and done mark on it that it removes, and whether it is marked done."""

    question: NewQuestion
    query_id: int | None
    gone: list[Old]
    unmarked: Old | None
    done: bool


@dataclass
class Planned:
    """A batch planned: the questions to write, in order; the adjudicated ones the file
    leaves as they are, counted (``done``, ``no_answer``: as stored); ``settled``: the
    adjudicated ones it would change, as (query id, line), in order (not written)."""

    plans: list[Plan] = field(default_factory=list)
    done: int = 0
    no_answer: int = 0
    settled: list[tuple[str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Reading:
    """What planning reads: ``annotator``'s rows on gold set ``gold_set_id``, their
    snapshots marked with ``mark`` (the front end's, as
    :func:`~labeler.store.audit.mark_origin` adds it)."""

    gold_set_id: int
    annotator: str
    mark: dict[str, Any]

    def plan(self, session: Session, batch: Sequence[NewQuestion]) -> Planned:
        """The batch's questions as written, read through ``session`` (adjudicated ones that
        would change left out, listed in ``settled``; those that would not change counted
        as done as stored); :class:`LineRefused` for the first element on a page no longer
        stored (removed since the file was checked), as labelling it would refuse it."""
        stored = self._stored(session, [q.external_id for q in batch])
        known = [query_id for query_id, _ in stored.values()]
        own = old_rows(session, Element, known, self.annotator, self.mark, layered=True)
        done = old_rows(session, QuestionDone, known, self.annotator, self.mark, layered=False)
        out = Planned()
        for q in batch:
            assert q.done is not None, "a layer import stages each question's done flag"
            query_id, adjudicated = stored.get(q.external_id, (None, False))
            gone = own.get(query_id, []) if query_id is not None else []
            mark = done.get(query_id, [None])[0] if query_id is not None else None
            if adjudicated:
                # Settled: the same labels and done mark again change nothing and pass;
                # anything else would change the evidence it was settled on (the lock).
                same = sorted(map(_place, gone)) == sorted(
                    (e.doc, e.start, e.end, e.grade, e.key) for e in q.elements
                )
                if same and (mark is not None) == q.done:
                    out.done += q.done
                    out.no_answer += q.done and not q.elements
                else:
                    out.settled.append((q.external_id, q.line))
                continue
            out.plans.append(Plan(q, query_id, gone, mark, q.done))
        self._check_pages(session, out.plans)
        return out

    def _stored(self, session: Session, external_ids: list[str]) -> dict[str, tuple[int, bool]]:
        """External id → (id, adjudicated) of the stored questions among ``external_ids``."""
        found: dict[str, tuple[int, bool]] = {}
        table = quoted(session, table_of(Query))
        with driver_cursor(session) as (cursor, mark):
            for part in chunks(external_ids):
                cursor.execute(
                    f"SELECT external_id, id, adjudicated_at IS NOT NULL FROM {table} "
                    f"WHERE gold_set_id = {mark} AND external_id IN ({marks(mark, part)})",
                    [self.gold_set_id, *part],
                )
                found.update(
                    {qid: (int(query_id), bool(settled)) for qid, query_id, settled in cursor}
                )
        return found

    @staticmethod
    def _check_pages(session: Session, plans: list[Plan]) -> None:
        docs = sorted({e.doc for p in plans for e in p.question.elements})
        there: set[str] = set()
        table = quoted(session, table_of(Document))
        with driver_cursor(session) as (cursor, mark):
            for part in chunks(docs):
                cursor.execute(f"SELECT id FROM {table} WHERE id IN ({marks(mark, part)})", part)
                there.update(doc for (doc,) in cursor)
        for p in plans:
            for e in p.question.elements:
                if e.doc not in there:
                    raise LineRefused(f"no document {e.doc!r} in the database", p.question.line)


def quoted(session: Session, table: Any) -> str:
    """``table``'s name as the dialect quotes it (``"query"``)."""
    return str(session.get_bind().dialect.identifier_preparer.quote(table.name))


def _place(old: Old) -> tuple[Any, ...]:
    """A stored element's page, offsets, grade and key (None: no key)."""
    _, _, document_id, start, end, _, grade, *_, key_start, key_end = old.values
    key = None if key_start is None or key_end is None else (key_start, key_end)
    return (document_id, start, end, grade, key)
