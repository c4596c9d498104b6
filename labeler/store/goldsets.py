"""Whole gold sets in and out of the store: bulk import (one transaction) and export rows.

Import inserts with multi-row statements (no per-row ORM objects) so large gold sets load in
seconds; every element and question still gets its ``add`` audit entry, and the element span
triggers still check every ok row (a stale element is stored as given: its page changed).

Replacing a set replaces what the new content holds and never loses anything else silently:
:func:`replace_losses` lists what the new content does not hold (elements of either layer,
questions and their notes, done marks, assignments, adjudication marks), and
:func:`import_gold_set` refuses to remove it (:class:`DropRefused`, nothing written) unless
forced; then every removed row has its audit entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Table, delete
from sqlalchemy import select as sa_select
from sqlalchemy import text as sql_text
from sqlmodel import Session, SQLModel, col, select

from labeler.errors import IntegrityError, not_found
from labeler.store.audit import mark_origin
from labeler.store.browse import gold_set_names
from labeler.store.goldrows import NewQuestion
from labeler.store.goldstage import GoldStage, staged
from labeler.store.models import (
    ELEMENT_OK,
    ELEMENT_STALE,
    LAYER_ANNOTATOR,
    LAYER_FINAL,
    Assignment,
    AuditEntry,
    Document,
    Element,
    GoldSet,
    NotRelevant,
    Query,
    QuestionDone,
    utcnow,
)
from labeler.store.roles import require_lead, role_of
from labeler.store.rows import PENDING_SQL, StoredElement, StoredQuestion
from labeler.store.run_table import insert_dicts


@dataclass(frozen=True)
class DroppedElement:
    """A stored element that replacing its gold set would remove (or removed): a final
    element, or (``layer`` ``annotator``) one annotator's own label."""

    query_id: str
    doc: str
    start: int
    end: int
    text: str
    stale: bool
    layer: str = LAYER_FINAL
    annotator: str | None = None

    @property
    def kind(self) -> str:
        """What it is in a count: ``element`` (final) or ``annotator-layer element``."""
        return "annotator-layer element" if self.layer == LAYER_ANNOTATOR else "element"

    def __str__(self) -> str:
        shown = self.text if len(self.text) <= 50 else self.text[:49] + "…"
        flag = " (stale)" if self.stale else ""
        own = f" ({self.annotator}'s own label)" if self.layer == LAYER_ANNOTATOR else ""
        return f"{self.query_id} {self.doc} [{self.start}:{self.end}] {shown!r}{flag}{own}"


@dataclass(frozen=True)
class DroppedRow:
    """Something else replacing a gold set would remove (or removed): a question the new
    content does not hold (with its notes), a kept question's notes, a done mark, an
    assignment or an adjudication mark. ``kind`` is one of :data:`ROW_KINDS`; ``words``
    says which (``q1 by ana``)."""

    kind: str
    query_id: str
    words: str

    def __str__(self) -> str:
        return f"{self.kind} {self.words}"


#: the kinds of :class:`DroppedRow`, in the order a refusal counts them
ROW_KINDS = ("question", "note", "done mark", "assignment", "adjudication mark")
Dropped = DroppedElement | DroppedRow


def dropped_counts(dropped: Sequence[Dropped]) -> str:
    """``2 element(s), 1 annotator-layer element(s), 3 done mark(s)``: each kind with its
    count, elements first (the wording a refusal and a forced replace share)."""
    order = ["element", "annotator-layer element", *ROW_KINDS]
    counts = {kind: sum(d.kind == kind for d in dropped) for kind in order}
    return ", ".join(f"{n} {kind}(s)" for kind, n in counts.items() if n)


class DropRefused(IntegrityError):
    """Replacing a gold set would remove what the new content does not hold: elements of
    either layer, questions and notes, done marks, assignments, adjudication marks.

    ``dropped`` lists them all (the message shows the first :attr:`SHOWN`); ``hint`` is
    the caller's way out, appended to the message (the store knows no command line).
    """

    SHOWN = 50

    def __init__(self, name: str, dropped: Sequence[Dropped], hint: str = "") -> None:
        self.name = name
        self.dropped = tuple(dropped)
        lines = [f"  {d}" for d in self.dropped[: self.SHOWN]]
        if len(self.dropped) > self.SHOWN:
            lines.append(f"  ... and {len(self.dropped) - self.SHOWN} more")
        only_elements = all(isinstance(d, DroppedElement) for d in self.dropped)
        what = " (question, page, offsets, text)" if only_elements else ""
        super().__init__(
            f"gold set {name!r}: replacing it would remove {dropped_counts(self.dropped)} "
            f"the new content does not hold{what}; nothing was "
            "changed:\n" + "\n".join(lines) + (f"\n{hint}" if hint else "")
        )


def page_texts(session: Session, doc_ids: Sequence[str]) -> dict[str, str]:
    """Stored text of each existing document among ``doc_ids`` (absent ids are left out)."""
    found: dict[str, str] = {}
    ids = sorted(set(doc_ids))
    for i in range(0, len(ids), 500):  # stay under SQLite's bound-parameter limit
        rows = session.execute(
            select(col(Document.id), col(Document.text)).where(
                col(Document.id).in_(ids[i : i + 500])
            )
        )
        found.update({doc_id: text for doc_id, text in rows})
    return found


def import_gold_set(
    session: Session,
    name: str,
    questions: Iterable[NewQuestion] | GoldStage,
    *,
    actor: str,
    description: str = "",
    replace: bool = False,
    force: bool = False,
    hint: str = "",
    progress: Callable[[int], None] | None = None,
) -> tuple[Dropped, ...]:
    """Create gold set ``name`` holding ``questions`` (in order; or a
    :class:`~labeler.store.goldstage.GoldStage` of them), in the caller's transaction.

    An existing set of that name is an :class:`IntegrityError` unless ``replace`` is true,
    in which case its content is deleted first, every row audited as a removal (elements,
    questions with their notes and adjudication marks, done marks, assignments). When that
    would remove anything ``questions`` do not hold (:func:`replace_losses`),
    :class:`DropRefused` (with ``hint``) is raised before anything is written, unless
    ``force``. Returns what was removed that way (empty when nothing).

    Rows are written in batches of :data:`~labeler.store.goldstage.BATCH` questions with
    multi-row statements (the questions and elements with ``RETURNING`` their ids, then their
    ``add`` audit entries), so memory stays bounded by a batch; ``progress(questions
    written)`` is called after each batch.
    """
    stage, made = staged(questions)
    try:
        return _import_staged(
            session, name, stage, actor, description, replace, force, hint, progress
        )
    finally:
        if made:
            stage.close()


def _import_staged(
    session: Session,
    name: str,
    stage: GoldStage,
    actor: str,
    description: str,
    replace: bool,
    force: bool,
    hint: str,
    progress: Callable[[int], None] | None,
) -> tuple[Dropped, ...]:
    existing = session.exec(select(GoldSet).where(col(GoldSet.name) == name)).first()
    if existing is not None and not replace:
        raise IntegrityError(f"gold set {name!r} already exists (use --replace to overwrite it)")
    dropped: tuple[Dropped, ...] = ()
    role = role_of(session, actor)
    if existing is not None:
        if existing.team:
            # replacing a team gold set rewrites every annotator's work on it
            require_lead(session, actor, f"replacing team gold set {name!r}")
        dropped = tuple(replace_losses(session, existing, stage))
        if dropped and not force:
            raise DropRefused(name, dropped, hint)
        _clear(session, existing, actor)
        gold_set = existing
    else:
        if not name.strip():
            raise IntegrityError("a gold set needs a non-empty name")
        gold_set = GoldSet(name=name, description=description)
        session.add(gold_set)
        session.flush()
    assert gold_set.id is not None
    now = utcnow()
    added = _Added(session, actor, role, now)
    # Core multi-row statements on the tables, the ids taken up front (new_ids): with
    # RETURNING in parameter order, both the ORM's bulk path and Core insert one row per
    # statement on SQLite (it does not promise RETURNING's order)
    queries, elements, audits = (table_of(model) for model in (Query, Element, AuditEntry))
    written = 0
    for batch in stage.batches():
        ids = new_ids(session, "query", len(batch))
        query_rows: list[dict[str, object]] = [
            {
                "id": query_id,
                "gold_set_id": gold_set.id,
                "external_id": q.external_id,
                "text": q.text,
                "notes": q.notes,
                "created_at": now,
            }
            for q, query_id in zip(batch, ids, strict=True)
        ]
        insert_dicts(session, queries, query_rows)
        audit_rows = [
            added("query", query_id, row) for row, query_id in zip(query_rows, ids, strict=True)
        ]
        count = sum(len(q.elements) for q in batch)
        element_ids = iter(new_ids(session, "element", count))
        element_rows: list[dict[str, object]] = [
            {
                "id": next(element_ids),
                "query_id": query_id,
                "document_id": e.doc,
                "start": e.start,
                "end": e.end,
                "text": e.text,
                "grade": e.grade,
                "annotator": e.annotator,
                "created_at": now,
                "status": ELEMENT_STALE if e.stale else ELEMENT_OK,
                "key_start": e.key[0] if e.key is not None else None,
                "key_end": e.key[1] if e.key is not None else None,
                "provenance": e.provenance,
                "assisted": e.assisted,
            }
            for q, query_id in zip(batch, ids, strict=True)
            for e in q.elements
        ]
        if element_rows:
            insert_dicts(session, elements, element_rows)
        scores = (e.snap_score for q in batch for e in q.elements)
        audit_rows += [
            added("element", cast(int, row["id"]), row, score)
            for row, score in zip(element_rows, scores, strict=True)
        ]
        judged_ids = iter(new_ids(session, "not_relevant", sum(len(q.not_relevant) for q in batch)))
        judged_rows: list[dict[str, object]] = [
            {
                "id": next(judged_ids),
                "query_id": query_id,
                "document_id": j.doc,
                "start": j.start,
                "end": j.end,
                "annotator": j.annotator,
                "layer": LAYER_FINAL,
                "created_at": now,
            }
            for q, query_id in zip(batch, ids, strict=True)
            for j in q.not_relevant
        ]
        if judged_rows:
            insert_dicts(session, table_of(NotRelevant), judged_rows)
        audit_rows += [added("not_relevant", cast(int, row["id"]), row) for row in judged_rows]
        insert_dicts(session, audits, audit_rows)
        written += len(batch)
        if progress is not None:
            progress(written)
    session.flush()
    return dropped


def new_ids(session: Session, table: str, count: int) -> list[int]:
    """``count`` unused ids of ``table``, in order, inside the caller's write transaction
    (which holds the database's one write lock, so no other writer takes them): on
    PostgreSQL drawn from the column's sequence, on SQLite following the largest id (as
    SQLite itself numbers a new row)."""
    if count == 0:
        return []
    if session.get_bind().dialect.name == "sqlite":
        top = session.execute(sql_text(f"SELECT coalesce(max(id), 0) FROM {table}")).scalar()
        return list(range(int(top or 0) + 1, int(top or 0) + 1 + count))
    rows = session.execute(
        sql_text(
            f"SELECT nextval(pg_get_serial_sequence('{table}', 'id')) "
            "FROM generate_series(1, :n) ORDER BY 1"
        ),
        {"n": count},
    )
    return [int(i) for i in rows.scalars()]


def table_of(model: type[SQLModel]) -> Table:
    # table=True sets __table__, which SQLModel's type does not declare
    return cast(Table, model.__table__)  # type: ignore[attr-defined]


def replace_losses(
    session: Session, gold_set: GoldSet, questions: Iterable[NewQuestion] | GoldStage
) -> list[Dropped]:
    """Everything of ``gold_set`` that replacing it by ``questions`` would remove, by
    question (in the order added), elements first (:func:`dropped_elements`), then: the
    question itself when ``questions`` do not hold it (with its notes), the notes of a kept
    question whose new version has none, and every done mark, assignment and adjudication
    mark (an import writes none of them: its questions are new rows)."""
    stage, made = staged(questions)
    try:
        return _losses(session, gold_set, stage)
    finally:
        if made:
            stage.close()


def _losses(session: Session, gold_set: GoldSet, stage: GoldStage) -> list[Dropped]:
    by_question: dict[str, list[Dropped]] = {}
    for element in dropped_elements(session, gold_set, stage):
        by_question.setdefault(element.query_id, []).append(element)
    stored = session.exec(
        select(Query).where(col(Query.gold_set_id) == gold_set.id).order_by(col(Query.id))
    ).all()
    new = stage.notes_of([q.external_id for q in stored])
    staged_judged = stage.judged_of([q.external_id for q in stored])
    done = _team_rows(session, QuestionDone, gold_set)
    assigned = _team_rows(session, Assignment, gold_set)
    judged = _team_rows(session, NotRelevant, gold_set)
    out: list[Dropped] = []
    for q in stored:
        assert q.id is not None
        qid = q.external_id
        out += by_question.get(qid, [])
        kept = new.get(qid)
        if kept is None:
            notes = f" (notes {_short(q.notes)})" if q.notes else ""
            out.append(DroppedRow("question", qid, f"{qid} {_short(q.text)}{notes}"))
        elif q.notes and not kept:
            out.append(DroppedRow("note", qid, f"{qid}: {_short(q.notes)}"))
        for row in done.get(q.id, []):
            blank = " (no answer)" if isinstance(row, QuestionDone) and row.no_answer else ""
            out.append(DroppedRow("done mark", qid, f"{qid} by {row.annotator}{blank}"))
        for row in assigned.get(q.id, []):
            out.append(DroppedRow("assignment", qid, f"{qid} to {row.annotator}"))
        kept_judged = staged_judged.get(qid, set())
        for row in judged.get(q.id, []):
            if not isinstance(row, NotRelevant):
                continue
            spot = (row.document_id, row.start, row.end, row.annotator)
            if row.layer != LAYER_FINAL or spot not in kept_judged:
                out.append(
                    DroppedRow(
                        "not-relevant judgement",
                        qid,
                        f"{qid}: {row.document_id} {row.start}–{row.end} by {row.annotator}",
                    )
                )
        if q.adjudicated_at is not None:
            by = q.adjudicated_by or "?"
            out.append(DroppedRow("adjudication mark", qid, f"{qid} by {by}"))
    return out


def _short(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _team_rows(
    session: Session,
    model: type[QuestionDone] | type[Assignment] | type[NotRelevant],
    gold_set: GoldSet,
) -> dict[int, list[QuestionDone | Assignment | NotRelevant]]:
    """Question id → its done marks, assignments or not-relevant judgements (by id), for
    ``gold_set``."""
    rows = cast(
        "list[QuestionDone | Assignment | NotRelevant]",
        session.exec(
            select(model)
            .join(Query, col(Query.id) == col(model.query_id))
            .where(col(Query.gold_set_id) == gold_set.id)
            .order_by(col(model.id))
        ).all(),
    )
    out: dict[int, list[QuestionDone | Assignment | NotRelevant]] = {}
    for row in rows:
        out.setdefault(row.query_id, []).append(row)
    return out


def dropped_elements(
    session: Session, gold_set: GoldSet, questions: Iterable[NewQuestion] | GoldStage
) -> list[DroppedElement]:
    """Stored elements of ``gold_set`` (final ones first, each in label order) that
    ``questions`` do not hold.

    ``questions`` hold final elements only (an import writes no annotator layer). A final
    element is held when the same question id has an element on the same page with the
    same offsets or the same text (a re-anchored or regraded element is not lost); an
    annotator's own label would be held only by the same annotator's label in that layer,
    so it never is here: the comparison keys on layer and annotator, not only on
    question, page and offsets.
    """
    stage, made = staged(questions)
    try:
        rows = session.execute(
            sa_select(
                col(Query.external_id),
                col(Element.document_id),
                col(Element.start),
                col(Element.end),
                col(Element.text),
                col(Element.status),
                col(Element.layer),
                col(Element.annotator),
            )
            .join(Query, col(Query.id) == col(Element.query_id))
            .where(col(Query.gold_set_id) == gold_set.id)
            .order_by(col(Query.id), col(Element.layer) != LAYER_FINAL, col(Element.id))
        )
        return [
            DroppedElement(qid, doc, start, end, text, status != ELEMENT_OK, layer, who)
            for qid, doc, start, end, text, status, layer, who in rows
            if layer != LAYER_FINAL or not stage.holds(qid, doc, start, end, text)
        ]
    finally:
        if made:
            stage.close()


def _clear(session: Session, gold_set: GoldSet, actor: str) -> None:
    """Delete the content of ``gold_set``, every row audited as a ``remove`` with its
    snapshot: elements, done marks and assignments (rows that would otherwise go by cascade
    with their question, unrecorded), then the questions (their snapshots hold their notes
    and adjudication marks)."""
    role = role_of(session, actor)
    now = utcnow()
    query_ids = select(col(Query.id)).where(col(Query.gold_set_id) == gold_set.id)
    audit_rows: list[dict[str, object]] = []
    children: list[
        tuple[str, type[Element] | type[QuestionDone] | type[Assignment] | type[NotRelevant]]
    ] = [
        ("element", Element),
        ("question_done", QuestionDone),
        ("assignment", Assignment),
        ("not_relevant", NotRelevant),
    ]
    for entity, model in children:
        found = session.execute(select(model).where(col(model.query_id).in_(query_ids)))
        audit_rows += [
            _audit(actor, role, entity, r.id or 0, r.model_dump(mode="json"), None, now)
            for r in found.scalars()
        ]
    queries = session.execute(select(Query).where(col(Query.gold_set_id) == gold_set.id)).scalars()
    audit_rows += [
        _audit(actor, role, "query", q.id or 0, q.model_dump(mode="json"), None, now)
        for q in queries
    ]
    for _, model in children:
        session.execute(delete(model).where(col(model.query_id).in_(query_ids)))
    session.execute(delete(Query).where(col(Query.gold_set_id) == gold_set.id))
    _mark_rows(session, audit_rows)
    audits = table_of(AuditEntry)
    for batch in _batches(audit_rows):
        insert_dicts(session, audits, batch)
    session.expunge_all()


class _Added:
    """The ``add`` audit rows of new rows written at ``now``: what :func:`_audit` then
    :func:`_mark_rows` make of them, built in one step (a large import writes one per
    question and element). A new row's only timestamp is its ``created_at``, ``now``."""

    def __init__(self, session: Session, actor: str, role: str, now: datetime) -> None:
        self.actor = actor
        self.role = role
        self.now = now
        self.stamp = now.isoformat()
        # the store's front end, as mark_origin marks a snapshot: last, or not at all
        origin = mark_origin(session, {})
        assert origin is not None
        self.mark = origin

    def __call__(
        self, entity: str, entity_id: int, row: dict[str, object], score: float | None = None
    ) -> dict[str, object]:
        assert row["created_at"] is self.now
        after = {**row, "created_at": self.stamp}
        if score is not None:  # as _scored adds it
            after["snap_score"] = score
        if self.mark:
            after.update(self.mark)
        return {
            "actor": self.actor,
            "actor_role": self.role,
            "at": self.now,
            "action": "add",
            "entity": entity,
            "entity_id": entity_id,
            "before": None,
            "after": after,
        }


def _mark_rows(session: Session, audit_rows: list[dict[str, object]]) -> None:
    """Mark the snapshots of bulk-inserted audit rows with the store's front end, as
    :func:`~labeler.store.audit.record_change` does for single entries."""
    for row in audit_rows:
        for side in ("before", "after"):
            data = row[side]
            row[side] = mark_origin(session, data if isinstance(data, dict) else None)


def _audit(
    actor: str,
    role: str,
    entity: str,
    entity_id: int,
    before: dict[str, object] | None,
    after: dict[str, object] | None,
    at: datetime,
) -> dict[str, object]:
    stamp = at.isoformat()  # the rows' own timestamps are mostly ``at``

    def jsonable(row: dict[str, object] | None) -> dict[str, object] | None:
        if row is None:
            return None
        return {
            k: stamp if v is at else v.isoformat() if isinstance(v, datetime) else v
            for k, v in row.items()
        }

    return {
        "actor": actor,
        "actor_role": role,
        "at": at,
        "action": "add" if before is None else "remove",
        "entity": entity,
        "entity_id": entity_id,
        "before": jsonable(before),
        "after": jsonable(after),
    }


def _batches(rows: list[dict[str, object]], size: int = 2000) -> Iterator[list[dict[str, object]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def export_gold_set(session: Session, name: str) -> Iterator[StoredQuestion]:
    """Questions of gold set ``name`` in the order they were added, final-layer elements in
    label order; ``pending`` marks the questions scoring leaves out (see ``StoredQuestion``)."""
    gold_set = session.exec(select(GoldSet).where(col(GoldSet.name) == name)).first()
    if gold_set is None:
        raise not_found("gold set", name, gold_set_names(session))
    queries = session.execute(
        sql_text(
            f"SELECT q.id, q.external_id, q.text, q.notes, {PENDING_SQL} FROM query q "
            "JOIN gold_set g ON g.id = q.gold_set_id WHERE q.gold_set_id = :g ORDER BY q.id"
        ),
        {"g": gold_set.id},
    ).all()
    by_query: dict[int, list[StoredElement]] = {qid: [] for qid, *_ in queries}
    rows = session.execute(
        sa_select(
            col(Element.query_id),
            col(Element.document_id),
            col(Element.start),
            col(Element.end),
            col(Element.text),
            col(Element.grade),
            col(Element.status),
            col(Element.key_start),
            col(Element.key_end),
        )
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(col(Query.gold_set_id) == gold_set.id, col(Element.layer) == LAYER_FINAL)
        .order_by(col(Element.query_id), col(Element.id))
    )
    for qid, doc, start, end, text, grade, status, key_start, key_end in rows:
        by_query[qid].append(
            StoredElement(doc, start, end, text, grade, status != ELEMENT_OK, key_start, key_end)
        )
    for qid, external_id, text, notes, pending in queries:
        yield StoredQuestion(external_id, text, notes, tuple(by_query[qid]), bool(pending))
