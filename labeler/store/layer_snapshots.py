"""The audit snapshots of a layer import's write (:mod:`labeler.store.layer_write`) as the
JSON text the audit log stores, built column by column, and the annotator's earlier rows
read with their snapshots.

A large layer import writes several snapshots per question: one ``json.dumps`` of a fresh
dict for each cost more than the insert of the row, and so did a dict per row read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from json import dumps
from json.encoder import encode_basestring_ascii
from typing import Any, NamedTuple

from pydantic import TypeAdapter
from sqlmodel import Session, SQLModel

from labeler.store.goldsets import table_of
from labeler.store.models import LAYER_ANNOTATOR, Element, Query, QuestionDone
from labeler.store.run_table import driver_cursor

#: ids per ``IN (...)`` list: under SQLite's bound-parameter limit
CHUNK = 500

#: each table's columns in the order of the model's fields, which is the order of the keys
#: of an audit snapshot (:func:`labeler.store.audit.snapshot`)
FIELDS: dict[type[SQLModel], list[str]] = {
    model: list(model.model_fields) for model in (Query, Element, QuestionDone)
}
#: an aware datetime as the snapshot holds it (pydantic's JSON form: ``...Z``)
_TIME = TypeAdapter(datetime)
#: the columns whose values a snapshot holds as :func:`stamp` makes them
_TIMES = ("created_at", "done_at")


def stamp(value: object) -> object:
    """``value`` as an audit snapshot holds it: a datetime as pydantic's JSON text."""
    return _TIME.dump_python(value, mode="json") if isinstance(value, datetime) else value


class Old(NamedTuple):
    """One of the annotator's stored rows that a layer import removes: its id, its audit
    snapshot as JSON text, and its values (in :data:`FIELDS` order, as SQLAlchemy reads
    them, timestamps as :func:`stamp` makes them)."""

    id: int
    snapshot: str
    values: tuple[Any, ...]


def old_rows(
    session: Session,
    model: type[Element] | type[QuestionDone],
    query_ids: list[int],
    annotator: str,
    mark: dict[str, Any],
    *,
    layered: bool,
) -> dict[int, list[Old]]:
    """Question id → ``annotator``'s rows of ``model`` on it (the annotator layer's
    elements when ``layered``), each with its audit snapshot (``mark``: the front end's, as
    :func:`~labeler.store.audit.mark_origin` adds it, last), elements by page and start (the
    order labelling's removal takes them in: :func:`labeler.store.team.own_elements`)."""
    table = table_of(model)
    names = FIELDS[model]
    out: dict[int, list[Old]] = {}
    # Read through the driver, each value then made what SQLAlchemy's result processing
    # makes it (SQLite: a boolean's 0 or 1 a bool, a timestamp's text a datetime). A
    # timestamp is made the snapshot's text once per distinct value read: a replaced
    # layer's rows share the few timestamps of the imports that wrote them.
    stamps: dict[object, object] = {}
    dialect = session.get_bind().dialect
    processors = [table.c[name].type._cached_result_processor(dialect, None) for name in names]
    at, key = names.index("query_id"), names.index("id")
    quote = dialect.identifier_preparer.quote
    select_list = ", ".join(map(quote, names))
    order = ("query_id", "document_id", "start", "id") if layered else ("id",)
    with driver_cursor(session) as (cursor, param):
        for part in chunks(query_ids):
            where = f"query_id IN ({marks(param, part)}) AND annotator = {param}"
            args: list[object] = [*part, annotator]
            if layered:
                where += f" AND layer = {param}"
                args.append(LAYER_ANNOTATOR)
            cursor.execute(
                f"SELECT {select_list} FROM {quote(table.name)} WHERE {where} "
                f"ORDER BY {', '.join(map(quote, order))}",
                args,
            )
            rows = cursor.fetchall()
            if not rows:
                continue
            columns: list[list[Any]] = []
            for name, process, column in zip(
                names, processors, zip(*rows, strict=True), strict=True
            ):
                if name in _TIMES:
                    values: list[Any] = []
                    for value in column:
                        made = stamps.get(value, stamps)  # (the dict: no value read yet)
                        if made is stamps:
                            made = stamps[value] = stamp(
                                value if process is None else process(value)
                            )
                        values.append(made)
                    columns.append(values)
                else:
                    columns.append(list(column if process is None else map(process, column)))
            texts = json_columns(names, dict(zip(names, columns, strict=True)), mark)
            for row, text in zip(zip(*columns, strict=True), texts, strict=True):
                out.setdefault(int(row[at]), []).append(Old(int(row[key]), text, row))
    return out


def json_columns(
    keys: Sequence[str], columns: dict[str, list[Any]], same: dict[str, Any]
) -> list[str]:
    """For each row of ``columns`` (key → its values, every list as long), the text
    ``json.dumps`` gives for the dict of ``keys`` in order (then those of ``same`` not among
    them), each key's value from ``same`` when it is there, else from ``columns``: what the
    audit log's JSON column stores for that snapshot (SQLAlchemy's default serialiser, as
    :func:`~labeler.store.run_table.insert_dicts` applies it): ``", "`` and ``": "`` as
    separators, non-ASCII characters escaped.

    Each key's values are written as JSON at once (a string by
    :func:`json.encoder.encode_basestring_ascii`, an ``int`` by its ``repr``, both as the
    encoder does; anything else by :func:`json.dumps` itself), ``same``'s values once, and
    each row is one ``%`` format of a template holding the keys and ``same``'s values."""
    keys = list(dict.fromkeys([*keys, *same]))
    varying = [key for key in keys if key not in same]
    parts = [
        encode_basestring_ascii(key)
        + ": "
        + (dumps(same[key]).replace("%", "%%") if key in same else "%s")
        for key in keys
    ]
    template = "{" + ", ".join(parts) + "}"
    if not varying:
        rows = len(next(iter(columns.values()))) if columns else 0
        return [template.replace("%%", "%")] * rows
    texts = [_json_values(columns[key]) for key in varying]
    return [template % values for values in zip(*texts, strict=True)]


def json_texts(rows: list[dict[str, Any]], same: dict[str, Any]) -> list[str]:
    """For each of ``rows`` (dicts with the same keys in the same order), the text
    ``json.dumps({**row, **same})`` gives (see :func:`json_columns`)."""
    if not rows:
        return []
    keys = list(rows[0])
    return json_columns(keys, {key: [row[key] for row in rows] for key in keys}, same)


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


def chunks(values: Sequence[Any]) -> list[Sequence[Any]]:
    """``values`` in pieces of :data:`CHUNK` (under SQLite's bound-parameter limit)."""
    return [values[i : i + CHUNK] for i in range(0, len(values), CHUNK)]


def marks(mark: str, part: Sequence[Any]) -> str:
    """One parameter ``mark`` per value of ``part``, comma-separated."""
    return ", ".join([mark] * len(part))
