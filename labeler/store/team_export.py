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

from sqlalchemy import select as sa_select
from sqlalchemy import text as sql_text
from sqlmodel import Session, col

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
    #: key span in page offsets (schema 8), both None without one
    key_start: int | None = None
    key_end: int | None = None


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
    # lean rows, not ORM objects: an export of a large gold set stays fast
    stmt = (
        sa_select(
            col(Element.id),
            col(Element.query_id),
            col(Element.document_id),
            col(Element.start),
            col(Element.end),
            col(Element.text),
            col(Element.grade),
            col(Element.status),
            col(Element.layer),
            col(Element.annotator),
            col(Element.provenance),
            col(Element.assisted),
            col(Element.key_start),
            col(Element.key_end),
        )
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(col(Query.gold_set_id) == gs.id)
        .order_by(col(Element.query_id), col(Element.id))
    )
    if kind == LAYER_FINAL:
        stmt = stmt.where(col(Element.layer) == LAYER_FINAL)
    elif kind == LAYER_ANNOTATOR:
        stmt = stmt.where(col(Element.layer) == LAYER_ANNOTATOR, col(Element.annotator) == who)
    rows = session.execute(stmt).all()
    final = {(r.query_id, r.document_id, r.start, r.end) for r in rows if r.layer == LAYER_FINAL}
    if kind == LAYER_ANNOTATOR:  # "accepted" needs the final spans too
        final = {
            (q, d, s, e)
            for q, d, s, e in session.execute(
                sa_select(
                    col(Element.query_id),
                    col(Element.document_id),
                    col(Element.start),
                    col(Element.end),
                )
                .join(Query, col(Query.id) == col(Element.query_id))
                .where(col(Query.gold_set_id) == gs.id, col(Element.layer) == LAYER_FINAL)
            ).all()
        }
    by_query: dict[int, list[LayerElement]] = {}
    # final elements first, then each annotator's (by name), each in label order
    for r in sorted(
        rows, key=lambda r: (r.layer != LAYER_FINAL, _owner(r.layer, r.annotator), r.id)
    ):
        key = (r.query_id, r.document_id, r.start, r.end)
        by_query.setdefault(r.query_id, []).append(
            LayerElement(
                r.document_id,
                r.start,
                r.end,
                r.text,
                r.grade,
                r.status != ELEMENT_OK,
                r.layer,
                r.annotator,
                r.provenance,
                bool(r.assisted),
                None if r.layer == LAYER_FINAL else key in final,
                r.key_start,
                r.key_end,
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


def _owner(layer: str, annotator: str) -> str:
    return "" if layer == LAYER_FINAL else annotator
