"""Not-relevant judgements: a page region read for a question and found to hold no answer.

A judgement (:class:`~labeler.store.models.NotRelevant`, schema version 13) is written like an
element: into the layer the annotator labels (:func:`labeler.store.team.view_of`: their own
annotator layer in a team gold set, blind to others until adjudicated; the final layer
otherwise), refused on an adjudicated question (the adjudicated lock,
:func:`labeler.store.settled.check_not_settled`), audited as entity ``not_relevant`` with full
snapshots, so the actor's undo and redo reverse it (:mod:`labeler.store.history`).

Reads: :func:`visible_judgements` (what one annotator may see of a question's judgements,
the blind rule of elements) and :func:`judged_ranges` (every range of a gold set's questions
that someone judged: their elements of any layer and their judgements, for pooling and
``judged@k``: *was it ever looked at*, not *is it gold*).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import bindparam
from sqlalchemy import text as sql_text
from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.audit import add_audited, remove_audited
from labeler.store.document_table import get_document
from labeler.store.models import ELEMENT_OK, LAYER_ANNOTATOR, NotRelevant, Query
from labeler.store.rows import JUDGED_BATCH, JUDGED_RANGES_SQL, group_ranges
from labeler.store.settled import check_not_settled
from labeler.store.team import view_of

#: the audit log's entity name of a judgement
ENTITY = "not_relevant"


@dataclass(frozen=True)
class JudgementRow:
    """One not-relevant judgement as front ends show it."""

    id: int
    query_id: int
    document_id: str
    start: int
    end: int
    annotator: str
    layer: str


def judgement_row(row: NotRelevant) -> JudgementRow:
    """The front ends' value of a stored judgement."""
    assert row.id is not None
    return JudgementRow(
        row.id, row.query_id, row.document_id, row.start, row.end, row.annotator, row.layer
    )


def add_not_relevant(
    session: Session, query_id: int, document_id: str, start: int, end: int, *, annotator: str
) -> NotRelevant:
    """Judge ``page[start:end]`` not relevant to question ``query_id`` as ``annotator``, in
    the layer they label; audited as ``add``.

    Refused: an unknown question or page (:class:`NotFoundError`); offsets that are not
    ``0 <= start < end <= len(page)`` or the same region judged by the same annotator in the
    same layer already (:class:`IntegrityError`); an adjudicated question
    (:class:`~labeler.errors.SettledError`).
    """
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    page = get_document(session, document_id)
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end))
    if not ints or not 0 <= start < end <= len(page.text):
        raise IntegrityError(
            f"{query.external_id}: {document_id} {start}–{end} is not a region of the page "
            f"(0 <= start < end <= {len(page.text)})"
        )
    check_not_settled(session, query_id, "a not-relevant judgement")
    layer = view_of(session, query_id, annotator).layer
    same = session.exec(
        select(NotRelevant.id).where(
            NotRelevant.query_id == query_id,
            NotRelevant.document_id == document_id,
            NotRelevant.start == start,
            NotRelevant.end == end,
            NotRelevant.layer == layer,
            NotRelevant.annotator == annotator,
        )
    ).first()
    if same is not None:
        raise IntegrityError(
            f"{query.external_id}: {document_id} {start}–{end} is judged not relevant by "
            f"{annotator} already"
        )
    row = NotRelevant(
        query_id=query_id,
        document_id=document_id,
        start=start,
        end=end,
        annotator=annotator,
        layer=layer,
    )
    add_audited(session, row, actor=annotator, entity=ENTITY)
    return row


def remove_not_relevant(session: Session, judgement_id: int, *, actor: str) -> None:
    """Withdraw judgement ``judgement_id`` (audited as ``remove``): :class:`NotFoundError`
    when it is gone or ``actor`` may not see it (another annotator's blind judgement), the
    adjudicated lock as for an element."""
    row = session.get(NotRelevant, judgement_id)
    missing = f"no not-relevant judgement with id {judgement_id} in the database"
    if row is None:
        raise NotFoundError(missing)
    # settled first, as for an element (own_layer.check_editable): an annotator whose own
    # judgement a settlement hid learns that, not that it is gone
    check_not_settled(session, row.query_id, "removing a not-relevant judgement")
    if not _sees(session, row, actor):
        raise NotFoundError(missing)
    remove_audited(session, row, actor=actor, entity=ENTITY)


def _sees(session: Session, row: NotRelevant, annotator: str) -> bool:
    view = view_of(session, row.query_id, annotator)
    if view.layer == LAYER_ANNOTATOR:
        return row.layer == LAYER_ANNOTATOR and row.annotator == annotator
    return row.layer == view.layer


def visible_judgements(session: Session, query_id: int, annotator: str) -> list[NotRelevant]:
    """The judgements of question ``query_id`` that ``annotator`` may see (their own in a
    team question not adjudicated yet, else the final layer's), by page and start."""
    view = view_of(session, query_id, annotator)
    stmt = select(NotRelevant).where(
        NotRelevant.query_id == query_id, NotRelevant.layer == view.layer
    )
    if view.layer == LAYER_ANNOTATOR:
        stmt = stmt.where(NotRelevant.annotator == annotator)
    order = (col(NotRelevant.document_id), col(NotRelevant.start), col(NotRelevant.id))
    return list(session.exec(stmt.order_by(*order)).all())


def gold_set_judgements(session: Session, gold_set_id: int) -> dict[str, list[NotRelevant]]:
    """Question external id → every judgement of the gold set's question (all layers), by
    page, start and id (what export writes)."""
    stmt = (
        select(Query.external_id, NotRelevant)
        .join(NotRelevant, col(NotRelevant.query_id) == col(Query.id))
        .where(Query.gold_set_id == gold_set_id)
        .order_by(col(NotRelevant.document_id), col(NotRelevant.start), col(NotRelevant.id))
    )
    out: dict[str, list[NotRelevant]] = {}
    for external_id, row in session.exec(stmt).all():
        out.setdefault(external_id, []).append(row)
    return out


Ranges = dict[str, dict[str, list[tuple[int, int]]]]
"""Question external id → page id → judged ``(start, end)`` ranges."""


def judged_ranges(session: Session, gold_set_id: int, external_ids: Iterable[str] = ()) -> Ranges:
    """Every range someone judged for the gold set's questions (only ``external_ids`` when
    given): the spans of its elements of every layer that are not stale (relevant) and its
    not-relevant judgements of every layer (:data:`~labeler.store.rows.JUDGED_RANGES_SQL`,
    the query the scoring readers run too). Unsorted, may overlap."""
    wanted = sorted(set(external_ids))
    values: dict[str, object] = {"g": gold_set_id, "ok": ELEMENT_OK}
    if not wanted:  # every question of the set
        ids = "(SELECT external_id FROM query WHERE gold_set_id = :g)"
        sql = JUDGED_RANGES_SQL.format(gold_set=":g", ok=":ok", ids=ids)
        return group_ranges(_rows(session.execute(sql_text(sql), values).all()))
    stmt = sql_text(JUDGED_RANGES_SQL.format(gold_set=":g", ok=":ok", ids=":ids"))
    stmt = stmt.bindparams(bindparam("ids", expanding=True))
    rows: list[tuple[str, str, int, int]] = []
    for i in range(0, len(wanted), JUDGED_BATCH):
        part = wanted[i : i + JUDGED_BATCH]
        rows += _rows(session.execute(stmt, {**values, "ids": part}).all())
    return group_ranges(rows)


def _rows(rows: Sequence[Any]) -> list[tuple[str, str, int, int]]:
    return cast("list[tuple[str, str, int, int]]", list(rows))
