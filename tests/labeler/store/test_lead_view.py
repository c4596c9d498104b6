"""The lead's view on both backends: what :func:`labeler.store.read_lead_input` gathers from
a team gold set built through the verbs (``_lead_support``, with known audit times), and the
figures :func:`labeler.report.lead_view` computes from it, against values worked by hand
there. Plus the edge cases of the pure computation on hand-made events, and α against the
``krippendorff`` package.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import krippendorff
import numpy as np
import pytest
from _lead_support import AS_OF, EXPECTED, A, G, Z, close, seed_lead

from labeler.errors import NotFoundError
from labeler.report import lead_json, lead_view
from labeler.store import LeadInput, Store, TeamProgress, WorkEvent, read_lead_input
from labeler.store.assign import AnnotatorProgress
from scoring.agreement import Span

pytestmark = pytest.mark.backends("sqlite", "postgresql")


def test_the_input_holds_each_annotators_own_work_and_the_settled_questions(store: Store) -> None:
    seed_lead(store)
    data = read_lead_input(store, "gold")
    kinds = [(e.annotator, e.at.strftime("%H:%M"), e.query_id, e.kind) for e in data.events]
    # lea's assignments, accepts and settle marks are no annotator's work: left out
    assert kinds == [
        ("ana", "09:00", "q1", "label"),
        ("ana", "09:01", "q1", "label"),
        ("ana", "09:02", "q1", "done"),
        ("ana", "09:04", "q2", "label"),
        ("ana", "09:05", "q2", "done"),
        ("bob", "09:10", "q1", "label"),
        ("bob", "09:13", "q1", "done"),
        ("bob", "09:20", "q2", "done"),
        ("ana", "09:30", "q3", "label"),
        ("ana", "09:31", "q3", "label"),
        ("ana", "09:32", "q3", "edit"),
    ]
    assert data.done == {"ana": frozenset({"q1", "q2"}), "bob": frozenset({"q1", "q2"})}
    page = "w.html"
    assert [(q.query_id, q.final, q.annotators) for q in data.settled] == [
        (
            "q1",
            frozenset({Span(page, *G)}),
            {
                "ana": frozenset({Span(page, *A), Span(page, *G)}),
                "bob": frozenset({Span(page, *G)}),
            },
        ),
        (
            "q2",
            frozenset({Span(page, *Z)}),
            {"ana": frozenset({Span(page, *Z)}), "bob": frozenset()},
        ),
    ]
    assert data.page_lengths == {page: 42}


def test_figures_per_annotator_as_worked_by_hand(store: Store) -> None:
    seed_lead(store)
    view = lead_view(read_lead_input(store, "gold"), AS_OF)
    got = {p["annotator"]: p for p in lead_json(view)["annotators"]}
    assert close(got, EXPECTED)
    assert (view.questions, view.adjudicated, view.pending) == (3, 2, 1)


def test_undo_and_redo_are_no_new_labels(store: Store) -> None:
    from labeler.store import (
        add_query,
        assign_team_questions,
        attach_span,
        create_gold_set,
        redo_change,
        remove_span,
        undo_change,
        upsert_document,
    )

    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text="Alpha beta."
        )
        q = add_query(s, create_gold_set(s, "solo"), "q1", "question", actor="lea")
        assert q.id is not None
    assign_team_questions(store, "solo", ["ana"], per_question=1, actor="lea")
    element = attach_span(store, q.id, "w.html", 0, 5, annotator="ana").element
    remove_span(store, element.id, actor="ana")
    assert undo_change(store, actor="ana") is not None  # the removal: the label is back
    assert redo_change(store, actor="ana") is not None  # removed again
    data = read_lead_input(store, "solo")
    assert [(e.annotator, e.kind) for e in data.events] == [
        ("ana", "label"),
        ("ana", "edit"),
        ("ana", "edit"),
        ("ana", "edit"),
    ]


def test_a_reopened_question_is_not_compared(store: Store) -> None:
    from labeler.store.team import set_adjudicated

    ids = seed_lead(store)
    with store.write() as s:
        set_adjudicated(s, ids["q2"], by="lea", adjudicated=False)
    view = lead_view(read_lead_input(store, "gold"), AS_OF)
    ana = next(p for p in view.annotators if p.annotator == "ana")
    # q1 alone: exact 2/3, partial 2/3
    assert ana.settled == 1
    assert close([ana.exact_f1, ana.partial_f1], [2 / 3, 2 / 3])


def test_unknown_gold_set(store: Store) -> None:
    with pytest.raises(NotFoundError, match="gold set"):
        read_lead_input(store, "nope")


def _alpha_by_package(pairs: list[tuple[list[int], list[int]]]) -> float:
    """The krippendorff package's nominal α over units coded by two coders."""
    mine = [v for a, _ in pairs for v in a]
    final = [v for _, b in pairs for v in b]
    return float(krippendorff.alpha(np.array([mine, final]), level_of_measurement="nominal"))


def _coding(spans: list[tuple[int, int]], length: int = 42) -> list[int]:
    return [1 if any(s <= i < e for s, e in spans) else 0 for i in range(length)]


def test_alpha_agrees_with_the_krippendorff_package(store: Store) -> None:
    seed_lead(store)
    view = lead_view(read_lead_input(store, "gold"), AS_OF)
    people = {p.annotator: p for p in view.annotators}
    ana = _alpha_by_package([(_coding([A, G]), _coding([G])), (_coding([Z]), _coding([Z]))])
    bob = _alpha_by_package([(_coding([G]), _coding([G])), (_coding([]), _coding([Z]))])
    assert people["ana"].char_alpha == pytest.approx(ana, abs=1e-12)
    assert people["bob"].char_alpha == pytest.approx(bob, abs=1e-12)
    (q1,) = people["ana"].differs_most
    assert q1.char_alpha == pytest.approx(
        _alpha_by_package([(_coding([A, G]), _coding([G]))]), abs=1e-12
    )


# -- the pure computation's edge cases (no database) ---------------------------------------


def _input(
    people: list[AnnotatorProgress],
    events: list[WorkEvent],
    done: dict[str, frozenset[str]] | None = None,
) -> LeadInput:
    progress = TeamProgress("g", True, 4, 0, 4, tuple(people))
    return LeadInput(progress, tuple(events), done or {}, (), {})


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def ev(who: str, minutes: float, q: str, kind: str = "label") -> WorkEvent:
    return WorkEvent(who, T0 + timedelta(minutes=minutes), q, kind)


@pytest.mark.backends("sqlite")
def test_no_labels_no_time_no_settled_question_gives_no_figures() -> None:
    cleo = AnnotatorProgress("cleo", 2, 0, 0, 2)
    (row,) = lead_view(_input([cleo], []), T0).annotators
    assert (row.labels, row.active_seconds, row.labels_per_hour, row.median_seconds) == (
        0,
        0.0,
        None,
        None,
    )
    assert (row.settled, row.exact_f1, row.partial_f1, row.char_alpha) == (0, None, None, None)
    assert (row.differs_most, row.pace, row.finish) == ((), None, None)


@pytest.mark.backends("sqlite")
def test_an_import_burst_adds_labels_but_no_time() -> None:
    dan = AnnotatorProgress("dan", 2, 1, 0, 1)
    events = [ev("dan", 0, "q1"), ev("dan", 0, "q1"), ev("dan", 0, "q1", "done")]
    (row,) = lead_view(_input([dan], events, {"dan": frozenset({"q1"})}), T0).annotators
    assert (row.labels, row.active_seconds, row.labels_per_hour) == (2, 0.0, None)
    assert (row.median_seconds, row.timed) == (None, 0)  # q1 has no measured time
    assert row.pace is None  # no elapsed time at all (now is the burst's instant)


@pytest.mark.backends("sqlite")
def test_gaps_over_the_idle_limit_are_breaks_and_the_limit_is_inclusive() -> None:
    eve = AnnotatorProgress("eve", 3, 3, 0, 0)
    events = [
        ev("eve", 0, "q1"),
        ev("eve", 10, "q1", "done"),  # exactly 10 min: working time, q1 600 s
        ev("eve", 20.5, "q2"),  # 10.5 min: a break
        ev("eve", 21, "q2", "done"),  # q2 30 s
        ev("eve", 22, "q3", "done"),  # q3 60 s
    ]
    done = {"eve": frozenset({"q1", "q2", "q3"})}
    now = T0 + timedelta(hours=1)
    (row,) = lead_view(_input([eve], events, done), now).annotators
    assert row.active_seconds == 690.0
    assert row.labels_per_hour == pytest.approx(2 / 690 * 3600)
    assert (row.median_seconds, row.timed) == (60.0, 3)
    assert row.pace == 3.0  # 3 done in the hour since 09:00
    assert row.finish is None  # nothing remains
    (longer,) = lead_view(_input([eve], events, done), now, idle_minutes=11).annotators
    assert longer.active_seconds == 1320.0  # the 10.5 min gap is work now, given to q2
    assert longer.median_seconds == 600.0  # q1 600, q2 660, q3 60
    with pytest.raises(ValueError, match="above 0"):
        lead_view(_input([eve], events, done), now, idle_minutes=0)


@pytest.mark.backends("sqlite")
def test_finish_time_from_remaining_and_pace() -> None:
    fay = AnnotatorProgress("fay", 10, 4, 0, 6)
    events = [ev("fay", 0, "q1", "done")]
    now = T0 + timedelta(hours=2)  # 4 done in 2 h: 2 per hour, 6 left: 3 h
    (row,) = lead_view(_input([fay], events), now).annotators
    assert (row.pace, row.finish) == (2.0, now + timedelta(hours=3))


@pytest.mark.backends("sqlite")
def test_under_a_minute_of_active_time_measures_no_rate() -> None:
    """An imported layer's labels milliseconds apart read as a million labels an hour: under
    a minute of active time labels/h and s/q are None (the CLI and the panel print "—");
    from a minute on they are measured (2 labels in 60 s: 120 an hour)."""
    fay = AnnotatorProgress("fay", 1, 1, 0, 0)
    burst = [ev("fay", 0, "q1"), ev("fay", 0.001, "q1"), ev("fay", 0.5, "q1", "done")]
    (row,) = lead_view(_input([fay], burst, {"fay": frozenset({"q1"})}), T0).annotators
    assert row.active_seconds == pytest.approx(30.0)
    assert (row.labels, row.labels_per_hour, row.median_seconds) == (2, None, None)
    minute = [ev("fay", 0, "q1"), ev("fay", 0.5, "q1"), ev("fay", 1, "q1", "done")]
    (row,) = lead_view(_input([fay], minute, {"fay": frozenset({"q1"})}), T0).annotators
    assert row.active_seconds == pytest.approx(60.0)
    assert row.labels_per_hour == pytest.approx(120.0)
    assert row.median_seconds == pytest.approx(60.0)


@pytest.mark.backends("sqlite")
def test_no_pace_from_a_burst_of_seconds() -> None:
    """2 done 30 s after the first event would be a pace of 240 an hour and a forecast of
    the remaining 2 within 30 s: under a minute elapsed, no pace and no forecast; at 2
    minutes, 2 done is 60 an hour and the other 2 take 2 more minutes."""
    gus = AnnotatorProgress("gus", 4, 2, 0, 2)
    events = [ev("gus", 0, "q1", "done"), ev("gus", 0.25, "q2", "done")]
    (row,) = lead_view(_input([gus], events), T0 + timedelta(seconds=30)).annotators
    assert (row.pace, row.finish) == (None, None)
    (row,) = lead_view(_input([gus], events), T0 + timedelta(minutes=2)).annotators
    assert row.pace == pytest.approx(60.0)
    assert row.finish == T0 + timedelta(minutes=4)
