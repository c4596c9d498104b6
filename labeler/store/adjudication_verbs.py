"""Team-work verbs: done marks and the adjudicator's edits of a question's final layer.

Each verb takes the :class:`~labeler.store.session.Store` (never a session), opens its own
transaction, calls the session-level functions that hold the rules (done marks of
:mod:`labeler.store.own_layer`, acceptance and the adjudicated mark of
:mod:`labeler.store.team`, the final-layer edits and the queue of
:mod:`labeler.store.adjudicating`) and returns what it did. Every change is one audited
entry (``accept_all_unanimous``: one per span), so undo reverses it; an error inside a
write rolls it back and leaves the database as it was.

Every edit of the final layer and the adjudicated mark needs the lead role: each verb calls
:func:`labeler.store.roles.require_lead` first (:class:`~labeler.errors.RoleError` for an
annotator, nothing written); a verb added here must do the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labeler.errors import IntegrityError
from labeler.store.adjudicating import (
    QuestionForAdjudication,
    WaitingQuestion,
    accept_unanimous,
    adjudication_queue,
    adjust_final,
    question_for_adjudication,
    unanimous_key_conflicts,
)
from labeler.store.adjudication import SpanGroup
from labeler.store.annotate import ElementRow, element_row, set_grade, set_key
from labeler.store.labels import remove_element
from labeler.store.models import PROVENANCE_ADJUDICATED, Query
from labeler.store.own_layer import DoneChange, toggle_done
from labeler.store.roles import require_lead
from labeler.store.session import Store
from labeler.store.team import Reopened, accept_span, reopen_settled, set_adjudicated

# -- done marks -------------------------------------------------------------------------


def flip_done(
    store: Store, query_id: int, annotator: str, *, expect_done: bool | None = None
) -> DoneChange:
    """Mark question ``query_id`` done by ``annotator``, or remove their done mark when
    there is one (audited; :func:`labeler.store.own_layer.toggle_done` refuses it outside
    team work and on an adjudicated question). ``expect_done``: the state the screen
    showed; refused, naming who, when the mark was flipped meanwhile. Returns what changed."""
    with store.write() as s:
        return toggle_done(s, query_id, annotator, expect_done=expect_done)


# -- reads ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AdjudicationView:
    """The adjudication queue of a gold set and the question chosen from it."""

    queue: list[WaitingQuestion]
    #: the question shown: the one wanted if it still waits, else the first (None: empty)
    chosen: int | None
    state: QuestionForAdjudication | None


def adjudication_view(
    store: Store, gold_set_id: int, wanted: int | None, *, settled: bool = False
) -> AdjudicationView:
    """The questions of ``gold_set_id`` waiting for adjudication (lowest agreement first,
    :func:`labeler.store.adjudicating.adjudication_queue`; with ``settled``, the settled
    ones after them) and the span groups of ``wanted`` when it is still listed, else of the
    first listed question, read in one transaction."""
    with store.session() as s:
        queue = adjudication_queue(s, gold_set_id, settled=settled)
        ids = [w.query_id for w in queue]
        chosen = wanted if wanted in ids else (ids[0] if ids else None)
        state = None if chosen is None else question_for_adjudication(s, chosen)
    return AdjudicationView(queue, chosen, state)


def adjudication_question(store: Store, query_id: int) -> QuestionForAdjudication:
    """The span groups and final layer of question ``query_id``
    (:func:`labeler.store.adjudicating.question_for_adjudication`)."""
    with store.session() as s:
        return question_for_adjudication(s, query_id)


# -- accept, reject, adjust, settle -----------------------------------------------------


def accept_group(
    store: Store,
    query_id: int,
    document_id: str,
    start: int,
    end: int,
    *,
    actor: str,
    grade: int = 1,
    key: tuple[int, int] | None = None,
) -> ElementRow:
    """Accept ``page[start:end]`` into question ``query_id``'s final layer with provenance
    ``adjudicated``, ``grade`` and key clause ``key`` (audited ``add``;
    :func:`labeler.store.team.accept_span` refuses a span already final). Returns the final
    element."""
    with store.write() as s:
        require_lead(s, actor, "accepting a span into the final layer")
        return element_row(
            accept_span(
                s,
                query_id,
                document_id,
                start,
                end,
                provenance=PROVENANCE_ADJUDICATED,
                actor=actor,
                grade=grade,
                key=key,
            )
        )


@dataclass(frozen=True)
class UnanimousAccepted:
    """The spans every done annotator chose, accepted now, and the unanimous groups whose
    annotators disagree on the key clause (accepted without a key)."""

    accepted: list[ElementRow]
    key_conflicts: list[SpanGroup]


def accept_all_unanimous(store: Store, query_id: int, *, actor: str) -> UnanimousAccepted:
    """Accept every span all done annotators of ``query_id`` chose (provenance
    ``unanimous``, one audited entry each: :func:`labeler.store.adjudicating.accept_unanimous`),
    noting the groups whose key clauses differ, read before they are accepted."""
    with store.write() as s:
        require_lead(s, actor, "accepting the unanimous spans")
        conflicts = unanimous_key_conflicts(s, query_id)
        return UnanimousAccepted(accept_unanimous(s, query_id, actor=actor), conflicts)


def reject_final(store: Store, element_id: int, *, actor: str) -> None:
    """Take final element ``element_id`` out of the final layer (audited, undo brings it
    back); :class:`~labeler.errors.NotFoundError` when it is gone."""
    with store.write() as s:
        require_lead(s, actor, "rejecting a final span")
        remove_element(s, element_id, actor=actor)


def grade_final(store: Store, element_id: int, grade: int, *, actor: str) -> ElementRow:
    """Set the grade of final element ``element_id`` (audited); returns it as stored."""
    with store.write() as s:
        require_lead(s, actor, "grading a final span")
        return set_grade(s, element_id, grade, actor=actor)


def key_final(
    store: Store, element_id: int, start: int | None, end: int | None, *, actor: str
) -> ElementRow:
    """Set (or with ``(None, None)`` clear) the key clause of final element ``element_id``
    (audited; the key must lie inside the element); returns it as stored."""
    with store.write() as s:
        require_lead(s, actor, "setting a final span's key clause")
        return set_key(s, element_id, start, end, actor=actor)


def adjust_span(store: Store, element_id: int, start: int, end: int, *, actor: str) -> ElementRow:
    """Move final element ``element_id`` to ``page[start:end]`` (audited;
    :func:`labeler.store.adjudicating.adjust_final` checks the new span); returns it."""
    with store.write() as s:
        require_lead(s, actor, "adjusting a final span")
        return adjust_final(s, element_id, start, end, actor=actor)


def settle_question(
    store: Store, query_id: int, *, by: str, expect_final: int | None = None
) -> None:
    """Mark question ``query_id`` adjudicated by ``by`` (audited, undo reverses it;
    :func:`labeler.store.team.set_adjudicated`).

    ``expect_final``: the number of final-layer spans the adjudicator saw (the screen's
    ``m``). When the final layer holds another number now (an accept, reject or undo not yet
    on screen, or another lead's edit), nothing is settled and :class:`IntegrityError` says
    both numbers: a question is never settled as "no answer" while it has an answer, or on
    spans the adjudicator did not see. None: settle what is stored (the CLI, scripts)."""
    with store.write() as s:
        require_lead(s, by, "settling a question")
        if expect_final is not None:
            state = question_for_adjudication(s, query_id)
            if len(state.final) != expect_final:
                query = s.get(Query, query_id)
                name = query.external_id if query is not None else f"question {query_id}"
                raise IntegrityError(
                    f"{name} not settled: its final layer holds {len(state.final)} accepted "
                    f"span(s) now, {expect_final} when you pressed m; look again and press m"
                )
        set_adjudicated(s, query_id, by=by)


def reopen_questions(
    store: Store, gold_set: str, query_ids: Sequence[str], *, actor: str
) -> list[Reopened]:
    """Reopen the settled questions ``query_ids`` (external ids) of gold set ``gold_set``
    in one transaction (``labeler adjudicate --reopen``, ``r`` on the adjudication screen):
    each is pending again, one audited entry per question under ``actor``, which undo
    reverses (settled again, same by and at) and redo repeats. All or nothing: unknown or
    unsettled ids are refused, naming them, with nothing changed
    (:func:`labeler.store.team.reopen_settled`). Returns who had settled each and when."""
    with store.write() as s:
        require_lead(s, actor, "reopening a settled question")
        return reopen_settled(s, gold_set, query_ids, actor=actor)
