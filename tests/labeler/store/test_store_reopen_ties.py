"""Reopening settled questions and the grade tie rule, in the store.

* The tie rule (:func:`labeler.store.final_grade`): a table of hand-worked cases, and the
  same rule through every path that picks a final grade (``accept_all_unanimous``, the
  screen's ``a`` via :attr:`SpanGroup.grade`, ``adjudicate --auto majority``), both backends.
* :func:`labeler.store.reopen_questions` on both backends: pending again (progress, the
  adjudication queue), the lock lifted, all or nothing, undo and redo.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from labeler.errors import IntegrityError, NotFoundError
from labeler.store import (
    TIE_RULE,
    Store,
    accept_all_unanimous,
    accept_group,
    add_query,
    adjudication_view,
    create_gold_set,
    final_grade,
    grade_final,
    redo_change,
    reopen_questions,
    settle_question,
    tie_words,
    undo_change,
    upsert_document,
)
from labeler.store.adjudication import question_spans, tied_grades
from labeler.store.assign import team_progress
from labeler.store.autoadjudicate import auto_adjudicate
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, LAYER_FINAL, AuditEntry, Element, Query
from labeler.store.team import mark_done

backends = pytest.mark.backends("sqlite", "postgresql")

#         0         1         2         3         4
#         0123456789012345678901234567890123456789012
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."

# -- the tie rule: hand-worked table -----------------------------------------------------

#: (grades given, tied grades highest first, final grade); worked by counting votes
TIES = [
    ((), (), 1),  # nobody graded: the default grade
    ((2,), (), 2),  # one annotator
    ((3, 2), (3, 2), 2),  # 2 annotators, one vote each: tie, the lower
    ((2, 3), (3, 2), 2),  # the order given does not matter
    ((3, 3), (), 3),  # 2 annotators agree
    ((3, 3, 2), (), 3),  # 3 annotators: 3 has two votes, no tie
    ((2, 2, 3), (), 2),
    ((3, 2, 1), (3, 2, 1), 1),  # 3 annotators, one vote each: the lowest of the three
    ((3, 3, 2, 2), (3, 2), 2),  # 4 annotators, two votes each
    ((3, 3, 2, 2, 1), (3, 2), 2),  # the lower of the *tied* grades, not the lowest given
    ((1, 1, 3, 3, 3), (), 3),  # most votes wins even when it is the higher grade
]


@pytest.mark.parametrize(("grades", "tied", "final"), TIES, ids=[str(t[0]) for t in TIES])
def test_final_grade_table(grades: tuple[int, ...], tied: tuple[int, ...], final: int) -> None:
    assert final_grade(grades) == final
    assert tied_grades(grades) == tied
    if tied:
        shown = ", ".join(str(g) for g in tied)
        assert tie_words(grades) == f"grades {shown} tie: final {final} ({TIE_RULE})"
    else:
        assert tie_words(grades) == ""


def test_tie_words_say_the_rule() -> None:
    assert tie_words((3, 2)) == "grades 3, 2 tie: final 2 (ties take the lower grade)"


# -- the tie rule on every path that picks a grade ---------------------------------------


def seed_ties(store: Store) -> tuple[int, int]:
    """q1: ana 0–11 g3, bob 0–11 g2 (both done): a 2-annotator tie. q2: ana, bob g3 and
    cleo, dan g2 on 12–32, all four done: a 4-annotator tie."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        q1, q2 = (add_query(s, gold, q, "?", actor="lead").id for q in ("q1", "q2"))
        assert q1 is not None and q2 is not None
        for qid, span, grades in (
            (q1, (0, 11), {"ana": 3, "bob": 2}),
            (q2, (12, 32), {"ana": 3, "bob": 3, "cleo": 2, "dan": 2}),
        ):
            for who, grade in grades.items():
                add_element(
                    s, qid, "w.html", *span, annotator=who, layer=LAYER_ANNOTATOR, grade=grade
                )
                mark_done(s, qid, who)
        return q1, q2


def final_grades(store: Store) -> list[tuple[str, int, int, int]]:
    with store.session() as s:
        rows = s.exec(
            select(Query.external_id, Element.start, Element.end, Element.grade)
            .join(Query, Query.id == Element.query_id)  # type: ignore[arg-type]
            .where(Element.layer == LAYER_FINAL)
        ).all()
        return sorted((q, a, b, g) for q, a, b, g in rows)


@backends
def test_every_path_breaks_a_tie_to_the_lower_grade(store: Store) -> None:
    q1, q2 = seed_ties(store)
    # U (accept every unanimous span)
    accept_all_unanimous(store, q1, actor="lead")
    # a (the screen passes the group's grade)
    with store.session() as s:
        (group,) = question_spans(s, q2).groups
    assert group.grades == (3, 3, 2, 2) and group.grade == 2
    assert group.tie_words() == "grades 3, 2 tie: final 2 (ties take the lower grade)"
    accept_group(store, q2, "w.html", 12, 32, actor="lead", grade=group.grade)
    assert final_grades(store) == [("q1", 0, 11, 2), ("q2", 12, 32, 2)]
    # adjudicate --auto majority, on the same questions from scratch
    with store.write() as s:  # a fresh start for the rule: the final layer emptied
        for e in s.exec(select(Element).where(Element.layer == LAYER_FINAL)).all():
            s.delete(e)
    with store.write() as s:
        result = auto_adjudicate(s, "gold", "majority", actor="lead")
    # q2: 12–32 chosen by 4 of 4 (more than 4/2): accepted, grade from the 2–2 tie
    assert [(o.query_id, o.settled) for o in result.outcomes] == [("q1", True), ("q2", True)]
    assert [g.tie_words() for o in result.outcomes for g in o.accepted] == [
        "grades 3, 2 tie: final 2 (ties take the lower grade)"
    ] * 2
    assert final_grades(store) == [("q1", 0, 11, 2), ("q2", 12, 32, 2)]


# -- reopen ------------------------------------------------------------------------------


def seed_settled(store: Store) -> tuple[int, int, int]:
    """q1 and q2: ana and bob chose 0–11 and marked done, lead accepted it and settled both;
    q3: ana and bob done, not settled."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        ids = [add_query(s, gold, q, "?", actor="lead").id for q in ("q1", "q2", "q3")]
        q1, q2, q3 = (i for i in ids if i is not None)
        for qid in ids:
            assert qid is not None
            for who in ("ana", "bob"):
                add_element(s, qid, "w.html", 0, 11, annotator=who, layer=LAYER_ANNOTATOR)
                mark_done(s, qid, who)
    for qid in (q1, q2):
        accept_group(store, qid, "w.html", 0, 11, actor="lead")
        settle_question(store, qid, by="lead")
    return q1, q2, q3


def marks(store: Store) -> dict[str, tuple[object, object]]:
    with store.session() as s:
        return {q.external_id: (q.adjudicated_by, q.adjudicated_at) for q in s.exec(select(Query))}


def audit_count(store: Store) -> int:
    with store.session() as s:
        return len(s.exec(select(AuditEntry.id)).all())


@backends
def test_reopen_is_pending_listed_and_unlocked_and_undo_settles_again(store: Store) -> None:
    q1, _, _ = seed_settled(store)
    with store.session() as s:
        gold_id = s.exec(select(Query.gold_set_id).where(Query.id == q1)).one()
    with store.session() as s:
        progress = team_progress(s, "gold")
    assert (progress.adjudicated, progress.pending) == (2, 1)
    view = adjudication_view(store, gold_id, None)
    assert [w.external_id for w in view.queue] == ["q3"]
    # s: the settled ones follow, with who settled each and when
    shown = adjudication_view(store, gold_id, q1, settled=True)
    assert [(w.external_id, w.settled_by, w.settled) for w in shown.queue] == [
        ("q3", None, False),
        ("q1", "lead", True),
        ("q2", "lead", True),
    ]
    assert shown.chosen == q1 and shown.state is not None and shown.state.adjudicated
    was = marks(store)
    assert shown.queue[1].settled_at == was["q1"][1]
    n = audit_count(store)

    reopened = reopen_questions(store, "gold", ["q1"], actor="cleo")
    assert [(r.external_id, r.settled_by, r.settled_at) for r in reopened] == [
        ("q1", "lead", was["q1"][1])
    ]
    assert audit_count(store) == n + 1  # one entry per question
    assert marks(store)["q1"] == (None, None)
    with store.session() as s:
        progress = team_progress(s, "gold")
    assert (progress.adjudicated, progress.pending) == (1, 2)
    # back in the queue (waiting), out of the settled part
    shown = adjudication_view(store, gold_id, q1, settled=True)
    # (q1 and q3 agree alike, α = 1: equal figures keep question order)
    assert [(w.external_id, w.settled) for w in shown.queue] == [
        ("q1", False),
        ("q3", False),
        ("q2", True),
    ]
    assert shown.chosen == q1 and shown.state is not None and not shown.state.adjudicated
    # the lock is lifted: the final element's grade changes, then q1 is settled again
    with store.session() as s:
        final_id = s.exec(
            select(Element.id).where(Element.query_id == q1, Element.layer == LAYER_FINAL)
        ).one()
    assert final_id is not None
    assert grade_final(store, final_id, 3, actor="cleo").grade == 3
    # undo the grade, then the reopen: settled again by lead at the same time
    assert undo_change(store, actor="cleo") is not None
    undone = undo_change(store, actor="cleo")
    assert undone == "undone: change question q1, open → settled by lead"
    assert marks(store) == was
    redone = redo_change(store, actor="cleo")
    assert redone == "redone: change question q1, settled by lead → open"
    assert marks(store)["q1"] == (None, None)


@backends
def test_reopen_is_all_or_nothing(store: Store) -> None:
    seed_settled(store)
    was, n = marks(store), audit_count(store)
    with pytest.raises(NotFoundError, match=r"^cannot reopen: no question 'q8', 'q9' in gold"):
        reopen_questions(store, "gold", ["q1", "q8", "q9"], actor="lead")
    with pytest.raises(IntegrityError, match=r"^cannot reopen q3: not settled"):
        reopen_questions(store, "gold", ["q1", "q2", "q3"], actor="lead")
    with pytest.raises(NotFoundError, match="gold set 'nope'"):
        reopen_questions(store, "nope", ["q1"], actor="lead")
    with pytest.raises(IntegrityError, match="at least one question"):
        reopen_questions(store, "gold", [], actor="lead")
    assert (marks(store), audit_count(store)) == (was, n)
    # both at once, q1 named twice: reopened once each, one entry each
    done = reopen_questions(store, "gold", ["q2", "q1", "q1"], actor="lead")
    assert [r.external_id for r in done] == ["q2", "q1"]
    assert audit_count(store) == n + 2
    assert {k: v[0] for k, v in marks(store).items()} == {"q1": None, "q2": None, "q3": None}
