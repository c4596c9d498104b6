"""Writing one annotator's own labels on the questions of a staged gold file (``gold import
--layer``), set-based, in the caller's transaction.

For each staged question, in file order, what labelling it by hand would write: the
question when missing (with its text and notes), the annotator's earlier annotator-layer
elements on it removed and the staged ones added, their done mark removed and, unless the
file says the question is not done, added again (``no_answer`` when they labelled nothing
on it). Every row is audited under the annotator, with the snapshot the ORM's own write
gives it (so undo and the audit log work as for labelling). On an adjudicated question that
is refused (the adjudicated lock) unless it would change nothing: the same labels, grades,
keys and done mark as stored.

The rows go in with multi-row statements, :data:`~labeler.store.goldstage.BATCH` questions
at a time, so memory stays bounded by a batch. Their ids are the ones writing the
questions one after another gives, and the audit entries come in that order: on
PostgreSQL each table's sequence numbers its rows in order; SQLite gives a new row the
largest id + 1, so an id freed at the top of a table (the annotator's newest label removed)
is given again, as :class:`_Ids` counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Table
from sqlalchemy import text as sql_text
from sqlmodel import Session, SQLModel, select

from labeler.store.audit import mark_origin
from labeler.store.goldrows import NewElement, NewQuestion
from labeler.store.goldsets import new_ids, table_of
from labeler.store.goldstage import GoldStage
from labeler.store.layer_plans import Plan, Planned, Reading, quoted
from labeler.store.layer_snapshots import FIELDS, chunks, json_columns, marks, stamp
from labeler.store.models import (
    ELEMENT_OK,
    LAYER_ANNOTATOR,
    PROVENANCE_OWN,
    AuditEntry,
    Element,
    GoldSet,
    Query,
    QuestionDone,
    utcnow,
)
from labeler.store.multirow import insert_values
from labeler.store.roles import role_of
from labeler.store.run_table import driver_cursor
from labeler.store.team import make_team


@dataclass
class LayerCounts:
    """What writing a layer did: questions created, the annotator's elements removed (their
    earlier labels) and added, questions marked done and done with no answer; ``settled``:
    the adjudicated questions whose labels or done mark the file would change, as (query
    id, line), in file order (the caller refuses the import when there is one)."""

    created: int = 0
    removed: int = 0
    added: int = 0
    done: int = 0
    no_answer: int = 0
    settled: list[tuple[str, int]] = field(default_factory=list)


def team_gold_set(session: Session, name: str, description: str = "") -> tuple[GoldSet, bool]:
    """Gold set ``name``, created when missing, made a team gold set; True when created."""
    gs = session.exec(select(GoldSet).where(GoldSet.name == name)).first()
    created = gs is None
    if gs is None:
        from labeler.store.labels import create_gold_set

        gs = create_gold_set(session, name, description)
    make_team(session, gs)
    return gs, created


def write_own_layer(
    session: Session,
    gold_set: GoldSet,
    stage: GoldStage,
    *,
    annotator: str,
    progress: Callable[[int], None] | None = None,
) -> LayerCounts:
    """Write the questions of ``stage`` (each with its ``done`` flag and file ``line``) as
    ``annotator``'s own labels on team gold set ``gold_set`` (see the module docstring), in
    the caller's transaction; ``progress(questions written)`` after each batch.

    An adjudicated question the file would change is written not at all and listed in the
    result's ``settled`` (the rest are written: the caller rolls back). A staged element on
    a page that is no longer stored raises :class:`~labeler.store.layer_plans.LineRefused`
    naming its line."""
    layer = LayerWrite(session, gold_set, annotator=annotator)
    layer.write(stage, progress)
    return layer.counts


class LayerWrite:
    """:func:`write_own_layer` in steps: :meth:`write` writes the questions staged since its
    last call, so that a layer import writes the earlier lines of its file while the later
    ones are still being staged (then merged into the same stage). The same rows, ids and
    audit entries as one call once all is staged: each question is written as the one
    before it left the database, whichever batch it is in."""

    def __init__(self, session: Session, gold_set: GoldSet, *, annotator: str) -> None:
        assert gold_set.id is not None
        session.flush()  # the reads and writes below go to the driver: the session's rows first
        self._writer = _Writer(session, gold_set.id, annotator)
        self._reading = Reading(gold_set.id, annotator, self._writer.mark)
        #: the questions of the stage written so far (its first ones)
        self.written = 0

    @property
    def counts(self) -> LayerCounts:
        """What the writes so far did."""
        return self._writer.counts

    def write(self, stage: GoldStage, progress: Callable[[int], None] | None = None) -> None:
        """Write the questions of ``stage`` after the first :attr:`written`;
        ``progress(questions written in all)`` after each batch."""
        for batch in stage.batches(after=self.written):
            self._writer.write(self._reading.plan(self._writer.session, batch))
            self.written += len(batch)
            if progress is not None:
                progress(self.written)


#: the columns of an audit entry a layer write fills
_AUDIT_COLUMNS = (
    "id",
    "actor",
    "at",
    "action",
    "entity",
    "entity_id",
    "before",
    "after",
    "actor_role",
)


class _Writer:
    def __init__(self, session: Session, gold_set_id: int, annotator: str) -> None:
        self.session = session
        self.gold_set_id = gold_set_id
        self.annotator = annotator
        self.role = role_of(session, annotator)
        self.now = utcnow()
        self.stamp = stamp(self.now)
        # the store's front end, as mark_origin marks a snapshot: last, or not at all
        mark = mark_origin(session, {})
        assert mark is not None
        self.mark = mark
        self.counts = LayerCounts()
        self.ids = {name: _Ids(session, name) for name in ("query", "element", "question_done")}

    def write(self, planned: Planned) -> None:
        """Write the questions of ``planned`` (see the module docstring)."""
        plans = planned.plans
        counts = self.counts
        counts.done += planned.done
        counts.no_answer += planned.no_answer
        counts.settled += planned.settled
        added = self._added(plans)
        # the snapshots' JSON text, as the JSON column stores it (see json_columns)
        texts = {
            model: iter(
                json_columns(
                    FIELDS[model],
                    rows.varying,
                    {**{k: stamp(v) for k, v in rows.same.items()}, **self.mark},
                )
            )
            for model, rows in added.rows.items()
        }
        session = self.session
        added.rows[Query].insert(session, table_of(Query))
        _delete(session, table_of(Element), [g.id for p in plans for g in p.gone])
        added.rows[Element].insert(session, table_of(Element))
        _delete(
            session,
            table_of(QuestionDone),
            [p.unmarked.id for p in plans if p.unmarked is not None],
        )
        added.rows[QuestionDone].insert(session, table_of(QuestionDone))
        # each audit entry's action, entity, row and snapshots, in the order labelling the
        # questions one at a time writes them
        steps: list[tuple[str, str, int, str, str]] = []
        step = steps.append
        queries, elements, marks = texts[Query], texts[Element], texts[QuestionDone]
        element_ids = iter(added.rows[Element].varying["id"])
        mark_ids = iter(added.rows[QuestionDone].varying["id"])
        for p, query_id in zip(plans, added.query_ids, strict=True):
            if p.query_id is None:
                step(("add", "query", query_id, "null", next(queries)))
            for g in p.gone:
                step(("remove", "element", g.id, g.snapshot, "null"))
            for _ in p.question.elements:
                step(("add", "element", next(element_ids), "null", next(elements)))
            if p.unmarked is not None:
                step(("remove", "question_done", p.unmarked.id, p.unmarked.snapshot, "null"))
            if p.done:
                step(("add", "question_done", next(mark_ids), "null", next(marks)))
        # straight to the driver: the snapshots are JSON text already (as the column's bind
        # processor would make them), the time the bound form of the import's one timestamp
        audit = table_of(AuditEntry)
        dialect = session.get_bind().dialect
        process = audit.c.at.type._cached_bind_processor(dialect)
        at = self.now if process is None else process(self.now)
        actor, role = self.annotator, self.role
        entries = [
            (entry_id, actor, at, *what, role)
            for entry_id, what in zip(
                new_ids(session, "audit_entry", len(steps)), steps, strict=True
            )
        ]
        quote = dialect.identifier_preparer.quote
        insert_values(session, quote(audit.name), tuple(map(quote, _AUDIT_COLUMNS)), entries)
        for ids in self.ids.values():
            ids.written()

    def _added(self, plans: list[Plan]) -> _Added:
        """The rows ``plans`` add, with their ids (see :class:`_Ids`), counted."""
        new_queries = self.ids["query"].assign([None for p in plans if p.query_id is None])
        new_elements = iter(
            self.ids["element"].assign(
                [
                    op
                    for p in plans
                    for op in [*(g.id for g in p.gone), *(None for _ in p.question.elements)]
                ]
            )
        )
        new_marks = iter(
            self.ids["question_done"].assign(
                [
                    op
                    for p in plans
                    for op in [
                        *([] if p.unmarked is None else [p.unmarked.id]),
                        *([None] if p.done else []),
                    ]
                ]
            )
        )
        created: list[NewQuestion] = []
        query_ids: list[int] = []  # each plan's question id, stored or new
        element_ids: list[int] = []
        element_queries: list[int] = []
        added: list[NewElement] = []
        mark_ids: list[int] = []
        mark_queries: list[int] = []
        no_answer: list[bool] = []
        created_ids = iter(new_queries)
        counts = self.counts
        for p in plans:
            q = p.question
            query_id = p.query_id
            if query_id is None:
                query_id = next(created_ids)
                created.append(q)
            query_ids.append(query_id)
            for e in q.elements:
                element_ids.append(next(new_elements))
                element_queries.append(query_id)
                added.append(e)
            if p.done:
                mark_ids.append(next(new_marks))
                mark_queries.append(query_id)
                no_answer.append(not q.elements)
            counts.removed += len(p.gone)
        counts.created += len(created)
        counts.added += len(added)
        counts.done += len(mark_ids)
        counts.no_answer += sum(no_answer)
        queries = _Rows(
            {
                "id": new_queries,
                "external_id": [q.external_id for q in created],
                "text": [q.text for q in created],
                "notes": [q.notes for q in created],
            },
            {
                "gold_set_id": self.gold_set_id,
                "created_at": self.now,
                "adjudicated_at": None,
                "adjudicated_by": None,
            },
        )
        elements = _Rows(
            {
                "id": element_ids,
                "query_id": element_queries,
                "document_id": [e.doc for e in added],
                "start": [e.start for e in added],
                "end": [e.end for e in added],
                "text": [e.text for e in added],
                "grade": [e.grade for e in added],
                "assisted": [e.assisted for e in added],
                "key_start": [None if e.key is None else e.key[0] for e in added],
                "key_end": [None if e.key is None else e.key[1] for e in added],
            },
            {
                "annotator": self.annotator,
                "created_at": self.now,
                "status": ELEMENT_OK,
                "layer": LAYER_ANNOTATOR,
                "provenance": PROVENANCE_OWN,
            },
        )
        marks = _Rows(
            {"id": mark_ids, "query_id": mark_queries, "no_answer": no_answer},
            {"annotator": self.annotator, "done_at": self.now},
        )
        return _Added(query_ids, {Query: queries, Element: elements, QuestionDone: marks})


@dataclass
class _Added:
    """What a batch adds: each question's id (stored or new), and the rows of each table."""

    query_ids: list[int]
    rows: dict[type[SQLModel], _Rows]


@dataclass
class _Rows:
    """Rows of one table to add, column by column: ``varying``, column → each row's value;
    ``same``, column → the value every row holds."""

    varying: dict[str, list[Any]]
    same: dict[str, Any]

    def insert(self, session: Session, table: Table) -> None:
        """Insert the rows into ``table`` (:func:`~labeler.store.multirow.insert_values`),
        each value as SQLAlchemy stores it (its column type's bind processor)."""
        count = len(self.varying["id"])
        if not count:
            return
        dialect = session.get_bind().dialect
        names = [*self.varying, *self.same]
        columns: list[list[Any]] = []
        for name in names:
            process = table.c[name].type._cached_bind_processor(dialect)
            if name in self.varying:
                values = self.varying[name]
                columns.append(values if process is None else list(map(process, values)))
            else:
                value = self.same[name]
                columns.append([value if process is None else process(value)] * count)
        quote = dialect.identifier_preparer.quote  # "end" is a keyword on PostgreSQL
        insert_values(
            session,
            quote(table.name),
            tuple(map(quote, names)),
            list(zip(*columns, strict=True)),
        )


def _delete(session: Session, table: Table, ids: list[int]) -> None:
    name = quoted(session, table)
    with driver_cursor(session) as (cursor, mark):
        for part in chunks(ids):
            cursor.execute(f"DELETE FROM {name} WHERE id IN ({marks(mark, part)})", part)


class _Ids:
    """The ids ``table``'s new rows get when rows are removed and added one at a time, in
    order: on PostgreSQL the next values of its sequence; on SQLite the largest id in the
    table + 1, so that removing the row with the largest id before any row is added gives
    that id (or the next largest left) to the next one. Rows added here always have the
    largest ids, above every row removed (a removed row was there before this import), so
    once one is added the largest id is the last one given."""

    def __init__(self, session: Session, table: str) -> None:
        self.session = session
        self.table = table
        self.sqlite = session.get_bind().dialect.name == "sqlite"
        #: SQLite: the largest id there would be now (None: not read yet)
        self.top: int | None = None
        self.added = False
        #: ids removed by :meth:`assign` and not yet in the database (see :meth:`written`)
        self.removed: set[int] = set()

    def assign(self, ops: list[int | None]) -> list[int]:
        """The ids of the rows added by ``ops``, each the id of a row removed or None for a
        row added, in the order written."""
        if not self.sqlite:
            return new_ids(self.session, self.table, sum(op is None for op in ops))
        out: list[int] = []
        for op in ops:
            if op is None:
                if self.top is None:
                    self.top = self._below(None)
                self.top += 1
                self.added = True
                out.append(self.top)
            elif not self.added:
                self.removed.add(op)
                if self.top is None or op == self.top:
                    self.top = None  # read again when a row is added
        return out

    def written(self) -> None:
        """The rows :meth:`assign` removed are removed in the database too."""
        self.removed.clear()

    def _below(self, bound: int | None) -> int:
        """The largest id below ``bound`` (None: any) still there: in the table and not
        removed here; 0 when none is."""
        while True:
            where = "" if bound is None else f" WHERE id < {int(bound)}"
            found = self.session.execute(
                sql_text(f"SELECT max(id) FROM {self.table}{where}")
            ).scalar()
            if found is None:
                return 0
            if int(found) not in self.removed:
                return int(found)
            bound = int(found)
