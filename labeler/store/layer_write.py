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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from json import dumps
from json.encoder import encode_basestring_ascii
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import Table
from sqlalchemy import text as sql_text
from sqlmodel import Session, SQLModel, select

from labeler.errors import IntegrityError
from labeler.store.audit import mark_origin
from labeler.store.goldrows import NewElement, NewQuestion
from labeler.store.goldsets import new_ids, table_of
from labeler.store.goldstage import GoldStage
from labeler.store.models import (
    ELEMENT_OK,
    LAYER_ANNOTATOR,
    PROVENANCE_OWN,
    AuditEntry,
    Document,
    Element,
    GoldSet,
    Query,
    QuestionDone,
    utcnow,
)
from labeler.store.multirow import insert_dict_values, insert_values
from labeler.store.roles import role_of
from labeler.store.run_table import driver_cursor
from labeler.store.team import make_team

#: ids per ``IN (...)`` list: under SQLite's bound-parameter limit
_CHUNK = 500


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


class LineRefused(IntegrityError):
    """A staged question cannot be written; ``line`` is its line in the file."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


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
            self._writer.write(batch)
            self.written += len(batch)
            if progress is not None:
                progress(self.written)


#: each table's columns in the order of the model's fields, which is the order of the keys
#: of an audit snapshot (:func:`labeler.store.audit.snapshot`)
_FIELDS: dict[type[SQLModel], list[str]] = {
    model: list(model.model_fields) for model in (Query, Element, QuestionDone)
}
#: an aware datetime as the snapshot holds it (pydantic's JSON form: ``...Z``)
_TIME = TypeAdapter(datetime)

#: what an audit entry of a layer write records: the row it adds or removes
_QUERY_ADDED, _ELEMENT_REMOVED, _ELEMENT_ADDED, _MARK_REMOVED, _MARK_ADDED = range(5)
_REMOVALS = (_ELEMENT_REMOVED, _MARK_REMOVED)
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


def _stamp(value: object) -> object:
    return _TIME.dump_python(value, mode="json") if isinstance(value, datetime) else value


@dataclass
class _Plan:
    """What writing one question does: its stored id (None: it is created), the snapshots
    of the annotator's elements and done mark it removes, and whether it is marked done."""

    question: NewQuestion
    query_id: int | None
    gone: list[dict[str, Any]]
    unmarked: dict[str, Any] | None
    done: bool


class _Writer:
    def __init__(self, session: Session, gold_set_id: int, annotator: str) -> None:
        self.session = session
        self.gold_set_id = gold_set_id
        self.annotator = annotator
        self.role = role_of(session, annotator)
        self.now = utcnow()
        self.stamp = _stamp(self.now)
        # the store's front end, as mark_origin marks a snapshot: last, or not at all
        mark = mark_origin(session, {})
        assert mark is not None
        self.mark = mark
        self.counts = LayerCounts()
        self.ids = {name: _Ids(session, name) for name in ("query", "element", "question_done")}

    def write(self, batch: Sequence[NewQuestion]) -> None:
        plans = self._plans(batch)
        self._check_pages(plans)
        new_queries = iter(self.ids["query"].assign([None for p in plans if p.query_id is None]))
        new_elements = iter(
            self.ids["element"].assign(
                [
                    op
                    for p in plans
                    for op in [*(g["id"] for g in p.gone), *(None for _ in p.question.elements)]
                ]
            )
        )
        new_marks = iter(
            self.ids["question_done"].assign(
                [
                    op
                    for p in plans
                    for op in [
                        *([] if p.unmarked is None else [p.unmarked["id"]]),
                        *([None] if p.done else []),
                    ]
                ]
            )
        )
        queries: list[dict[str, Any]] = []
        elements: list[dict[str, Any]] = []
        marks: list[dict[str, Any]] = []
        gone: list[dict[str, Any]] = []  # the snapshots of the elements removed, in order
        unmarked: list[dict[str, Any]] = []  # and of the done marks removed
        # each audit entry in order: (entity, the row's id, what it did: _QUERY_ADDED...,
        # the index of its row or snapshot in the list of that kind)
        steps: list[tuple[str, int, int, int]] = []
        counts = self.counts
        for p in plans:
            q = p.question
            query_id = p.query_id
            if query_id is None:
                query_id = next(new_queries)
                steps.append(("query", query_id, _QUERY_ADDED, len(queries)))
                queries.append(self._query_row(query_id, q))
                counts.created += 1
            for row in p.gone:
                steps.append(("element", row["id"], _ELEMENT_REMOVED, len(gone)))
                gone.append(row)
            for e in q.elements:
                element_id = next(new_elements)
                steps.append(("element", element_id, _ELEMENT_ADDED, len(elements)))
                elements.append(self._element_row(element_id, query_id, e))
            if p.unmarked is not None:
                steps.append(("question_done", p.unmarked["id"], _MARK_REMOVED, len(unmarked)))
                unmarked.append(p.unmarked)
            if p.done:
                mark_id = next(new_marks)
                steps.append(("question_done", mark_id, _MARK_ADDED, len(marks)))
                marks.append(
                    {
                        "id": mark_id,
                        "query_id": query_id,
                        "annotator": self.annotator,
                        "done_at": self.now,
                        "no_answer": not q.elements,
                    }
                )
            counts.removed += len(p.gone)
            counts.added += len(q.elements)
            counts.done += p.done
            counts.no_answer += p.done and not q.elements
        # the snapshots' JSON text, as the JSON column stores it (see _json_texts)
        stamped = {"created_at": self.stamp}
        texts = (
            _json_texts(queries, {**stamped, **self.mark}),
            _json_texts(gone, {}),
            _json_texts(elements, {**stamped, **self.mark}),
            _json_texts(unmarked, {}),
            _json_texts(marks, {"done_at": self.stamp, **self.mark}),
        )
        session = self.session
        insert_dict_values(session, table_of(Query), queries)
        _delete(session, table_of(Element), [row["id"] for row in gone])
        insert_dict_values(session, table_of(Element), elements)
        _delete(session, table_of(QuestionDone), [row["id"] for row in unmarked])
        insert_dict_values(session, table_of(QuestionDone), marks)
        # the audit entries straight to the driver: their snapshots are JSON text already
        # (as the column's bind processor would make them), their time the bound form of
        # the import's one timestamp
        audit = table_of(AuditEntry)
        dialect = session.get_bind().dialect
        process = audit.c.at.type._cached_bind_processor(dialect)
        at = self.now if process is None else process(self.now)
        actor, role = self.annotator, self.role
        entries = [
            (
                entry_id,
                actor,
                at,
                "remove" if kind in _REMOVALS else "add",
                entity,
                row_id,
                texts[kind][index] if kind in _REMOVALS else "null",
                "null" if kind in _REMOVALS else texts[kind][index],
                role,
            )
            for (entity, row_id, kind, index), entry_id in zip(
                steps, new_ids(session, "audit_entry", len(steps)), strict=True
            )
        ]
        quote = dialect.identifier_preparer.quote
        insert_values(session, quote(audit.name), tuple(map(quote, _AUDIT_COLUMNS)), entries)
        for ids in self.ids.values():
            ids.written()

    def _plans(self, batch: Sequence[NewQuestion]) -> list[_Plan]:
        """The batch's questions as written (adjudicated ones that would change left out,
        counted in ``settled``; those that would not change counted as done as stored)."""
        stored = self._stored([q.external_id for q in batch])
        known = [query_id for query_id, _ in stored.values()]
        own = _rows_of(self.session, Element, known, self.annotator, self.mark, layered=True)
        marks = _rows_of(
            self.session, QuestionDone, known, self.annotator, self.mark, layered=False
        )
        plans = []
        for q in batch:
            assert q.done is not None, "a layer import stages each question's done flag"
            query_id, adjudicated = stored.get(q.external_id, (None, False))
            gone = own.get(query_id, []) if query_id is not None else []
            mark = marks.get(query_id, [None])[0] if query_id is not None else None
            if adjudicated:
                # Settled: the same labels and done mark again change nothing and pass;
                # anything else would change the evidence it was settled on (the lock).
                same = sorted(
                    (g["document_id"], g["start"], g["end"], g["grade"], _key(g)) for g in gone
                ) == sorted((e.doc, e.start, e.end, e.grade, e.key) for e in q.elements)
                if same and (mark is not None) == q.done:
                    self.counts.done += q.done
                    self.counts.no_answer += q.done and not q.elements
                else:
                    self.counts.settled.append((q.external_id, q.line))
                continue
            plans.append(_Plan(q, query_id, gone, mark, q.done))
        return plans

    def _stored(self, external_ids: list[str]) -> dict[str, tuple[int, bool]]:
        """External id → (id, adjudicated) of the stored questions among ``external_ids``."""
        found: dict[str, tuple[int, bool]] = {}
        table = _quoted(self.session, table_of(Query))
        with driver_cursor(self.session) as (cursor, mark):
            for part in _chunks(external_ids):
                cursor.execute(
                    f"SELECT external_id, id, adjudicated_at IS NOT NULL FROM {table} "
                    f"WHERE gold_set_id = {mark} AND external_id IN ({_marks(mark, part)})",
                    [self.gold_set_id, *part],
                )
                found.update(
                    {qid: (int(query_id), bool(settled)) for qid, query_id, settled in cursor}
                )
        return found

    def _check_pages(self, plans: list[_Plan]) -> None:
        """:class:`LineRefused` for the first element on a page no longer stored (removed
        since the file was checked), as labelling it would refuse it."""
        docs = sorted({e.doc for p in plans for e in p.question.elements})
        there: set[str] = set()
        table = _quoted(self.session, table_of(Document))
        with driver_cursor(self.session) as (cursor, mark):
            for part in _chunks(docs):
                cursor.execute(f"SELECT id FROM {table} WHERE id IN ({_marks(mark, part)})", part)
                there.update(doc for (doc,) in cursor)
        for p in plans:
            for e in p.question.elements:
                if e.doc not in there:
                    raise LineRefused(f"no document {e.doc!r} in the database", p.question.line)

    def _query_row(self, query_id: int, q: NewQuestion) -> dict[str, Any]:
        return {
            "id": query_id,
            "gold_set_id": self.gold_set_id,
            "external_id": q.external_id,
            "text": q.text,
            "notes": q.notes,
            "created_at": self.now,
            "adjudicated_at": None,
            "adjudicated_by": None,
        }

    def _element_row(self, element_id: int, query_id: int, e: NewElement) -> dict[str, Any]:
        return {
            "id": element_id,
            "query_id": query_id,
            "document_id": e.doc,
            "start": e.start,
            "end": e.end,
            "text": e.text,
            "grade": e.grade,
            "annotator": self.annotator,
            "created_at": self.now,
            "status": ELEMENT_OK,
            "assisted": e.assisted,
            "layer": LAYER_ANNOTATOR,
            "provenance": PROVENANCE_OWN,
            "key_start": None if e.key is None else e.key[0],
            "key_end": None if e.key is None else e.key[1],
        }


def _rows_of(
    session: Session,
    model: type[Element] | type[QuestionDone],
    query_ids: list[int],
    annotator: str,
    mark: dict[str, Any],
    *,
    layered: bool,
) -> dict[int, list[dict[str, Any]]]:
    """Question id → ``annotator``'s rows of ``model`` on it (the annotator layer's
    elements when ``layered``), each as its audit snapshot (``mark``: the front end's, as
    :func:`~labeler.store.audit.mark_origin` adds it), elements by page and start (the
    order labelling's removal takes them in: :func:`labeler.store.team.own_elements`)."""
    table = table_of(model)
    names = _FIELDS[model]
    out: dict[int, list[dict[str, Any]]] = {}
    # Read through the driver, each value then made what SQLAlchemy's result processing
    # makes it (SQLite: a boolean's 0 or 1 a bool, a timestamp's text a datetime). A
    # timestamp is made the snapshot's text once per distinct value read: a replaced
    # layer's rows share the few timestamps of the imports that wrote them.
    stamps: dict[object, object] = {}
    dialect = session.get_bind().dialect
    processors = [table.c[name].type._cached_result_processor(dialect, None) for name in names]
    times = [i for i, name in enumerate(names) if name in ("created_at", "done_at")]
    typed = [(i, p) for i, p in enumerate(processors) if p is not None and i not in times]
    at = names.index("query_id")
    quote = dialect.identifier_preparer.quote
    select_list = ", ".join(map(quote, names))
    order = ("query_id", "document_id", "start", "id") if layered else ("id",)
    with driver_cursor(session) as (cursor, param):
        for part in _chunks(query_ids):
            where = f"query_id IN ({_marks(param, part)}) AND annotator = {param}"
            args: list[object] = [*part, annotator]
            if layered:
                where += f" AND layer = {param}"
                args.append(LAYER_ANNOTATOR)
            cursor.execute(
                f"SELECT {select_list} FROM {quote(table.name)} WHERE {where} "
                f"ORDER BY {', '.join(map(quote, order))}",
                args,
            )
            for row in cursor.fetchall():
                values = list(row)
                for i in times:
                    value = values[i]
                    stamp = stamps.get(value)
                    if stamp is None:
                        process = processors[i]
                        stamp = _stamp(value if process is None else process(value))
                        stamps[value] = stamp
                    values[i] = stamp
                for i, process in typed:
                    values[i] = process(values[i])
                snap = dict(zip(names, values, strict=True))
                snap.update(mark)
                out.setdefault(int(row[at]), []).append(snap)
    return out


def _json_texts(rows: list[dict[str, Any]], same: dict[str, Any]) -> list[str]:
    """For each of ``rows`` (dicts with the same keys in the same order), the text
    ``json.dumps({**row, **same})`` gives, which is what the audit log's JSON column stores
    for it (SQLAlchemy's default serialiser, as :func:`~labeler.store.run_table.insert_dicts`
    applies it): ``", "`` and ``": "`` as separators, non-ASCII characters escaped.

    Built column by column: each key's values are written as JSON at once (a string by
    :func:`json.encoder.encode_basestring_ascii`, an ``int`` by its ``repr``, both as the
    encoder does; anything else by :func:`json.dumps` itself), ``same``'s values once, and
    each row is one ``%`` format of a template holding the keys and ``same``'s values. A
    large layer import writes several snapshots per question: one ``json.dumps`` of a
    fresh dict for each cost more than the insert of the row."""
    if not rows:
        return []
    keys = list(dict.fromkeys([*rows[0], *same]))
    varying = [key for key in keys if key not in same]
    parts = [
        encode_basestring_ascii(key)
        + ": "
        + (dumps(same[key]).replace("%", "%%") if key in same else "%s")
        for key in keys
    ]
    template = "{" + ", ".join(parts) + "}"
    if not varying:
        return [template.replace("%%", "%")] * len(rows)
    columns = [_json_values([row[key] for row in rows]) for key in varying]
    return [template % values for values in zip(*columns, strict=True)]


def _json_values(values: list[Any]) -> list[str]:
    """Each of ``values`` as :func:`json.dumps` writes it (the kinds a row holds at once)."""
    kinds = set(map(type, values))
    if kinds == {int}:
        return list(map(int.__repr__, values))
    if kinds == {str}:
        return list(map(encode_basestring_ascii, values))
    if kinds == {bool}:
        return ["true" if v else "false" for v in values]
    if kinds <= {int, type(None)}:
        return ["null" if v is None else int.__repr__(v) for v in values]
    return list(map(_json_value, values))


def _json_value(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return encode_basestring_ascii(value)
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    return "null" if value is None else dumps(value)


def _key(row: dict[str, Any]) -> tuple[int, int] | None:
    if row["key_start"] is None or row["key_end"] is None:
        return None
    return (row["key_start"], row["key_end"])


def _delete(session: Session, table: Table, ids: list[int]) -> None:
    name = _quoted(session, table)
    with driver_cursor(session) as (cursor, mark):
        for part in _chunks(ids):
            cursor.execute(f"DELETE FROM {name} WHERE id IN ({_marks(mark, part)})", part)


def _quoted(session: Session, table: Table) -> str:
    """``table``'s name as the dialect quotes it (``"query"``)."""
    return str(session.get_bind().dialect.identifier_preparer.quote(table.name))


def _chunks(values: Sequence[Any]) -> list[Sequence[Any]]:
    """``values`` in pieces of :data:`_CHUNK` (under SQLite's bound-parameter limit)."""
    return [values[i : i + _CHUNK] for i in range(0, len(values), _CHUNK)]


def _marks(mark: str, part: Sequence[Any]) -> str:
    """One parameter ``mark`` per value of ``part``, comma-separated."""
    return ", ".join([mark] * len(part))


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
