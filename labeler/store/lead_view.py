"""What the lead's view of a team gold set is computed from (``labeler gold progress``, the
adjudication screen's panel): read here, in one read-only transaction; computed by
:func:`labeler.report.lead_view`, which knows nothing of the database.

Gathered for gold set ``NAME``:

* its progress (:func:`labeler.store.assign.team_progress`);
* every annotator's *work events*, from the audit log: one per entry whose actor is the
  annotator and which is about their own work on a question of this set that still exists,
  namely an element of their own annotator layer (``label``: an ordinary addition, kind
  ``do``; ``edit``: any other change, removal, undo or redo of one) or their done mark
  (``done``: the mark added, kind ``do``; ``edit``: removed, undone, redone). What the lead
  does in the final layer, assignments and adjudication marks are not an annotator's work
  and are left out, as are entries by someone else about an annotator's layer (a lead
  importing it for them);
* the questions each annotator has marked done (current marks);
* every *settled* (adjudicated) question: its final layer's spans (not stale) and, for each
  annotator who marked it done, their own spans (not stale), with each cited page's length
  in code points.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from labeler.store.agreement_input import done_labels_of
from labeler.store.assign import TeamProgress, team_progress
from labeler.store.audit import _snapshot_int
from labeler.store.labels import get_gold_set
from labeler.store.models import (
    AUDIT_DO,
    ELEMENT_OK,
    LAYER_ANNOTATOR,
    LAYER_FINAL,
    AuditEntry,
    Document,
    Element,
    Query,
    QuestionDone,
)
from scoring.agreement import Span

#: work event kinds (see the module docstring)
EVENT_LABEL = "label"
EVENT_DONE = "done"
EVENT_EDIT = "edit"


@dataclass(frozen=True)
class WorkEvent:
    """One audited change an annotator made to their own work: when, on which question
    (external id), and what (``label``, ``done`` or ``edit``)."""

    annotator: str
    at: datetime
    query_id: str
    kind: str


@dataclass(frozen=True)
class SettledQuestion:
    """An adjudicated question: its final spans and the own spans of each annotator who
    marked it done (done with nothing: an empty set)."""

    query_id: str
    final: frozenset[Span]
    annotators: dict[str, frozenset[Span]]


@dataclass(frozen=True)
class LeadInput:
    """Everything :func:`labeler.report.lead_view` needs (see the module docstring).

    ``events`` in audit order (oldest first); ``done`` maps each annotator to the questions
    they have marked done; ``page_lengths`` covers every page a settled question's spans
    cite."""

    progress: TeamProgress
    events: tuple[WorkEvent, ...]
    done: dict[str, frozenset[str]]
    settled: tuple[SettledQuestion, ...]
    page_lengths: dict[str, int]


def lead_input(session: Session, gold_set_name: str) -> LeadInput:
    """Read :class:`LeadInput` for gold set ``gold_set_name`` in the caller's session;
    :class:`~labeler.errors.NotFoundError` naming the known sets for an unknown name."""
    gs = get_gold_set(session, gold_set_name)
    assert gs.id is not None
    progress = team_progress(session, gold_set_name)

    entries = session.execute(
        sa_select(
            col(AuditEntry.actor),
            col(AuditEntry.at),
            col(AuditEntry.action),
            col(AuditEntry.kind),
            col(AuditEntry.entity),
            col(AuditEntry.after),
            col(AuditEntry.before),
            col(Query.external_id),
        )
        .join(Query, col(Query.id) == _snapshot_int("query_id"))
        .where(
            col(Query.gold_set_id) == gs.id,
            col(AuditEntry.entity).in_(("element", "question_done")),
        )
        .order_by(col(AuditEntry.id))
    ).all()
    events: list[WorkEvent] = []
    for actor, at, action, kind, entity, after, before, external_id in entries:
        data = after or before or {}
        if data.get("annotator") != actor:
            continue  # someone else's entry about this layer (an import for them)
        if entity == "element" and data.get("layer") != LAYER_ANNOTATOR:
            continue  # the final layer: adjudication, not an annotator's labelling
        first = action == "add" and kind == AUDIT_DO
        if entity == "element":
            what = EVENT_LABEL if first else EVENT_EDIT
        else:
            what = EVENT_DONE if first else EVENT_EDIT
        events.append(WorkEvent(actor, at, external_id, what))

    done: dict[str, set[str]] = {}
    for external_id, annotator in session.execute(
        sa_select(col(Query.external_id), col(QuestionDone.annotator))
        .join(QuestionDone, col(QuestionDone.query_id) == col(Query.id))
        .where(col(Query.gold_set_id) == gs.id)
    ).all():
        done.setdefault(annotator, set()).add(external_id)

    settled_ids = dict(
        session.execute(
            sa_select(col(Query.id), col(Query.external_id))
            .where(col(Query.gold_set_id) == gs.id, col(Query.adjudicated_at).is_not(None))
            .order_by(col(Query.id))
        ).all()
    )
    final: dict[int, set[Span]] = {qid: set() for qid in settled_ids}
    if settled_ids:
        for query_id, page, start, end in session.execute(
            sa_select(
                col(Element.query_id),
                col(Element.document_id),
                col(Element.start),
                col(Element.end),
            ).where(
                col(Element.query_id).in_(sorted(settled_ids)),
                col(Element.layer) == LAYER_FINAL,
                col(Element.status) == ELEMENT_OK,
            )
        ).all():
            final[query_id].add(Span(page, start, end))
    labels = done_labels_of(session, gs)
    settled = tuple(
        SettledQuestion(
            external_id,
            frozenset(final[qid]),
            dict(labels.questions.get(external_id, {})),
        )
        for qid, external_id in settled_ids.items()
    )
    lengths = dict(labels.page_lengths)
    missing = sorted({s.page for q in settled for s in q.final} - set(lengths))
    if missing:
        lengths.update(
            {
                doc_id: int(length)
                for doc_id, length in session.execute(
                    sa_select(col(Document.id), func.char_length(col(Document.text))).where(
                        col(Document.id).in_(missing)
                    )
                ).all()
            }
        )
    return LeadInput(
        progress,
        tuple(events),
        {name: frozenset(found) for name, found in sorted(done.items())},
        settled,
        lengths,
    )
