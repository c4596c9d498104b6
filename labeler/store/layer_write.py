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
from labeler.store.layer_plans import Planned, Reading, quoted
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
    a page that is no longer stored raises :class:`LineRefused` naming its line."""
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
        # the rows added, column by column: (the questions created, in order, the new ids
        # above), each element's id, question and staged element, each mark's id, question
        # and whether it is one with no answer
        created: list[NewQuestion] = []
        element_ids: list[int] = []
        element_queries: list[int] = []
        added: list[NewElement] = []
        mark_ids: list[int] = []
        mark_queries: list[int] = []
        no_answer: list[bool] = []
        query_ids: list[int] = []  # each plan's question id, stored or new
        created_ids = iter(new_queries)
        for p in plans:
            q = p.question
            query_id = p.query_id
            if query_id is None:
                query_id = next(created_ids)
                created.append(q)
                counts.created += 1
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
            counts.added += len(q.elements)
            counts.done += p.done
            counts.no_answer += p.done and not q.elements
        key_starts = [None if e.key is None else e.key[0] for e in added]
        rows: dict[type[SQLModel], _Rows] = {
            Query: _Rows(
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
            ),
            Element: _Rows(
                {
                    "id": element_ids,
                    "query_id": element_queries,
                    "document_id": [e.doc for e in added],
                    "start": [e.start for e in added],
                    "end": [e.end for e in added],
                    "text": [e.text for e in added],
                    "grade": [e.grade for e in added],
                    "assisted": [e.assisted for e in added],
                    "key_start": key_starts,
                    "key_end": [None if e.key is None else e.key[1] for e in added],
                },
                {
                    "annotator": self.annotator,
                    "created_at": self.now,
                    "status": ELEMENT_OK,
                    "layer": LAYER_ANNOTATOR,
                    "provenance": PROVENANCE_OWN,
                },
            ),
            QuestionDone: _Rows(
                {"id": mark_ids, "query_id": mark_queries, "no_answer": no_answer},
                {"annotator": self.annotator, "done_at": self.now},
            ),
        }
        # the snapshots' JSON text, as the JSON column stores it (see json_columns)
        texts = {
            model: iter(
                json_columns(
                    FIELDS[model],
                    row.varying,
                    {**{k: stamp(v) for k, v in row.same.items()}, **self.mark},
                )
            )
            for model, row in rows.items()
        }
        session = self.session
        rows[Query].insert(session, table_of(Query))
        _delete(session, table_of(Element), [g.id for p in plans for g in p.gone])
        rows[Element].insert(session, table_of(Element))
        _delete(
            session,
            table_of(QuestionDone),
            [p.unmarked.id for p in plans if p.unmarked is not None],
        )
        rows[QuestionDone].insert(session, table_of(QuestionDone))
        # the audit entries straight to the driver, in the order labelling the questions
        # one at a time writes them: their snapshots are JSON text already (as the column's
        # bind processor would make them), their time the bound form of the import's one
        # timestamp
        audit = table_of(AuditEntry)
        dialect = session.get_bind().dialect
        process = audit.c.at.type._cached_bind_processor(dialect)
        at = self.now if process is None else process(self.now)
        actor, role = self.annotator, self.role
        count = len(created) + len(added) + len(mark_ids)
        count += sum(len(p.gone) + (p.unmarked is not None) for p in plans)
        entry_ids = iter(new_ids(session, "audit_entry", count))
        element_ids_in = iter(element_ids)
        mark_ids_in = iter(mark_ids)
        queries, elements, marks = texts[Query], texts[Element], texts[QuestionDone]
        entries: list[tuple[Any, ...]] = []
        add = entries.append
        for p, query_id in zip(plans, query_ids, strict=True):
            if p.query_id is None:
                add(
                    (
                        next(entry_ids),
                        actor,
                        at,
                        "add",
                        "query",
                        query_id,
                        "null",
                        next(queries),
                        role,
                    )
                )
            for g in p.gone:
                add(
                    (
                        next(entry_ids),
                        actor,
                        at,
                        "remove",
                        "element",
                        g.id,
                        g.snapshot,
                        "null",
                        role,
                    )
                )
            for _ in p.question.elements:
                add(
                    (
                        next(entry_ids),
                        actor,
                        at,
                        "add",
                        "element",
                        next(element_ids_in),
                        "null",
                        next(elements),
                        role,
                    )
                )
            if p.unmarked is not None:
                add(
                    (
                        next(entry_ids),
                        actor,
                        at,
                        "remove",
                        "question_done",
                        p.unmarked.id,
                        p.unmarked.snapshot,
                        "null",
                        role,
                    )
                )
            if p.done:
                add(
                    (
                        next(entry_ids),
                        actor,
                        at,
                        "add",
                        "question_done",
                        next(mark_ids_in),
                        "null",
                        next(marks),
                        role,
                    )
                )
        quote = dialect.identifier_preparer.quote
        insert_values(session, quote(audit.name), tuple(map(quote, _AUDIT_COLUMNS)), entries)
        for ids in self.ids.values():
            ids.written()


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
