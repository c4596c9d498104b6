"""The labelling and team-work verbs (labeler.store.labelling_verbs, adjudication_verbs): one
call per change, its own transaction, a refusal leaving the database as it was; both backends.

Page (offsets by hand):
          0         1         2         3         4
          0123456789012345678901234567890123456789012
         "Alpha beta. Gamma delta epsilon. Zeta eta."
"""

from __future__ import annotations

import pytest

from labeler.errors import IntegrityError, NotFoundError, StoreError
from labeler.store import (
    QuestionFields,
    Store,
    accept_group,
    add_query,
    add_question,
    attach_span,
    check_attach,
    choose_start,
    create_gold_set,
    edit_question,
    find_documents,
    flip_done,
    grade_span,
    list_audit,
    question_fields,
    redo_change,
    remove_span,
    seen_question_elements,
    settle_question,
    undo_change,
    upsert_document,
)
from labeler.store.team import add_assignment

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."


def seed(store: Store, *, team: bool = False) -> None:
    """Gold set "gold" with q1 (id 1) and q2 (id 2) on w.html; team: q1 assigned to ana."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        add_query(s, gold, "q1", "Which?", actor="lead", notes="n1")
        add_query(s, gold, "q2", "What?", actor="lead")
        if team:
            add_assignment(s, 1, "ana", actor="lead")
            add_assignment(s, 1, "bo", actor="lead")


def audit_count(store: Store) -> int:
    with store.session() as s:
        return len(list_audit(s, limit=10_000))


def test_choose_start_creates_the_default_gold_set_on_an_empty_store(store: Store) -> None:
    start = choose_start(store, "ana", None, True)
    assert (start.name, start.n_docs, start.runs, start.resume_at) == ("gold", 0, [], None)
    again = choose_start(store, "ana", None, True)
    assert again.gold_set_id == start.gold_set_id  # found, not created twice


def test_attach_check_grade_remove_and_undo(store: Store) -> None:
    seed(store)
    attached = attach_span(store, 1, "w.html", 12, 31, annotator="ana")
    assert attached.element.text == "Gamma delta epsilon"
    assert [(e.start, e.end) for e in attached.page_elements] == [(12, 31)]
    check = check_attach(store, 1, "w.html", 12, 31, "ana")
    assert check.duplicate is not None and check.duplicate.id == attached.element.id
    # "delta epsilon. Zeta" (18–37) overlaps 12–31
    overlapping = check_attach(store, 1, "w.html", 18, 37, "ana")
    assert (overlapping.duplicate, [e.start for e in overlapping.overlaps]) == (None, [12])
    assert grade_span(store, attached.element.id, 3, actor="ana").grade == 3
    remove_span(store, attached.element.id, actor="ana")
    assert seen_question_elements(store, 1, "ana") == []
    assert undo_change(store, actor="ana") is not None  # the removal comes back
    assert [e.grade for e in seen_question_elements(store, 1, "ana")] == [3]
    assert redo_change(store, actor="ana") is not None
    assert seen_question_elements(store, 1, "ana") == []


def test_undo_with_nothing_to_undo_says_none(store: Store) -> None:
    seed(store)
    assert undo_change(store, actor="nobody") is None
    assert redo_change(store, actor="nobody") is None


def test_attach_refused_on_an_adjudicated_question_stores_nothing(store: Store) -> None:
    seed(store, team=True)
    attach_span(store, 1, "w.html", 0, 10, annotator="ana")
    attach_span(store, 1, "w.html", 0, 10, annotator="bo")
    flip_done(store, 1, "ana")
    flip_done(store, 1, "bo")
    accept_group(store, 1, "w.html", 0, 10, actor="lead")
    settle_question(store, 1, by="lead")
    before = audit_count(store)
    with pytest.raises(IntegrityError, match="adjudicated"):
        attach_span(store, 1, "w.html", 33, 37, annotator="ana")
    assert audit_count(store) == before
    assert [(e.start, e.end) for e in seen_question_elements(store, 1, "ana")] == [(0, 10)]


def test_flip_done_marks_then_removes_the_mark(store: Store) -> None:
    seed(store, team=True)
    marked = flip_done(store, 1, "ana")
    assert (marked.marked, marked.no_answer, marked.external_id) == (True, True, "q1")
    assert flip_done(store, 1, "ana").marked is False


def test_edit_question_refuses_a_row_changed_meanwhile(store: Store) -> None:
    seed(store)
    initial = question_fields(store, 1)
    assert initial == QuestionFields("q1", "Which?", "n1")
    saved = edit_question(store, 1, initial, QuestionFields("q1", "Which one?", "n1"), actor="ana")
    assert saved == QuestionFields("q1", "Which one?", "n1")
    before = audit_count(store)
    with pytest.raises(StoreError, match="changed elsewhere"):
        edit_question(store, 1, initial, QuestionFields("q1", "Which?", "n2"), actor="bo")
    assert question_fields(store, 1) == saved
    assert audit_count(store) == before
    with pytest.raises(NotFoundError, match="no longer exists"):
        edit_question(store, 99, initial, saved, actor="ana")


def test_add_question_refuses_a_taken_id_and_an_unknown_gold_set(store: Store) -> None:
    seed(store)
    added = add_question(store, "gold", "q3", "Why?", actor="ana")
    assert (added.external_id, question_fields(store, added.id)) == (
        "q3",
        QuestionFields("q3", "Why?", ""),
    )
    with pytest.raises(IntegrityError):
        add_question(store, "gold", "q1", "again", actor="ana")
    with pytest.raises(NotFoundError):
        add_question(store, "nope", "q9", "x", actor="ana")


def test_find_documents_counts_only_what_the_annotator_sees(store: Store) -> None:
    seed(store, team=True)
    attach_span(store, 1, "w.html", 0, 10, annotator="ana")
    attach_span(store, 1, "w.html", 12, 31, annotator="bo")
    attach_span(store, 1, "w.html", 33, 37, annotator="bo")
    assert [(h.id, h.elements) for h in find_documents(store, "", "ana", 1).hits] == [("w.html", 1)]
    assert [(h.id, h.elements) for h in find_documents(store, "", "bo", 1).hits] == [("w.html", 2)]
    # another gold set's counts are not this one's (the gold-set scope)
    assert [(h.id, h.elements) for h in find_documents(store, "", "bo", 2).hits] == [("w.html", 0)]
