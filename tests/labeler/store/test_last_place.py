"""Where an annotator left off, read from the audit log (the TUI's resume after restart)."""

from __future__ import annotations

import pytest

from labeler.store import (
    LastPlace,
    Store,
    add_query,
    attach_element,
    create_gold_set,
    delete_query,
    last_place,
    upsert_document,
)

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Intro. The index is never the source of record. Outro."


def test_last_place_follows_the_actors_latest_change_that_still_exists(store: Store) -> None:
    with store.write() as s:
        upsert_document(s, doc_id="p.html", source_path="p", sha256="x", profile="t", text=PAGE)
        first = create_gold_set(s, "first")
        second = create_gold_set(s, "second")
        assert first.id is not None and second.id is not None
        q1 = add_query(s, first, "q1", "What is the index?", actor="seed")
        q2 = add_query(s, second, "q2", "Second?", actor="seed")
        assert q1.id is not None and q2.id is not None
    with store.session() as s:
        assert last_place(s, "ana") is None  # ana has changed nothing
    with store.write() as s:
        attach_element(s, q1.id, "p.html", 7, 16, annotator="ana")
        attach_element(s, q2.id, "p.html", 20, 29, annotator="ana")
        attach_element(s, q1.id, "p.html", 0, 5, annotator="bob")  # another actor
    with store.session() as s:
        assert last_place(s, "ana") == LastPlace(second.id, q2.id, "p.html", 20)
        assert last_place(s, "bob") == LastPlace(first.id, q1.id, "p.html", 0)
    with store.write() as s:
        delete_query(s, q2.id, actor="seed")  # ana's latest question is gone
    with store.session() as s:
        assert last_place(s, "ana") == LastPlace(first.id, q1.id, "p.html", 7)
    with store.write() as s:
        add_query(s, first, "q3", "Third?", actor="ana")  # a question: no page
    with store.session() as s:
        place = last_place(s, "ana")
    assert place is not None and place.document_id is None and place.position is None
