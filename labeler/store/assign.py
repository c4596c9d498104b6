"""Giving a team gold set's questions to annotators, and how far each of them got.

Planning (:func:`plan_assignments`) is pure and deterministic for a seed:

1. The questions are shuffled with ``random.Random(seed)`` (from their id order); ``sample``
   keeps the first N of that order, so a larger N with the same seed extends the smaller
   one's sample.
2. Each annotator's *load* starts at the number of questions of the set assigned to them
   already. Each chosen question needs ``per_question`` annotators; the ones assigned to it
   already (whoever they are) count. The missing ones are the least loaded annotators not on
   the question yet, ties broken by one seeded order of the annotators; each pick adds 1 to
   that load.

Picking the least loaded keeps every two loads within 1 of each other when they start so
(as on a fresh set); existing assignments are never moved, so loads already further apart
move closer with each run but may not meet. Re-running with the same arguments adds nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import text as sql_text
from sqlmodel import Session, col, select

from labeler.errors import UsageError
from labeler.store.final_hidden import hidden_final
from labeler.store.labels import get_gold_set
from labeler.store.models import LAYER_ANNOTATOR, Element, Query
from labeler.store.rows import PENDING_SQL
from labeler.store.team import add_assignment, assignments, done_marks


@dataclass(frozen=True)
class AssignPlan:
    """The assignments to add (question id, annotator), in the order they are made, and the
    questions chosen (``chosen``; ``already`` of them had all the annotators they need)."""

    add: tuple[tuple[int, str], ...]
    chosen: int
    already: int


def plan_assignments(
    question_ids: Sequence[int],
    existing: Mapping[int, Sequence[str]],
    annotators: Sequence[str],
    *,
    per_question: int,
    sample: int | None = None,
    seed: int = 0,
) -> AssignPlan:
    """Which annotator labels which question (see the module docstring for the rules).

    ``question_ids``: the set's questions in id order; ``existing``: question id → its
    annotators already. :class:`UsageError` when ``per_question`` is not between 1 and the
    number of (distinct, non-empty) ``annotators``, or ``sample`` is below 1.
    """
    names = list(dict.fromkeys(a.strip() for a in annotators if a.strip()))
    if not names:
        raise UsageError("--annotators needs at least one name")
    if not 1 <= per_question <= len(names):
        raise UsageError(
            f"--per-question must be between 1 and the number of annotators ({len(names)}), "
            f"got {per_question}"
        )
    if sample is not None and sample < 1:
        raise UsageError(f"--sample must be at least 1, got {sample}")
    rng = random.Random(seed)
    order = list(question_ids)
    rng.shuffle(order)
    chosen = order if sample is None else order[:sample]
    tie = {name: i for i, name in enumerate(rng.sample(names, len(names)))}
    load = {name: 0 for name in names}
    for who in existing.values():
        for name in who:
            if name in load:
                load[name] += 1
    add: list[tuple[int, str]] = []
    already = 0
    for qid in chosen:
        have = list(existing.get(qid, ()))
        need = per_question - len(have)
        if need <= 0:
            already += 1
            continue
        free = sorted((n for n in names if n not in have), key=lambda n: (load[n], tie[n]))
        for name in free[:need]:
            add.append((qid, name))
            load[name] += 1
    return AssignPlan(tuple(add), len(chosen), already)


def assign_questions(
    session: Session,
    gold_set: str,
    annotators: Sequence[str],
    *,
    per_question: int,
    sample: int | None = None,
    seed: int = 0,
    actor: str,
) -> AssignPlan:
    """Plan (:func:`plan_assignments`) and make the assignments in gold set ``gold_set``, in
    the caller's transaction (each audited; the set becomes a team gold set)."""
    gs = get_gold_set(session, gold_set)
    assert gs.id is not None
    ids = list(
        session.exec(
            select(Query.id).where(Query.gold_set_id == gs.id).order_by(col(Query.id))
        ).all()
    )
    plan = plan_assignments(
        [i for i in ids if i is not None],
        assignments(session, gs.id),
        annotators,
        per_question=per_question,
        sample=sample,
        seed=seed,
    )
    for qid, name in plan.add:
        add_assignment(session, qid, name, actor=actor)
    return plan


@dataclass(frozen=True)
class AnnotatorProgress:
    """One annotator's work on a gold set: questions assigned to them, questions they marked
    done (assigned or not; ``no_answer`` of them with nothing labelled), and ``remaining`` =
    assigned and not done."""

    annotator: str
    assigned: int
    done: int
    no_answer: int
    remaining: int


@dataclass(frozen=True)
class TeamProgress:
    """A gold set's team progress: its questions, how many are adjudicated and how many are
    pending (team work, not adjudicated: scoring leaves them out), and per annotator (by
    name) what :class:`AnnotatorProgress` says.

    Of the questions not adjudicated, those with final elements (not stale) labelled before
    team work, hidden from the annotators (:mod:`labeler.store.final_hidden`):
    ``final_scored`` are not pending, so scored from those elements (a label or done mark
    makes them pending), ``final_pending`` are pending, so left out with them until
    adjudicated."""

    gold_set: str
    team: bool
    questions: int
    adjudicated: int
    pending: int
    annotators: tuple[AnnotatorProgress, ...]
    final_scored: int = 0
    final_pending: int = 0


def team_progress(session: Session, gold_set: str) -> TeamProgress:
    """Where gold set ``gold_set``'s team work stands (see :class:`TeamProgress`)."""
    gs = get_gold_set(session, gold_set)
    assert gs.id is not None
    rows = session.execute(
        sql_text(
            f"SELECT q.adjudicated_at IS NOT NULL, {PENDING_SQL} FROM query q "
            "JOIN gold_set g ON g.id = q.gold_set_id WHERE q.gold_set_id = :g"
        ),
        {"g": gs.id},
    ).all()
    assigned = assignments(session, gs.id)
    done = done_marks(session, gs.id)
    labellers = session.exec(
        select(Element.annotator)
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(Query.gold_set_id == gs.id, Element.layer == LAYER_ANNOTATOR)
        .distinct()
    ).all()
    names = sorted(
        {n for who in assigned.values() for n in who}
        | {n for marks in done.values() for n in marks}
        | set(labellers)
    )
    people = []
    for name in names:
        mine = {qid for qid, who in assigned.items() if name in who}
        finished = {qid for qid, marks in done.items() if name in marks}
        no_answer = sum(1 for qid in finished if done[qid][name].no_answer)
        people.append(
            AnnotatorProgress(name, len(mine), len(finished), no_answer, len(mine - finished))
        )
    hidden = [h for h in hidden_final(session, gs.id).values() if h.elements]
    return TeamProgress(
        gs.name,
        gs.team,
        len(rows),
        sum(1 for adjudicated, _ in rows if adjudicated),
        sum(1 for _, pending in rows if pending),
        tuple(people),
        final_scored=sum(1 for h in hidden if not h.pending),
        final_pending=sum(1 for h in hidden if h.pending),
    )
