"""Team gold sets in the store (schema version 7), on both backends.

Blind annotator layers (two annotators may label the same span; one may not label it twice),
done marks and assignments audited and undoable, adjudication into the final layer, and the
scoring/export view: final-layer elements only, team questions not adjudicated marked
pending, gold sets without team work exactly as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text as sql_text

from labeler.errors import IntegrityError
from labeler.store import (
    Store,
    add_query,
    create_gold_set,
    delete_query,
    redo,
    undo,
    upsert_document,
)
from labeler.store.adjudication import auto_decision, question_spans
from labeler.store.fastread import SqliteReader
from labeler.store.goldsets import export_gold_set
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, GoldSet
from labeler.store.team import (
    accept_span,
    add_assignment,
    assignments,
    done_mark,
    is_team,
    layer_elements,
    mark_done,
    set_adjudicated,
    unmark_done,
    view_of,
    visible_elements,
)

pytestmark = pytest.mark.backends("sqlite", "postgresql")

#         0         1         2         3         4
#         0123456789012345678901234567890123456789012
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."


def seed(store: Store) -> tuple[int, int]:
    """A gold set "gold" with questions q1 and q2 on page w.html; returns their ids."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        q1 = add_query(s, gold, "q1", "Which?", actor="lead")
        q2 = add_query(s, gold, "q2", "What?", actor="lead")
        assert q1.id is not None and q2.id is not None
        return q1.id, q2.id


def own(store: Store, query_id: int, who: str, start: int, end: int) -> None:
    with store.write() as s:
        add_element(s, query_id, "w.html", start, end, annotator=who, layer=LAYER_ANNOTATOR)


def exported(store: Store) -> list[tuple[str, list[tuple[int, int]], bool]]:
    with store.session() as s:
        return [
            (q.external_id, [(e.start, e.end) for e in q.elements], q.pending)
            for q in export_gold_set(s, "gold")
        ]


def test_two_annotators_may_label_one_span_but_nobody_twice(store: Store) -> None:
    q1, _ = seed(store)
    own(store, q1, "ana", 12, 32)
    own(store, q1, "bob", 12, 32)
    with pytest.raises(IntegrityError, match=r"^q1 already has w\.html 12–32$"):
        own(store, q1, "ana", 12, 32)
    with store.session() as s:
        layers = layer_elements(s, 1)
    assert {who: [(e.start, e.end) for e in found] for who, found in layers[q1].items()} == {
        "ana": [(12, 32)],
        "bob": [(12, 32)],
    }


def test_raw_sql_cannot_store_an_annotators_span_twice(store: Store) -> None:
    q1, _ = seed(store)
    own(store, q1, "ana", 12, 32)
    row = (
        'INSERT INTO element (query_id, document_id, start, "end", text, grade, annotator, '
        "created_at, status, assisted, layer, provenance) VALUES (:q, 'w.html', 12, 32, "
        "'Gamma delta epsilon.', 1, 'ana', '2026-01-01', 'ok', false, 'annotator', 'own')"
    )
    with pytest.raises(IntegrityError, match=r"uq_element_layer_span|UNIQUE"), store.write() as s:
        s.execute(sql_text(row), {"q": q1})


def test_labelling_is_blind_until_adjudicated(store: Store) -> None:
    q1, _ = seed(store)
    with store.write() as s:
        add_element(s, q1, "w.html", 0, 11, annotator="lead")  # final, before the team work
        assert not is_team(s, 1)
        assert view_of(s, q1, "ana").layer == "final"
        assert add_assignment(s, q1, "ana", actor="lead")
        assert not add_assignment(s, q1, "ana", actor="lead")  # already assigned
        assert is_team(s, 1)
    own(store, q1, "ana", 12, 32)
    own(store, q1, "bob", 33, 42)
    with store.session() as s:
        assert view_of(s, q1, "ana").layer == "annotator"
        assert [(e.start, e.annotator) for e in visible_elements(s, q1, "ana")] == [(12, "ana")]
        assert [(e.start, e.annotator) for e in visible_elements(s, q1, "bob")] == [(33, "bob")]
    # scoring and export: the final layer; q1 has team work and is not adjudicated
    assert exported(store) == [("q1", [(0, 11)], True), ("q2", [], False)]
    with store.write() as s:
        accept_span(s, q1, "w.html", 12, 32, provenance="adjudicated", actor="cleo")
        set_adjudicated(s, q1, by="cleo")
    assert exported(store) == [("q1", [(0, 11), (12, 32)], False), ("q2", [], False)]
    with store.session() as s:
        view = view_of(s, q1, "ana")
        assert (view.layer, view.adjudicated) == ("final", True)
        assert [e.start for e in visible_elements(s, q1, "ana")] == [0, 12]


@pytest.mark.backends("sqlite")  # the fast reader reads SQLite files only
def test_fast_reader_sees_the_same_final_layer(store: Store, db_path: Path) -> None:
    q1, _ = seed(store)
    own(store, q1, "ana", 12, 32)
    with store.write() as s:
        gold = s.get(GoldSet, 1)
        assert gold is not None
        mark_done(s, q1, "ana")
    reader = SqliteReader(db_path)
    try:
        fast = [(q.external_id, list(q.elements), q.pending) for q in reader.gold_questions("gold")]
    finally:
        reader.close()
    assert fast == [("q1", [], True), ("q2", [], False)]


def test_done_marks_are_audited_and_undoable(store: Store) -> None:
    q1, q2 = seed(store)
    own(store, q1, "ana", 12, 32)
    with store.write() as s:
        assert mark_done(s, q1, "ana").no_answer is False
        assert mark_done(s, q2, "ana").no_answer is True  # done with nothing: no answer here
        with pytest.raises(IntegrityError, match="q2 is already marked done by ana"):
            mark_done(s, q2, "ana")
    with store.write() as s:
        reversal = undo(s, actor="ana")
        assert reversal is not None
        assert reversal.describe() == "undone: add done mark of q2 by ana"
        assert done_mark(s, q2, "ana") is None
    with store.write() as s:
        assert redo(s, actor="ana") is not None
        assert done_mark(s, q2, "ana") is not None
        assert unmark_done(s, q2, "ana")
        assert not unmark_done(s, q2, "ana")
    with store.write() as s:
        assert undo(s, actor="ana") is not None  # the unmark
        assert done_mark(s, q2, "ana") is not None


def test_adjudication_is_undoable(store: Store) -> None:
    q1, _ = seed(store)
    own(store, q1, "ana", 12, 32)
    with store.write() as s:
        set_adjudicated(s, q1, by="cleo")
    assert exported(store)[0][2] is False
    with store.write() as s:
        assert undo(s, actor="cleo") is not None
    assert exported(store)[0][2] is True


def test_deleting_a_question_keeps_its_team_rows_for_undo(store: Store) -> None:
    q1, _ = seed(store)
    own(store, q1, "ana", 12, 32)
    with store.write() as s:
        add_assignment(s, q1, "ana", actor="lead")
        mark_done(s, q1, "ana")
        delete_query(s, q1, actor="lead")
    with store.session() as s:
        assert assignments(s, 1) == {}
    with store.write() as s:
        assert undo(s, actor="lead") is not None
    with store.session() as s:
        assert assignments(s, 1) == {q1: ["ana"]}
        assert done_mark(s, q1, "ana") is not None
        assert [e.annotator for e in layer_elements(s, 1)[q1]["ana"]] == ["ana"]


def test_a_final_element_needs_a_known_provenance(store: Store) -> None:
    q1, _ = seed(store)
    with pytest.raises(IntegrityError, match="unknown provenance"), store.write() as s:
        accept_span(s, q1, "w.html", 12, 32, provenance="vibes", actor="cleo")


def test_spans_grouped_for_adjudication_and_the_automatic_rules(store: Store) -> None:
    q1, q2 = seed(store)
    # ana, bob, cleo done; dan labelled but is not done, so dan's span does not count.
    for who, spans in {
        "ana": [(0, 11), (12, 32)],
        "bob": [(0, 11), (12, 32)],
        "cleo": [(12, 32), (33, 42)],
        "dan": [(33, 42)],
    }.items():
        for start, end in spans:
            own(store, q1, who, start, end)
    with store.write() as s:
        for who in ("ana", "bob", "cleo"):
            mark_done(s, q1, who)
            mark_done(s, q2, who)  # q2: all three done with no answer
    with store.session() as s:
        spans = question_spans(s, q1)
        nothing = question_spans(s, q2)
    assert spans.done_by == ("ana", "bob", "cleo")
    assert [(g.start, g.end, g.annotators) for g in spans.groups] == [
        (0, 11, ("ana", "bob")),
        (12, 32, ("ana", "bob", "cleo")),
        (33, 42, ("cleo",)),
    ]
    # unanimous: only 12–32 (3 of 3); 0–11 (2 of 3) and 33–42 (1 of 3) stay in dispute
    unanimous = auto_decision(spans, "unanimous")
    assert unanimous is not None
    assert [(g.start, g.end) for g in unanimous.accept] == [(12, 32)]
    assert [(g.start, g.end) for g in unanimous.disputed] == [(0, 11), (33, 42)]
    assert not unanimous.settles
    # majority: more than 3/2, i.e. 2 or 3 votes: 0–11 and 12–32; 33–42 (1 vote) in dispute
    majority = auto_decision(spans, "majority")
    assert majority is not None
    assert [(g.start, g.end) for g in majority.accept] == [(0, 11), (12, 32)]
    assert not majority.settles
    # all done with no answer: nothing to accept, nothing in dispute, settled
    empty = auto_decision(nothing, "unanimous")
    assert empty is not None and empty.accept == () and empty.settles
