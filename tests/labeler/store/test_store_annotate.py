"""Store functions behind the annotator TUI: progress, audited edits, undo/redo per actor."""

from __future__ import annotations

from pathlib import Path

import pytest

from labeler.errors import IntegrityError
from labeler.store import (
    Store,
    UndoConflict,
    add_query,
    attach_element,
    can_redo,
    can_undo,
    create_gold_set,
    delete_query,
    gold_set_progress,
    list_audit,
    list_questions,
    open_store,
    page_elements,
    question_elements,
    redo,
    search_documents,
    set_grade,
    undo,
    update_query,
    upsert_document,
)
from labeler.store.models import Query

PAGE = "Intro. FR-001: The index is never the source of record. Outro."


def seed(store: Store) -> tuple[int, int]:
    with store.write() as s:
        upsert_document(
            s, doc_id="p.html", source_path="p.html", sha256="x", profile="t", text=PAGE
        )
        gs = create_gold_set(s, "demo")
        q1 = add_query(s, gs, "q1", "What is the index?", actor="ana")
        q2 = add_query(s, gs, "q2", "Second?", actor="ana")
        assert q1.id is not None and q2.id is not None
        return q1.id, q2.id


def test_progress_and_questions(store: Store) -> None:
    q1, _ = seed(store)
    with store.write() as s:
        attach_element(s, q1, "p.html", 7, 55, annotator="ana")
        attach_element(s, q1, "p.html", 0, 6, annotator="bob", assisted=True)
    with store.session() as s:
        (progress,) = gold_set_progress(s)
        rows = list_questions(s, progress.id)
        elements = page_elements(s, "p.html")
    assert (progress.questions, progress.without_elements, progress.elements) == (2, 1, 2)
    assert progress.by_annotator == {"ana": 1, "bob": 1}
    assert [(r.external_id, r.n_gold, r.by_annotator) for r in rows] == [
        ("q1", 2, {"ana": 1, "bob": 1}),
        ("q2", 0, {}),
    ]
    assert [e.start for e in elements] == [0, 7]
    assert [e.assisted for e in elements] == [True, False]
    assert all(e.text == PAGE[e.start : e.end] for e in elements)


def test_attach_rejects_bad_span(store: Store) -> None:
    q1, _ = seed(store)
    with pytest.raises(IntegrityError), store.write() as s:
        attach_element(s, q1, "p.html", 5, 5, annotator="ana")


def test_grade_update_delete_are_audited(store: Store) -> None:
    q1, q2 = seed(store)
    with store.write() as s:
        e = attach_element(s, q1, "p.html", 7, 55, annotator="ana")
        set_grade(s, e.id, 3, actor="ana")
        update_query(s, q2, actor="ana", text="Changed?", notes="n")
    with store.session() as s:
        assert question_elements(s, q1)[0].grade == 3
        changes = [(a.action, a.entity) for a in list_audit(s, limit=2)]
    assert changes == [("change", "query"), ("change", "element")]
    with store.write() as s:
        delete_query(s, q1, actor="ana")
    with store.session() as s:
        assert s.get(Query, q1) is None
        assert page_elements(s, "p.html") == []
    # undo brings the question back with its element
    with store.write() as s:
        back = undo(s, actor="ana")
    assert back is not None and back.describe() == "undone: remove question q1"
    with store.session() as s:
        assert [e.grade for e in question_elements(s, q1)] == [3]


def test_undo_redo_sequence(store: Store) -> None:
    q1, _ = seed(store)
    with store.write() as s:
        e = attach_element(s, q1, "p.html", 7, 55, annotator="ana")
        set_grade(s, e.id, 2, actor="ana")
    with store.write() as s:
        r = undo(s, actor="ana")
    assert r is not None and r.describe() == (
        "undone: change element of q1: 'FR-001: The index is never the source o…' "
        "(p.html 7–55), g2 → g1"
    )
    with store.session() as s:
        assert question_elements(s, q1)[0].grade == 1
    with store.write() as s:
        undo(s, actor="ana")
    with store.session() as s:
        assert question_elements(s, q1) == []
        assert can_redo(s, "ana")
    with store.write() as s:
        first, second = redo(s, actor="ana"), redo(s, actor="ana")
    assert first is not None and first.describe() == (
        "redone: add element of q1: 'FR-001: The index is never the source o…' (p.html 7–55)"
    )
    assert second is not None and second.describe().endswith("(p.html 7–55), g1 → g2")
    with store.session() as s:
        assert [(x.id, x.grade) for x in question_elements(s, q1)] == [(e.id, 2)]
        assert not can_redo(s, "ana")


def test_new_change_clears_redo(store: Store) -> None:
    q1, _ = seed(store)
    with store.write() as s:
        attach_element(s, q1, "p.html", 7, 55, annotator="ana")
    with store.write() as s:
        undo(s, actor="ana")
        attach_element(s, q1, "p.html", 0, 6, annotator="ana")
    with store.session() as s:
        assert not can_redo(s, "ana")


def test_undo_only_touches_own_changes(store: Store) -> None:
    q1, _ = seed(store)
    with store.write() as s:
        mine = attach_element(s, q1, "p.html", 7, 55, annotator="ana")
        attach_element(s, q1, "p.html", 0, 6, annotator="bob")
    with store.write() as s:
        undo(s, actor="ana")
    with store.session() as s:
        left = question_elements(s, q1)
    assert [e.annotator for e in left] == ["bob"]
    assert mine.id not in {e.id for e in left}


def test_undo_conflict_when_someone_else_changed_the_row(store: Store) -> None:
    q1, _ = seed(store)
    with store.write() as s:
        e = attach_element(s, q1, "p.html", 7, 55, annotator="ana")
        set_grade(s, e.id, 2, actor="bob")
    with pytest.raises(UndoConflict), store.write() as s:
        undo(s, actor="ana")
    with store.session() as s:
        assert can_undo(s, "ana")
        assert question_elements(s, q1)[0].grade == 2


def test_undo_history_survives_restart(db_path: Path) -> None:
    with open_store(str(db_path)) as store:
        q1, _ = seed(store)
        with store.write() as s:
            attach_element(s, q1, "p.html", 7, 55, annotator="ana")
        with store.write() as s:
            undo(s, actor="ana")
    with open_store(str(db_path)) as store:
        with store.write() as s:
            assert redo(s, actor="ana") is not None
        with store.session() as s:
            assert len(question_elements(s, q1)) == 1


def test_nothing_to_undo(store: Store) -> None:
    with store.write() as s:
        assert undo(s, actor="nobody") is None
        assert redo(s, actor="nobody") is None


def test_search_documents_by_id_and_text(store: Store) -> None:
    seed(store)
    with store.write() as s:
        upsert_document(s, doc_id="other.txt", source_path="o", sha256="y", profile="t", text="zz")
    with store.session() as s:
        assert [h.id for h in search_documents(s).hits] == ["other.txt", "p.html"]
        assert [h.id for h in search_documents(s, "OTHER").hits] == ["other.txt"]
        (hit,) = search_documents(s, "source of record").hits
    assert hit.id == "p.html" and hit.position == PAGE.index("source of record")
    assert "«source» «of» «record»" in hit.snippet  # each matched word marked


@pytest.mark.backends("sqlite", "postgresql")
def test_search_documents_ranks_exact_id_first(store: Store) -> None:
    """Exact id (or last path part), id prefix, id contains (a needle's _ and % literal),
    then words matches, by rank; ties by id."""
    with store.write() as s:
        for doc_id, text in [
            ("a/b.html", "one"),
            ("ab.html", "two"),
            ("b.html.bak", "three"),
            ("b.html", "four"),
            ("aaa.txt", "see B.html for more"),
            ("b_html", "five"),
        ]:
            upsert_document(
                s, doc_id=doc_id, source_path=doc_id, sha256=doc_id, profile="t", text=text
            )
    with store.session() as s:
        hits = search_documents(s, "B.html").hits
    found = [h.id for h in hits]
    assert found[:4] == ["a/b.html", "b.html", "b.html.bak", "ab.html"]
    assert all(h.rank is None for h in hits[:4])  # found by id
    # then the text matches, aaa.txt's text holding B.html; b_html's id is not b.html (its _
    # is no wildcard), though SQLite's index, which splits ids into words as it splits text,
    # finds the words b, html in it as a words match (PostgreSQL reads b.html as one word)
    words = [h for h in hits[4:] if h.id != "b_html"]
    assert [h.id for h in words] == ["aaa.txt"] and words[0].rank is not None
    assert set(found) - {"b_html"} == {"a/b.html", "b.html", "b.html.bak", "ab.html", "aaa.txt"}
