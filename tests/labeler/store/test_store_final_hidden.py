"""Final elements hidden from the annotators of a team gold set (labeler.store.final_hidden,
QuestionRow.n_final_hidden and .pending, TeamProgress.final_scored/final_pending), on both
backends, from data built by hand.

Page (offsets by hand):
          0         1         2         3         4
          0123456789012345678901234567890123456789012
         "Alpha beta. Gamma delta epsilon. Zeta eta."
A = [0, 11) "Alpha beta.", G = [12, 32) "Gamma delta epsilon.", Z = [33, 42) "Zeta eta."
"""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlmodel import select

from labeler.store import Store, add_query, create_gold_set, get_gold_set, upsert_document
from labeler.store.assign import team_progress
from labeler.store.blind import questions_for
from labeler.store.final_hidden import hidden_final
from labeler.store.labels import add_element
from labeler.store.models import ELEMENT_STALE, LAYER_ANNOTATOR, Element
from labeler.store.team import accept_span, add_assignment, mark_done, set_adjudicated

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."
A, G, Z = (0, 11), (12, 32), (33, 42)


def seed(store: Store) -> None:
    """Gold set "gold" labelled solo by "solo" in the final layer (ids 1-4):
    q1: A, G · q2: Z and a stale A · q3: nothing · q4: G. Gold set "plain" (q5: A) stays
    solo. Then one question is assigned (as ``gold assign --sample 1`` would): q1 to ana."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        for name in ("q1", "q2", "q3", "q4"):
            add_query(s, gold, name, f"{name}?", actor="lead")
        plain = create_gold_set(s, "plain")
        add_query(s, plain, "q5", "q5?", actor="lead")
        for qid, span in ((1, A), (1, G), (2, Z), (2, A), (4, G), (5, A)):
            add_element(s, qid, "w.html", *span, annotator="solo")
        stale = s.exec(select(Element).where(Element.query_id == 2, Element.start == 0)).one()
        stale.status = ELEMENT_STALE
        s.add(stale)
    with store.write() as s:
        add_assignment(s, 1, "ana", actor="lead")


def hidden(store: Store, annotator: str, gold_set_id: int = 1) -> dict[str, tuple[int, bool]]:
    """Question → (n_final_hidden, pending) as ``annotator``'s questions list has them."""
    with store.session() as s:
        return {
            q.external_id: (q.n_final_hidden, q.pending)
            for q in questions_for(s, gold_set_id, annotator)
        }


def test_hidden_final_counts_per_question_and_annotator(store: Store) -> None:
    seed(store)
    # q1: A and G hidden, assigned so pending (already left out of scores); q2: Z hidden,
    # the stale A not counted, no team work so scored; q3: nothing; q4: G, scored.
    expected = {"q1": (2, True), "q2": (1, False), "q3": (0, False), "q4": (1, False)}
    # nobody sees the final layer of a question not adjudicated: the same for everyone,
    # assigned (ana) or not (bob)
    assert hidden(store, "ana") == expected
    assert hidden(store, "bob") == expected
    with store.session() as s:
        rows = questions_for(s, 1, "ana")
        assert [q.n_gold for q in rows] == [0, 0, 0, 0]  # what ana sees: her own, none
        assert [q.assigned for q in rows] == [True, False, False, False]
        progress = team_progress(s, "gold")
    # scored from hidden final labels: q2, q4; pending with them: q1
    assert (progress.final_scored, progress.final_pending, progress.pending) == (2, 1, 1)

    # bob's first label on q2 makes it pending: its Z is still hidden, now left out
    with store.write() as s:
        add_element(s, 2, "w.html", *G, annotator="bob", layer=LAYER_ANNOTATOR)
    assert hidden(store, "ana")["q2"] == (1, True)
    assert hidden(store, "bob")["q2"] == (1, True)
    # a done mark alone does the same on q4
    with store.write() as s:
        mark_done(s, 4, "ana")
    assert hidden(store, "bob")["q4"] == (1, True)
    with store.session() as s:
        progress = team_progress(s, "gold")
    assert (progress.final_scored, progress.final_pending) == (0, 3)

    # adjudicated: the final layer is what everyone sees, nothing hidden, nothing pending
    with store.write() as s:
        accept_span(s, 4, "w.html", *A, provenance="adjudicated", actor="lead")
        set_adjudicated(s, 4, by="lead")
    with store.session() as s:
        q4 = questions_for(s, 1, "bob")[3]
    assert (q4.n_final_hidden, q4.pending, q4.adjudicated, q4.n_gold) == (0, False, True, 2)
    with store.session() as s:
        progress = team_progress(s, "gold")
    assert (progress.final_scored, progress.final_pending) == (0, 2)


def test_a_gold_set_without_team_work_hides_nothing(store: Store) -> None:
    seed(store)
    assert hidden(store, "ana", gold_set_id=2) == {"q5": (0, False)}
    with store.session() as s:
        assert hidden_final(s, 2) == {}
        assert questions_for(s, 2, "ana")[0].n_gold == 1  # the solo label, visible
        progress = team_progress(s, "plain")
    assert (progress.final_scored, progress.final_pending) == (0, 0)


def test_one_query_for_the_whole_gold_set(store: Store) -> None:
    """The statements questions_for runs do not grow with the questions (no N+1), and
    hidden_final is a single statement."""
    seed(store)

    def statements(call: str) -> list[str]:
        seen: list[str] = []

        def record(*args: object) -> None:
            seen.append(str(args[2]))

        event.listen(store.engine, "before_cursor_execute", record)
        try:
            with store.session() as s:
                if call == "hidden":
                    hidden_final(s, 1)
                else:
                    questions_for(s, 1, "ana")
        finally:
            event.remove(store.engine, "before_cursor_execute", record)
        return [x for x in seen if x.lstrip().upper().startswith("SELECT")]

    assert len(statements("hidden")) == 1
    before = len(statements("rows"))
    with store.write() as s:
        gs = get_gold_set(s, "gold")
        for i in range(6):
            q = add_query(s, gs, f"x{i}", "?", actor="lead")
            assert q.id is not None
            add_element(s, q.id, "w.html", *Z, annotator="solo")
    assert hidden(store, "ana")["x5"] == (1, False)
    assert len(statements("rows")) == before
