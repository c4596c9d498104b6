"""The lead's view of a team gold set: per annotator, how far, how fast and how well.

Pure: computed from :class:`labeler.store.LeadInput` (read by
:func:`labeler.store.read_lead_input`) and a time ``now``, with the agreement figures of
:func:`scoring.agreement.agreement`. Definitions (docs/team.md, "The lead's view"):

**Assigned, done, remaining**: as ``gold progress`` always counted them
(:class:`labeler.store.TeamProgress`): remaining = assigned and not marked done.

**Active time.** An annotator's work events (their own labels and done marks, each an audit
entry; see :mod:`labeler.store.lead_view`) in time order, t₁ ≤ … ≤ tₙ. A gap
gᵢ = tᵢ − tᵢ₋₁ (i ≥ 2) of at most ``idle`` (default 10 minutes) is working time; a longer
gap is a break and counts for nothing. Active time = Σ of the working gaps. So one event
alone, or a file import (all its labels at one instant), adds no time.

**Labels per hour** = labels / active time × 3600, where labels = the annotator's ordinary
additions of an element to their own layer of this set (a label later removed still
counts: it was work; undo and redo are not new labels). None ("—") when active time is under
:data:`MIN_MEASURED_SECONDS` (a minute): labels imported in a burst a few milliseconds long
are not a rate of a million an hour.

**Seconds per question.** Each working gap gᵢ goes to the question of the event that ends
it (the time before an action was spent on that action's question: reading the page, then
labelling, then marking done). A question's time = the sum of the gaps it was given; the
*median seconds per question* is the median (mean of the middle two for an even count) over
the questions the annotator has marked done whose time is above 0 (a question whose only
events each came after a break, or an import, has no measured time and is left out;
``timed`` says how many were measured). None when no done question was timed, or when the
active time is under :data:`MIN_MEASURED_SECONDS`.

**Agreement with the final layer**, on the settled (adjudicated) questions the annotator
marked done: their own spans (not stale) against the final layer's, as one pair
(annotator, final) of :func:`scoring.agreement.agreement`: exact F1 and partial F1 (P: share
of the annotator's spans that half-overlap a final span, R: the same of the final spans)
summed over those questions, and Krippendorff's α (nominal) on characters of every page
either side cited. All None when the annotator has no settled done question; α None when
undefined (no page cited by either side, or every character coded alike). An annotator whose
questions were settled with nothing final and who labelled nothing agrees exactly (F1 = 1).

**Differs most**: the annotator's settled done questions whose exact F1 against the final
layer is below 1 (an exact F1 of 1 is the same span set: no difference), lowest exact F1
first, then lowest partial F1, then lowest α; at most ``worst`` (default 5).

**Pace** = questions done / (now − first work event), in questions per hour of wall-clock
time: breaks, nights and days off included, so the forecast says when the work ends if the
annotator goes on as they have so far, not if they work without stopping. None ("—") with
no done question or under :data:`MIN_MEASURED_SECONDS` of elapsed time. **Done by** = now + remaining / pace (to the second); None
when there is no pace or nothing remains (shown "done" then).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from statistics import median
from typing import TYPE_CHECKING

from scoring.agreement import AgreementInput, Span, agreement

if TYPE_CHECKING:
    from labeler.store import LeadInput, WorkEvent

__all__ = ["IDLE_MINUTES", "WORST", "AnnotatorLead", "LeadView", "QuestionDiff", "lead_view"]

#: default longest gap between two events that still counts as working time
IDLE_MINUTES = 10.0
#: less active time than this (seconds) measures no rate: labels/h and s/q are None
MIN_MEASURED_SECONDS = 60.0
#: default number of questions listed as differing most from the final layer
WORST = 5
#: agreement's names for the two sides compared (not annotator names: no clash possible)
_MINE, _FINAL = "annotator", "final"


@dataclass(frozen=True)
class QuestionDiff:
    """One settled question: the annotator's spans against the final layer's."""

    query_id: str
    exact_f1: float
    partial_f1: float
    char_alpha: float | None


@dataclass(frozen=True)
class AnnotatorLead:
    """One annotator's row of the lead's view (definitions in the module docstring).

    ``settled``: the settled questions they marked done (what agreement is measured on);
    ``active_seconds``: their active time; ``timed``: done questions with measured time;
    ``pace``: questions per hour; ``finish``: when the assigned work is done at that pace."""

    annotator: str
    assigned: int
    done: int
    no_answer: int
    remaining: int
    labels: int
    active_seconds: float
    labels_per_hour: float | None
    median_seconds: float | None
    timed: int
    settled: int
    exact_f1: float | None
    partial_f1: float | None
    char_alpha: float | None
    differs_most: tuple[QuestionDiff, ...]
    pace: float | None
    finish: datetime | None


@dataclass(frozen=True)
class LeadView:
    """The lead's view of gold set ``gold_set`` at ``now``: its question counts (as
    :class:`labeler.store.TeamProgress`) and one :class:`AnnotatorLead` per annotator, by
    name."""

    gold_set: str
    team: bool
    now: datetime
    idle_minutes: float
    questions: int
    adjudicated: int
    pending: int
    final_scored: int
    final_pending: int
    annotators: tuple[AnnotatorLead, ...]


def active_time(events: Sequence[WorkEvent], idle: timedelta) -> tuple[float, dict[str, float]]:
    """Active seconds of one annotator's ``events`` and the seconds given to each question
    (module docstring: gaps of at most ``idle``, each to the question of the event ending
    it). Events are taken in time order (stable: equal times keep their order)."""
    ordered = sorted(events, key=lambda e: e.at)
    total = 0.0
    per_question: dict[str, float] = {}
    for before, event in pairwise(ordered):
        gap = event.at - before.at
        if gap <= idle:
            seconds = gap.total_seconds()
            total += seconds
            per_question[event.query_id] = per_question.get(event.query_id, 0.0) + seconds
    return total, per_question


def against_final(
    questions: Mapping[str, tuple[frozenset[Span], frozenset[Span]]],
    page_lengths: Mapping[str, int],
    worst: int = WORST,
) -> tuple[float | None, float | None, float | None, tuple[QuestionDiff, ...]]:
    """Exact F1, partial F1 and α of one annotator's spans against the final layer over
    ``questions`` (query id → (their spans, the final spans)), and the questions differing
    most (module docstring). All None, and no question, when ``questions`` is empty."""
    if not questions:
        return None, None, None, ()
    data = AgreementInput(
        {q: {_MINE: mine, _FINAL: final} for q, (mine, final) in questions.items()},
        page_lengths,
    )
    result = agreement(data, [_MINE, _FINAL])
    (pair,) = result.pairs
    rows = [
        QuestionDiff(q.query_id, q.exact_f1, q.partial_f1, q.char_alpha)
        for q in result.per_question
        if q.exact_f1 < 1
    ]
    rows.sort(
        key=lambda d: (d.exact_f1, d.partial_f1, 2.0 if d.char_alpha is None else d.char_alpha)
    )
    return pair.exact_f1, pair.partial_f1, pair.char_alpha, tuple(rows[:worst])


def lead_view(
    data: LeadInput,
    now: datetime,
    *,
    idle_minutes: float = IDLE_MINUTES,
    worst: int = WORST,
) -> LeadView:
    """The lead's view of ``data`` at ``now`` (timezone-aware; definitions in the module
    docstring). ``idle_minutes`` must be above 0 (:class:`ValueError` otherwise)."""
    if not idle_minutes > 0:
        raise ValueError(f"the idle gap must be above 0 minutes, got {idle_minutes}")
    idle = timedelta(minutes=idle_minutes)
    progress = data.progress
    by_person: dict[str, list[WorkEvent]] = {}
    for event in data.events:
        by_person.setdefault(event.annotator, []).append(event)
    rows = []
    for p in progress.annotators:
        events = by_person.get(p.annotator, [])
        done = data.done.get(p.annotator, frozenset())
        labels = sum(1 for e in events if e.kind == "label")
        active, per_question = active_time(events, idle)
        measured = active >= MIN_MEASURED_SECONDS
        timed = sorted(per_question[q] for q in done if per_question.get(q, 0.0) > 0)
        compared = {
            q.query_id: (q.annotators[p.annotator], q.final)
            for q in data.settled
            if p.annotator in q.annotators
        }
        exact, partial, alpha, differs = against_final(compared, data.page_lengths, worst)
        pace: float | None = None
        if events and p.done:
            elapsed = (now - min(e.at for e in events)).total_seconds()
            pace = p.done / elapsed * 3600 if elapsed >= MIN_MEASURED_SECONDS else None
        finish = (
            now + timedelta(seconds=round(p.remaining / pace * 3600))
            if pace is not None and p.remaining > 0
            else None
        )
        rows.append(
            AnnotatorLead(
                p.annotator,
                p.assigned,
                p.done,
                p.no_answer,
                p.remaining,
                labels,
                active,
                labels / active * 3600 if measured else None,
                median(timed) if timed and measured else None,
                len(timed),
                len(compared),
                exact,
                partial,
                alpha,
                differs,
                pace,
                finish,
            )
        )
    return LeadView(
        progress.gold_set,
        progress.team,
        now,
        idle_minutes,
        progress.questions,
        progress.adjudicated,
        progress.pending,
        progress.final_scored,
        progress.final_pending,
        tuple(rows),
    )
