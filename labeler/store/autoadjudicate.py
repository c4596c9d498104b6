"""Automatic adjudication of a team gold set (``labeler adjudicate --auto``).

For every question of the set that is not adjudicated yet and that two or more annotators
marked done, :func:`labeler.store.adjudication.auto_decision` says which spans the rule
accepts and which stay in dispute. Accepted spans go into the final layer
(:func:`labeler.store.team.accept_span`, with the grade most of their annotators gave) with
provenance ``unanimous`` when every done annotator chose the span, else ``majority``, and
the group's key clause when it is unambiguous (:attr:`SpanGroup.key`; a key disagreement is
accepted without a key and listed in :attr:`AutoOutcome.key_conflicts`); the question is
marked adjudicated only when nothing is left in dispute. Every step is audited
under the actor, so it can be undone like labelling.

Questions done by fewer than two annotators are left alone and counted (``waiting``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from labeler.errors import UsageError
from labeler.store.adjudication import SpanGroup, auto_decision, question_spans
from labeler.store.labels import get_gold_set
from labeler.store.models import PROVENANCE_MAJORITY, PROVENANCE_UNANIMOUS, Query
from labeler.store.team import accept_span, assignments, done_marks, set_adjudicated


@dataclass(frozen=True)
class AutoOutcome:
    """What the rule did (or, in a dry run, would do) on one question; ``key_conflicts``:
    the accepted spans whose annotators set different keys (accepted without a key)."""

    query_id: str
    done_by: tuple[str, ...]
    accepted: tuple[SpanGroup, ...]
    disputed: tuple[SpanGroup, ...]
    settled: bool

    @property
    def key_conflicts(self) -> tuple[SpanGroup, ...]:
        return tuple(g for g in self.accepted if g.key_conflict())


@dataclass(frozen=True)
class AutoResult:
    """Outcomes per question (in question order) of the questions with 2+ done annotators
    that were not adjudicated; ``waiting``: external ids of the questions not adjudicated,
    assigned or marked done by someone, that fewer than two annotators marked done."""

    rule: str
    outcomes: tuple[AutoOutcome, ...]
    waiting: tuple[str, ...]

    @property
    def accepted(self) -> int:
        return sum(len(o.accepted) for o in self.outcomes)

    @property
    def settled(self) -> int:
        return sum(o.settled for o in self.outcomes)

    @property
    def left(self) -> tuple[AutoOutcome, ...]:
        """The questions a person still has to adjudicate."""
        return tuple(o for o in self.outcomes if not o.settled)


def provenance_of(group: SpanGroup, done: int) -> str:
    """``unanimous`` when all ``done`` annotators chose ``group``, else ``majority``."""
    return PROVENANCE_UNANIMOUS if len(group.annotators) == done else PROVENANCE_MAJORITY


def auto_adjudicate(
    session: Session, gold_set: str, rule: str, *, actor: str, dry_run: bool = False
) -> AutoResult:
    """Apply ``rule`` (``unanimous`` or ``majority``) to gold set ``gold_set`` in the caller's
    transaction; with ``dry_run`` nothing is written (the outcomes are what would happen).

    :class:`UsageError` when the set is not a team gold set (it has nothing to adjudicate).
    """
    gs = get_gold_set(session, gold_set)
    assert gs.id is not None
    if not gs.team:
        raise UsageError(
            f"gold set {gold_set!r} is not a team gold set (no assignments, done marks or "
            "annotator layers): nothing to adjudicate"
        )
    done = done_marks(session, gs.id)
    assigned = assignments(session, gs.id)
    rows = session.exec(
        select(Query.id, Query.external_id)
        .where(Query.gold_set_id == gs.id, col(Query.adjudicated_at).is_(None))
        .order_by(col(Query.id))
    ).all()
    outcomes: list[AutoOutcome] = []
    waiting: list[str] = []
    for qid, external_id in rows:
        assert qid is not None
        if len(done.get(qid, {})) < 2:
            if done.get(qid) or qid in assigned:
                waiting.append(external_id)
            continue
        spans = question_spans(session, qid)
        decision = auto_decision(spans, rule)
        assert decision is not None  # two or more done annotators
        if not dry_run:
            for group in decision.accept:
                accept_span(
                    session,
                    qid,
                    group.document_id,
                    group.start,
                    group.end,
                    provenance=provenance_of(group, len(spans.done_by)),
                    actor=actor,
                    grade=group.grade,
                    key=group.key,
                )
            if decision.settles:
                set_adjudicated(session, qid, by=actor)
        outcomes.append(
            AutoOutcome(
                external_id, spans.done_by, decision.accept, decision.disputed, decision.settles
            )
        )
    return AutoResult(rule, tuple(outcomes), tuple(waiting))
