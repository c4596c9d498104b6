"""What the adjudication screen reads and writes: its queue and the adjudicator's edits.

Queue (:func:`adjudication_queue`): the questions of a team gold set that two or more
annotators marked done and that are not adjudicated, lowest agreement first, as
:meth:`scoring.agreement.Agreement.worst_questions` orders them (by Krippendorff's α on
characters, undefined α last, then exact F1, then partial F1; ties keep creation order).
Only done annotators' annotator-layer labels count (as in
:func:`labeler.store.adjudication.question_spans`); stale labels (their page changed under
them) are left out of the figures, as ``labeler agreement`` leaves them out.

Edits, each one audited entry and so undoable one at a time by the adjudicator
(:mod:`labeler.store.history`): accept a span into the final layer
(:func:`labeler.store.team.accept_span`), accept every unanimous span
(:func:`accept_unanimous`: one entry per span), move an accepted span's boundaries
(:func:`adjust_final`: one ``change``), remove or grade a final element
(:mod:`labeler.store.labels`, :mod:`labeler.store.annotate`) and mark the question
adjudicated (:func:`labeler.store.team.set_adjudicated`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store.adjudication import QuestionSpans, SpanGroup, question_spans
from labeler.store.agreement_input import DoneLabels, done_labels_of
from labeler.store.annotate import ElementRow, change_element, element_row
from labeler.store.audit import missing_element
from labeler.store.labels import duplicate_message
from labeler.store.models import (
    LAYER_FINAL,
    PROVENANCE_UNANIMOUS,
    Document,
    Element,
    GoldSet,
    Query,
)
from labeler.store.team import accept_span, is_team
from scoring.agreement import AgreementInput, agreement


@dataclass(frozen=True)
class WaitingQuestion:
    """A question of the adjudication screen's list, with its agreement figures (see
    :mod:`scoring.agreement`; ``char_alpha`` None when undefined; all three None for a
    settled question fewer than two annotators marked done). ``settled_by`` and
    ``settled_at``: who settled it and when, for a settled question (listed only when asked
    for: :func:`adjudication_queue` with ``settled``); None while it waits."""

    query_id: int
    external_id: str
    text: str
    done_by: tuple[str, ...]
    exact_f1: float | None
    partial_f1: float | None
    char_alpha: float | None
    settled_by: str | None = None
    settled_at: datetime | None = None

    @property
    def settled(self) -> bool:
        return self.settled_at is not None


def adjudication_queue(
    session: Session, gold_set_id: int, *, settled: bool = False
) -> list[WaitingQuestion]:
    """The questions of gold set ``gold_set_id`` waiting for adjudication, lowest
    agreement first (module docstring); empty outside team gold sets. With ``settled``,
    the settled (adjudicated) questions follow, in question order, each with who settled it
    and when (what the screen's ``s`` shows, so that one can be reopened)."""
    if not is_team(session, gold_set_id):
        return []
    rows = session.exec(
        select(Query).where(Query.gold_set_id == gold_set_id).order_by(col(Query.id))
    ).all()
    open_questions = {q.id: q for q in rows if q.adjudicated_at is None}
    gold_set = session.get(GoldSet, gold_set_id)
    assert gold_set is not None
    labels = done_labels_of(session, gold_set)
    by_external = {q.external_id: q for q in open_questions.values()}
    questions = {
        external_id: by
        for external_id, by in labels.questions.items()
        if external_id in by_external and len(by) >= 2
    }
    out: list[WaitingQuestion] = []
    if questions:
        result = agreement(AgreementInput(questions=questions, page_lengths=labels.page_lengths))
        for row in result.worst_questions():
            q = by_external[row.query_id]
            assert q.id is not None
            out.append(
                WaitingQuestion(
                    q.id,
                    q.external_id,
                    q.text,
                    row.annotators,
                    row.exact_f1,
                    row.partial_f1,
                    row.char_alpha,
                )
            )
    if settled:
        out += _settled_rows([q for q in rows if q.adjudicated_at is not None], labels)
    return out


def _settled_rows(settled: list[Query], labels: DoneLabels) -> list[WaitingQuestion]:
    """The settled questions as list rows, with the agreement figures their done
    annotators' labels give (None with fewer than two)."""
    compared = {
        q.external_id: labels.questions[q.external_id]
        for q in settled
        if len(labels.questions.get(q.external_id, {})) >= 2
    }
    figures = (
        {
            row.query_id: row
            for row in agreement(
                AgreementInput(questions=compared, page_lengths=labels.page_lengths)
            ).worst_questions()
        }
        if compared
        else {}
    )
    out = []
    for q in settled:
        assert q.id is not None
        row = figures.get(q.external_id)
        out.append(
            WaitingQuestion(
                q.id,
                q.external_id,
                q.text,
                row.annotators if row else tuple(sorted(labels.questions.get(q.external_id, {}))),
                row.exact_f1 if row else None,
                row.partial_f1 if row else None,
                row.char_alpha if row else None,
                q.adjudicated_by or "?",
                q.adjudicated_at,
            )
        )
    return out


@dataclass(frozen=True)
class QuestionForAdjudication:
    """One question as the adjudicator sees it: every done annotator's span groups, the
    final elements by span, and whether it is adjudicated."""

    spans: QuestionSpans
    final: dict[tuple[str, int, int], ElementRow]
    adjudicated: bool

    def final_of(self, group: SpanGroup) -> ElementRow | None:
        """The final element of ``group``'s span, or None when it is not accepted."""
        return self.final.get((group.document_id, group.start, group.end))


def question_for_adjudication(session: Session, query_id: int) -> QuestionForAdjudication:
    """What the adjudication screen shows of question ``query_id``."""
    query = session.get(Query, query_id)
    if query is None:
        raise NotFoundError(f"no question with id {query_id} in the database")
    final = {
        (e.document_id, e.start, e.end): element_row(e)
        for e in session.exec(
            select(Element).where(Element.query_id == query_id, Element.layer == LAYER_FINAL)
        ).all()
    }
    return QuestionForAdjudication(
        question_spans(session, query_id), final, query.adjudicated_at is not None
    )


def accept_unanimous(session: Session, query_id: int, *, actor: str) -> list[ElementRow]:
    """Accept every span all (2+) done annotators chose exactly and that is not final yet
    (provenance ``unanimous``, the grade most of them gave, their key clause when it is
    unambiguous: :attr:`SpanGroup.key`); returns the new elements. A span whose annotators
    set different keys is accepted without one: :func:`unanimous_key_conflicts` lists them."""
    spans = question_spans(session, query_id)
    n = len(spans.done_by)
    if n < 2:
        return []
    return [
        element_row(
            accept_span(
                session,
                query_id,
                g.document_id,
                g.start,
                g.end,
                provenance=PROVENANCE_UNANIMOUS,
                actor=actor,
                grade=g.grade,
                key=g.key,
            )
        )
        for g in spans.groups
        if not g.final and len(g.annotators) == n
    ]


def unanimous_key_conflicts(session: Session, query_id: int) -> list[SpanGroup]:
    """The unanimous span groups of question ``query_id``, not final yet, whose annotators set
    different key clauses: what :func:`accept_unanimous` would accept without a key (call it
    first to report them)."""
    spans = question_spans(session, query_id)
    n = len(spans.done_by)
    return [
        g
        for g in spans.groups
        if n >= 2 and not g.final and len(g.annotators) == n and g.key_conflict()
    ]


def adjust_final(
    session: Session, element_id: int, start: int, end: int, *, actor: str
) -> ElementRow:
    """Move final element ``element_id`` to ``page[start:end]`` (its text follows): one
    audited ``change``. Refused (:class:`IntegrityError`) for an element not in the final
    layer, bad offsets, a span the question's final layer holds already, or one that would
    leave the element's key clause outside (the key stays as it is; clear it first)."""
    element = session.get(Element, element_id)
    if element is None:
        raise missing_element(session, element_id)
    if element.layer != LAYER_FINAL:
        raise IntegrityError("only an accepted (final) span can be adjusted")
    if (start, end) == (element.start, element.end):
        return element_row(element)
    query = session.get(Query, element.query_id)
    name = query.external_id if query is not None else "the question"
    taken = session.exec(
        select(Element.id).where(
            Element.query_id == element.query_id,
            Element.document_id == element.document_id,
            Element.start == start,
            Element.end == end,
            Element.layer == LAYER_FINAL,
        )
    ).first()
    if taken is not None:
        raise IntegrityError(duplicate_message(name, element.document_id, start, end))
    page = session.exec(select(Document.text).where(Document.id == element.document_id)).first()
    if page is None:
        raise NotFoundError(f"no document {element.document_id!r} in the database")
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(page)):
        raise IntegrityError(
            f"{start}–{end} is not a span of {element.document_id} (0 ≤ start < end ≤ {len(page)})"
        )
    key = (element.key_start, element.key_end)
    if key[0] is not None and key[1] is not None and not start <= key[0] < key[1] <= end:
        raise IntegrityError(
            f"{start}–{end} would leave the key clause {key[0]}–{key[1]} outside the span; "
            "clear or move the key first"
        )
    return change_element(session, element, actor=actor, start=start, end=end, text=page[start:end])
