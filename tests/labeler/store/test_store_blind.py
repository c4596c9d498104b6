"""The annotator's blind view and the adjudicator's edits in the store (labeler.store.blind,
labeler.store.adjudicating), on both backends.

Page (offsets by hand):
          0         1         2         3         4
          0123456789012345678901234567890123456789012
         "Alpha beta. Gamma delta epsilon. Zeta eta."
"""

from __future__ import annotations

import pytest

from labeler.errors import IntegrityError
from labeler.store import Store, add_query, create_gold_set, redo, undo, upsert_document
from labeler.store.adjudicating import (
    accept_unanimous,
    adjudication_queue,
    adjust_final,
    question_for_adjudication,
)
from labeler.store.blind import (
    progress_for,
    questions_for,
    visible_page_counts,
    visible_page_elements,
)
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR
from labeler.store.own_layer import attach_visible, check_editable, toggle_done
from labeler.store.team import accept_span, add_assignment, mark_done, set_adjudicated

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."


def seed(store: Store, *, team: bool = True) -> None:
    """Gold set "gold" with q1, q2 on w.html (ids 1, 2); team: q1 assigned to ana."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        add_query(s, gold, "q1", "Which?", actor="lead")
        add_query(s, gold, "q2", "What?", actor="lead")
        if team:
            add_assignment(s, 1, "ana", actor="lead")


def own(store: Store, qid: int, who: str, start: int, end: int) -> None:
    with store.write() as s:
        add_element(s, qid, "w.html", start, end, annotator=who, layer=LAYER_ANNOTATOR)


def test_without_team_work_everything_is_visible_as_before(store: Store) -> None:
    seed(store, team=False)
    with store.write() as s:
        row = attach_visible(s, 1, "w.html", 0, 11, annotator="ana")
        attach_visible(s, 2, "w.html", 12, 32, annotator="bob")
    with store.session() as s:
        assert [(e.start, e.annotator) for e in visible_page_elements(s, "w.html", "carl")] == [
            (0, "ana"),
            (12, "bob"),
        ]
        assert visible_page_counts(s, ["w.html"], "carl") == {"w.html": 2}
        assert [(q.n_gold, q.team) for q in questions_for(s, 1, "carl")] == [
            (1, False),
            (1, False),
        ]
        with pytest.raises(IntegrityError, match="done marks are for team gold sets"):
            toggle_done(s, 1, "ana")
    assert row.annotator == "ana"


def test_annotators_see_only_their_own_until_adjudicated(store: Store) -> None:
    seed(store)
    own(store, 1, "ana", 0, 11)
    own(store, 1, "bob", 12, 32)
    own(store, 2, "bob", 33, 42)
    with store.session() as s:
        assert [e.annotator for e in visible_page_elements(s, "w.html", "ana")] == ["ana"]
        assert visible_page_counts(s, ["w.html"], "ana") == {"w.html": 1}
        assert visible_page_counts(s, ["w.html"], "bob") == {"w.html": 2}
        rows = questions_for(s, 1, "ana")
        assert [(q.n_gold, q.by_annotator, q.assigned) for q in rows] == [
            (1, {"ana": 1}, True),
            (0, {}, False),
        ]
        (gold,) = progress_for(s, "ana")
        assert (gold.elements, gold.without_elements, gold.by_annotator) == (1, 1, {"ana": 1})
    with store.write() as s:
        accept_span(s, 1, "w.html", 12, 32, provenance="adjudicated", actor="lead")
        set_adjudicated(s, 1, by="lead")
        with pytest.raises(IntegrityError, match="q1 is adjudicated"):
            attach_visible(s, 1, "w.html", 33, 42, annotator="ana")
    with store.session() as s:
        # q1 settled: its final element, for everyone; q2: still one's own
        assert [(e.query_id, e.annotator) for e in visible_page_elements(s, "w.html", "ana")] == [
            (1, "lead")
        ]
        final_id = visible_page_elements(s, "w.html", "ana")[0].id
        with pytest.raises(IntegrityError, match="q1 is adjudicated"):
            check_editable(s, final_id, "ana")


def test_done_toggles_and_undoes(store: Store) -> None:
    seed(store)
    own(store, 1, "ana", 0, 11)
    with store.write() as s:
        change = toggle_done(s, 1, "ana")
    assert (change.marked, change.no_answer, change.elements) == (True, False, 1)
    with store.write() as s:
        assert not toggle_done(s, 1, "ana").marked
    with store.write() as s:
        undo(s, actor="ana")  # the removal of the mark
    with store.session() as s:
        assert [q.done for q in questions_for(s, 1, "ana")] == [True, False]


def test_queue_lowest_agreement_first_and_adjudicator_edits(store: Store) -> None:
    """q1: ana 0-11, bob 0-11 and 12-32 (they differ); q2: both 12-32 (identical)."""
    seed(store)
    for who, qid, start, end in [
        ("ana", 1, 0, 11),
        ("bob", 1, 0, 11),
        ("bob", 1, 12, 32),
        ("ana", 2, 12, 32),
        ("bob", 2, 12, 32),
    ]:
        own(store, qid, who, start, end)
    with store.write() as s:
        for qid in (1, 2):
            for who in ("ana", "bob"):
                mark_done(s, qid, who)
    with store.session() as s:
        queue = adjudication_queue(s, 1)
    assert [w.external_id for w in queue] == ["q1", "q2"]
    # q1 exact F1: 2·1 / (1 + 2) = 2/3
    assert queue[0].exact_f1 == pytest.approx(2 / 3)
    with store.write() as s:
        accepted = accept_unanimous(s, 1, actor="lead")
    assert [(e.start, e.end, e.annotator) for e in accepted] == [(0, 11, "lead")]
    with store.write() as s:
        moved = adjust_final(s, accepted[0].id, 6, 10, actor="lead")
        assert moved.text == "beta"
        accept_span(s, 1, "w.html", 12, 32, provenance="adjudicated", actor="lead")
        with pytest.raises(IntegrityError, match=r"q1 already has w\.html 12–32"):
            adjust_final(s, accepted[0].id, 12, 32, actor="lead")
    with store.write() as s:
        undo(s, actor="lead")  # the accept of 12-32
        undo(s, actor="lead")  # the adjustment
    with store.session() as s:
        state = question_for_adjudication(s, 1)
        assert [(k, e.text) for k, e in state.final.items()] == [(("w.html", 0, 11), PAGE[0:11])]
    with store.write() as s:
        redo(s, actor="lead")
    with store.session() as s:
        assert list(question_for_adjudication(s, 1).final) == [("w.html", 6, 10)]
