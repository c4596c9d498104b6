"""A gold set's layers read out for ``gold export --layer final|all|annotator:NAME``.

* ``final``: every question (none is ever left out), its final-layer elements; ``pending``
  marks a question scoring leaves out (team work, not adjudicated).
* ``all``: every question with the elements of both layers: final ones (their provenance
  and, unless ``single``, who made them final) and each annotator's own labels, with
  whether the same span is final too (``accepted``); plus who marked it done and its
  adjudication.
* ``annotator:NAME``: the questions NAME labelled or marked done, with NAME's own labels
  and whether NAME marked the question done.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import text as sql_text
from sqlmodel import Session, col, select

from labeler.errors import UsageError
from labeler.store.labels import get_gold_set
from labeler.store.models import ELEMENT_OK, LAYER_ANNOTATOR, LAYER_FINAL, Element, Query
from labeler.store.rows import PENDING_SQL
from labeler.store.team import done_marks

LAYER_ALL = "all"
ANNOTATOR_PREFIX = "annotator:"


@dataclass(frozen=True)
class LayerElement:
    """One element as an export writes it (``accepted``: an annotator-layer span that is in
    the final layer too; None for a final element)."""

    doc: str
    start: int
    end: int
    text: str
    grade: int
    stale: bool
    layer: str
    annotator: str
    provenance: str
    assisted: bool
    accepted: bool | None


@dataclass(frozen=True)
class LayerQuestion:
    """One question as an export writes it (see the module docstring)."""

    external_id: str
    text: str
    notes: str
    elements: tuple[LayerElement, ...]
    pending: bool
    adjudicated: bool
    adjudicated_by: str | None
    done_by: tuple[str, ...]


def parse_layer(value: str) -> tuple[str, str | None]:
    """``final`` / ``all`` / ``annotator:NAME`` → (kind, NAME or None); :class:`UsageError`
    otherwise."""
    if value in (LAYER_FINAL, LAYER_ALL):
        return value, None
    if value.startswith(ANNOTATOR_PREFIX) and value[len(ANNOTATOR_PREFIX) :].strip():
        return LAYER_ANNOTATOR, value[len(ANNOTATOR_PREFIX) :].strip()
    raise UsageError(f"--layer must be final, all or annotator:NAME, got {value!r}")


def export_layers(session: Session, name: str, layer: str = LAYER_FINAL) -> Iterator[LayerQuestion]:
    """Questions of gold set ``name`` (in the order added) for ``--layer`` value ``layer``,
    elements by layer, annotator and label order."""
    kind, who = parse_layer(layer)
    gs = get_gold_set(session, name)
    assert gs.id is not None
    queries = session.execute(
        sql_text(
            "SELECT q.id, q.external_id, q.text, q.notes, q.adjudicated_at, q.adjudicated_by, "
            f"{PENDING_SQL} FROM query q JOIN gold_set g ON g.id = q.gold_set_id "
            "WHERE q.gold_set_id = :g ORDER BY q.id"
        ),
        {"g": gs.id},
    ).all()
    stmt = (
        select(Element)
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(Query.gold_set_id == gs.id)
        .order_by(col(Element.query_id), col(Element.id))
    )
    if kind == LAYER_FINAL:
        stmt = stmt.where(Element.layer == LAYER_FINAL)
    elif kind == LAYER_ANNOTATOR:
        stmt = stmt.where(Element.layer == LAYER_ANNOTATOR, Element.annotator == who)
    rows = session.exec(stmt).all()
    final = {(e.query_id, e.document_id, e.start, e.end) for e in rows if e.layer == LAYER_FINAL}
    if kind == LAYER_ANNOTATOR:  # "accepted" needs the final spans too
        final = {
            (q, d, s, e)
            for q, d, s, e in session.execute(
                select(
                    col(Element.query_id),
                    col(Element.document_id),
                    col(Element.start),
                    col(Element.end),
                )
                .join(Query, col(Query.id) == col(Element.query_id))
                .where(Query.gold_set_id == gs.id, Element.layer == LAYER_FINAL)
            ).all()
        }
    by_query: dict[int, list[LayerElement]] = {}
    # final elements first, then each annotator's (by name), each in label order
    for e in sorted(rows, key=lambda e: (e.layer != LAYER_FINAL, _owner(e), e.id or 0)):
        key = (e.query_id, e.document_id, e.start, e.end)
        by_query.setdefault(e.query_id, []).append(
            LayerElement(
                e.document_id,
                e.start,
                e.end,
                e.text,
                e.grade,
                e.status != ELEMENT_OK,
                e.layer,
                e.annotator,
                e.provenance,
                e.assisted,
                None if e.layer == LAYER_FINAL else key in final,
            )
        )
    done = done_marks(session, gs.id)
    for qid, external_id, text, notes, at, by, pending in queries:
        done_by = tuple(sorted(done.get(qid, {})))
        if kind == LAYER_ANNOTATOR and who not in done_by and qid not in by_query:
            continue
        yield LayerQuestion(
            external_id,
            text,
            notes,
            tuple(by_query.get(qid, ())),
            bool(pending),
            at is not None,
            by,
            done_by,
        )


def _owner(element: Element) -> str:
    return "" if element.layer == LAYER_FINAL else element.annotator
